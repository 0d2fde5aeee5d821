"""Clauses with Python-bool constants folded away, for the SAT and the CP-SAT models.

Both models write clauses over literals some of which are known in advance (time 0 is the
starting board; a region beyond a move's reach is never flooded). Such literals are plain
Python ``True``/``False`` and are folded out when the clause is added (``encodings/sat.md``,
"Setting"): a clause with a true literal is dropped, false literals are removed, and a clause
left empty is kept, making the formula unsatisfiable, which is then the right answer.

The folding rule is one function, :func:`fold`; :class:`Clauses` adds folded clauses to
wherever its ``sink`` puts them. The literal types differ (DIMACS integers for python-sat,
``IntVar``/``NotBooleanVariable`` for CP-SAT), and so does negation: :class:`CnfClauses`
negates with ``-`` and :class:`CpsatClauses` with ``~``.

Examples
--------
>>> store = []
>>> cnf = CnfClauses(store.append)
>>> cnf.add(1, False, -2)
>>> cnf.add(3, True)
>>> cnf.implies(True, 4)
>>> store
[[1, -2], [4]]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["Lit", "fold", "neg_dimacs", "neg_cpsat", "Clauses", "CnfClauses", "CpsatClauses"]

Lit = Any  # a solver's literal, or a Python bool for a constant folded away


def fold(lits: Iterable[Lit]) -> list[Lit] | None:
    """The clause ``lits`` with its constants folded away.

    Parameters
    ----------
    lits : iterable of literals
        Solver literals, or Python ``True``/``False`` for constants.

    Returns
    -------
    list or None
        None when a literal is ``True`` (the clause holds, nothing to add); otherwise the
        literals that are not ``False``, in their order (empty: the clause cannot hold).

    Examples
    --------
    >>> fold([1, False, -3])
    [1, -3]
    >>> fold([1, True]) is None
    True
    >>> fold([False])
    []
    """
    out = []
    for lit in lits:
        if lit is True:
            return None
        if lit is not False:
            out.append(lit)
    return out


def neg_dimacs(lit: Lit) -> Lit:
    """The negation of a DIMACS literal (an int), constants staying Python bools.

    ``-True`` would be ``-1``, a literal, hence the test.

    Examples
    --------
    >>> neg_dimacs(5), neg_dimacs(-5), neg_dimacs(True)
    (-5, 5, False)
    """
    return (not lit) if isinstance(lit, bool) else -lit


def neg_cpsat(lit: Lit) -> Lit:
    """The negation of a CP-SAT Boolean literal, constants staying Python bools.

    ``~True`` would be ``-2``, hence the test.

    Examples
    --------
    >>> neg_cpsat(False)
    True
    """
    return (not lit) if isinstance(lit, bool) else ~lit


class Clauses:
    """Adds clauses to ``sink`` with their constants folded away (see :func:`fold`).

    Subclasses say how their literals are negated (:meth:`neg`).

    Parameters
    ----------
    sink : callable
        Called with each folded clause, a list of literals (e.g. ``list.append`` or
        ``CpModel.add_bool_or``).
    """

    def __init__(self, sink: Callable[[list[Lit]], Any]):
        self.sink = sink

    @staticmethod
    def neg(lit: Lit) -> Lit:
        """The negation of ``lit`` (constants stay Python bools)."""
        raise NotImplementedError

    def add(self, *lits: Lit) -> None:
        """Add the clause ``lits``: dropped if a literal is true, false literals removed."""
        out = fold(lits)
        if out is not None:
            self.sink(out)

    def implies(self, a: Lit, b: Lit) -> None:
        """Add ``a -> b`` (the clause ``not a or b``)."""
        self.add(self.neg(a), b)


class CnfClauses(Clauses):
    """:class:`Clauses` over DIMACS integer literals (python-sat)."""

    neg = staticmethod(neg_dimacs)


class CpsatClauses(Clauses):
    """:class:`Clauses` over CP-SAT Boolean literals, added as ``add_bool_or``.

    Parameters
    ----------
    model : ortools.sat.python.cp_model.CpModel
        The model the clauses go to.
    """

    neg = staticmethod(neg_cpsat)

    def __init__(self, model: Any):
        super().__init__(model.add_bool_or)
        self.model = model
