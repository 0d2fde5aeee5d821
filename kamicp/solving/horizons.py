"""Raise the horizon: an exact model asked "solvable in at most T moves?" until the bounds meet.

The exact solvers (``cpsat``, ``sat``) answer one horizon at a time (:mod:`kamicp.result`'s
``HorizonSolver``). :class:`Horizons` starts from the best admissible lower bound
(:mod:`kamicp.bounds`) and the beam's solution
(:mod:`kamicp.solving.upper_bound`) and asks the
horizons its strategy chooses (:data:`STRATEGIES`): every "no" is a proof that raises the
lower bound, every "yes" a replayed solution that lowers the upper bound, so "optimal" is
said only when the two meet, and the proof names the horizon refuted. ``--max-moves N``
asks one horizon (:func:`exact`). A free-rule board in pieces is solved piece by piece
(:func:`exact`'s islands: each piece's optimum per final colour, then the cheapest colour),
which is exact because a move acts on one piece only (encodings/bounds.md, "Islands").

Example (a cycle of seven regions in three colours: the admissible bound says 3, SAT
refutes horizon 3 and solves 4)::

    >>> from kamicp.game.regions import from_edges
    >>> from kamicp.models.sat.horizon import SatHorizon
    >>> cycle = [(i, (i + 1) % 7) for i in range(7)]
    >>> g = from_edges([2, 0, 2, 1, 2, 0, 1], cycle)
    >>> factory = lambda g, fc: SatHorizon(g, final_colour=fc)
    >>> r = exact(g, factory, SolveOptions(), Deadline.after(60))
    >>> r.status, r.moves, r.proof
    ('optimal', 4, 'horizon 3 proved infeasible')
"""

from __future__ import annotations

import time
from collections.abc import Callable

from kamicp import bounds
from kamicp.game import rules
from kamicp.game.regions import RegionGraph, subgraph
from kamicp.plural import count
from kamicp.procs.deadline import Deadline, LimitReached
from kamicp.procs.progress import listening, say, tell
from kamicp.result import SAT, UNSAT, Decision, HorizonSolver, Result
from kamicp.search import pivot_astar
from kamicp.solving.options import DEFAULT_STRATEGY, STRATEGIES, SolveOptions
from kamicp.solving.upper_bound import greedy_solution, never, unknown

__all__ = ["DEFAULT_STRATEGY", "STRATEGIES", "Horizons", "exact", "horizon_factory"]


def horizon_factory(solver: str, workers: int = 1) -> Callable[..., HorizonSolver]:
    """The constructor of an exact model: called as ``factory(g, final_colour)``."""
    if solver == "cpsat":
        from kamicp.models.cpsat.horizon import CpsatHorizon

        return lambda g, fc: CpsatHorizon(g, final_colour=fc, workers=workers)
    if solver == "sat":
        from kamicp.models.sat.horizon import SatHorizon

        return lambda g, fc: SatHorizon(g, final_colour=fc)
    raise ValueError(f"unknown exact solver {solver!r}")


class Horizons:
    """Raise the horizon of one connected piece; remembers what was proved."""

    def __init__(
        self,
        g: RegionGraph,
        factory,
        final_colour: int | None,
        strategy: str = DEFAULT_STRATEGY,
        deadline: float | None = None,
        beam: bool = True,
    ):
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {strategy!r} (one of {', '.join(STRATEGIES)})")
        self.strategy = strategy
        self.g = g
        self.factory = factory
        self.final_colour = final_colour
        self.model: HorizonSolver | None = None
        self.lower = bounds.lower_bound(g, final_colour=final_colour)
        # the first upper bound: the wide beam within the time limit, else the quick one's
        self.best = None
        if beam:
            self.best = greedy_solution(g, final_colour, lower=self.lower, deadline=deadline)
        self.decisions: list[Decision] = []
        self.refuted: int | None = None  # the largest horizon proved infeasible
        self.probed = False  # True when IDA* proved the optimum
        self.shortened = None  # the last solution that shorten() tried
        self.whole = False  # True when this is the whole board (not one of its pieces)

    @property
    def upper(self) -> int | None:
        return None if self.best is None else len(self.best)

    def decide(self, horizon: int, clock: Deadline) -> Decision:
        if self.model is None:
            self.model = self.factory(self.g, self.final_colour)
            if listening() and hasattr(self.model, "on_status"):
                self.model.on_status = self._say
        d = self.model.decide(horizon, clock.left())
        self.decisions.append(d)
        if d.status == SAT:
            rules.verify_solution(self.g, d.moves, self.final_colour)
            if self.upper is None or len(d.moves) < self.upper:
                self.best = d.moves
        elif d.status == UNSAT:
            self.lower = max(self.lower, horizon + 1)
            self.refuted = max(horizon, self.refuted or -1)
        self.report()
        return d

    def _say(self, text: str) -> None:
        """How the model's current horizon stands, named after the model (and the piece)."""
        piece = "" if self.whole else f" (a piece of {count(self.g.n, 'region')})"
        say(f"{self.model.name}: {text}{piece}")

    def report(self) -> None:
        """Tell the bounds of the whole board to whoever listens (``progress.tell``:
        the parent of a contained run, a portfolio, ``--progress``)."""
        if self.whole:
            tell(self.lower, self.best)

    def probe(self, clock: Deadline, seconds: float) -> None:
        """A short IDA* first: it proves shallow optima outright, and every iteration it
        completes raises the lower bound, so the model starts from a higher horizon.

        IDA* with admissible bounds is exhaustive below its threshold, so the lower bound
        it reports when stopped is proved (see encodings/bounds.md).
        """
        left = clock.left()
        budget = seconds if left is None else min(seconds, left / 4)
        if budget <= 0 or self.upper == self.lower:
            return
        from kamicp.search import ida  # only where a probe is asked: IDA* loads in 16 ms

        out = ida.idastar(
            self.g,
            final_colour=self.final_colour,
            deadline=time.monotonic() + budget,
            lower=self.lower,
        )
        self.lower = max(self.lower, out.lower_bound)
        if out.moves is not None:
            rules.verify_solution(self.g, out.moves, self.final_colour)
            if self.upper is None or len(out.moves) < self.upper:
                self.best = out.moves
            if out.complete:
                self.lower = len(out.moves)
                self.probed = True
        self.report()

    def optimum(self, clock: Deadline, probe_seconds: float = 0.0) -> bool:
        """Close the gap between lower and upper bound; False when time ran out.

        ``self.strategy`` (see :data:`STRATEGIES`) chooses the horizons asked: ``up`` raises
        the horizon from the lower bound (every "no" raises the bound, the first "yes" is
        optimal); ``down`` asks the lower bound once (often the optimum), then lowers the
        horizon below the best solution until a "no" (only the last horizon is refuted);
        ``bisect`` asks the middle of the gap. All stop with lower = upper.
        """
        if probe_seconds:
            self.probe(clock, probe_seconds)
        first = True
        while self.upper is None or self.lower < self.upper:
            if clock.expired():
                return False
            if self.strategy == "down" and self.g.rules == "pivot":
                self.shorten(clock)
                if self.upper is not None and self.lower >= self.upper:
                    break
            horizon = self._next_horizon(first)
            first = False
            # A "yes" lowers the upper bound, a "no" raises the lower one (see decide).
            if self.decide(horizon, clock).status not in (SAT, UNSAT):
                return False
        return True

    def shorten(self, clock: Deadline) -> None:
        """Under pivot rules, shorten the best solution by the A* around it
        (:func:`~kamicp.search.pivot_astar.shorten`) as far as it goes, once per solution:
        each move it saves is a SAT call fewer, and the last call that finds a solution is
        often the hardest (BENCHMARKS.md, "Pivot rules: the default route")."""
        while self.best is not None and self.best is not self.shortened:
            self.shortened = self.best
            shorter = pivot_astar.shorten(self.g, self.best, self.final_colour, deadline=clock.at)
            if shorter is not None:  # shorter than the best, and replayed here
                rules.verify_solution(self.g, shorter, self.final_colour)
                self.best = shorter
                self.report()

    def _next_horizon(self, first: bool) -> int:
        if self.strategy == "up" or first or self.upper is None:
            return self.lower
        if self.strategy == "down":
            return self.upper - 1
        return (self.lower + self.upper - 1) // 2  # bisect

    def proof(self) -> str:
        if self.probed:
            return "IDA* with admissible bounds (exhaustive below the optimum)"
        if self.refuted is not None and self.refuted + 1 == self.lower:
            return f"horizon {self.refuted} proved infeasible"
        return f"admissible lower bound {self.lower}"


def exact(g: RegionGraph, factory, options: SolveOptions, clock: Deadline) -> Result:
    """Solve ``g`` by asking an exact model the horizons of ``options.strategy``.

    Parameters
    ----------
    g : RegionGraph
        The board.
    factory : callable
        Makes the model: ``factory(g, final_colour)`` (:func:`horizon_factory`).
    options : SolveOptions
        ``max_moves`` (one horizon asked), ``final_colour``, ``probe``, ``strategy``,
        ``known`` (a first solution) and ``lower`` (a bound the caller proved) are used.
    clock : Deadline
        When to stop; the answer then holds the bounds proved so far.

    Returns
    -------
    Result
        Its ``solver`` left empty; ``optimal`` only where a refuted horizon or the
        admissible bound meets a replayed solution.
    """
    o = options
    if not bounds.solvable(g, rules.start(g), o.final_colour):
        return never(g, o.final_colour)
    if g.rules == "free" and len(g.islands) > 1:
        # Pieces are solved one by one, each to optimality; a known solution of the whole
        # board does not split into them, so it is not used here.
        return _islands(g, factory, o, clock)
    # Raising the horizon needs no upper bound to choose it: given a solution to report, it
    # starts at once, without the beam (1.3 s on an 18x18 Flood-It board of eight colours,
    # where the portfolio's other SAT run computes it anyway).
    beam = o.known is None or o.strategy != "up"
    h = Horizons(g, factory, o.final_colour, o.strategy, clock.at, beam)
    h.whole = True
    h.lower = max(h.lower, o.lower)  # proved by the caller (the compiled A*, say)
    if o.known is not None and (h.upper is None or len(o.known) < h.upper):
        h.best = list(o.known)
    h.report()  # the beam's solution at once, not after the first horizon (minutes, maybe)
    try:
        if o.max_moves is not None:
            return _decide_max(h, o.max_moves, clock)
        done = h.optimum(clock, o.probe)
    except KeyboardInterrupt:
        done = False
    return _from_horizons(h, done)


def _decide_max(h: Horizons, max_moves: int, clock: Deadline) -> Result:
    """Answer "solvable in at most ``max_moves``?" with one horizon."""
    if h.lower > max_moves:
        return Result("infeasible", None, h.lower, h.upper, "", proof=h.proof())
    if h.upper is not None and h.upper <= max_moves:
        return _from_horizons(h, h.upper == h.lower, max_moves)
    try:
        d = h.decide(max_moves, clock)
    except KeyboardInterrupt:
        d = None
    if d is not None and d.status == SAT:
        return _from_horizons(h, h.upper == h.lower, max_moves)
    if d is not None and d.status == UNSAT:
        return Result(
            "infeasible", None, h.lower, h.upper, "", proof=h.proof(), horizons=h.decisions
        )
    return _from_horizons(h, False, max_moves)


def _from_horizons(h: Horizons, done: bool, max_moves: int | None = None) -> Result:
    """Optimal with a proof; feasible with a solution (within ``max_moves``); else unknown."""
    if done:
        status = "optimal"
    elif h.best is not None and (max_moves is None or len(h.best) <= max_moves):
        status = "feasible"
    else:
        status = "unknown"
    return Result(
        status=status,
        solution=h.best,
        lower_bound=h.lower,
        upper_bound=h.upper,
        solver="",
        proof=h.proof() if done else "time limit or interrupt: bounds only",
        horizons=h.decisions,
    )


def _islands(g: RegionGraph, factory, options: SolveOptions, clock: Deadline) -> Result:
    """Free rules on a board in pieces: solve each piece, then choose the final colour.

    Exact because pieces never touch, so each move acts on one piece, and a piece can be
    brought to colour c in opt(piece) moves or, failing that, opt(piece) + 1 (one more move
    recolours the solved piece). So only "solvable at opt(piece) ending in c?" is asked.
    """
    final_colour, max_moves = options.final_colour, options.max_moves
    colours = range(g.k) if final_colour is None else [final_colour]
    pieces = []  # (regions, {colour: an optimal solution of the piece ending in it})
    try:
        for regions in g.islands:
            piece = subgraph(g, regions)
            pieces.append((regions, _piece_costs(piece, factory, colours, clock, options)))
    except LimitReached:
        return unknown(g, final_colour, "time limit or interrupt: bounds only")
    best_colour = min(colours, key=lambda c: sum(len(cost[c]) for _, cost in pieces))
    moves = []
    for regions, cost in pieces:
        moves.extend((regions[r], c) for r, c in cost[best_colour])
    n = len(moves)
    if max_moves is not None and n > max_moves:
        return Result("infeasible", None, n, n, "", proof=f"optimum {n} proved piece by piece")
    return Result(
        "optimal", moves, n, n, "", proof=f"{count(len(pieces), 'piece')}, each proved optimal"
    )


def _piece_costs(piece: RegionGraph, factory, colours, clock, options: SolveOptions) -> dict:
    """For each final colour c, an optimal solution of ``piece`` ending in c."""
    h = Horizons(piece, factory, None, options.strategy, clock.at)
    try:
        if not h.optimum(clock, options.probe):
            raise LimitReached
    except KeyboardInterrupt:
        raise LimitReached from None
    opt = h.upper
    costs = {}
    for c in colours:
        if rules.replay(piece, h.best)[0] == c:
            costs[c] = h.best
            continue
        hc = Horizons(piece, factory, c, deadline=clock.at)
        hc.lower = max(hc.lower, opt)
        d = hc.decide(opt, clock) if opt >= hc.lower else None
        if d is not None and d.status == SAT:
            costs[c] = d.moves
        elif d is None or d.status == UNSAT:
            # One more move recolours the solved piece: opt + 1 is then optimal for c.
            costs[c] = h.best + [(0, c)]
            rules.verify_solution(piece, costs[c], c)
        else:
            raise LimitReached
    return costs
