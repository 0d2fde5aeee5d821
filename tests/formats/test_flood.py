"""Tatham flood text: the seed example reads and writes back, and several boards in one file
round-trip with numbered names."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kamicp import formats
from tests.formats.helpers import DATA, full_rectangles


def test_seed_flood_example():
    path = str(DATA / "flood-article-12x12.txt")
    assert formats.detect(formats.read_text(path)) == "flood"
    [board] = formats.load(path)
    assert board.geometry == "square" and board.rules == "pivot" and board.pivot == (0, 0)
    assert len(board.cells) == 144 and {r for r, _ in board.cells} == set(range(12))
    assert board.palette == ("0", "1", "2", "3", "4", "5")
    assert board.par == 23 and board.optimum is None  # the game's move limit, not an optimum
    assert board.cells[(0, 0)] == 2 and board.cells[(11, 11)] == 0
    assert formats.dump(board, "flood").split() == formats.read_text(path).split()


@settings(max_examples=100, deadline=None)
@given(st.lists(full_rectangles(digits=True), min_size=1, max_size=3))
def test_flood_text_round_trip_of_several_boards(boards):
    text = "\n".join(formats.dump(b, "flood") for b in boards)
    assert formats.detect(text) == "flood"
    back = formats.parse(text, "many.txt")
    assert [(b.cells, b.palette, b.par) for b in back] == [
        (b.cells, b.palette, b.par) for b in boards
    ]
    if len(boards) > 1:
        assert [b.name for b in back] == [f"many-{i}" for i in range(1, len(boards) + 1)]
