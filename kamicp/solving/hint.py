"""Hints: the next move of an optimal continuation, and the proved number of moves left.

The position after the player's moves is turned into a board of its own (same cells, new
colours) and solved exactly; the hint is the first move of that optimal solution. Because
the continuation's length is proved optimal from that position, "moves still needed" is a
proved count, not an estimate.
"""

from __future__ import annotations

from dataclasses import dataclass

from kamicp.game import rules
from kamicp.game.board import Board
from kamicp.game.regions import region_graph
from kamicp.result import Result
from kamicp.solving.solve import SolveOptions, solve

__all__ = ["Hint", "hint", "position_after"]


@dataclass
class Hint:
    """A hint: the position after the moves played, and the exact solve from there."""

    position: Board  # the board after the moves played so far
    result: Result  # the exact solve from that position

    @property
    def next_move(self):
        """The hint: the first move of the optimal continuation.

        Returns
        -------
        (int, int) or None
            (region, colour) on ``position``'s region graph; None when the solve found no
            move (the position is solved, or no solution was found in time).
        """
        return None if not self.result.solution else self.result.solution[0]


def position_after(board: Board, moves: list[rules.Move]) -> Board:
    """The board after ``moves`` (region moves on the starting region graph) are played.

    Parameters
    ----------
    board : Board
        The puzzle.
    moves : list of (int, int)
        The moves played so far, regions of ``board``'s region graph.

    Returns
    -------
    Board
        The same cells in their new colours.

    Raises
    ------
    kamicp.errors.IllegalMove
        At the first illegal move.

    Examples
    --------
    >>> from kamicp.game.board import Board
    >>> cells = {(0, 0): 0, (0, 1): 1, (0, 2): 0, (0, 3): 2}
    >>> board = Board(geometry="square", cells=cells, palette=("R", "G", "B"))
    >>> sorted(position_after(board, [(1, 0)]).cells.values())
    [0, 0, 0, 2]
    """
    g = region_graph(board)
    pos = rules.replay(g, moves)
    colours = {cell: pos[g.region_of[cell]] for cell in board.cells}
    return board.with_colours(colours)


def hint(
    board: Board,
    moves: list[rules.Move],
    solver: str = "cpsat",
    time_limit: float | None = None,
    final_colour: int | None = None,
) -> Hint:
    """Solve from the position after ``moves``; the first move of the answer is the hint.

    Parameters
    ----------
    board : Board
        The puzzle.
    moves : list of (int, int)
        The moves played so far, regions of ``board``'s region graph.
    solver : str
        The solver (see :data:`kamicp.solving.options.SOLVERS`).
    time_limit : float or None
        Seconds for the solve.
    final_colour : int or None
        The colour the board must end in, or None for any.

    Returns
    -------
    Hint
        The position and the solve's result; ``result.moves`` is the proved number of moves
        left when ``result.status`` is "optimal".

    Raises
    ------
    kamicp.errors.IllegalMove
        At the first illegal move of ``moves``.

    Examples
    --------
    >>> from kamicp.game.board import Board
    >>> cells = {(0, 0): 0, (0, 1): 1, (0, 2): 0, (0, 3): 2}
    >>> board = Board(geometry="square", cells=cells, palette=("R", "G", "B"))
    >>> h = hint(board, [(1, 0)], solver="bfs")
    >>> h.result.moves, h.result.status
    (1, 'optimal')
    """
    position = position_after(board, moves)
    options = SolveOptions(time_limit=time_limit, final_colour=final_colour)
    result = solve(region_graph(position), solver, options)
    return Hint(position, result)
