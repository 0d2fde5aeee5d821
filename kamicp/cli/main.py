"""The ``kamicp`` command.

Exit codes: 0 solved (or a valid solution checked), 1 proved infeasible within
``--max-moves`` (or ``check`` found the moves wrong), 2 bad input, 3 unknown (a time or node
limit was hit). Bad input is reported as one line naming the file and line, never a
traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable

from kamicp import __version__, bounds, formats
from kamicp.bounds import UNSOLVABLE
from kamicp.errors import IllegalMove, InternalError, KamicpError
from kamicp.game import notation, rules
from kamicp.game.board import Board
from kamicp.game.regions import measures, region_graph
from kamicp.procs.progress import PROGRESS_EVERY, Progress, Seen, watched
from kamicp.result import Result
from kamicp.solving.horizons import DEFAULT_STRATEGY, STRATEGIES
from kamicp.solving.solve import DEFAULT_SOLVER, SOLVERS, TETRAPOD_DEPTH_SOLVERS, solve

EXIT_CODES = {"optimal": 0, "feasible": 0, "infeasible": 1, "unknown": 3}
INTERNAL_ERROR = 70  # a bug in kamicp (sysexits' EX_SOFTWARE); bad input is 2


class _Parser(argparse.ArgumentParser):
    """Bad arguments in one line (exit 2), as bad input files are; ``--help`` has the rest."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _number(kind, least, strict: bool = False, most: float | None = None):
    """An argparse type: a number of ``kind`` at least ``least`` (above it if ``strict``),
    and at most ``most`` if given."""

    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if value != value or value < least or (strict and value == least):  # NaN too
            raise argparse.ArgumentTypeError(f"must be {'>' if strict else '>='} {least}: {text}")
        if most is not None and value > most:
            raise argparse.ArgumentTypeError(f"must be <= {most:,}: {text}")
        return value

    return parse


# The pools and pipes wait for at most the time left, which the system takes as a C int of
# milliseconds (about 24 days at most): 'inf' or 1e308 ended in an OverflowError.
MOST_SECONDS = 1_000_000
# Each worker or job is a process of its own; 2**31 workers ended in CP-SAT's TypeError.
MOST_PROCESSES = 256

COUNT = _number(int, 0)  # moves
POSITIVE = _number(int, 1)  # nodes, solutions, a beam's width, a puzzle's index
PROCESSES = _number(int, 1, most=MOST_PROCESSES)  # workers, jobs
SECONDS = _number(float, 0, strict=True, most=MOST_SECONDS)  # time limits
SECONDS_OR_NONE = _number(float, 0, most=MOST_SECONDS)  # --probe: 0 means none


def DEPTH(text: str) -> int | None:
    """An argparse type: ``--tetrapod-depth``, a number of moves or ``auto`` (None)."""
    if text == "auto":
        return None
    try:
        return COUNT(text)
    except argparse.ArgumentTypeError as error:
        raise argparse.ArgumentTypeError(f"a number of moves or 'auto': {error}") from None


def PATH(text: str) -> str:
    """An argparse type: a file or folder name, not empty (an empty name was taken as the
    option not given: ``--journal ""`` ran without a journal)."""
    if not text:
        raise argparse.ArgumentTypeError("an empty file name")
    return text


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help()
        return 2
    try:
        return args.run(args)
    except KamicpError as err:
        print(f"kamicp: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # where a command has nothing to report (solve and bench do)
        print("kamicp: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as err:  # a file that cannot be written (or read): one line, not a traceback
        where = f"{err.filename}: " if err.filename else ""
        print(f"kamicp: {where}{err.strerror or err}", file=sys.stderr)
        return 2
    except Exception as err:  # a bug: one line (with the bounds, from solve), exit 70
        if os.environ.get("KAMICP_TRACEBACK"):
            raise
        if isinstance(err, MemoryError):  # not a bug: a board too large for this machine
            line = "out of memory"
        elif isinstance(err, InternalError):  # solve's line, with the bounds
            line = str(err)
        else:
            line = f"internal error: {type(err).__name__}: {err} (a bug in kamicp)"
        print(f"kamicp: {line}", file=sys.stderr)
        return INTERNAL_ERROR


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="kamicp", description="Exact solver for flood-fill puzzles (KAMI 2, Flood-It)."
    )
    parser.add_argument("--version", action="version", version=f"kamicp {__version__}")
    sub = parser.add_subparsers(metavar="COMMAND")
    for name, adder in COMMANDS.items():
        adder(sub.add_parser(name, help=adder.__doc__, description=adder.__doc__))
    return parser


def _puzzle_args(p: argparse.ArgumentParser, format_flag: str = "--format") -> None:
    p.add_argument(
        "file", help="puzzle file (grid text, flood text, .puz, JSON, floodit-99; - reads stdin)"
    )
    p.add_argument(
        format_flag,
        dest="format",
        choices=formats.FORMATS,
        help="input format (default: detected from content)",
    )
    p.add_argument("--rules", choices=("free", "pivot"), help="override the file's rule set")
    p.add_argument(
        "--index", type=POSITIVE, help="only the N-th puzzle (1-based) of a multi-puzzle file"
    )


def load_boards(args) -> list[Board]:
    boards = formats.load(args.file, fmt=args.format)
    if args.index is not None:
        if not 1 <= args.index <= len(boards):
            raise KamicpError(
                f"{formats.shown(args.file)}: --index {args.index}: the file has {len(boards)}"
            )
        boards = [boards[args.index - 1]]
    if args.rules:
        boards = [b.with_rules(args.rules) for b in boards]
    return boards


# --- info ------------------------------------------------------------------------------------


def add_info(p):
    """Describe a puzzle: geometry, rules, cells, regions, colours, islands, par, bounds."""
    _puzzle_args(p)
    p.add_argument("--json", action="store_true", help="print one JSON object per puzzle")
    p.add_argument(
        "--first-moves",
        action="store_true",
        help="solve exactly, then list which first moves still allow an optimal finish",
    )
    p.add_argument("--time-limit", type=SECONDS, metavar="S", help="seconds per exact solve")
    p.add_argument(
        "--tetrapods",
        action="store_true",
        help="also the tetrapod bound (pieces of at most 120 regions; seconds on 70 regions)",
    )
    p.set_defaults(run=run_info)


def info(board: Board, tetrapods: bool = False) -> dict:
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
    from kamicp.solving.alloptimal import optimal_first_moves

    g = region_graph(board)
    r = solve(g, time_limit=time_limit)
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


def run_info(args) -> int:
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


# --- solve -----------------------------------------------------------------------------------


def _workers_arg(p) -> None:
    p.add_argument(
        "--workers",
        type=PROCESSES,
        default=1,
        help="CP-SAT workers, or idastar processes (default 1; the portfolio: 1 a backend)",
    )


def add_solve(p):
    """Solve a puzzle; prints the moves and optimal / feasible / infeasible / unknown."""
    _puzzle_args(p)
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
    _workers_arg(p)
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


def known_solution(path: str, board: Board, g, text: str | None, final: int | None):
    """The moves of ``--known-solution`` (``file``: the puzzle file's own solution), checked
    to solve the board; a one-line error naming the file otherwise."""
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


def result_json(board: Board, g, result: Result) -> dict:
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


def describe(board: Board, g, result: Result) -> str:
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


def run_solve(args) -> int:
    # the options that only IDA* (alone or as the portfolio's backend) takes
    for option, given in (("--tetrapod-depth", args.tetrapod_depth), ("--journal", args.journal)):
        if given is not None and args.solver not in TETRAPOD_DEPTH_SOLVERS:
            raise KamicpError(
                f"{option}: only with --solver idastar or portfolio, not {args.solver}"
            )
    if args.journal:
        from kamicp.search.journal import ensure_journal

        ensure_not_input(args.journal, [args.file, args.known_solution or ""])
        ensure_journal(args.journal)
    if args.certificate and args.file == formats.STDIN:
        raise KamicpError("--certificate: needs a puzzle file to copy, not standard input")
    boards = load_boards(args)
    if args.certificate:
        from kamicp.proof.certificate import certificate_path_ok

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
            result = solve(
                g,
                args.solver,
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
        data = result_json(board, g, result)
        text = describe(board, g, result)
        if args.all_optimal and result.status == "optimal" and not result.interrupted:
            from kamicp.solving.alloptimal import all_optimal

            every = all_optimal(g, result.moves, cap=args.cap, final_colour=final)
            data["all_optimal"] = [notation.format_moves(board, g, m) for m in every]
            more = " (cap reached: there may be more)" if len(every) >= args.cap else ""
            text += f"\noptimal solutions, commuting moves counted once: {len(every)}{more}"
            text += "".join(f"\n  {notation.format_moves(board, g, m)}" for m in every)
        if args.certificate:
            from kamicp.proof.certificate import write_certificate

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


# --- check -----------------------------------------------------------------------------------


def add_check(p):
    """Replay a move sequence: illegal moves, whether the board ends solved, count vs par."""
    _puzzle_args(p)
    p.add_argument("moves", nargs="+", help="moves, e.g. '0,0:3 1,2:a' ('-' reads stdin)")
    p.set_defaults(run=run_check)


def run_check(args) -> int:
    text = " ".join(args.moves)
    if text.strip() == "-":
        if args.file == formats.STDIN:
            raise KamicpError("standard input can give the puzzle or the moves, not both")
        text = sys.stdin.read()
    (board,) = load_boards(args)[:1]
    g = region_graph(board)
    try:
        moves = notation.parse_moves(board, g, text)
        end = rules.replay(g, moves)
    except IllegalMove as err:
        print(f"illegal: {err}")
        return 1
    if not rules.is_solved(end):
        left = len(set(end))
        print(f"not solved: after {notation.count_moves(len(moves))} {left} colours remain")
        return 1
    verdict = f"solved in {notation.count_moves(len(moves))}"
    if board.par is not None:
        diff = len(moves) - board.par
        verdict += f" (par {board.par}: {'at par' if diff == 0 else f'{diff:+d}'})"
    print(verdict)
    return 0


# --- show ------------------------------------------------------------------------------------


def add_show(p):
    """Draw the board in the terminal in colour, in its true geometry."""
    _puzzle_args(p)
    p.add_argument("--regions", action="store_true", help="print region numbers")
    p.add_argument("--no-colour", action="store_true", help="plain symbols, no ANSI colour")
    p.add_argument("--palette", help="comma-separated colours (#rrggbb or names), palette order")
    p.set_defaults(run=run_show)


def run_show(args) -> int:
    from kamicp.view.show import show

    for board in load_boards(args):
        palette = None if args.palette is None else args.palette.split(",")
        print(show(board, regions=args.regions, colour=not args.no_colour, palette=palette))
    return 0


# --- render ----------------------------------------------------------------------------------


def add_render(p):
    """Draw the board (and one frame per move of a solution) as SVG, PNG or animated GIF."""
    _puzzle_args(p)
    p.add_argument("--out", type=PATH, required=True, help="output file: .svg, .png or .gif")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--solution", metavar="MOVES", help="moves to show frame by frame")
    group.add_argument("--solve", action="store_true", help="solve first, show the solution")
    p.add_argument("--palette", help="comma-separated colours (#rrggbb or names), palette order")
    p.add_argument("--numbers", action="store_true", help="print region numbers")
    p.add_argument("--frames", choices=("row", "gif"), help="frames as a row or a GIF")
    p.add_argument("--time-limit", type=SECONDS, metavar="S", help="seconds for --solve")
    p.set_defaults(run=run_render)


def ensure_not_input(out: str, inputs: list[str]) -> None:
    """Refuse to write over a file the user gave as input."""
    import os

    for path in inputs:
        if os.path.exists(out) and os.path.exists(path) and os.path.samefile(out, path):
            raise KamicpError(f"{out}: refusing to overwrite the input file")


def ensure_output_file(out: str, inputs: list[str]) -> None:
    """Refuse, before the work rather than after it, an output file that would overwrite an
    input or that cannot be made: its folder missing, or a folder in its place."""
    ensure_not_input(out, inputs)
    folder = os.path.dirname(out) or "."
    if not os.path.isdir(folder):
        raise KamicpError(f"{out}: no such folder: {folder}")
    if os.path.isdir(out):
        raise KamicpError(f"{out}: a folder, not a file")


def run_render(args) -> int:
    from kamicp.view.render import render

    ensure_output_file(args.out, [args.file])
    board = load_boards(args)[0]
    g = region_graph(board)
    moves = None
    if args.solution is not None:
        try:
            moves = notation.parse_moves(board, g, args.solution)
        except IllegalMove as err:
            raise KamicpError(f"{formats.shown(args.file)}: --solution: {err}") from None
    elif args.solve:
        result = solve(g, time_limit=args.time_limit)
        moves = result.solution
    palette = None if args.palette is None else [p.strip() for p in args.palette.split(",")]
    render(board, args.out, moves=moves, palette=palette, numbers=args.numbers, frames=args.frames)
    print(args.out)
    return 0


# --- bench -----------------------------------------------------------------------------------


def add_bench(p):
    """Run solvers side by side on files and folders; print a table with totals and medians."""
    p.add_argument("paths", nargs="+", help="puzzle files or folders")
    p.add_argument(
        "--solver",
        default=DEFAULT_SOLVER,
        help=f"comma-separated solvers (default {DEFAULT_SOLVER}, as for solve)",
    )
    p.add_argument("--time-limit", type=SECONDS, default=60.0, help="seconds per puzzle and solver")
    p.add_argument("--rules", choices=("free", "pivot"), help="override every file's rule set")
    p.add_argument("--csv", type=PATH, metavar="FILE", help="also write the rows as CSV")
    p.add_argument("--json", type=PATH, metavar="FILE", help="also write the rows as JSON")
    p.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    p.add_argument("--probe", type=SECONDS_OR_NONE, default=0.0, metavar="S", help="as for solve")
    p.add_argument("--strategy", choices=STRATEGIES, default=DEFAULT_STRATEGY, help="as for solve")
    _workers_arg(p)
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


def solver_list(text: str, option: str) -> list[str]:
    """The solvers of a comma-separated option value; an unknown name is a bad input."""
    solvers = [s.strip() for s in text.split(",") if s.strip()]
    for s in solvers:
        if s not in SOLVERS:
            raise KamicpError(f"{option}: unknown solver {s!r} (one of {', '.join(SOLVERS)})")
    if not solvers:  # would run nothing and exit 0, as if every check had passed
        raise KamicpError(f"{option}: no solver named (one or more of {', '.join(SOLVERS)})")
    return solvers


def run_bench(args) -> int:
    from kamicp.solving.bench import bench

    solvers = solver_list(args.solver, "--solver")
    if args.tetrapod_depth is not None and not set(TETRAPOD_DEPTH_SOLVERS) & set(solvers):
        raise KamicpError(
            f"--tetrapod-depth: only with idastar or portfolio among the solvers, not {args.solver}"
        )
    for out in (args.csv, args.json):
        if out is not None:
            ensure_output_file(out, formats.iter_paths(args.paths))
    return bench(
        args.paths,
        solvers,
        time_limit=args.time_limit,
        rules=args.rules,
        csv_path=args.csv,
        json_path=args.json,
        markdown=args.markdown,
        probe=args.probe,
        strategy=args.strategy,
        workers=args.workers,
        known=args.known_solution,
        tetrapod_depth=args.tetrapod_depth,
        beam_width=args.beam_width,
    )


# --- batch -----------------------------------------------------------------------------------


def add_batch(p):
    """Solve every puzzle of files and folders into a resumable JSON-lines file."""
    p.add_argument("paths", nargs="+", help="puzzle files or folders")
    p.add_argument("--out", type=PATH, required=True, help="results file (JSON lines, appended)")
    p.add_argument("--solver", default=DEFAULT_SOLVER, choices=SOLVERS)
    p.add_argument("--time-limit", type=SECONDS, default=60.0, help="seconds per puzzle")
    p.add_argument(
        "--jobs",
        type=PROCESSES,
        default=1,
        help="local processes (default 1; a portfolio runs 2 each)",
    )
    p.add_argument("--ray", metavar="ADDRESS", help="run on a Ray cluster ('local' starts one)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run_batch)


def run_batch(args) -> int:
    import statistics

    from kamicp.solving.batch import batch

    ensure_not_input(args.out, formats.iter_paths(args.paths))
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
        finished = notation.count(len(rows), "puzzle")
        print(f"interrupted: {finished} finished, the ones running were stopped", file=sys.stderr)
        return 3
    return 0 if all(r["status"] in ("optimal", "feasible", "infeasible") for r in rows) else 3


# --- hint ------------------------------------------------------------------------------------


def add_hint(p):
    """The next move of an optimal continuation and the proved number of moves left."""
    _puzzle_args(p)
    p.add_argument("--after", default="", metavar="MOVES", help="moves already played")
    p.add_argument("--solver", default=DEFAULT_SOLVER, choices=SOLVERS)
    p.add_argument("--time-limit", type=SECONDS, metavar="S")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_hint)


def run_hint(args) -> int:
    from kamicp.solving.hint import hint

    board = load_boards(args)[0]
    g = region_graph(board)
    try:
        played = notation.parse_moves(board, g, args.after)
        h = hint(board, played, args.solver, args.time_limit)
    except IllegalMove as err:
        raise KamicpError(f"{formats.shown(args.file)}: --after: {err}") from None
    r = h.result
    pg = region_graph(h.position)
    move = None if h.next_move is None else notation.format_move(h.position, pg, h.next_move)
    if args.json:
        print(
            json.dumps(
                {
                    "next_move": move,
                    "status": r.status,
                    "moves_left": r.moves,
                    "lower_bound": r.lower_bound,
                    "upper_bound": r.upper_bound,
                }
            )
        )
    elif r.moves == 0:
        print("already solved")
    elif r.status == "optimal":
        print(f"next move: {move}")
        print(f"moves still needed: {r.moves} (proved optimal: {r.proof})")
    elif r.lower_bound >= UNSOLVABLE:
        print("next move: - (no sequence of moves solves this board)")
    else:
        upper = "?" if r.upper_bound is None else r.upper_bound
        print(f"next move: {move or '-'} (not proved optimal: {r.status})")
        print(f"moves still needed: between {r.lower_bound} and {upper}")
    return EXIT_CODES[r.status]


# --- cross-check -----------------------------------------------------------------------------


def add_cross_check(p):
    """Run several solvers, replay every solution, report each disagreement (exit 1 if any)."""
    p.add_argument("paths", nargs="+", help="puzzle files or folders")
    p.add_argument("--solvers", default="bfs,astar,cpsat,sat", help="comma-separated solvers")
    p.add_argument("--time-limit", type=SECONDS, default=60.0, help="seconds per solver")
    p.set_defaults(run=run_cross_check)


def run_cross_check(args) -> int:
    from kamicp.solving.crosscheck import cross_check

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


# --- certificates and export -----------------------------------------------------------------


def add_verify(p):
    """Check a certificate written by ``solve --certificate``: each step reported."""
    p.add_argument("dir", help="certificate folder")
    p.add_argument("--no-drat-trim", action="store_true", help="skip drat-trim even if on PATH")
    p.add_argument("--time-limit", type=SECONDS, metavar="S", help="seconds for the proof check")
    p.set_defaults(run=run_verify)


def run_verify(args) -> int:
    from kamicp.proof.certificate import verify

    ok = True
    for step in verify(args.dir, drat_trim=not args.no_drat_trim, time_limit=args.time_limit):
        print(f"{'ok  ' if step.ok else 'FAIL'}  {step.name}: {step.detail}")
        ok &= step.ok
    print("certificate verified" if ok else "certificate REJECTED")
    return 0 if ok else 1


def add_export(p):
    """Write the model of one horizon (DIMACS CNF or CP-SAT proto) for other solvers."""
    _puzzle_args(p, format_flag="--input-format")
    p.add_argument("--moves", type=COUNT, required=True, metavar="K", help="the horizon")
    p.add_argument(
        "--format",
        dest="model_format",
        default="dimacs",
        choices=("dimacs", "cpsat"),
        help="dimacs (default) or cpsat (proto)",
    )
    p.add_argument("--final-colour", metavar="X", help="the board must end in colour X")
    p.add_argument(
        "--out", type=PATH, metavar="PATH", help="output file (default: standard output)"
    )
    p.set_defaults(run=run_export)


def final_colour(args, board: Board) -> int | None:
    """The colour index of ``--final-colour`` (None when not given); a bad colour is a
    one-line error naming the file."""
    if args.final_colour is None:
        return None
    try:
        return notation.parse_colour(board, args.final_colour)
    except IllegalMove as err:
        raise KamicpError(f"{formats.shown(args.file)}: --final-colour: {err}") from None


def run_export(args) -> int:
    from kamicp.models.export import export_cpsat, export_dimacs

    board = load_boards(args)[0]
    g = region_graph(board)
    final = final_colour(args, board)
    if args.moves < 0:
        raise KamicpError(f"--moves {args.moves}: must be 0 or more")
    if args.moves > g.n:
        # n moves always suffice (n - 1 merges per piece, one recolouring each), so a longer
        # horizon asks the same question with a larger model: 2000 on a small board built
        # its CNF for minutes and gigabytes.
        raise KamicpError(
            f"--moves {args.moves}: more than this board's {g.n} regions; a horizon of "
            f"{g.n} has the same answer (each piece needs at most its regions' count of moves)"
        )
    if args.out is not None:
        ensure_not_input(args.out, [args.file])
    if args.model_format == "cpsat":
        text = export_cpsat(g, args.moves, final, path=args.out)
    else:
        text = export_dimacs(g, args.moves, final)
        if args.out is not None:
            with open(args.out, "w") as f:
                f.write(text)
    if args.out is None:
        sys.stdout.write(text)
    else:
        print(args.out)
    return 0


COMMANDS: dict[str, Callable] = {
    "info": add_info,
    "solve": add_solve,
    "check": add_check,
    "show": add_show,
    "render": add_render,
    "bench": add_bench,
    "batch": add_batch,
    "hint": add_hint,
    "cross-check": add_cross_check,
    "export": add_export,
    "verify": add_verify,
}
