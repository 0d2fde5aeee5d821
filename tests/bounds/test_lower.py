"""The bounds of a position (kamicp.bounds.lower) are admissible: never above the BFS optimum,
from the start or any reachable position; where BFS cannot finish, never above a solution's
length and with no shorter solution (``assert_no_shorter``), so no board is dropped for being
hard.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, event, given, reject, settings
from hypothesis import strategies as st

from kamicp import bounds
from kamicp.game import rules
from kamicp.game.regions import from_edges
from kamicp.search.bfs import bfs
from kamicp.search.greedy import greedy
from tests.strategies import ORACLE_NODES, assert_no_shorter, region_graphs

FINALS = st.none() | st.integers(0, 7)
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))


def walk(g, data, steps):
    """A position reached by up to ``steps`` random legal moves, and the moves."""
    pos = rules.start(g)
    for _ in range(steps):
        moves = list(rules.legal_moves(g, pos))
        if not moves:
            break
        pos = rules.apply(g, pos, data.draw(st.sampled_from(moves)))
    return pos


def regraph(g, pos):
    """The problem of solving ``pos`` as a board of its own (BFS starts at the start)."""
    return from_edges(list(pos), g.edges(), k=g.k, rules=g.rules, pivot=g.pivot)


def check_admissible(g, pos, final, nodes=ORACLE_NODES):
    board = regraph(g, pos)
    opt_out = bfs(board, final_colour=final, node_limit=nodes)
    report = bounds.bound_report(g, pos, final)
    lb = bounds.lower_bound(g, pos, final)
    assert lb == max(report.values())
    cur = bounds.contract(g, pos)
    assert bounds.estimate(cur, g.rules, final) <= lb
    if cur.is_solved(final):
        assert lb == 0
    if not opt_out.complete:
        check_without_optimum(g, pos, final, report)
        return
    if opt_out.moves is None:
        assert not bounds.solvable(g, pos, final)
        assert lb == bounds.UNSOLVABLE
        return
    assert bounds.solvable(g, pos, final)
    opt = len(opt_out.moves)
    for name, value in report.items():
        assert 0 <= value <= opt, (name, value, opt)


def check_without_optimum(g, pos, final, report):
    """Where BFS cannot finish: "solvable" must come with a solution that replays, no value
    of the report may exceed its length, and no solution may be shorter than the largest
    (:func:`tests.strategies.assert_no_shorter`). A board claimed unsolvable is dropped:
    only a search of every position could confirm it."""
    event("BFS stopped: the bound checked without the optimum")
    if not bounds.solvable(g, pos, final):
        reject()
    board = regraph(g, pos)
    moves = greedy(board, final)
    assert moves is not None
    rules.verify_solution(board, moves, final)
    for name, value in report.items():
        assert 0 <= value <= len(moves), (name, value, len(moves))
    assert_no_shorter(board, final, max(report.values()))


@SETTINGS
@given(region_graphs(), FINALS)
def test_bounds_at_start(g, choice):
    final = None if choice is None else choice % g.k
    check_admissible(g, rules.start(g), final)


@SETTINGS
@given(region_graphs(), FINALS, st.data())
def test_bounds_after_random_moves(g, choice, data):
    final = None if choice is None else choice % g.k
    pos = walk(g, data, data.draw(st.integers(0, 6)))
    check_admissible(g, pos, final)


@SETTINGS
@given(region_graphs(), FINALS, st.data())
def test_bounds_where_bfs_stops_are_checked_without_the_optimum(g, choice, data):
    # BFS stopped at once: the path that the slow run takes on its hardest boards
    final = None if choice is None else choice % g.k
    pos = walk(g, data, data.draw(st.integers(0, 6)))
    check_admissible(g, pos, final, nodes=1)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=16, max_colours=5), FINALS, st.data())
def test_bounds_many(g, choice, data):
    final = None if choice is None else choice % g.k
    pos = walk(g, data, data.draw(st.integers(0, 8)))
    check_admissible(g, pos, final)


def test_pivot_solvable_only_with_one_coloured_pieces():
    g = from_edges([0, 1, 2, 2, 1], [(0, 1), (3, 4)], k=3, rules="pivot")
    assert not bounds.solvable(g)
    assert bounds.lower_bound(g) == bounds.UNSOLVABLE
    h = from_edges([0, 1, 2, 2], [(0, 1)], k=3, rules="pivot")
    assert bounds.solvable(h) and not bounds.solvable(h, final_colour=0)
    assert bounds.solvable(h, final_colour=2)
    assert not bounds.solvable(h, final_colour=5)
