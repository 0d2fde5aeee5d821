"""A DRAT proof checker: does a clausal proof show that a CNF formula is unsatisfiable?

A DRAT proof is a sequence of clause additions (lemmas) and deletions ending in the empty
clause. Each lemma must be RUP (reverse unit propagation: asserting the negation of every
literal and unit-propagating reaches a conflict) or, failing that, RAT on its first literal
``p`` (every resolvent of the lemma with a clause containing ``-p`` is RUP). Adding a RUP or RAT
clause preserves satisfiability, so a proof reaching the empty clause shows UNSAT.

The checker follows DRAT-trim's backward mode [Heule, Hunt, Wetzler, "Trimming while checking
clausal proofs", FMCAD 2013; Wetzler, Heule, Hunt, "DRAT-trim: Efficient checking and trimming
using expressive clausal proofs", SAT 2014]:

1. Forward pass: add lemmas and apply deletions, keeping a top-level unit-propagation fixpoint
   with two watched literals per clause, until propagation conflicts (the empty clause is then
   RUP). Nothing is checked yet.
2. Backward pass: walk the proof backwards, removing each lemma and undoing the top-level
   assignments made after it; a lemma is checked only when it was *marked*: used in the final
   conflict or in the conflict analysis of a later check. Propagation visits marked ("core")
   clauses first, so checks reuse what is already needed and the core stays small.

Deletions of clauses that are the reason of a top-level assignment are ignored, as DRAT-trim
does for unit clauses: the checker then works on a superset of the proof's formula, which is
still built only of the input and checked lemmas, so soundness is kept (only a RAT check could
fail that the proof's own formula would pass). See ``encodings/drat.md``.

The inputs are read by :mod:`kamicp.proof.dimacs`, the clause database and the check of one
lemma are :mod:`kamicp.proof.checker`, and :mod:`kamicp.proof.drat_trim` runs the reference C
checker for a second opinion.

Examples
--------
>>> formula = [[1, 2], [1, -2], [-1, 2], [-1, -2]]
>>> result = check_drat(formula, "1 0\\n0\\n")
>>> result.ok, result.lemmas_checked, result.lemmas_total
(True, 1, 1)
>>> check_drat(formula, "0\\n").reason
'line 1: the empty clause does not follow by unit propagation'

Notes
-----
The forward pass is linear in the proof size plus propagation; each check is one unit
propagation (O(total watch-list traffic)), a RAT check one per candidate clause.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from kamicp.procs.deadline import Deadline, LimitReached
from kamicp.proof.checker import CONFLICT, Checker
from kamicp.proof.dimacs import (
    ProofInput,
    ProofSteps,
    ProofSyntaxError,
    parse_dimacs,
    parse_proof,
)

__all__ = ["DratResult", "check_drat", "check_drat_files", "check_steps"]


@dataclass
class DratResult:
    """What a check of a DRAT proof found.

    Attributes
    ----------
    ok : bool
        True when the proof shows the formula unsatisfiable.
    reason : str
        Why not, or a summary of a success.
    lemmas_checked : int
        The lemmas verified (the core).
    lemmas_total : int
        The proof's non-empty added clauses.
    seconds : float
        Time the check took.
    line : int or None
        The failing step's line (text proof) or 1-based step number (binary proof).
    rat_lemmas : int
        The checked lemmas that needed the RAT check.
    deletions_ignored : int
        Deletions of reason clauses (kept, see the module docstring).
    deletions_missing : int
        Deletions of clauses not in the formula (skipped, as DRAT-trim does).
    timed_out : bool
        True when the deadline stopped the check.
    checker : str
        Which checker answered (``"kamicp.proof.drat"`` or ``"drat-trim"``).
    """

    ok: bool
    reason: str
    lemmas_checked: int = 0
    lemmas_total: int = 0
    seconds: float = 0.0
    line: int | None = None
    rat_lemmas: int = 0
    deletions_ignored: int = 0
    deletions_missing: int = 0
    timed_out: bool = False
    checker: str = "kamicp.proof.drat"


_MISSING, _REASON = -1, -2  # _find_deletion(): why a deletion is ignored


def _find_deletion(ch: Checker, by_key: dict[tuple[int, ...], list[int]], lits: list[int]) -> int:
    """The live clause a deletion step removes; ``_MISSING`` when there is none, ``_REASON``
    when it is the reason of a top-level assignment (then kept, see the module docstring)."""
    key = tuple(sorted(set(lits)))
    ids = by_key.get(key)
    if not ids:
        return _MISSING
    true, reason = ch.true, ch.reason
    for i in range(len(ids) - 1, -1, -1):  # the latest copy that is not a reason
        cid = ids[i]
        if not any(true[x] and reason[x if x > 0 else -x] == cid for x in ch.clauses[cid]):
            del ids[i]
            return cid
    return _REASON


def _show(lits: list[int], limit: int = 12) -> str:
    text = " ".join(map(str, lits[:limit]))
    return text + (" ..." if len(lits) > limit else "") + " 0"


def check_drat(
    clauses: list[list[int]],
    proof: ProofInput,
    *,
    deadline: Deadline | None = None,
) -> DratResult:
    """Check that ``proof`` (DRAT, text or binary) refutes the CNF ``clauses``.

    Parameters
    ----------
    clauses : list of list of int
        The formula, one list of DIMACS literals per clause.
    proof : str, bytes or iterable of str or bytes
        The proof: text, bytes (text or binary DRAT, detected) or its lines.
    deadline : Deadline, optional
        Past it the check stops with ``ok=False`` and ``timed_out=True``; None: no limit.

    Returns
    -------
    DratResult
        The verdict. A bad proof never raises: the reason is in the result. Steps after the
        first top-level conflict are parsed but not checked, as in DRAT-trim.

    Raises
    ------
    ValueError
        When a clause of the formula holds the literal 0.

    Examples
    --------
    >>> check_drat([[1], [-1]], "0\\n").ok
    True
    >>> check_drat([[1, 2]], "0\\n").ok
    False
    """
    start = time.monotonic()
    try:
        steps = parse_proof(proof)
    except ProofSyntaxError as err:
        return DratResult(False, str(err), line=err.line, seconds=time.monotonic() - start)
    result = check_steps(clauses, steps, deadline)
    result.seconds = time.monotonic() - start
    return result


def check_drat_files(
    cnf_path: str | Path, proof_path: str | Path, *, deadline: Deadline | None = None
) -> DratResult:
    """:func:`check_drat` on a DIMACS file and a proof file (text or binary DRAT).

    Parameters
    ----------
    cnf_path, proof_path : str or Path
        The formula (DIMACS CNF) and the proof.
    deadline : Deadline, optional
        As for :func:`check_drat`.

    Returns
    -------
    DratResult
        The verdict.

    Raises
    ------
    OSError
        When a file cannot be read.
    ValueError
        When the CNF holds a token that is not an integer.
    """
    clauses = parse_dimacs(Path(cnf_path).read_bytes())
    return check_drat(clauses, Path(proof_path).read_bytes(), deadline=deadline)


def check_steps(
    clauses: list[list[int]],
    steps: ProofSteps,
    deadline: Deadline | None = None,
    *,
    debug: bool = False,
) -> DratResult:
    """Check parsed proof ``steps`` against ``clauses``: the forward, then the backward pass.

    Parameters
    ----------
    clauses : list of list of int
        The formula.
    steps : ProofSteps
        The proof, from :func:`~kamicp.proof.dimacs.parse_proof`.
    deadline : Deadline, optional
        As for :func:`check_drat`.
    debug : bool
        Assert the checker's invariants after every backward step (slow; for tests).

    Returns
    -------
    DratResult
        The verdict (``seconds`` is left at 0).

    Raises
    ------
    ValueError
        When a clause of the formula holds the literal 0.
    """
    nvars = 0
    for c in clauses:
        if c:
            if 0 in c:
                raise ValueError("a CNF clause holds the literal 0")
            nvars = max(nvars, max(c), -min(c))
    for lits in steps.lits:
        if lits:
            nvars = max(nvars, max(lits), -min(lits))
    total = sum(1 for d, lits in zip(steps.deletes, steps.lits, strict=True) if lits and not d)
    unit = "step" if steps.binary else "line"
    res = DratResult(False, "", lemmas_total=total)
    if any(not c for c in clauses):
        res.ok, res.reason = True, "the formula contains the empty clause"
        return res

    ch = Checker(nvars, deadline or Deadline(), debug)
    by_key: dict[tuple[int, ...], list[int]] = {}
    for c in clauses:
        lits = list(dict.fromkeys(c))
        cid = ch.new_clause(lits)
        by_key.setdefault(tuple(sorted(lits)), []).append(cid)
    try:
        # Input clauses: watch first (empty trail), then assert units and propagate.
        conflict = -1
        for cid, c in enumerate(ch.clauses):
            if len(c) >= 2:
                ch.attach(cid)
        for cid, c in enumerate(ch.clauses):
            if len(c) == 1 and conflict < 0:
                x = c[0]
                if ch.true[-x]:
                    conflict = cid
                elif not ch.true[x]:
                    ch.assign(x, cid)
        if conflict < 0:
            conflict = ch.propagate(0)
        return _forward_backward(ch, steps, by_key, conflict, res, unit)
    except LimitReached:
        res.reason = f"deadline reached after {res.lemmas_checked} lemmas checked"
        res.timed_out = True
        return res


def _forward_backward(
    ch: Checker,
    steps: ProofSteps,
    by_key: dict[tuple[int, ...], list[int]],
    conflict: int,
    res: DratResult,
    unit: str,
) -> DratResult:
    """Forward pass to the first top-level conflict, then the backward checks; fills ``res``."""
    trail_before: dict[int, int] = {}  # lemma id -> trail length when it was added
    step_of: dict[int, int] = {}  # lemma id -> step index
    done: list[tuple[bool, int]] = []  # (is deletion, clause id) of applied steps
    for s in range(len(steps.lits)):
        if conflict >= 0:
            break
        if s % 1024 == 0:
            ch.tick()
        lits = steps.lits[s]
        if steps.deletes[s]:
            cid = _find_deletion(ch, by_key, lits)
            if cid == _MISSING:
                res.deletions_missing += 1
            elif cid == _REASON:
                res.deletions_ignored += 1
            else:
                ch.alive[cid] = False
                ch.detach(cid)
                done.append((True, cid))
            continue
        if not lits:
            res.line = steps.where[s]
            res.reason = f"{unit} {res.line}: the empty clause does not follow by unit propagation"
            return res
        lits = list(dict.fromkeys(lits))
        cid = ch.new_clause(lits)
        by_key.setdefault(tuple(sorted(lits)), []).append(cid)
        trail_before[cid] = len(ch.trail)
        step_of[cid] = s
        done.append((False, cid))
        status = ch.attach(cid)
        if status == CONFLICT:
            conflict = cid
        elif status != 0:
            base = len(ch.trail)
            ch.assign(status, cid)
            conflict = ch.propagate(base)
    if conflict < 0:
        res.reason = "the proof never derives the empty clause"
        return res
    ch.mark(conflict)
    # Backward pass: undo the steps in reverse, checking the marked lemmas.
    for is_delete, cid in reversed(done):
        if is_delete:
            ch.alive[cid] = True
            status = ch.attach(cid)
            # It was alive at this very fixpoint before its deletion, so it is not unit.
            assert status == 0, "a re-added clause is unit"
            continue
        ch.tick()
        ch.alive[cid] = False
        ch.detach(cid)
        ch.backtrack(trail_before[cid])
        if ch.debug:
            ch.assert_invariants()
        if not ch.core[cid]:
            continue
        kind = ch.check_lemma(cid)
        if not kind:
            s = step_of[cid]
            res.line = steps.where[s]
            res.reason = f"{unit} {res.line}: lemma {_show(steps.lits[s])} is neither RUP nor RAT"
            return res
        res.lemmas_checked += 1
        res.rat_lemmas += kind == "rat"
    res.ok = True
    res.reason = f"verified: {res.lemmas_checked} of {res.lemmas_total} lemmas checked"
    res.reason += f" ({res.rat_lemmas} by RAT)"
    return res
