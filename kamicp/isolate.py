"""Run one job in a child process, with a hard stop and its own peak memory.

Used by ``bench`` and ``batch`` so that a solver that crashes, leaks or ignores its time
limit loses one row, never the run.
"""

from __future__ import annotations

import multiprocessing as mp
import resource
import time
from collections.abc import Callable

PRELOAD = ["kamicp.solve", "kamicp.cpsat", "kamicp.sat", "kamicp.bfs", "kamicp.astar"]


def _child(conn, fn, args) -> None:
    try:
        row = fn(*args)
    except Exception as err:  # reported as the row's status, never hidden
        row = {"status": "error", "error": f"{type(err).__name__}: {err}"}
    row["peak_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
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
    if parent.poll(timeout):
        try:
            row = parent.recv()
        except EOFError:
            row = None
    if row is None:
        alive = proc.is_alive()
        proc.kill()
        row = {"status": "killed" if alive else "crashed", "error": f"exit code {proc.exitcode}"}
    proc.join()
    parent.close()
    row.setdefault("seconds", time.monotonic() - start)
    return row
