"""Random free-rule boards for comparing the portfolio's two set-ups (BENCHMARKS.md,
"Deep boards"): three seeded sets, written as text puzzles under OUT/{small,wide,deep}.

    python bench/free_boards.py OUT
    kamicp bench OUT/wide --solver portfolio,idastar --workers 2 --time-limit 20

- small: square, hex and triangle boards of 7 and 9 rows, 3-5 colours, two of each
  (the rows of a triangle board are twice as long); a cell copies its left or upper
  neighbour with probability 0.35, so regions are a little larger than random cells;
- wide: 10, 12 and 14 rows, 5-7 colours, copying with probability 0.7: many colours, few
  regions for their size, where the colour bound is the start bound or near it;
- deep: boards drawn at random (mostly triangles, 7-11 rows, 3-5 colours) kept only when
  they have 35-90 regions and a start bound at least 6 above their colour bound
  (``kamicp.solving.driver.is_deep``), the first 24 found.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from kamicp import bounds
from kamicp.formats import load
from kamicp.game.regions import region_graph
from kamicp.solving.solve import is_deep

LETTERS = "RGBYOPCW"


def board(rng: random.Random, geometry: str, rows: int, k: int, copy: float) -> list[str]:
    """Rows of colour letters: random cells, each copying its left or upper neighbour with
    probability ``copy`` (the same draws, in the same order, as the runs in BENCHMARKS.md)."""
    cols = rows * 2 if geometry == "triangle" else rows
    grid = [[rng.randrange(k) for _ in range(cols)] for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            if rng.random() < copy:
                if c and rng.random() < 0.5:
                    grid[r][c] = grid[r][c - 1]
                elif r:
                    grid[r][c] = grid[r - 1][c]
    return ["".join(LETTERS[x] for x in row) for row in grid]


def write(folder: Path, name: str, geometry: str, rows: list[str]) -> Path:
    path = folder / f"{name}.txt"
    head = f"name: {name}\ngeometry: {geometry}\nrules: free\n"
    path.write_text(head + "".join(row + "\n" for row in rows))
    return path


def small(folder: Path) -> None:
    rng = random.Random(39)
    for geometry in ("square", "hex", "triangle"):
        for rows in (7, 9, 11):
            for k in (3, 4, 5):
                for rep in range(2):
                    cells = board(rng, geometry, rows, k, 0.35)
                    if rows < 11:  # the 11-row boards were drawn but not run
                        write(folder, f"{geometry}_{rows}_{k}_{rep}", geometry, cells)


def wide(folder: Path) -> None:
    rng = random.Random(3939)
    for geometry in ("square", "hex", "triangle"):
        for rows in (10, 12, 14):
            for k in (5, 6, 7):
                cells = board(rng, geometry, rows, k, 0.7)
                write(folder, f"{geometry}_{rows}_{k}", geometry, cells)


def deep(folder: Path, wanted: int = 24, tries: int = 400) -> None:
    rng = random.Random(7)
    made = 0
    for attempt in range(1, tries + 1):
        geometry = rng.choice(["triangle", "triangle", "hex", "square"])
        rows, k = rng.randrange(7, 12), rng.randrange(3, 6)
        copy = rng.choice([0.3, 0.5, 0.6])
        name = f"{geometry}_{rows}_{k}_{attempt}"
        path = write(folder, name, geometry, board(rng, geometry, rows, k, copy))
        g = region_graph(load(str(path))[0])
        if 35 <= g.n <= 90 and is_deep(g, bounds.lower_bound(g)):
            made += 1
            if made == wanted:
                return
        else:
            path.unlink()


def main(out: str) -> None:
    for name, make in (("small", small), ("wide", wide), ("deep", deep)):
        folder = Path(out) / name
        folder.mkdir(parents=True, exist_ok=True)
        make(folder)


if __name__ == "__main__":
    main(sys.argv[1])
