"""The clock of a command's time limit: from the process's start on a command line, so that
``solve --time-limit T`` ends within T (and a second) of being typed, loading and building
included; and the answer of a run whose time ran out before its first bound."""

from __future__ import annotations

import argparse
import os
import time

from kamicp.game.board import Board
from kamicp.plural import count
from kamicp.result import Result

__all__ = [
    "LEAST_SECONDS",
    "STARTUP",
    "command_started",
    "out_of_time",
    "process_started",
    "seconds_left",
]

# The time limit counts from the process's start when the command began within this many
# seconds of it (a command line: the interpreter's start-up and imports take about 0.5 s),
# else from the command's own start (a long-lived process calling ``main``, the tests).
STARTUP = 3.0

# The time a solve is given when the command's limit is already spent: a solve needs a
# positive limit, and this one only lets it answer with the bounds it starts from.
LEAST_SECONDS = 0.01

# When this module was loaded: the process's start where the system does not tell it.
_LOADED = time.monotonic()


def command_started(args: argparse.Namespace) -> float:
    """When the clock of a time limit starts: the process's start if the command began
    within :data:`STARTUP` seconds of it, else when the command began.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed arguments; ``began`` (when the command's parser was made, on the
        ``time.monotonic()`` clock) if the parser sets it, else now.

    Returns
    -------
    float
        A ``time.monotonic()`` value.

    Examples
    --------
    >>> began = time.monotonic()
    >>> began - STARTUP <= command_started(argparse.Namespace(began=began)) <= began
    True
    """
    began = getattr(args, "began", None)
    began = time.monotonic() if began is None else began
    start = process_started()
    return start if began - start <= STARTUP else began


def seconds_left(args: argparse.Namespace) -> float | None:
    """What is left of ``--time-limit``, counted from :func:`command_started`.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed arguments, with ``time_limit`` (and ``began``).

    Returns
    -------
    float or None
        Seconds, at least :data:`LEAST_SECONDS`; None without a time limit.

    Examples
    --------
    >>> seconds_left(argparse.Namespace(time_limit=None)) is None
    True
    >>> 0 < seconds_left(argparse.Namespace(time_limit=60.0, began=time.monotonic())) <= 60
    True
    """
    if args.time_limit is None:
        return None
    spent = time.monotonic() - command_started(args)
    return max(LEAST_SECONDS, args.time_limit - spent)


def process_started() -> float:
    """When this process started, on the ``time.monotonic()`` clock.

    Returns
    -------
    float
        From the system's record of the process (Linux ``/proc``); elsewhere the time
        this module was loaded.

    Examples
    --------
    >>> process_started() <= time.monotonic()
    True
    """
    try:
        with open("/proc/self/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        with open("/proc/uptime") as uptime:
            up = float(uptime.read().split()[0])
        age = up - int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22: the start, in ticks
    except (OSError, ValueError, IndexError):
        return _LOADED
    return min(_LOADED, time.monotonic() - max(0.0, age))


def out_of_time(board: Board, limit: float, when: str) -> Result:
    """The answer when the time limit ran out ``when``, before any bound was computed.

    Parameters
    ----------
    board : Board
        The puzzle.
    limit : float
        The time limit, in seconds.
    when : str
        What was being done, as the answer says it ("building the region graph").

    Returns
    -------
    Result
        Status unknown (exit 3), no solution, and the one bound that needs no region
        graph: the colours but one (a move removes at most one colour).

    Examples
    --------
    >>> board = Board(geometry="square", cells={(0, 0): 0, (0, 1): 1}, palette=("R", "G"))
    >>> r = out_of_time(board, 2.0, "building the region graph")
    >>> r.status, r.bounds, r.proof
    ('unknown', (1, None), 'the time limit (2 s) ran out building the region graph (2 cells)')
    """
    why = f"the time limit ({limit:g} s) ran out {when} ({count(len(board.cells), 'cell')})"
    lower = len(set(board.cells.values())) - 1
    return Result("unknown", None, lower, None, "", seconds=limit, proof=why)
