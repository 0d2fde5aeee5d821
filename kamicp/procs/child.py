"""A child process that answers its parent over a pipe, and is stopped and reaped by it.

The child sends ``(kind, value)`` pairs: messages on the way (progress, status lines) and
one answer at the end, ``("result", value)`` or ``("error", exception)`` (:func:`answer`).
The parent reads them until the answer, the pipe's end or a :class:`~kamicp.procs.deadline.
Deadline` (:meth:`Child.messages`, :func:`ready`), then kills what is left and joins it
(:meth:`Child.stop`; :func:`kill_group` for a child that leads a process group of its own).
Every child dies with its parent (:func:`die_with_parent`), and :meth:`Child.stop` also
kills the child's own descendants and reaps those this process adopted
(:func:`adopt_orphans`), so that no process outlives the solve and the CPU time and memory
of each is counted in its parent's (GNU ``time`` counts the children waited for).

Examples
--------
>>> import multiprocessing as mp
>>> def double(conn, x):
...     answer(conn, lambda: 2 * x)
>>> child = Child(mp.get_context("fork"), double, (21,))
>>> list(child.messages(Deadline.after(30)))
[('result', 42)]
>>> child.stop()
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterator
from multiprocessing.connection import wait

from kamicp.procs.deadline import Deadline
from kamicp.procs.interruptible import held_signals
from kamicp.procs.memory import descendants

__all__ = [
    "ERROR",
    "RESULT",
    "STEP",
    "Child",
    "adopt_orphans",
    "answer",
    "die_with_parent",
    "kill_group",
    "ready",
    "reap",
]

RESULT = "result"  # the child's answer
ERROR = "error"  # the exception the child raised instead, re-raised or reported by the parent
# Seconds a wait on children lasts before the deadline is asked again: a memory limit that
# ends every deadline at once (kamicp.procs.memory) is seen within this.
STEP = 0.1


def answer(conn, work: Callable[[], object], catch: type[BaseException] = BaseException) -> None:
    """In the child: send ``(RESULT, work())``, or ``(ERROR, exception)``, then close.

    Parameters
    ----------
    conn : multiprocessing.connection.Connection
        The child's end of the pipe.
    work : callable
        What the child computes, called without arguments.
    catch : exception type
        The exceptions sent to the parent as an answer; others end the child (the
        parent then reads the pipe's end).
    """
    try:
        conn.send((RESULT, work()))
    except catch as err:
        conn.send((ERROR, err))
    conn.close()


class Child:
    """A started child process ``target(conn, *args)`` and the parent's end of its pipe.

    Parameters
    ----------
    context : multiprocessing context
        How to start it (``fork``, ``spawn``, ``forkserver``). The child is not a
        daemon, so that it may start processes of its own; it dies with the process that
        starts it.
    target : callable
        Called in the child with the child's end of the pipe, then ``args``.
    args : tuple
        The rest of ``target``'s arguments.
    """

    def __init__(self, context, target: Callable[..., None], args: tuple = ()):
        self.conn, theirs = context.Pipe(duplex=False)
        # a fork server's children are its own and die with it; the jobs' fork server is
        # tied to the thread that starts it (kamicp.procs.tied), so it dies with this process
        parent = None if context.get_start_method() == "forkserver" else os.getpid()
        self.process = context.Process(target=_run, args=(parent, target, theirs, *args))
        try:
            # Python runs the handler of a signal that came within a fork in the fork's
            # own hooks, which ignore what it raises: a Ctrl-C or SIGTERM there would be lost
            with held_signals():
                self.process.start()
        except BaseException:
            if self.process.pid is not None:  # started: the caller never gets it to stop
                self.stop()
            raise
        finally:
            theirs.close()

    @property
    def pid(self) -> int:
        """The child's process id."""
        return self.process.pid

    def receive(self) -> tuple[str, object] | None:
        """One ``(kind, value)`` pair, waiting for it; None at the pipe's end."""
        try:
            return self.conn.recv()
        except EOFError:
            return None

    def messages(self, deadline: Deadline) -> Iterator[tuple[str, object]]:
        """The ``(kind, value)`` pairs the child sends until the pipe's end or ``deadline``.

        The caller stops reading at the answer (the pipe ends soon after it).
        """
        while True:
            if self.conn.poll(_step(deadline)):
                message = self.receive()
                if message is None:
                    return
                yield message
            elif deadline.expired():
                return

    def stop(self) -> None:
        """Kill the child and its descendants if it still runs (SIGKILL), wait for it, reap
        the descendants this process adopted (:func:`adopt_orphans`), close the pipe."""
        below = []
        if self.process.is_alive():
            below = descendants(self.pid)
            self.process.kill()
            for pid in below:
                _kill(pid)
        self.process.join()
        reap(below)
        self.conn.close()


def _run(parent: int | None, target: Callable[..., None], *args) -> None:
    """In a child: die with the parent ``parent`` (gone already: leave), then run ``target``."""
    die_with_parent()
    if parent is not None and os.getppid() != parent:
        os._exit(0)  # the parent died before the line above
    target(*args)


def _step(deadline: Deadline) -> float:
    """How long one wait lasts: :data:`STEP`, or less where the deadline is nearer."""
    left = deadline.left()
    return STEP if left is None else min(STEP, left)


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass  # gone already


def ready(children: list[Child], deadline: Deadline) -> list[Child]:
    """The children of ``children`` with something to read (a message or the pipe's end),
    waiting at most until ``deadline``; empty when it passed first."""
    by_conn = {child.conn: child for child in children}
    while True:
        answered = wait(list(by_conn), timeout=_step(deadline))
        if answered or deadline.expired():
            return [by_conn[conn] for conn in answered]


def adopt_orphans() -> None:
    """Linux: become the parent of this process's orphaned descendants (a child subreaper),
    so that a child killed with its descendants leaves them to this process, which reaps
    them (:func:`reap`) and so counts their CPU time and peak memory, not to init. Elsewhere
    a no-op."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(36, 1)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass  # not Linux: init reaps the orphans, their resources uncounted


def reap(pids: list[int], wait: float = 2.0) -> None:
    """Wait (at most ``wait`` seconds) for the processes ``pids``, killed and dying, that
    this process adopted; those that went elsewhere (to init) are left once they are gone.

    Parameters
    ----------
    pids : list of int
        Process ids, descendants of a child that was killed.
    wait : float
        Seconds at most.
    """
    left = set(pids)
    end = time.monotonic() + wait
    while left and time.monotonic() < end:
        for pid in list(left):
            try:
                if os.waitpid(pid, os.WNOHANG)[0] == pid:
                    left.discard(pid)
            except ChildProcessError:  # not (or not yet) adopted by this process
                if not os.path.exists(f"/proc/{pid}"):
                    left.discard(pid)
        if left:
            time.sleep(0.005)


def die_with_parent() -> None:
    """Linux: have the kernel kill this process (SIGKILL) when its parent dies
    (``PR_SET_PDEATHSIG``; the parent is the thread that forked it). For a child that may
    wait on its parent for ever: a portfolio stops a backend with a kill, and the idle
    workers of a backend's pool then wait for jobs that never come. Elsewhere a no-op."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass  # not Linux: such children stop at their own time limits, or linger


def kill_group(pgid: int) -> None:
    """Kill (SIGKILL) the process group ``pgid``; nothing if it is gone already."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass  # the group is gone already
