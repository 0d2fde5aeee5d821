"""Isolated jobs: a hard stop also ends the processes the job started; peak memory counts them."""

from __future__ import annotations

import os
import time

from kamicp.procs.isolate import run_isolated
from tests.processes import running


def _spawn_and_hang(pidfile: str) -> dict:
    pid = os.fork()
    if pid == 0:  # the grandchild: would run for a minute if nobody stopped it
        time.sleep(60)
        os._exit(0)
    with open(pidfile, "w") as f:
        f.write(str(pid))
    time.sleep(60)
    return {"status": "never"}


def _grow_in_child(megabytes: int) -> dict:
    pid = os.fork()
    if pid == 0:
        block = bytearray(megabytes * 2**20)
        block[::4096] = b"x" * len(block[::4096])
        os._exit(0)
    os.waitpid(pid, 0)
    return {"status": "done"}


def test_hard_stop_kills_the_jobs_own_processes(tmp_path):
    pidfile = tmp_path / "pid"
    row = run_isolated(_spawn_and_hang, (str(pidfile),), timeout=1.0, context="fork")
    assert row["status"] == "killed"
    grandchild = int(pidfile.read_text())
    for _ in range(50):
        if not running(grandchild):
            break
        time.sleep(0.1)
    assert not running(grandchild)


def test_peak_memory_includes_waited_children():
    row = run_isolated(_grow_in_child, (200,), timeout=30.0, context="fork")
    assert row["status"] == "done"
    assert row["peak_mb"] >= 200


def _orphan_grows(megabytes: int) -> dict:
    # the child forks a grandchild that grows, then dies at once: the grandchild is orphaned
    # (as the portfolio's killed backend leaves its SAT run), and dies a moment later
    pid = os.fork()
    if pid == 0:
        if os.fork() == 0:
            block = bytearray(megabytes * 2**20)
            block[::4096] = b"x" * len(block[::4096])
            time.sleep(0.5)
            os._exit(0)
        os._exit(0)
    os.waitpid(pid, 0)
    return {"status": "done"}


def test_peak_memory_includes_orphaned_grandchildren():
    row = run_isolated(_orphan_grows, (200,), timeout=30.0, context="fork")
    assert row["status"] == "done"
    assert row["peak_mb"] >= 200


def _tell_and_hang(pidfile: str) -> dict:
    with open(pidfile, "w") as f:
        f.write(str(os.getpid()))
    time.sleep(60)
    return {"status": "never"}


def test_a_job_dies_with_a_caller_killed_outright(tmp_path):
    # SIGKILL leaves no handler to stop the jobs: the fork server, tied to the caller's main
    # thread, dies with it, and the job with the server
    import signal
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    pidfile = tmp_path / "job.pid"
    code = (
        "from kamicp.procs.isolate import run_isolated, start_fork_server\n"
        "from tests.procs.test_isolate import _tell_and_hang\n"
        "start_fork_server()\n"
        f"run_isolated(_tell_and_hang, ({str(pidfile)!r},), 60)\n"
    )
    caller = subprocess.Popen([sys.executable, "-c", code], cwd=root)
    deadline = time.monotonic() + 60
    while not (pidfile.exists() and pidfile.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    job = int(pidfile.read_text())
    assert running(job)
    caller.send_signal(signal.SIGKILL)
    caller.wait()
    deadline = time.monotonic() + 5
    while running(job) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not running(job)
