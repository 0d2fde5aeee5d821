"""The pivot's piece of a board as bitsets, the data of a pivot-rule search.

Under pivot rules a position is the set of starting regions the pivot has flooded, ``F``
(its colour is that of the last move). The regions touching ``F`` from outside are its
*border* ``B``; a move to colour ``c`` floods ``B & colour_mask[c]``, and no more: touching
starting regions never share a colour, so nothing beyond the border joins. Sets of regions
are rows of 64-bit words, bit ``i`` of word ``i // 64`` for region ``i``.

The compiled steps on such rows are in :mod:`kamicp.search.bitsets`;
:mod:`kamicp.search.pivot_astar` searches with them.

Examples
--------
>>> from kamicp.game.regions import from_edges
>>> g = from_edges([0, 1, 2, 1], [(0, 1), (1, 2), (2, 3)], rules="pivot")
>>> board = bit_board(g)
>>> board.n, board.words, board.colours.tolist()
(4, 1, [0, 1, 2, 1])
>>> board.start().tolist(), board.full().tolist()
([1], [15])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kamicp.game.regions import RegionGraph

__all__ = ["MOST_COLOURS", "BitBoard", "bit_board"]

# Colour sets are one 64-bit word in the compiled loops.
MOST_COLOURS = 64

_ONE = np.uint64(1)


@dataclass(frozen=True)
class BitBoard:
    """The pivot's piece as bitsets, regions renumbered 0..n-1 within the piece.

    ``neighbours[i]`` is region i's neighbours as a row of ``words`` words;
    ``colour_masks[c]`` the regions of colour c; ``colours[i]`` region i's colour;
    ``pivot`` the pivot's region; ``regions[i]`` region i's number in the board.
    """

    neighbours: np.ndarray
    colour_masks: np.ndarray
    colours: np.ndarray
    pivot: int
    regions: tuple[int, ...]

    @property
    def n(self) -> int:
        """The number of regions of the piece."""
        return len(self.colours)

    @property
    def words(self) -> int:
        """The words of a row."""
        return self.neighbours.shape[1]

    def start(self) -> np.ndarray:
        """The flooded set at the start: the pivot's region alone."""
        row = np.zeros(self.words, dtype=np.uint64)
        row[self.pivot // 64] = _ONE << np.uint64(self.pivot % 64)
        return row

    def full(self) -> np.ndarray:
        """Every region of the piece."""
        row = np.zeros(self.words, dtype=np.uint64)
        whole, rest = divmod(self.n, 64)
        row[:whole] = ~np.uint64(0)
        if rest:
            row[whole] = (_ONE << np.uint64(rest)) - _ONE
        return row


def bit_board(g: RegionGraph) -> BitBoard:
    """The piece of ``g`` that holds the pivot, as bitsets.

    Parameters
    ----------
    g : RegionGraph
        A board (its other pieces are left out: under pivot rules they never change).

    Returns
    -------
    BitBoard
        The piece, its regions renumbered in the order of their numbers in ``g``.

    Raises
    ------
    ValueError
        A palette of more than :data:`MOST_COLOURS` colours.

    Notes
    -----
    O(n + m) for a piece of n regions and m edges, plus O(n words) for the rows.
    """
    if g.k > MOST_COLOURS:
        raise ValueError(f"{g.k} colours: the compiled search takes at most {MOST_COLOURS}")
    piece = g.pivot_island
    index = {v: i for i, v in enumerate(piece)}
    n = len(piece)
    words = (n + 63) // 64
    colours = np.array([g.colour[v] for v in piece], dtype=np.int64)
    rows = np.zeros((n, words * 64), dtype=bool)
    ends = [(i, index[u]) for i, v in enumerate(piece) for u in g.adj[v]]
    if ends:
        at = np.array(ends, dtype=np.int64)
        rows[at[:, 0], at[:, 1]] = True
    masks = np.zeros((g.k, words * 64), dtype=bool)
    masks[colours, np.arange(n)] = True
    neighbours = _packed(rows, words)
    colour_masks = _packed(masks, words)
    return BitBoard(neighbours, colour_masks, colours, index[g.pivot], tuple(piece))


def _packed(rows: np.ndarray, words: int) -> np.ndarray:
    """Boolean rows of ``words * 64`` columns as rows of 64-bit words, bit j of word j // 64."""
    octets = np.packbits(rows, axis=-1, bitorder="little")
    return np.ascontiguousarray(octets).view("<u8").astype(np.uint64).reshape(len(rows), words)
