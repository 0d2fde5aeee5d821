"""Every command that prints or writes a result gives objects of the one shipped schema
(kamicp-result/1): solve (one puzzle and several, --max-moves, --all-optimal, a stopped
search, an unsolvable board), hint, bench --json and batch."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from kamicp.runs.record import SCHEMA, result_schema
from tests.cli.helpers import ROOT, run

FIRST = str(ROOT / "puzzles" / "square" / "first.txt")
THREE = str(ROOT / "puzzles" / "digits" / "three.txt")
VALIDATOR = Draft202012Validator(result_schema())


def valid(obj: dict) -> dict:
    VALIDATOR.validate(obj)
    return obj


def lines(out: str) -> list[dict]:
    return [valid(json.loads(line)) for line in out.splitlines() if line.strip()]


def test_the_schema_is_a_json_schema_named_as_the_records_say():
    Draft202012Validator.check_schema(result_schema())
    assert result_schema()["properties"]["schema"]["const"] == SCHEMA


@pytest.mark.parametrize(
    ("argv", "count"),
    [
        (["solve", FIRST, "--solver", "bfs", "--json"], 1),
        (["solve", THREE, "--solver", "bfs", "--json"], 3),
        (["solve", THREE, FIRST, "--solver", "bfs", "--json", "--jobs", "2"], 4),
        (["solve", FIRST, "--solver", "bfs", "--json", "--max-moves", "3"], 1),
        (["solve", FIRST, "--solver", "bfs", "--json", "--node-limit", "1"], 1),
        (["solve", FIRST, "--solver", "bfs", "--json", "--all-optimal", "--cap", "2"], 1),
        (["hint", FIRST, "--after", "0,2:R", "--solver", "bfs", "--json"], 1),
        (["cross-check", THREE, FIRST, "--solvers", "bfs,sat", "--json"], 8),
    ],
)
def test_printed_results_follow_the_schema(capsys, argv, count):
    code, out, _ = run(capsys, *argv)
    rows = lines(out)
    assert code in (0, 1, 3) and len(rows) == count
    for row in rows:
        assert row["schema"] == SCHEMA and row["proved"] == (
            row["status"] in ("optimal", "infeasible")
        )
        if row["solution"] is not None:  # the tokens check reads, in the same form everywhere
            assert run(capsys, "check", row["file"], " ".join(row["solution"]))[0] in (0, 1)


def test_all_optimal_lists_moves_as_solution_does_and_says_when_the_cap_is_reached(capsys):
    argv = ["solve", FIRST, "--solver", "bfs", "--json", "--all-optimal"]
    capped = lines(run(capsys, *argv, "--cap", "2")[1])[0]
    assert capped["cap_reached"] is True and len(capped["all_optimal"]) == 2
    every = lines(run(capsys, *argv)[1])[0]
    assert every["cap_reached"] is False and len(every["all_optimal"]) > 2
    assert all(moves in every["all_optimal"] for moves in capped["all_optimal"])
    for moves in every["all_optimal"]:
        assert run(capsys, "check", FIRST, " ".join(moves))[0] == 0


def test_hint_reports_the_moves_left_as_moves(capsys):
    argv = ["hint", FIRST, "--after", "0,2:R", "--solver", "bfs", "--json"]
    row = lines(run(capsys, *argv)[1])[0]
    assert row["moves"] == 3 and row["next_move"] == row["solution"][0]
    assert "moves_left" not in row


def test_an_unsolvable_board_is_a_proved_infeasible_result(capsys, tmp_path):
    board = tmp_path / "never.json"
    nodes = {"a": "Red", "b": "Blue", "c": "Red", "d": "Blue"}
    spec = {"name": "never", "rules": "pivot", "pivot": "a", "nodes": nodes}
    board.write_text(json.dumps({**spec, "edges": [["a", "b"], ["c", "d"]]}))
    row = lines(run(capsys, "solve", str(board), "--solver", "bfs", "--json")[1])[0]
    assert row["status"] == "infeasible" and row["proved"] and row["solution"] is None


def test_bench_json_is_a_list_of_results(capsys, tmp_path):
    out = tmp_path / "runs.json"
    argv = ["bench", THREE, "--solver", "bfs,idastar", "--time-limit", "30", "--json", str(out)]
    assert run(capsys, *argv)[0] == 0
    runs = [valid(r) for r in json.loads(out.read_text())]
    assert [(r["index"], r["solver"]) for r in runs] == [
        (i, s) for i in (1, 2, 3) for s in ("bfs", "idastar")
    ]
    assert all("lower" not in r and "upper" not in r for r in runs)


def test_batch_lines_are_results(capsys, tmp_path):
    out = tmp_path / "rows.jsonl"
    argv = ["batch", THREE, "--out", str(out), "--solver", "bfs", "--time-limit", "30"]
    assert run(capsys, *argv)[0] == 0
    rows = lines(out.read_text())
    assert [r["index"] for r in rows] == [1, 2, 3] and all(len(r["hash"]) == 64 for r in rows)


def test_a_run_that_gave_no_answer_follows_the_schema_too():
    from kamicp.formats import load
    from kamicp.runs.record import failed_record

    board = load(FIRST)[0]
    failed = failed_record(board, "sat", {"status": "killed", "error": "exit code -9"})
    valid({**failed, "file": FIRST, "index": 1})
