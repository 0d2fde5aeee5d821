"""``kamicp solve --progress``: each bound once as it is proved, and how a search stands."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from kamicp.formats import load
from kamicp.game.regions import region_graph
from kamicp.models.sat import solvers as sat
from kamicp.procs.progress import Progress, Seen, watched
from kamicp.search.ida import search as ida
from kamicp.solving.options import SolveOptions
from kamicp.solving.portfolio import solve_portfolio
from tests.cli.helpers import ROOT, run


@pytest.mark.parametrize("solver", ["sat", "idastar", "portfolio", "cpsat"])
def test_progress_prints_each_bound_once_as_it_is_proved(solver):
    # holes.txt: start bound 4, optimum 5. Run as a process, so that a line printed by a
    # forked backend (portfolio, contained sat) would be seen too.
    argv = ["solve", "puzzles/square/holes.txt", "--solver", solver, "--progress", "--json"]
    proc = subprocess.run(
        [sys.executable, "-m", "kamicp", *argv, "--time-limit", "60"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 0 and json.loads(proc.stdout)["moves"] == 5
    lines = proc.stderr.strip().splitlines()
    bounds = []
    for line in lines:
        name, seconds, text = line.split(": ")
        assert name == "square holes" and seconds.endswith(" s")
        low, _, high = text.partition("optimum")
        bounds.append((int(low.strip(" <=")), int(high.strip(" <=")) if high else None))
    assert bounds[0] == (4, None)  # the start's bound comes first
    assert len(set(bounds)) == len(bounds)  # a line only when a bound improves
    assert all(low <= 5 and (high is None or high >= 5) for low, high in bounds)
    assert [low for low, _ in bounds] == sorted(low for low, _ in bounds)
    highs = [high for _, high in bounds if high is not None]
    assert highs and highs == sorted(highs, reverse=True) and highs[-1] == 5
    assert bounds[-1] == (5, 5)  # the last line is the answer's bounds


@pytest.mark.parametrize("solver", ["sat", "idastar", "portfolio"])
def test_progress_starts_from_a_known_solution(solver):
    holes = "puzzles/square/holes.txt"
    argv = ["solve", holes, "--solver", solver, "--progress", "--known-solution"]
    proc = subprocess.run(
        [sys.executable, "-m", "kamicp", *argv, "0,4:R 0,4:G 0,4:Y 0,4:R 0,4:B"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 0
    texts = [line.split(": ")[-1] for line in proc.stderr.strip().splitlines()]
    assert texts[0] == "optimum <= 5"  # the given solution, before anything is proved
    assert texts[-1] == "5 <= optimum <= 5"


def test_progress_every_adds_how_the_search_stands(capsys, monkeypatch):
    # idastar tells at every state (STATUS_EVERY 0), --progress-every 0 prints every line:
    # the bound lines, and between them "SOLVER: searching N moves ..." lines
    monkeypatch.setattr(ida, "STATUS_EVERY", 0.0)
    holes = str(ROOT / "puzzles/square/holes.txt")  # start bound 4, optimum 5
    argv = ["solve", holes, "--solver", "idastar", "--progress-every", "0", "--json"]
    code, out, err = run(capsys, *argv)
    assert code == 0 and json.loads(out)["moves"] == 5
    status = [line for line in err.splitlines() if ": idastar: " in line]
    told = [line for line in err.splitlines() if ": idastar: " not in line]
    assert status and told and told[-1].endswith(": 5 <= optimum <= 5")
    for line in status:
        name, seconds, solver, text = line.split(": ", 3)
        assert seconds.endswith(" s") and solver == "idastar"
        assert text.startswith("searching ") and " states; tripod checks " in text


def test_progress_every_says_which_horizon_sat_decides(capsys, monkeypatch):
    monkeypatch.setattr(sat, "STATUS_EVERY", 0.0)  # a report before every conflict slice
    holes = str(ROOT / "puzzles/square/holes.txt")  # start bound 4, optimum 5
    argv = ["solve", holes, "--solver", "sat", "--progress-every", "0", "--json"]
    code, out, err = run(capsys, *argv)
    assert code == 0 and json.loads(out)["moves"] == 5
    status = [line.split(": ", 3) for line in err.splitlines() if ": sat: " in line]
    assert status and all(text.startswith("deciding 4 moves for ") for *_, text in status)
    assert err.splitlines()[-1].endswith(": 5 <= optimum <= 5")


def test_each_solver_gets_its_own_status_period():
    # a portfolio's two backends both report: one line per solver and period, not per period
    stream = io.StringIO()
    progress = Progress(stream, "P", every=3600)
    progress.start -= 3600  # the first period is over
    for text in ["idastar: a", "idastar: b", "sat: c", "sat: d", "idastar: e"]:
        progress.status(text)
    assert [line.split(": ", 2)[2] for line in stream.getvalue().splitlines()] == [
        "idastar: a",
        "sat: c",
    ]


def test_the_portfolio_passes_on_how_idastar_stands(monkeypatch):
    monkeypatch.setattr(ida, "STATUS_EVERY", 0.0)  # the forked backend inherits it
    heard = []

    class Listener(Seen):
        def status(self, text):
            heard.append(text)

    g = region_graph(load(str(ROOT / "puzzles/square/holes.txt"))[0])  # bound 4, optimum 5
    with watched(Listener()):
        result = solve_portfolio(g, SolveOptions(time_limit=60), backends=("idastar",))
    assert result.status == "optimal" and result.upper_bound == 5
    assert heard and all(text.startswith("idastar: searching ") for text in heard)
