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

import importlib

__version__ = "0.1.0"


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
