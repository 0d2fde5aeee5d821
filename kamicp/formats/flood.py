"""Simon Tatham's ``flood`` save text: a header ``W by H -> N``, then H rows of W digits.

::

    3 by 2 -> 4
      121
      332

Indentation and spaces in rows are ignored; several boards may follow each other; ``#``
comment lines and blank lines are skipped. ``N`` is the game's move limit (its greedy
solver's count plus leniency), kept as ``par``: an upper bound, not the optimum. Pivot
rules, pivot the top-left cell; the palette is the digits present, sorted.

Examples
--------
>>> board = read_flood("3 by 2 -> 4\\n  121\\n  332\\n", "tiny")[0]
>>> board.rules, board.pivot, board.par, board.palette
('pivot', (0, 0), 4, ('1', '2', '3'))
>>> print(write_flood(board), end="")
3 by 2 -> 4
  121
  332
"""

from __future__ import annotations

import re

from kamicp.errors import InputError
from kamicp.formats.files import natural, numbered, stem
from kamicp.game.board import Board

__all__ = ["FLOOD_HEADER", "read_flood", "rectangle", "write_flood"]

FLOOD_HEADER = re.compile(r"(\d+)\s*by\s*(\d+)\s*->\s*(\d+)")


def read_flood(text: str, path: str) -> list[Board]:
    """The boards in Tatham's ``flood`` text: ``W by H -> N``, then H rows of W digits.

    Parameters
    ----------
    text : str
        The file's text.
    path : str
        The file's name, for messages and the boards' default names.

    Returns
    -------
    list of Board
        The puzzles in the text, in order.

    Raises
    ------
    InputError
        When the text is malformed, naming ``path`` and the line.
    """
    found = []  # (header line, width, height, limit, rows)
    current = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if current is not None and len(current[4]) < current[2]:
            digits = "".join(line.split())
            if not digits.isdigit():
                raise InputError(f"expected a row of {current[1]} digits", path, number)
            if len(digits) != current[1]:
                raise InputError(
                    f"row has {len(digits)} digits, the header says {current[1]}", path, number
                )
            current[4].append(digits)
            continue
        match = FLOOD_HEADER.fullmatch(line)
        if not match:
            raise InputError("expected a header 'W by H -> N'", path, number)
        width, height, limit = (natural(x, "a header number", path, number) for x in match.groups())
        if width == 0 or height == 0:
            raise InputError("empty board: a side of length 0", path, number)
        current = (number, width, height, limit, [])
        found.append(current)
    if current is not None and len(current[4]) < current[2]:
        raise InputError(
            f"{len(current[4])} rows, the header on line {current[0]} says {current[2]}",
            path,
            len(text.splitlines()),
        )
    boards = []
    for i, (_, _, _, limit, rows) in enumerate(found):
        palette = tuple(sorted(set("".join(rows))))
        index = {s: j for j, s in enumerate(palette)}
        cells = {(r, c): index[d] for r, row in enumerate(rows) for c, d in enumerate(row)}
        board = Board(
            geometry="square",
            cells=cells,
            palette=palette,
            rules="pivot",
            pivot=(0, 0),
            par=limit,
            name=numbered(stem(path), i, len(found)),
            source=path,
        )
        boards.append(board)
    return boards


def rectangle(board: Board, what: str) -> tuple[int, int]:
    """Height and width of a hole-free square board under pivot rules, pivot at (0, 0).

    Parameters
    ----------
    board : Board
        The puzzle.
    what : str
        The format that needs such a board, for messages.

    Returns
    -------
    tuple of int
        ``(height, width)``.

    Raises
    ------
    InputError
        When the board is not such a rectangle.
    """
    if board.geometry != "square":
        raise InputError(f"{what} needs a square grid, not {board.geometry}", board.source)
    height = max(r for r, _ in board.cells) + 1
    width = max(c for _, c in board.cells) + 1
    if len(board.cells) != height * width or min(board.cells) != (0, 0):
        raise InputError(f"{what} cannot hold holes", board.source)
    if board.rules != "pivot" or board.pivot != (0, 0):
        raise InputError(f"{what} needs pivot rules with the pivot at 0,0", board.source)
    return height, width


def write_flood(board: Board) -> str:
    """``board`` as Tatham flood text.

    Parameters
    ----------
    board : Board
        The puzzle.

    Returns
    -------
    str
        The text; ``par`` is written as the move limit.

    Raises
    ------
    InputError
        When the board is no hole-free rectangle under pivot rules, its colours are not
        digits, or ``par`` is unknown (the format has no place for an optimum).
    """
    height, width = rectangle(board, "flood text")
    if not all(len(s) == 1 and s.isdigit() for s in board.palette):
        raise InputError("flood text needs digit colours", board.source)
    if board.par is None:
        raise InputError("flood text needs a move limit (par)", board.source)
    lines = [f"{width} by {height} -> {board.par}"]
    for r in range(height):
        lines.append("  " + "".join(board.palette[board.cells[(r, c)]] for c in range(width)))
    return "\n".join(lines) + "\n"
