"""``kamicp solve`` with many puzzles: files, folders and multi-puzzle files in one process,
a header (or ``file`` and ``index`` keys) per answer, the worst exit code, the options that fit
one puzzle refused, ``--jobs`` answering the same in the same order, and signals."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from tests.cli.helpers import ROOT, run
from tests.processes import running

THREE = str(ROOT / "puzzles" / "digits" / "three.txt")  # optima 5, 6, 7
FIRST = str(ROOT / "puzzles" / "square" / "first.txt")  # optimum 4
FLOOD = str(ROOT / "puzzles" / "flood")  # eight.txt (11), ids.txt (7, 11), small.txt (5, 6, 8)


def lines(out: str) -> list[dict]:
    rows = [json.loads(line) for line in out.splitlines()]
    for row in rows:
        row.pop("seconds")
    return rows


def test_one_puzzle_prints_as_a_single_solve(capsys):
    code, out, _ = run(capsys, "solve", FIRST, "--solver", "bfs")
    assert code == 0 and out.startswith("puzzle:   first\nsolution: ") and "==" not in out
    code, out, _ = run(capsys, "solve", THREE, "--index", "2", "--solver", "bfs", "--json")
    data = json.loads(out)
    assert code == 0 and data["name"] == "three-2" and data["moves"] == 6
    assert data["file"] == THREE and data["index"] == 2  # the same shape as among several


def test_files_folders_and_multi_puzzle_files_in_order_with_headers(capsys):
    code, out, _ = run(capsys, "solve", THREE, FLOOD, FIRST, "--solver", "bfs")
    heads = [line for line in out.splitlines() if line.startswith("== ")]
    flood = [f"{FLOOD}/eight.txt#1", f"{FLOOD}/ids.txt#1", f"{FLOOD}/ids.txt#2"]
    flood += [f"{FLOOD}/small.txt#{i}" for i in (1, 2, 3)]
    assert heads == [f"== {p} ==" for p in [f"{THREE}#1", f"{THREE}#2", f"{THREE}#3", *flood]] + [
        f"== {FIRST}#1 =="
    ]
    assert code == 0 and out.count("status:   optimal") == 10
    blocks = out.split("\n\n")
    assert len(blocks) == 10 and blocks[1].startswith(f"== {THREE}#2 ==\npuzzle:   three-2\n")


def test_json_lines_name_file_and_index(capsys):
    code, out, _ = run(capsys, "solve", THREE, FIRST, "--solver", "bfs", "--json")
    rows = lines(out)
    assert code == 0
    assert [(r["file"], r["index"], r["moves"]) for r in rows] == [
        (THREE, 1, 5),
        (THREE, 2, 6),
        (THREE, 3, 7),
        (FIRST, 1, 4),
    ]


@pytest.mark.parametrize(
    ("argv", "code", "statuses"),
    [
        (["--max-moves", "6"], 1, ["optimal", "optimal", "infeasible"]),  # infeasible: 1
        (["--node-limit", "1", "--max-moves", "10"], 3, ["feasible"] * 3 + ["unknown"]),
    ],
)
def test_exit_code_is_the_worst_answer(capsys, argv, code, statuses):
    paths = [THREE] if code == 1 else [THREE, f"{FLOOD}/eight.txt"]
    got, out, _ = run(capsys, "solve", *paths, "--solver", "bfs", "--json", *argv)
    assert got == code and [r["status"] for r in lines(out)] == statuses


@pytest.mark.parametrize(
    ("argv", "problem"),
    [
        (["--certificate", "cert"], "--certificate needs one puzzle, not 4 puzzles given"),
        (["--journal", "j.sqlite"], "--journal keeps the bounds of one board, not 4"),
        (["--known-solution", "0,0:1"], "--known-solution: moves fit one puzzle, not 4"),
        (["--jobs", "2", "--progress"], "--progress: the lines of puzzles side by side"),
        (["--index", "1"], "--index picks a puzzle of one file"),
    ],
)
def test_options_for_one_puzzle_are_refused_with_several(
    capsys, monkeypatch, tmp_path, argv, problem
):
    monkeypatch.chdir(tmp_path)  # restored after the test: later tests use relative paths
    solver = ["--solver", "idastar"]
    code, out, err = run(capsys, "solve", THREE, FIRST, *solver, *argv)
    assert code == 2 and out == "" and err == f"kamicp: {problem}" + err.split(problem, 1)[1]
    assert err.count("\n") == 1 and os.listdir(tmp_path) == []


def test_index_in_a_folder_is_refused_and_a_file_of_several_needs_it_for_a_certificate(capsys):
    code, _, err = run(capsys, "solve", FLOOD, "--index", "1")
    assert code == 2 and "--index picks a puzzle of one file" in err
    code, _, err = run(capsys, "solve", THREE, "--certificate", "never")
    assert code == 2 and "three.txt: --certificate needs one puzzle: pick it with --index" in err


def test_known_solution_file_and_all_optimal_work_per_puzzle(capsys):
    argv = ["solve", THREE, "--solver", "bfs", "--all-optimal", "--json"]
    code, out, _ = run(capsys, *argv, "--known-solution", "file")  # none stored: plain solves
    assert (
        "--known-solution file: the puzzle holds no solution"
        in run(capsys, "solve", FIRST, "--known-solution", "file")[2]
    )
    rows = lines(out)
    assert code == 0 and all(len(r["all_optimal"]) >= 1 for r in rows)


def test_two_jobs_answer_as_one_does_in_the_same_order(capsys):
    argv = ["solve", THREE, FLOOD, FIRST, "--solver", "bfs", "--json"]
    one = run(capsys, *argv)
    two = run(capsys, *argv, "--jobs", "2")
    assert one[0] == two[0] == 0
    assert lines(one[1]) == lines(two[1]) and len(lines(one[1])) == 10
    text_one = run(capsys, *argv[:-1], "--jobs", "1")[1]
    text_two = run(capsys, *argv[:-1], "--jobs", "3")[1]
    strip = [line for line in text_one.splitlines() if not line.startswith("solver:")]
    assert strip == [line for line in text_two.splitlines() if not line.startswith("solver:")]


def test_a_bad_final_colour_in_a_worker_is_one_line(capsys):
    code, out, err = run(capsys, "solve", THREE, FIRST, "--jobs", "2", "--final-colour", "9")
    assert code == 2 and "--final-colour" in err and err.count("\n") == 1


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("signame", ["SIGTERM", "SIGINT"])
def test_a_signal_stops_every_worker_at_once(tmp_path, signame):
    from tests.seed import long_board

    big = str(long_board(tmp_path))  # seconds of search at least, on every solver
    copy = tmp_path / "again.txt"
    copy.write_text(open(big).read())
    argv = [sys.executable, "-m", "kamicp", "solve", FIRST, big, str(copy), "--jobs", "2"]
    proc = subprocess.Popen(
        [*argv, "--solver", "idastar", "--json"],
        cwd=ROOT,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert json.loads(proc.stdout.readline())["moves"] == 4  # the first answer, printed
    time.sleep(1.0)  # both workers are on a big board now
    workers = children(proc.pid)
    assert len(workers) >= 2
    began = time.monotonic()
    proc.send_signal(getattr(signal, signame))
    out, err = proc.communicate(timeout=30)
    took = time.monotonic() - began
    assert proc.returncode == 3, err
    assert took < 5  # within a second on an idle machine; the margin is for a loaded one
    assert "interrupted: 1 puzzle of 3 answered" in err and "Traceback" not in err
    deadline = time.monotonic() + 2
    while any(running(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(running(w) for w in workers)
