"""Pictures of boards: SVG (vector), PNG and animated GIF, from the scenes of
:mod:`kamicp.view.scene`.

A scene is written either as SVG markup (:mod:`xml.etree`) or drawn with Pillow. PNG and GIF
are drawn at 3x (2x for big pictures) and scaled down with a Lanczos filter: supersampling
anti-aliasing. Frames form an animated GIF or a grid of frames read row by row
(``frames='row'``).
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET

from kamicp.errors import KamicpError
from kamicp.game.board import Board
from kamicp.view.scene import Scene, frame_scenes, scene

__all__ = [
    "raster",
    "render",
    "svg_text",
]

BACKGROUND = "#ffffff"
FRAME_MS = 1000  # how long each frame of an animation shows
LAST_FRAME_MS = 2500  # the end shows longer, so that the solved board can be seen


# -- SVG ------------------------------------------------------------------------------------


def num(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def svg_text(picture: Scene) -> str:
    """Write a scene as an SVG document.

    Parameters
    ----------
    picture : Scene
        What to draw.

    Returns
    -------
    str
        The document, XML declaration first; each shape's role is its ``class`` and its cell
        or node its ``data-id``.

    Examples
    --------
    >>> svg_text(Scene(10, 10)).splitlines()[1]
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10">'
    """
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
            attrs.update(
                cx=num(s.points[0]), cy=num(s.points[1]), r=num(s.size), fill=s.fill or "none"
            )
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
    """Draw a scene with Pillow, anti-aliased by supersampling.

    Parameters
    ----------
    picture : Scene
        What to draw.

    Returns
    -------
    PIL.Image.Image
        An RGB image of the scene's size (rounded, at least 1 x 1).
    """
    from PIL import Image, ImageDraw, ImageFont  # Pillow loads only when a picture is drawn

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
    """Write a picture of ``board`` to ``out_path`` (.svg, .png or .gif).

    Parameters
    ----------
    board : Board
        The board.
    out_path : str
        Where to write; the extension chooses the format.
    moves : list of (region, colour), optional
        Moves replayed from the start, one frame each plus the end.
    palette : list of str, optional
        Colours (``#rrggbb`` or names) overriding the defaults in palette order.
    numbers : bool, default False
        Print each region's number (:mod:`kamicp.game.regions` numbering) in its first cell.
    frames : {"gif", "row"}, optional
        An animation (.gif only; the default for .gif) or the frames side by side,
        ``per_row`` across (the default for .svg and .png).
    px : float, optional
        Pixels per cell (30; 60 for graph boards).
    per_row : int, optional
        Frames across with ``frames="row"`` (6).

    Returns
    -------
    str
        ``out_path``.

    Raises
    ------
    KamicpError
        For an unknown extension or frames mode, or an animation asked of a non-.gif file.
    IllegalMove
        For a move the rules reject.
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
        from PIL import Image  # Pillow loads only when a picture is drawn

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
