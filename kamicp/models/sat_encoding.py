"""CNF encodings of flood-fill over a horizon of T moves, one for each rule set.

The encodings, the reasons they are exact, and the proofs of the bounds and of the two rules
that remove solutions (commuting moves, pointless pairs) are in ``encodings/sat.md``; this
module follows it section by section.

- :class:`FreeEncoding` (free rules, KAMI 2): the colour of every region after every step, a
  *stamp* per region (the last step whose merged region contained it) so that the current
  regions are the classes of equal non-zero stamps plus the regions never merged; a move
  selects one class (or one never-merged region) and a new colour.
- :class:`PivotEncoding` (pivot rules, Flood-It): the flooded set grows monotonically and a
  region outside it keeps its starting colour, so one flood colour per step and one
  "flooded" flag per region and step suffice.

Both can be *guarded* (incremental use: the goal of horizon T and the bounds that depend on
T are switched on by the literal ``('goal', T)`` as an assumption; every other clause holds
for every horizon) or *fixed* (one horizon, everything hard, for DIMACS and proofs).
Variables come from a :class:`pysat.formula.IDPool` under readable names such as
``('x', t, r, c)``; the construction is deterministic, so one puzzle always gives the same
CNF. Sizes: free rules O(n T^2 + (n + m) k T) variables and clauses (n regions, m edges,
k colours); pivot rules O((n + m) k T) plus O(n T^2) for the distance bound.
"""

from __future__ import annotations

from pysat.card import CardEnc, EncType, ITotalizer
from pysat.formula import IDPool

from kamicp.game.regions import RegionGraph, distances
from kamicp.game.rules import Move

RADIUS_OPTIONS = ("layers", "exact", "off")
Lit = int | bool  # a variable, its negation, or a constant folded away when clauses are added


def neg(lit: Lit) -> Lit:
    """The negation of a literal or constant (``-True`` would be -1, hence this)."""
    return (not lit) if isinstance(lit, bool) else -lit


class Encoding:
    """What both rule sets share: the clause store, one-hot and counting helpers, goals.

    ``clauses`` holds the clauses not yet handed out; :meth:`take` hands them to an
    incremental solver (and forgets them); ``emitted`` counts every clause made.
    """

    def __init__(
        self,
        g: RegionGraph,
        final_colour: int | None = None,
        guarded: bool = True,
        symmetry: bool = True,
        radius: str | bool = "layers",
        diameter: bool = False,
    ):
        if final_colour is not None and not 0 <= final_colour < g.k:
            raise ValueError(f"final colour {final_colour} is outside the palette of {g.k}")
        self.g = g
        self.final_colour = final_colour
        self.guarded = guarded
        self.symmetry = symmetry
        self.radius = {True: "layers", False: "off"}.get(radius, radius)
        self.diameter = diameter
        if self.radius not in RADIUS_OPTIONS:
            raise ValueError(f"radius option {radius!r}: one of {RADIUS_OPTIONS}")
        self.pool = IDPool()
        self.clauses: list[list[int]] = []
        self.taken = 0  # clauses handed out by take()
        self.aux: list[tuple[int, int, str]] = []  # unnamed variables of CardEnc / ITotalizer
        self.layers = 0
        self.goals: dict[int, Lit] = {}
        self.counters: dict[object, tuple[int, list[int]]] = {}
        self.built: set[tuple] = set()  # parts made on first use (radius layers)
        # The final colour is one variable group shared by every horizon: only one goal is
        # assumed at a time, and a padded solution fixes it (see sat.md, "Incremental use").
        self.fcol = [self.var(("f", c)) for c in range(g.k)]
        self.exactly_one(self.fcol, "final colour")
        if final_colour is not None:
            self.add(self.fcol[final_colour])
        self.start()

    # -- clause store -------------------------------------------------------------------

    def var(self, name: tuple) -> int:
        return self.pool.id(name)

    def add(self, *lits: Lit) -> None:
        """Add a clause, folding constants: a true literal drops it, false ones vanish."""
        out = []
        for lit in lits:
            if lit is True:
                return
            if lit is not False:
                out.append(lit)
        self.clauses.append(out)

    def take(self) -> list[list[int]]:
        """The clauses added since the last call (for an incremental solver)."""
        new, self.clauses = self.clauses, []
        self.taken += len(new)
        return new

    @property
    def emitted(self) -> int:
        return self.taken + len(self.clauses)

    def _aux(self, before: int, label: str) -> None:
        if self.pool.top > before:
            self.aux.append((before + 1, self.pool.top, label))

    def exactly_one(self, lits: list[Lit], label: str) -> None:
        """Exactly one of ``lits`` (CardEnc: pairwise up to 6 literals, else a ladder)."""
        trues = sum(1 for lit in lits if lit is True)
        free = [lit for lit in lits if not isinstance(lit, bool)]
        if trues > 1:
            self.add()
            return
        if trues == 1:
            for lit in free:
                self.add(-lit)
            return
        if not free:
            self.add()
            return
        before = self.pool.top
        enc = EncType.pairwise if len(free) <= 6 else EncType.ladder
        for clause in CardEnc.equals(free, bound=1, vpool=self.pool, encoding=enc).clauses:
            self.add(*clause)
        self._aux(before, label)

    def implied_by(self, name: tuple, bodies: list[list[Lit]]) -> Lit:
        """A literal that each conjunction in ``bodies`` implies (and nothing else forces).

        Used only for literals that are counted *upwards* (a spurious true value can only
        strengthen a bound that holds anyway, so the converse is not needed).
        """
        live = []
        for body in bodies:
            if any(lit is False for lit in body):
                continue
            body = [lit for lit in body if lit is not True]
            if not body:
                return True
            live.append(body)
        if not live:
            return False
        v = self.var(name)
        for body in live:
            self.add(*(neg(lit) for lit in body), v)
        return v

    def counter(self, key: object, lits: list[Lit], label: str) -> None:
        """A unary counter (pysat's ITotalizer) of ``lits`` under ``key``, for :meth:`bound`.

        O(len(lits)^2) clauses; the outputs say "at least i + 1 are true" (upwards only).
        """
        offset = sum(1 for lit in lits if lit is True)
        free = [lit for lit in lits if not isinstance(lit, bool)]
        rhs: list[int] = []
        if len(free) == 1:
            rhs = free
        elif free:
            before = self.pool.top
            tot = ITotalizer(lits=free, ubound=len(free), top_id=before)
            for clause in tot.cnf.clauses:
                self.add(*clause)
            rhs = list(tot.rhs)
            # The totalizer numbered its variables above the pool's top: claim them.
            self.pool.top = max(self.pool.top, tot.top_id)
            tot.delete()
            self._aux(before, label)
        self.counters[key] = (offset, rhs)

    def bound(self, key: object, most: int, *conditions: Lit) -> None:
        """``conditions`` imply: at most ``most`` of the literals counted under ``key``."""
        offset, rhs = self.counters[key]
        index = most - offset
        unless = [neg(lit) for lit in conditions]
        if index < 0:
            self.add(*unless)
        elif index < len(rhs):
            self.add(*unless, -rhs[index])

    # -- horizons -----------------------------------------------------------------------

    def grow(self, horizon: int) -> None:
        """Add the step layers 1..horizon that do not exist yet."""
        while self.layers < horizon:
            self.layers += 1
            self.layer(self.layers)

    def horizon(self, horizon: int) -> Lit:
        """Encode "solved after ``horizon`` steps"; returns the guard to assume (True if fixed)."""
        self.grow(horizon)
        if horizon not in self.goals:
            guard = self.var(("goal", horizon)) if self.guarded else True
            self.goals[horizon] = guard
            self.goal(horizon, guard)
        return self.goals[horizon]

    def names(self) -> dict[int, tuple]:
        """Every variable's name (auxiliary ones as ``('aux', label)``), by variable."""
        out = {v: name for v, name in self.pool.id2obj.items()}
        for lo, hi, label in self.aux:
            for v in range(lo, hi + 1):
                out.setdefault(v, ("aux", label))
        return dict(sorted(out.items()))

    # -- per rule set -------------------------------------------------------------------

    def start(self) -> None:
        raise NotImplementedError

    def layer(self, t: int) -> None:
        raise NotImplementedError

    def goal(self, horizon: int, guard: Lit) -> None:
        raise NotImplementedError

    def moves(self, model: list[int], horizon: int) -> list[Move]:
        raise NotImplementedError


class FreeEncoding(Encoding):
    """Free rules (KAMI 2); see sat.md, "Free rules"."""

    def start(self) -> None:
        g = self.g
        self.nislands = len(g.islands)
        self.count_colours(0)
        # Radius of each island at the start (an upper bound on its radius at any time:
        # merging never lengthens a distance).
        self.radius0 = [min(max(distances(g, c).values()) for c in island) for island in g.islands]
        self.reach_levels: dict[tuple[int, int], int] = {}
        # Static distance layers around every region: boundary i holds the edges from
        # distance i to distance i+1 (sat.md, "Radius").
        self.boundaries: dict[int, list[list[tuple[int, int]]]] = {}
        for island in g.islands:
            for z in island:
                dist = distances(g, z)
                rings: list[list[tuple[int, int]]] = [[] for _ in range(max(dist.values()))]
                for u in island:
                    for w in g.adj[u]:
                        if dist[w] == dist[u] + 1:
                            rings[dist[u]].append((u, w))
                self.boundaries[z] = rings

    # Colours and stamps at time 0 are constants: every region has its own colour and stamp 0.
    def x(self, t: int, r: int, c: int) -> Lit:
        return self.g.colour[r] == c if t == 0 else self.var(("x", t, r, c))

    def st(self, t: int, r: int, j: int) -> Lit:
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
            add(-inn[r], neg(st(t - 1, r, 0)), root[r])
            for j in sel:
                add(-sel[j], neg(st(t - 1, r, j)), inn[r])
                add(-inn[r], neg(st(t - 1, r, j)), sel[j])
        for j in sel:
            add(-sel[j], *(st(t - 1, r, j) for r in range(n)))  # the class still exists
        # Colours: the set changes to the new colour, which differs from its old one.
        for r in range(n):
            for c in range(k):
                add(-inn[r], neg(x(t - 1, r, c)), -nc[c])
                add(-inn[r], -nc[c], x(t, r, c))
                add(inn[r], neg(x(t - 1, r, c)), x(t, r, c))
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
                add(-nc[c], neg(x(t - 1, r, c)), sn[r])
                add(-sn[r], -nc[c], x(t - 1, r, c))
        # A[j]: class j touches the set (through some member q marks).
        touch = {}
        for j in sel:
            touch[j] = a = var(("A", t, j))
            marks = []
            for r in range(n):
                add(neg(st(t - 1, r, j)), -ad[r], a)
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
            add(-sn[r], neg(st(t - 1, r, 0)), -ad[r], nm[r])
            add(-nm[r], neg(st(t - 1, r, 0)), inn[r], ad[r])
            for j in sel:
                add(-sn[r], neg(st(t - 1, r, j)), -touch[j], nm[r])
                add(-nm[r], neg(st(t - 1, r, j)), inn[r], touch[j])
        # Stamps: t for the merged region, unchanged elsewhere.
        for r in range(n):
            add(-nm[r], st(t, r, t))
            add(neg(st(t, r, t)), nm[r])
            for j in range(t):
                add(neg(st(t, r, j)), st(t - 1, r, j))
                add(neg(st(t, r, j)), -nm[r])
                add(neg(st(t - 1, r, j)), nm[r], st(t, r, j))
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

    def no_repeat(self, t: int) -> None:
        """After a move that merges nothing, the next one does not recolour the same set
        again (sat.md, "Pointless pairs"): its class is the one stamped by step t-1."""
        var, add, n = self.var, self.add, self.g.n
        gains = []
        for r in range(n):
            gain = var(("gain", t - 1, r))
            add(-gain, var(("nm", t - 1, r)))
            add(-gain, -var(("in", t - 1, r)))
            gains.append(gain)
        add(-var(("sel", t, t - 1)), *gains)

    def order(self, t: int) -> None:
        """Canonical order of commuting moves ending at move t (sat.md, "Commuting moves").

        If move t could be played right before an earlier move u (its set stays clear of
        the closed neighbourhoods of the sets recoloured by moves u..t-1), the smallest
        region of move u must be smaller than that of move t.
        """
        g, n, var, add = self.g, self.g.n, self.var, self.add
        prev = t - 1
        # nb: in the closed neighbourhood of the set recoloured by move t-1.
        # ge: no region below r is in the set of move t-1 (its smallest region is >= r).
        ge: list[Lit] = [True]
        for r in range(n):
            near = var(("nb", prev, r))
            add(-near, var(("in", prev, r)), *(var(("in", prev, s)) for s in g.adj[r]))
            cur = var(("ge", prev, r + 1))
            inside = var(("in", prev, r))
            add(-cur, ge[r])
            add(-cur, -inside)
            add(neg(ge[r]), inside, cur)
            ge.append(cur)
        # dep(u, t): the set of move t meets the closed neighbourhood of move u's set;
        # blocked(u, t): that holds for some move u..t-1 (so move t cannot jump before u).
        later: Lit = False
        for u in range(t - 1, 0, -1):
            dep = var(("dep", u, t))
            witnesses = []
            for r in range(n):
                w = var(("w", u, t, r))
                add(-w, var(("in", t, r)))
                add(-w, var(("nb", u, r)))
                witnesses.append(w)
            add(-dep, *witnesses)
            blocked = var(("blocked", u, t))
            add(-blocked, dep, later)
            later = blocked
            for r in range(n):
                add(-var(("in", t, r)), -var(("ge", u, r + 1)), blocked)

    def goal(self, horizon: int, guard: Lit) -> None:
        for r in range(self.g.n):
            for c in range(self.g.k):
                self.add(neg(guard), -self.fcol[c], self.x(horizon, r, c))
        for t in range(horizon + 1):
            self.bound(t, (horizon - t) + self.nislands, guard)
        if self.radius != "off":
            self.radius_bound(horizon, guard)

    # -- radius bound (sat.md, "Radius") ------------------------------------------------

    def radius_bound(self, horizon: int, guard: Lit) -> None:
        """After step t every island's current region graph has radius <= horizon - t."""
        for i, island in enumerate(self.g.islands):
            if horizon < self.radius0[i]:
                self.add(neg(guard))
                continue
            for t in range(max(1, horizon - self.radius0[i] + 1), horizon):
                if self.radius == "exact":
                    self.reach(t, i, horizon - t)
                    for u in island:
                        self.add(neg(guard), self.var(("R", t, u, horizon - t)))
                else:
                    self.closed_layers(t, i, horizon - t, guard)

    def closed_layers(self, t: int, i: int, most: int, guard: Lit) -> None:
        """The relaxed radius bound: a centre z after step t has at most ``most`` *closed*
        static boundaries (no edge across joins two regions of one colour).

        Every path from z to a region at static distance ecc(z) crosses every boundary, and
        pays one crossing at each closed one, so closed boundaries <= ecc_t(z) <= radius.
        ``('open', t, z, i)`` may only be true when some edge across has one colour. Every
        region, centre or not, has ecc_t <= 2 * radius, so at most ``2 * most`` closed
        boundaries around any region (no centre needed for that one).
        """
        var, add = self.var, self.add
        island = self.g.islands[i]
        if ("centre", t, i) not in self.built:
            self.built.add(("centre", t, i))
            self.exactly_one([var(("cz", t, z)) for z in island], f"centre after step {t}")
        for z in island:
            rings = self.boundaries[z]
            if len(rings) <= most:
                continue  # even all closed stays within the bound
            key = (t, "closed", z)
            if key not in self.counters:
                closed = []
                for b, ring in enumerate(rings):
                    gate = var(("open", t, z, b))
                    add(-gate, *(self.same(t, u, w) for u, w in ring))
                    closed.append(-gate)
                self.counter(key, closed, f"closed boundaries around {z} after step {t}")
            self.bound(key, most, guard, var(("cz", t, z)))
            if self.diameter:
                self.bound(key, 2 * most, guard)

    def same(self, t: int, u: int, w: int) -> int:
        """``('same', t, u, w)`` may only be true when u and w have one colour after step t."""
        u, w = min(u, w), max(u, w)
        lit = self.var(("same", t, u, w))
        if ("same", t, u, w) not in self.built:
            self.built.add(("same", t, u, w))
            for c in range(self.g.k):
                self.add(-lit, neg(self.x(t, u, c)), self.x(t, w, c))
        return lit

    def reach(self, t: int, i: int, upto: int) -> None:
        """Distance levels from a chosen centre in the current region graph after step t.

        ``('R', t, u, l)``: region u is within l region crossings of the centre's region.
        Only the "true implies a real path" direction is encoded: the bound needs every R
        true, and a spurious R could only come from a real path.
        """
        var, add, st = self.var, self.add, self.st
        island = self.g.islands[i]
        built = self.reach_levels.get((t, i), -1)
        if built < 0:  # the centre: one current region of the island
            roots = [var(("cr", t, u)) for u in island]
            classes = {j: var(("cs", t, i, j)) for j in range(1, t + 1)}
            self.exactly_one([*roots, *classes.values()], f"centre after step {t}")
            for u, root in zip(island, roots, strict=True):
                add(-root, st(t, u, 0))
            for j, pick in classes.items():
                add(-pick, *(st(t, w, j) for w in island))
        for level in range(built + 1, upto + 1):
            for u in island:
                near = var(("R", t, u, level))
                if level == 0:
                    add(-near, neg(st(t, u, 0)), var(("cr", t, u)))
                else:
                    step = var(("a", t, u, level))
                    add(-step, *(var(("R", t, v, level - 1)) for v in self.g.adj[u]))
                    add(-near, neg(st(t, u, 0)), var(("R", t, u, level - 1)), step)
                for j in range(1, t + 1):
                    add(-near, neg(st(t, u, j)), var(("K", t, i, j, level)))
            for j in range(1, t + 1):
                whole = var(("K", t, i, j, level))
                if level == 0:
                    add(-whole, var(("cs", t, i, j)))
                    continue
                seeds = []
                for w in island:
                    seed = var(("y", t, w, j, level))
                    add(-seed, st(t, w, j))
                    add(-seed, var(("a", t, w, level)))
                    seeds.append(seed)
                add(-whole, var(("K", t, i, j, level - 1)), *seeds)
        self.reach_levels[(t, i)] = max(built, upto)

    def moves(self, model: list[int], horizon: int) -> list[Move]:
        true = {lit for lit in model if lit > 0}
        out = []
        for t in range(1, horizon + 1):
            if self.var(("noop", t)) in true:
                break
            region = min(r for r in range(self.g.n) if self.var(("in", t, r)) in true)
            colour = next(c for c in range(self.g.k) if self.var(("nc", t, c)) in true)
            out.append((region, colour))
        return out


class PivotEncoding(Encoding):
    """Pivot rules (Flood-It); see sat.md, "Pivot rules"."""

    def start(self) -> None:
        g = self.g
        self.dist = distances(g, g.pivot)  # the pivot's island only
        self.near_memo: dict[tuple[int, int, int], Lit] = {}
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
            bodies = [[neg(self.fl(t, r))] for r in self.dist if g.colour[r] == c]
            bodies.append([self.fcol[c], neg(self.col(t, c))])
            lits.append(self.implied_by(("need", t, c), bodies))
        self.counter(t, lits, f"colours needed after step {t}")

    def near(self, t: int, u: int, j: int) -> Lit:
        """Some region flooded after step t lies within distance j of u."""
        if j >= self.dist[u]:
            return True  # the pivot's region is always flooded
        if j < 0:
            return False
        key = (t, u, j)
        if key not in self.near_memo:
            options = [self.fl(t, u)] + [self.near(t, v, j - 1) for v in self.g.adj[u]]
            if any(lit is True for lit in options):
                lit: Lit = True
            elif all(lit is False for lit in options):
                lit = False
            else:
                lit = self.var(("near", t, u, j))
                self.add(-lit, *options)
            self.near_memo[key] = lit
        return self.near_memo[key]

    def layer(self, t: int) -> None:
        g, var, add, fl, col = self.g, self.var, self.add, self.fl, self.col
        cs = [col(t, c) for c in range(g.k)]
        self.exactly_one(cs, f"flood colour after step {t}")
        noop = var(("noop", t))
        if t > 1:
            add(-var(("noop", t - 1)), noop)
        for c in range(g.k):  # a no-op is exactly "the flood keeps its colour"
            add(neg(col(t - 1, c)), -cs[c], noop)
            add(-noop, neg(col(t - 1, c)), cs[c])
        for r in sorted(self.dist):
            f = fl(t, r)
            if isinstance(f, bool):
                continue
            before = fl(t - 1, r)
            add(neg(before), f)
            add(-f, before, cs[g.colour[r]])
            add(-f, before, *(fl(t - 1, s) for s in g.adj[r]))
            for s in g.adj[r]:
                add(-cs[g.colour[r]], neg(fl(t - 1, s)), f)
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
                add(-gain, neg(before))
                gains.append(gain)
            add(noop, *gains)
        # A no-op at step t means the real moves ended by t-1 (sat.md, "Incremental use").
        self.solved(t - 1, noop)
        for u in range(t):
            self.bound(u, t - 1 - u, noop)

    def solved(self, t: int, guard: Lit) -> None:
        g = self.g
        for c in range(g.k):
            self.add(neg(guard), -self.fcol[c], self.col(t, c))
        for r in range(g.n):
            self.add(neg(guard), self.fl(t, r), self.col(t, g.colour[r]))

    def goal(self, horizon: int, guard: Lit) -> None:
        self.solved(horizon, guard)
        for t in range(horizon + 1):
            self.bound(t, horizon - t, guard)
            for u in sorted(self.dist):
                if horizon - t < self.dist[u]:
                    self.add(neg(guard), self.near(t, u, horizon - t))

    def moves(self, model: list[int], horizon: int) -> list[Move]:
        true = {lit for lit in model if lit > 0}
        out = []
        for t in range(1, horizon + 1):
            if self.var(("noop", t)) in true:
                break
            colour = next(c for c in range(self.g.k) if self.var(("c", t, c)) in true)
            out.append((self.g.pivot, colour))
        return out


def encoding(
    g: RegionGraph, final_colour: int | None = None, guarded: bool = True, **options
) -> Encoding:
    """The encoding for ``g``'s rule set (``options``: ``symmetry``, ``radius``)."""
    cls = PivotEncoding if g.rules == "pivot" else FreeEncoding
    return cls(g, final_colour=final_colour, guarded=guarded, **options)


def describe(name: tuple, g: RegionGraph) -> str:
    """A variable's meaning in words, for DIMACS comments."""
    p = g.palette
    kind, rest = name[0], name[1:]
    text = {
        "x": lambda t, r, c: f"colour of region {r} after step {t} is {p[c]}",
        "st": lambda t, r, j: f"region {r} after step {t} was last merged by step {j}",
        "in": lambda t, r: f"region {r} is recoloured by step {t}",
        "root": lambda t, r: f"step {t} recolours region {r}, never merged before",
        "sel": lambda t, j: f"step {t} recolours the region merged by step {j}",
        "nc": lambda t, c: f"step {t} recolours to {p[c]}",
        "noop": lambda t: f"step {t} is padding (no move)",
        "ad": lambda t, r: f"region {r} touches the set recoloured by step {t}",
        "sn": lambda t, r: f"region {r} has the new colour of step {t} before it",
        "A": lambda t, j: f"the region merged by step {j} touches the set of step {t}",
        "q": lambda t, r, j: f"region {r} witnesses that step {j}'s region touches step {t}",
        "nm": lambda t, r: f"region {r} is in the region merged by step {t}",
        "pr": lambda t, i, c: f"colour {p[c]} is in island {i} after step {t} or is final",
        "nb": lambda t, r: f"region {r} is in or next to the set recoloured by step {t}",
        "dep": lambda u, t: f"step {t} acts in or next to the set recoloured by step {u}",
        "w": lambda u, t, r: f"region {r} shows step {t} acts next to step {u}'s set",
        "blocked": lambda u, t: f"step {t} acts next to a set recoloured by steps {u}..{t - 1}",
        "ge": lambda t, r: f"no region below {r} is recoloured by step {t}",
        "f": lambda c: f"final colour is {p[c]}",
        "goal": lambda t: f"solved after step {t}",
        "fl": lambda t, r: f"region {r} is flooded after step {t}",
        "c": lambda t, c: f"flood colour after step {t} is {p[c]}",
        "need": lambda t, c: f"colour {p[c]} still needs a move after step {t}",
        "near": lambda t, u, j: f"a region flooded after step {t} is within {j} of region {u}",
        "cr": lambda t, u: f"the centre after step {t} is region {u}, never merged",
        "cs": lambda t, i, j: f"the centre of island {i} after step {t} is step {j}'s region",
        "R": lambda t, u, j: f"region {u} is within {j} of the centre after step {t}",
        "a": lambda t, u, j: (
            f"region {u} touches a region within {j - 1} of the centre after step {t}"
        ),
        "K": lambda t, i, j, d: (
            f"step {j}'s region is within {d} of island {i}'s centre after step {t}"
        ),
        "y": lambda t, u, j, d: (
            f"region {u} brings step {j}'s region within {d} of the centre after step {t}"
        ),
        "cz": lambda t, z: f"region {z} is the centre after step {t} (layer bound)",
        "open": lambda t, z, b: (
            f"boundary {b} around region {z} is crossed by one colour after step {t}"
        ),
        "same": lambda t, u, w: f"regions {u} and {w} have one colour after step {t}",
        "gain": lambda t, r: f"region {r} joins the merged region or flood at step {t}",
        "aux": lambda label: f"auxiliary variable of a cardinality constraint ({label})",
    }[kind]
    return text(*rest)
