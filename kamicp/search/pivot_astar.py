"""A compiled A* for pivot rules (Flood-It): the flooded set as a bitset, a sweep bound.

The search runs over flooded sets (:mod:`kamicp.search.bitboard`): a position is the set of
starting regions the pivot has flooded, a move floods the border's regions of one colour.
The compiled loop is :mod:`kamicp.search.pivot_kernels` (run as :mod:`kamicp.search.pivot_code`
picks), its steps on bitsets :mod:`kamicp.search.bitsets`; this module drives it.
Its ideas are the published ones of the fast exact Flood-It solvers (ColorFill by M. Henke;
aaronpuchert/floodit): A* with an admissible bound, colour-eliminating moves played at once,
bitsets. Here:

- a child's bound is the sweep bound (:func:`~kamicp.search.bitsets.sweep_bound`,
  ``encodings/bounds.md`` Bound 5), the start's also the layered bound (Bound 4); a child's
  f is at least its parent's (pathmax), and a flooded set reached again with fewer moves is
  opened again, so the search is exact with a bound that is admissible but not consistent
  (``encodings/bounds.md``, "Search correctness");
- where a move removes a colour from the board, it is the only child (R7);
- after a move to p from W, a colour c that floods only regions touching W is left to the
  order c then p, from the node W + c kept with parent W, which floods at least as much:
  where c is below p (R9), and where c is above p and that order floods more (R10);
  Puchert's rules;
- a position is its flooded set alone (R8);
- only moves to the border's colours are children (any other move floods nothing); the move
  to the final colour, where one is required, is added when the piece is flooded;
- open positions sit in buckets by f = g + h and g; the deepest of the least f is expanded
  first (last in first out within a bucket), so a solution of length f is met early;
- a hash table of node numbers keeps one node per flooded set, the one with the fewest moves;
- a greedy solution comes first, and children whose f reaches the best solution's length
  are dropped, so the memory holds only positions that can still beat it.

The compiled loop runs in slices of expansions; between slices Python checks the deadline,
the node and memory budgets and Ctrl-C, and grows the arrays. A stopped search still proves
the least f left open (some position of every optimal solution is open with its optimal g).

Examples
--------
>>> from kamicp.game.regions import from_edges
>>> g = from_edges([0, 1, 2, 1, 0, 2, 1], [(i, i + 1) for i in range(6)], rules="pivot")
>>> out = pivot_astar(g)
>>> out.complete, out.moves
(True, [(0, 1), (0, 2), (0, 1), (0, 0), (0, 2), (0, 1)])
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from kamicp import bounds
from kamicp.game import rules
from kamicp.game.regions import RegionGraph
from kamicp.game.rules import Move
from kamicp.procs import memory as limit
from kamicp.procs.deadline import Deadline
from kamicp.result import SearchOutcome
from kamicp.search.bitboard import BitBoard, bit_board
from kamicp.search.pivot_code import expand, open_start, rehash
from kamicp.search.pivot_kernels import (
    BEST,
    BEST_COLOUR,
    BEST_NODE,
    DONE,
    EXPANDED,
    GROW,
    LOW,
    NODES,
    SLICE,
    USED,
    WORK_ROWS,
)

__all__ = [
    "FIRST_NODES",
    "FIRST_WORK",
    "MEMORY",
    "SHORTEN_NODES",
    "SLICE_SECONDS",
    "SPARE_WORDS",
    "node_bytes",
    "pivot_astar",
    "quick_length",
    "shorten",
]

# Between two slices of the compiled loop Python checks the time, the budgets and Ctrl-C;
# a slice aims at this many seconds, so a limit is met within about a tenth of a second.
SLICE_SECONDS = 0.05
# Word operations of the first slice, about a millisecond (2,400 expansions on a 14x14 board
# of 140 regions in 3-word rows; one on a 500x500 board of 100,000 regions in 1,600 words).
FIRST_WORK = 1_000_000
# Positions the arrays hold before they first grow: the median 14x14 six-colour board
# stores about 8,000, and doubling from 1,024 took a tenth of its time.
FIRST_NODES = 16_384
# Bytes the search's arrays may take by default: the hardest floodit-99 board fits.
MEMORY = 2 * 2**30
# Expansions :func:`shorten` spends on a prefix: on ten hard floodit-99 boards 30,000 found
# the same shorter solutions as 100,000 in half the time (about a second a board).
SHORTEN_NODES = 30_000
# Rows of at most this many words keep their first arrays for the next search in the process:
# fresh ones cost 0.38 ms a 14x14 board (the pages touched, the table filled), where the
# median search takes 3 ms; one set is kept a row width, at most 12 MB for all eight.
SPARE_WORDS = 8


def quick_length(g: RegionGraph, final_colour: int | None = None) -> int | None:
    """The length of the compiled greedy's solution of a pivot-rule board (None if the
    board cannot be solved): a first upper bound in O(moves x (k + n) x words).

    Examples
    --------
    >>> from kamicp.game.regions import from_edges
    >>> quick_length(from_edges([0, 1, 2, 1], [(0, 1), (1, 2), (2, 3)], rules="pivot"))
    3
    """
    if not bounds.solvable(g, None, final_colour):
        return None
    board = bit_board(g)
    final = _final(g, final_colour)
    if board.n == 1:
        return int(final >= 0 and final != board.colours[0])
    return _open(board, board.start(), final)[1]


def node_bytes(words: int) -> int:
    """Bytes a stored position takes: its flooded set, g, parent, move, bucket link, stale
    flag, and two slots of the hash table (kept at most half full)."""
    return 8 * words + 4 + 8 + 1 + 8 + 1 + 2 * 8


def pivot_astar(
    g: RegionGraph,
    final_colour: int | None = None,
    max_moves: int | None = None,
    node_limit: int | None = None,
    deadline: float | None = None,
    memory: int | None = None,
    on_bound: Callable[[int], None] | None = None,
    on_slice: Callable[[], None] | None = None,
) -> SearchOutcome:
    """An optimal solution of a pivot-rule board by compiled A*, or what was proved when a
    limit stopped it.

    Parameters
    ----------
    g : RegionGraph
        A pivot-rule board.
    final_colour : int or None
        The colour the board must end in; None for any.
    max_moves : int or None
        Only solutions of at most this many moves are sought.
    node_limit : int or None
        Expansions at most.
    deadline : float or None
        A ``time.monotonic()`` time at which to stop.
    memory : int or None
        Bytes the stored positions may take (default :data:`MEMORY`, or half the memory
        limit being watched if that is less: :func:`kamicp.procs.memory.share`).
    on_bound : callable or None
        Called with each new proved lower bound.
    on_slice : callable or None
        Called without arguments between two slices of the compiled loop (at most
        :data:`SLICE_SECONDS` apart): where the caller starts other work once the search has
        run a while.

    Returns
    -------
    SearchOutcome
        ``complete``: ``moves`` is optimal, or (None) no solution has at most ``max_moves``
        moves. ``lower_bound`` is proved in every case; ``nodes`` counts expansions.

    Raises
    ------
    ValueError
        A board under free rules, or a palette of more than 64 colours.

    Notes
    -----
    Time and memory exponential in the worst case; each flooded set is stored once. A
    slice of the loop costs O(expansions x k x n x words) word operations.
    """
    if g.rules != "pivot":
        raise ValueError("the compiled A* is for pivot rules")
    if not bounds.solvable(g, None, final_colour):
        return SearchOutcome(None, bounds.UNSOLVABLE, True, 0)
    board = bit_board(g)
    final = _final(g, final_colour)
    best = (board.n + 1) if max_moves is None else max_moves + 1
    if board.n == 1:
        moves = [] if final < 0 or final == board.colours[0] else [(g.pivot, final)]
        if len(moves) < best:
            return SearchOutcome(moves, len(moves), True, 0)
        return SearchOutcome(None, len(moves), True, 0)
    calls = (on_bound, on_slice)
    return _search(g, board, board.start(), final, best, node_limit, deadline, memory, calls)


def shorten(
    g: RegionGraph,
    moves: list[Move],
    final_colour: int | None = None,
    node_limit: int = SHORTEN_NODES,
    deadline: float | None = None,
) -> list[Move] | None:
    """A solution shorter than ``moves`` that begins as they do, or None: from the position
    after each of their prefixes, longest first, the A* seeks a shorter continuation, with
    at most ``node_limit`` expansions each, and stops at the first prefix where it runs out.

    A search for upper bounds only (large-neighbourhood search around a solution): it proves
    nothing about the board, and its answer is to be replayed like any other.

    Parameters
    ----------
    g : RegionGraph
        A pivot-rule board.
    moves : list of (region, colour)
        A solution of ``g`` (ending in ``final_colour`` where one is asked).
    final_colour : int or None
        The colour the board must end in; None for any.
    node_limit : int
        Expansions per prefix.
    deadline : float or None
        A ``time.monotonic()`` time at which to stop.

    Returns
    -------
    list of (region, colour) or None
        A shorter solution, or None where none was found within the limits.

    Examples
    --------
    >>> from kamicp.game.regions import from_edges
    >>> g = from_edges([0, 1, 2, 1, 0, 2, 1], [(i, i + 1) for i in range(6)], rules="pivot")
    >>> long = [(0, 2), (0, 1), (0, 2), (0, 1), (0, 0), (0, 2), (0, 1)]
    >>> len(shorten(g, long))
    6

    Notes
    -----
    At most ``len(moves)`` searches; each is :func:`pivot_astar`'s loop from a flooded set.
    """
    board = bit_board(g)
    final = _final(g, final_colour)
    index = {v: i for i, v in enumerate(board.regions)}
    flooded = [rules.start(g)]
    for move in moves[:-1]:
        flooded.append(rules.apply(g, flooded[-1], move))
    clock = Deadline(deadline)
    for k in range(len(moves) - 1, -1, -1):
        if clock.expired():
            return None
        root = np.zeros(board.words, dtype=np.uint64)
        for v in rules.current_region(g, flooded[k], g.pivot):
            i = index[v]
            root[i // 64] |= np.uint64(1) << np.uint64(i % 64)
        rest = len(moves) - k  # the continuation to beat
        out = _search(g, board, root, final, rest, node_limit, deadline, None, (None, None))
        if out.moves is not None:
            return list(moves[:k]) + out.moves
        if not out.complete:
            return None
    return None


def _search(g, board, root, final, best, node_limit, deadline, memory, calls) -> SearchOutcome:
    """The A* from the flooded set ``root`` for continuations shorter than ``best`` moves;
    ``calls`` are :func:`pivot_astar`'s ``on_bound`` and ``on_slice``."""
    # the start's bound, and a quick solution: A* then looks only below it, and stores
    # nothing at or above it
    h0, length, colours = _open(board, root, final)
    if h0 >= best:
        return SearchOutcome(None, h0, True, 0)
    quick = [(g.pivot, int(c)) for c in colours[:length]]
    if h0 >= length:
        return SearchOutcome(quick, length, True, 0)
    run = _Run(board, final, min(best, length), memory or limit.share(MEMORY))
    if length < best:
        run.quick = quick
    run.add_root(root, h0)
    outcome = _loop(g, run, best, node_limit, deadline, calls, h0)
    run.release()
    return outcome


def _loop(g, run, best, node_limit, deadline, calls, h0) -> SearchOutcome:
    """The compiled loop's slices, until it is done or a limit stops it."""
    on_bound, on_slice = calls
    board = run.board
    clock = Deadline(deadline)
    slice_size = max(1, FIRST_WORK // (board.n * board.words))
    told = h0
    if on_bound is not None:
        on_bound(h0)
    while True:
        if node_limit is not None:
            slice_size = max(1, min(slice_size, node_limit - int(run.stats[EXPANDED])))
        began = time.monotonic()
        status = run.step(slice_size)
        took = time.monotonic() - began
        low = int(min(run.stats[LOW], run.stats[BEST]))
        if on_bound is not None and low > told:
            told = low
            on_bound(low)
        if status == DONE:
            return run.outcome(g, True, best)
        if status == GROW and not run.grow():
            return run.outcome(g, False, best)
        if clock.expired():
            return run.outcome(g, False, best)
        if node_limit is not None and run.stats[EXPANDED] >= node_limit:
            return run.outcome(g, False, best)
        if status == SLICE and took > 0:
            slice_size = max(1, int(slice_size * min(4.0, SLICE_SECONDS / took)))
        if on_slice is not None:
            on_slice()


def _final(g: RegionGraph, final_colour: int | None) -> int:
    """The colour the piece must end in (:func:`kamicp.bounds.pivot.pivot_final_colour`); -1
    for any. The board is solvable (checked by the callers)."""
    _, final = bounds.pivot_final_colour(g, final_colour)
    return -1 if final is None else final


def _open(board: BitBoard, root: np.ndarray, final: int) -> tuple[int, int, np.ndarray]:
    """The bound of the flooded set ``root``, and the length and colours of a greedy
    solution from it (:func:`kamicp.search.pivot_kernels.open_start`)."""
    colours = np.empty(board.n + 1, dtype=np.int64)
    work = np.empty((WORK_ROWS, board.words), dtype=np.uint64)
    layers = np.empty(board.n + 1, dtype=np.uint64)
    out = np.empty(2, dtype=np.int64)
    open_start(root, board.neighbours, board.colour_masks, final, colours, work, layers, out)
    return int(out[0]), int(out[1]), colours


# The first arrays of the last search that did not grow them, by row words (SPARE_WORDS).
_spare: dict[int, tuple[np.ndarray, ...]] = {}


class _Run:
    """The arrays of one search, grown between slices."""

    def __init__(self, board: BitBoard, final: int, best: int, memory: int) -> None:
        self.board, self.final, self.memory = board, final, memory
        kept = _spare.pop(board.words, None)
        if kept is None:
            size = FIRST_NODES
            self.store = np.zeros((size, board.words), dtype=np.uint64)
            self.gval = np.zeros(size, dtype=np.int32)
            self.parent = np.full(size, -1, dtype=np.int64)
            self.move = np.zeros(size, dtype=np.int8)
            self.link = np.full(size, -1, dtype=np.int64)
            self.stale = np.zeros(size, dtype=np.bool_)
            self.table = np.full(4 * size, -1, dtype=np.int64)
        else:
            # A node's fields are all written when it is made: only the table and the
            # root's fields are read before that.
            self.store, self.gval, self.parent, self.move, self.link, self.stale, self.table = kept
            self.table.fill(-1)
            self.gval[0], self.parent[0], self.link[0], self.stale[0] = 0, -1, -1, False
        self.heads = np.full((best + 1, best + 1), -1, dtype=np.int64)
        self.stats = np.zeros(7, dtype=np.int64)
        self.stats[BEST] = best
        self.stats[BEST_NODE] = -1
        self.full = board.full()
        self.work = np.empty((WORK_ROWS, board.words), dtype=np.uint64)
        self.quick: list[Move] | None = None  # a solution no longer than the search's bound

    def add_root(self, root: np.ndarray, h0: int) -> None:
        """Open the start with f = its bound (the first slice puts it in the table)."""
        self.store[0] = root
        self.stats[NODES] = 1
        self.stats[LOW] = h0
        self.heads[h0, 0] = 0

    def release(self) -> None:
        """Keep the arrays for the next search where they are the first ones and small."""
        words = self.board.words
        first = self.store.shape[0] == FIRST_NODES and self.table.shape[0] == 4 * FIRST_NODES
        if words <= SPARE_WORDS and first:
            arrays = (self.store, self.gval, self.parent, self.move, self.link, self.stale)
            _spare[words] = (*arrays, self.table)

    def step(self, budget: int) -> int:
        """One slice of at most ``budget`` expansions."""
        return expand(
            self.board.neighbours,
            self.board.colour_masks,
            self.full,
            self.store,
            self.gval,
            self.parent,
            self.move,
            self.link,
            self.stale,
            self.table,
            self.heads,
            self.stats,
            self.final,
            budget,
            self.work,
        )

    def grow(self) -> bool:
        """Double the node arrays or the table; False when the memory budget forbids it."""
        size = self.store.shape[0]
        if self.stats[NODES] + self.board.colour_masks.shape[0] > size:
            if 2 * size * node_bytes(self.board.words) > self.memory:
                return False
            self.store = np.concatenate([self.store, np.zeros_like(self.store)])
            self.gval = np.concatenate([self.gval, np.zeros_like(self.gval)])
            self.parent = np.concatenate([self.parent, np.full_like(self.parent, -1)])
            self.move = np.concatenate([self.move, np.zeros_like(self.move)])
            self.link = np.concatenate([self.link, np.full_like(self.link, -1)])
            self.stale = np.concatenate([self.stale, np.zeros_like(self.stale)])
        if 2 * (self.stats[USED] + self.board.colour_masks.shape[0]) > self.table.shape[0]:
            table = np.full(2 * self.table.shape[0], -1, dtype=np.int64)
            rehash(self.table, table, self.store)
            self.table = table
        return True

    def outcome(self, g: RegionGraph, complete: bool, best: int) -> SearchOutcome:
        """What the search proved: the best solution found, and the least open f."""
        expanded = int(self.stats[EXPANDED])
        node = int(self.stats[BEST_NODE])
        if node < 0 and self.quick is not None:
            # nothing shorter than the quick solution: it is optimal if the search completed
            length = len(self.quick)
            lower = length if complete else int(min(self.stats[LOW], length))
            return SearchOutcome(self.quick, lower, complete, expanded)
        if node < 0:
            lower = best if complete else int(min(self.stats[LOW], best))
            return SearchOutcome(None, lower, complete, expanded)
        colours = [int(self.stats[BEST_COLOUR])]
        while node > 0:
            colours.append(int(self.move[node]))
            node = int(self.parent[node])
        colours.reverse()
        if self.final >= 0 and colours[-1] != self.final:
            colours.append(self.final)
        moves: list[Move] = [(g.pivot, c) for c in colours]
        lower = len(moves) if complete else int(min(self.stats[LOW], len(moves)))
        return SearchOutcome(moves, lower, complete, expanded)
