"""The seven puzzle formats by name: detecting a text's format, reading and writing any of them.

The formats (the name is the ``fmt`` argument) are ``'grid'`` (:mod:`~kamicp.formats.grid`),
``'flood'`` (:mod:`~kamicp.formats.flood`), ``'gameid'`` (:mod:`~kamicp.formats.gameid`),
``'puz'`` (:mod:`~kamicp.formats.puz`),
``'json'`` (:mod:`~kamicp.formats.graph`), ``'floodit99'``
(:mod:`~kamicp.formats.floodit99`) and ``'digits'`` (:mod:`~kamicp.formats.digits`). Every
reader returns :class:`~kamicp.game.board.Board` objects and never guesses silently: an
unknown key, a ragged row, an edge to an unknown node, a self-loop, a pivot on a hole, a
colour out of range, an empty board or a wrong count raises
:class:`~kamicp.errors.InputError` naming the file and the line (the command line turns it
into one message and exit code 2). All readers and writers run in time linear in the size of
the text.

Detection (:func:`detect`): JSON when the text starts with ``{`` or ``[``; ``flood`` when the
first line is ``W by H -> N``; ``gameid`` when it is a Tatham game ID or random seed; ``puz``
when it starts with ``NN|``; ``floodit99`` when the first content line is three integers, the
last a single integer, and all between integers (no valid grid looks like that: its first row
would have 3 cells, its last 1); ``digits`` when every line is one square board of digits and
no grid reading fits well (:func:`~kamicp.formats.digits.looks_like_digits`); else grid.

A game ID given where a file name is expected (a command-line argument, :func:`load`) is
read as the puzzle itself when no file of that name exists (:func:`sources`).

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

import os

from kamicp.errors import InputError
from kamicp.formats.digits import looks_like_digits, read_digits, write_digits
from kamicp.formats.files import STDIN, iter_paths, read_text, shown
from kamicp.formats.flood import FLOOD_HEADER, read_flood, write_flood
from kamicp.formats.floodit99 import INTEGER, read_floodit99, write_floodit99
from kamicp.formats.gameid import is_game_id, read_gameid, write_gameid
from kamicp.formats.graph import read_json, write_json
from kamicp.formats.grid import read_grid, write_grid
from kamicp.formats.puz import PUZ_START, read_puz, write_puz
from kamicp.game.board import Board

__all__ = [
    "FORMATS",
    "GAME_ID_SHOWN",
    "READERS",
    "WRITERS",
    "detect",
    "dump",
    "load",
    "parse",
    "puzzles",
    "sources",
]

FORMATS = ("grid", "flood", "gameid", "puz", "json", "floodit99", "digits")
GAME_ID_SHOWN = "<game ID>"  # how messages name a game ID given in place of a file


READERS = {
    "grid": read_grid,
    "flood": read_flood,
    "gameid": read_gameid,
    "puz": read_puz,
    "json": read_json,
    "floodit99": read_floodit99,
    "digits": read_digits,
}

WRITERS = {
    "grid": write_grid,
    "flood": write_flood,
    "gameid": write_gameid,
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
        The file, or :data:`~kamicp.formats.files.STDIN` for standard input, or a Tatham game
        ID (when no file of that name exists).
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
    if text is None and _literal_id(path):
        return parse(path, GAME_ID_SHOWN, fmt)
    if text is None:
        text = read_text(path)
    return parse(text, shown(path), fmt)


def _literal_id(path: str) -> bool:
    """Whether ``path`` is a game ID rather than the name of a file."""
    return is_game_id(path) and not os.path.exists(path)


def sources(paths: list[str]) -> list[str]:
    """The puzzle files named by ``paths``, with game IDs kept as they are.

    Parameters
    ----------
    paths : list of str
        Files, folders, :data:`~kamicp.formats.files.STDIN` and Tatham game IDs.

    Returns
    -------
    list of str
        As :func:`~kamicp.formats.files.iter_paths` expands them; a game ID that names no
        file, and standard input, stay one entry each, for :func:`load`.

    Raises
    ------
    InputError
        When a path is missing or a folder holds no puzzle file.

    Examples
    --------
    >>> sources(["3x2c4m0:121332,4", "-"])
    ['3x2c4m0:121332,4', '-']
    """
    out: list[str] = []
    for path in paths:
        out += [path] if path == STDIN or _literal_id(path) else iter_paths([path])
    return out


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
    if is_game_id(first):
        return "gameid"
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
        Files, folders and game IDs, as for :func:`sources`.

    Returns
    -------
    list of tuple of (str, int, Board)
        The file, the puzzle's 1-based index in it, and the board.

    Raises
    ------
    InputError
        When a path is missing or a file cannot be read or parsed.
    """
    return [(path, i, board) for path in sources(paths) for i, board in enumerate(load(path), 1)]


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
