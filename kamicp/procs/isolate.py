"""Run one job in a child process, with a hard stop and its own peak memory; and child
processes that die with their parent.

Used by ``bench`` and ``batch`` so that a solver that crashes, leaks or ignores its time
limit loses one row, never the run.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import resource
import signal
import threading
import time
from collections.abc import Callable

from kamicp.procs.child import RESULT, Child, die_with_parent, kill_group

# die_with_parent lives in kamicp.procs.child; it is named here too for the callers that
# import it from this module
__all__ = ["PRELOAD", "Jobs", "die_with_parent", "run_isolated"]

PRELOAD = [
    "kamicp.solving.solve",
    "kamicp.models.cpsat",
    "kamicp.models.sat",
    "kamicp.search.bfs",
    "kamicp.search.idastar",
]


def _child(conn, fn, args) -> None:
    # A process group of its own, so a hard stop also ends the processes the job started
    # (the portfolio's backends), which a plain kill would leave running as orphans.
    os.setpgrp()
    _adopt_orphans()
    try:
        row = fn(*args)
    except Exception as err:  # reported as the row's status, never hidden
        row = {"status": "error", "error": f"{type(err).__name__}: {err}"}
    _reap_orphans()
    # The largest of this process and the children it waited for (the portfolio's backends
    # and, adopted, the SAT run a stopped backend leaves to die).
    peak = max(
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
    )
    row["peak_mb"] = round(peak / 1024, 1)
    conn.send((RESULT, row))
    conn.close()


def _adopt_orphans() -> None:
    """Become the parent of the job's orphaned descendants (Linux: a child subreaper), so
    that their peak memory reaches this process's RUSAGE_CHILDREN when they are reaped: the
    portfolio kills a backend whose contained SAT run then dies orphaned (PR_SET_PDEATHSIG),
    which would otherwise be reaped by init and its memory never counted."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(36, 1)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass  # not Linux: the peak may leave out such orphans


def _reap_orphans(wait: float = 5.0) -> None:
    """Wait (at most ``wait`` seconds) for the descendants the job left, all dying or dead."""
    end = time.monotonic() + wait
    while time.monotonic() < end:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return  # none left
        if pid == 0:
            time.sleep(0.01)


class Jobs:
    """The jobs that one caller's threads run, so that it can stop them all at once (on
    Ctrl-C or SIGTERM, which only its main thread sees); a job started after that is stopped
    as it starts."""

    def __init__(self):
        self.lock = threading.Lock()
        self.running: set[int] = set()  # the jobs' process ids (each its own group's id)
        self.stopped = False

    def started(self, pid: int) -> None:
        with self.lock:
            self.running.add(pid)
            if self.stopped:
                _kill_job(pid)

    def ended(self, pid: int) -> None:
        with self.lock:
            self.running.discard(pid)

    def stop(self) -> None:
        with self.lock:
            self.stopped = True
            for pid in self.running:
                _kill_job(pid)


def run_isolated(
    fn: Callable[..., dict],
    args: tuple,
    timeout: float,
    context: str = "forkserver",
    jobs: Jobs | None = None,
) -> dict:
    """``fn(*args)`` in a child process; its dict, or a row saying it was killed or crashed.

    ``fn`` must be a module-level function returning a dict. The child is killed after
    ``timeout`` seconds, or when ``jobs`` is stopped. ``forkserver`` is safe to call from
    several threads at once.
    """
    ctx = mp.get_context(context)
    if context == "forkserver":
        # Children fork from a server that has imported the solvers once, not per job.
        ctx.set_forkserver_preload(PRELOAD)
    start = time.monotonic()
    # Not a daemon: a job may start processes of its own (the portfolio does).
    child = Child(ctx, _child, (fn, args))
    if jobs is not None:
        jobs.started(child.pid)
    row = None
    try:
        if child.conn.poll(timeout):
            message = child.receive()
            row = None if message is None else message[1]
    except BaseException:  # Ctrl-C: the job's group does not see it (own group), stop it
        kill_group(child.pid)
        child.process.join()
        raise
    if row is None:
        alive = child.process.is_alive()
        kill_group(child.pid)
        exitcode = child.process.exitcode
        row = {"status": "killed" if alive else "crashed", "error": f"exit code {exitcode}"}
    child.process.join()
    kill_group(child.pid)  # anything the job left behind
    if jobs is not None:
        jobs.ended(child.pid)
    child.conn.close()
    row.setdefault("seconds", time.monotonic() - start)
    return row


def _kill_job(pid: int) -> None:
    """Kill a job's group and the job itself (which may not have made its group yet)."""
    kill_group(pid)
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
