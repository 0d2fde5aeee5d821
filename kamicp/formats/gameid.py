"""Simon Tatham's ``flood`` game IDs: the line the game shows as "Game > Specific...".

::

    3x2c4m0:121332,4

The parameters ``WxH`` (``W`` alone means a square), optionally ``cC`` the number of colours
and ``mM`` the leniency (the game prints neither); a colon; the W x H cells row by row, one
character each, ``0``-``9`` then ``A``-``Z`` for colours 10 and up; a comma; the move limit.
The move limit (the game's greedy count plus the leniency) is kept as ``par``: an upper
bound, not the optimum. Pivot rules, pivot the top-left cell; the palette is the characters
present, in the game's order. A file may hold several IDs, one a line; ``#`` comment lines
and blank lines are skipped. A random seed (``12x12c6m5#1234``) is refused with a line that
says so: the board it makes exists only inside Tatham's generator.

The format of the ID follows ``decode_params``, ``validate_desc`` and ``new_game`` in
``flood.c`` of Simon Tatham's Portable Puzzle Collection. A colour past ``cC`` is an error;
without ``cC`` any colour is read. The game itself checks an ID's colours against its own
setting (6 unless changed), so an ID with colours 6 to 9 opens there after "Type > Custom"
sets more colours.

Examples
--------
>>> [board] = read_gameid("3x2c4m0:121332,4", "<text>")
>>> board.rules, board.pivot, board.par, board.palette, board.name
('pivot', (0, 0), 4, ('1', '2', '3'), '3x2c4m0')
>>> write_gameid(board)
'3x2:121332,4\\n'
"""

from __future__ import annotations

import re
from dataclasses import replace

from kamicp.errors import InputError
from kamicp.formats.files import natural, numbered, stem
from kamicp.formats.flood import rectangle
from kamicp.game.board import Board

__all__ = ["GAME_ID", "SEED", "is_game_id", "read_gameid", "write_gameid"]

# parameters, then ':' and the cells, ',' and the move limit
GAME_ID = re.compile(r"(\d+(?:x\d+)?(?:[cm]\d+)*):([0-9A-Za-z]*),(\S*)")
SEED = re.compile(r"\d+(?:x\d+)?(?:[cm]\d+)*#\S*")  # a random seed in place of the cells
PARAMETERS = re.compile(r"(\d+)(?:x(\d+))?((?:[cm]\d+)*)")


def is_game_id(text: str) -> bool:
    """Whether ``text`` (one line, spaces around it ignored) is a game ID or a random seed.

    Parameters
    ----------
    text : str
        A command-line argument or a line of a file.

    Returns
    -------
    bool
        True for ``WxHcCmM:cells,limit`` and ``WxHcCmM#seed``.

    Examples
    --------
    >>> is_game_id("3x2c4m0:121332,4"), is_game_id("12x12c6m5#99"), is_game_id("first.txt")
    (True, True, False)
    """
    text = text.strip()
    return bool(GAME_ID.fullmatch(text) or SEED.fullmatch(text))


def _colour_value(char: str) -> int:
    """The game's colour number of one cell character: ``0``-``9``, then ``A`` = 10."""
    return int(char, 36)


def _parameters(text: str, path: str, line: int) -> tuple[int, int, int | None]:
    """Width, height and colour count (None when not given) of the parameters ``WxHcCmM``."""
    width, height, rest = PARAMETERS.fullmatch(text).groups()
    width = natural(width, "the width", path, line)
    height = width if height is None else natural(height, "the height", path, line)
    colours = None
    for key, value in re.findall(r"([cm])(\d+)", rest):
        if key == "c":
            colours = natural(value, "the colour count", path, line)
    if width == 0 or height == 0:
        raise InputError("empty board: a side of length 0", path, line)
    return width, height, colours


def _board(line: str, path: str, number: int) -> tuple[str, Board]:
    """The parameters text and the board of one game ID line."""
    if SEED.fullmatch(line):
        raise InputError(
            "a random seed, not a game ID: only Tatham's generator can make its board; "
            "copy the game ID (Game > Specific...) instead",
            path,
            number,
        )
    match = GAME_ID.fullmatch(line)
    if not match:
        raise InputError("expected a game ID 'WxHcCmM:cells,limit'", path, number)
    params, cells_text, limit = match.groups()
    width, height, colours = _parameters(params, path, number)
    if len(cells_text) != width * height:
        raise InputError(
            f"{len(cells_text)} cells, the parameters say {width}x{height} = {width * height}",
            path,
            number,
        )
    bad = next((ch for ch in cells_text if not ch.isdigit() and not ch.isupper()), None)
    if bad is not None:
        raise InputError(f"{bad!r} is not a colour (0-9, then A-Z)", path, number)
    top = max(cells_text, key=_colour_value)
    if colours is not None and _colour_value(top) >= colours:
        raise InputError(f"colour {top!r} is past the parameters' {colours} colours", path, number)
    palette = tuple(sorted(set(cells_text), key=_colour_value))
    index = {ch: i for i, ch in enumerate(palette)}
    cells = {divmod(i, width): index[ch] for i, ch in enumerate(cells_text)}
    par = natural(limit, "the move limit", path, number)
    board = Board(
        geometry="square",
        cells=cells,
        palette=palette,
        rules="pivot",
        pivot=(0, 0),
        par=par,
        source=path,
    )
    return params, board


def read_gameid(text: str, path: str) -> list[Board]:
    """The boards of the game IDs in ``text``, one a line.

    Parameters
    ----------
    text : str
        The text: game IDs, ``#`` comment lines and blank lines.
    path : str
        The file's name, for messages and the boards' default names (for text with no file,
        a board is named by its parameters, ``12x12c6m5``).

    Returns
    -------
    list of Board
        The puzzles, in order.

    Raises
    ------
    InputError
        When a line is no game ID (a random seed included), its cells do not fill the
        parameters' size, or a colour is past the parameters' count; naming the line.
    """
    found = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line and not line.startswith("#"):
            found.append(_board(line, path, number))
    name = stem(path)
    return [
        replace(board, name=numbered(name, i, len(found)) if name else params)
        for i, (params, board) in enumerate(found)
    ]


def write_gameid(board: Board) -> str:
    """``board`` as a game ID that Tatham's ``flood`` opens, written as the game prints one.

    Parameters
    ----------
    board : Board
        The puzzle.

    Returns
    -------
    str
        One line; ``par`` is written as the move limit.

    Raises
    ------
    InputError
        When the board is no hole-free rectangle under pivot rules, its colours are not the
        digits ``0``-``9``, or ``par`` is unknown (the ID has no place for an optimum).
    """
    height, width = rectangle(board, "a game ID")
    if not all(len(s) == 1 and s.isdigit() for s in board.palette):
        raise InputError("a game ID needs the digit colours 0-9", board.source)
    if board.par is None:
        raise InputError("a game ID needs a move limit (par)", board.source)
    cells = "".join(board.palette[board.cells[(r, c)]] for r in range(height) for c in range(width))
    return f"{width}x{height}:{cells},{board.par}\n"
