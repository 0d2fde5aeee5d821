"""The CNF clauses of the free rules (KAMI 2) over a horizon of T moves: colours and stamps.

``encodings/sat.md``, "Free rules": the colour ``('x', t, r, c)`` of every region after
every step, and a *stamp* ``('st', t, r, j)`` per region, the last step whose merged region
contained it ("The stamp lemma"), so that the current regions are the classes of equal
non-zero stamps plus the regions never merged. A step selects one class (``sel``) or one
never-merged region (``root``) and a new colour (``nc``), or is padding (``noop``)
("Variables of step t", "Clauses of step t", (S1)-(S7)); the goal is one colour everywhere
("Goal", (S8)). The colour counters are sat.md's "Colours" bound (S13). :class:`FreeClauses`
has two parts written elsewhere: the radius bound
(:class:`kamicp.models.sat.radius.RadiusBound`) and the rules that remove solutions
(:mod:`kamicp.models.sat.symmetry`).

Size: O(n T^2 + (n + m) k T) variables and clauses (n regions, m edges, k colours; sat.md,
"Sizes").
"""

from __future__ import annotations

from kamicp.game.regions import RegionGraph
from kamicp.game.rules import Move
from kamicp.models.clauses import Lit, neg_dimacs
from kamicp.models.sat.formula import Counter, Formula
from kamicp.models.sat.radius import RadiusBound
from kamicp.models.sat.symmetry import CommutingOrder, no_repeat

__all__ = ["FreeClauses"]


class FreeClauses:
    """The clauses of the free rules (KAMI 2); see sat.md, "Free rules".

    Parameters
    ----------
    formula : Formula
        Where the clauses go.
    g : RegionGraph
        The puzzle.
    final : list of int
        The final colour's variables ``('f', c)`` (one-hot).
    symmetry : bool
        Add the rules that remove solutions (sat.md, "Symmetry breaking").
    radius : {"layers", "exact", "off"}
        The form of the radius bound (sat.md, "Radius (free rules)").
    diameter : bool
        Add the diameter form of the radius bound.

    Examples
    --------
    >>> from kamicp.game.regions import from_edges
    >>> from kamicp.models.sat.formula import Formula
    >>> formula = Formula()
    >>> final = [formula.var(("f", c)) for c in range(2)]
    >>> free = FreeClauses(formula, from_edges([0, 1, 0], [(0, 1), (1, 2)]), final)
    >>> free.layer(1)
    >>> formula.emitted > 0
    True
    """

    def __init__(
        self,
        formula: Formula,
        g: RegionGraph,
        final: list[int],
        symmetry: bool = True,
        radius: str = "layers",
        diameter: bool = False,
    ):
        self.formula = formula
        self.g = g
        self.final = final
        self.nislands = len(g.islands)
        # Each step's variables that the moves are read from, and that the order reads
        # (index 0: the start, which has none).
        self.noop: list[int] = [0]
        self.new_colour: list[list[int]] = [[]]
        self.recoloured: list[list[int]] = [[]]
        self.merged: list[list[int]] = [[]]
        self.colours: list[Counter] = []  # colours[t]: colours present after step t (S13)
        self.order = CommutingOrder(formula, g) if symmetry else None
        self.count_colours(0)
        self.radius: RadiusBound | None = None
        if radius != "off":
            self.radius = RadiusBound(formula, g, self.x, self.st, radius == "exact", diameter)

    # Colours and stamps at time 0 are constants: every region has its own colour and stamp 0.
    def x(self, t: int, r: int, c: int) -> Lit:
        """Region ``r`` has colour ``c`` after step ``t`` (a constant at time 0)."""
        return self.g.colour[r] == c if t == 0 else self.formula.var(("x", t, r, c))

    def st(self, t: int, r: int, j: int) -> Lit:
        """Region ``r`` after step ``t`` was last merged by step ``j`` (0: never)."""
        if t == 0:
            return j == 0
        return False if j > t else self.formula.var(("st", t, r, j))

    def count_colours(self, t: int) -> None:
        """Colours present per island at time t, plus the final colour (sat.md, "Bounds")."""
        lits = []
        for i, island in enumerate(self.g.islands):
            for c in range(self.g.k):
                bodies = [[self.x(t, r, c)] for r in island] + [[self.final[c]]]
                lits.append(self.formula.implied_by(("pr", t, i, c), bodies))
        self.colours.append(self.formula.counter(lits, f"colours after step {t}"))

    def layer(self, t: int) -> None:
        """Step ``t``: its variables and clauses (sat.md, "Clauses of step t")."""
        g, n, k = self.g, self.g.n, self.g.k
        formula, x, st = self.formula, self.x, self.st
        var, add = formula.var, formula.add
        # (S1) one new colour, one region or class moved, or a no-op; padding at the end.
        noop = var(("noop", t))
        if t > 1:
            add(-self.noop[t - 1], noop)
        nc = [var(("nc", t, c)) for c in range(k)]
        formula.exactly_one([noop, *nc], f"new colour of step {t}")
        sel = {j: var(("sel", t, j)) for j in range(1, t)}
        root = [var(("root", t, r)) for r in range(n)]
        formula.exactly_one([noop, *sel.values(), *root], f"region moved at step {t}")
        inn = [var(("in", t, r)) for r in range(n)]
        # (S2) the recoloured set: the class of the selected stamp, or the one chosen region.
        for r in range(n):
            add(-root[r], inn[r])
            add(-root[r], st(t - 1, r, 0))
            add(-inn[r], neg_dimacs(st(t - 1, r, 0)), root[r])
            for j in sel:
                add(-sel[j], neg_dimacs(st(t - 1, r, j)), inn[r])
                add(-inn[r], neg_dimacs(st(t - 1, r, j)), sel[j])
        for j in sel:
            add(-sel[j], *(st(t - 1, r, j) for r in range(n)))  # the class still exists
        # (S3) colours: the set changes to the new colour, which differs from its old one;
        # every other region keeps its colour.
        for r in range(n):
            for c in range(k):
                add(-inn[r], neg_dimacs(x(t - 1, r, c)), -nc[c])
                add(-inn[r], -nc[c], x(t, r, c))
                add(inn[r], neg_dimacs(x(t - 1, r, c)), x(t, r, c))
                add(-x(t, r, c), inn[r], x(t - 1, r, c))
                add(-x(t, r, c), -inn[r], nc[c])
        # (S4) ad: outside the set, touching it.  sn: has the new colour before the step.
        ad = [var(("ad", t, r)) for r in range(n)]
        sn = [var(("sn", t, r)) for r in range(n)]
        for r in range(n):
            add(-ad[r], -inn[r])
            add(-ad[r], *(inn[s] for s in g.adj[r]))
            for s in g.adj[r]:
                add(-inn[s], inn[r], ad[r])
            add(-sn[r], *nc)
            for c in range(k):
                add(-nc[c], neg_dimacs(x(t - 1, r, c)), sn[r])
                add(-sn[r], -nc[c], x(t - 1, r, c))
        # (S5) A[j]: class j touches the set (through some member q marks).
        touch = {}
        for j in sel:
            touch[j] = a = var(("A", t, j))
            marks = []
            for r in range(n):
                add(neg_dimacs(st(t - 1, r, j)), -ad[r], a)
                q = var(("q", t, r, j))
                add(-q, st(t - 1, r, j))
                add(-q, ad[r])
                marks.append(q)
            add(-a, *marks)
        # (S6) nm: in the merged region (the set plus touching classes of the new colour).
        nm = [var(("nm", t, r)) for r in range(n)]
        for r in range(n):
            add(-inn[r], nm[r])
            add(-nm[r], inn[r], sn[r])
            add(-sn[r], neg_dimacs(st(t - 1, r, 0)), -ad[r], nm[r])
            add(-nm[r], neg_dimacs(st(t - 1, r, 0)), inn[r], ad[r])
            for j in sel:
                add(-sn[r], neg_dimacs(st(t - 1, r, j)), -touch[j], nm[r])
                add(-nm[r], neg_dimacs(st(t - 1, r, j)), inn[r], touch[j])
        # (S7) stamps: t for the merged region, unchanged elsewhere.
        for r in range(n):
            add(-nm[r], st(t, r, t))
            add(neg_dimacs(st(t, r, t)), nm[r])
            for j in range(t):
                add(neg_dimacs(st(t, r, j)), st(t - 1, r, j))
                add(neg_dimacs(st(t, r, j)), -nm[r])
                add(neg_dimacs(st(t - 1, r, j)), nm[r], st(t, r, j))
        self.noop.append(noop)
        self.new_colour.append(nc)
        self.recoloured.append(inn)
        self.merged.append(nm)
        if self.order is not None:  # the rules that remove solutions, (S19) and (S20)
            self.order.add(t, inn)
            if t > 1:
                no_repeat(formula, t, sel[t - 1], self.merged[t - 1], self.recoloured[t - 1])
        self.count_colours(t)
        # (S12) a no-op at step t means the real moves ended by t-1: solved then, and the
        # colour bound (S13) holds with t-1 for the horizon.
        for r in range(n):
            for c in range(k):
                add(-noop, -self.final[c], x(t - 1, r, c))
        for u in range(t):
            formula.at_most(self.colours[u], (t - 1 - u) + self.nislands, noop)

    def goal(self, horizon: int, guard: Lit) -> None:
        """One colour everywhere after ``horizon`` steps (S8), and the bounds of that
        horizon: colours (S13) and radius (S16)-(S18)."""
        formula = self.formula
        for r in range(self.g.n):
            for c in range(self.g.k):
                formula.add(neg_dimacs(guard), -self.final[c], self.x(horizon, r, c))
        for t in range(horizon + 1):
            formula.at_most(self.colours[t], (horizon - t) + self.nislands, guard)
        if self.radius is not None:
            self.radius.add(horizon, guard)

    def moves(self, true: set[int], horizon: int) -> list[Move]:
        """The moves of an assignment (its true variables): each step's smallest recoloured
        region and new colour, up to the first no-op."""
        out = []
        for t in range(1, horizon + 1):
            if self.noop[t] in true:
                break
            region = min(r for r in range(self.g.n) if self.recoloured[t][r] in true)
            colour = next(c for c in range(self.g.k) if self.new_colour[t][c] in true)
            out.append((region, colour))
        return out
