"""Run one job in a child process, with a hard stop and its own peak memory.

Used by ``bench`` and ``batch`` so that a solver that crashes, leaks or ignores its time
limit loses one row, never the run.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import resource
import signal
import time
from collections.abc import Callable

PRELOAD = ["kamicp.solve", "kamicp.cpsat", "kamicp.sat", "kamicp.bfs", "kamicp.astar"]


def _child(conn, fn, args) -> None:
    # A process group of its own, so a hard stop also ends the processes the job started
    # (the portfolio's backends), which a plain kill would leave running as orphans.
    os.setpgrp()
    try:
        row = fn(*args)
    except Exception as err:  # reported as the row's status, never hidden
        row = {"status": "error", "error": f"{type(err).__name__}: {err}"}
    # The largest of this process and the children it waited for (the portfolio's backends).
    peak = max(
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
    )
    row["peak_mb"] = round(peak / 1024, 1)
    conn.send(row)
    conn.close()


def run_isolated(
    fn: Callable[..., dict], args: tuple, timeout: float, context: str = "forkserver"
) -> dict:
    """``fn(*args)`` in a child process; its dict, or a row saying it was killed or crashed.

    ``fn`` must be a module-level function returning a dict. The child is killed after
    ``timeout`` seconds. ``forkserver`` is safe to call from several threads at once.
    """
    ctx = mp.get_context(context)
    if context == "forkserver":
        # Children fork from a server that has imported the solvers once, not per job.
        ctx.set_forkserver_preload(PRELOAD)
    parent, child = ctx.Pipe(duplex=False)
    start = time.monotonic()
    # Not a daemon: a job may start processes of its own (the portfolio does).
    proc = ctx.Process(target=_child, args=(child, fn, args))
    proc.start()
    child.close()
    row = None
    try:
        if parent.poll(timeout):
            row = parent.recv()
    except EOFError:
        row = None
    except BaseException:  # Ctrl-C: the job's group does not see it (own group), stop it
        _kill_group(proc.pid)
        proc.join()
        raise
    if row is None:
        alive = proc.is_alive()
        _kill_group(proc.pid)
        row = {"status": "killed" if alive else "crashed", "error": f"exit code {proc.exitcode}"}
    proc.join()
    _kill_group(proc.pid)  # anything the job left behind
    parent.close()
    row.setdefault("seconds", time.monotonic() - start)
    return row


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass  # the group is gone already
