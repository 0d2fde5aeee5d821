"""The propagation engine under the DRAT checker (kamicp.proof.checker) on random proofs.

Every check runs with ``debug=True``, which asserts the watch and fixpoint invariants after
every backward step; the verdicts are held against the naive oracle of tests.proof.helpers
and against brute force.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.proof.helpers import (
    brute_force_sat,
    debug_check,
    naive_check,
    parse_lines,
    random_3sat,
    solver_proof,
    to_lines,
    validate_failure,
)

literal = st.integers(1, 5).flatmap(lambda v: st.sampled_from([v, -v]))


small_clause = st.lists(literal, min_size=1, max_size=3)


small_cnf = st.lists(small_clause, min_size=1, max_size=14)


@st.composite
def cnf_and_proof(draw) -> tuple[list[list[int]], list[str]]:
    """A small CNF and a random proof whose deletions mostly hit clauses present so far."""
    cnf = draw(small_cnf)
    present = [list(c) for c in cnf]
    steps: list[tuple[bool, list[int]]] = []
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.sampled_from(["add", "add", "delete", "delete_other"]))
        if kind == "delete" and present:
            victim = present.pop(draw(st.integers(0, len(present) - 1)))
            steps.append((True, draw(st.permutations(victim))))
        elif kind == "delete_other":
            steps.append((True, draw(small_clause)))
        else:
            lemma = draw(st.lists(st.integers(1, 6).flatmap(lambda v: st.sampled_from([v, -v]))))
            steps.append((False, lemma[:3]))
            present.append(lemma[:3])
    if draw(st.booleans()):
        steps.append((False, []))
    return cnf, to_lines([(d, lits) for d, lits in steps if lits or not d])


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cnf_and_proof())
def test_accepted_proofs_only_refute_unsat_formulas(case):
    cnf, lines = case
    result = debug_check(cnf, lines)  # also asserts the watch invariants at every step
    if result.ok:
        assert not brute_force_sat(cnf)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_cnf, st.lists(st.tuples(st.just(False), small_clause), max_size=8))
def test_deletion_free_random_proofs_match_the_oracle(cnf, steps):
    lines = to_lines(steps) + ["0"]
    result = debug_check(cnf, lines)
    if naive_check(cnf, [lits for _, lits in steps] + [[]]):
        assert result.ok, result.reason
    if result.ok:
        assert not brute_force_sat(cnf)
    else:
        validate_failure(cnf, lines, result)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.data())
def test_mutated_solver_proofs(seed, data):
    cnf = random_3sat(9, 6.0, seed)
    proof = solver_proof(cnf)
    if proof is None:
        return
    lines = [line for line in proof if not line.startswith("d")]
    for _ in range(data.draw(st.integers(0, 3))):
        i = data.draw(st.integers(0, len(lines)))
        if data.draw(st.booleans()) and i < len(lines):
            del lines[i]
        else:
            lines.insert(i, to_lines([(False, data.draw(small_clause))])[0])
    result = debug_check(cnf, lines)
    if naive_check(cnf, [lits for _, lits in parse_lines(lines)]):
        assert result.ok, result.reason
    if result.ok:
        assert not brute_force_sat(cnf)
    else:
        validate_failure(cnf, lines, result)
