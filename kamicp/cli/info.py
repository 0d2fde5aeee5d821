"""``kamicp info``: what a puzzle is made of (geometry, rules, regions, colours, islands, par)
and its lower bounds, with the optimal first moves on request; within a time limit, what
did not fit in it left out and said so."""

from __future__ import annotations

import argparse
import json
import time

from kamicp import bounds, formats
from kamicp.bounds import UNSOLVABLE
from kamicp.cli.args import SECONDS, add_memory_limit, add_puzzle_args, load_boards, memory_limited
from kamicp.cli.clock import command_started
from kamicp.cli.describe import WORDS_UP_TO
from kamicp.errors import KamicpError
from kamicp.game import notation, rules
from kamicp.game.board import Board
from kamicp.game.regions import measures, region_graph
from kamicp.procs.deadline import LimitReached
from kamicp.runs.bar import bar
from kamicp.solving.alloptimal import optimal_first_moves
from kamicp.solving.options import SolveOptions
from kamicp.solving.solve import solve
from kamicp.view import words

__all__ = [
    "BOUNDS_PER_REGION",
    "FIRST_MOVES_TIME_LIMIT",
    "INFO_TIME_LIMIT",
    "add_info",
    "first_moves",
    "info",
    "run_info",
    "said",
]

# Seconds a puzzle's description and bounds may take when no --time-limit is given: a
# 500x500 board takes about 5 s (BENCHMARKS.md, "Big boards").
INFO_TIME_LIMIT = 30.0

# Seconds per puzzle of ``--first-moves`` (the description, the exact solve and one solve
# per first move) when no --time-limit is given: the per-puzzle default of bench and batch.
FIRST_MOVES_TIME_LIMIT = 60.0

# Seconds per region the bounds take besides the walk and tripod levels (which stop at the
# deadline themselves): above the time left they are not started, as nothing would stop
# them (BENCHMARKS.md, "Big boards": 1.6 s on 128,821 regions, 13 us each, loaded machine).
BOUNDS_PER_REGION = 2e-5


def add_info(p: argparse.ArgumentParser) -> None:
    """Add the options of ``info``.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser.
    """
    add_puzzle_args(p)
    p.add_argument("--json", action="store_true", help="print one JSON object per puzzle")
    p.add_argument(
        "--first-moves",
        action="store_true",
        help="solve exactly, then list which first moves still allow an optimal finish",
    )
    p.add_argument(
        "--time-limit",
        type=SECONDS,
        metavar="S",
        help=f"seconds per puzzle (default {INFO_TIME_LIMIT:g}; with --first-moves "
        f"{FIRST_MOVES_TIME_LIMIT:g}): what does not fit is left out and said so, the first "
        "moves not decided in time listed as undecided",
    )
    add_memory_limit(p)
    p.add_argument(
        "--tetrapods",
        action="store_true",
        help="also the tetrapod bound (pieces of at most 120 regions; seconds on 70 regions)",
    )
    p.set_defaults(run=run_info, began=time.monotonic())  # the command's start


def info(board: Board, tetrapods: bool = False, deadline: float | None = None) -> dict:
    """A puzzle's description and lower bounds.

    Parameters
    ----------
    board : Board
        The puzzle.
    tetrapods : bool
        Also compute the tetrapod bound (free rules only; seconds on large boards).
    deadline : float or None
        A ``time.monotonic()`` value by which to be done: the measures and the bounds that
        would outlast it are left out, their keys None, and ``left_out`` says why.

    Returns
    -------
    dict
        Name, geometry, rules, counts, par, the graph's measures, each lower bound
        (``lower_bounds``) and the best of them (``lower_bound``). Without a region graph
        (the deadline came first) ``regions`` is None and the bound is the colours but one.

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> data = info(parse("GGR\\n")[0])
    >>> data["regions"], data["colours"], data["lower_bound"]
    (2, 2, 1)
    """
    out = {
        "name": board.name,
        "geometry": board.geometry,
        "rules": board.rules,
        "cells": len(board.cells),
        "regions": None,
        "colours": len(set(board.cells.values())),
        "palette": list(board.palette),
        "islands": None,
        "par": board.par,
        "optimum_listed": board.optimum,
        "pivot": notation.format_cell(board, board.pivot) if board.rules == "pivot" else None,
    }
    try:
        g = region_graph(board, deadline)
    except LimitReached:
        out["lower_bounds"] = {"colours": out["colours"] - 1}
        out["lower_bound"] = out["colours"] - 1
        out["left_out"] = "the time limit ran out building the region graph"
        return out
    out["regions"], out["islands"] = g.n, len(g.islands)
    found = measures(g, deadline)
    skipped = found.pop("measures_skipped", None)
    out.update(found)
    left = None if deadline is None else deadline - time.monotonic()
    if left is not None and g.n * BOUNDS_PER_REGION > left:
        out["lower_bounds"] = {"colours": out["colours"] - 1}
        skipped = ", ".join(filter(None, [skipped and f"measures ({skipped})", "bounds"]))
        out["left_out"] = f"{skipped}: the time limit"
    else:
        if tetrapods and g.rules == "free":
            bounds.tetrapods_bound(bounds.contract(g))  # cached: the report below includes it
        out["lower_bounds"] = bounds.bound_report(g, deadline=deadline)
        if skipped:
            out["left_out"] = f"measures ({skipped})"
    out["lower_bound"] = max(out["lower_bounds"].values())
    return out


def first_moves(board: Board, deadline: float | None = None) -> dict:
    """The optimum and the first moves that still allow an optimal finish.

    Parameters
    ----------
    board : Board
        The puzzle.
    deadline : float or None
        A ``time.monotonic()`` value by which to be done: the exact solve and each first
        move's stop there, and what was not decided by then is said so.

    Returns
    -------
    dict
        ``optimum`` (None unless proved) and ``optimal_first_moves`` (moves as text, or why
        there are none); ``undecided_first_moves`` when some were not decided in time.

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> first_moves(parse("GGR\\n")[0])
    {'optimum': 1, 'optimal_first_moves': ['0,0:R', '0,2:G']}
    """
    try:
        g = region_graph(board, deadline)
    except LimitReached:
        return {"optimum": None, "optimal_first_moves": "not proved: the time limit"}
    left = None if deadline is None else max(0.0, deadline - time.monotonic())
    if left == 0.0:
        return {"optimum": None, "optimal_first_moves": "not proved: the time limit"}
    r = solve(g, options=SolveOptions(time_limit=left))
    if r.lower_bound >= UNSOLVABLE:
        return {"optimum": None, "optimal_first_moves": "none: no sequence of moves solves it"}
    if r.status != "optimal":
        why = "the time limit" if r.status == "unknown" else f"{r.status}"
        return {"optimum": None, "optimal_first_moves": f"not proved ({why})"}
    with bar(sum(1 for _ in rules.legal_moves(g, rules.start(g))), "first move") as shown:
        answers = optimal_first_moves(g, r.moves, deadline=deadline, done=lambda: shown.update(1))
    good = [notation.format_move(board, g, m) for m, v in answers if v == "yes"]
    unknown = [notation.format_move(board, g, m) for m, v in answers if v == "unknown"]
    out = {"optimum": r.moves, "optimal_first_moves": good}
    if unknown:
        out["undecided_first_moves"] = unknown
    return out


@memory_limited
def run_info(args: argparse.Namespace) -> int:
    """Print each puzzle's description, as text or one JSON object a puzzle.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed arguments of ``info``.

    Returns
    -------
    int
        The exit code: 0; 3 when the time limit left something unanswered (a puzzle's
        region graph, its optimum, a first move).

    Raises
    ------
    KamicpError
        For ``--tetrapods`` on pivot rules only, or bad input.
    """
    boards = load_boards(args)
    if args.tetrapods and all(board.rules != "free" for board in boards):
        raise KamicpError(
            f"{formats.shown(args.file)}: --tetrapods: a bound of free rules, and the puzzle "
            "plays pivot rules"
        )
    limit = args.time_limit
    if limit is None:
        limit = FIRST_MOVES_TIME_LIMIT if args.first_moves else INFO_TIME_LIMIT
    began = command_started(args) if len(boards) == 1 else None
    code = 0
    for board in boards:
        deadline = (began or time.monotonic()) + limit
        data = info(board, args.tetrapods, deadline)
        if data["regions"] is None:
            code = 3
        if args.first_moves:
            answered = first_moves(board, deadline)
            data.update(answered)
            unproved = str(answered["optimal_first_moves"]).startswith("not proved")
            if unproved or answered.get("undecided_first_moves"):
                code = 3  # the time limit left something unanswered
        if args.json:
            print(json.dumps(data))
            continue
        for key, value in data.items():
            if key == "lower_bounds":
                value = ", ".join(k if v >= UNSOLVABLE else f"{k} {v}" for k, v in value.items())
            elif key == "lower_bound":
                value = _count(value)
            elif isinstance(value, list):
                value = " ".join(map(str, value))
            label = f"{key}:".ljust(14) if len(key) < 13 else f"{key}: "  # a space at least
            print(f"{label}{'-' if value is None else value}")
            if key == "optimal_first_moves" and isinstance(data[key], list):
                for line in said(board, data[key]):
                    print(" " * 14 + line)
        print()
    return code


def said(board: Board, tokens: list[str]) -> list[str]:
    """First moves in words, each with its notation on the cell named, one a line; none when
    there are more than :data:`kamicp.cli.describe.WORDS_UP_TO` of them.

    Parameters
    ----------
    board : Board
        The puzzle.
    tokens : list of str
        First moves in notation.

    Returns
    -------
    list of str
        The lines.

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> said(parse("GGR\\n")[0], ["0,0:R", "0,2:G"])
    ['red (R) at row 1, column 1   [0,0:R]', 'green (G) at row 1, column 3   [0,2:G]']
    """
    if len(tokens) > WORDS_UP_TO:
        return []
    g = region_graph(board)
    moves = [notation.parse_move(board, g, token) for token in tokens]
    return ["{}   [{}]".format(*words.move_said(board, g, m)) for m in moves]


def _count(moves: int) -> str:
    """A bound on the moves as text: ``UNSOLVABLE`` reads as such."""
    return "unsolvable (no sequence of moves solves it)" if moves >= UNSOLVABLE else str(moves)
