"""The pivot A*'s compiled loop as it runs: the ahead-of-time build, or Numba's JIT.

``setup.py`` compiles :mod:`kamicp.search.pivot_kernels` ahead of time (Numba's ``pycc``)
into the extension ``kamicp.search.pivot_native`` when kamicp is installed. Loading it
takes a millisecond, where importing Numba and loading the same loops from its cache takes
about half a second: most of a one-board Flood-It command (BENCHMARKS.md, "Start-up").

The build is used only when it was made from the sources installed beside it: it carries
a fingerprint of them (:func:`source_fingerprint`), so an edited kernel is never run in
its old form. Otherwise, or with ``KAMICP_JIT`` set in the environment, or where the build
failed (no C compiler), the same kernels run through Numba's JIT. Both give the same
answers; a test compares them.

Examples
--------
>>> NATIVE in (True, False)
True
>>> len(source_fingerprint()) == 16
True
"""

from __future__ import annotations

import hashlib
import importlib
import os
from pathlib import Path

from kamicp.search import pivot_kernels

__all__ = [
    "NATIVE",
    "SOURCES",
    "expand",
    "native_module",
    "open_start",
    "rehash",
    "source_fingerprint",
]

# The files compiled into the ahead-of-time build, beside this one.
SOURCES = ("jit.py", "search/bitsets.py", "search/pivot_kernels.py")


def source_fingerprint(root: str | os.PathLike | None = None) -> str:
    """A digest (16 hex digits) of the text of :data:`SOURCES` under the package ``root``
    (default: this kamicp's folder)."""
    base = Path(root) if root is not None else Path(__file__).resolve().parent.parent
    digest = hashlib.blake2b(digest_size=8)
    for name in SOURCES:
        digest.update((base / name).read_bytes())
    return digest.hexdigest()


def native_module():
    """The ahead-of-time build if it is there, current, and not refused by ``KAMICP_JIT``;
    else None."""
    if os.environ.get("KAMICP_JIT"):
        return None
    try:
        native = importlib.import_module("kamicp.search.pivot_native")
    except ImportError:
        return None
    if native.fingerprint() != int(source_fingerprint(), 16) - 2**63:
        return None
    return native


_native = native_module()
NATIVE = _native is not None
if _native is not None:
    open_start, expand, rehash = _native.open_start, _native.expand, _native.rehash
else:
    open_start, expand, rehash = (
        pivot_kernels.open_start,
        pivot_kernels.expand,
        pivot_kernels.rehash,
    )
