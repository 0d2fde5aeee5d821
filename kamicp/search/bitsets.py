"""Bitset steps of a pivot-rule search, compiled: borders, floods and the pivot bounds.

Sets of regions are rows of 64-bit words, bit ``i`` of word ``i // 64`` for region ``i``
(:class:`kamicp.search.bitboard.BitBoard`). The steps here are the border of a flooded set,
a flood of part of it, the layered bound of :func:`kamicp.bounds.pivot_layer_bound`
(``encodings/bounds.md``, Bound 4), the sweep bound (Bound 5), the colour-eliminating move
(R7) and a greedy solution; :mod:`kamicp.search.pivot_kernels` searches with them. They
depend on NumPy and :mod:`kamicp.jit` alone, so that the ahead-of-time build of the search
can be made where nothing else of kamicp's is installed.

Examples
--------
>>> import numpy as np
>>> neighbours = np.array([[0b0010], [0b0101], [0b1010], [0b0100]], dtype=np.uint64)
>>> colour_masks = np.array([[0b0001], [0b1010], [0b0100]], dtype=np.uint64)
>>> start = np.array([0b0001], dtype=np.uint64)
>>> border(start, neighbours).tolist()
[2]
>>> int(layer_bound(start, border(start, neighbours), neighbours, colour_masks, -1))
3
"""

from __future__ import annotations

import numpy as np

from kamicp.jit import kernel, trailing_zeros

__all__ = [
    "absorb",
    "border",
    "border_into",
    "colours_in",
    "eliminated",
    "gather_neighbours",
    "greedy_colours",
    "layer_bound",
    "layer_bound_into",
    "lowest_bit",
    "popcount",
    "sweep_bound",
]

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@kernel
def popcount(x) -> int:
    """The set bits of a 64-bit word (the SWAR count of Warren, "Hacker's Delight", 5-1)."""
    x = x - ((x >> _ONE) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return int((x * _H01) >> np.uint64(56))


@kernel(inline=True)
def lowest_bit(x) -> int:
    """The index of the lowest set bit of a non-zero 64-bit word."""
    return int(trailing_zeros(x))


@kernel
def border(flooded, neighbours):
    """The regions outside ``flooded`` that touch it. O(|flooded| x words)."""
    out = np.empty(flooded.shape[0], dtype=np.uint64)
    border_into(flooded, neighbours, out)
    return out


@kernel(inline=True)
def border_into(flooded, neighbours, out) -> None:
    """:func:`border` written into ``out``."""
    words = flooded.shape[0]
    for w in range(words):
        out[w] = _ZERO
    gather_neighbours(flooded, neighbours, out)
    for w in range(words):
        out[w] &= ~flooded[w]


@kernel(inline=True)
def gather_neighbours(regions, neighbours, out) -> None:
    """OR into ``out`` the neighbours of every region of ``regions``. O(|regions| x words)."""
    words = regions.shape[0]
    for w in range(words):
        x = regions[w]
        while x:
            i = 64 * w + lowest_bit(x)
            x &= x - _ONE
            for u in range(words):
                out[u] |= neighbours[i, u]


@kernel(inline=True)
def absorb(done, edge, grab, neighbours) -> None:
    """Flood the regions ``grab`` (a part of the border ``edge`` of ``done``): both are
    updated in place, the border losing ``grab`` and gaining what it touches."""
    words = done.shape[0]
    for w in range(words):
        done[w] |= grab[w]
        edge[w] &= ~grab[w]
    gather_neighbours(grab, neighbours, edge)
    for w in range(words):
        edge[w] &= ~done[w]


@kernel
def colours_in(regions, colour_masks) -> np.uint64:
    """The colours of ``regions``, as a word with bit c for colour c. O(k x words)."""
    found = _ZERO
    for c in range(colour_masks.shape[0]):
        for w in range(regions.shape[0]):
            if regions[w] & colour_masks[c, w]:
                found |= _ONE << np.uint64(c)
                break
    return found


@kernel
def layer_bound(flooded, edge, neighbours, colour_masks, final) -> int:
    """The layered bound of a position: the largest d + |colours at distance > d from the
    flood, with the final colour| over 0 <= d < eccentricity (``final`` < 0: any colour).

    ``edge`` is the border of ``flooded``. Proved in ``encodings/bounds.md`` ("Bound 4: pivot
    layers"). A flooded piece has bound 0 here: the caller adds the move to the final colour.
    O(n x words + eccentricity x k x words).
    """
    words = flooded.shape[0]
    scratch = np.empty((3, words), dtype=np.uint64)
    layers = np.empty(neighbours.shape[0] + 1, dtype=np.uint64)
    return layer_bound_into(flooded, edge, neighbours, colour_masks, final, scratch, layers)


@kernel
def layer_bound_into(flooded, edge, neighbours, colour_masks, final, scratch, layers) -> int:
    """:func:`layer_bound` in the caller's work arrays: ``scratch`` of shape (3, words),
    ``layers`` of n + 1 words (the search's inner loop allocates nothing)."""
    words = flooded.shape[0]
    seen, frontier, grown = scratch[0], scratch[1], scratch[2]
    empty = True
    for w in range(words):
        seen[w] = flooded[w] | edge[w]
        frontier[w] = edge[w]
        if edge[w]:
            empty = False
    depth = 0
    while not empty:
        depth += 1
        layers[depth] = colours_in(frontier, colour_masks)
        for w in range(words):
            grown[w] = _ZERO
        gather_neighbours(frontier, neighbours, grown)
        empty = True
        for w in range(words):
            frontier[w] = grown[w] & ~seen[w]
            seen[w] |= frontier[w]
            if frontier[w]:
                empty = False
    if depth == 0:
        return 0
    beyond = _ZERO if final < 0 else _ONE << np.uint64(final)
    best = 0
    for d in range(depth - 1, -1, -1):  # colours at distance > d, growing as d falls
        beyond |= layers[d + 1]
        best = max(best, d + popcount(beyond))
    return best


@kernel(inline=True)
def sweep_bound(flooded, edge, neighbours, colour_masks, final, scratch) -> int:
    """The moves of a relaxed flood from a position: each step plays a colour-eliminating
    move where there is one, and floods the whole border otherwise; a lower bound on the
    moves that flood the piece, raised by the colours left at each step (``encodings/bounds.md``,
    "Bound 5: pivot sweep"; the sweep is ColorFill's and aaronpuchert/floodit's heuristic).
    ``scratch``: shape (3, words).
    O(steps x (k + n) x words)."""
    words = flooded.shape[0]
    k = colour_masks.shape[0]
    done, edge_now, grab = scratch[0], scratch[1], scratch[2]
    empty = True
    for w in range(words):
        done[w] = flooded[w]
        edge_now[w] = edge[w]
        if edge[w]:
            empty = False
    steps = 0
    best = 0
    wanted = _ZERO if final < 0 else _ONE << np.uint64(final)
    alive = (_ONE << np.uint64(k)) - _ONE  # colours that may have regions left: they only go
    while not empty:
        # one pass over the colours still alive: which have regions left (each needs a move,
        # and so does the final colour), and those (not the final) whose every region left is
        # on the border: colour-eliminating moves (R7), played together, one step each (each
        # stays eliminating after the others, and steps + colours left is the same after each)
        left = wanted
        clear = _ZERO
        for c in range(k):
            bit = _ONE << np.uint64(c)
            if not alive & bit:
                continue
            rest = _ZERO
            outside = _ZERO
            for w in range(words):
                here = colour_masks[c, w] & ~done[w]
                rest |= here
                outside |= here & ~edge_now[w]
            if not rest:
                alive &= ~bit
                continue
            left |= bit
            if not outside and c != final:
                clear |= bit
        best = max(best, steps + popcount(left))
        # absorb()'s steps written out, its last pass joined to the test for an empty border:
        # 4.6-4.8 s against 4.8-5.0 s for 1,000 14x14 boards with absorb() called
        if clear:
            steps += popcount(clear)
            for w in range(words):
                take = _ZERO
                for c in range(k):
                    if clear & (_ONE << np.uint64(c)):
                        take |= colour_masks[c, w]
                take &= edge_now[w]
                grab[w] = take
                done[w] |= take
                edge_now[w] &= ~take
        else:
            steps += 1
            for w in range(words):  # flood the whole border
                take = edge_now[w]
                grab[w] = take
                done[w] |= take
                edge_now[w] = _ZERO
        gather_neighbours(grab, neighbours, edge_now)
        empty = True
        for w in range(words):
            edge_now[w] &= ~done[w]
            if edge_now[w]:
                empty = False
    return max(best, steps)


@kernel
def greedy_colours(flooded, neighbours, colour_masks, final, out, work) -> int:
    """A solution of the piece from ``flooded``, written as colours into ``out`` (at least
    n + 1 long); its length. Each move is a colour-eliminating one where there is one, else
    the colour that floods the most regions (the lowest on a tie); then the final colour
    if the last move was another. ``work`` holds three rows of scratch.
    O(moves x (k + n) x words)."""
    words = flooded.shape[0]
    k = colour_masks.shape[0]
    done, edge, grab = work[0], work[1], work[2]
    for w in range(words):
        done[w] = flooded[w]
    border_into(done, neighbours, edge)
    length = 0
    while True:
        empty = True
        for w in range(words):
            if edge[w]:
                empty = False
        if empty:
            break
        colour = eliminated(done, edge, colour_masks, final)
        if colour < 0:
            most = 0
            for c in range(k):
                count = 0
                for w in range(words):
                    count += popcount(edge[w] & colour_masks[c, w])
                if count > most:
                    most, colour = count, c
        out[length] = colour
        length += 1
        for w in range(words):
            grab[w] = edge[w] & colour_masks[colour, w]
        absorb(done, edge, grab, neighbours)
    if final >= 0 and (length == 0 or out[length - 1] != final):
        out[length] = final
        length += 1
    return length


@kernel(inline=True)
def eliminated(flooded, edge, colour_masks, final) -> int:
    """A colour whose every unflooded region is on the border (a move to it removes the
    colour from the board), other than ``final``; -1 if none. Such a move starts an optimal
    continuation (``encodings/bounds.md``, "R7. Pivot rules: colour-eliminating moves").
    O(k x words)."""
    for c in range(colour_masks.shape[0]):
        if c == final:
            continue
        rest = _ZERO
        outside = _ZERO
        for w in range(flooded.shape[0]):  # no early exit: a few words, and no branches
            left = colour_masks[c, w] & ~flooded[w]
            rest |= left
            outside |= left & ~edge[w]
        if rest and not outside:
            return c
    return -1
