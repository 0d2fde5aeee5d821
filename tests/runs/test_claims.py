"""Another solver's claims judged (kamicp.runs.claims): a solution replayed, an optimum
proved, a count decided; right, wrong or undecided; CSV and JSON lines read alike, and a bad
row named by file and line before anything is solved."""

from __future__ import annotations

import json
import os

import pytest

from kamicp import api
from kamicp.errors import InputError
from kamicp.runs import claims as claims_module
from kamicp.runs.claims import check_claims, read_claims
from tests.seed import long_board

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PUZZLES = os.path.join(ROOT, "puzzles")
FIRST_MOVES = "2,2:G 2,2:Y 2,2:B 2,2:R"  # first.txt's optimum, 4
PIVOT_MOVES = "0,0:B 0,0:G 0,0:B 0,0:Y 0,0:R 0,0:B 0,0:G 0,0:R 0,0:Y"  # pivot.txt's, 9

# (puzzle under puzzles/, moves, solution, optimal, verdict, words in the reason)
CLAIMS = [
    ("square/first.txt", 4, FIRST_MOVES, True, "right", "proved optimal"),
    ("square/first.txt", 3, None, True, "wrong", "proved that 3 moves are impossible"),
    ("square/first.txt", 2, "2,2:G 2,2:Y", False, "wrong", "leaves 3 colours after 2 moves"),
    ("square/first.txt", 5, FIRST_MOVES + " 0,0:G", True, "wrong", "not optimal"),
    ("square/first.txt", 3, FIRST_MOVES, False, "wrong", "in 4 moves, not 3"),
    ("square/first.txt", 4, "2,2:G 2,2:Q", True, "wrong", "cannot be read"),
    ("square/first.txt", 6, None, False, "right", "kamicp solves it in"),
    ("square/first.txt", 3, None, False, "wrong", "proved that 3 moves are impossible"),
    ("square/pivot.txt", 9, PIVOT_MOVES, True, "right", "proved optimal"),
    ("square/pivot.txt", 10, PIVOT_MOVES + " 0,0:R", False, "right", "solves the board in 10"),
    ("square/pivot.txt", 1, "1,2:R", False, "wrong", "breaks the rules: move 1"),
    ("square/pivot.txt", 8, None, True, "wrong", "proved that 8 moves are impossible"),
    ("flood/small.txt#3", 8, None, True, "right", "proved optimal"),
    ("flood/small.txt#2", 7, None, True, "wrong", "not optimal: kamicp solves it in 6 moves"),
    ("digits/three.txt#2", 6, None, False, "right", "kamicp solves it in 6 moves"),
]


def puzzle_path(folder, name: str) -> str:
    """``name`` under puzzles/, relative to ``folder`` (where the claims file is)."""
    return os.path.relpath(os.path.join(PUZZLES, name), folder)


def write_csv(folder, rows) -> str:
    lines = ["puzzle,moves,solution,optimal"]
    for puzzle, moves, solution, optimal, *_ in rows:
        flag = {True: "yes", False: ""}[optimal]
        lines.append(f'{puzzle_path(folder, puzzle)},{moves},"{solution or ""}",{flag}')
    path = folder / "claims.csv"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def write_json_lines(folder, rows) -> str:
    lines = []
    for puzzle, moves, solution, optimal, *_ in rows:
        row = {"puzzle": puzzle_path(folder, puzzle), "moves": moves, "optimal": optimal}
        if solution is not None:  # as kamicp's own records list moves: one token each
            row["solution"] = solution.split()
        lines.append(json.dumps(row))
    path = folder / "claims.jsonl"
    path.write_text("\n\n".join(lines) + "\n")
    return str(path)


@pytest.mark.parametrize("write", [write_csv, write_json_lines])
def test_each_claim_is_judged_right_or_wrong_with_its_reason(tmp_path, write):
    checks = list(check_claims(read_claims(write(tmp_path, CLAIMS)), time_limit=30))
    assert len(checks) == len(CLAIMS)
    for check, (puzzle, moves, *_, verdict, words) in zip(checks, CLAIMS, strict=True):
        assert check.claim.moves == moves and check.claim.puzzle.endswith(puzzle)
        assert (check.verdict, puzzle) == (verdict, puzzle) and words in check.reason, (
            puzzle,
            moves,
            check.reason,
        )
        assert "\n" not in check.reason


def test_a_shorter_solution_in_the_reason_replays(tmp_path):
    row = ("square/first.txt", 5, FIRST_MOVES + " 0,0:G", True)
    [check] = check_claims(read_claims(write_csv(tmp_path, [row])), time_limit=30)
    moves = check.reason.split(": ", 1)[1].split(": ", 1)[1]
    verdict = api.check(check.claim.board, moves)
    assert check.verdict == "wrong" and verdict.solved and verdict.moves == 4


def test_lines_and_indexes_of_a_multi_puzzle_file_are_kept(tmp_path):
    rows = [("flood/small.txt#1", 5, None, True), ("flood/small.txt#3", 8, None, False)]
    claims = read_claims(write_json_lines(tmp_path, rows))
    assert [(c.index, c.line) for c in claims] == [(1, 1), (3, 3)]
    assert claims[0].board.name != claims[1].board.name


def test_a_puzzle_is_found_from_the_claims_files_folder(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "two.txt").write_text("rules: free\nGGR\nGRR\n")
    (tmp_path / "claims.csv").write_text("Puzzle , Moves,\nsub/two.txt,1,\nsub/two.txt,0,\n")
    checks = list(check_claims(read_claims(str(tmp_path / "claims.csv")), time_limit=30))
    assert [c.verdict for c in checks] == ["right", "wrong"]


def test_a_claim_the_time_limit_cannot_settle_is_undecided(tmp_path):
    # A random 14x14 free board: its bounds are near 7 and 13 after half a second (11 and 13
    # after a minute); the claimed optimum 11, given without a solution, is neither refuted
    # nor proved in half a second, nor beaten by a solution of 10 moves.
    long_board(tmp_path)
    (tmp_path / "claims.csv").write_text("puzzle,moves,optimal\nbig.txt,11,true\n")
    [check] = check_claims(read_claims(str(tmp_path / "claims.csv")), time_limit=0.5)
    assert check.verdict == "undecided" and check.reason.startswith("not settled in 0.5 s")
    assert check.result.lower_bound < 11 and check.claim.optimal


def test_every_claim_is_read_before_the_first_is_judged(tmp_path, monkeypatch):
    def never(*args, **kwargs):
        raise AssertionError("a solve before every row was read")

    monkeypatch.setattr(claims_module, "solve", never)
    path = tmp_path / "claims.csv"
    good = puzzle_path(tmp_path, "square/first.txt")
    path.write_text(f"puzzle,moves\n{good},4\n{good},four\n")
    with pytest.raises(InputError) as err:
        check_claims(read_claims(str(path)))
    assert (err.value.path, err.value.line) == (str(path), 3)


@pytest.mark.parametrize(
    ("text", "line", "problem"),
    [
        ("puzzle,solution\nFIRST,2\n", 1, "no column moves in the header"),
        ("puzzle,moves,optimum\nFIRST,2,1\n", 1, "unknown column 'optimum'"),
        ("puzzle,moves\nFIRST,2\nFIRST,-1\n", 3, "not a number of moves: '-1'"),
        ("puzzle,moves\nFIRST,2.5\n", 2, "not a number of moves"),
        ("puzzle,moves\nFIRST,\n", 2, "no moves given"),
        ("puzzle,moves\n\nFIRST,2,3\n", 3, "3 fields, the header names 2"),
        ("puzzle,moves,optimal\nFIRST,2,maybe\n", 2, "'maybe' is not true or false"),
        ("puzzle,moves\nmissing.txt,2\n", 2, "no such file"),
        ("puzzle,moves\nSMALL,2\n", 2, "the file holds 3 puzzles: name one"),
        ("puzzle,moves\nSMALL#4,2\n", 2, "no puzzle 4, the file holds 3"),
        ("puzzle,moves\nSMALL#0,2\n", 2, "no puzzle 0"),
        ("puzzle,moves\n", 1, "no claim in the file"),
        ('{"puzzle": "FIRST", "moves": 2}\n{"puzzle": "FIRST"}\n', 2, "no moves given"),
        ('{"puzzle": "FIRST", "moves": "two"}\n', 1, "not a number of moves"),
        ('{"puzzle": "FIRST", "moves": true}\n', 1, "not a number of moves"),
        ('{"puzzle": "FIRST", "moves": 2, "time": 3}\n', 1, "unknown field 'time'"),
        ('{"puzzle": "FIRST", "moves": 2}\n{"puzzle": \n', 2, "not JSON"),
        ('{"puzzle": "FIRST", "moves": 2}\n[1]\n', 2, "not a JSON object"),
        ('{"puzzle": "FIRST", "moves": 2, "solution": 7}\n', 1, "solution: moves in"),
    ],
)
def test_a_bad_row_names_the_file_and_its_line(tmp_path, text, line, problem):
    first = puzzle_path(tmp_path, "square/first.txt")
    small = puzzle_path(tmp_path, "flood/small.txt")
    path = tmp_path / "claims.txt"
    path.write_text(text.replace("FIRST", first).replace("SMALL", small))
    with pytest.raises(InputError) as err:
        read_claims(str(path))
    assert (err.value.path, err.value.line) == (str(path), line)
    assert problem in err.value.problem and str(err.value).startswith(f"{path}:{line}: ")
