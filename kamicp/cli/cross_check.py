"""``kamicp cross-check``: run several solvers on the same puzzles, replay every solution and
report each disagreement; with ``--claims FILE``, judge another solver's answers instead
(:mod:`kamicp.runs.claims`): each claim right, wrong or undecided."""

from __future__ import annotations

import argparse
import functools
import json

from kamicp import plural
from kamicp.cli.args import PATH, SECONDS, add_memory_limit, memory_limited, solver_list
from kamicp.errors import KamicpError
from kamicp.runs.bar import bar, say
from kamicp.runs.claims import bounds_text, check_claims, claim_record, read_claims
from kamicp.runs.comparison import cross_check
from kamicp.runs.record import result_record

__all__ = ["CROSS_CHECK_SOLVERS", "CROSS_CHECK_TIME_LIMIT", "add_cross_check", "run_cross_check"]

# Seconds per solver and puzzle by default: enough for bfs and astar to prove small boards
# and for sat and cpsat to prove many KAMI 2 story levels, while a story level takes at most
# 40 s with the four default solvers (Bud3 and Bud4: 79 s for the two, loaded machine).
# With --claims the same limit holds for each claim's one solve (the portfolio): it proves
# the Flood-It boards such solvers publish (14x14, six colours: 17 ms a board on average) and
# small KAMI 2 boards well within it, and an undecided verdict names the claims worth a
# longer --time-limit, where 60 s a claim would let 100 claims left open take 100 minutes.
CROSS_CHECK_TIME_LIMIT = 10.0
CROSS_CHECK_SOLVERS = "bfs,astar,cpsat,sat"
# Exit codes of --claims: every claim right, any wrong, some undecided (and none wrong).
CLAIMS_EXIT = {"right": 0, "wrong": 1, "undecided": 3}


def add_cross_check(p: argparse.ArgumentParser) -> None:
    """Add the options of ``cross-check``.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser.
    """
    p.add_argument("paths", nargs="*", help="puzzle files or folders (not with --claims)")
    p.add_argument(
        "--solvers",
        help=f"comma-separated solvers (default {CROSS_CHECK_SOLVERS}; not with --claims)",
    )
    p.add_argument(
        "--claims",
        type=PATH,
        metavar="FILE",
        help="judge another solver's answers instead: CSV with a header, or JSON lines, one "
        "claim a row (puzzle, moves, optional solution and optimal); each is right, wrong "
        "or undecided; exit 1 if any is wrong, else 3 if any is undecided",
    )
    p.add_argument(
        "--time-limit",
        type=SECONDS,
        default=CROSS_CHECK_TIME_LIMIT,
        metavar="S",
        help=f"seconds per solver and puzzle, or per claim (default {CROSS_CHECK_TIME_LIMIT:g});"
        " a solver stopped by it answers with the bounds it proved, checked as any others",
    )
    add_memory_limit(p)
    p.add_argument(
        "--json",
        action="store_true",
        help="one JSON object a line per puzzle and solver (the result shape of solve "
        "--json), with the puzzle's disagreements, if any, under disagreement; with "
        "--claims, one a claim, with verdict, reason and the claim",
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
        1 if any puzzle had a disagreement, else 0; with ``--claims``, 1 if any claim is
        wrong, else 3 if any is undecided, else 0.

    Raises
    ------
    KamicpError
        If a solver is unknown or none is named; for ``--claims`` with puzzle files or
        ``--solvers``, or neither puzzle files nor ``--claims``; for a bad claims file.
    """
    if args.claims is not None:
        if args.paths:
            raise KamicpError("--claims: not with puzzle files or folders (the claims name them)")
        if args.solvers is not None:
            raise KamicpError("--solvers: not with --claims (kamicp's portfolio judges claims)")
        return _run_claims(args)
    if not args.paths:
        raise KamicpError("cross-check: give puzzle files or folders, or --claims FILE")
    solvers = CROSS_CHECK_SOLVERS if args.solvers is None else args.solvers
    solvers = solver_list(solvers, "--solvers")
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


def _claimed(claim) -> str:
    """A claim's count in the table: ``4 optimal``, or ``4`` for a count alone."""
    return f"{claim.moves} optimal" if claim.optimal else str(claim.moves)


def _run_claims(args: argparse.Namespace) -> int:
    """``--claims``: one table row (or JSON object) a claim, then the summary line."""
    claims = read_claims(args.claims)
    widths = [
        max(len("puzzle"), *(len(c.puzzle) for c in claims)),
        max(len("claimed"), *(len(_claimed(c)) for c in claims)),
        len("kamicp"),
        len("undecided"),
    ]
    if not args.json:
        say(_row(["puzzle", "claimed", "kamicp", "verdict", "reason"], widths))
    counts = dict.fromkeys(CLAIMS_EXIT, 0)
    shown = bar(len(claims), "claim")
    try:
        for check in check_claims(claims, args.time_limit, lambda: shown.update(1)):
            counts[check.verdict] += 1
            if args.json:
                say(json.dumps(claim_record(check)))
                continue
            cells = [check.claim.puzzle, _claimed(check.claim), bounds_text(check.result)]
            say(_row([*cells, check.verdict, check.reason], widths))
    finally:
        shown.close()
    if not args.json:
        tally = ", ".join(f"{n} {verdict}" for verdict, n in counts.items())
        print(f"{plural.count(len(claims), 'claim')}: {tally}")
    if counts["wrong"]:
        return CLAIMS_EXIT["wrong"]
    return CLAIMS_EXIT["undecided"] if counts["undecided"] else CLAIMS_EXIT["right"]


def _row(cells: list[str], widths: list[int]) -> str:
    """One line of the claims table: each cell but the last padded to its column's width."""
    padded = [cell.ljust(width) for cell, width in zip(cells, widths, strict=False)]
    return "  ".join([*padded, cells[-1]])
