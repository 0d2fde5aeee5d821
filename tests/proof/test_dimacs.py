"""Reading formulas and proofs (kamicp.proof.dimacs): text and binary DRAT, bytes and lines,
and parse errors named by their line.
"""

from __future__ import annotations

from pysat.examples.genhard import PHP

from kamicp.proof import drat
from kamicp.proof.dimacs import parse_dimacs
from tests.proof.helpers import (
    encode_binary,
    solver_proof,
)


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


def test_files_and_dimacs(tmp_path):
    clauses = PHP(4).clauses
    cnf = tmp_path / "f.cnf"
    body = "".join(" ".join(map(str, c)) + " 0\n" for c in clauses)
    cnf.write_text(f"c test\np cnf 20 {len(clauses)}\n" + body)
    assert parse_dimacs(cnf.read_text()) == clauses
    proof = tmp_path / "f.drat"
    proof.write_bytes(encode_binary(solver_proof(clauses)))
    assert drat.check_drat_files(cnf, proof).ok
