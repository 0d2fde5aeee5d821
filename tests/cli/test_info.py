"""``kamicp info``: a puzzle's description and bounds."""

from __future__ import annotations

import json

from kamicp import formats
from kamicp.game import notation
from kamicp.game.regions import region_graph
from kamicp.view import words
from tests.cli.helpers import ARTICLE, ROOT, run


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


def test_info_leaves_out_what_does_not_fit_in_its_time_limit(monkeypatch):
    import time

    from kamicp.cli import info as command
    from kamicp.formats import parse

    board = parse("RGBR\nGGBY\nBRRY\n")[0]
    full = command.info(board)
    assert full["regions"] == 7 and "left_out" not in full
    monkeypatch.setattr(command, "BOUNDS_PER_REGION", 1e9)  # no bound fits in any limit
    short = command.info(board, deadline=time.monotonic() + 60)
    assert short["regions"] == 7 and short["radius"] == full["radius"]
    assert short["lower_bounds"] == {"colours": 3} and short["left_out"] == "bounds: the time limit"
    late = command.info(board, deadline=time.monotonic() - 1)
    assert late["regions"] is None and late["lower_bound"] == 3
    assert "building the region graph" in late["left_out"]


def test_info_says_when_the_measures_are_left_out(capsys, monkeypatch):
    from kamicp.game import regions

    monkeypatch.setattr(regions, "MEASURE_NODES", 3)
    code, out, _ = run(capsys, "info", ARTICLE, "--json")
    data = json.loads(out)
    assert code == 0 and data["radius"] is None and "above 3" in data["left_out"]
    assert data["lower_bound"] == max(data["lower_bounds"].values())


def test_first_moves_stop_at_the_deadline_with_what_was_decided(monkeypatch):
    import time

    from kamicp.cli.info import first_moves
    from kamicp.formats import load
    from kamicp.solving import alloptimal
    from tests.cli.helpers import ROOT

    board = load(str(ROOT / "puzzles" / "square" / "first.txt"))[0]
    assert first_moves(board, time.monotonic() - 1)["optimum"] is None  # nothing fits
    asked = []
    real = alloptimal.solve

    def the_time_is_up_after_one(g, solver, options):
        asked.append(options.time_limit)
        answer = real(g, solver, options)
        monkeypatch.setattr(time, "monotonic", lambda: later)
        return answer

    later = time.monotonic() + 3600
    monkeypatch.setattr(alloptimal, "solve", the_time_is_up_after_one)
    data = first_moves(board, time.monotonic() + 1000)
    assert data["optimum"] == 4 and len(asked) == 1 and asked[0] <= 1000
    assert len(data["optimal_first_moves"]) <= 1 and data["undecided_first_moves"]


def test_first_moves_cut_short_by_the_time_limit_exit_3(capsys):
    from tests.cli.helpers import ROOT, run

    first = str(ROOT / "puzzles" / "square" / "first.txt")
    code, out, _ = run(capsys, "info", first, "--first-moves", "--time-limit", "0.01")
    # the optimum may be proved at once (its bound meets the beam), the moves are not
    assert code == 3 and ("first_moves: not proved" in out or "undecided_first_moves" in out)


def test_first_moves_are_also_said_in_words(capsys):
    first = str(ROOT / "puzzles" / "square" / "first.txt")
    code, out, _ = run(capsys, "info", first, "--first-moves")
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("optimal_first_moves:"))
    tokens = lines[at].split()[1:]
    said = lines[at + 1 : at + 1 + len(tokens)]
    assert code == 0 and len(tokens) == 7
    # each line names a colour and a place, then the move on that cell, which is optimal too
    board = formats.load(first)[0]
    g = region_graph(board)
    for token, line in zip(tokens, said, strict=True):
        words_part, _, pasted = line.strip().partition("   [")
        move = notation.parse_move(board, g, pasted.rstrip("]"))
        assert move == notation.parse_move(board, g, token)
        assert words_part == words.move_words(board, g, move)
