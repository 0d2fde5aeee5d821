"""``kamicp bench``: run solvers side by side on puzzle files and folders and print a table,
optionally also written as CSV or JSON."""

from __future__ import annotations

import argparse

from kamicp import formats
from kamicp.cli.args import (
    DEPTH,
    PATH,
    POSITIVE,
    SECONDS,
    SECONDS_OR_NONE,
    add_memory_limit,
    add_workers,
    jobs_option,
    memory_limit,
    solver_list,
)
from kamicp.cli.output import ensure_output_file
from kamicp.cli.refusals import refuse_unused_bench
from kamicp.procs.isolate import limit_jobs
from kamicp.runs.bench import TIME_LIMIT, BenchOptions, bench
from kamicp.solving.options import STRATEGIES, SolveOptions
from kamicp.solving.solve import DEFAULT_SOLVER

__all__ = ["add_bench", "run_bench"]


def add_bench(p: argparse.ArgumentParser) -> None:
    """Add the options of ``bench``.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser.
    """
    p.add_argument("paths", nargs="+", help="puzzle files or folders")
    p.add_argument(
        "--solver",
        default=DEFAULT_SOLVER,
        help=f"comma-separated solvers (default {DEFAULT_SOLVER}, as for solve)",
    )
    p.add_argument(
        "--time-limit", type=SECONDS, default=TIME_LIMIT, help="seconds per puzzle and solver"
    )
    p.add_argument("--rules", choices=("free", "pivot"), help="override every file's rule set")
    p.add_argument("--csv", type=PATH, metavar="FILE", help="also write the rows as CSV")
    p.add_argument(
        "--json",
        type=PATH,
        metavar="FILE",
        help="also write the runs as JSON: a list of objects of the result shape of solve "
        "--json, one per puzzle and solver",
    )
    p.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    p.add_argument("--probe", type=SECONDS_OR_NONE, default=0.0, metavar="S", help="as for solve")
    p.add_argument("--strategy", choices=STRATEGIES, help="as for solve")
    add_workers(p)
    add_memory_limit(p, " (each of --jobs runs gets its share)")
    jobs_option(
        p,
        "runs side by side, each in a child process (default 1: one after another; runs side "
        "by side share the cores, so their times are not those of runs alone)",
    )
    p.add_argument(
        "--tetrapod-depth",
        type=DEPTH,
        default=None,
        metavar="N|auto",
        help="as for solve, on the idastar and portfolio rows (default auto)",
    )
    p.add_argument(
        "--known-solution",
        choices=("file",),
        help="start each puzzle from the solution stored in its file (where there is one)",
    )
    p.add_argument("--beam-width", type=POSITIVE, metavar="N", help="as for solve, every row")
    p.set_defaults(run=run_bench)


def run_bench(args: argparse.Namespace) -> int:
    """Run the benchmark the arguments describe.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed arguments of ``bench``.

    Returns
    -------
    int
        The exit code :func:`kamicp.runs.bench.bench` gives.

    Raises
    ------
    KamicpError
        If a solver is unknown, an option does not fit the solvers, or an output file cannot
        be written (checked before any puzzle runs).
    """
    solvers = solver_list(args.solver, "--solver")
    refuse_unused_bench(args, solvers)
    for out in (args.csv, args.json):
        if out is not None:
            ensure_output_file(out, formats.sources(args.paths))
    options = BenchOptions(
        solve=SolveOptions.from_args(args),
        rules=args.rules,
        known=args.known_solution,
        csv_path=args.csv,
        json_path=args.json,
        markdown=args.markdown,
        jobs=args.jobs,
    )
    limit_jobs(memory_limit(args) // args.jobs)
    return bench(args.paths, solvers, options)
