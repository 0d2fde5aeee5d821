"""The default solver on pivot-rule boards: the compiled A* in this process first, then the
portfolio of two SAT runs (raising and lowering the horizon) where that does not settle the
board."""

from __future__ import annotations

import numpy as np

from kamicp.game import rules
from kamicp.game.board import Board
from kamicp.game.regions import region_graph
from kamicp.search.pivot_astar import pivot_astar
from kamicp.solving import driver, portfolio
from kamicp.solving import solve as solve_module
from kamicp.solving.portfolio import PIVOT_BACKENDS
from kamicp.solving.solve import SolveOptions, solve
from tests.cli.helpers import run


def flood_board(seed: int, side: int = 8, colours: int = 4) -> Board:
    """A random square Flood-It board."""
    rng = np.random.default_rng(seed)
    cells = {(r, c): int(rng.integers(colours)) for r in range(side) for c in range(side)}
    return Board(geometry="square", cells=cells, palette=tuple("RGBY"[:colours]), rules="pivot")


def test_an_easy_board_ends_in_the_first_step():
    g = region_graph(flood_board(1))
    r = solve(g)
    assert r.status == "optimal" and r.solver == "portfolio"
    assert r.proof.startswith("pivot-astar")
    assert r.moves == len(pivot_astar(g).moves)
    rules.verify_solution(g, r.solution)


def test_a_board_the_first_step_leaves_goes_to_two_sat_runs(monkeypatch):
    """With a first step of one expansion the portfolio decides, its backends SAT raising
    the horizon and SAT lowering it, started from what the first step proved; the answer is
    the optimum."""
    g = region_graph(flood_board(2, side=10))
    optimum = len(pivot_astar(g).moves)
    asked = []
    started = []
    real, real_start = solve_module.solve_portfolio, portfolio._start

    def spy(g, options, backends=(), start_bound=0, first=None):
        asked.append((backends, first is not None))
        return real(g, options, backends, start_bound, first)

    def spy_start(g, backend, backends, options, bound):
        started.append((backend, bound, None if options.known is None else len(options.known)))
        return real_start(g, backend, backends, options, bound)

    monkeypatch.setattr(driver, "PIVOT_NODES", 1)
    monkeypatch.setattr(solve_module, "solve_portfolio", spy)
    monkeypatch.setattr(portfolio, "_start", spy_start)
    r = solve(g, "portfolio", SolveOptions(time_limit=120))
    assert r.status == "optimal" and r.moves == optimum
    rules.verify_solution(g, r.solution)
    assert asked == [(PIVOT_BACKENDS, True)] and PIVOT_BACKENDS == ("sat-up", "sat-down")
    assert sorted(name for name, _, _ in started) == ["sat-down", "sat-up"]
    # sat-up starts after the first step, from its bound and its solution
    [(bound, known)] = [(bound, known) for name, bound, known in started if name == "sat-up"]
    assert 0 < bound <= optimum and known is not None and known >= optimum


def test_a_long_first_step_starts_sat_down_beside_it(monkeypatch):
    """Once the first step has run HEAD_START_AFTER seconds (none here), ``sat-down`` starts
    beside it (from the caller's bounds: none here), once, and ``sat-up`` after it, from its
    bound."""
    g = region_graph(flood_board(2, side=10))
    optimum = len(pivot_astar(g).moves)
    started = []
    real_start, real_first = portfolio._start, driver._pivot_first

    def spy_start(g, backend, backends, options, bound):
        started.append((backend, bound))
        return real_start(g, backend, backends, options, bound)

    def long_first(g, o, clock, known, on_slice):
        on_slice()
        on_slice()
        assert started == [("sat-down", 0)]
        return real_first(g, o, clock, known, on_slice)

    monkeypatch.setattr(driver, "PIVOT_NODES", 1)
    monkeypatch.setattr(driver, "_pivot_first", long_first)
    monkeypatch.setattr(portfolio, "_start", spy_start)
    monkeypatch.setattr(portfolio, "HEAD_START_AFTER", 0.0)
    r = solve(g, "portfolio", SolveOptions(time_limit=120))
    assert r.status == "optimal" and r.moves == optimum
    rules.verify_solution(g, r.solution)
    assert [name for name, _ in started] == ["sat-down", "sat-up"]
    assert started[1][1] > 0


def test_a_short_first_step_starts_no_backend_beside_it(monkeypatch):
    """Before HEAD_START_AFTER seconds the slices of the first step start nothing: both
    backends start after it, in their order."""
    g = region_graph(flood_board(2, side=10))
    started = []
    real_start, real_first = portfolio._start, driver._pivot_first

    def spy_start(g, backend, backends, options, bound):
        started.append(backend)
        return real_start(g, backend, backends, options, bound)

    def short_first(g, o, clock, known, on_slice):
        on_slice()
        assert started == []
        return real_first(g, o, clock, known, on_slice)

    monkeypatch.setattr(driver, "PIVOT_NODES", 1)
    monkeypatch.setattr(driver, "_pivot_first", short_first)
    monkeypatch.setattr(portfolio, "_start", spy_start)
    monkeypatch.setattr(portfolio, "HEAD_START_AFTER", 3600.0)
    assert solve(g, "portfolio", SolveOptions(time_limit=120)).status == "optimal"
    assert started == list(PIVOT_BACKENDS)


def test_a_head_start_is_stopped_when_the_first_step_settles(monkeypatch):
    """A board the first step settles after the head start began: its answer, and the
    backend started beside it is stopped."""
    g = region_graph(flood_board(1))
    stopped = []
    real_start, real_first = portfolio._start, driver._pivot_first

    def spy_start(*args):
        child = real_start(*args)
        stopped.append(child)
        return child

    def long_first(g, o, clock, known, on_slice):
        on_slice()
        return real_first(g, o, clock, known, on_slice)

    monkeypatch.setattr(driver, "_pivot_first", long_first)
    monkeypatch.setattr(portfolio, "_start", spy_start)
    monkeypatch.setattr(portfolio, "HEAD_START_AFTER", 0.0)
    r = solve(g)
    assert r.status == "optimal" and r.proof.startswith("pivot-astar")
    assert len(stopped) == 1 and not stopped[0].process.is_alive()


def test_pivot_astar_on_free_rules_is_one_line(capsys, tmp_path):
    path = tmp_path / "free.txt"
    path.write_text("RG\nGR\n")
    code, out, err = run(capsys, "solve", str(path), "--solver", "pivot-astar")
    assert code == 2 and out == ""
    assert err.strip().count("\n") == 0 and "pivot-rule boards only" in err


def test_pivot_astar_from_the_command_line(capsys, tmp_path):
    path = tmp_path / "pivot.txt"
    path.write_text("RGB\nGBR\nBRG\n")
    code, out, _ = run(capsys, "solve", str(path), "--rules", "pivot", "--solver", "pivot-astar")
    assert code == 0 and "optimal" in out


def test_the_first_step_is_shorter_on_many_colours(monkeypatch):
    """Beyond PIVOT_FEW colours the first step stops after PIVOT_NODES_MANY expansions."""
    budgets = []
    real = driver.solve_reference

    def spy(g, solver, options, clock, known=None, search=None):
        budgets.append(options.node_limit)
        return real(g, solver, options, clock, known, search)

    monkeypatch.setattr(driver, "solve_reference", spy)
    monkeypatch.setattr(driver, "PIVOT_NODES", 7)
    monkeypatch.setattr(driver, "PIVOT_NODES_MANY", 3)
    monkeypatch.setattr(driver, "PIVOT_FEW", 3)
    solve(region_graph(flood_board(3, side=6, colours=3)))
    solve(region_graph(flood_board(3, side=6, colours=4)))
    assert budgets == [7, 3]
