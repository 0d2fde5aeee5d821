"""The files commands write: refused before the work when they cannot be written or would
overwrite an input."""

from __future__ import annotations

import pytest

from tests.cli.helpers import ROOT, run


@pytest.mark.parametrize(
    "argv",
    [
        ["bench", "{file}", "--solver", "greedy", "--csv", "{missing}/rows.csv"],
        ["bench", "{file}", "--solver", "greedy", "--json", "{folder}"],
        ["render", "{file}", "--solve", "--out", "{missing}/board.svg"],
    ],
)
def test_an_output_that_cannot_be_made_is_refused_before_the_work(capsys, monkeypatch, argv):
    # bench writes its --csv/--json after every puzzle has run, render --solve after the
    # solve: an output that cannot be made must be one line before anything is solved
    from kamicp.cli import render as cli_render  # where run_render looks solve up
    from kamicp.runs import bench

    monkeypatch.setattr(bench, "run_one", lambda *args: pytest.fail("solved first"))
    monkeypatch.setattr(cli_render, "solve", lambda *args, **kwargs: pytest.fail("solved first"))
    folder = ROOT / "puzzles" / "square"
    paths = {"file": str(folder / "first.txt"), "folder": str(folder), "missing": "/no/such"}
    code, out, err = run(capsys, *(arg.format(**paths) for arg in argv))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "no such folder: /no/such" in err or "a folder, not a file" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["bench", "{file}", "--solver", "greedy", "--csv", "{file}"],
        ["bench", "{folder}", "--solver", "greedy", "--json", "{file}"],
        ["batch", "{folder}", "--out", "{file}"],
        ["export", "{file}", "--moves", "2", "--out", "{file}"],
        ["render", "{file}", "--out", "{file}"],
    ],
)
def test_no_command_writes_over_an_input(capsys, tmp_path, argv):
    # the output named is a puzzle given, directly or inside a folder given: refused
    puzzle = tmp_path / "puzzles" / "first.txt"
    puzzle.parent.mkdir()
    puzzle.write_text((ROOT / "puzzles" / "square" / "first.txt").read_text())
    before = puzzle.read_text()
    paths = {"file": str(puzzle), "folder": str(puzzle.parent)}
    code, _, err = run(capsys, *(arg.format(**paths) for arg in argv))
    assert code == 2 and "refusing to overwrite the input file" in err
    assert puzzle.read_text() == before


@pytest.mark.parametrize(
    "argv",
    [
        ["render", "{puzzle}", "--out", "{missing}/x.svg"],
        ["render", "{puzzle}", "--out", "{missing}/x.png"],
        ["export", "{puzzle}", "--moves", "2", "--out", "{missing}/x.cnf"],
        ["export", "{puzzle}", "--moves", "2", "--out", "{folder}"],
        ["bench", "{puzzle}", "--solver", "greedy", "--csv", "{missing}/x.csv"],
        ["batch", "{puzzle}", "--solver", "greedy", "--out", "{missing}/x.jsonl"],
        ["batch", "{puzzle}", "--solver", "greedy", "--out", "{folder}"],
        ["solve", "{puzzle}", "--solver", "bfs", "--certificate", "{puzzle}/cert"],
    ],
)
def test_an_output_that_cannot_be_written_is_one_line(capsys, tmp_path, argv):
    # a missing folder, a folder, a path through a file: one line naming it, exit 2
    puzzle = tmp_path / "first.txt"
    puzzle.write_text((ROOT / "puzzles" / "square" / "first.txt").read_text())
    paths = {"puzzle": str(puzzle), "missing": str(tmp_path / "nope"), "folder": str(tmp_path)}
    code, _, err = run(capsys, *(arg.format(**paths) for arg in argv))
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert str(tmp_path) in err and "Traceback" not in err
