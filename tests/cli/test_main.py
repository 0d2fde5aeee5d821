"""How a run ends: bad input, bugs, memory and signals as one line and an exit code, never a
traceback; standard input as the puzzle."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from kamicp.cli.main import main
from kamicp.errors import InternalError
from tests.cli.helpers import ARTICLE, ROOT, run


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("geometry: square\nab\nabc\n")
    before = bad.read_text()
    proc = subprocess.run(
        [sys.executable, "-m", "kamicp", "solve", str(bad)], capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "bad.txt:3" in proc.stderr
    assert bad.read_text() == before  # nothing the user gave is overwritten


HUGE = "9" * 5000  # over the 4,300 digits int() takes


@pytest.mark.parametrize(
    ("name", "text", "problem"),
    [
        ("par.txt", f"par: {HUGE}\nAB\n", "par.txt:1: par is too large"),
        ("pivot.txt", f"pivot: {HUGE},0\nAB\n", "pivot.txt:1: pivot is too large"),
        ("flood.txt", f"{HUGE} by 1 -> 1\n0\n", "flood.txt:1: a header number is too large"),
        ("f99.txt", f"1 2 {HUGE}\n1 2\n1\n", "f99.txt:1: a number of 5000 digits"),
        ("big.json", f'{{"nodes": {{"1": "R"}}, "par": {HUGE}}}', "big.json:1: bad JSON: a number"),
        ("big.puz", f"01|Default|0|0|{HUGE}|2|11|1||0|\n", "big.puz:1: the width"),
    ],
)
def test_numbers_too_large_are_named(capsys, tmp_path, name, text, problem):
    path = tmp_path / name
    path.write_text(text)
    code, _, err = run(capsys, "info", str(path))
    assert code == 2 and problem in err and len(err.strip().splitlines()) == 1


def test_standard_input_gives_the_puzzle(tmp_path):
    first = (ROOT / "puzzles" / "square" / "first.txt").read_text()

    def kamicp(*argv, stdin):
        cmd = [sys.executable, "-m", "kamicp", *argv]
        return subprocess.run(cmd, input=stdin, capture_output=True, text=True, cwd=tmp_path)

    done = kamicp("solve", "-", "--solver", "sat", "--json", stdin=first)
    data = json.loads(done.stdout)
    assert done.returncode == 0 and data["name"] == "first" and data["moves"] == 4  # its header
    done = kamicp("check", "-", " ".join(data["solution"]), stdin=first)
    assert done.returncode == 0 and done.stdout.startswith("solved in 4 moves")
    for argv, problem in [
        (["check", "-", "-"], "kamicp: standard input can give the puzzle or the moves"),
        (["solve", "-", "--certificate", "c"], "kamicp: --certificate: needs a puzzle file"),
        (["solve", "-", "--index", "2"], "kamicp: <stdin>: --index 2: the file has 1"),
    ]:
        done = kamicp(*argv, stdin=first)
        assert done.returncode == 2 and done.stderr.startswith(problem)
        assert done.stderr.count("\n") == 1 and not (tmp_path / "c").exists()
    done = kamicp("info", "-", stdin="GGR\nrules: free\n")
    assert done.returncode == 2 and done.stderr.startswith("kamicp: <stdin>:2: header line")
    done = kamicp("info", "-", stdin="GGR\n")  # no name in the text
    assert done.returncode == 0 and done.stdout.startswith("name:         stdin\n")


@pytest.mark.parametrize(
    "signame, solver",
    [
        ("SIGTERM", ["--solver", "idastar", "--workers", "2"]),
        ("SIGTERM", []),
        # SIGTERM is taken as Ctrl-C: the SIGINT cases below cover the models' paths
        pytest.param("SIGTERM", ["--solver", "sat"], marks=pytest.mark.slow),
        pytest.param("SIGTERM", ["--solver", "cpsat"], marks=pytest.mark.slow),
        ("SIGINT", ["--solver", "sat"]),
        ("SIGINT", ["--solver", "cpsat"]),
    ],
)
def test_a_signal_ends_a_solve_with_its_bounds(tmp_path, signame, solver):
    # kill, timeout(1) and batch systems stop a job with SIGTERM, and a job started in the
    # background ignores Ctrl-C: SIGTERM is taken as Ctrl-C, the bounds so far are printed
    # (exit 3, unknown), IDA*'s worker processes and the portfolio's backends end too. The
    # horizon drivers must not let the model's library keep the signal: sat and cpsat must
    # not answer "feasible" (exit 0), go on until the horizon ends, or abort at exit.
    import re
    import signal
    import time

    from tests.seed import long_board

    board = long_board(tmp_path)  # 10-13 moves
    argv = [sys.executable, "-m", "kamicp", "solve", str(board), "--progress", *solver]
    proc = subprocess.Popen(
        argv,
        cwd=ROOT,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        # as in a shell's foreground, whatever started the tests (a background job ignores it)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    lines = []
    while "<= optimum <=" not in (line := proc.stderr.readline()):  # the beam's solution
        assert line, "".join(lines)  # not ended before it
        lines.append(line)
    time.sleep(2)  # the search itself (IDA*'s workers, the backends, a model) is running
    began = time.monotonic()
    proc.send_signal(getattr(signal, signame))
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 3, err
    assert time.monotonic() - began < 20  # at once, not when a horizon ends (far later)
    assert "status:   unknown (interrupted)" in out
    low, high = map(int, re.search(r"bounds: +(\d+) <= optimum <= (\d+)", out).groups())
    assert 10 <= low <= high <= 13
    assert "Traceback" not in err and "terminate called" not in err


def _broken_search(self, job):
    raise ZeroDivisionError("a bug in a worker")


def test_a_bug_in_a_worker_is_one_line_with_the_bounds(capsys, monkeypatch):
    from kamicp.search.ida import engine, tasks

    monkeypatch.delenv("KAMICP_TRACEBACK", raising=False)
    monkeypatch.setattr(engine, "SPLIT_AFTER", 0.0)  # the workers start at once
    monkeypatch.setattr(tasks.TaskSearch, "answer", _broken_search)  # forked with them
    holes = str(ROOT / "puzzles/square/holes.txt")  # start bound 4, optimum 5
    code, out, err = run(capsys, "solve", holes, "--solver", "idastar", "--workers", "2")
    assert code == 70 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "internal error in idastar: ZeroDivisionError: a bug in a worker" in err
    assert err.rstrip().endswith("proved before it: 4 <= optimum <= 5")  # the start beam's
    # with KAMICP_TRACEBACK the bug is raised, its cause attached
    monkeypatch.setenv("KAMICP_TRACEBACK", "1")
    with pytest.raises(InternalError) as bug:
        main(["solve", holes, "--solver", "idastar", "--workers", "2"])
    assert isinstance(bug.value.__cause__, ZeroDivisionError)


def _killed_search(self, job):
    import os
    import signal

    os.kill(os.getpid(), signal.SIGKILL)  # as the kernel's out-of-memory killer would


def test_a_worker_killed_from_outside_ends_the_solve_with_one_line(capsys, monkeypatch):
    # every worker that takes the task dies: after MOST_LOSSES tries the search stops
    from kamicp.search.ida import engine, tasks

    monkeypatch.delenv("KAMICP_TRACEBACK", raising=False)
    monkeypatch.setattr(engine, "SPLIT_AFTER", 0.0)
    monkeypatch.setattr(tasks.TaskSearch, "answer", _killed_search)
    holes = str(ROOT / "puzzles/square/holes.txt")
    argv = ["solve", holes, "--solver", "idastar", "--workers", "2", "--time-limit", "60"]
    code, out, err = run(capsys, *argv)
    assert code == 70 and out == "" and err.count("\n") == 1 and "bug" not in err
    assert "idastar stopped: a worker process of the parallel search died (SIGKILL" in err
    assert err.rstrip().endswith("proved before it: 4 <= optimum <= 5")


def test_a_bug_outside_a_solve_is_one_line_too(capsys, monkeypatch):
    from kamicp.cli import solve as cli_solve  # where run_solve looks region_graph up

    monkeypatch.delenv("KAMICP_TRACEBACK", raising=False)

    def broken(*args, **kwargs):
        raise KeyError("oops")

    monkeypatch.setattr(cli_solve, "region_graph", broken)
    code, out, err = run(capsys, "solve", ARTICLE)
    assert code == 70 and err == "kamicp: internal error: KeyError: 'oops' (a bug in kamicp)\n"


def test_running_out_of_memory_outside_a_solve(capsys, monkeypatch):
    from kamicp.cli import info as cli_info  # where info() looks region_graph up

    monkeypatch.delenv("KAMICP_TRACEBACK", raising=False)

    def too_big(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(cli_info, "region_graph", too_big)
    assert run(capsys, "info", ARTICLE)[1:] == ("", "kamicp: out of memory\n")


def test_running_out_of_memory_is_not_called_a_bug(capsys, monkeypatch):
    from kamicp.solving import driver

    monkeypatch.delenv("KAMICP_TRACEBACK", raising=False)

    def too_big(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(driver, "solve_reference", too_big)
    code, _, err = run(capsys, "solve", ARTICLE, "--solver", "idastar")
    assert code == 70 and "bug" not in err
    assert err.startswith("kamicp: idastar ran out of memory; proved before it: ")


HEAVY = (
    "ortools",
    "pysat",
    "networkx",
    "numba",
    "numpy",
    "PIL",
    "kamicp.bounds",
    "kamicp.search.ida",
    "kamicp.solving.horizons",
)


@pytest.mark.parametrize(
    ("argv", "loaded"),
    [
        (["--help"], ()),
        (["--version"], ()),
        (["show", "--help"], ()),  # networkx only where a graph board is drawn
        # the bounds, but not Numba: no compiled loop runs in a BFS of a small board
        (["solve", str(ROOT / "puzzles/square/first.txt"), "--solver", "bfs"], ("kamicp.bounds",)),
        # a Flood-It board the compiled A* answers: neither IDA* nor the models' drivers
        (["solve", str(ROOT / "puzzles/flood/eight.txt")], ("numpy", "kamicp.bounds")),
    ],
)
def test_start_up_imports_only_what_the_command_needs(argv, loaded):
    # a fresh interpreter: the command line imports a command's module only when it runs,
    # and the model libraries only when a solve asks for them
    code = (
        "import sys\nfrom kamicp.cli.main import main\n"
        f"try:\n    main({argv!r})\nexcept SystemExit:\n    pass\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    modules = json.loads(done.stderr.strip().splitlines()[-1].replace("'", '"'))
    assert "ortools" not in modules and "pysat" not in modules
    assert set(loaded) <= set(modules)
    if not loaded:
        assert modules == []
    if argv[0] == "show":
        assert "numba" not in modules and "kamicp.bounds" not in modules
    if argv[0] == "solve":
        assert "numba" not in modules
        assert "kamicp.search.ida" not in modules and "kamicp.solving.horizons" not in modules


def test_the_parser_of_every_command_builds(capsys):
    from kamicp.cli.main import COMMANDS, build_parser

    parser = build_parser()  # every command's module, as the docs build it
    for name in COMMANDS:
        with pytest.raises(SystemExit) as done:
            parser.parse_args([name, "--help"])
        assert done.value.code == 0
        assert capsys.readouterr().out.startswith(f"usage: kamicp {name}")


def test_sigterm_while_reading_the_board_ends_with_one_line():
    # a command still reading its input (a large board, or standard input here) has set no
    # solve handlers yet: SIGTERM ends it as Ctrl-C does, with one line, not silently
    import signal
    import time

    proc = subprocess.Popen(
        [sys.executable, "-m", "kamicp", "info", "-"],
        cwd=ROOT,
        text=True,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    time.sleep(1.0)  # past the imports, waiting on standard input
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=10)
    assert (proc.returncode, out, err) == (130, "", "kamicp: interrupted\n")


def test_a_command_run_in_process_leaves_the_sigterm_handler_as_it_found_it(capsys):
    # a test, a notebook or a caller's own pool forks after main returns: its children
    # must not inherit the command's SIGTERM-as-Ctrl-C
    import signal

    before = signal.getsignal(signal.SIGTERM)
    assert main(["info", str(ROOT / "puzzles" / "square" / "first.txt")]) == 0
    assert signal.getsignal(signal.SIGTERM) is before


def test_ctrl_c_while_the_command_loads_ends_with_one_line(capsys, monkeypatch):
    # a first run imports the command's module for a second: Ctrl-C there is one line, 130
    import importlib

    real = importlib.import_module

    def interrupted(name, *args):
        if name == "kamicp.cli.solve":
            raise KeyboardInterrupt
        return real(name, *args)

    monkeypatch.setattr(importlib, "import_module", interrupted)
    assert main(["solve", str(ARTICLE)]) == 130
    err = capsys.readouterr().err
    assert err.strip() == "kamicp: interrupted"


def test_bounds_after_ctrl_c_inside_an_import_are_the_colours_but_one(monkeypatch):
    # Ctrl-C inside Numba's import (the start's bound compiles its loops on a first run)
    # leaves it half made; the bounds of the interrupted answer must not need it
    from kamicp import bounds
    from kamicp.game.regions import from_edges
    from kamicp.solving import driver
    from kamicp.solving.solve import solve

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    def half_made(*args, **kwargs):
        raise AttributeError("partially initialized module 'numba.core.types'")

    monkeypatch.setattr(bounds, "lower_bound", interrupted)
    monkeypatch.setattr(driver, "unknown", half_made)
    g = from_edges([0, 1, 2, 3, 0], [(i, i + 1) for i in range(4)])
    r = solve(g, "idastar")
    assert (r.status, r.lower_bound, r.proof, r.interrupted) == ("unknown", 3, "interrupted", True)


@pytest.mark.parametrize("signame, after", [("SIGINT", 0.5), ("SIGINT", 1.5), ("SIGTERM", 1.0)])
def test_a_signal_during_the_first_runs_compile_ends_with_the_answer(tmp_path, signame, after):
    # With an empty Numba cache the loops compile for seconds: a signal then lands inside
    # Numba's compiler (and at times inside an LLVM callback, where Python swallows its
    # KeyboardInterrupt). The run must still end with its answer (exit 3) or one line (130),
    # never a traceback, an "Exception ignored" report or a half-compiled loop's error.
    import os
    import signal
    import time

    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "kamicp", "solve", str(ROOT / "puzzles" / "square" / "first.txt")],
        cwd=ROOT,
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    time.sleep(after)
    proc.send_signal(getattr(signal, signame))
    out, err = proc.communicate(timeout=120)
    assert proc.returncode in (3, 130), err
    assert "Traceback" not in err and "Exception ignored" not in err, err
    if proc.returncode == 3:
        assert "status:   unknown (interrupted)" in out and err == ""
    else:
        assert err == "kamicp: interrupted\n"
