"""Grid text: writing then reading gives the same board, and headers and comments are read
as documented."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from kamicp import formats
from kamicp.game.board import Board
from tests.strategies import grid_boards


def same_grid(a: Board, b: Board) -> None:
    assert (a.geometry, a.cells, a.palette, a.rules, a.pivot) == (
        b.geometry,
        b.cells,
        b.palette,
        b.rules,
        b.pivot,
    )
    assert (a.par, a.optimum, a.name) == (b.par, b.optimum, b.name)


@settings(max_examples=150, deadline=None)
@given(grid_boards(), st.none() | st.integers(0, 30), st.sampled_from(["", "a name"]))
def test_grid_text_round_trip(board, par, name):
    board = replace(board, par=par, optimum=par, name=name)
    text = formats.dump(board, "grid")
    assert formats.detect(text) == "grid"
    [back] = formats.parse(text)
    same_grid(board, back)


@settings(max_examples=150, deadline=None)
@given(grid_boards(), st.data())
def test_grid_text_round_trip_with_any_pivot(board, data):
    pivot = data.draw(st.sampled_from(sorted(board.cells)))
    board = replace(board, pivot=pivot)
    [back] = formats.parse(formats.dump(board, "grid"))
    assert back.pivot == pivot and back.cells == board.cells


def test_grid_text_details():
    text = "# comment\nname: demo  # trailing comment\npalette: Z A\n\nA A .\nA  A Z\n"
    [board] = formats.parse(text, "some/where/demo.kami")
    assert board.palette == ("Z", "A") and board.name == "demo" and board.source.endswith("kami")
    assert board.cells == {(0, 0): 1, (0, 1): 1, (1, 0): 1, (1, 1): 1, (1, 2): 0}
    assert board.pivot == (0, 0) and board.rules == "free" and board.geometry == "square"
    [unnamed] = formats.parse("ba\n", "dir/level7.txt")
    assert unnamed.name == "level7" and unnamed.palette == ("a", "b")
