"""The fixed CNF of one horizon and its DIMACS text (kamicp.models.sat.cnf).

On random small boards: the CNF of ``opt - 1`` is UNSAT and that of ``opt`` SAT for a plain
pysat solver, the same puzzle gives byte-identical DIMACS, which round-trips through pysat,
and every variable is named in words.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from pysat.formula import CNF
from pysat.solvers import Solver

from kamicp.game.regions import from_edges
from kamicp.models.sat.cnf import cnf_for_horizon, dimacs_for_horizon, to_dimacs
from tests.models.sat.test_horizon import final_of, finals, optimum
from tests.strategies import region_graphs


def check_fixed_cnf(g, final):
    opt = optimum(g, final)
    if opt is None:
        return
    for horizon, satisfiable in ((opt - 1, False), (opt, True)):
        if horizon < 0:
            continue
        cnf, names = cnf_for_horizon(g, horizon, final)
        with Solver(name="minisat22", bootstrap_with=cnf.clauses) as plain:
            assert plain.solve() is satisfiable
        text = to_dimacs(cnf, names)
        back = CNF(from_string=text)
        assert back.clauses == cnf.clauses and back.nv == cnf.nv
        assert dimacs_for_horizon(g, horizon, final) == dimacs_for_horizon(g, horizon, final)
        assert set(names) == set(range(1, cnf.nv + 1))


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(), finals)
def test_fixed_cnf_and_dimacs(g, choice):
    check_fixed_cnf(g, final_of(g, choice))


def test_dimacs_comments_name_the_variables():
    g = from_edges([0, 1, 0], [(0, 1), (1, 2)])
    text = dimacs_for_horizon(g, 1)
    assert "c var 1 = final colour is 0" in text
    assert "colour of region 1 after step 1 is 0" in text
    assert CNF(from_string=text).nv == int(text.split("p cnf ")[1].split()[0])


@pytest.mark.slow
@settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(), finals)
def test_fixed_cnf_and_dimacs_many(g, choice):
    check_fixed_cnf(g, final_of(g, choice))
