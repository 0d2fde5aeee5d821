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

Input: text DRAT (one step a line: literals ending with ``0``, ``d`` first for a deletion, ``c``
comment lines) or binary DRAT (``a``/``d`` bytes, variable-length literals), detected
automatically. ``run_drat_trim`` calls the reference C checker when it is on the ``PATH``.

Cost: the forward pass is linear in the proof size plus propagation; each check is one unit
propagation (O(total watch-list traffic)), a RAT check one per candidate clause.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "DratResult",
    "ProofSteps",
    "ProofSyntaxError",
    "check_drat",
    "check_drat_files",
    "parse_dimacs",
    "parse_proof",
    "run_drat_trim",
]

ProofInput = str | bytes | Iterable[str] | Iterable[bytes]


@dataclass
class DratResult:
    """What a check found.

    ``ok`` is True when the proof shows the formula unsatisfiable. ``reason`` says why not (or
    sums up a success); ``line`` is the failing step's line (text) or 1-based step number
    (binary). ``lemmas_total`` counts the proof's non-empty added clauses, ``lemmas_checked``
    those verified (the core), ``rat_lemmas`` those that needed the RAT check.
    ``deletions_ignored`` counts deletions of reason clauses (kept, see the module docstring),
    ``deletions_missing`` those of clauses not in the formula (skipped, as DRAT-trim does).
    ``timed_out`` is True when the deadline stopped the check.
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


class ProofSyntaxError(ValueError):
    """A proof step that cannot be parsed; ``line`` is where (text line, or binary step)."""

    def __init__(self, line: int, message: str, unit: str = "line") -> None:
        super().__init__(f"{unit} {line}: {message}")
        self.line = line


@dataclass
class ProofSteps:
    """A parsed proof: per step, deletion flag, literals and source line (or step number)."""

    deletes: list[bool]
    lits: list[list[int]]
    where: list[int]
    binary: bool


# --------------------------------------------------------------------------- parsing


def _looks_binary(data: bytes) -> bool:
    """Binary DRAT starts steps with ``a`` and ends them with a zero byte, text never has one."""
    return bool(data) and (data[:1] == b"a" or b"\0" in data[:65536])


def _parse_text_line(raw: bytes, where: int) -> tuple[bool, list[int]] | None:
    """One text line -> (is deletion, literals without the final 0), None for blank/comment."""
    toks = raw.split()
    if not toks or toks[0][:1] == b"c":
        return None
    delete = toks[0] == b"d"
    try:
        nums = list(map(int, toks[1:] if delete else toks))
    except ValueError:
        nums = []
    # int() also takes "+1" and "1_0", which are no DIMACS literals.
    if not nums or nums[-1] != 0 or b"+" in raw or b"_" in raw:
        raise ProofSyntaxError(where, f"cannot parse {_show_bytes(raw.strip())}")
    nums.pop()
    if 0 in nums:
        raise ProofSyntaxError(where, "a 0 before the end of the step (one step per line)")
    return delete, nums


def _show_bytes(s: bytes, limit: int = 60) -> str:
    text = s.decode("ascii", errors="replace")
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _text_lines(proof: ProofInput) -> Iterator[bytes]:
    if isinstance(proof, bytes):
        yield from proof.splitlines()
    elif isinstance(proof, str):
        for line in proof.splitlines():
            yield line.encode("ascii", errors="replace")
    else:
        for item in proof:
            chunk = item if isinstance(item, bytes) else item.encode("ascii", errors="replace")
            # An item is normally one line, but tolerate items holding several.
            yield from chunk.splitlines() or [b""]


def _parse_binary(data: bytes) -> ProofSteps:
    """Binary DRAT: ``a``/``d`` byte, then literals ``2*var + sign`` in 7-bit groups, low
    group first, high bit set on all but the last byte, then a zero byte."""
    deletes: list[bool] = []
    lits_all: list[list[int]] = []
    where: list[int] = []
    i, n = 0, len(data)
    step = 0
    while i < n:
        step += 1
        head = data[i]
        if head not in (0x61, 0x64):
            raise ProofSyntaxError(step, f"cannot parse: byte {head:#04x} at offset {i}", "step")
        i += 1
        lits: list[int] = []
        while True:
            value, shift = 0, 0
            while True:
                if i >= n:
                    raise ProofSyntaxError(step, "cannot parse: the proof ends inside it", "step")
                b = data[i]
                i += 1
                value |= (b & 0x7F) << shift
                shift += 7
                if b < 0x80:
                    break
            if value == 0:
                break
            if value < 2:
                raise ProofSyntaxError(step, f"cannot parse: literal code {value}", "step")
            lits.append(-(value >> 1) if value & 1 else value >> 1)
        deletes.append(head == 0x64)
        lits_all.append(lits)
        where.append(step)
    return ProofSteps(deletes, lits_all, where, True)


def parse_proof(proof: ProofInput) -> ProofSteps:
    """Parse a proof given as text, bytes (text or binary DRAT) or an iterable of lines.

    Raises :class:`ProofSyntaxError` on a malformed step. O(proof size).
    """
    if isinstance(proof, bytes) and _looks_binary(proof):
        return _parse_binary(proof)
    deletes: list[bool] = []
    lits_all: list[list[int]] = []
    where: list[int] = []
    for number, raw in enumerate(_text_lines(proof), start=1):
        step = _parse_text_line(raw, number)
        if step is not None:
            deletes.append(step[0])
            lits_all.append(step[1])
            where.append(number)
    return ProofSteps(deletes, lits_all, where, False)


def parse_dimacs(text: str | bytes) -> list[list[int]]:
    """The clauses of a DIMACS CNF (``p`` and ``c`` lines skipped; clauses may span lines).

    Raises ``ValueError`` on a token that is not an integer.
    """
    if isinstance(text, str):
        text = text.encode("ascii", errors="replace")
    clauses: list[list[int]] = []
    current: list[int] = []
    for raw in text.splitlines():
        s = raw.strip()
        if not s or s[:1] in (b"c", b"p", b"%"):
            continue
        for tok in s.split():
            lit = int(tok)
            if lit == 0:
                clauses.append(current)
                current = []
            else:
                current.append(lit)
    if current:
        clauses.append(current)
    return clauses


# --------------------------------------------------------------------------- checking


class _Deadline(Exception):
    pass


class _Checker:
    """Clause database, top-level trail and watches; see the module docstring.

    Literals index lists of size ``2 * nvars + 1`` directly: ``v`` at ``v`` and ``-v`` at
    ``2 * nvars + 1 - v`` (Python's negative indices), which keeps the hot loops free of
    index arithmetic. Watch lists are split into core (marked) and other clauses.
    """

    def __init__(self, nvars: int, deadline: float | None, debug: bool = False) -> None:
        size = 2 * nvars + 1
        self.true = [False] * size
        self.reason = [-1] * (nvars + 1)
        self.tpos = [0] * (nvars + 1)  # trail position of an assigned var
        self.seen = [False] * (nvars + 1)  # var's reason chain is already marked core
        self.trail: list[int] = []
        self.wcore: list[list[int]] = [[] for _ in range(size)]
        self.wnon: list[list[int]] = [[] for _ in range(size)]
        self.clauses: list[list[int]] = []
        self.pivot: list[int] = []
        self.core: list[bool] = []
        self.alive: list[bool] = []
        self.occ: list[list[int]] | None = None
        self.size = size
        self.deadline = deadline
        self.debug = debug

    # -- clause database ------------------------------------------------------------------

    def new_clause(self, lits: list[int]) -> int:
        cid = len(self.clauses)
        self.clauses.append(lits)
        self.pivot.append(lits[0] if lits else 0)
        self.core.append(False)
        self.alive.append(True)
        return cid

    def attach(self, cid: int) -> int:
        """Watch two literals chosen for the current trail (true, else unassigned, else false).

        Returns 0 when the clause is satisfied or has two non-false literals, the literal to
        assign when it is unit, ``_CONFLICT`` when it is false. Unit clauses get no watches.
        """
        c = self.clauses[cid]
        true = self.true
        if len(c) == 1:
            x = c[0]
            return 0 if true[x] else _CONFLICT if true[-x] else x
        # Two non-false literals if there are (they stay non-false on every shorter trail);
        # else the only one (true, or unit) and the false literal assigned last: the trail is
        # only ever cut back, and once that literal is unassigned the clause has two
        # non-false literals again (a clause alive at a fixpoint is never unit there).
        first = second = -1
        for k, x in enumerate(c):
            if not true[-x]:
                if first < 0:
                    first = k
                else:
                    second = k
                    break
        if second >= 0:
            c[0], c[first] = c[first], c[0]
            c[1], c[second] = c[second], c[1]
            result = 0
        else:
            if first >= 0:
                c[0], c[first] = c[first], c[0]
            tpos = self.tpos
            last = max(range(1, len(c)), key=lambda k: tpos[abs(c[k])])
            c[1], c[last] = c[last], c[1]
            x = c[0]
            result = _CONFLICT if first < 0 else 0 if true[x] else x
        watches = self.wcore if self.core[cid] else self.wnon
        watches[c[0]].append(cid)
        watches[c[1]].append(cid)
        return result

    def detach(self, cid: int) -> None:
        c = self.clauses[cid]
        if len(c) >= 2:
            watches = self.wcore if self.core[cid] else self.wnon
            watches[c[0]].remove(cid)
            watches[c[1]].remove(cid)

    def make_core(self, cid: int) -> None:
        """Mark a clause as used; its watches move to the core lists (propagated first)."""
        self.core[cid] = True
        c = self.clauses[cid]
        if len(c) >= 2 and self.alive[cid]:
            for x in c[:2]:
                self.wnon[x].remove(cid)
                self.wcore[x].append(cid)

    # -- assignment and propagation -------------------------------------------------------

    def assign(self, lit: int, reason: int) -> None:
        v = lit if lit > 0 else -lit
        self.true[lit] = True
        self.reason[v] = reason
        self.tpos[v] = len(self.trail)
        self.trail.append(lit)

    def backtrack(self, length: int) -> None:
        """Undo assignments past ``length``; their ``seen`` marks go with them."""
        trail, true, reason, seen = self.trail, self.true, self.reason, self.seen
        for lit in trail[length:]:
            true[lit] = False
            v = lit if lit > 0 else -lit
            reason[v] = -1
            seen[v] = False
        del trail[length:]

    def visit(self, fl: int, watches: list[list[int]]) -> int:
        """Clauses watching ``fl``, which just became false: move the watch, propagate, or
        report a conflict (its clause id; -1 if none). Two-watched-literal scheme."""
        ws = watches[fl]
        if not ws:
            return -1
        true, clauses, trail, reason, tpos = (
            self.true,
            self.clauses,
            self.trail,
            self.reason,
            self.tpos,
        )
        keep: list[int] = []
        push = keep.append
        it = iter(ws)
        for cid in it:
            c = clauses[cid]
            other = c[0]
            if other == fl:
                other = c[1]
            if true[other]:  # satisfied: the common case, so it touches nothing
                push(cid)
                continue
            c[0] = other
            for k in range(2, len(c)):
                x = c[k]
                if not true[-x]:
                    c[1] = x
                    c[k] = fl
                    watches[x].append(cid)
                    break
            else:
                c[1] = fl
                push(cid)
                if true[-other]:
                    keep.extend(it)  # the rest of the list, untouched
                    watches[fl] = keep
                    return cid
                true[other] = True
                v = other if other > 0 else -other
                reason[v] = cid
                tpos[v] = len(trail)
                trail.append(other)
        watches[fl] = keep
        return -1

    def propagate(self, start: int) -> int:
        """Unit-propagate the trail from ``start``, core clauses first; conflict id or -1."""
        trail, visit, wcore, wnon = self.trail, self.visit, self.wcore, self.wnon
        ch = nh = start
        while True:
            if ch < len(trail):
                fl = -trail[ch]
                ch += 1
                if wcore[fl] and (conflict := visit(fl, wcore)) >= 0:
                    return conflict
            elif nh < len(trail):
                fl = -trail[nh]
                nh += 1
                if wnon[fl] and (conflict := visit(fl, wnon)) >= 0:
                    return conflict
            else:
                return -1

    # -- conflict analysis ----------------------------------------------------------------

    def mark(self, cid: int = -1, lits: Iterable[int] = ()) -> None:
        """Mark as core the clause ``cid`` and the reasons of all literals it (or ``lits``)
        depends on, transitively. Vars whose chain is done are ``seen`` and skipped."""
        seen, reason, clauses, core = self.seen, self.reason, self.clauses, self.core
        stack = [cid] if cid >= 0 else []
        for x in lits:
            v = x if x > 0 else -x
            if not seen[v]:
                seen[v] = True
                if reason[v] >= 0:
                    stack.append(reason[v])
        while stack:
            cid = stack.pop()
            if not core[cid]:
                self.make_core(cid)
            for x in clauses[cid]:
                v = x if x > 0 else -x
                if not seen[v]:
                    seen[v] = True
                    r = reason[v]
                    if r >= 0:
                        stack.append(r)

    # -- lemma checks ---------------------------------------------------------------------

    def implied(self, lits: list[int], base: int) -> bool:
        """Assert the negation of ``lits`` above trail length ``base`` and propagate.

        True (conflict, reasons marked) or False, leaving the assignment in place.
        """
        true = self.true
        for x in lits:
            if true[x]:
                self.mark(lits=(x,))
                return True
            if not true[-x]:
                self.assign(-x, -1)
        conflict = self.propagate(base)
        if conflict >= 0:
            self.mark(conflict)
            return True
        return False

    def occurrences(self) -> list[list[int]]:
        """Clause ids by literal, built on the first RAT check (O(total size))."""
        if self.occ is None:
            occ: list[list[int]] = [[] for _ in range(self.size)]
            for cid, c in enumerate(self.clauses):
                for x in c:
                    occ[x].append(cid)
            self.occ = occ
        return self.occ

    def check_lemma(self, cid: int) -> str:
        """'rup', 'rat' or '' (neither) for a detached lemma, against the live clauses."""
        lits = self.clauses[cid]
        base = len(self.trail)
        if self.implied(lits, base):
            self.backtrack(base)
            return "rup"
        # RAT on the pivot: every live clause with -pivot gives a resolvent that must be RUP;
        # the lemma's negation is already propagated, so each resolvent adds only its rest.
        pivot = self.pivot[cid]
        middle = len(self.trail)
        alive, clauses = self.alive, self.clauses
        ok = True
        for d in self.occurrences()[-pivot]:
            if not alive[d]:
                continue
            rest = [x for x in clauses[d] if x != -pivot]
            done = self.implied(rest, middle)
            self.backtrack(middle)
            if not done:
                ok = False
                break
        self.backtrack(base)
        return "rat" if ok else ""

    def tick(self) -> None:
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise _Deadline

    def assert_invariants(self) -> None:
        """Debug aid (tests): watches sit in the right lists and the trail is a fixpoint."""
        true = self.true
        for cid, c in enumerate(self.clauses):
            if not self.alive[cid]:
                continue
            if len(c) == 1:
                assert true[c[0]], f"unit clause {c} not asserted"
                continue
            watches = self.wcore if self.core[cid] else self.wnon
            assert cid in watches[c[0]] and cid in watches[c[1]], f"watches of {c}"
            for a, b in ((c[0], c[1]), (c[1], c[0])):
                assert not true[-a] or true[b], f"false watch {a} in {c}"
            nonfalse = [x for x in c if not true[-x]]
            assert nonfalse, f"conflicting clause {c} at a fixpoint"
            assert len(nonfalse) > 1 or true[nonfalse[0]], f"unpropagated unit {c}"


_CONFLICT = -(1 << 62)  # attach(): the clause is false under the trail
_MISSING, _REASON = -1, -2  # _find_deletion(): why a deletion is ignored


def _find_deletion(ch: _Checker, by_key: dict[tuple[int, ...], list[int]], lits: list[int]) -> int:
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
    deadline: float | None = None,
) -> DratResult:
    """Check that ``proof`` (DRAT, text or binary) refutes the CNF ``clauses``.

    ``deadline`` is a ``time.monotonic()`` instant; past it the result has ``ok=False`` and
    ``timed_out=True``. Never raises on a bad proof: the reason is in the result (a CNF clause
    holding 0 raises ``ValueError``). Steps after the first top-level conflict are parsed but
    not checked, as in DRAT-trim.
    """
    start = time.monotonic()
    try:
        steps = parse_proof(proof)
    except ProofSyntaxError as err:
        return DratResult(False, str(err), line=err.line, seconds=time.monotonic() - start)
    result = _check(clauses, steps, deadline)
    result.seconds = time.monotonic() - start
    return result


def check_drat_files(
    cnf_path: str | Path, proof_path: str | Path, *, deadline: float | None = None
) -> DratResult:
    """:func:`check_drat` on a DIMACS file and a proof file (text or binary DRAT)."""
    clauses = parse_dimacs(Path(cnf_path).read_bytes())
    return check_drat(clauses, Path(proof_path).read_bytes(), deadline=deadline)


def _check(
    clauses: list[list[int]], steps: ProofSteps, deadline: float | None, debug: bool = False
) -> DratResult:
    """Forward then backward pass over parsed steps (see the module docstring)."""
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

    ch = _Checker(nvars, deadline, debug)
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
    except _Deadline:
        res.reason = f"deadline reached after {res.lemmas_checked} lemmas checked"
        res.timed_out = True
        return res


def _forward_backward(
    ch: _Checker,
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
        if status == _CONFLICT:
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


# --------------------------------------------------------------------------- drat-trim

_CORE_LINE = re.compile(r"c (\d+) of (\d+) lemmas in core")
_RAT_LINE = re.compile(r"c (\d+) RAT lemmas in core")


def run_drat_trim(
    cnf_path: str | Path, proof_path: str | Path, timeout: float | None = None
) -> DratResult | None:
    """Check with the reference C checker ``drat-trim`` [Wetzler, Heule, Hunt, SAT 2014].

    None when ``drat-trim`` is not on the ``PATH``. ``ok`` iff it prints ``s VERIFIED``; its
    ``c X of Y lemmas in core`` line fills the counts. ``timeout`` (seconds) is passed on
    (``-t``) and enforced here too.
    """
    exe = shutil.which("drat-trim")
    if exe is None:
        return None
    cmd = [exe, str(cnf_path), str(proof_path)]
    if timeout is not None:
        cmd += ["-t", str(max(1, int(timeout)))]
    start = time.monotonic()
    try:
        done = subprocess.run(
            cmd,
            capture_output=True,
            text=True,
            timeout=None if timeout is None else timeout + 5,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return DratResult(
            False,
            "drat-trim timed out",
            seconds=time.monotonic() - start,
            timed_out=True,
            checker="drat-trim",
        )
    out = done.stdout
    verdicts = [s.strip() for s in out.splitlines() if s.startswith("s ")]
    ok = "s VERIFIED" in verdicts
    core = _CORE_LINE.search(out)
    rat = _RAT_LINE.search(out)
    if ok:
        reason = "drat-trim: s VERIFIED"
    else:
        tail = (verdicts or out.strip().splitlines()[-1:] or [f"exit code {done.returncode}"])[-1]
        reason = f"drat-trim: {tail}"
    return DratResult(
        ok,
        reason,
        lemmas_checked=int(core.group(1)) if core else 0,
        lemmas_total=int(core.group(2)) if core else 0,
        seconds=time.monotonic() - start,
        rat_lemmas=int(rat.group(1)) if rat else 0,
        timed_out="TIMEOUT" in out.upper() and not ok,
        checker="drat-trim",
    )
