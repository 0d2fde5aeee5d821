"""The worker pool (kamicp.procs.pool): the throttle answers every job, and idle workers die
with a parent killed outright.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import time

import pytest

from kamicp.procs.pool import Throttle, start_pool, stop_pool


def _twice(x: int) -> int:
    if x < 0:
        raise ValueError(x)
    return 2 * x


def test_throttle_answers_every_job_with_at_most_limit_in_the_pool():
    pool, workers = start_pool(2)
    try:
        jobs = Throttle(pool, 3, workers)
        for x in range(20):
            jobs.submit(_twice, x, f"tag{x}")
        answers = {}
        while jobs.pending():
            jobs.feed()
            assert jobs.in_pool <= 3
            tag, answer = jobs.next()
            answers[tag] = answer
        assert answers == {f"tag{x}": 2 * x for x in range(20)}
        jobs.submit(_twice, -1, "bad")
        with pytest.raises(ValueError):  # a job's own error, not a lost worker
            jobs.next()
    finally:
        stop_pool(pool, workers)


def _pool_then_wait(conn) -> None:
    _, workers = start_pool(2)
    conn.send([worker.pid for worker in workers])
    time.sleep(60)


def _gone(pid: int) -> bool:
    """Is the process gone (or dead, not reaped yet)?"""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in "ZX"
    except FileNotFoundError:
        return True


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="needs Linux's /proc")
def test_idle_workers_die_with_a_parent_killed_outright():
    # a portfolio stops a backend with SIGKILL; the idle workers of its pool must not wait
    # for jobs for ever (they hold their job queue's write end, so no end of file comes)
    ctx = mp.get_context("fork")
    mine, theirs = ctx.Pipe()
    parent = ctx.Process(target=_pool_then_wait, args=(theirs,))
    parent.start()
    assert mine.poll(30)
    workers = mine.recv()
    assert len(workers) == 2 and not any(_gone(pid) for pid in workers)
    parent.kill()
    parent.join()
    end = time.monotonic() + 10
    while not all(_gone(pid) for pid in workers) and time.monotonic() < end:
        time.sleep(0.05)
    assert all(_gone(pid) for pid in workers)


def test_workers_die_of_sigterm_whatever_handler_the_parent_set():
    # the CLI takes SIGTERM as Ctrl-C; a worker forked with that handler would raise in the
    # job queue's lock instead of dying, and could leave the pool's shutdown waiting for ever
    import signal

    from kamicp.procs.interruptible import sigterm_as_interrupt

    with sigterm_as_interrupt():
        pool, workers = start_pool(2)
        stop_pool(pool, workers)
    assert [w.exitcode for w in workers] == [-signal.SIGTERM] * 2
