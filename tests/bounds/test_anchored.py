"""The anchored tetrapod bound (kamicp.bounds.anchored): its search against the plain recursion,
never above the tetrapod bound, admissible against BFS, and how IDA*'s checks use it."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kamicp import bounds
from kamicp.bounds import anchored, capped, tetrapods, tripods
from kamicp.bounds.anchored import anchored_values, least_levels, pair_values
from kamicp.bounds.cache import BOUND_CACHE
from kamicp.bounds.tetrapods import tetrapod_values
from kamicp.bounds.tripods import packed_tripod_levels
from kamicp.bounds.walks import packed_walk_levels, piece_arrays
from kamicp.game.regions import from_edges
from kamicp.search.bfs import bfs
from kamicp.search.ida import IdaOptions, idastar
from kamicp.search.ida.checks import tripod_value
from tests.bounds.test_tetrapods import TREE
from tests.bounds.test_tripods import coloured_trees, on_piece, plain_tripods, relax
from tests.strategies import assert_no_shorter, coloured_graphs, region_graphs


def plain_anchored(colour, adj, k, z, w):
    """R(x, y, d) for anchors z, w by relaxing the rules of the module's docstring until
    nothing changes: integers, no levels, no Dijkstra."""
    n = len(colour)
    nodes, colours = range(n), range(k)
    edges = [(u, v) for u in nodes for v in adj[u]]
    y3 = plain_tripods(colour, adj, k)
    r = {(x, y, d): 10 * n * k for x in nodes for y in nodes for d in colours}

    def walk(x, u, d):
        return y3[x, u, u, d]

    def rules(x, y, d):
        options = [1 + min(r[x, y, e] for e in colours)]
        options += [walk(x, u, d) + r[v, y, d] for u, v in edges]
        options += [walk(y, u, d) + r[x, v, d] for u, v in edges]
        for a, b, c, e in ((x, y, z, w), (x, z, y, w), (x, w, y, z)):  # two tripods
            options += [y3[a, b, u, d] + y3[v, c, e, d] for u, v in edges]
        for a, b in ((z, w), (w, z)):  # a's arm: a walk, and the sub-tripods of the rest
            for u, v in edges:
                low = max(y3[x, y, v, d], y3[x, y, b, d], y3[x, v, b, d], y3[y, v, b, d])
                options.append(walk(a, u, d) + low)
        ends = (x, y, z, w)
        for i, j in itertools.combinations(range(4), 2):  # two ends in one node
            if ends[i] == ends[j]:
                options.append(y3[(*(ends[h] for h in range(4) if h != j), d)])
        return options

    relax(r, rules)
    return r


def compiled_maxima(colour, adj, k, z, w, cap):
    """What :func:`kamicp.bounds.anchored.pair_values` gives for one pair: per colour, the largest
    R(x, y, d), above ``cap`` reported as ``cap + 1``."""
    n = len(colour)
    piece = list(range(n))
    arrays = piece_arrays(colour, adj, piece)
    tripods = np.array([lv.copy() for lv in packed_tripod_levels(colour, adj, piece, k, cap)])
    *_, (_, cost) = packed_walk_levels(arrays, k, cap)
    y = np.empty((k, n, n, n), dtype=np.int16)
    least_levels(tripods.reshape(len(tripods), k, n, n, -1), n, y)
    return list(pair_values(y, cost.astype(np.int16), z, w, cap, arrays[1], arrays[2]))


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=6, max_colours=3) | coloured_graphs(), st.integers(0, 6))
def test_the_search_gives_the_least_solution_of_the_recursion(case, cap):
    if isinstance(case, tuple):  # neighbours may share a colour: cost-0 walks
        colour, adj, k = case
    else:
        colour, adj = on_piece(case.colour, case.adj, case.islands[0])
        k = case.k
    n = len(colour)
    for z, w in itertools.combinations_with_replacement(range(n), 2):
        r = plain_anchored(colour, adj, k, z, w)
        top = [max(r[x, y, d] for x in range(n) for y in range(n)) for d in range(k)]
        plain = [min(cap + 1, value) for value in top]
        assert compiled_maxima(colour, adj, k, z, w, cap) == plain, (z, w)


def check_below_tetrapods(colour, adj, k, piece, cap):
    quads = tetrapod_values(colour, adj, piece, k, cap)
    every = anchored_values(colour, adj, piece, k, cap, anchors=range(len(piece)))
    chosen = anchored_values(colour, adj, piece, k, cap)
    assert all(a <= b for a, b in zip(every, quads, strict=True))
    assert all(a <= b for a, b in zip(chosen, every, strict=True)) or min(chosen) > cap
    return every, quads


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=12, max_colours=4), st.integers(0, 8))
def test_never_above_the_tetrapod_bound(g, cap):
    for piece in g.islands:
        check_below_tetrapods(g.colour, g.adj, g.k, piece, cap)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(coloured_trees(max_nodes=10, max_colours=4))
def test_on_trees_every_value_is_at_most_the_optimum(tree):
    colour, edges, k = tree
    g = from_edges(colour, edges, k=k)
    every, _ = check_below_tetrapods(g.colour, g.adj, k, range(g.n), 3 * g.n)
    for d, value in enumerate(every):
        assert value <= bfs(g, final_colour=d).lower_bound


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=14, max_colours=4, rules=("free",)), st.none() | st.integers(0, 7))
def test_the_check_through_the_anchored_bound_is_admissible(g, choice):
    check_admissible(g, choice)


def check_admissible(g, choice):
    final = None if choice is None else choice % g.k
    cur = bounds.contract(g)
    for cap in range(0, 9):
        bounds.forget_cached_bounds()
        value = bounds.tetrapods_bound(cur, final, cap, peel=True)
        assert_no_shorter(g, final, min(value, cap + 1))


@pytest.mark.slow
@settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=16, max_colours=5, rules=("free",)), st.none() | st.integers(0, 7))
def test_the_check_through_the_anchored_bound_is_admissible_many(g, choice):
    check_admissible(g, choice)


def test_the_tree_needs_the_anchors_of_its_hardest_triples():
    # TREE's tetrapod value for colour 0 (6) is one above its tripod value; the default
    # anchors find it
    g = from_edges(*TREE)
    assert tetrapod_values(g.colour, g.adj, range(g.n), g.k) == [6, 5, 5, 5]
    assert anchored_values(g.colour, g.adj, range(g.n), g.k, 10) == [6, 5, 5, 5]
    assert anchored_values(g.colour, g.adj, range(g.n), g.k, 4) == [5, 5, 5, 5]  # cut: stops


def test_a_check_the_anchored_bound_decides_computes_no_tetrapod_levels(monkeypatch):
    sizes = []
    real = capped.tetrapod_values  # looked up there by the checks

    def spy(colour, adj, piece, *args):
        sizes.append(len(piece))
        return real(colour, adj, piece, *args)

    monkeypatch.setattr(capped, "tetrapod_values", spy)
    cur = bounds.contract(from_edges(*TREE))
    bounds.forget_cached_bounds()
    assert bounds.tetrapods_bound(cur, None, cap=4, peel=True) == 5  # all above 4: a cut
    assert sizes == []
    bounds.forget_cached_bounds()
    # within: Bound 8 on the peeled piece, which misses, and the check ends there
    assert bounds.tetrapods_bound(cur, None, cap=5, peel=True) <= 5
    assert sizes and max(sizes) < 11
    sizes.clear()
    bounds.forget_cached_bounds()
    assert bounds.tetrapods_bound(cur, None, cap=4) == 5  # a start bound: no anchors
    assert sizes == [11]


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=12, max_colours=4, rules=("free",)))
def test_idastar_with_anchored_checks_agrees_with_bfs(g):
    ref = bfs(g)
    bounds.forget_cached_bounds()
    out = idastar(g, options=IdaOptions(tripod_after=0.0, check_ratio=0.0, tetrapod_depth=3))
    assert out.complete and out.lower_bound == ref.lower_bound
    assert (out.moves is None) == (ref.moves is None)
    if ref.moves is not None:
        assert len(out.moves) == len(ref.moves)


def test_pairs_come_from_the_hardest_triples():
    y = np.zeros((3, 3, 3), dtype=np.int16)
    y[0, 1, 2] = y[1, 0, 2] = y[2, 1, 0] = 5  # one hardest triple, in three orders
    assert anchored._pairs(y) == [(0, 1), (0, 2), (1, 2)]


def plain_pairs(y):
    """The anchor pairs of one colour counted one triple at a time (the docstring's rule)."""
    counts = {}
    for a, b, c in itertools.product(range(len(y)), repeat=3):
        if y[a, b, c] == y.max():
            for pair in ((a, b), (a, c), (b, c)):
                pair = (min(pair), max(pair))
                counts[pair] = counts.get(pair, 0) + 1
    return sorted(counts, key=lambda p: (-counts[p], p))[: anchored.CANDIDATES]


@given(st.integers(1, 9), st.integers(1, 4), st.randoms(use_true_random=False))
def test_pairs_are_counted_as_one_triple_at_a_time(n, top, rng):
    y = np.array([rng.randint(0, top) for _ in range(n**3)], dtype=np.int16).reshape(n, n, n)
    assert anchored._pairs(y) == plain_pairs(y)


def test_pairs_that_helped_a_cut_are_tried_first_when_asked(monkeypatch):
    tried = []
    real = anchored.pair_values

    def spy(y, cost, z, w, *rest):
        tried.append((z, w))
        return real(y, cost, z, w, *rest)

    monkeypatch.setattr(anchored, "pair_values", spy)
    g = from_edges(*TREE)
    helped: list = []
    assert min(anchored_values(g.colour, g.adj, range(g.n), g.k, 4, helped=helped)) == 5
    assert helped and set(helped) <= set(tried)
    last = tried[-1]
    tried.clear()
    values = anchored_values(g.colour, g.adj, range(g.n), g.k, 4, first=[last[::-1]])
    assert tried == [last] and min(values) == 5  # the one pair that completed the cut


def test_a_search_remembers_the_pairs_by_region(monkeypatch):
    bounds.forget_cached_bounds()
    cur = bounds.contract(from_edges(*TREE))
    assert bounds.tetrapods_bound(cur, None, cap=4, peel=True) == 5
    regions = set(cur.islands[0])
    helpful = BOUND_CACHE.helpful
    assert helpful and all(a in regions and b in regions for a, b in helpful)
    bounds.forget_cached_bounds()
    assert not BOUND_CACHE.helpful


# --- the tripod levels of a check, computed once ----------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=8, max_colours=3), st.integers(0, 5))
def test_bounds_on_given_tripod_levels_are_the_same(g, cap):
    piece = g.islands[0]
    args = (g.colour, g.adj, piece, g.k, cap)
    levels = [level.copy() for level in packed_tripod_levels(*args)]
    assert tetrapod_values(*args, tripod_levels=iter(levels)) == tetrapod_values(*args)
    assert anchored_values(*args, tripod_levels=levels) == anchored_values(*args)


def test_a_check_computes_the_tripod_levels_of_its_piece_once(monkeypatch):
    # the tripod value, Bound 9, the trim and the whole piece's Bound 8, at a cap every
    # value is within: the whole piece's tripod levels are computed once, the trim's once
    computed = []
    real = tripods.packed_tripod_levels

    def counted(colour, adj, piece, *args, **kwargs):
        computed.append(len(piece))
        return real(colour, adj, piece, *args, **kwargs)

    for module in (tripods, anchored, tetrapods):  # where the levels are looked up
        monkeypatch.setattr(module, "packed_tripod_levels", counted)
    monkeypatch.setattr(capped, "NEAR_WHOLE", -1)
    bounds.forget_cached_bounds()
    cur = bounds.contract(from_edges(*TREE))
    n = len(cur.islands[0])
    assert tripod_value(cur, 9, None, None) <= 9
    assert bounds.tetrapods_bound(cur, None, cap=9, peel=True) <= 9
    assert computed.count(n) == 1
    assert len(computed) == 2  # and the trim's (or the peeled piece's)


def test_a_check_stopped_before_its_first_tripod_level_knows_nothing():
    # the kept levels stop at the deadline, maybe before level 0: every value is then 0
    tree = from_edges(*TREE)
    assert anchored_values(tree.colour, tree.adj, range(11), 4, 5, tripod_levels=[]) == [0] * 4
    # ...and so does one stopped after some levels but before the cap
    levels = list(packed_tripod_levels(tree.colour, tree.adj, range(11), 4, 5))
    assert anchored_values(tree.colour, tree.adj, range(11), 4, 5, tripod_levels=levels) != [0] * 4
    stopped = levels[:3]
    assert anchored_values(tree.colour, tree.adj, range(11), 4, 5, tripod_levels=stopped) == [0] * 4
    bounds.forget_cached_bounds()
    cur = bounds.contract(tree)
    assert bounds.tetrapods_bound(cur, None, cap=9, deadline=0.0, peel=True) <= 9
