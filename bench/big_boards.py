"""Random square boards of growing size, for the scaling table (BENCHMARKS.md, "Big
boards"): uniform random cells, seeded, written as grid text puzzles under OUT.

    python bench/big_boards.py OUT [SIDE ...]
    /usr/bin/time -f "%e %M" kamicp solve OUT/sq100-k4-free.txt --time-limit 10

For each side (default 10 30 50 100 200 500), 4 and 6 colours, and free and pivot rules,
one board ``sq{side}-k{colours}-{rules}.txt``; the pivot board has the same cells as the
free one (its pivot is the top-left cell, the grid format's default).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

__all__ = ["COLOURS", "SIDES", "board", "main"]

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


def main(argv: list[str]) -> int:
    """Write the boards into the folder ``argv[0]``, for the sides ``argv[1:]`` if given."""
    if not argv:
        print(__doc__.strip().splitlines()[3].strip(), file=sys.stderr)
        return 2
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
