"""The region graph: both labellings against a networkx reference on random boards of every
geometry; islands, distances and measures against networkx; a deadline stops the work."""

from __future__ import annotations

import random
import time

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kamicp.game import board as board_module
from kamicp.game import regions
from kamicp.game.board import Board
from kamicp.game.labels import grid_fits, label_cells, label_grid
from kamicp.game.regions import RegionGraph, distances, measures, region_graph
from kamicp.procs.deadline import LimitReached
from tests.strategies import boards, kami2_boards


def reference_region_graph(board: Board) -> RegionGraph:
    """The region graph by networkx components of the same-colour cell graph: the
    reference the labellings must match exactly (numbering, cell order, adjacency)."""
    adjacency = board.adjacency()
    same = nx.Graph()
    same.add_nodes_from(board.order)
    for cell, others in adjacency.items():
        for other in others:
            if board.cells[cell] == board.cells[other]:
                same.add_edge(cell, other)
    position = {cell: i for i, cell in enumerate(board.order)}
    comps = [sorted(comp, key=position.__getitem__) for comp in nx.connected_components(same)]
    comps.sort(key=lambda comp: position[comp[0]])
    region_of = {cell: i for i, comp in enumerate(comps) for cell in comp}
    adj = [set() for _ in comps]
    for cell, others in adjacency.items():
        for other in others:
            a, b = region_of[cell], region_of[other]
            if a != b:
                adj[a].add(b)
                adj[b].add(a)
    return RegionGraph(
        colour=tuple(board.cells[comp[0]] for comp in comps),
        adj=tuple(tuple(sorted(s)) for s in adj),
        cells=tuple(tuple(comp) for comp in comps),
        region_of=region_of,
        k=len(board.palette),
        pivot=region_of[board.pivot],
        rules=board.rules,
        palette=board.palette,
    )


@st.composite
def shifted_boards(draw) -> Board:
    """A grid board moved by any offset (negative and odd ones too), its cells shuffled."""
    board = draw(boards(max_cells=30))
    if board.geometry == "graph":
        return board
    dr, dc = draw(st.integers(-5, 5)), draw(st.integers(-5, 5))
    cells = {(r + dr, c + dc): v for (r, c), v in board.cells.items()}
    order = draw(st.permutations(list(cells)))
    return Board(board.geometry, cells, board.palette, board.rules, order=tuple(order))


def _same(g: RegionGraph, h: RegionGraph) -> None:
    assert g.colour == h.colour
    assert g.adj == h.adj
    assert g.cells == h.cells
    assert g.region_of == h.region_of
    assert (g.pivot, g.k, g.rules, g.palette) == (h.pivot, h.k, h.rules, h.palette)


@settings(max_examples=300, deadline=None)
@given(st.one_of(boards(max_cells=30), kami2_boards(max_width=4, shuffled=True), shifted_boards()))
def test_region_graph_matches_the_networkx_reference(board):
    expected = reference_region_graph(board)
    _same(region_graph(board), expected)
    assert label_cells(board).groups == expected.cells
    labels = label_grid(board)
    assert (labels is not None) == grid_fits(board)
    if labels is not None:
        assert labels.groups == expected.cells
        assert labels.adj == expected.adj
        assert labels.group_of == expected.region_of
        assert labels.colour == expected.colour


def test_a_big_board_goes_through_the_compiled_labelling(monkeypatch):
    board = _random_square(60, 4, seed=1)
    monkeypatch.setattr(regions, "COMPILED_CELLS", 100)
    _same(region_graph(board), reference_region_graph(board))


def test_a_sparse_grid_is_labelled_in_python(monkeypatch):
    board = Board("square", {(0, 0): 0, (0, 1000): 1}, ("a", "b"))
    assert not grid_fits(board) and label_grid(board) is None
    monkeypatch.setattr(regions, "COMPILED_CELLS", 1)
    assert region_graph(board).n == 2


@settings(max_examples=100, deadline=None)
@given(boards(max_cells=30))
def test_islands_distances_and_measures_match_networkx(board):
    g = region_graph(board)
    graph = g.graph
    assert g.islands == sorted(sorted(p) for p in nx.connected_components(graph))
    assert distances(g, g.pivot) == nx.single_source_shortest_path_length(graph, g.pivot)
    assert distances(g, 0, cutoff=1) == nx.single_source_shortest_path_length(graph, 0, 1)
    ecc = [nx.eccentricity(graph.subgraph(piece)) for piece in g.islands]
    assert measures(g) == {
        "radius": max(min(e.values()) for e in ecc),
        "diameter": max(max(e.values()) for e in ecc),
    }


def test_measures_skip_big_islands_and_stop_at_the_deadline(monkeypatch):
    g = region_graph(_random_square(20, 4, seed=2))
    assert measures(g, deadline=time.monotonic() - 1)["measures_skipped"] == "the time limit"
    monkeypatch.setattr(regions, "MEASURE_NODES", 5)
    out = measures(g)
    assert out["radius"] is None and "above 5" in out["measures_skipped"]


@pytest.mark.parametrize("cells", [100, 10**9])
def test_region_graph_stops_at_the_deadline(monkeypatch, cells):
    monkeypatch.setattr(regions, "COMPILED_CELLS", cells)  # compiled, then Python
    with pytest.raises(LimitReached):
        region_graph(_random_square(70, 4, seed=3), deadline=time.monotonic() - 1)


def _random_square(side: int, k: int, seed: int) -> Board:
    rng = random.Random(seed)
    cells = {(r, c): rng.randrange(k) for r in range(side) for c in range(side)}
    return Board("square", cells, tuple("abcdef"[:k]))


@settings(max_examples=100, deadline=None)
@given(st.one_of(boards(max_cells=30), shifted_boards()), st.randoms(use_true_random=False))
def test_boards_of_one_layout_share_neighbours_and_keep_their_colours(board, rnd):
    """The neighbour places of a layout are kept for the next board of that layout (its
    colours its own); they are the adjacency's, by place in the reading order."""
    place = {cell: i for i, cell in enumerate(board.order)}
    adjacency = board.adjacency()
    expected = tuple(tuple(place[o] for o in adjacency[cell]) for cell in board.order)
    assert board.neighbour_indices() == expected
    k = len(board.palette)
    recoloured = board.with_colours({cell: rnd.randrange(k) for cell in board.cells})
    assert recoloured.neighbour_indices() == expected
    _same(region_graph(recoloured), reference_region_graph(recoloured))


def test_a_large_board_makes_its_own_neighbours(monkeypatch):
    monkeypatch.setattr(board_module, "LAYOUT_CELLS", 10)
    board = _random_square(6, 3, seed=2)
    _same(region_graph(board), reference_region_graph(board))
