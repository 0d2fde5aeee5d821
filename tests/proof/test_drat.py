"""Tests of the DRAT checker (kamicp.proof.drat) against proofs from real solvers and the
independent naive oracle of tests.proof.helpers.

- a proof the checker accepts belongs to a formula that brute force finds UNSAT (soundness);
- on deletion-free proofs, oracle-accepted implies checker-accepted (the checker verifies a
  subset of the lemmas against the same formulas);
- when the checker rejects a lemma, the oracle confirms it is neither RUP nor RAT.
"""

from __future__ import annotations

import itertools
import time

import pytest
from pysat.examples.genhard import PHP

from kamicp.procs.deadline import Deadline
from kamicp.proof import drat
from tests.proof.helpers import (
    ALL8,
    PROOF_SOLVERS,
    brute_force_sat,
    debug_check,
    encode_binary,
    naive_check,
    naive_rat,
    naive_rup,
    parse_lines,
    random_3sat,
    solver_proof,
    up_conflict,
    validate_failure,
)


@pytest.mark.parametrize("name", PROOF_SOLVERS)
@pytest.mark.parametrize("holes", [4, 5, 6])
def test_pigeonhole_proofs_verify(name, holes):
    clauses = PHP(holes).clauses
    proof = solver_proof(clauses, name)
    result = drat.check_drat(clauses, proof)
    assert result.ok, result.reason
    assert 0 < result.lemmas_checked <= result.lemmas_total
    if holes <= 5:
        assert debug_check(clauses, proof).ok


@pytest.mark.parametrize("seed", range(4))
def test_random_3sat_proofs_verify(seed):
    clauses = random_3sat(45, 5.0, seed)
    proof = solver_proof(clauses)
    assert proof is not None  # ratio 5 with 45 variables is UNSAT for these seeds
    result = debug_check(clauses, proof)
    assert result.ok, result.reason
    assert result.lemmas_checked > 0


def test_maplesat_proofs_are_caught():
    # MapleSAT logs some learnt clauses that do not follow (known); the checker must say so.
    clauses = PHP(5).clauses
    proof = solver_proof(clauses, "mpl")
    result = drat.check_drat(clauses, proof)
    assert not result.ok and result.line is not None
    validate_failure(clauses, proof, result)  # MapleSAT logs no deletions


def test_trivially_unsat_formulas_need_no_lemma():
    assert drat.check_drat([[1], [-1]], []).ok
    assert drat.check_drat([[1, 2], []], "").ok
    assert drat.check_drat([[1], [-1, 2], [-2]], ["0"]).ok


def deletion_free_proof(holes: int, name: str = "cd15") -> tuple[list[list[int]], list[str]]:
    """Dropping deletions keeps a proof valid (deletion only weakens the formula)."""
    clauses = PHP(holes).clauses
    lines = [line for line in solver_proof(clauses, name) if not line.startswith("d")]
    return clauses, lines


def test_dropping_lines_until_the_check_fails():
    clauses, lines = deletion_free_proof(5)
    assert drat.check_drat(clauses, lines).ok
    assert not up_conflict(clauses)  # so the proof with no lemma at all must fail
    remaining = list(lines)
    while True:
        lemma_rows = [i for i, line in enumerate(remaining) if line.strip() != "0"]
        assert lemma_rows, "ran out of lemmas without a failure"
        del remaining[lemma_rows[-1]]  # drop the last lemma
        result = drat.check_drat(clauses, remaining)
        if not result.ok:
            break
    validate_failure(clauses, remaining, result)


def test_every_single_dropped_line_is_judged_like_the_oracle():
    clauses, lines = deletion_free_proof(4, "g4")
    failures = 0
    for i in range(len(lines)):
        tampered = lines[:i] + lines[i + 1 :]
        result = debug_check(clauses, tampered)
        oracle = naive_check(clauses, [lits for _, lits in parse_lines(tampered)])
        if oracle:
            assert result.ok, (i, result.reason)
        if not result.ok:
            failures += 1
            validate_failure(clauses, tampered, result)
    assert failures > 0  # dropping the empty clause at least must be caught


def test_proof_of_a_satisfiable_formula_fails():
    clauses = PHP(5).clauses
    proof = solver_proof(clauses)
    # Drop one pigeon's "sits in some hole" clause: that pigeon may sit nowhere, so SAT.
    longest = max(range(len(clauses)), key=lambda i: len(clauses[i]))
    weaker = clauses[:longest] + clauses[longest + 1 :]
    assert solver_proof(weaker) is None  # satisfiable
    result = drat.check_drat(weaker, proof)
    assert not result.ok
    assert "neither RUP nor RAT" in result.reason or "empty clause" in result.reason


def test_proof_without_empty_clause_fails():
    clauses = PHP(4).clauses
    result = drat.check_drat(clauses, [])
    assert not result.ok and "never derives" in result.reason
    result = drat.check_drat(clauses, ["0"])
    assert not result.ok and result.line == 1


def test_rat_lemma_on_an_existing_variable():
    # "1" is not RUP (no unit propagates from -1) but every resolvent on -1 is.
    assert not naive_rup(ALL8, [1]) and naive_rat(ALL8, [1])
    result = debug_check(ALL8, ["1 0", "2 0", "0"])
    assert result.ok, result.reason
    assert result.rat_lemmas == 1 and result.lemmas_checked == 2


def all_signs(fixed: list[int], free: tuple[int, int]) -> list[list[int]]:
    """``fixed`` joined with each of the four sign patterns over the two ``free`` variables."""
    return [fixed + [s * free[0], t * free[1]] for s, t in itertools.product((1, -1), repeat=2)]


# 1 and 2 are forced, but not by unit propagation (through 5, 6 and 7, 8); 1 & 2 is
# contradictory through 3, 4, again not by unit propagation. x9 := 1 & 2 shortcuts it.
ER_BASE = all_signs([-1, -2], (3, 4)) + all_signs([1], (5, 6)) + all_signs([2], (7, 8))


ER_DEFINITIONS = ["9 -1 -2 0", "-9 1 0", "-9 2 0"]


ER_REST = ["-9 3 0", "-9 -3 0", "-9 0", "1 5 0", "1 0", "2 7 0", "0"]


def test_extended_resolution_definitions_are_rat():
    proof = ER_DEFINITIONS + ER_REST
    lemmas = [lits for _, lits in parse_lines(proof)]
    for i in range(3):  # none of the definitions is RUP
        assert not naive_rup(ER_BASE + lemmas[:i], lemmas[i])
    assert naive_check(ER_BASE, lemmas)
    result = debug_check(ER_BASE, proof)
    assert result.ok, result.reason
    assert result.rat_lemmas == 3


def test_rat_pivot_is_the_first_literal():
    # The same definition with another literal first is not RAT on that literal.
    proof = [ER_DEFINITIONS[0], "1 -9 0", ER_DEFINITIONS[2]] + ER_REST
    result = drat.check_drat(ER_BASE, proof)
    assert not result.ok
    assert result.line == 2 and "lemma 1 -9 0" in result.reason
    validate_failure(ER_BASE, proof, result)


def test_binary_failures_name_the_step():
    proof = [ER_DEFINITIONS[0], "1 -9 0", ER_DEFINITIONS[2]] + ER_REST
    result = drat.check_drat(ER_BASE, encode_binary(proof))
    assert not result.ok and result.line == 2
    assert result.reason.startswith("step 2: lemma 1 -9 0 ")
    assert drat.check_drat(ER_BASE, encode_binary(ER_DEFINITIONS + ER_REST)).rat_lemmas == 3


def test_lemma_neither_rup_nor_rat():
    # Both lemmas are invalid; checking backwards meets the second one first.
    proof = ["-1 0", "-2 0", "0"]
    result = drat.check_drat([[1, 2]], proof)
    assert not result.ok and result.line == 2
    validate_failure([[1, 2]], proof, result)


def test_deleted_clause_cannot_be_used():
    proof = ["1 2 0", "1 0", "2 0", "0"]
    assert drat.check_drat(ALL8, proof).ok
    result = drat.check_drat(ALL8, ["d 1 2 3 0"] + proof)
    assert not result.ok  # ALL8 without (1 2 3) is satisfiable, by all-false
    assert not brute_force_sat(ALL8) and brute_force_sat(ALL8[1:])
    # Deleted in a different literal order, and with an unknown clause deleted too.
    result = drat.check_drat(ALL8, ["d 9 8 0", "d 3 1 2 0"] + proof)
    assert not result.ok
    result = drat.check_drat(ALL8, ["d 9 8 0"] + proof)
    assert result.ok and result.deletions_missing == 1 and result.deletions_ignored == 0


def test_deleted_lemma_cannot_be_used_later():
    # With (-1 4) added, "1" is RUP through the lemma (1 2) but not RAT (resolvent "4").
    clauses = ALL8 + [[-1, 4]]
    proof = ["1 2 0", "1 0", "2 0", "0"]
    assert drat.check_drat(clauses, proof).ok
    result = drat.check_drat(clauses, proof[:1] + ["d 2 1 0"] + proof[1:])
    assert not result.ok and result.line == 3, result.reason
    assert not naive_rup(clauses, [1]) and not naive_rat(clauses, [1])


def test_deletion_of_a_reason_is_ignored():
    # (1) forces 1; deleting it is ignored, so "2" stays RUP through it.
    clauses = [[1], [-1, 2, 3], [-1, 2, -3], [-1, -2, 3], [-1, -2, -3]]
    result = debug_check(clauses, ["d 1 0", "2 0", "0"])
    assert result.ok and result.deletions_ignored == 1 and result.deletions_missing == 0
    # Likewise a longer reason: (-1 4) forces 4, which the refutation needs.
    clauses = [[1], [-1, 4], [-4, 2, 3], [-4, 2, -3], [-4, -2, 3], [-4, -2, -3]]
    result = debug_check(clauses, ["d 4 -1 0", "2 0", "0"])
    assert result.ok and result.deletions_ignored == 1


def test_deadline_in_the_past_times_out():
    clauses = PHP(5).clauses
    result = drat.check_drat(
        clauses, solver_proof(clauses), deadline=Deadline(time.monotonic() - 1)
    )
    assert not result.ok and result.timed_out


@pytest.mark.slow
@pytest.mark.parametrize("nvars", [150, 200])
def test_benchmark_scale_random_3sat(nvars):
    """Proofs of tens of thousands of lemmas (seconds to a minute each); no timing assert."""
    for seed in range(40):
        clauses = random_3sat(nvars, 4.26, seed)
        proof = solver_proof(clauses)
        if proof is not None:
            break
    result = drat.check_drat(clauses, proof)
    assert result.ok, result.reason
    assert result.lemmas_checked > 1000


@pytest.mark.slow
@pytest.mark.parametrize("name", ["cd15", "g4", "lgl"])
def test_benchmark_scale_pigeonhole(name):
    clauses = PHP(7).clauses
    result = drat.check_drat(clauses, solver_proof(clauses, name))
    assert result.ok, result.reason
