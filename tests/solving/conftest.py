"""Fixtures of the solving tests."""

from __future__ import annotations

import signal

import pytest


@pytest.fixture
def ctrl_c_raises():
    """Ctrl-C raises KeyboardInterrupt during the test, as in a shell's foreground, even when
    the run started with SIGINT ignored (a background job, ``nohup``) or an earlier test left
    it at its default action (which would end the whole run with exit code 130)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)
