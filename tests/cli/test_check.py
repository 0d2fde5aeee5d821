"""``kamicp check``: the verdict on a sequence of moves, and each unreadable move named."""

from __future__ import annotations

import pytest

from tests.cli.helpers import ARTICLE, ROOT, run


def test_check_reports_illegal_moves_and_unsolved_boards(capsys):
    code, out, _ = run(capsys, "check", ARTICLE, "10:Purple 99:Red")
    assert code == 1 and "illegal" in out and "move 2" in out
    code, out, _ = run(capsys, "check", ARTICLE, "10:Purple")
    assert code == 1 and "not solved" in out
    code, out, _ = run(capsys, "check", ARTICLE, "10:Purple 8:White 5:Yellow 2:Purple 1:Red")
    assert code == 0


@pytest.mark.parametrize(
    ("puzzle", "move", "problem"),
    [
        ("square/first.txt", "#²:G", "no region #²"),  # str.isdigit takes '²', int() does not
        ("square/first.txt", "²,0:G", "is not a cell"),
        ("square/first.txt", "0," + "9" * 5000 + ":G", "is off the board"),  # int()'s limit
        ("square/first.txt", "#" + "9" * 5000 + ":G", "no region #999"),
    ],
)
def test_moves_with_other_digits_or_huge_numbers_are_named(capsys, puzzle, move, problem):
    code, out, _ = run(capsys, "check", str(ROOT / "puzzles" / puzzle), move)
    assert code == 1 and problem in out and "Traceback" not in out


@pytest.mark.parametrize(
    "puzzle, moves, problem",
    [
        ("graph/wheel.json", "spoke:Red", "no node 'spoke' on the board"),
        ("puz/small.puz", "x1:2", "'x1' is not a triangle index"),
        ("puz/small.puz", "9999:2", "triangle 9999 is off the board"),
        ("square/holes.txt", "1-1:G", "'1-1' is not a cell (expected row,column)"),
        ("square/holes.txt", "2,2:G", "cell 2,2 is a hole"),
        ("square/holes.txt", "9,0:G", "cell 9,0 is off the board"),
        ("square/holes.txt", "0,0:G 0,0", "'0,0' is not a move (expected WHERE:COLOUR)"),
        ("square/holes.txt", "#11:G", "no region #11 (regions are #0..#10)"),
        ("square/holes.txt", "#1:Q", "colour 'Q' is not in the palette (B G R Y)"),
    ],
)
def test_unreadable_moves_are_named_by_check(capsys, puzzle, moves, problem):
    # check's answer (exit 1), one line naming the move, not an input error
    code, out, err = run(capsys, "check", str(ROOT / "puzzles" / puzzle), moves)
    number = len(moves.split())
    bad = moves.split()[-1]
    assert code == 1 and not err and out == f"illegal: move {number} ({bad}): {problem}\n"


def test_one_move_is_said_in_the_singular(capsys, tmp_path):
    board = tmp_path / "one.txt"
    board.write_text("GGR\n")
    code, out, _ = run(capsys, "solve", str(board), "--solver", "sat")
    assert code == 0 and "status:   optimal, 1 move (proved:" in out
    code, out, _ = run(capsys, "check", str(board), "0,2:G")
    assert code == 0 and out.splitlines()[0] == "solved in 1 move"
    code, out, _ = run(capsys, "check", str(board), "0,2:G 0,0:R")
    assert code == 0 and out.splitlines()[0] == "solved in 2 moves"


def test_check_names_a_refused_move_and_the_solving_move_in_words(capsys, tmp_path):
    board = tmp_path / "one.txt"
    board.write_text("GGR\nGRR\n")
    # the second move recolours the whole board again: solved by the first; each move is
    # echoed as given and said on the cell it names
    code, out, _ = run(capsys, "check", str(board), "1,1:G 0,0:R")
    assert code == 0
    assert out.splitlines() == [
        "solved in 2 moves",
        "solved by move 1: green (G) at row 2, column 2 [1,1:G]",
    ]
    code, out, _ = run(capsys, "check", str(board), "1,1:G 0,0:G")
    assert code == 1
    assert (
        out
        == "illegal: move 2, green (G) at row 1, column 1 [0,0:G]: region 0 already has colour G\n"
    )
    # a region number names no cell: said where the words name the region
    code, out, _ = run(capsys, "check", str(board), "#1:G")
    assert (
        code == 0 and out.splitlines()[1] == "solved by move 1: green (G) at row 2, column 3 [#1:G]"
    )
    pivot = str(ROOT / "puzzles" / "square" / "pivot.txt")
    code, out, _ = run(capsys, "check", pivot, "5,5:G")
    assert code == 1 and out.startswith("illegal: move 1, green (G) at row ")
    assert out.endswith("pivot's region\n")


def test_a_game_id_is_checked_with_moves_said_by_their_colour(capsys):
    game_id = (ROOT / "puzzles" / "flood" / "ids.txt").read_text().splitlines()[-2]
    code, out, _ = run(capsys, "solve", game_id)
    assert code == 0 and "status:   optimal, 7 moves" in out and "par:      7" in out
    tokens = out.split("solution: ")[1].split("\n")[0].split()
    assert all(t.startswith("0,0:") for t in tokens)  # the pivot cell, as the words say
    assert "at row" not in out and out.split("\n")[2].strip() == "1. red (2)"
    code, out, _ = run(capsys, "check", game_id, " ".join(tokens))
    assert code == 0 and out.startswith("solved in 7 moves (par 7: at par)")
    assert "at row" not in out and out.rstrip().endswith(f"[{tokens[-1]}]")


def test_no_moves_on_a_solved_board_name_no_move(capsys, tmp_path):
    board = tmp_path / "solved.txt"
    board.write_text("GG\n")
    code, out, _ = run(capsys, "check", str(board), " ")
    assert code == 0 and out == "solved in 0 moves\n"


def test_counts_read_in_the_singular_for_one(capsys):
    first = str(ROOT / "puzzles" / "square" / "first.txt")
    code, out, _ = run(capsys, "check", first, "0,2:R")
    assert code == 1 and out.startswith("not solved: after 1 move, ") and "moves" not in out
    code, out, _ = run(capsys, "cross-check", first, "--solvers", "bfs")
    assert code == 0 and out.endswith("\n1 puzzle, 0 with disagreements\n")
