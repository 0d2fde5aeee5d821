"""Where and in which colour every cell is drawn; shared by terminal and image output.

Coordinates are x to the right and y *down*, in units of about one cell. Every vertex is an
integer point of a per-geometry lattice multiplied by fixed scale factors, so two cells that
share a side produce *identical* floating-point vertices (equality, not closeness). Shared
edges and region outlines are therefore found by exact matching (:func:`outline`).

- ``square``: unit squares, cell (r, c) is [c, c+1] x [r, r+1].
- ``triangle``: equilateral triangles of side 1 with a vertical side. Line r of the text is
  a half-row: the triangle at (r, c) has its centre line at y = r/2 and lies in the column
  strip c*h <= x <= (c+1)*h (h = sqrt(3)/2). It points right (r + c even) when its vertical
  side is on the strip's left edge, left otherwise. Going down a strip the triangles
  alternate and consecutive ones share a slanted side; a right-pointing triangle shares its
  vertical side with the left-pointing one at the same line in the strip to its left: exactly
  the neighbours of :func:`kamicp.game.geometry.triangle_neighbours`.
- ``kami2``: the same triangles. Row r of the game's file is the column strip r; side s of
  rhombus pair p is the t = 2p + s-th triangle down that strip, and strip r + 1 sits half a
  triangle (one line) lower than strip r, because (r, p, 1) shares its vertical side with
  (r + 1, p, 0). So (r, p, s) is drawn as the text-grid triangle (line 2p + s + r, column
  r) (:func:`kami2_as_triangle`); the file's 10 x 2w rows form a parallelogram, and the
  game's rectangular screen is what remains once the holes (digit 0) at its two slanted
  ends are left out.
- ``hex``: flat-topped hexagons of height 1, odd columns shifted down half a cell.
- ``graph``: no cells: node positions from networkx's spring layout (seed 0), drawn as
  circles of radius :data:`NODE_RADIUS`.

Colours: :func:`palette_colours` gives each palette index an ``#rrggbb`` colour,
deterministically from the palette symbols (colour names such as ``Purple`` get that colour;
a palette of colour initials such as ``RGBY`` gets those colours; anything else gets a fixed
10-colour default palette in index order).
"""

from __future__ import annotations

import colorsys
import itertools
import math
from collections import Counter
from dataclasses import dataclass

from kamicp.errors import KamicpError
from kamicp.game.board import Board

__all__ = [
    "DEFAULT_COLOURS",
    "NAMED_COLOURS",
    "NODE_RADIUS",
    "Layout",
    "cell_polygon",
    "centroid",
    "graph_positions",
    "hex_polygon",
    "is_light",
    "kami2_as_triangle",
    "layout",
    "outline",
    "palette_colours",
    "parse_colour",
    "rgb",
    "shared_edges",
    "square_polygon",
    "triangle_polygon",
]

SQRT3 = math.sqrt(3)
H = SQRT3 / 2  # width of a column strip of triangles of side 1

NODE_RADIUS = 0.35  # graph boards: radius of a node's circle, in layout units

Point = tuple[float, float]


@dataclass(frozen=True)
class Layout:
    """A board's drawing: ``polygons`` (empty for graph boards) and ``centres`` per cell.

    ``links`` are the lines to draw between graph nodes (graph boards only).
    """

    geometry: str
    polygons: dict
    centres: dict
    links: tuple = ()

    def bounds(self) -> tuple[float, float, float, float]:
        """(xmin, ymin, xmax, ymax) of everything drawn."""
        if self.polygons:
            points = [p for poly in self.polygons.values() for p in poly]
            pad = 0.0
        else:
            points = list(self.centres.values())
            pad = NODE_RADIUS
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        return (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)


# -- polygons per geometry ------------------------------------------------------------------


def square_polygon(cell: tuple) -> tuple[Point, ...]:
    """The unit square of (r, c), clockwise from its top-left corner."""
    r, c = cell
    x, y = float(c), float(r)
    return ((x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1))


def triangle_point(i: int, j: int) -> Point:
    """Lattice point i column strips across, j half-units down (the triangle lattice)."""
    return (i * H, j * 0.5)


def triangle_polygon(cell: tuple) -> tuple[Point, ...]:
    """The triangle (r, c) of a triangle text grid (line r is a half-row)."""
    r, c = cell
    if (r + c) % 2 == 0:  # points right: vertical side on the left of strip c
        return (triangle_point(c, r - 1), triangle_point(c + 1, r), triangle_point(c, r + 1))
    return (triangle_point(c + 1, r - 1), triangle_point(c + 1, r + 1), triangle_point(c, r))


def kami2_as_triangle(cell: tuple) -> tuple[int, int]:
    """The text-grid triangle (line, column) where the KAMI 2 triangle (r, p, s) is drawn.

    The map preserves adjacency both ways (see the module docstring), and pointing: the
    line plus the column is even exactly when s is 0 (s = 0 triangles point right).

    Examples
    --------
    >>> kami2_as_triangle((1, 2, 1))
    (6, 1)
    """
    r, p, s = cell
    return (2 * p + s + r, r)


def hex_point(i: int, j: int) -> Point:
    """Hex lattice point: units of half a corner radius across and half a height down."""
    return (i / (2 * SQRT3), j * 0.5)


def hex_polygon(cell: tuple) -> tuple[Point, ...]:
    """The flat-topped hexagon (r, c), odd-q offset, clockwise from its right corner.

    On the lattice the centre is (3c, 2r + c mod 2) and the corners are (+-2, 0) and
    (+-1, +-1) from it; a hexagon is then 2/sqrt(3) wide and 1 high, columns 0.866 apart.
    """
    r, c = cell
    x, y = 3 * c, 2 * r + (c % 2)
    corners = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))
    return tuple(hex_point(x + dx, y + dy) for dx, dy in corners)


def cell_polygon(geometry: str, cell: tuple) -> tuple[Point, ...]:
    """The polygon of ``cell`` (vertices in order, y down)."""
    if geometry == "square":
        return square_polygon(cell)
    if geometry == "triangle":
        return triangle_polygon(cell)
    if geometry == "kami2":
        return triangle_polygon(kami2_as_triangle(cell))
    if geometry == "hex":
        return hex_polygon(cell)
    raise ValueError(f"{geometry} cells have no polygon")


def centroid(polygon: tuple[Point, ...]) -> Point:
    """The mean of the vertices (the centroid for triangles and regular polygons)."""
    n = len(polygon)
    return (sum(p[0] for p in polygon) / n, sum(p[1] for p in polygon) / n)


def graph_positions(board: Board) -> dict:
    """Node centres of a graph board: networkx spring layout, seed 0, scaled to the size.

    Fruchterman-Reingold force-directed placement (Fruchterman & Reingold 1991) as
    implemented by networkx; deterministic for a given board thanks to the fixed seed and
    the fixed node order. Scaled so that the drawing spans about 1.6 sqrt(n) units, which
    keeps circles of radius 0.35 apart on typical region graphs. O(iterations * n^2).
    """
    import networkx as nx  # heavy; loaded only where a graph board is drawn

    g = nx.Graph()
    g.add_nodes_from(board.order)
    g.add_edges_from(board.edges)
    n = g.number_of_nodes()
    if n == 1:
        return {board.order[0]: (0.0, 0.0)}
    pos = nx.spring_layout(g, seed=0)
    scale = 0.8 * max(2.0, SQRT3 * math.sqrt(n))
    return {node: (float(x) * scale, float(y) * scale) for node, (x, y) in pos.items()}


def layout(board: Board) -> Layout:
    """The drawing of ``board``: a polygon and a centre per cell, or node positions.

    Parameters
    ----------
    board : Board
        The board.

    Returns
    -------
    Layout
        Polygons and centres in layout units (y down); graph boards get centres and links.

    Notes
    -----
    O(cells) for grids; see :func:`graph_positions` for graph boards.

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> layout(parse("ab\\n")[0]).bounds()
    (0.0, 0.0, 2.0, 1.0)
    """
    if board.geometry == "graph":
        return Layout("graph", {}, graph_positions(board), tuple(board.edges))
    polygons = {cell: cell_polygon(board.geometry, cell) for cell in board.order}
    centres = {cell: centroid(poly) for cell, poly in polygons.items()}
    return Layout(board.geometry, polygons, centres)


# -- edges ----------------------------------------------------------------------------------


def polygon_edges(polygon: tuple[Point, ...]) -> list[frozenset]:
    """The sides of a polygon, each as the frozenset of its two end points."""
    n = len(polygon)
    return [frozenset((polygon[i], polygon[(i + 1) % n])) for i in range(n)]


def shared_edges(a: tuple[Point, ...], b: tuple[Point, ...]) -> set[frozenset]:
    """Sides the two polygons have in common (exact vertex equality)."""
    return set(polygon_edges(a)) & set(polygon_edges(b))


def outline(polygons) -> list[tuple[Point, Point]]:
    """The boundary of a union of cells: the sides that belong to exactly one of them.

    Parameters
    ----------
    polygons : iterable of tuple of points
        The cells' polygons, vertices from one lattice (exact equality on shared sides).

    Returns
    -------
    list of (point, point)
        The boundary's sides, each with its ends sorted. O(total vertices).

    Examples
    --------
    >>> len(outline([square_polygon((0, 0)), square_polygon((0, 1))]))
    6
    """
    count = Counter(edge for poly in polygons for edge in polygon_edges(poly))
    return [tuple(sorted(edge)) for edge, k in count.items() if k == 1]


# -- colours --------------------------------------------------------------------------------

# Ten clearly distinct, not too saturated colours, chosen for this project; index order is
# the order in which boards without colour names get them.
DEFAULT_COLOURS = (
    "#3b6fb6",  # blue
    "#e8833a",  # orange
    "#d64550",  # red
    "#4aa89b",  # teal
    "#f2c84b",  # yellow
    "#8e63b5",  # purple
    "#6bb04a",  # green
    "#f09bb8",  # pink
    "#8c6a4f",  # brown
    "#a9a9a9",  # grey
)

# Soft tones for colour names found in puzzle files (KAMI 2 graphs name their colours).
NAMED_COLOURS = {
    "blue": "#3b6fb6",
    "orange": "#e8833a",
    "red": "#d64550",
    "teal": "#4aa89b",
    "yellow": "#f2c84b",
    "purple": "#8e63b5",
    "green": "#6bb04a",
    "pink": "#f09bb8",
    "brown": "#8c6a4f",
    "grey": "#a9a9a9",
    "gray": "#a9a9a9",
    "white": "#f3efe4",
    "black": "#2d2d2d",
    "cyan": "#5bc0de",
    "navy": "#2c3e73",
    "beige": "#e6d3a7",
    "cream": "#f4e9c9",
    "violet": "#b48ee0",
    "magenta": "#c0449a",
    "lime": "#a6cc3d",
    "gold": "#d9a82b",
    "maroon": "#7d2a35",
    "olive": "#7c8a3a",
    "tan": "#d2b48c",
    "turquoise": "#40c4b8",
}

# Colour initials, used only when *every* symbol of a palette is one of them.
INITIALS = {
    "r": "red",
    "o": "orange",
    "y": "yellow",
    "g": "green",
    "b": "blue",
    "p": "purple",
    "w": "white",
    "k": "black",
    "c": "cyan",
    "m": "magenta",
    "n": "brown",
    "t": "teal",
}


def extra_colour(i: int) -> str:
    """Colour number ``i`` past the defaults: hues spread by the golden angle."""
    hue = (0.61803398875 * i) % 1.0
    r, g, b = colorsys.hsv_to_rgb(hue, 0.55, 0.85)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def parse_colour(text: str) -> str:
    """``#rgb``, ``#rrggbb`` or a CSS colour name as ``#rrggbb``.

    Raises
    ------
    KamicpError
        When ``text`` is not a colour.

    Examples
    --------
    >>> parse_colour("#abc"), parse_colour("Red")
    ('#aabbcc', '#ff0000')
    """
    from PIL import ImageColor  # Pillow knows all CSS names; imported only when asked

    try:
        r, g, b = ImageColor.getrgb(text.strip())[:3]
    except ValueError:
        raise KamicpError(f"{text!r} is not a colour (#rrggbb or a colour name)") from None
    return f"#{r:02x}{g:02x}{b:02x}"


def palette_colours(symbols: tuple[str, ...], override: list[str] | None = None) -> list[str]:
    """One ``#rrggbb`` colour per palette index, all different.

    Parameters
    ----------
    symbols : tuple of str
        The board's palette.
    override : list of str, optional
        User colours (hex or CSS names), first to last index; they come first.

    Returns
    -------
    list of str
        Then symbols that name a colour get it, and the rest take default colours not used
        yet, in index order. O(k).

    Raises
    ------
    KamicpError
        For an override that is not a colour.

    Examples
    --------
    >>> palette_colours(("r", "g"))
    ['#d64550', '#6bb04a']
    >>> palette_colours(("a", "b"), ["navy"])
    ['#000080', '#3b6fb6']
    """
    k = len(symbols)
    chosen: list[str | None] = [None] * k
    for i, text in enumerate((override or [])[:k]):
        chosen[i] = parse_colour(text)
    lowered = [s.lower() for s in symbols]
    if all(s in INITIALS for s in lowered) and len(set(lowered)) == k:
        names = [INITIALS[s] for s in lowered]
    else:
        names = lowered
    for i, name in enumerate(names):
        if chosen[i] is None and name in NAMED_COLOURS and NAMED_COLOURS[name] not in chosen:
            chosen[i] = NAMED_COLOURS[name]
    spare = itertools.chain(DEFAULT_COLOURS, map(extra_colour, itertools.count()))
    for i in range(k):
        while chosen[i] is None:
            candidate = next(spare)
            if candidate not in chosen:
                chosen[i] = candidate
    return chosen


def rgb(colour: str) -> tuple[int, int, int]:
    """``#rrggbb`` as a tuple of three ints.

    Examples
    --------
    >>> rgb("#ff8000")
    (255, 128, 0)
    """
    return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))


def is_light(colour: str) -> bool:
    """True when dark text reads better on ``colour`` (relative luminance, ITU-R BT.709).

    Examples
    --------
    >>> is_light("#f2c84b"), is_light("#3b6fb6")
    (True, False)
    """
    r, g, b = rgb(colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b > 140
