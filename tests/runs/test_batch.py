"""Batch runs: local processes and a real local Ray instance agree; resuming after a kill."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kamicp.errors import InputError
from kamicp.formats import puzzles
from kamicp.game.regions import region_graph
from kamicp.runs import batch as batch_module
from kamicp.runs.batch import RUNNING, batch, side_by_side

ROOT = Path(__file__).resolve().parents[2]
SMALL = [str(ROOT / "puzzles" / d) for d in ("square", "graph")]
VARYING = ("seconds", "peak_mb")


def rows_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def stable(rows: list[dict]) -> dict:
    return {(r["file"], r["index"]): {k: v for k, v in r.items() if k not in VARYING} for r in rows}


def test_local_batch_writes_one_line_per_puzzle(tmp_path):
    out = tmp_path / "r.jsonl"
    rows, skipped, _ = batch(SMALL, str(out), time_limit=60, jobs=2, progress=None)
    assert skipped == 0 and len(rows) == len(puzzles(SMALL))
    written = rows_of(out)
    assert len(written) == len(rows)
    for r in written:
        assert r["status"] == "optimal", r
        assert r["moves"] == len(r["solution"]) == r["lower_bound"] == r["upper_bound"]
        assert len(r["hash"]) == 64
    # A rerun finds everything final and solves nothing.
    rows, skipped, _ = batch(SMALL, str(out), time_limit=60, jobs=2, progress=None)
    assert rows == [] and skipped == len(written)


def test_a_run_killed_while_it_marks_a_puzzle_leaves_a_whole_marker(tmp_path):
    # the kill lands between writing the next digest and putting it in place: the marker
    # still names the puzzle before, whole, and the rerun resumes
    out = tmp_path / "r.jsonl"
    script = (
        "import os, signal, sys\n"
        "from kamicp.cli.main import main\n"
        "from kamicp.runs import batch\n"
        "placed = []\n"
        "def replace(src, dst):\n"
        "    if placed:\n"
        "        os.kill(os.getpid(), signal.SIGKILL)\n"
        "    placed.append(dst)\n"
        "    os.rename(src, dst)\n"
        "batch.os.replace = replace\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    cmd = ["batch", *SMALL, "--out", str(out), "--quiet"]
    killed = subprocess.run([sys.executable, "-c", script, *cmd], capture_output=True)
    assert killed.returncode == -signal.SIGKILL
    marker = Path(str(out) + RUNNING).read_text()
    assert len(marker) == 65 and marker.endswith("\n")
    rerun = subprocess.run([sys.executable, "-m", "kamicp", *cmd], capture_output=True, text=True)
    assert rerun.returncode == 0, rerun.stderr
    assert len(rows_of(out)) == len(puzzles(SMALL))


def test_resume_after_a_killed_run(tmp_path):
    out = tmp_path / "r.jsonl"
    cmd = [
        sys.executable,
        "-m",
        "kamicp",
        "batch",
        *SMALL,
        str(ROOT / "puzzles" / "flood"),
        "--out",
        str(out),
        "--quiet",
    ]
    proc = subprocess.Popen(cmd, start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if out.exists() and out.read_text().count("\n") >= 2:
            break
        time.sleep(0.05)
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    marker = Path(str(out) + RUNNING)
    assert marker.exists()  # the digest of the puzzle the killed run was in
    with out.open("a") as f:
        f.write('{"file": "torn')  # what a kill in mid-write leaves
    before = [r for r in (json.loads(x) for x in out.read_text().splitlines()[:-1])]
    code = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert code.returncode == 0, code.stderr
    assert f"{len(before)} (already final" in code.stdout
    lines = out.read_text().splitlines()
    good = [json.loads(x) for x in lines if x.startswith("{") and x.endswith("}")]
    all_tasks = puzzles(SMALL + [str(ROOT / "puzzles" / "flood")])
    assert sorted((r["file"], r["index"]) for r in good) == sorted((p, i) for p, i, _ in all_tasks)
    assert not marker.exists()


def test_one_job_solves_here_as_two_jobs_do_in_children(tmp_path, monkeypatch):
    here, apart = tmp_path / "here.jsonl", tmp_path / "apart.jsonl"
    isolated = []

    def spied(calls, *args):
        isolated.extend(tag for tag, _, _ in calls)
        yield from side_by_side(calls, *args)

    monkeypatch.setattr(batch_module, "side_by_side", spied)
    batch(SMALL, str(apart), time_limit=60, jobs=2, progress=None)
    assert len(isolated) == len(puzzles(SMALL))
    isolated.clear()
    # a run that died in the third puzzle left its digest: that one alone runs in a child
    third = puzzles(SMALL)[2]
    Path(str(here) + RUNNING).write_text(third[2].digest() + "\n")
    rows, _, interrupted = batch(SMALL, str(here), time_limit=60, jobs=1, progress=None)
    assert not interrupted and isolated == [third]
    assert stable(rows_of(here)) == stable(rows_of(apart))
    assert all(r["peak_mb"] > 0 for r in rows_of(here))
    assert not Path(str(here) + RUNNING).exists()


def test_a_puzzle_whose_solve_raises_is_one_error_row(tmp_path, monkeypatch):
    tasks = puzzles(SMALL)
    bad = tasks[1][2]
    real = batch_module.solve

    def sometimes(g, solver, options):
        if g.colour == region_graph(bad).colour:  # the second puzzle only
            raise ZeroDivisionError("a bug")
        return real(g, solver, options)

    monkeypatch.setattr(batch_module, "solve", sometimes)
    out = tmp_path / "r.jsonl"
    rows, _, _ = batch(SMALL, str(out), time_limit=60, jobs=1, progress=None)
    statuses = {(r["file"], r["index"]): r["status"] for r in rows}
    assert statuses.pop((tasks[1][0], tasks[1][1])) == "error"
    assert set(statuses.values()) == {"optimal"} and len(statuses) == len(tasks) - 1


def test_ray_batch_matches_local(tmp_path):
    pytest.importorskip("ray", reason="Ray is the optional 'cluster' extra")
    local, remote = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    batch(SMALL, str(local), time_limit=60, jobs=2, progress=None)
    batch(SMALL, str(remote), time_limit=60, jobs=2, ray_address="local", progress=None)
    assert stable(rows_of(local)) == stable(rows_of(remote))


def processes_in(folder: Path) -> list[int]:
    """The processes whose working directory is ``folder`` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and Path(os.readlink(entry / "cwd")) == folder:
                found.append(int(entry.name))
        except OSError:
            pass  # gone, or not ours to read
    return found


@pytest.mark.skipif(not Path("/proc/self/cwd").exists(), reason="needs Linux /proc")
def test_sigterm_stops_the_running_puzzles_and_keeps_the_finished_rows(tmp_path):
    # SIGTERM must not kill the batch outright (exit -15), leaving its running job (a process
    # group of its own) behind until the job's time limit and the summary unprinted.
    from tests.seed import long_board

    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text("name: small\nrules: free\nRGB\nGBR\n")  # first, at once
    long_board(folder)  # big.txt, next: far from proved in its 60 s
    out = tmp_path / "out.jsonl"
    argv = [sys.executable, "-m", "kamicp", "batch", str(folder), "--out", str(out)]
    argv += ["--solver", "idastar", "--time-limit", "60", "--jobs", "1", "--quiet"]
    proc = subprocess.Popen(
        argv, cwd=tmp_path, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (out.exists() and out.read_text().count("\n")):
        time.sleep(0.05)
    time.sleep(2)  # big.txt is running
    proc.send_signal(signal.SIGTERM)
    stdout, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 3, stderr
    assert "interrupted: 1 puzzle finished, the ones running were stopped" in stderr
    assert "Traceback" not in stderr and "optimal" in stdout  # the summary of the finished
    assert [row["name"] for row in rows_of(out)] == ["small"]
    time.sleep(3)  # the forkserver ends when it sees the batch gone
    assert processes_in(tmp_path) == []


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"[1]\n", "r.jsonl:1: not a row of a kamicp batch"),
        (b'{"status": "optimal"}\n5\n', "r.jsonl:2: not a row of a kamicp batch"),
        (b"\xff\xfe\n", "r.jsonl:1: not a row of a kamicp batch"),
        (b"my notes\n", "r.jsonl:1: not a row of a kamicp batch"),
    ],
)
def test_an_out_file_that_is_not_a_batchs_is_refused_and_kept(tmp_path, content, problem):
    out = tmp_path / "r.jsonl"
    out.write_bytes(content)
    cmd = [sys.executable, "-m", "kamicp", "batch", SMALL[0], "--out", str(out), "--quiet"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and problem in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert out.read_bytes() == content  # rows are not appended to someone else's file


def test_rows_with_odd_fields_are_not_taken_as_done(tmp_path):
    # a row whose hash is not a digest (edited by hand) counts as not done, not as a crash
    out = tmp_path / "r.jsonl"
    out.write_text('{"status": "optimal", "solver": "greedy", "hash": [1]}\n{"file": "to')
    rows, skipped, _ = batch([SMALL[1]], str(out), solver="greedy", progress=None)
    assert skipped == 0 and len(rows) == len(puzzles([SMALL[1]]))


def test_a_file_of_the_users_named_as_the_marker_is_left_alone(tmp_path):
    out = tmp_path / "r.jsonl"
    marker = Path(str(out) + RUNNING)
    marker.write_text("my notes\n")
    with pytest.raises(InputError, match="left alone"):
        batch(SMALL, str(out), time_limit=60, jobs=1, progress=None)
    assert marker.read_text() == "my notes\n"
