"""``kamicp hint`` and ``info --first-moves``: the optimal first moves agree with BFS."""

from __future__ import annotations

import json

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
