"""The digit format: one square board per line; reading, writing back, telling it from grid
text of digit rows, and every bad line reported with its file and line."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kamicp import formats
from kamicp.errors import InputError
from kamicp.formats.digits import read_digits, write_digits
from kamicp.game.board import Board
from tests.formats.helpers import PUZZLES


def test_shipped_example_reads_three_boards_of_different_sizes():
    path = str(PUZZLES / "digits" / "three.txt")
    assert formats.detect(formats.read_text(path)) == "digits"
    boards = formats.load(path)
    assert [len(b.cells) for b in boards] == [16, 25, 36]
    assert [b.optimum for b in boards] == [5, 6, 7]
    assert [b.name for b in boards] == ["three-1", "three-2", "three-3"]
    assert all(b.rules == "pivot" and b.pivot == (0, 0) for b in boards)
    assert boards[1].palette == ("1", "2", "3", "4")  # the digits present, not 0..k-1


def test_a_line_is_a_whole_board_row_major():
    [board] = read_digits("# c\n\n  012345678  \n", "one.txt")
    assert board.name == "one" and board.optimum is None and board.par is None
    assert board.cells[(0, 2)] == 2 and board.cells[(1, 0)] == 3 and board.cells[(2, 2)] == 8
    assert board.geometry == "square" and len(board.palette) == 9


def test_fourteen_by_fourteen_is_one_line_of_196_digits():
    line = "".join(str((r * 7 + c * 3) % 6) for r in range(14) for c in range(14))
    assert formats.detect(line + "\n") == "digits"
    [board] = formats.parse(line + "\n")
    assert max(board.cells) == (13, 13)


def test_moves_name_the_digit_on_the_line():
    from kamicp.game import notation
    from kamicp.game.regions import region_graph

    [board] = formats.parse("3557 \n", fmt="digits")
    g = region_graph(board)
    moves = notation.parse_moves(board, g, "0,0:5 0,0:7")
    assert notation.format_moves(board, g, moves) == "0,0:5 0,0:7"


@st.composite
def square_boards(draw) -> Board:
    side = draw(st.integers(2, 6))
    digits = draw(st.lists(st.sampled_from("0123456789"), min_size=1, max_size=10, unique=True))
    cells = {
        (r, c): draw(st.integers(0, len(digits) - 1)) for r in range(side) for c in range(side)
    }
    used = sorted({digits[i] for i in cells.values()})
    cells = {cell: used.index(digits[i]) for cell, i in cells.items()}
    optimum = draw(st.none() | st.integers(0, 40))
    return Board("square", cells, tuple(used), rules="pivot", pivot=(0, 0), optimum=optimum)


@settings(max_examples=100, deadline=None)
@given(st.lists(square_boards(), min_size=1, max_size=4))
def test_round_trip_of_several_boards(boards):
    text = "".join(write_digits(b) for b in boards)
    assert text.count("\n") == len(boards)
    back = formats.parse(text, "many.txt", "digits")
    assert [(b.cells, b.palette, b.optimum) for b in back] == [
        (b.cells, b.palette, b.optimum) for b in boards
    ]
    assert [formats.dump(b, "digits") for b in back] == text.splitlines(keepends=True)


@pytest.mark.parametrize(
    ("text", "fmt"),
    [
        ("0120\n1201\n2012\n", "grid"),  # three rows of a 3x4 grid, not three 2x2 boards
        ("012012012\n120120120\n", "grid"),  # rows of 9: a 2x9 grid
        ("\n".join(["0123012301230123"] * 16) + "\n", "grid"),  # a 16x16 grid of digits
        ("\n".join(["0123012301230123"] * 3) + "\n", "digits"),  # three 4x4 boards
        ("0120\n012012012\n", "digits"),  # lengths differ: grid rows would be ragged
        ("0120 2\n1201\n", "digits"),  # an optimum makes it a board line
        ("# many\n0120 2\n\n", "digits"),
        ("name: x\n0120\n", "grid"),  # a header is grid text
        ("0 1 2 0\n", "grid"),  # separated: a grid row
        ("01201\n", "grid"),  # 5 digits: no square board
        ("0120 2 3\n", "grid"),
        ("3 by 2 -> 4\n121\n332\n", "flood"),
        ("2 2 3\n1 2\n3 1\n5\n", "floodit99"),
    ],
)
def test_detection_tells_digit_lines_from_grid_rows(text, fmt):
    assert formats.detect(text) == fmt


def test_forced_format_reads_small_boards_that_detection_leaves_to_grid():
    text = "0120\n1201\n2012\n"
    assert len(formats.parse(text)) == 1
    assert [len(b.cells) for b in formats.parse(text, fmt="digits")] == [4, 4, 4]


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("0120\n01201\n", 2, "5 digits is no square board"),
        ("# c\n0\n", 2, "1 digits is no square board"),
        ("0120\n01a0\n", 2, "expected a board of digits"),
        ("0120 x\n", 1, "expected a board of digits"),
        ("0120 1 2\n", 1, "expected a board of digits"),
        ("0120 " + "9" * 30 + "\n", 1, "too large"),
        ("# only a comment\n", 1, "no puzzle"),
    ],
)
def test_bad_lines_name_file_and_line(text, line, fragment):
    with pytest.raises(InputError) as info:
        formats.parse(text, "bad/boards.txt", fmt="digits")
    err = info.value
    assert (err.path, err.line) == ("bad/boards.txt", line)
    assert fragment in err.problem and "\n" not in str(err)


def test_writer_refuses_boards_that_do_not_fit():
    square = formats.parse("0120 2\n")[0]
    with pytest.raises(InputError, match="square board, not 2x3"):
        write_digits(formats.parse("3 by 2 -> 4\n121\n332\n")[0])
    with pytest.raises(InputError, match="digit colours"):
        write_digits(replace(square, palette=("a", "b", "c")))
    with pytest.raises(InputError, match="pivot rules"):
        write_digits(replace(square, rules="free"))
    with pytest.raises(InputError, match="holes"):
        write_digits(formats.parse("rules: pivot\n01\n.1\n")[0])
