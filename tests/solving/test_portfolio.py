"""The portfolio (kamicp.solving.portfolio): its backends' bounds combined, told bounds that
meet, and what an interrupted portfolio keeps.
"""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from kamicp.game.regions import from_edges, region_graph
from kamicp.procs import progress
from kamicp.result import Result
from kamicp.solving import portfolio
from kamicp.solving import solve as solve_module
from kamicp.solving.portfolio import Told, combine, solve_portfolio
from kamicp.solving.solve import SolveOptions, solve
from tests.seed import article_board
from tests.solving.helpers import agree, holes


def test_portfolio_agrees_with_bfs():
    agree("portfolio", 25)


@pytest.mark.parametrize("backend", ["sat", "cpsat", "idastar"])
def test_each_portfolio_backend_proves_alone(backend):
    # A backend that fails inside the portfolio (say, cannot start its own process) must
    # not hide behind the others: each one alone proves the article graph's optimum.
    g = region_graph(article_board())
    r = solve_portfolio(g, SolveOptions(time_limit=60), backends=(backend,))
    assert r.status == "optimal" and r.moves == 5, r.proof


def test_portfolio_bounds_that_meet_are_optimal():
    g = from_edges([0, 1, 0], [(0, 1), (1, 2)])
    moves = [(1, 0)]
    a = Result("feasible", moves, 0, 1, "sat")
    b = Result("unknown", None, 1, None, "idastar")
    r = combine([a, b], g)
    assert r.status == "optimal" and r.lower_bound == r.upper_bound == 1


def test_portfolio_status_follows_thecombined_bounds():
    # A backend stopped before its search reports its beam's solution as "unknown"; the
    # combination still has a solution, so it is "feasible" (a yes to --max-moves 2, no
    # answer to --max-moves 0).
    g = from_edges([0, 1, 2, 0], [(0, 1), (1, 2), (2, 3)])
    moves = solve(g, "bfs").solution
    a = Result("unknown", moves, 1, len(moves), "sat")
    assert combine([a], g).status == "feasible"
    assert combine([a], g, max_moves=len(moves)).status == "feasible"
    assert combine([a], g, max_moves=len(moves) - 1).status == "unknown"
    assert combine([a], g, max_moves=len(moves)).upper_bound == len(moves)


def test_portfolio_stops_when_the_told_bounds_meet(monkeypatch):
    # Neither backend finishes: one reports a proved lower bound, the other a solution of
    # that length. The portfolio must answer "optimal" from the two reports at once.
    g = from_edges([0, 1, 2, 0, 1, 2, 0], [(i, i + 1) for i in range(6)])
    found = solve(g, "bfs").solution

    def hang(g, backend, options):
        progress.tell(len(found), None) if backend == "idastar" else progress.tell(None, found)

        time.sleep(60)

    monkeypatch.setattr(portfolio, "drive", hang)  # the backends' driver
    r = solve_portfolio(g, SolveOptions(time_limit=30))
    assert r.status == "optimal" and r.solution == found
    assert r.proof == f"lower bound {len(found)} (idastar) meets a solution (sat)"


def test_portfolio_names_the_start_bound_a_solution_meets(monkeypatch):
    # the caller's admissible bound is the first lower bound; a backend's solution of that
    # length settles it; a bound above max_moves settles it before any backend starts
    g = from_edges([0, 1, 2, 0, 1, 2, 0], [(i, i + 1) for i in range(6)])
    found = solve(g, "bfs").solution

    def hang(g, backend, options):
        if backend == "idastar":
            progress.tell(None, found)

        time.sleep(60)

    monkeypatch.setattr(portfolio, "drive", hang)  # the backends' driver
    r = portfolio.solve_portfolio(g, SolveOptions(time_limit=30), start_bound=len(found))
    assert r.status == "optimal" and r.solution == found
    assert r.proof == f"lower bound {len(found)} (admissible bound) meets a solution (idastar)"

    def no_fork(*args):
        raise AssertionError("a backend started")

    monkeypatch.setattr(portfolio.mp, "get_context", no_fork)
    r = portfolio.solve_portfolio(g, SolveOptions(max_moves=len(found) - 1), start_bound=len(found))
    assert r.status == "infeasible" and r.lower_bound == len(found)
    assert r.proof == f"lower bound {len(found)} (admissible bound) above {len(found) - 1} moves"


def test_an_interrupted_portfolio_keeps_its_backends_bounds(monkeypatch, ctrl_c_raises):
    # Ctrl-C reaches the portfolio while its backends run: the bounds they told are kept.
    g = holes()

    def hang(g, backend, options):  # in the backends: one proved bound, then nothing
        if backend == "idastar":
            progress.tell(5, None)

        time.sleep(60)

    monkeypatch.setattr(portfolio, "drive", hang)  # the backends' driver, not the parent's
    timer = threading.Timer(2.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        r = solve(g, "portfolio", SolveOptions(time_limit=30))
    finally:
        timer.cancel()
    assert r.lower_bound == 5 and "interrupted" in r.proof and r.seconds < 20


def test_told_bounds():
    moves = [(1, 0), (2, 1)]
    told = Told()
    assert told.add("sat", 1, moves) is None  # 1 < 2: not yet
    assert told.add("idastar", 2, None).status == "optimal"
    told = Told(max_moves=1)
    assert told.add("sat", None, moves) is None
    r = told.add("idastar", 2, None)
    assert r.status == "infeasible" and r.lower_bound == 2


def test_portfolio_backends_get_one_process_each(monkeypatch):
    # the portfolio already runs one process a backend: an idastar pool inside it would put
    # three searches on two cores
    g = from_edges([0, 1, 2, 1, 0, 2, 1, 0], [(i, i + 1) for i in range(7)])
    seen = []

    def spy(g, options, backends=(), start_bound=0, first=None):
        seen.append((options.workers, options.strategy, options.tetrapod_depth))
        return solve(g, "idastar")

    monkeypatch.setattr(solve_module, "solve_portfolio", spy)
    options = SolveOptions(workers=2, strategy="up", tetrapod_depth=2)
    assert solve(g, "portfolio", options).status == "optimal"
    assert seen == [(1, "up", 2)]  # the sat backend's strategy, the idastar backend's depth
