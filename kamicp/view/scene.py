"""A picture of a board as a *scene*: shapes in pixel coordinates, one frame per move.

A scene is a list of shapes (cells as polygons, graph nodes as circles, lines, dots and
text) built from :mod:`kamicp.view.layout`; :mod:`kamicp.view.render` writes it as SVG or
draws it with Pillow, so both outputs show exactly the same thing.

With moves, the moves are replayed by :func:`kamicp.game.rules.apply` and there is one frame
per move plus the end: frame i shows the board before move i + 1 with the region about to
be recoloured outlined and, ringed, a dot of its new colour on the cell the caption names
(:mod:`kamicp.view.words`: "move 1/11: green at row 3, column 5"); the last
frame shows the board after the last move. :func:`scene` puts the frames in a grid read row
by row, at most ``per_row`` across. A grid board's frames carry the row and column numbers
the words count by along their top and left edges (:func:`kamicp.view.places.grid_labels`).

Cells are filled with their colour and stroked with a slightly darker tone of it, so the
lattice stays faintly visible inside a region while adjacent polygons show no hairline
seams. Holes are simply not drawn.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from kamicp.game import rules
from kamicp.game.board import Board
from kamicp.game.regions import region_graph
from kamicp.plural import count_moves
from kamicp.view import colour_names, places
from kamicp.view import layout as lay

__all__ = [
    "CAPTION",
    "FRAMES_PER_ROW",
    "GAP",
    "GRAPH_PX",
    "GRID_PX",
    "INK",
    "LABELS",
    "MARGIN",
    "Frame",
    "Scene",
    "Shape",
    "frame_scenes",
    "frames_of",
    "scene",
]

GRID_PX = 30  # pixels per layout unit (about one cell) for grid boards
GRAPH_PX = 60  # graph nodes need room for their labels
MARGIN = 0.4  # layout units around a frame
GAP = 0.5  # layout units between frames in a row
CAPTION = 0.9  # layout units for the caption line under a frame (with moves)
INK = "#1a1a1a"  # outlines, captions and text on light colours
LABELS = 0.75  # layout units left of and above a grid board for its row and column numbers
RULER_INK = "#8d939c"  # those numbers: legible beside the board, quieter than it
FRAMES_PER_ROW = 6  # frames across by default: six moves read as one line


@dataclass
class Shape:
    """One thing to draw, in pixels: kind is polygon, line, circle or text."""

    kind: str
    points: tuple = ()  # polygon vertices; line ends; circle and text: the centre
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.0  # stroke width
    size: float = 0.0  # circle radius or font size
    text: str = ""
    role: str = ""  # cell, link, node, mark, tap, number, label, ruler, caption
    ident: str = ""  # the cell or node, for SVG readers


@dataclass
class Scene:
    """A picture: its size in pixels and its shapes, drawn in order."""

    width: float
    height: float
    shapes: list = field(default_factory=list)


@dataclass(frozen=True)
class Frame:
    """One state to draw: cell colours, and the move about to be played (if any)."""

    colours: dict
    marked: tuple = ()  # cells of the current region the move recolours
    tap: object = None  # the cell the caption names (kamicp.view.places.region_cell)
    new_colour: int | None = None
    caption: str = ""


# -- frames ---------------------------------------------------------------------------------


def frames_of(board: Board, moves=None, palette=None) -> list[Frame]:
    """The frames of a picture: one per move, then the end (or only the board, without moves).

    Parameters
    ----------
    board : Board
        The board.
    moves : list of (region, colour), optional
        Moves replayed from the start with :func:`kamicp.game.rules.apply`.
    palette : list of str, optional
        Colours the picture is drawn in, for the names in the captions.

    Returns
    -------
    list of Frame
        Frame i shows the board before move i + 1, the region it recolours marked and the
        move in words (:func:`kamicp.view.words.move_words`) as its caption; the last one
        the board after the last move, captioned with whether it is solved.

    Raises
    ------
    IllegalMove
        For a move the rules reject.

    Notes
    -----
    O(moves * cells).

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> frames = frames_of(parse("ab\\n")[0], [(0, 1)])
    >>> [f.caption for f in frames]
    ['move 1/1: orange at row 1, column 1', 'solved in 1 move']
    """
    if moves is None:
        return [Frame(dict(board.cells))]
    g = region_graph(board)
    pos = rules.start(g)
    out = []

    def colours_at(position) -> dict:
        return {cell: position[g.region_of[cell]] for cell in board.order}

    for number, move in enumerate(moves, 1):
        region, colour = move
        part = rules.current_region(g, pos, region)
        marked = tuple(cell for r in part for cell in g.cells[r])
        tap = places.region_cell(board, g, region, pos)
        said = colour_names.colour_words(board, colour, symbol=False, palette=palette)
        caption = f"move {number}/{len(moves)}: {said} at {places.place_words(board, tap)}"
        out.append(Frame(colours_at(pos), marked, tap, colour, caption))
        pos = rules.apply(g, pos, move)
    if rules.is_solved(pos):
        caption = f"solved in {count_moves(len(moves))}"
    else:
        caption = f"after {count_moves(len(moves))}: not solved"
    out.append(Frame(colours_at(pos), caption=caption))
    return out


# -- scenes ---------------------------------------------------------------------------------


def darker(colour: str, factor: float = 0.88) -> str:
    r, g, b = (round(v * factor) for v in lay.rgb(colour))
    return f"#{r:02x}{g:02x}{b:02x}"


def text_colour(colour: str) -> str:
    return INK if lay.is_light(colour) else "#ffffff"


def cell_name(cell) -> str:
    return ",".join(map(str, cell)) if isinstance(cell, tuple) else str(cell)


def frame_shapes(board, drawing, frame, colours, numbers, px, origin) -> list[Shape]:
    """The shapes of one frame; ``origin`` is the pixel position of layout point (0, 0)."""
    ox, oy = origin

    def at(point) -> tuple[float, float]:
        return (ox + point[0] * px, oy + point[1] * px)

    shapes = []
    first, region_of = {}, {}
    if numbers:
        g = region_graph(board)
        first = {cells[0]: i for i, cells in enumerate(g.cells)}
        region_of = g.region_of
    if board.geometry == "graph":
        for a, b in drawing.links:
            ends = (at(drawing.centres[a]), at(drawing.centres[b]))
            shapes.append(Shape("line", ends, stroke="#666666", width=0.05 * px, role="link"))
        for node in board.order:
            fill = colours[frame.colours[node]]
            marked = node in frame.marked
            shapes.append(
                Shape(
                    "circle",
                    at(drawing.centres[node]),
                    fill=fill,
                    stroke=INK if marked else darker(fill, 0.6),
                    width=(0.09 if marked else 0.03) * px,
                    size=lay.NODE_RADIUS * px,
                    role="node",
                    ident=str(node),
                )
            )
            # Adjacent same-colour nodes form one region: every node shows its number.
            label = str(node) + (f" #{region_of[node]}" if numbers else "")
            font = 0.3 * px if len(label) <= 3 else 0.22 * px
            shapes.append(
                Shape(
                    "text",
                    at(drawing.centres[node]),
                    fill=text_colour(fill),
                    size=font,
                    text=label,
                    role="label",
                )
            )
        if frame.tap is not None:
            x, y = drawing.centres[frame.tap]
            spot = at((x + 0.7 * lay.NODE_RADIUS, y - 0.7 * lay.NODE_RADIUS))
            shapes.extend(tap_dot(spot, colours[frame.new_colour], 0.13 * px))
        return shapes
    for cell in board.order:
        fill = colours[frame.colours[cell]]
        points = tuple(at(p) for p in drawing.polygons[cell])
        shapes.append(
            Shape(
                "polygon",
                points,
                fill=fill,
                stroke=darker(fill),
                width=max(1.0, 0.03 * px),
                role="cell",
                ident=cell_name(cell),
            )
        )
    small = 0.3 if board.geometry in ("triangle", "kami2") else 0.4
    for cell, region in first.items():
        fill = colours[frame.colours[cell]]
        shapes.append(
            Shape(
                "text",
                at(drawing.centres[cell]),
                fill=text_colour(fill),
                size=small * px,
                text=str(region),
                role="number",
            )
        )
    if frame.marked:
        for a, b in lay.outline(drawing.polygons[cell] for cell in frame.marked):
            shapes.append(Shape("line", (at(a), at(b)), stroke=INK, width=0.12 * px, role="mark"))
        shapes.extend(tap_dot(at(drawing.centres[frame.tap]), colours[frame.new_colour], 0.2 * px))
    return shapes


def tap_dot(centre, colour: str, radius: float) -> list[Shape]:
    """A dot of the new colour ringed in white and dark ink, inside a wide open ring of ink
    and white: readable on any fill, and seen at a glance on a busy board."""
    return [
        Shape(
            "circle", centre, stroke="#ffffff", width=radius * 0.5, size=radius * 2.3, role="tap"
        ),
        Shape("circle", centre, stroke=INK, width=radius * 0.25, size=radius * 2.3, role="tap"),
        Shape("circle", centre, fill=INK, size=radius * 1.45, role="tap"),
        Shape("circle", centre, fill="#ffffff", size=radius * 1.2, role="tap"),
        Shape("circle", centre, fill=colour, size=radius, role="tap"),
    ]


def frame_scenes(board: Board, moves=None, palette=None, numbers=False, px=None) -> list[Scene]:
    """One scene per frame of :func:`frames_of`, each with its pixel origin at its top-left.

    Parameters
    ----------
    board, moves
        As in :func:`frames_of`.
    palette : list of str, optional
        Colours (``#rrggbb`` or names) overriding the defaults in palette order.
    numbers : bool, default False
        Print each region's number in its first cell (each graph node's, after its name).
    px : float, optional
        Pixels per layout unit (:data:`GRID_PX`; :data:`GRAPH_PX` for graph boards).

    Returns
    -------
    list of Scene
        All of the same size; O(frames * cells) shapes.
    """
    drawing = lay.layout(board)
    px = px or (GRAPH_PX if board.geometry == "graph" else GRID_PX)
    colours = lay.palette_colours(board.palette, palette)
    xmin, ymin, xmax, ymax = drawing.bounds()
    caption = CAPTION if moves is not None else 0.0
    room = 0.0 if board.geometry == "graph" else LABELS
    width = (xmax - xmin + 2 * MARGIN + room) * px
    height = (ymax - ymin + 2 * MARGIN + room + caption) * px
    origin = ((MARGIN + room - xmin) * px, (MARGIN + room - ymin) * px)
    rulers = [] if not room else ruler_shapes(board, drawing, px, origin)
    out = []
    for frame in frames_of(board, moves, palette):
        shapes = rulers + frame_shapes(board, drawing, frame, colours, numbers, px, origin)
        if frame.caption:
            centre = (width / 2, height - (MARGIN / 2 + caption / 2) * px)
            font = 0.45 * GRID_PX  # captions keep one size on every geometry
            shapes.append(
                Shape("text", centre, fill=INK, size=font, text=frame.caption, role="caption")
            )
        out.append(Scene(width, height, shapes))
    return out


def ruler_shapes(board: Board, drawing, px: float, origin) -> list[Shape]:
    """The row numbers left of a grid board and its column numbers above it."""
    rows, columns = places.grid_labels(board, drawing.centres)
    xmin, ymin, _, _ = drawing.bounds()
    ox, oy = origin
    font = 0.34 * px
    spots = [((xmin - LABELS / 2, y), n) for n, y in rows]
    spots += [((x, ymin - LABELS / 2), n) for n, x in columns]
    return [
        Shape(
            "text",
            (ox + x * px, oy + y * px),
            fill=RULER_INK,
            size=font,
            text=str(n),
            role="ruler",
        )
        for (x, y), n in spots
    ]


def moved(shape: Shape, dx: float, dy: float) -> Shape:
    """The shape translated by (dx, dy) pixels."""
    if shape.kind in ("polygon", "line"):
        points = tuple((x + dx, y + dy) for x, y in shape.points)
    else:
        points = (shape.points[0] + dx, shape.points[1] + dy)
    return replace(shape, points=points)


def scene(board: Board, moves=None, palette=None, numbers=False, px=None, per_row=None) -> Scene:
    """All frames of :func:`frame_scenes` in one scene, read row by row.

    Parameters
    ----------
    board, moves, palette, numbers, px
        As in :func:`frame_scenes`.
    per_row : int, optional
        Frames across (:data:`FRAMES_PER_ROW`).

    Returns
    -------
    Scene
        The frames side by side, :data:`GAP` layout units apart.

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> picture = scene(parse("ab\\n")[0])
    >>> (picture.width, picture.height, len(picture.shapes))
    (106.5, 76.5, 5)
    """
    parts = frame_scenes(board, moves, palette, numbers, px)
    across = min(len(parts), per_row or FRAMES_PER_ROW)
    down = math.ceil(len(parts) / across)
    gap = GAP * (px or (GRAPH_PX if board.geometry == "graph" else GRID_PX))
    fw, fh = parts[0].width, parts[0].height
    out = Scene(across * fw + (across - 1) * gap, down * fh + (down - 1) * gap)
    for i, part in enumerate(parts):
        dx, dy = (i % across) * (fw + gap), (i // across) * (fh + gap)
        out.shapes.extend(moved(shape, dx, dy) for shape in part.shapes)
    return out
