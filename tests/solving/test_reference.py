"""The searches as solvers (kamicp.solving.reference)."""

from __future__ import annotations

from kamicp.procs.deadline import Deadline
from kamicp.search.bfs import bfs
from kamicp.solving import reference
from kamicp.solving.options import SolveOptions
from tests.solving.helpers import holes


def test_a_stopped_search_answers_the_callers_solution_without_a_beam(monkeypatch):
    # "solvable in 4?" on a board whose optimum is 5, with the search stopped after one
    # node: the caller's 5-move solution is the answer's, and no beam runs past the limit
    g = holes()
    known = bfs(g).moves
    assert len(known) == 5

    def no_beam(*args, **kwargs):
        raise AssertionError("a beam ran although a solution was at hand")

    monkeypatch.setattr(reference, "greedy_solution", no_beam)
    options = SolveOptions(max_moves=4, node_limit=1)
    r = reference.solve_reference(g, "idastar", options, Deadline.after(None), known)
    assert r.status == "unknown"
    assert r.solution == known and r.upper_bound == 5
    assert r.lower_bound == 4
