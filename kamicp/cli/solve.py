"""``kamicp solve``: solve each puzzle of a file and print its answer (moves, status, bounds,
proof), as text or JSON, with every optimal solution or a certificate on request."""

from __future__ import annotations

import argparse
import json
import sys

from kamicp import formats
from kamicp.bounds import UNSOLVABLE
from kamicp.cli.args import (
    COUNT,
    DEPTH,
    PATH,
    POSITIVE,
    SECONDS,
    SECONDS_OR_NONE,
    add_puzzle_args,
    add_workers,
    final_colour,
    load_boards,
)
from kamicp.cli.output import EXIT_CODES, ensure_not_input
from kamicp.errors import IllegalMove, KamicpError
from kamicp.game import notation
from kamicp.game.board import Board
from kamicp.game.regions import RegionGraph, region_graph
from kamicp.procs.progress import PROGRESS_EVERY, Progress, Seen, watched
from kamicp.proof.certificate import certificate_path_ok, write_certificate
from kamicp.result import Result
from kamicp.search.journal import ensure_journal
from kamicp.solving.alloptimal import all_optimal
from kamicp.solving.horizons import DEFAULT_STRATEGY, STRATEGIES
from kamicp.solving.options import SolveOptions
from kamicp.solving.solve import DEFAULT_SOLVER, SOLVERS, TETRAPOD_DEPTH_SOLVERS, solve

__all__ = ["HELP", "add_solve", "describe", "known_solution", "result_json", "run_solve"]

HELP = "Solve a puzzle; prints the moves and optimal / feasible / infeasible / unknown."


def add_solve(p: argparse.ArgumentParser) -> None:
    """Add the options of ``solve``.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser.
    """
    add_puzzle_args(p)
    p.add_argument("--solver", default=DEFAULT_SOLVER, choices=SOLVERS)
    p.add_argument(
        "--beam-width",
        type=POSITIVE,
        metavar="N",
        help="greedy: also a beam of width N, kept where shorter (default 4 alone; 512 takes "
        "about a minute on 150 regions, and --time-limit stops it, keeping the width-4 "
        "beam's); other solvers: the first solution comes from a beam N wide (default 32), "
        "run within half the time limit",
    )
    p.add_argument("--max-moves", type=COUNT, metavar="N", help='decide "solvable in at most N?"')
    p.add_argument("--time-limit", type=SECONDS, metavar="S", help="seconds per puzzle")
    p.add_argument("--node-limit", type=POSITIVE, metavar="N", help="nodes (bfs, astar, idastar)")
    p.add_argument("--final-colour", metavar="X", help="the board must end in colour X")
    add_workers(p)
    p.add_argument(
        "--tetrapod-depth",
        type=DEPTH,
        default=None,
        metavar="N|auto",
        help="idastar (and the portfolio's idastar backend): the tetrapod check also at the "
        "states at most N moves deep that the tripod check does not cut (seconds each on 70 "
        "regions; for runs of many minutes; 0: none); default auto: a state at most 2 "
        "moves deep is checked once its subtree has run about as long as a check costs "
        "(with --workers, in each worker)",
    )
    p.add_argument(
        "--journal",
        type=PATH,
        metavar="FILE",
        help="idastar (and the portfolio's idastar backend): read the bounds proved by an "
        "earlier run on the same board from FILE (an SQLite file, made if missing) and write "
        "this run's to it, so that a stopped proof can be continued",
    )
    p.add_argument(
        "--probe",
        type=SECONDS_OR_NONE,
        default=0.0,
        metavar="S",
        help="exact models: try IDA* for up to S seconds first (default 0: the model alone)",
    )
    p.add_argument(
        "--strategy",
        choices=STRATEGIES,
        default=DEFAULT_STRATEGY,
        help="exact models: horizons asked (down: the bound, then below the best solution; "
        "up: from the bound upwards; bisect)",
    )
    p.add_argument(
        "--known-solution",
        metavar="MOVES",
        help="a solution you have (or 'file': the one stored in the puzzle file); replayed, "
        "then used as the first upper bound: the solver beats it or proves it optimal",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object per puzzle")
    p.add_argument(
        "--progress",
        action="store_true",
        help="print each bound to stderr as it is proved (a lower bound, a shorter solution)",
    )
    p.add_argument(
        "--progress-every",
        type=SECONDS_OR_NONE,
        metavar="S",
        help="with --progress (implied): also, at most every S seconds, a line on how an "
        "idastar search (the moves it searches within, states, checks, tasks) or a sat "
        "horizon (conflicts, decisions) stands (default 60)",
    )
    p.add_argument(
        "--all-optimal", action="store_true", help="list every distinct optimal solution"
    )
    p.add_argument("--cap", type=POSITIVE, default=100, help="at most N solutions (--all-optimal)")
    p.add_argument(
        "--certificate", type=PATH, metavar="DIR", help="write a certificate of optimality into DIR"
    )
    p.set_defaults(run=run_solve)


def known_solution(
    path: str, board: Board, g: RegionGraph, text: str | None, final: int | None
) -> list | None:
    """The moves of ``--known-solution``, checked to solve the board.

    Parameters
    ----------
    path : str
        The puzzle file as shown in errors.
    board : Board
        The puzzle.
    g : RegionGraph
        Its region graph.
    text : str or None
        The option's value: moves, or ``file`` for the solution the puzzle file holds.
    final : int or None
        The colour the board must end in, if any.

    Returns
    -------
    list or None
        The moves; None when the option is not given.

    Raises
    ------
    KamicpError
        One line naming the file, if there is no stored solution or the moves do not solve
        the board (in the final colour asked for).
    """
    if text is None:
        return None
    if text == "file":
        if not board.solution:
            raise KamicpError(f"{path}: --known-solution file: the puzzle holds no solution")
        text = board.solution
    try:
        return notation.parse_solution(board, g, text, final)
    except IllegalMove as err:
        raise KamicpError(f"{path}: --known-solution: {err}") from None


def result_json(board: Board, g: RegionGraph, result: Result) -> dict:
    """A solve's answer as the JSON object ``solve --json`` prints.

    Parameters
    ----------
    board : Board
        The puzzle.
    g : RegionGraph
        Its region graph, which the solution's moves refer to.
    result : Result
        The solver's answer.

    Returns
    -------
    dict
        Name, status, moves, bounds, the solution as text, solver, seconds, proof, par and
        the number of regions.
    """
    moves = result.solution
    return {
        "name": board.name,
        "status": result.status,
        "moves": result.moves,
        "lower_bound": result.lower_bound,
        "upper_bound": result.upper_bound,
        "solution": None if moves is None else [notation.format_move(board, g, m) for m in moves],
        "solver": result.solver,
        "seconds": round(result.seconds, 3),
        "proof": result.proof,
        "par": board.par,
        "regions": g.n,
    }


def describe(board: Board, g: RegionGraph, result: Result) -> str:
    """A solve's answer as the lines ``solve`` prints.

    Parameters
    ----------
    board : Board
        The puzzle.
    g : RegionGraph
        Its region graph, which the solution's moves refer to.
    result : Result
        The solver's answer.

    Returns
    -------
    str
        Puzzle, solution, status, bounds, par and solver, one a line.

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> board = parse("GGR\\n")[0]
    >>> g = region_graph(board)
    >>> print(describe(board, g, solve(g, "bfs")))  # doctest: +ELLIPSIS
    solution: ...
    status:   optimal, 1 move (proved: ...)
    bounds:   1 <= optimum <= 1
    solver:   bfs, ... s
    """
    lines = []
    if board.name:
        lines.append(f"puzzle:   {board.name}")
    if result.solution is not None:
        text = notation.format_moves(board, g, result.solution) or "(already solved)"
        lines.append(f"solution: {text}")
    status = result.status
    if status == "optimal":
        status = f"optimal, {notation.count_moves(result.moves)} (proved: {result.proof})"
    elif status == "infeasible" and result.lower_bound >= UNSOLVABLE:
        status = f"infeasible: no sequence of moves solves it (proved: {result.proof})"
    elif status == "infeasible":
        status = f"infeasible within the move limit (proved: {result.proof})"
    elif status == "feasible":
        status = f"feasible, {notation.count_moves(result.moves)} (optimality not proved)"
    else:
        status = f"unknown ({result.proof})"
    lines.append(f"status:   {status}")
    upper = "?" if result.upper_bound is None else result.upper_bound
    if result.lower_bound >= UNSOLVABLE:
        lines.append("bounds:   no solution exists")
    else:
        lines.append(f"bounds:   {result.lower_bound} <= optimum <= {upper}")
    if board.par is not None and result.status in ("optimal", "feasible"):
        beaten = result.moves is not None and result.moves < board.par
        lines.append(f"par:      {board.par}" + (" (beaten)" if beaten else ""))
    lines.append(f"solver:   {result.solver}, {result.seconds:.2f} s")
    return "\n".join(lines)


def run_solve(args: argparse.Namespace) -> int:
    """Solve each puzzle the arguments pick and print its answer.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed arguments of ``solve``.

    Returns
    -------
    int
        The exit code of the worst answer (:data:`~kamicp.cli.output.EXIT_CODES`).

    Raises
    ------
    KamicpError
        If an option does not fit the solver, an output cannot be written, or the input
        is bad.
    """
    # the options that only IDA* (alone or as the portfolio's backend) takes
    for option, given in (("--tetrapod-depth", args.tetrapod_depth), ("--journal", args.journal)):
        if given is not None and args.solver not in TETRAPOD_DEPTH_SOLVERS:
            raise KamicpError(
                f"{option}: only with --solver idastar or portfolio, not {args.solver}"
            )
    if args.journal:
        ensure_not_input(args.journal, [args.file, args.known_solution or ""])
        ensure_journal(args.journal)
    if args.certificate and args.file == formats.STDIN:
        raise KamicpError("--certificate: needs a puzzle file to copy, not standard input")
    boards = load_boards(args)
    if args.certificate:
        ensure_not_input(args.certificate, [args.file])
        certificate_path_ok(args.certificate)
        if len(boards) > 1:
            raise KamicpError(
                f"{formats.shown(args.file)}: --certificate needs one puzzle: pick it with --index"
            )
    code = 0
    for number, board in enumerate(boards):
        g = region_graph(board)
        final = final_colour(args, board)
        known = known_solution(formats.shown(args.file), board, g, args.known_solution, final)
        name = board.name or args.file
        watch = Seen()  # prints nothing
        if args.progress or args.progress_every is not None:
            every = PROGRESS_EVERY if args.progress_every is None else args.progress_every
            watch = Progress(sys.stderr, name, every)
        with watched(watch):
            options = SolveOptions(
                max_moves=args.max_moves,
                time_limit=args.time_limit,
                final_colour=final,
                workers=args.workers,
                node_limit=args.node_limit,
                probe=args.probe,
                strategy=args.strategy,
                known=known,
                tetrapod_depth=args.tetrapod_depth,
                beam_width=args.beam_width,
                journal=args.journal,
            )
            result = solve(g, args.solver, options)
        data = result_json(board, g, result)
        text = describe(board, g, result)
        if args.all_optimal and result.status == "optimal" and not result.interrupted:
            every = all_optimal(g, result.moves, cap=args.cap, final_colour=final)
            data["all_optimal"] = [notation.format_moves(board, g, m) for m in every]
            more = " (cap reached: there may be more)" if len(every) >= args.cap else ""
            text += f"\noptimal solutions, commuting moves counted once: {len(every)}{more}"
            text += "".join(f"\n  {notation.format_moves(board, g, m)}" for m in every)
        if args.certificate:
            manifest = write_certificate(
                board,
                args.file,
                result,
                args.certificate,
                index=args.index or 1,
                final_colour=final,
                time_limit=args.time_limit,
            )
            data["certificate"] = args.certificate
            text += (
                f"\ncertificate: {args.certificate} "
                f"(lower bound: {manifest['lower_bound']['kind']})"
            )
        if args.json:
            print(json.dumps(data), flush=True)
        else:
            print(("\n" if number else "") + text, flush=True)
        code = max(code, EXIT_CODES[result.status])
        if result.interrupted:
            break  # Ctrl-C: no further puzzle of the file
    return code
