"""Labelling: the cells of a board split into one-colour connected groups, in linear time.

Both labellings give the same answer: group i is the i-th group met in reading order (so a
group's number is that of its first cell's turn), its cells in reading order, and the sorted
neighbouring groups of each. :func:`label_cells` is a breadth-first search in Python over
:meth:`Board.adjacency`, for any geometry; :func:`label_grid` places a grid board's cells in
an array and labels them in compiled code, where a Python object per cell neighbour would
cost seconds (a 500x500 board has a million cell sides).
"""

from __future__ import annotations

import gc
import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kamicp.game.board import Board
from kamicp.procs.deadline import Deadline

if TYPE_CHECKING:  # annotations only: numpy loads where a big grid is labelled
    import numpy as np

__all__ = [
    "CHECK_EVERY",
    "GRID_CODES",
    "Labels",
    "gc_paused",
    "grid_fits",
    "label_cells",
    "label_grid",
]

# Cells labelled between two looks at the clock: a look costs about as much as ten cells,
# and 4096 cells take about 10 ms in Python, well inside the second a limit may overrun.
CHECK_EVERY = 4096

# The geometries :func:`label_grid` knows, and the code its compiled loop reads them by.
GRID_CODES = {"square": 0, "triangle": 1, "hex": 2, "kami2": 3}


@dataclass(frozen=True)
class Labels:
    """The one-colour groups of a board's cells.

    ``groups[i]`` lists group i's cells in reading order, ``group_of`` maps each cell to its
    group, ``adj[i]`` is the sorted tuple of the groups touching group i, and ``colour[i]``
    is its colour.
    """

    groups: tuple[tuple, ...]
    group_of: dict
    adj: tuple[tuple[int, ...], ...]
    colour: tuple[int, ...]


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cycle collector while a board's millions of tuples are made.

    The tuples hold no cycles, and each collection would walk all of them again: a third
    of the time of labelling a 2000x2000 board.

    Yields
    ------
    None
        Inside the block the collector is off; it is turned back on after, if it was on.

    Examples
    --------
    >>> with gc_paused():
    ...     gc.isenabled()
    False
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def label_cells(board: Board, deadline: float | None = None) -> Labels:
    """Label ``board``'s cells by breadth-first search over its adjacency (any geometry).

    Parameters
    ----------
    board : Board
        The puzzle.
    deadline : float or None
        A ``time.monotonic()`` value, looked at every :data:`CHECK_EVERY` cells.

    Returns
    -------
    Labels
        The groups, numbered in the reading order of their first cell.

    Raises
    ------
    kamicp.procs.deadline.LimitReached
        Once ``deadline`` has passed.

    Notes
    -----
    O(cells + cell sides).

    Examples
    --------
    >>> cells = {(0, 0): 0, (0, 1): 1, (1, 0): 0, (1, 1): 0}
    >>> labels = label_cells(Board(geometry="square", cells=cells, palette=("R", "G")))
    >>> labels.groups, labels.adj, labels.colour
    ((((0, 0), (1, 0), (1, 1)), ((0, 1),)), ((1,), (0,)), (0, 1))
    """
    clock = Deadline(deadline)
    clock.check()
    order = board.order
    beside = board.neighbour_indices()
    clock.check()
    colours = [board.cells[cell] for cell in order]
    group = [-1] * len(order)
    groups: list[list[int]] = []  # by the places of their cells
    seen = 0
    for first, colour in enumerate(colours):
        if group[first] >= 0:
            continue
        number = len(groups)
        group[first] = number
        members = [first]
        for here in members:  # grows while it is read: a breadth-first search
            for other in beside[here]:
                if group[other] < 0 and colours[other] == colour:
                    group[other] = number
                    members.append(other)
        members.sort()
        groups.append(members)
        seen += len(members)
        if seen >= CHECK_EVERY:
            seen = 0
            clock.check()
    adj: list[set[int]] = [set() for _ in groups]
    for here, others in enumerate(beside):  # each side is met from both of its cells
        a = group[here]
        for other in others:
            b = group[other]
            if a != b:
                adj[a].add(b)
    return Labels(
        groups=tuple(tuple(order[i] for i in members) for members in groups),
        group_of=dict(zip(order, group, strict=True)),
        adj=tuple(tuple(sorted(s)) for s in adj),
        colour=tuple(colours[members[0]] for members in groups),
    )


def grid_fits(board: Board) -> bool:
    """Whether :func:`label_grid` takes ``board``: a grid geometry whose cells fill at least
    a quarter of their bounding box (the compiled loop keeps an array of that box).

    Parameters
    ----------
    board : Board
        The puzzle.

    Returns
    -------
    bool
        True for a square, triangle, hex or kami2 board not too sparse.

    Examples
    --------
    >>> grid_fits(Board(geometry="square", cells={(0, 0): 0, (0, 1): 0}, palette=("R",)))
    True
    """
    return board.geometry in GRID_CODES and _fits(*_coordinates(board))


def _fits(rows: np.ndarray, cols: np.ndarray) -> bool:
    """Whether cells at ``rows`` and ``cols`` fill a quarter of their bounding box."""
    height = int(rows.max() - rows.min()) + 1
    width = int(cols.max() - cols.min()) + 1
    return height * width <= 4 * len(rows) + 64


def label_grid(board: Board, deadline: float | None = None) -> Labels | None:
    """Label a grid board's cells in compiled code.

    Parameters
    ----------
    board : Board
        The puzzle.
    deadline : float or None
        A ``time.monotonic()`` value, looked at between the steps (the compiled step takes
        about a second on four million cells) and every :data:`CHECK_EVERY` groups while
        the answer's tuples are made.

    Returns
    -------
    Labels or None
        The same groups as :func:`label_cells`; None unless :func:`grid_fits` holds.

    Raises
    ------
    kamicp.procs.deadline.LimitReached
        Once ``deadline`` has passed.

    Examples
    --------
    >>> cells = {(0, 0): 0, (0, 1): 1, (1, 0): 0, (1, 1): 0}
    >>> label_grid(Board(geometry="square", cells=cells, palette=("R", "G"))).adj
    ((1,), (0,))
    """
    clock = Deadline(deadline)
    clock.check()
    if board.geometry not in GRID_CODES:
        return None
    # numpy loads only where a big grid is labelled: it costs 0.1 s of start-up
    import numpy as np

    order = board.order
    rows, cols = _coordinates(board)
    if not _fits(rows, cols):
        return None
    clock.check()
    colour = np.fromiter(map(board.cells.__getitem__, order), dtype=np.int64, count=len(order))
    clock.check()
    rows -= rows.min() - rows.min() % 2  # by an even step: the parities of the rules hold
    cols -= cols.min() - cols.min() % 2
    # here, not at start-up: Numba loads only where a big grid is labelled
    from kamicp.game.label_loop import grid_labels

    label, count, by_group, starts, first, near = grid_labels(
        rows, cols, colour, GRID_CODES[board.geometry]
    )
    clock.check()
    group_colour = colour[by_group[starts[:-1]]].tolist()
    cells = [order[i] for i in by_group.tolist()]
    cuts, first, near = starts.tolist(), first.tolist(), near.tolist()
    clock.check()
    groups = []
    adj = []
    for i in range(count):
        groups.append(tuple(cells[cuts[i] : cuts[i + 1]]))
        adj.append(tuple(near[first[i] : first[i + 1]]))
        if i % CHECK_EVERY == 0:
            clock.check()
    return Labels(
        groups=tuple(groups),
        group_of=dict(zip(order, label.tolist(), strict=True)),
        adj=tuple(adj),
        colour=tuple(group_colour),
    )


def _coordinates(board: Board) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's array row and column, in reading order (kami2: side s of pair p is
    column 2p + s)."""
    # numpy loads only where a big grid is labelled: it costs 0.1 s of start-up
    import numpy as np

    order = board.order
    dims = len(order[0])
    flat = np.fromiter(itertools.chain.from_iterable(order), dtype=np.int64)
    flat = flat.reshape(len(order), dims)
    if dims == 3:
        return flat[:, 0].copy(), 2 * flat[:, 1] + flat[:, 2]
    return flat[:, 0].copy(), flat[:, 1].copy()
