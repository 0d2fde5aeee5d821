"""The pivot A*'s compiled loop as it runs: a library built ahead of time, or Numba's JIT.

The kernels of :mod:`kamicp.search.pivot_kernels` are compiled (:func:`build`, through
:mod:`kamicp.aot`) into a shared library that runs without Numba: opening it takes a
millisecond, where importing Numba and loading the same loops from its cache takes about
half a second, most of a one-board Flood-It command (BENCHMARKS.md, "Start-up").

A library is used only when it was built from the sources imported: it carries a
fingerprint of them (:func:`source_fingerprint`), so an edited kernel never runs in its old
form. The kernels in use are, in order:

1. the library installed beside this file (:data:`LIBRARY`, built by ``setup.py``);
2. the library in kamicp's cache folder for these sources (:func:`kamicp.jit.cache_folder`);
3. otherwise one built there at the first call, for this machine's CPU (seconds, as long
   as the JIT's first compile): so an edit or an install without the build costs one
   compile, and the runs after it start as fast as an installed library;
4. Numba's JIT, where no library can be built (no linker, a read-only cache folder), inside
   :func:`kamicp.jit.no_compiling`, or with ``KAMICP_JIT`` set in the environment.

All give the same answers; tests compare them. Each entry point has a C form over pointers
and sizes (:func:`c_entry_points`, for the build) and a Python form with the kernel's
arguments (:class:`NativeKernels`), which checks each array's type and shape
(:func:`address`) before handing its address over.

Examples
--------
>>> NATIVE in (True, False)
True
>>> len(source_fingerprint()) == 16
True
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import threading
from pathlib import Path

import numpy as np

from kamicp.aot import EXPORT_PREFIX
from kamicp.search import pivot_kernels
from kamicp.search.pivot_kernels import WORK_ROWS

__all__ = [
    "LIBRARY",
    "NATIVE",
    "SOURCES",
    "NativeKernels",
    "address",
    "build",
    "built_here",
    "c_entry_points",
    "cached_library",
    "expand",
    "installed_library",
    "kernels_in_use",
    "native_kernels",
    "open_start",
    "rehash",
    "source_fingerprint",
]

# The library's file, beside this one (``setup.py`` names it so: a shared library for
# ctypes, not a Python extension, which nothing should try to import).
LIBRARY = "pivot_native.lib"

# The files whose text the library depends on, under the package folder.
SOURCES = (
    "aot.py",
    "jit.py",
    "search/bitsets.py",
    "search/pivot_code.py",
    "search/pivot_kernels.py",
)


def source_fingerprint(root: str | os.PathLike | None = None) -> str:
    """A digest (16 hex digits) of the text of :data:`SOURCES` under the package ``root``
    (default: this kamicp's folder)."""
    base = Path(root) if root is not None else Path(__file__).resolve().parent.parent
    digest = hashlib.blake2b(digest_size=8)
    for name in SOURCES:
        digest.update((base / name).read_bytes())
    return digest.hexdigest()


def _stamp(fingerprint: str) -> int:
    """The fingerprint as the signed 64-bit number the library returns."""
    return int(fingerprint, 16) - 2**63


def c_entry_points(fingerprint: str) -> dict:
    """The C entry points of the kernels and of the ``fingerprint``, as Numba ``cfunc``
    objects (this imports Numba and compiles them): each array is a pointer and its sizes.
    """
    from numba import carray, cfunc, types

    from kamicp.jit import compile_kernels

    compile_kernels()  # the kernels of pivot_kernels are Numba dispatchers from here on
    words_p, longs_p = types.CPointer(types.uint64), types.CPointer(types.int64)
    i8 = types.int64
    stamp = _stamp(fingerprint)

    @cfunc(types.int64())
    def fingerprint_entry():
        return stamp

    @cfunc(
        types.void(words_p, words_p, i8, i8, words_p, i8, i8, longs_p, words_p, words_p, longs_p)
    )
    def open_start_entry(
        root, neighbours, n, words, colour_masks, k, final, colours, work, layers, out
    ):
        pivot_kernels.open_start(
            carray(root, (words,)),
            carray(neighbours, (n, words)),
            carray(colour_masks, (k, words)),
            final,
            carray(colours, (n + 1,)),
            carray(work, (WORK_ROWS, words)),
            carray(layers, (n + 1,)),
            carray(out, (2,)),
        )

    expand_signature = types.int64(
        words_p,
        i8,
        i8,
        words_p,
        i8,
        words_p,
        words_p,
        i8,
        types.CPointer(types.int32),
        longs_p,
        types.CPointer(types.int8),
        longs_p,
        types.CPointer(types.boolean),
        longs_p,
        i8,
        longs_p,
        i8,
        longs_p,
        i8,
        i8,
        words_p,
    )

    @cfunc(expand_signature)
    def expand_entry(
        neighbours,
        n,
        words,
        colour_masks,
        k,
        full,
        store,
        rows,
        gval,
        parent,
        move,
        link,
        stale,
        table,
        slots,
        heads,
        depth,
        stats,
        final,
        budget,
        work,
    ):
        return pivot_kernels.expand(
            carray(neighbours, (n, words)),
            carray(colour_masks, (k, words)),
            carray(full, (words,)),
            carray(store, (rows, words)),
            carray(gval, (rows,)),
            carray(parent, (rows,)),
            carray(move, (rows,)),
            carray(link, (rows,)),
            carray(stale, (rows,)),
            carray(table, (slots,)),
            carray(heads, (depth, depth)),
            carray(stats, (pivot_kernels.USED + 1,)),
            final,
            budget,
            carray(work, (WORK_ROWS, words)),
        )

    @cfunc(types.void(longs_p, i8, longs_p, i8, words_p, i8, i8))
    def rehash_entry(old, n_old, new, n_new, store, rows, words):
        pivot_kernels.rehash(
            carray(old, (n_old,)), carray(new, (n_new,)), carray(store, (rows, words))
        )

    return {
        "fingerprint": fingerprint_entry,
        "open_start": open_start_entry,
        "expand": expand_entry,
        "rehash": rehash_entry,
    }


def build(
    path: str | os.PathLike, root: str | os.PathLike | None = None, cpu: str | None = None
) -> None:
    """Build the library of the kernels at ``path``, stamped with the fingerprint of the
    sources under ``root`` (default: this kamicp's folder), which must be the ones imported,
    for the CPU ``cpu`` (default: :func:`kamicp.aot.target_cpu`, at which Numba is aimed
    too where it is not imported yet)."""
    from kamicp.aot import aim_numba, build_library

    if cpu is None:
        aim_numba()
    build_library(c_entry_points(source_fingerprint(root)), path, cpu)


def address(a: np.ndarray, dtype: type, *shape: int) -> int:
    """The address of the C-contiguous array ``a`` of ``dtype`` and ``shape``; TypeError
    for any other, which the library would misread.

    Examples
    --------
    >>> address(np.zeros((2, 3), dtype=np.uint64), np.uint64, 2, 3) > 0
    True
    """
    if a.dtype != dtype or not a.flags.c_contiguous or a.shape != shape:
        raise TypeError(
            f"expected a C-contiguous {np.dtype(dtype)} array of shape {shape}, "
            f"got {a.dtype} {a.shape}"
        )
    return a.ctypes.data


_I8, _U8 = ctypes.c_int64, ctypes.c_void_p  # a number, an address


class NativeKernels:
    """The kernels of the library at ``path``, called with the kernels' arguments."""

    def __init__(self, path: str) -> None:
        library = ctypes.CDLL(path)
        self._fingerprint = library[EXPORT_PREFIX + "fingerprint"]
        self._fingerprint.restype, self._fingerprint.argtypes = _I8, []
        self._open_start = library[EXPORT_PREFIX + "open_start"]
        self._open_start.restype = None
        self._open_start.argtypes = [_U8, _U8, _I8, _I8, _U8, _I8, _I8, _U8, _U8, _U8, _U8]
        self._expand = library[EXPORT_PREFIX + "expand"]
        self._expand.restype = _I8
        self._expand.argtypes = [_U8, _I8, _I8, _U8, _I8, _U8, _U8, _I8, _U8, _U8, _U8, _U8]
        self._expand.argtypes += [_U8, _U8, _I8, _U8, _I8, _U8, _I8, _I8, _U8]
        self._rehash = library[EXPORT_PREFIX + "rehash"]
        self._rehash.restype = None
        self._rehash.argtypes = [_U8, _I8, _U8, _I8, _U8, _I8, _I8]

    def fingerprint(self) -> int:
        """The fingerprint of the sources the library was built from (:func:`_stamp`)."""
        return self._fingerprint()

    def open_start(self, root, neighbours, colour_masks, final, colours, work, layers, out):
        """:func:`kamicp.search.pivot_kernels.open_start`."""
        n, words = neighbours.shape
        k = colour_masks.shape[0]
        self._open_start(
            address(root, np.uint64, words),
            address(neighbours, np.uint64, n, words),
            n,
            words,
            address(colour_masks, np.uint64, k, words),
            k,
            final,
            address(colours, np.int64, n + 1),
            address(work, np.uint64, WORK_ROWS, words),
            address(layers, np.uint64, n + 1),
            address(out, np.int64, 2),
        )

    def expand(
        self,
        neighbours,
        colour_masks,
        full,
        store,
        gval,
        parent,
        move,
        link,
        stale,
        table,
        heads,
        stats,
        final,
        budget,
        work,
    ) -> int:
        """:func:`kamicp.search.pivot_kernels.expand`."""
        n, words = neighbours.shape
        k = colour_masks.shape[0]
        rows = store.shape[0]
        depth = heads.shape[0]
        return self._expand(
            address(neighbours, np.uint64, n, words),
            n,
            words,
            address(colour_masks, np.uint64, k, words),
            k,
            address(full, np.uint64, words),
            address(store, np.uint64, rows, words),
            rows,
            address(gval, np.int32, rows),
            address(parent, np.int64, rows),
            address(move, np.int8, rows),
            address(link, np.int64, rows),
            address(stale, np.bool_, rows),
            address(table, np.int64, table.shape[0]),
            table.shape[0],
            address(heads, np.int64, depth, depth),
            depth,
            address(stats, np.int64, pivot_kernels.USED + 1),
            final,
            budget,
            address(work, np.uint64, WORK_ROWS, words),
        )

    def rehash(self, old, new, store) -> None:
        """:func:`kamicp.search.pivot_kernels.rehash`."""
        rows, words = store.shape
        self._rehash(
            address(old, np.int64, old.shape[0]),
            old.shape[0],
            address(new, np.int64, new.shape[0]),
            new.shape[0],
            address(store, np.uint64, rows, words),
            rows,
            words,
        )


def installed_library() -> str:
    """The path of the library built at install time, beside this file."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), LIBRARY)


def cached_library() -> str:
    """The path of a library built at run time: in kamicp's cache folder for these sources."""
    from kamicp.jit import cache_folder

    return os.path.join(cache_folder(), LIBRARY)


def _current(path: str) -> NativeKernels | None:
    """The library at ``path`` if it is there, loads, and was built from these sources."""
    if not os.path.exists(path):
        return None
    try:
        native = NativeKernels(path)
    except (OSError, AttributeError):  # not loadable here, or not a library of these entries
        return None
    return native if native.fingerprint() == _stamp(source_fingerprint()) else None


def native_kernels() -> NativeKernels | None:
    """The installed library, else the cached one, if current and not refused by
    ``KAMICP_JIT``; else None."""
    if os.environ.get("KAMICP_JIT"):
        return None
    return _current(installed_library()) or _current(cached_library())


def built_here() -> NativeKernels | None:
    """A library built now into kamicp's cache folder for this machine's CPU; None where
    it cannot be (``KAMICP_JIT``, no linker, an unwritable folder, a failed build)."""
    from kamicp.aot import linker
    from kamicp.jit import NotCompiled

    if os.environ.get("KAMICP_JIT") or not linker():
        return None
    path = cached_library()
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        build(path, cpu="host")
    except NotCompiled:
        raise
    except Exception:  # whatever stops the build, the JIT runs the same kernels
        return None
    return _current(path)


_chosen: list = []  # the kernels chosen at the first call, where no library was current
_choosing = threading.Lock()  # one thread builds; the others wait for its library


def kernels_in_use():
    """The kernels this process runs: the library found at import, else the one built at
    the first call, else the JIT's (:func:`built_here`). Inside
    :func:`kamicp.jit.no_compiling` before that choice, the JIT's, without deciding for
    later calls."""
    from kamicp.jit import refusing

    if _native is not None:
        return _native
    if not _chosen:
        if refusing():
            return pivot_kernels
        with _choosing:
            if not _chosen:
                _chosen.append(built_here() or pivot_kernels)
    return _chosen[0]


_native = native_kernels()
NATIVE = _native is not None  # a current library was found at import
if _native is not None:
    open_start, expand, rehash = _native.open_start, _native.expand, _native.rehash
else:

    def open_start(*args) -> None:
        """:func:`kamicp.search.pivot_kernels.open_start`, by the kernels chosen now."""
        return kernels_in_use().open_start(*args)

    def expand(*args) -> int:
        """:func:`kamicp.search.pivot_kernels.expand`, by the kernels chosen now."""
        return kernels_in_use().expand(*args)

    def rehash(*args) -> None:
        """:func:`kamicp.search.pivot_kernels.rehash`, by the kernels chosen now."""
        return kernels_in_use().rehash(*args)
