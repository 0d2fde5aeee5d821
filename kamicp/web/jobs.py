"""Long computations of both pages (a solve, a hint, a check of par), and the protocol
that shows their progress: the page starts a job, then asks for it until it ends.

A job runs :func:`kamicp.solve` (from the start), :func:`kamicp.solving.hint.hint` (from
the moves played) or :func:`kamicp.web.par.checked` (a design's par) in a child process
(:class:`kamicp.web.children.JobChild`), so the server answers while it runs and a cancel
is a kill; the child tells the bounds its solve proves and its status lines.

The protocol, the same for both pages: a ``POST`` that starts a job (``/api/solve``,
``/api/hint``, ``/api/design/check``) answers it as JSON (:meth:`Job.to_json`); the page
asks ``GET /api/jobs/ID`` every 250 ms until its ``state`` is no longer ``running``, and
``DELETE /api/jobs/ID`` cancels it. The server reads what the child has sent, without
waiting. A job no page has asked for in :data:`ABANDONED` seconds (its page closed or
crashed) is cancelled by a sweep every :data:`SWEEP` seconds.

Asked, not streamed: each exchange is one short, complete JSON request under the one
endpoint wrapper (:mod:`kamicp.web.endpoints`), which a proxy passes on as it is, where a
stream held open may be buffered until it ends or cut by a proxy's idle timeout; a cancel
is a request the server answers with the bounds proved so far, not a closed connection it
has to notice (through a proxy it may never see it); uvicorn waits for open responses when
it stops, so a stream would hold up Ctrl-C; and a poll costs one small request.
"""

from __future__ import annotations

import contextlib
import itertools
import time
from dataclasses import dataclass, field

import anyio
from starlette.requests import Request

from kamicp.errors import KamicpError
from kamicp.game.board import Board
from kamicp.game.regions import region_graph
from kamicp.procs.child import ERROR, RESULT
from kamicp.solving.hint import hint
from kamicp.solving.options import DEFAULT_SOLVER, SOLVERS, SolveOptions
from kamicp.solving.solve import solve
from kamicp.web.children import CANCELLED, ENDED, LATE, START, JobChild
from kamicp.web.endpoints import route
from kamicp.web.page import hint_json, result_json
from kamicp.web.par import checked

__all__ = [
    "ABANDONED",
    "KINDS",
    "LONGEST",
    "MOST_JOBS",
    "SWEEP",
    "Job",
    "JobSpec",
    "Jobs",
    "jobs_of",
    "lifespan",
    "routes",
    "time_limit_of",
]

KINDS = ("solve", "hint", "check")
# The longest time limit of each kind, in seconds: the play page's solves and hints, the
# design page's check of par.
LONGEST = {"solve": 3600.0, "hint": 3600.0, "check": 600.0}

# Jobs running at once: each may use every core (the portfolio runs two backends), so more
# would only slow each other; a page runs one job at a time, so this serves a few pages.
MOST_JOBS = 4
# Seconds without a page asking for a running job before it is cancelled. A page asks every
# 250 ms, but a browser may slow a hidden tab's timers to one a minute.
ABANDONED = 120.0
SWEEP = 5.0  # seconds between two sweeps for abandoned jobs


def time_limit_of(data: dict, default: float) -> float:
    """The ``time_limit`` a request asks for, in seconds (``default`` when it asks none).

    Parameters
    ----------
    data : dict
        The request's JSON object.
    default : float
        Seconds.

    Returns
    -------
    float
        The limit; :meth:`JobSpec.check` says whether the job may run that long.

    Raises
    ------
    kamicp.errors.KamicpError
        When it is not a number.

    Examples
    --------
    >>> time_limit_of({"time_limit": 5}, 60), time_limit_of({}, 60)
    (5.0, 60.0)
    """
    limit = data.get("time_limit", default)
    if isinstance(limit, bool) or not isinstance(limit, (int, float)):
        raise KamicpError(f"the time limit must be a number of seconds, not {limit!r}")
    return float(limit)


@dataclass(frozen=True)
class JobSpec:
    """What a job computes: ``kind`` (solve, hint or check of par) on ``board`` after
    ``moves`` (a check judges ``board.par``)."""

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
            An unknown kind or solver, or a time limit not in (0, :data:`LONGEST`] seconds.
        """
        if self.kind not in KINDS:
            raise KamicpError(f"unknown job {self.kind!r} (one of {', '.join(KINDS)})")
        if self.solver not in SOLVERS:
            raise KamicpError(f"unknown solver {self.solver!r} (one of {', '.join(SOLVERS)})")
        longest = LONGEST[self.kind]
        if not 0 < self.time_limit <= longest:
            raise KamicpError(f"the time limit must be more than 0 and at most {longest:g} s")


def _computed(spec: JobSpec) -> dict:
    """In the child: the job's answer, as :func:`~kamicp.web.page.result_json`,
    :func:`~kamicp.web.page.hint_json` or :func:`~kamicp.web.par.checked` gives it."""
    if spec.kind == "check":
        return checked(spec.board, spec.time_limit)
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
    asked: float = field(default_factory=time.monotonic)  # when a page last asked for it
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

    def cancel(self, why: str | None = None) -> None:
        """Kill the child and its descendants (SIGKILL); the bounds told so far stay.

        Nothing happens to a job that has ended.

        Parameters
        ----------
        why : str, optional
            The job's ``error`` once cancelled (None: the page asked for it).
        """
        self.read()
        if self.state == "running":
            self.child.stop()
            self.read()
            self.error = why

    def to_json(self) -> dict:
        """The job as the page polls it.

        Returns
        -------
        dict
            ``id``, ``kind``, ``state`` (running, done, failed, cancelled), the bounds told
            so far (``lower``, ``upper``: the length of the best solution), the last status
            ``line``, ``seconds`` since the start, ``result`` (from
            :func:`~kamicp.web.page.result_json`, :func:`~kamicp.web.page.hint_json` or
            :func:`~kamicp.web.par.checked`) or ``error``.
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
        self.sweep()
        if sum(job.state == "running" for job in self.jobs.values()) >= MOST_JOBS:
            raise KamicpError(f"{MOST_JOBS} solves are running: cancel one first")
        child = JobChild(_computed, (spec,), spec.time_limit, self.context)
        job = Job(str(next(self.ids)), spec, child)
        self.jobs[job.id] = job
        return job

    def get(self, job_id: str) -> Job:
        """The job ``job_id``, its news read in; it counts as asked for now.

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
        job.asked = time.monotonic()
        job.read()
        return job

    def sweep(self) -> None:
        """Cancel the running jobs no page asked for in :data:`ABANDONED` seconds, and drop
        those that ended more than ``keep`` seconds ago; O(jobs)."""
        now = time.monotonic()
        for job_id, job in list(self.jobs.items()):
            if now - job.asked > ABANDONED:
                job.cancel(f"no page asked for it in {ABANDONED:g} s")
            job.read()
            if job.ended is not None and now - job.ended > self.keep:
                del self.jobs[job_id]

    def stop_all(self) -> None:
        """Cancel every running job (the server stops)."""
        for job in self.jobs.values():
            job.cancel()


def jobs_of(request: Request) -> Jobs:
    """The jobs of the application serving ``request`` (set up by :func:`lifespan`).

    Parameters
    ----------
    request : starlette.requests.Request

    Returns
    -------
    Jobs
    """
    return request.app.state.jobs


@contextlib.asynccontextmanager
async def lifespan(app):
    """The lifespan of an application with jobs: ``app.state.jobs`` (a new :class:`Jobs`
    unless the app has one) swept every :data:`SWEEP` seconds while it serves, and every
    running job cancelled when it stops.

    Parameters
    ----------
    app : starlette.applications.Starlette
        The application (its ``lifespan``).

    Yields
    ------
    None
    """
    if getattr(app.state, "jobs", None) is None:
        app.state.jobs = Jobs()
    running: Jobs = app.state.jobs

    async def sweeping() -> None:
        while True:
            await anyio.sleep(SWEEP)
            running.sweep()

    try:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(sweeping)
            try:
                yield
            finally:
                tasks.cancel_scope.cancel()
    finally:
        running.stop_all()


async def _asked(request: Request, body: dict) -> dict:
    """``GET /api/jobs/ID``: the job as it stands; ``DELETE``: cancelled first."""
    found = jobs_of(request).get(request.path_params["job"])
    if request.method == "DELETE":
        found.cancel()
    return found.to_json()


# The routes every page's jobs are asked for at (see the module docstring).
routes = [route("/api/jobs/{job}", _asked, methods=("GET", "DELETE"))]
