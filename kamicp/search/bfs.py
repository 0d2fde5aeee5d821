"""Breadth-first search: the trusted oracle every other solver is checked against.

Deliberately plain: states are positions (the colour of every starting region, see
:mod:`kamicp.game.rules`), moves and their effect come from the rules engine itself, and no bound
or pruning is used, so nothing here can hide a solution. A position is a canonical state:
two move sequences reaching the same colouring of the starting regions leave exactly the
same board. Because the goal test runs when a position is first generated and layers are
explored in order, the first solution found is a shortest one.

Complexity: O(reachable positions * legal moves * n) time and O(reachable positions * n)
memory; fine for the small boards of the tests, exponential in general.
"""

from __future__ import annotations

from kamicp.bounds import UNSOLVABLE
from kamicp.game import rules
from kamicp.game.regions import RegionGraph
from kamicp.procs.deadline import Deadline, LimitReached
from kamicp.result import SearchOutcome

__all__ = ["bfs"]


def bfs(
    g: RegionGraph,
    final_colour: int | None = None,
    max_moves: int | None = None,
    node_limit: int | None = None,
    deadline: float | None = None,
) -> SearchOutcome:
    """A shortest solution of ``g`` (ending in ``final_colour`` if given), by BFS.

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    final_colour : int or None
        The colour the board must end in, or None for any.
    max_moves : int or None
        Look for solutions of at most this many moves only.
    node_limit : int or None
        Stop after this many positions expanded.
    deadline : float or None
        Stop at this ``time.monotonic()`` value.

    Returns
    -------
    SearchOutcome
        - found: ``complete=True``, ``moves`` optimal, ``lower_bound == len(moves)``;
        - with ``max_moves`` and none that short: ``complete=True``, ``moves=None``,
          ``lower_bound = max_moves + 1``;
        - every reachable position explored and none solved: ``complete=True``,
          ``moves=None``, ``lower_bound =`` :data:`~kamicp.bounds.UNSOLVABLE`;
        - ``node_limit`` or ``deadline`` reached: ``complete=False`` and ``lower_bound`` =
          the depth fully explored + 1.

    Notes
    -----
    O(reachable positions * legal moves * n) time, O(reachable positions * n) memory.

    Examples
    --------
    >>> from kamicp.game.regions import from_edges
    >>> out = bfs(from_edges([0, 1, 0, 2], [(0, 1), (1, 2), (2, 3)]))
    >>> len(out.moves), out.lower_bound, out.complete
    (2, 2, True)
    """
    clock = Deadline(deadline)
    first = rules.start(g)
    if rules.is_solved(first, final_colour):
        return SearchOutcome([], 0, True, 0)
    parent: dict[rules.Position, tuple[rules.Position, rules.Move] | None] = {first: None}
    frontier = [first]
    depth = 0  # every position within ``depth`` moves has been generated and is unsolved
    nodes = 0
    while frontier:
        if max_moves is not None and depth >= max_moves:
            return SearchOutcome(None, max_moves + 1, True, nodes)
        layer = []
        try:
            for pos in frontier:
                nodes += 1
                if node_limit is not None and nodes > node_limit:
                    raise LimitReached
                clock.check()
                for move in rules.legal_moves(g, pos):
                    child = rules.apply(g, pos, move)
                    if child in parent:
                        continue
                    parent[child] = (pos, move)
                    if rules.is_solved(child, final_colour):
                        return SearchOutcome(_path(parent, child), depth + 1, True, nodes)
                    layer.append(child)
        except LimitReached:
            return SearchOutcome(None, depth + 1, False, nodes - 1)
        frontier = layer
        depth += 1
    return SearchOutcome(None, UNSOLVABLE, True, nodes)


def _path(parent: dict, pos: rules.Position) -> list[rules.Move]:
    """The moves leading from the start to ``pos``, read back from the parent links."""
    moves = []
    while parent[pos] is not None:
        pos, move = parent[pos]
        moves.append(move)
    moves.reverse()
    return moves
