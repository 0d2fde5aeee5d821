"""Certificates of optimality: evidence a sceptical user can check without trusting a solver.

A certificate for a puzzle with optimum k is a folder:

- ``puzzle.<ext>``: the puzzle file, byte for byte as given;
- ``solution.txt``: k moves in kamicp's notation;
- ``horizon.cnf`` and ``proof.drat`` (when k > 0 and no admissible bound reaches k): the CNF
  "solvable in at most k - 1 moves" of :mod:`kamicp.models.sat` (every bound a hard clause, no
  assumptions) and a DRAT refutation of it from a proof-logging SAT solver;
- ``manifest.json``: the optimum, the kind of lower-bound evidence (``drat``, ``bound``: an
  admissible bound equals k, or ``trivial``: k = 0), SHA-256 of every file, versions.

:func:`verify` checks, each step reported: the files match their hashes; the puzzle is the
one the manifest names; the solution replays to one colour in k moves; the CNF is exactly
what the encoder builds from the puzzle for horizon k - 1; the proof refutes it
(:mod:`kamicp.proof.drat`, and ``drat-trim`` when on the PATH). The solution shows "at most k",
the refutation "not k - 1", so the optimum is k. What still has to be trusted is the
encoding's correctness (encodings/sat.md and the property tests against the reference
search) and, for ``bound``, the bound (encodings/bounds.md).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

from kamicp import __version__, bounds, formats
from kamicp.errors import IllegalMove, KamicpError
from kamicp.game import notation, rules
from kamicp.game.board import Board
from kamicp.game.regions import region_graph
from kamicp.plural import count_moves
from kamicp.procs.deadline import Deadline
from kamicp.proof.dimacs import parse_dimacs
from kamicp.proof.drat import check_drat
from kamicp.proof.drat_trim import run_drat_trim
from kamicp.result import Result

__all__ = [
    "CNF_FILE",
    "MANIFEST",
    "PROOF_FILE",
    "SOLUTION_FILE",
    "Step",
    "certificate_path_ok",
    "sha256",
    "verify",
    "write_certificate",
]

MANIFEST = "manifest.json"
CNF_FILE = "horizon.cnf"
PROOF_FILE = "proof.drat"
SOLUTION_FILE = "solution.txt"


def sha256(path: Path) -> str:
    """The SHA-256 digest of the file at ``path``, in hex."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _versions() -> dict:
    from importlib.metadata import PackageNotFoundError, version

    out = {"kamicp": __version__}
    for package in ("python-sat", "ortools"):
        try:
            out[package] = version(package)
        except PackageNotFoundError:
            out[package] = None
    return out


def write_certificate(
    board: Board,
    puzzle_path: str,
    result: Result,
    out_dir: str,
    *,
    index: int = 1,
    final_colour: int | None = None,
    time_limit: float | None = None,
) -> dict:
    """Write the certificate of an optimal ``result`` into ``out_dir``.

    Parameters
    ----------
    board : Board
        The puzzle.
    puzzle_path : str
        Its file, copied into the certificate byte for byte.
    result : Result
        An optimal result for ``board``.
    out_dir : str
        A new or empty folder.
    index : int
        The puzzle's 1-based index in its file.
    final_colour : int, optional
        The colour the board must end in; None: any.
    time_limit : float, optional
        Seconds for the refutation of horizon k - 1; None: no limit.

    Returns
    -------
    dict
        The manifest, as written to ``manifest.json``.

    Raises
    ------
    KamicpError
        When the result is not optimal, the folder is not empty, or the refutation of
        horizon k - 1 does not finish in time.
    """
    # pysat is heavy: loaded only when a certificate is written
    from kamicp.models.sat import PROOF_SOLVER, prove_unsat
    from kamicp.models.sat_cnf import dimacs_for_horizon

    if result.status != "optimal":
        raise KamicpError(f"no certificate: the result is {result.status}, not optimal")
    out = Path(out_dir)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise KamicpError(f"{out_dir}: refusing to write a certificate into a non-empty path")
    g = region_graph(board)
    k = result.moves
    lower = bounds.lower_bound(g, final_colour=final_colour)
    if 0 < lower < k and board.rules == "free":
        # The solve may have had the tetrapod bound in another process (the portfolio's sat
        # backend asks it), not in this one's cache: ask it here, capped at what settles
        # the optimum; seconds where it applies, against a refutation that may take minutes.
        cur = bounds.contract(g)
        lower = max(lower, bounds.tetrapods_bound(cur, final_colour, cap=k - 1))
    manifest = {
        "format": "kamicp-certificate-1",
        "optimum": k,
        "rules": board.rules,
        "final_colour": None if final_colour is None else board.palette[final_colour],
        "puzzle_index": index,
        "puzzle_digest": board.digest(),
        "versions": _versions(),
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    files = {}
    if k == 0:
        manifest["lower_bound"] = {"kind": "trivial"}
    elif lower >= k:
        report = bounds.bound_report(g, final_colour=final_colour)
        manifest["lower_bound"] = {"kind": "bound", "bounds": report, "value": lower}
    else:
        status, proof = prove_unsat(g, k - 1, final_colour, time_limit=time_limit)
        if status != "unsat":
            raise KamicpError(f"no certificate: refuting horizon {k - 1} gave {status}")
        files[CNF_FILE] = dimacs_for_horizon(g, k - 1, final_colour).encode()
        files[PROOF_FILE] = "".join(line.rstrip("\n") + "\n" for line in proof).encode()
        manifest["lower_bound"] = {"kind": "drat", "horizon": k - 1, "solver": PROOF_SOLVER}
    suffix = Path(puzzle_path).suffix or ".txt"
    files["puzzle" + suffix] = Path(puzzle_path).read_bytes()
    files[SOLUTION_FILE] = (notation.format_moves(board, g, result.solution) + "\n").encode()
    out.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (out / name).write_bytes(data)
    manifest["puzzle_file"] = "puzzle" + suffix
    manifest["files"] = {name: hashlib.sha256(data).hexdigest() for name, data in files.items()}
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


@dataclass
class Step:
    """One check of :func:`verify`: what was checked, whether it passed, and the detail."""

    name: str
    ok: bool
    detail: str


def verify(cert_dir: str, *, drat_trim: bool = True, time_limit: float | None = None):
    """Check the certificate in ``cert_dir``, one step at a time.

    Parameters
    ----------
    cert_dir : str
        The certificate's folder.
    drat_trim : bool
        Also check the proof with ``drat-trim`` when it is on the ``PATH``.
    time_limit : float, optional
        Seconds for each proof check; None: no limit.

    Yields
    ------
    Step
        One per check, in order; after a failed step the checks that depend on it are
        skipped. The certificate holds when every step is ok.
    """
    d = Path(cert_dir)
    try:
        manifest = json.loads((d / MANIFEST).read_text())
        problem = _manifest_problem(manifest)
    except (OSError, ValueError) as err:
        problem = str(err)
    if problem:
        yield Step("manifest", False, f"{d / MANIFEST}: unreadable or incomplete ({problem})")
        return
    k, kind = manifest["optimum"], manifest["lower_bound"]["kind"]
    yield Step("manifest", True, f"optimum {k}, lower-bound evidence: {kind}")
    yield from _check_hashes(d, manifest["files"], kind)
    board = yield from _check_puzzle(d, manifest["puzzle_file"], manifest)
    if board is None:
        return
    g = region_graph(board)
    final = None
    if manifest.get("final_colour") is not None:
        try:
            final = notation.parse_colour(board, manifest["final_colour"])
        except IllegalMove as err:
            yield Step("manifest", False, f"final colour: {err}")
            return
    solution = _check_solution(d, board, g, k, final)
    yield solution
    if not solution.ok:  # nothing to prove optimal (and a made-up k may be huge)
        yield Step("lower bound", False, "not checked: the solution step failed")
        return
    if kind == "trivial":
        yield Step("lower bound", k == 0, "optimum 0: nothing to refute")
    elif kind == "bound":
        value = bounds.lower_bound(g, final_colour=final)
        if value < k and "tetrapods" in manifest["lower_bound"].get("bounds", {}):
            # asked only where it can matter (kamicp.solving.solve), so recomputed here, up to k - 1
            value = bounds.tetrapods_bound(bounds.contract(g), final, cap=k - 1)
        yield Step("lower bound", value >= k, f"admissible lower bound recomputed: {value}")
    elif kind == "drat":
        yield from _check_refutation(d, g, k, final, drat_trim, time_limit)
    else:
        yield Step("lower bound", False, f"unknown kind of evidence {kind!r}")


MOST_MOVES = 1_000_000  # a claimed optimum above this is not read as one


def _manifest_problem(manifest) -> str | None:
    """What is wrong with a manifest's fields (of the wrong type or missing), or None."""
    if not isinstance(manifest, dict):
        return "not a JSON object"
    k = manifest.get("optimum")
    if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= MOST_MOVES:
        return f"optimum {k!r}: not a number of moves"
    evidence = manifest.get("lower_bound")
    if not isinstance(evidence, dict) or not isinstance(evidence.get("kind"), str):
        return "lower_bound: not an object with a kind"
    if not isinstance(evidence.get("bounds", {}), dict | list):
        return "lower_bound.bounds: not a list"
    names = manifest.get("files")
    if not isinstance(names, dict) or not all(isinstance(v, str) for v in names.values()):
        return "files: not an object of file names and digests"
    if not isinstance(manifest.get("puzzle_file"), str):
        return "puzzle_file: not a file name"
    index = manifest.get("puzzle_index", 1)
    if not isinstance(index, int) or isinstance(index, bool) or index < 1:
        return f"puzzle_index {index!r}: not a puzzle's number (from 1)"
    if not isinstance(manifest.get("final_colour", ""), str | type(None)):
        return "final_colour: not a colour's name"
    return None


def _check_hashes(d: Path, names: dict, kind: str):
    needed = {CNF_FILE, PROOF_FILE} if kind == "drat" else set()
    for name in sorted(set(names) | needed):
        path = d / name
        if not path.exists():
            yield Step(f"file {name}", False, "missing")
        elif name not in names or sha256(path) != names[name]:
            yield Step(f"file {name}", False, "SHA-256 differs from the manifest (edited?)")
        else:
            yield Step(f"file {name}", True, "SHA-256 matches the manifest")


def _check_puzzle(d: Path, puzzle_file: str, manifest: dict):
    try:
        boards = formats.load(str(d / puzzle_file))
        board = boards[int(manifest.get("puzzle_index", 1)) - 1]
    except (KamicpError, IndexError) as err:
        yield Step("puzzle", False, f"cannot read the puzzle: {err}")
        return None
    if board.rules != manifest.get("rules"):
        board = board.with_rules(manifest.get("rules", board.rules))
    same = board.digest() == manifest.get("puzzle_digest")
    yield Step("puzzle", same, "digest matches" if same else "a different puzzle (digest)")
    return board if same else None


def _check_solution(d: Path, board, g, k: int, final) -> Step:
    try:
        moves = notation.parse_moves(board, g, (d / SOLUTION_FILE).read_text())
        rules.verify_solution(g, moves, final)
    except (OSError, IllegalMove, UnicodeDecodeError) as err:
        return Step("solution", False, str(err))
    if len(moves) != k:
        return Step("solution", False, f"{count_moves(len(moves))}, the manifest claims {k}")
    return Step("solution", True, f"replays to one colour in {count_moves(k)}")


def _check_refutation(d: Path, g, k: int, final, drat_trim: bool, time_limit):
    from kamicp.models.sat_cnf import dimacs_for_horizon  # pysat loads only for a DRAT certificate

    expected = dimacs_for_horizon(g, k - 1, final)
    try:
        found = (d / CNF_FILE).read_text()
    except (OSError, UnicodeDecodeError) as err:
        yield Step("cnf", False, str(err))
        return
    if found != expected:
        yield Step("cnf", False, _first_difference(expected, found))
        return
    yield Step("cnf", True, f"identical to the encoding of horizon {k - 1} of this puzzle")
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
    detail = (
        f"{res.reason} ({res.lemmas_checked} of {res.lemmas_total} lemmas checked, "
        f"{res.seconds:.1f} s)"
    )
    yield Step("proof (kamicp.proof.drat)", res.ok, detail)
    if drat_trim:
        other = run_drat_trim(d / CNF_FILE, d / PROOF_FILE, timeout=time_limit)
        if other is not None:
            yield Step("proof (drat-trim)", other.ok, other.reason)


def _first_difference(expected: str, found: str) -> str:
    """Where a CNF differs from the one the encoder builds, as one line."""
    exp, got = expected.splitlines(), found.splitlines()
    for number, (a, b) in enumerate(zip(exp, got, strict=False), 1):
        if a != b:
            return f"differs from the encoding at line {number}: expected {a!r}, found {b!r}"
    return f"differs from the encoding: {len(got)} lines instead of {len(exp)}"


def certificate_path_ok(path: str) -> None:
    """Check that ``path`` is free for a new certificate (absent, or an empty folder).

    Parameters
    ----------
    path : str
        Where the certificate is to go.

    Raises
    ------
    KamicpError
        When ``path`` is a file or a folder that is not empty.
    """
    if os.path.exists(path) and (not os.path.isdir(path) or os.listdir(path)):
        raise KamicpError(f"{path}: refusing to write a certificate into a non-empty path")
