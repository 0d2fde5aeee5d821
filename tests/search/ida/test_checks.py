"""IDA*'s check policy (kamicp.search.ida.checks): the tripod and tetrapod checks cut what they
should, the rule that decides where checks pay follows its measurements, and the size limits
hold.
"""

from __future__ import annotations

import time

from kamicp import bounds
from kamicp.game import rules
from kamicp.game.regions import from_edges
from kamicp.procs.deadline import Deadline
from kamicp.search.bfs import bfs
from kamicp.search.ida import IdaOptions, checks, idastar
from kamicp.search.ida.checks import CHECK_GUESS, MIN_SAMPLES, Checks, tripod_check_pays
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
        ida.checks.tripod_after, ida.checks.tetrapod_depth = 0.0, depth
        runs.append((ida.run(None), ida.checks.tetrapod_checks))
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
        Checks(path(FORCED_NODES), None, Deadline.after(None)),
        Checks(path(FORCED_NODES + 1), None, Deadline.after(None)),
    )
    assert (small.forced_depth, small.min_samples) == (FORCED_DEPTH, 1)
    assert (large.forced_depth, large.min_samples) == (0, MIN_SAMPLES)
    assert FORCED_DEPTH > 0 and MIN_SAMPLES > 1


def test_tripod_check_rule_follows_the_measurements():
    # the gates, on a search: no check before tripod_after; the start's children before
    # any was searched; every state at most forced_depth deep (0 here, to see the rest)
    g = from_edges([0, 1, 0], [(0, 1), (1, 2)], k=2)
    policy = Checks(g, None, Deadline.after(None))
    policy.forced_depth = 0
    policy.tripod_after, policy.began = 30.0, time.monotonic()
    assert not policy.tripods_due(1)
    policy.began -= 31.0
    assert policy.tripods_due(1) and not policy.tripods_due(2)
    policy.forced_depth = 2
    assert policy.tripods_due(2) and not policy.tripods_due(3)
    policy.began = time.monotonic()  # still nothing before tripod_after
    assert not policy.tripods_due(1)


def test_a_check_pays_where_its_share_of_cuts_times_the_saving_beats_its_cost():
    # share that cut x mean unchecked time against check_ratio x mean check time, on
    # made-up measurements: 0.1 s a check, check_ratio 2
    checks = (10, 1.0)

    def pays(searched, cuts, ratio=2.0, depth=2):
        return tripod_check_pays(depth, searched, cuts, checks, MIN_SAMPLES, ratio)

    # a large mean, from too few states: no check (but the start's children)
    assert not pays((MIN_SAMPLES - 1, 10.0), (8, 8))
    assert pays((MIN_SAMPLES - 1, 10.0), (8, 8), depth=1)
    half = (2 * MIN_SAMPLES, 0.5 * MIN_SAMPLES)  # 0.25 s a state without a check
    assert pays(half, (8, 8))  # share (8 + 1) / (8 + 2) = 0.9: 0.225 >= 2 x 0.1
    assert not pays(half, (8, 6))  # share 0.7: 0.175 < 0.2
    assert pays(half, (8, 6), ratio=1.0)
    assert not pays(half, (8, 0), ratio=1.0)  # no cut: 0.025 < 0.1
    # before any check is timed, a check is assumed to take CHECK_GUESS
    assert tripod_check_pays(2, half, (8, 8), (0, 0.0), MIN_SAMPLES, 0.225 / CHECK_GUESS)


def test_no_tetrapod_check_above_the_tetrapod_pieces_size(monkeypatch):
    # a path of TETRAPOD_NODES + 1 regions is checkable (tripods) but too big for the
    # tetrapods: the check is not asked, where it would only give the tripod value back

    def path(n):
        return from_edges([i % 3 for i in range(n)], [(i, i + 1) for i in range(n - 1)], k=3)

    asked = []
    monkeypatch.setattr(
        Checks, "tetrapod_check", lambda self, cur, key, budget: asked.append(1) or 0
    )
    for n, expected in ((bounds.TETRAPOD_NODES + 1, 0), (9, 1)):
        asked.clear()
        cur = bounds.contract(path(n))
        policy = Checks(path(n), None, Deadline.after(None))
        policy.tetrapod_depth = 1
        assert checks.checkable(cur)
        policy.tripod_check(cur, 0, 99, 1)  # budget 99: the tripods cut neither
        assert len(asked) == expected
