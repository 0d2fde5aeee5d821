"""``kamicp hint`` and ``info --first-moves``: the optimal first moves agree with BFS, and
the hint says where and in which colour a person plays it."""

from __future__ import annotations

import json

import pytest

from kamicp import formats
from kamicp.game import notation
from kamicp.game.regions import region_graph
from kamicp.solving.hint import position_after
from kamicp.view import colour_names, places, words
from tests.cli.helpers import ROOT, run


def test_first_moves_hint_and_all_optimal_agree_with_bfs(capsys):
    first = str(ROOT / "puzzles" / "square" / "first.txt")
    code, out, _ = run(capsys, "info", first, "--first-moves", "--json")
    data = json.loads(out)
    assert code == 0 and data["optimum"] == 4 and data["optimal_first_moves"]
    for move in ["0,0:G", *data["optimal_first_moves"]]:  # 0,0:G is legal, not listed
        code, out, _ = run(capsys, "hint", first, "--after", move, "--solver", "bfs", "--json")
        left = json.loads(out)
        assert code == 0 and left["status"] == "optimal"
        assert (left["moves"] == 3) == (move in data["optimal_first_moves"])
    code, out, _ = run(capsys, "hint", first, "--json")
    assert json.loads(out)["next_move"] in data["optimal_first_moves"]
    blobs = str(ROOT / "puzzles" / "hex" / "blobs.txt")
    code, out, _ = run(capsys, "solve", blobs, "--all-optimal", "--cap", "50", "--json")
    every = json.loads(out)["all_optimal"]
    assert code == 0 and len(set(map(tuple, every))) == len(every) > 1
    for moves in every:
        assert len(moves) == 5 and run(capsys, "check", blobs, " ".join(moves))[0] == 0


SHIPPED = sorted(
    p
    for p in (ROOT / "puzzles").rglob("*")
    if p.is_file() and p.suffix in {".txt", ".json", ".puz"}
)
STORY = ROOT.parent / "shared" / "data" / "kami2-story" / "Bud1.puz"


def check_hint_words(board, position, out: str) -> None:
    """The hint says a colour of the palette and a place in the hinted region (none under
    pivot rules), then the move in notation on that same cell."""
    g = region_graph(position)
    line = out.splitlines()[0]
    assert line.startswith("next move: ")
    said, _, token = line.removeprefix("next move: ").partition("   [")
    region, colour = notation.parse_move(position, g, token.split("]")[0])
    colour_said, _, place = said.partition(" at ")
    assert colour_said == colour_names.palette_words(board)[colour]
    if board.rules == "pivot":  # the pivot's region: said by its colour, noted on the pivot
        assert place == "" and g.region_of[board.pivot] == region
        assert token.split(":")[0] == notation.format_cell(board, board.pivot)
        return
    cell = places.cell_at(board, place)
    assert g.region_of[cell] == region
    assert token.split(":")[0] == notation.format_cell(board, cell)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_hint_says_where_and_which_colour_on_every_shipped_puzzle(capsys, path):
    board = formats.load(str(path))[0]
    code, out, _ = run(capsys, "hint", str(path), "--solver", "idastar")
    assert code == 0
    check_hint_words(board, board, out)


@pytest.mark.skipif(not STORY.exists(), reason="needs ../shared/data/kami2-story")
def test_hint_says_where_on_a_kami2_story_level(capsys):
    board = formats.load(str(STORY))[0]
    played = notation.GAME_TOKEN.findall(board.solution)[:-2]  # two moves left: quick
    after = "".join(f"{where}{letter}" for where, letter in played)
    code, out, _ = run(capsys, "hint", str(STORY), "--after", after, "--solver", "idastar")
    assert code == 0 and "moves still needed: 2" in out
    g = region_graph(board)
    position = position_after(board, notation.parse_moves(board, g, after))
    check_hint_words(board, position, out)


def test_hint_json_keeps_the_move_in_notation_and_adds_its_words(capsys):
    first = str(ROOT / "puzzles" / "square" / "first.txt")
    code, out, _ = run(capsys, "hint", first, "--solver", "bfs", "--json")
    data = json.loads(out)
    board = formats.load(first)[0]
    g = region_graph(board)
    move = notation.parse_move(board, g, data["next_move"])
    assert data["next_move_words"] == words.move_words(board, g, move)


def test_hint_and_render_count_their_time_limit_from_the_command_start(monkeypatch, tmp_path):
    import time

    from kamicp.cli import hint as hint_command
    from kamicp.cli import render as render_command
    from kamicp.cli.main import build_parser

    first = str(ROOT / "puzzles" / "square" / "first.txt")
    given = {}
    real_hint, real_solve = hint_command.hint, render_command.solve

    def hint(board, played, solver, time_limit):
        given["hint"] = time_limit
        return real_hint(board, played, "bfs", time_limit)

    def solve(g, options):
        given["render"] = options.time_limit
        return real_solve(g, "bfs", options)

    monkeypatch.setattr(hint_command, "hint", hint)
    monkeypatch.setattr(render_command, "solve", solve)
    long_ago = time.monotonic() - 3600  # the process: the clock then starts with the command
    monkeypatch.setattr("kamicp.cli.clock.process_started", lambda: long_ago)
    for argv in (
        ["hint", first, "--time-limit", "30"],
        ["render", first, "--solve", "--time-limit", "30", "--out", str(tmp_path / "a.svg")],
    ):
        args = build_parser([argv[0]]).parse_args(argv)
        args.began = time.monotonic() - 20  # the command started 20 s ago
        assert args.run(args) == 0
    assert 0 < given["hint"] <= 10 and 0 < given["render"] <= 10


def test_an_unproved_hint_names_the_best_solutions_next_move_plainly(capsys, monkeypatch):
    from kamicp.cli import hint as hint_command
    from kamicp.result import Result
    from kamicp.solving.hint import Hint

    first = ROOT / "puzzles" / "square" / "first.txt"

    def unproved(board, played, solver, time_limit):
        # a solution of 5 moves and a lower bound of 3: as if the limit ran out early
        from kamicp.search.bfs import bfs

        best = bfs(region_graph(board)).moves
        return Hint(board, Result("feasible", best + best[-1:], 3, 5, solver, proof=""))

    monkeypatch.setattr(hint_command, "hint", unproved)
    code, out, _ = run(capsys, "hint", str(first))
    lines = out.splitlines()
    assert lines[0].startswith("next move: ") and lines[0].endswith(
        " (best found, 5 moves; not proved optimal)"
    )
    assert lines[1] == "moves still needed: between 3 and 5" and code == 0

    def nothing(board, played, solver, time_limit):
        return Hint(board, Result("unknown", None, 3, None, solver, proof=""))

    monkeypatch.setattr(hint_command, "hint", nothing)
    code, out, _ = run(capsys, "hint", str(first))
    assert out.splitlines() == [
        "next move: - (no solution found within the time limit)",
        "moves still needed: at least 3",
    ]
    assert code == 3
