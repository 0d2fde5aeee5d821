"""A pool of forked worker processes: started, fed jobs a few at a time, stopped, and a
worker's death named.

The workers are forked (they inherit the parent's state, such as a search to continue) and
die with their parent. :class:`Throttle` hands jobs to the pool at most a few at a time, since
the pool takes them in order and the caller may stop long before the last.

Examples
--------
>>> pool, processes = start_pool(2)
>>> jobs = Throttle(pool, 1, processes)
>>> for n in range(3):
...     jobs.submit(abs, -n, n)
>>> sorted(jobs.next() for _ in range(3))
[(0, 0), (1, 1), (2, 2)]
>>> stop_pool(pool, processes)
>>> death(-9)
'SIGKILL: killed from outside, perhaps by the kernel for want of memory'
"""

from __future__ import annotations

import collections
import multiprocessing as mp
import os
import queue
import signal
import time
from collections.abc import Callable, Sequence
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from kamicp.errors import WorkerLost
from kamicp.procs.child import die_with_parent
from kamicp.procs.interruptible import held_signals

__all__ = ["Throttle", "death", "start_pool", "stop_pool"]


def start_pool(
    workers: int, initializer: Callable | None = None, initargs: tuple = ()
) -> tuple[ProcessPoolExecutor, list]:
    """Fork ``workers`` worker processes now, each running ``initializer(*initargs)`` first.

    A :class:`concurrent.futures.ProcessPoolExecutor`, not a ``multiprocessing.Pool``: a
    worker killed from outside (``timeout``'s SIGTERM to the process group, the kernel's
    out-of-memory killer) breaks the executor, which fails every job at once and stops the
    other workers, where a ``Pool`` would lose the job, and its ``terminate`` can hang for
    good when the dead worker held the job queue's lock. The executor forks its workers at
    the first job: one short job each, sent together and waited for, forks them here (where
    the caller has, say, no journal transaction open) and surfaces a worker that cannot start.

    Parameters
    ----------
    workers : int
        Processes.
    initializer : callable or None
        Run first in each worker (after it is set to die with its parent).
    initargs : tuple
        Its arguments.

    Returns
    -------
    tuple of (ProcessPoolExecutor, list of multiprocessing.Process)
        The pool and its processes, as started (to tell later how one died).
    """
    before = {p.pid for p in mp.active_children()}
    pool = ProcessPoolExecutor(
        workers,
        mp_context=mp.get_context("fork"),
        initializer=_pool_worker,
        initargs=(os.getpid(), initializer, initargs),
    )
    try:
        with held_signals():  # see kamicp.procs.child.Child: a signal within a fork is lost
            warm_ups = [pool.submit(time.sleep, 0.05) for _ in range(workers)]
        for started in warm_ups:
            started.result()
    except BaseException:  # the caller never gets the pool to stop
        stop_pool(pool, [p for p in mp.active_children() if p.pid not in before])
        raise
    return pool, [p for p in mp.active_children() if p.pid not in before]


def _pool_worker(parent: int, initializer: Callable | None, initargs: tuple) -> None:
    """A pool's worker process starts here. It dies with its parent: an idle worker waits
    for jobs, and would wait for ever once the parent is killed (a portfolio stops a
    backend so), as the executor's workers keep the job queue's write end open."""
    die_with_parent()
    # stop_pool ends a worker with SIGTERM, which must kill it: a handler inherited from the
    # parent (the CLI takes SIGTERM as Ctrl-C) would raise in the middle of the job queue's
    # lock and leave the other workers, and the executor's shutdown, waiting on it for ever
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if os.getppid() != parent:  # the parent died before that
        os._exit(0)
    if initializer is not None:
        initializer(*initargs)


def stop_pool(pool: ProcessPoolExecutor, processes: Sequence) -> None:
    """Stop the workers, busy or not, and wait for the executor to wind up.

    The workers get SIGTERM (they keep its default action). A job killed mid-way loses
    what it would have answered.

    Parameters
    ----------
    pool : ProcessPoolExecutor
        The pool of :func:`start_pool`.
    processes : sequence of multiprocessing.Process
        Its processes, as :func:`start_pool` returned them.
    """
    for process in processes:
        if process.exitcode is None:
            process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


class Throttle:
    """Jobs handed to a pool at most ``limit`` at a time, each answer returned with its
    job's tag. Why not all at once: the jobs are handed out in the order they were
    submitted, and the search may stop (a solution, a deadline) long before the last."""

    def __init__(self, pool: ProcessPoolExecutor, limit: int, workers: Sequence = ()):
        self.pool, self.limit = pool, limit
        self.workers = workers  # the pool's processes: to tell how one died
        self.waiting: collections.deque = collections.deque()  # (function, job, tag)
        self.in_pool = 0  # handed to the pool, not answered
        self.done: queue.SimpleQueue = queue.SimpleQueue()

    def submit(self, function: Callable, job: tuple, tag) -> None:
        """Queue ``function(job)``; its answer comes back with ``tag``."""
        self.waiting.append((function, job, tag))

    def pending(self) -> int:
        """Jobs submitted and not answered yet."""
        return len(self.waiting) + self.in_pool

    def feed(self) -> None:
        """Hand queued jobs to the pool, up to ``limit`` there at once."""
        while self.waiting and self.in_pool < self.limit:
            function, job, tag = self.waiting.popleft()
            try:
                future = self.pool.submit(function, job)
            except BrokenProcessPool:  # a worker died since the last answer
                raise self.lost() from None
            self.in_pool += 1
            future.add_done_callback(lambda f, tag=tag: self.done.put(_outcome(f, tag)))

    def next(self, feed: bool = True, timeout: float | None = None) -> tuple | None:
        """(tag, answer) of the next job answered (None after ``timeout`` seconds); a job's
        exception is raised here, and :class:`WorkerLost` if a worker has died."""
        if feed:
            self.feed()
        item = _next(self.done, timeout)
        if item is None:
            return None
        self.in_pool -= 1
        if isinstance(item, BrokenProcessPool):
            raise self.lost() from item
        if isinstance(item, BaseException):
            raise item
        return item

    def lost(self) -> WorkerLost:
        """The error that tells how a worker died. The executor stops the other workers
        with SIGTERM once one has died, so a death by another cause names the first."""
        # The executor is stopping the others and reaps them all: wait for every code (a
        # process reaped by the executor's thread shows its code only once that is done).
        end = time.monotonic() + 2.0
        while any(p.exitcode is None for p in self.workers) and time.monotonic() < end:
            time.sleep(0.01)
        codes = [p.exitcode for p in self.workers if p.exitcode is not None]
        codes.sort(key=lambda code: code == -signal.SIGTERM)
        how = death(codes[0]) if codes else "how is not known"
        return WorkerLost(f"a worker process of the parallel search died ({how})")


def _outcome(future: Future, tag) -> tuple | BaseException:
    """A finished job's (tag, answer), or its exception (a cancelled job's: only
    :func:`stop_pool` cancels, and then nobody reads the answers)."""
    try:
        error = future.exception()
    except CancelledError as cancelled:
        return cancelled
    return error if error is not None else (tag, future.result())


def death(exitcode: int) -> str:
    """How a process ended, in words."""
    if exitcode >= 0:
        return f"exit code {exitcode}"
    try:
        name = signal.Signals(-exitcode).name
    except ValueError:
        name = f"signal {-exitcode}"
    if -exitcode == signal.SIGKILL:
        return f"{name}: killed from outside, perhaps by the kernel for want of memory"
    return f"{name}: killed from outside"


def _next(done: queue.SimpleQueue, timeout: float | None = None):
    """The next answer, None after ``timeout`` seconds; waiting in short slices, so that
    Ctrl-C is handled (a blocking ``get`` holds off the signal handler until an answer
    comes)."""
    end = None if timeout is None else time.monotonic() + timeout
    while True:  # at least one try, so that an answer already there is taken even at timeout 0
        try:
            return done.get(
                timeout=0.5 if end is None else max(0.0, min(0.5, end - time.monotonic()))
            )
        except queue.Empty:
            if end is not None and time.monotonic() >= end:
                return None
