"""``solve``'s text: a solution longer than --max-moves asked is said to be so."""

from __future__ import annotations

from kamicp.cli.describe import describe
from kamicp.formats import parse
from kamicp.game.regions import region_graph
from kamicp.result import Result


def test_a_solution_longer_than_max_moves_is_said_to_be_so():
    board = parse("RGBRGB\n")[0]
    g = region_graph(board)
    moves = [(1, 0), (1, 2), (3, 0), (3, 2)]  # a correct but not optimal solution
    result = Result("unknown", moves, 2, 4, "sat", 1.0, "the time limit (1 s)")
    text = describe(board, g, result, max_moves=3)
    assert "note:     the solution has 4 moves, more than --max-moves 3" in text
    assert "more than" not in describe(board, g, result, max_moves=4)
    assert "more than" not in describe(board, g, result)
