"""The colour, radius and islands bounds (kamicp.bounds.islands) on hand-made boards."""

from __future__ import annotations

from kamicp import bounds
from kamicp.game.regions import from_edges
from kamicp.search.bfs import bfs


def path(colours, rules_="free"):
    return from_edges(colours, [(i, i + 1) for i in range(len(colours) - 1)], rules=rules_)


def test_radius_of_alternating_path_is_optimal():
    g = path([0, 1, 0, 1, 0, 1, 0])  # radius 3, and 3 moves from the middle
    assert bounds.bound_report(g)["radius"] == 3
    assert bounds.lower_bound(g) == 3 == len(bfs(g).moves)


def test_colour_bound_with_absent_final_colour():
    g = path([0, 1, 2], rules_="free")
    assert bounds.bound_report(g)["colours"] == 2
    g4 = from_edges([0, 1, 2], [(0, 1), (1, 2)], k=4)
    assert bounds.bound_report(g4, final_colour=3)["colours"] == 3
    assert bounds.lower_bound(g4, final_colour=3) <= len(bfs(g4, final_colour=3).moves)


def test_islands_add_up():
    # Two pieces 0-1-0: each needs one move (recolour its middle), the same final colour.
    g = from_edges([0, 1, 0, 0, 1, 0], [(0, 1), (1, 2), (3, 4), (4, 5)], k=2)
    assert bounds.bound_report(g)["islands"] == 2 == len(bfs(g).moves)
