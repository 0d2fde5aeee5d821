"""The constant-folding clause adder shared by the SAT and the CP-SAT models.

Each folding rule on its own (a true literal drops the clause, false literals drop out, an
all-false clause stays as the empty clause), the two negations (constants stay Python bools,
solver literals negate the solver's way), and for CP-SAT that a folded-away constant leaves
the model's answer as the unfolded clause would.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from ortools.sat.python import cp_model
from pysat.solvers import Solver

from kamicp.models.clauses import CnfClauses, CpsatClauses, fold, neg_cpsat, neg_dimacs


def cnf():
    store: list[list[int]] = []
    return CnfClauses(store.append), store


def test_a_true_literal_drops_the_clause():
    adder, store = cnf()
    adder.add(1, True, -2)
    adder.add(True)
    assert store == []
    assert fold([3, True]) is None


def test_false_literals_drop_out_and_order_is_kept():
    adder, store = cnf()
    adder.add(False, 3, False, -1, 2)
    assert store == [[3, -1, 2]]


def test_an_all_false_clause_stays_empty():
    adder, store = cnf()
    adder.add(False, False)
    adder.add()
    assert store == [[], []]  # the empty clause: the formula cannot be satisfied


def test_implies_negates_the_premise():
    adder, store = cnf()
    adder.implies(4, -5)
    adder.implies(False, 7)  # a false premise: nothing to add
    adder.implies(True, 7)  # a true premise: the conclusion alone
    adder.implies(6, False)  # a false conclusion: the premise is false
    assert store == [[-4, -5], [7], [-6]]


def test_negations_keep_constants_bools():
    assert neg_dimacs(True) is False and neg_dimacs(False) is True
    assert neg_dimacs(3) == -3 and neg_dimacs(-3) == 3
    assert neg_cpsat(True) is False and neg_cpsat(False) is True
    model = cp_model.CpModel()
    x = model.new_bool_var("x")
    assert neg_cpsat(x).index == x.negated().index


literals = st.one_of(st.booleans(), st.integers(1, 6), st.integers(-6, -1))


@given(st.lists(st.lists(literals, max_size=4), max_size=8))
def test_folding_keeps_the_formulas_models(clauses):
    """Folded or not, a clause set has the same models over its variables (constants read
    as the unit literals 7 = true, -7 = false)."""
    adder, store = cnf()
    for clause in clauses:
        adder.add(*clause)
    unfolded = [[7 if lit is True else -7 if lit is False else lit for lit in c] for c in clauses]
    with Solver(name="minisat22", bootstrap_with=[[7], *unfolded]) as plain:
        expected = plain.solve()
    if any(c == [] for c in store):
        assert expected is False
        return
    with Solver(name="minisat22", bootstrap_with=store) as folded:
        assert folded.solve() is expected


def cpsat_status(build):
    model = cp_model.CpModel()
    build(model, CpsatClauses(model))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    return solver.solve(model)


def test_cpsat_clauses_fold_the_same_way():
    def satisfied_by_a_constant(model, cl):
        x = model.new_bool_var("x")
        model.add(x == 0)
        cl.add(x, True)  # dropped: x stays free to be 0

    def false_constant_drops_out(model, cl):
        x = model.new_bool_var("x")
        model.add(x == 0)
        cl.add(x, False)  # becomes (x): contradicts x == 0

    def empty_clause(model, cl):
        cl.add(False)

    def implies_through_negation(model, cl):
        x = model.new_bool_var("x")
        y = model.new_bool_var("y")
        model.add(x == 1)
        model.add(y == 0)
        cl.implies(x, y)

    assert cpsat_status(satisfied_by_a_constant) == cp_model.OPTIMAL
    assert cpsat_status(false_constant_drops_out) == cp_model.INFEASIBLE
    assert cpsat_status(empty_clause) == cp_model.INFEASIBLE
    assert cpsat_status(implies_through_negation) == cp_model.INFEASIBLE
