"""Colours in words: the name of the colour a palette index is drawn in, as a person says it.

Colours are named after the colour :func:`kamicp.view.layout.palette_colours` draws, with
the palette symbol added where it differs from the name, so that a move said in words
(:mod:`kamicp.view.words`) can still be typed: ``green (G)``, ``orange (2)``; a symbol that
is a colour's name (graph boards: ``Gold``) is said alone. Two drawn colours with one plain
name become "light ..." and "dark ...", so that no two colours of a palette sound alike.
"""

from __future__ import annotations

from operator import mul

from kamicp.game.board import Board
from kamicp.view import layout as lay

__all__ = ["PLAIN_NAMES", "PURE_TONES", "colour_words", "palette_words"]

# The plain name of every drawn tone of layout's named colours (the ten default colours are
# among them); "grey" comes before its alias "gray", so grey is what a person reads.
PLAIN_NAMES = {tone: name for name, tone in reversed(lay.NAMED_COLOURS.items())}

# Pure and dark tones of the same names, so that colours given by the user (render
# --palette) find a name by likeness too: #118811 is green, not the olive soft tone.
PURE_TONES = {
    "red": ("#ff0000", "#8b0000"),
    "green": ("#00ff00", "#008000", "#006400"),
    "blue": ("#0000ff", "#1e90ff"),
    "navy": ("#000080",),
    "yellow": ("#ffff00",),
    "orange": ("#ffa500", "#ff8c00"),
    "purple": ("#800080", "#9370db"),
    "pink": ("#ffc0cb", "#ff69b4"),
    "brown": ("#a52a2a", "#8b4513"),
    "grey": ("#808080",),
    "white": ("#ffffff",),
    "black": ("#000000",),
    "cyan": ("#00ffff",),
    "magenta": ("#ff00ff",),
    "teal": ("#008080",),
    "olive": ("#808000",),
    "maroon": ("#800000",),
}
BT709 = (0.2126, 0.7152, 0.0722)  # luminance weights of red, green and blue
LIKENESS = {tone: name for name, tones in PURE_TONES.items() for tone in tones} | PLAIN_NAMES


def distance(a: str, b: str) -> float:
    """How unlike two ``#rrggbb`` colours look: the "redmean" weighted RGB distance, which
    weighs green most and red more in reds (a cheap stand-in for a perceptual space)."""
    (r1, g1, b1), (r2, g2, b2) = lay.rgb(a), lay.rgb(b)
    mean = (r1 + r2) / 2
    dr, dg, db = r1 - r2, g1 - g2, b1 - b2
    return (2 + mean / 256) * dr * dr + 4 * dg * dg + (2 + (255 - mean) / 256) * db * db


def plain_name(colour: str) -> str:
    """The plain name of a drawn ``#rrggbb`` colour: its own, or the nearest one's."""
    if colour in PLAIN_NAMES:
        return PLAIN_NAMES[colour]
    return LIKENESS[min(LIKENESS, key=lambda tone: (distance(colour, tone), tone))]


def alike(base: str, n: int) -> list[str]:
    """Names for ``n`` drawn colours with one plain name, lightest first."""
    if n == 2:
        return [f"light {base}", f"dark {base}"]
    if n == 3:
        return [f"light {base}", base, f"dark {base}"]
    return [f"{base} {i}" for i in range(1, n + 1)]


def palette_words(board: Board, palette: list[str] | None = None, symbol: bool = True) -> list[str]:
    """Every colour of the palette in words, all different.

    Parameters
    ----------
    board : Board
        The board; its palette's symbols choose the drawn colours
        (:func:`kamicp.view.layout.palette_colours`).
    palette : list of str, optional
        Colours the picture is drawn in instead, in palette order (``render --palette``).
    symbol : bool, default True
        Add the symbol where it differs from the name (what to type); without it, the name
        alone (a picture's caption).

    Returns
    -------
    list of str
        Per palette index: the drawn colour's plain name, then the symbol in brackets when
        it differs from the name (``green (G)``, ``blue (2)``); a symbol that is the name
        is shown alone (``Gold``). When two drawn colours have the same plain name, the
        lighter is "light ...", the darker "dark ..." (and a middle one keeps the name;
        more than three are numbered from the lightest). O(k^2) for k colours.

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> palette_words(parse("RG\\nBY\\n")[0])
    ['blue (B)', 'green (G)', 'red (R)', 'yellow (Y)']
    >>> palette_words(parse("12\\n30\\n")[0])
    ['blue (0)', 'orange (1)', 'red (2)', 'teal (3)']
    """
    drawn = lay.palette_colours(board.palette, palette)
    names = [plain_name(colour) for colour in drawn]
    for base in set(names):
        same = [i for i, name in enumerate(names) if name == base]
        if len(same) > 1:  # lightest first, by relative luminance (ITU-R BT.709)
            same.sort(key=lambda i: (-sum(map(mul, BT709, lay.rgb(drawn[i]))), i))
            for i, name in zip(same, alike(base, len(same)), strict=True):
                names[i] = name
    return [
        s if s.lower() == name else f"{name} ({s})" if symbol else name
        for s, name in zip(board.palette, names, strict=True)
    ]


def colour_words(
    board: Board, colour: int, symbol: bool = True, palette: list[str] | None = None
) -> str:
    """Colour ``colour`` of the palette in words (see :func:`palette_words`).

    Parameters
    ----------
    board : Board
        The board.
    colour : int
        A palette index.
    symbol : bool, default True
        Add the palette symbol (:func:`palette_words`).
    palette : list of str, optional
        Colours the picture is drawn in instead (:func:`palette_words`).

    Returns
    -------
    str
        The words.

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> board = parse("RG\\nBY\\n")[0]
    >>> colour_words(board, 1), colour_words(board, 1, symbol=False)
    ('green (G)', 'green')
    """
    return palette_words(board, palette, symbol)[colour]
