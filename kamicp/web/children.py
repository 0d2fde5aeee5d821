"""A web job's child process: started one way, its bounds relayed, its answer read unblocked.

The pages' long computations (a solve, a hint, a check of par) each run in a child process
(:class:`JobChild`), not a thread: the compiled searches hold the GIL, and a server thread
waiting on one that holds it would stop answering the page. The child runs ``work(*args)``
and hears the bounds its solve proves (:func:`kamicp.procs.progress.watched`), sending each
on its pipe with the status lines; the server reads what has come without waiting
(:meth:`JobChild.poll`), kills the child on cancel (:meth:`JobChild.stop`) or
:data:`GRACE` seconds past its time limit, and the child dies with the server
(:func:`kamicp.procs.child.die_with_parent`).

Children are spawned (:data:`START`): a fresh interpreter, started by fork and exec with
only its pipe open, holds none of the server's sockets, so a request the page closes is
closed and the port is free when the server stops; and, the server's own child, it dies
with the server even when the server is killed. A child forked from the server would hold
its sockets and the locks of its other threads; a fork server's children outlive a killed
server. Spawning costs each child its imports (about 0.2 s more than a fork).
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable

from kamicp import bounds
from kamicp.procs.child import ERROR, RESULT, Child, answer
from kamicp.procs.deadline import Deadline
from kamicp.procs.progress import watched

__all__ = [
    "CANCELLED",
    "ENDED",
    "GRACE",
    "LATE",
    "PROGRESS",
    "START",
    "STATUS",
    "JobChild",
]

# How a child starts (see the module docstring). ``fork`` serves tests that change a module
# for the child to see; it must not be used where the process has sockets open.
START = "spawn"
# Seconds a child may run past its time limit before it is killed. Shorter could kill a
# child as it sends its answer: a solve may run 0.5 s past its limit (the portfolio's
# backends tell their last bounds then: kamicp.solving.portfolio.GRACE), and a loaded
# machine may need the rest to send the answer.
GRACE = 2.0
PROGRESS = "progress"  # the child's bounds proved so far: (lower, length of the best solution)
STATUS = "status"  # the child's last line on how its search stands
# How a child ends, besides its answer (RESULT) or the exception it raised (ERROR):
ENDED = "ended"  # it died without an answer
LATE = "late"  # it was killed GRACE seconds past its time limit
CANCELLED = "cancelled"  # it was killed by JobChild.stop


class _Relay:
    """In the child: each bound and status line the solve tells, sent on the pipe."""

    def __init__(self, conn):
        self.conn = conn

    def __call__(self, lower: int | None, best: list | None) -> None:
        self.conn.send((PROGRESS, (lower, None if best is None else len(best))))

    def status(self, text: str) -> None:
        self.conn.send((STATUS, text))


def _serve(conn, work: Callable[..., object], args: tuple) -> None:
    """In the child: answer ``work(*args)``, relaying the bounds and lines told meanwhile."""
    with watched(_Relay(conn)):
        answer(conn, lambda: work(*args), catch=Exception)


class JobChild:
    """``work(*args)`` running in a child process, read for its bounds and its answer.

    Parameters
    ----------
    work : callable
        What the child computes; spawned, it must be a module's function (it is pickled by
        name) and its arguments picklable.
    args : tuple
        The arguments of ``work``.
    time_limit : float
        Seconds ``work`` takes at most; the child is killed :data:`GRACE` s after them.
    context : str
        How the child starts: :data:`START`, or ``fork`` where no sockets are open (a
        child of a test then sees the test's changes).

    Attributes
    ----------
    lower : int or None
        The best lower bound told so far (one that says the board is unsolvable is left
        to the answer, which follows it).
    upper : int or None
        The length of the shortest solution told so far.
    line : str
        The last status line told.
    limit : float
        Seconds from the start until the child is killed: ``time_limit + GRACE``.
    end : tuple or None
        How the child ended, once it has: ``(RESULT, answer)``, ``(ERROR, exception)``,
        ``(ENDED, None)``, ``(LATE, limit)`` or ``(CANCELLED, None)``.

    Examples
    --------
    >>> from kamicp.procs.progress import tell
    >>> job = JobChild(tell, (3, [(0, 1), (0, 2)]), time_limit=30)
    >>> while job.poll(wait=0.1) is None:
    ...     pass
    >>> job.end, job.lower, job.upper
    (('result', None), 3, 2)
    """

    def __init__(
        self, work: Callable[..., object], args: tuple, time_limit: float, context: str = START
    ):
        self.limit = time_limit + GRACE
        self.deadline = Deadline.after(self.limit)
        self.lower: int | None = None
        self.upper: int | None = None
        self.line = ""
        self.end: tuple[str, object] | None = None
        self.child = Child(mp.get_context(context), _serve, (work, args))

    @property
    def process(self) -> mp.process.BaseProcess:
        """The child's process."""
        return self.child.process

    def poll(self, wait: float = 0.0) -> tuple[str, object] | None:
        """Take in what the child has sent, waiting at most ``wait`` s for its first message.

        A child that answered, died or ran past its time limit plus :data:`GRACE` is
        stopped (:meth:`stop`); O(messages waiting).

        Parameters
        ----------
        wait : float
            Seconds.

        Returns
        -------
        tuple or None
            :attr:`end` once the child has ended; None while it works.
        """
        while self.end is None and self.child.conn.poll(wait):
            wait = 0.0
            message = self.child.receive()
            if message is None:
                self._ended(ENDED, None)
            elif message[0] in (RESULT, ERROR):
                self._ended(*message)
            else:
                self._take(*message)
        if self.end is None and self.deadline.expired():
            self._ended(LATE, self.limit)
        return self.end

    def _take(self, kind: str, value) -> None:
        if kind == PROGRESS:
            lower, upper = value
            if lower is not None and lower < bounds.UNSOLVABLE:
                self.lower = lower if self.lower is None else max(self.lower, lower)
            if upper is not None and (self.upper is None or upper < self.upper):
                self.upper = upper
        elif kind == STATUS:
            self.line = str(value)

    def _ended(self, kind: str, value) -> None:
        self.end = (kind, value)
        self.child.stop()

    def stop(self) -> None:
        """Kill the child and its descendants if it still runs (SIGKILL), and reap it.

        A child that has not ended ends :data:`CANCELLED`; the bounds told so far stay.
        """
        if self.end is None:
            self._ended(CANCELLED, None)
