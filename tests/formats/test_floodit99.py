"""The floodit-99 format: the 99 benchmark boards parse with their optimum, boards round-trip,
and comments and line breaks are free."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings

from kamicp import formats
from tests.formats.helpers import FLOODIT, full_rectangles, needs_floodit


@needs_floodit
def test_floodit99_boards_parse():
    paths = sorted(FLOODIT.glob("*.txt"))
    assert len(paths) == 99
    for path in paths:
        rows, cols, k, _ = (int(x) for x in path.stem.split("_"))
        text = path.read_text()
        assert formats.detect(text) == "floodit99"
        [board] = formats.load(str(path))
        assert len(board.cells) == rows * cols and max(board.cells) == (rows - 1, cols - 1)
        assert board.palette == tuple(str(c) for c in range(1, k + 1))
        assert board.rules == "pivot" and board.pivot == (0, 0)
        assert board.optimum == board.par == int(text.split()[-1]) > 0
        assert formats.parse(formats.dump(board, "floodit99"))[0].cells == board.cells


@settings(max_examples=100, deadline=None)
@given(full_rectangles(digits=False))
def test_floodit99_round_trip(board):
    board = replace(board, optimum=board.par or None, par=board.par or None)
    text = formats.dump(board, "floodit99")
    [back] = formats.parse(text, fmt="floodit99")
    assert (back.cells, back.palette, back.optimum) == (board.cells, board.palette, board.optimum)


def test_floodit99_with_comments_and_lines():
    text = "# a comment\n2 3 4\n1 2 3\n4 4 1\n0\n"
    [board] = formats.parse(text, "b.txt")
    assert formats.detect(text) == "floodit99"
    assert board.optimum is None and board.par is None
    assert board.cells[(1, 0)] == 3 and board.palette == ("1", "2", "3", "4")
