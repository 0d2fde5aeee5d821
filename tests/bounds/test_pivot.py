"""The pivot rules' bounds (kamicp.bounds.pivot) on hand-made boards."""

from __future__ import annotations

from kamicp import bounds
from kamicp.game.regions import from_edges
from kamicp.search.bfs import bfs


def path(colours, rules_="free"):
    return from_edges(colours, [(i, i + 1) for i in range(len(colours) - 1)], rules=rules_)


def test_pivot_layers_beat_eccentricity():
    # From the pivot: colour 1 at distance 1, colours 2, 3, 1 further away.
    g = path([0, 1, 2, 3, 1], rules_="pivot")
    report = bounds.bound_report(g)
    assert report["pivot_eccentricity"] == 4
    assert report["pivot_layers"] == 4 == len(bfs(g).moves)
    star = from_edges([0, 1, 2, 3, 1], [(0, 1), (0, 2), (0, 3), (3, 4)], rules="pivot")
    report = bounds.bound_report(star)
    assert report["pivot_eccentricity"] == 2
    assert report["pivot_layers"] == 3 == len(bfs(star).moves)
