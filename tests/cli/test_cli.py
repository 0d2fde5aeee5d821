"""The command line: statuses, exit codes, JSON output, one-line errors, no tracebacks."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from kamicp.cli.main import main
from kamicp.errors import InternalError
from kamicp.formats import load
from kamicp.game.regions import region_graph
from kamicp.models import sat
from kamicp.procs.progress import Progress, Seen, watched
from kamicp.search import ida
from kamicp.solving.portfolio import solve_portfolio
from tests.seed import DATA

ARTICLE = str(DATA / "kami2-article-graph.json")
ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("solver", ["bfs", "astar", "cpsat", "sat"])
def test_solve_the_article_graph_optimally(capsys, solver):
    code, out, _ = run(capsys, "solve", ARTICLE, "--solver", solver, "--json")
    data = json.loads(out)
    assert code == 0
    assert data["status"] == "optimal" and data["moves"] == 5
    assert data["lower_bound"] == data["upper_bound"] == 5
    assert len(data["solution"]) == 5
    code, out, _ = run(capsys, "check", ARTICLE, " ".join(data["solution"]))
    assert code == 0 and "solved in 5 moves" in out


@pytest.mark.parametrize("solver", ["bfs", "cpsat", "sat"])
def test_max_moves_answers_yes_or_no(capsys, solver):
    code, out, _ = run(capsys, "solve", ARTICLE, "--solver", solver, "--max-moves", "4", "--json")
    assert code == 1 and json.loads(out)["status"] == "infeasible"
    code, out, _ = run(capsys, "solve", ARTICLE, "--solver", solver, "--max-moves", "6", "--json")
    data = json.loads(out)
    assert code == 0 and data["status"] in ("optimal", "feasible") and data["moves"] <= 6


def test_idastar_on_two_processes(capsys, monkeypatch):
    from kamicp.search import parallel

    monkeypatch.setattr(parallel, "SPLIT_AFTER", 0.0)  # split every iteration: the pool runs
    pools = []
    real = parallel.SplitIda.split

    def split(self, root, threshold):
        pools.append(self.workers)
        return real(self, root, threshold)

    monkeypatch.setattr(parallel.SplitIda, "split", split)
    # holes.txt: start bound 4, optimum 5, so IDA* has to refute 4 moves
    holes = str(ROOT / "puzzles/square/holes.txt")
    argv = ["solve", holes, "--solver", "idastar", "--workers", "2", "--json"]
    code, out, _ = run(capsys, *argv)
    data = json.loads(out)
    assert code == 0 and data["status"] == "optimal" and data["moves"] == 5
    assert run(capsys, "check", holes, " ".join(data["solution"]))[0] == 0
    code, out, _ = run(capsys, *argv, "--max-moves", "4")
    assert code == 1 and json.loads(out)["status"] == "infeasible"
    assert pools and set(pools) == {2}


@pytest.mark.parametrize("strategy", ["up", "down", "bisect"])
def test_every_strategy_proves_the_article_graph(capsys, strategy):
    argv = ["solve", ARTICLE, "--strategy", strategy, "--time-limit", "60", "--json"]
    code, out, _ = run(capsys, *argv)
    data = json.loads(out)
    assert code == 0 and data["status"] == "optimal" and data["moves"] == 5


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


def test_portfolio_proves_the_article_graph(capsys):
    code, out, _ = run(capsys, "solve", ARTICLE, "--solver", "portfolio", "--time-limit", "60")
    assert code == 0 and "optimal, 5 moves" in out


def test_check_reports_illegal_moves_and_unsolved_boards(capsys):
    code, out, _ = run(capsys, "check", ARTICLE, "10:Purple 99:Red")
    assert code == 1 and "illegal" in out and "move 2" in out
    code, out, _ = run(capsys, "check", ARTICLE, "10:Purple")
    assert code == 1 and "not solved" in out
    code, out, _ = run(capsys, "check", ARTICLE, "10:Purple 8:White 5:Yellow 2:Purple 1:Red")
    assert code == 0


def test_final_colour(capsys):
    code, out, _ = run(capsys, "solve", ARTICLE, "--final-colour", "White", "--json")
    data = json.loads(out)
    assert code == 0 and data["status"] == "optimal"
    code, out, _ = run(capsys, "check", ARTICLE, " ".join(data["solution"]))
    assert code == 0
    for command in (["solve"], ["export", "--moves", "3"]):
        code, _, err = run(capsys, *command, ARTICLE, "--final-colour", "Green")
        assert code == 2 and err.count("\n") == 1
        assert f"{ARTICLE}: --final-colour: colour 'Green' is not in the palette" in err


def test_info_lists_bounds(capsys):
    code, out, _ = run(capsys, "info", ARTICLE, "--json")
    data = json.loads(out)
    assert code == 0
    assert data["regions"] == 16 and data["colours"] == 4 and data["islands"] == 1
    assert 3 <= data["lower_bound"] <= 5
    bounds = data["lower_bounds"]
    assert bounds["tripods"] >= bounds["walks"] >= bounds["islands"]
    assert data["lower_bound"] == max(bounds.values())


def test_info_with_tetrapods(capsys):
    from kamicp import bounds

    tree = str(ROOT / "puzzles" / "graph" / "tetrapod.json")
    bounds.forget_cached_bounds()
    code, out, _ = run(capsys, "info", tree, "--json")
    assert code == 0 and "tetrapods" not in json.loads(out)["lower_bounds"]
    code, out, _ = run(capsys, "info", tree, "--json", "--tetrapods")
    data = json.loads(out)
    assert code == 0 and data["lower_bounds"]["tripods"] == 4
    assert data["lower_bounds"]["tetrapods"] == data["lower_bound"] == 5


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


def test_a_board_no_moves_solve_says_so(capsys, tmp_path):
    # pivot rules, two pieces: the pivot never reaches the other one
    board = tmp_path / "never.json"
    nodes = {"a": "Red", "b": "Blue", "c": "Red", "d": "Blue"}
    spec = {"rules": "pivot", "pivot": "a", "nodes": nodes, "edges": [["a", "b"], ["c", "d"]]}
    board.write_text(json.dumps(spec))
    code, out, _ = run(capsys, "solve", str(board))
    assert code == 1
    assert "infeasible: no sequence of moves solves it" in out
    assert "bounds:   no solution exists" in out
    code, out, _ = run(capsys, "info", str(board), "--first-moves")
    assert code == 0 and "lower_bound:  unsolvable (no sequence of moves solves it)" in out
    assert "optimal_first_moves: none: no sequence of moves solves it" in out
    code, out, _ = run(capsys, "hint", str(board))
    assert code == 1 and "no sequence of moves solves this board" in out


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
        ["--time-limit", "inf"],  # the pools' waits ended in an OverflowError
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
    [
        ["bench", "{file}", "--solver", "greedy", "--csv", "{missing}/rows.csv"],
        ["bench", "{file}", "--solver", "greedy", "--json", "{folder}"],
        ["render", "{file}", "--solve", "--out", "{missing}/board.svg"],
    ],
)
def test_an_output_that_cannot_be_made_is_refused_before_the_work(capsys, monkeypatch, argv):
    # bench wrote its --csv/--json only after every puzzle had run: a missing folder then
    # cost the whole run (render --solve the solve); now one line, before anything is solved
    from kamicp.cli import main as cli
    from kamicp.solving import bench

    monkeypatch.setattr(bench, "run_one", lambda *args: pytest.fail("solved first"))
    monkeypatch.setattr(cli, "solve", lambda *args, **kwargs: pytest.fail("solved first"))
    folder = ROOT / "puzzles" / "square"
    paths = {"file": str(folder / "first.txt"), "folder": str(folder), "missing": "/no/such"}
    code, out, err = run(capsys, *(arg.format(**paths) for arg in argv))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "no such folder: /no/such" in err or "a folder, not a file" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["bench", "{file}", "--solver", "greedy", "--csv", "{file}"],
        ["bench", "{folder}", "--solver", "greedy", "--json", "{file}"],
        ["batch", "{folder}", "--out", "{file}"],
        ["export", "{file}", "--moves", "2", "--out", "{file}"],
        ["render", "{file}", "--out", "{file}"],
    ],
)
def test_no_command_writes_over_an_input(capsys, tmp_path, argv):
    # the output named is a puzzle given, directly or inside a folder given: refused
    puzzle = tmp_path / "puzzles" / "first.txt"
    puzzle.parent.mkdir()
    puzzle.write_text((ROOT / "puzzles" / "square" / "first.txt").read_text())
    before = puzzle.read_text()
    paths = {"file": str(puzzle), "folder": str(puzzle.parent)}
    code, _, err = run(capsys, *(arg.format(**paths) for arg in argv))
    assert code == 2 and "refusing to overwrite the input file" in err
    assert puzzle.read_text() == before


@pytest.mark.parametrize(
    "argv",
    [
        ["render", "{puzzle}", "--out", "{missing}/x.svg"],
        ["render", "{puzzle}", "--out", "{missing}/x.png"],
        ["export", "{puzzle}", "--moves", "2", "--out", "{missing}/x.cnf"],
        ["export", "{puzzle}", "--moves", "2", "--out", "{folder}"],
        ["bench", "{puzzle}", "--solver", "greedy", "--csv", "{missing}/x.csv"],
        ["batch", "{puzzle}", "--solver", "greedy", "--out", "{missing}/x.jsonl"],
        ["batch", "{puzzle}", "--solver", "greedy", "--out", "{folder}"],
        ["solve", "{puzzle}", "--solver", "bfs", "--certificate", "{puzzle}/cert"],
    ],
)
def test_an_output_that_cannot_be_written_is_one_line(capsys, tmp_path, argv):
    # a missing folder, a folder, a path through a file: one line naming it, exit 2
    puzzle = tmp_path / "first.txt"
    puzzle.write_text((ROOT / "puzzles" / "square" / "first.txt").read_text())
    paths = {"puzzle": str(puzzle), "missing": str(tmp_path / "nope"), "folder": str(tmp_path)}
    code, _, err = run(capsys, *(arg.format(**paths) for arg in argv))
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert str(tmp_path) in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("puzzle", "move", "problem"),
    [
        ("square/first.txt", "#²:G", "no region #²"),  # str.isdigit takes '²', int() does not
        ("square/first.txt", "²,0:G", "is not a cell"),
        ("square/first.txt", "0," + "9" * 5000 + ":G", "is off the board"),  # int()'s limit
        ("square/first.txt", "#" + "9" * 5000 + ":G", "no region #999"),
    ],
)
def test_moves_with_other_digits_or_huge_numbers_are_named(capsys, puzzle, move, problem):
    code, out, _ = run(capsys, "check", str(ROOT / "puzzles" / puzzle), move)
    assert code == 1 and problem in out and "Traceback" not in out


def test_missing_file(capsys, tmp_path):
    code, _, err = run(capsys, "info", str(tmp_path / "nope.txt"))
    assert code == 2 and "nope.txt" in err


@pytest.mark.parametrize(
    "argv",
    [("bench", ARTICLE, "--solver", "sat,nope"), ("cross-check", ARTICLE, "--solvers", "nope")],
)
def test_an_unknown_solver_is_one_line_and_exit_2(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and not out
    assert err.strip().count("\n") == 0 and "unknown solver 'nope'" in err


def test_bench_tetrapod_depth_needs_idastar(capsys):
    code, out, err = run(capsys, "bench", ARTICLE, "--solver", "sat", "--tetrapod-depth", "1")
    assert code == 2 and not out
    assert err.strip().count("\n") == 0 and "--tetrapod-depth" in err


def test_tetrapod_depth_is_a_number_or_auto(capsys, monkeypatch):
    # auto (the default) reaches IDA* as None; anything else but a count is one line, exit 2
    from kamicp.search import idastar as idastar_module

    seen = []
    search = idastar_module.idastar
    monkeypatch.setattr(
        idastar_module,
        "idastar",
        lambda g, **kw: seen.append(kw["options"].tetrapod_depth) or search(g, **kw),
    )
    for given, expected in (
        ([], None),
        (["--tetrapod-depth", "auto"], None),
        (["--tetrapod-depth", "2"], 2),
    ):
        code, out, _ = run(capsys, "solve", ARTICLE, "--solver", "idastar", *given)
        assert code == 0 and "optimal, 5 moves" in out and seen.pop() == expected
    for bad in ("-1", "deep", "1.5"):
        with pytest.raises(SystemExit) as stop:  # argparse's error: the parser's one line
            main(["solve", ARTICLE, "--solver", "idastar", "--tetrapod-depth", bad])
        out, err = capsys.readouterr()
        assert stop.value.code == 2 and not out
        assert err.strip().count("\n") == 0 and "--tetrapod-depth" in err


@pytest.mark.parametrize("solver", ["idastar", "sat", "portfolio"])
def test_a_known_solution_is_beaten_or_proved_optimal(capsys, solver):
    code, out, _ = run(capsys, "solve", ARTICLE, "--solver", "idastar", "--json")
    best = json.loads(out)["solution"]
    where, colour = best[-1].split(":")
    other = "White" if colour != "White" else "Red"
    longer = best + [f"{where}:{other}", f"{where}:{colour}"]  # solved, then twice recoloured
    for known in (longer, best):  # beaten, or proved optimal
        code, out, _ = run(
            capsys,
            "solve",
            ARTICLE,
            "--solver",
            solver,
            "--json",
            "--known-solution",
            " ".join(known),
        )
        data = json.loads(out)
        assert code == 0 and data["status"] == "optimal" and data["moves"] == 5, data


def test_a_known_solution_that_does_not_solve_is_one_line(capsys):
    code, out, _ = run(capsys, "solve", ARTICLE, "--solver", "idastar", "--json")
    first = json.loads(out)["solution"][0]
    code, _, err = run(capsys, "solve", ARTICLE, "--known-solution", first)
    assert code == 2 and "--known-solution" in err and "not one colour" in err
    assert len(err.strip().splitlines()) == 1
    code, _, err = run(capsys, "solve", ARTICLE, "--known-solution", "file")
    assert code == 2 and "holds no solution" in err
    # one colour, but not the one asked for
    code, out, _ = run(capsys, "solve", ARTICLE, "--solver", "idastar", "--json")
    best = json.loads(out)["solution"]
    last = best[-1].split(":")[1]
    other = "White" if last != "White" else "Red"
    code, _, err = run(
        capsys, "solve", ARTICLE, "--final-colour", other, "--known-solution", " ".join(best)
    )
    assert code == 2 and f"not the final colour {other}" in err


def test_idastar_with_tetrapod_checks_proves_the_article_graph(capsys):
    code, out, _ = run(
        capsys, "solve", ARTICLE, "--solver", "idastar", "--tetrapod-depth", "2", "--json"
    )
    data = json.loads(out)
    assert code == 0 and data["status"] == "optimal" and data["moves"] == 5


def test_progress_every_adds_how_the_search_stands(capsys, monkeypatch):
    # idastar tells at every state (STATUS_EVERY 0), --progress-every 0 prints every line:
    # the bound lines as before, and between them "SOLVER: searching N moves ..." lines
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
        result = solve_portfolio(g, time_limit=60, backends=("idastar",))
    assert result.status == "optimal" and result.upper_bound == 5
    assert heard and all(text.startswith("idastar: searching ") for text in heard)


def test_the_readme_first_solve_prints_what_the_readme_shows(capsys):
    # the front door: README's first solve (default solver) word for word, bar the seconds
    # and which of the portfolio's two backends told the solution first (a race)
    readme = (ROOT / "README.md").read_text()
    shown = readme.split("kamicp solve puzzles/square/first.txt\n```\n\n```\n")[1]
    shown = shown.split("```")[0].strip().splitlines()
    code, out, _ = run(capsys, "solve", str(ROOT / "puzzles" / "square" / "first.txt"))
    printed = out.strip().splitlines()
    assert code == 0 and len(printed) == len(shown)
    for want, got in zip(shown, printed, strict=True):
        if want.startswith("solver:"):  # the solver named, its seconds vary
            want, got = want.split(",")[0], got.split(",")[0]
        if want.startswith("status:"):
            got = got.replace("solution (sat)", "solution (idastar)")
        assert got == want


def test_par_is_shown_beside_a_solution_and_said_beaten_below_it(capsys, tmp_path):
    # a designer's par above the optimum: the solve says it is beaten; greedy's solution,
    # not proved optimal, still shows the par it meets or beats
    text = (ROOT / "puzzles" / "square" / "first.txt").read_text()
    assert "par: 4" in text
    puzzle = tmp_path / "first.txt"
    puzzle.write_text(text.replace("par: 4", "par: 6"))
    code, out, _ = run(capsys, "solve", str(puzzle))
    assert code == 0 and "par:      6 (beaten)" in out
    code, out, _ = run(capsys, "solve", str(puzzle), "--solver", "greedy")
    assert "status:   feasible" in out or "status:   optimal" in out
    assert "par:      6 (beaten)" in out


def test_render_command_draws_the_moves_given_or_found(capsys, tmp_path):
    from PIL import Image

    first = str(ROOT / "puzzles" / "square" / "first.txt")
    gif = tmp_path / "first.gif"
    code, out, _ = run(capsys, "render", first, "--solution", "2,2:G 2,2:Y", "--out", str(gif))
    assert code == 0 and out.strip() == str(gif)
    with Image.open(gif) as image:
        assert image.n_frames == 3  # the start and one frame per move
    svg = tmp_path / "first.svg"
    code, _, _ = run(capsys, "render", first, "--solve", "--frames", "row", "--out", str(svg))
    assert code == 0 and "solved in 4 moves" in svg.read_text()  # the optimum, drawn
    code, _, err = run(capsys, "render", first, "--solution", "2,2:Q", "--out", str(svg))
    assert code == 2 and err.count("\n") == 1 and f"{first}: --solution:" in err


def test_first_moves_hint_and_all_optimal_agree_with_bfs(capsys):
    first = str(ROOT / "puzzles" / "square" / "first.txt")
    code, out, _ = run(capsys, "info", first, "--first-moves", "--json")
    data = json.loads(out)
    assert code == 0 and data["optimum"] == 4 and data["optimal_first_moves"]
    for move in ["0,0:G", *data["optimal_first_moves"]]:  # 0,0:G is legal, not listed
        code, out, _ = run(capsys, "hint", first, "--after", move, "--solver", "bfs", "--json")
        left = json.loads(out)
        assert code == 0 and left["status"] == "optimal"
        assert (left["moves_left"] == 3) == (move in data["optimal_first_moves"])
    code, out, _ = run(capsys, "hint", first, "--json")
    assert json.loads(out)["next_move"] in data["optimal_first_moves"]
    blobs = str(ROOT / "puzzles" / "hex" / "blobs.txt")
    code, out, _ = run(capsys, "solve", blobs, "--all-optimal", "--cap", "50", "--json")
    every = json.loads(out)["all_optimal"]
    assert code == 0 and len(set(every)) == len(every) > 1
    for moves in every:
        assert len(moves.split()) == 5 and run(capsys, "check", blobs, moves)[0] == 0


@pytest.mark.parametrize(
    "puzzle, moves, problem",
    [
        ("graph/wheel.json", "spoke:Red", "no node 'spoke' on the board"),
        ("puz/small.puz", "x1:2", "'x1' is not a triangle index"),
        ("puz/small.puz", "9999:2", "triangle 9999 is off the board"),
        ("square/holes.txt", "1-1:G", "'1-1' is not a cell (expected row,column)"),
        ("square/holes.txt", "2,2:G", "cell 2,2 is a hole"),
        ("square/holes.txt", "9,0:G", "cell 9,0 is off the board"),
        ("square/holes.txt", "0,0:G 0,0", "'0,0' is not a move (expected WHERE:COLOUR)"),
        ("square/holes.txt", "#11:G", "no region #11 (regions are #0..#10)"),
        ("square/holes.txt", "#1:Q", "colour 'Q' is not in the palette (B G R Y)"),
    ],
)
def test_unreadable_moves_are_named_by_check(capsys, puzzle, moves, problem):
    # check's answer (exit 1), one line naming the move, not an input error
    code, out, err = run(capsys, "check", str(ROOT / "puzzles" / puzzle), moves)
    number = len(moves.split())
    bad = moves.split()[-1]
    assert code == 1 and not err and out == f"illegal: move {number} ({bad}): {problem}\n"


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


def test_one_move_is_said_in_the_singular(capsys, tmp_path):
    board = tmp_path / "one.txt"
    board.write_text("GGR\n")
    code, out, _ = run(capsys, "solve", str(board), "--solver", "sat")
    assert code == 0 and "status:   optimal, 1 move (proved:" in out
    code, out, _ = run(capsys, "check", str(board), "0,2:G")
    assert code == 0 and out == "solved in 1 move\n"
    code, out, _ = run(capsys, "check", str(board), "0,2:G 0,0:R")
    assert code == 0 and out == "solved in 2 moves\n"


@pytest.mark.parametrize(
    "signame, solver",
    [
        ("SIGTERM", ["--solver", "idastar", "--workers", "2"]),
        ("SIGTERM", []),
        ("SIGTERM", ["--solver", "sat"]),
        ("SIGTERM", ["--solver", "cpsat"]),
        ("SIGINT", ["--solver", "sat"]),
        ("SIGINT", ["--solver", "cpsat"]),
    ],
)
def test_a_signal_ends_a_solve_with_its_bounds(tmp_path, signame, solver):
    # kill, timeout(1) and batch systems stop a job with SIGTERM, and a job started in the
    # background ignores Ctrl-C: SIGTERM is taken as Ctrl-C, the bounds so far are printed
    # (exit 3, unknown), IDA*'s worker processes and the portfolio's backends end too.
    # Before session 34 the horizon drivers did not: sat said "feasible", exit 0, after
    # Ctrl-C (pysat took the signal, and left it blocked); cpsat said so too (CP-SAT took
    # it), went on after SIGTERM until its horizon ended, and aborted at exit once stopped.
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
    assert time.monotonic() - began < 20  # not when a horizon ends (40 s for sat's first)
    assert "status:   unknown (interrupted)" in out
    low, high = map(int, re.search(r"bounds: +(\d+) <= optimum <= (\d+)", out).groups())
    assert 10 <= low <= high <= 13
    assert "Traceback" not in err and "terminate called" not in err


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


def test_export_refuses_a_horizon_longer_than_the_regions(capsys):
    n = region_graph(load(ARTICLE)[0]).n
    code, out, _ = run(capsys, "export", ARTICLE, "--moves", str(n))
    assert code == 0 and "\np cnf " in "\n" + out
    code, out, err = run(capsys, "export", ARTICLE, "--moves", str(n + 1))
    assert code == 2 and not out
    assert f"more than this board's {n} regions" in err and err.strip().count("\n") == 0


def _broken_search(job):
    raise ZeroDivisionError("a bug in a worker")


def test_a_bug_in_a_worker_is_one_line_with_the_bounds(capsys, monkeypatch):
    from kamicp.search import parallel

    monkeypatch.delenv("KAMICP_TRACEBACK", raising=False)
    monkeypatch.setattr(parallel, "SPLIT_AFTER", 0.0)  # the pool runs at once
    monkeypatch.setattr(parallel, "search_task", _broken_search)  # forked with the workers
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


def _killed_search(job):
    import os
    import signal

    os.kill(os.getpid(), signal.SIGKILL)  # as the kernel's out-of-memory killer would


def test_a_worker_killed_from_outside_ends_the_solve_with_one_line(capsys, monkeypatch):
    # its job never answers: the search stops (it waited for ever, or till the time limit)
    from kamicp.search import parallel

    monkeypatch.delenv("KAMICP_TRACEBACK", raising=False)
    monkeypatch.setattr(parallel, "SPLIT_AFTER", 0.0)
    monkeypatch.setattr(parallel, "search_task", _killed_search)
    holes = str(ROOT / "puzzles/square/holes.txt")
    argv = ["solve", holes, "--solver", "idastar", "--workers", "2", "--time-limit", "60"]
    code, out, err = run(capsys, *argv)
    assert code == 70 and out == "" and err.count("\n") == 1 and "bug" not in err
    assert "idastar stopped: a worker process of the parallel search died (SIGKILL" in err
    assert err.rstrip().endswith("proved before it: 4 <= optimum <= 5")


def test_a_bug_outside_a_solve_is_one_line_too(capsys, monkeypatch):
    from kamicp.cli import main as cli

    monkeypatch.delenv("KAMICP_TRACEBACK", raising=False)

    def broken(*args, **kwargs):
        raise KeyError("oops")

    monkeypatch.setattr(cli, "region_graph", broken)
    code, out, err = run(capsys, "solve", ARTICLE)
    assert code == 70 and err == "kamicp: internal error: KeyError: 'oops' (a bug in kamicp)\n"


def test_running_out_of_memory_outside_a_solve(capsys, monkeypatch):
    from kamicp.cli import main as cli

    monkeypatch.delenv("KAMICP_TRACEBACK", raising=False)

    def too_big(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(cli, "region_graph", too_big)
    assert run(capsys, "info", ARTICLE)[1:] == ("", "kamicp: out of memory\n")


def test_running_out_of_memory_is_not_called_a_bug(capsys, monkeypatch):
    from kamicp.solving import solve as solve_module

    monkeypatch.delenv("KAMICP_TRACEBACK", raising=False)

    def too_big(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(solve_module, "_reference", too_big)
    code, _, err = run(capsys, "solve", ARTICLE, "--solver", "idastar")
    assert code == 70 and "bug" not in err
    assert err.startswith("kamicp: idastar ran out of memory; proved before it: ")
