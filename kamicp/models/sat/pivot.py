"""The CNF clauses of the pivot rules (Flood-It) over a horizon of T moves: the flood.

``encodings/sat.md``, "Pivot rules": the flooded set grows monotonically and a region outside
it keeps its starting colour, so one flood colour ``('c', t, c)`` per step and one flag
``('fl', t, r)`` per region and step suffice ((S9)-(S11)). Bounds: the colours still needed
(S14) and the pivot's eccentricity (S15); only the last move may flood nothing (S20, written
by :func:`kamicp.models.sat.symmetry.flood_grows`).

Size: O((n + m) k T) variables and clauses (n regions, m edges, k colours; sat.md, "Sizes").
"""

from __future__ import annotations

from kamicp.game.regions import RegionGraph, distances
from kamicp.game.rules import Move
from kamicp.models.clauses import Lit, neg_dimacs
from kamicp.models.sat.formula import Counter, Formula
from kamicp.models.sat.symmetry import flood_grows

__all__ = ["PivotClauses"]


class PivotClauses:
    """The clauses of the pivot rules (Flood-It); see sat.md, "Pivot rules".

    Parameters
    ----------
    formula : Formula
        Where the clauses go.
    g : RegionGraph
        The puzzle.
    final : list of int
        The final colour's variables ``('f', c)`` (one-hot).
    symmetry : bool
        Add the rule that removes solutions (every move but the last floods something).
    """

    def __init__(self, formula: Formula, g: RegionGraph, final: list[int], symmetry: bool = True):
        self.formula = formula
        self.g = g
        self.final = final
        self.symmetry = symmetry
        self.dist = distances(g, g.pivot)  # the pivot's island only
        self.regions = sorted(self.dist)
        self.noop: list[int] = [0]  # noop[t] (index 0: the start, which has none)
        self.needed: list[Counter] = []  # needed[t]: colours some move must still play (S14)
        self.count_needed(0)

    def fl(self, t: int, r: int) -> Lit:
        """Region r is flooded after step t (false beyond distance t: one ring per move)."""
        if r == self.g.pivot:
            return True
        if r not in self.dist or self.dist[r] > t:
            return False
        return self.formula.var(("fl", t, r))

    def col(self, t: int, c: int) -> Lit:
        """The flood has colour c after step t."""
        return self.g.colour[self.g.pivot] == c if t == 0 else self.formula.var(("c", t, c))

    def count_needed(self, t: int) -> None:
        """Colours some move must still play after step t (sat.md, "Colours")."""
        g, lits = self.g, []
        for c in range(g.k):
            bodies = [[neg_dimacs(self.fl(t, r))] for r in self.dist if g.colour[r] == c]
            bodies.append([self.final[c], neg_dimacs(self.col(t, c))])
            lits.append(self.formula.implied_by(("need", t, c), bodies))
        self.needed.append(self.formula.counter(lits, f"colours needed after step {t}"))

    def layer(self, t: int) -> None:
        """Step ``t``: the flood's colour and growth (sat.md, "Pivot rules")."""
        g, formula, fl, col = self.g, self.formula, self.fl, self.col
        var, add = formula.var, formula.add
        # (S9) one flood colour; a no-op is exactly "the flood keeps its colour"; padding
        # at the end.
        cs = [col(t, c) for c in range(g.k)]
        formula.exactly_one(cs, f"flood colour after step {t}")
        noop = var(("noop", t))
        if t > 1:
            add(-self.noop[t - 1], noop)
        for c in range(g.k):
            add(neg_dimacs(col(t - 1, c)), -cs[c], noop)
            add(-noop, neg_dimacs(col(t - 1, c)), cs[c])
        self.noop.append(noop)
        # (S10) growth: a region joins when it touches the flood and the flood takes its
        # colour (Lemma 2), and stays.
        for r in self.regions:
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
            flood_grows(formula, t, noop, self.regions, fl)  # (S20)
        # (S12) a no-op at step t means the real moves ended by t-1: solved then, and the
        # colour bound (S14) holds with t-1 for the horizon.
        self.solved(t - 1, noop)
        for u in range(t):
            formula.at_most(self.needed[u], t - 1 - u, noop)

    def solved(self, t: int, guard: Lit) -> None:
        """``guard`` implies: solved after step ``t``, in the final colour (S11)."""
        g = self.g
        for c in range(g.k):
            self.formula.add(neg_dimacs(guard), -self.final[c], self.col(t, c))
        for r in range(g.n):
            self.formula.add(neg_dimacs(guard), self.fl(t, r), self.col(t, g.colour[r]))

    def goal(self, horizon: int, guard: Lit) -> None:
        """Solved after ``horizon`` steps (S11), and the bounds of that horizon: the pivot's
        eccentricity (S15) and the colours needed (S14)."""
        self.solved(horizon, guard)
        if horizon < max(self.dist.values()):
            self.formula.add(neg_dimacs(guard))  # (S15) the flood gains one ring a move
        for t in range(horizon + 1):
            self.formula.at_most(self.needed[t], horizon - t, guard)

    def moves(self, true: set[int], horizon: int) -> list[Move]:
        """The moves of an assignment (its true variables): the pivot and each step's flood
        colour, up to the first no-op."""
        out = []
        for t in range(1, horizon + 1):
            if self.noop[t] in true:
                break
            colour = next(c for c in range(self.g.k) if self.col(t, c) in true)
            out.append((self.g.pivot, colour))
        return out
