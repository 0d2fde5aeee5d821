"""The progress bar of a run of many puzzles (solve, bench, batch, cross-check, info's first
moves), and the status line of one long solve (solve, hint): tqdm on standard error, drawn
only on a terminal so that pipes, files and tests get none of it."""

from __future__ import annotations

import sys
import threading
from typing import TYPE_CHECKING

from kamicp.procs.progress import Seen

if TYPE_CHECKING:
    from tqdm import tqdm

__all__ = ["REDRAW", "Live", "bar", "say"]

# seconds between two redraws of a status line: the clock it shows moves visibly, and a
# redraw costs microseconds
REDRAW = 0.5


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


class Live(Seen):
    """A :class:`~kamicp.procs.progress.Seen` that also keeps one line on a terminal while a
    solve runs: the puzzle's name, the time so far and the bounds proved so far
    (``Bud1: 00:07, 13 <= optimum <= 14``), redrawn every :data:`REDRAW` seconds and cleared
    at the end. Used as a context manager; into a pipe or file it draws nothing.

    Parameters
    ----------
    name : str
        What the line is about (the puzzle).
    stream : file or None
        Where the line goes (default: standard error at the time of the call).

    Examples
    --------
    >>> import io
    >>> from kamicp.procs.progress import tell, watched
    >>> with Live("demo", io.StringIO()) as live, watched(live):
    ...     tell(3, None)
    >>> live.lower, live.shown
    (3, False)
    """

    def __init__(self, name: str, stream=None):
        super().__init__()
        self.name = name
        self.stream = sys.stderr if stream is None else stream
        isatty = getattr(self.stream, "isatty", None)
        self.shown = bool(isatty and isatty())
        self._line = None
        self._stop = threading.Event()
        self._redraw = None

    def __enter__(self) -> Live:
        if self.shown:
            from tqdm import tqdm

            self._line = tqdm(
                total=None,
                file=self.stream,
                bar_format="{desc}: {elapsed}{postfix}",
                desc=self.name,
                leave=False,
                dynamic_ncols=True,
            )
            self._redraw = threading.Thread(target=self._keep_drawn, daemon=True)
            self._redraw.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._redraw is not None:
            self._redraw.join()
        if self._line is not None:
            self._line.close()

    def _keep_drawn(self) -> None:
        """Redraw the line until the solve ends, so that its clock moves."""
        while not self._stop.wait(REDRAW):
            self._line.refresh()

    def notice(self, text: str) -> None:
        """Show what the solve is busy with until it tells a bound."""
        if self._line is not None:
            self._line.set_postfix_str(text)

    def __call__(self, lower: int | None, best: list | None) -> bool:
        if not super().__call__(lower, best):
            return False
        if self._line is not None:
            low = "" if self.lower is None else f"{self.lower} <= "
            high = "" if self.best is None else f" <= {len(self.best)}"
            self._line.set_postfix_str(f"{low}optimum{high}")
        return True
