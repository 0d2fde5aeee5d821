"""The seed examples copied from ../shared/data/seed-examples (allowed by their README)."""

from __future__ import annotations

import random
from pathlib import Path

from kamicp import formats
from kamicp.game.board import Board

DATA = Path(__file__).parent / "data"
SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data"


def long_board(folder: Path) -> Path:
    """A random 14x14 square board, 5 colours, free rules, written into ``folder``: bounds
    10-13 within seconds, far from proved (for tests that stop a run while it searches)."""
    rng = random.Random(7)
    rows = ["".join(rng.choice("RGBYP") for _ in range(14)) for _ in range(14)]
    path = folder / "big.txt"
    path.write_text("name: big\nrules: free\n" + "\n".join(rows) + "\n")
    return path


def article_board() -> Board:
    """The 18-node KAMI 2 region graph of the seed article (free rules, optimum 5)."""
    return formats.load(str(DATA / "kami2-article-graph.json"))[0]
