"""Checking a DRAT proof with the reference C checker ``drat-trim``, when it is installed.

``drat-trim`` [Wetzler, Heule, Hunt, SAT 2014] is an independent second opinion on the proofs
:mod:`kamicp.proof.drat` checks: a certificate is checked by both when it is on the ``PATH``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from pathlib import Path

from kamicp.procs.child import die_with_parent
from kamicp.proof.drat import DratResult

__all__ = ["run_drat_trim"]

_CORE_LINE = re.compile(r"c (\d+) of (\d+) lemmas in core")
_RAT_LINE = re.compile(r"c (\d+) RAT lemmas in core")


def run_drat_trim(
    cnf_path: str | Path, proof_path: str | Path, timeout: float | None = None
) -> DratResult | None:
    """Check a proof with the reference C checker ``drat-trim``.

    Parameters
    ----------
    cnf_path, proof_path : str or Path
        The formula (DIMACS CNF) and the proof (text or binary DRAT).
    timeout : float, optional
        Seconds; passed on (``-t``) and enforced here too. None: no limit.

    Returns
    -------
    DratResult or None
        None when ``drat-trim`` is not on the ``PATH``. Else ``ok`` is True iff it prints
        ``s VERIFIED``, and its ``c X of Y lemmas in core`` line fills the counts.
    """
    exe = shutil.which("drat-trim")
    if exe is None:
        return None
    cmd = [exe, str(cnf_path), str(proof_path)]
    if timeout is not None:
        cmd += ["-t", str(max(1, int(timeout)))]
    start = time.monotonic()
    try:
        done = subprocess.run(
            cmd,
            capture_output=True,
            text=True,
            timeout=None if timeout is None else timeout + 5,
            check=False,
            preexec_fn=die_with_parent,  # a long check ends with a killed kamicp verify
        )
    except subprocess.TimeoutExpired:
        return DratResult(
            False,
            "drat-trim timed out",
            seconds=time.monotonic() - start,
            timed_out=True,
            checker="drat-trim",
        )
    out = done.stdout
    verdicts = [s.strip() for s in out.splitlines() if s.startswith("s ")]
    ok = "s VERIFIED" in verdicts
    core = _CORE_LINE.search(out)
    rat = _RAT_LINE.search(out)
    if ok:
        reason = "drat-trim: s VERIFIED"
    else:
        tail = (verdicts or out.strip().splitlines()[-1:] or [f"exit code {done.returncode}"])[-1]
        reason = f"drat-trim: {tail}"
    return DratResult(
        ok,
        reason,
        lemmas_checked=int(core.group(1)) if core else 0,
        lemmas_total=int(core.group(2)) if core else 0,
        seconds=time.monotonic() - start,
        rat_lemmas=int(rat.group(1)) if rat else 0,
        timed_out="TIMEOUT" in out.upper() and not ok,
        checker="drat-trim",
    )
