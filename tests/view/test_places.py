"""Places in words: rows and columns counted on the picture that lead back to the cell,
regions named by their middle cell, the numbers along a picture's edges.

The place of a cell is checked against the drawing itself: rows and columns must follow the
drawn centres top to bottom and left to right, and the inverse (cell_at) must give the cell
back on every geometry.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from kamicp import formats
from kamicp.errors import KamicpError
from kamicp.game.board import Board
from kamicp.game.regions import region_graph
from kamicp.view import layout as lay
from kamicp.view import places
from kamicp.view.scene import frame_scenes
from tests.strategies import grid_boards
from tests.view.boards import BUD1, ROOT, SHIPPED, any_board


def check_places_follow_the_drawing(board: Board) -> None:
    if board.geometry == "graph":
        for node in board.cells:
            assert places.place_words(board, node) == f"node {node}"
            assert places.cell_at(board, places.place_words(board, node)) == node
        return
    drawing = lay.layout(board)
    place = {cell: places.row_column(board, cell) for cell in board.cells}
    # counted from the drawing's top-left: someone is in row 1 and someone in column 1
    assert min(r for r, _ in place.values()) == 1
    assert min(c for _, c in place.values()) == 1
    for cell in board.cells:
        assert places.cell_at(board, places.place_words(board, cell)) == cell
    # a column's middle: the middle of a cell's width (triangles of one strip point both
    # ways, so their centroids are not one above the other, but their strips are)
    across = {}
    for cell, polygon in drawing.polygons.items():
        xs = [p[0] for p in polygon]
        across[cell] = (min(xs) + max(xs)) / 2
    cells = list(board.cells)
    for a in cells:
        for b in cells:
            (ra, ca), (rb, cb) = place[a], place[b]
            xa, ya, xb, yb = across[a], drawing.centres[a][1], across[b], drawing.centres[b][1]
            # columns are drawn left to right, each one upright
            assert (ca < cb) == (xa < xb - 1e-9)
            assert (ca == cb) == (abs(xa - xb) < 1e-9)
            if ca == cb:  # down a column, rows go down the picture
                assert (ra < rb) == (ya < yb - 1e-9)
            if board.geometry != "hex":  # rows are level across the picture
                assert (ra == rb) == (abs(ya - yb) < 1e-9)
                assert (ra < rb) == (ya < yb - 1e-9)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_places_on_shipped_puzzles_follow_the_picture(path):
    for board in formats.load(str(path)):
        check_places_follow_the_drawing(board)


@settings(max_examples=60, deadline=None)
@given(any_board())
def test_places_follow_the_picture_on_every_geometry(board):
    check_places_follow_the_drawing(board)


@pytest.mark.skipif(not BUD1.exists(), reason="needs ../shared/data/kami2-story")
def test_places_on_a_kami2_story_level_follow_the_picture():
    check_places_follow_the_drawing(formats.load(str(BUD1))[0])


def test_places_are_counted_as_the_picture_shows_them():
    square = formats.parse("ab\nba\nab\n")[0]
    assert places.place_words(square, (2, 1)) == "row 3, column 2"
    # triangles: column = strip, row = triangle down the strip (line of the text)
    tri = Board(geometry="triangle", cells={(0, 0): 0, (1, 0): 1, (1, 1): 0}, palette=("a", "b"))
    assert places.place_words(tri, (1, 1)) == "row 2, column 2"
    # KAMI 2 triangle (r, p, s) is drawn at line 2p + s + r of strip r
    kami = Board(geometry="kami2", cells={(0, 0, 0): 0, (1, 1, 1): 1}, palette=("1", "2"), width=2)
    assert places.place_words(kami, (1, 1, 1)) == "row 5, column 2"
    assert places.cell_at(kami, "Row 5 , Column 2") == (1, 1, 1)


def test_places_that_name_no_cell_are_refused():
    board = formats.load(str(ROOT / "puzzles/square/holes.txt"))[0]
    hole = next((r, c) for r in range(6) for c in range(6) if (r, c) not in board.cells)
    with pytest.raises(KamicpError, match="hole or off the board"):
        places.cell_at(board, f"row {hole[0] + 1}, column {hole[1] + 1}")
    with pytest.raises(KamicpError, match="not a place"):
        places.cell_at(board, "the top left")
    graph = formats.load(str(ROOT / "puzzles/graph/wheel.json"))[0]
    with pytest.raises(KamicpError, match="names no node"):
        places.cell_at(graph, "node spoke")
    with pytest.raises(KamicpError, match="no rows"):
        places.row_column(graph, "hub")


@settings(max_examples=60, deadline=None)
@given(any_board())
def test_a_region_is_named_by_its_cell_nearest_its_middle_the_pivots_by_the_pivot(board):
    g = region_graph(board)
    centres = lay.layout(board).centres
    rank = {cell: i for i, cell in enumerate(board.order)}
    for region in range(g.n):
        cell = places.region_cell(board, g, region)
        assert g.region_of[cell] == region
        if board.rules == "pivot" and g.region_of[board.pivot] == region:
            assert cell == board.pivot  # every pivot move names it
            continue
        members = g.cells[region]
        mx = sum(centres[c][0] for c in members) / len(members)
        my = sum(centres[c][1] for c in members) / len(members)

        def d2(c, mx=mx, my=my):
            return (centres[c][0] - mx) ** 2 + (centres[c][1] - my) ** 2

        best = min(d2(c) for c in members)
        assert d2(cell) <= best + 1e-9
        ties = [c for c in members if d2(c) <= best + 1e-9]
        assert rank[cell] == min(rank[c] for c in ties)


def test_the_middle_of_a_bar_is_its_middle_cell():
    board = formats.parse("aaaaa\nbbbbb\n")[0]
    g = region_graph(board)
    assert places.region_cell(board, g, g.region_of[(0, 0)]) == (0, 2)
    ring = formats.parse("aaa\naba\naaa\n")[0]  # the middle is the hole in the ring
    g = region_graph(ring)
    assert places.region_cell(ring, g, g.region_of[(0, 0)]) == (0, 1)  # first of four ties


@settings(max_examples=60, deadline=None)
@given(grid_boards(max_cells=40))
def test_the_labels_stand_where_the_words_count_rows_and_columns(board):
    drawing = lay.layout(board)
    rows, columns = places.grid_labels(board, drawing.centres)
    row_at, column_at = dict(rows), dict(columns)
    for cell in board.order:
        r, c = places.row_column(board, cell)
        x, y = drawing.centres[cell]
        assert r in row_at and c in column_at  # at most 40 cells: every number is shown
        assert abs(column_at[c] - x) < 0.6  # a column is one strip (hexes: one x)
        if board.geometry != "hex":  # hex rows zigzag: half a cell up or down
            assert abs(row_at[r] - y) < 0.6
    assert [n for n, _ in rows] == sorted(row_at) and [n for n, _ in columns] == sorted(column_at)


def test_past_thirty_a_side_every_fifth_number_is_shown():
    board = formats.parse("\n".join("ab" * 20 for _ in range(3)) + "\n")[0]
    rows, columns = places.grid_labels(board, lay.layout(board).centres)
    assert [n for n, _ in rows] == [1, 2, 3]
    assert [n for n, _ in columns] == [1, 5, 10, 15, 20, 25, 30, 35, 40]


def test_a_picture_of_a_grid_carries_its_row_and_column_numbers():
    board = formats.parse("ab\nba\nab\n")[0]
    [frame] = frame_scenes(board)
    numbers = sorted(s.text for s in frame.shapes if s.role == "ruler")
    assert numbers == ["1", "1", "2", "2", "3"]  # rows 1-3, columns 1-2
    graph = formats.parse('{"nodes": {"a": "R", "b": "G"}, "edges": [["a", "b"]]}')[0]
    assert not [s for s in frame_scenes(graph)[0].shapes if s.role == "ruler"]
