"""``kamicp bench``: options checked before any puzzle runs."""

from __future__ import annotations

from tests.cli.helpers import ARTICLE, run


def test_bench_tetrapod_depth_needs_idastar(capsys):
    code, out, err = run(capsys, "bench", ARTICLE, "--solver", "sat", "--tetrapod-depth", "1")
    assert code == 2 and not out
    assert err.strip().count("\n") == 0 and "--tetrapod-depth" in err
