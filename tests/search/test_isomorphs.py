"""Isomorphic states (kamicp.search.isomorphs): the classes are exactly the colour-keeping
isomorphism classes, isomorphic states have the same bounds, and IDA* (one core and
several) checks one state per class."""

from __future__ import annotations

from dataclasses import replace

import networkx as nx
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from networkx.algorithms.isomorphism import categorical_node_match

from kamicp import bounds
from kamicp.game import rules
from kamicp.game.regions import from_edges
from kamicp.search.bfs import bfs
from kamicp.search.ida import checks
from kamicp.search.ida.engine import PARALLEL, parallel_idastar
from kamicp.search.ida.search import Ida
from kamicp.search.isomorphs import Classes, coloured_graph, isomorphic_groups
from kamicp.search.moves import state_key
from tests.strategies import region_graphs

SAME_COLOUR = categorical_node_match("colour", None)


def children(g):
    """The states one move from the start of ``g``."""
    cur = bounds.contract(g)
    return [cur.play(v, c) for v in sorted(cur.adj) for c in range(cur.k) if c != cur.pos[v]]


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=10, max_colours=4, rules=("free",)))
def test_the_groups_are_the_isomorphism_classes(g):
    states = children(g)[:24]
    groups = isomorphic_groups(states)
    assert sorted(i for group in groups for i in group) == list(range(len(states)))
    group_of = {i: n for n, group in enumerate(groups) for i in group}
    graphs = [coloured_graph(cur) for cur in states]
    for i in range(len(states)):
        for j in range(i + 1, len(states)):
            # the classic VF2, not the VF2++ the module uses
            same = nx.is_isomorphic(graphs[i], graphs[j], node_match=SAME_COLOUR)
            assert same == (group_of[i] == group_of[j])


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=12, max_colours=4, rules=("free",)))
def test_isomorphic_states_have_the_same_bounds(g):
    states = children(g)
    for group in isomorphic_groups(states):
        for final in (None, *range(g.k)):
            values = {bounds.tetrapods_bound(states[i], final) for i in group}
            assert len(values) == 1


@settings(max_examples=100, deadline=None)
@given(st.integers(3, 12), st.integers(2, 4), st.randoms(use_true_random=False))
def test_a_renamed_board_is_in_the_class_of_the_board(n, k, rng):
    colour = [rng.randrange(k) for _ in range(n)]
    edges = [(rng.randrange(v), v) for v in range(1, n)]
    names = list(range(n))
    rng.shuffle(names)
    renamed = ([0] * n, [(names[u], names[v]) for u, v in edges])
    for v in range(n):
        renamed[0][names[v]] = colour[v]
    a = bounds.contract(from_edges(colour, edges, k=k))
    b = bounds.contract(from_edges(*renamed, k=k))
    classes = Classes()
    assert classes.index(a) == classes.index(b) == 0


# a flower: a centre and four like petals (centre 0 - a 1 - b 2 - c 1), optimum 3; a move on
# one petal gives a state isomorphic to the same move on any other
FLOWER = (
    [0] + [1, 2, 1] * 4,
    [(0, 1 + 3 * p) for p in range(4)] + [(i, i + 1) for i in range(1, 13) if i % 3],
)


def test_one_core_asks_one_tetrapod_check_per_class(monkeypatch):
    g = from_edges(*FLOWER)
    computed = []
    real = checks.tetrapods_bound

    def counted(*args, **kwargs):
        computed.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(checks, "tetrapods_bound", counted)
    ida = Ida(g, None, None, None)
    start = bounds.contract(g)
    petals = [start.play(v, 0) for v in (1, 4, 7, 10)]  # a petal's base to the centre's
    policy = ida.checks
    values = [policy.tetrapod_check(cur, state_key(cur, 0), 3) for cur in petals]
    assert len(set(values)) == 1 and len(computed) == 1 and policy.shared == 3
    other = start.play(0, 1)  # the centre: another class
    policy.tetrapod_check(other, state_key(other, 0), 3)
    assert len(computed) == 2


# three like leaves (1 with children 0 and 2) round a centre of colour 2, optimum 3 (found by
# a random search for a board whose start's children the workers check, several alike)
CLOVER = (
    [2, 1, 0, 2, 1, 0, 2, 1, 0, 2],
    [(0, 1), (1, 2), (1, 3), (0, 4), (4, 5), (4, 6), (0, 7), (7, 8), (7, 9)],
)


def check_shared_checks(g, final=None):
    """The workers' search of ``g`` with tetrapod checks one per class of isomorphic states
    (each worker's own): the optimum of BFS, one move fewer refuted."""
    bounds.forget_cached_bounds()
    options = replace(PARALLEL, split_after=0.0, tetrapod_depth=1)
    out = parallel_idastar(g, final, options=options)
    ref = bfs(g, final_colour=final)
    assert out.complete and out.lower_bound == ref.lower_bound
    if ref.moves is not None:
        assert len(out.moves) == len(ref.moves)
        rules.verify_solution(g, out.moves, final)
    if ref.moves:  # one move fewer is refuted
        below = parallel_idastar(g, final, max_moves=len(ref.moves) - 1, options=options)
        assert below.complete and below.moves is None and below.lower_bound >= len(ref.moves)
    return True


def test_the_workers_check_one_state_per_class():
    # the like moves on the other leaves take the first leaf's checks
    assert check_shared_checks(from_edges(*CLOVER, k=3))


@st.composite
def clovers(draw):
    """A centre and 2-3 copies of one random small tree hanging from it."""
    size, k = draw(st.integers(2, 5)), draw(st.integers(2, 4))
    parents = [draw(st.integers(0, v - 1)) for v in range(1, size)]
    leaf = [draw(st.integers(0, k - 1))]
    for p in parents:
        leaf.append((leaf[p] + draw(st.integers(1, k - 1))) % k)
    centre = (leaf[0] + draw(st.integers(1, k - 1))) % k
    colour, edges = [centre], []
    for _ in range(draw(st.integers(2, 3))):
        base = len(colour)
        colour += leaf
        edges += [(0, base)] + [(base + p, base + v) for v, p in enumerate(parents, start=1)]
    return from_edges(colour, edges, k=k)


# a clover on which a check's tetrapod value is below the state's Bound 8
WEAKER = (
    [3, 2, 0, 3, 1, 2, 2, 0, 3, 1, 2],
    [(0, 1), (0, 6), (1, 2), (1, 3), (3, 4), (3, 5), (6, 7), (6, 8), (8, 9), (8, 10)],
)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(clovers(), st.none() | st.integers(0, 3))
@example(from_edges(*WEAKER, k=4), 3)
def test_shared_checks_are_the_states_own(g, choice):
    check_shared_checks(g, None if choice is None else choice % g.k)
