"""Boards for the view tests: every shipped puzzle, and random boards of every geometry."""

from __future__ import annotations

from pathlib import Path

from hypothesis import strategies as st

from kamicp import formats
from kamicp.game.board import Board
from tests.seed import SHARED
from tests.strategies import graph_boards, grid_boards

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted(
    p
    for p in (ROOT / "puzzles").rglob("*")
    if p.is_file() and p.suffix in {".txt", ".json", ".puz"}
)
BUD1 = SHARED / "kami2-story" / "Bud1.puz"


def shipped_boards() -> list[Board]:
    return [board for path in SHIPPED for board in formats.load(str(path))]


@st.composite
def kami2_boards(draw, max_rows=4, max_width=3) -> Board:
    """A KAMI 2 board of a few rows of 2w triangles, maybe with holes."""
    width = draw(st.integers(1, max_width))
    rows = draw(st.integers(1, max_rows))
    k = draw(st.integers(1, 3))
    cells = {}
    for r in range(rows):
        for p in range(width):
            for s in (0, 1):
                if draw(st.integers(0, 5)):
                    cells[(r, p, s)] = draw(st.integers(0, k - 1))
    if not cells:
        cells[(0, 0, 0)] = 0
    return Board(geometry="kami2", cells=cells, palette=tuple("123"[:k]), width=width)


def any_board() -> st.SearchStrategy[Board]:
    return st.one_of(grid_boards(max_cells=24), kami2_boards(), graph_boards())
