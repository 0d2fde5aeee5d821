"""Greedy solutions: a quick upper bound on the optimum, on boards of any size.

Both strategies are small beam searches (keep the ``width`` best positions per move, scored
by an admissible bound of what is left, so the score is an estimate of the total length):

- flood (pivot rules, and free rules from a few central regions): recolour the growing
  region to a colour of one of its neighbours; score = the layered bound from the flood's
  source (``d`` + colours beyond ``d``, see :func:`kamicp.bounds.pivot_layer_bound`), then
  the larger region;
- free moves (free rules): any move that merges; score = the piece's radius/colour bound,
  then fewer regions. Its width shrinks on big pieces to keep the cost per move bounded.

On a board in pieces, each piece is finished its cheapest way for each final colour (one
more move recolours a finished piece), and the final colour minimising the total wins.

Every move merges at least one region, so a piece of n regions takes at most n - 1 moves
plus one final recolouring: the greedy always terminates with a solution when one exists
(pivot rules with pieces the pivot cannot reach: None).

Complexity: a flood is O(moves * width * colours * (n + m)); the free-move beam scores at
most ``FREE_BUDGET * width / WIDTH`` children per move, each in O(n + m) (the radius comes
from the parent's balls); the centres cost one BFS per node of a piece. Boards above
:data:`BIG` regions take :func:`~kamicp.search.sweep.sweep` instead: plain floods played
incrementally, O(moves * border + n + m).
"""

from __future__ import annotations

from kamicp.bounds import Current, contract, piece_radius, pivot_final, pivot_layers, solvable
from kamicp.game.regions import RegionGraph
from kamicp.game.rules import Move
from kamicp.procs.deadline import Deadline
from kamicp.search.sweep import sweep

__all__ = [
    "BIG",
    "CENTRES",
    "FREE_BUDGET",
    "WIDTH",
    "central_nodes",
    "flood",
    "free_beam",
    "greedy",
    "layer_score",
    "piece_options",
]

# beam width (the exact searches also try upper_bound.UPPER_WIDTH = 32 where 4 falls short)
WIDTH = 4
CENTRES = 4  # floods from this many of the most central nodes of each piece (free rules)
FREE_BUDGET = 1500  # children scored per move by the free-move beam
# Boards of more regions (free rules, pivot rules) take the sweep (:func:`sweep`),
# near-linear, instead of the beams, whose moves cost O(n + m) each and whose centres O(n^2):
# moves against time: the quick beam then ends within a second (BENCHMARKS.md, "Big boards":
# the free beam takes 2.6 s on 462 regions, the pivot beam 2.3 s on 5,226).
BIG = {"free": 250, "pivot": 2500}

Option = tuple[list[Move], int]  # moves, and the colour the piece ends in


def _in_time(deadline: float | None) -> None:
    """Raise :class:`~kamicp.procs.deadline.LimitReached` once ``deadline`` (a
    ``time.monotonic()`` value) is past (or the memory limit, :mod:`kamicp.procs.memory`).
    None never raises: a beam without a deadline always finishes (its callers need it)."""
    if deadline is not None:
        Deadline(deadline).check()


def greedy(
    g: RegionGraph,
    final_colour: int | None = None,
    width: int = WIDTH,
    deadline: float | None = None,
) -> list[Move] | None:
    """A solution (not necessarily optimal), or None when the board cannot be solved.

    Pivot rules flood from the pivot; free rules take, piece by piece, the best of floods
    from central nodes and a beam of merging moves anywhere (:func:`piece_options`).

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    final_colour : int or None
        The colour the board must end in, or None for any.
    width : int
        The beam width.
    deadline : float or None
        A ``time.monotonic()`` value, checked before every move of every beam: a wide beam
        can take minutes.

    Returns
    -------
    list of (int, int) or None
        The moves, or None if the board cannot be solved (in ``final_colour``).

    Raises
    ------
    kamicp.procs.deadline.LimitReached
        Once ``deadline`` has passed.

    Examples
    --------
    >>> from kamicp.game import rules
    >>> from kamicp.game.regions import from_edges
    >>> g = from_edges([0, 1, 0, 2, 0], [(i, i + 1) for i in range(4)])
    >>> moves = greedy(g)
    >>> rules.verify_solution(g, moves); len(moves)
    2
    """
    if not solvable(g, None, final_colour):
        return None
    if g.n > BIG[g.rules]:
        return sweep(g, final_colour, deadline)
    cur = contract(g)
    if g.rules == "pivot":
        final = pivot_final(cur, final_colour)  # the other pieces never change
        moves, end = flood(cur, cur.pivot, width, final, deadline)
        if final is not None and end != final:
            moves.append((cur.pivot, final))
        return moves
    finals = range(g.k) if final_colour is None else (final_colour,)
    if len(cur.islands) == 1 and final_colour is None:
        moves, _ = min(piece_options(cur, 0, width, None, deadline), key=lambda o: len(o[0]))
        return moves
    # Pieces in any order; each brought to the final colour f its own cheapest way.
    plans = {f: [] for f in finals}
    for i in range(len(cur.islands)):
        for f in finals:
            options = piece_options(cur, i, width, f, deadline)
            m, end = min(options, key=lambda o: len(o[0]) + (o[1] != f))
            plans[f].append(m + ([(cur.islands[i][0], f)] if end != f else []))
    best = min(finals, key=lambda f: sum(len(m) for m in plans[f]))
    return [move for m in plans[best] for move in m]


def layer_score(cur: Current, v: int) -> int:
    """The layered bound of flooding the piece from ``v``.

    Parameters
    ----------
    cur : Current
        The state.
    v : int
        The node flooded from.

    Returns
    -------
    int
        The maximum over d of d + the number of colours beyond distance d.

    Examples
    --------
    >>> from kamicp.bounds import contract
    >>> from kamicp.game.regions import from_edges
    >>> cur = contract(from_edges([0, 1, 0, 2, 0], [(i, i + 1) for i in range(4)]))
    >>> layer_score(cur, 2)  # three colours beyond distance 0
    3
    """
    layers = pivot_layers(cur, v)
    best = 0
    beyond: set[int] = set()
    for d in range(len(layers) - 2, -1, -1):
        beyond |= layers[d + 1]
        best = max(best, d + len(beyond))
    return best


def flood(
    cur: Current,
    v: int,
    width: int = WIDTH,
    prefer: int | None = None,
    deadline: float | None = None,
) -> Option:
    """Flood the piece holding node ``v`` from ``v`` by a beam search of ``width``.

    Parameters
    ----------
    cur : Current
        The state.
    v : int
        The node every move recolours.
    width : int
        The beam width; states scored by :func:`layer_score`, then the most merged.
    prefer : int or None
        The colour to end in, where a finish in it is found at the same length.
    deadline : float or None
        A ``time.monotonic()`` value, checked before every move.

    Returns
    -------
    (list of (int, int), int)
        The moves, and the colour the piece ends in.

    Raises
    ------
    kamicp.procs.deadline.LimitReached
        Once ``deadline`` has passed.

    Examples
    --------
    >>> from kamicp.bounds import contract
    >>> from kamicp.game.regions import from_edges
    >>> cur = contract(from_edges([0, 1, 0, 2, 0], [(i, i + 1) for i in range(4)]))
    >>> flood(cur, 2)
    ([(2, 1), (2, 2), (2, 0)], 0)
    """
    front: list[tuple[Current, list[Move]]] = [(cur, [])]
    while True:
        _in_time(deadline)
        done = [(c, m) for c, m in front if not c.adj[v]]
        if done:
            c, m = min(done, key=lambda item: item[0].pos[v] != prefer)
            return m, c.pos[v]
        scored = []
        seen = set()
        for c, m in front:
            for colour in {c.pos[u] for u in c.adj[v]}:
                child = c.play(v, colour)
                if child.pos in seen:
                    continue
                seen.add(child.pos)
                key = (layer_score(child, v), -len(child.members[v]))
                scored.append((key, len(scored), child, m + [(v, colour)]))
        scored.sort(key=lambda item: item[:2])
        front = [(c, m) for _, _, c, m in scored[:width]]


def free_beam(
    cur: Current,
    i: int,
    width: int = WIDTH,
    final: int | None = None,
    deadline: float | None = None,
) -> Option:
    """Finish piece ``i`` with merging moves anywhere, by a beam search.

    Score: max(radius, colours other than ``final``) of the piece (admissible for what is
    left, ``final`` being the colour it should end in, if any), then the fewest regions.
    The width is cut so that at most ``FREE_BUDGET * width / WIDTH`` children are scored
    per move.

    Parameters
    ----------
    cur : Current
        The state.
    i : int
        The piece.
    width : int
        The beam width, before the cut.
    final : int or None
        The colour the piece should end in, if any.
    deadline : float or None
        A ``time.monotonic()`` value, checked before every move.

    Returns
    -------
    (list of (int, int), int)
        The moves, and the colour the piece ends in.

    Raises
    ------
    kamicp.procs.deadline.LimitReached
        Once ``deadline`` has passed.
    """
    size = len(cur.islands[i])
    width = max(1, min(width, FREE_BUDGET * width // (WIDTH * max(1, size * (cur.k - 1)))))
    front: list[tuple[Current, list[Move]]] = [(cur, [])]
    while True:
        _in_time(deadline)
        done = [(c, m) for c, m in front if len(c.islands[i]) == 1]
        if done:
            c, m = min(done, key=lambda item: item[0].pos[item[0].islands[i][0]] != final)
            return m, c.pos[c.islands[i][0]]
        scored = []
        seen = set()
        for c, m in front:
            for v in c.islands[i]:
                for colour in {c.pos[u] for u in c.adj[v]}:
                    child = c.play(v, colour)
                    if child.pos in seen:
                        continue
                    seen.add(child.pos)
                    colours = child.piece_colours(i)
                    rest = len(colours) - 1 if final is None else len(colours - {final})
                    bound = max(piece_radius(child, i), rest)
                    key = (bound, len(child.islands[i]))
                    scored.append((key, len(scored), child, m + [(v, colour)]))
        scored.sort(key=lambda item: item[:2])
        front = [(c, m) for _, _, c, m in scored[:width]]


def central_nodes(cur: Current, i: int, limit: int = CENTRES) -> list[int]:
    """Up to ``limit`` nodes of piece ``i`` of least eccentricity.

    Parameters
    ----------
    cur : Current
        The state.
    i : int
        The piece.
    limit : int
        How many nodes at most.

    Returns
    -------
    list of int
        The nodes, least eccentric first.

    Notes
    -----
    One BFS per node of the piece: O(n (n + m)).

    Examples
    --------
    >>> from kamicp.bounds import contract
    >>> from kamicp.game.regions import from_edges
    >>> cur = contract(from_edges([0, 1, 0, 2, 0], [(i, i + 1) for i in range(4)]))
    >>> central_nodes(cur, 0, 1)
    [2]
    """
    piece = cur.islands[i]
    ecc = {}
    for v in piece:
        seen = {v}
        frontier = [v]
        depth = 0
        while frontier:
            nxt = []
            for w in frontier:
                for u in cur.adj[w]:
                    if u not in seen:
                        seen.add(u)
                        nxt.append(u)
            frontier = nxt
            depth += 1
        ecc[v] = depth - 1
    return sorted(piece, key=lambda v: ecc[v])[:limit]


def piece_options(
    cur: Current,
    i: int,
    width: int = WIDTH,
    final: int | None = None,
    deadline: float | None = None,
) -> list[Option]:
    """Candidate ways to finish piece ``i`` (free rules), preferably in colour ``final``.

    Parameters
    ----------
    cur : Current
        The state.
    i : int
        The piece.
    width : int
        The beams' width.
    final : int or None
        The colour the piece should end in, if any.
    deadline : float or None
        A ``time.monotonic()`` value, checked before every move.

    Returns
    -------
    list of (list of (int, int), int)
        Floods from :func:`central_nodes`, then :func:`free_beam`: each the moves and the
        colour the piece ends in.

    Raises
    ------
    kamicp.procs.deadline.LimitReached
        Once ``deadline`` has passed.
    """
    piece = cur.islands[i]
    if len(piece) == 1:
        return [([], cur.pos[piece[0]])]
    options = [flood(cur, v, width, final, deadline) for v in central_nodes(cur, i)]
    options.append(free_beam(cur, i, width, final, deadline))
    return options
