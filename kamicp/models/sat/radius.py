"""The radius bound of the free rules' CNF encoding (``encodings/sat.md``, "Radius (free rules)").

Merging never lengthens a distance and one move shortens any distance in the current region
graph by at most 2, so after step t every island's current region graph has radius at most
T - t. Two forms, by the ``radius`` option of :class:`kamicp.models.sat.encoding.Encoding`:

- ``"layers"`` (default, relaxed): around a chosen centre, at most T - t of the static
  distance boundaries are *closed* (no edge across joins two regions of one colour);
- ``"exact"``: distance levels from a chosen centre in the current region graph, built
  on the stamps of :mod:`kamicp.models.sat.free`.

Both only ever force a literal *true* through a real witness, so they remove no solution.
"""

from __future__ import annotations

from kamicp.game.regions import distances
from kamicp.models.clauses import Lit, neg_dimacs
from kamicp.models.sat.encoding import Encoding

__all__ = ["RadiusBound"]


class RadiusBound(Encoding):
    """The radius bound, a part of :class:`kamicp.models.sat.free.FreeEncoding`.

    Uses the free encoding's colours ``x(t, r, c)`` and stamps ``st(t, r, j)``;
    :meth:`start_radius` is called once, from ``start``.
    """

    def start_radius(self) -> None:
        """The static facts the bound reads: each island's radius, the distance rings."""
        g = self.g
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

    # -- radius bound (sat.md, "Radius") ------------------------------------------------

    def radius_bound(self, horizon: int, guard: Lit) -> None:
        """After step t every island's current region graph has radius <= horizon - t."""
        for i, island in enumerate(self.g.islands):
            if horizon < self.radius0[i]:
                self.add(neg_dimacs(guard))
                continue
            for t in range(max(1, horizon - self.radius0[i] + 1), horizon):
                if self.radius == "exact":
                    self.reach(t, i, horizon - t)
                    for u in island:
                        self.add(neg_dimacs(guard), self.var(("R", t, u, horizon - t)))
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
                self.add(-lit, neg_dimacs(self.x(t, u, c)), self.x(t, w, c))
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
