"""A child process that answers its parent over a pipe, and is stopped and reaped by it.

The child sends ``(kind, value)`` pairs: messages on the way (progress, status lines) and
one answer at the end, ``("result", value)`` or ``("error", exception)`` (:func:`answer`).
The parent reads them until the answer, the pipe's end or a :class:`~kamicp.procs.deadline.
Deadline` (:meth:`Child.messages`, :func:`ready`), then kills what is left and joins it
(:meth:`Child.stop`; :func:`kill_group` for a child that leads a process group of its own).
A child that may wait on its parent for ever dies with it (:func:`die_with_parent`).

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
from collections.abc import Callable, Iterator
from multiprocessing.connection import wait

from kamicp.procs.deadline import Deadline

__all__ = ["ERROR", "RESULT", "Child", "answer", "die_with_parent", "kill_group", "ready"]

RESULT = "result"  # the child's answer
ERROR = "error"  # the exception the child raised instead, re-raised or reported by the parent


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
        How to start it (``fork``, ``forkserver``). The child is not a daemon, so that
        it may start processes of its own.
    target : callable
        Called in the child with the child's end of the pipe, then ``args``.
    args : tuple
        The rest of ``target``'s arguments.
    """

    def __init__(self, context, target: Callable[..., None], args: tuple = ()):
        self.conn, theirs = context.Pipe(duplex=False)
        self.process = context.Process(target=target, args=(theirs, *args))
        self.process.start()
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
        while self.conn.poll(deadline.left()):
            message = self.receive()
            if message is None:
                return
            yield message

    def stop(self) -> None:
        """Kill the child if it still runs (SIGKILL), wait for it, close the pipe."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()


def ready(children: list[Child], deadline: Deadline) -> list[Child]:
    """The children of ``children`` with something to read (a message or the pipe's end),
    waiting at most until ``deadline``; empty when it passed first."""
    by_conn = {child.conn: child for child in children}
    return [by_conn[conn] for conn in wait(list(by_conn), timeout=deadline.left())]


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
