"""Checking a designer's par: prove the board's optimum in a child process, then compare.

The solve runs in a child process (:class:`~kamicp.procs.child.Child`), not a thread: the
compiled searches hold the GIL, and a server thread waiting on a thread that holds it would
stop answering the page. The child forks from a fork server (:data:`PRELOAD`), not from the
web server: a child forked from the web server holds copies of its sockets, so a request
the page closes stays open (the proof is never told to stop) and the port stays taken.
The child tells the bounds it proves as it proves them
(:func:`kamicp.procs.progress.watched`); :class:`ParCheck` is polled for them and for the
answer, so a server can show them and stop the child when the page gives up. The child
dies with the server, and is killed :data:`GRACE` seconds after the time limit if it has
not answered by then.

What the page shows is :func:`par_verdict`: the optimum with its proof, and whether the par
is confirmed, too high or too low (or that no par fits: the board cannot be solved); when
the time limit ends the proof, the bounds proved so far still decide a par outside them.
"""

from __future__ import annotations

import multiprocessing as mp

from kamicp import bounds
from kamicp.api import format_moves, solve
from kamicp.errors import KamicpError
from kamicp.game.board import Board
from kamicp.plural import count_moves
from kamicp.procs.child import ERROR, RESULT, STEP, Child, answer
from kamicp.procs.deadline import Deadline
from kamicp.procs.progress import watched

__all__ = [
    "GRACE",
    "PRELOAD",
    "PROGRESS",
    "TIME_LIMIT",
    "ParCheck",
    "check_par",
    "par_verdict",
    "proved",
]

TIME_LIMIT = 30.0  # seconds a check of par proves for, unless the page asks otherwise
# Seconds past the time limit before the child is taken for stuck and killed. Shorter could
# kill a child as it sends its answer: the solve itself may run 0.5 s past its limit (the
# portfolio's backends tell their last bounds then: kamicp.solving.portfolio.GRACE).
GRACE = 2.0
PROGRESS = "progress"  # the child's message of the bounds proved so far: (lower, best length)
PRELOAD = ["kamicp.web.par"]  # what the fork server imports once: the solvers, for every check


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


def _child(conn, board: Board, time_limit: float) -> None:
    def told(lower: int | None, best: list | None) -> None:
        conn.send((PROGRESS, (lower, None if best is None else len(best))))

    with watched(told):
        answer(conn, lambda: proved(board, time_limit), catch=Exception)


class ParCheck:
    """A check of par running in a child process, polled for its bounds and its answer.

    Parameters
    ----------
    board : Board
        The puzzle.
    par : int or None
        The designer's par.
    time_limit : float
        Seconds the proof may take (:data:`TIME_LIMIT` by default).
    context : str
        How the child starts: ``forkserver`` (see the module docstring), or ``fork`` where
        no sockets are open (a child of a test then sees the test's changes).

    Notes
    -----
    Call :meth:`stop` when done, answered or not: it kills the child if it still runs.
    """

    def __init__(
        self,
        board: Board,
        par: int | None,
        time_limit: float = TIME_LIMIT,
        context: str = "forkserver",
    ):
        self.par = par
        self.limit = time_limit + GRACE
        self.deadline = Deadline.after(self.limit)
        self.lower = 0  # the best lower bound told so far
        self.upper: int | None = None  # the shortest solution told so far
        start = mp.get_context(context)
        if context == "forkserver":
            start.set_forkserver_preload(PRELOAD)
        self.child = Child(start, _child, (board, time_limit))

    def poll(self, wait: float = 0.0) -> dict | None:
        """Read what the child sent, waiting at most ``wait`` seconds for the first message.

        Parameters
        ----------
        wait : float
            Seconds.

        Returns
        -------
        dict or None
            The answer (as :func:`check_par` describes it) once the child gave it; None
            while it works (:attr:`lower` and :attr:`upper` hold the bounds told so far).

        Raises
        ------
        KamicpError
            When the solve failed, ended without an answer or ran :data:`GRACE` s past its
            time limit: one line saying so.
        """
        while self.child.conn.poll(wait):
            wait = 0.0
            message = self.child.receive()
            if message is None:
                raise KamicpError("the proof ended without an answer")
            kind, value = message
            if kind == PROGRESS:
                lower, best = value
                if lower is not None and lower < bounds.UNSOLVABLE:  # else the answer follows
                    self.lower = max(self.lower, lower)
                if best is not None and (self.upper is None or best < self.upper):
                    self.upper = best
            elif kind == ERROR:
                raise KamicpError(f"the proof failed: {value}")
            elif kind == RESULT:
                return self._judged(value)
        if self.deadline.expired():
            raise KamicpError(f"the proof did not answer within {self.limit:g} s")
        return None

    def _judged(self, found: dict) -> dict:
        verdict, message = par_verdict(self.par, found["lower"], found["upper"])
        if verdict == "unsolvable" and found["proof"].startswith("unsolvable: "):
            message = found["proof"]  # it says why
        optimum = found["upper"] if found["status"] == "optimal" else None
        judged = {"optimum": optimum, "par": self.par, "verdict": verdict, "message": message}
        return {**found, **judged}

    def stop(self) -> None:
        """Kill the child if it still runs, and reap it."""
        self.child.stop()


def check_par(
    board: Board, par: int | None, time_limit: float = TIME_LIMIT, context: str = "forkserver"
) -> dict:
    """Prove the optimum of ``board`` in a child process and judge ``par`` by it.

    Parameters
    ----------
    board : Board
        The puzzle.
    par : int or None
        The designer's par.
    time_limit : float
        Seconds the proof may take (:data:`TIME_LIMIT` by default).
    context : str
        How the child starts, as for :class:`ParCheck`.

    Returns
    -------
    dict
        What :func:`proved` answers, ``optimum`` (None unless proved), ``par``, and
        ``verdict`` and ``message`` from :func:`par_verdict`.

    Raises
    ------
    KamicpError
        When the solve failed or did not answer within :data:`GRACE` s of the time limit:
        one line saying so.
    """
    check = ParCheck(board, par, time_limit, context)
    try:
        while True:
            found = check.poll(wait=STEP)
            if found is not None:
                return found
    finally:
        check.stop()
