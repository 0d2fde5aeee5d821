"""The moves A* and IDA* try (kamicp.search.moves): the one-piece child generator agrees
with the general one, and the move-order rules R5 and R6 keep an optimum on every small graph.
"""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kamicp import bounds
from kamicp.game import rules
from kamicp.game.regions import from_edges
from kamicp.search.base import INF, Search
from kamicp.search.bfs import bfs
from kamicp.search.moves import last_move_context
from tests.search.test_search import idastar_cheap
from tests.strategies import region_graphs


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=20, max_colours=4, rules=("free",)), st.data())
def test_one_piece_children_match_the_general_ones(g, data):
    # The inlined child bounds of IDA* equal those of islands_bound_after, with and without
    # a last move (commuting-move pruning) and a final colour.

    if len(g.islands) != 1:
        return
    colours = st.integers(0, g.k - 1)
    cur = bounds.contract(g)
    for _ in range(data.draw(st.integers(0, 4))):
        if cur.is_solved():
            return
        v = data.draw(st.sampled_from(cur.nodes()))
        c = data.draw(st.sampled_from([c for c in range(g.k) if c != cur.pos[v]] or [None]))
        if c is None:
            return
        cur = cur.play(v, c)
    # the last move's context: none, a merging move's node, or a node and the colour it had
    # before a move that merged nothing (R5, R6)
    last = data.draw(st.none() | st.sampled_from(cur.nodes()))
    merged = data.draw(st.booleans())
    after = None if last is None else last_move_context(last, merged, data.draw(colours))
    final = data.draw(st.none() | st.integers(0, g.k - 1))
    s = Search(g, final, None, None)
    fast, floor = s.one_piece_children(cur, final, after)
    slow = s.general_children(cur, 0, final, after)
    assert floor == INF
    assert [fields(c) for c in fast] == [fields(c) for c in slow]
    # With a budget, every child within it is kept, and the floor is at most 1 + the
    # bound of every child left out (what IDA* returns for them).
    budget = data.draw(st.integers(0, 8))
    kept, floor = s.one_piece_children(cur, final, after, budget)
    kept_moves = {c.move for c in kept}
    assert [fields(c) for c in kept] == [fields(c) for c in fast if c.move in kept_moves]
    for c in fast:
        if c.move not in kept_moves:
            assert 1 + c.bound > budget and floor <= 1 + c.bound


def fields(child):
    """A child's fields but the position made from it."""
    return child.bound, child.minus_merged, child.move, child.first, child.radius


def canonical_colourings(n, k):
    """The colourings of n nodes with at most k colours, one per renaming of the colours
    (each new colour is the least unused one)."""

    def extend(prefix, used):
        if len(prefix) == n:
            yield prefix
            return
        for c in range(min(used + 1, k)):
            yield from extend(prefix + [c], max(used, c + 1))

    yield from extend([], 0)


def depth_with_move_rules(g, final):
    """Breadth-first over (position, first open piece, last move's context), expanding
    exactly the children IDA*'s generator keeps (R1-R6; no bound cuts anything): the moves
    of the shortest solution that the rules let through, or None."""

    search = Search(g, final, None, None)
    layer = [(bounds.contract(g), 0, None)]
    seen = {(layer[0][0].pos, 0, None)}
    depth = 0
    while layer:
        following = []
        for cur, first, after in layer:
            if cur.is_solved(final):
                return depth
            for child in search.children(cur, first, after):
                context = search.context(cur, child.move, child.minus_merged)
                state = search.build(cur, child)
                if (state.pos, child.first, context) not in seen:
                    seen.add((state.pos, child.first, context))
                    following.append((state, child.first, context))
        layer = following
        depth += 1
    return None


# The atlas lists graphs by node count: 0-52 have at most 5 nodes, 53-208 have 6. Those
# with 6 nodes take most of the time, so the slow suite checks them.
@pytest.mark.parametrize(
    "first, last, expected",
    [(3, 53, 340), pytest.param(53, 209, 872, marks=pytest.mark.slow)],
)
def test_move_order_rules_keep_an_optimum_on_every_small_graph(first, last, expected):
    # R5 and R6 (encodings/bounds.md) leave out moves that some optimal solution plays in
    # another order. Exhaustively: every connected graph of at most 5 nodes with up to 4
    # colours, and of 6 nodes with up to 3, every proper colouring (one per renaming), no
    # final colour or colour 0: the moves the rules let through still reach BFS's optimum
    # (no bound helps), and IDA* with only the cheap bounds finds it and proves one move
    # fewer impossible. Over both ranges: 606 colourings of 142 graphs, two finals each.
    from networkx.generators.atlas import graph_atlas_g

    boards = 0
    for graph in graph_atlas_g()[first:last]:
        if not nx.is_connected(graph):
            continue
        n, edges = graph.number_of_nodes(), list(graph.edges())
        k = 4 if n <= 5 else 3
        for colour in canonical_colourings(n, k):
            if any(colour[u] == colour[v] for u, v in edges):
                continue
            g = from_edges(colour, edges, k=k)
            for final in (None, 0):
                opt = len(bfs(g, final_colour=final).moves)
                assert depth_with_move_rules(g, final) == opt, (colour, edges, final)
                out = idastar_cheap(g, final_colour=final)
                assert len(out.moves) == opt, (colour, edges, final)
                rules.verify_solution(g, out.moves, final)
                below = idastar_cheap(g, final_colour=final, max_moves=opt - 1)
                assert below.moves is None and below.complete
                boards += 1
    assert boards == expected
