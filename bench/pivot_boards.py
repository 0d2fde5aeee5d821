"""Flood-It boards made here, and timings of kamicp on them (BENCHMARKS.md, "Pivot rules:
the default route"): seeded sets written in the digit format, then solved in one process.

    python bench/pivot_boards.py write OUT
    python bench/pivot_boards.py run OUT/random-14x14-6.txt [--solver portfolio] [--limit 60]
    python bench/pivot_boards.py run ../shared/data/floodit-99 --limit 300
    python bench/pivot_boards.py processes OUT/random-16x16-6.txt --boards 20
    python bench/pivot_boards.py kernels OUT/random-14x14-6.txt --library host.lib

``write`` makes, each from its own seed:

- ``random-14x14-6.txt``: 1,000 boards of 14x14 cells, six colours, each cell drawn uniformly
  (the boards of the Flood-It benchmarks the public exact solvers quote);
- ``random-16x16-6.txt``: 100 boards of 16x16 cells, six colours, the same way;
- ``tatham-12x12-6.txt``: 100 boards the size of Simon Tatham's *flood* default (12x12, six
  colours), cells uniform as that game draws them.

``run`` loads every puzzle of the files and folders given and solves them one after the
other in this process, each answer replayed by the driver; it prints one Markdown row per
set: boards, proved optimal, equal to a listed optimum, total and median seconds, the
slowest board, and the peak memory of the process. Start-up is paid once, as with
``kamicp solve FILE...``.

``processes`` runs ``kamicp solve FILE --index N`` as a process of its own for each of the
first boards of a file, once as installed (the ahead-of-time build of the pivot search, if
built) and once with ``KAMICP_JIT=1`` (Numba's JIT, its cache warm), the two alternated
board by board; it prints the median and range of each one's wall time and peak memory.

``kernels`` times the pivot A* alone (:func:`kamicp.search.pivot_astar.pivot_astar`) on every
board of a file in this process, with the kernels in use (the installed library), with
Numba's JIT, and with each library given (built by :func:`kamicp.search.pivot_code.build`,
say for another CPU), in alternated rounds after a warm-up; the answers and expansions must
agree. It prints each one's median and range of CPU seconds.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from kamicp.formats import puzzles
from kamicp.game.regions import region_graph
from kamicp.solving.options import SolveOptions
from kamicp.solving.solve import solve

SETS = {  # name: (side, colours, boards, seed)
    "random-14x14-6": (14, 6, 1000, 14),
    "random-16x16-6": (16, 6, 100, 16),
    "tatham-12x12-6": (12, 6, 100, 12),
}


def board_line(rng: random.Random, side: int, colours: int) -> str:
    """One board of the digit format: side * side cells, each a uniform digit 1..colours."""
    return "".join(str(rng.randrange(colours) + 1) for _ in range(side * side))


def write(out: Path) -> None:
    """Write every set of :data:`SETS` under ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    for name, (side, colours, count, seed) in SETS.items():
        rng = random.Random(seed)
        lines = [board_line(rng, side, colours) for _ in range(count)]
        path = out / f"{name}.txt"
        header = f"# {count} boards {side}x{side}, {colours} colours, seed {seed}\n"
        path.write_text(header + "\n".join(lines) + "\n")
        print(f"wrote {path}")


def run(paths: list[str], solver: str, limit: float, each: bool = False) -> None:
    """Solve every puzzle under ``paths`` in this process and print one row per path (and
    with ``each``, a line per board: name, status, moves, listed optimum, seconds, proof)."""
    print("| set | boards | proved | = listed | total s | median s | slowest s | peak MB |")
    print("|---|---|---|---|---|---|---|---|")
    for path in paths:
        boards = [board for _, _, board in puzzles([path])]
        seconds, proved, listed = [], 0, 0
        for board in boards:
            began = time.perf_counter()
            result = solve(region_graph(board), solver, SolveOptions(time_limit=limit))
            seconds.append(time.perf_counter() - began)
            proved += result.status == "optimal"
            listed += board.optimum is not None and result.moves == board.optimum
            if each:
                print(
                    f"  {board.name} {result.status} {result.moves} (listed {board.optimum}) "
                    f"{seconds[-1]:.2f} s: {result.proof}",
                    flush=True,
                )
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        print(
            f"| {Path(path).name} | {len(boards)} | {proved} | {listed} | {sum(seconds):.1f} "
            f"| {statistics.median(seconds):.3f} | {max(seconds):.2f} | {peak} |",
            flush=True,
        )


def one_process(path: str, index: int, env: dict) -> tuple[float, float]:
    """Wall seconds and peak megabytes of ``kamicp solve path --index index``, a process of
    its own."""
    began = time.perf_counter()
    argv = [sys.executable, "-m", "kamicp", "solve", path, "--index", str(index)]
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - began
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{path} board {index}: exit {os.waitstatus_to_exitcode(status)}")
    return wall, usage.ru_maxrss / 1024


def processes(path: str, boards: int) -> None:
    """Each of the first ``boards`` boards of ``path`` in a process of its own, with the
    ahead-of-time build and with the JIT alternated; a row for each."""
    modes = {"as installed": dict(os.environ), "KAMICP_JIT=1": dict(os.environ, KAMICP_JIT="1")}
    for env in modes.values():  # a warm-up each: Numba's cache is filled before timing
        one_process(path, 1, env)
    walls = {mode: [] for mode in modes}
    peaks = {mode: [] for mode in modes}
    for index in range(1, boards + 1):
        for mode, env in modes.items():
            wall, peak = one_process(path, index, env)
            walls[mode].append(wall)
            peaks[mode].append(peak)
    print("| kernels | boards | median s | min-max s | median peak MB |")
    print("|---|---|---|---|---|")
    for mode in modes:
        w = walls[mode]
        print(
            f"| {mode} | {boards} | {statistics.median(w):.2f} | {min(w):.2f}-{max(w):.2f} "
            f"| {statistics.median(peaks[mode]):.0f} |"
        )


def kernels(path: str, libraries: list[str], rounds: int) -> None:
    """The pivot A* on every board of ``path`` with each set of kernels, alternated."""
    from kamicp.search import pivot_astar, pivot_code, pivot_kernels

    graphs = [region_graph(board) for _, _, board in puzzles([path])]
    sets = {"in use": (pivot_code.open_start, pivot_code.expand, pivot_code.rehash)}
    sets["JIT"] = (pivot_kernels.open_start, pivot_kernels.expand, pivot_kernels.rehash)
    for library in libraries:
        native = pivot_code.NativeKernels(os.path.abspath(library))
        sets[library] = (native.open_start, native.expand, native.rehash)

    def one_round(name: str) -> tuple[float, list]:
        pivot_astar.open_start, pivot_astar.expand, pivot_astar.rehash = sets[name]
        began = time.process_time()
        found = []
        for g in graphs:
            out = pivot_astar.pivot_astar(g)
            found.append((out.moves, out.nodes))
        return time.process_time() - began, found

    reference = None
    for name in sets:  # a warm-up each, which must agree with the first
        found = one_round(name)[1]
        reference = found if reference is None else reference
        if found != reference:
            raise SystemExit(f"{name}: other answers or expansions than the kernels in use")
    seconds = {name: [] for name in sets}
    for _ in range(rounds):
        for name in sets:
            seconds[name].append(one_round(name)[0])
    print("| kernels | boards | rounds | median CPU s | min-max s |\n|---|--:|--:|--:|---|")
    for name, took in seconds.items():
        print(
            f"| {name} | {len(graphs)} | {rounds} | {statistics.median(took):.3f} "
            f"| {min(took):.3f}-{max(took):.3f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    w = sub.add_parser("write", help="write the seeded sets")
    w.add_argument("out", type=Path)
    r = sub.add_parser("run", help="solve every puzzle in one process")
    r.add_argument("paths", nargs="+")
    r.add_argument("--solver", default="portfolio")
    r.add_argument("--limit", type=float, default=60.0, help="seconds per board")
    r.add_argument("--each", action="store_true", help="also a line per board")
    p = sub.add_parser("processes", help="time one process a board, build against JIT")
    p.add_argument("path")
    p.add_argument("--boards", type=int, default=20)
    k = sub.add_parser("kernels", help="time the pivot A* with each set of kernels")
    k.add_argument("path")
    k.add_argument("--library", action="append", default=[], help="a built library")
    k.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if args.command == "kernels":
        kernels(args.path, args.library, args.rounds)
    elif args.command == "write":
        write(args.out)
    elif args.command == "processes":
        processes(args.path, args.boards)
    else:
        run(args.paths, args.solver, args.limit, args.each)


if __name__ == "__main__":
    main()
