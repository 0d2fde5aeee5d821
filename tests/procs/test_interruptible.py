"""kamicp.procs.interruptible: a long call off the main thread, stopped by Ctrl-C."""

from __future__ import annotations

import ctypes
import os
import signal
import threading
import time

import pytest

from kamicp.procs.interruptible import (
    AGAIN,
    deferred_signals,
    noting_interrupts,
    run_interruptibly,
)


@pytest.fixture
def ctrl_c_raises():
    """Ctrl-C raises KeyboardInterrupt, as in a shell's foreground (a background job starts
    with it ignored)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_the_value_and_the_error_of_the_call_come_back():
    assert run_interruptibly(lambda: 6 * 7) == 42
    with pytest.raises(ZeroDivisionError):
        run_interruptibly(lambda: 1 / 0)


def test_the_call_runs_with_the_signals_blocked():
    # so that they reach the main thread, and threads the call starts (CP-SAT's) inherit it
    blocked = run_interruptibly(lambda: signal.pthread_sigmask(signal.SIG_BLOCK, []))
    assert {signal.SIGINT, signal.SIGTERM} <= blocked
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])


def test_ctrl_c_stops_the_call_and_is_raised_once_it_has_ended(ctrl_c_raises):
    released = threading.Event()
    ended = []
    stops = []

    def search():  # a search that only ends when told to stop
        released.wait(30)
        time.sleep(0.2)  # it takes a moment to wind down
        ended.append(time.monotonic())

    def stop():
        stops.append(time.monotonic())
        released.set()

    main = threading.main_thread().ident
    threading.Timer(0.3, signal.pthread_kill, (main, signal.SIGINT)).start()
    began = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        run_interruptibly(search, stop)
    raised = time.monotonic()
    assert stops and ended and stops[0] < ended[0] <= raised
    assert raised - began < 5
    assert not any(t.name == "interruptible" and t.is_alive() for t in threading.enumerate())


def test_signals_are_deferred_while_the_thread_starts(ctrl_c_raises):
    # a Ctrl-C inside Thread.start must wait for the call to be running, so it can stop it
    pending = []
    with deferred_signals(pending):
        signal.raise_signal(signal.SIGINT)  # noted, not raised
    assert pending == [signal.SIGINT]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back
    with pytest.raises(KeyboardInterrupt):
        signal.raise_signal(signal.SIGINT)


def _swallowed_ctrl_c() -> None:
    """A Ctrl-C whose KeyboardInterrupt a C callback swallows (as LLVM's, while Numba
    compiles): the handler runs inside the callback, and ctypes reports the exception."""

    def callback():
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):  # the handler runs at one of these steps
            pass

    ctypes.CFUNCTYPE(None)(callback)()


def test_a_swallowed_ctrl_c_is_sent_again_within_the_block():
    seen = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: seen.append(signum))
    try:
        with pytest.raises(KeyboardInterrupt):
            with noting_interrupts() as noted:
                _swallowed_ctrl_c()
                time.sleep(20 * AGAIN)  # the signal sent again ends it
    finally:
        signal.signal(signal.SIGINT, previous)
    assert noted == [signal.SIGINT, signal.SIGINT] and seen == []


def test_a_swallowed_ctrl_c_is_not_sent_again_once_the_block_has_ended():
    # The block noted it and answers as interrupted; a signal sent after it would stop the
    # answer itself (uncaught, the process would end by SIGINT with nothing printed).
    seen = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: seen.append(signum))
    try:
        with noting_interrupts() as noted:
            _swallowed_ctrl_c()
        time.sleep(20 * AGAIN)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert noted == [signal.SIGINT] and seen == []
