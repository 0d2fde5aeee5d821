"""``kamicp cross-check --claims FILE``: a table and a summary, or one JSON object of the
result schema a claim; exit 0 when every claim is right, 1 when one is wrong, 3 when some
are undecided and none wrong, 2 for a bad claims file or options that do not go with it."""

from __future__ import annotations

import json
import os

import pytest
from jsonschema import Draft202012Validator

from kamicp.runs.record import SCHEMA, result_schema
from tests.cli.helpers import ROOT, run
from tests.seed import long_board

FIRST = str(ROOT / "puzzles" / "square" / "first.txt")
SMALL = str(ROOT / "puzzles" / "flood" / "small.txt")
FIRST_MOVES = "2,2:G 2,2:Y 2,2:B 2,2:R"
VALIDATOR = Draft202012Validator(result_schema())


def claims(folder, *rows: str) -> str:
    """A CSV claims file in ``folder``; FIRST and SMALL in ``rows`` stand for those puzzles,
    named relative to the folder."""
    text = "\n".join(("puzzle,moves,solution,optimal", *rows)) + "\n"
    for name, path in (("FIRST", FIRST), ("SMALL", SMALL)):
        text = text.replace(name, os.path.relpath(path, folder))
    path = folder / "claims.csv"
    path.write_text(text)
    return str(path)


RIGHT = (f'FIRST,4,"{FIRST_MOVES}",true', "SMALL#2,6,,true", "SMALL#3,9,,")
WRONG = "FIRST,3,,true"


def test_every_claim_right_exits_0_with_a_table_and_a_summary(capsys, tmp_path):
    code, out, err = run(capsys, "cross-check", "--claims", claims(tmp_path, *RIGHT))
    lines = out.splitlines()
    assert code == 0 and not err
    assert lines[0].split() == ["puzzle", "claimed", "kamicp", "verdict", "reason"]
    assert all("  right  " in line for line in lines[1:4])
    assert lines[1].split()[1:5] == ["4", "optimal", "4", "right"]
    assert lines[3].split()[1] == "9" and "kamicp solves it in 8 moves" in lines[3]
    assert lines[-1] == "3 claims: 3 right, 0 wrong, 0 undecided" and len(lines) == 5


def test_a_wrong_claim_exits_1_even_beside_an_undecided_one(capsys, tmp_path):
    long_board(tmp_path)
    path = claims(tmp_path, *RIGHT, WRONG, "big.txt,11,,true")
    code, out, _ = run(capsys, "cross-check", "--claims", path, "--time-limit", "0.5")
    assert code == 1 and out.endswith("5 claims: 3 right, 1 wrong, 1 undecided\n")
    assert "proved that 3 moves are impossible" in out


def test_undecided_claims_and_none_wrong_exit_3(capsys, tmp_path):
    long_board(tmp_path)  # far from proved in half a second: 11 is neither refuted nor proved
    path = claims(tmp_path, "big.txt,11,,true", *RIGHT[:1])
    code, out, _ = run(capsys, "cross-check", "--claims", path, "--time-limit", "0.5")
    assert code == 3 and out.endswith("2 claims: 1 right, 0 wrong, 1 undecided\n")
    assert "undecided  not settled in 0.5 s" in out


def test_json_gives_one_result_object_a_claim_with_its_verdict(capsys, tmp_path):
    path = claims(tmp_path, *RIGHT, WRONG, 'FIRST,2,"2,2:G 2,2:Y",')
    code, out, _ = run(capsys, "cross-check", "--claims", path, "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and len(rows) == 5
    for row in rows:
        VALIDATOR.validate(row)
        assert row["schema"] == SCHEMA and row["reason"]
    assert [r["verdict"] for r in rows] == ["right"] * 3 + ["wrong"] * 2
    assert [r["claim"]["line"] for r in rows] == [2, 3, 4, 5, 6]
    assert rows[1]["index"] == 2 and rows[1]["file"].endswith("small.txt")
    assert rows[0]["claim"] == {
        "puzzle": os.path.relpath(FIRST, tmp_path),
        "moves": 4,
        "solution": FIRST_MOVES,
        "optimal": True,
        "line": 2,
    }
    assert rows[4]["solver"] == "check" and rows[4]["solution"] is None
    # a count alone is the question "solvable in at most 9 moves?", as solve --max-moves 9
    assert rows[2]["max_moves"] == 9 and "max_moves" not in rows[0]


def test_a_claim_record_without_its_verdict_is_refused_by_the_schema(capsys, tmp_path):
    code, out, _ = run(capsys, "cross-check", "--claims", claims(tmp_path, *RIGHT), "--json")
    row = json.loads(out.splitlines()[0])
    del row["verdict"]
    assert code == 0 and not VALIDATOR.is_valid(row)


@pytest.mark.parametrize(
    ("argv", "problem"),
    [
        (["cross-check"], "give puzzle files or folders, or --claims FILE"),
        (["cross-check", "--claims", "CLAIMS", FIRST], "--claims: not with puzzle files"),
        (["cross-check", "--claims", "CLAIMS", "--solvers", "bfs"], "--solvers: not with"),
        (["cross-check", "--claims", "CLAIMS", "--solvers", "bfs,astar,cpsat,sat"], "--solvers"),
        (["cross-check", "--claims", "nowhere.csv"], "nowhere.csv: no such file"),
        (["cross-check", "--claims", "BAD"], "claims.csv:5: moves: not a number of moves"),
        (["cross-check", "--claims", "BAD", "--json"], "claims.csv:5: moves: not a number"),
    ],
)
def test_bad_claims_or_options_exit_2_with_one_line_before_any_claim(
    capsys, tmp_path, monkeypatch, argv, problem
):
    monkeypatch.chdir(tmp_path)
    good = claims(tmp_path, *RIGHT)
    os.rename(good, tmp_path / "good.csv")
    bad = claims(tmp_path, *RIGHT, "FIRST,four,,")
    argv = [{"CLAIMS": str(tmp_path / "good.csv"), "BAD": bad}.get(a, a) for a in argv]
    code, out, err = run(capsys, *argv)
    assert code == 2 and not out and err.count("\n") == 1 and problem in err


def test_paths_alone_still_cross_check_solvers(capsys):
    code, out, _ = run(capsys, "cross-check", FIRST, "--solvers", "bfs,astar")
    assert code == 0 and out.endswith("1 puzzle, 0 with disagreements\n")
