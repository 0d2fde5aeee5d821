"""Big boards end within their time limit, and on SIGTERM, with bounds printed (behaviour
tests with generous bounds, not timings)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KAMICP = [sys.executable, "-c", "import sys; from kamicp.cli.main import main; sys.exit(main())"]


def _board(path: Path, side: int, rules: str) -> Path:
    rng = random.Random(side)
    rows = ["".join(rng.choice("RGBY") for _ in range(side)) for _ in range(side)]
    path.write_text(f"rules: {rules}\n" + "".join(row + "\n" for row in rows))
    return path


def _env() -> dict:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def test_a_big_board_ends_at_its_time_limit_with_bounds(tmp_path):
    board = _board(tmp_path / "big.txt", 150, "free")
    started = time.monotonic()
    done = subprocess.run(
        [*KAMICP, "solve", str(board), "--time-limit", "1"],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=60,
    )
    assert time.monotonic() - started < 20, "a generous bound: the limit is 1 s"
    assert done.returncode == 3, done.stderr
    assert "bounds:" in done.stdout and "<= optimum <=" in done.stdout


def test_sigterm_ends_a_solve_on_a_big_board_with_bounds(tmp_path):
    board = _board(tmp_path / "big.txt", 60, "free")
    child = subprocess.Popen(
        [*KAMICP, "solve", str(board)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
    )
    time.sleep(4)
    child.send_signal(signal.SIGTERM)
    stopped = time.monotonic()
    out, err = child.communicate(timeout=30)
    assert time.monotonic() - stopped < 10, "a generous bound"
    assert "<= optimum <=" in out, err


def test_a_huge_board_ends_near_its_time_limit_with_bounds_or_a_message(tmp_path):
    board = _board(tmp_path / "huge.txt", 1000, "pivot")
    for command in ("solve", "info"):
        started = time.monotonic()
        done = subprocess.run(
            [*KAMICP, command, str(board), "--time-limit", "2"],
            capture_output=True,
            text=True,
            env=_env(),
            timeout=60,
        )
        assert time.monotonic() - started < 15, "a generous bound: the limit is 2 s"
        assert done.returncode == 3 or command == "info", done.stderr
        assert "Traceback" not in done.stderr
        if command == "solve":
            assert "<= optimum <=" in done.stdout
            assert "time limit" in done.stdout or "too large" in done.stdout
        else:
            assert "lower_bound:" in done.stdout
            assert "left_out:" in done.stdout
