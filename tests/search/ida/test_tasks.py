"""Tasks of the parallel proof (kamicp.search.ida.tasks), in this process: split as often as
possible, the answers must still add up to what one search proves.

:func:`farm` is a coordinator reduced to its arithmetic: every task is answered by one of a
few searches (as workers would, each with its own table) that split it at every state but
its own, the parts handed back are answered in turn, and the least f of the refuted parts is
the next threshold; the bounds each answer sends reach the other searches. Its optimum must
be BFS's and its solutions must replay.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kamicp.bounds import contract
from kamicp.bounds.radius import piece_radius
from kamicp.game import rules
from kamicp.game.regions import from_edges
from kamicp.search.base import INF
from kamicp.search.ida import tasks
from kamicp.search.ida.tasks import Job, WorkerSetup, start_task
from kamicp.search.moves import transposition_key
from tests.strategies import oracle, region_graphs

FINALS = st.none() | st.integers(0, 7)
PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


def farm(g, final, searches: int = 3, split: bool = True):
    """(moves, threshold proved) of IDA* whose tasks split at every chance, each search
    given the bounds the others sent (as the coordinator does)."""
    setup = WorkerSetup.of(g, final)
    workers = [setup.search(lambda: split, lambda: False) for _ in range(searches)]
    root = contract(g)
    threshold = workers[0].first_threshold(root, 0)
    sent: list = []
    seen = [0] * searches
    turn = 0
    while threshold < INF:
        queue, floor = [start_task(threshold)], INF
        while queue:
            task = queue.pop()
            w = turn % searches
            turn += 1
            fresh, seen[w] = tuple(sent[seen[w] :]), len(sent)
            answer = workers[w].answer(Job(task, threshold, INF, None, fresh))
            sent.extend(answer.bounds)
            if answer.value is None:
                assert answer.resume is not None
                floor = min(floor, answer.floor)
                queue.extend(answer.tasks)
                queue.append(answer.resume)
            elif answer.value <= task.budget:
                return [*task.moves, *answer.path], threshold
            else:
                floor = min(floor, task.depth + answer.value)
        assert floor > threshold
        threshold = floor
    return None, threshold


@pytest.fixture(autouse=True)
def split_at_once(monkeypatch):
    monkeypatch.setattr(tasks, "TASK_SPLIT", 0.0)


@PROPERTY
@given(region_graphs(max_cells=16, max_colours=4), FINALS)
def test_tasks_split_at_every_state_add_up_to_the_optimum(g, choice):
    final = None if choice is None else choice % g.k
    ref = oracle(g, final)
    moves, threshold = farm(g, final)
    if ref.moves is None:
        assert moves is None
        return
    assert len(moves) == len(ref.moves) == threshold
    rules.verify_solution(g, moves, final)


def test_a_split_hands_back_the_untouched_children_of_the_shallowest_state():
    g = from_edges([0, 1, 2, 0, 1, 2, 0, 1, 2, 0], [(i, i + 1) for i in range(9)])
    w = WorkerSetup.of(g, None).search(lambda: True, lambda: False)
    threshold = w.first_threshold(contract(g), 0) + 2
    answer = w.answer(Job(start_task(threshold), threshold, INF, None, ()))
    assert answer.value is None and answer.resume is not None
    assert answer.resume.depth == 1 and answer.resume.budget == threshold - 1
    assert answer.tasks and {t.depth for t in answer.tasks} == {1}
    assert len({t.moves for t in (*answer.tasks, answer.resume)}) == len(answer.tasks) + 1
    for t in (*answer.tasks, answer.resume):
        cur = w.state(t)
        assert cur.pos == bytes(rules.replay(g, t.moves))
        fresh = w.state(t._replace(radii=None))  # the radii found again, not brought
        assert all(r is None or r == piece_radius(fresh, i) for i, r in enumerate(t.radii))


def test_a_task_that_is_stopped_hands_back_nothing_to_search():
    g = from_edges([0, 1, 2, 0, 1, 2, 0, 1, 2, 0], [(i, i + 1) for i in range(9)])
    w = WorkerSetup.of(g, None).search(lambda: False, lambda: True)
    answer = w.answer(Job(start_task(9), 9, INF, None, ()))
    assert answer.value is None and answer.resume is None and not answer.tasks


def test_the_bounds_a_job_brings_are_taken_into_the_table():
    g = from_edges([0, 1, 0], [(0, 1), (1, 2)])
    w = WorkerSetup.of(g, None).search(lambda: False, lambda: False)
    task = start_task(0)
    key = transposition_key(contract(g), 0, None)
    answer = w.answer(Job(task, 0, INF, None, ((key, 5),)))
    assert answer.value == 5  # the table's bound, not searched again
