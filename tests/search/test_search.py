"""The reference searches: BFS (the oracle), A*, IDA* and the greedy.

On random small boards of every geometry, with holes and islands, both rule sets, with and
without a required final colour: A* and IDA* find the BFS optimum, every solution replays,
the greedy is never shorter than the optimum, and a move limit one below the optimum is
proved infeasible by every search. The default run takes a few hundred boards per property;
``-m slow`` runs thousands.
"""

from __future__ import annotations

import json
import random
import time
from collections import deque
from pathlib import Path
from unittest import mock

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kamicp import bounds
from kamicp.game import rules
from kamicp.game.regions import from_edges
from kamicp.search.astar import astar
from kamicp.search.bfs import bfs
from kamicp.search.greedy import greedy
from kamicp.search.ida import IdaOptions, idastar
from kamicp.search.ida.rental import Rentals
from tests.strategies import oracle, region_graphs

DATA = Path(__file__).parents[1] / "data"


def idastar_walks(g, **options):
    """IDA* with the walk bound asked at every state."""
    return idastar(g, **options, options=IdaOptions(walk_depth=99))


def idastar_cheap(g, **options):
    """IDA* with the cheap bounds only."""
    return idastar(g, **options, options=IdaOptions(walk_depth=-1, tripod_after=None))


def idastar_tripods(g, **options):
    """IDA* with the tripod checks from the first moment of every iteration (the start's
    children, and deeper where the rule finds them worth it)."""
    return idastar(g, **options, options=IdaOptions(tripod_after=0.0))


def idastar_tripods_everywhere(g, **options):
    """IDA* with the tripod check asked at every depth once one state of that depth has been
    searched (a ratio of 0): exercises the per-depth rule and the per-position answers."""
    return idastar(g, **options, options=IdaOptions(tripod_after=0.0, check_ratio=0.0))


def idastar_tetrapods(g, **options):
    """IDA* with the tetrapod check (Bound 8) at the states at most two moves deep that the
    tripod check does not cut."""
    return idastar(g, **options, options=IdaOptions(tripod_after=0.0, tetrapod_depth=2))


def idastar_rented(g, **options):
    """IDA* with the tetrapod checks rented (AUTO, the default) and every rental due at once:
    each state at most AUTO_DEPTH moves deep is checked at the first state searched below it,
    and a cut unwinds the search to it. The cheap bounds only otherwise, so that the search
    runs several iterations, each learning from the values the cuts kept."""
    with mock.patch.object(Rentals, "rent_after", lambda self: 0.0):
        return idastar_cheap(g, **options)


SEARCHES = [astar, idastar, idastar_walks, idastar_cheap, idastar_tripods]
SEARCHES += [idastar_tripods_everywhere, idastar_tetrapods, idastar_rented]


def final_of(g, choice):
    """No final colour, or one of the palette (maybe absent from the board)."""
    return None if choice is None else choice % g.k


def check_optimum(g, final):
    ref = oracle(g, final)
    if ref.moves is None:
        assert not bounds.solvable(g, None, final)
        assert ref.lower_bound == bounds.UNSOLVABLE
        for search in SEARCHES:
            out = search(g, final_colour=final)
            assert out.complete and out.moves is None
        assert greedy(g, final) is None
        return
    assert bounds.solvable(g, None, final)
    opt = len(ref.moves)
    assert ref.lower_bound == opt
    rules.verify_solution(g, ref.moves, final)
    for search in SEARCHES:
        out = search(g, final_colour=final)
        assert out.complete and out.moves is not None, search.__name__
        assert len(out.moves) == opt == out.lower_bound, search.__name__
        rules.verify_solution(g, out.moves, final)
    quick = greedy(g, final)
    assert quick is not None and len(quick) >= opt
    rules.verify_solution(g, quick, final)


def check_horizon(g, final):
    """max_moves = opt - 1 is proved infeasible; max_moves = opt finds an optimum."""
    ref = bfs(g, final_colour=final)
    if ref.moves is None or not ref.moves:
        return
    opt = len(ref.moves)
    for search in [bfs, *SEARCHES]:
        below = search(g, final_colour=final, max_moves=opt - 1)
        assert below.complete and below.moves is None, search.__name__
        assert below.lower_bound >= opt
        at = search(g, final_colour=final, max_moves=opt)
        assert at.complete and len(at.moves) == opt, search.__name__
        rules.verify_solution(g, at.moves, final)
    # IDA* started at a proved lower bound (as the driver does after refuted horizons).
    for lower in (opt - 1, opt):
        out = idastar(g, final_colour=final, lower=lower)
        assert out.complete and len(out.moves) == opt
    # Every threshold IDA* reports while running is a proved lower bound, the last the optimum.
    told = []
    idastar(g, final_colour=final, options=IdaOptions(on_bound=told.append))
    assert told == sorted(told) and told[-1] == opt


def check_limits(g, final, limit):
    """Stopped by a node limit or a past deadline: whatever is claimed is still true."""
    ref = bfs(g, final_colour=final)
    opt = bounds.UNSOLVABLE if ref.moves is None else len(ref.moves)
    for search in [bfs, *SEARCHES]:
        for out in (
            search(g, final_colour=final, node_limit=limit),
            search(g, final_colour=final, deadline=time.monotonic() - 1),
        ):
            assert out.lower_bound <= opt, search.__name__
            if out.complete and out.moves is not None:
                assert len(out.moves) == opt
            if out.moves is not None:
                rules.verify_solution(g, out.moves, final)


FINALS = st.none() | st.integers(0, 7)


def _property(check, examples, **strategy):
    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(region_graphs(**strategy), FINALS)
    def run(g, choice):
        check(g, final_of(g, choice))

    return run


test_optimum = _property(check_optimum, 300)
test_horizon = _property(check_horizon, 60)


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(), FINALS, st.integers(0, 20))
def test_limits(g, choice, limit):
    check_limits(g, final_of(g, choice), limit)


@pytest.mark.slow
def test_optimum_many():
    _property(check_optimum, 3000)()
    _property(check_optimum, 1000, max_cells=16, max_colours=5)()


@pytest.mark.slow
def test_horizon_many():
    _property(check_horizon, 2000)()


# --- hand-made boards ------------------------------------------------------------------------


def test_islands_need_a_move_that_merges_nothing():
    # Two separate regions of colours 0 and 1: one recolouring, which merges nothing.
    g = from_edges([0, 1], [], k=2)
    for search in [bfs, *SEARCHES]:
        out = search(g)
        assert out.complete and len(out.moves) == 1
    out = idastar(g, final_colour=0)
    assert out.moves == [(1, 0)]
    assert len(greedy(g, 0)) == 1


def test_a_merging_move_can_raise_the_moves_needed():
    # Why conjecture M (encodings/bounds.md, "Rules not used") is not proved by "a merging
    # move never hurts": on this tree, hub 6 of colour 0 with neighbours 0 (colour 1),
    # 2 (3), 3 (2), 5 (3), and leaves 1 (0) under 3 and 4 (1) under 5, recolouring the hub
    # to 1 merges it with node 0 and still raises the optimum from 3 to 4.
    edges = [(0, 6), (1, 3), (2, 6), (3, 6), (4, 5), (5, 6)]
    g = from_edges([1, 0, 3, 2, 1, 3, 0], edges, k=4)
    after = rules.apply(g, rules.start(g), (6, 1))
    assert after[0] == after[6] == 1  # the move merged
    assert len(bfs(g).moves) == 3
    assert len(bfs(from_edges(list(after), edges, k=4)).moves) == 4


def _moves_left(g, final):
    """Position -> least moves to solve it (ending in ``final`` if given), for every
    position reachable from ``g``'s start, by BFS backwards from the solved ones; and the
    moves of each position with the positions they lead to."""
    succ, todo = {}, deque([rules.start(g)])
    while todo:
        pos = todo.popleft()
        if pos not in succ:
            succ[pos] = [(m, rules.apply(g, pos, m)) for m in rules.legal_moves(g, pos)]
            todo.extend(q for _, q in succ[pos] if q not in succ)
    pred = {pos: [] for pos in succ}
    for pos, children in succ.items():
        for _, q in children:
            pred[q].append(pos)
    left = {p: 0 for p in succ if rules.is_solved(p, final)}
    queue = deque(left)
    while queue:
        q = queue.popleft()
        for p in pred[q]:
            if p not in left:
                left[p] = left[q] + 1
                queue.append(p)
    return left, succ


def _merges(g, pos, move):
    region = set(rules.current_region(g, pos, move[0]))
    return any(pos[u] == move[1] for r in region for u in g.adj[r] if u not in region)


def conjecture_m_holds(g) -> int:
    """Check conjecture M (encodings/bounds.md, "Rules not used") on one connected board:
    every reachable unsolved position of more than one region has an optimal first move
    that merges, with no final colour and with each one forced. Returns the (position,
    final colour) pairs checked; a failure is a counterexample to M, to be recorded there."""
    checked = 0
    for final in [None, *range(g.k)]:
        left, succ = _moves_left(g, final)
        for pos, d in left.items():
            if len(set(pos)) == 1:
                continue  # solved, or one region to recolour (a move that merges nothing)
            checked += 1
            best = [m for m, q in succ[pos] if left.get(q) == d - 1]
            assert any(_merges(g, pos, m) for m in best), (g.colour, g.edges(), pos, final)
    return checked


def _random_connected_boards(seed, count, max_nodes, max_colours):
    rng = random.Random(seed)
    while count:
        n = rng.randint(4, max_nodes)
        graph = nx.gnm_random_graph(n, rng.randint(n - 1, n + 4), seed=rng.randrange(10**9))
        if nx.is_connected(graph):
            k = rng.randint(3, max_colours)
            count -= 1
            yield from_edges([rng.randrange(k) for _ in range(n)], list(graph.edges()), k=k)


def test_conjecture_m_on_random_boards():
    assert sum(conjecture_m_holds(g) for g in _random_connected_boards(1, 30, 6, 4)) > 1000


@pytest.mark.slow
def test_conjecture_m_on_many_random_boards():
    # About 2,000 boards of at most 8 nodes: every (position, final colour) pair of each
    # is checked; a counterexample would disprove the conjecture (encodings/bounds.md).
    assert sum(conjecture_m_holds(g) for g in _random_connected_boards(2, 2000, 8, 4)) > 10**6


def test_pivot_cannot_reach_a_multicoloured_island():
    g = from_edges([0, 1, 0, 1], [(0, 1), (2, 3)], k=2, rules="pivot")
    for search in [bfs, *SEARCHES]:
        out = search(g)
        assert out.complete and out.moves is None and out.lower_bound == bounds.UNSOLVABLE
    assert greedy(g) is None


def test_pivot_other_island_fixes_the_final_colour():
    # The pivot piece 0-1 must end in colour 2, the colour of the untouchable piece {2}.
    g = from_edges([0, 1, 2], [(0, 1)], k=3, rules="pivot")
    out = idastar(g)
    assert len(out.moves) == 2 and rules.replay(g, out.moves) == (2, 2, 2)
    assert len(bfs(g).moves) == 2
    assert bfs(g, final_colour=0).moves is None


def test_solved_board_needs_no_move():
    g = from_edges([1, 1, 1], [(0, 1), (1, 2)], k=3)
    for search in [bfs, *SEARCHES]:
        assert search(g).moves == []
        assert search(g, final_colour=0).moves is not None
        assert len(search(g, final_colour=0).moves) == 1
    assert greedy(g) == []


# --- the seed example ------------------------------------------------------------------------


def article_graph():
    """The article's 18-node KAMI 2 graph; node ids '1'..'18' become cells 0..17."""
    data = json.loads((DATA / "kami2-article-graph.json").read_text())
    names = sorted(set(data["nodes"].values()))
    colour = [names.index(data["nodes"][str(i + 1)]) for i in range(len(data["nodes"]))]
    edges = [(a - 1, b - 1) for a, b in data["edges"]]
    return from_edges(colour, edges, k=len(names)), names


def test_article_example_optimum_is_five():
    g, _ = article_graph()
    for search in SEARCHES:
        out = search(g)
        assert out.complete and len(out.moves) == 5
        rules.verify_solution(g, out.moves)
        below = search(g, max_moves=4)
        assert below.complete and below.moves is None
    assert len(greedy(g)) >= 5


def test_article_solution_replays():
    g, names = article_graph()
    article = [(10, "Purple"), (8, "White"), (5, "Yellow"), (2, "Purple"), (1, "Red")]
    moves = [(g.region_of[node - 1], names.index(name)) for node, name in article]
    end = rules.replay(g, moves)
    assert rules.is_solved(end)


@pytest.mark.slow
def test_article_bfs_proves_five():
    g, _ = article_graph()
    assert len(bfs(g).moves) == 5
    assert bfs(g, max_moves=4).moves is None
