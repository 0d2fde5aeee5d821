"""The CNF encoding of the free rules (KAMI 2) over a horizon of T moves: colours and stamps.

``encodings/sat.md``, "Free rules": the colour ``('x', t, r, c)`` of every region after
every step, and a *stamp* ``('st', t, r, j)`` per region, the last step whose merged region
contained it ("The stamp lemma"), so that the current regions are the classes of equal
non-zero stamps plus the regions never merged. A step selects one class (``sel``) or one
never-merged region (``root``) and a new colour (``nc``), or is padding (``noop``)
("Variables of step t", "Clauses of step t"); the goal is one colour everywhere ("Goal").
The colour counters are sat.md's "Colours" bound; the rules that remove solutions are
:class:`kamicp.models.sat.symmetry.FreeSymmetry`, the radius bound
:class:`kamicp.models.sat.radius.RadiusBound`.

Size: O(n T^2 + (n + m) k T) variables and clauses (n regions, m edges, k colours; sat.md,
"Sizes").
"""

from __future__ import annotations

from kamicp.game.rules import Move
from kamicp.models.clauses import Lit, neg_dimacs
from kamicp.models.sat.radius import RadiusBound
from kamicp.models.sat.symmetry import FreeSymmetry

__all__ = ["FreeEncoding"]


class FreeEncoding(FreeSymmetry, RadiusBound):
    """Free rules (KAMI 2); see sat.md, "Free rules".

    Parameters are those of :class:`kamicp.models.sat.encoding.Encoding`.

    Examples
    --------
    >>> from kamicp.game.regions import from_edges
    >>> enc = FreeEncoding(from_edges([0, 1, 0], [(0, 1), (1, 2)]), guarded=False)
    >>> _ = enc.horizon(1)
    >>> enc.emitted > 0
    True
    """

    def start(self) -> None:
        """The colour counter of time 0 and the radius bound's static facts."""
        g = self.g
        self.nislands = len(g.islands)
        self.count_colours(0)
        self.start_radius()

    # Colours and stamps at time 0 are constants: every region has its own colour and stamp 0.
    def x(self, t: int, r: int, c: int) -> Lit:
        """Region ``r`` has colour ``c`` after step ``t`` (a constant at time 0)."""
        return self.g.colour[r] == c if t == 0 else self.var(("x", t, r, c))

    def st(self, t: int, r: int, j: int) -> Lit:
        """Region ``r`` after step ``t`` was last merged by step ``j`` (0: never)."""
        if t == 0:
            return j == 0
        return False if j > t else self.var(("st", t, r, j))

    def count_colours(self, t: int) -> None:
        """Colours present per island at time t, plus the final colour (sat.md, "Bounds")."""
        lits = []
        for i, island in enumerate(self.g.islands):
            for c in range(self.g.k):
                bodies = [[self.x(t, r, c)] for r in island] + [[self.fcol[c]]]
                lits.append(self.implied_by(("pr", t, i, c), bodies))
        self.counter(t, lits, f"colours after step {t}")

    def layer(self, t: int) -> None:
        """Step ``t``: its variables and clauses (sat.md, "Clauses of step t")."""
        g, n, k = self.g, self.g.n, self.g.k
        var, add, x, st = self.var, self.add, self.x, self.st
        noop = var(("noop", t))
        if t > 1:
            add(-var(("noop", t - 1)), noop)  # padding only at the end
        nc = [var(("nc", t, c)) for c in range(k)]
        self.exactly_one([noop, *nc], f"new colour of step {t}")
        sel = {j: var(("sel", t, j)) for j in range(1, t)}
        root = [var(("root", t, r)) for r in range(n)]
        self.exactly_one([noop, *sel.values(), *root], f"region moved at step {t}")
        inn = [var(("in", t, r)) for r in range(n)]
        # The recoloured set: the class of the selected stamp, or the one chosen region.
        for r in range(n):
            add(-root[r], inn[r])
            add(-root[r], st(t - 1, r, 0))
            add(-inn[r], neg_dimacs(st(t - 1, r, 0)), root[r])
            for j in sel:
                add(-sel[j], neg_dimacs(st(t - 1, r, j)), inn[r])
                add(-inn[r], neg_dimacs(st(t - 1, r, j)), sel[j])
        for j in sel:
            add(-sel[j], *(st(t - 1, r, j) for r in range(n)))  # the class still exists
        # Colours: the set changes to the new colour, which differs from its old one.
        for r in range(n):
            for c in range(k):
                add(-inn[r], neg_dimacs(x(t - 1, r, c)), -nc[c])
                add(-inn[r], -nc[c], x(t, r, c))
                add(inn[r], neg_dimacs(x(t - 1, r, c)), x(t, r, c))
                add(-x(t, r, c), inn[r], x(t - 1, r, c))
                add(-x(t, r, c), -inn[r], nc[c])
        # ad: outside the set, touching it.  sn: has the new colour before the step.
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
        # A[j]: class j touches the set (through some member q marks).
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
        # nm: member of the merged region (the set plus touching classes of the new colour).
        nm = [var(("nm", t, r)) for r in range(n)]
        for r in range(n):
            add(-inn[r], nm[r])
            add(-nm[r], inn[r], sn[r])
            add(-sn[r], neg_dimacs(st(t - 1, r, 0)), -ad[r], nm[r])
            add(-nm[r], neg_dimacs(st(t - 1, r, 0)), inn[r], ad[r])
            for j in sel:
                add(-sn[r], neg_dimacs(st(t - 1, r, j)), -touch[j], nm[r])
                add(-nm[r], neg_dimacs(st(t - 1, r, j)), inn[r], touch[j])
        # Stamps: t for the merged region, unchanged elsewhere.
        for r in range(n):
            add(-nm[r], st(t, r, t))
            add(neg_dimacs(st(t, r, t)), nm[r])
            for j in range(t):
                add(neg_dimacs(st(t, r, j)), st(t - 1, r, j))
                add(neg_dimacs(st(t, r, j)), -nm[r])
                add(neg_dimacs(st(t - 1, r, j)), nm[r], st(t, r, j))
        if self.symmetry and t > 1:
            self.order(t)
            self.no_repeat(t)
        self.count_colours(t)
        # A no-op at step t means the real moves ended by t-1 (sat.md, "Incremental use").
        for r in range(n):
            for c in range(k):
                add(-noop, -self.fcol[c], x(t - 1, r, c))
        for u in range(t):
            self.bound(u, (t - 1 - u) + self.nislands, noop)

    def goal(self, horizon: int, guard: Lit) -> None:
        """One colour everywhere after ``horizon`` steps, and the bounds of that horizon."""
        for r in range(self.g.n):
            for c in range(self.g.k):
                self.add(neg_dimacs(guard), -self.fcol[c], self.x(horizon, r, c))
        for t in range(horizon + 1):
            self.bound(t, (horizon - t) + self.nislands, guard)
        if self.radius != "off":
            self.radius_bound(horizon, guard)

    def moves(self, model: list[int], horizon: int) -> list[Move]:
        """The moves of ``model``: each step's smallest recoloured region and new colour."""
        true = {lit for lit in model if lit > 0}
        out = []
        for t in range(1, horizon + 1):
            if self.var(("noop", t)) in true:
                break
            region = min(r for r in range(self.g.n) if self.var(("in", t, r)) in true)
            colour = next(c for c in range(self.g.k) if self.var(("nc", t, c)) in true)
            out.append((region, colour))
        return out
