"""KAMI 2 .puz levels: the story levels parse and their designer solutions reach par, levels
and the run-length code round-trip."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kamicp import formats
from kamicp.game import geometry, notation, rules
from kamicp.game.board import Board
from kamicp.game.regions import region_graph
from tests.formats.helpers import KAMI2, needs_kami2


@needs_kami2
def test_kami2_story_levels_parse_and_designer_solutions_reach_par():
    paths = sorted(KAMI2.glob("*.puz"))
    assert len(paths) >= 115
    solved = 0
    for path in paths:
        [board] = formats.load(str(path))
        fields = path.read_text().strip().split("|")
        width, size = int(fields[4]), int(fields[5])
        assert board.geometry == "kami2" and board.width == width and board.rules == "free"
        # 10 rows of 2w triangles, except three 9-row levels (Nuc2-4, 162 = 9 x 18).
        rows = 9 if path.stem in ("Nuc2", "Nuc3", "Nuc4") else 10
        assert size == rows * 2 * width == len(formats.decode_rle(fields[6], str(path), 1))
        colours = formats.decode_rle(fields[6], str(path), 1)
        assert len(board.cells) == size - colours.count("0")
        assert board.palette == tuple(sorted(set(colours) - {"0"}))
        assert board.par == int(fields[7]) and board.name == path.stem
        if board.solution is None:
            continue
        g = region_graph(board)
        moves = notation.parse_moves(board, g, board.solution)
        assert len(moves) == board.par, path.name
        assert rules.is_solved(rules.replay(g, moves)), path.name
        solved += 1
    assert solved >= len(paths) - 1  # Islands1 ships without a designer's solution


@st.composite
def kami2_boards(draw) -> Board:
    width = draw(st.integers(1, 3))
    rows = draw(st.integers(1, 10))
    flat = draw(
        st.lists(st.sampled_from("0123456"), min_size=2 * width * rows, max_size=2 * width * rows)
    )
    if set(flat) == {"0"}:
        flat[0] = "1"
    palette = tuple(sorted(set(flat) - {"0"}))
    cells = {
        geometry.kami2_cell(i, width): palette.index(d) for i, d in enumerate(flat) if d != "0"
    }
    par = draw(st.none() | st.integers(0, 20))
    return Board(
        "kami2", cells, palette, par=par, width=width, solution=draw(st.none() | st.just("0B"))
    )


@settings(max_examples=100, deadline=None)
@given(kami2_boards())
def test_puz_round_trip(board):
    text = formats.dump(board, "puz")
    assert formats.detect(text) == "puz"
    [back] = formats.parse(text)
    assert (back.cells, back.palette, back.width, back.par, back.solution) == (
        board.cells,
        board.palette,
        board.width,
        board.par,
        board.solution,
    )


@given(st.text(alphabet="0123456", min_size=1, max_size=300))
def test_run_length_code_round_trip(colours):
    code = formats.encode_rle(colours)
    assert formats.decode_rle(code, "x", 1) == colours
