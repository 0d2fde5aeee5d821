"""Shared by the format tests: where the shipped puzzles and the benchmark data are, and
hole-free rectangles under pivot rules (what flood and floodit-99 files hold)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import strategies as st

from kamicp import formats
from kamicp.game.board import Board

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"
DATA = Path(__file__).resolve().parents[1] / "data"
SHARED = ROOT.parent / "shared" / "data"  # read-only benchmark data next to the repository
KAMI2 = SHARED / "kami2-story"
FLOODIT = SHARED / "floodit-99"

needs_kami2 = pytest.mark.skipif(not KAMI2.is_dir(), reason=f"{KAMI2} not present")
needs_floodit = pytest.mark.skipif(not FLOODIT.is_dir(), reason=f"{FLOODIT} not present")


def shipped() -> list[str]:
    return formats.iter_paths([str(PUZZLES)])


@st.composite
def full_rectangles(draw, digits: bool) -> Board:
    """Hole-free rectangles under pivot rules (what flood and floodit-99 files hold)."""
    rows, cols = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    k = draw(st.integers(1, 10 if digits else 12))
    cells = {(r, c): draw(st.integers(0, k - 1)) for r in range(rows) for c in range(cols)}
    palette = tuple(str(d) for d in range(k)) if digits else tuple(str(d) for d in range(1, k + 1))
    if digits:  # the flood reader's palette is the digits present
        used = sorted(set(cells.values()))
        palette = tuple(palette[c] for c in used)
        cells = {cell: used.index(c) for cell, c in cells.items()}
    return Board("square", cells, palette, rules="pivot", par=draw(st.integers(0, 40)))
