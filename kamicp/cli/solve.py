"""``kamicp solve``: solve each puzzle of files and folders and print its answer (moves,
status, bounds, proof), as text or JSON, with every optimal solution or a certificate on
request. Several puzzles run in this one process, or side by side (:mod:`kamicp.cli.many`)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from contextlib import nullcontext
from dataclasses import dataclass, replace

from kamicp import formats, plural
from kamicp.cli.args import (
    COUNT,
    DEPTH,
    PATH,
    POSITIVE,
    SECONDS,
    SECONDS_OR_NONE,
    add_memory_limit,
    add_puzzle_args,
    add_workers,
    jobs_option,
    load_puzzles,
    memory_limited,
)
from kamicp.cli.clock import command_started, out_of_time, seconds_left
from kamicp.cli.describe import describe
from kamicp.cli.many import solve_all
from kamicp.cli.output import EXIT_CODES, ensure_not_input
from kamicp.cli.refusals import refuse_unused_solve
from kamicp.errors import IllegalMove, KamicpError
from kamicp.game import notation
from kamicp.game.board import Board
from kamicp.game.regions import RegionGraph, region_graph
from kamicp.procs.deadline import LimitReached
from kamicp.procs.progress import PROGRESS_EVERY, Progress, Seen, watched
from kamicp.result import Result
from kamicp.runs.bar import Live
from kamicp.runs.record import move_tokens, result_record
from kamicp.solving.options import DEFAULT_STRATEGY, STRATEGIES, SolveOptions
from kamicp.solving.solve import DEFAULT_SOLVER, SOLVERS, solve

__all__ = [
    "AFTER_SOLVE",
    "ALL_OPTIMAL_CAP",
    "Answer",
    "Request",
    "add_solve",
    "answer",
    "known_solution",
    "run_solve",
]


# Seconds per region kept back from the solve's time limit for what follows it (the replay
# of its solution and the printing of the moves), so that the command ends within its
# limit: 0.6 s on a 500x500 board of 128,821 regions (BENCHMARKS.md, "Big boards").
AFTER_SOLVE = 5e-6

# Optimal solutions --all-optimal lists when --cap is not given: enough to see whether a
# level's answer is unique, few enough to read.
ALL_OPTIMAL_CAP = 100


def add_solve(p: argparse.ArgumentParser) -> None:
    """Add the options of ``solve``.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser.
    """
    add_puzzle_args(p, many=True)
    p.add_argument("--solver", default=DEFAULT_SOLVER, choices=SOLVERS)
    jobs_option(p, "puzzles solved side by side, each in a worker process (default 1)")
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
    add_memory_limit(p)
    p.add_argument(
        "--node-limit",
        type=POSITIVE,
        metavar="N",
        help="nodes (bfs, astar, idastar, pivot-astar, portfolio)",
    )
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
        "--ray",
        metavar="ADDRESS",
        help="idastar: its workers are the actors of the Ray cluster at ADDRESS ('local' "
        "starts one here; with --workers N, N actors, else one a CPU)",
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
        help="sat, cpsat, portfolio: try IDA* for up to S seconds first (default 0: the "
        "model alone)",
    )
    p.add_argument(
        "--strategy",
        choices=STRATEGIES,
        help=f"sat, cpsat, portfolio: the horizons asked (default {DEFAULT_STRATEGY}; down: "
        "the bound, then below the best solution; up: from the bound upwards; the portfolio "
        "on pivot rules runs up and down side by side)",
    )
    p.add_argument(
        "--known-solution",
        metavar="MOVES",
        help="a solution you have (or 'file': the one stored in the puzzle file); replayed, "
        "then used as the first upper bound: the solver beats it or proves it optimal",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object per puzzle (one a line, with its file and index when "
        "there are several)",
    )
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
    p.add_argument(
        "--cap",
        type=POSITIVE,
        metavar="N",
        help=f"with --all-optimal: at most N solutions (default {ALL_OPTIMAL_CAP})",
    )
    p.add_argument(
        "--certificate", type=PATH, metavar="DIR", help="write a certificate of optimality into DIR"
    )
    p.set_defaults(run=run_solve, began=time.monotonic())  # the command's start


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


@dataclass(frozen=True)
class Request:
    """What ``solve`` asks of every puzzle it is given.

    Parameters
    ----------
    solver : str
        The solver.
    options : SolveOptions
        The solve's options; ``final_colour`` and ``known`` are set per board.
    final_colour : str or None
        ``--final-colour``, the colour's symbol, read in each board's palette.
    known_solution : str or None
        ``--known-solution``: moves, or ``file`` for the one each puzzle file holds.
    several : bool
        Many puzzles are asked: ``file`` then skips a puzzle whose file holds no solution
        (a plain solve) instead of refusing it.
    all_optimal : bool
        List every distinct optimal solution, at most ``cap``.
    cap : int
        ``--cap``.
    progress : float or None
        Seconds between progress status lines on standard error; None for no progress.
    started : float or None
        The ``time.monotonic()`` value from which the time limit counts (the process's
        start when one puzzle is asked, so that the limit covers the whole command); None
        for each puzzle's own start.
    text : bool
        Describe the answer as text; not under ``--json``, which prints only the data.
    """

    solver: str
    options: SolveOptions
    final_colour: str | None = None
    known_solution: str | None = None
    several: bool = False
    all_optimal: bool = False
    cap: int = ALL_OPTIMAL_CAP
    progress: float | None = None
    started: float | None = None
    text: bool = True


@dataclass(frozen=True)
class Answer:
    """One puzzle's answer: the JSON object and the text ``solve`` prints, and the result.

    Parameters
    ----------
    data : dict
        What ``--json`` prints (:func:`~kamicp.runs.record.result_record`, and the
        optimal solutions if asked).
    text : str
        What ``solve`` prints otherwise (:func:`describe`, and the optimal solutions); ""
        when the request asked for none.
    result : Result
        The solver's answer.
    final_colour : int or None
        The colour index the board had to end in.
    """

    data: dict
    text: str
    result: Result
    final_colour: int | None = None

    @property
    def code(self) -> int:
        """The exit code of this answer (:data:`~kamicp.cli.output.EXIT_CODES`)."""
        return EXIT_CODES[self.result.status]


def answer(where: str, board: Board, request: Request) -> Answer:
    """Solve one puzzle as ``solve`` is asked to, and describe the answer.

    Parameters
    ----------
    where : str
        The puzzle's file as messages show it.
    board : Board
        The puzzle.
    request : Request
        What is asked.

    Returns
    -------
    Answer
        The JSON object, the text and the result.

    Raises
    ------
    KamicpError
        One line naming the file, if ``--final-colour`` is not in the board's palette or
        ``--known-solution`` does not solve it.
    """
    began = time.monotonic() if request.started is None else request.started
    limit = request.options.time_limit
    deadline = None if limit is None else began + limit
    try:
        g = region_graph(board, deadline)
    except LimitReached:
        return _as_answer(where, board, out_of_time(board, limit, "building the region graph"))
    final = None
    if request.final_colour is not None:
        try:
            final = notation.parse_colour(board, request.final_colour)
        except IllegalMove as err:
            raise KamicpError(f"{where}: --final-colour: {err}") from None
    given = request.known_solution
    if given == "file" and request.several and not board.solution:
        given = None
    known = known_solution(where, board, g, given, final)
    if request.progress is not None:
        watch = Progress(sys.stderr, board.name or where, request.progress)
    elif request.several:
        watch = Seen()  # the run's bar counts the puzzles
    else:
        watch = Live(board.name or where)  # a line on a terminal: the time and the bounds
    if deadline is not None:
        limit = deadline - time.monotonic() - AFTER_SOLVE * g.n
        if limit <= 0:  # even the bounds would outlast it on a board this big
            return _as_answer(
                where, board, out_of_time(board, request.options.time_limit, "before the solve")
            )
    with watch if isinstance(watch, Live) else nullcontext(), watched(watch):
        options = replace(request.options, final_colour=final, known=known, time_limit=limit)
        result = solve(g, request.solver, options)
    result.seconds = time.monotonic() - began  # the region graph and the imports included
    data = result_record(board, g, result, where)
    max_moves = request.options.max_moves
    if max_moves is not None:
        data["max_moves"] = max_moves
    text = describe(board, g, result, max_moves) if request.text else ""
    if request.all_optimal and result.status == "optimal" and not result.interrupted:
        from kamicp.solving.alloptimal import all_optimal  # asked for: loaded now

        every = all_optimal(g, result.moves, cap=request.cap, final_colour=final)
        data["all_optimal"] = [move_tokens(board, g, m) for m in every]
        data["cap_reached"] = len(every) >= request.cap
        more = " (cap reached: there may be more)" if data["cap_reached"] else ""
        text += f"\noptimal solutions, commuting moves counted once: {len(every)}{more}"
        text += "".join(f"\n  {notation.format_moves(board, g, m)}" for m in every)
    return Answer(data, text, result, final)


def _as_answer(where: str, board: Board, result: Result) -> Answer:
    """The answer of a run with no region graph to show moves on (nor a solution)."""
    data = result_record(board, None, result, where)
    return Answer(data, describe(board, None, result), result)


def _refuse_for_several(args: argparse.Namespace, count: int) -> None:
    """Refuse the options that hold for one puzzle only, when ``count`` puzzles are given."""
    several = f"{plural.count(count, 'puzzle')} given"
    if args.certificate:
        if len(args.files) == 1:
            problem = f"{args.files[0]}: --certificate needs one puzzle: pick it with --index"
            raise KamicpError(problem)
        raise KamicpError(f"--certificate needs one puzzle, not {several}")
    if args.journal:
        raise KamicpError(f"--journal keeps the bounds of one board, not {several}")
    if args.known_solution not in (None, "file"):
        raise KamicpError(
            f"--known-solution: moves fit one puzzle, not {several} ('file' fits each)"
        )
    if args.jobs > 1 and (args.progress or args.progress_every is not None):
        raise KamicpError("--progress: the lines of puzzles side by side would mix; use --jobs 1")


def _certify(args: argparse.Namespace, board, index: int, done, data: dict, text: str):
    """Write the certificate of an optimal answer, within what is left of the time limit.

    Returns the answer's JSON and text with the certificate's line, and the exit code: the
    answer's, or 3 when the answer is not optimal, no evidence was had in time or Ctrl-C or
    SIGTERM stopped the search for it (the answer and its bounds are printed all the same).
    """
    # here, not at start-up: only a solve asked for a certificate needs the proof modules
    from kamicp.proof.certificate import CertificateOptions, NoEvidence, write_certificate

    if done.result.status != "optimal":
        why = f"not written: the answer is {done.result.status}, not optimal"
        return {**data, "certificate": None}, f"{text}\ncertificate: {why}", EXIT_CODES["unknown"]
    options = CertificateOptions(time_limit=seconds_left(args))
    try:
        manifest = write_certificate(
            board,
            args.files[0],
            done.result,
            args.certificate,
            index=index,
            final_colour=done.final_colour,
            options=options,
        )
    except NoEvidence as err:
        why = f"not written: {err}"
        return {**data, "certificate": None}, f"{text}\ncertificate: {why}", EXIT_CODES["unknown"]
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: the answer stands, the folder stays empty
        why = "not written: interrupted"
        return {**data, "certificate": None}, f"{text}\ncertificate: {why}", EXIT_CODES["unknown"]
    kind = manifest["evidence"]["kind"]
    return (
        {**data, "certificate": args.certificate},
        (f"{text}\ncertificate: {args.certificate} (evidence: {kind})"),
        done.code,
    )


@memory_limited
def run_solve(args: argparse.Namespace) -> int:
    """Solve each puzzle the arguments pick and print its answer.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed arguments of ``solve``.

    Returns
    -------
    int
        The exit code of the worst answer (:data:`~kamicp.cli.output.EXIT_CODES`); 3 if
        Ctrl-C or SIGTERM left a puzzle unanswered.

    Raises
    ------
    KamicpError
        If an option does not fit the solver or the number of puzzles, an output cannot be
        written, or the input is bad.
    """
    refuse_unused_solve(args)
    if args.certificate and formats.STDIN in args.files:
        raise KamicpError("--certificate: needs a puzzle file to copy, not standard input")
    puzzles = load_puzzles(args)
    if len(puzzles) > 1:
        _refuse_for_several(args, len(puzzles))
    if args.journal:
        ensure_not_input(args.journal, [*args.files, args.known_solution or ""])
        from kamicp.search.ida.journal import ensure_journal  # asked for: loaded now

        ensure_journal(args.journal)
    if args.certificate:
        # here, not at start-up: only a solve asked for a certificate needs the proof modules
        from kamicp.proof.certificate import certificate_path_ok

        ensure_not_input(args.certificate, args.files)
        certificate_path_ok(args.certificate)
    every = None
    if args.progress or args.progress_every is not None:
        every = PROGRESS_EVERY if args.progress_every is None else args.progress_every
    request = Request(
        solver=args.solver,
        options=SolveOptions.from_args(args),
        final_colour=args.final_colour,
        known_solution=args.known_solution,
        several=len(puzzles) > 1,
        all_optimal=args.all_optimal,
        cap=args.cap or ALL_OPTIMAL_CAP,
        progress=every,
        started=command_started(args) if len(puzzles) == 1 else None,
        text=not args.json,
    )
    if len(puzzles) > 1:
        return solve_all(puzzles, answer, request, args.jobs, args.json)
    [(where, index, board)] = puzzles
    done = answer(where, board, request)
    data, text = {**done.data, "index": index}, done.text
    code = done.code
    if args.certificate:
        data, text, code = _certify(args, board, index, done, data, text)
    print(json.dumps(data) if args.json else text, flush=True)
    return code
