"""A solve's answer as ``solve`` prints it: lines of text (:func:`describe`), or one JSON
object (:func:`result_json`)."""

from __future__ import annotations

from kamicp.bounds import UNSOLVABLE
from kamicp.game import notation
from kamicp.game.board import Board
from kamicp.game.regions import RegionGraph
from kamicp.result import Result
from kamicp.view import words

__all__ = ["WORDS_UP_TO", "describe", "result_json"]

# Solutions of at most this many moves are also said in words, one line a move; longer ones
# would bury the answer, and a picture (render --solve) follows them better.
WORDS_UP_TO = 30


def result_json(board: Board, g: RegionGraph, result: Result) -> dict:
    """A solve's answer as the JSON object ``solve --json`` prints.

    Parameters
    ----------
    board : Board
        The puzzle.
    g : RegionGraph or None
        Its region graph, which the solution's moves refer to (None: a run stopped before
        it was built, with no solution).
    result : Result
        The solver's answer.

    Returns
    -------
    dict
        Name, status, moves, bounds, the solution as text, solver, seconds, proof, par and
        the number of regions.
    """
    moves = result.solution
    return {
        "name": board.name,
        "status": result.status,
        "moves": result.moves,
        "lower_bound": result.lower_bound,
        "upper_bound": result.upper_bound,
        "solution": None if moves is None else [notation.format_move(board, g, m) for m in moves],
        "solver": result.solver,
        "seconds": round(result.seconds, 3),
        "proof": result.proof,
        "par": board.par,
        "regions": None if g is None else g.n,
    }


def describe(board: Board, g: RegionGraph, result: Result) -> str:
    """A solve's answer as the lines ``solve`` prints.

    Parameters
    ----------
    board : Board
        The puzzle.
    g : RegionGraph or None
        Its region graph, which the solution's moves refer to (None: a run stopped before
        it was built, with no solution).
    result : Result
        The solver's answer.

    Returns
    -------
    str
        Puzzle, solution, status, bounds, par and solver, one a line; below the solution
        in notation, its moves in words (:func:`kamicp.view.words.moves_words`), one a line,
        for solutions of at most :data:`WORDS_UP_TO` moves.

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> board = parse("GGR\\n")[0]
    >>> from kamicp.game.regions import region_graph
    >>> from kamicp.solving.solve import solve
    >>> g = region_graph(board)
    >>> print(describe(board, g, solve(g, "bfs")))  # doctest: +ELLIPSIS
    solution: 0,0:R
              1. red (R) at row 1, column 1
    status:   optimal, 1 move (proved: ...)
    bounds:   1 <= optimum <= 1
    solver:   bfs, ... s
    """
    lines = []
    if board.name:
        lines.append(f"puzzle:   {board.name}")
    if result.solution is not None:
        text = notation.format_moves(board, g, result.solution) or "(already solved)"
        lines.append(f"solution: {text}")
        if len(result.solution) <= WORDS_UP_TO:
            lines.extend(" " * 10 + line for line in words.moves_words(board, g, result.solution))
    status = result.status
    if status == "optimal":
        status = f"optimal, {notation.count_moves(result.moves)} (proved: {result.proof})"
    elif status == "infeasible" and result.lower_bound >= UNSOLVABLE:
        status = f"infeasible: no sequence of moves solves it (proved: {result.proof})"
    elif status == "infeasible":
        status = f"infeasible within the move limit (proved: {result.proof})"
    elif status == "feasible":
        status = f"feasible, {notation.count_moves(result.moves)} (optimality not proved)"
    else:
        status = f"unknown ({result.proof})"
    lines.append(f"status:   {status}")
    upper = "?" if result.upper_bound is None else result.upper_bound
    if result.lower_bound >= UNSOLVABLE:
        lines.append("bounds:   no solution exists")
    else:
        lines.append(f"bounds:   {result.lower_bound} <= optimum <= {upper}")
    if board.par is not None and result.status in ("optimal", "feasible"):
        beaten = result.moves is not None and result.moves < board.par
        lines.append(f"par:      {board.par}" + (" (beaten)" if beaten else ""))
    lines.append(f"solver:   {result.solver}, {result.seconds:.2f} s")
    return "\n".join(lines)
