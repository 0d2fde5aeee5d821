"""A move in words: the colour by the name of its drawn colour, the region by where it is.

Move notation (:mod:`kamicp.game.notation`) is compact and exact, for files and JSON; this
module says the same move the way a person finds it on the picture of
:mod:`kamicp.view.layout`: "green (G) at row 3, column 5".

Colours are named by :mod:`kamicp.view.colour_names`. Places are 1-based and counted from
the top-left of the drawing, holes included:

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

A region is named by the cell of it nearest the centre of its drawn cells (where a person
looks at a blob), ties to the first in reading order (:func:`region_cell`). Under pivot rules
every move recolours the pivot's region, so a move is said by its colour alone ("orange
(1)") and its notation names the pivot cell.
"""

from __future__ import annotations

import re

from kamicp.errors import KamicpError
from kamicp.game import rules
from kamicp.game.board import Board
from kamicp.game.notation import format_cell, format_colour
from kamicp.game.regions import RegionGraph
from kamicp.view import layout as lay
from kamicp.view.colour_names import colour_words, palette_words

__all__ = [
    "LABEL_ALL",
    "cell_at",
    "cell_words",
    "grid_labels",
    "move_said",
    "move_token",
    "move_words",
    "moves_said",
    "moves_words",
    "place_words",
    "region_cell",
    "row_column",
]


PLACE = re.compile(r"\s*row\s+(\d+)\s*,\s*column\s+(\d+)\s*", re.IGNORECASE)
# Rows and columns are all numbered on a picture of at most this many a side (a KAMI 2
# level has 29 rows); past it every fifth, and the first, so the numbers stay legible.
LABEL_ALL = 30


# -- places ---------------------------------------------------------------------------------


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
    cells = region_cells(g, region, pos)
    if board.rules == "pivot" and board.pivot in cells:
        return board.pivot
    if len(cells) == 1:  # no drawing needed (graph boards: no spring layout)
        return cells[0]
    return middle_cell(board, cells, centres_of(board, cells))


def move_words(
    board: Board,
    g: RegionGraph,
    move: rules.Move,
    pos: rules.Position | None = None,
    symbol: bool = True,
) -> str:
    """One move in words: ``green (G) at row 3, column 5``.

    Parameters
    ----------
    board : Board
        The board.
    g : RegionGraph
        Its region graph, which the move refers to.
    move : (int, int)
        (region, colour).
    pos : tuple of int, optional
        The position the move is played in (None: the start); the place named is the
        middle of the current region there (:func:`region_cell`).
    symbol : bool, default True
        Add the palette symbol to the colour's name (:func:`colour_words`).

    Returns
    -------
    str
        The words.

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> from kamicp.game.regions import region_graph
    >>> board = parse("GGR\\nGRR\\n")[0]
    >>> move_words(board, region_graph(board), (1, 0))
    'green (G) at row 2, column 3'
    """
    region, colour = move
    return _words_at(board, colour, region_cell(board, g, region, pos), symbol)


def move_token(
    board: Board, g: RegionGraph, move: rules.Move, pos: rules.Position | None = None
) -> str:
    """The move in notation naming the cell :func:`move_words` names (pasteable anywhere
    notation is read).

    Parameters
    ----------
    board, g, move, pos
        As in :func:`move_words`.

    Returns
    -------
    str
        ``WHERE:COLOUR`` (:mod:`kamicp.game.notation`).

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> from kamicp.game.regions import region_graph
    >>> board = parse("GGR\\nGRR\\n")[0]
    >>> move_token(board, region_graph(board), (1, 0))
    '1,2:G'
    """
    region, colour = move
    return _token_at(board, colour, region_cell(board, g, region, pos))


def move_said(
    board: Board, g: RegionGraph, move: rules.Move, pos: rules.Position | None = None
) -> tuple[str, str]:
    """The move in words and in notation, both naming one cell, found once
    (:func:`move_words`, :func:`move_token`).

    Parameters
    ----------
    board, g, move, pos
        As in :func:`move_words`.

    Returns
    -------
    (str, str)
        The words (with the palette symbol), and ``WHERE:COLOUR`` on the cell they name.

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> from kamicp.game.regions import region_graph
    >>> board = parse("GGR\\nGRR\\n")[0]
    >>> move_said(board, region_graph(board), (1, 0))
    ('green (G) at row 2, column 3', '1,2:G')
    """
    region, colour = move
    cell = region_cell(board, g, region, pos)
    return _words_at(board, colour, cell, True), _token_at(board, colour, cell)


def cell_words(board: Board, colour: int, cell) -> str:
    """A move in words that names ``cell`` of the region moved (as a player named it).

    Parameters
    ----------
    board : Board
        The board.
    colour : int
        The colour played.
    cell : tuple or node
        A cell of the region moved; under pivot rules the pivot names no place.

    Returns
    -------
    str
        The words, with the palette symbol.

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> cell_words(parse("GGR\\nGRR\\n")[0], 0, (0, 2))
    'green (G) at row 1, column 3'
    """
    return _words_at(board, colour, cell, True)


def _words_at(board: Board, colour: int, cell, symbol: bool) -> str:
    return _said(board, colour_words(board, colour, symbol), cell)


def _said(board: Board, colour_said: str, cell) -> str:
    """A move's words: its colour, and its place unless the move recolours the pivot."""
    if board.rules == "pivot" and cell == board.pivot:
        return colour_said
    return f"{colour_said} at {place_words(board, cell)}"


def _token_at(board: Board, colour: int, cell) -> str:
    return f"{format_cell(board, cell)}:{format_colour(board, colour)}"


def moves_words(
    board: Board, g: RegionGraph, moves: list, symbol: bool = True, numbered: bool = True
) -> list[str]:
    """Moves replayed from the start, one line each: ``1. green (G) at row 3, ...``.

    Parameters
    ----------
    board : Board
        The board.
    g : RegionGraph
        Its region graph, which the moves refer to (starting regions, as solvers answer).
    moves : list of (int, int)
        The moves, replayed with :func:`kamicp.game.rules.apply`; each is named in the
        position the earlier moves leave, where its region may have merged with others.
    symbol : bool, default True
        Add the palette symbols (:func:`colour_words`).
    numbered : bool, default True
        Start each line with the move's number (a list that numbers its items: without).

    Returns
    -------
    list of str
        One line per move. O(moves * cells).

    Raises
    ------
    IllegalMove
        For a move the rules reject.

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> from kamicp.game.regions import region_graph
    >>> board = parse("GRB\\n")[0]
    >>> for line in moves_words(board, region_graph(board), [(1, 1), (0, 0)]):
    ...     print(line)
    1. green (G) at row 1, column 2
    2. blue (B) at row 1, column 1
    """
    return moves_said(board, g, moves, symbol, numbered)[0]


def moves_said(
    board: Board, g: RegionGraph, moves: list, symbol: bool = True, numbered: bool = True
) -> tuple[list[str], list[str]]:
    """:func:`moves_words`, and each move in notation on the cell its words name.

    Both name the middle cell of the region moved, as it stands when the move is played
    (any cell of that region names the same move), so that a reader finds the words' cell
    in the notation: ``row 3, column 5`` is ``2,4`` (rows and columns counted from 1 in
    words, from 0 in notation).

    Returns
    -------
    (list of str, list of str)
        The lines of :func:`moves_words`, and one ``WHERE:COLOUR`` token per move.

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> from kamicp.game.regions import region_graph
    >>> board = parse("GRB\\n")[0]
    >>> moves_said(board, region_graph(board), [(1, 1), (0, 0)])
    (['1. green (G) at row 1, column 2', '2. blue (B) at row 1, column 1'], ['0,1:G', '0,0:B'])
    """
    words = palette_words(board, symbol=symbol)
    centres = {}  # drawn once, when a region of more than one cell is first named
    pos = rules.start(g)
    lines, tokens = [], []
    for number, move in enumerate(moves, 1):
        region, colour = move
        cells = region_cells(g, region, pos)
        if board.rules == "pivot" and board.pivot in cells:
            cell = board.pivot
        else:
            if len(cells) > 1 and not centres:
                centres = centres_of(board, board.order)
            cell = cells[0] if len(cells) == 1 else middle_cell(board, cells, centres)
        head = f"{number}. " if numbered else ""
        lines.append(head + _said(board, words[colour], cell))
        tokens.append(_token_at(board, colour, cell))
        pos = rules.apply(g, pos, move)
    return lines, tokens
