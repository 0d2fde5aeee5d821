"""The walk bound (kamicp.walks): exact on paths, never above the BFS optimum elsewhere."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kamicp import bounds
from kamicp.bfs import bfs
from kamicp.regions import from_edges
from kamicp.walks import walk_bound, walk_values
from tests.strategies import region_graphs


def path_words(length: int, k: int):
    """Every colour word of a path (neighbours differ), up to renaming the first colour."""
    for word in itertools.product(range(k), repeat=length):
        if word[0] == 0 and all(a != b for a, b in itertools.pairwise(word)):
            yield word


def check_paths(max_length: int, k: int) -> int:
    """On a path the walk value is the optimum itself, for every final colour."""
    checked = 0
    for length in range(1, max_length + 1):
        for word in path_words(length, k):
            g = from_edges(list(word), [(i, i + 1) for i in range(length - 1)], k=k)
            values = walk_values(g.colour, g.adj, range(g.n), k)
            for d in range(k):
                assert values[d] == bfs(g, final_colour=d).lower_bound, (word, d)
                checked += 1
    return checked


def test_walk_value_is_exact_on_short_paths():
    assert check_paths(7, 3) == 3 * sum(2 ** (n - 1) for n in range(1, 8))


@pytest.mark.slow
def test_walk_value_is_exact_on_paths_exhaustively():
    check_paths(9, 3)
    check_paths(7, 4)


def test_three_colours_in_turn_need_more_than_the_radius():
    # a b c a b c: radius 3, but every first move merges only two regions
    g = from_edges([0, 1, 2, 0, 1, 2], [(i, i + 1) for i in range(5)])
    cur = bounds.contract(g)
    assert bounds.radius_bound(cur) == 3
    assert bounds.walks_bound(cur) == 4 == len(bfs(g).moves)


def test_a_cycle_offers_the_cheaper_way_round():
    # the walk may take either way round a ring; both ways cost the same here
    ring = [0, 1, 2, 0, 1, 2]
    g = from_edges(ring, [(i, (i + 1) % 6) for i in range(6)])
    assert bounds.walks_bound(bounds.contract(g)) <= len(bfs(g).moves)


def test_pieces_add_up_with_one_final_colour():
    # two separate paths: 0-1 wants 0 or 1 (1 move), 2-0 wants 0 or 2 (1 move)
    colour = [0, 1, 2, 0]
    adj = [[1], [0], [3], [2]]
    assert walk_bound(colour, adj, [[0, 1], [2, 3]], 3) == 2
    assert walk_bound(colour, adj, [[0, 1], [2, 3]], 3, final_colour=2) == 3


FINALS = st.none() | st.integers(0, 7)


def check(g, final):
    if g.rules != "free":
        return
    cur = bounds.contract(g)
    value = bounds.walks_bound(cur, final)
    assert value >= bounds.islands_bound(cur, final)
    out = bfs(g, final_colour=final)
    assert value <= out.lower_bound  # the optimum (BFS is exhaustive)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=14, max_colours=4), FINALS)
def test_walks_bound_is_admissible(g, choice):
    check(g, None if choice is None else choice % g.k)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=14, max_colours=5), FINALS)
def test_walks_bound_is_admissible_many(g, choice):
    check(g, None if choice is None else choice % g.k)
