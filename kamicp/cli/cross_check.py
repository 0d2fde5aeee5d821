"""``kamicp cross-check``: run several solvers on the same puzzles, replay every solution and
report each disagreement."""

from __future__ import annotations

import argparse
import functools
import json

from kamicp import plural
from kamicp.cli.args import SECONDS, add_memory_limit, memory_limited, solver_list
from kamicp.solving.bar import bar, say
from kamicp.solving.crosscheck import cross_check
from kamicp.solving.record import result_record

__all__ = ["CROSS_CHECK_TIME_LIMIT", "add_cross_check", "run_cross_check"]

# Seconds per solver and puzzle by default: enough for bfs and astar to prove small boards
# and for sat and cpsat to prove many KAMI 2 story levels, while a story level takes at most
# 40 s with the four default solvers (Bud3 and Bud4: 79 s for the two, loaded machine).
CROSS_CHECK_TIME_LIMIT = 10.0


def add_cross_check(p: argparse.ArgumentParser) -> None:
    """Add the options of ``cross-check``.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser.
    """
    p.add_argument("paths", nargs="+", help="puzzle files or folders")
    p.add_argument("--solvers", default="bfs,astar,cpsat,sat", help="comma-separated solvers")
    p.add_argument(
        "--time-limit",
        type=SECONDS,
        default=CROSS_CHECK_TIME_LIMIT,
        metavar="S",
        help=f"seconds per solver and puzzle (default {CROSS_CHECK_TIME_LIMIT:g}); a solver "
        "stopped by it answers with the bounds it proved, checked as any others",
    )
    add_memory_limit(p)
    p.add_argument(
        "--json",
        action="store_true",
        help="one JSON object a line per puzzle and solver (the result shape of solve "
        "--json), with the puzzle's disagreements, if any, under disagreement",
    )
    p.set_defaults(run=run_cross_check)


def _answer(solver: str, result) -> str:
    """One solver's answer in the summary line: its status and moves; one stopped by the
    time limit answers ``feasible`` or ``unknown``, never a disagreement by itself."""
    return f"{solver} {result.status} {'-' if result.moves is None else result.moves}"


@memory_limited
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
    runs = functools.partial(bar, unit="run")
    for check in cross_check(args.paths, solvers, args.time_limit, runs):
        total += 1
        bad += bool(check.problems)
        if args.json:
            for solver, r in check.results.items():
                data = result_record(check.board, check.graph, r, check.file, check.index)
                if check.problems:
                    data["disagreement"] = "; ".join(check.problems)
                say(json.dumps({**data, "solver": solver}))
            continue
        summary = ", ".join(_answer(s, r) for s, r in check.results.items())
        say(f"{check.puzzle}: {summary}")
        for problem in check.problems:
            say(f"  DISAGREEMENT: {problem}")
    if not args.json:
        print(f"{plural.count(total, 'puzzle')}, {bad} with disagreements")
    return 1 if bad else 0
