"""Solves and hints for the page, each in a child process: bounds as proved, and cancel.

A job runs :func:`kamicp.solve` (from the start) or :func:`kamicp.solving.hint.hint` (from
the moves played) in a forked child (:class:`kamicp.procs.child.Child`), so the server
answers while it runs and a cancel is a kill. The child hears the bounds its solve proves
(:func:`kamicp.procs.progress.watched`) and sends each on its pipe; the page asks for them
every 250 ms (:meth:`Jobs.get`) and the server reads what has come, without waiting. Asked,
not streamed: uvicorn waits for open responses when it stops, so an event stream held open
would hold up Ctrl-C, and a poll costs one small request. Children die with the server
(:func:`kamicp.procs.child.die_with_parent`).
"""

from __future__ import annotations

import itertools
import multiprocessing as mp
import os
import stat
import time
from dataclasses import dataclass, field

from kamicp.errors import KamicpError
from kamicp.game.board import Board
from kamicp.game.regions import region_graph
from kamicp.procs.child import ERROR, RESULT, Child, answer
from kamicp.procs.progress import watched
from kamicp.solving.hint import hint
from kamicp.solving.options import DEFAULT_SOLVER, SOLVERS, SolveOptions
from kamicp.solving.solve import solve
from kamicp.web.page import hint_json, result_json

__all__ = ["GRACE", "KINDS", "MOST_JOBS", "Job", "Jobs", "JobSpec"]

KINDS = ("solve", "hint")

# Jobs running at once: each may use every core (the portfolio runs two backends), so more
# would only slow each other; a page runs one job at a time, so this serves a few pages.
MOST_JOBS = 4

# Seconds a job may run past its time limit before it is killed: a solve stops on its own
# within the portfolio's grace (0.5 s) of its limit, and a loaded machine may need the rest
# to send the answer.
GRACE = 2.0


@dataclass(frozen=True)
class JobSpec:
    """What a job computes: ``kind`` (solve or hint) on ``board`` after ``moves``."""

    kind: str
    board: Board
    moves: tuple = ()
    solver: str = DEFAULT_SOLVER
    time_limit: float = 60.0

    def check(self) -> None:
        """Say why the job cannot run, if it cannot.

        Raises
        ------
        kamicp.errors.KamicpError
            An unknown kind or solver, or a time limit not in (0, 3600] seconds.
        """
        if self.kind not in KINDS:
            raise KamicpError(f"unknown job {self.kind!r} (one of {', '.join(KINDS)})")
        if self.solver not in SOLVERS:
            raise KamicpError(f"unknown solver {self.solver!r} (one of {', '.join(SOLVERS)})")
        if not 0 < self.time_limit <= 3600:
            raise KamicpError("the time limit must be more than 0 and at most 3600 seconds")


class _Relay:
    """In the child: each bound and status line the solve tells, sent on the pipe."""

    def __init__(self, conn):
        self.conn = conn

    def __call__(self, lower, best):
        self.conn.send(("progress", (lower, None if best is None else len(best))))

    def status(self, text: str) -> None:
        self.conn.send(("status", text))


def _drop_sockets() -> None:
    """In the child: let go of the server's sockets it inherited (the listening socket, the
    browser's connections), each fd pointed at /dev/null instead. A connection the server
    closes is then closed for the browser too; the child holding it would leave the browser
    sending on it to nobody. The fd numbers stay taken, so an old socket object closes
    /dev/null, never a pipe of the solve's. Linux (``/proc/self/fd``); elsewhere nothing."""
    try:
        fds = [int(fd) for fd in os.listdir("/proc/self/fd")]
    except OSError:
        return
    null = os.open(os.devnull, os.O_RDWR)
    for fd in fds:
        try:
            if fd != null and stat.S_ISSOCK(os.fstat(fd).st_mode):
                os.dup2(null, fd)
        except OSError:
            pass  # the fd of the listing itself, closed by now
    os.close(null)


def _work(conn, spec: JobSpec) -> None:
    """In the child: run the job, telling bounds as they come, and answer its JSON."""
    _drop_sockets()

    def run() -> dict:
        with watched(_Relay(conn)):
            if spec.kind == "hint":
                h = hint(spec.board, list(spec.moves), spec.solver, spec.time_limit)
                return hint_json(spec.board, list(spec.moves), h)
            options = SolveOptions(time_limit=spec.time_limit)
            return result_json(spec.board, solve(region_graph(spec.board), spec.solver, options))

    answer(conn, run, Exception)


@dataclass
class Job:
    """One running or finished job, and what it has told."""

    id: str
    spec: JobSpec
    child: Child
    started: float = field(default_factory=time.monotonic)
    state: str = "running"  # running, done, failed, cancelled
    lower: int | None = None
    upper: int | None = None
    line: str = ""  # the last status line
    result: dict | None = None
    error: str | None = None
    ended: float | None = None

    def _take(self, kind: str, value) -> None:
        if kind == "progress":
            lower, upper = value
            if lower is not None and (self.lower is None or lower > self.lower):
                self.lower = lower
            if upper is not None and (self.upper is None or upper < self.upper):
                self.upper = upper
        elif kind == "status":
            self.line = str(value)
        elif kind == RESULT:
            self._end("done")
            self.result = value
            self.lower = value.get("lower", self.lower)
            self.upper = value.get("upper", self.upper)
        elif kind == ERROR:
            self._end("failed")
            self.error = str(value)

    def _end(self, state: str) -> None:
        self.state = state
        self.ended = time.monotonic()
        self.child.stop()

    def read(self) -> None:
        """Take in what the child has sent so far, without waiting.

        A job past its time limit (plus :data:`GRACE`) is ended as cancelled, and one whose
        child died without an answer as failed; O(messages waiting).
        """
        while self.state == "running":
            try:
                if not self.child.conn.poll(0):
                    break
            except OSError:
                break
            message = self.child.receive()
            if message is None:
                self._end("failed")
                self.error = "the solve stopped without an answer"
                break
            self._take(*message)
        overdue = time.monotonic() - self.started > self.spec.time_limit + GRACE
        if self.state == "running" and overdue:
            self._end("cancelled")
            self.error = "stopped at the time limit"

    def cancel(self) -> None:
        """Kill the child and its descendants (SIGKILL); the bounds told so far stay.

        Nothing happens to a job that has ended.
        """
        self.read()
        if self.state == "running":
            self._end("cancelled")

    def to_json(self) -> dict:
        """The job as the page polls it.

        Returns
        -------
        dict
            ``id``, ``kind``, ``state`` (running, done, failed, cancelled), the bounds told
            so far (``lower``, ``upper``: the length of the best solution), the last status
            ``line``, ``seconds`` since the start, ``result`` (from
            :func:`~kamicp.web.page.result_json` or :func:`~kamicp.web.page.hint_json`)
            or ``error``.
        """
        end = self.ended if self.ended is not None else time.monotonic()
        return {
            "id": self.id,
            "kind": self.spec.kind,
            "state": self.state,
            "lower": self.lower,
            "upper": self.upper,
            "line": self.line,
            "seconds": round(end - self.started, 2),
            "result": self.result,
            "error": self.error,
        }


class Jobs:
    """The jobs of one server, by id. Finished jobs are forgotten after ``keep`` seconds."""

    def __init__(self, keep: float = 600.0):
        self.jobs: dict[str, Job] = {}
        self.keep = keep
        self.ids = itertools.count(1)

    def start(self, spec: JobSpec) -> Job:
        """Start ``spec`` in a child process.

        Parameters
        ----------
        spec : JobSpec
            What to compute.

        Returns
        -------
        Job
            The running job.

        Raises
        ------
        kamicp.errors.KamicpError
            When the spec is wrong, or :data:`MOST_JOBS` jobs run already.
        """
        spec.check()
        self.forget()
        if sum(job.state == "running" for job in self.jobs.values()) >= MOST_JOBS:
            raise KamicpError(f"{MOST_JOBS} solves are running: cancel one first")
        child = Child(mp.get_context("fork"), _work, (spec,))
        job = Job(str(next(self.ids)), spec, child)
        self.jobs[job.id] = job
        return job

    def get(self, job_id: str) -> Job:
        """The job ``job_id``, its news read in.

        Parameters
        ----------
        job_id : str
            The id :meth:`start` gave it.

        Returns
        -------
        Job

        Raises
        ------
        kamicp.errors.KamicpError
            When there is no such job.
        """
        job = self.jobs.get(job_id)
        if job is None:
            raise KamicpError(f"no job {job_id!r}")
        job.read()
        return job

    def forget(self) -> None:
        """Drop the jobs that ended more than ``keep`` seconds ago."""
        now = time.monotonic()
        for job_id, job in list(self.jobs.items()):
            job.read()
            if job.ended is not None and now - job.ended > self.keep:
                del self.jobs[job_id]

    def stop_all(self) -> None:
        """Cancel every running job (the server stops)."""
        for job in self.jobs.values():
            job.cancel()
