"""Benchmarks: solvers side by side on the same puzzles, in one run, as a table.

Each (puzzle, solver) run happens in a child process with the time limit passed to the
solver and a hard stop a little later, so one runaway run cannot hold up the table, and the
child's peak memory is measured on its own. The children are forked from this process, so
the imports and the compiled bounds are loaded once for the whole run; with ``jobs`` above 1
that many run side by side (started by a fork server, which is safe from several threads),
and the rows are still printed in puzzle order. The machine is noisy: compare solvers within
one run, by ratios and medians, and mind that runs side by side share the cores.
"""

from __future__ import annotations

import contextlib
import csv
import json
import statistics
import sys
from dataclasses import dataclass, replace

from kamicp import bounds, formats, plural
from kamicp.errors import IllegalMove, KamicpError
from kamicp.game import notation
from kamicp.game.regions import region_graph
from kamicp.procs.interruptible import noting_interrupts
from kamicp.procs.isolate import run_isolated
from kamicp.runs.bar import bar, say
from kamicp.runs.batch import side_by_side, solve_row
from kamicp.runs.record import FAILED, failed_record
from kamicp.solving.options import SolveOptions
from kamicp.solving.solve import TETRAPOD_DEPTH_SOLVERS

__all__ = [
    "BACKEND_MODULES",
    "GRACE",
    "TIME_LIMIT",
    "BenchOptions",
    "bench",
    "describe_board",
    "run_one",
]

GRACE = 15.0  # seconds past the time limit before a child is killed
TIME_LIMIT = 60.0  # seconds a run, by default: the story set's table is made at 60 s


def _stored_solution(board) -> list | None:
    """The moves of the solution kept in the puzzle's file (None: there is none, the row is
    then a plain solve); a one-line error when it does not solve the board."""
    if not board.solution:
        return None
    try:
        return notation.parse_solution(board, region_graph(board), board.solution)
    except IllegalMove as err:
        raise KamicpError(f"{board.name}: the solution stored in the file: {err}") from None


def run_one(board, solver: str, options: SolveOptions) -> dict:
    """Solve ``board`` with ``solver`` in a child process, killed ``GRACE`` s after the time
    limit.

    Parameters
    ----------
    board : Board
        The puzzle.
    solver : str
        The solver.
    options : SolveOptions
        What the solve is asked; its ``time_limit`` is set.

    Returns
    -------
    dict
        The row of :func:`~kamicp.runs.batch.solve_row`, as the child returned it (see
        :func:`kamicp.procs.isolate.run_isolated` for a child that fails or is killed).
    """
    # The child is forked: without this it would inherit the tripod values the "lb" column
    # computed, and its time would leave out their cost (seconds on big boards).
    bounds.forget_cached_bounds()
    return run_isolated(solve_row, (board, solver, options), options.time_limit + GRACE, "fork")


BACKEND_MODULES = {
    "cpsat": ["kamicp.models.cpsat.horizon"],
    "sat": ["kamicp.models.sat.horizon"],
    "portfolio": [
        "kamicp.models.cpsat.horizon",
        "kamicp.models.sat.horizon",
        "kamicp.solving.portfolio",
    ],
    "bfs": ["kamicp.search.bfs"],
    "astar": ["kamicp.search.astar"],
    "idastar": ["kamicp.search.ida.search"],
}


def _preload(solvers: list[str]) -> None:
    """Import the backends once in the parent, so forked children don't time the import."""
    import importlib

    for solver in solvers:
        for module in BACKEND_MODULES.get(solver, []):
            importlib.import_module(module)


def describe_board(board) -> dict:
    """The columns of a bench row that describe the puzzle.

    Parameters
    ----------
    board : Board
        The puzzle.

    Returns
    -------
    dict
        ``puzzle``, ``regions``, ``colours``, ``islands``, ``rules``, ``lower_bound`` (the
        admissible bound at the start), ``par`` and ``optimum`` (as the file lists them).

    Examples
    --------
    >>> from kamicp.game.board import Board
    >>> board = Board(geometry="square", cells={(0, 0): 0, (0, 1): 1}, palette=("R", "G"))
    >>> row = describe_board(board)
    >>> row["regions"], row["colours"], row["lower_bound"]
    (2, 2, 1)
    """
    g = region_graph(board)
    return {
        "puzzle": board.name or board.source,
        "regions": g.n,
        "colours": len(g.colours_present()),
        "islands": len(g.islands),
        "rules": board.rules,
        "lower_bound": bounds.lower_bound(g),
        "par": board.par,
        "optimum": board.optimum,
    }


def _cell(row: dict) -> str:
    """One solver's result: status, moves, then the bounds proved when the optimum was not
    (a time limit reached: "feas 15 (14-15) 60.1s", "unk - (>=14) 60.1s"), then seconds."""
    status = {"optimal": "opt", "feasible": "feas", "infeasible": "inf", "unknown": "unk"}
    word = status.get(row["status"], row["status"])
    moves = "-" if row.get("moves") is None else row["moves"]
    proved = _proved(row)
    return f"{word} {moves}{f' ({proved})' if proved else ''} {row['seconds']:.1f}s"


def _proved(row: dict) -> str:
    """The bounds a run proved, where they are not its optimum: "14-15", ">=14"; "" for an
    optimum, an unsolvable board, or a row without bounds (a run that failed)."""
    lower, upper = row.get("lower_bound"), row.get("upper_bound")
    if row["status"] == "optimal" or lower is None or lower >= bounds.UNSOLVABLE:
        return ""
    return f">={lower}" if upper is None else f"{lower}-{upper}"


@dataclass(frozen=True)
class BenchOptions:
    """How :func:`bench` runs each puzzle and where it writes the rows.

    Parameters
    ----------
    solve : SolveOptions
        What every run is asked, as ``kamicp solve`` would ask it; its time limit (required)
        is each run's. ``tetrapod_depth`` goes to the ``idastar`` and ``portfolio`` rows only.
    rules : str or None
        Play every puzzle under these rules ("free" or "pivot") instead of its own.
    known : str or None
        ``"file"``: each solver starts from the solution stored in the puzzle's file, where
        there is one (``--known-solution``).
    csv_path, json_path : str or None
        Write the rows there too: CSV one line per run; JSON a list of the runs' objects
        (:func:`kamicp.runs.record.result_record`, with ``peak_mb`` and, where solvers
        disagree, ``disagreement``).
    markdown : bool
        Print the table as Markdown.
    jobs : int
        Runs side by side, each in a child process (1: one after another).

    Raises
    ------
    ValueError
        For ``solve`` without a time limit: a bench must end.
    """

    solve: SolveOptions = SolveOptions(time_limit=TIME_LIMIT)
    rules: str | None = None
    known: str | None = None
    csv_path: str | None = None
    json_path: str | None = None
    markdown: bool = False
    jobs: int = 1

    def __post_init__(self) -> None:
        if self.solve.time_limit is None:
            raise ValueError("a bench needs a time limit: each run is stopped at it")


def bench(
    paths: list[str],
    solvers: list[str],
    options: BenchOptions | None = None,
    out=None,
) -> int:
    """Run every solver on every puzzle; print the table, totals and medians.

    Parameters
    ----------
    paths : list of str
        Files and folders of puzzles; every file is read before the first solve.
    solvers : list of str
        The solvers, one column each; each (puzzle, solver) runs in a child process
        (:func:`run_one`).
    options : BenchOptions or None
        The time limit, the solvers' options and the outputs; the defaults when None.
    out : file or None
        Where to print; None for the standard output at the time of the call.

    Returns
    -------
    int
        1 when two solvers disagree on a proved optimum or a proved optimum differs from
        the one the file lists (``Board.optimum``), else 3 if Ctrl-C or SIGTERM stopped the
        run (the rows finished are still printed, summed up and written), else 0.

    Raises
    ------
    kamicp.errors.InputError
        For a file that cannot be read as puzzles (before any run).
    """
    out = sys.stdout if out is None else out  # now, not at import: it may be redirected
    o = options or BenchOptions()
    _preload(solvers)
    rows = []
    sep = " | " if o.markdown else "  "
    head = ["puzzle", "regions", "colours", "lb", "par", "listed"] + solvers
    # every file read first: a bad one ends the run before any puzzle is solved, not after
    # an hour of rows with no summary and no --csv/--json written
    found = formats.puzzles(paths)
    _print_row(out, head, sep, o.markdown, header=True)
    interrupted = False
    boards = [board.with_rules(o.rules) if o.rules else board for _, _, board in found]
    shown = bar(len(boards) * len(solvers), "run")

    def finish(row: dict) -> None:
        for solver in solvers:
            row[solver].update(file=row["file"], index=row["index"])
        row["disagreement"] = _disagreement(row, solvers)
        rows.append(row)
        _print_bench_row(out, row, solvers, sep, o.markdown)

    try:
        with noting_interrupts():  # SIGTERM is taken as Ctrl-C, here as in solve
            if o.jobs > 1:
                places = [{"file": path, "index": index} for path, index, _ in found]
                _side_by_side(boards, places, solvers, o, (finish, shown))
            else:
                for board, (path, index, _) in zip(boards, found, strict=True):
                    row = {**describe_board(board), "file": path, "index": index}
                    for solver in solvers:
                        answer = run_one(board, solver, _job(board, solver, o))
                        row[solver] = _settled(board, solver, answer)
                        shown.update(1)
                    finish(row)
    except KeyboardInterrupt:  # the running jobs were stopped (run_isolated); keep the rest
        interrupted = True
        done = plural.count(len(rows), "puzzle")
        running = "the one running was" if o.jobs == 1 else "the ones running were"
        print(f"\ninterrupted: {done} finished, {running} stopped", file=out)
    shown.close()
    _print_summary(out, rows, solvers)
    if o.csv_path:
        _write_csv(o.csv_path, rows, solvers)
    if o.json_path:
        with open(o.json_path, "w") as f:
            json.dump(_records(rows, solvers), f, indent=1)
    if any(r["disagreement"] for r in rows):
        return 1
    return 3 if interrupted else 0


def _settled(board, solver: str, answer: dict) -> dict:
    """A run's answer as an object of the one result shape, a failed run's too."""
    return failed_record(board, solver, answer) if answer["status"] in FAILED else answer


def _records(rows: list[dict], solvers: list[str]) -> list[dict]:
    """The runs of every row, one object each, with the row's disagreement if any."""
    out = []
    for row in rows:
        for solver in solvers:
            extra = {"disagreement": row["disagreement"]} if row["disagreement"] else {}
            out.append({**row[solver], **extra})
    return out


def _job(board, solver: str, o: BenchOptions) -> SolveOptions:
    """The options of one run: the bench's, the stored solution, the tetrapod depth only
    where the solver takes one."""
    known = _stored_solution(board) if o.known == "file" else None
    depth = o.solve.tetrapod_depth if solver in TETRAPOD_DEPTH_SOLVERS else None
    return replace(o.solve, known=known, tetrapod_depth=depth)


def _side_by_side(boards, places, solvers, o: BenchOptions, hooks) -> None:
    """Every run in ``o.jobs`` child processes at once; each row handed to ``finish`` in
    puzzle order once all its solvers have answered, each run counted on the bar."""
    finish, shown = hooks
    described = [{**describe_board(b), **place} for b, place in zip(boards, places, strict=True)]
    calls = [
        ((i, solver), solve_row, (board, solver, _job(board, solver, o)))
        for i, board in enumerate(boards)
        for solver in solvers
    ]
    following = 0  # the next row to hand over
    runs = side_by_side(calls, o.solve.time_limit + GRACE, o.jobs, "forkserver")
    with contextlib.closing(runs):  # closed on Ctrl-C: the running children are killed
        for (i, solver), answer in runs:
            described[i][solver] = _settled(boards[i], solver, answer)
            shown.update(1)
            while following < len(boards) and all(s in described[following] for s in solvers):
                finish(described[following])
                following += 1


def _print_bench_row(out, row: dict, solvers: list[str], sep: str, markdown: bool) -> None:
    cells = [row["puzzle"], row["regions"], row["colours"], _bound_text(row["lower_bound"])]
    cells += ["-" if row["par"] is None else row["par"]]
    cells += ["-" if row["optimum"] is None else row["optimum"]]
    cells += [_cell(row[s]) for s in solvers]
    if row["disagreement"]:
        cells.append(row["disagreement"])
    _print_row(out, cells, sep, markdown)


def _disagreement(row: dict, solvers: list[str]) -> str:
    optima = {s: row[s]["moves"] for s in solvers if row[s]["status"] == "optimal"}
    if len(set(optima.values())) > 1:
        return f"DISAGREE {optima}"
    listed = row["optimum"]
    if listed is not None and optima and set(optima.values()) != {listed}:
        return f"DIFFERS FROM LISTED OPTIMUM {listed}"
    return ""


def _print_row(out, cells, sep, markdown, header=False) -> None:
    widths = [22, 7, 7, 3, 4, 6] + [22] * (len(cells) - 6)
    text = sep.join(str(c).ljust(w) for c, w in zip(cells, widths, strict=False))
    if markdown:
        text = f"| {text} |"
    say(text.rstrip(), out)
    if header and markdown:
        print("|" + "|".join("---" for _ in cells) + "|", file=out)


def _print_summary(out, rows, solvers) -> None:
    print(file=out)
    for s in solvers:
        runs = [r[s] for r in rows]
        proved = [x for x in runs if x["status"] == "optimal"]
        secs = [x["seconds"] for x in runs]
        peak = [x.get("peak_mb", 0) for x in runs]
        print(
            f"{s}: {len(proved)}/{len(runs)} proved optimal; "
            f"total {sum(secs):.1f} s; median {statistics.median(secs) if secs else 0:.2f} s; "
            f"max {max(secs, default=0):.1f} s; peak memory max {max(peak, default=0):.0f} MB",
            file=out,
        )
    for a in solvers:
        for b in solvers:
            if a < b:
                both = [r for r in rows if r[a]["status"] == r[b]["status"] == "optimal"]
                ratios = [r[a]["seconds"] / max(r[b]["seconds"], 1e-3) for r in both]
                if ratios:
                    print(
                        f"time ratio {a}/{b} over {plural.count(len(ratios), 'puzzle')} "
                        "both proved: "
                        f"median {statistics.median(ratios):.2f}",
                        file=out,
                    )


def _bound_text(value: int | None) -> str | int | None:
    """A proved bound as the table and the CSV show it: "inf" for an unsolvable board (no
    moves solve it)."""
    return "inf" if value is not None and value >= bounds.UNSOLVABLE else value


def _write_csv(path, rows, solvers) -> None:
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(
            [
                "puzzle",
                "regions",
                "colours",
                "lower_bound",
                "par",
                "solver",
                "status",
                "moves",
                "seconds",
                "peak_mb",
                "proved_lower",
                "proved_upper",
            ]
        )
        for r in rows:
            for s in solvers:
                x = r[s]
                w.writerow(
                    [
                        r["puzzle"],
                        r["regions"],
                        r["colours"],
                        r["lower_bound"],
                        r["par"],
                        s,
                        x["status"],
                        x.get("moves"),
                        round(x["seconds"], 3),
                        round(x.get("peak_mb", 0), 1),
                        _bound_text(x.get("lower_bound")),
                        x.get("upper_bound"),
                    ]
                )
