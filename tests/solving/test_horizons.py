"""The horizon drivers of sat and cpsat (kamicp.solving.horizons): every strategy agrees with
BFS, the probe keeps the optimum, and Ctrl-C is obeyed and noted.
"""

from __future__ import annotations

import os
import signal

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from kamicp import bounds
from kamicp.game import rules
from kamicp.game.board import Board
from kamicp.game.regions import from_edges, region_graph
from kamicp.models.sat.horizon import SatHorizon
from kamicp.procs import progress
from kamicp.procs.deadline import Deadline
from kamicp.search import pivot_astar
from kamicp.search.bfs import bfs
from kamicp.solving import horizons
from kamicp.solving.solve import SolveOptions, solve
from tests.fresh import run_fresh
from tests.seed import long_board
from tests.solving.helpers import EXACT, agree, holes
from tests.strategies import boards


@pytest.mark.parametrize("strategy", ["up", "down", "bisect"])
@pytest.mark.parametrize("solver", EXACT)
def test_every_horizon_strategy_agrees_with_bfs(solver, strategy):
    agree(solver, 60, strategy=strategy)


@pytest.mark.parametrize("solver", EXACT)
def test_ida_probe_keeps_the_optimum(solver):
    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(boards())
    def run(board):
        g = region_graph(board)
        ref = bfs(g)
        r = solve(g, solver, SolveOptions(probe=0.5))
        if ref.moves is None:
            assert r.status == "infeasible"
        else:
            assert r.status == "optimal" and r.moves == len(ref.moves)

    run()


def test_a_horizon_driver_stopped_by_ctrl_c_answers_as_idastar_does(monkeypatch, ctrl_c_raises):
    # sat and cpsat answer as idastar and the portfolio do, "unknown (interrupted)" (exit 3),
    # not "feasible" (exit 0), with the same solution and bounds.
    g = holes()  # start bound 4, optimum 5

    def stopped(self, clock, probe_seconds=0.0):
        os.kill(os.getpid(), signal.SIGINT)
        signal.sigtimedwait([], 0.1)  # let the handler raise here

    monkeypatch.setattr(horizons.Horizons, "optimum", stopped)
    r = solve(g, "sat")
    assert r.interrupted and (r.status, r.proof) == ("unknown", "interrupted")
    assert r.lower_bound == 4 and r.moves is not None and r.moves >= 5


# Run in a fresh interpreter, as a real `kamicp solve` is one process of its own: a process
# that has run hundreds of tests may carry signal state (handlers, masks, threads) that a
# real run never has.
CTRL_C_SCRIPT = """
import json, os, signal, subprocess, sys, threading
from kamicp.solving import horizons
from kamicp.solving.solve import solve
from kamicp.formats import load
from kamicp.game.regions import region_graph

g = region_graph(load(sys.argv[1])[0])
senders = []
decide = horizons.Horizons.decide

def signalled(self, horizon, clock):
    # Ctrl-C 1 s into the first horizon, from another process, as a terminal's
    if not senders:
        command = f"sleep 1; kill -INT {os.getpid()}"
        senders.append(subprocess.Popen(["sh", "-c", command]))
    return decide(self, horizon, clock)

horizons.Horizons.decide = signalled
r = solve(g, sys.argv[2])
blocked = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])
helpers = [t.name for t in threading.enumerate() if t.name == "interruptible" and t.is_alive()]
print(json.dumps([r.interrupted, r.status, r.proof, r.seconds, r.lower_bound, r.moves,
                  blocked, helpers]))
"""


@pytest.mark.parametrize("solver", ["sat", "cpsat"])
def test_ctrl_c_inside_a_solver_is_noted_and_ctrl_c_still_works(tmp_path, solver):
    # pysat and CP-SAT set SIGINT handlers of their own during a solve. Ctrl-C there must
    # be noted (not answered "feasible" with the file's next puzzle begun), must leave
    # SIGINT unblocked (later Ctrl-Cs still work), and must stop CP-SAT before the process
    # exits (else it aborts: exit code -6).
    board = long_board(tmp_path)  # first horizon 40 s with sat
    found = run_fresh(CTRL_C_SCRIPT, str(board), solver)
    interrupted, status, proof, seconds, lower, moves, blocked, helpers = found
    assert interrupted and (status, proof) == ("unknown", "interrupted")
    assert seconds < 60 and 10 <= lower <= moves <= 13
    assert not blocked and not helpers


def test_the_horizon_drivers_tell_the_beams_solution_before_the_first_horizon(monkeypatch):
    # --progress (and a contained run's parent) hears of the beam's solution before the
    # first horizon starts, which on a long board can take minutes to end
    g = holes()
    told = progress.Seen()
    at_first_horizon = []
    decide = horizons.Horizons.decide

    def noting(self, horizon, clock):
        at_first_horizon.append(told.best)
        return decide(self, horizon, clock)

    monkeypatch.setattr(horizons.Horizons, "decide", noting)
    with progress.watched(told):
        r = solve(g, "sat")
    assert r.status == "optimal" and r.moves == 5
    assert at_first_horizon and at_first_horizon[0] is not None


@pytest.mark.parametrize("strategy, beams", [("up", 0), ("down", 1), ("bisect", 1)])
def test_raising_the_horizon_from_a_known_solution_runs_no_beam(monkeypatch, strategy, beams):
    """``up`` needs no upper bound to choose its horizons: given a solution it starts at once;
    the others still look for a shorter first solution. All prove the optimum."""
    cycle = [(i, (i + 1) % 7) for i in range(7)]
    g = from_edges([2, 0, 2, 1, 2, 0, 1], cycle)
    known = bfs(g).moves
    longer = [(6, 2)] + known  # a solution one move too long
    rules.verify_solution(g, longer, None)
    calls = []
    real = horizons.greedy_solution

    def counted(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(horizons, "greedy_solution", counted)
    factory = lambda g, fc: SatHorizon(g, final_colour=fc)  # noqa: E731
    clock = Deadline.after(60)
    r = horizons.exact(g, factory, SolveOptions(strategy=strategy, known=longer), clock)
    assert r.status == "optimal" and r.moves == len(known)
    assert len(calls) == beams


def test_down_under_pivot_rules_shortens_its_solution_before_asking_the_model(monkeypatch):
    """The A* around the known solution finds the optimum; the model is then asked at most
    the horizon below it."""
    g = from_edges([0, 1, 2, 1, 0, 2, 1], [(i, i + 1) for i in range(6)], rules="pivot")
    long = [(0, 2), (0, 1), (0, 2), (0, 1), (0, 0), (0, 2), (0, 1)]
    rules.verify_solution(g, long, None)
    tried, asked = [], []
    real_shorten, real_decide = pivot_astar.shorten, SatHorizon.decide

    def shorten(g, moves, *args, **kwargs):
        tried.append(len(moves))
        return real_shorten(g, moves, *args, **kwargs)

    def decide(self, horizon, seconds):
        asked.append(horizon)
        return real_decide(self, horizon, seconds)

    monkeypatch.setattr(pivot_astar, "shorten", shorten)
    monkeypatch.setattr(SatHorizon, "decide", decide)
    factory = lambda g, fc: SatHorizon(g, final_colour=fc)  # noqa: E731
    clock = Deadline.after(60)
    h = horizons.Horizons(g, factory, None, "down", clock.at, beam=False)
    h.best = long
    assert h.optimum(clock)
    assert h.upper == h.lower == len(bfs(g).moves) == 6
    assert tried == [7, 6]  # each solution tried once
    assert asked in ([], [5])  # at most the refutation below the optimum


def test_down_under_pivot_rules_without_a_first_solution_asks_the_model():
    """No beam's solution (one stopped by its deadline, say): nothing to shorten, and the
    horizons are asked as before until the first solution."""
    g = from_edges([0, 1, 2, 1, 0, 2, 1], [(i, i + 1) for i in range(6)], rules="pivot")
    factory = lambda g, fc: SatHorizon(g, final_colour=fc)  # noqa: E731
    clock = Deadline.after(60)
    h = horizons.Horizons(g, factory, None, "down", clock.at, beam=False)
    assert h.best is None
    assert h.optimum(clock)
    assert h.upper == h.lower == len(bfs(g).moves)


@pytest.mark.parametrize("strategy", ["up", "down", "bisect"])
def test_a_bound_the_caller_proved_is_where_the_horizons_start(monkeypatch, strategy):
    """The portfolio hands its backends the compiled A*'s bound: no horizon below it is
    asked, and the optimum is still proved."""
    rng = np.random.default_rng(140)  # a start bound of 6, an optimum of 8
    cells = {(r, c): int(rng.integers(4)) for r in range(7) for c in range(7)}
    g = region_graph(Board(geometry="square", cells=cells, palette=tuple("RGBY"), rules="pivot"))
    optimum = len(bfs(g).moves)
    assert bounds.lower_bound(g) == 6
    asked = []
    real = SatHorizon.decide

    def decide(self, horizon, seconds):
        asked.append(horizon)
        return real(self, horizon, seconds)

    monkeypatch.setattr(SatHorizon, "decide", decide)
    factory = lambda g, fc: SatHorizon(g, final_colour=fc)  # noqa: E731
    r = horizons.exact(g, factory, SolveOptions(strategy=strategy, lower=7), Deadline.after(60))
    assert r.status == "optimal" and r.moves == optimum == 8
    assert min(asked, default=7) == 7
