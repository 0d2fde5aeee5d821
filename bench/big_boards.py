"""Random square boards of growing size, for the scaling table (BENCHMARKS.md, "Big
boards"): uniform random cells, seeded, written as grid text puzzles under OUT; then the
table: ``info``, ``solve --time-limit 10`` and ``--solver greedy`` on each, one process a
command, with its wall time and peak memory.

    python bench/big_boards.py OUT [SIDE ...]
    python bench/big_boards.py table OUT

For each side (default 10 30 50 100 200 500), 4 and 6 colours, and free and pivot rules,
one board ``sq{side}-k{colours}-{rules}.txt``; the pivot board has the same cells as the
free one (its pivot is the top-left cell, the grid format's default).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

__all__ = ["COLOURS", "SIDES", "board", "main", "measure", "table"]

SIDES = (10, 30, 50, 100, 200, 500)
COLOURS = (4, 6)
LETTERS = "RGBYOP"
SEED = 46


def board(side: int, colours: int, seed: int = SEED) -> list[str]:
    """``side`` rows of ``side`` uniform random colour letters out of the first ``colours``.

    Examples
    --------
    >>> board(3, 2)
    ['GRR', 'RRR', 'GGR']
    """
    rng = random.Random(f"{seed}-{side}-{colours}")
    return ["".join(rng.choice(LETTERS[:colours]) for _ in range(side)) for _ in range(side)]


def measure(argv: list[str]) -> tuple[float, int, dict]:
    """Run ``kamicp argv`` (with ``--json``): its wall time in seconds, the peak memory in MB
    of it and the processes it waited for, and its JSON answer."""
    began = time.monotonic()
    child = subprocess.Popen(
        [sys.executable, "-m", "kamicp", *argv, "--json"], stdout=subprocess.PIPE, text=True
    )
    out = child.stdout.read()
    _, _, usage = os.wait4(child.pid, 0)
    child.returncode = 0  # reaped above
    return time.monotonic() - began, usage.ru_maxrss // 1024, json.loads(out)


def table(folder: Path) -> None:
    """Print the scaling table of the boards in ``folder``, in the order of BENCHMARKS.md."""
    print(
        "| board | regions | `info` s / MB / lower | `solve --time-limit 10` s / MB / status / "
        "bounds | `--solver greedy` s / MB / moves |"
    )
    print("|---|--:|---|---|---|")
    for colours in COLOURS:
        for side in sorted({int(p.name[2:].split("-")[0]) for p in folder.glob("sq*-k*-*.txt")}):
            for rules in ("free", "pivot"):
                path = folder / f"sq{side}-k{colours}-{rules}.txt"
                if not path.exists():
                    continue
                t1, m1, info = measure(["info", str(path)])
                t2, m2, solved = measure(["solve", str(path), "--time-limit", "10"])
                t3, m3, greedy = measure(["solve", str(path), "--solver", "greedy"])
                bounds = f"{solved['lower_bound']}..{solved['upper_bound']}"
                print(
                    f"| {side}x{side} k{colours} {rules} | {info['regions']:,} "
                    f"| {t1:.1f} / {m1} / {info['lower_bound']} "
                    f"| {t2:.1f} / {m2} / {solved['status']} / {bounds} "
                    f"| {t3:.1f} / {m3} / {greedy['moves']} |",
                    flush=True,
                )


def main(argv: list[str]) -> int:
    """Write the boards into the folder ``argv[0]``, for the sides ``argv[1:]`` if given;
    with ``table OUT``, print the table of the boards in OUT."""
    if not argv:
        print(__doc__.strip().splitlines()[5].strip(), file=sys.stderr)
        return 2
    if argv[0] == "table" and len(argv) == 2:
        table(Path(argv[1]))
        return 0
    folder = Path(argv[0])
    folder.mkdir(parents=True, exist_ok=True)
    sides = [int(s) for s in argv[1:]] or list(SIDES)
    for side in sides:
        for colours in COLOURS:
            rows = board(side, colours)
            for rules in ("free", "pivot"):
                name = f"sq{side}-k{colours}-{rules}"
                head = f"name: {name}\ngeometry: square\nrules: {rules}\n"
                (folder / f"{name}.txt").write_text(head + "".join(r + "\n" for r in rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
