"""The compiled loop of the pivot-rule A*.

:func:`expand` expands positions in order of f = g + h for a slice of work; between slices
:mod:`kamicp.search.pivot_astar` checks the time and the budgets and grows the arrays
(:func:`rehash` moves the table into a larger one). :func:`open_start` gives the start's
bound and a greedy solution. The steps on bitsets are :mod:`kamicp.search.bitsets`.

These functions are Numba kernels (:mod:`kamicp.jit`) that allocate nothing: the caller
gives them their scratch rows. So :mod:`kamicp.search.pivot_code` can also build them ahead
of time into a library that runs without Numba.

Examples
--------
>>> import numpy as np
>>> neighbours = np.array([[0b0010], [0b0101], [0b1010], [0b0100]], dtype=np.uint64)
>>> colour_masks = np.array([[0b0001], [0b1010], [0b0100]], dtype=np.uint64)
>>> colours = np.empty(5, dtype=np.int64)
>>> work = np.empty((WORK_ROWS, 1), dtype=np.uint64)
>>> layers = np.empty(5, dtype=np.uint64)
>>> out = np.empty(2, dtype=np.int64)
>>> open_start(np.array([1], dtype=np.uint64), neighbours, colour_masks, -1, colours, work,
...            layers, out)
>>> int(out[0]), colours[:out[1]].tolist()
(3, [1, 2, 1])
"""

from __future__ import annotations

import numpy as np

from kamicp.jit import kernel
from kamicp.search.bitsets import (
    absorb,
    border_into,
    eliminated,
    greedy_colours,
    layer_bound_into,
    sweep_bound,
)

__all__ = [
    "BEST",
    "BEST_COLOUR",
    "BEST_NODE",
    "DONE",
    "EXPANDED",
    "GROW",
    "LOW",
    "NODES",
    "SLICE",
    "USED",
    "WORK_ROWS",
    "expand",
    "kept_before",
    "open_start",
    "rehash",
    "row_hash",
    "table_slot",
]

# what a slice of :func:`expand` returns
DONE, SLICE, GROW = 0, 1, 2
# the counters in ``stats``: nodes stored, the least open f, the best solution's length, its
# last node and colour, expansions, table entries
NODES, LOW, BEST, BEST_NODE, BEST_COLOUR, EXPANDED, USED = range(7)

# Rows of scratch an entry point is given (``work``, of shape (WORK_ROWS, words)): the
# kernels allocate nothing, so that the ahead-of-time build needs no Numba runtime.
WORK_ROWS = 9


@kernel(inline=True)
def row_hash(row) -> int:
    """A hash of a flooded set (multiply and fold each word in)."""
    h = np.uint64(0)
    for w in range(row.shape[0]):
        h = (h ^ row[w]) * np.uint64(0x9E3779B97F4A7C15)
        h ^= h >> np.uint64(29)
    return int(h >> np.uint64(1))


@kernel(inline=True)
def table_slot(table, store, row) -> int:
    """The table slot of ``row``: where it is, or the empty slot where it goes."""
    mask = table.shape[0] - 1
    slot = row_hash(row) & mask
    while table[slot] >= 0:
        node = table[slot]
        same = True
        for w in range(row.shape[0]):
            if store[node, w] != row[w]:
                same = False
                break
        if same:
            return slot
        slot = (slot + 1) & mask
    return slot


@kernel(inline=True)
def kept_before(c, node, old_edge, colour_masks, store, parent, move, table, witness) -> bool:
    """Whether the table keeps W + c (``witness`` receives it) as a node with parent W and
    move c, where W is the parent of ``node`` and ``old_edge`` its border (R9, R10)."""
    up = parent[node]
    for w in range(old_edge.shape[0]):
        witness[w] = store[up, w] | (old_edge[w] & colour_masks[c, w])
    other = table[table_slot(table, store, witness)]
    return other >= 0 and parent[other] == up and move[other] == c


@kernel
def open_start(root, neighbours, colour_masks, final, colours, work, layers, out) -> None:
    """The start's bound and the length of a greedy solution, written to ``out[0]`` and
    ``out[1]``, the solution to ``colours``. ``work`` holds :data:`WORK_ROWS` rows of
    scratch, ``layers`` n + 1 words. One compiled call, as each loads its code on first use."""
    edge, scratch = work[0], work[1:4]
    border_into(root, neighbours, edge)
    bound = layer_bound_into(root, edge, neighbours, colour_masks, final, scratch, layers)
    bound = max(bound, sweep_bound(root, edge, neighbours, colour_masks, final, scratch))
    out[0] = bound
    out[1] = greedy_colours(root, neighbours, colour_masks, final, colours, work[4:7])


@kernel
def rehash(old, new, store) -> None:
    """Move every entry of the table ``old`` into the larger ``new``."""
    for slot in range(old.shape[0]):
        node = old[slot]
        if node >= 0:
            new[table_slot(new, store, store[node])] = node


@kernel
def expand(
    neighbours,
    colour_masks,
    full,
    store,
    gval,
    parent,
    move,
    link,
    stale,
    table,
    heads,
    stats,
    final,
    budget,
    work,
) -> int:
    """Expand up to ``budget`` positions in order of f; say why it stopped (:data:`DONE`,
    :data:`SLICE`, :data:`GROW`).

    The board is ``neighbours``, ``colour_masks`` and ``full`` (every region); a node i is
    its flooded set ``store[i]``, its moves ``gval[i]``, its ``parent[i]`` and the colour
    ``move[i]`` that made it, the next node of its bucket ``link[i]``, and ``stale[i]`` once
    it was reached again in fewer moves. ``table`` maps flooded sets to nodes (open
    addressing), ``heads[f, g]`` is the first node of the bucket (f, g), and ``stats`` holds
    the counters named by :data:`NODES` to :data:`USED`; ``work`` holds :data:`WORK_ROWS`
    rows of scratch.
    """
    k = colour_masks.shape[0]
    words = full.shape[0]
    edge, child, child_edge, grab_row = work[0], work[1], work[2], work[3]
    old_edge, witness, scratch = work[4], work[5], work[6:9]
    if stats[USED] == 0:  # the start, stored by the caller
        table[table_slot(table, store, store[0])] = 0
        stats[USED] = 1
    done = 0
    while done < budget:
        if stats[NODES] + k > store.shape[0] or 2 * (stats[USED] + k) > table.shape[0]:
            return GROW
        f = stats[LOW]
        deep = -1
        while f < stats[BEST]:
            for depth_open in range(f, -1, -1):
                if heads[f, depth_open] >= 0:
                    deep = depth_open
                    break
            if deep >= 0:
                break
            f += 1
        stats[LOW] = f
        if f >= stats[BEST]:
            return DONE
        node = heads[f, deep]
        heads[f, deep] = link[node]
        if stale[node]:
            continue
        done += 1
        stats[EXPANDED] += 1
        flooded = store[node]
        border_into(flooded, neighbours, edge)
        depth = gval[node] + 1
        only = eliminated(flooded, edge, colour_masks, final)
        # R9, R10: this node is W + p (its parent and move); a colour c that floods only
        # regions touching W commutes with p, and the order c then p is left to the node
        # W + c where it is kept with parent W: if c < p (R9), and if c > p where that order
        # floods more (R10)
        last = -1
        if node > 0:
            last = move[node]
            border_into(store[parent[node]], neighbours, old_edge)
        for c in range(k):
            if only >= 0 and c != only:
                continue
            grabbed = False
            complete = True
            for w in range(words):
                grab = edge[w] & colour_masks[c, w]
                if grab:
                    grabbed = True
                child[w] = flooded[w] | grab
                if child[w] != full[w]:
                    complete = False
            if not grabbed:
                continue
            if complete:
                cost = depth + (1 if final >= 0 and c != final else 0)
                if cost < stats[BEST]:
                    stats[BEST] = cost
                    stats[BEST_NODE] = node
                    stats[BEST_COLOUR] = c
                continue
            commutes = False
            if last >= 0 and c != last:
                fresh = np.uint64(0)
                for w in range(words):
                    fresh |= edge[w] & colour_masks[c, w] & ~old_edge[w]
                commutes = not fresh
            if commutes and c < last:
                # R9: W + c, then p, floods at least this child's regions
                if kept_before(
                    c, node, old_edge, colour_masks, store, parent, move, table, witness
                ):
                    continue
            slot = table_slot(table, store, child)
            before = table[slot]
            if before >= 0 and gval[before] <= depth:
                continue
            # the child's border: the parent's, less what it flooded, plus what that touches
            for w in range(words):
                grab_row[w] = edge[w] & colour_masks[c, w]
                child_edge[w] = edge[w]
            absorb(child, child_edge, grab_row, neighbours)  # child holds the grab already
            if commutes and c > last:
                # R10: a p-region that touches what c floods is left by this order and
                # flooded by the other
                beaten = np.uint64(0)
                for w in range(words):
                    beaten |= child_edge[w] & colour_masks[last, w]
                if beaten:
                    if kept_before(
                        c, node, old_edge, colour_masks, store, parent, move, table, witness
                    ):
                        continue
            h = sweep_bound(child, child_edge, neighbours, colour_masks, final, scratch)
            fc = max(f, depth + h)  # the parent's f still bounds the child (pathmax)
            if fc >= stats[BEST]:
                continue
            new = stats[NODES]
            stats[NODES] += 1
            for w in range(words):  # a loop, where a row assignment checks shapes
                store[new, w] = child[w]
            gval[new] = depth
            parent[new] = node
            move[new] = c
            stale[new] = False
            if before >= 0:
                stale[before] = True
            else:
                stats[USED] += 1
            table[slot] = new
            link[new] = heads[fc, depth]
            heads[fc, depth] = new
            if fc < stats[LOW]:
                stats[LOW] = fc
    return SLICE
