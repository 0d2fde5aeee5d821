"""IDA* on many workers (kamicp.search.ida.engine, local processes) against the BFS oracle.

Every iteration goes to the workers from the first moment (``split_after=0``) and a task
splits as soon as it has expanded its own state while a worker is idle, so tasks, splits,
resumed parts and the shared bounds are exercised even on small boards. Same optimum as
BFS, every solution replays, one move fewer is refuted; a worker killed in the middle of a
task costs that task only.
"""

from __future__ import annotations

import os
import re
import signal
import time
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kamicp.game import rules
from kamicp.game.regions import from_edges
from kamicp.search import ida as idastar_module
from kamicp.search.bfs import bfs
from kamicp.search.ida import engine, tasks
from kamicp.search.ida import search as ida_search
from kamicp.search.ida.checks import AUTO
from kamicp.search.ida.engine import PARALLEL, PoolIda, parallel_idastar
from kamicp.search.ida.local import LocalWorkers
from kamicp.solving.options import SolveOptions
from kamicp.solving.solve import solve
from tests.strategies import oracle, region_graphs

FINALS = st.none() | st.integers(0, 7)
PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
THREES = from_edges([0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2], [(i, i + 1) for i in range(11)])
# a 6x5 grid whose proof takes about fifty tasks on two workers
GRID = [3, 3, 0, 2, 3, 3, 2, 3, 2, 1, 1, 2, 1, 0, 2, 1, 2, 0, 0, 2, 3, 0, 2, 3, 2, 1, 3, 3, 2, 0]
FIFTY = from_edges(
    GRID,
    [(r * 6 + c, r * 6 + c + 1) for r in range(5) for c in range(5)]
    + [(r * 6 + c, (r + 1) * 6 + c) for r in range(4) for c in range(6)],
)


@pytest.fixture(autouse=True)
def split_at_once(monkeypatch):
    monkeypatch.setattr(tasks, "TASK_SPLIT", 0.0)  # the workers are forked: they see it


def soon(seconds: float = 60) -> float:
    """A deadline far above what these boards need: a bug shows as a failure, not a hang."""
    return time.monotonic() + seconds


def check_against_bfs(g, final, workers=None, **options):
    ref = oracle(g, final)
    out = parallel_idastar(
        g,
        final_colour=final,
        deadline=soon(),
        options=replace(PARALLEL, split_after=0.0, **options),
        workers=workers,
    )
    assert out.complete
    if ref.moves is None:
        assert out.moves is None
        return
    opt = len(ref.moves)
    assert len(out.moves) == opt == out.lower_bound
    rules.verify_solution(g, out.moves, final)
    if opt:
        below = parallel_idastar(
            g,
            final_colour=final,
            max_moves=opt - 1,
            deadline=soon(),
            options=replace(PARALLEL, split_after=0.0, **options),
        )
        assert below.complete and below.moves is None and below.lower_bound >= opt


@PROPERTY
@given(region_graphs(max_cells=20, max_colours=4), FINALS)
def test_same_optimum_as_bfs(g, choice):
    check_against_bfs(g, None if choice is None else choice % g.k)


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=20, max_colours=4, rules=("free",)), FINALS)
def test_same_optimum_with_tetrapod_checks(g, choice):
    check_against_bfs(g, None if choice is None else choice % g.k, tetrapod_depth=4)


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=20, max_colours=4, rules=("free",)), FINALS)
def test_same_optimum_with_checks_rented_in_the_workers(g, choice):
    check_against_bfs(g, None if choice is None else choice % g.k, tetrapod_depth=AUTO)


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=20, max_colours=4), FINALS)
def test_same_optimum_on_four_workers(g, choice):
    check_against_bfs(g, None if choice is None else choice % g.k, workers=LocalWorkers(4))


def test_limits_claim_only_what_is_proved():
    opt = len(bfs(THREES).moves)
    for out in (
        parallel_idastar(
            THREES, deadline=time.monotonic() - 1, options=replace(PARALLEL, split_after=0.0)
        ),
        parallel_idastar(THREES, node_limit=3, options=replace(PARALLEL, split_after=0.0)),
    ):
        assert out.lower_bound <= opt
        if out.moves is not None:
            rules.verify_solution(THREES, out.moves)
            assert not out.complete or len(out.moves) == opt


def test_solve_passes_workers_to_idastar(monkeypatch):
    g = from_edges([0, 1, 2, 1, 0, 2, 1, 0], [(i, i + 1) for i in range(7)])
    seen = []
    real = idastar_module.parallel_idastar

    def spy(*args, **kwargs):
        seen.append((kwargs["options"].workers, kwargs["options"].tetrapod_depth))
        return real(*args, **kwargs)

    monkeypatch.setattr(idastar_module, "parallel_idastar", spy)
    r = solve(g, "idastar", SolveOptions(workers=2, tetrapod_depth=1))
    one = solve(g, "idastar")
    assert r.status == one.status == "optimal" and r.moves == one.moves
    assert seen == [(2, 1)]


class Killing(LocalWorkers):
    """Local workers of which one is killed with SIGKILL as its ``nth`` job is sent (first
    the kill, then the job: the job is lost whatever the timing)."""

    def __init__(self, size: int, nth: int):
        super().__init__(size)
        self.nth, self.sent, self.killed = nth, 0, []

    def send(self, w, job):
        self.sent += 1
        if self.sent == self.nth:
            process = self.processes[w]
            os.kill(process.pid, signal.SIGKILL)
            process.join()
            self.killed.append(process.pid)
        super().send(w, job)


@pytest.mark.parametrize("nth", [1, 2, 20])
def test_a_worker_killed_in_the_middle_of_a_task_costs_only_that_task(nth):
    workers = Killing(2, nth)
    ref = idastar_module.idastar(FIFTY)  # one process (BFS takes half a minute here)
    out = parallel_idastar(
        FIFTY, deadline=soon(), options=replace(PARALLEL, split_after=0.0), workers=workers
    )
    assert workers.killed, "no job was sent to be killed"
    assert out.complete and len(out.moves) == len(ref.moves)
    rules.verify_solution(FIFTY, out.moves)
    alive = [p.pid for p in workers.processes if p is not None]
    assert workers.killed[0] not in alive  # replaced by a new worker


def test_the_status_line_says_where_the_workers_time_went(monkeypatch):
    lines = []
    monkeypatch.setattr(engine.PoolIda, "status", _status_and_note(lines))
    options = replace(PARALLEL, split_after=0.0, on_status=lambda line: None)
    monkeypatch.setattr(ida_search, "STATUS_EVERY", 0.0)  # a line at every answer
    out = parallel_idastar(THREES, deadline=soon(), options=options)
    assert out.complete
    worker_lines = [line for line in lines if "2 workers" in line]
    assert worker_lines
    pattern = r"2 workers: busy \d+% \(the least \d+%\), idle \d+%, waiting \d+%"
    assert re.search(pattern, worker_lines[-1])
    assert re.search(r"tasks \d+ answered \(\d+ split\), \d+ queued", worker_lines[-1])


def _status_and_note(lines):
    real = engine.PoolIda.status

    def status(self):
        line = real(self)
        lines.append(line)
        return line

    return status


def test_the_tally_of_a_run_adds_up():
    ida = PoolIda.of(THREES, None, None, soon(), replace(PARALLEL, split_after=0.0))
    out = ida.prove(None, 0, None)
    assert out.complete
    tally = ida.tally
    assert tally.tasks >= 1 and 0 < tally.nodes <= ida.nodes
    now = time.monotonic()
    busy, idle, waiting = tally.shares(2, now)
    assert 0 <= busy <= 1 and 0 <= idle <= 1 and 0 <= waiting <= 1
    assert 0 <= tally.least_busy(2, now) <= busy
    assert sum(tally.busy_by.values()) == pytest.approx(tally.busy)
