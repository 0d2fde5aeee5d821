"""Proof logs agree with the reference search: a log refutes exactly the horizons below BFS's
optimum on random boards of every geometry and both rule sets, and each is accepted."""

from __future__ import annotations

import gzip

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kamicp.bounds import UNSOLVABLE, contract
from kamicp.game.regions import from_edges
from kamicp.procs.deadline import Deadline
from kamicp.proof.refutation import check_log, default_bound, write_log
from tests.strategies import boards, oracle, region_graph

CYCLE = from_edges([0, 1, 2, 0, 1, 2], [(i, (i + 1) % 6) for i in range(6)])  # optimum 4


@settings(max_examples=1000, deadline=None)
@given(boards(), st.data())
def test_a_log_refutes_every_horizon_below_the_optimum_and_no_other(board, data):
    g = region_graph(board)
    k = len(board.palette)
    final = data.draw(st.sampled_from([None, *range(k)]))
    ref = oracle(g, final)
    if ref.moves is None:  # no solution at all (pivot rules, pieces of other colours)
        log = write_log(g, 3, final)
        assert log is not None and check_log(g, log.data, 3, final).ok
        return
    optimum = len(ref.moves)
    for horizon in range(optimum):
        log = write_log(g, horizon, final)
        assert log is not None
        assert check_log(g, log.data, horizon, final).ok, (horizon, optimum)
    with pytest.raises(ValueError, match="can be solved"):
        write_log(g, optimum, final)


@settings(max_examples=300, deadline=None)
@given(boards(), st.data())
def test_the_default_bound_never_exceeds_the_optimum(board, data):
    g = region_graph(board)
    final = data.draw(st.sampled_from([None, *range(len(board.palette))]))
    ref = oracle(g, final)
    value, name = default_bound(contract(g), g.rules, final)
    assert name in ("colours", "islands", "layers", "sweep")
    if ref.moves is None:
        assert g.rules == "pivot" and value >= UNSOLVABLE
    else:
        assert value <= len(ref.moves)


def lines(log) -> list[str]:
    return gzip.decompress(log.data).decode().splitlines()


def relog(text: list[str]) -> bytes:
    return gzip.compress(("\n".join(text) + "\n").encode())


def test_the_cycle_needs_an_expansion_and_each_dropped_line_breaks_the_log():
    log = write_log(CYCLE, 3)
    assert log.claims == 13 and check_log(CYCLE, log.data, 3).ok
    text = lines(log)
    for i in range(3, len(text)):
        if text[i][0] == "E":
            assert not check_log(CYCLE, relog(text[:i] + text[i + 1 :]), 3).ok, text[i]


def test_a_log_is_for_one_horizon_and_one_final_colour():
    log = write_log(CYCLE, 3)
    assert not check_log(CYCLE, log.data, 2).ok  # the header names horizon 3
    assert not check_log(CYCLE, log.data, 3, 0).ok  # the header says any final colour
    assert write_log(CYCLE, 3, 0) is not None


def test_the_budget_and_the_deadline_stop_the_writer():
    assert write_log(CYCLE, 3, limit=2) is None
    assert write_log(CYCLE, 3, deadline=Deadline.after(0.0)) is None


def test_an_illegal_move_in_a_log_is_named():
    log = write_log(CYCLE, 3)
    text = lines(log)
    for bad, problem in [("P 0 0 0", "keeps its colour"), ("P 0 6 1", "off the board")]:
        found = check_log(CYCLE, relog(text[:3] + [bad] + text[3:]), 3)
        assert not found.ok and problem in found.reason
    pivot = from_edges([0, 1, 2, 0, 1, 2], [(i, (i + 1) % 6) for i in range(6)], rules="pivot")
    plog = write_log(pivot, 3)
    found = check_log(pivot, relog(lines(plog)[:3] + ["P 0 2 0"]), 3)
    assert not found.ok and "not the pivot's" in found.reason
