"""What the costly bounds remember between calls, gathered in one :class:`BoundCache`.

The tripod and tetrapod values of a piece are kept per piece (named by :func:`piece_key`), so
a search that meets the same piece again pays nothing; one check's tripod levels are kept
for the bounds the same check asks next; the anchor pairs that helped earlier cuts are
counted so that later checks try them first; and the tetrapod levels' memory may be kept
from one computation to the next. :data:`BOUND_CACHE` is the one instance the bounds use:
the parallel search's workers are forked after the start bound is computed, so each
inherits what the parent cached.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from kamicp.bounds.position import Current

__all__ = [
    "BOUND_CACHE",
    "PIECES_KEPT",
    "BoundCache",
    "forget_cached_bounds",
    "piece_key",
    "piece_lists",
]

PIECES_KEPT = 64  # pieces whose values are remembered before those values are let go


class BoundCache:
    """The memory of the costly bounds (see the module's docstring).

    Parameters
    ----------
    pieces : int
        How many pieces' tripod (and tetrapod) values are kept; when one more comes, all
        are let go.

    Attributes
    ----------
    tripods : dict
        Piece key -> its tripod values, one per final colour.
    tetrapods : dict
        Piece key -> (its tetrapod values, the cap they were computed to, or None).
    helpful : dict
        Anchor pair (two region ids, smaller first) -> how many cuts it helped.
    last_levels : list
        ``[key, tripod levels done, the generator of the next ones]`` of the last piece a
        check asked, or empty (:func:`kamicp.bounds.tripods.kept_levels`).
    keep_memory : bool
        Whether the tetrapod levels' memory is kept between computations.
    memory : numpy.ndarray or None
        That memory, once allocated.

    Examples
    --------
    >>> cache = BoundCache()
    >>> cache.keep_tripods(("a",), (3, 4))
    (3, 4)
    >>> cache.tripods
    {('a',): (3, 4)}
    >>> cache.forget()
    >>> cache.tripods
    {}
    """

    def __init__(self, pieces: int = PIECES_KEPT):
        self.pieces = pieces
        self.tripods: dict[tuple, tuple[int, ...]] = {}
        self.walks: dict[tuple, tuple[int, ...]] = {}  # the start's walk values, per piece
        self.tetrapods: dict[tuple, tuple[tuple[int, ...], int | None]] = {}
        self.helpful: dict[tuple[int, int], int] = {}
        self.last_levels: list = []
        self.keep_memory = False
        self.memory: np.ndarray | None = None

    def keep_tripods(self, key: tuple, values: Sequence[int]) -> tuple[int, ...]:
        """Remember the tripod values of the piece ``key``; returns them as a tuple.

        Parameters
        ----------
        key : tuple
            The piece (:func:`piece_key`).
        values : sequence of int
            Its tripod values, one per final colour.

        Returns
        -------
        tuple of int
            ``values``.
        """
        if len(self.tripods) >= self.pieces:
            self.tripods.clear()
        self.tripods[key] = tuple(values)
        return self.tripods[key]

    def keep_tetrapods(self, key: tuple, values: Sequence[int], cap: int | None) -> tuple[int, ...]:
        """Remember the tetrapod values of ``key``, exact up to ``cap`` (None: exact).

        An entry already kept for the piece is merged in: both are lower bounds, each exact
        up to its own cap, so the larger of each pair is kept with the larger cap.

        Parameters
        ----------
        key : tuple
            The piece (:func:`piece_key`).
        values : sequence of int
            Its tetrapod values, one per final colour.
        cap : int or None
            The cap they were computed to.

        Returns
        -------
        tuple of int
            The values kept (``values``, raised by an entry kept before).
        """
        if len(self.tetrapods) >= self.pieces:
            self.tetrapods.clear()
        values = tuple(values)
        if key in self.tetrapods:
            old, done = self.tetrapods[key]
            values = tuple(max(a, b) for a, b in zip(values, old, strict=True))
            cap = None if cap is None or done is None else max(cap, done)
        self.tetrapods[key] = (values, cap)
        return values

    def ranked_pairs(self) -> list[tuple[int, int]]:
        """The anchor pairs that helped a cut, the most helpful first."""
        return sorted(self.helpful, key=lambda p: -self.helpful[p])

    def note_helpful(self, a: int, b: int) -> None:
        """Count one more cut helped by the anchor pair of regions ``a`` and ``b``."""
        pair = (min(a, b), max(a, b))
        self.helpful[pair] = self.helpful.get(pair, 0) + 1

    def scratch(self, size: int) -> np.ndarray:
        """``size`` 64-bit words of uninitialised memory: the kept memory when it is kept
        (:attr:`keep_memory`) and large enough, else new (and kept if it is kept)."""
        if not self.keep_memory:
            return np.empty(size, dtype=np.uint64)
        if self.memory is None or self.memory.size < size:
            self.memory = None  # let the smaller one go first
            self.memory = np.empty(size, dtype=np.uint64)
        return self.memory[:size]

    def forget(self) -> None:
        """Let go of every value and level kept (not of the levels' memory and its
        setting, which :func:`kamicp.bounds.tetrapods.keep_levels_memory` governs)."""
        self.tripods.clear()
        self.walks.clear()
        self.tetrapods.clear()
        self.helpful.clear()
        self.last_levels.clear()


# The one cache of the bounds; a forked worker inherits it with what the parent computed.
BOUND_CACHE = BoundCache()


def forget_cached_bounds() -> None:
    """Empty :data:`BOUND_CACHE` (a benchmark does, so that each run pays for its own bounds).

    Examples
    --------
    >>> forget_cached_bounds()
    >>> BOUND_CACHE.tripods
    {}
    """
    BOUND_CACHE.forget()


def piece_key(cur: Current, piece: Sequence[int]) -> tuple:
    """A piece as ``(k, colours, edges in local numbering)``: the key of the bound caches.

    Parameters
    ----------
    cur : Current
        The position.
    piece : sequence of int
        The piece's current nodes.

    Returns
    -------
    tuple
        ``(k, colours, edges)``: two pieces with equal keys have the same bounds.

    Examples
    --------
    >>> from kamicp.bounds.position import contract
    >>> from kamicp.game.regions import from_edges
    >>> cur = contract(from_edges([0, 1, 0], [(0, 1), (1, 2)]))
    >>> piece_key(cur, cur.islands[0])
    (2, (0, 1, 0), ((0, 1), (1, 2)))
    """
    local = {v: j for j, v in enumerate(piece)}
    return (
        cur.k,
        tuple(cur.pos[v] for v in piece),
        tuple((local[v], local[u]) for v in piece for u in cur.adj[v] if local[v] < local[u]),
    )


def piece_lists(key: tuple) -> tuple[int, tuple[int, ...], list[list[int]]]:
    """A piece from its cache key (:func:`piece_key`): k, colours and adjacency lists.

    Examples
    --------
    >>> piece_lists((2, (0, 1, 0), ((0, 1), (1, 2))))
    (2, (0, 1, 0), [[1], [0, 2], [1]])
    """
    k, colours, edges = key
    adj: list[list[int]] = [[] for _ in colours]
    for a, b in edges:
        adj[a].append(b)
        adj[b].append(a)
    return k, colours, adj
