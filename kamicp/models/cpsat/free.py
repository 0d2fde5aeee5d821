"""CP-SAT model of the free rules (KAMI 2): "solvable in at most T moves?".

The model is time-indexed over the region graph of the starting board (the full argument,
with every symmetry-breaking proof, is in ``encodings/cpsat.md``):

- ``colour[t][r][c]``: region r has colour c after step t (step 0 is the start);
- per step t: ``member[t][r]`` (r is recoloured), one-hot old and new colour, ``active[t]``;
  the moved set is exactly one current region: one colour, closed under touching regions of
  that colour, connected from its root (its smallest region) through bounded depth levels;
- frame axioms (every other region keeps its colour), one colour everywhere after step T,
  and no-op steps only at the end, so horizon T means "at most T moves" (C1-C8).

Solution-removing constraints (commuting moves in root order, C11; a set moved twice has
grown, C12) carry a written proof that a solution survives; bounds (colours left, C9; radius
through cuts, C10) hold in every solution. Every variable is named as cpsat.md writes it,
with its indices (``member[3][5]``), so an exported model reads as the document.

Size: O(T * (n * (k + D) + m * k)) variables and clauses, with n regions, m edges, k
colours and D <= 2T the depth bound of the connectivity levels.

References: K. Meeks and A. Scott, "The complexity of Free-Flood-It on 2xn boards" and
"Spanning trees and the complexity of flood-filling games" (TCS 2013, ToCS 2014) for the
rules and merge structure; A. Biere et al., Handbook of Satisfiability (2009), ch. 1-2, for
clause encodings.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from kamicp.game import rules
from kamicp.game.regions import RegionGraph, distances
from kamicp.models.clauses import CpsatClauses, neg_cpsat

__all__ = ["FreeOptions", "FreeVars", "build_free"]


@dataclass(frozen=True)
class FreeOptions:
    """Which optional parts the free model has (all exact; see encodings/cpsat.md)."""

    commute: int = 99  # independent moves in root order, up to this many steps apart
    colour_bound: bool = True  # colours left <= moves left + 1 after every step
    depth_bound: bool = True  # connectivity levels of depth 2(t-1) instead of n-1
    radius_bound: bool = True  # closed cuts between far regions <= 2 * moves left
    max_pairs: int = 400  # region pairs used by the radius bound
    regrow: bool = True  # a set moved twice in a row must have grown in between
    hints: bool = True


@dataclass
class FreeVars:
    """The variables of the model (indices: step 1..T, region, colour; step 0 unused)."""

    horizon: int
    active: list = field(default_factory=list)  # [t] -> bool var (index 0 unused)
    root: list = field(default_factory=list)  # [t][r] -> bool var
    new: list = field(default_factory=list)  # [t][c] -> bool var
    colour: list = field(default_factory=list)  # [t][r][c] -> Lit (t = 0: constants)
    member: list = field(default_factory=list)  # [t][r] -> bool var: r is recoloured
    old: list = field(default_factory=list)  # [t][c] -> bool var: the set's colour before
    prefix: list = field(default_factory=list)  # [t][r] -> bool var: a member is <= r

    def moves(self, solver: cp_model.CpSolver) -> list[tuple[int, int]]:
        """The moves of a solved model, padding dropped."""
        out = []
        for t in range(1, self.horizon + 1):
            if not solver.boolean_value(self.active[t]):
                break
            r = next(r for r, v in enumerate(self.root[t]) if solver.boolean_value(v))
            c = next(c for c, v in enumerate(self.new[t]) if solver.boolean_value(v))
            out.append((r, c))
        return out


def build_free(
    g: RegionGraph,
    horizon: int,
    final_colour: int | None = None,
    options: FreeOptions = FreeOptions(),
    hint: list[tuple[int, int]] | None = None,
) -> tuple[cp_model.CpModel, FreeVars]:
    """The model for ``g`` under free rules and horizon ``horizon``.

    Parameters
    ----------
    g : RegionGraph
        The puzzle (free rules).
    horizon : int
        The most moves allowed.
    final_colour : int or None
        The colour the board must end in, or None for any.
    options : FreeOptions
        The optional parts of the model.
    hint : list of moves, optional
        A solution of at most ``horizon`` moves (e.g. greedy's), given to the solver as a
        starting assignment; it never constrains the model.

    Returns
    -------
    (CpModel, FreeVars)
        The model and its variables (:meth:`FreeVars.moves` reads a solution).
    """
    model = cp_model.CpModel()
    cl = CpsatClauses(model)
    n, k, T = g.n, g.k, horizon
    v = FreeVars(horizon=T)
    # Time 0 is the start: its colours are constants.
    v.colour = [[[r_c == c for c in range(k)] for r_c in g.colour]]
    v.active = [None]
    v.root = [None]
    v.new = [None]
    v.member = [None]
    v.old = [None]
    v.prefix = [None]
    # Stage 1, step by step: the variables of step t and the constraints of one move
    # (cpsat.md, "Variables" and "Constraints"), each made as soon as its variables exist.
    for t in range(1, T + 1):
        col = [[model.new_bool_var(f"colour[{t}][{r}][{c}]") for c in range(k)] for r in range(n)]
        for r in range(n):
            model.add_exactly_one(col[r])  # (C2) one colour per region
        v.colour.append(col)
        act = model.new_bool_var(f"active[{t}]")
        if t > 1:
            cl.implies(act, v.active[t - 1])  # (C1) no-op steps only at the end
        new = [model.new_bool_var(f"new[{t}][{c}]") for c in range(k)]
        old = [model.new_bool_var(f"old[{t}][{c}]") for c in range(k)]
        # (C2) an old and a new colour when active; recolouring to the same one is illegal
        model.add(sum(new) == act)
        model.add(sum(old) == act)
        for c in range(k):
            cl.add(~new[c], ~old[c])
        member = [model.new_bool_var(f"member[{t}][{r}]") for r in range(n)]
        root, prefix = _roots(model, cl, member, act, t)
        _one_move(cl, g, v.colour[t - 1], col, member, old, new)
        _connected(model, cl, g, member, root, _depth(g, t, options), t)
        v.active.append(act)
        v.root.append(root)
        v.new.append(new)
        v.member.append(member)
        v.old.append(old)
        v.prefix.append(prefix)
    # Stage 2, the goal (C8): one colour everywhere after step T (no objective: a feasibility
    # question, decided by kamicp.models.cpsat.horizon.CpsatHorizon).
    _goal(model, cl, g, v.colour[T], final_colour)
    # Stage 3, the optional parts: symmetry breaking (C11, C12; "Symmetry breaking and
    # dominance") and the bounds (C9, C10; "Bounds").
    if options.commute:
        _commute(model, cl, g, v, options.commute)
    if options.regrow:
        for t in range(1, T):
            _regrow(model, cl, g, v, t)
    if options.colour_bound:
        for t in range(1, T):
            _colour_bound(model, cl, g, v.colour[t], T - t, final_colour, t)
    if options.radius_bound:
        pairs = _pairs(g, [distances(g, z) for z in range(g.n)], options.max_pairs)
        for t in range(1, T):
            _pair_bound(model, cl, g, v.colour[t], T - t, pairs, t)
    if hint is not None and options.hints:
        _hint(model, g, v, hint)
    return model, v


def _roots(model, cl: CpsatClauses, member, act, t: int):
    """(C6) Root = the smallest member; ``prefix[r]`` = some member has index <= r.

    The root is a function of the members, so choosing it adds no symmetry; ``act`` holds
    exactly when the set is non-empty.
    """
    n = len(member)
    prefix = [model.new_bool_var(f"prefix[{t}][{r}]") for r in range(n)]
    root = [model.new_bool_var(f"root[{t}][{r}]") for r in range(n)]
    for r in range(n):
        earlier = prefix[r - 1] if r else False
        cl.add(~prefix[r], earlier, member[r])
        cl.implies(member[r], prefix[r])
        if r:
            cl.implies(prefix[r - 1], prefix[r])
        cl.implies(root[r], member[r])
        if r:
            cl.implies(root[r], ~prefix[r - 1])
        cl.add(~member[r], earlier, root[r])
    model.add(prefix[n - 1] == act)
    return root, prefix


def _one_move(cl: CpsatClauses, g: RegionGraph, before, after, member, old, new) -> None:
    """Members had the old colour and get the new one (C3); frame axioms (C4); the set is
    maximal (C5)."""
    k = g.k
    for r in range(g.n):
        for c in range(k):
            cl.add(~member[r], ~old[c], before[r][c])  # (C3)
            cl.add(~member[r], ~new[c], after[r][c])
            # (C4) frame: a region outside the set keeps its colour
            cl.add(member[r], neg_cpsat(before[r][c]), after[r][c])
            cl.add(member[r], before[r][c], ~after[r][c])
        for s in g.adj[r]:
            for c in range(k):
                # (C5) maximal: a touching region of the old colour is in the set too
                cl.add(~member[r], member[s], ~old[c], neg_cpsat(before[s][c]))


def _depth(g: RegionGraph, t: int, options: FreeOptions) -> int:
    """Depth bound of the connectivity levels at step t.

    A current region formed by m moves has diameter at most 2m inside itself (proof in
    encodings/cpsat.md), and before step t at most t-1 moves were made.
    """
    largest = max(len(p) for p in g.islands)
    if options.depth_bound:
        return min(2 * (t - 1), largest - 1)
    return largest - 1


def _connected(model, cl: CpsatClauses, g: RegionGraph, member, root, depth: int, t: int) -> None:
    """(C7) Every member is joined to the root through members within ``depth`` edges.

    ``level[t][j][r]``: r is a member at distance <= j from the root inside the set of step
    t. Level 0 is the root and the last level is the member set itself.
    """
    n = g.n
    level = [list(root)]
    for j in range(1, depth + 1):
        if j == depth:
            cur = list(member)
        else:
            cur = [model.new_bool_var(f"level[{t}][{j}][{r}]") for r in range(n)]
        prev = level[-1]
        for r in range(n):
            cl.implies(prev[r], cur[r])
            cl.implies(cur[r], member[r])
            cl.add(~cur[r], prev[r], *(prev[s] for s in g.adj[r]))
        level.append(cur)
    if depth == 0:
        for r in range(n):
            cl.implies(member[r], root[r])


def _goal(model, cl: CpsatClauses, g: RegionGraph, last, final_colour: int | None) -> None:
    """(C8) One colour everywhere after the last step (islands included)."""
    k = g.k
    if final_colour is not None:
        for r in range(g.n):
            cl.add(last[r][final_colour])
        return
    fin = [model.new_bool_var(f"fin[{c}]") for c in range(k)]
    model.add_exactly_one(fin)
    for r in range(g.n):
        for c in range(k):
            cl.add(~fin[c], last[r][c])


def _dependent(model, cl: CpsatClauses, g: RegionGraph, v: FreeVars, i: int, j: int):
    """(C11) ``dep[i][j]``, a literal that may be true only if move j cannot be swapped
    with move i.

    Swapping two adjacent moves x, y (x first) is legal and reaches the same position when
    their sets are disjoint and either y's set does not touch x's, or old(y) != old(x) and
    new(y) != old(x) (proof in encodings/cpsat.md). These conditions only read the sets
    and colours of the two moves, so they also decide whether y can jump back over x when
    other independent moves lie between them.
    """
    n, k = g.n, g.k
    a, b = v.member[i], v.member[j]
    olds, news, roots = v.old, v.new, v.root
    dep = model.new_bool_var(f"dep[{i}][{j}]")
    overlap = model.new_bool_var(f"overlap[{i}][{j}]")  # move j's set holds move i's root
    for r in range(n):
        cl.add(~overlap, ~roots[i][r], b[r])
    touch = model.new_bool_var(f"touch[{i}][{j}]")  # move j's set is in or next to move i's
    witness = [model.new_bool_var(f"witness[{i}][{j}][{r}]") for r in range(n)]
    cl.add(~touch, *witness)
    for r in range(n):
        cl.implies(witness[r], b[r])
        cl.add(~witness[r], a[r], *(a[s] for s in g.adj[r]))
    same_old = model.new_bool_var(f"same_old[{i}][{j}]")
    back = model.new_bool_var(f"back[{i}][{j}]")
    for c in range(k):
        cl.add(~same_old, ~olds[i][c], olds[j][c])
        cl.add(~back, ~olds[i][c], news[j][c])
    cl.add(~dep, overlap, touch)
    cl.add(~dep, overlap, same_old, back)
    return dep


def _commute(model, cl: CpsatClauses, g: RegionGraph, v: FreeVars, reach: int) -> None:
    """(C11) Lexicographic normal form of commuting moves (encodings/cpsat.md).

    If move j could jump back over moves i..j-1 (independent of each of them), then
    root(i) < root(j); otherwise the jump gives a solution whose sequence of roots is
    lexicographically smaller. ``reach`` limits j - i (1: adjacent moves only).
    """
    n = g.n
    for j in range(2, v.horizon + 1):
        free = None  # move j is independent of moves i..j-1
        for i in range(j - 1, max(0, j - reach - 1), -1):
            dep = _dependent(model, cl, g, v, i, j)
            now = model.new_bool_var(f"free[{i}][{j}]")
            if free is None:
                cl.add(dep, now)
            else:
                cl.add(dep, ~free, now)
            free = now
            # free: root(i) < root(j), i.e. some member of move i lies below root(j)
            for r in range(n):
                cl.add(~v.root[j][r], ~free, v.prefix[i][r - 1] if r else False)


def _regrow(model, cl: CpsatClauses, g: RegionGraph, v: FreeVars, t: int) -> None:
    """(C12) If move t+1 recolours move t's set again, move t merged something on the way.

    Otherwise the two moves recolour the same set twice, and one move (or none, when the
    second restores the old colour) reaches the same position: a shorter solution exists.
    """
    a, b, root_a = v.member[t], v.member[t + 1], v.root[t]
    grew = [model.new_bool_var(f"grew[{t}][{r}]") for r in range(g.n)]
    for r in range(g.n):
        cl.implies(grew[r], b[r])
        cl.implies(grew[r], ~a[r])
        cl.add(~root_a[r], ~b[r], *grew)


def _colour_bound(
    model, cl: CpsatClauses, g: RegionGraph, col, left: int, final_colour, t: int
) -> None:
    """(C9) A move removes at most one colour from the board: colours left <= moves left + 1.

    With a final colour f: colours other than f left <= moves left.
    """
    k = g.k
    limit = left if final_colour is not None else left + 1
    counted = [c for c in range(k) if c != final_colour]
    if len(counted) <= limit:
        return
    present = [model.new_bool_var(f"present[{t}][{c}]") for c in counted]
    for i, c in enumerate(counted):
        for r in range(g.n):
            cl.implies(col[r][c], present[i])
    model.add(sum(present) <= limit)


def _cuts(g: RegionGraph, dist, x: int, y: int) -> list[tuple[tuple[int, int], ...]]:
    """Disjoint edge cuts between x and y, one per unit of their distance D.

    The level sets of the 1-Lipschitz potential phi(v) = floor((d(x,v) - d(y,v) + D) / 2)
    (phi(x) = 0, phi(y) = D): cut i holds the edges from level i-1 to level i, and every
    path from x to y crosses every cut. On a tree, phi is the position of v's projection on
    the x-y path, so each cut is one edge of that path.
    """
    dx, dy = dist[x], dist[y]
    big = dx[y]
    phi = {v: (dx[v] - dy[v] + big) // 2 for v in dx}
    cuts = [[] for _ in range(big)]
    for u in dx:
        for w in g.adj[u]:
            if phi[w] == phi[u] + 1:
                cuts[phi[u]].append((min(u, w), max(u, w)))
    return [tuple(sorted(c)) for c in cuts]


def _pairs(g: RegionGraph, dist, limit: int) -> list[tuple[int, int, int, list]]:
    """Pairs (distance, x, y, cuts) of peripheral regions, farthest first (at most ``limit``).

    Peripheral: no neighbour has a larger eccentricity (the leaves, on a tree). Any pair
    gives a valid bound; these are the ones most likely to bind.
    """
    ecc = [max(d.values()) for d in dist]
    ends = [v for v in range(g.n) if all(ecc[w] <= ecc[v] for w in g.adj[v])]
    pairs = [(dist[x][y], x, y) for i, x in enumerate(ends) for y in ends[i + 1 :] if y in dist[x]]
    pairs.sort(reverse=True)
    return [(d, x, y, _cuts(g, dist, x, y)) for d, x, y in pairs[:limit] if d >= 3]


def _pair_bound(model, cl: CpsatClauses, g: RegionGraph, col, left: int, pairs, t: int) -> None:
    """(C10) Each move shortens any 0-1 distance by at most 2: d_t(x, y) <= 2 * (moves left).

    d_t(x, y) is at least the number of *closed* cuts of the pair (every crossing edge joins
    two colours), since a path crosses every cut. ``open`` may be true only when a
    crossing edge joins one colour, so the count is a valid lower bound. On a tree this is
    exactly the radius bound (radius = ceil(diameter / 2)).
    """
    opened: dict[tuple, object] = {}
    same: dict[tuple[int, int], object] = {}

    def same_colour(u, w):
        if (u, w) not in same:
            lit = model.new_bool_var(f"same[{t}][{u}][{w}]")
            for c in range(g.k):
                cl.add(~lit, neg_cpsat(col[u][c]), col[w][c])
            same[(u, w)] = lit
        return same[(u, w)]

    def open_cut(edges, name):
        if edges not in opened:
            if len(edges) == 1:
                opened[edges] = same_colour(*edges[0])
            else:
                lit = model.new_bool_var(name)
                cl.add(~lit, *(same_colour(u, w) for u, w in edges))
                opened[edges] = lit
        return opened[edges]

    for d, x, y, cuts in pairs:
        if d <= 2 * left:
            continue
        names = [f"open[{t}][{x}][{y}][{i}]" for i in range(len(cuts))]
        model.add(
            sum(open_cut(c, name) for c, name in zip(cuts, names, strict=True)) >= d - 2 * left
        )


def _hint(model, g: RegionGraph, v: FreeVars, moves) -> None:
    """Hint the colours, moves and members of a known solution (search guidance only)."""
    pos = rules.start(g)
    for t in range(1, v.horizon + 1):
        move = moves[t - 1] if t <= len(moves) else None
        part = set(rules.current_region(g, pos, move[0])) if move else set()
        model.add_hint(v.active[t], move is not None)
        for r in range(g.n):
            model.add_hint(v.member[t][r], r in part)
            model.add_hint(v.root[t][r], bool(part) and r == min(part))
        for c in range(g.k):
            model.add_hint(v.new[t][c], move is not None and c == move[1])
        if move:
            pos = rules.apply(g, pos, move)
        for r in range(g.n):
            for c in range(g.k):
                model.add_hint(v.colour[t][r][c], pos[r] == c)
