"""The external checker drat-trim (kamicp.proof.drat_trim): absent, or its verdict parsed."""

from __future__ import annotations

import os
import stat

from kamicp.proof.drat_trim import run_drat_trim
from tests.processes import running


def test_run_drat_trim_absent_or_parsed(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    assert run_drat_trim("a.cnf", "a.drat", 5) is None
    fake = tmp_path / "drat-trim"
    fake.write_text(
        "#!/bin/sh\n"
        'if [ "$2" = good ]; then\n'
        "echo 'c 12 of 30 lemmas in core using 99 resolution steps'\n"
        "echo 'c 2 RAT lemmas in core; 0 redundant literals in core lemmas'\n"
        "echo 's VERIFIED'\nelse echo 's NOT VERIFIED'; fi\n"
    )
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    good = run_drat_trim("a.cnf", "good", 5)
    assert good.ok and (good.lemmas_checked, good.lemmas_total, good.rat_lemmas) == (12, 30, 2)
    bad = run_drat_trim("a.cnf", "bad", 5)
    assert not bad.ok and bad.reason == "drat-trim: s NOT VERIFIED"
    assert bad.checker == "drat-trim" and os.environ["PATH"] == str(tmp_path)


def test_drat_trim_dies_with_a_killed_parent(tmp_path):
    # a long check must not outlive a killed `kamicp verify`
    import signal
    import subprocess
    import sys
    import time

    fake = tmp_path / "drat-trim"
    fake.write_text(f"#!/bin/sh\necho $$ > {tmp_path / 'pid'}\nexec sleep 60\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    call = "from kamicp.proof.drat_trim import run_drat_trim; run_drat_trim('a.cnf', 'a.drat')"
    env = dict(os.environ, PATH=f"{tmp_path}:{os.environ['PATH']}")
    parent = subprocess.Popen([sys.executable, "-c", call], env=env)
    pid_file = tmp_path / "pid"
    for _ in range(200):  # the import and the start of the fake checker
        if pid_file.exists() and pid_file.read_text().strip():
            break
        time.sleep(0.05)
    checker = int(pid_file.read_text())
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    for _ in range(40):
        if not running(checker):
            break
        time.sleep(0.05)
    else:
        os.kill(checker, signal.SIGKILL)
        raise AssertionError("drat-trim outlived its parent")
