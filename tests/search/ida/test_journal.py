"""Journals of proved bounds (kamicp.search.ida.journal): a run continued from one gives BFS's
answer.

The strong check is end to end: a journal written by a stopped run (a node limit), by a run
that found a solution and by one that refuted a horizon, on one core and split over workers
from the first moment, is read by a new run, whose optimum must equal BFS's and which must
still refute one move fewer. A bound written too high (a split task's, say) on a state of
every optimal solution would make the new run miss the optimum.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kamicp.errors import InputError
from kamicp.game import rules
from kamicp.game.regions import from_edges
from kamicp.search.bfs import bfs
from kamicp.search.greedy import greedy
from kamicp.search.ida import IdaOptions, idastar, tasks
from kamicp.search.ida import search as ida_module
from kamicp.search.ida.checks import AUTO
from kamicp.search.ida.engine import PARALLEL, PoolIda, parallel_idastar
from kamicp.search.ida.journal import Journal, ensure_journal, identity
from kamicp.search.ida.tasks import Answer
from kamicp.solving.options import SolveOptions
from kamicp.solving.solve import solve
from tests.seed import long_board
from tests.strategies import oracle, region_graphs

FINALS = st.none() | st.integers(0, 7)
PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


def soon() -> float:
    return time.monotonic() + 60


def check_resumed(g, final, journal: str, opt: int | None) -> None:
    """A one-core run that reads ``journal`` finds the optimum ``opt`` (BFS's; None if
    unsolvable) and refutes one move fewer."""
    out = idastar(g, final_colour=final, deadline=soon(), options=IdaOptions(journal=journal))
    assert out.complete
    if opt is None:
        assert out.moves is None
        return
    assert len(out.moves) == opt == out.lower_bound
    rules.verify_solution(g, out.moves, final)
    if opt:
        below = idastar(
            g, final_colour=final, max_moves=opt - 1, options=IdaOptions(journal=journal)
        )
        assert below.complete and below.moves is None and below.lower_bound >= opt


def optimum(g, final) -> int | None:
    """BFS's optimum (None if unsolvable); a board too big for BFS within ORACLE_NODES is
    dropped, as in every other property test (one such board grew a test run to 10 GB)."""
    moves = oracle(g, final).moves
    return None if moves is None else len(moves)


@PROPERTY
@given(region_graphs(max_cells=20, max_colours=4), FINALS, st.integers(1, 300))
def test_a_run_continued_from_a_stopped_one_finds_the_optimum(g, choice, nodes):
    final = None if choice is None else choice % g.k
    with tempfile.TemporaryDirectory() as folder:
        journal = str(Path(folder) / "j")
        idastar(
            g, final_colour=final, node_limit=nodes, options=IdaOptions(journal=journal)
        )  # stopped, or not
        opt = optimum(g, final)
        check_resumed(g, final, journal, opt)
        check_resumed(g, final, journal, opt)  # now with the bounds of a whole run too


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=20, max_colours=4), FINALS, st.sampled_from([0, AUTO]))
def test_the_parallel_searchs_journal_holds_only_proved_bounds(g, choice, depth):
    # every task splits as soon as a worker is idle: the finished children of split tasks
    # and the workers' own bounds and checks are written too (kamicp.search.ida.tasks.Notes)
    final = None if choice is None else choice % g.k
    opt = optimum(g, final)
    with tempfile.TemporaryDirectory() as folder:
        journal = str(Path(folder) / "j")
        options = replace(PARALLEL, split_after=0.0, tetrapod_depth=depth, journal=journal)
        limits = {"final_colour": final, "deadline": soon()}
        # a run that finds a solution ...
        parallel_idastar(g, **limits, options=options)
        if opt:  # ... and one that refutes the horizon below it
            parallel_idastar(g, max_moves=opt - 1, **limits, options=options)
        check_resumed(g, final, journal, opt)


def test_a_split_search_writes_the_workers_answers():
    # optimum 4, start bound 3: the refutation of 3 moves is searched, split from the start
    colours = [1, 2, 1, 2, 1, 2, 0, 1, 0, 1]
    g = from_edges(colours, [(i, i + 1) for i in range(9)] + [(1, 6), (5, 8), (9, 3)])
    with tempfile.TemporaryDirectory() as folder:
        journal = str(Path(folder) / "j")
        out = parallel_idastar(
            g, max_moves=3, options=replace(PARALLEL, split_after=0.0, journal=journal)
        )
        assert out.complete and out.moves is None
        with Journal(journal, g, None) as j:
            assert j.load().bounds
        check_resumed(g, None, journal, 4)


def test_the_workers_bounds_below_their_tasks_are_written(monkeypatch):
    # the bounds a worker keeps below its tasks (states at most JOURNAL_DEPTH moves deep)
    # reach the journal through the coordinator, so a stopped run keeps more than the
    # tasks' answers; without the notes, fewer entries
    colours = [2, 1, 0, 0, 1, 0, 0, 2, 2, 1]  # a random board (found by search), optimum 5
    edges = [(1, 0), (2, 0), (3, 1), (4, 2), (5, 0), (6, 4), (7, 6), (8, 5), (9, 3), (8, 9)]
    g = from_edges(colours, edges, k=3)
    opt = len(bfs(g).moves)
    counts = []
    for noted in (True, False):
        if not noted:
            monkeypatch.setattr(tasks.Notes, "bound", lambda self, key, value: None)
        with tempfile.TemporaryDirectory() as folder:
            journal = str(Path(folder) / "j")
            out = parallel_idastar(
                g,
                max_moves=opt - 1,
                options=replace(PARALLEL, split_after=0.0, tetrapod_depth=AUTO, journal=journal),
            )
            assert out.complete and out.moves is None
            with Journal(journal, g, None) as j:
                counts.append(len(j.load().bounds))
            if noted:
                check_resumed(g, None, journal, opt)
    assert counts[0] > counts[1] > 0


class _Stopped:
    """Workers, one of them busy, whose answer to being stopped is ``answer``."""

    size = 1

    def __init__(self, answer):
        self.answer = answer
        self.stopped = False

    def stop(self):
        self.stopped = True

    def receive(self, timeout):
        return (0, self.answer) if self.stopped else None


def test_quieting_the_workers_writes_what_the_stopped_tasks_proved(tmp_path):
    # a stopped run's tasks answer with the bounds of what they finished, and their check
    # values: all written
    g = from_edges([0, 1, 0], [(0, 1), (1, 2)])
    search = PoolIda(g, None, None, None)
    search.pool = _Stopped(Answer(None, bounds=((b"k", 3),), checks=(("tetrapods", b"k", 4, 3),)))
    search.started, search.running_tasks = True, {0: "a task"}
    with Journal(str(tmp_path / "j"), g, None) as journal:
        search.journal = journal
        search.quiet()
        search.journal = None
    with Journal(str(tmp_path / "j"), g, None) as journal:
        learnt = journal.load()
    assert learnt.bounds == {b"k": 3} and learnt.tetrapods == {b"k": (4, 3)}
    assert learnt.tripods == {}


def test_the_workers_are_quieted_while_the_journal_is_open(tmp_path, monkeypatch):
    # so that what quieting brings back can be written (a 10x10 board, 5 colours, stopped)
    import random

    from kamicp import formats
    from kamicp.game.regions import region_graph

    rng = random.Random(7)
    rows = ["".join(rng.choice("RGBYP") for _ in range(10)) for _ in range(10)]
    text = "name: b\nrules: free\n" + "\n".join(rows) + "\n"
    g = region_graph(formats.load("b.txt", text=text)[0])
    seen = []
    quiet = PoolIda.quiet

    def quieting(self):
        seen.append(self.journal is not None)
        return quiet(self)

    monkeypatch.setattr(PoolIda, "quiet", quieting)
    journal = str(tmp_path / "j")
    options = replace(PARALLEL, split_after=0.0, tetrapod_depth=AUTO, journal=journal)
    # a busy machine may end 3 s before a task finished anything: the time doubles until
    # one did (the verdict does not depend on the load)
    held, seconds = {}, 3.0
    while not held and seconds <= 48:
        seen.clear()
        Path(journal).unlink(missing_ok=True)
        out = parallel_idastar(g, deadline=time.monotonic() + seconds, options=options)
        assert not out.complete and seen == [True]
        with Journal(journal, g, None) as j:
            held = j.load().bounds  # what the stopped tasks finished
        seconds *= 2
    assert held


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=20, max_colours=4), FINALS, st.integers(1, 300))
def test_a_parallel_run_continued_from_a_stopped_one_finds_the_optimum(g, choice, nodes):
    final = None if choice is None else choice % g.k
    opt = optimum(g, final)
    with tempfile.TemporaryDirectory() as folder:
        journal = str(Path(folder) / "j")
        options = replace(PARALLEL, split_after=0.0, journal=journal)
        parallel_idastar(g, final_colour=final, node_limit=nodes, options=options)
        check_resumed(g, final, journal, opt)


def test_a_bound_is_kept_at_its_highest(tmp_path):
    g = from_edges([0, 1, 0], [(0, 1), (1, 2)])
    with Journal(str(tmp_path / "j"), g, None) as j:
        j.bound(b"a", 4)
        j.bound(b"a", 2)
        j.bound(b"b", 1)
        j.check("tripods", b"a", 3, 2)
        j.check("tripods", b"a", 2, 5)  # a later check replaces the one held
        assert j.written == 5
    with Journal(str(tmp_path / "j"), g, None) as j:
        learnt = j.load()
    assert learnt.bounds == {b"a": 4, b"b": 1}
    assert learnt.tripods == {b"a": (2, 5)} and learnt.tetrapods == {}


def test_another_board_or_final_colour_shares_nothing(tmp_path):
    g = from_edges([0, 1, 0], [(0, 1), (1, 2)])
    other = from_edges([0, 1, 1], [(0, 1), (1, 2)])
    path = str(tmp_path / "j")
    with Journal(path, g, None) as j:
        j.bound(b"a", 4)
    for board, final in ((g, 0), (other, None)):
        assert identity(board, final) != identity(g, None)
        with Journal(path, board, final) as j:
            assert len(j.load()) == 0
    with Journal(path, g, None) as j:
        assert len(j.load()) == 1


def test_a_file_that_is_not_a_journal_is_refused_and_left_as_it_was(tmp_path):
    g = from_edges([0, 1], [(0, 1)])
    text = tmp_path / "notes.txt"
    text.write_text("my notes\n" * 100)
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE t (x)")
    before = {path: path.read_bytes() for path in (text, other)}
    for path, problem in ((text, "not a kamicp journal"), (other, "SQLite file of something")):
        with pytest.raises(InputError, match=problem):
            Journal(str(path), g, None)
        assert path.read_bytes() == before[path]


@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE bounds SET value = 'abc'",
        "UPDATE bounds SET value = -5",
        "UPDATE bounds SET key = 'text'",
        "UPDATE checks SET kind = 'nosuch'",
        "DROP TABLE bounds",
    ],
)
def test_a_damaged_journal_is_refused_with_one_line(tmp_path, damage):
    g = from_edges([0, 1, 2], [(0, 1), (1, 2)])
    path = tmp_path / "j.kj"
    with Journal(str(path), g, None) as journal:
        journal.bound(b"state", 2)
        journal.check("tripods", b"state", 2, 3)
    with sqlite3.connect(path) as db:
        db.execute(damage)
    with pytest.raises(InputError, match="not a kamicp journal"):
        with Journal(str(path), g, None) as journal:
            journal.load()
    if damage.startswith("DROP"):  # what the portfolio asks before it starts its backends
        with pytest.raises(InputError, match="not a kamicp journal"):
            ensure_journal(str(path))


def test_one_run_at_a_time(tmp_path):
    g = from_edges([0, 1], [(0, 1)])
    path = str(tmp_path / "j")
    with Journal(path, g, None) as first:
        first.bound(b"a", 2)
        with pytest.raises(InputError, match="in use by another run"):
            Journal(path, g, None)
    with Journal(path, g, None) as again:
        assert again.load().bounds == {b"a": 2}


def test_a_time_limited_solve_leaves_its_bounds_in_the_journal(tmp_path, monkeypatch):
    from kamicp import formats
    from kamicp.game.regions import region_graph

    # every state's bound is written, so that a few seconds of search leave some
    monkeypatch.setattr(ida_module, "JOURNAL_DEPTH", 99)
    g = region_graph(formats.load(str(long_board(tmp_path)))[0])
    journal = str(tmp_path / "j")
    known = greedy(g)  # so that the search starts at once (not after idastar's wider beam)
    for solver in ("idastar", "portfolio"):  # the portfolio passes it to its idastar
        # a busy machine may spend a short limit before the search starts: the limit
        # doubles until the search ran (the verdict does not depend on the load)
        held, limit = 0, 4.0
        while not held and limit <= 64:
            options = SolveOptions(time_limit=limit, known=known, journal=journal)
            result = solve(g, solver, options)
            assert result.status == "feasible"
            with Journal(journal, g, None) as j:
                held = len(j.load())
            Path(journal).unlink()
            limit *= 2
        assert held > 0


def kamicp(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "kamicp", *args]
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd, timeout=120)


def test_solve_with_a_journal_says_whose_bounds_proved_it(tmp_path):
    board = tmp_path / "b.txt"
    board.write_text("rules: free\nRGBRGB\nGBRGBR\nBRGBRG\n")
    first = kamicp("solve", "b.txt", "--solver", "idastar", "--journal", "p.kj", cwd=tmp_path)
    again = kamicp("solve", "b.txt", "--solver", "idastar", "--journal", "p.kj", cwd=tmp_path)
    assert first.returncode == again.returncode == 0, first.stderr + again.stderr
    status = [line for line in again.stdout.splitlines() if line.startswith("status:")]
    assert status == [line for line in first.stdout.splitlines() if line.startswith("status:")]
    assert "optimal" in status[0] and "with the proved bounds of journal p.kj" in status[0]


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["--solver", "sat", "--journal", "p.kj"], "--journal: only with --solver idastar"),
        (["--solver", "idastar", "--journal", "b.txt"], "refusing to overwrite the input file"),
        (["--solver", "idastar", "--journal", "notes.txt"], "notes.txt: not a kamicp journal"),
    ],
)
def test_bad_journals_get_one_line_and_exit_2(tmp_path, args, problem):
    (tmp_path / "b.txt").write_text("rules: free\nRGB\nGBR\n")
    (tmp_path / "notes.txt").write_text("keep me\n" * 200)
    out = kamicp("solve", "b.txt", *args, cwd=tmp_path)
    assert out.returncode == 2
    assert problem in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert (tmp_path / "notes.txt").read_text() == "keep me\n" * 200
    assert (tmp_path / "b.txt").read_text() == "rules: free\nRGB\nGBR\n"
