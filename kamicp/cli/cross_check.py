"""``kamicp cross-check``: run several solvers on the same puzzles, replay every solution and
report each disagreement."""

from __future__ import annotations

import argparse

from kamicp.cli.args import SECONDS, solver_list
from kamicp.solving.crosscheck import cross_check

__all__ = ["add_cross_check", "run_cross_check"]


def add_cross_check(p: argparse.ArgumentParser) -> None:
    """Add the options of ``cross-check``.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser.
    """
    p.add_argument("paths", nargs="+", help="puzzle files or folders")
    p.add_argument("--solvers", default="bfs,astar,cpsat,sat", help="comma-separated solvers")
    p.add_argument("--time-limit", type=SECONDS, default=60.0, help="seconds per solver")
    p.set_defaults(run=run_cross_check)


def run_cross_check(args: argparse.Namespace) -> int:
    """Print each puzzle's answers, one per solver, and every disagreement among them.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed arguments of ``cross-check``.

    Returns
    -------
    int
        1 if any puzzle had a disagreement, else 0.

    Raises
    ------
    KamicpError
        If a solver is unknown or none is named.
    """
    solvers = solver_list(args.solvers, "--solvers")
    bad = total = 0
    for check in cross_check(args.paths, solvers, args.time_limit):
        total += 1
        summary = ", ".join(
            f"{s} {r.status} {'-' if r.moves is None else r.moves}"
            for s, r in check.results.items()
        )
        print(f"{check.puzzle}: {summary}")
        for problem in check.problems:
            print(f"  DISAGREEMENT: {problem}")
        bad += bool(check.problems)
    print(f"{total} puzzles, {bad} with disagreements")
    return 1 if bad else 0
