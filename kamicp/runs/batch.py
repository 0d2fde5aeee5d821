"""Batch proving: every puzzle of many files, one JSON line per puzzle as it finishes.

- Resumable: a rerun skips puzzles (by digest and solver) already in the output with a
  final status (``optimal`` or ``infeasible``); other lines are kept and the puzzle is retried.
- ``jobs`` = 1: the puzzles one after another in this process (the solvers' own child
  processes aside: the portfolio's backends), which costs what ``solve`` costs. A puzzle
  that raises, or reaches the memory limit, gets its row and the run goes on; the digest of
  the puzzle under way is kept in a file beside the output (:data:`RUNNING`), so that a
  puzzle that takes the whole process down (a crash in a C library, the kernel's
  out-of-memory killer) is found by the rerun and solved in a child process of its own.
- ``jobs`` > 1: each puzzle in a child process of its own (:mod:`kamicp.procs.isolate`), that
  many at once, so one puzzle failing never loses the others.
- Ctrl-C or SIGTERM stops the puzzles running (their rows are not written) and starts no
  more; the rows finished are in the file, and a rerun goes on from there.
- ``ray_address``: the same batch on a Ray cluster (``pip install kamicp[cluster]``): each
  puzzle is a Ray task, results stream back with ``ray.wait``. ``"local"`` starts a local
  Ray instance.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import resource
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor, as_completed

from kamicp import formats
from kamicp.errors import InputError, KamicpError
from kamicp.game.regions import region_graph
from kamicp.procs import memory
from kamicp.procs.interruptible import noting_interrupts
from kamicp.procs.isolate import Jobs, job_limit, run_isolated, start_fork_server
from kamicp.runs.bar import bar
from kamicp.runs.record import FAILED, failed_record, result_record
from kamicp.solving.solve import SolveOptions, solve

__all__ = [
    "FINAL",
    "GRACE",
    "RUNNING",
    "batch",
    "done_digests",
    "side_by_side",
    "solve_here",
    "solve_row",
]

FINAL = ("optimal", "infeasible")
GRACE = 15.0
RUNNING = ".running"  # added to the output's name: the digest of the puzzle under way


def solve_row(board, solver: str, options: SolveOptions | None = None) -> dict:
    """Solve one puzzle; the JSON line of a batch's output or the fields of a bench row
    (everything but the location).

    Parameters
    ----------
    board : Board
        The puzzle.
    solver : str
        The solver.
    options : SolveOptions or None
        What the solve is asked (a batch gives the time limit; a bench every option its
        command takes).

    Returns
    -------
    dict
        The result's object (:func:`kamicp.runs.record.result_record`), ``solver`` the
        one asked (a resumed run skips by it).

    Examples
    --------
    >>> from kamicp.game.board import Board
    >>> board = Board(geometry="square", cells={(0, 0): 0, (0, 1): 1}, palette=("R", "G"))
    >>> row = solve_row(board, "bfs", SolveOptions(time_limit=10.0))
    >>> row["status"], row["solution"]
    ('optimal', ['0,0:G'])
    """
    return _solved(board, solver, options)[0]


def _solved(board, solver: str, options: SolveOptions | None = None):
    """:func:`solve_row`'s row, and the result it records."""
    g = region_graph(board)
    r = solve(g, solver, options or SolveOptions())
    return {**result_record(board, g, r), "solver": solver}, r


def done_digests(out_path: str, solver: str) -> set[str]:
    """Digests already solved to a final status in ``out_path`` (torn lines are ignored).

    Parameters
    ----------
    out_path : str
        The batch's output file (it may not exist yet).
    solver : str
        Only rows of this solver count.

    Returns
    -------
    set of str
        The board digests (:meth:`kamicp.game.board.Board.digest`) of the rows "optimal"
        or "infeasible".

    Raises
    ------
    kamicp.errors.InputError
        For a file that is not a batch's (a line that is not a row nor the start of one, or
        not a regular file: a directory, /dev/zero), since rows would be appended to it.
    """
    done: set[str] = set()
    if not os.path.exists(out_path):
        return done
    if not os.path.isfile(out_path):
        raise InputError("not a regular file: give --out a file of its own", out_path)
    with open(out_path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                row = None
            if not isinstance(row, dict):
                if line.startswith("{") or not line.strip():
                    continue  # a line cut short by a killed run, or an empty one
                raise InputError(
                    "not a row of a kamicp batch: give --out a file of its own", out_path, number
                )
            digest = row.get("hash")
            if (
                row.get("status") in FINAL
                and row.get("solver") == solver
                and isinstance(digest, str)
            ):
                done.add(digest)
    return done


def _open_for_append(out_path: str):
    """Append mode, starting on a fresh line if a killed run left half a line."""
    f = open(out_path, "a+")
    f.seek(0, os.SEEK_END)
    if f.tell() > 0:
        f.seek(f.tell() - 1)
        if f.read(1) != "\n":
            f.write("\n")
    return f


def batch(
    paths: list[str],
    out_path: str,
    solver: str = "cpsat",
    time_limit: float | None = 60.0,
    jobs: int = 1,
    ray_address: str | None = None,
    progress=sys.stderr,
) -> tuple[list[dict], int, bool]:
    """Solve every puzzle under ``paths``, appending JSON lines to ``out_path``.

    Puzzles whose digest already has a final row for ``solver`` are skipped, so a stopped
    run resumes where it stopped.

    Parameters
    ----------
    paths : list of str
        Files and folders of puzzles.
    out_path : str
        The JSON-lines file, appended to.
    solver : str
        The solver.
    time_limit : float or None
        Seconds for each puzzle.
    jobs : int
        Puzzles solved at once (local processes, or Ray tasks).
    ray_address : str or None
        Run on this Ray cluster instead of locally.
    progress : file or None
        Where the progress bar goes (:func:`kamicp.runs.bar.bar`: a terminal only);
        None for none.

    Returns
    -------
    (list of dict, int, bool)
        The rows written by this run, the number of puzzles skipped as already done, and
        whether Ctrl-C or SIGTERM stopped the run.

    Raises
    ------
    kamicp.errors.InputError
        For a file that cannot be read as puzzles, or an ``out_path`` that is not a batch's.
    """
    todo = formats.puzzles(paths)
    done = done_digests(out_path, solver)
    pending = [task for task in todo if task[2].digest() not in done]
    skipped = len(todo) - len(pending)
    rows = []
    shown = bar(len(todo), "puzzle", progress, skipped, quiet=progress is None)
    counts: Counter = Counter()
    interrupted = False
    with _open_for_append(out_path) as out, noting_interrupts():
        options = SolveOptions(time_limit=time_limit)
        if ray_address:
            run = _run_ray(pending, solver, options, jobs, ray_address)
        elif jobs > 1:
            run = _run_local(pending, solver, options, jobs)
        else:
            run = _run_here(pending, solver, options, out_path)
        results = contextlib.closing(run)
        try:
            with results as finished:
                for (path, index, board), row in finished:
                    if row["status"] in FAILED:
                        row = failed_record(board, solver, row)
                    row = {**row, "file": path, "index": index, "hash": board.digest()}
                    out.write(json.dumps(row) + "\n")
                    out.flush()
                    rows.append(row)
                    counts[row["status"]] += 1
                    shown.set_postfix_str(" ".join(f"{k} {v}" for k, v in sorted(counts.items())))
                    shown.update(1)
        except KeyboardInterrupt:  # the running puzzles were stopped (closing the generator)
            interrupted = True
    shown.close()
    return rows, skipped, interrupted


def _run_local(pending, solver, options, jobs):
    timeout = (options.time_limit or 1e9) + GRACE
    calls = [(task, solve_row, (task[2], solver, options)) for task in pending]
    yield from side_by_side(calls, timeout, jobs, "forkserver")


def _run_here(pending, solver, options, out_path):
    """The puzzles one after another in this process; the one a previous run died in (its
    digest left in the :data:`RUNNING` file) in a child process of its own."""
    marker = out_path + RUNNING
    try:
        with open(marker, encoding="utf-8", errors="replace") as f:
            suspect = f.read().strip()
    except OSError:
        suspect = None
    if suspect is not None and not re.fullmatch(r"[0-9a-f]{64}", suspect):
        # a file of the user's that merely has the name: never written over
        raise InputError("not a batch's marker of the puzzle under way: left alone", marker)
    timeout = (options.time_limit or 1e9) + GRACE
    try:
        for task in pending:
            board = task[2]
            digest = board.digest()
            if digest == suspect:
                call = [(task, solve_row, (board, solver, options))]
                yield from side_by_side(call, timeout, 1, "forkserver")
                continue
            _write_marker(marker, digest)
            yield task, solve_here(board, solver, options)
    finally:  # ended, or stopped by Ctrl-C: no puzzle died
        with contextlib.suppress(OSError):
            os.remove(marker)


def _write_marker(marker: str, digest: str) -> None:
    """Put ``digest`` in the file ``marker`` whole or not at all: written beside it, then
    renamed over it, so that a run killed midway never leaves a torn marker (which the next
    run would take for a file of the user's)."""
    folder = os.path.dirname(os.path.abspath(marker))
    handle, temporary = tempfile.mkstemp(prefix=".kamicp-", suffix=RUNNING, dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as f:
            f.write(digest + "\n")
        os.replace(temporary, marker)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(temporary)
        raise


def solve_here(board, solver: str, options: SolveOptions) -> dict:
    """:func:`solve_row` in this process, within the jobs' memory limit: the row, with its
    ``peak_mb`` and, where the limit was reached, its ``memory`` note; a solve that raised
    is an ``error`` row.

    Parameters
    ----------
    board : Board
        The puzzle.
    solver : str
        The solver.
    options : SolveOptions
        What the solve is asked (a batch gives the time limit).

    Returns
    -------
    dict
        The row (without its location).

    Raises
    ------
    KeyboardInterrupt
        When Ctrl-C or SIGTERM stopped the solve: its row is not one to keep.

    Examples
    --------
    >>> from kamicp.game.board import Board
    >>> board = Board(geometry="square", cells={(0, 0): 0, (0, 1): 1}, palette=("R", "G"))
    >>> row = solve_here(board, "bfs", SolveOptions(time_limit=10.0))
    >>> row["status"], row["solution"], row["peak_mb"] > 0
    ('optimal', ['0,0:G'], True)
    """
    _clear_peak()
    with memory.limited(job_limit()) as watch:
        try:
            row, r = _solved(board, solver, options)
        except Exception as err:  # reported as the row's status, never hidden
            r, row = None, {"status": "error", "error": f"{type(err).__name__}: {err}"}
        if r is not None and r.interrupted:
            raise KeyboardInterrupt
        if watch is not None and watch.reached_after is not None:
            row["memory"] = memory.note()
    row["peak_mb"] = round(max(_own_peak(), watch.peak if watch is not None else 0) / 2**20, 1)
    return row


def _clear_peak() -> None:
    """Start this process's peak resident memory afresh (Linux: ``/proc/self/clear_refs``)."""
    with contextlib.suppress(OSError):
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")


def _own_peak() -> int:
    """This process's peak resident memory in bytes since :func:`_clear_peak` (Linux), else
    since it started."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def side_by_side(calls: list[tuple], timeout: float, jobs: int, context: str):
    """Run each call in a child process of its own, ``jobs`` at once, as each ends.

    Parameters
    ----------
    calls : list of tuple of (object, callable, tuple)
        A tag, a module-level function returning a dict, and its arguments.
    timeout : float
        Seconds before a child is killed (:func:`kamicp.procs.isolate.run_isolated`).
    jobs : int
        Children at once.
    context : str
        How children start: ``"fork"`` (they inherit what this process loaded) or
        ``"forkserver"``.

    Yields
    ------
    tuple of (object, dict)
        A call's tag and its answer, in the order the calls end.
    """
    if context == "forkserver":
        start_fork_server()  # from this thread, which outlives every job (tied to it)
    running = Jobs()
    pool = ThreadPoolExecutor(max_workers=max(1, jobs))
    try:
        futures = {
            pool.submit(run_isolated, function, args, timeout, context, running): tag
            for tag, function, args in calls
        }
        for future in as_completed(futures):
            yield futures[future], future.result()
    finally:
        # At the end nothing is left to stop; when stopped early (Ctrl-C, SIGTERM), no
        # queued call starts and the running ones are killed, so their threads end now.
        pool.shutdown(wait=False, cancel_futures=True)
        running.stop()
        pool.shutdown(wait=True)


def _run_ray(pending, solver, options, jobs, address):
    try:
        import ray
    except ImportError:
        raise KamicpError("--ray needs Ray: pip install 'kamicp[cluster]'") from None
    started = not ray.is_initialized()
    if started:
        kwargs = {"include_dashboard": False, "log_to_driver": False}
        if address == "local":
            ray.init(num_cpus=max(1, jobs), **kwargs)
        else:
            ray.init(address=address, **kwargs)
    waiting: list = []  # the tasks not answered yet
    try:
        remote = ray.remote(max_retries=1)(solve_row)
        refs = {remote.remote(task[2], solver, options): task for task in pending}
        waiting = list(refs)
        while waiting:
            ready, waiting = ray.wait(waiting, num_returns=1)
            try:
                row = ray.get(ready[0])
            except Exception as err:  # the task failed on the cluster: one row, not the run
                row = {"status": "error", "error": f"{type(err).__name__}: {err}"}
            yield refs[ready[0]], row
    finally:
        for ref in waiting:  # left only by Ctrl-C or SIGTERM: cancelled
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()
