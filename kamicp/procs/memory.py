"""A memory limit on a solve and every process it starts, kept by a watchdog thread.

The watchdog sums the resident memory (RSS) of this process and of its descendants (the
portfolio's backends, a contained SAT run, a pool's workers) every :data:`PERIOD` seconds.
Once the sum exceeds the limit it raises a flag that every :class:`~kamicp.procs.deadline.
Deadline` consults, in this process and in the children forked after the watch began (the
flag lives in shared memory): the searches stop as at a time limit and answer with their
bounds. Descendants still above the limit :data:`ESCALATE` seconds later are killed.

Resident memory, not address space (``RLIMIT_AS``): Numba's LLVM and every thread's stack
reserve far more address space than they touch, so an address-space limit fails start-up
or a thread's creation long before the memory is used.

Examples
--------
>>> parse_size("512M"), parse_size("2.5G") == int(2.5 * 2**30), parse_size("1000")
(536870912, True, 1000)
>>> format_size(2**31), format_size(512 * 2**20)
('2G', '512M')
>>> with limited(2**50) as watch:
...     reached()
False
"""

from __future__ import annotations

import mmap
import os
import re
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = [
    "ESCALATE",
    "PERIOD",
    "Watchdog",
    "default_limit",
    "descendants",
    "format_size",
    "limited",
    "note",
    "parse_size",
    "rearm",
    "reached",
    "resident",
    "share",
]

PERIOD = 0.1  # seconds between two looks at the memory: the overshoot grows with it
SCAN = 0.5  # seconds between two searches of /proc for descendants (~2 ms each on 80 processes)
ESCALATE = 2.0  # seconds a stopped solve's descendants may stay above the limit before a kill
UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
PAGE = os.sysconf("SC_PAGE_SIZE")

_flag: mmap.mmap | None = None  # one shared byte, 1 once the limit was reached
_limit: int | None = None  # the limit being watched, in bytes (inherited by forked children)
_watch: Watchdog | None = None  # the watch of this process, if it runs one


def parse_size(text: str) -> int:
    """Bytes from a size such as ``4G``, ``512M``, ``2.5G``, ``64k`` or ``1000000``.

    Parameters
    ----------
    text : str
        A positive number, with an optional unit K, M, G or T (powers of 1024, an ``iB``
        or ``B`` after it allowed, any case).

    Returns
    -------
    int
        The size in bytes.

    Raises
    ------
    ValueError
        Not such a size, or not above 0.

    Examples
    --------
    >>> parse_size("4g"), parse_size("1KiB")
    (4294967296, 1024)
    """
    match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*([kmgt]?)(i?b)?\s*", text, re.IGNORECASE)
    if match is None:
        raise ValueError(f"not a size (such as 4G, 512M or a number of bytes): {text!r}")
    size = int(float(match.group(1)) * UNITS[match.group(2).upper()])
    if size <= 0:
        raise ValueError(f"must be above 0: {text!r}")
    return size


def format_size(size: int) -> str:
    """A size in bytes as the largest unit that keeps it short (``2G``, ``1.5G``, ``512M``).

    Examples
    --------
    >>> format_size(3 * 2**29), format_size(1000)
    ('1.5G', '1000')
    """
    for unit in ("T", "G", "M", "K"):
        if size >= UNITS[unit]:
            return f"{size / UNITS[unit]:.3g}{unit}"
    return str(size)


def default_limit() -> int:
    """The limit when none is asked: the smaller of 4 GiB and three quarters of the RAM.

    A quarter of the RAM is left to the system and the other programs; 4 GiB is twice the
    compiled A*'s default tables (:data:`kamicp.search.pivot_astar.MEMORY`), and holds every
    board of the story and Flood-It sets (BENCHMARKS.md, "Big boards").
    """
    try:
        ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        ram = 2**33  # unknown: assume 8 GiB
    return min(4 * 2**30, ram * 3 // 4)


def reached() -> bool:
    """Whether the memory limit being watched was reached (here or in an ancestor's watch)."""
    return _flag is not None and _flag[0] == 1


def rearm() -> bool:
    """Lower the flag of a limit reached once this process and its descendants are back under
    it, so that the next puzzle of a run is not cut short by the last one's peak.

    Returns
    -------
    bool
        Whether the flag is down now (True also when no limit is watched).
    """
    if _flag is None or _flag[0] == 0:
        return True
    pid = os.getpid()
    if resident(pid) + sum(resident(kid) for kid in descendants(pid)) > (_limit or 0):
        return False
    _flag[0] = 0
    if _watch is not None:
        _watch.reached_after = None
    return True


def note() -> str:
    """The one-line note of a limit reached: ``memory limit of 512M reached``."""
    return f"memory limit of {format_size(_limit or 0)} reached"


def share(default: int) -> int:
    """Bytes one table may take: ``default``, or half the limit being watched if smaller.

    Parameters
    ----------
    default : int
        The table's own budget.

    Returns
    -------
    int
        The budget under the limit.
    """
    return default if _limit is None else min(default, _limit // 2)


def resident(pid: int) -> int:
    """The resident memory of process ``pid`` in bytes (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * PAGE
    except (OSError, IndexError, ValueError):
        return 0


def descendants(pid: int) -> list[int]:
    """The process ids of every descendant of ``pid`` alive now (Linux ``/proc``; else [])."""
    children: dict[int, list[int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue  # gone meanwhile
        # the name in parentheses may hold spaces and parentheses: the fields follow the last
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 1:
            children.setdefault(int(fields[1]), []).append(int(name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), ()):
            found.append(child)
            todo.append(child)
    return found


class Watchdog:
    """A daemon thread that watches the resident memory of this process and its descendants.

    Parameters
    ----------
    limit : int
        Bytes; above it the flag :func:`reached` is raised.

    Attributes
    ----------
    peak : int
        The largest sum seen, in bytes.
    reached_after : float or None
        Seconds from the start of the watch to the limit's crossing.
    killed : list of int
        The descendants killed for staying above the limit.
    """

    def __init__(self, limit: int):
        self.limit = limit
        self.peak = 0
        self.reached_after: float | None = None
        self.killed: list[int] = []
        self.root = os.getpid()
        self.started = time.monotonic()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._watch, name="memory-watchdog", daemon=True)

    def _watch(self) -> None:
        kids: list[int] = []
        next_scan = 0.0
        while not self.done.wait(PERIOD):
            now = time.monotonic()
            if now >= next_scan:
                kids = descendants(self.root)
                next_scan = now + SCAN
            total = resident(self.root) + sum(resident(pid) for pid in kids)
            self.peak = max(self.peak, total)
            if total <= self.limit:
                continue
            if self.reached_after is None:
                self.reached_after = now - self.started
                _flag[0] = 1
                next_scan = now  # from now on the descendants are looked for at every step
            elif now - self.started - self.reached_after >= ESCALATE and kids:
                self._kill(kids)

    def _kill(self, pids: list[int]) -> None:
        """Kill the descendants ``pids`` (their parents reap them: each waits for its own)."""
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
                self.killed.append(pid)
            except (ProcessLookupError, PermissionError):
                pass  # gone already


@contextmanager
def limited(limit: int | None) -> Iterator[Watchdog | None]:
    """Watch the memory of this process and its descendants within the block.

    Parameters
    ----------
    limit : int or None
        Bytes; None watches nothing.

    Returns
    -------
    context manager
        Yields the :class:`Watchdog` (None without a limit); :func:`reached` tells whether
        the limit was reached until the block ends.
    """
    global _flag, _limit, _watch
    if limit is None:
        yield None
        return
    # a fresh byte for each watch: children forked before it (a fork server's) do not share it
    _flag, _limit = mmap.mmap(-1, 1), limit
    watch = _watch = Watchdog(limit)
    watch.thread.start()
    try:
        yield watch
    finally:
        watch.done.set()
        watch.thread.join()
        _flag, _limit, _watch = None, None, None
