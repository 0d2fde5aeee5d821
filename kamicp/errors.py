"""Errors that reach the user as one line, never as a traceback."""

from __future__ import annotations

__all__ = [
    "IllegalMove",
    "InputError",
    "InternalError",
    "KamicpError",
    "WorkerLost",
]


class KamicpError(Exception):
    """Any error the command line reports as one line with exit code 2."""


class InputError(KamicpError):
    """Bad input: names the file and the line where the problem is."""

    def __init__(self, problem: str, path: str | None = None, line: int | None = None):
        self.problem = problem
        self.path = path
        self.line = line
        super().__init__(self.message())

    def message(self) -> str:
        where = self.path or "<input>"
        if self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.problem}"


class IllegalMove(KamicpError):
    """A move the rules do not allow; the message says why."""


class InternalError(Exception):
    """A bug in kamicp, not in the input: the command line reports it as one line (with
    what the run had proved, where it knows) and exit code 70; ``KAMICP_TRACEBACK=1`` shows
    the traceback instead. Not a :class:`KamicpError`: those are the user's to mend."""


class WorkerLost(Exception):
    """A worker process of a parallel search died from outside (a signal: the kernel's
    out-of-memory killer, ``kill -9``, or a SIGTERM sent to the whole process group): its
    job will never answer, so the search stops instead of waiting for it."""
