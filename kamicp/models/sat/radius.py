"""The radius bound of the free rules' CNF encoding (``encodings/sat.md``, "Radius (free rules)").

Merging never lengthens a distance and one move lowers the radius of the current region
graph by at most one, so after step t every island's current region graph has radius at most
T - t. Two forms, by the ``radius`` option of :func:`kamicp.models.sat.encoding.encoding`:

- ``"layers"`` (default, relaxed; sat.md (S16)): around a chosen centre, at most T - t of
  the static distance boundaries are *closed* (no edge across joins two regions of one
  colour);
- ``"exact"`` (sat.md (S17)): distance levels from a chosen centre in the current region
  graph, built on the stamps of :mod:`kamicp.models.sat.free`.

Both only ever force a literal *true* through a real witness, so they remove no solution.
"""

from __future__ import annotations

from collections.abc import Callable

from kamicp.game.regions import RegionGraph, distances
from kamicp.models.clauses import Lit, neg_dimacs
from kamicp.models.sat.formula import Counter, Formula

__all__ = ["RadiusBound"]


class RadiusBound:
    """The radius bound, a part of :class:`kamicp.models.sat.free.FreeClauses`.

    Parameters
    ----------
    formula : Formula
        Where the clauses go.
    g : RegionGraph
        The puzzle (free rules).
    colour : callable
        ``colour(t, r, c)``: the literal "region r has colour c after step t".
    stamp : callable
        ``stamp(t, r, j)``: the literal "region r has stamp j after step t".
    exact : bool
        The exact form (distance levels) instead of the closed boundaries.
    diameter : bool
        Also bound the closed boundaries around every region by twice the radius.
    """

    def __init__(
        self,
        formula: Formula,
        g: RegionGraph,
        colour: Callable[[int, int, int], Lit],
        stamp: Callable[[int, int, int], Lit],
        exact: bool = False,
        diameter: bool = False,
    ):
        self.formula = formula
        self.g = g
        self.colour = colour
        self.stamp = stamp
        self.exact = exact
        self.diameter = diameter
        # Radius of each island at the start (an upper bound on its radius at any time:
        # merging never lengthens a distance).
        self.radius0 = [min(max(distances(g, c).values()) for c in island) for island in g.islands]
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
        self.centres: set[tuple[int, int]] = set()  # (t, island) with a layer centre
        self.closed: dict[tuple[int, int], Counter] = {}  # (t, z): closed boundaries around z
        self.same_lits: dict[tuple[int, int, int], int] = {}  # (t, u, w): same(t, u, w)
        self.reach_levels: dict[tuple[int, int], int] = {}  # (t, island): levels built

    def add(self, horizon: int, guard: Lit) -> None:
        """``guard`` implies: after step t every island's current region graph has radius
        <= horizon - t (a horizon below an island's starting radius: ``guard`` is false)."""
        for i, island in enumerate(self.g.islands):
            if horizon < self.radius0[i]:
                self.formula.add(neg_dimacs(guard))  # (S18)
                continue
            for t in range(max(1, horizon - self.radius0[i] + 1), horizon):
                if self.exact:
                    self.reach(t, i, horizon - t)
                    for u in island:
                        self.formula.add(
                            neg_dimacs(guard), self.formula.var(("R", t, u, horizon - t))
                        )
                else:
                    self.closed_layers(t, i, horizon - t, guard)

    def closed_layers(self, t: int, i: int, most: int, guard: Lit) -> None:
        """The relaxed radius bound (S16): a centre z after step t has at most ``most``
        *closed* static boundaries (no edge across joins two regions of one colour).

        Every path from z to a region at static distance ecc(z) crosses every boundary, and
        pays one crossing at each closed one, so closed boundaries <= ecc_t(z) <= radius.
        ``('open', t, z, i)`` may only be true when some edge across has one colour. Every
        region, centre or not, has ecc_t <= 2 * radius, so at most ``2 * most`` closed
        boundaries around any region (no centre needed for that one).
        """
        formula = self.formula
        var, add = formula.var, formula.add
        island = self.g.islands[i]
        if (t, i) not in self.centres:
            self.centres.add((t, i))
            formula.exactly_one([var(("cz", t, z)) for z in island], f"centre after step {t}")
        for z in island:
            rings = self.boundaries[z]
            if len(rings) <= most:
                continue  # even all closed stays within the bound
            if (t, z) not in self.closed:
                closed = []
                for b, ring in enumerate(rings):
                    gate = var(("open", t, z, b))
                    add(-gate, *(self.same(t, u, w) for u, w in ring))
                    closed.append(-gate)
                label = f"closed boundaries around {z} after step {t}"
                self.closed[(t, z)] = formula.counter(closed, label)
            formula.at_most(self.closed[(t, z)], most, guard, var(("cz", t, z)))
            if self.diameter:
                formula.at_most(self.closed[(t, z)], 2 * most, guard)

    def same(self, t: int, u: int, w: int) -> int:
        """``('same', t, u, w)`` may only be true when u and w have one colour after step t."""
        u, w = min(u, w), max(u, w)
        if (t, u, w) not in self.same_lits:
            lit = self.same_lits[(t, u, w)] = self.formula.var(("same", t, u, w))
            for c in range(self.g.k):
                self.formula.add(-lit, neg_dimacs(self.colour(t, u, c)), self.colour(t, w, c))
        return self.same_lits[(t, u, w)]

    def reach(self, t: int, i: int, upto: int) -> None:
        """Distance levels from a chosen centre in the current region graph after step t (S17).

        ``('R', t, u, l)``: region u is within l region crossings of the centre's region.
        Only the "true implies a real path" direction is encoded: the bound needs every R
        true, and a spurious R could only come from a real path.
        """
        formula, st = self.formula, self.stamp
        var, add = formula.var, formula.add
        island = self.g.islands[i]
        built = self.reach_levels.get((t, i), -1)
        if built < 0:  # the centre: one current region of the island
            roots = [var(("cr", t, u)) for u in island]
            classes = {j: var(("cs", t, i, j)) for j in range(1, t + 1)}
            formula.exactly_one([*roots, *classes.values()], f"centre after step {t}")
            for u, root in zip(island, roots, strict=True):
                add(-root, st(t, u, 0))
            for j, pick in classes.items():
                add(-pick, *(st(t, w, j) for w in island))
        for level in range(built + 1, upto + 1):
            for u in island:
                near = var(("R", t, u, level))
                if level == 0:
                    add(-near, neg_dimacs(st(t, u, 0)), var(("cr", t, u)))
                else:
                    step = var(("a", t, u, level))
                    add(-step, *(var(("R", t, v, level - 1)) for v in self.g.adj[u]))
                    add(-near, neg_dimacs(st(t, u, 0)), var(("R", t, u, level - 1)), step)
                for j in range(1, t + 1):
                    add(-near, neg_dimacs(st(t, u, j)), var(("K", t, i, j, level)))
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
