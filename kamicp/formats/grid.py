"""kamicp grid text: header lines ``key: value``, then one line of cells per row.

::

    # a comment: '#' starts a comment anywhere; blank lines are ignored
    name: first steps
    geometry: square
    rules: free
    par: 4
    optimum: 4
    RRGGB
    R..GB
    YYYBB

Header lines (a line holding ``:`` is a header line) come before the rows. Keys, each at
most once:

- ``geometry``: ``square`` (default), ``triangle`` or ``hex`` (see :mod:`kamicp.game.geometry`
  for the coordinates: row r of the text is r, the c-th character of the row is c);
- ``rules``: ``free`` (default, KAMI 2) or ``pivot`` (Flood-It);
- ``pivot``: ``r,c`` (0-based) the pivot cell; default the first cell in reading order;
- ``par``: the move count a game asks for (an upper bound, not necessarily optimal);
- ``optimum``: a proved optimal move count (the shipped ``puzzles/`` record theirs here);
- ``name``: a free-text name (default: the file name without extension);
- ``palette``: the colour symbols in palette order, e.g. ``palette: RGBY``; spaces are
  ignored. It fixes the order of the colour indices and may list colours absent from the
  board (they can still be played). Default: the symbols present, sorted by code point.

Each row is one line; every non-space character is one cell and spaces are ignored, so
``R G B`` and ``RGB`` are the same row; a row spaced out has one character between spaces
(``RG B`` is an error: text, not a puzzle). ``.`` is a hole; any other character is a colour
except ``# : ; { [`` (reserved for comments, headers, move notation and detection) and
characters that are not printable (control characters: a binary file's bytes). All rows
have the same number of cells (pad with ``.``); a ragged row is an error. The extensions
are ``.txt`` and ``.kami``.

Examples
--------
>>> board = read_grid("par: 2\\nRG\\nGB\\n", "tiny.txt")[0]
>>> board.palette, board.par, board.name
(('B', 'G', 'R'), 2, 'tiny')
>>> print(write_grid(board), end="")
name: tiny
par: 2
RG
GB
"""

from __future__ import annotations

import re

from kamicp.errors import InputError
from kamicp.formats.files import natural, stem
from kamicp.game import geometry
from kamicp.game.board import RULES, Board

__all__ = ["GRID_KEYS", "RESERVED", "palette_problem", "read_grid", "write_grid"]

GRID_KEYS = ("geometry", "rules", "pivot", "par", "optimum", "name", "palette")
RESERVED = set(".#:;{[")  # never a colour: holes, comments, headers, moves, detection


def read_grid(text: str, path: str) -> list[Board]:
    """The board in kamicp grid text: header lines, then rows (see the module docstring).

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
    headers: dict[str, tuple[str, int]] = {}
    rows: list[tuple[int, str]] = []
    last = 1
    for number, raw in enumerate(text.splitlines(), 1):
        last = number
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if ":" in line:
            key, _, value = line.partition(":")
            key = key.strip()
            if rows:
                raise InputError(f"header line {key!r} after the grid rows", path, number)
            if key not in GRID_KEYS:
                known = ", ".join(GRID_KEYS)
                raise InputError(f"unknown key {key!r} (known: {known})", path, number)
            if key in headers:
                raise InputError(f"key {key!r} given twice", path, number)
            headers[key] = (value.strip(), number)
            continue
        tokens = line.split()
        wide = next((token for token in tokens if len(token) > 1), None)
        if len(tokens) > 1 and wide is not None:  # words, not cells: prose is no puzzle
            problem = f"{wide!r} is not one cell: a row spaced out has one character a cell"
            raise InputError(problem, path, number)
        symbols = "".join(tokens)
        bad = sorted(set(symbols) & (RESERVED - {"."}))
        if bad:
            raise InputError(f"character {bad[0]!r} cannot be a colour", path, number)
        # A control character is no colour a user typed: most likely a binary or
        # wrongly encoded file (a NUL byte is valid UTF-8), so it is refused, not solved.
        hidden = [s for s in symbols if not s.isprintable()]
        if hidden:
            problem = f"character {hidden[0]!r} is not printable, so it cannot be a colour"
            raise InputError(problem, path, number)
        if rows and len(symbols) != len(rows[0][1]):
            raise InputError(
                f"ragged row: {len(symbols)} cells, the first row has {len(rows[0][1])}",
                path,
                number,
            )
        rows.append((number, symbols))
    if not rows:
        raise InputError("empty board: no grid rows", path, last)

    geo, geo_line = headers.get("geometry", ("square", 0))
    if geo not in geometry.GRID_GEOMETRIES:
        choices = "|".join(geometry.GRID_GEOMETRIES)
        raise InputError(f"unknown geometry {geo!r} ({choices})", path, geo_line)
    rules = _header_rules(headers, path)
    present = sorted({s for _, row in rows for s in row} - {"."})
    if not present:
        raise InputError("empty board: every cell is a hole", path, rows[0][0])
    palette = tuple(present)
    if "palette" in headers:
        value, line = headers["palette"]
        palette = tuple("".join(value.split()))
        problem = palette_problem(palette, present, single=True)
        if problem:
            raise InputError(problem, path, line)
    index = {s: i for i, s in enumerate(palette)}
    cells = {}
    for r, (_, row) in enumerate(rows):
        for c, symbol in enumerate(row):
            if symbol != ".":
                cells[(r, c)] = index[symbol]
    pivot = None
    if "pivot" in headers:
        value, line = headers["pivot"]
        match = re.fullmatch(r"(\d+)\s*,\s*(\d+)", value)
        if not match:
            raise InputError(f"pivot must be row,column (0-based), not {value!r}", path, line)
        pivot = (
            natural(match.group(1), "pivot", path, line),
            natural(match.group(2), "pivot", path, line),
        )
        if pivot not in cells:
            inside = pivot[0] < len(rows) and pivot[1] < len(rows[0][1])
            where = "a hole" if inside else "off the board"
            raise InputError(f"pivot {value} is {where}", path, line)
    board = Board(
        geometry=geo,
        cells=cells,
        palette=palette,
        rules=rules,
        pivot=pivot,
        par=_header_int(headers, "par", path),
        optimum=_header_int(headers, "optimum", path),
        name=headers.get("name", (stem(path), 0))[0],
        source=path,
    )
    return [board]


def _header_rules(headers: dict, path: str) -> str:
    rules, line = headers.get("rules", ("free", 0))
    if rules not in RULES:
        raise InputError(f"unknown rules {rules!r} (free or pivot)", path, line)
    return rules


def _header_int(headers: dict, key: str, path: str) -> int | None:
    if key not in headers:
        return None
    value, line = headers[key]
    return natural(value, key, path, line)


def palette_problem(palette: tuple, present, single: bool) -> str | None:
    """Why ``palette`` cannot be used for the colours ``present``.

    Parameters
    ----------
    palette : tuple of str
        The palette a file lists.
    present : iterable of str
        The colours on the board.
    single : bool
        Whether colours are single grid characters (then reserved and unprintable
        characters are refused too).

    Returns
    -------
    str or None
        The problem, or None when the palette can be used.

    Examples
    --------
    >>> palette_problem(("a", "b"), ["a"], single=True) is None
    True
    >>> palette_problem(("a",), ["a", "c"], single=True)
    "colour 'c' is on the board but not in the palette"
    """
    if not palette:
        return "empty palette"
    if len(set(palette)) != len(palette):
        return "palette lists a colour twice"
    if single and set(palette) & RESERVED:
        return f"palette symbol {sorted(set(palette) & RESERVED)[0]!r} cannot be a colour"
    if single and not all(s.isprintable() for s in palette):
        hidden = next(s for s in palette if not s.isprintable())
        return f"palette symbol {hidden!r} is not printable, so it cannot be a colour"
    missing = [s for s in present if s not in palette]
    if missing:
        return f"colour {missing[0]!r} is on the board but not in the palette"
    return None


def write_grid(board: Board) -> str:
    """``board`` as grid text: a square, triangle or hex board.

    Parameters
    ----------
    board : Board
        The puzzle.

    Returns
    -------
    str
        The text, with header lines only where a value is not the default.

    Raises
    ------
    InputError
        When the board has another geometry, a palette symbol that is no grid character,
        negative coordinates, or a name grid text cannot hold.
    """
    if board.geometry not in geometry.GRID_GEOMETRIES:
        raise InputError(f"a {board.geometry} board cannot be written as grid text", board.source)
    for symbol in board.palette:
        if len(symbol) != 1 or symbol.isspace() or symbol in RESERVED:
            raise InputError(f"palette symbol {symbol!r} cannot be a grid character", board.source)
    if any(r < 0 or c < 0 for r, c in board.cells):
        raise InputError("grid text needs non-negative coordinates", board.source)
    order = sorted(board.cells)
    lines = []
    if board.name:
        if "#" in board.name or not board.name.isprintable():
            raise InputError(f"name {board.name!r} cannot be written as grid text", board.source)
        lines.append(f"name: {board.name}")
    if board.geometry != "square":
        lines.append(f"geometry: {board.geometry}")
    if board.rules != "free":
        lines.append(f"rules: {board.rules}")
    if board.pivot != order[0]:
        lines.append(f"pivot: {board.pivot[0]},{board.pivot[1]}")
    if board.par is not None:
        lines.append(f"par: {board.par}")
    if board.optimum is not None:
        lines.append(f"optimum: {board.optimum}")
    present = sorted({board.palette[c] for c in board.cells.values()})
    if list(board.palette) != present:
        lines.append(f"palette: {''.join(board.palette)}")
    height = max(r for r, _ in order) + 1
    width = max(c for _, c in order) + 1
    for r in range(height):
        row = (board.cells.get((r, c)) for c in range(width))
        lines.append("".join("." if x is None else board.palette[x] for x in row))
    return "\n".join(lines) + "\n"
