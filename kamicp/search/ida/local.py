"""The workers of a parallel proof as processes on this machine.

Each worker is a process forked from the coordinator (so the compiled bounds and what the
coordinator knows come with it) that answers the jobs of its pipe one by one with a
:class:`~kamicp.search.ida.tasks.TaskSearch`. Two flags in shared memory reach every
worker at its next state: *hungry* (a worker waits, long tasks split) and *stopping* (the
run is over). A worker that dies (SIGKILL, the out-of-memory killer) closes its pipe: its
job is answered as lost, and :meth:`LocalWorkers.restart` forks a new one. A bug in a worker
(an exception) is sent back and raised here.

Examples
--------
>>> from kamicp.game.regions import from_edges
>>> from kamicp.search.ida.tasks import Job, WorkerSetup, start_task
>>> g = from_edges([0, 1, 2, 1, 0], [(i, i + 1) for i in range(4)])
>>> workers = LocalWorkers(1)
>>> workers.start(WorkerSetup.of(g, None))
>>> workers.send(0, Job(start_task(3), 3, 99, None, ()))
>>> w, answer = workers.receive(60)
>>> workers.close()
>>> w, answer.value, len(answer.path)
(0, 2, 2)
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import time
from multiprocessing.connection import Connection, wait

from kamicp.procs.interruptible import held_signals
from kamicp.procs.pool import death
from kamicp.search.ida.tasks import Answer, Job, WorkerSetup

__all__ = ["CLOSE_SECONDS", "LocalWorkers"]

CLOSE_SECONDS = 0.3  # how long the workers have, all together, to end once told to


class LocalWorkers:
    """``size`` worker processes on this machine (see the module docstring)."""

    def __init__(self, size: int):
        self.size = size
        context = self.context = mp.get_context("fork")
        self.hungry = context.Value("b", 0, lock=False)
        self.stopping = context.Value("b", 0, lock=False)
        self.processes: list = [None] * size
        self.pipes: list[Connection | None] = [None] * size
        self.setup: WorkerSetup | None = None

    def start(self, setup: WorkerSetup) -> None:
        self.setup = setup
        for w in range(self.size):
            self.fork(w)

    def fork(self, w: int) -> None:
        """Start worker ``w``."""
        here, there = self.context.Pipe()
        # the coordinator's ends the worker must not hold: a pipe reads its end only once
        # every copy of the other end is closed, and an idle worker waits for that end
        theirs = [pipe for pipe in (*self.pipes, here) if pipe is not None]
        process = self.context.Process(
            target=_serve,
            args=(there, theirs, self.setup, self.hungry, self.stopping, os.getpid()),
            name=f"kamicp-worker-{w}",
            daemon=True,
        )
        self.processes[w], self.pipes[w] = process, here  # close() ends it, however started
        try:
            with held_signals():  # see kamicp.procs.child.Child: a signal within a fork is lost
                process.start()
        finally:
            there.close()

    def pids(self) -> list[int]:
        """The workers' process ids, as they are now."""
        return [p.pid for p in self.processes if p is not None]

    def send(self, w: int, job: Job) -> None:
        try:
            _send(self.pipes[w], job)
        except (BrokenPipeError, OSError):  # died while idle: a new one takes the job
            self.restart(w)
            _send(self.pipes[w], job)

    def receive(self, timeout: float | None) -> tuple[int, Answer | None] | None:
        ready = wait([p for p in self.pipes if p is not None], timeout)
        for pipe in ready:
            w = self.pipes.index(pipe)
            try:
                with held_signals():  # a message is read whole (Ctrl-C waits for it)
                    answer = pipe.recv()
            except (EOFError, OSError):  # the process died: its job is lost
                pipe.close()
                self.pipes[w] = None
                return w, None
            if isinstance(answer, Exception):
                raise answer
            return w, answer
        return None

    def how_lost(self, w: int) -> str:
        """How worker ``w`` ended, in words."""
        process = self.processes[w]
        process.join(timeout=1.0)
        return death(process.exitcode) if process.exitcode is not None else "how is not known"

    def restart(self, w: int) -> None:
        old = self.processes[w]
        if old is not None and old.pid is not None:
            old.kill()
            old.join()
        if self.pipes[w] is not None:
            self.pipes[w].close()
        self.fork(w)

    def set_hungry(self, hungry: bool) -> None:
        self.hungry.value = int(hungry)

    def stop(self) -> None:
        self.stopping.value = 1

    def close(self) -> None:
        self.stopping.value = 1
        for pipe in self.pipes:
            if pipe is None:
                continue
            try:
                _send(pipe, None)  # an idle worker reads it and exits
            except (BrokenPipeError, OSError):
                pass
            pipe.close()
        # a worker inside one costly check reads neither its pipe nor the flag for a while:
        # all of them get CLOSE_SECONDS together, then SIGKILL (a stopped command must end
        # within a second)
        end = time.monotonic() + CLOSE_SECONDS
        started = [p for p in self.processes if p is not None and p.pid is not None]
        for process in started:
            process.join(timeout=max(0.0, end - time.monotonic()))
        for process in started:
            if process.is_alive():
                process.kill()
                process.join()


def _send(pipe: Connection, message: Job | None) -> None:
    """Send one message whole: Ctrl-C and SIGTERM wait until it is written."""
    with held_signals():
        pipe.send(message)


def _serve(
    pipe: Connection, theirs: list, setup: WorkerSetup, hungry, stopping, parent: int
) -> None:
    """A worker process: answer the jobs of ``pipe`` until it closes (``theirs``: the
    coordinator's pipe ends, copied by the fork, closed here)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the coordinator's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the coordinator's handler, forked
    for end in theirs:
        end.close()
    search = setup.search(lambda: hungry.value, lambda: stopping.value)
    search.parent = parent
    while True:
        try:
            job = pipe.recv()
        except (EOFError, OSError):
            return
        if job is None:  # the run is over
            return
        try:
            answer = search.answer(job)
        except Exception as bug:  # the coordinator raises it: a bug stops the run
            answer = bug
        try:
            pipe.send(answer)
        except (BrokenPipeError, OSError):
            return
