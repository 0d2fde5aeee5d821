"""``kamicp bench``: options checked before any puzzle runs."""

from __future__ import annotations

from tests.cli.helpers import ARTICLE, run


def test_bench_tetrapod_depth_needs_idastar(capsys):
    code, out, err = run(capsys, "bench", ARTICLE, "--solver", "sat", "--tetrapod-depth", "1")
    assert code == 2 and not out
    assert err.strip().count("\n") == 0 and "--tetrapod-depth" in err


def test_bench_jobs_two_gives_the_rows_of_jobs_one_in_puzzle_order(capsys, tmp_path):
    import json

    from tests.cli.helpers import ROOT

    paths = [str(ROOT / "puzzles" / "digits"), str(ROOT / "puzzles" / "flood" / "small.txt")]
    rows = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"rows{jobs}.json"
        argv = ["bench", *paths, "--solver", "bfs,idastar", "--time-limit", "30"]
        code, text, _ = run(capsys, *argv, "--jobs", jobs, "--json", str(out))
        assert code == 0 and "bfs: 6/6 proved optimal; total" in text and "median" in text
        rows[jobs] = [
            (r["name"], r["index"], r["solver"], r["moves"], r["status"])
            for r in json.loads(out.read_text())
        ]
    assert rows["1"] == rows["2"]
    names = [f"three-{i}" for i in (1, 2, 3)] + [f"small-{i}" for i in (1, 2, 3)]
    assert [r[0] for r in rows["2"]] == [n for n in names for _ in ("bfs", "idastar")]
