"""Every distinct optimal solution, and which first moves still allow an optimal finish.

For level designers: is the answer unique? Solutions that differ only in the order of moves
that commute are counted once.

Two moves commute when the sets of starting regions they recolour are disjoint and do not
touch: recolouring one then changes neither the other's current region nor what it merges
with. A move is identified by the set it recolours and the new colour, so independence is a
fixed relation between moves, and solutions equal up to swapping adjacent independent moves
form a trace (Mazurkiewicz, "Trace theory", 1987). The Foata normal form (layers of
pairwise independent moves, each layer sorted) is a canonical representative of a trace
(Cartier and Foata, 1969), so counting distinct normal forms counts distinct solutions.

The enumeration is a depth-first search to the proved optimal depth, pruned with the
admissible bounds of :mod:`kamicp.bounds` and a
table of positions known to fail at a depth.
Exponential in the worst case; ``cap`` stops it after that many distinct solutions.
"""

from __future__ import annotations

import time

from kamicp import bounds
from kamicp.game import rules
from kamicp.game.regions import RegionGraph, from_edges
from kamicp.solving.solve import SolveOptions, solve

__all__ = [
    "LEAST_MOVE_SECONDS",
    "Letter",
    "all_optimal",
    "foata",
    "independent",
    "letters",
    "optimal_first_moves",
]

Letter = tuple[frozenset, int]

# Seconds a first move's solve takes at least, whatever its time limit: its bounds and beam
# run before the limit is looked at (0.8 s with a limit of 0.05 s on the 52 regions of the
# KAMI 2 level Bud1, loaded machine). With less time left a move is not asked, so the
# question ends within a second of its deadline.
LEAST_MOVE_SECONDS = 1.0


def letters(g: RegionGraph, moves: list[rules.Move]) -> list[Letter]:
    """Each move as (set of starting regions it recolours, new colour).

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    moves : list of (int, int)
        Legal moves from the start.

    Returns
    -------
    list of (frozenset of int, int)
        One letter per move.

    Raises
    ------
    kamicp.errors.IllegalMove
        At the first illegal move.

    Examples
    --------
    >>> from kamicp.game.regions import from_edges
    >>> g = from_edges([0, 1, 0, 2, 0], [(i, i + 1) for i in range(4)])
    >>> letters(g, [(1, 0), (0, 2)])
    [(frozenset({1}), 0), (frozenset({0, 1, 2}), 2)]
    """
    pos, out = rules.start(g), []
    for region, colour in moves:
        out.append((frozenset(rules.current_region(g, pos, region)), colour))
        pos = rules.apply(g, pos, (region, colour))
    return out


def independent(g: RegionGraph, a: Letter, b: Letter) -> bool:
    """True when the two moves touch disjoint, non-adjacent sets of regions (so they commute).

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    a, b : (frozenset of int, int)
        Two letters (see :func:`letters`).

    Returns
    -------
    bool
        Whether they are independent.
    """
    if a[0] & b[0]:
        return False
    return not any(s in b[0] for r in a[0] for s in g.adj[r])


def foata(g: RegionGraph, moves: list[rules.Move]) -> tuple:
    """The Foata normal form of ``moves``: a canonical key for its commutation class.

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    moves : list of (int, int)
        Legal moves from the start.

    Returns
    -------
    tuple
        Layers of letters, each layer sorted; two move sequences that differ only in the
        order of independent moves have the same key.

    Notes
    -----
    O(m^2) independence tests for m moves.

    Examples
    --------
    >>> from kamicp.game.regions import from_edges
    >>> g = from_edges([0, 1, 0, 2, 0], [(i, i + 1) for i in range(4)])
    >>> foata(g, [(1, 0), (3, 0)]) == foata(g, [(3, 0), (1, 0)])
    True
    """
    word = letters(g, moves)
    level = []
    for i, a in enumerate(word):
        deps = [level[j] for j in range(i) if not independent(g, word[j], a)]
        level.append(1 + max(deps, default=-1))
    layers = [[] for _ in range(max(level, default=-1) + 1)]
    for a, lv in zip(word, level, strict=True):
        layers[lv].append((tuple(sorted(a[0])), a[1]))
    return tuple(tuple(sorted(layer)) for layer in layers)


def all_optimal(
    g: RegionGraph, optimum: int, cap: int | None = 100, final_colour: int | None = None
) -> list[list[rules.Move]]:
    """Up to ``cap`` optimal solutions (length ``optimum``), one per commutation class.

    A depth-first search cut by the admissible lower bound, remembering the (position,
    moves left) pairs that have no solution.

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    optimum : int
        The proved optimum.
    cap : int or None
        How many solutions at most (None: all).
    final_colour : int or None
        The colour the board must end in, or None for any.

    Returns
    -------
    list of list of (int, int)
        The solutions, one per class of :func:`foata`.

    Examples
    --------
    >>> from kamicp.game.regions import from_edges
    >>> g = from_edges([0, 1, 0, 2, 0], [(i, i + 1) for i in range(4)])
    >>> all_optimal(g, 2)
    [[(1, 0), (3, 0)]]
    """
    found: dict[tuple, list[rules.Move]] = {}
    dead: set[tuple] = set()  # (position, moves left) known to have no solution

    def dfs(pos, path) -> None:
        left = optimum - len(path)
        if rules.is_solved(pos, final_colour):
            if left == 0:
                found.setdefault(foata(g, path), list(path))
            return
        if left <= 0 or (pos, left) in dead:
            return
        if bounds.lower_bound(g, pos, final_colour, walks=False) > left:
            dead.add((pos, left))
            return
        before = len(found)
        for move in rules.legal_moves(g, pos):
            if cap is not None and len(found) >= cap:
                return
            path.append(move)
            dfs(rules.apply(g, pos, move), path)
            path.pop()
        if len(found) == before:
            dead.add((pos, left))

    dfs(rules.start(g), [])
    return list(found.values())


def optimal_first_moves(
    g: RegionGraph,
    optimum: int,
    solver: str = "cpsat",
    time_limit: float | None = None,
    deadline: float | None = None,
    done=None,
) -> list[tuple[rules.Move, str]]:
    """Each legal first move and whether an optimal finish remains after it.

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    optimum : int
        The proved optimum.
    solver : str
        The solver asked after each move.
    time_limit : float or None
        Seconds for each move's solve.
    deadline : float or None
        A ``time.monotonic()`` value by which to be done: each solve stops there, and the
        moves not asked by then (less than :data:`LEAST_MOVE_SECONDS` left) are
        ``"unknown"``.
    done : callable or None
        Called with no argument after each first move is decided (a progress bar).

    Returns
    -------
    list of ((int, int), str)
        Each first move with ``"yes"`` (a solution of ``optimum - 1`` moves from there),
        ``"no"`` (proved impossible) or ``"unknown"`` (time limit).

    Raises
    ------
    KeyboardInterrupt
        When a solve was interrupted: Ctrl-C stops the whole question.
    """
    out = []
    start = rules.start(g)
    for move in rules.legal_moves(g, start):
        after = rules.apply(g, start, move)
        if deadline is not None and deadline - time.monotonic() < LEAST_MOVE_SECONDS:
            out.append((move, "unknown"))  # not asked: the time is up
        elif bounds.lower_bound(g, after) > optimum - 1:  # admissible: no finish that short
            out.append((move, "no"))
        else:
            limit = time_limit
            if deadline is not None:
                left = deadline - time.monotonic()
                limit = left if limit is None else min(limit, left)
            sub = _regraph(g, after)
            r = solve(sub, solver, SolveOptions(max_moves=optimum - 1, time_limit=limit))
            if r.interrupted:
                raise KeyboardInterrupt  # Ctrl-C stops the whole question, not one move's
            answer = {"optimal": "yes", "feasible": "yes", "infeasible": "no"}
            out.append((move, answer.get(r.status, "unknown")))
        if done is not None:
            done()
    return out


def _regraph(g: RegionGraph, pos: rules.Position) -> RegionGraph:
    """The region graph of a position (current regions contracted)."""
    return from_edges(list(pos), g.edges(), k=g.k, rules=g.rules, pivot=g.pivot)
