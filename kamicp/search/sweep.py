"""Sweeps: solutions of boards of any size by plain floods, in time near-linear in the board.

A sweep floods each piece from one source (the pivot; under free rules a node near the
middle), each move taking the lowest colour that it clears from the board (not the colour
the piece must end in), or else the one that absorbs the most regions (the lowest on a
tie): the rule of the compiled greedy (:func:`kamicp.search.bitsets.greedy_colours`), which
a test compares with it. The moves are played on one :class:`~kamicp.game.rules.Replay`, so a
move costs O(the flood's border). :mod:`kamicp.search.greedy` answers with one above
:data:`~kamicp.search.greedy.BIG` regions, where its beams would take quadratic time;
:func:`central_sweeps` floods from ever less central sources, for a solve of a big board
with time to spare.
"""

from __future__ import annotations

from collections.abc import Iterator

from kamicp.bounds import pivot_final_colour, solvable
from kamicp.game.regions import RegionGraph
from kamicp.game.rules import Move, Replay
from kamicp.procs.deadline import Deadline

__all__ = ["central_sweeps", "sweep"]


def sweep(
    g: RegionGraph, final_colour: int | None = None, deadline: float | None = None
) -> list[Move] | None:
    """A solution by plain floods, in time near-linear in the board: for boards of any size.

    Each piece is flooded from one node (the pivot; under free rules the middle of a
    longest shortest path found by two sweeps of breadth-first search, near a centre), as
    the module docstring says.

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    final_colour : int or None
        The colour the board must end in, or None for any.
    deadline : float or None
        A ``time.monotonic()`` value, checked every move.

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
    >>> moves = sweep(g)
    >>> rules.verify_solution(g, moves); len(moves)
    3
    """
    if not solvable(g, None, final_colour):
        return None
    state = Replay(g)
    if g.rules == "pivot":
        _, final = pivot_final_colour(g, final_colour)  # solvable: checked above
        moves = _sweep_piece(state, g.pivot, deadline, final)
        if final is not None and state.colour_of(g.pivot) != final:
            moves.append((g.pivot, final))
        return moves
    return _sweep_from(state, [_middle(g, piece) for piece in g.islands], final_colour, deadline)


def central_sweeps(
    g: RegionGraph, final_colour: int | None = None, deadline: float | None = None
) -> Iterator[list[Move]]:
    """Solutions of a free-rule board by :func:`sweep`'s floods from ever less central
    sources: a flood's length follows its source's eccentricity, which the middle of one long
    path only approximates.

    Each piece's nodes are ranked by the largest of their distances to three far nodes (the
    ends of a long path, then the node farthest from both), a lower estimate of their
    eccentricity; solution i floods each piece from its i-th node (its last, on a piece
    with fewer). O(n + m) to rank, then O(moves x border + n + m) a solution.

    Parameters
    ----------
    g : RegionGraph
        A free-rule puzzle that can be solved (in ``final_colour``).
    final_colour : int or None
        The colour the board must end in, or None for any.
    deadline : float or None
        A ``time.monotonic()`` value, checked every move.

    Yields
    ------
    list of (int, int)
        A solution for each source rank, best estimate first.

    Raises
    ------
    kamicp.procs.deadline.LimitReached
        Once ``deadline`` has passed.

    Examples
    --------
    >>> from kamicp.game import rules
    >>> from kamicp.game.regions import from_edges
    >>> g = from_edges([0, 1, 0, 2, 0], [(i, i + 1) for i in range(4)])
    >>> [len(m) for m in central_sweeps(g)]
    [3, 3, 3, 4, 4]
    """
    order = [_by_estimate(g, piece) for piece in g.islands]
    for rank in range(max(len(o) for o in order)):
        sources = [o[min(rank, len(o) - 1)] for o in order]
        yield _sweep_from(Replay(g), sources, final_colour, deadline)


def _by_estimate(g: RegionGraph, piece: list[int]) -> list[int]:
    """The nodes of ``piece`` by a lower estimate of their eccentricity (see
    :func:`central_sweeps`), ties by number."""
    far = _hops(g, piece[0])
    a = max(piece, key=far.__getitem__)
    from_a = _hops(g, a)
    b = max(piece, key=from_a.__getitem__)
    from_b = _hops(g, b)
    c = max(piece, key=lambda v: min(from_a[v], from_b[v]))
    from_c = _hops(g, c)
    return sorted(piece, key=lambda v: (max(from_a[v], from_b[v], from_c[v]), v))


def _sweep_from(
    state: Replay, sources: list[int], final_colour: int | None, deadline: float | None
) -> list[Move]:
    """Flood each piece of a free-rule board from its source, then bring every piece to the
    final colour (the cheapest one when ``final_colour`` is None)."""
    g = state.g
    plans = [(_sweep_piece(state, v, deadline), v) for v in sources]
    finals = range(g.k) if final_colour is None else (final_colour,)

    def finished(f: int) -> list[Move]:
        out: list[Move] = []
        for moves, v in plans:
            out += moves + ([(v, f)] if state.colour_of(v) != f else [])
        return out

    return min((finished(f) for f in finals), key=len)


def _sweep_piece(
    state: Replay, v: int, deadline: float | None, keep: int | None = None
) -> list[Move]:
    """Flood the piece of ``v`` from ``v`` on ``state`` (see :func:`sweep`), clearing any
    colour but ``keep`` first; the moves."""
    moves = []
    clock = Deadline(deadline)
    while True:
        root = state.find(v)
        gain: dict[int, int] = {}
        for r in state.roots(root):
            c = state.colour[r]
            gain[c] = gain.get(c, 0) + state.size[r]
        if not gain:
            return moves
        if deadline is not None:  # without one the sweep always finishes, as _in_time
            clock.check()
        # clearing a colour takes no other move later (R7); else the largest step
        clearing = [c for c in gain if c != keep and gain[c] == state.count[c]]
        best = min(clearing) if clearing else max(gain, key=lambda c: (gain[c], -c))
        state.play((v, best))
        moves.append((v, best))


def _middle(g: RegionGraph, piece: list[int]) -> int:
    """The middle of a long shortest path of ``piece``: from its first node to the farthest,
    then from there to the farthest again (two breadth-first sweeps). O(n + m)."""
    far = _hops(g, piece[0])
    a = max(piece, key=far.__getitem__)
    from_a = _hops(g, a)
    b = max(piece, key=from_a.__getitem__)
    from_b = _hops(g, b)
    half = from_a[b] // 2
    return min(v for v in piece if from_a[v] == half and from_b[v] == from_a[b] - half)


def _hops(g: RegionGraph, source: int) -> list[int]:
    """Hops from ``source`` to every region (-1 outside its piece): a breadth-first search
    over a list, for boards of a hundred thousand regions."""
    far = [-1] * g.n
    far[source] = 0
    queue = [source]
    for u in queue:  # grows while it is read
        step = far[u] + 1
        for w in g.adj[u]:
            if far[w] < 0:
                far[w] = step
                queue.append(w)
    return far
