"""The first solution (kamicp.solving.upper_bound): the quick and wide greedy beams, their
deadlines, and what they hand the exact solvers.
"""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kamicp import formats
from kamicp.game import rules
from kamicp.game.regions import from_edges, region_graph
from kamicp.procs.deadline import Deadline, LimitReached
from kamicp.search import greedy as greedy_module
from kamicp.search.bfs import bfs
from kamicp.solving import driver, horizons, upper_bound
from kamicp.solving.solve import SolveOptions, solve
from tests.seed import article_board
from tests.solving.helpers import spy_on, widths
from tests.strategies import boards


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(boards(), st.integers(1, 64), st.one_of(st.none(), st.integers(0, 7)))
def test_a_wider_greedy_beam_is_never_longer_and_replays(board, width, final_choice):
    g = region_graph(board)
    final = None if final_choice is None else final_choice % g.k
    quick = solve(g, "greedy", SolveOptions(final_colour=final))
    wide = solve(g, "greedy", SolveOptions(final_colour=final, beam_width=width))
    if quick.solution is None:
        assert wide.solution is None
        return
    rules.verify_solution(g, wide.solution, final)
    assert wide.moves <= quick.moves
    assert wide.lower_bound <= len(bfs(g, final_colour=final).moves) <= wide.moves


def test_a_wide_beam_stops_at_the_deadline_and_the_quick_one_stays(monkeypatch):
    # --solver greedy --beam-width N --time-limit S: the wide beam is stopped (before any
    # move of any beam once the deadline has passed), the quick beam's solution is kept
    g = region_graph(formats.load("puzzles/square/holes.txt")[0])
    with pytest.raises(LimitReached):
        greedy_module.greedy(g, None, 64, deadline=time.monotonic())
    quick = greedy_module.greedy(g, None, driver.WIDTH)
    assert upper_bound.greedy_solution(g, None, 64, deadline=time.monotonic()) == quick
    assert 64 not in {w for _, w in upper_bound._BEAMS[g]}  # nothing half-done is remembered
    past = Deadline(time.monotonic())  # as if the time limit had run out during the bounds
    monkeypatch.setattr(driver, "Deadline", SimpleNamespace(after=lambda limit: past))
    r = solve(g, "greedy", SolveOptions(time_limit=1, beam_width=64))
    assert r.solution == quick and r.status == "feasible"


def test_the_exact_models_start_from_the_quick_beam_when_time_is_up():
    # the width-32 beam at the start of sat/cpsat/idastar runs within the time limit too
    g = region_graph(formats.load("puzzles/square/holes.txt")[0])
    quick = upper_bound.greedy(g, None, driver.WIDTH)
    h = horizons.Horizons(g, horizons.horizon_factory("sat"), None, deadline=time.monotonic())
    assert h.best == quick and upper_bound.UPPER_WIDTH not in {w for _, w in upper_bound._BEAMS[g]}
    h = horizons.Horizons(g, horizons.horizon_factory("sat"), None)
    wide = upper_bound.UPPER_WIDTH
    assert len(h.best) <= len(quick) and wide in {w for _, w in upper_bound._BEAMS[g]}


@pytest.mark.parametrize("solver", ["idastar", "sat", "cpsat", "astar", "portfolio"])
def test_beam_width_sets_the_exact_solvers_start_beam(monkeypatch, solver):
    # --beam-width N with a solver other than greedy: the first solution comes from a beam
    # max(N, 32) wide; the answer is still the optimum, proved
    monkeypatch.setattr(upper_bound, "beam", spy_on(upper_bound.beam, calls := []))
    g = region_graph(formats.load("puzzles/square/holes.txt")[0])  # bound 4, quick beam 5
    optimum = bfs(g).moves
    for width, wide in [(100, 100), (8, upper_bound.UPPER_WIDTH)]:
        calls.clear()
        r = solve(g, solver, SolveOptions(beam_width=width))
        assert wide in widths(calls) and r.status == "optimal" and r.moves == len(optimum)
        rules.verify_solution(g, r.solution)


def test_the_wide_beam_runs_only_where_the_quick_one_falls_short(monkeypatch):
    monkeypatch.setattr(upper_bound, "greedy", spy_on(upper_bound.greedy, calls := []))
    g = from_edges([0, 1, 2, 0, 1, 2, 0], [(i, i + 1) for i in range(6)])
    quick = greedy_module.greedy(g, None, driver.WIDTH)
    assert upper_bound.greedy_solution(g, None, lower=len(quick)) == quick
    assert widths(calls) == [driver.WIDTH]  # the quick beam meets the bound: nothing more
    calls.clear()
    moves = upper_bound.greedy_solution(g, None, lower=0)
    assert widths(calls) == [upper_bound.UPPER_WIDTH]  # the quick beam's solution is remembered
    assert len(moves) <= len(quick)
    rules.verify_solution(g, moves)


def test_a_refuted_horizon_keeps_the_beams_upper_bound():
    # IDA* starts from the beam's solution; when it refutes max_moves, that (replayed)
    # solution still bounds the optimum from above, and the answer says so
    g = region_graph(article_board())
    r = solve(g, "idastar", SolveOptions(max_moves=4))
    assert r.status == "infeasible" and r.solution is None
    assert r.lower_bound == 5 and r.upper_bound is not None and r.upper_bound >= 5


def test_one_solve_runs_the_quick_beam_once(monkeypatch):
    # the tetrapods' cap and IDA*'s first solution both come from the quick beam: one run
    monkeypatch.setattr(upper_bound, "greedy", spy_on(upper_bound.greedy, calls := []))
    monkeypatch.setattr(driver, "_tetrapods", spy_on(driver._tetrapods, asked := []))
    g = region_graph(formats.load("puzzles/graph/tetrapod.json")[0])
    r = solve(g, "idastar")
    assert asked and r.status == "optimal" and r.moves == 5
    assert widths(calls).count(driver.WIDTH) == 1


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(boards(), st.one_of(st.none(), st.integers(0, 7)))
def test_a_better_solution_is_shorter_replays_and_is_never_below_the_optimum(board, choice):
    from kamicp.search.sweep import sweep

    g = region_graph(board)
    final = None if choice is None else choice % g.k
    moves = sweep(g, final)
    if moves is None:
        return
    better = upper_bound.better_solution(g, final, moves, time.monotonic() + 30)
    if better is None:
        return
    rules.verify_solution(g, better, final)
    assert len(better) < len(moves)
    assert len(better) >= len(bfs(g, final_colour=final).moves)


def test_a_board_too_large_for_an_exact_answer_spends_its_limit_on_a_shorter_solution(
    monkeypatch,
):
    # 24x24 boards, declared too large: the answer is bounds and a solution, no proof; with
    # a time limit the solution is the quick one or shorter
    import random

    monkeypatch.setattr(driver, "MODEL_CELLS", 10)
    rng = random.Random(5)
    shorter = 0
    for rules_ in ("free", "pivot"):
        rows = ["".join(rng.choice("RGBY") for _ in range(24)) for _ in range(24)]
        [board] = formats.parse(f"rules: {rules_}\n" + "\n".join(rows) + "\n")
        g = region_graph(board)
        untimed = solve(g, "portfolio")
        assert untimed.proof == driver.TOO_LARGE and untimed.solution is not None
        timed = solve(g, "portfolio", SolveOptions(time_limit=3))
        assert timed.proof == driver.TOO_LARGE and timed.status == "unknown"
        rules.verify_solution(g, timed.solution)
        assert timed.lower_bound <= timed.moves <= untimed.moves
        shorter += timed.moves < untimed.moves
    assert shorter == 2  # these two boards: 20 -> 18 moves (free), 26 -> 24 (pivot)


def test_the_a_star_does_not_shorten_a_pivot_board_past_its_size_cap(monkeypatch):
    # its bitsets take n^2 bytes while built: a 500x500 board's would take 16 GB
    path = [(i, i + 1) for i in range(6)]
    g = from_edges([0, 1, 0, 2, 0, 1, 0], path, rules="pivot", pivot=3)
    long = [(3, 0), (3, 1), (3, 2), (3, 1), (3, 0)]  # 3 moves do: 0, 1, 0
    assert upper_bound.better_solution(g, None, long, time.monotonic() + 5) is not None
    monkeypatch.setattr(upper_bound, "SHORTEN_REGIONS", g.n - 1)
    assert upper_bound.better_solution(g, None, long, time.monotonic() + 5) is None
