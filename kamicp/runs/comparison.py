"""Cross-checking: every solver on every puzzle, every solution replayed, every clash reported.

A disagreement is one of: two solvers proving different optima (or one proving a length
another proved infeasible); a solution that does not replay to one colour; a solution
shorter than a proved optimum; a proved optimum that differs from the one the file lists.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kamicp import formats
from kamicp.errors import IllegalMove
from kamicp.game import rules
from kamicp.game.regions import region_graph
from kamicp.plural import count_moves
from kamicp.solving.solve import SolveOptions, solve

__all__ = ["CrossCheck", "cross_check", "cross_check_board"]


@dataclass
class CrossCheck:
    """One puzzle's cross-check: each solver's result, and every disagreement found.

    ``board`` and ``graph`` (the region graph the solutions' moves refer to), ``file`` and
    ``index`` (where the puzzle was read) let each result be written as an object of
    :mod:`kamicp.runs.record`.
    """

    puzzle: str
    results: dict = field(default_factory=dict)  # solver -> Result
    problems: list[str] = field(default_factory=list)
    board: object = None
    graph: object = None
    file: str | None = None
    index: int | None = None


def cross_check_board(
    board, solvers: list[str], time_limit: float | None = None, done=None
) -> CrossCheck:
    """Run ``solvers`` on ``board`` and list every disagreement between them.

    Parameters
    ----------
    board : Board
        The puzzle.
    solvers : list of str
        The solvers to compare.
    time_limit : float or None
        Seconds for each solver. A solver stopped by it answers ``feasible`` or
        ``unknown`` with the bounds it proved, which are checked as any others: running
        out of time is no disagreement.
    done : callable or None
        Called with no argument after each solver has answered (a progress bar).

    Returns
    -------
    CrossCheck
        Each solver's result, and the problems: an invalid solution, optima that differ, a
        solution below another's optimum, a lower bound above it, an optimum other than the
        file's.

    Raises
    ------
    KeyboardInterrupt
        When a solve was interrupted: Ctrl-C stops the whole check.

    Examples
    --------
    >>> from kamicp.game.board import Board
    >>> board = Board(geometry="square", cells={(0, 0): 0, (0, 1): 1}, palette=("R", "G"))
    >>> cross_check_board(board, ["bfs", "astar"]).problems
    []
    """
    g = region_graph(board)
    check = CrossCheck(board.name or str(board.source), board=board, graph=g)
    for s in solvers:
        try:
            check.results[s] = solve(g, s, SolveOptions(time_limit=time_limit))
            if check.results[s].interrupted:
                raise KeyboardInterrupt  # Ctrl-C stops the whole check, not one solver
        except IllegalMove as err:  # solve() replays every solution: this is a wrong answer
            check.problems.append(f"{s}: invalid solution: {err}")
        if done is not None:
            done()
    for s, r in check.results.items():
        if r.solution is not None:
            end = rules.replay(g, r.solution)
            if not rules.is_solved(end):
                check.problems.append(f"{s}: its solution does not end in one colour")
    optima = {s: r.moves for s, r in check.results.items() if r.status == "optimal"}
    if len(set(optima.values())) > 1:
        check.problems.append(f"optima differ: {optima}")
    for s, r in check.results.items():
        for t, opt in optima.items():
            if r.solution is not None and len(r.solution) < opt:
                check.problems.append(
                    f"{s} found {count_moves(len(r.solution))} below {t}'s optimum"
                )
            if r.lower_bound > opt:
                check.problems.append(f"{s} proved lower bound {r.lower_bound} > {t}'s {opt}")
    if board.optimum is not None:
        for s, opt in optima.items():
            if opt != board.optimum:
                check.problems.append(f"{s}: optimum {opt}, the file lists {board.optimum}")
    return check


def cross_check(paths: list[str], solvers: list[str], time_limit: float | None = None, bar=None):
    """A :class:`CrossCheck` per puzzle under ``paths``.

    Every file is read before the first check, so that a bad file is an error before any
    solve.

    Parameters
    ----------
    paths : list of str
        Files and folders of puzzles.
    solvers : list of str
        The solvers to compare.
    time_limit : float or None
        Seconds for each solver.
    bar : callable or None
        ``bar(total)``: a progress bar (:func:`kamicp.runs.bar.bar`) of the runs, one a
        puzzle and solver, given its ``update``; None for none.

    Returns
    -------
    iterator of CrossCheck
        One per puzzle, checked as it is asked for (:func:`cross_check_board`).

    Raises
    ------
    kamicp.errors.InputError
        For a file that cannot be read as puzzles.
    """
    found = formats.puzzles(paths)
    shown = None if bar is None else bar(len(found) * len(solvers))
    return _checks(found, solvers, time_limit, shown)


def _checks(found, solvers, time_limit, shown):
    """The checks of :func:`cross_check`, each run counted on ``shown`` (if any), which is
    closed at the end."""
    done = None if shown is None else (lambda: shown.update(1))
    try:
        for path, index, board in found:
            check = cross_check_board(board, solvers, time_limit, done)
            check.file, check.index = path, index
            yield check
    finally:
        if shown is not None:
            shown.close()
