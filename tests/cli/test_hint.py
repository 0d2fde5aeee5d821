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
