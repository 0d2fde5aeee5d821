"""The compiled loop of :func:`kamicp.game.labels.label_grid`: one-colour groups of a grid's
cells, and the groups each touches, over an array of the cells' bounding box.

Cells are numbered in reading order and placed at (row, column) of the box; a cell's
neighbours are found from its coordinates by the geometry's rule (the same rules as
:mod:`kamicp.game.geometry`). Linear in cells: a breadth-first search per group, a counting
sort by group, and one pass that lists each group's neighbours with a mark per group.
"""

from __future__ import annotations

import numpy as np

from kamicp.jit import kernel

__all__ = ["grid_labels"]


@kernel
def _neighbours(code: int, r: int, c: int, out_r: np.ndarray, out_c: np.ndarray) -> int:
    """Write the neighbours of (r, c) under geometry ``code`` into ``out_r``/``out_c``
    (:data:`kamicp.game.labels.GRID_CODES`); their number."""
    out_r[0], out_c[0] = r - 1, c
    out_r[1], out_c[1] = r + 1, c
    if code == 0:  # square
        out_r[2], out_c[2] = r, c - 1
        out_r[3], out_c[3] = r, c + 1
        return 4
    if code == 1:  # triangle: the side it faces
        out_r[2], out_c[2] = r, (c - 1 if (r + c) % 2 == 0 else c + 1)
        return 3
    if code == 2:  # hex, odd columns shifted down
        if c % 2 == 0:
            out_r[0], out_c[0] = r - 1, c - 1
            out_r[1], out_c[1] = r, c - 1
            out_r[2], out_c[2] = r - 1, c + 1
            out_r[3], out_c[3] = r, c + 1
        else:
            out_r[0], out_c[0] = r, c - 1
            out_r[1], out_c[1] = r + 1, c - 1
            out_r[2], out_c[2] = r, c + 1
            out_r[3], out_c[3] = r + 1, c + 1
        out_r[4], out_c[4] = r - 1, c
        out_r[5], out_c[5] = r + 1, c
        return 6
    # kami2: side s of pair p sits at column 2p + s
    out_r[0], out_c[0] = r, c - 1
    out_r[1], out_c[1] = r, c + 1
    if c % 2 == 0:
        out_r[2], out_c[2] = r - 1, c + 1
    else:
        out_r[2], out_c[2] = r + 1, c - 1
    return 3


@kernel
def grid_labels(rows: np.ndarray, cols: np.ndarray, colour: np.ndarray, code: int):
    """Group the cells of one colour that touch.

    Parameters
    ----------
    rows, cols : numpy.ndarray of int64
        Each cell's place in the box, from 0, in reading order; shifted from the board's
        coordinates by even numbers, so that the geometry's parities hold.
    colour : numpy.ndarray of int64
        Each cell's colour.
    code : int
        The geometry (:data:`kamicp.game.labels.GRID_CODES`).

    Returns
    -------
    tuple
        ``(label, count, by_group, starts, first, neighbours)``: each cell's group (groups
        numbered in the reading order of their first cell), the number of groups, the cells
        sorted by group (in reading order within one), where each group starts in it
        (``count + 1`` entries), and each group's sorted neighbouring groups as
        ``neighbours[first[i]:first[i + 1]]``.
    """
    n = rows.shape[0]
    height = rows.max() + 1
    width = cols.max() + 1
    box = np.full((height, width), -1, np.int64)
    for i in range(n):
        box[rows[i], cols[i]] = i
    near_r = np.empty(6, np.int64)
    near_c = np.empty(6, np.int64)
    label = np.full(n, -1, np.int64)
    queue = np.empty(n, np.int64)
    count = 0
    for i in range(n):
        if label[i] >= 0:
            continue
        label[i] = count
        head, tail = 0, 1
        queue[0] = i
        while head < tail:
            p = queue[head]
            head += 1
            m = _neighbours(code, rows[p], cols[p], near_r, near_c)
            for j in range(m):
                r, c = near_r[j], near_c[j]
                if 0 <= r < height and 0 <= c < width:
                    q = box[r, c]
                    if q >= 0 and label[q] < 0 and colour[q] == colour[p]:
                        label[q] = count
                        queue[tail] = q
                        tail += 1
        count += 1
    sizes = np.zeros(count + 1, np.int64)
    for i in range(n):
        sizes[label[i] + 1] += 1
    starts = np.cumsum(sizes)
    fill = starts[:-1].copy()
    by_group = np.empty(n, np.int64)
    for i in range(n):
        by_group[fill[label[i]]] = i
        fill[label[i]] += 1
    mark = np.full(count, -1, np.int64)
    first = np.zeros(count + 1, np.int64)
    neighbours = np.empty(16, np.int64)
    used = 0
    for g in range(count):
        begin = used
        for t in range(starts[g], starts[g + 1]):
            p = by_group[t]
            m = _neighbours(code, rows[p], cols[p], near_r, near_c)
            for j in range(m):
                r, c = near_r[j], near_c[j]
                if 0 <= r < height and 0 <= c < width:
                    q = box[r, c]
                    if q >= 0 and label[q] != g and mark[label[q]] != g:
                        mark[label[q]] = g
                        if used == neighbours.shape[0]:
                            grown = np.empty(2 * used, np.int64)
                            grown[:used] = neighbours
                            neighbours = grown
                        neighbours[used] = label[q]
                        used += 1
        neighbours[begin:used].sort()
        first[g + 1] = used
    return label, count, by_group, starts, first, neighbours[:used]
