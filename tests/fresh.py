"""Run a script in a fresh interpreter, as ``kamicp`` runs, for the tests that send it a
real Ctrl-C: in a long pytest process a Ctrl-C to an in-process solve is not always obeyed
(an open limit: BENCHMARKS.md, "Limits found and mended"), and a real run is a process of its
own."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_fresh(script: str, *args: str) -> list:
    """Run ``python -c script args`` from the repository's root with Ctrl-C at its default
    (a background job's shell would start it ignored); it must exit 0, and its last line of
    output is JSON, returned."""
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])
