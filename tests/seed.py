"""The seed examples copied from ../shared/data/seed-examples (allowed by their README)."""

from __future__ import annotations

from pathlib import Path

from kamicp import formats
from kamicp.board import Board

DATA = Path(__file__).parent / "data"
SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data"


def article_board() -> Board:
    """The 18-node KAMI 2 region graph of the seed article (free rules, optimum 5)."""
    return formats.load(str(DATA / "kami2-article-graph.json"))[0]
