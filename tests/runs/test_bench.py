"""The bench command: options reach the solver, the table and files are written."""

from __future__ import annotations

import csv
import io
import json

import pytest

from kamicp import formats
from kamicp.errors import InputError
from kamicp.runs import batch, bench
from kamicp.runs.bench import BenchOptions
from kamicp.solving.options import SolveOptions
from tests.formats.helpers import ROOT

ROOT_PUZZLES = ROOT / "puzzles"


def test_every_bench_option_reaches_solve(monkeypatch):
    seen = {}
    real = batch.solve

    def spy(g, solver, options):
        seen["options"] = options
        return real(g, solver, SolveOptions(time_limit=options.time_limit))

    monkeypatch.setattr(batch, "solve", spy)  # bench's rows are solved by batch.solve_row
    board = formats.load(str(ROOT_PUZZLES / "square" / "first.txt"))[0]
    options = SolveOptions(time_limit=30.0, probe=0.5, strategy="down", workers=2)
    row = bench.solve_row(board, "cpsat", options)
    assert row["status"] == "optimal" and row["moves"] == 4
    assert seen["options"] == options


def test_tetrapod_depth_reaches_the_idastar_and_portfolio_rows_only_and_beam_width_all(
    monkeypatch,
):
    seen = {}

    def spy(board, solver, options):
        seen[solver] = options
        row = {"status": "unknown", "moves": None, "lower_bound": 0, "upper_bound": None}
        return {**row, "seconds": 0.0}

    monkeypatch.setattr(bench, "run_one", spy)
    first = str(ROOT_PUZZLES / "square" / "first.txt")
    deep = BenchOptions(SolveOptions(time_limit=60.0, tetrapod_depth=2))
    bench.bench([first], ["sat", "idastar", "portfolio"], deep, io.StringIO())
    assert seen["idastar"].tetrapod_depth == seen["portfolio"].tetrapod_depth == 2
    assert seen["sat"].tetrapod_depth is None
    assert all(options.beam_width is None for options in seen.values())
    wide = BenchOptions(SolveOptions(time_limit=60.0, beam_width=64))
    bench.bench([first], ["sat", "greedy", "portfolio"], wide, io.StringIO())
    assert seen["sat"].beam_width == seen["greedy"].beam_width == 64
    assert seen["portfolio"].beam_width == 64


def test_bench_table_csv_and_json(tmp_path):
    out = io.StringIO()
    csv_path, json_path = tmp_path / "rows.csv", tmp_path / "rows.json"
    code = bench.bench(
        [str(ROOT_PUZZLES / "square" / "first.txt")],
        ["sat", "idastar"],
        BenchOptions(SolveOptions(time_limit=30), csv_path=str(csv_path), json_path=str(json_path)),
        out,
    )
    assert code == 0
    assert "first" in out.getvalue()
    assert "sat: 1/1 proved optimal" in out.getvalue()
    rows = list(csv.DictReader(csv_path.open()))
    assert [(r["solver"], r["status"], r["moves"]) for r in rows] == [
        ("sat", "optimal", "4"),
        ("idastar", "optimal", "4"),
    ]
    runs = json.loads(json_path.read_text())
    assert [(r["solver"], r["moves"], r["lower_bound"]) for r in runs] == [
        ("sat", 4, 4),
        ("idastar", 4, 4),
    ]


def test_a_bad_file_ends_the_bench_before_any_puzzle_is_solved(tmp_path, monkeypatch):
    # every file is read first: a bad one last in the folder stopped the run only when its
    # turn came, after the rows before it, with no summary and no --json written
    first = (ROOT_PUZZLES / "square" / "first.txt").read_text()
    (tmp_path / "a.txt").write_text(first)
    (tmp_path / "b.txt").write_text("name: bad\nrules: free\nRRG\nRX\n")
    ran = []
    monkeypatch.setattr(bench, "run_one", lambda *args: ran.append(args))
    out, json_path = io.StringIO(), tmp_path / "rows.json"
    with pytest.raises(InputError, match=r"b\.txt:4: ragged row"):
        bench.bench([str(tmp_path)], ["greedy"], BenchOptions(json_path=str(json_path)), out)
    assert ran == [] and out.getvalue() == "" and not json_path.exists()


def test_a_result_short_of_the_optimum_shows_the_bounds_it_proved(tmp_path):
    # greedy proves only the start's bound: 4 <= optimum <= 5 on this board (optimum 5)
    out, csv_path = io.StringIO(), tmp_path / "rows.csv"
    holes = str(ROOT_PUZZLES / "square" / "holes.txt")
    first = str(ROOT_PUZZLES / "square" / "first.txt")
    bench.bench(
        [holes, first],
        ["greedy"],
        BenchOptions(SolveOptions(time_limit=10), csv_path=str(csv_path)),
        out,
    )
    lines = out.getvalue().splitlines()
    assert "feas 5 (4-5) " in next(line for line in lines if line.startswith("square holes"))
    assert "(" not in next(line for line in lines if line.startswith("first"))  # an optimum
    rows = list(csv.DictReader(csv_path.open()))
    assert [(r["proved_lower"], r["proved_upper"]) for r in rows] == [("4", "5"), ("4", "4")]


def test_bench_cells_state_bounds_only_short_of_an_optimum():
    row = {"status": "unknown", "moves": None, "lower_bound": 14, "upper_bound": None}
    row["seconds"] = 60.04
    assert bench._cell(row) == "unk - (>=14) 60.0s"
    optimal = {**row, "status": "optimal", "moves": 14, "upper_bound": 14}
    assert bench._cell(optimal) == "opt 14 60.0s"
    assert bench._cell({"status": "killed", "error": "exit code -9", "seconds": 75.0}) == (
        "killed - 75.0s"
    )


def test_an_unsolvable_board_has_an_infinite_lower_bound(tmp_path):
    board = tmp_path / "never.json"
    nodes = {"a": "Red", "b": "Blue", "c": "Red", "d": "Blue"}
    edges = [["a", "b"], ["c", "d"]]
    spec = {"name": "never", "rules": "pivot", "pivot": "a", "nodes": nodes, "edges": edges}
    board.write_text(json.dumps(spec))
    out = io.StringIO()
    bench.bench([str(board)], ["sat"], BenchOptions(SolveOptions(time_limit=10)), out)
    row = next(line for line in out.getvalue().splitlines() if line.startswith("never"))
    assert row.split()[3] == "inf" and "inf" in row.split()[-3]


def test_ctrl_c_keeps_the_rows_finished(tmp_path, monkeypatch):
    # Ctrl-C while the second puzzle runs: the first row is printed, summed up and written
    real, calls = bench.run_one, []

    def run_one(board, solver, options):
        calls.append(board.name)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(board, solver, options)

    monkeypatch.setattr(bench, "run_one", run_one)
    out, csv_path = io.StringIO(), tmp_path / "rows.csv"
    square = ROOT_PUZZLES / "square"
    paths = [str(square / "first.txt"), str(square / "holes.txt")]
    code = bench.bench(
        paths, ["greedy"], BenchOptions(SolveOptions(time_limit=10), csv_path=str(csv_path)), out
    )
    assert code == 3
    assert "interrupted: 1 puzzle finished, the one running was stopped" in out.getvalue()
    assert "greedy: " in out.getvalue()  # the summary
    with open(csv_path) as f:
        assert [row["puzzle"] for row in csv.DictReader(f)] == [calls[0]]


def test_sigterm_stops_a_bench_with_the_rows_finished(tmp_path):
    # as Ctrl-C: the running job is stopped, the rows finished are printed and summed up,
    # exit 3; SIGTERM must neither kill the bench outright nor leave its running job behind
    import re
    import signal
    import subprocess
    import sys
    import time

    from tests.seed import long_board

    big = long_board(tmp_path)
    first = str(ROOT_PUZZLES / "square" / "first.txt")
    argv = [sys.executable, "-m", "kamicp", "bench", first, str(big), "--solver", "idastar"]
    proc = subprocess.Popen(
        argv, cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    time.sleep(8)  # the first puzzle takes well under a second, the second far longer
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 3, err
    assert re.search(r"interrupted: [01] puzzles? finished, the one running was stopped", out)
    assert "idastar: " in out and "proved optimal" in out  # the summary
    assert "Traceback" not in err
