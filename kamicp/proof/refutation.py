"""Proof logs: the refutation of a horizon as a DAG of positions, written and checked.

A proof log says "the start cannot be solved in H moves" in a form a checker can redo
with nothing but the rules and cheap bounds: every position it names is either expanded
into all its moves or cut by a bound (``colours``, ``islands`` under free rules, ``layers``
and ``sweep`` under pivot rules), and each claim rests only on the lines before it. The
format, and why an accepted log proves the claim, are in ``encodings/certificates.md``; the
bounds in ``encodings/bounds.md`` (Bounds 1-5).

:func:`write_log` finds the refutation by a depth-first search with a table of the positions
already refuted (a transposition table: the log is a DAG of colourings) and no move pruning,
so it is larger than the searches' own trees, which cut with stronger bounds; a budget of
positions and a deadline stop it. :func:`check_log` checks a log with kamicp's rules engine
and bounds; ``kamicp/proof/standalone.py`` checks the same format with its own.
"""

from __future__ import annotations

import gzip
import io
from dataclasses import dataclass

from kamicp.bounds import (
    Current,
    colour_bound,
    contract,
    islands_bound,
    islands_bound_after,
    pivot_final,
    pivot_layer_bound,
)
from kamicp.bounds import solvable as solvable_from
from kamicp.game.regions import RegionGraph
from kamicp.plural import count, count_moves
from kamicp.procs.deadline import Deadline

__all__ = [
    "LOG_FORMAT",
    "LOG_POSITIONS",
    "LogCheck",
    "ProofLog",
    "check_log",
    "default_bound",
    "eliminating_colour",
    "sweep_bound",
    "write_log",
]

LOG_FORMAT = "kamicp-refutation 1"

# Claims a log may hold before the writer gives up for another kind of evidence: a check
# redoes about 30 child positions per claim in Python, so 300,000 claims take minutes to
# check, as long as the costlier DRAT check it replaces on the boards where it finishes.
LOG_POSITIONS = 300_000

INFINITE = 10**9  # the bound of a position that no sequence of moves solves


def default_bound(cur: Current, rules: str, final_colour: int | None) -> tuple[int, str]:
    """The best of the bounds a log needs no line for, and its name.

    Parameters
    ----------
    cur : Current
        The position.
    rules : str
        "free" or "pivot".
    final_colour : int or None
        The colour the board must end in; None: any.

    Returns
    -------
    (int, str)
        The bound's value and name (``colours``, ``islands``, ``layers`` or ``sweep``).

    Notes
    -----
    O(n + m) for the colour and layer bounds; the radius behind ``islands`` is updated from
    the position before a merging move when the position was played (``Current.play``).
    """
    colours = colour_bound(cur, final_colour)
    if rules == "pivot":
        if not _pivot_solvable(cur, final_colour):
            return INFINITE, "layers"
        layers, sweep = pivot_layer_bound(cur, final_colour), sweep_bound(cur, final_colour)
        return max((colours, "colours"), (layers, "layers"), (sweep, "sweep"), key=lambda b: b[0])
    islands = islands_bound(cur, final_colour)
    return (islands, "islands") if islands > colours else (colours, "colours")


def sweep_bound(cur: Current, final_colour: int | None = None) -> int:
    """Bound 5 (sweep, pivot rules) of a position that can be solved.

    The pivot's region floods its piece step by step: by the lowest colour other than F*
    all of whose regions left lie on its border (a colour-eliminating move), else by the
    whole border. The bound is the number of steps, or t + |the colours left at step t
    with F*| where larger. Outside the flood the current regions are starting regions
    (under pivot rules they never change), so the sweep runs on the current graph.

    Parameters
    ----------
    cur : Current
        The position.
    final_colour : int, optional
        The colour the board must end in; None: any.

    Returns
    -------
    int
        The bound.

    Notes
    -----
    O(steps x (n + m)). The compiled A* computes the same bound on bitsets
    (``kamicp/search/bitsets.py``); this one reads a position of the rules engine.
    """
    target = pivot_final(cur, final_colour)
    rest = set(cur.islands[cur.island_of[cur.pivot]]) - {cur.pivot}
    border = set(cur.adj[cur.pivot])
    steps = best = 0
    while border:
        left = {cur.pos[v] for v in rest}
        best = max(best, steps + len(left | ({target} - {None})))
        steps += 1
        gone = [c for c in sorted(left - {target})
                if all(v in border for v in rest if cur.pos[v] == c)]  # fmt: skip
        grab = border if not gone else {v for v in border if cur.pos[v] == gone[0]}
        rest -= grab
        border = (border | {u for v in grab for u in cur.adj[v]}) & rest
    return max(best, steps)


def eliminating_colour(cur: Current, final_colour: int | None = None) -> int | None:
    """Pivot rules: the lowest colour other than F* all of whose regions outside the pivot's
    region touch it, or None. A shortest solution may start with it (``encodings/bounds.md``,
    R7), so a log refutes that move alone (``F`` lines). O(n + m)."""
    target = pivot_final(cur, final_colour)
    border = cur.adj[cur.pivot]
    outside = [v for v in cur.nodes() if v != cur.pivot]
    for colour in sorted({cur.pos[v] for v in outside} - {target}):
        if all(v in border for v in outside if cur.pos[v] == colour):
            return colour
    return None


def bound_after(cur: Current, rules: str, final_colour: int | None, v: int, colour: int) -> int:
    """The default bound of the position after recolouring node ``v`` to ``colour``; under
    free rules read off ``cur`` without playing the move (``islands_bound_after``, equal to
    the islands bound of the played position, which is at least its colour bound)."""
    if rules == "free":
        return islands_bound_after(cur, v, colour, final_colour)[0]
    return default_bound(cur.play(v, colour), rules, final_colour)[0]


def _pivot_solvable(cur: Current, final_colour: int | None) -> bool:
    """Pivot rules: the regions outside the pivot's piece, which never change, share one
    colour (the final one, when it is given)."""
    home = cur.island_of[cur.pivot]
    others = {cur.pos[v] for i, piece in enumerate(cur.islands) if i != home for v in piece}
    if final_colour is not None:
        others.add(final_colour)
    return len(others) <= 1


@dataclass
class ProofLog:
    """A written log: its gzip bytes and what it holds."""

    data: bytes
    positions: int  # P lines
    claims: int  # E and C lines
    bounds: tuple[str, ...]  # the bounds named by C lines


class LogWriter:
    """The depth-first refutation behind :func:`write_log`."""

    def __init__(self, g: RegionGraph, final_colour, deadline: Deadline, limit: int):
        self.g, self.final = g, final_colour
        self.deadline, self.limit = deadline, limit
        self.lines: list[str] = []
        self.proved: dict[bytes, int] = {}  # colouring -> largest budget refuted
        self.positions = 0
        self.claims = 0
        self.named: set[str] = set()

    def claim(self, kind: str, pid: int, d: int, cur: Current, bound: str = "") -> None:
        """Record claim ``(pid, d)`` and remember it for the positions that repeat it."""
        self.lines.append(f"{kind} {pid} {d}" + (f" {bound}" if bound else ""))
        self.claims += 1
        if bound:
            self.named.add(bound)
        if self.proved.get(cur.pos, -1) < d:
            self.proved[cur.pos] = d

    def refute(self, cur: Current, pid: int, d: int) -> bool:
        """Log that ``cur`` (position ``pid``) cannot be solved in ``d`` moves; False when
        it can, or when the budget or the deadline ran out (``self.stopped`` tells which)."""
        if self.claims >= self.limit or self.deadline.expired():
            raise OutOfBudget
        if cur.is_solved(self.final):
            return False
        forced = eliminating_colour(cur, self.final) if self.g.rules == "pivot" else None
        if d > 0 and forced is not None:  # R7: that move alone needs refuting
            if not self.child(cur, pid, d - 1, cur.pivot, forced):
                return False
            self.claim("F", pid, d, cur)
            return True
        if d > 0:
            movers = [cur.pivot] if self.g.rules == "pivot" else cur.nodes()
            for v in movers:
                for colour in range(self.g.k):
                    if colour != cur.pos[v] and not self.child(cur, pid, d - 1, v, colour):
                        return False
        self.claim("E", pid, d, cur)
        return True

    def child(self, cur: Current, pid: int, d: int, v: int, colour: int) -> bool:
        """Cover the position after recolouring ``v`` to ``colour`` for ``d`` moves: by an
        earlier claim, a default bound, or a refutation logged now."""
        if self.proved.get(cur.pos_after(v, colour), -1) >= d:
            return True
        if bound_after(cur, self.g.rules, self.final, v, colour) > d:
            return True
        nxt = cur.play(v, colour)
        self.lines.append(f"P {pid} {v} {colour}")
        self.positions += 1
        return self.refute(nxt, self.positions, d)


class OutOfBudget(Exception):
    """The writer's budget of claims or its deadline ran out."""


def write_log(
    g: RegionGraph,
    horizon: int,
    final_colour: int | None = None,
    *,
    deadline: Deadline | None = None,
    limit: int = LOG_POSITIONS,
) -> ProofLog | None:
    """The proof log that ``g`` cannot be solved in ``horizon`` moves.

    Parameters
    ----------
    g : RegionGraph
        The puzzle, under its rules.
    horizon : int
        H: the log refutes every solution of at most H moves.
    final_colour : int, optional
        The colour the board must end in; None: any.
    deadline : Deadline, optional
        When to give up; None: no limit.
    limit : int
        The most claims the log may hold.

    Returns
    -------
    ProofLog or None
        The log, or None when the budget or the deadline ran out first.

    Raises
    ------
    ValueError
        When the board can be solved in ``horizon`` moves: there is nothing to refute.

    Notes
    -----
    Every move of the rules is followed from every position refuted; a position is refuted
    once per budget (the largest is remembered), and a child whose default bound exceeds
    the moves left needs no line. The work is that of a depth-first search over the
    positions the default bounds do not cut, O(claims x moves x (n + m)).

    Examples
    --------
    >>> from kamicp.game.regions import from_edges
    >>> g = from_edges([0, 1, 2, 0, 1, 2], [(i, (i + 1) % 6) for i in range(6)])
    >>> log = write_log(g, 3)  # the radius is 3, the optimum 4
    >>> log.claims, check_log(g, log.data, 3).ok
    (13, True)
    """
    deadline = deadline or Deadline.after(None)
    writer = LogWriter(g, final_colour, deadline, limit)
    start = contract(g)
    if not solvable_from(g, None, final_colour):
        writer.claim("C", 0, horizon, start, "layers" if g.rules == "pivot" else "colours")
    else:
        value, name = default_bound(start, g.rules, final_colour)
        try:
            if value > horizon:
                writer.claim("C", 0, horizon, start, name)
            elif not writer.refute(start, 0, horizon):
                raise ValueError(f"the board can be solved in {horizon} moves: nothing to refute")
        except OutOfBudget:
            return None
    final = "-" if final_colour is None else str(final_colour)
    head = [LOG_FORMAT, f"regions {g.n} colours {g.k} rules {g.rules} final {final}"]
    text = "\n".join([*head, f"horizon {horizon}", *writer.lines]) + "\n"
    data = gzip.compress(text.encode(), compresslevel=6, mtime=0)
    return ProofLog(data, writer.positions, writer.claims, tuple(sorted(writer.named)))


@dataclass
class LogCheck:
    """The verdict of :func:`check_log`: whether it holds, why not, and what it read."""

    ok: bool
    reason: str
    positions: int = 0
    claims: int = 0


def check_log(
    g: RegionGraph,
    data: bytes,
    horizon: int,
    final_colour: int | None = None,
    *,
    deadline: Deadline | None = None,
) -> LogCheck:
    """Check a proof log that ``g`` cannot be solved in ``horizon`` moves.

    Parameters
    ----------
    g : RegionGraph
        The puzzle, under the rules the log is for.
    data : bytes
        The log, gzip-compressed (``refutation.log.gz`` of a certificate).
    horizon : int
        H: the claim to check is "not solvable in H moves".
    final_colour : int, optional
        The colour the board must end in; None: any.
    deadline : Deadline, optional
        When to stop checking (the check then fails, saying so).

    Returns
    -------
    LogCheck
        ``ok`` when every line holds and the start is refuted for H; else the first
        problem, with its line number.

    Notes
    -----
    Lines are read in order and each claim is checked against the claims before it (so no
    cycle of claims can vouch for itself); every move of every expanded position is
    followed. O(lines x moves x (n + m)).
    """
    deadline = deadline or Deadline.after(None)
    try:
        text = gzip.decompress(data).decode()
    except (OSError, EOFError, UnicodeDecodeError, ValueError) as err:
        return LogCheck(False, f"not a gzip-compressed text log ({err})")
    reader = _Reader(g, final_colour, deadline)
    try:
        reader.read(io.StringIO(text), horizon)
    except _Bad as bad:
        return LogCheck(False, str(bad), reader.positions, reader.claims)
    best = reader.proved.get(bytes(g.colour), -1)
    if best < horizon:
        return LogCheck(False, f"the start is refuted for {best} moves, not {horizon}")
    claims = count(reader.claims, "claim")
    where = count(reader.positions + 1, "position")
    detail = f"{count_moves(horizon)} refuted: {claims} on {where}"
    return LogCheck(True, detail, reader.positions, reader.claims)


class _Bad(Exception):
    """A line of a log that does not hold; the message names it."""


class _Reader:
    """The line-by-line check behind :func:`check_log`."""

    def __init__(self, g: RegionGraph, final_colour, deadline: Deadline):
        self.g, self.final, self.deadline = g, final_colour, deadline
        self.at: list[Current] = [contract(g)]
        self.proved: dict[bytes, int] = {}
        self.positions = 0
        self.claims = 0

    def read(self, lines, horizon: int) -> None:
        """Check the header and every line; raise :class:`_Bad` at the first problem."""
        final = "-" if self.final is None else str(self.final)
        want = [LOG_FORMAT, f"regions {self.g.n} colours {self.g.k} rules {self.g.rules} "
                f"final {final}", f"horizon {horizon}"]  # fmt: skip
        for number, line in enumerate(lines, 1):
            line = line.rstrip("\n")
            if number <= len(want):
                if line != want[number - 1]:
                    raise _Bad(f"line {number}: {line!r}, expected {want[number - 1]!r}")
                continue
            if number % 1024 == 0 and self.deadline.expired():
                raise _Bad(f"line {number}: the time limit ran out")
            try:
                self.line(line.split(" "))
            except _Bad as bad:
                raise _Bad(f"line {number}: {bad}") from None
            except (ValueError, IndexError):
                raise _Bad(f"line {number}: {line[:60]!r} is not a record of the log") from None

    def line(self, fields: list[str]) -> None:
        """Check one record (split into its fields)."""
        kind = fields[0]
        if kind == "P" and len(fields) == 4:
            parent, region, colour = (int(x) for x in fields[1:])
            if not 0 <= parent < len(self.at):
                raise _Bad(f"position {parent} is not defined before")
            cur = self.at[parent]
            if not (0 <= region < self.g.n and 0 <= colour < self.g.k):
                raise _Bad(f"move {region}:{colour} is off the board")
            v = self._node(cur, region)
            if self.g.rules == "pivot" and v != cur.pivot:
                raise _Bad(f"move {region}:{colour} is not the pivot's (pivot rules)")
            if cur.pos[v] == colour:
                raise _Bad(f"move {region}:{colour} keeps its colour")
            self.at.append(cur.play(v, colour))
            self.positions += 1
        elif kind in ("E", "F", "C") and len(fields) == (4 if kind == "C" else 3):
            pid, d = int(fields[1]), int(fields[2])
            if not 0 <= pid < len(self.at) or d < 0:
                raise _Bad(f"claim on position {pid} with {d} moves: no such position")
            cur = self.at[pid]
            if kind == "E":
                self._expanded(cur, d)
            elif kind == "F":
                self._forced(cur, d)
            else:
                self._cut(cur, d, fields[3])
            self.claims += 1
            if self.proved.get(cur.pos, -1) < d:
                self.proved[cur.pos] = d
        else:
            raise ValueError(kind)

    def _node(self, cur: Current, region: int) -> int:
        """The current node holding starting region ``region``."""
        for v, members in cur.members.items():
            if region in members:
                return v
        raise _Bad(f"region {region} is in no current region")

    def _expanded(self, cur: Current, d: int) -> None:
        """``E``: the position is not solved, and every move leads to a covered one."""
        if cur.is_solved(self.final):
            raise _Bad("an expanded position is solved")
        if d == 0:
            return
        movers = [cur.pivot] if self.g.rules == "pivot" else cur.nodes()
        for v in movers:
            for colour in range(self.g.k):
                if colour == cur.pos[v] or self.proved.get(cur.pos_after(v, colour), -1) >= d - 1:
                    continue
                if bound_after(cur, self.g.rules, self.final, v, colour) <= d - 1:
                    raise _Bad(f"the move {v}:{colour} leads to a position not refuted for {d - 1}")

    def _forced(self, cur: Current, d: int) -> None:
        """``F`` (pivot rules): the position is not solved, and the colour-eliminating move
        (R7) leads to a covered one."""
        if self.g.rules != "pivot":
            raise _Bad("F: a forced move is a pivot-rule claim")
        if cur.is_solved(self.final):
            raise _Bad("a forced position is solved")
        colour = eliminating_colour(cur, self.final)
        if colour is None:
            raise _Bad("F: no colour-eliminating move here")
        if d > 0 and self.proved.get(cur.pos_after(cur.pivot, colour), -1) < d - 1:
            value, _ = default_bound(cur.play(cur.pivot, colour), "pivot", self.final)
            if value <= d - 1:
                raise _Bad(f"the forced move to {colour} leads to a position not refuted")

    def _cut(self, cur: Current, d: int, name: str) -> None:
        """``C``: the named bound of the position exceeds ``d``."""
        if name == "colours":
            value = colour_bound(cur, self.final)
        elif name == "islands" and self.g.rules == "free":
            value = islands_bound(cur, self.final)
        elif name in ("layers", "sweep") and self.g.rules == "pivot":
            bound = pivot_layer_bound if name == "layers" else sweep_bound
            solvable = _pivot_solvable(cur, self.final)
            value = bound(cur, self.final) if solvable else INFINITE
        else:
            raise _Bad(f"no bound {name!r} under {self.g.rules} rules")
        if value <= d:
            raise _Bad(f"bound {name} is {value}, not above {d}")
