"""A board in the terminal, in its true geometry as far as character cells allow.

Each cell is drawn in a *slot*: a run of characters on one text line (two lines for hexes).

- ``square``: 2 characters per cell, one line per row.
- ``triangle`` and ``kami2``: one text line per half-row (KAMI 2 triangles are first moved
  to the text grid by :func:`kamicp.view.layout.kami2_as_triangle`); 3 characters per triangle:
  ``██▶`` points right, ``◀██`` points left, so the tips of two triangles facing each other
  meet as ``▶◀``. Without colour: ``a>`` and ``<a``.
- ``hex``: 3 characters and two lines per hex, odd columns one line (half a hex) lower.
  Without colour each hex is ``/a\\`` over ``\\_/``.
- ``graph``: one line per node: its colour and its neighbours.

Holes stay blank. With ``regions=True`` each region's number (the numbering of
:mod:`kamicp.game.regions`, also used by ``#N`` in move notation) is printed in its first cell
(as ``#N`` in plain text, so that it stands apart from digit symbols).
Colour output uses ANSI truecolor, or the 256-colour cube when the terminal does not say it
has truecolor (``COLORTERM``); each cell's slot is written with exactly one escape sequence
per line. :func:`terminal_centres` gives where each cell is drawn, from the same slots, so
a test can hold it against :mod:`kamicp.view.layout`. Whether to colour at all is
:func:`colour_wanted`'s choice: a terminal only, and not while ``NO_COLOR`` is set.
"""

from __future__ import annotations

import os
import string
from dataclasses import dataclass

from kamicp.game.board import Board
from kamicp.game.regions import region_graph
from kamicp.view import layout as lay

__all__ = [
    "colour_wanted",
    "show",
    "terminal_centres",
]

RESET = "\x1b[0m"
DARK_TEXT = "30"  # basic black/white text codes, never confused with a palette colour
LIGHT_TEXT = "97"
CODES = string.digits + string.ascii_lowercase + string.ascii_uppercase


@dataclass(frozen=True)
class Slot:
    """Characters ``col .. col + width - 1`` of text line ``line``, of one ``kind``."""

    line: int
    col: int
    width: int
    kind: str  # square, right, left, hex-top, hex-bottom


def symbol_codes(palette: tuple[str, ...]) -> tuple[str, ...]:
    """One character per colour: the palette itself when its symbols are single characters,
    else 0-9, a-z, A-Z by index (a legend then names them)."""
    if all(len(s) == 1 for s in palette) and len(set(palette)) == len(palette):
        return tuple(palette)
    return tuple(CODES[i] if i < len(CODES) else "?" for i in range(len(palette)))


def grid_position(board: Board, cell) -> tuple[int, int]:
    """The (text row, column index) of a grid cell before offsetting; KAMI 2 via the
    triangle text grid."""
    if board.geometry == "kami2":
        return lay.kami2_as_triangle(cell)
    return cell


def label_width(board: Board, regions: bool, colour: bool) -> int:
    """Characters of the longest region label: ``12`` in colour, ``#12`` in plain text
    (where the ``#`` keeps numbers apart from digit symbols); 0 without labels."""
    if not regions:
        return 0
    return len(str(len(region_graph(board).colour) - 1)) + (0 if colour else 1)


def slot_width(geometry: str, digits: int, colour: bool) -> int:
    """Characters per cell, wide enough for a region label of ``digits`` characters."""
    # in colour a label keeps one blank before it: where two labels meet (regions 9 and 10
    # side by side) the backgrounds differ, but copied text would read "910"
    if geometry == "square":
        # plain text: symbol, label, and a space so the next symbol stands apart
        return max(2, digits + 1) if colour else 2 + digits
    if geometry in ("triangle", "kami2"):
        # a left-pointing triangle's label ends its slot, a right-pointing one's starts the
        # next: one blank on each side keeps them apart
        return max(3, digits + 2) if colour else 2 + digits
    return max(3, digits + 1) if colour else 3 + digits  # hex


def slots(board: Board, width: int) -> dict:
    """Every grid cell's slots, lines and columns counted from the drawing's top-left.

    O(cells).
    """
    placed = {cell: grid_position(board, cell) for cell in board.order}
    cmin = min(c for _, c in placed.values())
    if board.geometry == "hex":
        first = min(2 * r + c % 2 for r, c in placed.values())
        out = {}
        for cell, (r, c) in placed.items():
            line = 2 * r + c % 2 - first
            col = (c - cmin) * width
            out[cell] = [
                Slot(line, col, width, "hex-top"),
                Slot(line + 1, col, width, "hex-bottom"),
            ]
        return out
    rmin = min(r for r, _ in placed.values())
    out = {}
    for cell, (r, c) in placed.items():
        if board.geometry == "square":
            kind = "square"
        else:
            kind = "right" if (r + c) % 2 == 0 else "left"
        out[cell] = [Slot(r - rmin, (c - cmin) * width, width, kind)]
    return out


def slot_centre(slot: Slot) -> tuple[float, float]:
    """Centre of the shape a slot depicts, in (column, line) units.

    A triangle's centroid is a third of the way from its vertical side to its tip; a hex's
    centre is between its two lines.
    """
    x = slot.col + slot.width / 2
    if slot.kind == "right":
        x = slot.col + slot.width / 3
    elif slot.kind == "left":
        x = slot.col + 2 * slot.width / 3
    y = slot.line + (1.0 if slot.kind == "hex-top" else 0.5)
    return (x, y)


def terminal_centres(board: Board, regions: bool = False, colour: bool = True) -> dict:
    """Where :func:`show` draws each cell: the centre of its shape, in character units.

    Parameters
    ----------
    board : Board
        The board.
    regions : bool, default False
        As in :func:`show` (region labels widen the slots).
    colour : bool, default True
        As in :func:`show`.

    Returns
    -------
    dict
        cell -> (column, line) of its centre (a line is about two columns high on screen).
        Graph boards are listed one node per line: x is 0 and y the node's line.

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> board = parse("ab\\nba\\n")[0]
    >>> terminal_centres(board, colour=False)[(1, 1)]
    (3.0, 1.5)
    """
    if board.geometry == "graph":
        return {node: (0.0, i + 1.5) for i, node in enumerate(board.order)}
    width = slot_width(board.geometry, label_width(board, regions, colour), colour)
    return {cell: slot_centre(s[0]) for cell, s in slots(board, width).items()}


# -- ANSI colour ----------------------------------------------------------------------------


def colour_wanted(stream, forced: bool | None = None, environ=None) -> bool:
    """Whether to write ANSI colour to ``stream``: a choice the user forced, else only to a
    terminal and only while ``NO_COLOR`` is unset or empty (https://no-color.org).

    Parameters
    ----------
    stream : file
        Where the text goes.
    forced : bool or None
        ``--colour`` (True) or ``--no-colour`` (False); None to decide from the stream and
        the environment.
    environ : mapping, optional
        The environment (default ``os.environ``).

    Returns
    -------
    bool
        True for colour.

    Examples
    --------
    >>> import io
    >>> colour_wanted(io.StringIO()), colour_wanted(io.StringIO(), forced=True)
    (False, True)
    """
    if forced is not None:
        return forced
    environ = os.environ if environ is None else environ
    if environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def cube_index(colour: str) -> int:
    """The nearest colour of the xterm 256-colour 6x6x6 cube."""
    levels = (0, 95, 135, 175, 215, 255)

    def nearest(v: int) -> int:
        return min(range(6), key=lambda i: abs(levels[i] - v))

    r, g, b = (nearest(v) for v in lay.rgb(colour))
    return 16 + 36 * r + 6 * g + b


def sgr_colour(colour: str, background: bool, truecolor: bool) -> str:
    """The SGR parameters selecting ``colour`` as foreground or background."""
    base = "48" if background else "38"
    if truecolor:
        r, g, b = lay.rgb(colour)
        return f"{base};2;{r};{g};{b}"
    return f"{base};5;{cube_index(colour)}"


def styled(text: str, params: str) -> str:
    return f"\x1b[{params}m{text}{RESET}"


# -- drawing --------------------------------------------------------------------------------


def slot_text(kind: str, symbol: str, number: str, width: int, colour: bool) -> tuple[str, str]:
    """The characters of a slot and whether they are drawn as 'fg' glyphs or on a 'bg'."""
    if not colour:
        if kind == "square":
            return symbol + number.ljust(width - 1), "fg"
        if kind == "right":
            return symbol + number.ljust(width - 2) + ">", "fg"
        if kind == "left":
            return "<" + symbol + number.ljust(width - 2), "fg"
        if kind == "hex-top":
            return "/" + symbol + number.ljust(width - 3) + "\\", "fg"
        return "\\" + "_" * (width - 2) + "/", "fg"
    if kind == "right":
        return (number.rjust(width - 1) + "▶", "bg") if number else ("█" * (width - 1) + "▶", "fg")
    if kind == "left":
        return ("◀" + number.ljust(width - 1), "bg") if number else ("◀" + "█" * (width - 1), "fg")
    if kind == "hex-top":
        return number.center(width), "bg"
    return number.rjust(width), "bg"  # square (hex-bottom never gets a number)


def show_grid(board: Board, regions: bool, colour: bool, truecolor: bool, colours) -> str:
    g = region_graph(board)
    width = slot_width(board.geometry, label_width(board, regions, colour), colour)
    codes = symbol_codes(board.palette)
    mark = "" if colour else "#"
    numbered = {cells[0]: f"{mark}{i}" for i, cells in enumerate(g.cells)} if regions else {}
    lines: dict[int, list[tuple[int, str]]] = {}
    for cell, cell_slots in slots(board, width).items():
        index = board.cells[cell]
        for slot in cell_slots:
            number = numbered.get(cell, "") if slot.kind != "hex-bottom" else ""
            text, mode = slot_text(slot.kind, codes[index], number, width, colour)
            if colour:
                params = sgr_colour(colours[index], mode == "bg", truecolor)
                if mode == "bg":
                    text_colour = DARK_TEXT if lay.is_light(colours[index]) else LIGHT_TEXT
                    params = f"{params};{text_colour}"
                text = styled(text, params)
            lines.setdefault(slot.line, []).append((slot.col, text))
    out = []
    for line in range(max(lines) + 1):
        row, at = [], 0
        for col, text in sorted(lines.get(line, [])):
            row.append(" " * (col - at) + text)
            at = col + width
        out.append("".join(row).rstrip())
    legend = grid_legend(board, codes, colour, truecolor, colours)
    return "\n".join(out + ([legend] if legend else []))


def grid_legend(board: Board, codes, colour: bool, truecolor: bool, colours) -> str:
    """``colours: ...``: swatches in colour; in plain text only when codes differ."""
    if colour:
        items = [
            f"{styled('  ', sgr_colour(colours[i], True, truecolor))} {name}"
            for i, name in enumerate(board.palette)
        ]
        return "colours: " + "  ".join(items)
    if tuple(codes) == tuple(board.palette):
        return ""
    return "colours: " + " ".join(
        f"{c}={name}" for c, name in zip(codes, board.palette, strict=True)
    )


def show_graph(board: Board, regions: bool, colour: bool, truecolor: bool, colours) -> str:
    """One line per node: id, colour, (region,) neighbours."""
    adjacency = board.adjacency()
    g = region_graph(board)
    ids = [str(node) for node in board.order]
    names = [board.palette[board.cells[node]] for node in board.order]
    id_w = max(4, *map(len, ids))
    name_w = max(6, *map(len, names)) + (3 if colour else 0)
    header = ["node".ljust(id_w), "colour".ljust(name_w)]
    if regions:
        header.append("region")
    header.append("neighbours")
    out = ["  ".join(header)]
    for node, ident, name in zip(board.order, ids, names, strict=True):
        swatch = ""
        if colour:
            swatch = styled("  ", sgr_colour(colours[board.cells[node]], True, truecolor)) + " "
        shown = swatch + name + " " * (name_w - len(name) - (3 if colour else 0))
        fields = [ident.ljust(id_w), shown]
        if regions:
            fields.append(f"#{g.region_of[node]}".ljust(6))
        fields.append(" ".join(str(other) for other in adjacency[node]) or "-")
        out.append("  ".join(fields).rstrip())
    return "\n".join(out)


def show(
    board: Board,
    regions: bool = False,
    colour: bool = True,
    truecolor: bool | None = None,
    palette: list[str] | None = None,
) -> str:
    """Draw the board as terminal text (no trailing newline).

    Parameters
    ----------
    board : Board
        The board.
    regions : bool, default False
        Print each region's number in its first cell (``#N`` in plain text).
    colour : bool, default True
        ANSI colours; False gives plain symbols (for pipes and tests).
    truecolor : bool, optional
        24-bit colour rather than the 256-colour cube; by default what ``COLORTERM`` says.
    palette : list of str, optional
        Colours (``#rrggbb`` or names) overriding the defaults in palette order.

    Returns
    -------
    str
        The drawing, with a legend line when the symbols do not name the colours.

    Raises
    ------
    KamicpError
        For a ``palette`` entry that is not a colour.

    Notes
    -----
    O(cells) for grids, O(nodes + edges) for graphs, plus region contraction.

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> print(show(parse("ab\\nba\\n")[0], colour=False))
    a b
    b a
    """
    if truecolor is None:
        truecolor = os.environ.get("COLORTERM", "").lower() in ("truecolor", "24bit")
    colours = lay.palette_colours(board.palette, palette)
    if board.geometry == "graph":
        return show_graph(board, regions, colour, truecolor, colours)
    return show_grid(board, regions, colour, truecolor, colours)
