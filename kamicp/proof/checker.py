"""The clause database of the DRAT checker: watched literals, propagation, the check of one lemma.

:class:`Checker` holds the formula's clauses and the lemmas added so far, a top-level
assignment (the trail) kept at its unit-propagation fixpoint with two watched literals per
clause, and which clauses are *core* (used by a conflict). :meth:`Checker.check_lemma` tells
whether a lemma is RUP (asserting its negation and propagating conflicts) or RAT on its first
literal ``p`` (every resolvent with a live clause holding ``-p`` is RUP). The passes over a
proof that use it are in :mod:`kamicp.proof.drat`.

Examples
--------
>>> ch = Checker(2, Deadline())
>>> for lits in ([1, 2], [1, -2], [-1, 2]):
...     ch.attach(ch.new_clause(lits))
0
0
0
>>> ch.check_lemma(ch.new_clause([1]))  # (1 2) and (1 -2) resolve to (1)
'rup'
>>> ch.check_lemma(ch.new_clause([-1]))
''
"""

from __future__ import annotations

from collections.abc import Iterable

from kamicp.procs.deadline import Deadline

__all__ = ["CONFLICT", "Checker"]

CONFLICT = -(1 << 62)  # Checker.attach(): the clause is false under the trail


class Checker:
    """Clause database, top-level trail and watches; see the module docstring.

    Literals index lists of size ``2 * nvars + 1`` directly: ``v`` at ``v`` and ``-v`` at
    ``2 * nvars + 1 - v`` (Python's negative indices), which keeps the hot loops free of
    index arithmetic. Watch lists are split into core (marked) and other clauses.
    """

    def __init__(self, nvars: int, deadline: Deadline, debug: bool = False) -> None:
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
        assign when it is unit, ``CONFLICT`` when it is false. Unit clauses get no watches.
        """
        c = self.clauses[cid]
        true = self.true
        if len(c) == 1:
            x = c[0]
            return 0 if true[x] else CONFLICT if true[-x] else x
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
            result = CONFLICT if first < 0 else 0 if true[x] else x
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
        """Raise :class:`~kamicp.procs.deadline.LimitReached` once the deadline has passed."""
        self.deadline.check()

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
