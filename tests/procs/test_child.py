"""kamicp.procs.child and the other places that fork: a SIGTERM that comes while a process
is forked is not lost, and the process forked is not left running."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Each script sends itself SIGTERM from inside every fork (a hook run just before it), so
# that the signal comes within the fork, and says what became of it.
FORKS = {
    "child": """
        from kamicp.procs.child import Child
        def target(conn):
            time.sleep(60)
        Child(mp.get_context("fork"), target)
    """,
    "local workers": """
        from kamicp.game.regions import from_edges
        from kamicp.search.ida.local import LocalWorkers
        from kamicp.search.ida.tasks import WorkerSetup
        workers = LocalWorkers(2)
        try:
            workers.start(WorkerSetup.of(from_edges([0, 1, 0], [(0, 1), (1, 2)]), None))
        finally:
            workers.close()
    """,
    "pool": """
        from kamicp.procs.pool import start_pool
        start_pool(2)
    """,
}
HEAD = """
import multiprocessing as mp, os, signal, sys, time
from kamicp.procs.interruptible import sigterm_as_interrupt
os.register_at_fork(before=lambda: os.kill(os.getpid(), signal.SIGTERM))
"""
TAIL = """
        print("lost")
    except KeyboardInterrupt:
        print("interrupted", len(mp.active_children()))
"""


@pytest.mark.parametrize("where", sorted(FORKS))
def test_a_sigterm_within_a_fork_is_raised_once_the_fork_is_done(where):
    body = textwrap.indent(textwrap.dedent(FORKS[where]), " " * 8)
    script = HEAD + "with sigterm_as_interrupt():\n    try:\n" + body + TAIL
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert "Exception ignored" not in done.stderr, done.stderr
    lines = done.stdout.split()
    assert lines[:1] == ["interrupted"], (done.stdout, done.stderr)
    assert lines[1:] == ["0"], "the process forked still runs"
