"""Geometry: which cells touch which (two cells are neighbours when they share a side).

Cells are tuples. Every function here is pure and takes only coordinates; holes are
handled by the board, which keeps the neighbours that are present.

- ``square``: (r, c), 4 neighbours.
- ``triangle``: (r, c); line r is a half-row, the triangle at (r, c) points right when
  r + c is even, left otherwise (the left/right layout of KAMI 2 in text grids).
- ``hex``: (r, c), flat-topped hexes, odd columns shifted down half a cell ("odd-q").
- ``kami2``: (r, p, s), the game's rhombus pairs: row r, pair p, side s in {0, 1}; the flat
  index of the game's files is ``r * 2w + 2p + s``.
- ``graph``: regions and edges given directly; no coordinates.
"""

from __future__ import annotations

from collections.abc import Iterator

__all__ = [
    "GEOMETRIES",
    "GRID_GEOMETRIES",
    "NEIGHBOURS",
    "Cell",
    "hex_neighbours",
    "kami2_cell",
    "kami2_index",
    "kami2_neighbours",
    "neighbours",
    "points_right",
    "square_neighbours",
    "triangle_neighbours",
]

GEOMETRIES = ("square", "triangle", "hex", "kami2", "graph")
GRID_GEOMETRIES = ("square", "triangle", "hex")

Cell = tuple


def square_neighbours(cell: Cell) -> Iterator[Cell]:
    """The 4 cells sharing a side with ``cell`` (on an unbounded grid).

    Parameters
    ----------
    cell : (int, int)
        (row, column).

    Yields
    ------
    (int, int)
        Above, below, left, right.

    Examples
    --------
    >>> list(square_neighbours((2, 3)))
    [(1, 3), (3, 3), (2, 2), (2, 4)]
    """
    r, c = cell
    yield from ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))


def points_right(cell: Cell) -> bool:
    """True when the triangle at ``cell`` points right (r + c even).

    Parameters
    ----------
    cell : (int, int)
        (row, column) of a triangle grid.

    Returns
    -------
    bool
        Whether it points right.

    Examples
    --------
    >>> points_right((0, 0)), points_right((0, 1))
    (True, False)
    """
    r, c = cell
    return (r + c) % 2 == 0


def triangle_neighbours(cell: Cell) -> Iterator[Cell]:
    """The 3 triangles sharing a side: above, below, and the one its flat side faces.

    Parameters
    ----------
    cell : (int, int)
        (row, column) of a triangle grid.

    Yields
    ------
    (int, int)
        Above, below, then the one beside it.

    Examples
    --------
    >>> list(triangle_neighbours((0, 0)))
    [(-1, 0), (1, 0), (0, -1)]
    """
    r, c = cell
    yield (r - 1, c)
    yield (r + 1, c)
    # A right-pointing triangle has its vertical side on the left.
    yield (r, c - 1) if points_right(cell) else (r, c + 1)


def hex_neighbours(cell: Cell) -> Iterator[Cell]:
    """The 6 hexes sharing a side in the flat-topped "odd-q" layout.

    Parameters
    ----------
    cell : (int, int)
        (row, column); odd columns sit half a hex lower.

    Yields
    ------
    (int, int)
        Above, below, then the four beside it.

    Examples
    --------
    >>> sorted(hex_neighbours((1, 1)))
    [(0, 1), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)]
    """
    r, c = cell
    yield (r - 1, c)
    yield (r + 1, c)
    if c % 2 == 0:
        yield from ((r - 1, c - 1), (r, c - 1), (r - 1, c + 1), (r, c + 1))
    else:
        yield from ((r, c - 1), (r + 1, c - 1), (r, c + 1), (r + 1, c + 1))


def kami2_neighbours(cell: Cell) -> Iterator[Cell]:
    """The triangles sharing a side in KAMI 2's rhombus-pair coordinates.

    Edges are (r,p,0)-(r,p,1), (r,p,1)-(r,p+1,0) and (r,p,1)-(r+1,p,0), both ways.

    Parameters
    ----------
    cell : (int, int, int)
        (row, rhombus pair, side 0 or 1).

    Yields
    ------
    (int, int, int)
        The three triangles beside it.

    Examples
    --------
    >>> list(kami2_neighbours((2, 3, 1)))
    [(2, 3, 0), (2, 4, 0), (3, 3, 0)]
    """
    r, p, s = cell
    if s == 0:
        yield (r, p, 1)
        yield (r, p - 1, 1)
        yield (r - 1, p, 1)
    else:
        yield (r, p, 0)
        yield (r, p + 1, 0)
        yield (r + 1, p, 0)


NEIGHBOURS = {
    "square": square_neighbours,
    "triangle": triangle_neighbours,
    "hex": hex_neighbours,
    "kami2": kami2_neighbours,
}


def neighbours(geometry: str, cell: Cell) -> Iterator[Cell]:
    """Cells that share a side with ``cell`` in ``geometry`` (holes not removed).

    Parameters
    ----------
    geometry : str
        "square", "triangle", "hex" or "kami2".
    cell : tuple
        A cell of that geometry.

    Returns
    -------
    iterator of tuple
        Its neighbours on an unbounded board.

    Raises
    ------
    KeyError
        For another geometry (a graph board has no grid).
    """
    return NEIGHBOURS[geometry](cell)


def kami2_cell(index: int, width: int) -> Cell:
    """The (r, p, s) triangle of flat index ``index`` on a board of ``2 * width`` columns.

    Parameters
    ----------
    index : int
        The game's flat triangle index.
    width : int
        Rhombus pairs per row.

    Returns
    -------
    (int, int, int)
        (row, rhombus pair, side).

    Examples
    --------
    >>> kami2_cell(23, 10)
    (1, 1, 1)
    """
    r, rest = divmod(index, 2 * width)
    p, s = divmod(rest, 2)
    return (r, p, s)


def kami2_index(cell: Cell, width: int) -> int:
    """The flat index of a (r, p, s) triangle, the inverse of :func:`kami2_cell`.

    Parameters
    ----------
    cell : (int, int, int)
        (row, rhombus pair, side).
    width : int
        Rhombus pairs per row.

    Returns
    -------
    int
        The game's flat triangle index.

    Examples
    --------
    >>> kami2_index((1, 1, 1), 10)
    23
    """
    r, p, s = cell
    return r * 2 * width + 2 * p + s
