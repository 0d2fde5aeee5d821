"""Checking a designer's par: prove the board's optimum, then compare.

:func:`checked` proves the optimum (:func:`proved`) and judges the board's par by it
(:func:`par_verdict`): the optimum with its proof, and whether the par is confirmed, too
high or too low (or that no par fits: the board cannot be solved); when the time limit ends
the proof, the bounds proved so far still decide a par outside them. The design page runs it
as a job (:mod:`kamicp.web.jobs`), in a child process that tells the bounds as they come.
"""

from __future__ import annotations

from kamicp import bounds
from kamicp.api import format_moves, solve
from kamicp.game.board import Board
from kamicp.plural import count_moves

__all__ = ["TIME_LIMIT", "checked", "par_verdict", "proved"]

TIME_LIMIT = 30.0  # seconds a check of par proves for, unless the page asks otherwise


def proved(board: Board, time_limit: float) -> dict:
    """Solve ``board`` in this process: what a check of par needs to know.

    Parameters
    ----------
    board : Board
        The puzzle.
    time_limit : float
        Seconds.

    Returns
    -------
    dict
        ``status``, ``lower`` and ``upper`` (the bounds on the optimum; ``upper`` None
        without a solution), ``proof`` (the proof line), ``solution`` (the moves in the
        command line's notation, or None) and ``seconds``.

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> found = proved(parse("RG\\nGB\\n")[0], 10)
    >>> found["status"], found["lower"], found["upper"]
    ('optimal', 2, 2)
    """
    result = solve(board, time_limit=time_limit)
    moves = None if result.solution is None else format_moves(board, result.solution)
    return {
        "status": result.status,
        "lower": result.lower_bound,
        "upper": result.upper_bound,
        "proof": result.proof,
        "solution": moves,
        "seconds": round(result.seconds, 2),
    }


def par_verdict(par: int | None, lower: int, upper: int | None) -> tuple[str, str]:
    """What the bounds on the optimum say of ``par``.

    Parameters
    ----------
    par : int or None
        The designer's par (None: only the optimum is asked for).
    lower : int
        A proved lower bound on the optimum.
    upper : int or None
        The length of a solution found, if any.

    Returns
    -------
    tuple of str
        A word for the page (``optimal``, ``confirmed``, ``high``, ``low``, ``unknown``, or
        ``unsolvable`` when ``lower`` is :data:`~kamicp.bounds.UNSOLVABLE`) and the
        sentence it shows.

    Examples
    --------
    >>> par_verdict(4, 4, 4)
    ('confirmed', 'par confirmed: 4 moves is the optimum')
    >>> par_verdict(5, 4, 4)[1], par_verdict(3, 4, 4)[1]
    ('par too high: 4 moves suffice', 'par too low: no solution in 3 moves (the optimum is 4)')
    >>> par_verdict(6, 3, 5)[1], par_verdict(4, 3, 5)[1]
    ('par too high: 5 moves suffice', 'unknown: the optimum is between 3 and 5 moves')
    >>> par_verdict(2, 1, 1)[1], par_verdict(1, 2, 2)[1]
    ('par too high: 1 move suffices', 'par too low: no solution in 1 move (the optimum is 2)')
    """
    if lower >= bounds.UNSOLVABLE:
        return "unsolvable", "unsolvable: no number of moves solves this board"
    if upper is not None and lower >= upper:
        if par is None:
            return "optimal", f"optimal: {count_moves(upper)}"
        if par == upper:
            return "confirmed", f"par confirmed: {count_moves(par)} is the optimum"
        if par > upper:
            return "high", f"par too high: {count_moves(upper)} {_suffice(upper)}"
        return "low", f"par too low: no solution in {count_moves(par)} (the optimum is {upper})"
    if par is not None and par < lower:
        return (
            "low",
            f"par too low: no solution in {count_moves(par)} (at least {lower} are needed)",
        )
    if par is not None and upper is not None and par > upper:
        return "high", f"par too high: {count_moves(upper)} {_suffice(upper)}"
    if upper is None:
        return "unknown", f"unknown: at least {count_moves(lower)}, no solution found in time"
    return "unknown", f"unknown: the optimum is between {lower} and {upper} moves"


def _suffice(n: int) -> str:
    return "suffices" if n == 1 else "suffice"


def checked(board: Board, time_limit: float = TIME_LIMIT) -> dict:
    """Prove the optimum of ``board`` in this process and judge its par by it.

    Parameters
    ----------
    board : Board
        The puzzle; its ``par`` is judged (None: only the optimum is asked for).
    time_limit : float
        Seconds the proof may take (:data:`TIME_LIMIT` by default).

    Returns
    -------
    dict
        What :func:`proved` answers, ``optimum`` (None unless proved), ``par``, and
        ``verdict`` and ``message`` from :func:`par_verdict` (an unsolvable board's
        message says why, as the proof does).

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> found = checked(parse("par: 1\\nRG\\nGB\\n")[0], 10)
    >>> found["verdict"], found["optimum"], found["message"]
    ('low', 2, 'par too low: no solution in 1 move (the optimum is 2)')
    """
    found = proved(board, time_limit)
    verdict, message = par_verdict(board.par, found["lower"], found["upper"])
    if verdict == "unsolvable" and found["proof"].startswith("unsolvable: "):
        message = found["proof"]  # it says why
    optimum = found["upper"] if found["status"] == "optimal" else None
    judged = {"optimum": optimum, "par": board.par, "verdict": verdict, "message": message}
    return {**found, **judged}
