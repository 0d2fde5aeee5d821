"""The five puzzle formats by name: detecting a text's format, reading and writing any of them.

The formats (the name is the ``fmt`` argument) are ``'grid'`` (:mod:`~kamicp.formats.grid`),
``'flood'`` (:mod:`~kamicp.formats.flood`), ``'puz'`` (:mod:`~kamicp.formats.puz`),
``'json'`` (:mod:`~kamicp.formats.graph`) and ``'floodit99'``
(:mod:`~kamicp.formats.floodit99`). Every reader returns :class:`~kamicp.game.board.Board`
objects and never guesses silently: an unknown key, a ragged row, an edge to an unknown node,
a self-loop, a pivot on a hole, a colour out of range, an empty board or a wrong count raises
:class:`~kamicp.errors.InputError` naming the file and the line (the command line turns it
into one message and exit code 2). All readers and writers run in time linear in the size of
the text.

Detection (:func:`detect`): JSON when the text starts with ``{`` or ``[``; ``flood`` when the
first line is ``W by H -> N``; ``puz`` when it starts with ``NN|``; ``floodit99`` when the
first content line is three integers, the last a single integer, and all between integers
(no valid grid looks like that: its first row would have 3 cells, its last 1); else grid.

A proved optimum the file records (an ``optimum`` key, the floodit-99 optimum) is kept in
``Board.optimum``; the writers put it back where the format has a place for it.

Examples
--------
>>> detect("RG\\nGB\\n"), detect("3 by 2 -> 4\\n121\\n332\\n"), detect('{"nodes": {}}')
('grid', 'flood', 'json')
>>> board = parse("RG\\nGB\\n")[0]
>>> parse(dump(board, "json"))[0].palette == board.palette
True
"""

from __future__ import annotations

from kamicp.errors import InputError
from kamicp.formats.files import iter_paths, read_text, shown
from kamicp.formats.flood import FLOOD_HEADER, read_flood, write_flood
from kamicp.formats.floodit99 import INTEGER, read_floodit99, write_floodit99
from kamicp.formats.graph import read_json, write_json
from kamicp.formats.grid import read_grid, write_grid
from kamicp.formats.puz import PUZ_START, read_puz, write_puz
from kamicp.game.board import Board

__all__ = ["FORMATS", "READERS", "WRITERS", "detect", "dump", "load", "parse", "puzzles"]

FORMATS = ("grid", "flood", "puz", "json", "floodit99")


READERS = {
    "grid": read_grid,
    "flood": read_flood,
    "puz": read_puz,
    "json": read_json,
    "floodit99": read_floodit99,
}

WRITERS = {
    "grid": write_grid,
    "flood": write_flood,
    "puz": write_puz,
    "json": write_json,
    "floodit99": write_floodit99,
}


def load(path: str, fmt: str | None = None, text: str | None = None) -> list[Board]:
    """Every puzzle in the file at ``path`` (or in ``text``, named ``path`` in messages).

    ``fmt`` (one of :data:`FORMATS`) overrides detection from the content.
    """
    if text is None:
        text = read_text(path)
    return parse(text, shown(path), fmt)


def parse(text: str, path: str = "<input>", fmt: str | None = None) -> list[Board]:
    """Every puzzle in ``text``; ``path`` names it in messages and board names."""
    text = text.removeprefix("\ufeff")
    fmt = fmt or detect(text)
    if fmt not in READERS:
        raise InputError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})", path)
    boards = READERS[fmt](text, path)
    if not boards:
        raise InputError("no puzzle in the file", path, 1)
    return boards


def detect(text: str) -> str:
    """The format of ``text``: one of :data:`FORMATS` (see the module docstring)."""
    text = text.removeprefix("\ufeff")
    stripped = text.lstrip()
    if stripped[:1] in ("{", "["):
        return "json"
    content = [line.strip() for line in text.splitlines()]
    content = [line for line in content if line and not line.startswith("#")]
    if not content:
        return "grid"
    first = content[0]
    if FLOOD_HEADER.fullmatch(first):
        return "flood"
    if PUZ_START.match(first):
        return "puz"
    if (
        len(content) >= 3
        and len(first.split()) == 3
        and len(content[-1].split()) == 1
        and all(INTEGER.fullmatch(tok) for line in content for tok in line.split())
    ):
        return "floodit99"
    return "grid"


def puzzles(paths: list[str]) -> list[tuple[str, int, Board]]:
    """(file, 1-based index in the file, board) for every puzzle under ``paths``
    (:func:`iter_paths`), every file read now: a bad one is an :class:`InputError` before a
    long run (bench, batch, cross-check) starts, not when its turn comes."""
    return [(path, i, board) for path in iter_paths(paths) for i, board in enumerate(load(path), 1)]


def dump(board: Board, fmt: str) -> str:
    """``board`` as text of format ``fmt``; :func:`parse` reads it back.

    ``Board.optimum`` is written where the format has a place for it (grid text, JSON,
    floodit-99).

    Raises :class:`InputError` when the board does not fit the format (a graph as grid
    text, holes in flood text, ...).
    """
    if fmt not in WRITERS:
        raise InputError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})", board.source)
    return WRITERS[fmt](board)
