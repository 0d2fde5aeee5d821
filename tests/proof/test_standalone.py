"""The stand-alone certificate checker (kamicp/proof/standalone.py): it accepts certificates of
every geometry and both rule sets, rejects every kind of tampering with a FAIL line (never a
traceback), runs under a bare interpreter without kamicp, and its region graph, rules engine
and bounds agree with kamicp's on random boards."""

from __future__ import annotations

import ast
import gzip
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kamicp import formats
from kamicp.bounds import colour_bound, contract, islands_bound, pivot_layer_bound, solvable
from kamicp.errors import IllegalMove
from kamicp.game import rules
from kamicp.game.board import Board
from kamicp.game.regions import region_graph
from kamicp.proof import standalone as sa
from kamicp.search.bfs import bfs
from tests.strategies import boards, graph_boards, kami2_boards

ROOT = Path(__file__).resolve().parents[2]
STANDALONE = ROOT / "kamicp" / "proof" / "standalone.py"


# ---- certificates made by hand --------------------------------------------------------------


def grid(geometry: str, rows: list[str], palette: str, rule: str = "free", pivot=None) -> Board:
    """A grid board from rows of palette symbols ("." a hole)."""
    cells = {(r, c): palette.find(s) for r, row in enumerate(rows) for c, s in enumerate(row)}
    cells = {cell: colour for cell, colour in cells.items() if colour >= 0}  # "." is a hole
    return Board(geometry=geometry, cells=cells, palette=tuple(palette), rules=rule, pivot=pivot)


def kami2(colours: list[int], rows: int, pairs: int, rule: str = "free") -> Board:
    """A KAMI 2 board: ``colours`` of the triangles (r, p, s) in reading order."""
    cells = [(r, p, s) for r in range(rows) for p in range(pairs) for s in (0, 1)]
    return Board(
        geometry="kami2",
        cells=dict(zip(cells, colours, strict=True)),
        palette=("R", "G", "B", "Y"),
        rules=rule,
        width=pairs,
    )


def graph(colours: list[int], edges: list[tuple], rule: str = "free", names=None) -> Board:
    """A graph board; nodes are ``names`` (default 0, 1, ...)."""
    names = names or list(range(len(colours)))
    return Board(
        geometry="graph",
        cells=dict(zip(names, colours, strict=True)),
        palette=("c0", "c1", "c2", "c3"),
        rules=rule,
        edges=tuple((names[a], names[b]) for a, b in edges),
    )


def as_json(cell):
    """A cell as board.json writes it."""
    return list(cell) if isinstance(cell, tuple) else cell


def board_json(board: Board, final: int | None = None) -> dict:
    """board.json of encodings/certificates.md."""
    return {
        "geometry": board.geometry,
        "palette": list(board.palette),
        "rules": board.rules,
        "pivot": as_json(board.pivot) if board.rules == "pivot" else None,
        "final_colour": None if final is None else board.palette[final],
        "cells": [[as_json(c), board.cells[c]] for c in board.order],
        "edges": [[as_json(a), as_json(b)] for a, b in board.edges],
    }


def log_lines(board: Board, horizon: int, final: int | None, cut: bool) -> list[str]:
    """A proof log that ``board`` is not solved in ``horizon`` moves, written with kamicp's
    rules engine: every position expanded, or cut by the colour bound when ``cut``."""
    g = region_graph(board)
    lines = [
        "kamicp-refutation 1",
        f"regions {g.n} colours {g.k} rules {g.rules} final {'-' if final is None else final}",
        f"horizon {horizon}",
    ]
    index, proved = {g.colour: 0}, {}

    def refute(pid: int, pos: tuple, d: int) -> None:
        if proved.get(pos, -1) >= d:
            return
        if cut and colour_bound(contract(g, pos), final) > d:
            lines.append(f"C {pid} {d} colours")
        else:
            assert not rules.is_solved(pos, final)
            for move in rules.legal_moves(g, pos) if d else ():
                child = rules.apply(g, pos, move)
                if proved.get(child, -1) < d - 1:
                    if child not in index:
                        index[child] = len(index)
                        lines.append(f"P {pid} {move[0]} {move[1]}")
                    refute(index[child], child, d - 1)
            lines.append(f"E {pid} {d}")
        proved[pos] = max(proved.get(pos, -1), d)

    refute(0, g.colour, horizon)
    return lines


def rehash(folder: Path) -> None:
    """Write the SHA-256 of every file but the manifest into the manifest."""
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["files"] = {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.iterdir())
        if p.name != "manifest.json"
    }
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1))


def certify(
    folder: Path, board: Board, final: int | None = None, kind: str = "log", cut: bool = True
) -> Path:
    """Write a certificate of ``board``'s BFS optimum into ``folder``; its path."""
    g = region_graph(board)
    moves = bfs(g, final_colour=final).moves
    k = len(moves)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "board.json").write_text(json.dumps(board_json(board, final)))
    tokens = " ".join(f"#{r}:{board.palette[c]}" for r, c in moves)
    (folder / "solution.txt").write_text(tokens + "\n")
    (folder / "puzzle.txt").write_text("the user's file\n")
    evidence = {"kind": "trivial" if k == 0 else kind, "horizon": k - 1}
    if evidence["kind"] == "log":
        text = "\n".join(log_lines(board, k - 1, final, cut)) + "\n"
        (folder / "refutation.log.gz").write_bytes(gzip.compress(text.encode()))
    elif kind == "drat":
        (folder / "horizon.cnf").write_text("p cnf 1 2\n1 0\n-1 0\n")
        (folder / "proof.drat").write_text("0\n")
    elif kind == "kamicp-bound":
        evidence.update(bound="tetrapods", value=k)
    question = {
        "name": "test",
        "digest": board.digest(),
        "geometry": board.geometry,
        "rules": board.rules,
        "pivot": as_json(board.pivot) if board.rules == "pivot" else None,
        "final_colour": None if final is None else board.palette[final],
        "puzzle_file": "puzzle.txt",
        "puzzle_index": 1,
    }
    manifest = {"format": sa.FORMAT, "question": question, "optimum": k, "evidence": evidence}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    rehash(folder)
    return folder


def verdict(folder: Path, **options) -> tuple[int, list[str]]:
    """The checker's exit code and its lines; every line of a known form."""
    code, lines = sa.check(folder, **options)
    checks = [line for line in lines if line[:5] in ("ok   ", "FAIL ", "skip ")]
    assert checks and lines[-1] in {
        0: "certificate verified",
        1: "certificate REJECTED",
        3: "certificate not fully checked",
    }.get(code, "?"), lines
    return code, lines


def failures(lines: list[str]) -> list[str]:
    """The FAIL lines."""
    return [line for line in lines if line.startswith("FAIL")]


SQUARE = grid("square", ["RGGB", "GBBR", "RRGG", "GRBR"], "RGB")  # optimum 4, bounds 2
SQUARE_PIVOT = grid("square", ["GBBR", "BBBG", "RGBY", "GRRY"], "RGBY", "pivot", (0, 0))
TRIANGLE = grid("triangle", ["BBRG", "RRBG", "BRRB", "RRGG"], "RGB")
TRIANGLE_PIVOT = grid("triangle", ["RBB.", "GGGR", "YBBG"], "RGBY", "pivot", (1, 1))
HEX = grid("hex", ["BGBB", "BBGG", "GBGR", "RGRB"], "RGB")
HEX_PIVOT = grid("hex", ["RGRR", "BGRG"], "RGB", "pivot", (0, 0))
KAMI2 = kami2([3, 2, 3, 1, 2, 2, 0, 2], 4, 1)
KAMI2_PIVOT = kami2([1, 1, 1, 1, 2, 2, 1, 0, 2, 0, 1, 0], 3, 2, "pivot")
CYCLE = graph([0, 1, 2, 0, 1, 2], [(i, (i + 1) % 6) for i in range(6)])  # radius 3, optimum 4
NAMED = graph([0, 1, 2, 0, 1], [(0, 1), (1, 2), (2, 3), (3, 4)], names=list("abcde"))
ISLANDS = graph([0, 1, 0, 2, 1, 2, 0], [(0, 1), (1, 2), (3, 4), (4, 5), (5, 6)])
GRAPH_PIVOT = graph([0, 1, 2, 1, 0, 2], [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (1, 4)], "pivot")

BOARDS = {
    "square": (SQUARE, None),
    "square-final": (SQUARE, 0),
    "square-pivot-final": (SQUARE_PIVOT, 0),
    "triangle-final": (TRIANGLE, 0),
    "triangle-pivot": (TRIANGLE_PIVOT, None),
    "hex-final": (HEX, 0),
    "hex-pivot": (HEX_PIVOT, None),
    "kami2-final": (KAMI2, 0),
    "kami2-pivot": (KAMI2_PIVOT, None),
    "graph-cycle": (CYCLE, None),
    "graph-named": (NAMED, 2),
    "graph-islands": (ISLANDS, None),
    "graph-pivot": (GRAPH_PIVOT, 1),
}


@pytest.mark.parametrize("cut", [True, False], ids=["cuts", "expanded"])
@pytest.mark.parametrize("name", list(BOARDS))
def test_hand_made_certificates_verify(tmp_path, name, cut):
    board, final = BOARDS[name]
    folder = certify(tmp_path / "c", board, final, cut=cut)
    code, lines = verdict(folder)
    assert code == 0, lines
    k = json.loads((folder / "manifest.json").read_text())["optimum"]
    assert f"claim:        the optimum is {k} moves" in lines
    assert any(line.startswith("ok   log:") for line in lines)
    expanded = sum(1 for line in log_lines(board, k - 1, final, cut) if line[0] == "E")
    assert expanded >= 1  # the bounds alone do not settle these boards


def test_trivial_certificate(tmp_path):
    folder = certify(tmp_path / "c", grid("square", ["RR", "R."], "RG"))
    code, lines = verdict(folder)
    assert code == 0 and "ok   trivial: the start is already solved: optimum 0" in lines


def test_trivial_with_another_final_colour_is_no_certificate(tmp_path):
    folder = certify(tmp_path / "c", grid("square", ["RR"], "RG"))
    edit_json(folder, "board.json", lambda b: b.update(final_colour="G"))
    edit_json(folder, "manifest.json", lambda m: m["question"].update(final_colour="G"))
    rehash(folder)
    code, lines = verdict(folder)
    assert code == 1 and any(line.startswith("FAIL trivial") for line in lines)


def test_the_question_comes_first(tmp_path):
    folder = certify(tmp_path / "c", SQUARE_PIVOT, 0)
    _, lines = verdict(folder)
    assert lines[:6] == [
        "puzzle:       test",
        f"digest:       {SQUARE_PIVOT.digest()}",
        "geometry:     square",
        "rules:        pivot, pivot [0, 0]",
        "final colour: R",
        "claim:        the optimum is 5 moves",
    ]
    assert lines[-3].startswith("checked: ") and lines[-2].startswith("trusted: ")


# ---- tampering --------------------------------------------------------------------------------


def edit_json(folder: Path, name: str, change) -> None:
    """Apply ``change`` to the JSON of a file (no rehash)."""
    data = json.loads((folder / name).read_text())
    change(data)
    (folder / name).write_text(json.dumps(data))


def edit_log(folder: Path, change) -> None:
    """Replace the log's lines by ``change(lines)`` and rehash."""
    path = folder / "refutation.log.gz"
    lines = gzip.decompress(path.read_bytes()).decode().splitlines()
    path.write_bytes(gzip.compress(("\n".join(change(lines)) + "\n").encode()))
    rehash(folder)


@pytest.fixture
def cycle(tmp_path) -> Path:
    """A certificate of the 6-cycle, every position expanded."""
    return certify(tmp_path / "c", CYCLE, cut=False)


def rejected(folder: Path, check: str) -> list[str]:
    """Assert that the certificate is rejected by a FAIL of ``check``; the FAIL lines."""
    code, lines = verdict(folder)
    fails = failures(lines)
    assert code == 1 and any(line.startswith(f"FAIL {check}:") for line in fails), lines
    return fails


def test_a_changed_cell_breaks_the_digest(cycle):
    edit_json(cycle, "board.json", lambda b: b["cells"][0].__setitem__(1, 1))
    rehash(cycle)
    rejected(cycle, "digest")


def test_a_changed_board_with_its_digest_redone_fails_the_solution_or_log(tmp_path):
    folder = certify(tmp_path / "c", SQUARE)
    changed = grid("square", ["RGGB", "GBBR", "RRGG", "GRBB"], "RGB")
    (folder / "board.json").write_text(json.dumps(board_json(changed)))
    edit_json(folder, "manifest.json", lambda m: m["question"].update(digest=changed.digest()))
    rehash(folder)
    code, lines = verdict(folder)
    assert code == 1 and {f.split(":")[0] for f in failures(lines)} & {"FAIL solution", "FAIL log"}
    assert not any(line.startswith("FAIL digest") for line in lines)


def test_a_changed_file_without_rehash_fails_its_hash(cycle):
    (cycle / "puzzle.txt").write_text("another file\n")
    assert "puzzle.txt does not match its SHA-256" in rejected(cycle, "files")[0]


def test_a_missing_file_fails(cycle):
    (cycle / "refutation.log.gz").unlink()
    assert "refutation.log.gz is missing" in rejected(cycle, "files")[0]
    rejected(cycle, "log")


def test_an_unlisted_evidence_file_fails(cycle):
    edit_json(cycle, "manifest.json", lambda m: m["files"].pop("refutation.log.gz"))
    assert "refutation.log.gz is not listed" in rejected(cycle, "files")[0]


def test_a_file_name_outside_the_folder_fails(cycle):
    edit_json(cycle, "manifest.json", lambda m: m["files"].update({"../x": "00"}))
    assert "'../x' is not a file name" in rejected(cycle, "files")[0]


@pytest.mark.parametrize(
    "solution",
    ["#0:c0 #1:c1 #2:c2 #3:c0", "#0:c1 #1:c0", "#0:c1", "#99:c1 #1:c0 #0:c2 #3:c0", "#0:c9", "x"],
)
def test_a_changed_solution_fails(cycle, solution):
    (cycle / "solution.txt").write_text(solution + "\n")
    rehash(cycle)
    rejected(cycle, "solution")


def test_a_solution_one_move_longer_than_the_claim_fails(tmp_path):
    folder = certify(tmp_path / "c", CYCLE)
    edit_json(folder, "manifest.json", lambda m: m.update(optimum=3))
    assert "4 moves solve the board, the claim is 3" in rejected(folder, "solution")[0]
    rejected(folder, "log")  # its horizon is 3, not 2


def test_a_question_that_disagrees_with_the_board_fails(cycle):
    edit_json(cycle, "manifest.json", lambda m: m["question"].update(rules="pivot", pivot=0))
    rejected(cycle, "question")


def needed_claim(folder: Path) -> int:
    """The index of a line ``E y d`` of the log that no default bound of y covers and no
    other line claims as much of y's colouring: the claim its parent's line needs."""
    lines = gzip.decompress((folder / "refutation.log.gz").read_bytes()).decode().splitlines()
    game = sa.make_game(sa.read_board(json.loads((folder / "board.json").read_text())))
    positions, claims = [game.start], []
    for line in lines[3:]:
        fields = line.split()
        if fields[0] == "P":
            parent, region, colour = map(int, fields[1:])
            positions.append(sa.apply_move(game, positions[parent], region, colour))
        else:
            claims.append((positions[int(fields[1])], int(fields[2])))
    for i, line in enumerate(lines[3:-1], 3):
        if line[0] == "E":
            _, y, d = line.split()
            pos, d = positions[int(y)], int(d)
            if sa.islands_bound(game, pos) <= d and sum(c >= d for p, c in claims if p == pos) == 1:
                return i
    raise AssertionError("no needed claim")


def test_a_dropped_child_claim_fails(cycle):
    i = needed_claim(cycle)
    edit_log(cycle, lambda lines: lines[:i] + lines[i + 1 :])
    assert "no earlier claim and no default bound covers" in rejected(cycle, "log")[0]


def test_a_claim_citing_a_later_claim_fails(cycle):
    i = needed_claim(cycle)
    edit_log(cycle, lambda lines: lines[:i] + lines[i + 1 :] + [lines[i]])
    assert "no earlier claim and no default bound covers" in rejected(cycle, "log")[0]


def test_a_needed_claim_lowered_by_one_fails(cycle):
    i = needed_claim(cycle)

    def lowered(lines: list[str]) -> list[str]:
        tag, y, d = lines[i].split()
        return [*lines[:i], f"{tag} {y} {int(d) - 1}", *lines[i + 1 :]]

    edit_log(cycle, lowered)
    assert "no earlier claim and no default bound covers" in rejected(cycle, "log")[0]


def test_a_false_optimum_resting_on_solved_positions_fails(tmp_path):
    # one move solves [c0 - c1]; a log that calls both solved children unsolved "proves" 2
    folder = certify(tmp_path / "c", graph([0, 1], [(0, 1)]))
    (folder / "solution.txt").write_text("#0:c1 #0:c0\n")
    edit_json(folder, "manifest.json", lambda m: m.update(optimum=2))
    header = ["kamicp-refutation 1", "regions 2 colours 4 rules free final -", "horizon 1"]
    claims = ["P 0 0 1", "E 1 0", "P 0 0 2", "E 2 0", "P 0 0 3", "E 3 0", "P 0 1 0", "E 4 0"]
    claims += ["P 0 1 2", "E 5 0", "P 0 1 3", "E 6 0", "E 0 1"]
    edit_log(folder, lambda lines: header + claims)
    assert "line 5: E 1 0: position 1 is solved" in rejected(folder, "log")[0]


def test_a_lowered_root_budget_fails(cycle):
    edit_log(cycle, lambda ls: ls[:-1] + ["E 0 2"])
    assert "the start is claimed for 2 moves at most, not for H = 3" in rejected(cycle, "log")[0]


def test_a_raised_budget_fails(tmp_path):
    folder = certify(tmp_path / "c", SQUARE)
    edit_log(folder, lambda ls: [*ls[:-1], "E 0 9"])  # its moves were claimed for 2, not 8
    rejected(folder, "log")


def test_a_cut_whose_bound_is_too_small_fails(cycle):
    edit_log(cycle, lambda ls: [*ls[:3], "C 0 3 islands", *ls[3:]])
    assert "C 0 3 islands: the bound is 3, not above 3" in rejected(cycle, "log")[0]


def test_a_cut_by_a_bound_of_the_other_rules_fails(cycle):
    edit_log(cycle, lambda ls: [*ls[:3], "C 0 0 layers", *ls[3:]])
    assert "no bound 'layers' under free rules" in rejected(cycle, "log")[0]


def test_a_header_that_does_not_match_fails(cycle):
    edit_log(cycle, lambda ls: [ls[0], ls[1].replace("rules free", "rules pivot"), *ls[2:]])
    assert "line 2:" in rejected(cycle, "log")[0]


def test_a_truncated_gzip_fails(cycle):
    path = cycle / "refutation.log.gz"
    path.write_bytes(path.read_bytes()[:-12])
    rehash(cycle)
    assert "not a gzip-compressed UTF-8 log" in rejected(cycle, "log")[0]


def test_a_log_that_is_no_gzip_fails(cycle):
    (cycle / "refutation.log.gz").write_bytes(b"E 0 3\n")
    rehash(cycle)
    rejected(cycle, "log")


@pytest.mark.parametrize(
    "line",
    [
        "",
        "X 0 1",
        "E 0",
        "E 0 1 2",
        "E 9 1",
        "E 0 -1",
        "E 0 +1",
        "E 0 1e3",
        "E 0 ١",
        "E 0 " + "9" * 5000,
        "C 0 1",
        "C 0 1 walks",
        "P 5 0 1",
        "P 0 99 1",
        "P 0 0 99",
        "P 0 0 0",
        "P 0 0",
        "E  0 1",
        "E 0 1 ",
    ],
)
def test_a_malformed_line_fails_without_a_traceback(cycle, line):
    edit_log(cycle, lambda ls: [*ls[:3], line, *ls[3:]])
    assert rejected(cycle, "log")[0].startswith("FAIL log: line 4:")


def test_a_log_of_bad_utf8_fails(cycle):
    text = gzip.decompress((cycle / "refutation.log.gz").read_bytes())
    (cycle / "refutation.log.gz").write_bytes(gzip.compress(text + b"\xff\xfe\n"))
    rehash(cycle)
    rejected(cycle, "log")


@pytest.mark.parametrize(
    "change",
    [
        lambda b: b.update(geometry="octagon"),
        lambda b: b.update(palette=[]),
        lambda b: b.update(palette=["c0", "c0", "c1", "c2"]),
        lambda b: b.update(rules="strict"),
        lambda b: b.update(cells=[]),
        lambda b: b["cells"].append(b["cells"][0]),
        lambda b: b["cells"][0].__setitem__(1, 7),
        lambda b: b["cells"][0].__setitem__(1, True),
        lambda b: b["cells"][0].__setitem__(0, 1.5),
        lambda b: b["cells"][0].__setitem__(0, None),
        lambda b: b["edges"].append([0, 99]),
        lambda b: b["edges"].append([0]),
        lambda b: b.update(pivot=99),
        lambda b: b.update(final_colour="c9"),
        lambda b: b.update(edges=7),
        lambda b: b.clear(),
    ],
)
def test_a_malformed_board_fails(cycle, change):
    edit_json(cycle, "board.json", change)
    rehash(cycle)
    rejected(cycle, "board")


def test_grid_boards_refuse_edges_and_bad_cells(tmp_path):
    folder = certify(tmp_path / "c", KAMI2, 0)
    edit_json(folder, "board.json", lambda b: b["cells"][0].__setitem__(0, [0, 0, 2]))
    rehash(folder)
    rejected(folder, "board")
    folder = certify(tmp_path / "d", SQUARE)
    edit_json(folder, "board.json", lambda b: b["edges"].append([[0, 0], [3, 3]]))
    rehash(folder)
    rejected(folder, "board")


@pytest.mark.parametrize(
    "text", ["", "[]", "{", '{"format": "kamicp-certificate-1"}', "NaN", '{"format": 2}']
)
def test_a_malformed_manifest_fails(cycle, text):
    (cycle / "manifest.json").write_text(text)
    code, lines = verdict(cycle)
    assert code == 1 and failures(lines)[0].startswith("FAIL manifest:")


@pytest.mark.parametrize(
    "change",
    [
        lambda m: m.update(optimum=-1),
        lambda m: m.update(optimum="4"),
        lambda m: m.update(evidence=[]),
        lambda m: m.update(files=[]),
        lambda m: m.pop("question"),
    ],
)
def test_a_manifest_of_wrong_types_fails(cycle, change):
    edit_json(cycle, "manifest.json", change)
    code, lines = verdict(cycle)
    assert code == 1 and failures(lines)[0].startswith("FAIL manifest:")


def test_an_unknown_evidence_kind_fails(cycle):
    edit_json(cycle, "manifest.json", lambda m: m["evidence"].update(kind="oracle"))
    rejected(cycle, "evidence")


# ---- drat and kamicp-bound ------------------------------------------------------------------


def fake_drat_trim(folder: Path, says: str) -> str:
    """A folder holding a ``drat-trim`` that prints ``says``; the folder, for the PATH."""
    folder.mkdir()
    exe = folder / "drat-trim"
    exe.write_text(f"#!/bin/sh\necho 'c a stand-in'\necho '{says}'\n")
    exe.chmod(0o755)
    return str(folder)


def test_drat_without_drat_trim_is_not_fully_checked(tmp_path, monkeypatch):
    folder = certify(tmp_path / "c", CYCLE, kind="drat")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    code, lines = verdict(folder)
    assert code == 3 and any(line.startswith("skip drat: drat-trim is not") for line in lines)
    assert any("kamicp's encoder" in line for line in lines if line.startswith("trusted"))


@pytest.mark.skipif(sys.platform == "win32", reason="a shell script stands in for drat-trim")
@pytest.mark.parametrize("says, code", [("s VERIFIED", 0), ("s NOT VERIFIED", 1)])
def test_drat_trim_decides(tmp_path, monkeypatch, says, code):
    folder = certify(tmp_path / "c", CYCLE, kind="drat")
    monkeypatch.setenv("PATH", fake_drat_trim(tmp_path / "bin", says))
    assert verdict(folder, drat_time_limit=30)[0] == code


def test_drat_of_another_horizon_fails(tmp_path, monkeypatch):
    folder = certify(tmp_path / "c", CYCLE, kind="drat")
    edit_json(folder, "manifest.json", lambda m: m["evidence"].update(horizon=2))
    monkeypatch.setenv("PATH", fake_drat_trim(tmp_path / "bin", "s VERIFIED"))
    rejected(folder, "drat")


def test_a_kamicp_bound_is_not_fully_checked(tmp_path):
    folder = certify(tmp_path / "c", CYCLE, kind="kamicp-bound")
    code, lines = verdict(folder)
    assert code == 3 and any(line.startswith("skip kamicp-bound:") for line in lines)
    edit_json(folder, "manifest.json", lambda m: m["evidence"].update(value=3))
    rejected(folder, "kamicp-bound")


# ---- the command line ---------------------------------------------------------------------------


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """The checker run as a script by a bare interpreter (no site, no environment)."""
    cmd = [sys.executable, "-I", "-S", str(STANDALONE), *args]
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=120)


def test_runs_under_a_bare_interpreter(tmp_path):
    folder = certify(tmp_path / "c", SQUARE_PIVOT, 0)
    done = run(str(folder), cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == "certificate verified"
    assert done.stderr == ""
    edit_log(folder, lambda ls: ls[:-1])
    done = run(str(folder), "--quiet", cwd=tmp_path)
    assert done.returncode == 1 and done.stdout.splitlines()[-1] == "certificate REJECTED"
    assert all(line.startswith("FAIL") for line in done.stdout.splitlines()[:-1])


@pytest.mark.parametrize("args", [[], ["missing-folder"], ["c", "--time-limit", "x"]])
def test_bad_usage_says_one_line_and_exits_2(tmp_path, args):
    (tmp_path / "c").mkdir()
    done = run(*args, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1


def test_main_returns_the_exit_code(tmp_path, capsys):
    folder = certify(tmp_path / "c", CYCLE)
    assert sa.main([str(folder), "--quiet"]) == 0
    assert capsys.readouterr().out == "certificate verified\n"
    assert sa.main([str(tmp_path / "nothing")]) == 2


def test_imports_the_standard_library_only():
    tree = ast.parse(STANDALONE.read_text())
    names = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
             for alias in node.names}  # fmt: skip
    names |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert names and all(name.split(".")[0] in sys.stdlib_module_names for name in names)
    assert len(STANDALONE.read_text().splitlines()) < 1000


# ---- agreement with kamicp on random boards -----------------------------------------------------


def named(board: Board) -> Board:
    """A graph board with its nodes renamed to strings and tuples."""
    name = {v: (f"n{v}" if v % 2 else (v, "x")) for v in board.cells}
    return Board(
        geometry="graph",
        cells={name[v]: c for v, c in board.cells.items()},
        palette=board.palette,
        rules=board.rules,
        pivot=name[board.pivot],
        edges=tuple((name[a], name[b]) for a, b in board.edges),
        order=tuple(name[v] for v in board.order),
    )


def all_boards():
    """Every geometry, both rules, graph nodes of every JSON kind."""
    return st.one_of(
        boards(),
        kami2_boards(max_rows=3, max_colours=4, rules=("free", "pivot")),
        graph_boards().map(named),
    )


def assert_same_position(g, game, board: Board, pos: tuple, final) -> None:
    """The standalone's rules and bounds agree with kamicp's at ``pos``."""
    mine = bytes(pos)
    moves = sorted(rules.legal_moves(g, pos))
    assert sorted(sa.legal_moves(game, mine)) == moves
    assert sa.is_solved(game, mine) == rules.is_solved(pos, final)
    for move in moves:
        assert sa.apply_move(game, mine, *move) == bytes(rules.apply(g, pos, move))
    for region in range(g.n):
        for colour in range(g.k):
            try:
                rules.check_move(g, pos, (region, colour))
                legal = True
            except IllegalMove:
                legal = False
            assert (sa.move_problem(game, mine, region, colour) == "") == legal
    cur = contract(g, pos)
    assert sa.colours_bound(game, mine) == colour_bound(cur, final)
    assert sa.islands_bound(game, mine) == islands_bound(cur, final)
    if board.rules == "pivot":
        layers = sa.layers_bound(game, mine)
        if solvable(g, pos, final):
            assert layers == pivot_layer_bound(cur, final)
        else:
            assert layers == sa.INFINITE


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=all_boards(), data=st.data())
def test_agrees_with_kamicp(board, data):
    g = region_graph(board)
    final = data.draw(st.none() | st.integers(0, g.k - 1), label="final")
    record = json.loads(json.dumps(board_json(board, final)))
    mine = sa.read_board(record)
    assert sa.board_digest(mine) == board.digest()
    region, colour, adj = sa.region_graph(mine)
    assert tuple(colour) == g.colour and adj == g.adj
    assert region == [g.region_of[c] for c in board.order]
    game = sa.make_game(mine)
    assert game.pivot == g.pivot and game.start == bytes(g.colour)
    assert sorted(map(sorted, game.pieces)) == sorted(g.islands)
    pos = g.colour
    for _ in range(data.draw(st.integers(0, 5), label="moves")):
        assert_same_position(g, game, board, pos, final)
        moves = list(rules.legal_moves(g, pos))
        if not moves:
            break
        pos = rules.apply(g, pos, data.draw(st.sampled_from(moves), label="move"))
    assert_same_position(g, game, board, pos, final)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=all_boards(), data=st.data())
def test_the_islands_bound_after_a_move_is_the_bound_of_the_position_it_leads_to(board, data):
    # Around reads the next position's bound off distances and Lemmas 1-2 instead of
    # building it: it must give exactly the bound computed from scratch, for every move
    g = region_graph(board.with_rules("free"))
    final = data.draw(st.none() | st.integers(0, g.k - 1), label="final")
    game = sa.make_game(sa.read_board(json.loads(json.dumps(board_json(board.with_rules("free"),
                                                                       final)))))  # fmt: skip
    pos = game.start
    for _ in range(data.draw(st.integers(0, 4), label="moves")):
        moves = sa.legal_moves(game, pos)
        if not moves:
            break
        pos = sa.apply_move(game, pos, *data.draw(st.sampled_from(moves), label="move"))
    around = sa.Around(game, pos)
    for region, colour, child in sa.children(game, pos):
        assert around.islands_after(region, colour) == sa.islands_bound(game, child)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=all_boards(), data=st.data())
def test_the_sweep_bound_agrees_with_kamicp(board, data):
    from kamicp.proof.refutation import sweep_bound

    board = board.with_rules("pivot")
    g = region_graph(board)
    final = data.draw(st.none() | st.integers(0, g.k - 1), label="final")
    game = sa.make_game(sa.read_board(json.loads(json.dumps(board_json(board, final)))))
    pos = g.colour
    for _ in range(data.draw(st.integers(0, 4), label="moves")):
        moves = list(rules.legal_moves(g, pos))
        if not moves:
            break
        pos = rules.apply(g, pos, data.draw(st.sampled_from(moves), label="move"))
    mine = sa.sweep_bound(game, bytes(pos))
    if not solvable(g, pos, final):
        assert mine == sa.INFINITE
        return
    assert mine == sweep_bound(contract(g, pos), final)


# ---- certificates written by kamicp --------------------------------------------------------------

PUZZLES = [
    "square/pivot.txt",
    "graph/islands.json",
    "graph/pivot.json",
    "hex/pivot.txt",
    "triangle/islands.txt",
    "triangle/pivot.txt",
    "floodit99/06_06_04_001.txt",
]


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_kamicp_certificates_verify(tmp_path, puzzle):
    from kamicp.proof.certificate import CertificateOptions, write_certificate
    from kamicp.solving.solve import solve

    path = ROOT / "puzzles" / puzzle
    board = formats.load(str(path))[0]
    result = solve(region_graph(board), "sat")
    options = CertificateOptions(kinds=("log",))
    write_certificate(board, str(path), result, str(tmp_path / "c"), options=options)
    code, lines = verdict(tmp_path / "c")
    assert code == 0, lines
    done = run(str(tmp_path / "c"), "--quiet", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, "certificate verified\n")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=all_boards(), data=st.data())
def test_kamicp_certificates_of_random_boards_verify(tmp_path_factory, board, data):
    from kamicp.proof.certificate import CertificateOptions, write_certificate
    from kamicp.solving.options import SolveOptions
    from kamicp.solving.solve import solve

    g = region_graph(board)
    final = data.draw(st.none() | st.integers(0, g.k - 1), label="final")
    if not solvable(g, None, final):
        return
    result = solve(g, "bfs", SolveOptions(final_colour=final))
    puzzle = tmp_path_factory.mktemp("p") / "puzzle.txt"
    puzzle.write_text("a stand-in\n")
    out = puzzle.parent / "c"
    options = CertificateOptions(kinds=("log",))
    write_certificate(board, str(puzzle), result, str(out), final_colour=final, options=options)
    code, lines = verdict(out)
    assert code == 0, lines


def test_a_free_board_with_a_named_pivot_verifies(tmp_path):
    from kamicp.proof.certificate import CertificateOptions, write_certificate
    from kamicp.solving.solve import solve

    path = tmp_path / "pivot.txt"
    path.write_text("rules: free\npivot: 1,1\nRGB\nGBR\nBRG\n")
    board = formats.load(str(path))[0]
    result = solve(region_graph(board), "bfs")
    options = CertificateOptions(kinds=("log",))
    write_certificate(board, str(path), result, str(tmp_path / "c"), options=options)
    code, lines = verdict(tmp_path / "c")
    assert code == 0, lines
