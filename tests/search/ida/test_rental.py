"""Rented tetrapod checks (kamicp.search.ida.rental): a rental falls due when its subtree runs
long, a cut unwinds the search to the rented state and keeps its value, and the states below
a miss are checked up front.
"""

from __future__ import annotations

import itertools
import time
from unittest import mock

import pytest

from kamicp import bounds
from kamicp.game import rules
from kamicp.game.regions import from_edges
from kamicp.procs.deadline import Deadline
from kamicp.search.bfs import bfs
from kamicp.search.ida import IdaOptions, checks, idastar
from kamicp.search.ida.checks import AUTO, Checks
from kamicp.search.ida.rental import Cut, Rental, Rentals
from kamicp.search.ida.search import Ida
from tests.search.ida.test_checks import NINE


def policy(g, tetrapod_depth=AUTO) -> Rentals:
    """The rentals of a search of ``g`` (tripod checks everywhere), on checks of their own."""
    made = Checks(g, None, Deadline.after(None))
    made.configure(0.0, 0.0, tetrapod_depth)
    return Rentals(made, made.tetrapod_tally)


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
        with mock.patch.object(Rentals, "rent_after", lambda self, due=due: due):
            runs.append((ida.run(None), ida.checks.tetrapod_checks, ida.rentals.path))
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
    rent, children = Rentals.rent, Ida.children

    def counted(self, cur, first, budget, depth):
        rental = rent(self, cur, first, budget, depth)
        if isinstance(rental, Rental):
            created[depth] = created.get(depth, 0) + 1
        return rental

    def unwound(self, cur, first, budget, after, key, known, depth, tripods):
        if depth == 2 and not fired:
            fired.append(depth)
            parent = self.rentals.path[0]
            parent.open = False  # as if its check had been made and had cut it
            raise Cut(parent, parent.budget + 1)
        return children(self, cur, first, budget, after, key, known, depth, tripods)

    fired: list[int] = []
    monkeypatch.setattr(Rentals, "rent", counted)
    monkeypatch.setattr(Ida, "children", unwound)
    monkeypatch.setattr(Rentals, "rent_after", lambda self: 1e9)
    ida.threshold = 5
    ida.dfs(bounds.contract(g), 0, 5, None)
    assert fired and created[1] >= 1 and created[2] >= 2
    assert ida.rentals.rented[1] == [created[1], 1]  # the parent cut by hand: checked
    assert ida.rentals.rented[2] == [created[2] - 1, 0]  # all but the one unwound


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
    events = []  # ("cut" | "kept", key, value), in order
    check, keep = Checks.tetrapod_check, Ida.keep
    asked = itertools.count()

    def checked(self, cur, key, budget):
        value = check(self, cur, key, budget)
        if value > budget:
            events.append(("cut", key, value))
        return value

    def kept_value(self, key, value, depth):
        events.append(("kept", key, value))
        keep(self, key, value, depth)

    monkeypatch.setattr(Checks, "tetrapod_check", checked)
    monkeypatch.setattr(Ida, "keep", kept_value)
    monkeypatch.setattr(Rentals, "rent_after", lambda self: 1e9 if next(asked) % every else 0.0)
    bounds.forget_cached_bounds()
    out = idastar(g, options=IdaOptions(walk_depth=-1, tripod_after=None))
    assert len(out.moves) == len(bfs(g).moves) and any(e[0] == "cut" for e in events)
    for i, (kind, key, value) in enumerate(events):
        if kind == "cut":
            _, kept_key, kept = next(e for e in events[i + 1 :] if e[0] == "kept")
            assert kept_key.startswith(key) and kept == value


def test_rental_rule_follows_the_measurements():
    # a check is due after (mean check time, AUTO_GUESS before the first) x (asked + 2) /
    # (cut + 1) seconds of a rented subtree: checks that cut are made sooner
    rentals = policy(from_edges([0, 1, 0], [(0, 1), (1, 2)], k=2))
    assert rentals.rent_after() == pytest.approx(2 * checks.AUTO_GUESS)
    rentals.checks.tetrapod_checks = [8, 8, 4.0]  # 0.5 s each, all cut
    assert rentals.rent_after() == pytest.approx(0.5 * 10 / 9)
    rentals.checks.tetrapod_checks = [8, 0, 4.0]  # none cut
    assert rentals.rent_after() == pytest.approx(0.5 * 10)


def test_a_depth_whose_rentals_ran_long_is_checked_up_front(monkeypatch):
    # after AUTO_SAMPLES rented states of a depth, of which at least half got their check,
    # the next state of that depth is checked at once (its value returned when it cuts)
    g = from_edges([i % 3 for i in range(9)], [(i, i + 1) for i in range(8)], k=3)
    cur = bounds.contract(g)
    asked = []
    monkeypatch.setattr(
        Checks, "tetrapod_check", lambda self, cur, key, budget: asked.append(budget) or 7
    )
    rentals = policy(g)
    samples = checks.AUTO_SAMPLES
    for rented, checked, budget, expected in (
        (samples - 1, samples - 1, 6, "rental"),  # too few samples
        (samples, samples // 2 - 1, 6, "rental"),  # most ended before their check
        (samples, samples // 2, 6, 7),  # checked now, and cut
        (samples, samples, 7, None),  # checked now, not cut
    ):
        rentals.rented[1] = [rented, checked]
        out = rentals.rent(cur, 0, budget, 1)
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
    monkeypatch.setattr(Checks, "tetrapod_check", lambda self, cur, key, budget: value[0])
    rentals = policy(g)
    threshold, missed = 20, rentals.missed
    deepest = checks.DEEPEST_DEPTH

    def rental(depth):
        return isinstance(rentals.rent(cur, 0, threshold - depth, depth), Rental)

    assert rental(1)  # no miss above it: rented
    rentals.path.append(Rental(cur, b"", threshold - 1, 1))
    rentals.check_rented(0)  # the rented state's check misses
    assert missed[1]
    for depth in range(2, deepest + 1):  # each checked at once, misses, and so on below
        assert rentals.rent(cur, 0, threshold - depth, depth) is None and missed[depth]
    assert not rental(deepest + 1)  # below DEEPEST_DEPTH: neither checked nor rented
    value[0] = 99  # a cut: its value is the answer
    assert rentals.rent(cur, 0, threshold - 3, 3) == 99 and not missed[3]
    assert rental(1) and not missed[1] and rental(2)  # a new state one move deep


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

    monkeypatch.setattr(Checks, "tetrapod_check", check)
    monkeypatch.setattr(Rentals, "rent_after", lambda self: 0.0)
    rentals = policy(g)
    path = rentals.path
    path.extend(rentals.rent(cur, 0, 20 - d, d) for d in (1, 2, 3))
    assert [r.timed for r in path] == [True] * checks.AUTO_DEPTH + [False]
    path[1].began = path[2].began = time.monotonic() + 1e9  # not due by time
    with pytest.raises(Cut) as cut:
        rentals.rent_if_due()
    assert asked == [19, 18, 17] and cut.value.rental is path[2]
    assert rentals.missed[1] and rentals.missed[2] and not rentals.missed[3]


def test_rentals_only_with_auto_on_one_piece_within_the_sizes(monkeypatch):
    # AUTO rents the states 1..DEEPEST_DEPTH moves deep of a checkable piece of at most
    # TETRAPOD_NODES regions, timed within AUTO_DEPTH; an explicit depth, pivot rules or a
    # bigger piece rent nothing
    def path(n, rules="free"):
        return from_edges([i % 3 for i in range(n)], [(i, i + 1) for i in range(n - 1)], 3, rules)

    def rents(g, depth, tetrapod_depth=AUTO):
        rental = policy(g, tetrapod_depth).rent(bounds.contract(g), 0, 99, depth)
        return rental and ("timed" if rental.timed else "untimed")

    small, auto, deepest = path(9), checks.AUTO_DEPTH, checks.DEEPEST_DEPTH
    assert rents(small, 1) == rents(small, auto) == "timed"
    assert rents(small, auto + 1) == rents(small, deepest) == "untimed"
    assert not rents(small, 0) and not rents(small, deepest + 1)
    assert not rents(small, 1, tetrapod_depth=0) and not rents(small, 1, tetrapod_depth=2)
    assert not rents(path(bounds.TETRAPOD_NODES + 1), 1)
    assert not rents(path(9, "pivot"), 1)
