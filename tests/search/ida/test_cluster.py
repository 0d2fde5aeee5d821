"""The parallel proof on Ray actors (kamicp.search.ida.cluster), on a local Ray instance:
the same answers as local processes, and an actor killed in the middle of a task costs
only that task.

One set of two actors serves every board (``keep``: each search resets them), so that the
fifty boards cost tasks, not actor start-ups.
"""

from __future__ import annotations

import os
import random
import signal
from dataclasses import replace
from pathlib import Path

import pytest

from kamicp import formats
from kamicp.game import rules
from kamicp.game.regions import from_edges, region_graph
from kamicp.search.ida import tasks
from kamicp.search.ida.cluster import RayWorkers
from kamicp.search.ida.engine import PARALLEL, parallel_idastar
from tests.search.ida.test_engine import FIFTY, soon
from tests.seed import SHARED, article_board

ray = pytest.importorskip("ray")

PUZZLES = Path(__file__).parents[3] / "puzzles"
STORY = SHARED / "kami2-story"
OPTIONS = replace(PARALLEL, split_after=0.0)


@pytest.fixture(scope="module")
def actors():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    workers = RayWorkers("local", 2, keep=True)
    try:
        yield workers
    finally:
        workers.shut()
        ray.shutdown()


def random_free_board(rng: random.Random):
    """A random region graph of 6-14 regions, 2-4 colours, free rules."""
    n, k = rng.randint(6, 14), rng.randint(2, 4)
    colours = [rng.randrange(k) for _ in range(n)]
    edges = {(i, i + 1) for i in range(n - 1)}
    edges |= {tuple(sorted(rng.sample(range(n), 2))) for _ in range(n // 2)}
    return from_edges(colours, sorted(edges))


def test_fifty_random_free_boards_get_the_answers_of_local_processes(actors, monkeypatch):
    monkeypatch.setattr(tasks, "TASK_SPLIT", 0.0)  # forked workers see it; actors do not
    rng = random.Random(55)
    for _ in range(50):
        g = random_free_board(rng)
        here = parallel_idastar(g, deadline=soon(), options=OPTIONS)
        there = parallel_idastar(g, deadline=soon(), options=OPTIONS, workers=actors)
        assert there.complete and here.complete
        assert len(there.moves) == len(here.moves) == there.lower_bound
        rules.verify_solution(g, there.moves)
    assert actors.size == 2 and actors.sent >= 50  # every board went to the actors


def levels(names: list[str], folder: Path) -> list:
    """The region graphs of the levels ``names`` in ``folder``."""
    return [region_graph(formats.load(str(folder / name))[0]) for name in names]


def same_answers(actors, graphs) -> None:
    """Each board solved on the actors as on local processes."""
    for g in graphs:
        here = parallel_idastar(g, deadline=soon(120), options=OPTIONS)
        there = parallel_idastar(g, deadline=soon(120), options=OPTIONS, workers=actors)
        assert there.complete and here.complete
        assert len(there.moves) == len(here.moves) == there.lower_bound
        rules.verify_solution(g, there.moves)


def test_the_seed_article_and_two_levels_get_the_answers_of_local_processes(actors):
    same_answers(actors, [region_graph(article_board())])
    same_answers(actors, levels(["holes.txt", "islands.txt"], PUZZLES / "triangle"))


@pytest.mark.skipif(not STORY.is_dir(), reason=f"needs {STORY} (the story levels)")
def test_three_story_levels_get_the_answers_of_local_processes(actors):
    same_answers(actors, levels(["Bud1.puz", "Corners3.puz", "Threegrid1.puz"], STORY))


def test_an_actor_killed_in_the_middle_of_a_task_costs_only_that_task(actors, monkeypatch):
    killed = []
    send = actors.send

    def killing(w, job):  # the first job's actor is killed (SIGKILL), then sent the job
        if not killed:
            pid = ray.get(actors.actors[w].pid.remote())
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
        send(w, job)

    monkeypatch.setattr(actors, "send", killing)
    sent = actors.sent
    out = parallel_idastar(FIFTY, deadline=soon(), options=OPTIONS, workers=actors)
    assert killed and out.complete and len(out.moves) == 5
    assert actors.sent >= sent + 2  # the lost job was sent again
    assert killed[0] not in actors.pids()  # to a new actor
    rules.verify_solution(FIFTY, out.moves)


def test_a_late_flag_setting_does_not_undo_a_later_one_or_a_reset():
    # an actor that runs two calls at once may run them in either order: the last search's
    # stop must not stop the next search
    from kamicp.search.ida.cluster import RayWorker
    from kamicp.search.ida.tasks import WorkerSetup

    setup = WorkerSetup.of(from_edges([0, 1, 0], [(0, 1), (1, 2)]), None)
    actor = RayWorker(setup, stamp=1)
    actor.set_flag(1, True, 2)
    assert actor.flags == [False, True]
    actor.reset(setup, 4)
    actor.set_flag(1, True, 3)  # the last search's stop, run after the reset
    actor.set_flag(0, True, 6)
    actor.set_flag(0, False, 5)  # sent before the one above
    assert actor.flags == [True, False]
    assert actor.search.stopping() is False and actor.search.hungry() is True
