"""Admissible bounds: never above the BFS optimum, from the start or any reachable position;
where BFS cannot finish, never above a solution's length and with no shorter solution
(``assert_no_shorter``), so no board is dropped for being hard.

Also the machinery behind them: the current region graph updated move by move equals the
one rebuilt from scratch, and the incremental radius equals networkx's.
"""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import HealthCheck, event, given, reject, settings
from hypothesis import strategies as st

from kamicp import bounds
from kamicp.bounds.radius import piece_balls
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


# --- the current region graph and its radius ------------------------------------------------


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


# --- hand-made cases ---------------------------------------------------------------------------


def path(colours, rules_="free"):
    return from_edges(colours, [(i, i + 1) for i in range(len(colours) - 1)], rules=rules_)


def test_radius_of_alternating_path_is_optimal():
    g = path([0, 1, 0, 1, 0, 1, 0])  # radius 3, and 3 moves from the middle
    assert bounds.bound_report(g)["radius"] == 3
    assert bounds.lower_bound(g) == 3 == len(bfs(g).moves)


def test_colour_bound_with_absent_final_colour():
    g = path([0, 1, 2], rules_="free")
    assert bounds.bound_report(g)["colours"] == 2
    g4 = from_edges([0, 1, 2], [(0, 1), (1, 2)], k=4)
    assert bounds.bound_report(g4, final_colour=3)["colours"] == 3
    assert bounds.lower_bound(g4, final_colour=3) <= len(bfs(g4, final_colour=3).moves)


def test_islands_add_up():
    # Two pieces 0-1-0: each needs one move (recolour its middle), the same final colour.
    g = from_edges([0, 1, 0, 0, 1, 0], [(0, 1), (1, 2), (3, 4), (4, 5)], k=2)
    assert bounds.bound_report(g)["islands"] == 2 == len(bfs(g).moves)


def test_pivot_layers_beat_eccentricity():
    # From the pivot: colour 1 at distance 1, colours 2, 3, 1 further away.
    g = path([0, 1, 2, 3, 1], rules_="pivot")
    report = bounds.bound_report(g)
    assert report["pivot_eccentricity"] == 4
    assert report["pivot_layers"] == 4 == len(bfs(g).moves)
    star = from_edges([0, 1, 2, 3, 1], [(0, 1), (0, 2), (0, 3), (3, 4)], rules="pivot")
    report = bounds.bound_report(star)
    assert report["pivot_eccentricity"] == 2
    assert report["pivot_layers"] == 3 == len(bfs(star).moves)


def test_pivot_solvable_only_with_one_coloured_pieces():
    g = from_edges([0, 1, 2, 2, 1], [(0, 1), (3, 4)], k=3, rules="pivot")
    assert not bounds.solvable(g)
    assert bounds.lower_bound(g) == bounds.UNSOLVABLE
    h = from_edges([0, 1, 2, 2], [(0, 1)], k=3, rules="pivot")
    assert bounds.solvable(h) and not bounds.solvable(h, final_colour=0)
    assert bounds.solvable(h, final_colour=2)
    assert not bounds.solvable(h, final_colour=5)
