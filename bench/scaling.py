"""How the parallel IDA* proof grows with the workers (BENCHMARKS.md,
"Parallel IDA*"), and what a stopped and resumed proof costs.

    python bench/scaling.py PUZZLE --moves M [--workers 1,2,4] [--resume 2] [--seed 0]

Refutes ``M`` moves on ``PUZZLE`` (its first board) with IDA*'s default options, in this
process: one row per worker count, 1 being the one-process search. Columns: wall time,
states expanded (the work), the work against one process, the workers' busy, idle and
waiting shares (and the least busy worker's), efficiency wall(1) / (N x wall(N)), tasks
answered and splits. With ``--resume N``: the same refutation on N workers stopped at a
random point (``--seed``) of its uninterrupted wall time, then resumed from its journal;
the extra work is the states of both runs against the uninterrupted run's.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from kamicp import bounds
from kamicp.formats import puzzles
from kamicp.game.regions import region_graph
from kamicp.search.ida import IdaOptions
from kamicp.search.ida.engine import PoolIda
from kamicp.search.ida.search import serial_idastar


def warm(g) -> None:
    """Compile the bounds' loops before anything is timed."""
    serial_idastar(g, max_moves=2)


def one_process(g, moves: int) -> dict:
    """The refutation on this process alone."""
    bounds.forget_cached_bounds()
    began = time.perf_counter()
    out = serial_idastar(g, max_moves=moves)
    assert out.complete and out.moves is None, "not refuted: pick M below the optimum"
    return {"workers": 1, "wall": time.perf_counter() - began, "states": out.nodes}


def on_workers(g, moves: int, n: int, deadline=None, journal=None) -> dict:
    """The refutation on ``n`` worker processes (stopped at ``deadline``, if given)."""
    bounds.forget_cached_bounds()
    ida = PoolIda.of(g, None, None, deadline, IdaOptions(workers=n))
    began = time.perf_counter()
    out = ida.prove(moves, 0, journal)
    wall, ended = time.perf_counter() - began, time.monotonic()
    row = {"workers": n, "wall": wall, "states": out.nodes, "complete": out.complete}
    if ida.tally is not None:
        tally = ida.tally
        busy, idle, waiting = tally.shares(n, ended)
        least = tally.least_busy(n, ended)
        row.update(busy=busy, least=least, idle=idle, waiting=waiting)
        row.update(tasks=tally.tasks, splits=tally.splits)
    return row


def table(rows: list[dict]) -> None:
    """The scaling table, in Markdown."""
    base = rows[0]
    print(
        "| workers | wall s | states | work vs 1 | busy | least busy | idle | waiting "
        "| efficiency | tasks | splits |"
    )
    print("|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for r in rows:
        efficiency = base["wall"] / (r["workers"] * r["wall"])
        kinds = ("busy", "least", "idle", "waiting")
        shares = [f"{r[k]:.0%}" if k in r else "" for k in kinds]
        print(
            f"| {r['workers']} | {r['wall']:.1f} | {r['states']:,} | "
            f"{r['states'] / max(1, base['states']):.2f} | {' | '.join(shares)} | "
            f"{efficiency:.2f} | "
            f"{r.get('tasks', '')} | {r.get('splits', '')} |"
        )


def resumed(g, moves: int, n: int, full: dict, seed: int) -> None:
    """Stop the refutation at a random point, resume it from its journal, and print the
    extra work."""
    fraction = random.Random(seed).uniform(0.2, 0.8)
    with tempfile.TemporaryDirectory() as folder:
        journal = str(Path(folder) / "proof.journal")
        stop = time.monotonic() + fraction * full["wall"]
        first = on_workers(g, moves, n, deadline=stop, journal=journal)
        second = on_workers(g, moves, n, journal=journal)
    assert second["complete"]
    both = first["states"] + second["states"]
    print(
        f"\nstopped at {fraction:.0%} of {full['wall']:.1f} s ({first['states']:,} states), "
        f"resumed: {second['states']:,} states in {second['wall']:.1f} s; "
        f"{both:,} in all against {full['states']:,} uninterrupted: "
        f"{both / full['states'] - 1:+.1%} work"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("puzzle")
    parser.add_argument("--moves", type=int, required=True, help="refute this many moves")
    parser.add_argument("--workers", default="1,2", help="worker counts (default 1,2)")
    parser.add_argument("--resume", type=int, metavar="N", help="also stop and resume on N")
    parser.add_argument("--seed", type=int, default=0, help="where the stopped run stops")
    args = parser.parse_args()
    _, _, board = next(iter(puzzles([args.puzzle])))
    g = region_graph(board)
    warm(g)
    rows = []
    for n in (int(x) for x in args.workers.split(",")):
        rows.append(one_process(g, args.moves) if n == 1 else on_workers(g, args.moves, n))
        print(f"{n} workers: {rows[-1]['wall']:.1f} s", flush=True)
    print(f"\n{board.name or Path(args.puzzle).stem}, refuting {args.moves} moves\n")
    table(rows)
    if args.resume:
        full = next((r for r in rows if r["workers"] == args.resume), None)
        if full is None:
            full = on_workers(g, args.moves, args.resume)
        resumed(g, args.moves, args.resume, full, args.seed)


if __name__ == "__main__":
    main()
