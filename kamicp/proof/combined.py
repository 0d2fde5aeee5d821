"""Proof logs written by several processes: the moves from the start shared out, the
workers' logs combined into one.

A proof log (:mod:`kamicp.proof.refutation`) is a list of lines in which each position is
introduced by a ``P`` line (numbered in the order of those lines, the start 0) and each
claim rests only on earlier lines. So the refutation of "the start in H moves" splits into
independent tasks, one for each move from the start that no default bound cuts (moves that
give the same colouring are one task). Each worker takes a share of them (round robin) and
writes, with one table for its share, the ``P 0 v c`` line and the refutation in H - 1 moves
of each child, numbering positions from the start as 0. Combining the shares is
renumbering: every position number x > 0 of a share becomes x + the positions of the shares
before it, which is the number the checker gives that share's own ``P`` lines. The start's
claim ``E 0 H`` comes last: every move from the start is then covered by a share's claim on
its colouring or by a default bound, as a one-process log would have it. Both checkers read
the result as any other log (``encodings/certificates.md``).

The shares do not see each other's tables, so a position both meet is refuted twice: on the
story levels two workers write 1.4-1.8 times the claims of one process in 0.95-0.98 times
its wall time (BENCHMARKS.md, "Proof logs in several processes"), which is why
``solve --certificate`` keeps to one process; :class:`~kamicp.proof.certificate.
CertificateOptions` takes ``workers`` for more cores.

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
from kamicp.procs.interruptible import held_signals
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
        Processes (forked), each with a share of the moves from the start; 1, or a start
        with a single task, writes on this one.

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
    shares both meet, which each refutes: the log is longer.
    """
    deadline = deadline or Deadline.after(None)
    start = contract(g)
    children = _tasks(g, start, horizon, final_colour)
    if workers <= 1 or children is None or len(children) < 2:
        return write_log(g, horizon, final_colour, deadline=deadline, limit=limit)
    shares = [children[i::workers] for i in range(workers)]  # round robin: sizes alike
    jobs = [(g, start, share, horizon - 1, final_colour, deadline.at, limit) for share in shares]
    with ProcessPoolExecutor(workers, mp_context=mp.get_context("fork")) as pool:
        with held_signals():  # the workers fork here (see kamicp.procs.child.Child)
            answers = pool.map(_fragment, jobs)
        parts = list(answers)
    if any(part is None for part in parts):
        return None
    if any(part == "solved" for part in parts):
        raise ValueError(f"the board can be solved in {horizon} moves: nothing to refute")
    lines, positions, claims, named = [], 0, 0, set()
    for fragment, count, made, bounds in parts:
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
    """A worker's share of the moves from the start: (lines, positions, claims, bounds
    named) of the log refuting each child in ``d`` moves, numbered from the start as 0
    (one table for the whole share); "solved" when a child can be solved in ``d``; None
    when the budget or the deadline ran out."""
    g, start, share, d, final_colour, at, limit = job
    writer = LogWriter(g, final_colour, Deadline(at), limit)
    try:
        for v, c in share:
            if not writer.child(start, 0, d, v, c):
                return "solved"
    except OutOfBudget:
        return None
    return writer.lines, writer.positions, writer.claims, sorted(writer.named)


def _renumbered(lines: list[str], base: int) -> list[str]:
    """A share's lines with every position number x but the start's (0) made ``base`` + x."""
    out = []
    for line in lines:
        kind, number, rest = line.split(" ", 2)
        x = int(number)
        out.append(f"{kind} {x + base if x else 0} {rest}")
    return out
