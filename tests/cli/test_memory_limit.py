"""``--memory-limit`` on the command line, and no child process outliving a solve (behaviour
tests through real processes; ``/proc`` is read, psutil is not a dependency)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.seed import long_board

ROOT = Path(__file__).resolve().parents[2]
KAMICP = [sys.executable, "-m", "kamicp"]
linux = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


def _run(*argv: str, timeout: float = 120) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [*KAMICP, *argv], capture_output=True, text=True, env=env, cwd=ROOT, timeout=timeout
    )


@pytest.mark.parametrize("command", ["solve", "info", "hint", "bench", "batch"])
def test_a_bad_memory_limit_is_one_line_and_exit_2(command):
    done = _run(command, "puzzles/square/first.txt", "--memory-limit", "4X")
    assert done.returncode == 2
    assert "--memory-limit: not a size" in done.stderr and "Traceback" not in done.stderr


def test_a_good_memory_limit_changes_nothing_on_a_small_board():
    done = _run("solve", "puzzles/square/first.txt", "--memory-limit", "2.5G")
    assert done.returncode == 0 and "optimal, 4 moves" in done.stdout, done.stderr


def test_a_limit_below_what_the_solve_needs_ends_it_with_bounds_and_the_note(tmp_path):
    # 1M is below the interpreter's own resident memory: the limit is reached at the first
    # look, so every search stops at once and the start's bounds are the answer
    done = _run("solve", str(long_board(tmp_path)), "--memory-limit", "1M")
    assert done.returncode == 3, done.stderr
    assert "status:   unknown (memory limit of 1M reached: bounds only)" in done.stdout
    assert "bounds:   " in done.stdout and "solution: " in done.stdout
    assert done.stderr.startswith("kamicp: memory limit of 1M reached (after ")
    assert done.stderr.count("\n") == 1


def _ours(token: str) -> list[int]:
    """The processes whose command line names ``token`` (a forked child keeps its parent's)."""
    pids = []
    for name in os.listdir("/proc"):
        try:
            with open(f"/proc/{name}/cmdline", "rb") as f:
                if token.encode() in f.read():
                    pids.append(int(name))
        except (OSError, ValueError):
            pass
    return pids


@linux
def test_no_child_outlives_a_time_limited_portfolio(tmp_path):
    board = long_board(tmp_path)
    done = _run("solve", str(board), "--time-limit", "2")
    # what 2 s find depends on the machine's load (a solution or none); that the children
    # are gone does not
    assert "solver:   portfolio" in done.stdout and done.returncode in (0, 3), done.stderr
    assert _ours(str(board)) == []


@linux
def test_the_portfolio_dies_with_a_killed_parent(tmp_path):
    board = long_board(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [*KAMICP, "solve", str(board), "--time-limit", "60", "--progress"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    try:
        end = time.monotonic() + 60
        while len(_ours(str(board))) < 3 and time.monotonic() < end:  # both backends started
            time.sleep(0.1)
        assert len(_ours(str(board))) >= 3, "the portfolio did not start"
    finally:
        proc.send_signal(signal.SIGKILL)  # as the kernel's out-of-memory killer would
        proc.wait()
    end = time.monotonic() + 10
    while _ours(str(board)) and time.monotonic() < end:
        time.sleep(0.1)
    assert _ours(str(board)) == []
