"""solve(), the public entry, end to end: every solver agrees with the reference BFS.

Random small boards of every geometry, holes and islands, both rule sets, with and without
a final colour. The default run takes a few hundred boards per solver; ``-m slow`` runs
thousands.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kamicp import formats
from kamicp.game import rules
from kamicp.game.regions import from_edges, region_graph
from kamicp.search.greedy import greedy
from kamicp.solving.solve import solve
from tests.seed import DATA
from tests.solving.helpers import EXACT, agree, check_agrees
from tests.strategies import boards


@pytest.mark.parametrize("solver", EXACT + ["astar", "idastar"])
def test_solvers_agree_with_bfs(solver):
    agree(solver, 150)


@pytest.mark.parametrize("solver", [*EXACT, "idastar", "astar"])
def test_a_known_solution_changes_no_answer(solver):
    # The greedy solution given as known (often not optimal): still the BFS optimum.
    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(boards(), st.one_of(st.none(), st.integers(0, 7)))
    def run(board, final_choice):
        g = region_graph(board)
        final = None if final_choice is None else final_choice % g.k
        known = greedy(g, final)
        if known is not None:
            check_agrees(board, solver, final_choice, known=known)

    run()


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(boards(), st.integers(1, 200), st.one_of(st.none(), st.integers(0, 7)))
def test_beam_width_never_changes_the_answer(board, width, final_choice):
    check_agrees(board, "idastar", final_choice, beam_width=width)
    check_agrees(board, "sat", final_choice, beam_width=width)


@pytest.mark.slow
@pytest.mark.parametrize("solver", EXACT + ["astar", "idastar", "portfolio"])
def test_solvers_agree_with_bfs_thousands(solver):
    agree(solver, 2000)  # the portfolio too: it is the default solver


def test_greedy_and_reference_statuses():
    g = from_edges([0, 1, 2, 0], [(0, 1), (1, 2), (2, 3)])
    r = solve(g, "greedy")
    assert r.status in ("optimal", "feasible") and r.upper_bound == r.moves
    assert solve(g, "bfs").moves == 2


def test_pivot_cannot_reach_other_pieces():
    g = from_edges([0, 1, 0, 1], [(0, 1), (2, 3)], rules="pivot")
    for solver in ["bfs", "cpsat", "sat"]:
        r = solve(g, solver)
        assert r.status == "infeasible" and r.solution is None


def test_flood_article_board_greedy_within_the_game_limit():
    (board,) = formats.load(str(DATA / "flood-article-12x12.txt"))
    assert (board.rules, board.par, len(board.cells)) == ("pivot", 23, 144)
    r = solve(region_graph(board), "greedy")
    assert r.moves is not None and r.moves <= 23
    rules.verify_solution(region_graph(board), r.solution)
