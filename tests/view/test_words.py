"""Moves in words: colour names a person can tell apart and type, each move said on a cell
of the region it recolours, pictures whose captions and rings agree (places themselves:
test_places.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kamicp import formats
from kamicp.game import notation, rules
from kamicp.game.board import Board
from kamicp.game.regions import region_graph
from kamicp.view import colour_names, places, words
from kamicp.view import layout as lay
from kamicp.view.scene import frame_scenes, frames_of
from tests.strategies import grid_boards
from tests.view.boards import ROOT, any_board, shipped_boards


def name_of(said: str) -> str:
    """The colour's name without the symbol in brackets."""
    return said.split(" (")[0]


def symbol_of(said: str) -> str:
    """What to type for a colour said as ``name (symbol)`` or as its name alone."""
    return said[said.index("(") + 1 : -1] if said.endswith(")") else said


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
        cell = board.pivot if pivot_move else places.cell_at(board, place)
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
        assert places.cell_at(board, place) == frame.tap
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
