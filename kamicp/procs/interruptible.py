"""Run a long C call (a CP-SAT search, a CaDiCaL slice) so that Ctrl-C and SIGTERM still work.

CP-SAT and pysat set SIGINT handlers of their own while they solve in the main thread.
CP-SAT's ends the search as if its time limit had passed, so the caller never learns that
the user asked to stop. pysat's leaves by ``longjmp`` from whichever thread took the signal,
which hung the process (a lock inside ``malloc`` left taken) or crashed it. Both also keep
Python's handlers from running, so SIGTERM waited for the search to end.

:func:`run_interruptibly` makes the call in a helper thread, where neither sets a handler,
with SIGINT and SIGTERM blocked there (and in the threads the call starts, which inherit
the mask); the main thread waits in short steps, where Python runs its handlers.

Example (a call that ends by itself)::

    >>> run_interruptibly(lambda: 6 * 7)
    42
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

__all__ = [
    "deferred_signals",
    "noting_interrupts",
    "run_interruptibly",
]

T = TypeVar("T")
STEP = 0.05  # seconds between two looks at the signals while the call runs
SIGNALS = (signal.SIGINT, signal.SIGTERM)


def run_interruptibly(call: Callable[[], T], stop: Callable[[], object] | None = None) -> T:
    """``call()`` in a helper thread; what a signal handler raises meanwhile (Ctrl-C's
    KeyboardInterrupt) calls ``stop`` (if given) until the call has ended, then is raised.

    The end is awaited on an Event, not ``Thread.join``: a KeyboardInterrupt inside
    ``join`` marks the thread stopped while it still runs (CPython 3.11), and a process
    that then exited under a running CP-SAT aborted. The thread is started with the
    signals deferred (:func:`deferred_signals`): a Ctrl-C inside ``Thread.start`` left the
    call running after this returned. A call that holds the GIL (pysat does) delays the
    handlers until it returns.
    """
    out: dict = {}
    ended = threading.Event()

    def run() -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, set(SIGNALS))
        try:
            out["value"] = call()
        except BaseException as err:  # raised again in the caller's thread
            out["error"] = err
        finally:
            ended.set()

    thread = threading.Thread(target=run, name="interruptible", daemon=True)
    started = False
    pending: list[int] = []
    try:
        with deferred_signals(pending):
            thread.start()
            started = True
        for signum in pending:
            signal.raise_signal(signum)  # its handler runs here, and raises
        while not ended.wait(STEP):
            pass
    except BaseException as err:
        while started:  # a second Ctrl-C meanwhile is absorbed: the call must end first
            if stop is not None:
                stop()
            try:
                if ended.wait(STEP):
                    break
            except BaseException:
                pass
        raise err
    if "error" in out:
        raise out["error"]
    return out["value"]


@contextmanager
def deferred_signals(pending: list[int]) -> Iterator[None]:
    """Within the block, SIGINT and SIGTERM are noted in ``pending`` instead of handled (in
    the main thread; elsewhere Python runs no handlers, and nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    kept = {}
    try:
        for signum in SIGNALS:
            if signal.getsignal(signum) is not None:  # None: set from C, cannot be put back
                kept[signum] = signal.signal(signum, lambda n, frame: pending.append(n))
        yield
    finally:
        for signum, handler in kept.items():
            signal.signal(signum, handler)


@contextmanager
def noting_interrupts() -> Iterator[list]:
    """Within the block, Ctrl-C still raises KeyboardInterrupt, and is also noted in the list
    yielded: the drivers catch it to answer with their bounds, and the caller of ``solve``
    must still learn that the user asked to stop. SIGTERM (``kill``, ``timeout``, a batch
    system's stop) is taken the same way. (Only the main thread can set handlers;
    elsewhere nothing is noted.)"""
    noted: list = []

    def handler(signum, frame):
        noted.append(signum)
        raise KeyboardInterrupt

    previous = {}
    for signum in (signal.SIGINT, signal.SIGTERM):
        try:
            # a process started to ignore one (Ctrl-C, in the background) keeps ignoring it
            if signal.getsignal(signum) is not signal.SIG_IGN:
                previous[signum] = signal.signal(signum, handler)
        except ValueError:  # not the main thread
            pass
    try:
        yield noted
    finally:
        for signum, action in previous.items():
            signal.signal(signum, action)
