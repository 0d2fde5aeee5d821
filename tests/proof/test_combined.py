"""Proof logs written by several processes (kamicp.proof.combined): the combined log is
accepted by both checkers, on random boards of every geometry and both rules, for every
horizon below the optimum."""

from __future__ import annotations

import gzip

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kamicp import formats
from kamicp.game.regions import from_edges, region_graph
from kamicp.proof.certificate import LOG_FILE, CertificateOptions, write_certificate
from kamicp.proof.combined import write_log_split
from kamicp.proof.refutation import check_log, write_log
from kamicp.result import Result
from kamicp.search.bfs import bfs
from kamicp.search.ida import idastar
from tests.proof.test_both_checkers import HOLES, alone, kamicp_ok
from tests.strategies import boards, oracle

FINALS = st.none() | st.integers(0, 7)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(boards(max_cells=12), FINALS)
def test_a_combined_log_refutes_every_horizon_below_the_optimum(board, choice):
    g = region_graph(board)
    final = None if choice is None else choice % g.k
    ref = oracle(g, final)
    if ref.moves is None:
        return
    for horizon in range(len(ref.moves)):
        log = write_log_split(g, horizon, final, workers=2)
        assert log is not None
        assert check_log(g, log.data, horizon, final).ok
    with pytest.raises(ValueError):
        write_log_split(g, len(ref.moves), final, workers=2)


@st.composite
def cycles(draw):
    """A cycle of 8-12 regions with a chord, 3-4 colours, either rules: at one move below
    the optimum the start's moves are seldom all cut, so the log is written in tasks."""
    n, k = draw(st.integers(8, 12)), draw(st.integers(3, 4))
    colours = [draw(st.integers(0, k - 1))]
    for _ in range(n - 1):
        colours.append((colours[-1] + draw(st.integers(1, k - 1))) % k)
    assume(colours[-1] != colours[0])
    chord = tuple(
        sorted(draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=2, unique=True)))
    )
    edges = [(i, (i + 1) % n) for i in range(n)] + [chord]
    return from_edges(colours, edges, rules=draw(st.sampled_from(["free", "pivot"])))


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(cycles())
def test_a_log_written_in_tasks_is_accepted_one_move_below_the_optimum(g):
    optimum = len(idastar(g).moves)
    assume(optimum >= 1)
    log = write_log_split(g, optimum - 1, workers=2)
    text = gzip.decompress(log.data).decode().splitlines()
    assume(sum(line.startswith("P 0 ") for line in text) >= 2)  # written in tasks
    assert check_log(g, log.data, optimum - 1).ok
    assert not check_log(g, log.data, optimum).ok  # the header names its horizon


def test_the_tasks_are_numbered_on_from_the_start():
    g = from_edges([0, 1, 2, 0, 1, 2], [(i, (i + 1) % 6) for i in range(6)])
    one, split = write_log(g, 3), write_log_split(g, 3, workers=2)
    text = gzip.decompress(split.data).decode().splitlines()
    assert text[-1] == "E 0 3"  # the start's claim, last
    starts = [line for line in text if line.startswith("P 0 ")]
    assert len(starts) >= 2  # one task a move from the start
    numbers = [int(line.split()[1]) for line in text if line[:1] in "PEFC"]
    assert max(numbers) <= split.positions
    assert split.claims >= one.claims  # the tasks share no table


def test_a_certificate_from_several_processes_is_accepted_by_both(tmp_path):
    board = formats.load(str(HOLES))[0]
    ref = bfs(region_graph(board))
    result = Result("optimal", ref.moves, len(ref.moves), len(ref.moves), "bfs")
    out = tmp_path / "cert"
    options = CertificateOptions(kinds=("log",), workers=2)
    manifest = write_certificate(board, str(HOLES), result, str(out), options=options)
    assert manifest["evidence"]["kind"] == "log"
    text = gzip.decompress((out / LOG_FILE).read_bytes())
    assert text.decode().count("\nP 0 ") >= 2  # written in tasks
    assert kamicp_ok(out) and alone(out) == 0
