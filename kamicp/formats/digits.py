"""The one-board-per-line digit format of Flood-It benchmarks: each line a whole square board.

::

    # three boards; a line may end with the board's proved optimum
    0120 2
    012120201 4
    0011223301223300

Every content line is one square board of side s, written as its s*s digits row-major with no
separators (a 14x14 board is a line of 196 digits), optionally followed by spaces and a
number: the board's proved optimum (``Board.optimum``). ``#`` comment lines and blank lines
are skipped; boards of different sizes may share a file. Pivot rules, pivot the top-left
cell, square geometry. Any digit 0-9 is a colour; each board's palette is the digits present
on it, sorted, so a move names the colour by the digit the line holds (``0,0:3``) and the
writer puts the same digits back. A line whose length is not a perfect square (side 2 or
more) is an error naming the file and line.

Detection (:func:`looks_like_digits`): grid text whose rows are all digits looks the same
when its rows have a square length, so the digit format is taken only when no grid reading
fits well: every content line is ``DIGITS`` or ``DIGITS OPTIMUM`` with a square number of
digits, and one of: a line carries an optimum, the lines differ in length (grid rows would
be ragged), or the line length is at least :data:`LEAST_SIDE` squared and differs from the
number of lines (a grid of rows is then neither square nor narrow). So ``0120`` on three
lines, or 16 lines of 16 digits, stay grid text; ``--format digits`` always forces this
format.

Examples
--------
>>> boards = read_digits("0120 2\\n012120201\\n", "two.txt")
>>> [(b.name, b.optimum, b.palette) for b in boards]
[('two-1', 2, ('0', '1', '2')), ('two-2', None, ('0', '1', '2'))]
>>> boards[1].cells[(1, 0)], boards[1].rules, boards[1].pivot
(1, 'pivot', (0, 0))
>>> print(write_digits(boards[0]), end="")
0120 2
"""

from __future__ import annotations

import math
import re

from kamicp.errors import InputError
from kamicp.formats.files import natural, numbered, stem
from kamicp.formats.flood import rectangle
from kamicp.game.board import Board

__all__ = ["DIGIT_LINE", "LEAST_SIDE", "looks_like_digits", "read_digits", "write_digits"]

DIGIT_LINE = re.compile(r"(\d+)(?:\s+(\d+))?")  # a board's digits, then its optimum if known
# Grid rows of 4 or 9 digits (3x4, 5x9 boards) are common in grid text; a file of 2x2 or 3x3
# digit boards with no optimum is not, so those widths stay grid text unless forced.
LEAST_SIDE = 4


def _side(length: int) -> int | None:
    """The side of a square board of ``length`` cells, or None when it is not one (side >= 2)."""
    side = math.isqrt(length)
    return side if side >= 2 and side * side == length else None


def read_digits(text: str, path: str) -> list[Board]:
    """The boards of digit-line text, one square board per line (see the module docstring).

    Parameters
    ----------
    text : str
        The file's text.
    path : str
        The file's name, for messages and the boards' default names.

    Returns
    -------
    list of Board
        The puzzles in the text, in order; named ``<file>-<n>`` when there are several.

    Raises
    ------
    InputError
        When a line is not digits (and an optional optimum) or its length is not a perfect
        square of side 2 or more, naming ``path`` and the line.

    Examples
    --------
    >>> read_digits("012\\n", "bad.txt")
    Traceback (most recent call last):
    ...
    kamicp.errors.InputError: bad.txt:1: 3 digits is no square board (4, 9, 16, ... digits)
    """
    found = []  # (digits, optimum)
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        match = DIGIT_LINE.fullmatch(line)
        if not match:
            raise InputError(
                "expected a board of digits with no separators, then optionally its optimum",
                path,
                number,
            )
        digits, optimum = match.groups()
        side = _side(len(digits))
        if side is None:
            raise InputError(
                f"{len(digits)} digits is no square board (4, 9, 16, ... digits)", path, number
            )
        listed = None if optimum is None else natural(optimum, "the optimum", path, number)
        found.append((side, digits, listed))
    boards = []
    keys: dict[int, list[tuple[int, int]]] = {}  # the cells of a side, made once a file
    for i, (side, digits, optimum) in enumerate(found):
        palette = tuple(sorted(set(digits)))
        index = {d: j for j, d in enumerate(palette)}
        if side not in keys:
            keys[side] = [divmod(k, side) for k in range(side * side)]
        cells = dict(zip(keys[side], map(index.__getitem__, digits), strict=True))
        board = Board(
            geometry="square",
            cells=cells,
            palette=palette,
            rules="pivot",
            pivot=(0, 0),
            optimum=optimum,
            name=numbered(stem(path), i, len(found)),
            source=path,
        )
        boards.append(board)
    return boards


def write_digits(board: Board) -> str:
    """``board`` as one digit line, with its optimum when known.

    Parameters
    ----------
    board : Board
        The puzzle.

    Returns
    -------
    str
        One line: the cells' digits row-major, then `` <optimum>`` if ``Board.optimum`` is
        known. Concatenated, such lines make a file of many boards.

    Raises
    ------
    InputError
        When the board is not a hole-free square (side 2 or more) under pivot rules with the
        pivot at 0,0, or a colour is not a single digit.
    """
    height, width = rectangle(board, "the digit format")
    if height != width or height < 2:
        raise InputError(
            f"the digit format needs a square board, not {height}x{width}", board.source
        )
    if not all(len(s) == 1 and s.isdigit() for s in board.palette):
        raise InputError("the digit format needs digit colours", board.source)
    digits = "".join(board.palette[board.cells[divmod(k, width)]] for k in range(width * width))
    return digits + ("" if board.optimum is None else f" {board.optimum}") + "\n"


def looks_like_digits(content: list[str]) -> bool:
    """Whether content lines read as the digit format rather than grid text.

    Parameters
    ----------
    content : list of str
        The text's lines, stripped, with blank and ``#`` lines left out.

    Returns
    -------
    bool
        True by the rule of the module docstring.

    Examples
    --------
    >>> looks_like_digits(["0120", "1201", "2012"]), looks_like_digits(["0120 2"])
    (False, True)
    >>> looks_like_digits(["0" * 16] * 3), looks_like_digits(["0" * 16] * 16)
    (True, False)
    """
    if not content:
        return False
    matches = [DIGIT_LINE.fullmatch(line) for line in content]
    if not all(matches) or not all(_side(len(m.group(1))) for m in matches):
        return False
    lengths = {len(m.group(1)) for m in matches}
    if any(m.group(2) is not None for m in matches) or len(lengths) > 1:
        return True
    [length] = lengths
    return length >= LEAST_SIDE * LEAST_SIDE and length != len(content)
