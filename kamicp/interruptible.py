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
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")
STEP = 0.05  # seconds between two looks at the signals while the call runs


def run_interruptibly(call: Callable[[], T], stop: Callable[[], object] | None = None) -> T:
    """``call()`` in a helper thread; what a signal handler raises meanwhile (Ctrl-C's
    KeyboardInterrupt) calls ``stop`` (if given) until the call has ended, then is raised.

    The end is awaited on an Event, not ``Thread.join``: a KeyboardInterrupt inside
    ``join`` marks the thread stopped while it still runs (CPython 3.11), and a process
    that then exited under a running CP-SAT aborted. A call that holds the GIL (pysat
    does) delays the handlers until it returns.
    """
    out: dict = {}
    ended = threading.Event()

    def run() -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        try:
            out["value"] = call()
        except BaseException as err:  # raised again in the caller's thread
            out["error"] = err
        finally:
            ended.set()

    threading.Thread(target=run, name="interruptible", daemon=True).start()
    try:
        while not ended.wait(STEP):
            pass
    except BaseException as err:
        while True:  # a second Ctrl-C meanwhile is absorbed: the call must end first
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
