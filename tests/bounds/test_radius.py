"""The current region graph (kamicp.bounds.position) and its radius (kamicp.bounds.radius): the
graph played move by move equals the one rebuilt from scratch, and the radius and balls
updated from the parent's equal networkx's.
"""

from __future__ import annotations

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kamicp import bounds
from kamicp.bounds.radius import piece_balls
from kamicp.game import rules
from tests.strategies import region_graphs

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))


def same_graph(a, b):
    """Two current region graphs describe the same partition, colours, edges and pieces."""
    assert a.pos == b.pos
    assert {frozenset(m) for m in a.members.values()} == {frozenset(m) for m in b.members.values()}
    name_b = {r: v for v, m in b.members.items() for r in m}
    to_b = {v: name_b[v] for v in a.members}  # a representative lies in its own region
    edges_a = {frozenset((to_b[v], to_b[u])) for v in a.adj for u in a.adj[v]}
    edges_b = {frozenset((v, u)) for v in b.adj for u in b.adj[v]}
    assert edges_a == edges_b
    assert to_b[a.pivot] == b.pivot
    for i, piece in enumerate(a.islands):
        assert sorted(to_b[v] for v in piece) == sorted(b.islands[i])


def nx_radius(cur, i):
    graph = nx.Graph()
    graph.add_nodes_from(cur.islands[i])
    graph.add_edges_from((v, u) for v in cur.islands[i] for u in cur.adj[v])
    return nx.radius(graph)


@SETTINGS
@given(region_graphs(max_cells=20, max_colours=4), st.data())
def test_play_matches_rebuild_and_radius(g, data):
    cur = bounds.contract(g)
    pos = rules.start(g)
    for _ in range(data.draw(st.integers(0, 8))):
        if cur.is_solved():
            break
        # Score a few siblings first, as the searches do, so the cached balls are shared.
        moves = [(v, c) for v in cur.nodes()[:3] for c in range(g.k) if c != cur.pos[v]]
        for v, c in moves:
            s = cur.play(v, c)
            for i in range(len(s.islands)):
                assert bounds.piece_radius(s, i) == nx_radius(s, i)
            # The searches' shortcut: the bound of a child without building it.
            for final in (None, c, g.k - 1):
                ahead, radius = bounds.islands_bound_after(cur, v, c, final)
                assert ahead == bounds.islands_bound(s, final)
                assert radius == bounds.piece_radius(s, cur.island_of[v])
        for c in range(g.k):
            if c != cur.pos[cur.pivot]:
                played = cur.play(cur.pivot, c)
                for final in (None, c, g.k - 1):
                    ahead = bounds.pivot_layer_bound(cur, final, c)
                    assert ahead == bounds.pivot_layer_bound(played, final)
        v = cur.pivot if g.rules == "pivot" else data.draw(st.sampled_from(cur.nodes()))
        choices = [c for c in range(g.k) if c != cur.pos[v]]
        if not choices:
            break
        c = data.draw(st.sampled_from(choices))
        cur = cur.play(v, c)
        pos = rules.apply(g, pos, (v, c))
        same_graph(cur, bounds.contract(g, pos))
        for i in range(len(cur.islands)):
            assert bounds.piece_radius(cur, i) == nx_radius(cur, i)
            same_balls(cur, i)  # grown from the parent's balls (built by the siblings above)
            assert cur.colour_counts(i) == bounds.contract(g, pos).colour_counts(i)


def same_balls(cur, i):
    """The cached balls of piece i are the distance balls networkx finds."""
    balls = piece_balls(cur, i)
    graph = nx.Graph()
    graph.add_nodes_from(cur.islands[i])
    graph.add_edges_from((v, u) for v in cur.islands[i] for u in cur.adj[v])
    assert balls.radius == nx.radius(graph)
    assert balls.full == sum(1 << v for v in cur.islands[i])
    for v in cur.islands[i]:
        dist = nx.single_source_shortest_path_length(graph, v)
        for d, level in enumerate(balls.levels):
            assert level[v] == sum(1 << u for u, du in dist.items() if du <= d)


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=24, max_colours=4), st.data())
def test_only_radius_movers_lower_the_radius(g, data):
    # Every move of a node outside radius_movers keeps its piece's radius (networkx decides).
    cur = bounds.contract(g)
    for _ in range(data.draw(st.integers(0, 4))):
        if cur.is_solved():
            break
        v = data.draw(st.sampled_from(cur.nodes()))
        choices = [c for c in range(g.k) if c != cur.pos[v]]
        if not choices:
            break
        cur = cur.play(v, data.draw(st.sampled_from(choices)))
    for i in range(len(cur.islands)):
        movers = bounds.radius_movers(cur, i)
        if movers is None:
            continue
        before = nx_radius(cur, i)
        for v in cur.islands[i]:
            for c in range(g.k):
                if c == cur.pos[v]:
                    continue
                after = nx_radius(cur.play(v, c), i)
                assert v in movers or after == before, (v, c, before, after)
