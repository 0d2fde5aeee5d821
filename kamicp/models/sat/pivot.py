"""The CNF encoding of the pivot rules (Flood-It) over a horizon of T moves: the flood.

``encodings/sat.md``, "Pivot rules": the flooded set grows monotonically and a region outside
it keeps its starting colour, so one flood colour ``('c', t, c)`` per step and one flag
``('fl', t, r)`` per region and step suffice. Bound: the colours still needed ("Colours");
only the last move may flood nothing ("Symmetry breaking: commuting moves and pointless
pairs").

Size: O((n + m) k T) variables and clauses (n regions, m edges, k colours; sat.md, "Sizes").
"""

from __future__ import annotations

from kamicp.game.regions import distances
from kamicp.game.rules import Move
from kamicp.models.clauses import Lit, neg_dimacs
from kamicp.models.sat.encoding import Encoding

__all__ = ["PivotEncoding"]


class PivotEncoding(Encoding):
    """Pivot rules (Flood-It); see sat.md, "Pivot rules"."""

    def start(self) -> None:
        """The pivot's distances and the colour counter of time 0."""
        g = self.g
        self.dist = distances(g, g.pivot)  # the pivot's island only
        self.count_needed(0)

    def fl(self, t: int, r: int) -> Lit:
        """Region r is flooded after step t (false beyond distance t: one ring per move)."""
        if r == self.g.pivot:
            return True
        if r not in self.dist or self.dist[r] > t:
            return False
        return self.var(("fl", t, r))

    def col(self, t: int, c: int) -> Lit:
        """The flood has colour c after step t."""
        return self.g.colour[self.g.pivot] == c if t == 0 else self.var(("c", t, c))

    def count_needed(self, t: int) -> None:
        """Colours some move must still play (sat.md, "Bounds")."""
        g, lits = self.g, []
        for c in range(g.k):
            bodies = [[neg_dimacs(self.fl(t, r))] for r in self.dist if g.colour[r] == c]
            bodies.append([self.fcol[c], neg_dimacs(self.col(t, c))])
            lits.append(self.implied_by(("need", t, c), bodies))
        self.counter(t, lits, f"colours needed after step {t}")

    def layer(self, t: int) -> None:
        """Step ``t``: the flood's colour and growth (sat.md, "Pivot rules")."""
        g, var, add, fl, col = self.g, self.var, self.add, self.fl, self.col
        cs = [col(t, c) for c in range(g.k)]
        self.exactly_one(cs, f"flood colour after step {t}")
        noop = var(("noop", t))
        if t > 1:
            add(-var(("noop", t - 1)), noop)
        for c in range(g.k):  # a no-op is exactly "the flood keeps its colour"
            add(neg_dimacs(col(t - 1, c)), -cs[c], noop)
            add(-noop, neg_dimacs(col(t - 1, c)), cs[c])
        for r in sorted(self.dist):
            f = fl(t, r)
            if isinstance(f, bool):
                continue
            before = fl(t - 1, r)
            add(neg_dimacs(before), f)
            add(-f, before, cs[g.colour[r]])
            add(-f, before, *(fl(t - 1, s) for s in g.adj[r]))
            for s in g.adj[r]:
                add(-cs[g.colour[r]], neg_dimacs(fl(t - 1, s)), f)
        self.count_needed(t)
        if self.symmetry and t > 1:
            # Only the last move may flood nothing (sat.md, "Pointless pairs").
            gains = []
            for r in sorted(self.dist):
                now, before = fl(t - 1, r), fl(t - 2, r)
                if isinstance(now, bool) or before is True:
                    continue
                gain = var(("gain", t - 1, r))
                add(-gain, now)
                add(-gain, neg_dimacs(before))
                gains.append(gain)
            add(noop, *gains)
        # A no-op at step t means the real moves ended by t-1 (sat.md, "Incremental use").
        self.solved(t - 1, noop)
        for u in range(t):
            self.bound(u, t - 1 - u, noop)

    def solved(self, t: int, guard: Lit) -> None:
        """``guard`` implies: solved after step ``t``, in the final colour."""
        g = self.g
        for c in range(g.k):
            self.add(neg_dimacs(guard), -self.fcol[c], self.col(t, c))
        for r in range(g.n):
            self.add(neg_dimacs(guard), self.fl(t, r), self.col(t, g.colour[r]))

    def goal(self, horizon: int, guard: Lit) -> None:
        """Solved after ``horizon`` steps, and the bounds of that horizon."""
        self.solved(horizon, guard)
        if horizon < max(self.dist.values()):
            self.add(neg_dimacs(guard))  # the flood gains one ring a move (sat.md, "Distance")
        for t in range(horizon + 1):
            self.bound(t, horizon - t, guard)

    def moves(self, model: list[int], horizon: int) -> list[Move]:
        """The moves of ``model``: the pivot and each step's flood colour."""
        true = {lit for lit in model if lit > 0}
        out = []
        for t in range(1, horizon + 1):
            if self.var(("noop", t)) in true:
                break
            colour = next(c for c in range(self.g.k) if self.var(("c", t, c)) in true)
            out.append((self.g.pivot, colour))
        return out
