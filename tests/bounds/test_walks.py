"""The walk bound (kamicp.bounds.walks): exact on paths, never above the BFS optimum elsewhere."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kamicp import bounds
from kamicp.bounds.walks import least_walk_value, walk_bound, walk_levels, walk_values
from kamicp.game.regions import from_edges
from kamicp.search.bfs import bfs
from tests.strategies import coloured_graphs, region_graphs, square_board_above_64_regions


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


def test_a_connected_subgraph_may_need_more_moves_than_the_graph():
    # Why the bounds look only at subtrees of a spanning tree (Lemma 3), and why a walk's arms
    # range over all of G: a path a b c a b c a b c needs 6 moves alone, 3 with a hub of a
    # fourth colour touching every node. A bound computed on a part of the graph (say, near
    # the last move) would not be admissible.
    path = [(i, i + 1) for i in range(8)]
    colours = [i % 3 for i in range(9)]
    alone = from_edges(colours, path)
    hub = from_edges([*colours, 3], [*path, *((i, 9) for i in range(9))])
    assert len(bfs(alone).moves) == 6 and len(bfs(hub).moves) == 3
    assert bounds.lower_bound(hub) <= 3 < bounds.lower_bound(alone)


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
    for cap in range(4):  # the search's question "above cap?", answered soundly
        assert bounds.walks_bound_capped(cur, final, cap) <= value


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=14, max_colours=4), FINALS)
def test_walks_bound_is_admissible(g, choice):
    check(g, None if choice is None else choice % g.k)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=14, max_colours=5), FINALS)
def test_walks_bound_is_admissible_many(g, choice):
    check(g, None if choice is None else choice % g.k)


# --- the level-by-level computation against a plain fixed point -----------------------------


def plain_walk_values(colour, adj, k):
    """M(x, y, d) by relaxing the two rules of the recursion until nothing changes (integers,
    no matrices, no symmetry, no level order): the definition, written out."""
    n = len(colour)
    big = 10 * n * k
    m = [[[big] * k for _ in range(n)] for _ in range(n)]
    for x in range(n):
        for d in range(k):
            m[x][x][d] = int(colour[x] != d)
    changed = True
    while changed:
        changed = False
        for x, y, d in itertools.product(range(n), range(n), range(k)):
            best = min(
                [1 + min(m[x][y]), m[x][y][d]]
                + [m[x][u][d] + m[v][y][d] for u in range(n) for v in adj[u]]
            )
            if best < m[x][y][d]:
                m[x][y][d] = best
                changed = True
    return [max(m[x][y][d] for x in range(n) for y in range(n)) for d in range(k)]


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=9, max_colours=4), st.integers(0, 6))
def test_levels_match_the_plain_fixed_point(g, cap):
    for piece in g.islands:
        sub = [g.colour[v] for v in piece]
        index = {v: i for i, v in enumerate(piece)}
        adj = [[index[u] for u in g.adj[v]] for v in piece]
        values = plain_walk_values(sub, adj, g.k)
        assert walk_values(g.colour, g.adj, piece, g.k) == values
        # capped: exact up to the cap, cap + 1 above it
        assert walk_values(g.colour, g.adj, piece, g.k, cap) == [min(v, cap + 1) for v in values]
        for finals in ([0], list(range(g.k)), [g.k - 1]):
            least = least_walk_value(g.colour, g.adj, piece, g.k, finals, cap)
            assert least == min(min(values[d] for d in finals), cap + 1)


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(coloured_graphs())
def test_levels_match_the_plain_fixed_point_when_neighbours_share_a_colour(case):
    # not region graphs: the closure of each level then needs more than one pass
    colour, adj, k = case
    assert walk_values(colour, adj, range(len(colour)), k) == plain_walk_values(colour, adj, k)


def matrix_levels(colour, adj, k, last):
    """Level t = 0..last as booleans [d, x, y], from the joins S[a] A S[t - a] for every
    a = 0..t and one more move from level t - 1, iterated with integer matrix products
    until nothing changes: the recursion without pairs, costs or bits."""
    n = len(colour)
    a = np.zeros((n, n), dtype=np.int64)
    for x, row in enumerate(adj):
        a[x, row] = 1
    levels = []
    for t in range(last + 1):
        level = np.zeros((k, n, n), dtype=bool)
        for d in range(k):
            level[d][np.diag(np.array(colour) == d)] = True
        if t:
            level |= levels[-1].any(axis=0)
        while True:
            grown = level.copy()
            for s in range(t + 1):
                left = level if s == t else levels[s]
                right = level if s == 0 else levels[t - s]
                grown |= (left.astype(np.int64) @ a @ right.astype(np.int64)) > 0
            if (grown == level).all():
                break
            level = grown
        levels.append(level)
    return levels


@settings(max_examples=4, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_levels_of_pieces_above_64_regions(seed):
    # rows of two words: the pair joins and the transpositions cross a word boundary
    g = square_board_above_64_regions(seed)
    piece = g.islands[0]
    index = {v: i for i, v in enumerate(piece)}
    colour = [g.colour[v] for v in piece]
    adj = [[index[u] for u in g.adj[v]] for v in piece]
    expected = matrix_levels(colour, adj, g.k, 5)
    for t, level in enumerate(walk_levels(g.colour, g.adj, piece, g.k, 5)):
        assert (level == expected[t]).all()
