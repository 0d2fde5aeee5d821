"""IDA*'s check policy (kamicp.search.ida.checks): the tripod and tetrapod checks cut what they
should, the rule that decides where checks pay follows its measurements, and the size limits
hold.
"""

from __future__ import annotations

import time

from kamicp import bounds
from kamicp.game import rules
from kamicp.game.regions import from_edges
from kamicp.search.bfs import bfs
from kamicp.search.ida import IdaOptions, checks, idastar
from kamicp.search.ida.checks import MIN_SAMPLES
from kamicp.search.ida.search import Ida
from tests.search.test_search import idastar_tripods_everywhere


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


def test_forced_checks_only_on_boards_where_checks_are_cheap():
    # a path of FORCED_NODES regions gets the forced depth and trusts one sample; one region
    # more gets neither
    from kamicp.search.ida.checks import FORCED_DEPTH, FORCED_NODES

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
