"""Leaves (kamicp.bounds.leaves): a piece without some of its leaves never needs more moves (against
BFS), also when peeled leaf after leaf; the trim drops the most central leaves and nothing
else; the peel keeps the diameter and the radius and stops where the next leaf would change
them; and the tetrapod bound stays admissible when its checks go through the peel and the
trim."""

from __future__ import annotations

import contextlib
import itertools

import networkx as nx
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kamicp import bounds
from kamicp.bounds import capped, leaves
from kamicp.game import rules
from kamicp.game.regions import from_edges, subgraph
from kamicp.search.bfs import bfs
from kamicp.search.ida import IdaOptions, idastar
from tests.bounds.test_tripods import coloured_trees
from tests.strategies import assert_no_shorter, oracle, region_graphs


def pieces_with_leaves(g):
    """The pieces of ``g`` of at least three regions that have a leaf, each as a graph."""
    for piece in g.islands:
        part = subgraph(g, sorted(piece))
        if part.n >= 3 and any(len(part.adj[v]) == 1 for v in range(part.n)):
            yield part


def check_leaves_never_add_moves(g):
    parts = list(pieces_with_leaves(g))
    assume(parts)
    for part in parts:
        leaf_nodes = [v for v in range(part.n) if len(part.adj[v]) == 1][:3]
        for final in range(part.k):
            whole = oracle(part, final).lower_bound
            for size in range(1, len(leaf_nodes) + 1):
                for drop in itertools.combinations(leaf_nodes, size):
                    rest = subgraph(part, [v for v in range(part.n) if v not in drop])
                    assert bfs(rest, final_colour=final).lower_bound <= whole


# Each example runs BFS on up to 7 subgraphs per final colour, so a few hard boards cost
# minutes: the fast suite takes 30 examples, the slow variant below 1,000.
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=12, max_colours=4, rules=("free",)))
def test_a_piece_without_leaves_needs_no_more_moves(g):
    check_leaves_never_add_moves(g)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=14, max_colours=4, rules=("free",)))
def test_a_piece_without_leaves_needs_no_more_moves_many(g):
    check_leaves_never_add_moves(g)


@st.composite
def connected_graphs(draw):
    """Adjacency lists of a random connected graph: a random tree and a few more edges."""
    n = draw(st.integers(2, 24))
    edges = {(draw(st.integers(0, v - 1)), v) for v in range(1, n)}
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
    edges |= set(draw(st.lists(st.sampled_from(pairs), max_size=n // 3)))
    adj = [[] for _ in range(n)]
    for u, v in sorted(edges):
        adj[u].append(v)
        adj[v].append(u)
    return adj


@settings(max_examples=300, deadline=None)
@given(connected_graphs(), st.integers(1, 8))
def test_the_trim_drops_the_most_central_leaves_to_a_multiple_of_the_width(adj, width):
    n = len(adj)
    colour = list(range(n))  # every node its own colour: the kept ones can be told apart
    result = leaves.trimmed(colour, adj, width)
    leaf_nodes = [v for v in range(n) if len(adj[v]) == 1]
    wanted = n - width * ((n - 1) // width)
    if n <= width or wanted > len(leaf_nodes):
        assert result is None
        return
    kept_colours, kept_adj = result
    assert len(kept_colours) % width == 0 and len(kept_colours) == n - wanted
    dropped = set(range(n)) - set(kept_colours)
    assert dropped <= set(leaf_nodes)
    graph = nx.Graph([(u, v) for u in range(n) for v in adj[u]])
    far = {v: max(nx.single_source_shortest_path_length(graph, v).values()) for v in leaf_nodes}
    kept_leaves = set(leaf_nodes) - dropped
    assert all(far[a] <= far[b] for a in dropped for b in kept_leaves)
    # the same graph on the kept nodes, renumbered in order
    assert kept_colours == sorted(kept_colours)
    for i, v in enumerate(kept_colours):
        assert sorted(kept_colours[j] for j in kept_adj[i]) == sorted(set(adj[v]) - dropped)
    assert nx.is_connected(nx_graph(kept_adj))


def nx_graph(adj):
    graph = nx.Graph()
    graph.add_nodes_from(range(len(adj)))
    graph.add_edges_from((i, j) for i in range(len(adj)) for j in adj[i])
    return graph


@settings(max_examples=300, deadline=None)
@given(connected_graphs())
def test_the_peel_removes_leaves_while_the_diameter_and_radius_stay(adj):
    n = len(adj)
    graph = nx_graph(adj)
    result = leaves.peeled(list(range(n)), adj)  # colours name the nodes
    kept = list(range(n)) if result is None else result[0]
    assert kept == sorted(kept)
    rest = graph.subgraph(kept)
    if result is not None:
        assert len(kept) < n
        assert nx_graph(result[1]).edges == nx.relabel_nodes(rest, kept.index).edges
    assert nx.is_connected(rest)
    # the removed nodes come off one leaf at a time
    current, dropped = graph.copy(), set(range(n)) - set(kept)
    while dropped:
        leaf = next(v for v in dropped if current.degree(v) == 1)
        current.remove_node(leaf)
        dropped.discard(leaf)
    shape = (nx.diameter(graph), nx.radius(graph))
    assert (nx.diameter(rest), nx.radius(rest)) == shape
    # it stops only where its next leaf would change the shape, or at three nodes
    leaf_nodes = [v for v in rest if rest.degree(v) == 1]
    if len(kept) > 3 and leaf_nodes:
        far = nx.eccentricity(rest, v=leaf_nodes)
        nxt = min(leaf_nodes, key=lambda v: (far[v], v))
        smaller = rest.subgraph(set(kept) - {nxt})
        assert (nx.diameter(smaller), nx.radius(smaller)) != shape


def test_central_leaves_of_a_path_and_a_single_edge():
    assert leaves.central_leaves([[1], [0, 2], [1]]) == [0, 2]
    assert leaves.central_leaves([[1], [0]]) == [0, 1]
    assert leaves.trimmed([0, 1], [[1], [0]], width=1) == ([1], [[]])


@contextlib.contextmanager
def word_of(bits):
    """Rows of ``bits`` bits for the trim, so that small boards reach it."""
    kept = leaves.WORD
    leaves.WORD = bits
    bounds.forget_cached_bounds()
    try:
        yield
    finally:
        leaves.WORD = kept
        bounds.forget_cached_bounds()


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=14, max_colours=4, rules=("free",)), st.integers(0, 3))
def test_tetrapod_checks_through_the_peel_and_trim_stay_admissible(g, width_choice):
    optimum = oracle(g).lower_bound
    cur = bounds.contract(g)
    with word_of((2, 3, 4, 6)[width_choice]):
        for cap, peel in itertools.product((optimum - 1, optimum), (False, True)):
            bounds.forget_cached_bounds()
            assert bounds.tetrapods_bound(cur, None, cap, peel=peel) <= optimum


# a star of two leaves with a long arm: without its two central leaves, a path 0 2 0 1
STAR = ([0, 1, 1, 2, 0, 1], [(0, 1), (0, 2), (0, 3), (3, 4), (4, 5)])


@pytest.fixture
def sizes(monkeypatch):
    """The sizes of the pieces whose tetrapod levels are computed, in order."""
    seen = []

    def spy(colour, adj, piece, *args):
        seen.append(len(piece))
        return real(colour, adj, piece, *args)

    real = capped.tetrapod_values  # looked up there by the checks and the start bounds
    monkeypatch.setattr(capped, "tetrapod_values", spy)
    return seen


def test_a_check_that_the_trimmed_piece_decides_computes_nothing_else(sizes):
    g = from_edges(*STAR)
    cur = bounds.contract(g)
    optimum = bfs(g).lower_bound
    with word_of(4):
        assert bounds.tetrapods_bound(cur, None, cap=1) == 2  # above the cap: cut
        assert sizes == [4]  # the path alone
        sizes.clear()
        bounds.forget_cached_bounds()
        assert bounds.tetrapods_bound(cur, None, cap=optimum) <= optimum
        assert sizes == [4, 6]  # within the cap: the whole piece too


def test_a_check_the_peel_misses_ends_there(sizes, monkeypatch):
    # a peel that went too far: the first three nodes of the path 0 2 0 1 need one move.
    # A check (peel) stops at its miss, though the trim would cut; a start bound (no
    # peel) computes the trim
    monkeypatch.setattr(leaves, "peeled", lambda colour, adj: ([0, 2, 0], [[1], [0, 2], [1]]))
    monkeypatch.setattr(capped, "ANCHORED", False)  # it would cut first (test_anchored)
    cur = bounds.contract(from_edges(*STAR))
    optimum = bfs(from_edges(*STAR)).lower_bound
    with word_of(4):
        # the value: the tripod value, 2 (test_tripods); the peeled piece's 1 adds nothing
        assert bounds.tetrapods_bound(cur, None, cap=1, peel=True) <= optimum
        assert sizes == [3]
        sizes.clear()
        bounds.forget_cached_bounds()
        assert bounds.tetrapods_bound(cur, None, cap=1) == 2  # a start bound: no peel
        assert sizes == [4]


def test_a_check_the_trim_misses_by_a_few_leaves_skips_the_whole_piece(sizes, monkeypatch):
    # IDA*'s checks (peel) stop at a trim that dropped at most NEAR_WHOLE leaves; a start
    # bound (no peel), or a trim that dropped more, goes on to the whole piece
    monkeypatch.setattr(capped, "ANCHORED", False)  # it would be tried first (test_anchored)
    cur = bounds.contract(from_edges(*STAR))
    optimum = bfs(from_edges(*STAR)).lower_bound
    with word_of(4):  # the trim drops STAR's two central leaves
        assert bounds.tetrapods_bound(cur, None, cap=optimum, peel=True) <= optimum
        assert sizes == [4]
        sizes.clear()
        bounds.forget_cached_bounds()
        assert bounds.tetrapods_bound(cur, None, cap=optimum) <= optimum
        assert sizes == [4, 6]
        sizes.clear()
        bounds.forget_cached_bounds()
        monkeypatch.setattr(capped, "NEAR_WHOLE", 1)
        assert bounds.tetrapods_bound(cur, None, cap=optimum, peel=True) <= optimum
        assert sizes == [4, 6]


def check_idastar_through_the_trim(g, final, bits):
    ref = oracle(g, final)
    with word_of(bits):
        out = idastar(
            g, final, options=IdaOptions(tripod_after=0.0, check_ratio=0.0, tetrapod_depth=2)
        )
        assert out.complete and out.lower_bound == ref.lower_bound
        if ref.moves is None:
            assert out.moves is None
            return
        assert len(out.moves) == len(ref.moves)
        rules.verify_solution(g, out.moves, final)
        if ref.moves:
            below = idastar(
                g, final, max_moves=len(ref.moves) - 1, options=IdaOptions(tripod_after=0.0)
            )
            assert below.complete and below.moves is None


@st.composite
def leafy_graphs(draw, max_nodes):
    """A random tree of 5 or more nodes with at most two more edges, neighbours of different
    colours: many leaves, so the trim applies at small widths."""
    colour, edges, k = draw(coloured_trees(max_nodes=max_nodes, max_colours=4))
    assume(len(colour) >= 5)
    pairs = [(u, v) for u in range(len(colour)) for v in range(u + 1, len(colour))]
    extra = draw(st.lists(st.sampled_from(pairs), max_size=2))
    return from_edges(colour, edges + [(u, v) for u, v in extra if colour[u] != colour[v]], k=k)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(leafy_graphs(max_nodes=10), st.none() | st.integers(0, 7), st.integers(2, 5))
def test_idastar_with_trimmed_checks_agrees_with_bfs(g, choice, bits):
    check_idastar_through_the_trim(g, None if choice is None else choice % g.k, bits)


@pytest.mark.slow
@settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck))
@given(leafy_graphs(max_nodes=13), st.none() | st.integers(0, 7), st.integers(2, 8))
def test_idastar_with_trimmed_checks_agrees_with_bfs_many(g, choice, bits):
    check_idastar_through_the_trim(g, None if choice is None else choice % g.k, bits)


def check_peeled_pieces_never_need_more_moves(g, choice):
    parts = list(pieces_with_leaves(g))
    assume(parts)
    for part in parts:
        result = leaves.peeled(list(part.colour), part.adj)
        assume(result is not None)
        rest = from_edges(
            result[0], [(i, j) for i, js in enumerate(result[1]) for j in js if i < j], k=part.k
        )
        final = choice % part.k
        # the peeled piece's optimum is a lower bound on the piece's: no shorter solution
        assert_no_shorter(part, final, oracle(rest, final).lower_bound)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(leafy_graphs(max_nodes=11), st.integers(0, 7))
def test_a_peeled_piece_needs_no_more_moves(g, choice):
    check_peeled_pieces_never_need_more_moves(g, choice)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))
@given(leafy_graphs(max_nodes=13), st.integers(0, 7))
def test_a_peeled_piece_needs_no_more_moves_many(g, choice):
    check_peeled_pieces_never_need_more_moves(g, choice)
