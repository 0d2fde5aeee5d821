"""What the tests read of other processes from Linux's /proc: whether one runs, its children
and descendants, and the sockets it holds."""

from __future__ import annotations

import os
from pathlib import Path


def running(pid: int) -> bool:
    """Whether process ``pid`` runs: it exists and is no zombie (a zombie may wait for a
    reaper: init may leave an orphan unreaped, or a test process that adopts orphans)."""
    try:
        return "\nState:\tZ" not in Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (none once it is gone)."""
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def descendants(pid: int) -> list[int]:
    """Every process below ``pid``: its children, theirs, and so on."""
    found = []
    for child in children(pid):
        found += [child, *descendants(child)]
    return found


def sockets(pid: int) -> set[str]:
    """The sockets process ``pid`` has open (``socket:[inode]``); none once it is gone."""
    found = set()
    try:
        fds = list(Path(f"/proc/{pid}/fd").iterdir())
    except OSError:
        return found
    for fd in fds:
        try:
            target = os.readlink(fd)
        except OSError:
            continue  # closed meanwhile
        if target.startswith("socket:"):
            found.add(target)
    return found
