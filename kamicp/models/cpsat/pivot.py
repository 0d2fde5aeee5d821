"""CP-SAT model of the pivot rules (Flood-It): "solvable in at most T moves?".

Under pivot rules only the flood (the current region holding the pivot) is recoloured, so
every region outside it keeps its starting colour. The model therefore needs no colour per
region, only the flooded set per step, which grows monotonically:

- ``flooded[t][r]`` for t = 0..T, ``flooded[0]`` = the pivot's region;
- ``chosen[t][c]``: the colour chosen at step t (none on a no-op step, only at the end;
  C13), ``flood_colour[t][c]`` the flood's colour after it (C14);
- r joins at step t exactly when it touches the flood of step t-1 and the chosen colour is
  r's own (two adjacent starting regions never share a colour, so nothing joins through a
  region that joins at the same step; C15);
- the whole piece of the pivot is flooded after step T, in the final colour if one is asked
  (other pieces never change: each must be a single region, all of one colour; C16).

Bounds (hold in every solution): a region at distance d from the flood needs d more moves
(C17); colours outside the flood need one move each (C18), counted beyond any distance
layer (C19). Dominance (proved in ``encodings/cpsat.md``): a move that floods nothing is
never followed by another move (C20); a colour whose remaining regions all touch the flood
is played at once (C21). Every variable is named as cpsat.md writes it, with its indices
(``flooded[3][5]``), so an exported model reads as the document.

Size: O(T * (n * L + m)) variables and clauses, with L the number of distance layers.
References: D. Arthur, R. Clifford, M. Jalsenius, A. Montanaro and B. Sach, "The complexity
of flood filling games" (FUN 2010), for the rules and the colour/distance bounds.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from kamicp.bounds import pivot_final_colour
from kamicp.game import rules
from kamicp.game.regions import RegionGraph, distances
from kamicp.models.clauses import CpsatClauses, neg_cpsat

__all__ = ["PivotOptions", "PivotVars", "build_pivot"]


@dataclass(frozen=True)
class PivotOptions:
    """Which optional parts the pivot model has (see encodings/cpsat.md)."""

    distance_bound: bool = True  # every region within (moves left) of the flood
    colour_bound: bool = True  # colours outside the flood <= moves left
    layer_bound: bool = True  # (j - 1) + colours at distance >= j <= moves left
    progress: bool = True  # every move but the last floods something
    eliminate: bool = True  # a colour that one move removes entirely is played at once
    hints: bool = True


@dataclass
class PivotVars:
    """The variables a solution is read from."""

    horizon: int
    pivot: int
    active: list = field(default_factory=list)  # [t] (index 0 unused)
    chosen: list = field(default_factory=list)  # [t][c]: the colour played at step t
    never: bool = False  # the board cannot be solved at all (other pieces differ)

    def moves(self, solver: cp_model.CpSolver) -> list[tuple[int, int]]:
        """The moves of a solved model, padding dropped."""
        out = []
        for t in range(1, self.horizon + 1):
            if not solver.boolean_value(self.active[t]):
                break
            c = next(c for c, v in enumerate(self.chosen[t]) if solver.boolean_value(v))
            out.append((self.pivot, c))
        return out


def build_pivot(
    g: RegionGraph,
    horizon: int,
    final_colour: int | None = None,
    options: PivotOptions = PivotOptions(),
    hint: list[tuple[int, int]] | None = None,
) -> tuple[cp_model.CpModel, PivotVars]:
    """The model for ``g`` under pivot rules and horizon ``horizon``.

    Parameters
    ----------
    g : RegionGraph
        The puzzle (pivot rules).
    horizon : int
        The most moves allowed.
    final_colour : int or None
        The colour the board must end in, or None for any.
    options : PivotOptions
        The optional parts of the model.
    hint : list of moves, optional
        A solution of at most ``horizon`` moves, given to the solver as a starting
        assignment; it never constrains the model.

    Returns
    -------
    (CpModel, PivotVars)
        The model and its variables (:meth:`PivotVars.moves` reads a solution).
    """
    model = cp_model.CpModel()
    cl = CpsatClauses(model)
    k, T, p = g.k, horizon, g.pivot
    v = PivotVars(horizon=T, pivot=p)
    ok, fc = pivot_final_colour(g, final_colour)
    if not ok:
        v.never = True
        cl.add()  # (C16) infeasible at every horizon
        return model, v
    dist = distances(g, p)
    piece = sorted(dist)
    # Time 0 is the start: the flood is the pivot's region, in its colour.
    flooded = [{r: r == p for r in piece}]
    flood_colour = [[c == g.colour[p] for c in range(k)]]
    v.active = [None]
    v.chosen = [None]
    # Stage 1, step by step: the colour played, the flood's colour and the flooded set of
    # step t (cpsat.md, "2. Pivot rules"), each constraint made as soon as its variables exist.
    for t in range(1, T + 1):
        # (C13) no-op steps only at the end; one colour played when active
        act = model.new_bool_var(f"active[{t}]")
        if t > 1:
            cl.implies(act, v.active[t - 1])
        chosen = [model.new_bool_var(f"chosen[{t}][{c}]") for c in range(k)]
        model.add(sum(chosen) == act)
        # (C14) the flood's colour: the one played, which differs from the one before; kept
        # on a no-op step
        now = [model.new_bool_var(f"flood_colour[{t}][{c}]") for c in range(k)]
        model.add_exactly_one(now)
        for c in range(k):
            cl.add(~chosen[c], neg_cpsat(flood_colour[-1][c]))
            cl.implies(chosen[c], now[c])
            cl.add(act, neg_cpsat(flood_colour[-1][c]), now[c])
        # (C15) growth
        fl = {r: (True if r == p else model.new_bool_var(f"flooded[{t}][{r}]")) for r in piece}
        prev = flooded[-1]
        for r in piece:
            if r == p:
                continue
            c = g.colour[r]
            cl.implies(prev[r], fl[r])
            cl.add(~fl[r], prev[r], chosen[c])
            cl.add(~fl[r], prev[r], *(prev[s] for s in g.adj[r]))
            for s in g.adj[r]:
                cl.add(~chosen[c], neg_cpsat(prev[s]), fl[r])
        flooded.append(fl)
        flood_colour.append(now)
        v.active.append(act)
        v.chosen.append(chosen)
    # Stage 2, the goal (C16): the whole piece flooded after step T (no objective: a
    # feasibility question, decided by kamicp.models.cpsat.horizon.CpsatHorizon).
    for r in piece:
        cl.add(flooded[T][r])
    if fc is not None:
        cl.add(flood_colour[T][fc])
    # Stage 3, the optional parts: the bounds (C17-C19, "Bounds (implied)") and the
    # dominance rules (C20, C21, "Dominance").
    if options.distance_bound:
        for t in range(1, T + 1):
            _distance_bound(cl, g, piece, dist, flooded[t], T - t)
    if options.colour_bound:
        for t in range(1, T):
            _colour_bound(model, cl, g, piece, flooded[t], T - t, fc, t)
    if options.layer_bound:
        for t in range(1, T):
            _layer_bound(model, cl, g, piece, flooded[t], T - t, t)
    if options.progress:
        for t in range(1, T):
            _progress(model, cl, piece, flooded[t - 1], flooded[t], v.active[t + 1], t)
    if options.eliminate:
        for t in range(1, T + 1):
            _eliminate(model, cl, g, piece, flooded[t - 1], v.chosen[t], fc, t)
    if hint is not None and options.hints:
        _hint(model, g, v, flooded, hint)
    return model, v


def _distance_bound(cl: CpsatClauses, g: RegionGraph, piece, dist, fl, left: int) -> None:
    """(C17) The flood grows by one hop per move: every region is within ``left`` hops of it."""
    for r in piece:
        if dist[r] <= left:
            continue  # the pivot itself is close enough
        near = distances(g, r, left)
        cl.add(*(fl[s] for s in near))


def _colour_bound(
    model, cl: CpsatClauses, g: RegionGraph, piece, fl, left: int, fc, t: int
) -> None:
    """(C18) Each colour outside the flood needs its own move; with a final colour f that is
    not yet the flood's, one more move (so colours other than f <= moves left - 1).

    ``outside[t][c]``: a region of colour c is not flooded after step t.
    """
    colours = sorted({g.colour[r] for r in piece})
    out = {c: model.new_bool_var(f"outside[{t}][{c}]") for c in colours}
    for r in piece:
        cl.add(fl[r], out[g.colour[r]])
    model.add(sum(out.values()) <= left)
    if fc is not None and left >= 1:
        model.add(sum(out[c] for c in colours if c != fc) <= left - 1)


def _layer_bound(model, cl: CpsatClauses, g: RegionGraph, piece, fl, left: int, t: int) -> None:
    """(C19) Regions at distance >= j from the flood join at move j or later, one move per
    colour: (j - 1) + (colours at distance >= j) <= moves left, for every j >= 2.

    ``near[t][j][r]`` may be true only if r is within j hops of the flood after step t
    (checked through a neighbour at j - 1), so a false ``near`` forces the colour of r to be
    counted in ``far[t][j][c]``: colour c has a region at distance >= j.
    """
    colours = sorted({g.colour[r] for r in piece})
    near = [dict(fl)]
    for j in range(1, left + 1):
        layer = {}
        for r in piece:
            x = model.new_bool_var(f"near[{t}][{j}][{r}]")
            cl.add(~x, near[-1][r], *(near[-1][s] for s in g.adj[r]))
            layer[r] = x
        near.append(layer)
        # regions not within j - 1 hops of the flood are at distance >= j
        if j >= 2 and len(colours) > left - (j - 1):
            far = {c: model.new_bool_var(f"far[{t}][{j}][{c}]") for c in colours}
            for r in piece:
                cl.add(near[j - 1][r], far[g.colour[r]])
            model.add(sum(far.values()) <= left - (j - 1))


def _progress(model, cl: CpsatClauses, piece, before, after, next_active, t: int) -> None:
    """(C20) A move that floods nothing only changes the flood's colour; unless it is the
    last move, dropping it (and the next if that restores the old colour) gives a shorter
    solution (encodings/cpsat.md), so an optimal solution never has one.

    ``joined[t][r]``: r is flooded after step t and not before.
    """
    grew = []
    for r in piece:
        if after[r] is True:
            continue
        x = model.new_bool_var(f"joined[{t}][{r}]")
        cl.implies(x, after[r])
        cl.implies(x, neg_cpsat(before[r]))
        grew.append(x)
    cl.add(~next_active, *grew)


def _eliminate(model, cl: CpsatClauses, g: RegionGraph, piece, fl, chosen, fc, t: int) -> None:
    """(C21) If one move can flood every remaining region of a colour c != final colour,
    some such colour is played at step t (exchange argument in encodings/cpsat.md).

    Over the flood before step t: ``touch[t][r]`` holds exactly when r touches it;
    ``can[t][c]`` exactly when c is left outside it and every region of c left outside
    touches it.
    """
    colours = sorted({g.colour[r] for r in piece} - {fc})
    touch = {}
    for r in piece:
        if fl[r] is True:
            continue
        x = model.new_bool_var(f"touch[{t}][{r}]")
        nbrs = [fl[s] for s in g.adj[r]]
        cl.add(~x, *nbrs)
        for y in nbrs:
            cl.implies(y, x)
        touch[r] = x
    can = {}
    for c in colours:
        regions = [r for r in piece if g.colour[r] == c and fl[r] is not True]
        if not regions:
            continue
        x = model.new_bool_var(f"can[{t}][{c}]")
        # x -> some region of c is outside the flood, and each such region touches it
        cl.add(~x, *(neg_cpsat(fl[r]) for r in regions))
        for r in regions:
            cl.add(~x, fl[r], touch[r])
        # not x -> all of c is flooded, or some region of c is outside and not touching
        all_in = model.new_bool_var(f"all_in[{t}][{c}]")
        for r in regions:
            cl.implies(all_in, fl[r])
        apart = []
        for r in regions:
            y = model.new_bool_var(f"apart[{t}][{r}]")
            cl.implies(y, neg_cpsat(fl[r]))
            cl.implies(y, ~touch[r])
            apart.append(y)
        cl.add(x, all_in, *apart)
        can[c] = x
    for c, x in can.items():
        plays = (_both(model, cl, chosen[d], y, f"both[{t}][{c}][{d}]") for d, y in can.items())
        cl.add(~x, *plays)


def _both(model, cl: CpsatClauses, a, b, name: str):
    """A literal named ``name`` that implies both ``a`` and ``b``."""
    x = model.new_bool_var(name)
    cl.implies(x, a)
    cl.implies(x, b)
    return x


def _hint(model, g: RegionGraph, v: PivotVars, flooded, moves) -> None:
    """Hint a known solution (search guidance only)."""
    pos = rules.start(g)
    for t in range(1, v.horizon + 1):
        move = moves[t - 1] if t <= len(moves) else None
        model.add_hint(v.active[t], move is not None)
        for c in range(g.k):
            model.add_hint(v.chosen[t][c], move is not None and move[1] == c)
        if move:
            pos = rules.apply(g, pos, move)
        inside = set(rules.current_region(g, pos, g.pivot))
        for r, lit in flooded[t].items():
            if lit is not True:
                model.add_hint(lit, r in inside)
