"""The external checker drat-trim (kamicp.proof.drat_trim): absent, or its verdict parsed."""

from __future__ import annotations

import os
import stat

from kamicp.proof.drat_trim import run_drat_trim


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
