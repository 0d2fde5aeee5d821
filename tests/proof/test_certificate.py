"""Certificates verify; every kind of tampering is caught with a reason; the question they
answer is stated and checked; export round-trips."""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
from pathlib import Path

import pytest
from pysat.formula import CNF
from pysat.solvers import Solver

from kamicp import bounds, formats
from kamicp.cli.main import main
from kamicp.game.regions import region_graph
from kamicp.proof.certificate import CertificateOptions, NoEvidence, write_certificate
from kamicp.proof.verification import verify
from kamicp.solving.solve import solve

ROOT = Path(__file__).resolve().parents[2]
HOLES = ROOT / "puzzles" / "square" / "holes.txt"  # optimum 5, above every admissible bound
FIRST = ROOT / "puzzles" / "square" / "first.txt"


def certify(path: Path, out: Path, *kinds: str, **options) -> dict:
    board = formats.load(str(path))[0]
    result = solve(region_graph(board), "sat")
    chosen = CertificateOptions(kinds=kinds, **options) if kinds else None
    return write_certificate(board, str(path), result, str(out), options=chosen)


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    out = tmp_path_factory.mktemp("cert") / "c"
    assert certify(HOLES, out, "drat")["evidence"]["kind"] == "drat"
    return out


@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    out = tmp_path_factory.mktemp("cert") / "c"
    manifest = certify(HOLES, out)
    assert manifest["evidence"]["kind"] == "log" and manifest["evidence"]["claims"] > 10
    return out


def fails(cert: Path, puzzle: str | None = None) -> list[str]:
    steps = verify(str(cert), puzzle, drat_trim=False)
    return [f"{s.name}: {s.detail}" for s in steps if not s.ok]


def copy(cert: Path, tmp_path: Path) -> Path:
    dest = tmp_path / "copy"
    shutil.copytree(cert, dest)
    return dest


def rehash(cert: Path) -> None:
    """Update the manifest's hashes, so only the independent checks can catch tampering."""
    manifest = json.loads((cert / "manifest.json").read_text())
    for name in manifest["files"]:
        manifest["files"][name] = hashlib.sha256((cert / name).read_bytes()).hexdigest()
    (cert / "manifest.json").write_text(json.dumps(manifest))


def test_certificate_verifies(certificate):
    assert fails(certificate) == []


def test_edited_move_is_caught(certificate, tmp_path):
    cert = copy(certificate, tmp_path)
    moves = (cert / "solution.txt").read_text().split()
    moves[-1] = moves[-1].rsplit(":", 1)[0] + ":" + ("Y" if not moves[-1].endswith("Y") else "R")
    (cert / "solution.txt").write_text(" ".join(moves) + "\n")
    assert any("SHA-256" in f for f in fails(cert))
    rehash(cert)
    assert any(f.startswith("solution") for f in fails(cert))


def test_dropped_proof_line_is_caught(certificate, tmp_path):
    lines = (certificate / "proof.drat").read_text().splitlines(keepends=True)
    caught = False
    for i in range(len(lines) - 1, -1, -max(1, len(lines) // 40)):
        cert = copy(certificate, tmp_path / str(i))
        (cert / "proof.drat").write_text("".join(lines[:i] + lines[i + 1 :]))
        rehash(cert)
        problems = fails(cert)
        if problems:
            assert all(p.startswith("proof") for p in problems)
            caught = True
            break
    assert caught, "no single dropped line broke the proof"


def test_removed_clause_is_caught(certificate, tmp_path):
    cert = copy(certificate, tmp_path)
    lines = (cert / "horizon.cnf").read_text().splitlines()
    clause = next(i for i, line in enumerate(lines) if line and line[0] not in "cp")
    del lines[clause]
    (cert / "horizon.cnf").write_text("\n".join(lines) + "\n")
    rehash(cert)
    assert any(f.startswith("cnf") and "differs" in f for f in fails(cert))


def test_cnf_of_another_puzzle_is_caught(certificate, tmp_path):
    cert = copy(certificate, tmp_path)
    board = formats.load(str(FIRST))[0]
    from kamicp.models.sat.cnf import dimacs_for_horizon

    (cert / "horizon.cnf").write_text(dimacs_for_horizon(region_graph(board), 4))
    rehash(cert)
    assert any(f.startswith("cnf") for f in fails(cert))


def test_puzzle_swapped_is_caught(certificate, tmp_path):
    cert = copy(certificate, tmp_path)
    (cert / "puzzle.txt").write_bytes(FIRST.read_bytes())
    rehash(cert)
    assert any(f.startswith("puzzle") for f in fails(cert))


def test_missing_or_unreadable_parts_are_caught(certificate, tmp_path):
    cert = copy(certificate, tmp_path)
    (cert / "proof.drat").unlink()
    assert "file proof.drat: missing" in fails(cert)
    (cert / "manifest.json").write_text('{"format": "kamicp-certificate-2", "optimum": 5}')
    assert fails(cert) == [
        f"manifest: {cert / 'manifest.json'}: evidence: not an object with a known kind"
    ]
    (cert / "manifest.json").unlink()
    assert len(fails(cert)) == 1 and fails(cert)[0].startswith("manifest:")


def test_a_claimed_optimum_below_the_solution_is_caught(certificate, tmp_path):
    cert = copy(certificate, tmp_path)
    manifest = json.loads((cert / "manifest.json").read_text())
    manifest["optimum"] = 6  # the solution has 5 moves; the CNF is horizon 4's
    (cert / "manifest.json").write_text(json.dumps(manifest))
    found = fails(cert)
    assert "solution: 5 moves, the manifest claims 6" in found
    assert "lower bound: not checked: the solution step failed" in found


@pytest.mark.parametrize(
    ("field", "value", "problem"),
    [
        ("files", 5, "files: not an object"),
        ("files", ["solution.txt"], "files: not an object"),
        ("question.puzzle_file", 5, "question.puzzle_file: missing or not text"),
        ("question.puzzle_index", "abc", "puzzle_index 'abc'"),
        ("question.puzzle_index", 0, "puzzle_index 0"),  # 0 must not wrap to the last puzzle
        ("question.final_colour", ["R"], "final_colour: not a colour"),
        ("question.digest", None, "question.digest: missing"),
        ("question", [], "question: not an object"),
        ("optimum", 10**6 + 1, "not a number of moves"),  # verify built its CNF: a hang
        ("optimum", 5.5, "not a number of moves"),
        ("evidence", {"kind": "guess"}, "evidence: not an object with a known kind"),
        ("format", "kamicp-certificate-1", "format 'kamicp-certificate-1'"),
    ],
)
def test_a_manifest_field_of_the_wrong_type_is_named(certificate, tmp_path, field, value, problem):
    cert = copy(certificate, tmp_path)
    manifest = json.loads((cert / "manifest.json").read_text())
    where = manifest
    *path, last = field.split(".")
    for key in path:
        where = where[key]
    where[last] = value
    (cert / "manifest.json").write_text(json.dumps(manifest))
    found = fails(cert)
    assert len(found) == 1 and found[0].startswith("manifest:") and problem in found[0], found


def test_a_solution_or_proof_that_is_not_text_fails_its_step(certificate, tmp_path):
    cert = copy(certificate, tmp_path)
    (cert / "solution.txt").write_bytes(b"\xff\xfe 1,1:R\n")
    rehash(cert)
    assert any(f.startswith("solution:") for f in fails(cert))
    cert = copy(certificate, tmp_path / "b")
    (cert / "proof.drat").write_bytes(b"99999999999999999999999 0\n")
    rehash(cert)
    assert any(f.startswith("proof (kamicp.proof.drat):") for f in fails(cert))


def test_a_board_at_its_bound_gets_a_one_line_log(tmp_path, capsys):
    # first.txt: optimum 4 equals an admissible bound: the log cuts the start, no expansion
    out = tmp_path / "c"
    assert main(["solve", str(FIRST), "--certificate", str(out)]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["evidence"]["kind"] == "log"
    assert not (out / "proof.drat").exists()
    assert main(["verify", str(out)]) == 0
    assert "certificate verified" in capsys.readouterr().out


def test_certificate_refuses_a_non_empty_folder(tmp_path, capsys):
    (tmp_path / "keep.txt").write_text("mine")
    assert main(["solve", str(FIRST), "--certificate", str(tmp_path)]) == 2
    assert (tmp_path / "keep.txt").read_text() == "mine"


@pytest.mark.parametrize("path", [FIRST, HOLES, ROOT / "puzzles" / "flood" / "eight.txt"])
def test_export_dimacs_round_trips_through_pysat(path, tmp_path, capsys):
    board = formats.load(str(path))[0]
    optimum = solve(region_graph(board), "sat").moves
    for horizon, expected in [(optimum - 1, False), (optimum, True)]:
        out = tmp_path / f"h{horizon}.cnf"
        assert main(["export", str(path), "--moves", str(horizon), "--out", str(out)]) == 0
        cnf = CNF(from_file=str(out))
        with Solver(name="cadical153", bootstrap_with=cnf.clauses) as s:
            assert s.solve() is expected


def test_export_cpsat_proto(tmp_path, capsys):
    from ortools.sat.python import cp_model

    out = tmp_path / "model.pb"
    assert main(["export", str(FIRST), "--moves", "3", "--format", "cpsat", "--out", str(out)]) == 0
    assert out.stat().st_size > 0
    assert main(["export", str(FIRST), "--moves", "4", "--format", "cpsat"]) == 0
    text = capsys.readouterr().out
    model = cp_model.CpModel()
    model.proto.parse_text_format(text)
    solver = cp_model.CpSolver()
    assert solver.solve(model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)


def test_a_certificate_resting_on_the_tetrapod_bound_verifies(tmp_path, capsys):
    # the tetrapod bound is only asked where it can matter; the checker recomputes it
    tree = ROOT / "puzzles" / "graph" / "tetrapod.json"
    out = tmp_path / "c"
    bounds.forget_cached_bounds()
    manifest = certify(tree, out, "kamicp-bound")
    assert manifest["evidence"] == {"kind": "kamicp-bound", "bound": "tetrapods", "value": 5}
    bounds.forget_cached_bounds()  # as a fresh checker starts: nothing computed yet
    assert main(["verify", str(out)]) == 0
    text = capsys.readouterr().out
    assert "certificate verified" in text and "kamicp's implementation of that bound" in text


def test_a_log_certificate_verifies_and_says_what_it_rests_on(logged, capsys):
    assert fails(logged) == []
    assert main(["verify", str(logged), str(HOLES)]) == 0
    text = capsys.readouterr().out
    for part in ["rules:        free", "final colour: any", "the optimum is 5 moves"]:
        assert part in text
    assert "bounds colours, islands" in text and "certificate verified" in text


def log_lines(cert: Path) -> list[str]:
    return gzip.decompress((cert / "refutation.log.gz").read_bytes()).decode().splitlines()


def write_log_lines(cert: Path, lines: list[str]) -> None:
    (cert / "refutation.log.gz").write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
    rehash(cert)


@pytest.mark.parametrize(
    ("edit", "problem"),
    [
        (lambda ls: [x for x in ls if not x.startswith("E 0 ")], "the start is refuted"),
        (lambda ls: [x.replace("E 0 4", "E 0 5") if x.startswith("E 0") else x for x in ls],
         "not refuted for 4"),
        (lambda ls: ls[:3] + [x for x in ls[3:] if x != next(y for y in ls if y[0] == "E")],
         "not refuted"),
        (lambda ls: ls[:3] + ["C 0 4 islands"], "bound islands is"),
        (lambda ls: ls[:3] + ["C 0 4 tetrapods"], "no bound 'tetrapods'"),
        (lambda ls: ls[:2] + ["horizon 3"] + ls[3:], "expected 'horizon 4'"),
        (lambda ls: ls + ["P 999999 0 1"], "not defined before"),
        (lambda ls: ls + ["X 1 2"], "is not a record"),
    ],
)  # fmt: skip
def test_a_tampered_log_is_rejected(logged, tmp_path, edit, problem):
    cert = copy(logged, tmp_path)
    write_log_lines(cert, edit(log_lines(cert)))
    found = fails(cert)
    assert found and all(f.startswith("proof log") for f in found), found
    assert problem in found[0], found


def test_a_claim_may_rest_only_on_earlier_lines(logged, tmp_path):
    # the root's claim moved to the front: the claims it rests on come after it
    cert = copy(logged, tmp_path)
    lines = log_lines(cert)
    root = next(x for x in lines if x.startswith("E 0 "))
    body = [x for x in lines[3:] if x != root]
    write_log_lines(cert, lines[:3] + [x for x in body if x[0] == "P"] + [root]
                    + [x for x in body if x[0] != "P"])  # fmt: skip
    assert any("not refuted" in f for f in fails(cert))


def test_a_truncated_log_is_rejected(logged, tmp_path):
    cert = copy(logged, tmp_path)
    data = (cert / "refutation.log.gz").read_bytes()
    (cert / "refutation.log.gz").write_bytes(data[: len(data) // 2])
    rehash(cert)
    assert any("gzip" in f for f in fails(cert))


def test_a_changed_board_is_caught_even_rehashed(logged, tmp_path):
    cert = copy(logged, tmp_path)
    text = (cert / "puzzle.txt").read_text().replace("B", "R", 1)
    (cert / "puzzle.txt").write_text(text)
    rehash(cert)
    assert any(f.startswith("puzzle:") and "digest" in f for f in fails(cert))
    cert = copy(logged, tmp_path / "b")
    record = json.loads((cert / "board.json").read_text())
    record["cells"][0][1] = (record["cells"][0][1] + 1) % len(record["palette"])
    (cert / "board.json").write_text(json.dumps(record))
    rehash(cert)
    assert any(f.startswith("board:") for f in fails(cert))


def test_verify_with_the_users_puzzle_answers_whether_it_is_theirs(logged, tmp_path, capsys):
    assert fails(logged, str(HOLES)) == []
    assert fails(logged, str(FIRST)) == [f"your puzzle: {FIRST} is not this board"]
    assert main(["verify", str(logged), str(FIRST)]) == 1
    changed = tmp_path / "changed.txt"
    changed.write_text(HOLES.read_text().replace("B", "R", 1))
    assert main(["verify", str(logged), str(changed)]) == 1
    assert main(["verify", str(logged), str(tmp_path / "none.txt")]) == 2


def test_a_pivot_certificate_states_its_rules_and_refuses_the_free_board(tmp_path, capsys):
    out = tmp_path / "c"
    assert main(["solve", str(FIRST), "--rules", "pivot", "--certificate", str(out)]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["question"]["rules"] == "pivot" and manifest["question"]["pivot"] == [0, 0]
    assert json.loads((out / "board.json").read_text())["rules"] == "pivot"
    capsys.readouterr()
    assert main(["verify", str(out)]) == 0
    assert "rules:        pivot, pivot cell [0, 0]" in capsys.readouterr().out
    assert main(["verify", str(out), str(FIRST)]) == 1
    assert "under free rules: the certificate is for pivot rules" in capsys.readouterr().out
    assert main(["verify", str(out), str(FIRST), "--rules", "pivot"]) == 0


def test_a_final_colour_is_part_of_the_question(tmp_path, capsys):
    out = tmp_path / "c"
    assert main(["solve", str(FIRST), "--final-colour", "R", "--certificate", str(out)]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["question"]["final_colour"] == "R"
    capsys.readouterr()
    assert main(["verify", str(out)]) == 0
    assert "final colour: R" in capsys.readouterr().out


def test_no_evidence_in_time_writes_nothing(tmp_path):
    out = tmp_path / "c"
    with pytest.raises(NoEvidence, match=r"a proof log within 1 claim$"):
        certify(HOLES, out, "log", log_positions=1)
    assert not out.exists()


def test_a_certificate_stopped_by_its_limit_exits_3_with_its_bounds(tmp_path, capsys):
    # a 12x12 six-colour free board: neither solved nor certified within a second
    rows = ["".join("RGBYOP"[(r * 7 + c * 5 + r * c) % 6] for c in range(12)) for r in range(12)]
    board = tmp_path / "big.txt"
    board.write_text("\n".join(rows) + "\n")
    out = tmp_path / "c"
    code = main(["solve", str(board), "--certificate", str(out), "--time-limit", "1", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 3 and data["certificate"] is None and data["lower_bound"] >= 1
    assert not out.exists() or not any(out.iterdir())


def test_an_interrupt_while_certifying_keeps_the_answer(tmp_path, capsys, monkeypatch):
    import kamicp.proof.certificate as certificate

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(certificate, "write_certificate", interrupted)
    out = tmp_path / "c"
    assert main(["solve", str(FIRST), "--certificate", str(out), "--json"]) == 3
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "optimal" and data["moves"] == 4 and data["certificate"] is None
    assert not out.exists()
