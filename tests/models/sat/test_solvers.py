"""Running python-sat solvers within a time limit (kamicp.models.sat.solvers): a Ctrl-C stops
an interruptible solver, a watched CaDiCaL run reports its counts, solver names resolve."""

from __future__ import annotations

import pytest
from pysat.examples.genhard import PHP
from pysat.solvers import Solver

from kamicp.models.sat import solvers
from kamicp.models.sat.solvers import canonical_solver, run_limited

# A pigeonhole refutation that Glucose and MiniSat need minutes for, stopped by a SIGINT
# from another process (as a terminal's Ctrl-C) 1 s in; then the solver must still answer.
INTERRUPTED_SCRIPT = """
import json, os, signal, subprocess, sys, time
from pysat.examples.genhard import PHP
from pysat.solvers import Solver
from kamicp.models.sat.solvers import run_limited

signal.signal(signal.SIGINT, signal.default_int_handler)
name, limit = sys.argv[1], None if sys.argv[2] == "none" else float(sys.argv[2])
subprocess.Popen(["sh", "-c", f"sleep 1; kill -INT {os.getpid()}"])
began = time.monotonic()
with Solver(name=name, bootstrap_with=PHP(11).clauses) as solver:
    try:
        raised = repr(run_limited(solver, name, [], limit))
    except BaseException as err:
        raised = type(err).__name__
    seconds = time.monotonic() - began
    blocked = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])
    solver.conf_budget(100)
    after = repr(solver.solve_limited())
print(json.dumps([raised, seconds, blocked, after]))
"""


@pytest.mark.parametrize("time_limit", ["none", "120"])
@pytest.mark.parametrize("solver_name", ["glucose4", "minisat22"])
def test_ctrl_c_stops_an_interruptible_solver_which_then_still_answers(solver_name, time_limit):
    # A Ctrl-C must stop the solve at once, with or without a time limit, raise
    # KeyboardInterrupt, leave SIGINT unblocked and the solver usable (a solve in the main
    # thread would meet pysat's own handler, which leaves SIGINT blocked and the next solve
    # crashing, or would wait for the time limit).
    from tests.fresh import run_fresh

    raised, seconds, blocked, after = run_fresh(INTERRUPTED_SCRIPT, solver_name, time_limit)
    assert raised == "KeyboardInterrupt" and seconds < 30
    assert not blocked and after == "None"  # a budget of 100 conflicts: unknown, no crash


@pytest.mark.parametrize("time_limit", [None, 60.0])
def test_a_watched_run_reports_its_counts_and_gives_the_same_answer(monkeypatch, time_limit):
    # a report before every slice (STATUS_EVERY 0): CaDiCaL then runs in slices even without
    # a time limit; the counts only grow, and the answer is the one-call answer
    monkeypatch.setattr(solvers, "STATUS_EVERY", 0.0)
    clauses = PHP(7).clauses  # pigeons: unsatisfiable, some thousands of conflicts
    with Solver(name="cadical195", bootstrap_with=clauses) as plain:
        assert plain.solve() is False
    seen: list[dict] = []
    with Solver(name="cadical195", bootstrap_with=clauses) as watched:
        assert run_limited(watched, "cadical195", [], time_limit, seen.append) is False
        total = watched.accum_stats()["conflicts"]
    conflicts = [stats["conflicts"] for stats in seen]
    assert len(seen) >= 2 and conflicts == sorted(conflicts) and conflicts[-1] <= total
    with Solver(name="glucose4", bootstrap_with=clauses) as other:  # no slices: no reports
        assert run_limited(other, "glucose4", [], None, seen.append) is False
    assert len(seen) == len(conflicts)


def test_solver_names():
    assert canonical_solver("CD19") == "cadical195"
    assert canonical_solver("g4") == "glucose4"
    with pytest.raises(ValueError):
        canonical_solver("no-such-solver")
