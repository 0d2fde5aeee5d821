"""Progress bars: on standard error when it is a terminal (counts, time left), never into a
pipe, so that scripts and tests read clean output."""

from __future__ import annotations

import fcntl
import io
import os
import pty
import struct
import subprocess
import sys
import termios
import time

import pytest

from tests.cli.helpers import ROOT

DIGITS = str(ROOT / "puzzles" / "digits")
SQUARE = str(ROOT / "puzzles" / "square")


def _run(argv, terminal: bool):
    """``kamicp argv`` with standard output a pipe and standard error a 100-column terminal
    (or a pipe); its code, output and error."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "kamicp", *argv]
    if not terminal:
        done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env)
        return done.returncode, done.stdout, done.stderr
    main, side = pty.openpty()
    fcntl.ioctl(side, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=side, cwd=ROOT, env=env)
    os.close(side)
    err = b""
    while True:
        try:
            chunk = os.read(main, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        err += chunk
    out = proc.stdout.read()
    proc.wait()
    os.close(main)
    return proc.returncode, out.decode(), err.decode(errors="replace")


@pytest.mark.parametrize(
    ("argv", "count"),
    [
        (["solve", DIGITS, SQUARE, "--solver", "bfs"], "/6 ["),
        (["bench", DIGITS, "--solver", "bfs,astar", "--time-limit", "30"], "/6 ["),
        (["cross-check", DIGITS, "--solvers", "bfs,astar"], "/6 ["),
        (["batch", DIGITS, "--out", "{tmp}/rows.jsonl", "--solver", "bfs"], "/3 ["),
    ],
)
def test_a_bar_with_counts_on_a_terminal_and_none_into_a_pipe(tmp_path, argv, count):
    argv = [word.format(tmp=tmp_path) for word in argv]
    code, out, err = _run(argv, terminal=True)
    assert code == 0 and count in err and "it/s" not in err and out  # counted in its unit
    if "batch" in argv:
        os.remove(tmp_path / "rows.jsonl")
    code, piped, err = _run(argv, terminal=False)
    assert code == 0 and err == "" and "\r" not in piped


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", f"{SQUARE}/holes.txt", "--solver", "bfs"],
        ["hint", f"{SQUARE}/holes.txt", "--solver", "bfs"],
    ],
)
def test_one_puzzle_keeps_a_line_of_its_time_and_bounds_on_a_terminal(argv):
    code, out, err = _run(argv, terminal=True)
    assert code == 0 and out
    assert "holes: 00:0" in err  # the name and the clock
    assert "optimum <= 5" in err  # the bounds as they are told
    assert err.endswith("\r")  # cleared at the end, before the answer is printed
    code, piped, err = _run(argv, terminal=False)
    assert code == 0 and err == "" and "\r" not in piped


def test_the_line_of_one_puzzle_is_redrawn_as_its_clock_runs():
    from kamicp.procs.progress import tell, watched
    from kamicp.runs.bar import REDRAW, Live

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    screen = Terminal()
    with Live("demo", screen) as live, watched(live):
        tell(3, None)
        time.sleep(3 * REDRAW)
    drawn = screen.getvalue()
    assert live.shown and "demo: 00:0" in drawn and ", 3 <= optimum" in drawn
    assert drawn.count("\r") >= 3  # the first draw, redraws, and the clearing


def test_the_line_says_when_the_loops_compile_on_a_first_run(monkeypatch, tmp_path):
    # a first run compiles for seconds to a minute before any bound: the line says so
    from kamicp import jit
    from kamicp.procs.progress import watched
    from kamicp.runs.bar import Live

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    def waiting(x):
        return x + 1

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "fresh"))
    screen = Terminal()
    with Live("demo", screen) as live, watched(live):
        assert jit.kernel(waiting)(1) == 2  # compiles the kernels declared so far
    assert "compiling kamicp's loops" in screen.getvalue()
