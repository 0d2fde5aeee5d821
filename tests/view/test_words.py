"""Moves in words: colour names a person can tell apart and type, places counted on the
picture that lead back to the cell, regions named by their middle cell.

The place of a cell is checked against the drawing itself: rows and columns must follow the
drawn centres top to bottom and left to right, and the inverse (cell_at) must give the cell
back on every geometry.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kamicp import formats
from kamicp.errors import KamicpError
from kamicp.game import notation, rules
from kamicp.game.board import Board
from kamicp.game.regions import region_graph
from kamicp.view import colour_names, words
from kamicp.view import layout as lay
from kamicp.view.scene import frame_scenes, frames_of
from tests.seed import SHARED
from tests.strategies import graph_boards, grid_boards

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted(
    p
    for p in (ROOT / "puzzles").rglob("*")
    if p.is_file() and p.suffix in {".txt", ".json", ".puz"}
)
BUD1 = SHARED / "kami2-story" / "Bud1.puz"


def shipped_boards() -> list[Board]:
    return [board for path in SHIPPED for board in formats.load(str(path))]


@st.composite
def kami2_boards(draw, max_rows=4, max_width=3) -> Board:
    """A KAMI 2 board of a few rows of 2w triangles, maybe with holes."""
    width = draw(st.integers(1, max_width))
    rows = draw(st.integers(1, max_rows))
    k = draw(st.integers(1, 3))
    cells = {}
    for r in range(rows):
        for p in range(width):
            for s in (0, 1):
                if draw(st.integers(0, 5)):
                    cells[(r, p, s)] = draw(st.integers(0, k - 1))
    if not cells:
        cells[(0, 0, 0)] = 0
    return Board(geometry="kami2", cells=cells, palette=tuple("123"[:k]), width=width)


def any_board() -> st.SearchStrategy[Board]:
    return st.one_of(grid_boards(max_cells=24), kami2_boards(), graph_boards())


def name_of(said: str) -> str:
    """The colour's name without the symbol in brackets."""
    return said.split(" (")[0]


def symbol_of(said: str) -> str:
    """What to type for a colour said as ``name (symbol)`` or as its name alone."""
    return said[said.index("(") + 1 : -1] if said.endswith(")") else said


# -- places ---------------------------------------------------------------------------------


def check_places_follow_the_drawing(board: Board) -> None:
    if board.geometry == "graph":
        for node in board.cells:
            assert words.place_words(board, node) == f"node {node}"
            assert words.cell_at(board, words.place_words(board, node)) == node
        return
    drawing = lay.layout(board)
    place = {cell: words.row_column(board, cell) for cell in board.cells}
    # counted from the drawing's top-left: someone is in row 1 and someone in column 1
    assert min(r for r, _ in place.values()) == 1
    assert min(c for _, c in place.values()) == 1
    for cell in board.cells:
        assert words.cell_at(board, words.place_words(board, cell)) == cell
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
    assert words.place_words(square, (2, 1)) == "row 3, column 2"
    # triangles: column = strip, row = triangle down the strip (line of the text)
    tri = Board(geometry="triangle", cells={(0, 0): 0, (1, 0): 1, (1, 1): 0}, palette=("a", "b"))
    assert words.place_words(tri, (1, 1)) == "row 2, column 2"
    # KAMI 2 triangle (r, p, s) is drawn at line 2p + s + r of strip r
    kami = Board(geometry="kami2", cells={(0, 0, 0): 0, (1, 1, 1): 1}, palette=("1", "2"), width=2)
    assert words.place_words(kami, (1, 1, 1)) == "row 5, column 2"
    assert words.cell_at(kami, "Row 5 , Column 2") == (1, 1, 1)


def test_places_that_name_no_cell_are_refused():
    board = formats.load(str(ROOT / "puzzles/square/holes.txt"))[0]
    hole = next((r, c) for r in range(6) for c in range(6) if (r, c) not in board.cells)
    with pytest.raises(KamicpError, match="hole or off the board"):
        words.cell_at(board, f"row {hole[0] + 1}, column {hole[1] + 1}")
    with pytest.raises(KamicpError, match="not a place"):
        words.cell_at(board, "the top left")
    graph = formats.load(str(ROOT / "puzzles/graph/wheel.json"))[0]
    with pytest.raises(KamicpError, match="names no node"):
        words.cell_at(graph, "node spoke")
    with pytest.raises(KamicpError, match="no rows"):
        words.row_column(graph, "hub")


# -- colours --------------------------------------------------------------------------------


def check_colours(board: Board, palette=None) -> None:
    said = colour_names.palette_words(board, palette)
    names = [name_of(s) for s in said]
    assert len(set(names)) == len(names), said  # no two colours called the same
    for colour, text in enumerate(said):
        assert notation.parse_colour(board, symbol_of(text)) == colour  # it can be typed
        assert colour_names.colour_words(board, colour, palette=palette) == text
        assert colour_names.colour_words(board, colour, symbol=False, palette=palette) == name_of(
            text
        )


@pytest.mark.parametrize("board", shipped_boards(), ids=lambda b: b.name or b.geometry)
def test_every_shipped_palette_is_said_in_distinct_typeable_words(board):
    check_colours(board)


@pytest.mark.parametrize("k", range(1, 41))
def test_palettes_of_any_size_get_distinct_names(k):
    symbols = tuple(f"c{i}" for i in range(k))
    board = Board(geometry="square", cells={(0, i): i for i in range(k)}, palette=symbols)
    check_colours(board)


def test_colours_are_named_as_drawn_with_the_symbol_to_type():
    board = formats.parse("RG\nBY\n")[0]  # colour initials are drawn as those colours
    assert colour_names.palette_words(board) == ["blue (B)", "green (G)", "red (R)", "yellow (Y)"]
    digits = Board(geometry="square", cells={(0, 0): 0, (0, 1): 1}, palette=("1", "2"))
    assert colour_names.palette_words(digits) == ["blue (1)", "orange (2)"]
    graph = formats.load(str(ROOT / "puzzles/graph/wheel.json"))[0]
    assert colour_names.palette_words(graph) == ["Blue", "Gold", "Green", "Red"]


def test_colours_that_look_alike_are_told_apart():
    board = Board(geometry="square", cells={(0, i): i for i in range(3)}, palette=("a", "b", "c"))
    override = ["#22dd22", "#118811", "#44aa44"]  # three greens
    assert [name_of(s) for s in colour_names.palette_words(board, override)] == [
        "light green",
        "dark green",
        "green",
    ]
    check_colours(board, override)
    aliases = Board(geometry="square", cells={(0, 0): 0, (0, 1): 1}, palette=("grey", "gray"))
    check_colours(aliases)
    assert colour_names.palette_words(aliases)[0] == "grey"


# -- regions and moves ----------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(any_board())
def test_a_region_is_named_by_its_cell_nearest_its_middle_the_pivots_by_the_pivot(board):
    g = region_graph(board)
    centres = lay.layout(board).centres
    rank = {cell: i for i, cell in enumerate(board.order)}
    for region in range(g.n):
        cell = words.region_cell(board, g, region)
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
    assert words.region_cell(board, g, g.region_of[(0, 0)]) == (0, 2)
    ring = formats.parse("aaa\naba\naaa\n")[0]  # the middle is the hole in the ring
    g = region_graph(ring)
    assert words.region_cell(ring, g, g.region_of[(0, 0)]) == (0, 1)  # first of four ties


@settings(max_examples=60, deadline=None)
@given(any_board(), st.randoms(use_true_random=False))
def test_moves_in_words_name_a_cell_of_the_region_moved_then(board, rng):
    g = region_graph(board)
    pos, moves = rules.start(g), []
    for _ in range(4):
        legal = list(rules.legal_moves(g, pos))
        if not legal or rules.is_solved(pos):
            break
        moves.append(rng.choice(legal))
        pos = rules.apply(g, pos, moves[-1])
    lines = words.moves_words(board, g, moves)
    assert len(lines) == len(moves)
    said = colour_names.palette_words(board)
    pos = rules.start(g)
    for number, (line, move) in enumerate(zip(lines, moves, strict=True), 1):
        region, colour = move
        head, _, place = line.partition(" at ")
        assert head == f"{number}. {said[colour]}"
        current = rules.current_region(g, pos, region)
        # under pivot rules a move of the pivot's region names no place, its token the pivot
        pivot_move = board.rules == "pivot" and g.region_of[board.pivot] in current
        assert (place == "") == pivot_move
        cell = board.pivot if pivot_move else words.cell_at(board, place)
        assert g.region_of[cell] in current
        assert line == f"{number}. {words.move_words(board, g, move, pos)}"
        # the token names the same cell and reads back as the same move
        token = words.move_token(board, g, move, pos)
        assert token.split(":")[0] == notation.format_cell(board, cell)
        back = notation.parse_move(board, g, token)
        assert back[1] == colour and back[0] in current
        pos = rules.apply(g, pos, move)


@settings(max_examples=30, deadline=None)
@given(grid_boards(max_cells=20), st.randoms(use_true_random=False))
def test_a_frame_rings_the_cell_its_caption_names(board, rng):
    g = region_graph(board)
    pos, moves = rules.start(g), []
    for _ in range(3):
        legal = list(rules.legal_moves(g, pos))
        if not legal:
            break
        moves.append(rng.choice(legal))
        pos = rules.apply(g, pos, moves[-1])
    frames = frames_of(board, moves)
    scenes = frame_scenes(board, moves)
    drawing = lay.layout(board)
    for frame, picture in zip(frames[:-1], scenes, strict=False):
        place = frame.caption.partition(" at ")[2]
        assert words.cell_at(board, place) == frame.tap
        assert frame.tap in frame.marked
        cells = {s.ident: s for s in picture.shapes if s.role == "cell"}
        taps = [s for s in picture.shapes if s.role == "tap"]
        rings = [s for s in taps if s.fill is None]
        assert rings and len(taps) > len(rings)  # an open ring around a filled dot
        # every mark is centred on the named cell's drawn centre
        polygon = cells[",".join(map(str, frame.tap))].points
        cx = sum(p[0] for p in polygon) / len(polygon)
        cy = sum(p[1] for p in polygon) / len(polygon)
        assert drawing.centres[frame.tap]  # the cell is drawn
        for s in taps:
            assert abs(s.points[0] - cx) < 1e-6 and abs(s.points[1] - cy) < 1e-6


def test_captions_name_the_colour_as_drawn():
    board = formats.parse("RG\nBY\n")[0]
    g = region_graph(board)
    move = (g.region_of[(0, 0)], board.palette.index("G"))
    assert frames_of(board, [move])[0].caption == "move 1/1: green at row 1, column 1"
    drawn = ["#000080", "#ff8c00", "#ffff00", "#00ff00"]  # G drawn orange (render --palette)
    assert frames_of(board, [move], drawn)[0].caption.startswith("move 1/1: orange at")


@settings(max_examples=60, deadline=None)
@given(grid_boards(max_cells=40))
def test_the_labels_stand_where_the_words_count_rows_and_columns(board):
    drawing = lay.layout(board)
    rows, columns = words.grid_labels(board, drawing.centres)
    row_at, column_at = dict(rows), dict(columns)
    for cell in board.order:
        r, c = words.row_column(board, cell)
        x, y = drawing.centres[cell]
        assert r in row_at and c in column_at  # at most 40 cells: every number is shown
        assert abs(column_at[c] - x) < 0.6  # a column is one strip (hexes: one x)
        if board.geometry != "hex":  # hex rows zigzag: half a cell up or down
            assert abs(row_at[r] - y) < 0.6
    assert [n for n, _ in rows] == sorted(row_at) and [n for n, _ in columns] == sorted(column_at)


def test_past_thirty_a_side_every_fifth_number_is_shown():
    board = formats.parse("\n".join("ab" * 20 for _ in range(3)) + "\n")[0]
    rows, columns = words.grid_labels(board, lay.layout(board).centres)
    assert [n for n, _ in rows] == [1, 2, 3]
    assert [n for n, _ in columns] == [1, 5, 10, 15, 20, 25, 30, 35, 40]


def test_a_picture_of_a_grid_carries_its_row_and_column_numbers():
    board = formats.parse("ab\nba\nab\n")[0]
    [frame] = frame_scenes(board)
    numbers = sorted(s.text for s in frame.shapes if s.role == "ruler")
    assert numbers == ["1", "1", "2", "2", "3"]  # rows 1-3, columns 1-2
    graph = formats.parse('{"nodes": {"a": "R", "b": "G"}, "edges": [["a", "b"]]}')[0]
    assert not [s for s in frame_scenes(graph)[0].shapes if s.role == "ruler"]
