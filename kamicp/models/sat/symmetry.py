"""The clauses that remove solutions while keeping a shortest one (``encodings/sat.md``,
"Symmetry breaking: commuting moves and pointless pairs").

- :class:`CommutingOrder`: commuting moves are played in a canonical order (Rule 1, (S19));
- :func:`no_repeat`: under free rules, a move that merges nothing is not followed by one
  recolouring the same set (Rule 2, (S20));
- :func:`flood_grows`: under pivot rules, every move but the last floods something (Rule 2,
  (S20)).

sat.md proves that together they keep a solution of every length that has one. Each is given
the step variables it reads and the :class:`kamicp.models.sat.formula.Formula` it writes to;
the ``symmetry`` option of :func:`kamicp.models.sat.encoding.encoding` switches them on.
"""

from __future__ import annotations

from collections.abc import Callable

from kamicp.game.regions import RegionGraph
from kamicp.models.clauses import Lit, neg_dimacs
from kamicp.models.sat.formula import Formula

__all__ = ["CommutingOrder", "no_repeat", "flood_grows"]


class CommutingOrder:
    """Rule 1 for the free rules: canonical order of commuting moves (sat.md (S19)).

    If move t could be played right before an earlier move u (its set stays clear of the
    closed neighbourhoods of the sets recoloured by moves u..t-1), the smallest region of
    move u must be smaller than that of move t.

    Parameters
    ----------
    formula : Formula
        Where the clauses go.
    g : RegionGraph
        The puzzle.

    Notes
    -----
    :meth:`add` is called with every step's recoloured set ``in[t][·]``, in step order.
    """

    def __init__(self, formula: Formula, g: RegionGraph):
        self.formula = formula
        self.g = g
        self.sets: list[list[int]] = [[]]  # sets[t][r]: in[t][r] (step 0 has none)
        self.near: list[list[int]] = [[]]  # near[t][r]: nb[t][r]
        self.below: list[list[Lit]] = [[]]  # below[t][r]: ge[t][r], no region < r in S_t

    def add(self, t: int, recoloured: list[int]) -> None:
        """Step ``t``'s set ``in[t][·]``; from t = 2, the rule for move t against earlier ones."""
        self.sets.append(recoloured)
        if t > 1:
            self.neighbourhood(t - 1)
            self.order(t)

    def neighbourhood(self, t: int) -> None:
        """``nb[t][r]``: r is in or next to S_t; ``ge[t][r]``: no region below r is in S_t."""
        var, add, g = self.formula.var, self.formula.add, self.g
        inside = self.sets[t]
        near: list[int] = []
        ge: list[Lit] = [True]
        for r in range(g.n):
            lit = var(("nb", t, r))
            add(-lit, inside[r], *(inside[s] for s in g.adj[r]))
            near.append(lit)
            cur = var(("ge", t, r + 1))
            add(-cur, ge[r])
            add(-cur, -inside[r])
            add(neg_dimacs(ge[r]), inside[r], cur)
            ge.append(cur)
        self.near.append(near)
        self.below.append(ge)

    def order(self, t: int) -> None:
        """Move t, if it could jump back to position u, has a larger key than move u."""
        var, add, n = self.formula.var, self.formula.add, self.g.n
        moved = self.sets[t]
        # dep(u, t): the set of move t meets the closed neighbourhood of move u's set;
        # blocked(u, t): that holds for some move u..t-1 (so move t cannot jump before u).
        later: Lit = False
        for u in range(t - 1, 0, -1):
            dep = var(("dep", u, t))
            witnesses = []
            for r in range(n):
                w = var(("w", u, t, r))
                add(-w, moved[r])
                add(-w, self.near[u][r])
                witnesses.append(w)
            add(-dep, *witnesses)
            blocked = var(("blocked", u, t))
            add(-blocked, dep, later)
            later = blocked
            for r in range(n):
                add(-moved[r], -self.below[u][r + 1], blocked)


def no_repeat(
    formula: Formula, t: int, again: int, merged: list[int], recoloured: list[int]
) -> None:
    """Rule 2 for the free rules (sat.md (S20)): after a move that merges nothing, the next
    one does not recolour the same set again.

    Parameters
    ----------
    formula : Formula
        Where the clauses go.
    t : int
        The later of the two steps (t >= 2).
    again : int
        ``sel[t][t-1]``: step t recolours the class stamped by step t-1, its merged region.
    merged, recoloured : list of int
        ``nm[t-1][·]`` and ``in[t-1][·]``: step t-1's merged region and recoloured set.
    """
    var, add = formula.var, formula.add
    gains = []
    for r in range(len(merged)):
        gain = var(("gain", t - 1, r))
        add(-gain, merged[r])
        add(-gain, -recoloured[r])
        gains.append(gain)
    add(-again, *gains)


def flood_grows(
    formula: Formula,
    t: int,
    noop: int,
    regions: list[int],
    flooded: Callable[[int, int], Lit],
) -> None:
    """Rule 2 for the pivot rules (sat.md (S20)): step t is a no-op, or step t-1 flooded a
    region (so only the last move may flood nothing).

    Parameters
    ----------
    formula : Formula
        Where the clauses go.
    t : int
        The step after the move that must flood something (t >= 2).
    noop : int
        ``noop[t]``.
    regions : list of int
        The regions of the pivot's island.
    flooded : callable
        ``flooded(t, r)``: the literal "r is flooded after step t" (constants folded).
    """
    var, add = formula.var, formula.add
    gains = []
    for r in regions:
        now, before = flooded(t - 1, r), flooded(t - 2, r)
        if isinstance(now, bool) or before is True:
            continue
        gain = var(("gain", t - 1, r))
        add(-gain, now)
        add(-gain, neg_dimacs(before))
        gains.append(gain)
    add(noop, *gains)
