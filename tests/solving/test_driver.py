"""The solve driver (kamicp.solving.driver): islands solved apart, IDA* started below the
beam's solution, deep boards, and the bounds kept when Ctrl-C stops a solve.
"""

from __future__ import annotations

import os
import signal

import pytest

from kamicp import bounds
from kamicp.game import rules
from kamicp.game.regions import from_edges
from kamicp.procs import progress
from kamicp.search import ida as idastar_module
from kamicp.search.bfs import bfs
from kamicp.solving import driver, upper_bound
from kamicp.solving.solve import SolveOptions, solve
from tests.solving.helpers import EXACT, holes


@pytest.mark.parametrize("solver", EXACT)
def test_islands_decompose_by_final_colour(solver):
    # Three pieces that never merge: a-b-a, a lone b, b-a-b; they must end in one colour,
    # so the driver solves each piece per final colour and adds up.
    g = from_edges([0, 1, 0, 1, 1, 0, 1], [(0, 1), (1, 2), (4, 5), (5, 6)])
    assert len(g.islands) == 3
    ref = bfs(g)
    r = solve(g, solver)
    assert r.status == "optimal" and r.moves == len(ref.moves)
    rules.verify_solution(g, r.solution)


def test_idastar_starts_below_the_beams_solution(monkeypatch):
    # The beam's solution is the first upper bound: IDA* is asked for one move fewer, and a
    # complete search without a solution proves the beam's solution optimal.
    asked = []
    real = idastar_module.idastar

    def spy(g, **kwargs):
        asked.append(kwargs["max_moves"])
        return real(g, **kwargs)

    monkeypatch.setattr(idastar_module, "idastar", spy)
    g = from_edges([0, 1, 2, 0, 1, 2, 0], [(i, i + 1) for i in range(6)])
    beam = upper_bound.greedy_solution(g, None)
    r = solve(g, "idastar")
    assert asked == [len(beam) - 1]
    assert r.status == "optimal" and r.moves == len(bfs(g).moves)


def test_the_portfolio_gives_both_processes_to_idastar_on_a_deep_board(monkeypatch):
    # a path of 16 regions in two colours: start bound 8 (its radius), colour bound 1
    splits = []
    real = idastar_module.parallel_idastar

    def spy(*args, **kwargs):
        splits.append(kwargs["options"].split_after)
        return real(*args, **kwargs)

    monkeypatch.setattr(idastar_module, "parallel_idastar", spy)
    path = from_edges([v % 2 for v in range(16)], [(v, v + 1) for v in range(15)])
    assert driver.is_deep(path, bounds.lower_bound(path))
    r = solve(path, options=SolveOptions(time_limit=60))
    assert r.solver == "portfolio" and r.proof.startswith("deep board, 2 processes: idastar")
    assert splits == [driver.DEEP_SPLIT_AFTER] == [0.0]  # split at once: the proof runs long
    assert r.status == "optimal" and r.moves == len(bfs(path).moves) == 8
    assert driver.is_deep(path, bounds.lower_bound(path, final_colour=1), 1)
    assert not driver.is_deep(path, driver.DEEP_GAP)  # a start bound of 6 is 5 above
    # a star of six colours: start bound 5 (colours), colour bound 5: the two backends
    star = from_edges([0, 1, 2, 3, 4, 5], [(0, v) for v in range(1, 6)])
    assert not driver.is_deep(star, bounds.lower_bound(star))
    r = solve(star, options=SolveOptions(time_limit=60))
    assert not r.proof.startswith("deep board") and r.status == "optimal" and r.moves == 5


def test_an_interrupted_solve_keeps_the_bounds_told(monkeypatch):
    g = holes()

    def interrupted(*args):  # IDA* has passed threshold 5, then Ctrl-C
        progress.tell(5, None)
        raise KeyboardInterrupt

    monkeypatch.setattr(driver, "solve_reference", interrupted)
    r = solve(g, "idastar")
    assert r.lower_bound == 5 and "interrupted" in r.proof  # not the start's 4
    assert r.status in ("optimal", "unknown") and (r.status == "optimal") == (r.moves == 5)


def test_a_ctrl_c_a_driver_answers_is_still_noted(monkeypatch, ctrl_c_raises):
    # The exact drivers catch Ctrl-C and answer with their bounds; solve() must still say
    # that it was interrupted, so that callers running more solves (a multi-puzzle file,
    # cross-check, --first-moves) stop.
    g = holes()
    plain = solve(g, "greedy")
    assert not plain.interrupted

    def answers_anyway(*args):
        try:
            os.kill(os.getpid(), signal.SIGINT)
            signal.sigtimedwait([], 0.1)  # let the handler run
        except KeyboardInterrupt:
            pass
        return upper_bound.finish(plain.solution, 4, None, "bounds only")

    monkeypatch.setattr(driver, "solve_reference", answers_anyway)
    r = solve(g, "idastar")
    assert r.interrupted and r.moves == plain.moves
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # restored


def test_an_error_after_a_signal_answers_as_interrupted(monkeypatch):
    # Ctrl-C inside an LLVM callback of Numba's compiler is swallowed there, and the loop it
    # left half made fails at the next compile: the run still answers with its bounds
    from kamicp import jit

    def swallowed_then_half_made(*args, **kwargs):
        try:
            signal.raise_signal(signal.SIGINT)
        except KeyboardInterrupt:
            pass
        raise RuntimeError("no compiled object yet for <Library 'one_more_move'>")

    monkeypatch.setattr(bounds, "lower_bound", swallowed_then_half_made)
    monkeypatch.setattr(jit, "_broken", [False])
    g = from_edges([0, 1, 2, 3, 0], [(i, i + 1) for i in range(4)])
    r = driver.drive(g, "idastar", SolveOptions())
    assert (r.status, r.lower_bound, r.proof, r.interrupted) == ("unknown", 3, "interrupted", True)
    with pytest.raises(jit.NotCompiled):  # and no compiled loop is trusted after it
        with jit.no_compiling():
            pass


def test_an_error_without_a_signal_is_a_bug(monkeypatch):
    from kamicp.errors import InternalError

    def broken(*args, **kwargs):
        raise RuntimeError("no compiled object yet for <Library 'one_more_move'>")

    monkeypatch.setattr(bounds, "lower_bound", broken)
    g = from_edges([0, 1, 2, 3, 0], [(i, i + 1) for i in range(4)])
    with pytest.raises(InternalError, match="internal error in idastar"):
        driver.drive(g, "idastar", SolveOptions())
