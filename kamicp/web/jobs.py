"""Solves and hints for the play page: what a job computes, and the job as the page polls it.

A job runs :func:`kamicp.solve` (from the start) or :func:`kamicp.solving.hint.hint` (from
the moves played) in a child process (:class:`kamicp.web.children.JobChild`), so the server
answers while it runs and a cancel is a kill; the child tells the bounds its solve proves
and its status lines. The page asks for them every 250 ms (:meth:`Jobs.get`) and the
server reads what has come, without waiting. Asked, not streamed: uvicorn waits for open
responses when it stops, so an event stream held open would hold up Ctrl-C, and a poll
costs one small request.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field

from kamicp.errors import KamicpError
from kamicp.game.board import Board
from kamicp.game.regions import region_graph
from kamicp.procs.child import ERROR, RESULT
from kamicp.solving.hint import hint
from kamicp.solving.options import DEFAULT_SOLVER, SOLVERS, SolveOptions
from kamicp.solving.solve import solve
from kamicp.web.children import CANCELLED, ENDED, LATE, START, JobChild
from kamicp.web.page import hint_json, result_json

__all__ = ["KINDS", "MOST_JOBS", "Job", "Jobs", "JobSpec"]

KINDS = ("solve", "hint")

# Jobs running at once: each may use every core (the portfolio runs two backends), so more
# would only slow each other; a page runs one job at a time, so this serves a few pages.
MOST_JOBS = 4


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


def _computed(spec: JobSpec) -> dict:
    """In the child: the job's answer, as :func:`~kamicp.web.page.result_json` or
    :func:`~kamicp.web.page.hint_json` gives it."""
    if spec.kind == "hint":
        h = hint(spec.board, list(spec.moves), spec.solver, spec.time_limit)
        return hint_json(spec.board, list(spec.moves), h)
    options = SolveOptions(time_limit=spec.time_limit)
    return result_json(spec.board, solve(region_graph(spec.board), spec.solver, options))


# A job's state and error, by how its child ended without an answer
_ENDS = {
    ENDED: ("failed", "the solve stopped without an answer"),
    LATE: ("cancelled", "stopped at the time limit"),
    CANCELLED: ("cancelled", None),
}


@dataclass
class Job:
    """One running or finished job, and what it has told."""

    id: str
    spec: JobSpec
    child: JobChild
    started: float = field(default_factory=time.monotonic)
    state: str = "running"  # running, done, failed, cancelled
    result: dict | None = None
    error: str | None = None
    ended: float | None = None

    def read(self) -> None:
        """Take in what the child has sent so far, without waiting.

        A job past its time limit (plus :data:`~kamicp.web.children.GRACE`) is ended as
        cancelled, and one whose child died without an answer as failed; O(messages
        waiting).
        """
        if self.state != "running":
            return
        end = self.child.poll()
        if end is None:
            return
        kind, value = end
        self.ended = time.monotonic()
        if kind == RESULT:
            self.state, self.result = "done", value
        elif kind == ERROR:
            self.state, self.error = "failed", str(value)
        else:
            self.state, self.error = _ENDS[kind]

    def cancel(self) -> None:
        """Kill the child and its descendants (SIGKILL); the bounds told so far stay.

        Nothing happens to a job that has ended.
        """
        self.read()
        if self.state == "running":
            self.child.stop()
            self.read()

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
        told = self.result or {}  # the answer's bounds, else those told on the way
        return {
            "id": self.id,
            "kind": self.spec.kind,
            "state": self.state,
            "lower": told.get("lower", self.child.lower),
            "upper": told.get("upper", self.child.upper),
            "line": self.child.line,
            "seconds": round(end - self.started, 2),
            "result": self.result,
            "error": self.error,
        }


class Jobs:
    """The jobs of one server, by id. Finished jobs are forgotten after ``keep`` seconds.

    Parameters
    ----------
    keep : float
        Seconds a finished job is kept.
    context : str
        How the children start (:class:`~kamicp.web.children.JobChild`).
    """

    def __init__(self, keep: float = 600.0, context: str = START):
        self.jobs: dict[str, Job] = {}
        self.keep = keep
        self.context = context
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
        child = JobChild(_computed, (spec,), spec.time_limit, self.context)
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
