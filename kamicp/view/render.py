"""Pictures of boards: SVG (vector), PNG and animated GIF.

A picture is first described as a *scene*, a list of shapes in pixel coordinates (cells as
polygons, graph nodes as circles, lines, dots and text), built from :mod:`kamicp.view.layout`;
the scene is then written either as SVG markup (:mod:`xml.etree`) or drawn with Pillow.
Both outputs therefore show exactly the same thing.

With moves, the moves are replayed by :func:`kamicp.game.rules.apply` and there is one frame
per move plus the end: frame i shows the board before move i + 1 with the region about to
be recoloured outlined and a dot of its new colour on the cell the move names; the last
frame shows the board after the last move. Frames form an animated GIF or a grid of frames
read row by row (``frames='row'``, at most ``per_row`` frames across).

Cells are filled with their colour and stroked with a slightly darker tone of it, so the
lattice stays faintly visible inside a region while adjacent polygons show no hairline
seams. Holes are simply not drawn. PNG and GIF are drawn at 3x (2x for big pictures) and
scaled down with a Lanczos filter: supersampling anti-aliasing.
"""

from __future__ import annotations

import math
import os
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field, replace

from kamicp.errors import KamicpError
from kamicp.game import rules
from kamicp.game.board import Board
from kamicp.game.notation import count_moves, format_move
from kamicp.game.regions import region_graph
from kamicp.view import layout as lay

__all__ = [
    "Frame",
    "Scene",
    "Shape",
    "frame_scenes",
    "frames_of",
    "raster",
    "render",
    "scene",
    "svg_text",
]

GRID_PX = 30  # pixels per layout unit (about one cell) for grid boards
GRAPH_PX = 60  # graph nodes need room for their labels
MARGIN = 0.4  # layout units around a frame
GAP = 0.5  # layout units between frames in a row
CAPTION = 0.9  # layout units for the caption line under a frame (with moves)
BACKGROUND = "#ffffff"
INK = "#1a1a1a"
FRAMES_PER_ROW = 6
FRAME_MS = 1000
LAST_FRAME_MS = 2500


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
    role: str = ""  # cell, link, node, mark, tap, number, label, caption
    ident: str = ""  # the cell or node, for SVG readers


@dataclass
class Scene:
    width: float
    height: float
    shapes: list = field(default_factory=list)


@dataclass(frozen=True)
class Frame:
    """One state to draw: cell colours, and the move about to be played (if any)."""

    colours: dict
    marked: tuple = ()  # cells of the current region the move recolours
    tap: object = None  # the cell the move names
    new_colour: int | None = None
    caption: str = ""


# -- frames ---------------------------------------------------------------------------------


def frames_of(board: Board, moves=None) -> list[Frame]:
    """The start (or only) frame, one frame per move, and the end.

    Replays ``moves`` with :func:`kamicp.game.rules.apply`, so an illegal move raises
    :class:`~kamicp.errors.IllegalMove`. O(moves * cells).
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
        caption = f"move {number}/{len(moves)}: {format_move(board, g, move)}"
        out.append(Frame(colours_at(pos), marked, g.cells[region][0], colour, caption))
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
    """A dot of the new colour ringed in white and dark ink: readable on any fill."""
    return [
        Shape("circle", centre, fill=INK, size=radius * 1.45, role="tap"),
        Shape("circle", centre, fill="#ffffff", size=radius * 1.2, role="tap"),
        Shape("circle", centre, fill=colour, size=radius, role="tap"),
    ]


def frame_scenes(board: Board, moves=None, palette=None, numbers=False, px=None) -> list[Scene]:
    """One scene per frame, each with its own pixel origin at its top-left corner.

    O(frames * cells) shapes.
    """
    drawing = lay.layout(board)
    px = px or (GRAPH_PX if board.geometry == "graph" else GRID_PX)
    colours = lay.palette_colours(board.palette, palette)
    xmin, ymin, xmax, ymax = drawing.bounds()
    caption = CAPTION if moves is not None else 0.0
    width = (xmax - xmin + 2 * MARGIN) * px
    height = (ymax - ymin + 2 * MARGIN + caption) * px
    origin = ((MARGIN - xmin) * px, (MARGIN - ymin) * px)
    out = []
    for frame in frames_of(board, moves):
        shapes = frame_shapes(board, drawing, frame, colours, numbers, px, origin)
        if frame.caption:
            centre = (width / 2, height - (MARGIN / 2 + caption / 2) * px)
            font = 0.45 * GRID_PX  # captions keep one size on every geometry
            shapes.append(
                Shape("text", centre, fill=INK, size=font, text=frame.caption, role="caption")
            )
        out.append(Scene(width, height, shapes))
    return out


def moved(shape: Shape, dx: float, dy: float) -> Shape:
    """The shape translated by (dx, dy) pixels."""
    if shape.kind in ("polygon", "line"):
        points = tuple((x + dx, y + dy) for x, y in shape.points)
    else:
        points = (shape.points[0] + dx, shape.points[1] + dy)
    return replace(shape, points=points)


def scene(board: Board, moves=None, palette=None, numbers=False, px=None, per_row=None) -> Scene:
    """All frames in one picture, ``per_row`` across (default 6), read row by row."""
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


# -- SVG ------------------------------------------------------------------------------------


def num(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def svg_text(picture: Scene) -> str:
    """The scene as an SVG document (a string)."""
    root = ET.Element(
        "svg",
        xmlns="http://www.w3.org/2000/svg",
        width=num(picture.width),
        height=num(picture.height),
        viewBox=f"0 0 {num(picture.width)} {num(picture.height)}",
    )
    ET.SubElement(
        root, "rect", {"class": "background", "width": "100%", "height": "100%", "fill": BACKGROUND}
    )
    for s in picture.shapes:
        attrs = {"class": s.role}
        if s.ident:
            attrs["data-id"] = s.ident
        if s.kind == "polygon":
            attrs["points"] = " ".join(f"{num(x)},{num(y)}" for x, y in s.points)
            attrs.update(
                fill=s.fill,
                stroke=s.stroke,
                **{"stroke-width": num(s.width), "stroke-linejoin": "round"},
            )
            ET.SubElement(root, "polygon", attrs)
        elif s.kind == "line":
            (x1, y1), (x2, y2) = s.points
            attrs.update(
                x1=num(x1),
                y1=num(y1),
                x2=num(x2),
                y2=num(y2),
                stroke=s.stroke,
                **{"stroke-width": num(s.width), "stroke-linecap": "round"},
            )
            ET.SubElement(root, "line", attrs)
        elif s.kind == "circle":
            attrs.update(cx=num(s.points[0]), cy=num(s.points[1]), r=num(s.size), fill=s.fill)
            if s.stroke:
                attrs.update(stroke=s.stroke, **{"stroke-width": num(s.width)})
            ET.SubElement(root, "circle", attrs)
        else:
            attrs.update(
                x=num(s.points[0]),
                y=num(s.points[1]),
                fill=s.fill,
                **{
                    "font-size": num(s.size),
                    "font-family": "sans-serif",
                    "text-anchor": "middle",
                    "dominant-baseline": "central",
                },
            )
            ET.SubElement(root, "text", attrs).text = s.text
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


# -- Pillow ---------------------------------------------------------------------------------


def raster(picture: Scene):
    """The scene as a Pillow RGB image, anti-aliased by supersampling."""
    from PIL import Image, ImageDraw, ImageFont

    w, h = max(1, round(picture.width)), max(1, round(picture.height))
    ss = 3 if w * h <= 400_000 else 2
    image = Image.new("RGB", (w * ss, h * ss), BACKGROUND)
    draw = ImageDraw.Draw(image)
    fonts = {}
    for s in picture.shapes:
        if s.kind == "polygon":
            points = [(x * ss, y * ss) for x, y in s.points]
            draw.polygon(points, fill=s.fill, outline=s.stroke, width=max(1, round(s.width * ss)))
        elif s.kind == "line":
            (x1, y1), (x2, y2) = s.points
            width = max(1, round(s.width * ss))
            draw.line([(x1 * ss, y1 * ss), (x2 * ss, y2 * ss)], fill=s.stroke, width=width)
            for x, y in s.points:  # round caps, so outline corners join cleanly
                r = width / 2
                draw.ellipse([x * ss - r, y * ss - r, x * ss + r, y * ss + r], fill=s.stroke)
        elif s.kind == "circle":
            x, y, r = s.points[0] * ss, s.points[1] * ss, s.size * ss
            width = max(1, round(s.width * ss)) if s.stroke else 0
            draw.ellipse([x - r, y - r, x + r, y + r], fill=s.fill, outline=s.stroke, width=width)
        else:
            size = max(8, round(s.size * ss))
            if size not in fonts:
                fonts[size] = ImageFont.load_default(size=size)
            draw.text(
                (s.points[0] * ss, s.points[1] * ss),
                s.text,
                fill=s.fill,
                font=fonts[size],
                anchor="mm",
            )
    return image.resize((w, h), Image.Resampling.LANCZOS)


# -- the entry point ------------------------------------------------------------------------


def render(
    board: Board,
    out_path: str,
    moves=None,
    palette: list[str] | None = None,
    numbers: bool = False,
    frames: str | None = None,
    px: float | None = None,
    per_row: int | None = None,
) -> str:
    """Write a picture of ``board`` to ``out_path`` (.svg, .png or .gif); returns the path.

    ``moves``: (region, colour) moves replayed from the start, one frame each plus the end.
    ``palette``: colours (``#rrggbb`` or names) overriding the defaults in palette order.
    ``numbers``: print each region's number (:mod:`kamicp.game.regions` numbering) in its first
    cell. ``frames``: ``'gif'`` (animation, .gif only; the default for .gif) or ``'row'``
    (frames side by side, ``per_row`` across; the default for .svg and .png). ``px``:
    pixels per cell (30; 60 for graph boards). Raises :class:`KamicpError` for an unknown
    extension or frames mode, and IllegalMove for a move the rules reject.
    """
    ext = os.path.splitext(out_path)[1].lower()
    if ext not in (".svg", ".png", ".gif"):
        raise KamicpError(f"{out_path}: unknown picture type (use .svg, .png or .gif)")
    frames = frames or ("gif" if ext == ".gif" else "row")
    if frames not in ("gif", "row"):
        raise KamicpError(f"unknown frames mode {frames!r} (gif or row)")
    if frames == "gif" and ext != ".gif":
        raise KamicpError(f"{out_path}: an animation needs a .gif file (or use frames 'row')")
    if frames == "gif":
        from PIL import Image

        images = [raster(s) for s in frame_scenes(board, moves, palette, numbers, px)]
        durations = [FRAME_MS] * (len(images) - 1) + [LAST_FRAME_MS]
        images = [im.convert("P", palette=Image.Palette.ADAPTIVE) for im in images]
        images[0].save(
            out_path,
            save_all=True,
            append_images=images[1:],
            duration=durations,
            loop=0,
            disposal=1,
        )
        return out_path
    picture = scene(board, moves, palette, numbers, px, per_row)
    if ext == ".svg":
        with open(out_path, "w", encoding="utf-8") as f:
            f.write(svg_text(picture))
    else:
        raster(picture).save(out_path)
    return out_path
