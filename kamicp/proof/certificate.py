"""Certificates of optimality: a question, its answer k, and evidence a sceptic can check.

A certificate is a folder (``encodings/certificates.md`` specifies every file): the question
(board, rules, pivot, final colour) in ``manifest.json`` and ``board.json``, the user's
puzzle file byte for byte, a solution of k moves, and the evidence that k - 1 moves are not
enough, the first of these kinds that can be had:

- ``trivial``: k = 0;
- ``log``: a proof log (:mod:`kamicp.proof.refutation`): the refutation of k - 1 moves as a DAG
  of positions, each expanded into every move or cut by a bound that any checker recomputes;
- ``drat``: the CNF "solvable in k - 1 moves" (:mod:`kamicp.models.sat.cnf`) with a DRAT refutation;
- ``kamicp-bound``: one of kamicp's own admissible bounds reaches k (only kamicp recomputes it).

:mod:`kamicp.proof.verification` checks a certificate with kamicp's code;
``kamicp/proof/standalone.py`` checks the same folder with none of it.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

from kamicp import __version__, bounds
from kamicp.errors import KamicpError
from kamicp.game.board import Board
from kamicp.game.regions import RegionGraph, region_graph
from kamicp.procs.deadline import Deadline
from kamicp.proof.combined import write_log_split
from kamicp.proof.refutation import LOG_POSITIONS
from kamicp.result import Result

__all__ = [
    "BOARD_FILE",
    "CNF_FILE",
    "EVIDENCE",
    "FORMAT",
    "MOST_MOVES",
    "LOG_FILE",
    "MANIFEST",
    "PROOF_FILE",
    "SOLUTION_FILE",
    "CertificateOptions",
    "NoEvidence",
    "board_record",
    "certificate_path_ok",
    "kamicp_bound",
    "sha256",
    "write_certificate",
]

FORMAT = "kamicp-certificate-2"
MANIFEST = "manifest.json"
BOARD_FILE = "board.json"
SOLUTION_FILE = "solution.txt"
LOG_FILE = "refutation.log.gz"
CNF_FILE = "horizon.cnf"
PROOF_FILE = "proof.drat"
EVIDENCE = ("log", "drat", "kamicp-bound")  # the kinds tried for k > 0, in this order
MOST_MOVES = 1_000_000  # a claimed optimum above this is not read as one


class NoEvidence(KamicpError):
    """No kind of evidence could be had within the limits: the certificate is not written."""


@dataclass(frozen=True)
class CertificateOptions:
    """How a certificate is sought: the kinds of evidence tried, in order, and the limits.

    ``time_limit`` covers the whole search for evidence (None: no limit);
    ``log_positions`` caps the claims of a proof log (:data:`~kamicp.proof.refutation.
    LOG_POSITIONS`); ``workers`` processes write the log, one task a move from the start
    (:mod:`kamicp.proof.combined`).
    """

    kinds: tuple[str, ...] = EVIDENCE
    time_limit: float | None = None
    log_positions: int = LOG_POSITIONS
    workers: int = 1


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


def _cell_json(cell):
    """A cell as JSON: a tuple becomes a list, a graph node stays as it is."""
    return list(cell) if isinstance(cell, tuple) else cell


def board_record(board: Board, final_colour: int | None = None) -> dict:
    """The board of a question as ``board.json`` holds it (``encodings/certificates.md``).

    Parameters
    ----------
    board : Board
        The puzzle, under the rules of the question.
    final_colour : int, optional
        The colour the board must end in; None: any.

    Returns
    -------
    dict
        ``geometry``, ``palette``, ``rules``, ``pivot``, ``final_colour``, ``cells`` (in
        reading order) and ``edges``.

    Raises
    ------
    KamicpError
        When a graph node is not a string, an integer or a tuple of them (JSON cannot
        hold it so that the digest survives).

    Examples
    --------
    >>> board = Board(geometry="square", cells={(0, 0): 1, (0, 1): 0}, palette=("R", "G"))
    >>> board_record(board)["cells"]
    [[[0, 0], 1], [[0, 1], 0]]
    """
    for cell in board.order:
        parts = cell if isinstance(cell, tuple) else (cell,)
        if not all(isinstance(x, int | str) and not isinstance(x, bool) for x in parts):
            raise KamicpError(f"no certificate: the node {cell!r} cannot be written as JSON")
    return {
        "geometry": board.geometry,
        "palette": list(board.palette),
        "rules": board.rules,
        "pivot": _cell_json(board.pivot) if board.rules == "pivot" else None,
        "final_colour": None if final_colour is None else board.palette[final_colour],
        "cells": [[_cell_json(c), board.cells[c]] for c in board.order],
        "edges": [[_cell_json(a), _cell_json(b)] for a, b in board.edges],
    }


def _question(board: Board, final_colour, puzzle_path: str, index: int) -> dict:
    return {
        "name": board.name or Path(puzzle_path).stem,
        "digest": board.digest(),
        "geometry": board.geometry,
        "rules": board.rules,
        "pivot": _cell_json(board.pivot) if board.rules == "pivot" else None,
        "final_colour": None if final_colour is None else board.palette[final_colour],
        "puzzle_file": "puzzle" + (Path(puzzle_path).suffix or ".txt"),
        "puzzle_index": index,
    }


def write_certificate(
    board: Board,
    puzzle_path: str,
    result: Result,
    out_dir: str,
    *,
    index: int = 1,
    final_colour: int | None = None,
    options: CertificateOptions | None = None,
) -> dict:
    """Write the certificate of an optimal ``result`` into ``out_dir``.

    Parameters
    ----------
    board : Board
        The puzzle, under the rules the result is for.
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
    options : CertificateOptions, optional
        The kinds of evidence to try and the limits; default all kinds, no time limit.

    Returns
    -------
    dict
        The manifest, as written to ``manifest.json``.

    Raises
    ------
    KamicpError
        When the result is not optimal or the folder is not empty.
    NoEvidence
        When no kind of evidence could be had within the limits (nothing is written).
    """
    options = options or CertificateOptions()
    if result.status != "optimal":
        raise KamicpError(f"no certificate: the result is {result.status}, not optimal")
    certificate_path_ok(out_dir)
    g = region_graph(board)
    k = result.moves
    files = {
        BOARD_FILE: (json.dumps(board_record(board, final_colour)) + "\n").encode(),
        SOLUTION_FILE: (" ".join(f"#{r}:{board.palette[c]}" for r, c in result.solution) + "\n")
        .encode(),
    }  # fmt: skip
    if k == 0:
        evidence = {"kind": "trivial"}
    else:
        evidence = _evidence(g, k, final_colour, options, files)
    question = _question(board, final_colour, puzzle_path, index)
    files[question["puzzle_file"]] = Path(puzzle_path).read_bytes()
    manifest = {
        "format": FORMAT,
        "question": question,
        "optimum": k,
        "evidence": evidence,
        "files": {name: hashlib.sha256(data).hexdigest() for name, data in files.items()},
        "versions": _versions(),
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (out / name).write_bytes(data)
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def _evidence(g: RegionGraph, k: int, final, options: CertificateOptions, files: dict) -> dict:
    """The first kind of evidence of ``options.kinds`` that can be had that k - 1 moves do
    not solve ``g``; its files go into ``files``."""
    deadline = Deadline.after(options.time_limit)
    tried = []
    for kind in options.kinds:
        if kind == "log":
            left = deadline.left()
            if left is not None and "drat" in options.kinds[options.kinds.index(kind) :]:
                # the proof log's work explodes past some depth where the SAT refutation's
                # does not: half the time each, so that a log that will not fit leaves the
                # refutation its chance
                left /= 2
            log = write_log_split(g, k - 1, final, deadline=Deadline.after(left),
                                  limit=options.log_positions,
                                  workers=options.workers)  # fmt: skip
            if log is not None:
                files[LOG_FILE] = log.data
                return {"kind": "log", "horizon": k - 1, "bounds": list(log.bounds),
                        "positions": log.positions, "claims": log.claims}  # fmt: skip
            tried.append(f"a proof log within {log_budget(options)}")
        elif kind == "drat":
            found = _drat(g, k, final, deadline, files)
            if found is not None:
                return found
            tried.append(f"a SAT refutation of horizon {k - 1} within the time limit")
        elif kind == "kamicp-bound":
            name, value = kamicp_bound(g, k, final)
            if value >= k:
                return {"kind": "kamicp-bound", "bound": name, "value": value}
            tried.append(f"an admissible bound of {k} (the best is {value})")
        else:
            raise KamicpError(f"unknown kind of evidence {kind!r} ({', '.join(EVIDENCE)})")
    raise NoEvidence(f"no certificate: tried {'; '.join(tried)}")


def log_budget(options: CertificateOptions) -> str:
    """The proof log's budget in words."""
    limit = "" if options.time_limit is None else " and its share of the time limit"
    claims = f"{options.log_positions:,} claim" + ("" if options.log_positions == 1 else "s")
    return claims + limit


def _drat(g: RegionGraph, k: int, final, deadline: Deadline, files: dict) -> dict | None:
    """The DRAT evidence, or None when the refutation did not finish in time."""
    # pysat is heavy: loaded only when a DRAT certificate is written
    from kamicp.models.sat.cnf import dimacs_for_horizon
    from kamicp.models.sat.horizon import prove_unsat
    from kamicp.models.sat.solvers import PROOF_SOLVER

    left = deadline.left()
    if left is not None and left <= 0:
        return None
    status, proof = prove_unsat(g, k - 1, final, time_limit=left)
    if status != "unsat":
        return None
    files[CNF_FILE] = dimacs_for_horizon(g, k - 1, final).encode()
    files[PROOF_FILE] = "".join(line.rstrip("\n") + "\n" for line in proof).encode()
    return {"kind": "drat", "horizon": k - 1, "solver": PROOF_SOLVER}


def kamicp_bound(g: RegionGraph, k: int, final: int | None) -> tuple[str, int]:
    """kamicp's best admissible bound of the start, and its name.

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    k : int
        The optimum to be reached: the tetrapod bound (free rules) is asked up to k - 1,
        where it settles the optimum.
    final : int or None
        The colour the board must end in; None: any.

    Returns
    -------
    (str, int)
        The best bound's name and value.
    """
    report = bounds.bound_report(g, final_colour=final)
    if g.rules == "free" and max(report.values()) < k:
        report["tetrapods"] = bounds.tetrapods_bound(bounds.contract(g), final, cap=k - 1)
    name = max(report, key=report.get)
    return name, report[name]


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
