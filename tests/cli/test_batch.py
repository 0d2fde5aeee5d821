"""``kamicp batch``: the counts by status, and a second run that skips what the first
finished."""

from __future__ import annotations

import json

from tests.cli.helpers import ROOT, run


def test_batch_counts_statuses_and_resumes(capsys, tmp_path):
    first = str(ROOT / "puzzles" / "square" / "first.txt")
    out = tmp_path / "rows.jsonl"
    argv = ["batch", first, "--out", str(out), "--solver", "bfs", "--quiet"]
    code, printed, _ = run(capsys, *argv)
    assert code == 0 and "optimal     1" in printed and "skipped     0" in printed
    (row,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert row["status"] == "optimal" and row["moves"] == 4
    code, printed, _ = run(capsys, *argv)  # already final: nothing solved again
    assert code == 0 and "skipped     1" in printed
    assert len(out.read_text().splitlines()) == 1
