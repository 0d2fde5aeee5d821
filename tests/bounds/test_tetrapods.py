"""The tetrapod bound (kamicp.bounds.tetrapods): its levels against the plain definition, exact on
trees of at most four leaves, admissible against the BFS optimum, and how the solve driver
asks it."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kamicp import bounds
from kamicp.bounds import pieces, tetrapods
from kamicp.bounds.bits import unpack_bits
from kamicp.bounds.cache import BOUND_CACHE
from kamicp.bounds.tetrapods import keep_levels_memory, packed_tetrapod_levels, tetrapod_values
from kamicp.bounds.tripods import packed_tripod_levels, tripod_values, unpack_level
from kamicp.game.regions import from_edges
from kamicp.search.bfs import bfs
from kamicp.search.ida import IdaOptions, idastar
from kamicp.solving.options import SolveOptions
from kamicp.solving.solve import solve
from tests.bounds.test_tripods import coloured_trees, on_piece, plain_tripods, relax
from tests.strategies import (
    assert_no_shorter,
    coloured_graphs,
    region_graphs,
    square_board_above_64_regions,
)

# --- the levels against the definition -------------------------------------------------------


def plain_tetrapods(colour, adj, k):
    """Q(x, y, z, w, d) by relaxing its recursion until nothing changes: integers, every end
    and every pairing of the ends split, no levels, no closure argument."""
    n = len(colour)
    nodes, colours = range(n), range(k)
    edges = [(u, v) for u in nodes for v in adj[u]]
    y3 = plain_tripods(colour, adj, k)
    m = {(x, y, d): y3[x, y, y, d] for x in nodes for y in nodes for d in colours}
    big = 10 * n * k
    q4 = {key + (d,): big for key in itertools.product(nodes, repeat=4) for d in colours}

    def rules(x, y, z, w, d):
        ends = (x, y, z, w)
        options = [1 + min(q4[ends + (e,)] for e in colours)]
        for i in range(4):  # the arm of end i is cut: a walk, then a tetrapod
            rest = ends[:i] + ends[i + 1 :]
            options += [m[ends[i], u, d] + q4[(v, *rest, d)] for u, v in edges]
        for a, b, c, e in ((x, y, z, w), (x, z, y, w), (x, w, y, z)):  # two tripods
            options += [y3[a, b, u, d] + y3[v, c, e, d] for u, v in edges]
        for i, j in itertools.combinations(range(4), 2):  # two ends in one node
            if ends[i] == ends[j]:
                rest = [ends[h] for h in range(4) if h != j]
                options.append(y3[(*rest, d)])
        return options

    relax(q4, rules)
    return q4


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=6, max_colours=3) | coloured_graphs())
def test_every_level_is_the_set_of_quadruples_within_it(case):
    if isinstance(case, tuple):  # neighbours may share a colour: the closure iterates
        colour, adj, k = case
        pieces = [range(len(colour))]
    else:
        colour, adj, k, pieces = case.colour, case.adj, case.k, case.islands
    for piece in pieces:
        q4 = plain_tetrapods(*on_piece(colour, adj, piece), k)
        top = max(q4.values())
        n = len(piece)
        levels = [level.copy() for level in packed_tetrapod_levels(colour, adj, piece, k, top)]
        assert len(levels) == top + 1
        for t, packed in enumerate(levels):
            level = unpack_bits(packed, n)  # [d, x, y, z, w]
            for (x, y, z, w, d), value in q4.items():
                assert level[d, x, y, z, w] == (value <= t)
        values = [max(v for key, v in q4.items() if key[4] == d) for d in range(k)]
        assert tetrapod_values(colour, adj, piece, k) == values
        assert tetrapod_values(colour, adj, piece, k, cap=1) == [min(v, 2) for v in values]


@settings(max_examples=2, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_levels_of_pieces_above_64_regions(seed):
    # rows of two words; too big for the plain recursion: what must hold of every level
    g = square_board_above_64_regions(seed)
    piece = g.islands[0]
    n = len(piece)
    tripods = [
        unpack_level(y, n).copy() for y in packed_tripod_levels(g.colour, g.adj, piece, g.k, 1)
    ]
    before = None
    for t, packed in enumerate(packed_tetrapod_levels(g.colour, g.adj, piece, g.k, 1)):
        level = unpack_bits(packed, n)
        assert (level == level.transpose(0, 2, 1, 3, 4)).all()  # no first end
        assert (level == level.transpose(0, 4, 2, 3, 1)).all()  # the bits swap too
        assert (np.einsum("dxyzz->dxyz", level) == tripods[t]).all()  # two ends in one node
        assert before is None or (level >= before).all()
        before = level


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(region_graphs(max_cells=9, max_colours=4), min_size=3, max_size=3))
def test_kept_memory_gives_the_same_levels(graphs):
    # kept memory holds the previous computation's bits: each one must start from zeros, and
    # a larger one gets new memory
    def levels(g):
        piece = g.islands[0]
        return [lv.copy() for lv in packed_tetrapod_levels(g.colour, g.adj, piece, g.k, 4)]

    fresh = [levels(g) for g in graphs]
    keep_levels_memory(True)
    try:
        for g, expected in zip(graphs + graphs, fresh + fresh, strict=True):
            kept = levels(g)
            assert len(kept) == len(expected)
            assert all((a == b).all() for a, b in zip(kept, expected, strict=True))
        memory = BOUND_CACHE.memory
        smallest = min(graphs, key=lambda g: len(g.islands[0]))
        levels(smallest)
        assert BOUND_CACHE.memory is memory  # reused, not new
    finally:
        keep_levels_memory(False)
    assert not BOUND_CACHE.keep_memory and BOUND_CACHE.memory is None


def test_idastar_keeps_the_memory_only_while_it_checks(monkeypatch):
    sizes = []
    real = tetrapods._zeros

    def spy(shape):
        sizes.append(BOUND_CACHE.keep_memory)
        return real(shape)

    monkeypatch.setattr(tetrapods, "_zeros", spy)
    g = from_edges(*TREE)
    bounds.forget_cached_bounds()
    out = idastar(g, options=IdaOptions(tripod_after=0.0, tetrapod_depth=1))
    assert out.complete and len(out.moves) == 5
    assert sizes and all(sizes)  # every check kept it
    assert not BOUND_CACHE.keep_memory and BOUND_CACHE.memory is None  # let go at the end


# --- exactness on trees, admissibility ----------------------------------------------------


def leaves(edges, n):
    degree = [0] * n
    for a, b in edges:
        degree[a] += 1
        degree[b] += 1
    return sum(1 for d in degree if d == 1)


def check_tree(tree):
    colour, edges, k = tree
    g = from_edges(colour, edges, k=k)
    values = tetrapod_values(g.colour, g.adj, range(g.n), k)
    exact = [bfs(g, final_colour=d).lower_bound for d in range(k)]
    if leaves(edges, len(colour)) <= 4:
        assert values == exact, (colour, edges)
    else:
        assert all(v <= e for v, e in zip(values, exact, strict=True))


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(coloured_trees(max_nodes=9, max_colours=4))
def test_exact_on_trees_of_at_most_four_leaves(tree):
    check_tree(tree)


FINALS = st.none() | st.integers(0, 7)


def check(g, final):
    if g.rules != "free":
        return
    cur = bounds.contract(g)
    value = bounds.tetrapods_bound(cur, final)
    assert value >= pieces.tripods_bound(cur, final)
    assert_no_shorter(g, final, value)  # at most the optimum


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=14, max_colours=4), FINALS)
def test_tetrapods_bound_is_admissible(g, choice):
    check(g, None if choice is None else choice % g.k)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=16, max_colours=5), FINALS)
def test_tetrapods_bound_is_admissible_many(g, choice):
    check(g, None if choice is None else choice % g.k)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck))
@given(coloured_trees(max_nodes=11, max_colours=4))
def test_exact_on_trees_of_at_most_four_leaves_many(tree):
    check_tree(tree)


# --- the bound in bounds and in the solve driver --------------------------------------------

# a tree of 11 regions where every final colour needs a tetrapod: tripods [5, 5, 5, 4],
# tetrapods [6, 5, 5, 5], optimum 5 (found by a random search)
TREE = (
    [3, 1, 0, 0, 3, 0, 3, 2, 2, 3, 1],
    [(0, 1), (0, 2), (1, 3), (3, 4), (0, 5), (2, 6), (0, 7), (1, 8), (1, 9), (9, 10)],
)


def test_a_tetrapod_raises_the_bound_to_the_optimum():
    g = from_edges(*TREE)
    assert tripod_values(g.colour, g.adj, range(g.n), g.k) == [5, 5, 5, 4]
    assert tetrapod_values(g.colour, g.adj, range(g.n), g.k) == [6, 5, 5, 5]
    assert bfs(g).lower_bound == 5


def test_the_bound_is_cached_with_its_cap(monkeypatch):
    monkeypatch.setattr(BOUND_CACHE, "tetrapods", {})
    cur = bounds.contract(from_edges(*TREE))
    assert bounds.tetrapods_bound(cur, cached_only=True) == 4  # nothing cached: the tripods
    assert bounds.tetrapods_bound(cur, cap=3) == 4  # above the cap: cap + 1
    assert bounds.tetrapods_bound(cur, cached_only=True) == 4
    assert bounds.tetrapods_bound(cur, cap=4) == 5  # a higher cap computes again
    assert bounds.tetrapods_bound(cur, cached_only=True) == 5
    assert bounds.lower_bound(from_edges(*TREE)) == 5  # lower_bound uses what is cached
    monkeypatch.setattr(pieces, "TETRAPOD_NODES", 10)
    assert bounds.tetrapods_bound(cur, cap=6) == 4  # a piece too big keeps its tripods


def test_solve_asks_it_where_the_tripods_are_below_a_solution(monkeypatch):
    monkeypatch.setattr(BOUND_CACHE, "tetrapods", {})
    monkeypatch.setattr(BOUND_CACHE, "tripods", {})
    asked = []
    real = bounds.tetrapods_bound

    def spy(cur, final_colour=None, cap=None, deadline=None, cached_only=False):
        if not cached_only:
            asked.append(cap)
        return real(cur, final_colour, cap, deadline, cached_only)

    monkeypatch.setattr(bounds, "tetrapods_bound", spy)
    g = from_edges(*TREE)
    r = solve(g, "idastar")
    assert r.status == "optimal" and r.moves == 5 and r.lower_bound == 5
    assert asked and asked[0] >= 4  # up to the quick beam's length - 1
    r = solve(g, "idastar", SolveOptions(max_moves=4))
    assert r.status == "infeasible" and r.lower_bound == 5
    asked.clear()
    path = from_edges([0, 1, 0, 1], [(0, 1), (1, 2), (2, 3)])  # tripods meet the beam's 2
    assert solve(path, "idastar").moves == 2 and not asked


def test_in_the_portfolio_sat_asks_it_and_idastar_starts_at_once(monkeypatch, tmp_path):
    from kamicp.result import Result
    from kamicp.solving import portfolio

    record = tmp_path / "backends.txt"

    def drive(g, backend, options):  # in the backend's process: note what it was given
        with record.open("a") as out:
            out.write(f"{backend} {options.tetrapods}\n")
        return Result("unknown", None, 0, None, backend)

    monkeypatch.setattr(portfolio, "drive", drive)
    portfolio.solve_portfolio(from_edges(*TREE), SolveOptions(time_limit=30))
    assert sorted(record.read_text().split("\n")[:-1]) == ["idastar False", "sat True"]
    record.unlink()
    portfolio.solve_portfolio(from_edges(*TREE), SolveOptions(time_limit=30), backends=("idastar",))
    assert record.read_text() == "idastar True\n"  # alone, it asks it itself


def test_more_than_sixteen_levels_on_a_long_path():
    # without a cap the levels grow past the first 16; on a path every tetrapod is a path
    from kamicp.bounds.walks import walk_values

    n = 40
    colour = [i % 3 for i in range(n)]
    adj = [[j for j in (i - 1, i + 1) if 0 <= j < n] for i in range(n)]
    values = tetrapod_values(colour, adj, range(n), 3)
    assert values == walk_values(colour, adj, range(n), 3) and min(values) > 16


def test_pieces_whose_levels_would_not_fit_keep_their_tripods(monkeypatch):
    monkeypatch.setattr(BOUND_CACHE, "tetrapods", {})
    cur = bounds.contract(from_edges(*TREE))
    monkeypatch.setattr(pieces, "TETRAPOD_BYTES", 11**3 * 4 * 8 * 5)  # 5 levels, 4 colours
    assert bounds.tetrapods_bound(cur, cap=5) == 4  # 6 levels: left out
    assert bounds.tetrapods_bound(cur, cap=4) == 5  # 5 levels: computed


def test_every_piece_keeps_its_tetrapods_in_the_cache(monkeypatch):
    # the tree and a path as two pieces: computing the second piece's bounds must not drop
    # the first piece's tetrapod values, which later start bounds read from the cache (the
    # path, cheapest in the tree's cheapest tripod colour, lets the tree's tetrapods count)
    monkeypatch.setattr(BOUND_CACHE, "tetrapods", {})
    monkeypatch.setattr(BOUND_CACHE, "tripods", {})
    colours, edges = TREE
    cur = bounds.contract(from_edges([*colours, 3, 0, 3], [*edges, (11, 12), (12, 13)]))
    assert len(cur.islands) == 2
    computed = bounds.tetrapods_bound(cur, cap=8)
    assert bounds.tetrapods_bound(cur, cached_only=True) == computed
    assert computed > pieces.tripods_bound(cur)
