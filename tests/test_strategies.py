"""The referees of the property tests (tests/strategies.py) can fail: a value above the
optimum is caught by BFS and, where BFS stops, by CP-SAT's bare model."""

from __future__ import annotations

import pytest

from kamicp.game.regions import from_edges
from kamicp.search.bfs import bfs
from tests import strategies
from tests.bounds.test_tetrapods import TREE  # 11 regions, optimum 5
from tests.strategies import assert_no_shorter


@pytest.mark.parametrize("nodes", [strategies.REFEREE_NODES, 0])  # 0: BFS stops, CP-SAT decides
def test_no_shorter_accepts_the_optimum_and_catches_more(monkeypatch, nodes):
    monkeypatch.setattr(strategies, "REFEREE_NODES", nodes)
    g = from_edges(*TREE)
    optimum = len(bfs(g).moves)
    assert optimum == 5
    for value in range(optimum + 1):
        assert_no_shorter(g, None, value)
    with pytest.raises(AssertionError):
        assert_no_shorter(g, None, optimum + 1)


@pytest.mark.parametrize("nodes", [strategies.REFEREE_NODES, 0])
def test_no_shorter_with_a_final_colour_and_pivot_rules(monkeypatch, nodes):
    monkeypatch.setattr(strategies, "REFEREE_NODES", nodes)
    for rules in ("free", "pivot"):
        g = from_edges([0, 1, 2, 1, 0], [(0, 1), (1, 2), (2, 3), (3, 4)], rules=rules)
        for final in (None, 0, 1, 2):
            optimum = len(bfs(g, final_colour=final).moves)
            assert_no_shorter(g, final, optimum)
            with pytest.raises(AssertionError):
                assert_no_shorter(g, final, optimum + 1)
