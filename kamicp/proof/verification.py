"""Checking a certificate of optimality with kamicp's own code, step by step.

:func:`verify` reads the question of ``manifest.json``, checks every file's hash, reads the
user's puzzle file with kamicp's readers and ties it to ``board.json`` and the question's
digest, replays the solution with kamicp's rules engine and checks the evidence (a proof log
with :func:`kamicp.proof.refutation.check_log`, a DRAT refutation with
:func:`kamicp.proof.drat.check_drat` and ``drat-trim``, a bound by recomputing it). Each step
says what a pass rests on. The format is ``encodings/certificates.md``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from kamicp import formats
from kamicp.errors import IllegalMove, KamicpError
from kamicp.game import rules
from kamicp.game.board import Board
from kamicp.game.regions import RegionGraph, region_graph
from kamicp.plural import count_moves
from kamicp.procs.deadline import Deadline
from kamicp.proof.certificate import (
    BOARD_FILE,
    CNF_FILE,
    EVIDENCE,
    FORMAT,
    LOG_FILE,
    MANIFEST,
    MOST_MOVES,
    PROOF_FILE,
    SOLUTION_FILE,
    board_record,
    kamicp_bound,
    sha256,
)
from kamicp.proof.dimacs import parse_dimacs
from kamicp.proof.drat import check_drat
from kamicp.proof.drat_trim import run_drat_trim
from kamicp.proof.refutation import check_log

__all__ = ["Step", "read_question", "verify"]


@dataclass
class Step:
    """One check of :func:`verify`: what was checked, whether it passed, the detail, and
    what a pass rests on (empty for the checks that rest on nothing but hashing)."""

    name: str
    ok: bool
    detail: str
    rests_on: str = ""


def read_question(cert_dir: str) -> tuple[dict | None, str | None]:
    """The manifest of a certificate, or the problem that stops it being read.

    Parameters
    ----------
    cert_dir : str
        The certificate's folder.

    Returns
    -------
    (dict or None, str or None)
        The manifest and None, or None and what is wrong with it.
    """
    path = Path(cert_dir) / MANIFEST
    try:
        manifest = json.loads(path.read_text())
        problem = _manifest_problem(manifest)
    except (OSError, ValueError) as err:
        return None, f"{path}: unreadable ({err})"
    if problem:
        return None, f"{path}: {problem}"
    return manifest, None


def verify(
    cert_dir: str,
    puzzle: str | None = None,
    *,
    rules: str | None = None,
    drat_trim: bool = True,
    time_limit: float | None = None,
) -> Iterator[Step]:
    """Check the certificate in ``cert_dir``, one step at a time.

    Parameters
    ----------
    cert_dir : str
        The certificate's folder.
    puzzle : str, optional
        The user's own puzzle file: also check that the certificate is for that board
        under the rules the file gives (or ``rules``).
    rules : str, optional
        The rules ``puzzle`` is asked about, when not its own.
    drat_trim : bool
        Also check a DRAT proof with ``drat-trim`` when it is on the ``PATH``.
    time_limit : float, optional
        Seconds for each proof check; None: no limit.

    Yields
    ------
    Step
        One per check, in order; after a failed step the checks that depend on it are
        skipped. The certificate holds when every step is ok.
    """
    manifest, problem = read_question(cert_dir)
    if manifest is None:
        yield Step("manifest", False, problem)
        return
    d = Path(cert_dir)
    question, k, evidence = manifest["question"], manifest["optimum"], manifest["evidence"]
    yield Step("manifest", True, f"format {FORMAT}, optimum {k}, evidence: {evidence['kind']}")
    yield from _check_hashes(d, manifest["files"], question["puzzle_file"], evidence["kind"])
    board = yield from _check_puzzle(d, question)
    if board is None:
        return
    if puzzle is not None:
        yield _check_users_puzzle(puzzle, question, rules)
    g = region_graph(board)
    final = None
    if question["final_colour"] is not None:
        final = board.palette.index(question["final_colour"])
    solution = _check_solution(d, g, k, final)
    yield solution
    if not solution.ok:  # nothing to prove optimal (and a made-up k may be huge)
        yield Step("lower bound", False, "not checked: the solution step failed")
        return
    deadline = Deadline.after(time_limit)
    kind = evidence["kind"]
    if kind == "trivial":
        yield Step("lower bound", k == 0, "optimum 0: nothing to refute")
    elif kind == "log":
        yield _check_log(d, g, k, final, deadline)
    elif kind == "drat":
        yield from _check_refutation(d, g, k, final, drat_trim, time_limit)
    else:
        _, value = kamicp_bound(g, k, final)
        yield Step(
            "lower bound",
            value >= k,
            f"kamicp's admissible bound {evidence.get('bound')} recomputed: {value}",
            "kamicp's implementation of that bound (encodings/bounds.md)",
        )


def _manifest_problem(manifest) -> str | None:
    """What is wrong with a manifest's fields (of the wrong type or missing), or None."""
    if not isinstance(manifest, dict):
        return "not a JSON object"
    if manifest.get("format") != FORMAT:
        return f"format {manifest.get('format')!r}, not {FORMAT!r}"
    k = manifest.get("optimum")
    if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= MOST_MOVES:
        return f"optimum {k!r}: not a number of moves"
    evidence = manifest.get("evidence")
    if not isinstance(evidence, dict) or evidence.get("kind") not in ("trivial", *EVIDENCE):
        return "evidence: not an object with a known kind"
    names = manifest.get("files")
    if not isinstance(names, dict) or not all(isinstance(v, str) for v in names.values()):
        return "files: not an object of file names and digests"
    question = manifest.get("question")
    if not isinstance(question, dict):
        return "question: not an object"
    for key, types in (("digest", str), ("rules", str), ("puzzle_file", str)):
        if not isinstance(question.get(key), types):
            return f"question.{key}: missing or not text"
    index = question.get("puzzle_index", 1)
    if not isinstance(index, int) or isinstance(index, bool) or index < 1:
        return f"question.puzzle_index {index!r}: not a puzzle's number (from 1)"
    if not isinstance(question.get("final_colour"), str | type(None)):
        return "question.final_colour: not a colour's name"
    return None


def _check_hashes(d: Path, names: dict, puzzle_file: str, kind: str) -> Iterator[Step]:
    needed = {BOARD_FILE, SOLUTION_FILE, puzzle_file}
    needed |= {"log": {LOG_FILE}, "drat": {CNF_FILE, PROOF_FILE}}.get(kind, set())
    for name in sorted(set(names) | needed):
        path = d / name
        if not path.exists():
            yield Step(f"file {name}", False, "missing")
        elif name not in names or sha256(path) != names[name]:
            yield Step(f"file {name}", False, "SHA-256 differs from the manifest (edited?)")
        else:
            yield Step(f"file {name}", True, "SHA-256 matches the manifest")


def _load_board(path: str, question: dict, index: int | None) -> Board:
    """The puzzle of ``path`` (at ``index``, or the only one) under the question's rules."""
    boards = formats.load(path)
    if index is None and len(boards) > 1:
        matching = [b for b in boards if _under(b, question).digest() == question["digest"]]
        return _under(matching[0] if matching else boards[0], question)
    board = boards[(index or 1) - 1]
    return _under(board, question)


def _under(board: Board, question: dict) -> Board:
    return board if board.rules == question["rules"] else board.with_rules(question["rules"])


def _check_puzzle(d: Path, question: dict):
    try:
        board = _load_board(str(d / question["puzzle_file"]), question, question["puzzle_index"])
    except (KamicpError, IndexError) as err:
        yield Step("puzzle", False, f"cannot read the puzzle: {err}")
        return None
    same = board.digest() == question["digest"]
    detail = "digest matches" if same else "a different puzzle (digest)"
    yield Step("puzzle", same, f"{question['puzzle_file']} (kamicp's reader): {detail}")
    if not same:
        return None
    try:
        record = json.loads((d / BOARD_FILE).read_text())
    except (OSError, ValueError) as err:
        yield Step("board", False, f"{BOARD_FILE}: unreadable ({err})")
        return None
    final = question["final_colour"]
    if final is not None and final not in board.palette:
        yield Step("board", False, f"final colour {final!r} is not in the palette")
        return None
    same = record == board_record(board, None if final is None else board.palette.index(final))
    yield Step("board", same, f"{BOARD_FILE} is " + ("" if same else "not ") + "that board")
    return board if same else None


def _check_users_puzzle(puzzle: str, question: dict, rules: str | None) -> Step:
    """Whether the user's puzzle file holds the certificate's board, under the rules it
    gives (or ``rules``)."""
    try:
        boards = formats.load(puzzle)
    except KamicpError as err:
        return Step("your puzzle", False, f"cannot read it: {err}")
    asked = [b if rules in (None, b.rules) else b.with_rules(rules) for b in boards]
    for number, board in enumerate(asked, 1):
        if board.digest() == question["digest"]:
            where = f" (puzzle {number})" if len(boards) > 1 else ""
            return Step("your puzzle", True, f"{puzzle}{where} is this board under "
                        f"{board.rules} rules")  # fmt: skip
    if any(_under(b, question).digest() == question["digest"] for b in boards):
        said = rules or asked[0].rules
        return Step("your puzzle", False, f"{puzzle} is this board, but under {said} rules: "
                    f"the certificate is for {question['rules']} rules")  # fmt: skip
    return Step("your puzzle", False, f"{puzzle} is not this board")


def _check_solution(d: Path, g: RegionGraph, k: int, final) -> Step:
    rests_on = "kamicp's rules engine (kamicp/game/rules.py)"
    try:
        moves = _parse_region_moves(g, (d / SOLUTION_FILE).read_text())
        rules.verify_solution(g, moves, final)
    except (OSError, IllegalMove, UnicodeDecodeError) as err:
        return Step("solution", False, str(err))
    if len(moves) != k:
        return Step("solution", False, f"{count_moves(len(moves))}, the manifest claims {k}")
    return Step("solution", True, f"replays to one colour in {count_moves(k)}", rests_on)


def _parse_region_moves(g: RegionGraph, text: str) -> list[tuple[int, int]]:
    """The ``#N:COLOUR`` moves of a certificate's solution."""
    moves = []
    for token in text.split():
        where, _, colour = token.rpartition(":")
        if not where.startswith("#") or not where[1:].isdecimal() or colour not in g.palette:
            raise IllegalMove(f"{token!r} is not a move #REGION:COLOUR of this board")
        region = int(where[1:])
        if region >= g.n:
            raise IllegalMove(f"{token!r}: no region {region} (regions are #0..#{g.n - 1})")
        moves.append((region, g.palette.index(colour)))
    return moves


def _check_log(d: Path, g: RegionGraph, k: int, final, deadline: Deadline) -> Step:
    try:
        data = (d / LOG_FILE).read_bytes()
    except OSError as err:
        return Step("proof log", False, str(err))
    res = check_log(g, data, k - 1, final, deadline=deadline)
    detail = f"{res.reason} ({deadline.elapsed():.1f} s)"
    bounds_used = "colours, layers, sweep" if g.rules == "pivot" else "colours, islands"
    rests_on = f"kamicp's rules engine and bounds {bounds_used} (encodings/bounds.md)"
    return Step("proof log", res.ok, detail, rests_on)


def _check_refutation(d: Path, g, k: int, final, drat_trim: bool, time_limit):
    from kamicp.models.sat.cnf import dimacs_for_horizon  # pysat loads only for a DRAT certificate

    expected = dimacs_for_horizon(g, k - 1, final)
    try:
        found = (d / CNF_FILE).read_text()
    except (OSError, UnicodeDecodeError) as err:
        yield Step("cnf", False, str(err))
        return
    if found != expected:
        yield Step("cnf", False, _first_difference(expected, found))
        return
    rests_on = "kamicp's SAT encoding (encodings/sat.md, tested against BFS)"
    yield Step(
        "cnf", True, f"identical to the encoding of horizon {k - 1} of this puzzle", rests_on
    )
    deadline = Deadline.after(time_limit)
    try:
        proof = (d / PROOF_FILE).read_bytes()
    except OSError as err:
        yield Step("proof", False, str(err))
        return
    try:
        res = check_drat(parse_dimacs(expected), proof, deadline=deadline)
    except (ValueError, OverflowError, MemoryError) as err:  # a proof no solver wrote
        yield Step("proof (kamicp.proof.drat)", False, f"unreadable proof ({err})")
        return
    detail = f"{res.reason}, {res.seconds:.1f} s"
    yield Step("proof (kamicp.proof.drat)", res.ok, detail, "kamicp's DRAT checker")
    if drat_trim:
        other = run_drat_trim(d / CNF_FILE, d / PROOF_FILE, timeout=time_limit)
        if other is not None:
            yield Step("proof (drat-trim)", other.ok, other.reason, "drat-trim")


def _first_difference(expected: str, found: str) -> str:
    """Where a CNF differs from the one the encoder builds, as one line."""
    exp, got = expected.splitlines(), found.splitlines()
    for number, (a, b) in enumerate(zip(exp, got, strict=False), 1):
        if a != b:
            return f"differs from the encoding at line {number}: expected {a!r}, found {b!r}"
    return f"differs from the encoding: {len(got)} lines instead of {len(exp)}"
