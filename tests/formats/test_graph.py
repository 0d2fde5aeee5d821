"""Region-graph JSON: graphs round-trip, a grid is written as its region graph, and arrays
and palettes are read as documented."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from kamicp import formats
from kamicp.game.regions import region_graph
from tests.strategies import graph_boards, grid_boards


@settings(max_examples=150, deadline=None)
@given(graph_boards(), st.data())
def test_json_round_trip_of_graphs(board, data):
    board = replace(board, pivot=data.draw(st.sampled_from(list(board.cells))), par=3)
    text = formats.dump(board, "json")
    assert formats.detect(text) == "json"
    [back] = formats.parse(text)
    assert back.geometry == "graph" and back.palette == board.palette
    assert back.cells == {str(n): c for n, c in board.cells.items()}
    assert back.order == tuple(str(n) for n in board.order)
    assert back.edges == tuple((str(a), str(b)) for a, b in board.edges)
    assert (back.rules, back.pivot, back.par) == (board.rules, str(board.pivot), 3)


@settings(max_examples=150, deadline=None)
@given(grid_boards())
def test_json_of_a_grid_is_its_region_graph(board):
    g = region_graph(board)
    [back] = formats.parse(formats.dump(board, "json"))
    h = region_graph(back)
    assert (h.colour, h.adj, h.pivot, h.rules, h.palette) == (
        g.colour,
        g.adj,
        g.pivot,
        g.rules,
        g.palette,
    )


def test_json_details():
    text = (
        '[{"nodes": {"1": "Red", "x": "Blue"}, "edges": [[1, "x"]], "pivot": 1},\n'
        ' {"nodes": {"1": "Red"}, "name": "solo", "palette": ["Red", "Green"]}]'
    )
    first, second = formats.parse(text, "pair.json")
    assert first.cells == {"1": 1, "x": 0} and first.palette == ("Blue", "Red")
    assert first.edges == (("1", "x"),) and first.pivot == "1" and first.name == "pair-1"
    assert second.name == "solo" and second.palette == ("Red", "Green") and second.edges == ()
