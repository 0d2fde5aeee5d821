"""The six puzzle formats by name: detecting a text's format, reading and writing any of them.

The formats (the name is the ``fmt`` argument) are ``'grid'`` (:mod:`~kamicp.formats.grid`),
``'flood'`` (:mod:`~kamicp.formats.flood`), ``'puz'`` (:mod:`~kamicp.formats.puz`),
``'json'`` (:mod:`~kamicp.formats.graph`), ``'floodit99'``
(:mod:`~kamicp.formats.floodit99`) and ``'digits'`` (:mod:`~kamicp.formats.digits`). Every
reader returns :class:`~kamicp.game.board.Board` objects and never guesses silently: an
unknown key, a ragged row, an edge to an unknown node, a self-loop, a pivot on a hole, a
colour out of range, an empty board or a wrong count raises
:class:`~kamicp.errors.InputError` naming the file and the line (the command line turns it
into one message and exit code 2). All readers and writers run in time linear in the size of
the text.

Detection (:func:`detect`): JSON when the text starts with ``{`` or ``[``; ``flood`` when the
first line is ``W by H -> N``; ``puz`` when it starts with ``NN|``; ``floodit99`` when the
first content line is three integers, the last a single integer, and all between integers
(no valid grid looks like that: its first row would have 3 cells, its last 1); ``digits``
when every line is one square board of digits and no grid reading fits well
(:func:`~kamicp.formats.digits.looks_like_digits`); else grid.

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
from kamicp.formats.digits import looks_like_digits, read_digits, write_digits
from kamicp.formats.files import iter_paths, read_text, shown
from kamicp.formats.flood import FLOOD_HEADER, read_flood, write_flood
from kamicp.formats.floodit99 import INTEGER, read_floodit99, write_floodit99
from kamicp.formats.graph import read_json, write_json
from kamicp.formats.grid import read_grid, write_grid
from kamicp.formats.puz import PUZ_START, read_puz, write_puz
from kamicp.game.board import Board

__all__ = ["FORMATS", "READERS", "WRITERS", "detect", "dump", "load", "parse", "puzzles"]

FORMATS = ("grid", "flood", "puz", "json", "floodit99", "digits")


READERS = {
    "grid": read_grid,
    "flood": read_flood,
    "puz": read_puz,
    "json": read_json,
    "floodit99": read_floodit99,
    "digits": read_digits,
}

WRITERS = {
    "grid": write_grid,
    "flood": write_flood,
    "puz": write_puz,
    "json": write_json,
    "floodit99": write_floodit99,
    "digits": write_digits,
}


def load(path: str, fmt: str | None = None, text: str | None = None) -> list[Board]:
    """Every puzzle in the file at ``path``.

    Parameters
    ----------
    path : str
        The file, or :data:`~kamicp.formats.files.STDIN` for standard input.
    fmt : str, optional
        One of :data:`FORMATS`; None detects the format from the content (:func:`detect`).
    text : str, optional
        The file's text when already read; ``path`` then only names it.

    Returns
    -------
    list of Board
        The puzzles, in file order (at least one).

    Raises
    ------
    InputError
        When the file cannot be read or holds a malformed puzzle, naming the file and line.
    """
    if text is None:
        text = read_text(path)
    return parse(text, shown(path), fmt)


def parse(text: str, path: str = "<input>", fmt: str | None = None) -> list[Board]:
    """Every puzzle in ``text``.

    Parameters
    ----------
    text : str
        The puzzle text (a leading byte-order mark is ignored).
    path : str
        Names the text in messages and gives the boards their default names.
    fmt : str, optional
        One of :data:`FORMATS`; None detects the format (:func:`detect`).

    Returns
    -------
    list of Board
        The puzzles, in order (at least one).

    Raises
    ------
    InputError
        When the format is unknown or the text malformed, naming ``path`` and the line.

    Examples
    --------
    >>> [board] = parse("rules: pivot\\nRG\\n")
    >>> board.rules, board.palette, board.pivot
    ('pivot', ('G', 'R'), (0, 0))
    """
    text = text.removeprefix("\ufeff")
    fmt = fmt or detect(text)
    if fmt not in READERS:
        raise InputError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})", path)
    boards = READERS[fmt](text, path)
    if not boards:
        raise InputError("no puzzle in the file", path, 1)
    return boards


def detect(text: str) -> str:
    """The format of ``text``, from its content (see the module docstring).

    Parameters
    ----------
    text : str
        The puzzle text.

    Returns
    -------
    str
        One of :data:`FORMATS`; ``'grid'`` when nothing else fits.

    Examples
    --------
    >>> detect("01|Default|0|0|1|20|1r|1||0|"), detect("1 1 2\\n1\\n0\\n")
    ('puz', 'floodit99')
    >>> detect("0120 2\\n"), detect("0120\\n1201\\n")
    ('digits', 'grid')
    """
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
    if looks_like_digits(content):
        return "digits"
    return "grid"


def puzzles(paths: list[str]) -> list[tuple[str, int, Board]]:
    """Every puzzle under ``paths``, every file read now.

    Reading all files up front makes a bad one an error before a long run (bench, batch,
    cross-check) starts, not when its turn comes.

    Parameters
    ----------
    paths : list of str
        Files and folders, as for :func:`~kamicp.formats.files.iter_paths`.

    Returns
    -------
    list of tuple of (str, int, Board)
        The file, the puzzle's 1-based index in it, and the board.

    Raises
    ------
    InputError
        When a path is missing or a file cannot be read or parsed.
    """
    return [(path, i, board) for path in iter_paths(paths) for i, board in enumerate(load(path), 1)]


def dump(board: Board, fmt: str) -> str:
    """``board`` as text of format ``fmt``, which :func:`parse` reads back.

    Parameters
    ----------
    board : Board
        The puzzle.
    fmt : str
        One of :data:`FORMATS`.

    Returns
    -------
    str
        The text. ``Board.optimum`` is written where the format has a place for it (grid
        text, JSON, floodit-99, digits).

    Raises
    ------
    InputError
        When the format is unknown or the board does not fit it (a graph as grid text,
        holes in flood text, ...).

    Examples
    --------
    >>> print(dump(parse("RG\\nGB\\n")[0], "grid"), end="")
    RG
    GB
    """
    if fmt not in WRITERS:
        raise InputError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})", board.source)
    return WRITERS[fmt](board)
