"""The search base that A* and IDA* share: the problem, the limits, and the children of a state.

Both search the current region graph (:class:`~kamicp.bounds.Current`), updated move by move.
Only admissible bounds prune, and only the move restrictions of :mod:`kamicp.search.moves`
apply. A child's bound comes from its parent's balls without building the child, and its
radius is recomputed only for the few moves that can lower it
(:func:`~kamicp.bounds.radius_movers`). At a *radius-tight* state (radius = moves left, most
of IDA*'s states) a child within budget must lower the radius, so only the movers' merging
moves are generated there; the others are accounted for by a floor. Children are tried in
order of their bound, then of regions merged.

Examples
--------
>>> from kamicp.bounds import contract
>>> from kamicp.game.regions import from_edges
>>> g = from_edges([0, 1, 0], [(0, 1), (1, 2)])
>>> Search(g, None, None, None).children(contract(g), 0)
[Child(0, -2, (1, 0), 0), Child(1, -1, (0, 1), 0), Child(1, -1, (2, 1), 0)]
"""

from __future__ import annotations

import operator

from kamicp.bounds import (
    UNSOLVABLE,
    Current,
    estimate,
    islands_bound_after,
    piece_radius,
    pivot_layer_bound,
    radius_after,
    radius_movers,
)
from kamicp.game.rules import Move
from kamicp.procs.deadline import Deadline, LimitReached
from kamicp.search.moves import (
    frame,
    last_move,
    last_move_context,
    moves,
    skipped,
    state_key,
    state_key_of,
)

__all__ = ["INF", "Child", "Search", "by_bound"]

INF = UNSOLVABLE


class Child:
    """One move from a state, as :meth:`Search.children` lists them.

    ``bound`` is a lower bound on the child's distance, computed without making the child;
    ``minus_merged`` minus the regions the move merges (the order's tie-break); ``move`` the
    move; ``first`` the child's first open piece; ``state`` the child's position once
    :meth:`Search.build` has made it (None before); ``radius`` the radius of the moved
    piece after the move, where known (free rules), which seeds the child's radius cache.
    """

    __slots__ = ("bound", "minus_merged", "move", "first", "state", "radius")

    def __init__(self, bound: int, minus_merged: int, move: Move, first: int, radius=None):
        self.bound = bound
        self.minus_merged = minus_merged
        self.move = move
        self.first = first
        self.state: Current | None = None
        self.radius = radius

    def __repr__(self) -> str:
        return f"Child({self.bound}, {self.minus_merged}, {self.move}, {self.first})"


by_bound = operator.attrgetter("bound", "minus_merged")  # the order: bound, most merged


class Search:
    """What A* and IDA* share: the problem, the limits, the child generator.

    Parameters
    ----------
    g : RegionGraph
        The board.
    final_colour : int or None
        The colour the board must end in, if required.
    node_limit : int or None
        States expanded before :class:`~kamicp.procs.deadline.LimitReached`.
    deadline : float, Deadline or None
        A ``time.monotonic()`` value, or a :class:`~kamicp.procs.deadline.Deadline`.
    """

    def __init__(self, g, final_colour, node_limit, deadline):
        self.g = g
        self.rules = g.rules
        self.final_colour = final_colour
        self.node_limit = node_limit
        # the bounds' compiled loops take the bare number, ``self.deadline.at``
        self.deadline = deadline if isinstance(deadline, Deadline) else Deadline(deadline)
        self.nodes = 0

    def tick(self) -> None:
        """Count a state expanded; raise :class:`~kamicp.procs.deadline.LimitReached` past
        the node limit or the deadline."""
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise LimitReached
        self.deadline.check()

    def bound(self, cur: Current, first: int) -> int:
        """The cheap admissible bound of a state (INF when its finished pieces disagree)."""
        alive, final = frame(cur, first, self.final_colour)
        if not alive:
            return INF
        return estimate(cur, self.rules, final)

    def children(self, cur: Current, first: int, after: int | None = None) -> list[Child]:
        """A :class:`Child` per move tried, best first.

        The bound is computed without building the child
        (:func:`~kamicp.bounds.islands_bound_after`,
        :func:`~kamicp.bounds.pivot_layer_bound` with the move's colour).
        """
        return self.within(cur, first, after, None)[0]

    def within(
        self, cur: Current, first: int, after: int | None, budget: int | None
    ) -> tuple[list[Child], int]:
        """(entries, floor): :meth:`children`, except that with a ``budget`` some children
        whose bound is certainly above ``budget - 1`` may be left out; ``floor`` is then a
        lower bound on 1 + bound of every child left out (INF when none is)."""
        _, final = frame(cur, first, self.final_colour)
        if self.rules == "free" and len(cur.islands) == 1:
            return self.one_piece_children(cur, final, after, budget)
        return self.general_children(cur, first, final, after), INF

    def general_children(
        self, cur: Current, first: int, final: int | None, after: int | None
    ) -> list[Child]:
        """:meth:`children` in general: any rules, any number of pieces."""
        out = []
        near = None
        movers: dict[int, set[int] | None] = {}
        last = last_move(after)
        if last is not None and self.rules == "free":
            near = cur.adj[last[0]] | {last[0]}
            piece = cur.island_of[last[0]]
        for (v, c), nxt in moves(cur, first, self.rules, final):
            gone = cur.merged(v, c)
            if near is not None and cur.island_of[v] == piece:
                if skipped(cur, last, near, v, c, gone):
                    continue  # R5, R6: some optimal solution plays the moves otherwise
            merged = len(gone)
            if self.rules == "pivot":
                h = pivot_layer_bound(cur, final, c)
                out.append(Child(h, -merged, (v, c), nxt))
                continue
            alive, final_after = frame(cur, nxt, self.final_colour)
            if not alive:
                continue
            i = cur.island_of[v]
            if i not in movers:
                movers[i] = radius_movers(cur, i)
            h, radius = islands_bound_after(cur, v, c, final_after, movers[i])
            out.append(Child(h, -merged, (v, c), nxt, radius))
        out.sort(key=by_bound)
        return out

    def one_piece_children(
        self, cur: Current, final: int | None, after: int | None, budget: int | None = None
    ) -> tuple[list[Child], int]:
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
        last = last_move(after)
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
                if near is not None and skipped(cur, last, near, v, c, gone):
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
                out.append(Child(max(r, rest), -len(gone), (v, c), 0, r))
        out.sort(key=by_bound)
        return out, floor

    def context(self, cur: Current, move: Move, minus_merged: int) -> int:
        """The :func:`last_move_context` of ``move`` played from ``cur`` (``minus_merged``:
        a :meth:`children` entry's minus the nodes it merges). Under pivot rules only the
        node: R5 and R6 are free-rules restrictions."""
        v, _ = move
        if self.rules != "free":
            return last_move_context(v, True, 0)  # one key per position: R6 does not apply
        return last_move_context(v, minus_merged != 0, cur.pos[v])

    @staticmethod
    def build(cur: Current, child: Child) -> Current:
        """The position of a :meth:`children` child (made once, then kept in it)."""
        if child.state is None:
            v, c = child.move
            state = cur.play(v, c)
            if child.radius is not None:
                state.radii[cur.island_of[v]] = (
                    child.radius
                )  # its origin stays: its balls grow from ours
            child.state = state
        return child.state

    @staticmethod
    def key_of(cur: Current, child: Child) -> bytes:
        """The transposition key of a :meth:`children` child's position."""
        if child.state is not None:
            return state_key(child.state, child.first)
        v, c = child.move
        return state_key_of(cur.pos_after(v, c), child.first)
