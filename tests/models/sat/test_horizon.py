"""The SAT backend's horizon decisions against the reference BFS.

On random small boards of every geometry, with holes and islands, both rule sets, with and
without a required final colour:

- ``decide(opt)`` is sat with a solution that replays, ``decide(opt - 1)`` is unsat (and
  every horizon is unsat on boards no sequence of moves solves);
- the incremental solver asked rising (or falling) horizons answers as fresh solvers do,
  with every combination of the encoding's options;
- the DRAT proof of ``prove_unsat`` checks with :mod:`kamicp.proof.drat`;
- a time limit gives "unknown" and a watched solve reports how each horizon stands.

The default run takes a few hundred boards per property; ``-m slow`` runs thousands.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kamicp.game import rules
from kamicp.game.board import Board
from kamicp.game.regions import from_edges, region_graph
from kamicp.models.cpsat.horizon import CpsatHorizon
from kamicp.models.sat import solvers
from kamicp.models.sat.cnf import cnf_for_horizon
from kamicp.models.sat.horizon import SatHorizon, prove_unsat
from kamicp.proof.drat import check_drat
from kamicp.search.bfs import bfs
from tests.strategies import region_graphs

FAST = settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck))
finals = st.one_of(st.none(), st.integers(0, 7))
options = st.fixed_dictionaries(
    {
        "symmetry": st.booleans(),
        "radius": st.sampled_from(["layers", "exact", "off"]),
        "diameter": st.booleans(),
    }
)


def final_of(g, choice):
    """No final colour, or one of the palette (maybe absent from the board)."""
    return None if choice is None else choice % g.k


def optimum(g, final):
    """The BFS optimum, or None when no sequence of moves solves the board."""
    ref = bfs(g, final_colour=final)
    assert ref.complete
    return None if ref.moves is None else len(ref.moves)


def check_decisions(g, final, opts):
    opt = optimum(g, final)
    with SatHorizon(g, final_colour=final, **opts) as sat:
        if opt is None:
            for horizon in (0, 2, 5):
                assert sat.decide(horizon).status == "unsat"
            return
        if opt > 0:
            below = sat.decide(opt - 1)
            assert below.status == "unsat" and below.moves is None
        found = sat.decide(opt)
    assert found.status == "sat" and found.horizon == opt
    assert len(found.moves) == opt  # a shorter one would contradict the BFS optimum
    rules.verify_solution(g, found.moves, final)


def check_incremental(g, final, opts):
    opt = optimum(g, final)
    top = 4 if opt is None else opt + 1
    with SatHorizon(g, final_colour=final, **opts) as rising:
        answers = [rising.decide(h).status for h in range(top + 1)]
    with SatHorizon(g, final_colour=final, **opts) as falling:  # layers built first
        backwards = [falling.decide(h).status for h in range(top, -1, -1)][::-1]
    fresh = []
    for h in range(top + 1):
        with SatHorizon(g, final_colour=final, **opts) as one:
            fresh.append(one.decide(h).status)
    expected = ["sat" if opt is not None and h >= opt else "unsat" for h in range(top + 1)]
    assert answers == backwards == fresh == expected


@FAST
@given(region_graphs(), finals, options)
def test_decide_matches_bfs(g, choice, opts):
    check_decisions(g, final_of(g, choice), opts)


@FAST
@given(region_graphs(), finals, options)
def test_incremental_matches_fresh(g, choice, opts):
    check_incremental(g, final_of(g, choice), opts)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(), finals)
def test_proof_of_infeasibility_checks(g, choice):
    final = final_of(g, choice)
    opt = optimum(g, final)
    if opt is None or opt == 0:
        return
    cnf, _ = cnf_for_horizon(g, opt - 1, final)
    status, proof = prove_unsat(g, opt - 1, final)
    assert status == "unsat"
    assert check_drat(cnf.clauses, proof).ok
    assert prove_unsat(g, opt, final)[0] == "sat"


def bigger_board(seed: int, rules_name: str) -> Board:
    """A random 7x7 square board with 5 colours (about 35 regions), too big for BFS."""
    rng = random.Random(seed)
    cells = {(r, c): rng.randrange(5) for r in range(7) for c in range(7)}
    return Board(geometry="square", cells=cells, palette=tuple("abcde"), rules=rules_name)


@pytest.mark.parametrize("rules_name, seed", [("free", 1), ("pivot", 1), ("pivot", 2)])
def test_larger_boards_agree_with_cpsat(rules_name, seed):
    """Boards of ~35 regions (too many for BFS) exercise deep stamps, the radius levels and
    the order rules; the CP-SAT model, built independently, must agree on the optimum."""
    g = region_graph(bigger_board(seed, rules_name))
    with SatHorizon(g) as sat:
        horizon, answer = 0, sat.decide(0)
        while answer.status == "unsat":
            horizon += 1
            answer = sat.decide(horizon)
    assert answer.status == "sat"
    rules.verify_solution(g, answer.moves)
    other = CpsatHorizon(g)
    assert other.decide(horizon - 1).status == "unsat"
    assert other.decide(horizon).status == "sat"


@pytest.mark.parametrize("solver_name", ["cadical195", "glucose4"])
def test_time_limit_gives_unknown_and_the_solver_keeps_working(solver_name):
    """A budgeted (CaDiCaL) and an interrupted (Glucose) run stop, then still answer."""
    rng = random.Random(5)
    cells = {(r, c): rng.randrange(4) for r in range(10) for c in range(10)}
    g = region_graph(Board(geometry="square", cells=cells, palette=tuple("abcd")))
    with SatHorizon(g, solver_name=solver_name) as sat:
        stopped = sat.decide(14, time_limit=0.3)
        assert stopped.status == "unknown" and stopped.moves is None
        assert sat.decide(1).status == "unsat"  # 4 colours need at least 3 moves
        assert sat.decide(0, time_limit=0).status == "unknown"


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=16, max_colours=4))
def test_status_lines_name_the_horizon_and_change_no_answer(monkeypatch, g):
    # a line before every slice of every horizon asked: "deciding N moves for S s; C
    # conflicts, D decisions", N between the start's bound and the optimum
    monkeypatch.setattr(solvers, "STATUS_EVERY", 0.0)
    opt = optimum(g, None)
    asked = {2: "unsat"} if opt is None else {opt - 1: "unsat", opt: "sat"}
    lines: list[str] = []
    with SatHorizon(g) as sat:
        sat.on_status = lines.append
        for horizon, status in asked.items():
            assert sat.decide(horizon).status == status
    pattern = re.compile(r"deciding (\d+) moves for \d+ s; ([\d,]+) conflicts, [\d,]+ decisions")
    found = [pattern.fullmatch(line) for line in lines]
    assert found and all(found)
    assert {int(m.group(1)) for m in found} == {h for h in asked if h >= 0}
    assert int(found[0].group(2).replace(",", "")) == 0  # counted from the horizon's start


def test_sat_horizon_refuses_kissat_and_a_colour_outside_the_palette():
    g = from_edges([0, 1], [(0, 1)])
    with pytest.raises(ValueError):
        SatHorizon(g, solver_name="kissat")  # Kissat ignores assumptions
    with pytest.raises(ValueError):
        SatHorizon(g, final_colour=2)


@pytest.mark.slow
@SLOW
@given(region_graphs(), finals, options)
def test_decide_matches_bfs_many(g, choice, opts):
    check_decisions(g, final_of(g, choice), opts)


@pytest.mark.slow
@SLOW
@given(region_graphs(), finals, options)
def test_incremental_matches_fresh_many(g, choice, opts):
    check_incremental(g, final_of(g, choice), opts)
