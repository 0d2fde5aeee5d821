"""Tests of the DRAT checker against proofs from real solvers and an independent naive oracle.

The oracle below re-checks every lemma forward with plain unit propagation (no watches, no
backward pass, no core marking), so it shares no code with ``kamicp.proof.drat``. Properties:

- a proof the checker accepts belongs to a formula that brute force finds UNSAT (soundness);
- on deletion-free proofs, oracle-accepted implies checker-accepted (the checker verifies a
  subset of the lemmas against the same formulas);
- when the checker rejects a lemma, the oracle confirms it is neither RUP nor RAT.
"""

from __future__ import annotations

import itertools
import os
import random
import stat
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pysat.examples.genhard import PHP
from pysat.solvers import Solver

from kamicp.procs.deadline import Deadline
from kamicp.proof import drat
from kamicp.proof.dimacs import parse_dimacs, parse_proof
from kamicp.proof.drat_trim import run_drat_trim

# Solvers of python-sat that log proofs. MapleSAT ('mpl') is left out: its proofs are known to
# fail checking (it logs some learnt clauses in a form that is not RUP).
PROOF_SOLVERS = [
    "cd103",
    "cd15",
    "cd19",
    "cd30",
    "g3",
    "g4",
    "g42",
    "gc3",
    "gc4",
    "lgl",
    "mcb",
    "mcm",
    "ergo",
]

# All eight 3-clauses over variables 1, 2, 3: UNSAT, yet unit propagation alone finds nothing.
ALL8 = [[a * 1, b * 2, c * 3] for a, b, c in itertools.product((1, -1), repeat=3)]


# --------------------------------------------------------------------------- the oracle


def up_conflict(clauses: list[list[int]], assumptions: list[int] = ()) -> bool:
    """Naive unit propagation from ``assumptions``: True when some clause becomes false."""
    true: set[int] = set()
    for x in assumptions:
        if -x in true:
            return True
        true.add(x)
    changed = True
    while changed:
        changed = False
        for c in clauses:
            if any(x in true for x in c):
                continue
            free = [x for x in c if -x not in true]
            if not free:
                return True
            if len(free) == 1:
                true.add(free[0])
                changed = True
    return False


def naive_rup(formula: list[list[int]], lemma: list[int]) -> bool:
    return up_conflict(formula, [-x for x in lemma])


def naive_rat(formula: list[list[int]], lemma: list[int]) -> bool:
    """RAT on the first literal, every resolvent checked by naive propagation."""
    if not lemma:
        return False
    p = lemma[0]
    return all(
        up_conflict(formula, [-x for x in lemma] + [-y for y in d if y != -p])
        for d in formula
        if -p in d
    )


def naive_check(formula: list[list[int]], lemmas: list[list[int]]) -> bool:
    """Forward check of a deletion-free proof: every lemma up to a top-level conflict."""
    current = [list(c) for c in formula]
    if any(not c for c in current) or up_conflict(current):
        return True
    for lemma in lemmas:
        if not lemma or not (naive_rup(current, lemma) or naive_rat(current, lemma)):
            return False
        current.append(lemma)
        if up_conflict(current):
            return True
    return False


def brute_force_sat(clauses: list[list[int]]) -> bool:
    nvars = max((abs(x) for c in clauses for x in c), default=0)
    for bits in itertools.product((False, True), repeat=nvars):
        if all(any(bits[abs(x) - 1] == (x > 0) for x in c) for c in clauses):
            return True
    return False


# --------------------------------------------------------------------------- helpers


def solver_proof(clauses: list[list[int]], name: str = "cd15") -> list[str] | None:
    """A pysat solver's proof lines, or None when the formula is satisfiable."""
    with Solver(name=name, bootstrap_with=clauses, with_proof=True) as s:
        if s.solve():
            return None
        return s.get_proof()


def to_lines(steps: list[tuple[bool, list[int]]]) -> list[str]:
    return [("d " if d else "") + " ".join(map(str, lits + [0])) for d, lits in steps]


def parse_lines(lines: list[str]) -> list[tuple[bool, list[int]]]:
    out = []
    for line in lines:
        toks = line.split()
        delete = toks[0] == "d"
        out.append((delete, [int(t) for t in toks[delete:-1]]))
    return out


def encode_binary(lines: list[str]) -> bytes:
    """Binary DRAT written independently of the parser: ``2v+sign`` in 7-bit groups."""
    out = bytearray()
    for delete, lits in parse_lines(lines):
        out.append(ord("d") if delete else ord("a"))
        for x in lits + [0]:
            u = 2 * abs(x) + (x < 0) if x else 0
            while u >= 0x80:
                out.append(0x80 | (u & 0x7F))
                u >>= 7
            out.append(u)
    return bytes(out)


def debug_check(clauses: list[list[int]], proof: list[str]) -> drat.DratResult:
    """The checker with its watch/fixpoint invariants asserted after every backward step."""
    return drat.check_steps(clauses, parse_proof(proof), debug=True)


def random_3sat(nvars: int, ratio: float, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [
        [v if rng.random() < 0.5 else -v for v in rng.sample(range(1, nvars + 1), 3)]
        for _ in range(round(ratio * nvars))
    ]


def validate_failure(formula: list[list[int]], lines: list[str], result: drat.DratResult):
    """The oracle confirms a rejection of a deletion-free proof (one step per line)."""
    steps = parse_lines(lines)
    assert not any(d for d, _ in steps)
    if result.line is None:
        assert "never derives" in result.reason
        assert not up_conflict(formula + [lits for _, lits in steps])
        return
    before = formula + [lits for _, lits in steps[: result.line - 1]]
    lemma = steps[result.line - 1][1]
    if lemma:
        assert "neither RUP nor RAT" in result.reason
        assert not naive_rup(before, lemma) and not naive_rat(before, lemma)
    else:
        assert "empty clause does not follow" in result.reason
        assert not up_conflict(before)


# --------------------------------------------------------------------------- valid proofs


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


def test_input_forms_agree():
    clauses = PHP(4).clauses
    lines = solver_proof(clauses, "g4")
    text = "\n".join(lines) + "\n"
    results = [
        drat.check_drat(clauses, lines),
        drat.check_drat(clauses, text),
        drat.check_drat(clauses, text.encode()),
        drat.check_drat(clauses, [line.encode() for line in lines]),
        drat.check_drat(clauses, "c a comment\n\n" + text),
        drat.check_drat(clauses, encode_binary(lines)),
    ]
    assert all(r.ok for r in results), [r.reason for r in results]
    assert len({(r.lemmas_checked, r.lemmas_total) for r in results}) == 1


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


# --------------------------------------------------------------------------- tampering


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


def test_garbage_line_is_reported_with_its_line_number():
    clauses = PHP(4).clauses
    lines = solver_proof(clauses)
    for garbage in ["1 x 0", "1 2", "d", "1 0 2 0", "++1 0", "1_0 0"]:
        tampered = lines[:2] + [garbage] + lines[2:]
        result = drat.check_drat(clauses, tampered)
        assert not result.ok
        assert result.line == 3
        assert result.reason.startswith("line 3: "), result.reason


def test_truncated_binary_proof_is_rejected():
    clauses = PHP(4).clauses
    data = encode_binary(solver_proof(clauses))
    result = drat.check_drat(clauses, data[:-1])
    assert not result.ok and "cannot parse" in result.reason
    assert not drat.check_drat(clauses, b"a\x02\x00x\x05\x00").ok


def test_proof_without_empty_clause_fails():
    clauses = PHP(4).clauses
    result = drat.check_drat(clauses, [])
    assert not result.ok and "never derives" in result.reason
    result = drat.check_drat(clauses, ["0"])
    assert not result.ok and result.line == 1


# --------------------------------------------------------------------------- RAT


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


# --------------------------------------------------------------------------- deletions


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


# --------------------------------------------------------------------------- properties

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


# --------------------------------------------------------------------------- files, drat-trim


def test_files_and_dimacs(tmp_path):
    clauses = PHP(4).clauses
    cnf = tmp_path / "f.cnf"
    body = "".join(" ".join(map(str, c)) + " 0\n" for c in clauses)
    cnf.write_text(f"c test\np cnf 20 {len(clauses)}\n" + body)
    assert parse_dimacs(cnf.read_text()) == clauses
    proof = tmp_path / "f.drat"
    proof.write_bytes(encode_binary(solver_proof(clauses)))
    assert drat.check_drat_files(cnf, proof).ok


def test_run_drat_trim_absent_or_parsed(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    assert run_drat_trim("a.cnf", "a.drat", 5) is None
    fake = tmp_path / "drat-trim"
    fake.write_text(
        "#!/bin/sh\n"
        'if [ "$2" = good ]; then\n'
        "echo 'c 12 of 30 lemmas in core using 99 resolution steps'\n"
        "echo 'c 2 RAT lemmas in core; 0 redundant literals in core lemmas'\n"
        "echo 's VERIFIED'\nelse echo 's NOT VERIFIED'; fi\n"
    )
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    good = run_drat_trim("a.cnf", "good", 5)
    assert good.ok and (good.lemmas_checked, good.lemmas_total, good.rat_lemmas) == (12, 30, 2)
    bad = run_drat_trim("a.cnf", "bad", 5)
    assert not bad.ok and bad.reason == "drat-trim: s NOT VERIFIED"
    assert bad.checker == "drat-trim" and os.environ["PATH"] == str(tmp_path)


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
