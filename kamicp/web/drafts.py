"""Designs: the board a designer paints in the page, as JSON, to a board and back.

A design is a JSON object the page edits and the server checks::

    {"name": "first", "geometry": "square", "rows": 2, "columns": 3,
     "rules": "free", "pivot": null, "palette": ["1", "2"], "colours": ["#3b6fb6", "#e8833a"],
     "cells": [[0, 1, null], [1, 1, 0]], "par": 2, "optimum": null}

``cells`` is ``rows`` lists of ``columns`` entries, each a palette index or ``null`` (a
hole). Entry ``[i][j]`` is the cell ``(i, j)`` of a square, triangle or hex grid. On a
``kami2`` board (the ``.puz`` layout) row i is the file's row i, drawn as a vertical strip of
triangles, and entry ``[i][j]`` is the strip's triangle on drawn line ``top + j``, where
``top`` is a key of KAMI 2 designs: the triangle ``(i, t // 2, t % 2)`` with
``t = top + j - i``, so that the rows of entries are level across the strips and the design
is upright, as the game and the play page draw a level. An entry with ``t < 0`` lies above
its strip's first triangle: it is not drawn and stays ``null``. A blank design has
``top = rows - 1``, where no entry is outside.
``pivot`` is an entry ``[i, j]`` or ``null`` for the first cell in reading order. ``palette``
holds the symbols the files write (one character per colour in grid text, digits for
``flood``, ``gameid``, ``digits`` and ``floodit99``, ``1``..``6`` for ``.puz``:
:func:`kamicp.web.saving.formats_for` says which formats hold a board); ``colours`` only
paint the page. ``optimum`` is a proved optimum (from "check par" or the file), written
where a format has a place for it. :func:`shapes` gives the page the polygons to draw.

Region graphs (JSON files of nodes and edges) have no cells to paint: :func:`from_board`
refuses them.

Examples
--------
>>> design = blank("square", 2, 2, 2)
>>> design["cells"][1][1] = 1
>>> board = to_board(design)
>>> board.cells[(1, 1)], board.palette, board.source
(1, ('1', '2'), 'design')
>>> from_board(board)["cells"]
[[0, 0], [0, 1]]
"""

from __future__ import annotations

from kamicp.errors import InputError
from kamicp.game import geometry as geo
from kamicp.game.board import RULES, Board
from kamicp.view.layout import cell_polygon, palette_colours

__all__ = [
    "DESIGN",
    "DESIGN_GEOMETRIES",
    "MOST_COLOURS",
    "MOST_SIDE",
    "blank",
    "cell_at",
    "from_board",
    "position",
    "shapes",
    "to_board",
]

DESIGN = "design"  # how messages name a design: it has no file yet
DESIGN_GEOMETRIES = ("square", "triangle", "hex", "kami2")
# A side of 60 gives 3,600 cells, more than any shipped or KAMI 2 board, and a page that
# still draws at once (60 x 60 hexes: 0.16 s and 730 KB of polygons from :func:`shapes`); a
# larger board is a file for the command line.
MOST_SIDE = 60
MOST_COLOURS = 16  # more colours than a person can tell apart on a board


def cell_at(geometry: str, i: int, j: int, top: int = 0) -> tuple | None:
    """The board cell of design entry ``[i][j]``.

    Parameters
    ----------
    geometry : str
        One of :data:`DESIGN_GEOMETRIES`.
    i, j : int
        Row and column of the entry.
    top : int
        The design's ``top`` (KAMI 2 designs only).

    Returns
    -------
    tuple or None
        ``(i, j)``, or the KAMI 2 triangle ``(i, t // 2, t % 2)`` with ``t = top + j - i``
        (None when ``t < 0``: above the strip).

    Examples
    --------
    >>> cell_at("hex", 1, 2), cell_at("kami2", 1, 3, top=1), cell_at("kami2", 2, 0)
    ((1, 2), (1, 1, 1), None)
    """
    if geometry != "kami2":
        return (i, j)
    t = top + j - i
    return None if t < 0 else (i, t // 2, t % 2)


def position(geometry: str, cell: tuple, top: int = 0) -> tuple[int, int]:
    """The design entry ``(i, j)`` of a board cell, the inverse of :func:`cell_at`.

    Parameters
    ----------
    geometry : str
        One of :data:`DESIGN_GEOMETRIES`.
    cell : tuple
        A cell of that geometry.
    top : int
        The design's ``top`` (KAMI 2 designs only).

    Returns
    -------
    tuple of int
        Row and column of the entry.

    Examples
    --------
    >>> position("kami2", (1, 1, 1), top=1)
    (1, 3)
    """
    if geometry != "kami2":
        return (cell[0], cell[1])
    r, p, s = cell
    return (r, 2 * p + s + r - top)


def kami2_top(geometry: str, rows: int, top) -> int:
    """A design's checked ``top``: 0 off KAMI 2 boards, ``rows - 1`` when not given.

    Examples
    --------
    >>> kami2_top("kami2", 10, None), kami2_top("hex", 3, None)
    (9, 0)
    """
    if geometry != "kami2":
        return 0
    return rows - 1 if top is None else _whole(top, "top", 0, 2 * MOST_SIDE)


def _whole(value, what: str, least: int, most: int) -> int:
    """``value`` when it is an integer in ``least..most``; else the one-line error."""
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        problem = f"{what} must be a whole number from {least} to {most}, not {value!r}"
        raise InputError(problem, DESIGN)
    return value


def _size(geometry: str, rows, columns) -> tuple[int, int]:
    """Checked ``rows`` and ``columns`` for ``geometry``."""
    if geometry not in DESIGN_GEOMETRIES:
        choices = ", ".join(DESIGN_GEOMETRIES)
        raise InputError(
            f"geometry must be one of {choices}, not {geometry!r} "
            "(region graphs cannot be painted)",
            DESIGN,
        )
    rows = _whole(rows, "rows", 1, MOST_SIDE)
    columns = _whole(columns, "columns", 1, MOST_SIDE)
    return rows, columns


def blank(geometry: str, rows: int, columns: int, colours: int) -> dict:
    """A design of one colour, with ``colours`` colours named ``1``, ``2``, ...

    Digit names suit every format; the page lets the designer rename them.

    Parameters
    ----------
    geometry : str
        One of :data:`DESIGN_GEOMETRIES`.
    rows, columns : int
        The size, 1 to :data:`MOST_SIDE` each.
    colours : int
        The palette's size, 1 to :data:`MOST_COLOURS`.

    Returns
    -------
    dict
        The design, every cell of colour 0, free rules, no par.

    Raises
    ------
    InputError
        For a geometry or size out of range.

    Examples
    --------
    >>> blank("hex", 1, 2, 3)["palette"]
    ['1', '2', '3']
    """
    rows, columns = _size(geometry, rows, columns)
    k = _whole(colours, "colours", 1, MOST_COLOURS)
    palette = [str(n) for n in range(1, k + 1)]
    design = {
        "name": DESIGN,
        "geometry": geometry,
        "rows": rows,
        "columns": columns,
        "rules": "free",
        "pivot": None,
        "palette": palette,
        "colours": palette_colours(tuple(palette)),
        "cells": [[0] * columns for _ in range(rows)],
        "par": None,
        "optimum": None,
    }
    if geometry == "kami2":
        design["top"] = rows - 1
    return design


def _palette(value) -> tuple[str, ...]:
    """The checked palette symbols of a design."""
    if not isinstance(value, list) or not 1 <= len(value) <= MOST_COLOURS:
        raise InputError(f"the palette must list 1 to {MOST_COLOURS} colour names", DESIGN)
    for symbol in value:
        if not isinstance(symbol, str) or not symbol.strip():
            raise InputError(f"colour name {symbol!r} is empty", DESIGN)
        if symbol != symbol.strip() or not symbol.isprintable():
            raise InputError(f"colour name {symbol!r} has spaces or hidden characters", DESIGN)
    if len(set(value)) != len(value):
        twice = next(s for s in value if value.count(s) > 1)
        raise InputError(f"colour name {twice!r} is given twice", DESIGN)
    return tuple(value)


def _cells(design: dict, rows: int, columns: int, k: int, top: int) -> dict:
    """The board cells of a design's ``cells`` grid, in reading order."""
    grid = design.get("cells")
    if not isinstance(grid, list) or len(grid) != rows:
        raise InputError(f"cells must be {rows} rows", DESIGN)
    cells = {}
    for i, row in enumerate(grid):
        if not isinstance(row, list) or len(row) != columns:
            raise InputError(f"row {i} of the cells must hold {columns} entries", DESIGN)
        for j, colour in enumerate(row):
            if colour is None:
                continue
            cell = cell_at(design["geometry"], i, j, top)
            if cell is None:
                raise InputError(f"cell {i},{j} lies above its strip: it must be null", DESIGN)
            cells[cell] = _whole(colour, f"the colour of cell {i},{j}", 0, k - 1)
    if not cells:
        raise InputError("every cell is a hole: paint at least one", DESIGN)
    return cells


def _optional(design: dict, key: str) -> int | None:
    """An optional count of moves (``par``, ``optimum``)."""
    value = design.get(key)
    return None if value is None else _whole(value, key, 0, 10**6)


def to_board(design: dict) -> Board:
    """The board a design describes (see the module docstring).

    Parameters
    ----------
    design : dict
        The design; keys it does not know (``colours``) are left alone.

    Returns
    -------
    Board
        Cells in reading order, ``width`` set on ``kami2`` boards, ``source`` ``'design'``.

    Raises
    ------
    InputError
        Naming the first problem: an unknown geometry or rules, a size out of range, a
        ragged cell grid, a colour out of the palette, a pivot on a hole, no cell at all.
    """
    if not isinstance(design, dict):
        raise InputError("a design is a JSON object", DESIGN)
    geometry = design.get("geometry")
    rows, columns = _size(geometry, design.get("rows"), design.get("columns"))
    top = kami2_top(geometry, rows, design.get("top"))
    palette = _palette(design.get("palette"))
    cells = _cells(design, rows, columns, len(palette), top)
    rules = design.get("rules", "free")
    if rules not in RULES:
        raise InputError(f"rules must be free or pivot, not {rules!r}", DESIGN)
    pivot = design.get("pivot")
    if pivot is not None:
        if not (isinstance(pivot, list) and len(pivot) == 2):
            raise InputError(f"the pivot must be [row, column], not {pivot!r}", DESIGN)
        i = _whole(pivot[0], "the pivot's row", 0, rows - 1)
        j = _whole(pivot[1], "the pivot's column", 0, columns - 1)
        pivot = cell_at(geometry, i, j, top)
        if pivot not in cells:
            raise InputError(f"the pivot {i},{j} is a hole", DESIGN)
    name = design.get("name") or DESIGN
    if not isinstance(name, str) or not name.isprintable():
        raise InputError(f"the name {name!r} has hidden characters", DESIGN)
    return Board(
        geometry=geometry,
        cells=cells,
        palette=palette,
        rules=rules,
        pivot=pivot,
        par=_optional(design, "par"),
        optimum=_optional(design, "optimum"),
        name=name.strip(),
        width=(top + columns + 1) // 2 if geometry == "kami2" else None,  # t < top + columns
        source=DESIGN,
    )


def from_board(board: Board) -> dict:
    """The design of a board read from a file, the inverse of :func:`to_board`.

    Parameters
    ----------
    board : Board
        A square, triangle, hex or KAMI 2 board with non-negative coordinates.

    Returns
    -------
    dict
        The design, just large enough for the cells (``kami2``: from the highest drawn line
        to the lowest), the pivot given under pivot rules, colours from
        :func:`~kamicp.view.layout.palette_colours`.

    Raises
    ------
    InputError
        For a region graph, negative coordinates, or more rows, columns or colours than a
        design holds, naming the board's file.
    """
    where = board.source or DESIGN
    if board.geometry not in DESIGN_GEOMETRIES:
        raise InputError(
            f"a {board.geometry} board has no cells to paint (square, triangle, hex or "
            "KAMI 2 boards can be designed)",
            where,
        )
    top = 0
    if board.geometry == "kami2":
        top = min(2 * p + s + r for r, p, s in board.cells)
    places = {cell: position(board.geometry, cell, top) for cell in board.cells}
    if min(min(p) for p in places.values()) < 0:
        raise InputError("a design needs non-negative coordinates", where)
    rows = max(i for i, _ in places.values()) + 1
    columns = max(j for _, j in places.values()) + 1
    if rows > MOST_SIDE or columns > MOST_SIDE or len(board.palette) > MOST_COLOURS:
        raise InputError(
            f"{rows} x {columns} cells in {len(board.palette)} colours: the designer holds "
            f"at most {MOST_SIDE} x {MOST_SIDE} in {MOST_COLOURS}",
            where,
        )
    grid: list[list[int | None]] = [[None] * columns for _ in range(rows)]
    for cell, (i, j) in places.items():
        grid[i][j] = board.cells[cell]
    design = {
        "name": board.name or DESIGN,
        "geometry": board.geometry,
        "rows": rows,
        "columns": columns,
        "rules": board.rules,
        "pivot": list(places[board.pivot]) if board.rules == "pivot" else None,
        "palette": list(board.palette),
        "colours": palette_colours(board.palette),
        "cells": grid,
        "par": board.par,
        "optimum": board.optimum,
    }
    if board.geometry == "kami2":
        design["top"] = top
    return design


def shapes(geometry: str, rows: int, columns: int, top: int | None = None) -> dict:
    """Where the page draws every entry of a design of this size, holes included.

    Parameters
    ----------
    geometry : str
        One of :data:`DESIGN_GEOMETRIES`.
    rows, columns : int
        The design's size.
    top : int, optional
        A KAMI 2 design's ``top`` (``rows - 1`` when not given).

    Returns
    -------
    dict
        ``cells``: per entry drawn (KAMI 2: not above its strip) ``at`` ([i, j]),
        ``points`` (the polygon from :func:`~kamicp.view.layout.cell_polygon`, x right, y
        down) and ``next`` (the entries sharing a side, for the fill tool); ``box``: [xmin,
        ymin, xmax, ymax].

    Raises
    ------
    InputError
        For a geometry or size out of range.

    Examples
    --------
    >>> drawn = shapes("square", 1, 2)
    >>> drawn["box"], drawn["cells"][0]["next"]
    ([0.0, 0.0, 2.0, 1.0], [[0, 1]])
    """
    rows, columns = _size(geometry, rows, columns)
    top = kami2_top(geometry, rows, top)
    entries = [(i, j) for i in range(rows) for j in range(columns)]
    cells, xs, ys = [], [], []
    for i, j in entries:
        cell = cell_at(geometry, i, j, top)
        if cell is None:
            continue
        points = [[round(x, 6), round(y, 6)] for x, y in cell_polygon(geometry, cell)]
        xs += [p[0] for p in points]
        ys += [p[1] for p in points]
        beside = (position(geometry, other, top) for other in geo.neighbours(geometry, cell))
        near = [
            list(p)
            for p in beside
            if 0 <= p[0] < rows and 0 <= p[1] < columns and cell_at(geometry, *p, top) is not None
        ]
        cells.append({"at": [i, j], "points": points, "next": near})
    return {"cells": cells, "box": [min(xs), min(ys), max(xs), max(ys)]}
