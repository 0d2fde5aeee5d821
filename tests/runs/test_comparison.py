"""cross-check: agreement on the shipped puzzles, and a wrong listed optimum is reported."""

from __future__ import annotations

from pathlib import Path

from kamicp.cli.main import main

ROOT = Path(__file__).resolve().parents[2]


def test_solvers_agree_on_shipped_puzzles(capsys):
    code = main(
        [
            "cross-check",
            str(ROOT / "puzzles" / "square"),
            str(ROOT / "puzzles" / "graph"),
            "--solvers",
            "bfs,astar,idastar,cpsat,sat",
            "--time-limit",
            "60",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert "0 with disagreements" in out


def test_a_wrong_listed_optimum_is_a_disagreement(tmp_path, capsys):
    text = (ROOT / "puzzles" / "square" / "first.txt").read_text()
    bad = tmp_path / "wrong.txt"
    bad.write_text(text.replace("optimum: 4", "optimum: 3"))
    assert main(["cross-check", str(bad), "--solvers", "bfs,sat"]) == 1
    out = capsys.readouterr().out
    assert "DISAGREEMENT" in out and "the file lists 3" in out


def test_a_bad_file_is_one_line_before_any_check(tmp_path, capsys):
    # every file is read first: a bad one last in the folder came up only after the checks
    # of the files before it had run (and printed)
    text = (ROOT / "puzzles" / "square" / "first.txt").read_text()
    (tmp_path / "a.txt").write_text(text)
    (tmp_path / "b.txt").write_text("name: bad\nrules: free\nRRG\nRX\n")
    code = main(["cross-check", str(tmp_path), "--solvers", "bfs"])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert captured.err.strip().endswith("b.txt:4: ragged row: 2 cells, the first row has 3")
    assert captured.err.count("\n") == 1
