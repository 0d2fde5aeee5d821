"""Checking par: the verdicts agree with the optimum BFS finds, and a failed or stuck proof
ends its job with one line."""

from __future__ import annotations

import dataclasses
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kamicp
from kamicp import bounds
from kamicp.formats import registry
from kamicp.web import children, jobs, par
from tests.strategies import grid_boards


def check_par(board, given_par, time_limit):
    """The check of ``board`` with par ``given_par``, as the design page's job computes it."""
    return par.checked(dataclasses.replace(board, par=given_par), time_limit)


@pytest.mark.parametrize(
    "given_par, lower, upper, verdict",
    [
        (None, 3, 3, "optimal"),
        (3, 3, 3, "confirmed"),
        (4, 3, 3, "high"),
        (2, 3, 3, "low"),
        (2, 3, None, "low"),
        (9, 3, 5, "high"),
        (4, 3, 5, "unknown"),
        (3, 3, 5, "unknown"),
        (5, 3, 5, "unknown"),  # 5 moves suffice, but 4 might too
        (4, 3, None, "unknown"),
        (None, 3, 5, "unknown"),
        (4, bounds.UNSOLVABLE, None, "unsolvable"),
    ],
)
def test_the_verdict_is_what_the_bounds_prove(given_par, lower, upper, verdict):
    assert par.par_verdict(given_par, lower, upper)[0] == verdict


def test_an_unsolvable_board_has_no_par():
    [board] = registry.parse("rules: pivot\nR.GB\n", "apart.txt")
    found = check_par(board, 1, time_limit=10)
    assert found["verdict"] == "unsolvable" and found["optimum"] is None
    assert found["message"] == "unsolvable: the pivot cannot reach every piece of the board"


def test_the_verdicts_say_the_numbers():
    assert par.par_verdict(2, 3, None)[1] == (
        "par too low: no solution in 2 moves (at least 3 are needed)"
    )
    assert par.par_verdict(None, 3, None)[1] == (
        "unknown: at least 3 moves, no solution found in time"
    )


@settings(max_examples=6, deadline=None)
@given(grid_boards(max_cells=9, max_colours=3), st.integers(-1, 1))
def test_check_par_agrees_with_bfs(board, offset):
    optimum = kamicp.solve(board, "bfs").moves
    if optimum is None:  # the pivot cannot reach every piece, or free rules and islands
        found = check_par(board, 3, time_limit=30)
        assert found["verdict"] == "unsolvable" and found["message"].startswith("unsolvable: ")
        return
    given_par = max(0, optimum + offset)
    found = check_par(board, given_par, time_limit=30)
    assert (found["optimum"], found["lower"], found["upper"]) == (optimum,) * 3
    expected = {0: "confirmed", 1: "high", -1: "low"}[given_par - optimum]
    assert found["verdict"] == expected
    assert kamicp.check(board, kamicp.parse_moves(board, found["solution"])).solved


def test_check_par_on_a_pivot_board_names_the_moves():
    [board] = registry.parse("rules: pivot\nRGB\nGBR\nBRG\n", "p.txt")
    found = check_par(board, 5, time_limit=30)
    assert found["message"] == "par too high: 4 moves suffice"
    assert found["solution"].startswith("0,0:") and len(found["solution"].split()) == 4


def failing(board, time_limit):
    raise ValueError("no way")


def stuck(board, time_limit):
    time.sleep(60)


def ended(spec: jobs.JobSpec) -> jobs.Job:
    """A check run as a job whose child is forked (it sees the tests' changes), ended."""
    job = jobs.Jobs(context="fork").start(spec)
    end = time.monotonic() + 30
    while job.state == "running" and time.monotonic() < end:
        time.sleep(0.05)
        job.read()
    return job


def test_a_failed_proof_is_one_line(monkeypatch):
    monkeypatch.setattr(par, "proved", failing)  # a forked child sees it too
    job = ended(jobs.JobSpec("check", registry.parse("RG\n")[0], time_limit=5))
    assert (job.state, job.error) == ("failed", "no way")


def test_a_stuck_proof_is_stopped(monkeypatch):
    monkeypatch.setattr(par, "proved", stuck)
    monkeypatch.setattr(children, "GRACE", 0.2)
    start = time.monotonic()
    job = ended(jobs.JobSpec("check", registry.parse("RG\n")[0], time_limit=0.3))
    assert (job.state, job.error) == ("cancelled", "stopped at the time limit")
    assert time.monotonic() - start < 10 and not job.child.process.is_alive()
