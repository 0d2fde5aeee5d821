"""The shared arguments: a bad value is one line and exit 2, before any work."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kamicp.cli.main import main
from tests.cli.helpers import ARTICLE, ROOT, run


@pytest.mark.parametrize(
    "option",
    [
        ["--max-moves", "-1"],
        ["--time-limit", "0"],
        ["--time-limit", "nan"],
        ["--workers", "0"],
        ["--probe", "-1"],
        ["--index", "0"],
        ["--max-moves", "x"],
        ["--solver", "nope"],
        ["--tetrapod-depth", "-1"],
        ["--progress-every", "-1"],
        ["--tetrapod-depth", "1", "--solver", "sat"],  # only idastar (and the portfolio) ask it
        ["--beam-width", "0", "--solver", "greedy"],
        ["--time-limit", "inf"],  # the pools' waits would overflow
        ["--time-limit", "1e308", "--solver", "sat"],
        ["--workers", "2147483648", "--solver", "cpsat"],  # CP-SAT's TypeError
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(option):
    argv = [sys.executable, "-m", "kamicp", "solve", "puzzles/square/first.txt", *option]
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2 and not proc.stdout
    assert len(proc.stderr.strip().splitlines()) == 1 and option[0] in proc.stderr


@pytest.mark.parametrize(
    "argv",
    [("bench", ARTICLE, "--solver", "sat,nope"), ("cross-check", ARTICLE, "--solvers", "nope")],
)
def test_an_unknown_solver_is_one_line_and_exit_2(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and not out
    assert err.strip().count("\n") == 0 and "unknown solver 'nope'" in err


@pytest.mark.parametrize(
    "argv",
    [("bench", ARTICLE, "--solver", ""), ("cross-check", ARTICLE, "--solvers", " , ")],
)
def test_no_solver_named_is_an_error_not_an_empty_pass(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and not out
    assert err.strip().count("\n") == 0 and "no solver named" in err


@pytest.mark.parametrize(
    "argv",
    [
        ("solve", ARTICLE, "--solver", "idastar", "--journal", ""),
        ("solve", ARTICLE, "--certificate", ""),
        ("export", ARTICLE, "--moves", "2", "--out", ""),
        ("bench", ARTICLE, "--csv", ""),
    ],
)
def test_an_empty_file_name_is_refused_not_ignored(capsys, argv):
    with pytest.raises(SystemExit) as stop:  # argparse's error: the parser's one line
        main(list(argv))
    out, err = capsys.readouterr()
    assert stop.value.code == 2 and not out
    assert err.strip().count("\n") == 0 and "an empty file name" in err


def test_missing_file(capsys, tmp_path):
    code, _, err = run(capsys, "info", str(tmp_path / "nope.txt"))
    assert code == 2 and "nope.txt" in err
