"""Run one job in a child process of its own, with a hard stop and its own peak memory.

``bench`` and ``batch`` run each puzzle so, so that a solver that crashes, leaks or ignores
its time limit loses one row, never the run. :class:`Jobs` lets one caller stop all the
jobs its threads run at once.
"""

from __future__ import annotations

import multiprocessing as mp
import multiprocessing.forkserver
import os
import resource
import signal
import threading
import time
from collections.abc import Callable

from kamicp.procs import memory
from kamicp.procs.child import RESULT, Child, adopt_orphans, kill_group

__all__ = ["PRELOAD", "Jobs", "job_limit", "limit_jobs", "run_isolated", "start_fork_server"]

# What the forkserver imports once, so that each job forks with the solvers loaded; the
# first ties the server to the thread that starts it.
PRELOAD = [
    "kamicp.procs.tied",
    "kamicp.solving.solve",
    "kamicp.models.cpsat.horizon",
    "kamicp.models.sat.horizon",
    "kamicp.search.bfs",
    "kamicp.search.ida.search",
]


_job_memory: list[int | None] = [None]  # each job's memory limit in bytes (limit_jobs)


def limit_jobs(size: int | None) -> None:
    """Give each job :func:`run_isolated` starts from now on a memory limit of ``size``
    bytes (None: none), watched in the job (:func:`kamicp.procs.memory.limited`).

    Examples
    --------
    >>> limit_jobs(None)
    """
    _job_memory[0] = size


def job_limit() -> int | None:
    """The memory limit in bytes each job gets (:func:`limit_jobs`; None: none).

    Examples
    --------
    >>> limit_jobs(None); job_limit() is None
    True
    """
    return _job_memory[0]


def _child(conn, fn, args, limit: int | None) -> None:
    """The child's side: run the job within ``limit`` bytes and send its row, with the peak
    memory (and ``memory``, the note, when the limit was reached)."""
    # A process group of its own, so a hard stop also ends the processes the job started
    # (the portfolio's backends), which a plain kill would leave running as orphans.
    os.setpgrp()
    # Their parent for the job's orphaned descendants, so that their peak memory reaches
    # RUSAGE_CHILDREN when they are reaped (a backend killed by the portfolio leaves its
    # contained SAT run).
    adopt_orphans()
    with memory.limited(limit) as watch:
        try:
            row = fn(*args)
        except Exception as err:  # reported as the row's status, never hidden
            row = {"status": "error", "error": f"{type(err).__name__}: {err}"}
        if watch is not None and watch.reached_after is not None:
            row["memory"] = memory.note()
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
    """The jobs that one caller's threads run, so that it can stop them all at once.

    Only the caller's main thread sees Ctrl-C or SIGTERM; it calls :meth:`stop`, which kills
    every running job's process group, and a job started after that is killed as it starts.

    Examples
    --------
    >>> jobs = Jobs()
    >>> jobs.stop()
    >>> jobs.stopped, jobs.running
    (True, set())
    """

    def __init__(self):
        self.lock = threading.Lock()
        self.running: set[int] = set()  # the jobs' process ids (each its own group's id)
        self.stopped = False

    def started(self, pid: int) -> None:
        """Note a job's process (killed at once if the jobs are stopped)."""
        with self.lock:
            self.running.add(pid)
            if self.stopped:
                _kill_job(pid)

    def ended(self, pid: int) -> None:
        """Forget a job's process, which has ended."""
        with self.lock:
            self.running.discard(pid)

    def stop(self) -> None:
        """Kill every running job, and every job started from now on."""
        with self.lock:
            self.stopped = True
            for pid in self.running:
                _kill_job(pid)


def start_fork_server() -> None:
    """Start the fork server of :func:`run_isolated` now, from this thread, if none runs.

    The server is tied to the thread that starts it (:mod:`kamicp.procs.tied`): called
    from the main thread, it and its jobs end with this process, however that ends. Started
    lazily instead, it would be tied to whichever thread started the first job.
    """
    mp.get_context("forkserver").set_forkserver_preload(PRELOAD)
    multiprocessing.forkserver.ensure_running()


def run_isolated(
    fn: Callable[..., dict],
    args: tuple,
    timeout: float,
    context: str = "forkserver",
    jobs: Jobs | None = None,
) -> dict:
    """Run ``fn(*args)`` in a child process, killed after ``timeout`` seconds.

    The child runs in a process group of its own, so that killing it also ends the processes
    the job started (the portfolio's backends).

    Parameters
    ----------
    fn : callable
        A module-level function (the child must find it by name) returning a dict.
    args : tuple
        Its arguments (picklable).
    timeout : float
        Seconds after which the child and its group are killed.
    context : str, default "forkserver"
        The multiprocessing start method; ``forkserver`` is safe to call from several
        threads at once.
    jobs : Jobs, optional
        The caller's jobs: the child is killed when they are stopped.

    Returns
    -------
    dict
        ``fn``'s dict, or ``{"status": "error", "error": ...}`` when it raised, or
        ``{"status": "killed" | "crashed", "error": "exit code N"}``; with ``peak_mb`` (the
        child's and its reaped descendants' peak resident memory) when the child answered,
        and ``seconds`` unless ``fn`` set it.

    Raises
    ------
    KeyboardInterrupt
        When Ctrl-C reaches the caller meanwhile; the child's group is killed first.
    """
    ctx = mp.get_context(context)
    if context == "forkserver":
        # Children fork from a server that has imported the solvers once, not per job.
        ctx.set_forkserver_preload(PRELOAD)
    start = time.monotonic()
    # Not a daemon: a job may start processes of its own (the portfolio does).
    child = Child(ctx, _child, (fn, args, _job_memory[0]))
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
