"""The tripod bound (kamicp.bounds.tripods): the tree recursion it rests on, its level-by-level
computation against the definition, and admissibility against the BFS optimum."""

from __future__ import annotations

import itertools
import time
from functools import cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kamicp import bounds
from kamicp.bounds import pieces, tripods
from kamicp.bounds.bits import pack_bits
from kamicp.bounds.cache import BOUND_CACHE
from kamicp.bounds.tripods import (
    _flip,
    least_costs,
    least_tripod_value,
    packed_tripod_levels,
    tripod_values,
    unpack_level,
)
from kamicp.bounds.walks import packed_walk_levels, piece_arrays, walk_levels, walk_values
from kamicp.game.regions import from_edges
from kamicp.search.bfs import bfs
from tests.strategies import (
    assert_no_shorter,
    coloured_graphs,
    region_graphs,
    square_board_above_64_regions,
)

# --- the split recursion on trees, which the bound assumes exact -------------------------


def tree_values(colour, edges, k):
    """m(T, d) for each d by the split recursion (cut an edge, or one more move), computed on
    every subtree of T by memoised recursion: the definition, with no walks and no levels."""
    adj = {v: set() for v in range(len(colour))}
    for a, b in edges:
        adj[a].add(b)
        adj[b].add(a)

    def side(nodes, u, v):  # the part of ``nodes`` still joined to u once u-v is cut
        seen, todo = {u}, [u]
        while todo:
            x = todo.pop()
            for y in adj[x] & nodes:
                if y not in seen and {x, y} != {u, v}:
                    seen.add(y)
                    todo.append(y)
        return frozenset(seen)

    @cache
    def value(nodes):
        if len(nodes) == 1:
            (v,) = nodes
            return [int(colour[v] != d) for d in range(k)]
        split = [len(colour) * k] * k
        for u in nodes:
            for v in adj[u] & nodes:
                left = side(nodes, u, v)
                a, b = value(left), value(nodes - left)
                split = [min(s, x + y) for s, x, y in zip(split, a, b, strict=True)]
        return [min(s, 1 + min(split)) for s in split]

    return value(frozenset(range(len(colour))))


@st.composite
def coloured_trees(draw, max_nodes: int, max_colours: int):
    """A random tree (each node hangs from an earlier one), neighbours of different colours."""
    n = draw(st.integers(1, max_nodes))
    k = draw(st.integers(2, max_colours))
    parents = [draw(st.integers(0, v - 1)) for v in range(1, n)]
    colour = [draw(st.integers(0, k - 1))]
    for p in parents:
        step = draw(st.integers(1, k - 1))
        colour.append((colour[p] + step) % k)
    return colour, [(p, v) for v, p in enumerate(parents, start=1)], k


def check_tree(tree):
    colour, edges, k = tree
    g = from_edges(colour, edges, k=k)
    values = tree_values(colour, edges, k)
    for d in range(k):
        assert values[d] == bfs(g, final_colour=d).lower_bound, (colour, edges, d)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(coloured_trees(max_nodes=8, max_colours=4))
def test_split_recursion_is_exact_on_trees(tree):
    check_tree(tree)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck))
@given(coloured_trees(max_nodes=10, max_colours=4))
def test_split_recursion_is_exact_on_trees_many(tree):
    check_tree(tree)


def test_a_tripod_needs_more_than_its_longest_path():
    # centre 0 with arms 1-0, 1-0, 2-0: every path has walk value <= 3 for colour 1
    arms = [(0, 1), (1, 2), (0, 3), (3, 4), (0, 5), (5, 6)]
    g = from_edges([0, 1, 0, 1, 0, 2, 0], arms)
    assert walk_values(g.colour, g.adj, range(7), 3) == [2, 3, 3]
    exact = [bfs(g, final_colour=d).lower_bound for d in range(3)]
    assert tripod_values(g.colour, g.adj, range(7), 3) == exact == [3, 4, 4]


# --- the level-by-level computation against the definition ---------------------------------


def plain_tripod_values(colour, adj, k):
    """max over triples of Y(x, y, z, d), for each d (see :func:`plain_tripods`)."""
    y3 = plain_tripods(colour, adj, k)
    return [max(v for key, v in y3.items() if key[3] == d) for d in range(k)]


def plain_tripods(colour, adj, k):
    """Y(x, y, z, d) by relaxing the rules of its recursion (walk values M relaxed the same
    way first) until nothing changes: integers, no matrices, no levels, every end split."""
    n = len(colour)
    big = 10 * n * k
    nodes, colours = range(n), range(k)
    edges = [(u, v) for u in nodes for v in adj[u]]
    m = {(x, y, d): big for x in nodes for y in nodes for d in colours}
    for x, d in itertools.product(nodes, colours):
        m[x, x, d] = int(colour[x] != d)
    relax(
        m,
        lambda x, y, d: (
            [1 + min(m[x, y, e] for e in colours)] + [m[x, u, d] + m[v, y, d] for u, v in edges]
        ),
    )
    y3 = {(x, y, z, d): big for x in nodes for y in nodes for z in nodes for d in colours}

    def rules(x, y, z, d):
        options = [1 + min(y3[x, y, z, e] for e in colours)]
        for p, q, r in ((x, y, z), (y, x, z), (z, x, y)):  # the end whose arm is cut
            options += [m[p, u, d] + y3[v, q, r, d] for u, v in edges]
            if q == r:
                options.append(m[p, q, d])  # an empty arm: the path p..q
        return options

    relax(y3, rules)
    return y3


def on_piece(colour, adj, piece):
    """The colours and adjacency lists of ``piece`` alone, its nodes renumbered 0..n-1."""
    index = {v: i for i, v in enumerate(piece)}
    return [colour[v] for v in piece], [[index[u] for u in adj[v]] for v in piece]


def relax(table, rules):
    changed = True
    while changed:
        changed = False
        for key in table:
            best = min(rules(*key))
            if best < table[key]:
                table[key] = best
                changed = True


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=7, max_colours=3), st.integers(0, 5))
def test_levels_match_the_plain_fixed_point(g, cap):
    for piece in g.islands:
        values = plain_tripod_values(*on_piece(g.colour, g.adj, piece), g.k)
        assert tripod_values(g.colour, g.adj, piece, g.k) == values
        assert tripod_values(g.colour, g.adj, piece, g.k, cap) == [min(v, cap + 1) for v in values]
        for finals in ([0], list(range(g.k))):
            least = least_tripod_value(g.colour, g.adj, piece, g.k, finals, cap)
            assert least == min(min(values[d] for d in finals), cap + 1)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=7, max_colours=3) | coloured_graphs())
def test_every_level_is_the_set_of_triples_within_it(case):
    # level t holds exactly the triples with Y <= t, for every t up to the largest value
    if isinstance(case, tuple):
        colour, adj, k = case
        pieces = [range(len(colour))]
    else:
        colour, adj, k, pieces = case.colour, case.adj, case.k, case.islands
    for piece in pieces:
        y3 = plain_tripods(*on_piece(colour, adj, piece), k)
        top = max(y3.values())
        packed = [level.copy() for level in packed_tripod_levels(colour, adj, piece, k, top)]
        assert len(packed) == top + 1
        for t, level in enumerate(unpack_level(level, len(piece)) for level in packed):
            for (x, y, z, d), value in y3.items():
                assert level[d, x, y, z] == (value <= t)


# --- the bit kernels, across word boundaries -------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([1, 5, 63, 64, 65, 100, 130]), st.integers(0, 2**32 - 1))
def test_flip_transposes_each_block(n, seed):
    bits = np.random.default_rng(seed).random((n, n, n)) < 0.5  # [x, y, z]
    level = pack_bits(bits, (n + 63) // 64).reshape(n, -1)
    flipped = np.zeros_like(level)
    _flip(level, flipped)
    assert (unpack_level(flipped[None], n)[0] == bits.transpose(2, 1, 0)).all()


@settings(max_examples=4, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_levels_of_pieces_above_64_regions(seed):
    # too big for the plain recursion: check what must hold of every level instead
    g = square_board_above_64_regions(seed)
    piece = g.islands[0]
    n = len(piece)
    walks = [w > 0 for w in walk_levels(g.colour, g.adj, piece, g.k, 6)]
    before = None
    for t, packed in enumerate(packed_tripod_levels(g.colour, g.adj, piece, g.k, 6)):
        level = unpack_level(packed, n)
        assert (level == level.transpose(0, 2, 1, 3)).all()  # a tripod has no first end
        assert (level == level.transpose(0, 3, 2, 1)).all()
        assert (np.einsum("dxyy->dxy", level) == walks[t]).all()  # Y(x, y, y) = M(x, y)
        assert before is None or (level >= before).all()
        before = level


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_joins_at_the_least_cost_follow_from_the_others(seed):
    # the levels without them (least_costs) are those with every join, on big pieces too
    g = square_board_above_64_regions(seed)
    piece = g.islands[0]
    fast = packed_tripod_levels(g.colour, g.adj, piece, g.k, 8)
    every = packed_tripod_levels(g.colour, g.adj, piece, g.k, 8, every_join=True)
    for a, b in zip(fast, every, strict=True):
        assert (a == b).all()


def test_each_cost_is_the_least_or_one_more():
    # what makes about half of the joins redundant: c(x, v, d) - least(x, v) is 0 or 1
    g = square_board_above_64_regions(7)
    arrays = piece_arrays(g.colour, g.adj, g.islands[0])
    cost = list(packed_walk_levels(arrays, g.k, 40))[-1][1]  # the costs once all are reached
    assert cost.max() <= 40
    spread = cost - least_costs(cost)[None]
    assert set(np.unique(spread)) == {0, 1}


# --- admissibility ---------------------------------------------------------------------------

FINALS = st.none() | st.integers(0, 7)


def check(g, final):
    if g.rules != "free":
        return
    cur = bounds.contract(g)
    value = pieces.tripods_bound(cur, final)
    assert value >= bounds.walks_bound(cur, final)
    assert_no_shorter(g, final, value)  # at most the optimum


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=14, max_colours=4), FINALS)
def test_tripods_bound_is_admissible(g, choice):
    check(g, None if choice is None else choice % g.k)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=16, max_colours=5), FINALS)
def test_tripods_bound_is_admissible_many(g, choice):
    check(g, None if choice is None else choice % g.k)


def test_big_pieces_keep_their_walk_value(monkeypatch):
    g = from_edges([0, 1, 0, 1, 0, 2, 0], [(0, 1), (1, 2), (0, 3), (3, 4), (0, 5), (5, 6)])
    cur = bounds.contract(g)
    assert pieces.tripods_bound(cur) == 3
    monkeypatch.setattr(pieces, "TRIPOD_NODES", 6)
    monkeypatch.setattr(BOUND_CACHE, "tripods", {})
    assert pieces.tripods_bound(cur) == bounds.walks_bound(cur) == 2


def test_pieces_whose_levels_would_not_fit_keep_their_walk_value(monkeypatch):
    g = from_edges([0, 1, 0, 1, 0, 2, 0], [(0, 1), (1, 2), (0, 3), (3, 4), (0, 5), (5, 6)])
    cur = bounds.contract(g)
    # walk values [2, 3, 3], so 5 levels of 3 colours x 7^2 rows of one word: 5,880 bytes
    monkeypatch.setattr(pieces, "TRIPOD_BYTES", 5 * 3 * 7 * 7 * 8)
    monkeypatch.setattr(BOUND_CACHE, "tripods", {})
    assert pieces.tripods_bound(cur) == 3
    monkeypatch.setattr(pieces, "TRIPOD_BYTES", 5 * 3 * 7 * 7 * 8 - 1)
    monkeypatch.setattr(BOUND_CACHE, "tripods", {})
    assert pieces.tripods_bound(cur) == bounds.walks_bound(cur) == 2


def test_a_past_deadline_keeps_the_walk_value_and_is_remembered(monkeypatch):
    g = from_edges([0, 1, 0, 1, 0, 2, 0], [(0, 1), (1, 2), (0, 3), (3, 4), (0, 5), (5, 6)])
    cur = bounds.contract(g)
    monkeypatch.setattr(BOUND_CACHE, "tripods", {})
    assert pieces.tripods_bound(cur, deadline=time.monotonic() - 1) == 2  # walks only
    assert pieces.tripods_bound(cur) == 2  # the first computation decided the effort
    monkeypatch.setattr(BOUND_CACHE, "tripods", {})
    assert pieces.tripods_bound(cur) == 3


# --- the levels kept for the bounds that a check asks next -----------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=9, max_colours=3), st.integers(0, 4), st.integers(0, 4))
def test_kept_levels_are_the_levels(g, first, second):
    # asked twice (a tripod check, then a bound built on it): the same levels as computed
    # afresh, each up to what was asked, the second call extending what the first kept
    tripods.forget_kept_levels()
    piece = g.islands[0]
    fresh = [level.copy() for level in packed_tripod_levels(g.colour, g.adj, piece, g.k, 8)]
    for last in (first, second):
        kept = list(tripods.kept_levels("piece", g.colour, g.adj, piece, g.k, last))
        assert len(kept) == last + 1
        assert all((a == b).all() for a, b in zip(kept, fresh, strict=False))


def test_kept_levels_follow_the_key_and_the_deadline():
    g = from_edges([0, 1, 0, 1, 0, 2, 0], [(0, 1), (1, 2), (0, 3), (3, 4), (0, 5), (5, 6)])
    other = from_edges([0, 1, 2], [(0, 1), (1, 2)])
    tripods.forget_kept_levels()
    assert list(tripods.kept_levels("a", g.colour, g.adj, range(7), 3, 2, deadline=0.0)) == []
    list(tripods.kept_levels("a", g.colour, g.adj, range(7), 3, 2))
    # a new key computes its own levels (here: a piece of three nodes, not seven)
    (level,) = tripods.kept_levels("b", other.colour, other.adj, range(3), 3, 0)
    assert level.shape == (3, 3, 3)
    assert BOUND_CACHE.last_levels[0] == "b"
    # levels kept are served even past a deadline; none is started after it
    assert len(list(tripods.kept_levels("b", other.colour, other.adj, range(3), 3, 3, 0.0))) == 1
