"""Contained runs (kamicp.solving.contained): a time-limited SAT solve in a child process
gives the same answers, and keeps what it reported when it is stopped.
"""

from __future__ import annotations

import time

from kamicp.game.regions import from_edges
from kamicp.procs import progress
from kamicp.solving import contained
from kamicp.solving.solve import SolveOptions, solve
from tests.solving.helpers import agree


def test_time_limited_sat_runs_contained_and_agrees_with_bfs():
    # with a time limit the SAT driver runs in a child process (hard stop); same answers
    agree("sat", 40, time_limit=60)


def test_a_stopped_contained_run_keeps_the_bounds_it_reported(monkeypatch):
    g = from_edges([0, 1, 2, 0, 1, 2, 0], [(i, i + 1) for i in range(6)])
    found = solve(g, "bfs").solution  # the optimum, reported as a mere solution

    def hang(g, solver, options):  # reports a proved bound and a solution, never answers
        progress.contained_parent[0].send(("progress", (3, found)))

        time.sleep(60)

    monkeypatch.setattr(contained, "exact_run", hang)
    r = solve(g, "sat", SolveOptions(time_limit=0.5))
    assert r.status == "feasible" and r.proof == "time limit: bounds only"
    assert r.lower_bound == 3 and r.solution == found and r.upper_bound == len(found)
