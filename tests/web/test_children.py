"""A web job's child: its bounds and answer read, killed on cancel, at its time limit and
with its server, and holding none of the server's sockets."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from kamicp import bounds
from kamicp.procs.child import ERROR, RESULT
from kamicp.procs.progress import say, tell
from kamicp.web import children
from kamicp.web.children import CANCELLED, ENDED, LATE, JobChild
from tests.cli.helpers import ROOT
from tests.processes import running, sockets


def ended(job: JobChild, seconds: float = 30.0) -> tuple:
    """How ``job`` ended, read as the server reads it; fails after ``seconds``."""
    end = time.monotonic() + seconds
    while job.poll(wait=0.05) is None:
        assert time.monotonic() < end, "the child did not end"
    return job.end


def test_a_spawned_child_relays_its_bounds_and_answers():
    job = JobChild(tell, (3, [(0, 1), (0, 2)]), time_limit=30)
    assert ended(job) == (RESULT, None)
    assert (job.lower, job.upper) == (3, 2) and not job.process.is_alive()


def test_the_best_bounds_and_the_last_line_are_kept():
    def told():
        tell(2, None)
        tell(bounds.UNSOLVABLE, None)  # the answer says so: not a bound to show
        tell(1, [(0, 1)] * 5)
        tell(None, [(0, 1)] * 3)
        tell(None, [(0, 1)] * 4)
        say("bfs: depth 3")
        say("bfs: depth 4")
        return "done"

    job = JobChild(told, (), time_limit=30, context="fork")
    assert ended(job) == (RESULT, "done")
    assert (job.lower, job.upper, job.line) == (2, 3, "bfs: depth 4")


def test_an_exception_is_the_answer():
    job = JobChild(int, ("seven",), time_limit=30)
    kind, error = ended(job)
    assert kind == ERROR and isinstance(error, ValueError) and "seven" in str(error)


def test_a_child_that_dies_ends_without_an_answer():
    job = JobChild(time.sleep, (60,), time_limit=120)
    job.process.kill()
    assert ended(job) == (ENDED, None)


def test_a_child_past_its_time_limit_and_the_grace_is_killed(monkeypatch):
    monkeypatch.setattr(children, "GRACE", 0.2)
    start = time.monotonic()
    job = JobChild(time.sleep, (60,), time_limit=0.3)
    assert ended(job) == (LATE, pytest.approx(0.5))
    assert 0.5 <= time.monotonic() - start < 10 and not job.process.is_alive()


def test_stop_kills_the_child_and_keeps_its_bounds():
    def slow():
        tell(4, None)
        time.sleep(60)

    job = JobChild(slow, (), time_limit=120, context="fork")
    end = time.monotonic() + 30
    while job.lower is None and time.monotonic() < end:
        assert job.poll(wait=0.05) is None
    job.stop()
    assert job.end == (CANCELLED, None) and job.lower == 4
    assert not job.process.is_alive()
    assert job.poll() == (CANCELLED, None)  # read again: the same end, the pipe closed


@pytest.mark.parametrize("context, holds", [(children.START, False), ("fork", True)])
def test_only_a_forked_child_holds_the_servers_sockets(context, holds):
    # a forked child holds them: the check can tell; a child started the one way never does
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        job = JobChild(time.sleep, (60,), time_limit=120, context=context)
        try:
            assert bool(sockets(os.getpid()) & sockets(job.process.pid)) == holds
        finally:
            job.stop()


SERVER = """
import time
from kamicp.web.children import JobChild
job = JobChild(time.sleep, (600,), time_limit=900)
print(job.process.pid, flush=True)
time.sleep(600)
"""


def test_the_child_dies_with_a_killed_server():
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    pid = None
    try:
        pid = int(server.stdout.readline())
        assert running(pid)
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)
        end = time.monotonic() + 5
        while running(pid) and time.monotonic() < end:
            time.sleep(0.05)
        assert not running(pid)
    finally:
        server.kill()
        server.wait()
        server.stdout.close()
        if pid is not None and running(pid):
            os.kill(pid, signal.SIGKILL)
