"""Certificates verify; every kind of tampering is caught with a reason; export round-trips."""

from __future__ import annotations

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
from kamicp.proof.certificate import verify, write_certificate
from kamicp.solving.solve import solve

ROOT = Path(__file__).resolve().parents[2]
HOLES = ROOT / "puzzles" / "square" / "holes.txt"  # optimum 5, above every admissible bound
FIRST = ROOT / "puzzles" / "square" / "first.txt"


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    board = formats.load(str(HOLES))[0]
    result = solve(region_graph(board), "sat")
    out = tmp_path_factory.mktemp("cert") / "c"
    manifest = write_certificate(board, str(HOLES), result, str(out))
    assert manifest["lower_bound"]["kind"] == "drat"
    return out


def fails(cert: Path) -> list[str]:
    return [f"{s.name}: {s.detail}" for s in verify(str(cert), drat_trim=False) if not s.ok]


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
    from kamicp.models.sat_cnf import dimacs_for_horizon

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
    (cert / "manifest.json").write_text('{"optimum": 5}')
    assert fails(cert) == [
        f"manifest: {cert / 'manifest.json'}: unreadable or incomplete "
        "(lower_bound: not an object with a kind)"
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
        ("puzzle_file", 5, "puzzle_file: not a file name"),
        ("puzzle_index", "abc", "puzzle_index 'abc'"),
        ("puzzle_index", 0, "puzzle_index 0"),  # index 0 must not wrap to the last puzzle
        ("final_colour", ["R"], "final_colour: not a colour"),
        ("optimum", 10**6 + 1, "not a number of moves"),  # verify built its CNF: a hang
        ("optimum", 5.5, "not a number of moves"),
        ("lower_bound", {"kind": "bound", "bounds": 5}, "lower_bound.bounds: not a list"),
    ],
)
def test_a_manifest_field_of_the_wrong_type_is_named(certificate, tmp_path, field, value, problem):
    cert = copy(certificate, tmp_path)
    manifest = json.loads((cert / "manifest.json").read_text())
    manifest[field] = value
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


def test_bound_certificate(tmp_path, capsys):
    # first.txt: optimum 4 equals an admissible bound, so no refutation is needed.
    out = tmp_path / "c"
    assert main(["solve", str(FIRST), "--certificate", str(out)]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    if manifest["lower_bound"]["kind"] == "bound":
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


@pytest.mark.parametrize("solver", ["sat", "portfolio"])
def test_a_certificate_resting_on_the_tetrapod_bound_verifies(tmp_path, capsys, solver):
    # the tetrapod bound is only asked where it can matter; the checker recomputes it. The
    # portfolio's backend asks it in a process of its own: the writer asks it again
    tree = ROOT / "puzzles" / "graph" / "tetrapod.json"
    out = tmp_path / "c"
    bounds.forget_cached_bounds()
    assert main(["solve", str(tree), "--solver", solver, "--certificate", str(out)]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["lower_bound"]["kind"] == "bound"
    assert manifest["lower_bound"]["bounds"]["tripods"] == 4
    assert manifest["lower_bound"]["bounds"]["tetrapods"] == manifest["optimum"] == 5
    capsys.readouterr()
    bounds.forget_cached_bounds()  # as a fresh checker starts: nothing computed yet
    assert main(["verify", str(out)]) == 0
    assert "certificate verified" in capsys.readouterr().out
