"""The public API (``import kamicp``), through public names only, and the README's example."""

from __future__ import annotations

import re
from pathlib import Path

import networkx as nx
import pytest

import kamicp
from kamicp.errors import InputError

ROOT = Path(__file__).resolve().parents[1]
FIRST = ROOT / "puzzles" / "square" / "first.txt"


def test_import_kamicp_does_not_load_the_solvers():
    import subprocess
    import sys

    code = "import kamicp, sys; print('ortools' in sys.modules, 'pysat' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_every_public_name_resolves():
    for name in kamicp.__all__:
        assert getattr(kamicp, name) is not None
    with pytest.raises(AttributeError):
        kamicp.no_such_name  # noqa: B018


def test_load_reads_a_path_or_a_text():
    board = kamicp.load(FIRST)
    assert board.name == "first" and board.par == 4
    assert kamicp.load(str(FIRST)) == board
    text = kamicp.load(FIRST.read_text())
    assert text.cells == board.cells


def test_load_names_the_file_of_a_bad_puzzle(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        kamicp.load(tmp_path / "missing.txt")
    several = ROOT / "puzzles" / "flood" / "small.txt"
    boards = kamicp.load_all(several)
    assert len(boards) == 3
    with pytest.raises(InputError, match="give an index"):
        kamicp.load(several)
    assert kamicp.load(several, index=1) == boards[1]
    with pytest.raises(InputError, match="no puzzle 3"):
        kamicp.load(several, index=3)


def test_solve_proves_the_first_puzzle_and_check_replays_it():
    board = kamicp.load(FIRST)
    result = kamicp.solve(board, time_limit=60)
    assert result.status == "optimal" and result.moves == board.optimum == 4
    assert result.bounds == (4, 4) and result.proof
    verdict = kamicp.check(board, result.solution)
    assert verdict.legal and verdict.solved and verdict.par_difference == 0
    # the notation round trip gives the same moves
    text = kamicp.format_moves(board, result.solution)
    assert kamicp.parse_moves(board, text) == list(result.solution)
    assert kamicp.check(board, text).solved


def test_check_says_why_moves_fail():
    board = kamicp.load(FIRST)
    short = kamicp.check(board, kamicp.solve(board, time_limit=60).solution[:-1])
    assert short.legal and not short.solved and short.colours_left > 1
    assert short.par_difference == -1
    bad = kamicp.check(board, [(0, board.cells[board.order[0]])])  # its own colour
    assert not bad.legal and "move 1" in bad.problem


def test_max_moves_below_the_optimum_is_infeasible():
    board = kamicp.load(FIRST)
    assert kamicp.solve(board, "sat", max_moves=3, time_limit=60).status == "infeasible"


def test_networkx_round_trip_and_solve():
    G = nx.cycle_graph(6)
    nx.set_node_attributes(G, dict(enumerate("ABCABC")), "colour")
    g = kamicp.RegionGraph.from_networkx(G, colour="colour")
    assert g.n == 6 and g.palette == ("A", "B", "C")
    back = kamicp.RegionGraph.from_networkx(g.to_networkx())
    assert back.colour == g.colour and back.adj == g.adj and back.palette == g.palette
    assert kamicp.solve(g, "bfs").moves == kamicp.solve(g, "sat", time_limit=60).moves == 4


def test_from_networkx_contracts_and_checks_its_input():
    G = nx.path_graph(3)
    nx.set_node_attributes(G, {0: 1, 1: 1, 2: 2}, "c")
    g = kamicp.RegionGraph.from_networkx(G, colour="c", rules="pivot", pivot=2)
    assert g.n == 2 and g.rules == "pivot" and g.pivot == 1
    with pytest.raises(InputError, match="no 'colour' attribute"):
        kamicp.RegionGraph.from_networkx(G)
    with pytest.raises(InputError, match="not in the palette"):
        kamicp.RegionGraph.from_networkx(G, colour="c", palette=(1,))
    with pytest.raises(InputError, match="undirected"):
        kamicp.RegionGraph.from_networkx(nx.DiGraph(G), colour="c")


def test_the_readme_python_example_runs(capsys, monkeypatch):
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Python API", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    monkeypatch.chdir(ROOT)
    exec(compile(code, "README.md", "exec"), {})
    assert "optimal" in capsys.readouterr().out


def test_a_final_colour_is_an_index_or_a_name_of_the_palette():
    board = kamicp.load("RRG\nRBG\nBBG\n")  # palette B G R
    by_name, by_index = kamicp.solve(board, final_colour="G"), kamicp.solve(board, final_colour=1)
    assert by_name.moves == by_index.moves == 2
    assert kamicp.check(board, by_name.solution).solved
    assert by_name.solution[-1][1] == 1  # the board ends green
    for wrong in (5, -1, "purple"):
        with pytest.raises(ValueError, match="palette"):
            kamicp.solve(board, final_colour=wrong)
    with pytest.raises(TypeError):
        kamicp.solve(board, final_colour=1.0)


def test_negative_limits_are_refused_and_a_zero_time_limit_answers_at_once():
    board = kamicp.load("RRG\nRBG\nBBG\n")
    with pytest.raises(ValueError, match="time_limit"):
        kamicp.solve(board, time_limit=-1)
    with pytest.raises(ValueError, match="max_moves"):
        kamicp.solve(board, max_moves=-1)
    rows = ["".join("RGBY"[(7 * i + 3 * j + i * j) % 4] for j in range(30)) for i in range(30)]
    r = kamicp.solve(kamicp.load("\n".join(rows) + "\n"), time_limit=0)
    assert r.status == "unknown" and r.lower_bound > 0


def test_prose_is_not_read_as_a_puzzle():
    with pytest.raises(InputError, match="'this' is not one cell"):
        kamicp.load("this is not a puzzle\n")
    assert kamicp.load("R G B\nG G G\n").palette == ("B", "G", "R")  # cells spaced out


def test_moves_of_a_region_graph_are_written_with_its_node_names():
    G = nx.Graph([("a", "b"), ("b", "c")])
    nx.set_node_attributes(G, {"a": "red", "b": "blue", "c": "red"}, "colour")
    g = kamicp.RegionGraph.from_networkx(G)
    r = kamicp.solve(g)
    assert kamicp.format_moves(g, r.solution) == "b:red"
    with pytest.raises(ValueError, match="no such region"):
        kamicp.format_moves(g, [(7, 0)])
