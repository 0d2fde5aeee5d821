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
import re
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
from kamicp.search import checks
from kamicp.search import ida as ida_module
from kamicp.search.astar import INF, Search, astar
from kamicp.search.bfs import bfs
from kamicp.search.checks import AUTO, MIN_SAMPLES
from kamicp.search.greedy import greedy
from kamicp.search.ida import Ida
from kamicp.search.idastar import IdaOptions, idastar
from kamicp.search.moves import last_move_context
from kamicp.search.rental import Cut, Rental
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
    """IDA* with the tetrapod check (Bound 7) at the states at most two moves deep that the
    tripod check does not cut."""
    return idastar(g, **options, options=IdaOptions(tripod_after=0.0, tetrapod_depth=2))


def idastar_rented(g, **options):
    """IDA* with the tetrapod checks rented (AUTO, the default) and every rental due at once:
    each state at most AUTO_DEPTH moves deep is checked at the first state searched below it,
    and a cut unwinds the search to it. The cheap bounds only otherwise, so that the search
    runs several iterations, each learning from the values the cuts kept."""
    with mock.patch.object(Ida, "rent_after", lambda self: 0.0):
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
test_horizon = _property(check_horizon, 150)


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
    # About 2,000 boards; session 26's run of the same check: 2,318 boards of 5-8 nodes,
    # 15,427,470 (position, final colour) pairs, no counterexample.
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
    assert [e[:4] + e[5:] for e in fast] == [e[:4] + e[5:] for e in slow]
    # With a budget, every child within it is kept, and the floor is at most 1 + the
    # bound of every child left out (what IDA* returns for them).
    budget = data.draw(st.integers(0, 8))
    kept, floor = s.one_piece_children(cur, final, after, budget)
    kept_moves = {e[2] for e in kept}
    assert kept == [e for e in fast if e[2] in kept_moves]
    for e in fast:
        if e[2] not in kept_moves:
            assert 1 + e[0] > budget and floor <= 1 + e[0]


def test_tripod_checks_cut_children_of_the_start():
    # a random 12-region board (found by search, kept as data): with the tripod bound asked
    # at every child of the start, IDA* expands fewer states and still proves the optimum
    colour = [0, 2, 2, 1, 3, 1, 3, 2, 3, 1, 0, 2]
    edges = [(0, 4), (1, 10), (2, 4), (3, 8), (4, 9), (5, 8), (6, 7), (6, 10), (6, 11), (7, 8)]
    edges += [(7, 9), (8, 10), (10, 11)]
    g = from_edges(colour, edges, k=4)
    plain, checked = (
        idastar(g, options=IdaOptions(tripod_after=None)),
        idastar(g, options=IdaOptions(tripod_after=0.0)),
    )
    assert len(plain.moves) == len(checked.moves) == len(bfs(g).moves) == 5
    assert checked.nodes < plain.nodes
    below = idastar(g, max_moves=4, options=IdaOptions(tripod_after=0.0))
    assert below.complete and below.moves is None
    everywhere = idastar_tripods_everywhere(g)
    assert len(everywhere.moves) == 5 and everywhere.nodes <= checked.nodes


NINE = (  # a random 9-region board (found by search, kept as data), 5 moves
    [1, 3, 1, 2, 3, 0, 2, 0, 0],
    [(0, 1), (0, 7), (1, 2), (1, 7), (2, 3), (3, 4), (4, 5), (4, 8), (5, 6), (6, 7)],
)


def test_tetrapod_checks_cut_what_the_tripod_checks_leave():
    # NINE: the tetrapod check at the start's children cuts 7 of the 8 that the tripod check
    # leaves; fewer states, the same optimum
    g = from_edges(*NINE, k=4)
    runs = []
    for depth in (0, 1):
        bounds.forget_cached_bounds()  # no tetrapod value of the start cached by a solve
        ida = Ida(g, None, None, None)
        ida.tripod_after, ida.tetrapod_depth = 0.0, depth
        runs.append((ida.run(None), ida.tetrapod_checks))
    (plain, none), (deep, checks) = runs
    assert len(plain.moves) == len(deep.moves) == len(bfs(g).moves) == 5
    assert none[0] == 0 and checks[0] > checks[1] > 0
    assert deep.nodes < plain.nodes
    rules.verify_solution(g, deep.moves)


def test_rented_tetrapod_checks_cut_where_subtrees_run_long():
    # NINE with AUTO: no check up front (an explicit 0: none at all); with every
    # rental due at once, the states one and two moves deep get the check after their first
    # child, some are cut by it, and the optimum is the same
    g = from_edges(*NINE, k=4)
    runs = []
    for depth, due in ((0, 0.0), (AUTO, 0.0), (AUTO, 1e9)):
        bounds.forget_cached_bounds()
        ida = Ida(g, None, None, None)
        ida.configure(IdaOptions(tripod_after=0.0, check_ratio=0.0, tetrapod_depth=depth))
        with mock.patch.object(Ida, "rent_after", lambda self, due=due: due):
            runs.append((ida.run(None), ida.tetrapod_checks, ida.rentals))
    (none, no_checks, _), (rented, checks, left), (patient, idle, _) = runs
    assert len(none.moves) == len(rented.moves) == len(patient.moves) == len(bfs(g).moves) == 5
    assert no_checks[0] == idle[0] == 0
    assert checks[0] > checks[1] > 0 and left == []
    assert rented.nodes < none.nodes
    rules.verify_solution(g, rented.moves)


def test_a_rented_state_unwound_before_its_check_is_not_counted(monkeypatch):
    # the rule that switches a depth to checks up front counts the rented states that ran
    # short (finished unchecked) and long (checked); one unwound by an ancestor's cut before
    # its own check fell due is neither. Here the first state two moves deep is unwound by a
    # cut of its parent (made by hand); every other rented state finishes or is cut itself
    g = from_edges(*NINE, k=4)
    ida = Ida(g, None, None, None)
    ida.configure(IdaOptions(tripod_after=None, check_ratio=0.0, tetrapod_depth=AUTO))
    created: dict[int, int] = {}
    rent, children = Ida.rent, Ida.children

    def counted(self, cur, first, budget, depth):
        rental = rent(self, cur, first, budget, depth)
        if isinstance(rental, Rental):
            created[depth] = created.get(depth, 0) + 1
        return rental

    def unwound(self, cur, first, budget, after, key, known, depth, tripods):
        if depth == 2 and not fired:
            fired.append(depth)
            parent = self.rentals[0]
            parent.open = False  # as if its check had been made and had cut it
            raise Cut(parent, parent.budget + 1)
        return children(self, cur, first, budget, after, key, known, depth, tripods)

    fired: list[int] = []
    monkeypatch.setattr(Ida, "rent", counted)
    monkeypatch.setattr(Ida, "children", unwound)
    monkeypatch.setattr(Ida, "rent_after", lambda self: 1e9)
    ida.threshold = 5
    ida.dfs(bounds.contract(g), 0, 5, None)
    assert fired and created[1] >= 1 and created[2] >= 2
    assert ida.rented[1] == [created[1], 1]  # the parent cut by hand: checked
    assert ida.rented[2] == [created[2] - 1, 0]  # all but the one unwound


NESTED = (  # random boards (found by search, kept as data) where, with rentals due at every
    # second state, a state one move deep is cut while a rented state below it is on the path
    [2, 3, 2, 1, 1, 0, 3, 2, 1, 0],
    [(0, 1), (0, 4), (1, 2), (1, 3), (2, 5), (3, 6), (4, 7), (5, 8), (8, 9)],
)


@pytest.mark.parametrize("every", [1, 2, 3])
def test_a_cut_keeps_the_rented_state_its_check_value(monkeypatch, every):
    # what a cut unwinds to: the state that was checked, which keeps the check's value as its
    # proved bound (not more: a value too high survives the optimum on random boards, so it
    # is checked here); the states unwound in between keep nothing. Rentals fall due at
    # every ``every``-th state only, so that a rented state may be below the one checked
    colour, edges = NESTED
    g = from_edges(colour, edges, k=4)
    cuts, kept = [], []
    check, keep = Ida.tetrapod_check, Ida.keep

    def checked(self, cur, key, budget):
        value = check(self, cur, key, budget)
        if value > budget:
            cuts.append((key, value, self.nodes))
        return value

    def kept_value(self, key, value, depth):
        kept.append((key, value, self.nodes))
        keep(self, key, value, depth)

    monkeypatch.setattr(Ida, "tetrapod_check", checked)
    monkeypatch.setattr(Ida, "keep", kept_value)
    monkeypatch.setattr(Ida, "rent_after", lambda self: 0.0 if self.nodes % every == 0 else 1e9)
    bounds.forget_cached_bounds()
    out = idastar(g, options=IdaOptions(walk_depth=-1, tripod_after=None))
    assert len(out.moves) == len(bfs(g).moves) and cuts
    for key, value, nodes in cuts:
        after = [entry for entry in kept if entry[2] >= nodes]
        assert after[0][0].startswith(key) and after[0][1] == value


def test_rental_rule_follows_the_measurements():
    # a check is due after (mean check time, AUTO_GUESS before the first) x (asked + 2) /
    # (cut + 1) seconds of a rented subtree: checks that cut are made sooner
    g = from_edges([0, 1, 0], [(0, 1), (1, 2)], k=2)
    ida = Ida(g, None, None, None)
    assert ida.rent_after() == pytest.approx(2 * checks.AUTO_GUESS)
    ida.tetrapod_checks = [8, 8, 4.0]  # 0.5 s each, all cut
    assert ida.rent_after() == pytest.approx(0.5 * 10 / 9)
    ida.tetrapod_checks = [8, 0, 4.0]  # none cut
    assert ida.rent_after() == pytest.approx(0.5 * 10)


def test_a_depth_whose_rentals_ran_long_is_checked_up_front(monkeypatch):
    # after AUTO_SAMPLES rented states of a depth, of which at least half got their check,
    # the next state of that depth is checked at once (its value returned when it cuts)
    g = from_edges([i % 3 for i in range(9)], [(i, i + 1) for i in range(8)], k=3)
    cur = bounds.contract(g)
    asked = []
    monkeypatch.setattr(
        Ida, "tetrapod_check", lambda self, cur, key, budget: asked.append(budget) or 7
    )
    ida = Ida(g, None, None, None)
    ida.configure(IdaOptions(tripod_after=0.0, check_ratio=0.0, tetrapod_depth=AUTO))
    samples = checks.AUTO_SAMPLES
    for rented, checked, budget, expected in (
        (samples - 1, samples - 1, 6, "rental"),  # too few samples
        (samples, samples // 2 - 1, 6, "rental"),  # most ended before their check
        (samples, samples // 2, 6, 7),  # checked now, and cut
        (samples, samples, 7, None),  # checked now, not cut
    ):
        ida.rented[1] = [rented, checked]
        out = ida.rent(cur, 0, budget, 1)
        assert (type(out).__name__ == "Rental") if expected == "rental" else out == expected
        assert len(asked) == (0 if expected == "rental" else 1)
        asked.clear()


def test_the_children_of_a_state_whose_check_missed_are_checked_up_front(monkeypatch):
    # a state checked and not cut (up front or rented): the states below it, down to
    # DEEPEST_DEPTH, are checked as soon as they are met, not rented; the next state met at
    # the missed state's depth starts afresh
    g = from_edges([i % 3 for i in range(9)], [(i, i + 1) for i in range(8)], k=3)
    cur = bounds.contract(g)
    value = [5]  # what the check answers: a miss at every budget here (>= 13)
    monkeypatch.setattr(Ida, "tetrapod_check", lambda self, cur, key, budget: value[0])
    ida = Ida(g, None, None, None)
    ida.configure(IdaOptions(tripod_after=0.0, check_ratio=0.0, tetrapod_depth=AUTO))
    ida.threshold = 20
    deepest = checks.DEEPEST_DEPTH

    def rental(depth):
        return isinstance(ida.rent(cur, 0, ida.threshold - depth, depth), Rental)

    assert rental(1)  # no miss above it: rented
    ida.rentals.append(Rental(cur, b"", ida.threshold - 1))
    ida.check_rented(0)  # the rented state's check misses
    assert ida.missed[1]
    for depth in range(2, deepest + 1):  # each checked at once, misses, and so on below
        assert ida.rent(cur, 0, ida.threshold - depth, depth) is None and ida.missed[depth]
    assert not rental(deepest + 1)  # below DEEPEST_DEPTH: neither checked nor rented
    value[0] = 99  # a cut: its value is the answer
    assert ida.rent(cur, 0, ida.threshold - 3, 3) == 99 and not ida.missed[3]
    assert rental(1) and not ida.missed[1] and rental(2)  # a new state one move deep


def test_a_miss_checks_the_states_below_it_on_the_path_at_once(monkeypatch):
    # rented states one, two and three moves deep on the path (the third untimed: only a
    # miss above it makes its check due); the first's check misses, then the second's, and
    # the third's cuts: the search unwinds to the third
    g = from_edges([i % 3 for i in range(9)], [(i, i + 1) for i in range(8)], k=3)
    cur = bounds.contract(g)
    answers = {19: 5, 18: 5, 17: 99}  # budget -> check value
    asked = []

    def check(self, cur, key, budget):
        asked.append(budget)
        return answers[budget]

    monkeypatch.setattr(Ida, "tetrapod_check", check)
    monkeypatch.setattr(Ida, "rent_after", lambda self: 0.0)
    ida = Ida(g, None, None, None)
    ida.configure(IdaOptions(tripod_after=0.0, check_ratio=0.0, tetrapod_depth=AUTO))
    ida.threshold = 20
    ida.rentals = [ida.rent(cur, 0, ida.threshold - d, d) for d in (1, 2, 3)]
    assert [r.timed for r in ida.rentals] == [True] * checks.AUTO_DEPTH + [False]
    ida.rentals[1].began = ida.rentals[2].began = time.monotonic() + 1e9  # not due by time
    with pytest.raises(Cut) as cut:
        ida.rent_if_due()
    assert asked == [19, 18, 17] and cut.value.rental is ida.rentals[2]
    assert ida.missed[1] and ida.missed[2] and not ida.missed[3]


def test_rentals_only_with_auto_on_one_piece_within_the_sizes(monkeypatch):
    # AUTO rents the states 1..DEEPEST_DEPTH moves deep of a checkable piece of at most
    # TETRAPOD_NODES regions, timed within AUTO_DEPTH; an explicit depth, pivot rules or a
    # bigger piece rent nothing
    def path(n, rules="free"):
        return from_edges([i % 3 for i in range(n)], [(i, i + 1) for i in range(n - 1)], 3, rules)

    def rents(g, depth, tetrapod_depth=AUTO):
        ida = Ida(g, None, None, None)
        ida.configure(IdaOptions(tripod_after=0.0, check_ratio=0.0, tetrapod_depth=tetrapod_depth))
        rental = ida.rent(bounds.contract(g), 0, 99, depth)
        return rental and ("timed" if rental.timed else "untimed")

    small, auto, deepest = path(9), checks.AUTO_DEPTH, checks.DEEPEST_DEPTH
    assert rents(small, 1) == rents(small, auto) == "timed"
    assert rents(small, auto + 1) == rents(small, deepest) == "untimed"
    assert not rents(small, 0) and not rents(small, deepest + 1)
    assert not rents(small, 1, tetrapod_depth=0) and not rents(small, 1, tetrapod_depth=2)
    assert not rents(path(bounds.TETRAPOD_NODES + 1), 1)
    assert not rents(path(9, "pivot"), 1)


def test_forced_checks_only_on_boards_where_checks_are_cheap():
    # a path of FORCED_NODES regions gets the forced depth and trusts one sample; one region
    # more gets neither
    from kamicp.search.checks import FORCED_DEPTH, FORCED_NODES

    def path(n):
        return from_edges([i % 2 for i in range(n)], [(i, i + 1) for i in range(n - 1)], k=2)

    small, large = (
        Ida(path(FORCED_NODES), None, None, None),
        Ida(path(FORCED_NODES + 1), None, None, None),
    )
    assert (small.forced_depth, small.min_samples) == (FORCED_DEPTH, 1)
    assert (large.forced_depth, large.min_samples) == (0, MIN_SAMPLES)
    assert FORCED_DEPTH > 0 and MIN_SAMPLES > 1


def test_tripod_check_rule_follows_the_measurements():
    # the rule itself, on made-up measurements: no check before tripod_after; the start's
    # children before any was searched; elsewhere share that cut x mean unchecked time
    # against check_ratio (CHECK_RATIO by default) x mean check time; every state at most
    # forced_depth deep (FORCED_DEPTH by default; 0 here, to see the rest)
    g = from_edges([0, 1, 0], [(0, 1), (1, 2)], k=2)
    ida = Ida(g, None, None, None)
    ida.forced_depth = 0
    ida.check_ratio = 2.0
    ida.tripod_after, ida.iteration_began = 30.0, time.monotonic()
    assert not ida.tripods_due(1)
    ida.iteration_began -= 31.0
    assert ida.tripods_due(1) and not ida.tripods_due(2)
    ida.checks = [10, 1.0]  # 0.1 s a check
    ida.min_samples = MIN_SAMPLES  # as on boards above FORCED_NODES regions
    ida.subtrees[2] = [MIN_SAMPLES - 1, 10.0]  # a large mean, from too few states: no check
    ida.cuts[2] = [8, 8]
    assert not ida.tripods_due(2)
    ida.subtrees[2] = [2 * MIN_SAMPLES, 0.5 * MIN_SAMPLES]  # 0.25 s a state without a check
    ida.cuts[2] = [8, 8]  # share (8 + 1) / (8 + 2) = 0.9: 0.225 >= 2 x 0.1
    assert ida.tripods_due(2)
    ida.cuts[2] = [8, 6]  # share 0.7: 0.175 < 0.2
    assert not ida.tripods_due(2)
    ida.check_ratio = 1.0
    assert ida.tripods_due(2)
    ida.cuts[2] = [8, 0]  # no cut: not worth it by the model, but forced at depth <= 2
    assert not ida.tripods_due(2)
    ida.forced_depth = 2
    assert ida.tripods_due(2) and not ida.tripods_due(3)
    ida.iteration_began = time.monotonic()  # still nothing before tripod_after
    assert not ida.tripods_due(1)


def test_no_tetrapod_check_above_the_tetrapod_pieces_size(monkeypatch):
    # a path of TETRAPOD_NODES + 1 regions is checkable (tripods) but too big for the
    # tetrapods: the check is not asked, where it would only give the tripod value back

    def path(n):
        return from_edges([i % 3 for i in range(n)], [(i, i + 1) for i in range(n - 1)], k=3)

    asked = []
    monkeypatch.setattr(Ida, "tetrapod_check", lambda self, cur, key, budget: asked.append(1) or 0)
    for n, expected in ((bounds.TETRAPOD_NODES + 1, 0), (9, 1)):
        asked.clear()
        cur = bounds.contract(path(n))
        ida = Ida(path(n), None, None, None)
        ida.tetrapod_depth = 1
        assert checks.checkable(cur)
        ida.tripod_check(cur, 0, 99, 1)  # budget 99: the tripods cut neither
        assert len(asked) == expected


STATUS = re.compile(
    r"searching (\d+) moves for \d+ s; ([\d,]+) states; tripod checks ([\d,]+) \(([\d,]+) cut\)"
    r"(; tetrapod checks ([\d,]+) \(([\d,]+) cut, \d+ s\))?$"
)


def parsed_status(lines: list[str]) -> list[tuple[int, ...]]:
    """(threshold, states, tripod checks, their cuts[, tetrapod checks, their cuts]) a line."""
    rows = []
    for line in lines:
        match = STATUS.match(line)
        assert match, line
        rows.append(tuple(int(x.replace(",", "")) for x in match.groups() if x and x[0] != ";"))
    return rows


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=16, max_colours=4), st.sampled_from([0, 2]))
def test_status_lines_report_the_search_and_change_nothing(monkeypatch, g, tetrapod_depth):
    # a line at every state (STATUS_EVERY 0): the thresholds and counts in them only grow,
    # never past the optimum or the run's own count; the search is the same without them
    monkeypatch.setattr(ida_module, "STATUS_EVERY", 0.0)
    bounds.forget_cached_bounds()
    quiet = idastar(g, options=IdaOptions(tetrapod_depth=tetrapod_depth))
    lines: list[str] = []
    bounds.forget_cached_bounds()
    told = idastar(g, options=IdaOptions(tetrapod_depth=tetrapod_depth, on_status=lines.append))
    assert (told.moves, told.nodes) == (quiet.moves, quiet.nodes)
    rows = parsed_status(lines)
    assert len(rows) == told.nodes  # one a state expanded (the tick reports)
    assert [row[0] for row in rows] == sorted(row[0] for row in rows)
    assert all(row[0] <= len(told.moves) for row in rows)
    assert [row[1] for row in rows] == list(range(1, told.nodes + 1))
    for row in rows:
        assert row[3] <= row[2] and (len(row) == 4) == (tetrapod_depth == 0)


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
            for entry in search.children(cur, first, after):
                context = search.context(cur, entry[2], entry[1])
                child = search.build(cur, entry)
                if (child.pos, entry[3], context) not in seen:
                    seen.add((child.pos, entry[3], context))
                    following.append((child, entry[3], context))
        layer = following
        depth += 1
    return None


def test_move_order_rules_keep_an_optimum_on_every_small_graph():
    # R5 and R6 (encodings/bounds.md) leave out moves that some optimal solution plays in
    # another order. Exhaustively: every connected graph of at most 5 nodes with up to 4
    # colours, and of 6 nodes with up to 3, every proper colouring (one per renaming), no
    # final colour or colour 0: the moves the rules let through still reach BFS's optimum
    # (no bound helps), and IDA* with only the cheap bounds finds it and proves one move
    # fewer impossible.
    import networkx as nx
    from networkx.generators.atlas import graph_atlas_g

    boards = 0
    for graph in graph_atlas_g()[3:209]:  # 2 to 6 nodes
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
    assert boards == 1212  # 606 colourings of the 142 graphs, two final colours each
