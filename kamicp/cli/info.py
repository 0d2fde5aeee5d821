"""``kamicp info``: what a puzzle is made of (geometry, rules, regions, colours, islands, par)
and its lower bounds, with the optimal first moves on request."""

from __future__ import annotations

import argparse
import json

from kamicp import bounds
from kamicp.bounds import UNSOLVABLE
from kamicp.cli.args import SECONDS, add_memory_limit, add_puzzle_args, load_boards, memory_limited
from kamicp.game import notation
from kamicp.game.board import Board
from kamicp.game.regions import measures, region_graph
from kamicp.solving.alloptimal import optimal_first_moves
from kamicp.solving.options import SolveOptions
from kamicp.solving.solve import solve

__all__ = ["add_info", "first_moves", "info", "run_info"]


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
    p.add_argument("--time-limit", type=SECONDS, metavar="S", help="seconds per exact solve")
    add_memory_limit(p)
    p.add_argument(
        "--tetrapods",
        action="store_true",
        help="also the tetrapod bound (pieces of at most 120 regions; seconds on 70 regions)",
    )
    p.set_defaults(run=run_info)


def info(board: Board, tetrapods: bool = False) -> dict:
    """A puzzle's description and lower bounds.

    Parameters
    ----------
    board : Board
        The puzzle.
    tetrapods : bool
        Also compute the tetrapod bound (free rules only; seconds on large boards).

    Returns
    -------
    dict
        Name, geometry, rules, counts, par, the graph's measures, each lower bound
        (``lower_bounds``) and the best of them (``lower_bound``).

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> data = info(parse("GGR\\n")[0])
    >>> data["regions"], data["colours"], data["lower_bound"]
    (2, 2, 1)
    """
    g = region_graph(board)
    if tetrapods and g.rules == "free":
        bounds.tetrapods_bound(bounds.contract(g))  # cached: the report below includes it
    out = {
        "name": board.name,
        "geometry": board.geometry,
        "rules": board.rules,
        "cells": len(board.cells),
        "regions": g.n,
        "colours": len(g.colours_present()),
        "palette": list(board.palette),
        "islands": len(g.islands),
        "par": board.par,
        "optimum_listed": board.optimum,
        "pivot": notation.format_cell(board, board.pivot) if board.rules == "pivot" else None,
    }
    out.update(measures(g))
    out["lower_bounds"] = bounds.bound_report(g)
    out["lower_bound"] = bounds.lower_bound(g)
    return out


def first_moves(board: Board, time_limit: float | None) -> dict:
    """The optimum and the first moves that still allow an optimal finish.

    Parameters
    ----------
    board : Board
        The puzzle.
    time_limit : float or None
        Seconds for each exact solve.

    Returns
    -------
    dict
        ``optimum`` (None unless proved) and ``optimal_first_moves`` (moves as text, or why
        there are none); ``undecided_first_moves`` when some were not decided in time.
    """
    g = region_graph(board)
    r = solve(g, options=SolveOptions(time_limit=time_limit))
    if r.lower_bound >= UNSOLVABLE:
        return {"optimum": None, "optimal_first_moves": "none: no sequence of moves solves it"}
    if r.status != "optimal":
        return {"optimum": None, "optimal_first_moves": f"not proved ({r.status})"}
    answers = optimal_first_moves(g, r.moves, time_limit=time_limit)
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
        The exit code: 0.
    """
    for board in load_boards(args):
        data = info(board, args.tetrapods)
        if args.first_moves:
            data.update(first_moves(board, args.time_limit))
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
        print()
    return 0


def _count(moves: int) -> str:
    """A bound on the moves as text: ``UNSOLVABLE`` reads as such."""
    return "unsolvable (no sequence of moves solves it)" if moves >= UNSOLVABLE else str(moves)
