"""The progress bar of a run of many puzzles (solve, bench, batch, cross-check, info's first
moves): tqdm on standard error, with counts and the time left, drawn only on a terminal so
that pipes, files and tests get none of it."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tqdm import tqdm

__all__ = ["bar", "say"]


def bar(total: int, unit: str, stream=None, initial: int = 0, quiet: bool = False) -> tqdm:
    """A progress bar of ``total`` things.

    Parameters
    ----------
    total : int
        How many things the run does.
    unit : str
        What one thing is, singular ("puzzle").
    stream : file or None
        Where the bar goes (default: standard error at the time of the call).
    initial : int
        Things already done (a resumed batch's skipped puzzles).
    quiet : bool
        No bar even on a terminal.

    Returns
    -------
    tqdm
        Call ``update(1)`` per thing and ``set_postfix_str`` for counts; ``close()`` at the
        end. Disabled (every call does nothing) unless ``stream`` is a terminal.

    Examples
    --------
    >>> import io
    >>> with bar(3, "puzzle", io.StringIO()) as shown:
    ...     shown.update(1)
    >>> shown.disable
    True
    """
    from tqdm import tqdm  # 26 ms of imports, paid only by a run that may draw a bar

    stream = sys.stderr if stream is None else stream
    return tqdm(
        total=total,
        initial=initial,
        unit=f" {unit}",
        file=stream,
        disable=True if quiet else None,  # None: only on a terminal
        leave=False,
        dynamic_ncols=True,
    )


def say(text: str, out=None) -> None:
    """Print ``text`` as a line of ``out``, any bar on the terminal cleared first and drawn
    again under it, so that the two never share a line.

    Parameters
    ----------
    text : str
        The line (without its newline).
    out : file or None
        Where to print (default: standard output at the time of the call).

    Examples
    --------
    >>> say("3 puzzles")
    3 puzzles
    """
    out = sys.stdout if out is None else out
    if "tqdm" not in sys.modules:  # then no bar was ever made: nothing to clear
        print(text, file=out, flush=True)
        return
    from tqdm import tqdm

    with tqdm.external_write_mode(file=out):
        print(text, file=out, flush=True)
