"""The region graph and the rules engine: properties on random boards, and the seed example."""

from __future__ import annotations

import random

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kamicp.errors import IllegalMove
from kamicp.game import notation, rules
from kamicp.game.regions import distances, from_edges, region_graph, subgraph
from tests.seed import article_board
from tests.strategies import boards


@settings(max_examples=200, deadline=None)
@given(boards())
def test_regions_partition_the_board_into_maximal_one_colour_pieces(board):
    g = region_graph(board)
    assert sorted(map(repr, board.cells)) == sorted(repr(c) for cells in g.cells for c in cells)
    adjacency = board.adjacency()
    for i, cells in enumerate(g.cells):
        assert {board.cells[c] for c in cells} == {g.colour[i]}
        inside = nx.Graph()
        inside.add_nodes_from(cells)
        inside.add_edges_from((a, b) for a in cells for b in adjacency[a] if b in cells)
        assert nx.is_connected(inside)
    for i in range(g.n):
        for j in g.adj[i]:
            assert g.colour[i] != g.colour[j], "touching regions of one colour were not merged"
            assert i in g.adj[j]


@settings(max_examples=200, deadline=None)
@given(boards(), st.randoms(use_true_random=False))
def test_a_move_recolours_exactly_one_current_region(board, rnd):
    g = region_graph(board)
    pos = rules.start(g)
    for _ in range(4):
        moves = list(rules.legal_moves(g, pos))
        if not moves:
            break
        region, colour = rnd.choice(moves)
        part = set(rules.current_region(g, pos, region))
        new = rules.apply(g, pos, (region, colour))
        for r in range(g.n):
            assert new[r] == (colour if r in part else pos[r])
        if g.rules == "pivot":
            assert g.pivot in part
        pos = new


@settings(max_examples=100, deadline=None)
@given(boards(rules=("pivot",)))
def test_pivot_rules_reject_moves_outside_the_pivot_region(board):
    g = region_graph(board)
    pos = rules.start(g)
    pivot_part = set(rules.current_region(g, pos, g.pivot))
    for r in range(g.n):
        colour = (pos[r] + 1) % max(2, g.k)
        if r not in pivot_part and colour < g.k:
            with pytest.raises(IllegalMove, match="pivot"):
                rules.apply(g, pos, (r, colour))


def test_illegal_moves_name_the_reason():
    g = from_edges([0, 1, 0], [(0, 1), (1, 2)])
    pos = rules.start(g)
    with pytest.raises(IllegalMove, match="outside the palette"):
        rules.apply(g, pos, (0, 5))
    with pytest.raises(IllegalMove, match="already has colour"):
        rules.apply(g, pos, (0, 0))
    with pytest.raises(IllegalMove, match="no region"):
        rules.apply(g, pos, (7, 1))
    with pytest.raises(IllegalMove, match="move 2"):
        rules.replay(g, [(1, 0), (0, 0)])


def test_islands_are_solved_when_they_share_one_colour():
    g = from_edges([0, 1], [])  # two pieces that never merge
    assert len(g.islands) == 2
    assert not rules.is_solved(rules.start(g))
    pos = rules.apply(g, rules.start(g), (1, 0))  # merges nothing, still legal
    assert rules.is_solved(pos)
    assert rules.is_solved(pos, 0) and not rules.is_solved(pos, 1)


def test_the_article_graph_and_its_solution():
    board = article_board()
    g = region_graph(board)
    # The article's 18 nodes include two same-colour edges (7-9, 13-18), contracted here.
    assert g.n == 16
    moves = notation.parse_moves(board, g, "10:Purple 8:White 5:Yellow 2:Purple 1:Red")
    assert rules.is_solved(rules.replay(g, moves))
    rules.verify_solution(g, moves)


@settings(max_examples=150, deadline=None)
@given(boards(), st.randoms(use_true_random=False))
def test_notation_round_trips(board, rnd):
    g = region_graph(board)
    pos, played = rules.start(g), []
    for _ in range(3):
        moves = list(rules.legal_moves(g, pos))
        if not moves:
            break
        played.append(rnd.choice(moves))
        pos = rules.apply(g, pos, played[-1])
    text = notation.format_moves(board, g, played)
    assert rules.replay(g, notation.parse_moves(board, g, text)) == pos


def test_subgraph_keeps_colours_and_edges():
    rnd = random.Random(3)
    g = from_edges([rnd.randrange(3) for _ in range(8)], [(0, 1), (1, 2), (4, 5), (5, 6), (6, 7)])
    for piece in g.islands:
        sub = subgraph(g, piece)
        assert [sub.colour[j] for j in range(sub.n)] == [g.colour[r] for r in piece]
        assert sum(len(a) for a in sub.adj) == sum(len(g.adj[r]) for r in piece)


@settings(max_examples=100, deadline=None)
@given(boards(), st.integers(0, 4))
def test_distances_are_hops_within_the_piece(board, cutoff):
    g = region_graph(board)
    for source in range(g.n):
        dist = distances(g, source)
        piece = next(p for p in g.islands if source in p)
        assert sorted(dist) == piece and dist[source] == 0
        for r, d in dist.items():  # one hop changes a distance by at most one ...
            assert all(abs(dist[s] - d) <= 1 for s in g.adj[r])
            if d:  # ... and every region but the source has a neighbour one hop closer
                assert any(dist[s] == d - 1 for s in g.adj[r])
        assert distances(g, source, cutoff) == {r: d for r, d in dist.items() if d <= cutoff}


def test_a_failed_check_counts_its_moves_in_the_singular_for_one():
    g = from_edges([0, 1, 0, 2], [(0, 1), (1, 2), (2, 3)])
    with pytest.raises(IllegalMove, match=r"^after 1 move the board is not one colour$"):
        rules.verify_solution(g, [(1, 0)])
    with pytest.raises(IllegalMove, match=r"^after 2 moves the board is all 0, not the final"):
        rules.verify_solution(g, [(1, 0), (3, 0)], final_colour=2)
