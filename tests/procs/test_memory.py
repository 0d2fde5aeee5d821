"""The memory limit: sizes, the process tree's memory, and the watchdog's flag."""

from __future__ import annotations

import multiprocessing as mp
import os
import time

import pytest

from kamicp.procs import memory
from kamicp.procs.deadline import Deadline, LimitReached


@pytest.mark.parametrize(
    "text, size",
    [("4G", 4 * 2**30), ("512M", 512 * 2**20), ("2.5G", int(2.5 * 2**30)), ("1000", 1000),
     ("64k", 64 * 2**10), ("1GiB", 2**30), ("3MB", 3 * 2**20)],
)  # fmt: skip
def test_sizes_are_read_in_powers_of_1024(text, size):
    assert memory.parse_size(text) == size


@pytest.mark.parametrize("text", ["", "G", "4X", "-1G", "0", "1e9", "four"])
def test_a_bad_size_is_refused(text):
    with pytest.raises(ValueError):
        memory.parse_size(text)


def test_the_default_limit_is_at_most_4g_and_below_the_ram():
    assert 0 < memory.default_limit() <= 4 * 2**30


def test_the_tree_holds_a_forked_child_and_its_memory():
    ctx = mp.get_context("fork")
    child = ctx.Process(target=time.sleep, args=(5,))
    child.start()
    try:
        assert child.pid in memory.descendants(os.getpid())
        assert memory.resident(child.pid) > 0
    finally:
        child.kill()
        child.join()
    assert memory.resident(child.pid) == 0  # gone


def test_a_limit_reached_ends_every_deadline_in_this_process_and_forked_children():
    assert not memory.reached() and not Deadline.after(None).expired()
    with memory.limited(1) as watch:  # one byte: reached at the first look
        end = time.monotonic() + 5
        while not memory.reached() and time.monotonic() < end:
            time.sleep(0.01)
        assert memory.reached() and watch.reached_after is not None
        assert Deadline.after(None).expired() and Deadline.after(60).left() == 0.0
        with pytest.raises(LimitReached):
            Deadline.after(None).check()
        ctx = mp.get_context("fork")
        child = ctx.Process(target=_exit_expired)
        child.start()
        child.join()
        assert child.exitcode == 0  # the child saw the flag
        assert memory.note() == "memory limit of 1 reached"
        assert memory.share(2**30) == 0
    assert not memory.reached() and memory.share(2**30) == 2**30


def test_a_high_limit_is_not_reached():
    with memory.limited(2**50) as watch:
        time.sleep(3 * memory.PERIOD)
        assert not memory.reached() and watch.peak > 0


def _exit_expired():
    os._exit(0 if Deadline.after(None).expired() else 1)


def test_rearm_lowers_the_flag_once_the_memory_is_back_under_the_limit():
    """The next puzzle of a run starts afresh after one that reached the limit, but only
    when the memory was given back."""
    import numpy as np

    me = os.getpid()
    tree = memory.resident(me) + sum(memory.resident(kid) for kid in memory.descendants(me))
    limit = tree + 100 * 2**20  # children left by other tests count too
    with memory.limited(limit):
        block = np.ones(200 * 2**20, dtype=np.uint8)  # touched: resident
        for _ in range(50):
            if memory.reached():
                break
            time.sleep(0.05)
        assert memory.reached()
        assert not memory.rearm()  # still above
        del block
        assert memory.rearm() and not memory.reached()
    assert memory.rearm()  # nothing watched
