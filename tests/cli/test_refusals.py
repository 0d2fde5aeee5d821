"""Options that would do nothing with the others given are refused: one line, exit 2."""

from __future__ import annotations

import pytest

from tests.cli.helpers import ROOT, run

FIRST = str(ROOT / "puzzles" / "square" / "first.txt")


@pytest.mark.parametrize(
    ("argv", "problem"),
    [
        (["solve", FIRST, "--cap", "3"], "--cap: only with --all-optimal"),
        (["solve", FIRST, "--solver", "bfs", "--probe", "2"], "--probe: only with --solver"),
        (["solve", FIRST, "--solver", "greedy", "--strategy", "up"], "--strategy: only with"),
        (["solve", FIRST, "--solver", "sat", "--node-limit", "9"], "--node-limit: only with"),
        (["solve", FIRST, "--solver", "astar", "--workers", "2"], "--workers: only with"),
        (["solve", FIRST, "--solver", "sat", "--ray", "local"], "--ray: only with --solver"),
        (["solve", FIRST, "--solver", "sat", "--tetrapod-depth", "1"], "--tetrapod-depth: only"),
        (["solve", FIRST, "--solver", "cpsat", "--journal", "j.db"], "--journal: only with"),
        (["bench", FIRST, "--solver", "bfs,astar", "--probe", "1"], "--probe: only with"),
        (["bench", FIRST, "--solver", "bfs", "--strategy", "down"], "--strategy: only with"),
        (["bench", FIRST, "--solver", "bfs", "--workers", "2"], "--workers: only with"),
        (["render", FIRST, "--out", "x.svg", "--time-limit", "3"], "--time-limit: only with"),
        (["render", FIRST, "--out", "x.svg", "--frames", "row"], "--frames: only with"),
        (["info", str(ROOT / "puzzles/square/pivot.txt"), "--tetrapods"], "--tetrapods: a bound"),
        (["batch", FIRST, "--out", "r.jsonl", "--ray", "local", "--memory-limit", "1G"], "--ray"),
    ],
)
def test_an_option_that_would_do_nothing_is_refused(capsys, tmp_path, monkeypatch, argv, problem):
    monkeypatch.chdir(tmp_path)  # nothing may be written, not even there
    code, out, err = run(capsys, *argv)
    assert code == 2 and not out and err.count("\n") == 1 and problem in err
    assert list(tmp_path.iterdir()) == []


def test_the_options_taken_still_run(capsys):
    code, out, _ = run(capsys, "solve", FIRST, "--solver", "sat", "--strategy", "up")
    assert code == 0 and "optimal, 4 moves" in out
    code, out, _ = run(capsys, "solve", FIRST, "--solver", "bfs", "--all-optimal", "--cap", "1")
    assert code == 0 and "cap reached" in out
