"""``kamicp solve``: answers, statuses and exit codes, options and what they print."""

from __future__ import annotations

import json

import pytest

from kamicp import formats
from kamicp.cli.main import main
from kamicp.game import notation
from kamicp.game.regions import region_graph
from kamicp.search import ida as idastar_module
from kamicp.view import words
from tests.cli.helpers import ARTICLE, ROOT, run


# BFS takes about 20 s on the article graph: the slow suite runs it
@pytest.mark.parametrize(
    "solver", [pytest.param("bfs", marks=pytest.mark.slow), "astar", "cpsat", "sat"]
)
def test_solve_the_article_graph_optimally(capsys, solver):
    code, out, _ = run(capsys, "solve", ARTICLE, "--solver", solver, "--json")
    data = json.loads(out)
    assert code == 0
    assert data["status"] == "optimal" and data["moves"] == 5
    assert data["lower_bound"] == data["upper_bound"] == 5
    assert len(data["solution"]) == 5
    code, out, _ = run(capsys, "check", ARTICLE, " ".join(data["solution"]))
    assert code == 0 and "solved in 5 moves" in out


@pytest.mark.parametrize("solver", [pytest.param("bfs", marks=pytest.mark.slow), "cpsat", "sat"])
def test_max_moves_answers_yes_or_no(capsys, solver):
    code, out, _ = run(capsys, "solve", ARTICLE, "--solver", solver, "--max-moves", "4", "--json")
    assert code == 1 and json.loads(out)["status"] == "infeasible"
    code, out, _ = run(capsys, "solve", ARTICLE, "--solver", solver, "--max-moves", "6", "--json")
    data = json.loads(out)
    assert code == 0 and data["status"] in ("optimal", "feasible") and data["moves"] <= 6


def test_idastar_on_two_processes(capsys, monkeypatch):
    from kamicp.search.ida import engine

    monkeypatch.setattr(engine, "SPLIT_AFTER", 0.0)  # every iteration on the workers
    pools = []
    real = engine.PoolIda.farm

    def farm(self, threshold):
        pools.append(self.pool.size)
        return real(self, threshold)

    monkeypatch.setattr(engine.PoolIda, "farm", farm)
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


def test_portfolio_proves_the_article_graph(capsys):
    code, out, _ = run(capsys, "solve", ARTICLE, "--solver", "portfolio", "--time-limit", "60")
    assert code == 0 and "optimal, 5 moves" in out


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


def test_tetrapod_depth_is_a_number_or_auto(capsys, monkeypatch):
    # auto (the default) reaches IDA* as None; anything else but a count is one line, exit 2

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


def test_solve_says_the_solution_in_words_below_it(capsys):
    path = ROOT / "puzzles" / "triangle" / "holes.txt"
    code, out, _ = run(capsys, "solve", str(path), "--solver", "idastar")
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("solution: "))
    tokens = lines[at].removeprefix("solution: ").split()
    said = lines[at + 1 : at + 1 + len(tokens)]
    assert code == 0 and lines[at + 1 + len(tokens)].startswith("status:")
    board = formats.load(str(path))[0]
    g = region_graph(board)
    moves = notation.parse_moves(board, g, " ".join(tokens))
    assert said == [" " * 10 + line for line in words.moves_words(board, g, moves)]
    assert [line.split(".")[0].strip() for line in said] == [
        str(i) for i in range(1, len(tokens) + 1)
    ]
