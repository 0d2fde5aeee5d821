"""``kamicp batch``: solve every puzzle of files and folders into a JSON-lines file that a
later run resumes, and print how many ended in each status."""

from __future__ import annotations

import argparse
import statistics
import sys

from kamicp import formats, plural
from kamicp.cli.args import PATH, PROCESSES, SECONDS, add_memory_limit, memory_limit
from kamicp.cli.output import ensure_not_input
from kamicp.cli.refusals import refuse_unused_batch
from kamicp.procs.isolate import limit_jobs
from kamicp.runs.batch import batch
from kamicp.solving.solve import DEFAULT_SOLVER, SOLVERS

__all__ = ["add_batch", "run_batch"]


def add_batch(p: argparse.ArgumentParser) -> None:
    """Add the options of ``batch``.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser.
    """
    p.add_argument("paths", nargs="+", help="puzzle files or folders")
    p.add_argument("--out", type=PATH, required=True, help="results file (JSON lines, appended)")
    p.add_argument("--solver", default=DEFAULT_SOLVER, choices=SOLVERS)
    p.add_argument("--time-limit", type=SECONDS, default=60.0, help="seconds per puzzle")
    p.add_argument(
        "--jobs",
        type=PROCESSES,
        default=1,
        help="puzzles at once (default 1: in this process; N: each in a process of its own; "
        "a portfolio runs 2 more each)",
    )
    add_memory_limit(p, " (each of --jobs gets its share; not on Ray)")
    p.add_argument("--ray", metavar="ADDRESS", help="run on a Ray cluster ('local' starts one)")
    p.add_argument(
        "--quiet", action="store_true", help="no progress bar (drawn on a terminal only)"
    )
    p.set_defaults(run=run_batch)


def run_batch(args: argparse.Namespace) -> int:
    """Solve the puzzles not yet final in ``--out`` and print the counts by status.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed arguments of ``batch``.

    Returns
    -------
    int
        0 if every puzzle run got a final status; 3 if one did not or the run was
        interrupted.

    Raises
    ------
    KamicpError
        If ``--out`` is one of the puzzle files.
    """
    refuse_unused_batch(args)
    ensure_not_input(args.out, formats.sources(args.paths))
    limit_jobs(memory_limit(args) // args.jobs)
    rows, skipped, interrupted = batch(
        args.paths,
        args.out,
        solver=args.solver,
        time_limit=args.time_limit,
        jobs=args.jobs,
        ray_address=args.ray,
        progress=None if args.quiet else sys.stderr,
    )
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["status"]] = counts.get(row["status"], 0) + 1
    secs = [row["seconds"] for row in rows] or [0.0]
    print(f"{'status':12}puzzles")
    for status, count in sorted(counts.items()):
        print(f"{status:12}{count}")
    print(f"{'skipped':12}{skipped} (already final in {args.out})")
    print(
        f"seconds: total {sum(secs):.1f}, median {statistics.median(secs):.2f}, max {max(secs):.1f}"
    )
    if interrupted:
        finished = plural.count(len(rows), "puzzle")
        print(f"interrupted: {finished} finished, the ones running were stopped", file=sys.stderr)
        return 3
    return 0 if all(r["status"] in ("optimal", "feasible", "infeasible") for r in rows) else 3
