"""Boards for the view tests: every shipped puzzle, and random boards of every geometry."""

from __future__ import annotations

from pathlib import Path

from hypothesis import strategies as st

from kamicp import formats
from kamicp.game.board import Board
from tests.seed import SHARED
from tests.strategies import graph_boards, grid_boards, kami2_boards

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted(
    p
    for p in (ROOT / "puzzles").rglob("*")
    if p.is_file() and p.suffix in {".txt", ".json", ".puz"}
)
BUD1 = SHARED / "kami2-story" / "Bud1.puz"


def shipped_boards() -> list[Board]:
    return [board for path in SHIPPED for board in formats.load(str(path))]


def any_board() -> st.SearchStrategy[Board]:
    return st.one_of(grid_boards(max_cells=24), kami2_boards(), graph_boards())
