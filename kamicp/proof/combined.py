"""Proof logs written by several processes: one task a move from the start, the tasks' logs
combined into one.

A proof log (:mod:`kamicp.proof.refutation`) is a list of lines in which each position is
introduced by a ``P`` line (numbered in the order of those lines, the start 0) and each
claim rests only on earlier lines. So the refutation of "the start in H moves" splits into
independent tasks, one for each move from the start that no default bound cuts (moves that
give the same colouring are one task): each worker writes the log of its child in H - 1
moves as if the child were position 0. Combining them is renumbering: the child's own
``P 0 v c`` line comes first, giving it the next number p, and every position number x of
its task's lines becomes p + x (its ``P`` lines then number on from p, as the checker
counts). The start's claim ``E 0 H`` comes last: every move from the start is then covered
by a task's claim on its colouring or by a default bound, as a one-process log would have
it. Both checkers read the result as any other log (``encodings/certificates.md``).

Examples
--------
>>> from kamicp.game.regions import from_edges
>>> from kamicp.proof.refutation import check_log
>>> g = from_edges([0, 1, 2, 0, 1, 2], [(i, (i + 1) % 6) for i in range(6)])
>>> log = write_log_split(g, 3, workers=2)  # the optimum is 4
>>> check_log(g, log.data, 3).ok
True
"""

from __future__ import annotations

import gzip
import multiprocessing as mp
from concurrent.futures import ProcessPoolExecutor

from kamicp.bounds import Current, contract
from kamicp.game.regions import RegionGraph
from kamicp.procs.deadline import Deadline
from kamicp.proof.refutation import (
    LOG_FORMAT,
    LOG_POSITIONS,
    LogWriter,
    OutOfBudget,
    ProofLog,
    bound_after,
    eliminating_colour,
    write_log,
)

__all__ = ["write_log_split"]


def write_log_split(
    g: RegionGraph,
    horizon: int,
    final_colour: int | None = None,
    *,
    deadline: Deadline | None = None,
    limit: int = LOG_POSITIONS,
    workers: int = 2,
) -> ProofLog | None:
    """:func:`~kamicp.proof.refutation.write_log`, its tasks on ``workers`` processes.

    Parameters
    ----------
    g, horizon, final_colour, deadline, limit
        As for :func:`~kamicp.proof.refutation.write_log`; ``limit`` holds for the
        combined log.
    workers : int
        Processes (forked); 1, or a start with a single task, writes on this one.

    Returns
    -------
    ProofLog or None
        The combined log, or None when the budget or the deadline ran out first.

    Raises
    ------
    ValueError
        When the board can be solved in ``horizon`` moves.

    Notes
    -----
    The same work as :func:`~kamicp.proof.refutation.write_log` but for the positions two
    tasks both meet, which each refutes (the tasks share no table): the log may be longer.
    """
    deadline = deadline or Deadline.after(None)
    start = contract(g)
    children = _tasks(g, start, horizon, final_colour)
    if workers <= 1 or children is None or len(children) < 2:
        return write_log(g, horizon, final_colour, deadline=deadline, limit=limit)
    jobs = [(g, start, v, c, horizon - 1, final_colour, deadline.at, limit) for v, c in children]
    with ProcessPoolExecutor(workers, mp_context=mp.get_context("fork")) as pool:
        parts = list(pool.map(_fragment, jobs))
    if any(part is None for part in parts):
        return None
    if any(part == "solved" for part in parts):
        raise ValueError(f"the board can be solved in {horizon} moves: nothing to refute")
    lines, positions, claims, named = [], 0, 0, set()
    for (v, c), (fragment, count, made, bounds) in zip(children, parts, strict=True):
        lines.append(f"P 0 {v} {c}")
        positions += 1
        lines.extend(_renumbered(fragment, positions))
        positions += count
        claims += made
        named.update(bounds)
    lines.append(f"E 0 {horizon}")
    claims += 1
    if claims > limit:
        return None
    final = "-" if final_colour is None else str(final_colour)
    head = [LOG_FORMAT, f"regions {g.n} colours {g.k} rules {g.rules} final {final}"]
    text = "\n".join([*head, f"horizon {horizon}", *lines]) + "\n"
    data = gzip.compress(text.encode(), compresslevel=6, mtime=0)
    return ProofLog(data, positions, claims, tuple(sorted(named)))


def _tasks(g: RegionGraph, start: Current, horizon: int, final_colour) -> list | None:
    """The moves from the start that need a task, one a colouring; None where the start is
    not expanded into all its moves (cut, forced, solved, or no move left)."""
    if horizon < 1 or start.is_solved(final_colour):
        return None
    if g.rules == "pivot" and eliminating_colour(start, final_colour) is not None:
        return None  # one forced move (R7): one task, written here
    movers = [start.pivot] if g.rules == "pivot" else start.nodes()
    seen, tasks = set(), []
    for v in movers:
        for c in range(g.k):
            if c == start.pos[v] or bound_after(start, g.rules, final_colour, v, c) > horizon - 1:
                continue
            colouring = start.pos_after(v, c)
            if colouring not in seen:
                seen.add(colouring)
                tasks.append((v, c))
    return tasks


def _fragment(job: tuple) -> tuple | str | None:
    """A worker's task: (lines, positions, claims, bounds named) of the log refuting the
    child in ``d`` moves, numbered from the child as 0; "solved" when it can be solved in
    ``d``; None when the budget or the deadline ran out."""
    g, start, v, c, d, final_colour, at, limit = job
    writer = LogWriter(g, final_colour, Deadline(at), limit)
    child = start.play(v, c)
    try:
        if not writer.refute(child, 0, d):
            return "solved"
    except OutOfBudget:
        return None
    return writer.lines, writer.positions, writer.claims, sorted(writer.named)


def _renumbered(lines: list[str], base: int) -> list[str]:
    """A task's lines with every position number x made ``base`` + x."""
    out = []
    for line in lines:
        kind, number, rest = line.split(" ", 2)
        out.append(f"{kind} {int(number) + base} {rest}")
    return out
