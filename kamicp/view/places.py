"""Places in words: where a cell is on the picture, "row 3, column 5", and which cell names
a region.

Places are 1-based and counted from the top-left of the drawing of
:mod:`kamicp.view.layout`, holes included:

- square grids: rows down, columns across, as in the file;
- hex grids: columns across; the row is the place down the column (odd columns are drawn
  half a cell lower, so one row zigzags across the picture);
- triangle grids and KAMI 2 boards: triangles are drawn in vertical strips, each a column;
  down a strip every triangle is one row, and rows are level across the picture (the
  triangles of one row have their centres at the same height). A KAMI 2 triangle (r, p, s)
  is the text-grid triangle (2p + s + r, r) (:func:`kamicp.view.layout.kami2_as_triangle`):
  column r + 1 and row 2p + s + r + 1, less the rows and columns above and left of the
  drawing;
- graph boards: the node's name.

Pictures and the play page number the rows and columns along their edges
(:func:`grid_labels`). A region is named by the cell of it nearest the centre of its drawn
cells (where a person looks at a blob), ties to the first in reading order
(:func:`region_cell`); under pivot rules the pivot's region by the pivot.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from kamicp.errors import KamicpError
from kamicp.game import rules
from kamicp.game.board import Board
from kamicp.game.regions import RegionGraph
from kamicp.view import layout as lay

__all__ = [
    "LABEL_ALL",
    "cell_at",
    "centres_of",
    "grid_labels",
    "middle_cell",
    "naming_cell",
    "place_words",
    "region_cell",
    "region_cells",
    "row_column",
]


PLACE = re.compile(r"\s*row\s+(\d+)\s*,\s*column\s+(\d+)\s*", re.IGNORECASE)
# Rows and columns are all numbered on a picture of at most this many a side (a KAMI 2
# level has 29 rows); past it every fifth, and the first, so the numbers stay legible.
LABEL_ALL = 30


def drawn_grid(board: Board, cell) -> tuple[int, int]:
    """(row, column) of ``cell`` in the drawing's own grid, 0-based, not yet shifted."""
    if board.geometry == "kami2":
        return lay.kami2_as_triangle(cell)
    return cell


def origin(board: Board) -> tuple[int, int]:
    """The smallest drawn row and column of the board's cells: the drawing's top-left."""
    places = [drawn_grid(board, cell) for cell in board.cells]
    return (min(p[0] for p in places), min(p[1] for p in places))


def row_column(board: Board, cell) -> tuple[int, int]:
    """Where ``cell`` is drawn: 1-based (row, column) from the drawing's top-left.

    Parameters
    ----------
    board : Board
        A grid board (square, triangle, hex or KAMI 2); see the module docstring for what a
        row and a column are on each.
    cell : tuple
        A cell of ``board``.

    Returns
    -------
    (int, int)
        Row and column. O(cells), for the drawing's top-left.

    Raises
    ------
    KamicpError
        On graph boards, whose nodes have no rows.

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> row_column(parse("ab\\nba\\n")[0], (1, 0))
    (2, 1)
    """
    if board.geometry == "graph":
        raise KamicpError("graph nodes have no rows and columns")
    top, left = origin(board)
    row, column = drawn_grid(board, cell)
    return (row - top + 1, column - left + 1)


def grid_labels(board: Board, centres: dict) -> tuple[list, list]:
    """The row and column numbers the words use, and where each stands on the drawing, so
    that a picture can show them along its top and left edges.

    Parameters
    ----------
    board : Board
        A grid board (square, triangle, hex or KAMI 2).
    centres : dict
        Each cell's drawn centre (:func:`kamicp.view.layout.layout`).

    Returns
    -------
    (list of (int, float), list of (int, float))
        Rows as (number, y) and columns as (number, x), y and x the mean of the centres of
        the row's or column's cells; all of them up to :data:`LABEL_ALL` a side, else the
        first and every fifth. O(cells).

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> from kamicp.view.layout import layout
    >>> board = parse("ab\\nba\\n")[0]
    >>> grid_labels(board, layout(board).centres)
    ([(1, 0.5), (2, 1.5)], [(1, 0.5), (2, 1.5)])
    """
    top, left = origin(board)
    rows: dict[int, list[float]] = {}
    columns: dict[int, list[float]] = {}
    for cell in board.order:
        row, column = drawn_grid(board, cell)
        x, y = centres[cell]
        rows.setdefault(row - top + 1, []).append(y)
        columns.setdefault(column - left + 1, []).append(x)

    def shown(found: dict) -> list:
        every = len(found) <= LABEL_ALL
        return [
            (n, round(sum(at) / len(at), 6))
            for n, at in sorted(found.items())
            if every or n == 1 or n % 5 == 0
        ]

    return shown(rows), shown(columns)


def place_words(board: Board, cell) -> str:
    """Where ``cell`` is, in words: ``row 3, column 5``, or ``node Purple-3`` on graphs.

    Parameters
    ----------
    board : Board
        The board.
    cell : tuple or node
        A cell of ``board``.

    Returns
    -------
    str
        The words (:func:`row_column` on grids).

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> place_words(parse("ab\\nba\\n")[0], (0, 1))
    'row 1, column 2'
    """
    if board.geometry == "graph":
        return f"node {cell}"
    return "row {}, column {}".format(*row_column(board, cell))


def cell_at(board: Board, words: str):
    """The cell that :func:`place_words` calls ``words`` (its inverse).

    Parameters
    ----------
    board : Board
        The board.
    words : str
        ``row R, column C`` on grids, ``node NAME`` on graphs.

    Returns
    -------
    tuple or node
        The cell.

    Raises
    ------
    KamicpError
        When the words name no cell of the board (a hole, off the board, not a place).

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> cell_at(parse("ab\\nba\\n")[0], "row 2, column 1")
    (1, 0)
    """
    if board.geometry == "graph":
        for node in board.cells:
            if f"node {node}" == words.strip():
                return node
        raise KamicpError(f"{words!r} names no node of the board")
    match = PLACE.fullmatch(words)
    if not match:
        raise KamicpError(f"{words!r} is not a place (expected 'row R, column C')")
    top, left = origin(board)
    row, column = int(match.group(1)) - 1 + top, int(match.group(2)) - 1 + left
    cell = (row, column)
    if board.geometry == "kami2":  # drawn line = 2p + s + r, drawn column = r
        cell = (column, (row - column) // 2, (row - column) % 2)
    if cell not in board.cells:
        raise KamicpError(f"{words!r} is a hole or off the board")
    return cell


# -- regions and moves ----------------------------------------------------------------------


def centres_of(board: Board, cells) -> dict:
    """The drawn centre of each of ``cells`` (graph boards: every node's)."""
    if board.geometry == "graph":
        return lay.graph_positions(board)
    return {cell: lay.centroid(lay.cell_polygon(board.geometry, cell)) for cell in cells}


def middle_cell(board: Board, cells, centres: dict):
    """The one of ``cells`` nearest the mean of their centres, ties to reading order."""
    xs = [centres[c][0] for c in cells]
    ys = [centres[c][1] for c in cells]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    rank = {cell: i for i, cell in enumerate(board.order)}

    def key(cell):
        x, y = centres[cell]
        # rounded: cells mirror-placed about the centre tie exactly, whatever the float error
        return (round((x - mx) ** 2 + (y - my) ** 2, 9), rank[cell])

    return min(cells, key=key)


def region_cells(g: RegionGraph, region: int, pos: rules.Position | None) -> list:
    """The cells of the current region holding starting region ``region`` at ``pos``."""
    if pos is None:
        return list(g.cells[region])
    return [cell for r in rules.current_region(g, pos, region) for cell in g.cells[r]]


def naming_cell(board: Board, cells: list, centres: Callable[[], dict] | None = None):
    """The cell that names the region of ``cells``: the pivot under pivot rules when it is
    one of them, the only cell, else the cell nearest the middle of their drawing
    (:func:`middle_cell`). ``centres`` gives drawn centres of at least ``cells`` when asked
    (a caller naming many regions draws the board once); None draws ``cells`` alone."""
    if board.rules == "pivot" and board.pivot in cells:
        return board.pivot
    if len(cells) == 1:  # no drawing needed (graph boards: no spring layout)
        return cells[0]
    return middle_cell(board, cells, centres() if centres else centres_of(board, cells))


def region_cell(board: Board, g: RegionGraph, region: int, pos: rules.Position | None = None):
    """The cell that names ``region``: the region's cell nearest the centre of its drawing.

    Parameters
    ----------
    board : Board
        The board.
    g : RegionGraph
        Its region graph.
    region : int
        A region of ``g``.
    pos : tuple of int, optional
        A position (:mod:`kamicp.game.rules`): then the current region holding ``region``,
        which may have grown by merging, is named. None: the starting region.

    Returns
    -------
    tuple or node
        The region's cell (node) whose drawn centre is nearest the mean of the region's
        drawn centres (all cells of a grid have one area, so that is the middle of the
        blob); ties go to the first in reading order. O(cells).

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> from kamicp.game.regions import region_graph
    >>> board = parse("aaa\\nbab\\n")[0]
    >>> region_cell(board, region_graph(board), 0)
    (0, 1)
    """
    return naming_cell(board, region_cells(g, region, pos))
