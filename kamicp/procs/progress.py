"""Bounds and status lines as a solve proves them, told to whoever listens.

A solve reports each lower bound it proves and each replayed solution it finds as they
come (:func:`tell`), and, from a long search, a line on how it stands (:func:`say`). Who
hears them depends on where the code runs: a contained run (:mod:`kamicp.solving.solve`, the SAT
backend under a hard time limit) sends them to its parent through a pipe, a portfolio
backend to the portfolio (which stops when its backends' bounds meet), and the main process
to the callbacks of :func:`watched`: :class:`Seen` keeps the best bounds (what an
interrupted solve answers with), :class:`Progress` also prints them (``kamicp solve
--progress``).

Example::

    >>> seen = Seen()
    >>> with watched(seen):
    ...     tell(3, None)
    ...     tell(2, [(0, 1), (0, 2), (0, 0), (0, 1)])
    >>> seen.lower, len(seen.best)
    (3, 4)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

__all__ = [
    "PROGRESS_EVERY",
    "Progress",
    "Seen",
    "contained_parent",
    "listening",
    "notice",
    "portfolio_parent",
    "say",
    "tell",
    "watched",
]

# Where bounds and status lines go: a pipe to the parent of a contained run
# (:mod:`kamicp.solving.solve`), or to the portfolio that started this backend
# (:mod:`kamicp.solving.portfolio`); else the callbacks of ``watched`` in this process.
contained_parent: list = []  # in a contained child: the pipe to its parent
portfolio_parent: list = []  # in a portfolio backend: the pipe to the portfolio
_watchers: list = []  # in the main process: callbacks (lower, best) of ``watched``


def tell(lower: int | None, best: list | None) -> None:
    """Report proved bounds of the whole board to whoever listens.

    That is the parent of a contained run, else the portfolio (which stops as soon as the
    bounds of its backends meet), else the callbacks of :func:`watched`; the parents pass
    on what they are told.

    Parameters
    ----------
    lower : int or None
        A proved lower bound on the optimum, or None.
    best : list of (region, colour) or None
        A replayed solution, or None.

    Examples
    --------
    >>> heard = []
    >>> with watched(lambda lower, best: heard.append((lower, best))):
    ...     tell(2, None)
    >>> heard
    [(2, None)]
    """
    if contained_parent:
        contained_parent[0].send(("progress", (lower, best)))
    elif portfolio_parent:
        portfolio_parent[0].send(("progress", (lower, best)))
    else:
        for watch in _watchers:
            watch(lower, best)


def say(text: str) -> None:
    """Report how a long search stands to whoever listens, as :func:`tell` does bounds.

    That is the parent of a contained run or the portfolio, which pass it on, else the
    callbacks of :func:`watched` that have a ``status`` method (``kamicp solve --progress``).

    Parameters
    ----------
    text : str
        One line, no bound in it, beginning with the solver's name and a colon.

    Examples
    --------
    >>> say("idastar: searching")  # nobody listens: nothing happens
    """
    if contained_parent:
        contained_parent[0].send(("status", text))
    elif portfolio_parent:
        portfolio_parent[0].send(("status", text))
    else:
        for watch in _watchers:
            if hasattr(watch, "status"):
                watch.status(text)


def notice(text: str) -> None:
    """Tell this process's watchers that show a status line (a terminal's) what the solve
    is busy with where it tells no bound for long, such as compiling its loops.

    Parameters
    ----------
    text : str
        A few words.

    Examples
    --------
    >>> notice("compiling")  # nobody shows it: nothing happens
    """
    for watch in _watchers:
        if hasattr(watch, "notice"):
            watch.notice(text)


def listening() -> bool:
    """Whether anyone hears :func:`say`, so that a search can skip making its status lines.

    Returns
    -------
    bool
        True when a watcher with a ``status`` method (``kamicp solve --progress``) is set, in
        this process or in the one that forked it (a backend or contained run inherits the
        list).

    Examples
    --------
    >>> listening()
    False
    """
    return any(hasattr(watch, "status") for watch in _watchers)


@contextmanager
def watched(callback: Callable[[int | None, list | None], object]) -> Iterator[None]:
    """Have ``callback`` hear every bound a solve proves within the block, as it is proved.

    Parameters
    ----------
    callback : callable
        Called as ``callback(lower, best)``: a lower bound on the optimum (or None), a
        replayed solution (or None). With a ``status(text)`` method it also hears
        :func:`say`.

    Returns
    -------
    context manager
        Yields None; the callback is removed on leaving.

    Examples
    --------
    >>> seen = Seen()
    >>> with watched(seen):
    ...     tell(4, None)
    >>> seen.lower
    4
    """
    _watchers.append(callback)
    try:
        yield
    finally:
        _watchers.remove(callback)


class Seen:
    """A :func:`watched` callback that keeps the best bounds told: the largest lower bound
    and the shortest solution (each proved or replayed where it was found). A call returns
    whether either improved."""

    def __init__(self):
        self.lower: int | None = None
        self.best: list | None = None

    def __call__(self, lower: int | None, best: list | None) -> bool:
        better_lower = lower is not None and (self.lower is None or lower > self.lower)
        better_best = best is not None and (self.best is None or len(best) < len(self.best))
        if better_lower:
            self.lower = lower
        if better_best:
            self.best = list(best)
        return better_lower or better_best


# seconds between two status lines by default (--progress-every): often enough to see a long
# search move, rare enough that a run's log stays readable
PROGRESS_EVERY = 60.0


class Progress(Seen):
    """A :class:`Seen` that also prints the bounds to ``stream`` whenever one improves, one
    line each: ``NAME: SECONDS s: LOWER <= optimum <= UPPER`` (``--progress``); and, at most
    every ``every`` seconds per solver, the line a long search reports on how it stands
    (:func:`say`): ``NAME: SECONDS s: SOLVER: TEXT`` (a portfolio's two backends each get
    theirs)."""

    def __init__(self, stream, name: str, every: float = PROGRESS_EVERY):
        super().__init__()
        self.stream = stream
        self.name = name
        self.start = time.monotonic()
        self.every = every
        self.next_status: dict[str, float] = {}  # solver -> when its next line is due

    def status(self, text: str) -> None:
        now = time.monotonic()
        solver = text.split(":", 1)[0]
        if now >= self.next_status.get(solver, self.start + self.every):
            self.next_status[solver] = now + self.every
            self.print(f"{now - self.start:.1f} s: {text}")

    def print(self, text: str) -> None:
        print(f"{self.name}: {text}", file=self.stream, flush=True)

    def __call__(self, lower: int | None, best: list | None) -> bool:
        if not super().__call__(lower, best):
            return False
        seconds = time.monotonic() - self.start
        low = "" if self.lower is None else f"{self.lower} <= "
        high = "" if self.best is None else f" <= {len(self.best)}"
        self.print(f"{seconds:.1f} s: {low}optimum{high}")
        return True
