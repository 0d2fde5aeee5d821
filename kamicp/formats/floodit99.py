"""The benchmark format of the 99 Flood-It boards (von Manteuffel 2023).

::

    # a comment line
    2 3 3
    1 2 1
    3 3 2
    3

``#`` comment lines, then ``m n k``, then m*n integers 1..k row-major (on any number of
lines), then the optimal number of moves. ``par`` and ``optimum`` both hold that proved
optimum (``0``, "unknown", becomes ``None``). Pivot rules, pivot the top-left cell, palette
``'1'..'k'`` (all k colours, even absent ones).

Examples
--------
>>> board = read_floodit99("2 3 3\\n1 2 1\\n3 3 2\\n3\\n", "tiny")[0]
>>> board.rules, board.optimum, board.palette
('pivot', 3, ('1', '2', '3'))
>>> print(write_floodit99(board), end="")
2 3 3
1 2 1 3 3 2
3
"""

from __future__ import annotations

import re

from kamicp.errors import InputError
from kamicp.formats.files import MOST_DIGITS, natural, stem
from kamicp.formats.flood import rectangle
from kamicp.game.board import Board

__all__ = ["INTEGER", "read_floodit99", "write_floodit99"]

INTEGER = re.compile(r"-?\d+")


def read_floodit99(text: str, path: str) -> list[Board]:
    """The board in floodit-99 text: ``m n k``, m*n colours 1..k, then the optimum.

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
    tokens = []  # (token, line)
    for number, raw in enumerate(text.splitlines(), 1):
        if raw.strip().startswith("#"):
            continue
        tokens.extend((tok, number) for tok in raw.split())
    if not tokens:
        raise InputError("empty file: expected 'm n k'", path, 1)
    for tok, line in tokens:
        if not INTEGER.fullmatch(tok):
            raise InputError(f"{tok!r} is not an integer", path, line)
        if len(tok) > MOST_DIGITS:
            raise InputError(f"a number of {len(tok)} digits is too large", path, line)
    header = tokens[0][1]
    if sum(1 for _, line in tokens if line == header) != 3:
        raise InputError("the first line must be 'm n k'", path, tokens[0][1])
    rows, cols, k = (int(tok) for tok, _ in tokens[:3])
    if rows <= 0 or cols <= 0:
        raise InputError(f"empty board: {rows} x {cols}", path, header)
    if k <= 0:
        raise InputError(f"{k} colours", path, header)
    body = tokens[3:]
    need = rows * cols + 1
    if len(body) < need:
        last = body[-1][1] if body else header
        raise InputError(
            f"{len(body)} numbers after the header, expected {rows * cols} colours and the optimum",
            path,
            last,
        )
    if len(body) > need:
        raise InputError("numbers after the optimum", path, body[need][1])
    cells = {}
    for i, (tok, line) in enumerate(body[:-1]):
        colour = int(tok)
        if not 1 <= colour <= k:
            raise InputError(f"colour {colour} is out of range 1..{k}", path, line)
        cells[divmod(i, cols)] = colour - 1
    optimum_text, optimum_line = body[-1]
    optimum = natural(optimum_text, "the optimum", path, optimum_line) or None
    board = Board(
        geometry="square",
        cells=cells,
        palette=tuple(str(c) for c in range(1, k + 1)),
        rules="pivot",
        pivot=(0, 0),
        par=optimum,
        optimum=optimum,
        name=stem(path),
        source=path,
    )
    return [board]


def write_floodit99(board: Board) -> str:
    """``board`` in the floodit-99 format.

    Parameters
    ----------
    board : Board
        The puzzle.

    Returns
    -------
    str
        The text, with ``Board.optimum`` (0 when unknown) as the last line.

    Raises
    ------
    InputError
        When the board is no hole-free rectangle under pivot rules or its palette is not
        ``'1'..'k'``.
    """
    height, width = rectangle(board, "the floodit-99 format")
    palette = tuple(str(c) for c in range(1, len(board.palette) + 1))
    if board.palette != palette:
        raise InputError("the floodit-99 format needs the palette 1..k", board.source)
    colours = " ".join(str(board.cells[divmod(i, width)] + 1) for i in range(height * width))
    return f"{height} {width} {len(palette)}\n{colours}\n{board.optimum or 0}\n"
