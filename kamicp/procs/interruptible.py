"""Run a long C call (a CP-SAT search, a CaDiCaL slice) so that Ctrl-C and SIGTERM still work.

CP-SAT and pysat set SIGINT handlers of their own while they solve in the main thread.
CP-SAT's ends the search as if its time limit had passed, so the caller never learns that
the user asked to stop. pysat's leaves by ``longjmp`` from whichever thread took the signal,
which can hang the process (a lock inside ``malloc`` left taken) or crash it. Both also keep
Python's handlers from running, so SIGTERM would wait for the search to end.

:func:`run_interruptibly` makes the call in a helper thread, where neither sets a handler,
with SIGINT and SIGTERM blocked there (and in the threads the call starts, which inherit
the mask); the main thread waits in short steps, where Python runs its handlers.

Example (a call that ends by itself)::

    >>> run_interruptibly(lambda: 6 * 7)
    42
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

__all__ = [
    "deferred_signals",
    "held_signals",
    "noting_interrupts",
    "redelivered_interrupts",
    "run_interruptibly",
    "sigterm_as_interrupt",
]

T = TypeVar("T")
STEP = 0.05  # seconds between two looks at the signals: a Ctrl-C is obeyed within this
SIGNALS = (signal.SIGINT, signal.SIGTERM)
AGAIN = 0.01  # seconds before a swallowed interrupt is sent again (a callback takes microseconds)
# The handlers each open deferred_signals block replaced, outermost first.
_replaced: list[dict] = []


def _restore_in_child() -> None:
    """In a process forked within :func:`deferred_signals`: the handlers from before the
    block. The block is the parent's; a child that kept its noting handlers would take a
    SIGTERM for a note, and outlive a pool that ends its workers so."""
    if _replaced:
        for signum, handler in _replaced[0].items():
            signal.signal(signum, handler)
        _replaced.clear()


os.register_at_fork(after_in_child=_restore_in_child)


def run_interruptibly(call: Callable[[], T], stop: Callable[[], object] | None = None) -> T:
    """Make ``call()`` in a helper thread, with Ctrl-C and SIGTERM still handled here.

    Parameters
    ----------
    call : callable
        The long call, taking no argument.
    stop : callable, optional
        Called (again and again, every :data:`STEP` seconds) once a signal handler has
        raised, until ``call`` has ended; it should make ``call`` return soon (CP-SAT's
        ``StopSearch``, pysat's ``interrupt``).

    Returns
    -------
    object
        What ``call()`` returned.

    Raises
    ------
    BaseException
        What ``call()`` raised; or what a signal handler raised while it ran (Ctrl-C's
        KeyboardInterrupt), once the call has ended.

    Notes
    -----
    The end is awaited on an Event, not ``Thread.join``: a KeyboardInterrupt inside
    ``join`` marks the thread stopped while it still runs (CPython 3.11), and a process
    that exits under a running CP-SAT aborts. The thread is started with the signals
    held (:func:`held_signals`), so that a Ctrl-C inside ``Thread.start`` cannot
    leave the call running after this returns. A call that holds the GIL (pysat does)
    delays the handlers until it returns.

    Examples
    --------
    >>> run_interruptibly(lambda: sum(range(10)))
    45
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
    try:
        with held_signals():  # a signal within the start is raised once it is done
            thread.start()
            started = True
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
    """Note SIGINT and SIGTERM in ``pending`` instead of handling them, within the block.

    Only in the main thread: elsewhere Python runs no handlers, and nothing changes. A
    handler set from C (``signal.getsignal`` gives None) cannot be put back, so it is left.

    Parameters
    ----------
    pending : list of int
        Receives the numbers of the signals that arrive within the block, in order.

    Returns
    -------
    context manager
        Yields None; the previous handlers are restored on leaving.

    Examples
    --------
    >>> pending = []
    >>> with deferred_signals(pending):
    ...     pass
    >>> pending
    []
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    kept: dict = {}
    _replaced.append(kept)
    try:
        for signum in SIGNALS:
            if signal.getsignal(signum) is not None:  # None: set from C, cannot be put back
                kept[signum] = signal.signal(signum, lambda n, frame: pending.append(n))
        yield
    finally:
        for signum, handler in kept.items():
            signal.signal(signum, handler)
        _replaced.remove(kept)


@contextmanager
def held_signals() -> Iterator[None]:
    """Handle SIGINT and SIGTERM only once the block has ended, for a step that must not
    stop half done: a message on a pipe read or written in part leaves the rest for the
    next read to take as a message of its own, which may then wait for ever.

    Signals that came within the block are raised on leaving it, whether it ended or
    raised (the handler's exception then replaces the block's).

    Examples
    --------
    >>> import os
    >>> with sigterm_as_interrupt():
    ...     try:
    ...         with held_signals():
    ...             os.kill(os.getpid(), signal.SIGTERM)
    ...             print("the block ends first")
    ...     except KeyboardInterrupt:
    ...         print("interrupted")
    the block ends first
    interrupted
    """
    pending: list[int] = []
    try:
        with deferred_signals(pending):
            yield
    finally:
        for signum in pending:
            signal.raise_signal(signum)


@contextmanager
def noting_interrupts() -> Iterator[list]:
    """Note Ctrl-C and SIGTERM within the block, and still raise KeyboardInterrupt for them.

    The drivers catch KeyboardInterrupt to answer with their bounds, and the caller of
    ``solve`` must still learn that the user asked to stop. SIGTERM (``kill``, ``timeout``,
    a batch system's stop) is taken the same way. A signal the process was started to
    ignore stays ignored. Only the main thread can set handlers; elsewhere nothing is noted.

    Returns
    -------
    context manager
        Yields the list of the signal numbers received within the block; the previous
        handlers are restored on leaving.

    Examples
    --------
    >>> with noting_interrupts() as noted:
    ...     pass
    >>> noted
    []
    """
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
        with redelivered_interrupts():
            yield noted
    finally:
        for signum, action in previous.items():
            signal.signal(signum, action)


@contextmanager
def redelivered_interrupts() -> Iterator[None]:
    """Within the block, a KeyboardInterrupt that a C callback swallowed is raised again.

    A signal handler runs at the next bytecode of the main thread, which may be inside a
    Python function that C code called through ctypes (LLVM calls several while Numba
    compiles). Its KeyboardInterrupt cannot leave such a callback: Python reports it as
    "Exception ignored" and goes on, and the Ctrl-C is lost. Here that report is replaced by
    the signal sent again :data:`AGAIN` seconds later (from a timer thread: sent at once, its
    handler would run inside the report), when the callback has returned (or, inside
    another one, it is sent again the same way). Once the block has ended nothing is sent
    again: whoever ran it noted the signal (:func:`noting_interrupts`) and is answering, and a
    signal then would stop the answer itself.

    Examples
    --------
    >>> import ctypes, time
    >>> def callback():
    ...     raise KeyboardInterrupt
    >>> call = ctypes.CFUNCTYPE(None)(callback)
    >>> with redelivered_interrupts():
    ...     try:
    ...         call()  # the callback's KeyboardInterrupt is swallowed by ctypes
    ...         time.sleep(5)  # the signal sent again ends the sleep
    ...     except KeyboardInterrupt:
    ...         print("interrupted")
    interrupted
    """
    previous = sys.unraisablehook
    timers: list[threading.Timer] = []
    lock = threading.Lock()
    inside = [True]

    def send(signum: int) -> None:
        with lock:  # never once the block has ended: its owner has noted the signal
            if inside[0]:
                os.kill(os.getpid(), signum)

    def hook(unraisable) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            for signum in SIGNALS:  # the first whose handler raises it (SIGTERM's in the CLI)
                if callable(signal.getsignal(signum)):
                    again = threading.Timer(AGAIN, send, (signum,))
                    again.daemon = True
                    timers.append(again)
                    again.start()
                    return
        previous(unraisable)

    sys.unraisablehook = hook
    try:
        yield
    finally:
        sys.unraisablehook = previous
        with lock:
            inside[0] = False
        for again in timers:
            again.cancel()


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Take SIGTERM as Ctrl-C within the block: a ``KeyboardInterrupt`` in the main thread.

    ``kill``, ``timeout`` and batch systems stop a job with SIGTERM; its default action ends
    the process at once, with nothing printed, while a command reads or builds a large board
    before any solve has set handlers of its own. A process started to ignore SIGTERM keeps
    ignoring it. The previous handler is restored on leaving, so a caller that runs a
    command in its own process (a test, a notebook) keeps its own; processes forked within
    the block inherit the handler and should reset it if they are stopped with SIGTERM
    (:func:`kamicp.procs.pool.start_pool` does).

    Examples
    --------
    >>> import os
    >>> before = signal.getsignal(signal.SIGTERM)
    >>> with sigterm_as_interrupt():
    ...     try:
    ...         os.kill(os.getpid(), signal.SIGTERM)
    ...     except KeyboardInterrupt:
    ...         print("interrupted")
    interrupted
    >>> signal.getsignal(signal.SIGTERM) is before
    True
    """

    def handler(signum, frame):
        raise KeyboardInterrupt

    previous = None
    try:
        if signal.getsignal(signal.SIGTERM) is not signal.SIG_IGN:
            previous = signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread: only the main thread can set handlers
        pass
    try:
        with redelivered_interrupts():
            yield
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
