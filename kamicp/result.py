"""What solvers answer: one horizon's decision, and a whole solve's result.

Statuses of a solve:
- ``optimal``: a solution of ``moves`` moves and a proof that none is shorter
  (``lower_bound == moves``); ``proof`` says which (an infeasible horizon or a bound);
- ``feasible``: a solution, optimality not proved;
- ``infeasible``: proved that no solution has at most ``max_moves`` moves;
- ``unknown``: a time or node limit was hit; the bounds are what was proved.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from kamicp.game.rules import Move

__all__ = [
    "SAT",
    "STATUSES",
    "UNKNOWN",
    "UNSAT",
    "Decision",
    "HorizonSolver",
    "Result",
    "SearchOutcome",
]

SAT, UNSAT, UNKNOWN = "sat", "unsat", "unknown"
STATUSES = ("optimal", "feasible", "infeasible", "unknown")


@dataclass
class Decision:
    """The answer to "solvable in at most ``horizon`` moves?".

    ``moves`` (without padding) is set when ``status == SAT``.
    """

    status: str
    horizon: int
    moves: list[Move] | None = None
    seconds: float = 0.0


class HorizonSolver(Protocol):
    """A model that decides one horizon at a time (CP-SAT, SAT).

    Built once per region graph (and final colour); ``decide`` may be called with rising
    horizons, so an incremental backend keeps what it learnt.
    """

    name: str

    def decide(self, horizon: int, time_limit: float | None = None) -> Decision: ...


@dataclass
class Result:
    """The outcome of ``solve``; ``solution`` has been replayed by the rules engine."""

    status: str
    solution: list[Move] | None
    lower_bound: int
    upper_bound: int | None
    solver: str
    seconds: float = 0.0
    proof: str = ""
    horizons: list[Decision] = field(default_factory=list)
    interrupted: bool = False  # stopped by Ctrl-C: a caller running more solves should stop

    @property
    def moves(self) -> int | None:
        """The solution's length, or None without a solution."""
        return None if self.solution is None else len(self.solution)

    @property
    def bounds(self) -> tuple[int, int | None]:
        """``(lower_bound, upper_bound)``: what is proved about the optimum."""
        return self.lower_bound, self.upper_bound


@dataclass
class SearchOutcome:
    """What a reference search (BFS, A*, IDA*, greedy) found.

    ``complete`` is True when the search proved its answer: ``moves`` is optimal, or (with
    ``moves is None``) no solution has at most the move limit it was given. ``lower_bound``
    is a proven lower bound on the optimum in every case.
    """

    moves: list[Move] | None
    lower_bound: int
    complete: bool
    nodes: int = 0
