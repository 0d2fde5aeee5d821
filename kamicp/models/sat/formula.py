"""A CNF being written: named variables, folded clauses, exactly-one and counting constraints.

:class:`Formula` is the one place the SAT encodings put clauses: it folds their constants away
(it is a :class:`kamicp.models.clauses.CnfClauses` whose sink is its own list), names every
variable in a :class:`pysat.formula.IDPool` (a tuple such as ``('x', t, r, c)``, said in words
by :func:`kamicp.models.sat.variables.describe`), and writes cardinality constraints with
python-sat's :mod:`pysat.card` (``encodings/sat.md``, "Setting"):

- exactly-one is pairwise up to 6 literals, else the ladder (I. P. Gent and P. Nightingale,
  "A new encoding of AllDifferent into SAT", ModRef 2004);
- counters are incremental totalizers (O. Bailleux and Y. Boufkhad, "Efficient CNF encoding
  of Boolean cardinality constraints", CP 2003; R. Martins et al., "Incremental cardinality
  constraints for MaxSAT", CP 2014), read by :meth:`Formula.at_most`.

The variables are numbered in the order they are first named, so the same calls give the same
CNF ("Determinism and DIMACS").

Examples
--------
>>> f = Formula()
>>> a, b = f.var(("x", 1, 0, 0)), f.var(("x", 1, 0, 1))
>>> f.exactly_one([a, b], "colour of region 0")
>>> f.take()
[[1, 2], [-1, -2]]
"""

from __future__ import annotations

from dataclasses import dataclass

from pysat.card import CardEnc, EncType, ITotalizer
from pysat.formula import IDPool

from kamicp.models.clauses import CnfClauses, Lit, neg_dimacs

__all__ = ["Counter", "Formula"]


@dataclass(frozen=True)
class Counter:
    """A unary counter of some literals, made by :meth:`Formula.counter`.

    Attributes
    ----------
    offset : int
        How many of the counted literals are the constant True.
    outputs : list of int
        ``outputs[i]`` is implied when at least ``i + 1`` of the other literals are true.
    """

    offset: int
    outputs: list[int]


class Formula(CnfClauses):
    """The clauses and variables of a CNF being written.

    Notes
    -----
    ``clauses`` holds the clauses not yet handed out; :meth:`take` hands them to an
    incremental solver (and forgets them); :attr:`emitted` counts every clause made.
    """

    def __init__(self):
        self.clauses: list[list[int]] = []
        super().__init__(self.clauses.append)
        self.pool = IDPool()
        self.taken = 0  # clauses handed out by take()
        self.aux: list[tuple[int, int, str]] = []  # unnamed variables of CardEnc / ITotalizer

    def var(self, name: tuple) -> int:
        """The variable named ``name`` (made on first use)."""
        return self.pool.id(name)

    @property
    def top(self) -> int:
        """The highest variable made so far."""
        return self.pool.top

    def take(self) -> list[list[int]]:
        """The clauses added since the last call (for an incremental solver)."""
        new = self.clauses[:]
        self.clauses.clear()  # the same list: it is the sink of add()
        self.taken += len(new)
        return new

    @property
    def emitted(self) -> int:
        """How many clauses were made so far, handed out or not."""
        return self.taken + len(self.clauses)

    def names(self) -> dict[int, tuple]:
        """Every variable's name (auxiliary ones as ``('aux', label)``), by variable."""
        out = {v: name for v, name in self.pool.id2obj.items()}
        for lo, hi, label in self.aux:
            for v in range(lo, hi + 1):
                out.setdefault(v, ("aux", label))
        return dict(sorted(out.items()))

    def _claim(self, before: int, label: str) -> None:
        """Name the variables made since the pool's top was ``before`` ``('aux', label)``."""
        if self.pool.top > before:
            self.aux.append((before + 1, self.pool.top, label))

    def exactly_one(self, lits: list[Lit], label: str) -> None:
        """Exactly one of ``lits`` (CardEnc: pairwise up to 6 literals, else a ladder).

        Constants are folded: two true ones leave the empty clause, one true one makes the
        others false, none left but false ones the empty clause.
        """
        trues = sum(1 for lit in lits if lit is True)
        free = [lit for lit in lits if not isinstance(lit, bool)]
        if trues > 1:
            self.add()
            return
        if trues == 1:
            for lit in free:
                self.add(-lit)
            return
        if not free:
            self.add()
            return
        before = self.pool.top
        enc = EncType.pairwise if len(free) <= 6 else EncType.ladder
        for clause in CardEnc.equals(free, bound=1, vpool=self.pool, encoding=enc).clauses:
            self.add(*clause)
        self._claim(before, label)

    def implied_by(self, name: tuple, bodies: list[list[Lit]]) -> Lit:
        """A literal that each conjunction in ``bodies`` implies (and nothing else forces).

        Used only for literals that are counted *upwards* (a spurious true value can only
        strengthen a bound that holds anyway, so the converse is not needed).
        """
        live = []
        for body in bodies:
            if any(lit is False for lit in body):
                continue
            body = [lit for lit in body if lit is not True]
            if not body:
                return True
            live.append(body)
        if not live:
            return False
        v = self.var(name)
        for body in live:
            self.add(*(neg_dimacs(lit) for lit in body), v)
        return v

    def counter(self, lits: list[Lit], label: str) -> Counter:
        """A unary counter (pysat's ITotalizer) of ``lits``, for :meth:`at_most`.

        O(len(lits)^2) clauses; the outputs say "at least i + 1 are true" (upwards only).
        """
        offset = sum(1 for lit in lits if lit is True)
        free = [lit for lit in lits if not isinstance(lit, bool)]
        outputs: list[int] = []
        if len(free) == 1:
            outputs = free
        elif free:
            before = self.pool.top
            tot = ITotalizer(lits=free, ubound=len(free), top_id=before)
            for clause in tot.cnf.clauses:
                self.add(*clause)
            outputs = list(tot.rhs)
            # The totalizer numbered its variables above the pool's top: claim them.
            self.pool.top = max(self.pool.top, tot.top_id)
            tot.delete()
            self._claim(before, label)
        return Counter(offset, outputs)

    def at_most(self, counter: Counter, most: int, *conditions: Lit) -> None:
        """``conditions`` imply: at most ``most`` of the literals ``counter`` counts."""
        index = most - counter.offset
        unless = [neg_dimacs(lit) for lit in conditions]
        if index < 0:
            self.add(*unless)
        elif index < len(counter.outputs):
            self.add(*unless, -counter.outputs[index])
