"""The rules of the free rules' CNF encoding that remove solutions, keeping an optimal one.

``encodings/sat.md``, "Symmetry breaking: commuting moves and pointless pairs", proves that
each keeps a solution of every length that has one:

- commuting moves are played in a canonical order (:meth:`FreeSymmetry.order`);
- a move that merges nothing is not followed by one recolouring the same set
  (:meth:`FreeSymmetry.no_repeat`).

Both are switched on by the ``symmetry`` option of
:class:`kamicp.models.sat.encoding.Encoding`.
"""

from __future__ import annotations

from kamicp.models.clauses import Lit, neg_dimacs
from kamicp.models.sat.encoding import Encoding

__all__ = ["FreeSymmetry"]


class FreeSymmetry(Encoding):
    """Symmetry breaking, a part of :class:`kamicp.models.sat.free.FreeEncoding`.

    Reads the step variables ``in``, ``nm`` and ``sel`` of the free encoding.
    """

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
            add(neg_dimacs(ge[r]), inside, cur)
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
