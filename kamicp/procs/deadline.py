"""One deadline type for every time limit, and the exception raised when a limit is reached.

A :class:`Deadline` is a point on the ``time.monotonic()`` clock, or none; every deadline is
also up once the memory limit is reached (:mod:`kamicp.procs.memory`). Work that can
run long asks :meth:`Deadline.check` at regular points and unwinds with :class:`LimitReached`;
loops that must not raise ask :meth:`Deadline.expired`. Compiled loops (Numba) take the bare
number, :attr:`Deadline.at`.

Examples
--------
>>> d = Deadline.after(None)
>>> d.expired(), d.left()
(False, None)
>>> Deadline.after(0.0).expired()
True
>>> try:
...     Deadline.after(0.0).check()
... except LimitReached:
...     print("stopped")
stopped
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from kamicp.procs import memory

__all__ = ["Deadline", "LimitReached"]


class LimitReached(Exception):
    """A limit (a deadline, or a search's node budget) was reached before the work was done."""


@dataclass(frozen=True)
class Deadline:
    """A point in ``time.monotonic()`` time, or None for no limit.

    Parameters
    ----------
    at : float or None
        The ``time.monotonic()`` value at which time is up; None never expires.
    started : float
        When the clock was started (for :meth:`elapsed`).
    """

    at: float | None = None
    started: float = field(default_factory=time.monotonic)

    @classmethod
    def after(cls, seconds: float | None) -> Deadline:
        """The deadline ``seconds`` from now (None: no limit)."""
        now = time.monotonic()
        return cls(None if seconds is None else now + seconds, now)

    def left(self) -> float | None:
        """Seconds left (never below 0), or None without a limit; 0 past the memory limit."""
        if memory.reached():
            return 0.0
        if self.at is None:
            return None
        return max(0.0, self.at - time.monotonic())

    def expired(self) -> bool:
        """Whether the deadline has passed, or the memory limit was reached."""
        return (self.at is not None and time.monotonic() >= self.at) or memory.reached()

    def elapsed(self) -> float:
        """Seconds since the clock was started."""
        return time.monotonic() - self.started

    def check(self) -> None:
        """Raise :class:`LimitReached` if the deadline has passed (or the memory limit)."""
        if self.expired():
            raise LimitReached
