"""A* and IDA*: optimal solutions guided by the admissible bounds of :mod:`kamicp.bounds`.

Both search the current region graph (:class:`~kamicp.bounds.Current`), updated move
by move.
Only admissible bounds prune, and only the move restrictions proved in
``encodings/bounds.md`` are applied:

- pieces in order: moves on different pieces commute, so every solution can be reordered to
  play piece 0's moves, then piece 1's, and so on; a piece left behind is finished and its
  colour is the final colour (a state is the position plus the first piece still open);
- a one-node piece, once the final colour is known, is only recoloured to it;
- pivot rules: a move that merges nothing is only needed to recolour the finished pivot
  piece; a move that absorbs every remaining region of a colour (not the forced final one)
  may be played at once (Flood-It's colour-elimination rule, proved by blob monotonicity);
- IDA*, free rules: two consecutive moves of one piece that commute are tried in one order
  only: two independent merging moves (neither star in or next to the other) with the
  smaller node first (R5); a move that merges nothing as early as it can stand, since it
  lowers no bound and is cut soonest there (R6: before the move it follows, unless that
  move absorbs its node or touches it with its colour, old or new; and never a move on the
  node it just recoloured). A state's table key then includes the last move's context.

Speed: a child's bound comes from the parent's balls without building the child, and its
radius is recomputed only for the few moves that can lower it (``radius_movers``); on
KAMI 2's Threed5 (52 regions, optimum 10) these cut IDA* from 59 s to 24 s, measured. Most
IDA* nodes are *radius-tight* (radius = budget: 99% of the 174 k nodes of 40 s on Bud4 at
threshold 14), where a child within budget must lower the radius: only the movers' merging
moves are generated there (one mover is the median), the others are accounted for by a
floor. A child's balls grow from its parent's (``Balls.after``). Both together: Threed5
14.4 -> 7.6 s, Bud2 14.5 -> 6.4 s, same states.

Walk checks: the walk bound (Bound 5) costs milliseconds, against a tenth of one for a
node, so IDA* asks it only at the states at most ``WALK_DEPTH`` moves from the start, and
only where it beats the cheap bound at the start. Measured (BENCHMARKS.md, "IDA* walk checks"):
refuting 16 moves on Bud3 takes 53 s with the check at the start only, 37 s at depth <= 1,
39 s at 2, 56 s at 3, 105 s at 4; where the walk bound does not beat the cheap one at the
start (Bud1, Bud2) the checks only cost.

IDA* (Korf, "Depth-first iterative-deepening: an optimal admissible tree search", 1985)
keeps a transposition table of proved lower bounds per state, so a state that failed with a
budget is not searched again with that budget or less (Reinefeld and Marsland, "Enhanced
iterative-deepening search", 1994). Children are tried in order of their bound, then of
regions merged. Memory: A* stores every generated position; IDA* only the table.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import operator
import time
from collections.abc import Callable, Iterator

from kamicp.bounds import (
    TETRAPOD_NODES,
    UNSOLVABLE,
    Current,
    contract,
    estimate,
    islands_bound_after,
    keep_levels_memory,
    kept_tripod_value,
    piece_radius,
    pivot_layer_bound,
    radius_after,
    radius_movers,
    solvable,
    tetrapods_bound,
    walks_bound,
    walks_bound_capped,
)
from kamicp.game.regions import RegionGraph
from kamicp.game.rules import Move
from kamicp.result import SearchOutcome
from kamicp.search.isomorphs import Classes
from kamicp.search.journal import Journal

INF = UNSOLVABLE
TABLE_LIMIT = 2_000_000  # transposition-table entries kept before the table is cleared
# A journal (--journal) keeps the table's bounds of the states at most this many moves deep:
# the parallel search's frontier depth at most (kamicp.search.parallel.MAX_SPLIT_DEPTH)
JOURNAL_DEPTH = 3
WALK_DEPTH = 1  # IDA* (free rules) asks the walk bound of the states this many moves deep or less
# IDA* (free rules, one piece) asks the tripod bound of a state once an iteration has run this
# many seconds, and then only at depths where a check is expected to save CHECK_RATIO times its
# cost (_Ida.tripods_due). While a check cost 0.1-0.2 s on 50-72 regions (NumPy levels), the
# checks of the start's children after 5 s made Bud2's portfolio 8.6 -> 28.3 s, hence 30 s.
# With the compiled levels (0.02-0.03 s) checks from the start of every iteration pay:
# `kamicp solve --solver idastar`, 30 s -> 0 s: Bud3 66.9 -> 38.2 s, Threed6 5.9 -> 2.7 s,
# Threegrid2 6.0 -> 2.4 s, Bud2 14.0 -> 14.4 s; Bud4 refuting 14: 116.6 -> 33.8 s.
TRIPOD_AFTER = 0.0
# Nor on pieces above this many regions (bounds.TRIPOD_NODES): a check on 152-173 regions
# costs 0.13-0.41 s (Threegrid5, Threegrid6, old_Threegrid6; 5-12 s with the NumPy levels).
CHECK_NODES = 200
# A check must be expected to save this many times its cost. The expected saving uses the mean
# time of unchecked states, which large subtrees dominate while the states a check cuts tend to
# be small ones, so it is an overestimate: at 2.0 Bud3's 17-move iteration also checked depth
# 10 (4,818 checks, 96 s of them) and took 176 s; at 5.0 it did not (94 s). Bud4's 14-move
# iteration checks the same depths 1-3 at both (237 s and 242 s).
CHECK_RATIO = 5.0
# One-core IDA* checks every state this many moves deep or less (the cost model then decides
# below): the model estimates a check's saving from the mean time of unchecked states, which
# the many small subtrees pull down, and it left depth 3 unchecked where checking it paid.
# Refutations, one core, 0 -> 3 (commit d4fef72, one after the other): Bud4 14 48.3 s /
# 68,556 states -> 22.6 s / 8,060; Threegrid4 11 347 s / 75,731 -> 285 s / 8,793; Bud2 13 the
# same 4,471 states (10.9 -> 12.6 s: noise). The parallel search keeps its own rule
# (kamicp.search.parallel: the levels above its tasks are checked where the workers can afford it).
FORCED_DEPTH = 3
# Only on boards of at most this many regions: a check's cost grows about as n^4, and on
# Threegrid5 (173 regions, 0.2-0.4 s a check) the forced checks made the refutation of 12
# 206 s / 147,506 states -> 894 s / 5,988 (commit fc7956b, one after the other); Threegrid4
# (111) gained, as above. Threegrid6 (152) and old_Threegrid6 (172) are not measured.
FORCED_NODES = 120
CHECK_GUESS = 0.25  # seconds a tripod check is assumed to take before one is measured
# The rule trusts a depth's mean time of unchecked states only after this many of them: once
# a depth is checked, no more unchecked states come in, so the first samples decide for the
# whole iteration. Through solve(), Threegrid5's first unchecked state two moves deep took
# 1.7 s (the others 0.014 s on average), every state at depth 2 was then checked (0.15 s
# each), and the refutation of 12 expanded 6,067 states in 400 s, unfinished, against
# 147,506 states in 206 s when called directly (BENCHMARKS.md). Only on boards above FORCED_NODES,
# where a check is costly: Bud4 (72 regions) refuting 14 gains from trusting the first sample
# (8,060 states, 19-21 s; 20,413-26,324 states, 27-39 s with 2, 3, 4 or 8 samples).
MIN_SAMPLES = 8
# IDA* asks the tetrapod bound (Bound 7) of the states at most this many moves deep whose
# tripod check did not cut them (``tetrapod_depth``): none by default. A check costs seconds
# (2.4-2.7 s on the children of Bud6's start, 68 regions, both cores busy; 13-14 s on
# Threegrid4's, 111), where a tripod check costs
# hundredths, so it only pays for proofs that run for many minutes: refuting 14 on Bud6, the
# tripod check cuts 12 of the start's 272 children and the tetrapod check 251 of the other
# 260; with it, two processes prove Bud6 in 615 s (1,177 s before the tetrapod levels got 2.5x
# faster) instead of 1,911-1,955 s (BENCHMARKS.md,
# "IDA* tetrapod checks").
TETRAPOD_DEPTH = 0
# With ``tetrapod_depth=AUTO`` (the default of ``solve``), no depth is checked up front; instead
# a state at most AUTO_DEPTH moves deep that no check cut is "rented": once its
# subtree has been searched for as long as a tetrapod check costs (the mean of those made so
# far, AUTO_GUESS seconds before the first) divided by the share of them that cut (one cut and
# one miss assumed beforehand), the check is made after all, and ends the subtree if it cuts
# (ski rental: a subtree that ends sooner never pays for a check, one that runs long pays at
# most about twice what checking it first would have). With ``workers`` > 1 the tasks are the
# start's children and each worker rents as one process does (search.parallel). Bud6 on one
# core: 332.6 s, against 315.3 s with depth 2 and no proof in 683 s without checks
# (BENCHMARKS.md, "Rented tetrapod checks").
AUTO = None
AUTO_DEPTH = 2
AUTO_GUESS = 1.0
# A depth whose rented states mostly ran long (at least half of AUTO_SAMPLES or more) has the
# rest of its states checked up front, as ``tetrapod_depth`` would: the rent is then waste.
AUTO_SAMPLES = 8
# ...and below a state whose check did not cut it (a miss), the states down to DEEPEST_DEPTH
# moves deep are checked up front: those met later at once, and those on the search path
# already (rented untimed: only such a miss makes their checks due) shallowest first. A state
# that survives its check is where a refutation spends its time, and the states below it,
# nearer the end, are cut far more often than renting their checks finds out. Bud6 on one
# core: 110.0 s, the checks of depths 1-5 cutting 98%, 93%, 95%, 98% and 100% of 190, 58,
# 59, 53 and 41 states, as with an explicit ``tetrapod_depth`` 5 (107-109 s); 232.1 s when
# only depths 1 and 2 were rented (60 s in, 2 of the 190 checks one move deep were made: the
# time goes below the one child of the start that its check does not cut). Why 5: with
# ``tetrapod_depth`` 3, 4, 5 and 6 two workers proved Bud6 in 91.7, 73.4, 62.7-65.9 and 64.3 s;
# with this rule on one process, 4: 121.2 s, 6: 107.7 s, no check 6 moves deep (BENCHMARKS.md,
# "Checks below a miss").
DEEPEST_DEPTH = 5
# IDA* tells its ``on_status`` watcher how it stands (iteration, states, checks, tasks) at most
# this often; the watcher decides what to print (``kamicp solve --progress-every``).
STATUS_EVERY = 1.0


class _Stop(Exception):
    """A node limit or the deadline was reached."""


class _Cut(Exception):
    """A rented state's tetrapod check cut it: unwind the search to that state."""

    def __init__(self, rental: _Rental, value: int):
        super().__init__()
        self.rental = rental
        self.value = value


class _Rental:
    """A state on the search path that may still get its tetrapod check (``AUTO``)."""

    __slots__ = ("cur", "key", "budget", "began", "open", "timed")

    def __init__(self, cur: Current, key: bytes, budget: int, timed: bool = True):
        self.cur = cur
        self.key = key  # the check caches' key of the state
        self.budget = budget
        self.began = time.monotonic()  # its subtree's clock, checks made below it left out
        self.open = True  # not yet checked
        # checked when its subtree has run long (within AUTO_DEPTH), else only when the
        # check of the state above it on the path misses (below AUTO_DEPTH)
        self.timed = timed


def frame(cur: Current, first: int, final_colour: int | None) -> tuple[bool, int | None]:
    """(alive, final colour) of a state whose pieces before ``first`` are finished.

    Finished pieces are never moved again, so each must be one node, all of one colour,
    which is then the final colour (and must match ``final_colour`` if given).
    """
    final = final_colour
    for piece in cur.islands[:first]:
        if len(piece) != 1:
            return False, final
        colour = cur.pos[piece[0]]
        if final is None:
            final = colour
        elif colour != final:
            return False, final
    return True, final


def moves(cur: Current, first: int, rules: str, final: int | None) -> list[tuple[Move, int]]:
    """The moves tried from a state, each with the first open piece after it.

    ``final`` is the colour the board must end in, when known. See the module docstring
    for why every omitted move can be left out without losing all optimal solutions.
    """
    if rules == "pivot":
        return [(m, 0) for m in _pivot_moves(cur, final)]
    out = []
    for i in range(first, len(cur.islands)):
        piece = cur.islands[i]
        if len(piece) == 1:
            v = piece[0]
            targets = range(cur.k) if final is None else (final,)
            out.extend(((v, c), i) for c in targets if c != cur.pos[v])
            continue
        for v in piece:
            out.extend(((v, c), i) for c in range(cur.k) if c != cur.pos[v])
        break  # a later piece can only be started once this one is finished
    return out


def _pivot_moves(cur: Current, final: int | None) -> list[Move]:
    p = cur.pivot
    if final is None:
        final = _others_colour(cur)
    near: dict[int, int] = {}
    for u in cur.adj[p]:
        near[cur.pos[u]] = near.get(cur.pos[u], 0) + 1
    if not near:  # the pivot's piece is one region: only the final recolouring remains
        return [(p, final)] if final is not None and final != cur.pos[p] else []
    home = cur.islands[cur.island_of[p]]
    total: dict[int, int] = {}
    for v in home:
        total[cur.pos[v]] = total.get(cur.pos[v], 0) + 1
    for c, count in sorted(near.items(), key=lambda item: -item[1]):
        if count == total[c] and c != final:
            return [(p, c)]  # absorbs the whole colour: some optimal solution does it now
    return [(p, c) for c in near]


def _others_colour(cur: Current) -> int | None:
    home = cur.island_of[cur.pivot]
    for i, piece in enumerate(cur.islands):
        if i != home:
            return cur.pos[piece[0]]
    return None


by_bound = operator.itemgetter(0, 1)  # children's order: bound, then most regions merged


def checkable(cur: Current) -> bool:
    """Is the tripod check asked of this state? One piece of at most :data:`CHECK_NODES`
    regions."""
    return len(cur.islands) == 1 and len(cur.islands[0]) <= CHECK_NODES


def tetrapods_apply(cur: Current, depth: int, tetrapod_depth: int) -> bool:
    """Does a :func:`checkable` state ``depth`` moves deep that its tripod check leaves get
    the tetrapod check? Within ``tetrapod_depth``, and on pieces of at most
    ``TETRAPOD_NODES`` regions (above, :func:`tetrapods_bound` would only
    give the tripod value back)."""
    return depth <= tetrapod_depth and len(cur.islands[0]) <= TETRAPOD_NODES


def tripod_value(cur: Current, budget: int, final_colour: int | None, deadline) -> int:
    """The tripod bound of a :func:`checkable` state, exact up to ``budget``."""
    finals = range(cur.k) if final_colour is None else (final_colour,)
    return kept_tripod_value(cur, cur.islands[0], finals, budget, deadline)


def rent_time(asked: float, cut: float, spent: float) -> float:
    """Seconds a rented subtree runs before its check is made, from the tetrapod checks made
    so far (``asked``, the ``cut`` among them, the seconds ``spent``): the mean time of a
    check (AUTO_GUESS before the first) over the share that cut, with one cut and one miss
    assumed beforehand."""
    cost = spent / asked if asked else AUTO_GUESS
    return cost * (asked + 2) / (cut + 1)


def _answers(value: int, cap: int, budget: int) -> bool:
    """Does a check's value computed with ``cap`` answer it at ``budget``: exact (at most
    its cap), or capped at the budget or above (then any value above it is as good)?"""
    return value <= cap or budget <= cap


def _key(cur: Current, first: int) -> bytes:
    return cur.pos + first.to_bytes(4, "little")


COLOUR_SLOTS = 256  # colours a last-move context can name (a palette is far smaller)


def last_move_context(v: int, merged: bool, old: int) -> int:
    """What the move just played on node ``v`` tells the next move (free rules, R5 and
    R6): the node, the colour ``old`` it had before, and whether it merged something, as one
    number for the table's keys (-1 there: no last move)."""
    return (v * COLOUR_SLOTS + old) * 2 + int(merged)


def _last_move(after: int | None) -> tuple[int, int, bool] | None:
    """(node, colour before, merged) of a :func:`last_move_context`, or None."""
    if after is None or after < 0:
        return None
    rest, merged = divmod(after, 2)
    v, old = divmod(rest, COLOUR_SLOTS)
    return v, old, bool(merged)


def _skipped(cur: Current, last: tuple[int, int, bool], near, v: int, c: int, gone) -> bool:
    """Is the move (v, c), merging the nodes ``gone``, left out after the last move
    ``last`` = (node, colour before, merged) of the same piece (``near``: that node and its
    neighbours)? Moves are put in order of (merges something, node): a merging move after
    a merging one as in R5; a move that merges nothing as early as it can stand, before
    the last move unless that move's node touches it and has or had the colour it takes
    (R6). Proofs in ``encodings/bounds.md``."""
    node, old, merged = last
    if v == node:  # after a move that merged nothing, two recolourings where one would do
        return not merged
    if gone:  # R5: independent of a merging last move and on a smaller node
        return merged and v < node and v not in near and near.isdisjoint(gone)
    if not merged and v > node:
        return False
    return not (v in cur.adj[node] and c in (old, cur.pos[node]))


class _Search:
    """What A* and IDA* share: the problem, the limits, the child generator."""

    def __init__(self, g, final_colour, node_limit, deadline):
        self.g = g
        self.rules = g.rules
        self.final_colour = final_colour
        self.node_limit = node_limit
        self.deadline = deadline
        self.nodes = 0

    def tick(self) -> None:
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise _Stop
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise _Stop

    def bound(self, cur: Current, first: int) -> int:
        alive, final = frame(cur, first, self.final_colour)
        if not alive:
            return INF
        return estimate(cur, self.rules, final)

    def children(self, cur: Current, first: int, after: int | None = None) -> list[list]:
        """[bound, -merged, move, first, child, radius] per move tried, best first.

        The bound is computed without building the child
        (:func:`~kamicp.bounds.islands_bound_after`,
        :func:`~kamicp.bounds.pivot_layer_bound`
        with ``colour``); ``child`` is None until :meth:`build` makes it, and ``radius``
        (free rules) seeds its radius cache.
        """
        return self.within(cur, first, after, None)[0]

    def within(
        self, cur: Current, first: int, after: int | None, budget: int | None
    ) -> tuple[list[list], int]:
        """(entries, floor): :meth:`children`, except that with a ``budget`` some children
        whose bound is certainly above ``budget - 1`` may be left out; ``floor`` is then a
        lower bound on 1 + bound of every child left out (INF when none is)."""
        _, final = frame(cur, first, self.final_colour)
        if self.rules == "free" and len(cur.islands) == 1:
            return self.one_piece_children(cur, final, after, budget)
        return self.general_children(cur, first, final, after), INF

    def general_children(
        self, cur: Current, first: int, final: int | None, after: int | None
    ) -> list[list]:
        """:meth:`children` in general: any rules, any number of pieces."""
        out = []
        near = None
        movers: dict[int, set[int] | None] = {}
        last = _last_move(after)
        if last is not None and self.rules == "free":
            near = cur.adj[last[0]] | {last[0]}
            piece = cur.island_of[last[0]]
        for (v, c), nxt in moves(cur, first, self.rules, final):
            gone = cur.merged(v, c)
            if near is not None and cur.island_of[v] == piece:
                if _skipped(cur, last, near, v, c, gone):
                    continue  # R5, R6: some optimal solution plays the moves otherwise
            merged = len(gone)
            if self.rules == "pivot":
                h = pivot_layer_bound(cur, final, c)
                out.append([h, -merged, (v, c), nxt, None, None])
                continue
            alive, final_after = frame(cur, nxt, self.final_colour)
            if not alive:
                continue
            i = cur.island_of[v]
            if i not in movers:
                movers[i] = radius_movers(cur, i)
            h, radius = islands_bound_after(cur, v, c, final_after, movers[i])
            out.append([h, -merged, (v, c), nxt, None, radius])
        out.sort(key=by_bound)
        return out

    def one_piece_children(
        self, cur: Current, final: int | None, after: int | None, budget: int | None = None
    ) -> tuple[list[list], int]:
        """:meth:`within` for free rules on one piece, the common case, inlined: the bound
        of a child is max(radius, colours left other than the final one), as
        :func:`kamicp.bounds.islands_bound_after` computes it (the tests compare both).

        When the radius r already equals ``budget`` (most IDA* nodes: the radius is the
        binding bound), a child within budget must lower the radius, so only the moves of
        :func:`kamicp.bounds.radius_movers` that merge something are generated; every other
        child keeps radius r, so 1 + its bound >= r + 1 (the floor).
        """
        pos, adj, k = cur.pos, cur.adj, cur.k
        radius = piece_radius(cur, 0)
        movers = radius_movers(cur, 0)
        counts = cur.colour_counts(0)
        present = sum(1 for n in counts.values() if n > 0)
        last = _last_move(after)
        near = None if last is None else adj[last[0]] | {last[0]}
        out = []
        targets = range(k) if final is None or len(cur.islands[0]) > 1 else (final,)
        nodes = cur.islands[0]
        floor = INF
        if budget is not None and movers is not None and radius >= budget:
            nodes = [v for v in nodes if v in movers]
            floor = radius + 1
        for v in nodes:
            old = pos[v]
            lone = counts.get(old, 0) == 1  # v's colour vanishes when v is recoloured
            by_colour: dict[int, list[int]] = {}
            for u in adj[v]:
                by_colour.setdefault(pos[u], []).append(u)
            for c in targets:
                if c == old:
                    continue
                gone = by_colour.get(c, ())
                if near is not None and _skipped(cur, last, near, v, c, gone):
                    continue  # R5, R6: some optimal solution plays the moves otherwise
                if floor < INF and not gone:
                    continue  # a recolouring keeps the radius: counted in the floor
                colours = present - lone + (counts.get(c, 0) == 0)
                if final is None or final == c or (final != old or not lone) and counts.get(final):
                    rest = colours - 1
                else:
                    rest = colours
                if gone and (movers is None or v in movers):
                    r = radius_after(cur, 0, (v, *gone))
                else:
                    r = radius
                out.append([max(r, rest), -len(gone), (v, c), 0, None, r])
        out.sort(key=by_bound)
        return out, floor

    def context(self, cur: Current, move: Move, minus_merged: int) -> int:
        """The :func:`last_move_context` of ``move`` played from ``cur`` (``minus_merged``:
        a :meth:`children` entry's minus the nodes it merges). Under pivot rules only the
        node: R5 and R6 are free-rules restrictions."""
        v, _ = move
        if self.rules != "free":
            return last_move_context(v, True, 0)  # one key per position, as before R6
        return last_move_context(v, minus_merged != 0, cur.pos[v])

    @staticmethod
    def build(cur: Current, entry: list) -> Current:
        """The child position of a :meth:`children` entry."""
        if entry[4] is None:
            v, c = entry[2]
            child = cur.play(v, c)
            if entry[5] is not None:
                i = cur.island_of[v]
                child.radii[i] = entry[5]  # its origin stays: its balls grow from ours
            entry[4] = child
        return entry[4]

    @staticmethod
    def key_of(cur: Current, entry: list) -> bytes:
        """The transposition key of a :meth:`children` entry's position."""
        if entry[4] is not None:
            return _key(entry[4], entry[3])
        v, c = entry[2]
        return cur.pos_after(v, c) + entry[3].to_bytes(4, "little")


def astar(
    g: RegionGraph,
    final_colour: int | None = None,
    max_moves: int | None = None,
    node_limit: int | None = None,
    deadline: float | None = None,
) -> SearchOutcome:
    """An optimal solution by A* with re-opening (admissible, not necessarily consistent,
    bounds), or what was proved when a limit stopped it.

    Same contract as :func:`kamicp.search.bfs.bfs`; when stopped, ``lower_bound`` is the least
    f = g + h still open (some state on an optimal path is open with its optimal g).
    ``node_limit`` counts expansions. Memory: every generated position.
    """
    if not solvable(g, None, final_colour):
        return SearchOutcome(None, UNSOLVABLE, True, 0)
    s = _Search(g, final_colour, node_limit, deadline)
    root = contract(g)
    h0 = s.bound(root, 0)
    if max_moves is not None and h0 > max_moves:
        return SearchOutcome(None, h0, True, 0)
    key0 = _key(root, 0)
    best_g = {key0: 0}
    parent: dict[bytes, tuple[bytes, Move] | None] = {key0: None}
    counter = itertools.count()
    heap = [(h0, 0, next(counter), key0, root.pos, 0)]
    cut = INF  # least f of a child dropped for exceeding max_moves
    try:
        while heap:
            f, gc, _, key, pos, first = heapq.heappop(heap)
            if gc > best_g[key]:
                continue  # a stale entry: the state was reached more cheaply since
            cur = contract(g, tuple(pos))
            if cur.is_solved(final_colour):
                path = _path(parent, key)
                return SearchOutcome(path, len(path), True, s.nodes)
            s.tick()
            for entry in s.children(cur, first):
                h, _, move, nxt = entry[:4]
                fc = gc + 1 + h
                if fc >= INF:
                    continue
                if max_moves is not None and fc > max_moves:
                    cut = min(cut, fc)
                    continue
                ckey = s.key_of(cur, entry)
                if gc + 1 < best_g.get(ckey, INF):
                    best_g[ckey] = gc + 1
                    parent[ckey] = (key, move)
                    heapq.heappush(heap, (fc, gc + 1, next(counter), ckey, ckey[:-4], nxt))
    except _Stop:
        open_f = min((e[0] for e in heap if e[1] <= best_g[e[3]]), default=INF)
        return SearchOutcome(None, min(open_f, cut, f), False, s.nodes)
    if max_moves is not None:
        return SearchOutcome(None, min(cut, UNSOLVABLE), True, s.nodes)
    return SearchOutcome(None, UNSOLVABLE, True, s.nodes)


def _path(parent: dict, key: bytes) -> list[Move]:
    out = []
    while parent[key] is not None:
        key, move = parent[key]
        out.append(move)
    out.reverse()
    return out


def idastar(
    g: RegionGraph,
    final_colour: int | None = None,
    max_moves: int | None = None,
    node_limit: int | None = None,
    deadline: float | None = None,
    *,
    lower: int | None = None,
    walk_depth: int | None = None,
    tripod_after: float | None = TRIPOD_AFTER,
    check_ratio: float = CHECK_RATIO,
    on_bound: Callable[[int], None] | None = None,
    workers: int = 1,
    tetrapod_depth: int | None = AUTO,
    on_status: Callable[[str], None] | None = None,
    journal: str | None = None,
    split_after: float | None = None,
) -> SearchOutcome:
    """An optimal solution by IDA* with a transposition table, or what was proved.

    Same contract as :func:`kamicp.search.bfs.bfs`. Each iteration searches depth-first within a
    threshold that is a proved lower bound (the start's bound, then the least bound that
    exceeded the previous threshold), so the first solution found is optimal; when stopped,
    ``lower_bound`` is the current threshold. ``node_limit`` counts expansions.

    ``lower``, if given, must be a *proved* lower bound on the optimum (say, the horizon
    after the last one a SAT model refuted): the first threshold is then at least that, so
    the iterations below it, which could only fail, are skipped. The driver passes the
    start's best bound.

    Free rules: the first threshold is also at least the start's tripod bound (Bound 6).
    ``walk_depth`` (free rules): states at most this many moves from the start are also cut
    by the walk bound (Bound 5), too costly for every node. None (the default) means
    :data:`WALK_DEPTH` when the walk bound beats the cheap bound at the start and no walk
    checks otherwise (where it does not, the checks were measured to cost more than they
    cut); -1 means none.

    ``tripod_after`` (free rules, one piece of at most :data:`CHECK_NODES` regions): once an
    iteration has run that many seconds, a state it then reaches is first cut by the tripod
    bound (Bound 6) if that exceeds the moves left, at the depths where a check is expected
    to save :data:`CHECK_RATIO` times its cost, as measured during the iteration (see
    ``_Ida.tripods_due``); None means never (0: from the start of every iteration).
    ``check_ratio`` replaces :data:`CHECK_RATIO` (0: check at every depth once one state of
    it has been searched without a check; only the time changes, never a value).

    ``on_bound``, if given, is called with every threshold an iteration starts with: each is
    a proved lower bound on the optimum (a portfolio uses them before the search ends).

    ``tetrapod_depth`` (free rules, one piece of at most ``TETRAPOD_NODES``
    regions): a state at most this many moves from the start that gets the tripod check
    and is not cut by it also gets the tetrapod check (Bound 7, seconds on 70 regions; only
    the time changes, never a value). 0 (:data:`TETRAPOD_DEPTH`): none. :data:`AUTO` (None,
    the default): none up front, but a state at most :data:`AUTO_DEPTH` moves deep whose
    subtree runs long gets the check then (ski rental, see ``_Ida.rent_if_due``); with
    ``workers`` > 1, in each worker (:func:`kamicp.search.parallel.parallel_idastar`).

    ``workers`` > 1: iterations that run over a second (``split_after`` seconds, if given)
    are split over that many processes (:func:`kamicp.search.parallel.parallel_idastar`).

    ``on_status``, if given, is called at most every :data:`STATUS_EVERY` seconds with one
    line on how the search stands (``_Ida.status``): the iteration's threshold and time,
    states expanded, checks asked and what they cut, and with ``workers`` the tasks
    answered. Only a report: it changes nothing the search does.

    ``journal``: the path of a journal file (:mod:`kamicp.search.journal`, made if missing): the
    bounds it holds for this board, final colour and version of kamicp are taken first, and
    those this run proves are written to it, so that a stopped run can be continued.
    """
    if workers > 1:
        from kamicp.search.parallel import parallel_idastar

        return parallel_idastar(
            g,
            final_colour,
            max_moves,
            node_limit,
            deadline,
            workers=workers,
            lower=lower,
            walk_depth=walk_depth,
            tripod_after=tripod_after,
            check_ratio=check_ratio,
            on_bound=on_bound,
            tetrapod_depth=tetrapod_depth,
            on_status=on_status,
            journal=journal,
            split_after=split_after,
        )
    if not solvable(g, None, final_colour):
        return SearchOutcome(None, UNSOLVABLE, True, 0)
    ida = _Ida(g, final_colour, node_limit, deadline, walk_depth)
    ida.configure(on_bound, tripod_after, check_ratio, tetrapod_depth, on_status)
    keep_levels_memory(ida.tetrapod_depth > 0 or ida.auto_tetrapods)  # checks one after another
    try:
        with journalled(ida, journal):
            return ida.run(max_moves, lower or 0)
    finally:
        keep_levels_memory(False)


@contextlib.contextmanager
def journalled(ida: _Ida, path: str | None) -> Iterator[None]:
    """Run ``ida`` with the journal at ``path`` (none if None): what it holds is taken
    first, and it is committed and closed however the run ends."""
    if path is None:
        yield
        return
    with Journal(path, ida.g, ida.final_colour) as journal:
        ida.learn(journal)
        try:
            yield
        finally:
            ida.journal = None


class _Ida(_Search):
    def __init__(self, g, final_colour, node_limit, deadline, walk_depth=None):
        super().__init__(g, final_colour, node_limit, deadline)
        self.table: dict[bytes, int] = {}  # state -> proved lower bound on its distance
        self.walk_depth = -1 if g.rules != "free" else walk_depth
        self.walk_budget = INF  # nodes with at least this budget get the walk check
        self.on_bound: Callable[[int], None] | None = None
        self.path: list[Move] = []
        self.tripod_after: float | None = None
        self.check_ratio = CHECK_RATIO
        self.cheap_checks = cheap_checks = g.n <= FORCED_NODES
        # states this deep or less are always checked (where checks are cheap)
        self.forced_depth = FORCED_DEPTH if cheap_checks else 0
        # unchecked states a depth needs before its mean time is trusted
        self.min_samples = 1 if cheap_checks else MIN_SAMPLES
        self.threshold = 0  # of the current iteration: a node's depth is threshold - budget
        self.split_budget = -1  # the budget of the states handed to workers (search.parallel)
        self.iteration_began = 0.0
        self.checks = [0, 0.0]  # tripod checks asked, seconds they took
        self.cuts: dict[int, list] = {}  # depth -> [tripod checks asked, states they cut]
        self.tripod_values: dict[bytes, tuple[int, int]] = {}  # state -> (value, its cap)
        self.tetrapod_depth = TETRAPOD_DEPTH
        self.auto_tetrapods = False  # rent the tetrapod checks (AUTO)
        self.rentals: list[_Rental] = []  # the rented states on the path, shallowest first
        self.rented: dict[int, list] = {}  # depth -> [states rented, their checks made]
        # AUTO: missed[d], the state d moves deep on the search path was checked and not cut
        self.missed = [False] * (DEEPEST_DEPTH + 1)
        self.tetrapod_values: dict[bytes, tuple[int, int]] = {}  # state -> (value, its cap)
        self.tetrapod_checks = [0, 0, 0.0]  # tetrapod checks asked, states cut, seconds
        self.isomorphs = Classes()  # the classes of the states given a tetrapod check
        self.class_tetrapods: dict[int, tuple[int, int]] = {}  # class -> (value, its cap)
        self.shared_checks = 0  # checks answered by an isomorphic state's
        # depth -> [states searched without a check, seconds they took]
        self.subtrees: dict[int, list] = {}
        self.on_status: Callable[[str], None] | None = None
        self.journal: Journal | None = None  # where proved bounds are also written
        self.journal_taken = 0  # entries read from it at the start
        self.next_status = time.monotonic() + STATUS_EVERY

    def configure(self, on_bound, tripod_after, check_ratio, tetrapod_depth, on_status) -> None:
        """The options of :func:`idastar` (the parallel search takes the same)."""
        self.on_bound = on_bound
        self.tripod_after = tripod_after
        self.check_ratio = check_ratio
        self.auto_tetrapods = tetrapod_depth is AUTO and self.g.rules == "free"
        self.tetrapod_depth = 0 if tetrapod_depth is AUTO else tetrapod_depth
        self.on_status = on_status

    def run(self, max_moves: int | None, lower: int = 0) -> SearchOutcome:
        root = contract(self.g)
        cheap = self.bound(root, 0)
        threshold = max(lower, cheap)
        if self.walk_depth is None or self.walk_depth >= 0:
            walks = walks_bound(root, self.final_colour)  # no piece is finished at the root
            if self.walk_depth is None:
                self.walk_depth = WALK_DEPTH if walks > cheap else -1
            threshold = max(threshold, walks)
        if self.g.rules == "free":
            # the tripod bound (Bound 6) only at the root: it costs seconds on big pieces; it
            # is cached, so a driver that computed it already pays nothing here; so is the
            # tetrapod bound (Bound 7), which only a driver asks (kamicp.solving.solve)
            threshold = max(threshold, tetrapods_bound(root, self.final_colour, cached_only=True))
        while True:
            if threshold >= INF:
                return SearchOutcome(None, UNSOLVABLE, True, self.nodes)
            if max_moves is not None and threshold > max_moves:
                return SearchOutcome(None, threshold, True, self.nodes)
            self.walk_budget = threshold - self.walk_depth if self.walk_depth >= 0 else INF
            if self.on_bound is not None:
                self.on_bound(threshold)
            self.threshold = threshold
            self.iteration_began = time.monotonic()
            self.checks, self.cuts, self.subtrees = [0, 0.0], {}, {}
            try:
                found = self.iterate(root, threshold)
            except _Stop:
                return SearchOutcome(None, threshold, False, self.nodes)
            if found <= threshold:
                self.path.reverse()
                return SearchOutcome(self.path, len(self.path), True, self.nodes)
            threshold = found

    def iterate(self, root: Current, threshold: int) -> int:
        """One iteration: :meth:`dfs` from the start (:mod:`kamicp.search.parallel` splits it)."""
        return self.dfs(root, 0, threshold, None)

    def tick(self) -> None:
        super().tick()
        self.report_if_due()
        if self.rentals:
            self.rent_if_due()

    def rent(self, cur: Current, first: int, budget: int, depth: int) -> _Rental | int | None:
        """With AUTO: a state at most DEEPEST_DEPTH moves deep whose tetrapod check may still
        pay, as a rental to put on the path (timed within AUTO_DEPTH; below it, due only
        when the check of the state above it misses); or its value, when its check is made
        now and cuts it (the caches answer it, the state above it was checked and missed, or
        this depth's rentals mostly ran long); else None."""
        below_miss = 1 < depth <= DEEPEST_DEPTH and self.missed[depth - 1]
        if depth <= DEEPEST_DEPTH:
            self.missed[depth] = False  # a new state at this depth: not checked yet
        if not (self.auto_tetrapods and depth >= 1 and checkable(cur)):
            return None
        if not tetrapods_apply(cur, depth, DEEPEST_DEPTH):
            return None
        key = _key(cur, first)
        timed = depth <= AUTO_DEPTH
        rented, checked = self.rented.get(depth, (0, 0))
        # checked now when the caches answer it, when its parent's check missed, or when this
        # depth's rentals mostly ran long
        if (
            _answers(*self.tetrapod_values.get(key, (0, -1)), budget)
            or below_miss
            or (timed and rented >= AUTO_SAMPLES and 2 * checked >= rented)
        ):
            value = self.tetrapod_check(cur, key, budget)
            if value > budget:
                return value
            self.note_miss(depth)
            return None
        return _Rental(cur, key, budget, timed)

    def note_miss(self, depth: int) -> None:
        """The state ``depth`` moves deep on the search path was checked, and not cut: its
        children get their checks up front (within DEEPEST_DEPTH)."""
        if depth <= DEEPEST_DEPTH:
            self.missed[depth] = True

    def rent_after(self) -> float:
        """Seconds a rented subtree runs before its check is made (:func:`rent_time`)."""
        return rent_time(*self.rent_statistics())

    def rent_statistics(self) -> tuple[float, float, float]:
        """The tetrapod checks the rents are timed from: (asked, cut, seconds) of this
        search's (:mod:`kamicp.search.parallel`'s workers share theirs)."""
        return self.tetrapod_tally()

    def states_tally(self) -> float:
        """The states expanded since the start."""
        return self.nodes

    def tripod_tally(self) -> tuple[float, float]:
        """The iteration's tripod checks so far: (asked, cut)."""
        return self.checks[0], sum(entry[1] for entry in self.cuts.values())

    def tetrapod_tally(self) -> tuple[float, float, float]:
        """The run's tetrapod checks so far: (asked, cut, seconds)."""
        asked, cut, spent = self.tetrapod_checks
        return asked, cut, spent

    def rent_if_due(self) -> None:
        """Check the shallowest rented state whose subtree has run :meth:`rent_after`; if
        the check cuts it, unwind to it (:class:`_Cut`)."""
        now = time.monotonic()
        after = self.rent_after()
        for i, rental in enumerate(self.rentals):
            if rental.open and rental.timed and now - rental.began >= after:
                self.check_rented(i)
                return

    def check_rented(self, i: int) -> None:
        """Make the tetrapod check of the ``i``-th rented state on the path now; if it
        cuts the state, unwind to it (:class:`_Cut`)."""
        rental = self.rentals[i]
        rental.open = False
        began = time.monotonic()
        value = self.tetrapod_check(rental.cur, rental.key, rental.budget)
        spent = time.monotonic() - began
        for deeper in self.rentals[i + 1 :]:
            deeper.began += spent  # their clocks leave this check out
        if value > rental.budget:
            raise _Cut(rental, value)
        depth = self.threshold - rental.budget
        self.note_miss(depth)
        # the state below it on the path was met before this miss: its check is due now
        if i + 1 < len(self.rentals):
            below = self.rentals[i + 1]
            if below.open and self.threshold - below.budget == depth + 1:
                self.check_rented(i + 1)

    def report_if_due(self) -> None:
        """:meth:`report`, if someone listens and a report is due."""
        if self.on_status is not None and time.monotonic() >= self.next_status:
            self.report()

    def report(self) -> None:
        """Tell ``on_status`` how the search stands, and when to tell it next."""
        self.next_status = time.monotonic() + STATUS_EVERY
        self.on_status(self.status())

    def status(self) -> str:
        """How the search stands, in one line: the iteration (its threshold, the moves it
        looks for a solution within, and how long it has run), the states expanded since the
        start, the tripod checks of the iteration and the tetrapod checks of the run, each
        with the states it cut."""
        seconds = time.monotonic() - self.iteration_began
        asked, cut = self.tripod_tally()
        parts = [
            f"searching {self.threshold} moves for {seconds:.0f} s",
            f"{self.states_tally():,.0f} states",
            f"tripod checks {asked:,.0f} ({cut:,.0f} cut)",
        ]
        asked, cut, spent = self.tetrapod_tally()
        if self.tetrapod_depth > 0 or asked:
            parts.append(f"tetrapod checks {asked:,.0f} ({cut:,.0f} cut, {spent:.0f} s)")
        if self.shared_checks:
            parts.append(f"{self.shared_checks:,} checks shared by isomorphic states")
        if self.journal is not None:
            taken, written = self.journal_taken, self.journal.written
            parts.append(f"journal {taken:,} entries taken, {written:,} written")
        return "; ".join(parts)

    def frontier(self, key: bytes, cur: Current, first: int, budget: int, after) -> int | None:
        """Where :mod:`kamicp.search.parallel` hands a state to a worker: its value, or None to
        search it here (always, on one core)."""
        return None

    def walk_check(self, cur: Current, first: int, budget: int) -> int:
        """The walk bound of a state, exact up to ``budget`` (above it, some bound that
        exceeds ``budget``): Bound 5, too costly for every node, so it is asked only within
        ``walk_depth`` moves of the root."""
        alive, final = frame(cur, first, self.final_colour)
        if not alive:
            return INF
        return walks_bound_capped(cur, final, budget)

    def tripods_due(self, depth: int) -> bool:
        """Ask the tripod check at this state, ``depth`` moves from the start? After
        ``tripod_after`` seconds of the iteration, where a check is expected to save
        CHECK_RATIO times its cost: (the share of the checks at this depth that cut, with
        one cut and one miss assumed beforehand) x (the mean time of the states of this depth
        searched without a check) >= CHECK_RATIO x (the mean time of a check, CHECK_GUESS
        before the first). The times of states that a check failed to cut are not used: they
        are biased towards large subtrees. The start's children are checked even before one
        of them has been searched: they are few, and the first may run for minutes. A
        depth's mean time is trusted after ``min_samples`` unchecked states (MIN_SAMPLES on
        boards above FORCED_NODES regions, else 1; before that, only the start's children).
        The states at most ``forced_depth`` moves deep are all checked (FORCED_DEPTH, on
        boards of at most FORCED_NODES regions).
        """
        if not self.tripods_apply(depth):
            return False
        if time.monotonic() - self.iteration_began < self.tripod_after:
            return False
        if depth <= self.forced_depth:
            return True
        searched, search_time = self.subtrees.get(depth, (0, 0.0))
        if searched < self.min_samples:
            return depth == 1
        asked, cut = self.cuts.get(depth, (0, 0))
        checks, check_time = self.checks
        cost = check_time / checks if checks else CHECK_GUESS
        return (cut + 1) / (asked + 2) * search_time / searched >= self.check_ratio * cost

    def tripods_apply(self, depth: int) -> bool:
        """May a state ``depth`` moves from the start get the tripod check at all (free
        rules, checks not turned off, not the start)?"""
        return self.tripod_after is not None and self.g.rules == "free" and depth >= 1

    def searched(self, depth: int, began: float) -> None:
        """A state ``depth`` moves from the start was searched without a check from
        ``began``."""
        entry = self.subtrees.setdefault(depth, [0, 0.0])
        entry[0] += 1
        entry[1] += time.monotonic() - began

    def tripod_check(self, cur: Current, first: int, budget: int, depth: int) -> int | None:
        """The tripod bound of a one-piece state, exact up to ``budget`` (above it, some
        bound that exceeds ``budget``); None (not asked) on boards of several pieces or
        above :data:`CHECK_NODES` regions."""
        if not checkable(cur):
            return None
        # the same position is met again after other last moves (the table's key differs)
        key = _key(cur, first)
        value, cap = self.tripod_values.get(key, (0, -1))
        if not _answers(value, cap, budget):
            began = time.monotonic()
            value = tripod_value(cur, budget, self.final_colour, self.deadline)
            self.checked(key, budget, value, time.monotonic() - began, depth)
        if value <= budget and tetrapods_apply(cur, depth, self.tetrapod_depth):
            value = max(value, self.tetrapod_check(cur, key, budget))
        return value

    def check_cached(self, cur: Current, key: bytes, budget: int, depth: int) -> bool:
        """Would :meth:`tripod_check` answer this state from its caches alone (filled by a
        journal, say), computing nothing?"""
        value, cap = self.tripod_values.get(key, (0, -1))
        if not _answers(value, cap, budget):
            return False
        if value > budget or not tetrapods_apply(cur, depth, self.tetrapod_depth):
            return True
        return _answers(*self.tetrapod_values.get(key, (0, -1)), budget)

    def tetrapod_check(self, cur: Current, key: bytes, budget: int) -> int:
        """The tetrapod bound (Bound 7) of a one-piece state, exact up to ``budget`` (above
        it, some bound that exceeds ``budget``); kept per state, as the tripod checks, and
        per class of isomorphic states (:mod:`kamicp.search.isomorphs`: the bound is a function of
        the coloured graph, and a check costs seconds where naming the class costs ms)."""
        value, cap = self.tetrapod_values.get(key, (0, -1))
        if _answers(value, cap, budget):
            return value
        like = self.isomorphs.index(cur)
        value, cap = self.class_tetrapods.get(like, (0, -1))
        if _answers(value, cap, budget):
            self.store(self.tetrapod_values, "tetrapods", key, value, cap)
            self.shared_checks += 1
            return value
        began = time.monotonic()
        value = tetrapods_bound(cur, self.final_colour, budget, self.deadline, peel=True)
        if self.deadline is not None and time.monotonic() >= self.deadline:
            return value  # maybe from the levels done before the deadline: not kept
        self.kept_tetrapods(key, budget, value, time.monotonic() - began)
        self.class_tetrapods[like] = (value, budget)
        return value

    def copied(self, key: bytes, budget: int, value: int, tetrapods: tuple | None) -> None:
        """Keep, for a state isomorphic to one just checked at ``budget``, that check's
        tripod value and (``tetrapods``: (value, seconds)) tetrapod value; not counted as
        checks, so the rule that decides where checks pay learns from real ones only."""
        self.store(self.tripod_values, "tripods", key, value, budget)
        if tetrapods is not None:
            self.store(self.tetrapod_values, "tetrapods", key, tetrapods[0], budget)
        self.shared_checks += 1

    def store(self, values: dict, kind: str, key: bytes, value: int, cap: int) -> None:
        """Keep a check's value (exact up to ``cap``) in its cache (emptied when full) and in
        the journal."""
        if len(values) >= TABLE_LIMIT:
            values.clear()
        values[key] = (value, cap)
        self.journal_check(kind, key, value, cap)

    def kept_tetrapods(self, key: bytes, budget: int, value: int, seconds: float) -> None:
        """Keep a tetrapod check's value (capped at ``budget``) and what it cost and cut."""
        self.store(self.tetrapod_values, "tetrapods", key, value, budget)
        self.tetrapod_checks[0] += 1
        self.tetrapod_checks[1] += value > budget
        self.tetrapod_checks[2] += seconds

    def checked(self, key: bytes, budget: int, value: int, seconds: float, depth: int) -> None:
        """Keep a tripod check's value (capped at ``budget``) and what it cost and cut."""
        self.store(self.tripod_values, "tripods", key, value, budget)
        self.checks[0] += 1
        self.checks[1] += seconds
        entry = self.cuts.setdefault(depth, [0, 0])
        entry[0] += 1
        entry[1] += value > budget

    def keep(self, key: bytes, value: int, depth: int) -> None:
        """Keep a state's proved lower bound in the table, and in the journal if the state
        is at most JOURNAL_DEPTH moves deep (deeper ones are many, and cheap to find again)."""
        self.table[key] = value
        if self.journal is not None and depth <= JOURNAL_DEPTH and self.journalling():
            self.journal.bound(key, value)

    def journalling(self) -> bool:
        """Are the values this search keeps now proved ones (the journal's condition)? Always
        on one core; :mod:`kamicp.search.parallel` says when not."""
        return True

    def journal_check(self, kind: str, key: bytes, value: int, cap: int) -> None:
        """Write a check's value to the journal, unless it was cut short by the deadline
        (then maybe a weak bound that claims to be exact up to its cap)."""
        if self.journal is None:
            return
        if self.deadline is not None and time.monotonic() >= self.deadline:
            return
        self.journal.check(kind, key, value, cap)

    def learn(self, journal: Journal) -> None:
        """Take what ``journal`` holds for this search into the table and the check caches."""
        learnt = journal.load()
        self.table.update(learnt.bounds)
        self.tripod_values.update(learnt.tripods)
        self.tetrapod_values.update(learnt.tetrapods)
        self.journal = journal
        self.journal_taken = len(learnt)

    def dfs(self, cur: Current, first: int, budget: int, after: int | None) -> int:
        """A value <= ``budget`` when a solution within ``budget`` was found (its moves are
        pushed on ``self.path``, last first); else a proved lower bound > ``budget``."""
        if cur.is_solved(self.final_colour):
            return 0
        # The last move's context is part of the key: what is pruned below depends on it (R5, R6).
        key = _key(cur, first) + (-1 if after is None else after).to_bytes(4, "little", signed=True)
        known = self.table.get(key, 0)
        if known > budget:
            return known
        if budget == self.split_budget:  # several cores: the state is a worker's
            value = self.frontier(key, cur, first, budget, after)
            if value is not None:
                return value
        self.tick()
        depth = self.threshold - budget
        if budget >= self.walk_budget:
            w = self.walk_check(cur, first, budget)
            if w > budget:
                self.keep(key, max(known, w), depth)
                return w
        tripods = self.tripod_check(cur, first, budget, depth) if self.tripods_due(depth) else None
        if tripods is not None and tripods > budget:
            self.keep(key, max(known, tripods), depth)
            return tripods
        rental = self.rent(cur, first, budget, depth)
        if isinstance(rental, int):
            self.keep(key, max(known, rental), depth)
            return rental
        if rental is None:
            return self.children(cur, first, budget, after, key, known, depth, tripods)
        self.rentals.append(rental)
        ran_short = False
        try:
            value = self.children(cur, first, budget, after, key, known, depth, tripods)
            ran_short = rental.open
            return value
        except _Cut as cut:
            if cut.rental is not rental:
                raise
            self.keep(key, max(known, cut.value), depth)
            return cut.value
        finally:
            self.rentals.pop()
            # a state unwound (an ancestor's cut, a give-way, the deadline) before its check
            # fell due tells nothing of how long it would have run: not counted
            if rental.timed and (ran_short or not rental.open):
                entry = self.rented.setdefault(depth, [0, 0])
                entry[0] += 1
                entry[1] += not rental.open

    def children(self, cur, first, budget, after, key, known, depth, tripods) -> int:
        """The rest of :meth:`dfs`: search the children of a state that no check cut."""
        began = time.monotonic()
        # Children in the order of their own bounds; the table's bounds (learnt in failed
        # iterations) only cut off, since ordering by them was found to hurt. Children
        # certainly over budget may be left out; ``best`` starts at their floor.
        entries, best = self.within(cur, first, after, budget)
        for entry in entries:
            h, _, move, nxt = entry[:4]
            context = self.context(cur, move, entry[1])
            if 1 + h <= budget:
                child_key = self.key_of(cur, entry) + context.to_bytes(4, "little", signed=True)
                h = max(h, self.table.get(child_key, 0))
            if 1 + h > budget:
                best = min(best, 1 + h)
                continue
            r = self.dfs(self.build(cur, entry), nxt, budget - 1, context)
            if r <= budget - 1:
                self.path.append(move)
                return r + 1
            best = min(best, 1 + r)
        if len(self.table) >= TABLE_LIMIT:
            self.table.clear()  # memory: forgetting bounds only costs time
        self.keep(key, max(known, best), depth)
        if tripods is None:  # only the times of unchecked states estimate what a cut saves
            self.searched(depth, began)
        return best
