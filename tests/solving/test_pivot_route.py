"""The default solver on pivot-rule boards: the compiled A* in this process first, then the
portfolio of two SAT runs (raising and lowering the horizon) where that does not settle the
board."""

from __future__ import annotations

import numpy as np

from kamicp.game import rules
from kamicp.game.board import Board
from kamicp.game.regions import region_graph
from kamicp.search.pivot_astar import pivot_astar
from kamicp.solving import driver
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
    real = solve_module.solve_portfolio

    def spy(g, options, backends=(), start_bound=0):
        asked.append((backends, start_bound, None if options.known is None else len(options.known)))
        return real(g, options, backends, start_bound)

    monkeypatch.setattr(driver, "PIVOT_NODES", 1)
    monkeypatch.setattr(solve_module, "solve_portfolio", spy)
    r = solve(g, "portfolio", SolveOptions(time_limit=120))
    assert r.status == "optimal" and r.moves == optimum
    rules.verify_solution(g, r.solution)
    assert len(asked) == 1
    backends, start_bound, known = asked[0]
    assert backends == PIVOT_BACKENDS == ("sat-up", "sat-down")
    assert 0 < start_bound <= optimum and known is not None and known >= optimum


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
