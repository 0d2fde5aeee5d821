"""KAMI 2 levels (``.puz``): one line of ``|``-separated fields per level.

::

    01|Default|0|0|1|20|1q2|1||0|

Field 5 is the width w: rows of 2w triangles, geometry ``kami2``, cells ``(r, p, s)`` from
:func:`kamicp.game.geometry.kami2_cell`. Field 6 is the number of triangles, a multiple of
2w: 20w (10 rows) in the game's levels except Nuc2-4, whose 162 = 9 x 18 is 9 rows. Field 7
holds the run-length-encoded colours (``cXdd``: c repeated dd times; ``c`` then a lowercase
letter m: c repeated ord(m) - ord('a') + 3 times; else the character itself), whose decoded
length must equal field 6; digit ``0`` is a hole, ``1``..``6`` colours. The palette is the
digits present as strings, sorted. Field 8 is the game's par, field 11 the designer's
solution (kept in ``Board.solution``, tokens like ``219C``; may be empty). Free rules; the
name is the file name. The levels shipped in ``puzzles/puz`` use par for their proved
optimum (documented there).

Examples
--------
>>> board = read_puz("01|Default|0|0|1|20|1q2|1||0|\\n", "tiny.puz")[0]
>>> board.geometry, board.width, len(board.cells), board.palette, board.par
('kami2', 1, 20, ('1', '2'), 1)
>>> decode_rle("1q2", "tiny.puz", 1) == "1" * 19 + "2"
True
"""

from __future__ import annotations

import re

from kamicp.errors import InputError
from kamicp.formats.files import natural, numbered, stem
from kamicp.game import geometry
from kamicp.game.board import Board

__all__ = ["PUZ_START", "decode_rle", "encode_rle", "read_puz", "write_puz"]

PUZ_START = re.compile(r"\d\d\|")  # a level line starts with a two-digit field


def decode_rle(data: str, path: str, line: int) -> str:
    """The colours that KAMI 2's run-length code ``data`` stands for (see the module docstring).

    Parameters
    ----------
    data : str
        The code (field 7 of a level).
    path, line : str, int
        Where the code is, for messages.

    Returns
    -------
    str
        One digit per triangle.

    Raises
    ------
    InputError
        When a colour is not a digit or an ``X`` run lacks its two digits.

    Notes
    -----
    Linear in the length of the output.
    """
    out = []
    i = 0
    while i < len(data):
        symbol = data[i]
        if not symbol.isdigit():
            raise InputError(f"colour code {symbol!r} at position {i} is not a digit", path, line)
        nxt = data[i + 1] if i + 1 < len(data) else ""
        if nxt == "X":
            count = data[i + 2 : i + 4]
            if not re.fullmatch(r"\d\d", count):
                raise InputError(f"run at position {i} needs two digits after X", path, line)
            out.append(symbol * int(count))
            i += 4
        elif "a" <= nxt <= "z":
            out.append(symbol * (ord(nxt) - ord("a") + 3))
            i += 2
        else:
            out.append(symbol)
            i += 1
    return "".join(out)


def encode_rle(colours: str) -> str:
    """The run-length code of ``colours``, the inverse of :func:`decode_rle`.

    Parameters
    ----------
    colours : str
        One digit per triangle.

    Returns
    -------
    str
        The code: runs of 3..28 as a letter, longer ones (up to 99 a piece) with ``X``.

    Examples
    --------
    >>> encode_rle("1" * 19 + "22")
    '1q22'
    """
    out = []
    i = 0
    while i < len(colours):
        j = i
        while j < len(colours) and colours[j] == colours[i] and j - i < 99:
            j += 1
        run = j - i
        if run <= 2:
            out.append(colours[i] * run)
        elif run <= 28:
            out.append(colours[i] + chr(ord("a") + run - 3))
        else:
            out.append(f"{colours[i]}X{run:02d}")
        i = j
    return "".join(out)


def read_puz(text: str, path: str) -> list[Board]:
    """The KAMI 2 levels in ``text``, one per non-blank line.

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
    levels = [(n, raw.strip()) for n, raw in enumerate(text.splitlines(), 1) if raw.strip()]
    boards = []
    for i, (line, level) in enumerate(levels):
        fields = level.split("|")
        if len(fields) < 11:
            raise InputError(f"{len(fields)} fields separated by '|', expected 11", path, line)
        width = natural(fields[4], "the width (field 5)", path, line)
        size = natural(fields[5], "the size (field 6)", path, line)
        if width == 0:
            raise InputError("empty board: width 0", path, line)
        if size == 0 or size % (2 * width):
            raise InputError(f"size {size} is not a multiple of 2 x width {width}", path, line)
        colours = decode_rle(fields[6], path, line)
        if len(colours) != size:
            raise InputError(f"colours decode to {len(colours)} triangles, not {size}", path, line)
        bad = sorted(set(colours) - set("0123456"))
        if bad:
            raise InputError(f"colour digit {bad[0]} is out of range 0..6", path, line)
        palette = tuple(sorted(set(colours) - {"0"}))
        if not palette:
            raise InputError("empty board: every triangle is a hole", path, line)
        index = {s: j for j, s in enumerate(palette)}
        cells = {geometry.kami2_cell(k, width): index[d] for k, d in enumerate(colours) if d != "0"}
        par = natural(fields[7], "par (field 8)", path, line) if fields[7].strip() else None
        board = Board(
            geometry="kami2",
            cells=cells,
            palette=palette,
            rules="free",
            par=par,
            name=numbered(stem(path), i, len(levels)),
            width=width,
            solution=fields[10].strip() or None,
            source=path,
        )
        boards.append(board)
    return boards


def write_puz(board: Board) -> str:
    """``board`` as one KAMI 2 level line.

    Parameters
    ----------
    board : Board
        The puzzle.

    Returns
    -------
    str
        The text; ``par`` is written, as the line has no optimum field (the shipped levels
        set par to it).

    Raises
    ------
    InputError
        When the board is not a ``kami2`` board under free rules with the colours 1..6.
    """
    if board.geometry != "kami2":
        raise InputError(f"a {board.geometry} board cannot be written as .puz", board.source)
    if board.rules != "free":
        raise InputError(".puz levels are played under free rules", board.source)
    if not all(s in "123456" and len(s) == 1 for s in board.palette):
        raise InputError(".puz colours must be the digits 1..6", board.source)
    width = board.width
    # The game's boards have 10 rows; taller boards keep their rows (holes are not cells).
    rows = max(10, max(r for r, _, _ in board.cells) + 1)
    flat = ["0"] * (rows * 2 * width)
    for cell, colour in board.cells.items():
        flat[geometry.kami2_index(cell, width)] = board.palette[colour]
    par = "" if board.par is None else str(board.par)
    fields = ["01", "Default", "0", "0", str(width), str(len(flat)), encode_rle("".join(flat))]
    fields += [par, "", "0", board.solution or ""]
    return "|".join(fields) + "\n"
