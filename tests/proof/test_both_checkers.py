"""kamicp's verify and the stand-alone checker on the certificates kamicp writes: every kind of
evidence accepted by both on random boards of every geometry and both rule sets, and every
kind of tampering rejected by both, with the manifest rehashed."""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kamicp import formats
from kamicp.game.regions import region_graph
from kamicp.proof import standalone
from kamicp.proof.certificate import CertificateOptions, write_certificate
from kamicp.proof.verification import verify
from kamicp.search.bfs import bfs
from tests.strategies import boards

ROOT = Path(__file__).resolve().parents[2]
HOLES = ROOT / "puzzles" / "square" / "holes.txt"  # optimum 5, above every admissible bound
TETRAPOD = ROOT / "puzzles" / "graph" / "tetrapod.json"  # optimum 5 = its tetrapod bound


def write(board, path: Path, out: Path, kinds: tuple[str, ...], final=None) -> dict:
    """The certificate of ``board`` (its file ``path``) with the first of ``kinds``."""
    ref = bfs(region_graph(board), final_colour=final)
    from kamicp.result import Result

    moves = ref.moves
    result = Result("optimal", moves, len(moves), len(moves), "bfs")
    options = CertificateOptions(kinds=kinds)
    return write_certificate(board, str(path), result, str(out), final_colour=final,
                             options=options)  # fmt: skip


def kamicp_ok(cert: Path, puzzle: str | None = None) -> bool:
    return all(step.ok for step in verify(str(cert), puzzle, drat_trim=False))


def alone(cert: Path) -> int:
    return standalone.check(str(cert))[0]


def rehash(cert: Path) -> None:
    manifest = json.loads((cert / "manifest.json").read_text())
    for name in manifest["files"]:
        manifest["files"][name] = hashlib.sha256((cert / name).read_bytes()).hexdigest()
    (cert / "manifest.json").write_text(json.dumps(manifest))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=boards(max_cells=9), kind=st.sampled_from(["log", "drat"]), data=st.data())
def test_every_kind_is_accepted_by_both_on_random_boards(tmp_path_factory, board, kind, data):
    folder = tmp_path_factory.mktemp("cert")
    fmt = "json" if board.geometry == "graph" else "grid"
    path = folder / f"board.{'json' if fmt == 'json' else 'txt'}"
    path.write_text(formats.dump(board, fmt))
    board = formats.load(str(path))[0]  # as a user's file gives it (graph nodes as text)
    final = data.draw(st.sampled_from([None, *range(len(board.palette))]))
    ref = bfs(region_graph(board), final_colour=final, node_limit=100_000)
    if not ref.complete or ref.moves is None:
        return  # no optimum to certify (pivot rules, pieces of other colours)
    manifest = write(board, path, folder / "c", (kind,), final)
    cert = folder / "c"
    assert kamicp_ok(cert)
    got = manifest["evidence"]["kind"]
    assert got == ("trivial" if not ref.moves else kind)
    expected = 0 if got in ("log", "trivial") or shutil.which("drat-trim") else 3
    assert alone(cert) == expected


@pytest.fixture(scope="module")
def certificates(tmp_path_factory) -> dict[str, Path]:
    board = formats.load(str(HOLES))[0]
    folder = tmp_path_factory.mktemp("certs")
    made = {}
    for kind in ("log", "drat"):
        made[kind] = folder / kind
        assert write(board, HOLES, made[kind], (kind,))["evidence"]["kind"] == kind
    made["kamicp-bound"] = folder / "bound"
    tree = formats.load(str(TETRAPOD))[0]
    assert write(tree, TETRAPOD, made["kamicp-bound"], ("kamicp-bound",))["evidence"]["kind"] == (
        "kamicp-bound"
    )
    return made


def test_what_each_checker_can_check(certificates):
    assert all(kamicp_ok(cert) for cert in certificates.values())
    assert alone(certificates["log"]) == 0
    assert alone(certificates["drat"]) == (0 if shutil.which("drat-trim") else 3)
    assert alone(certificates["kamicp-bound"]) == 3  # rests on kamicp's code: not checked


def tamper(cert: Path, tmp_path: Path, change) -> Path:
    copy = tmp_path / "t"
    shutil.copytree(cert, copy)
    change(copy)
    rehash(copy)
    return copy


def cell(cert: Path) -> None:
    record = json.loads((cert / "board.json").read_text())
    record["cells"][3][1] = (record["cells"][3][1] + 1) % len(record["palette"])
    (cert / "board.json").write_text(json.dumps(record))
    manifest = json.loads((cert / "manifest.json").read_text())
    from kamicp.game.board import Board

    b = Board(geometry=record["geometry"], palette=tuple(record["palette"]),
              cells={tuple(c): v for c, v in record["cells"]})  # fmt: skip
    manifest["question"]["digest"] = b.digest()  # the digest redone, as a forger would
    (cert / "manifest.json").write_text(json.dumps(manifest))


def move(cert: Path) -> None:
    moves = (cert / "solution.txt").read_text().split()
    moves[0] = moves[0].rsplit(":", 1)[0] + (":R" if not moves[0].endswith(":R") else ":G")
    (cert / "solution.txt").write_text(" ".join(moves) + "\n")


def log_edit(change):
    def edit(cert: Path) -> None:
        lines = gzip.decompress((cert / "refutation.log.gz").read_bytes()).decode().splitlines()
        (cert / "refutation.log.gz").write_bytes(gzip.compress(("\n".join(change(lines)) + "\n")
                                                               .encode()))  # fmt: skip

    return edit


def drop_first_claim(lines):
    first = next(i for i, x in enumerate(lines) if x.startswith("E ") and not x.startswith("E 0 "))
    return lines[:first] + lines[first + 1 :]


def false_cut(lines):
    return lines[:3] + ["C 0 4 islands"]


def other_node(lines):
    first = next(i for i, x in enumerate(lines) if x.startswith("P "))
    parent, region, colour = lines[first].split()[1:]
    return lines[:first] + [f"P {parent} {region} {(int(colour) + 1) % 4}"] + lines[first + 1 :]


def cnf_clause(cert: Path) -> None:
    lines = (cert / "horizon.cnf").read_text().splitlines()
    i = next(i for i, x in enumerate(lines) if x and x[0] not in "cp" and len(x.split()) > 2)
    first, *rest = lines[i].split()
    lines[i] = " ".join([str(-int(first)), *rest])  # one literal flipped
    (cert / "horizon.cnf").write_text("\n".join(lines) + "\n")


def drat_lemma(cert: Path) -> None:
    lines = (cert / "proof.drat").read_text().splitlines()
    (cert / "proof.drat").write_text("\n".join(lines[: len(lines) // 3]) + "\n")


@pytest.mark.parametrize(
    ("kind", "change"),
    [
        ("log", cell),
        ("log", move),
        ("log", log_edit(other_node)),
        ("log", log_edit(false_cut)),
        ("log", log_edit(drop_first_claim)),
        ("drat", cnf_clause),
        ("drat", drat_lemma),
        ("drat", move),
    ],
    ids=["cell", "move", "tree-node", "bound-witness", "dropped-child", "cnf", "drat", "drat-move"],
)
def test_tampering_is_rejected_by_both(certificates, tmp_path, kind, change):
    bad = tamper(certificates[kind], tmp_path, change)
    assert not kamicp_ok(bad)
    assert alone(bad) != 0  # rejected (1), or for DRAT without drat-trim not verified (3)
    if kind == "log" or change is move:
        assert alone(bad) == 1


FORCED = "rules: pivot\nGRGY\nYGYG\nRYBY\nRBGG\n"  # optimum 7: its log holds an F line


@pytest.fixture(scope="module")
def forced(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("forced")
    path = folder / "forced.txt"
    path.write_text(FORCED)
    board = formats.load(str(path))[0]
    assert write(board, path, folder / "c", ("log",))["evidence"]["kind"] == "log"
    lines = gzip.decompress((folder / "c" / "refutation.log.gz").read_bytes()).decode()
    assert any(line.startswith("F ") for line in lines.splitlines())
    return folder / "c"


def test_a_forced_move_is_accepted_by_both(forced):
    assert kamicp_ok(forced) and alone(forced) == 0


def to_forced(lines):
    # the root is expanded: no colour-eliminating move there, so F cannot be claimed
    return [("F" + x[1:]) if x.startswith("E 0 ") else x for x in lines]


def test_a_forced_claim_that_does_not_hold_is_rejected_by_both(forced, tmp_path):
    bad = tamper(forced, tmp_path, log_edit(to_forced))
    assert not kamicp_ok(bad) and alone(bad) == 1
