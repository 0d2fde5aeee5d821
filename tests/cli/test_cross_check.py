"""``kamicp cross-check``: a per-solver time limit by default, and a solver stopped by it
answers with what it proved, which is no disagreement."""

from __future__ import annotations

from kamicp.cli.cross_check import CROSS_CHECK_TIME_LIMIT
from kamicp.cli.main import build_parser
from tests.cli.helpers import run
from tests.seed import long_board


def test_every_solver_has_a_time_limit_by_default():
    args = build_parser(["cross-check"]).parse_args(["cross-check", "x.txt"])
    assert args.time_limit == CROSS_CHECK_TIME_LIMIT <= 30


def test_a_solver_stopped_by_the_time_limit_is_no_disagreement(capsys, tmp_path):
    big = str(long_board(tmp_path))  # far from proved within a second
    argv = ["cross-check", big, "--solvers", "bfs,astar", "--time-limit", "1"]
    code, out, _ = run(capsys, *argv)
    assert code == 0 and out.endswith("1 puzzle, 0 with disagreements\n")
    assert "bfs feasible" in out or "bfs unknown" in out
