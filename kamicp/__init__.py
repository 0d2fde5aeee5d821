"""kamicp: an exact solver for flood-fill puzzles (KAMI 2, Flood-It) that proves its answers.

The public API (see the README's "Python API"):

- :func:`load`, :func:`load_all`: puzzles from files or text, in any format kamicp reads;
- :func:`solve`: the fewest moves, with a proof (:class:`Result`);
- :func:`check`: replay moves with the rules engine (:class:`Verdict`);
- :func:`format_moves`, :func:`parse_moves`: moves in the command line's notation;
- :class:`Board`, :class:`RegionGraph` (``RegionGraph.from_networkx``, ``to_networkx``).

The names are loaded on first use, so that ``import kamicp`` (and the command line, which
imports it first) does not load the solvers' libraries until they are needed.
"""

from __future__ import annotations

import hashlib
import importlib
import os

__version__ = "0.1.0"


def _numba_cache_dir() -> str:
    """Where Numba caches the compiled loops: the user's cache folder (files written inside
    an installed package would not be pip's to remove), one subfolder per state of these
    sources. Numba checks only the file of each cached function, not the files of the
    functions compiled into it, so a cache kept across a change elsewhere could run the old
    code of a callee."""
    digest = hashlib.blake2b(digest_size=8)
    root = os.path.dirname(os.path.abspath(__file__))
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".py"):
                stat = os.stat(os.path.join(folder, name))
                digest.update(f"{folder}/{name}:{stat.st_mtime_ns}:{stat.st_size};".encode())
    base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return os.path.join(base, "kamicp", digest.hexdigest())


os.environ.setdefault("NUMBA_CACHE_DIR", _numba_cache_dir())

_HOMES = {
    "Board": "kamicp.game.board",
    "RegionGraph": "kamicp.game.regions",
    "Result": "kamicp.result",
    "Verdict": "kamicp.api",
    "check": "kamicp.api",
    "format_moves": "kamicp.api",
    "load": "kamicp.api",
    "load_all": "kamicp.api",
    "parse_moves": "kamicp.api",
    "solve": "kamicp.api",
}

__all__ = ["__version__", *sorted(_HOMES)]


def __getattr__(name: str):
    if name in _HOMES:
        value = getattr(importlib.import_module(_HOMES[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'kamicp' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))
