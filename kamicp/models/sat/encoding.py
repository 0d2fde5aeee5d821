"""The CNF encoding of a puzzle, grown horizon by horizon (``encodings/sat.md``).

:func:`encoding` puts together what an encoding has: a :class:`kamicp.models.sat.formula.Formula`
for its clauses, the final colour (one group for every horizon, sat.md (S8)), and the clauses
of its rule set, :class:`kamicp.models.sat.free.FreeClauses` or
:class:`kamicp.models.sat.pivot.PivotClauses` (a :class:`RuleClauses`). :class:`Encoding`
adds the step layers on demand and one goal per horizon, switched on by the literal
``('goal', T)`` when *guarded* (incremental use), hard when *fixed* (one horizon, for DIMACS
and proofs): sat.md, "Incremental use".
"""

from __future__ import annotations

from typing import Protocol

from kamicp.game.regions import RegionGraph
from kamicp.game.rules import Move
from kamicp.models.clauses import Lit
from kamicp.models.sat.formula import Formula
from kamicp.models.sat.free import FreeClauses
from kamicp.models.sat.pivot import PivotClauses

__all__ = ["RADIUS_OPTIONS", "RuleClauses", "Encoding", "final_colours", "encoding"]

RADIUS_OPTIONS = ("layers", "exact", "off")


class RuleClauses(Protocol):
    """What :class:`Encoding` asks of a rule set's clauses."""

    def layer(self, t: int) -> None:
        """Add the variables and clauses of step ``t`` (steps come in order 1, 2, ...)."""

    def goal(self, horizon: int, guard: Lit) -> None:
        """Add "solved after step ``horizon``" and the bounds of that horizon, under ``guard``."""

    def moves(self, true: set[int], horizon: int) -> list[Move]:
        """The moves of an assignment whose true variables are ``true``, padding dropped."""


class Encoding:
    """A puzzle's clauses, with the step layers and the goals of the horizons asked so far.

    Parameters
    ----------
    formula : Formula
        Where the clauses go.
    rules : RuleClauses
        The clauses of the puzzle's rule set, writing to ``formula``.
    guarded : bool
        True: every goal is switched on by an assumption (incremental use); False: the
        goals are hard (one horizon).

    Examples
    --------
    >>> from kamicp.game.regions import from_edges
    >>> enc = encoding(from_edges([0, 1, 0], [(0, 1), (1, 2)]), guarded=False)
    >>> enc.horizon(1), enc.formula.emitted > 0
    (True, True)
    """

    def __init__(self, formula: Formula, rules: RuleClauses, guarded: bool = True):
        self.formula = formula
        self.rules = rules
        self.guarded = guarded
        self.layers = 0
        self.goals: dict[int, Lit] = {}

    def grow(self, horizon: int) -> None:
        """Add the step layers 1..horizon that do not exist yet."""
        while self.layers < horizon:
            self.layers += 1
            self.rules.layer(self.layers)

    def horizon(self, horizon: int) -> Lit:
        """Encode "solved after ``horizon``" steps; returns the guard to assume (True if fixed)."""
        self.grow(horizon)
        if horizon not in self.goals:
            guard = self.formula.var(("goal", horizon)) if self.guarded else True
            self.goals[horizon] = guard
            self.rules.goal(horizon, guard)
        return self.goals[horizon]

    def take(self) -> list[list[int]]:
        """The clauses added since the last call (for an incremental solver)."""
        return self.formula.take()

    def names(self) -> dict[int, tuple]:
        """Every variable's name, by variable."""
        return self.formula.names()

    def moves(self, model: list[int], horizon: int) -> list[Move]:
        """The moves of a satisfying assignment ``model``, padding dropped."""
        return self.rules.moves({lit for lit in model if lit > 0}, horizon)


def final_colours(formula: Formula, k: int, final_colour: int | None) -> list[int]:
    """The final colour's variables ``('f', c)``: exactly one, ``final_colour``'s if given.

    One group shared by every horizon (sat.md (S8)): only one goal is assumed at a time, and
    a padded solution fixes it ("Incremental use").
    """
    final = [formula.var(("f", c)) for c in range(k)]
    formula.exactly_one(final, "final colour")
    if final_colour is not None:
        formula.add(final[final_colour])
    return final


def encoding(
    g: RegionGraph,
    final_colour: int | None = None,
    guarded: bool = True,
    symmetry: bool = True,
    radius: str | bool = "layers",
    diameter: bool = False,
) -> Encoding:
    """The CNF encoding of ``g`` under its rule set, with no step layer yet.

    Parameters
    ----------
    g : RegionGraph
        The puzzle; ``g.rules`` picks :class:`kamicp.models.sat.pivot.PivotClauses` or
        :class:`kamicp.models.sat.free.FreeClauses`.
    final_colour : int or None
        The colour the board must end in, or None for any.
    guarded : bool
        Goals switched on by assumptions (incremental) or hard (one horizon).
    symmetry : bool
        Add the rules that remove solutions (sat.md, "Symmetry breaking").
    radius : {"layers", "exact", "off"} or bool
        The free rules' radius bound (sat.md, "Radius (free rules)"); True is "layers".
    diameter : bool
        Add the diameter form of the radius bound.

    Returns
    -------
    Encoding
        The encoding.

    Raises
    ------
    ValueError
        If ``final_colour`` is outside the palette or ``radius`` is not an option.
    """
    if final_colour is not None and not 0 <= final_colour < g.k:
        raise ValueError(f"final colour {final_colour} is outside the palette of {g.k}")
    radius = {True: "layers", False: "off"}.get(radius, radius)
    if radius not in RADIUS_OPTIONS:
        raise ValueError(f"radius option {radius!r}: one of {RADIUS_OPTIONS}")
    formula = Formula()
    final = final_colours(formula, g.k, final_colour)
    if g.rules == "pivot":
        rules: RuleClauses = PivotClauses(formula, g, final, symmetry)
    else:
        rules = FreeClauses(formula, g, final, symmetry, radius, diameter)
    return Encoding(formula, rules, guarded)
