"""The shared part of the CNF encodings of flood-fill over a horizon of T moves.

:class:`Encoding` holds what the free-rule and pivot-rule encodings share (``encodings/sat.md``,
"Setting" and "Incremental use"): the clause store, with constants folded away by
:class:`kamicp.models.clauses.CnfClauses`; exactly-one and counting constraints from
python-sat's :mod:`pysat.card`; the step layers grown on demand; and one goal per horizon,
switched on by the literal ``('goal', T)`` when *guarded* (incremental use), hard when *fixed*
(one horizon, for DIMACS and proofs). The rule sets are :mod:`kamicp.models.sat.free` and
:mod:`kamicp.models.sat.pivot`.

Cardinality encodings (all through :mod:`pysat.card`): exactly-one is pairwise up to 6
literals, else the ladder (I. P. Gent and P. Nightingale, "A new encoding of AllDifferent
into SAT", ModRef 2004); counters are incremental totalizers (O. Bailleux and Y. Boufkhad,
"Efficient CNF encoding of Boolean cardinality constraints", CP 2003; R. Martins et al.,
"Incremental cardinality constraints for MaxSAT", CP 2014).

Variables come from a :class:`pysat.formula.IDPool` under readable names such as
``('x', t, r, c)`` (:func:`kamicp.models.sat.variables.describe` says what each means); the
construction is deterministic, so one puzzle always gives the same CNF ("Determinism and
DIMACS").
"""

from __future__ import annotations

from pysat.card import CardEnc, EncType, ITotalizer
from pysat.formula import IDPool

from kamicp.game.regions import RegionGraph
from kamicp.game.rules import Move
from kamicp.models.clauses import CnfClauses, Lit, neg_dimacs

__all__ = ["RADIUS_OPTIONS", "Encoding"]

RADIUS_OPTIONS = ("layers", "exact", "off")


class Encoding(CnfClauses):
    """What both rule sets share: the clause store, one-hot and counting helpers, goals.

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    final_colour : int or None
        The colour the board must end in, or None for any.
    guarded : bool
        True: every goal is switched on by an assumption (incremental use); False: the
        goal is hard (one horizon).
    symmetry : bool
        Add the rules that remove solutions (sat.md, "Symmetry breaking").
    radius : {"layers", "exact", "off"} or bool
        The free rules' radius bound (sat.md, "Radius (free rules)"); True is "layers".
    diameter : bool
        Add the diameter form of the radius bound.

    Raises
    ------
    ValueError
        If ``final_colour`` is outside the palette or ``radius`` is not an option.

    Notes
    -----
    ``clauses`` holds the clauses not yet handed out; :meth:`take` hands them to an
    incremental solver (and forgets them); :attr:`emitted` counts every clause made.
    Subclasses give :meth:`start`, :meth:`layer`, :meth:`goal` and :meth:`moves`.
    """

    def __init__(
        self,
        g: RegionGraph,
        final_colour: int | None = None,
        guarded: bool = True,
        symmetry: bool = True,
        radius: str | bool = "layers",
        diameter: bool = False,
    ):
        if final_colour is not None and not 0 <= final_colour < g.k:
            raise ValueError(f"final colour {final_colour} is outside the palette of {g.k}")
        self.clauses: list[list[int]] = []
        super().__init__(self.clauses.append)
        self.g = g
        self.final_colour = final_colour
        self.guarded = guarded
        self.symmetry = symmetry
        self.radius = {True: "layers", False: "off"}.get(radius, radius)
        self.diameter = diameter
        if self.radius not in RADIUS_OPTIONS:
            raise ValueError(f"radius option {radius!r}: one of {RADIUS_OPTIONS}")
        self.pool = IDPool()
        self.taken = 0  # clauses handed out by take()
        self.aux: list[tuple[int, int, str]] = []  # unnamed variables of CardEnc / ITotalizer
        self.layers = 0
        self.goals: dict[int, Lit] = {}
        self.counters: dict[object, tuple[int, list[int]]] = {}
        self.built: set[tuple] = set()  # parts made on first use (radius layers)
        # The final colour is one variable group shared by every horizon: only one goal is
        # assumed at a time, and a padded solution fixes it (see sat.md, "Incremental use").
        self.fcol = [self.var(("f", c)) for c in range(g.k)]
        self.exactly_one(self.fcol, "final colour")
        if final_colour is not None:
            self.add(self.fcol[final_colour])
        self.start()

    # -- clause store -------------------------------------------------------------------

    def var(self, name: tuple) -> int:
        """The variable named ``name`` (made on first use)."""
        return self.pool.id(name)

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

    def _aux(self, before: int, label: str) -> None:
        if self.pool.top > before:
            self.aux.append((before + 1, self.pool.top, label))

    # -- cardinality (sat.md, "Bounds (implied constraints)") ---------------------------

    def exactly_one(self, lits: list[Lit], label: str) -> None:
        """Exactly one of ``lits`` (CardEnc: pairwise up to 6 literals, else a ladder)."""
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
        self._aux(before, label)

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

    def counter(self, key: object, lits: list[Lit], label: str) -> None:
        """A unary counter (pysat's ITotalizer) of ``lits`` under ``key``, for :meth:`bound`.

        O(len(lits)^2) clauses; the outputs say "at least i + 1 are true" (upwards only).
        """
        offset = sum(1 for lit in lits if lit is True)
        free = [lit for lit in lits if not isinstance(lit, bool)]
        rhs: list[int] = []
        if len(free) == 1:
            rhs = free
        elif free:
            before = self.pool.top
            tot = ITotalizer(lits=free, ubound=len(free), top_id=before)
            for clause in tot.cnf.clauses:
                self.add(*clause)
            rhs = list(tot.rhs)
            # The totalizer numbered its variables above the pool's top: claim them.
            self.pool.top = max(self.pool.top, tot.top_id)
            tot.delete()
            self._aux(before, label)
        self.counters[key] = (offset, rhs)

    def bound(self, key: object, most: int, *conditions: Lit) -> None:
        """``conditions`` imply: at most ``most`` of the literals counted under ``key``."""
        offset, rhs = self.counters[key]
        index = most - offset
        unless = [neg_dimacs(lit) for lit in conditions]
        if index < 0:
            self.add(*unless)
        elif index < len(rhs):
            self.add(*unless, -rhs[index])

    # -- horizons (sat.md, "Incremental use") -------------------------------------------

    def grow(self, horizon: int) -> None:
        """Add the step layers 1..horizon that do not exist yet."""
        while self.layers < horizon:
            self.layers += 1
            self.layer(self.layers)

    def horizon(self, horizon: int) -> Lit:
        """Encode "solved after ``horizon`` steps"; returns the guard to assume (True if fixed)."""
        self.grow(horizon)
        if horizon not in self.goals:
            guard = self.var(("goal", horizon)) if self.guarded else True
            self.goals[horizon] = guard
            self.goal(horizon, guard)
        return self.goals[horizon]

    def names(self) -> dict[int, tuple]:
        """Every variable's name (auxiliary ones as ``('aux', label)``), by variable."""
        out = {v: name for v, name in self.pool.id2obj.items()}
        for lo, hi, label in self.aux:
            for v in range(lo, hi + 1):
                out.setdefault(v, ("aux", label))
        return dict(sorted(out.items()))

    # -- per rule set -------------------------------------------------------------------

    def start(self) -> None:
        """Set up what time 0 needs (called once, by the constructor)."""
        raise NotImplementedError

    def layer(self, t: int) -> None:
        """Add the variables and clauses of step ``t``."""
        raise NotImplementedError

    def goal(self, horizon: int, guard: Lit) -> None:
        """Add "solved after step ``horizon``", switched on by ``guard``."""
        raise NotImplementedError

    def moves(self, model: list[int], horizon: int) -> list[Move]:
        """The moves of a satisfying assignment ``model``, padding dropped."""
        raise NotImplementedError
