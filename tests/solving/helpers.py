"""Shared helpers of the solving tests: agreement with BFS, the holes board, beam spies."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kamicp.formats import load
from kamicp.game import rules
from kamicp.game.regions import region_graph
from kamicp.search.bfs import bfs
from kamicp.solving.solve import SolveOptions, solve
from tests.strategies import boards

EXACT = ["cpsat", "sat"]


def check_agrees(board, solver, final_choice, **options):
    g = region_graph(board)
    final = None if final_choice is None else final_choice % g.k
    ref = bfs(g, final_colour=final)
    r = solve(g, solver, SolveOptions(final_colour=final, **options))
    if ref.moves is None:
        assert r.status == "infeasible" and r.solution is None
        return
    assert r.status == "optimal", (r.status, r.proof)
    assert r.moves == len(ref.moves) == r.lower_bound == r.upper_bound
    rules.verify_solution(g, r.solution, final)
    if r.moves > 0:
        below = solve(g, solver, SolveOptions(final_colour=final, max_moves=r.moves - 1))
        assert below.status == "infeasible"


def agree(solver, examples, **options):
    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(boards(), st.one_of(st.none(), st.integers(0, 7)))
    def run(board, final_choice):
        check_agrees(board, solver, final_choice, **options)

    run()


def holes():  # start bound 4, optimum 5

    path = Path(__file__).resolve().parents[2] / "puzzles" / "square" / "holes.txt"
    return region_graph(load(str(path))[0])


def widths(calls: list) -> list[int]:
    """The beam widths of the calls noted by :func:`spy_on` on ``greedy`` or ``beam``
    (both called as ``(g, final_colour, width, deadline)``)."""
    return [args[2] for args in calls]


def spy_on(function, calls: list):
    """``function``, noting each call in ``calls``."""

    def spy(*args, **kwargs):
        calls.append(args)
        return function(*args, **kwargs)

    return spy
