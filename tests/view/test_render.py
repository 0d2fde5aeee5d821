"""Pictures of boards: layout geometry, terminal output and rendered files.

The central property: two cells share a side in the geometry exactly when their polygons
share an edge in the picture. Terminal and image output must agree on where cells are.
"""

from __future__ import annotations

import os
import random
import re
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from kamicp.errors import KamicpError
from kamicp.game import geometry, rules
from kamicp.game.board import Board
from kamicp.game.regions import region_graph
from kamicp.view import layout as lay
from kamicp.view.render import render
from kamicp.view.scene import frames_of
from kamicp.view.show import show, terminal_centres
from tests.seed import SHARED
from tests.strategies import graph_boards, grid_boards, kami2_boards

SVG = "{http://www.w3.org/2000/svg}"
ANSI = re.compile(r"\x1b\[[0-9;]*m")
BUD1 = str(SHARED / "kami2-story" / "Bud1.puz")  # beside the checkout, not at a fixed path


def cell_boards() -> st.SearchStrategy[Board]:
    return st.one_of(grid_boards(max_cells=24), kami2_boards())


def random_moves(board: Board, count: int, seed: int = 0) -> list:
    """Up to ``count`` legal moves chosen at random (stops early once solved)."""
    g = region_graph(board)
    pick = random.Random(seed)
    pos = rules.start(g)
    moves = []
    while len(moves) < count and not rules.is_solved(pos):
        move = pick.choice(list(rules.legal_moves(g, pos)))
        moves.append(move)
        pos = rules.apply(g, pos, move)
    return moves


def board_of(geo: str, rows: int = 3, cols: int = 4, k: int = 3, seed: int = 1) -> Board:
    pick = random.Random(seed)
    cells = {(r, c): pick.randrange(k) for r in range(rows) for c in range(cols)}
    return Board(geometry=geo, cells=cells, palette=tuple("abcdefgh"[:k]))


def kami2_board(seed: int = 2) -> Board:
    pick = random.Random(seed)
    cells = {(r, p, s): pick.randrange(3) for r in range(3) for p in range(3) for s in (0, 1)}
    return Board(geometry="kami2", cells=cells, palette=("1", "2", "3"), width=3)


# -- layout ---------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(cell_boards())
def test_neighbours_share_exactly_one_edge_and_others_none(board):
    drawing = lay.layout(board)
    cells = list(board.order)
    for i, a in enumerate(cells):
        near = set(geometry.neighbours(board.geometry, a))
        for b in cells[i + 1 :]:
            pa, pb = drawing.polygons[a], drawing.polygons[b]
            common = set(pa) & set(pb)
            if b in near:
                assert len(common) == 2, (a, b, common)
                assert len(lay.shared_edges(pa, pb)) == 1, (a, b)
            else:
                assert len(common) <= 1, (a, b, common)
                assert not lay.shared_edges(pa, pb), (a, b)


@settings(max_examples=60, deadline=None)
@given(cell_boards())
def test_cells_do_not_overlap(board):
    """Equal areas and centres further apart than an inscribed circle: a true tiling."""
    drawing = lay.layout(board)

    def area(poly):
        return abs(
            sum(
                x1 * y2 - x2 * y1
                for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1], strict=True)
            )
            / 2
        )

    areas = {round(area(p), 9) for p in drawing.polygons.values()}
    assert len(areas) == 1 and areas.pop() > 0
    centres = list(drawing.centres.values())
    for i, (x1, y1) in enumerate(centres):
        for x2, y2 in centres[i + 1 :]:
            assert (x1 - x2) ** 2 + (y1 - y2) ** 2 > 0.5**2


def test_kami2_cells_are_the_triangle_grid_moved():
    """Each KAMI 2 triangle keeps its neighbours, pointing and polygon on the text grid."""
    for cell in [(r, p, s) for r in range(4) for p in range(4) for s in (0, 1)]:
        line, col = lay.kami2_as_triangle(cell)
        assert geometry.points_right((line, col)) == (cell[2] == 0)
        moved = {lay.kami2_as_triangle(n) for n in geometry.kami2_neighbours(cell)}
        assert moved == set(geometry.triangle_neighbours((line, col)))


def test_outline_of_a_region_leaves_out_inner_edges():
    cells = [(0, 0), (0, 1), (1, 0), (1, 1)]
    edges = lay.outline(lay.square_polygon(c) for c in cells)
    assert len(edges) == 8
    hexes = lay.outline([lay.hex_polygon((0, 0)), lay.hex_polygon((0, 1))])
    assert len(hexes) == 10


def test_graph_positions_are_deterministic_and_distinct():
    board = board_of("square")
    graph = Board(
        geometry="graph",
        cells={i: i % 3 for i in range(7)},
        palette=("x", "y", "z"),
        edges=((0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 0), (0, 3)),
    )
    one, two = lay.layout(graph), lay.layout(graph)
    assert one.centres == two.centres
    assert len(set(one.centres.values())) == 7
    assert lay.layout(board).links == ()


# -- colours --------------------------------------------------------------------------------


@given(st.lists(st.text(min_size=1, max_size=8), min_size=1, max_size=25, unique=True))
def test_palette_colours_are_distinct_and_deterministic(symbols):
    colours = lay.palette_colours(tuple(symbols))
    assert len(colours) == len(symbols) == len(set(colours))
    assert all(re.fullmatch(r"#[0-9a-f]{6}", c) for c in colours)
    assert colours == lay.palette_colours(tuple(symbols))


def test_palette_colours_follow_names_initials_and_overrides():
    named = lay.palette_colours(("Purple", "White", "Red"))
    assert named == [
        lay.NAMED_COLOURS["purple"],
        lay.NAMED_COLOURS["white"],
        lay.NAMED_COLOURS["red"],
    ]
    initials = lay.palette_colours(("r", "g", "b"))
    assert initials == [lay.NAMED_COLOURS[n] for n in ("red", "green", "blue")]
    plain = lay.palette_colours(("a", "b", "c"))  # not all initials: index order
    assert plain == list(lay.DEFAULT_COLOURS[:3])
    over = lay.palette_colours(("a", "b", "c"), ["#000000", "white"])
    assert over[:2] == ["#000000", "#ffffff"] and over[2] not in over[:2]
    with pytest.raises(KamicpError):
        lay.palette_colours(("a",), ["not-a-colour"])


# -- terminal -------------------------------------------------------------------------------


def grid_part(text: str) -> list[str]:
    """The board's lines, without the colour legend."""
    lines = text.split("\n")
    return lines[: next((i for i, ln in enumerate(lines) if ln.startswith("colours:")), None)]


def lines_per_cell(board: Board) -> int:
    return 2 if board.geometry == "hex" else 1


@settings(max_examples=80, deadline=None)
@given(cell_boards(), st.booleans())
def test_show_draws_one_coloured_slot_per_cell_line(board, regions):
    colours = lay.palette_colours(board.palette)
    text = "\n".join(grid_part(show(board, regions=regions, truecolor=True)))
    found = Counter(
        tuple(map(int, m.groups())) for m in re.finditer(r"\x1b\[[34]8;2;(\d+);(\d+);(\d+)", text)
    )
    wanted = Counter()
    for index in board.cells.values():
        wanted[lay.rgb(colours[index])] += lines_per_cell(board)
    assert found == wanted
    cube = "\n".join(grid_part(show(board, regions=regions, truecolor=False)))
    assert len(re.findall(r"\x1b\[[34]8;5;\d+", cube)) == len(board.cells) * lines_per_cell(board)


@settings(max_examples=60, deadline=None)
@given(cell_boards(), st.booleans())
def test_show_numbers_every_region_once(board, colour):
    board = replace(board, palette=tuple("uvwxyz"[: len(board.palette)]))  # no digit symbols
    g = region_graph(board)
    text = ANSI.sub("", "\n".join(grid_part(show(board, regions=True, colour=colour))))
    numbers = sorted(int(n) for n in re.findall(r"\d+", text))
    assert numbers == list(range(g.n))


@settings(max_examples=100, deadline=None)
@given(cell_boards())
def test_terminal_and_layout_centres_agree(board):
    """Up to a positive scale and a shift per axis, show and render put cells at the same
    places (exactly, so a parity or offset slip in either shows)."""
    drawing = lay.layout(board)
    for colour in (True, False):
        term = terminal_centres(board, colour=colour)
        for axis in (0, 1):
            xs = [drawing.centres[c][axis] for c in board.order]
            ts = [term[c][axis] for c in board.order]
            if max(xs) - min(xs) < 1e-9:
                assert max(ts) - min(ts) < 1e-9
                continue
            n = len(xs)
            mx, mt = sum(xs) / n, sum(ts) / n
            scale = sum((x - mx) * (t - mt) for x, t in zip(xs, ts, strict=True)) / sum(
                (x - mx) ** 2 for x in xs
            )
            assert scale > 0
            for x, t in zip(xs, ts, strict=True):
                assert abs(mt + scale * (x - mx) - t) < 1e-6


@settings(max_examples=100, deadline=None)
@given(grid_boards(max_cells=24))
def test_plain_show_writes_each_symbol_at_its_terminal_centre(board):
    """In plain text, the one symbol within half a character of each cell's terminal centre
    is the cell's own, and there are no other symbols: show really draws where
    terminal_centres says."""
    lines = grid_part(show(board, colour=False))
    symbols = set(board.palette)
    seen = {(y, x) for y, ln in enumerate(lines) for x, ch in enumerate(ln) if ch in symbols}
    assert len(seen) == len(board.cells)
    for cell, (cx, cy) in terminal_centres(board, colour=False).items():
        near = [(y, x) for y, x in seen if abs(x + 0.5 - cx) <= 0.5 and abs(y + 0.5 - cy) <= 0.5]
        assert len(near) == 1, (cell, near)
        y, x = near[0]
        assert lines[y][x] == board.palette[board.cells[cell]]


@settings(max_examples=40, deadline=None)
@given(graph_boards(), st.booleans())
def test_show_lists_every_graph_node_with_its_colour(board, regions):
    text = show(board, regions=regions, truecolor=True)
    lines = text.split("\n")[1:]
    assert len(lines) == len(board.cells)
    colours = lay.palette_colours(board.palette)
    adjacency = board.adjacency()
    for node, line in zip(board.order, lines, strict=True):
        rgb = ";".join(map(str, lay.rgb(colours[board.cells[node]])))
        assert line.count("\x1b[48;2;") == 1 and f"48;2;{rgb}m" in line
        assert line.split()[0] == str(node)
        assert ANSI.sub("", line).split()[-1] == (
            str(adjacency[node][-1]) if adjacency[node] else "-"
        )
    plain = show(board, regions=regions, colour=False)
    assert "\x1b" not in plain


def test_show_plain_text_examples():
    square = Board(geometry="square", cells={(0, 0): 0, (0, 1): 1, (1, 1): 0}, palette=("a", "b"))
    assert show(square, colour=False) == "a b\n  a"
    tri = Board(geometry="triangle", cells={(0, 0): 0, (0, 1): 1, (1, 0): 1}, palette=("a", "b"))
    assert show(tri, colour=False) == "a><b\n<b"
    hexes = Board(geometry="hex", cells={(0, 0): 0, (0, 1): 1}, palette=("a", "b"))
    assert show(hexes, colour=False) == "/a\\\n\\_//b\\\n   \\_/"
    named = Board(geometry="square", cells={(0, 0): 0, (0, 1): 1}, palette=("Red", "Blue"))
    assert show(named, colour=False) == "0 1\ncolours: 0=Red 1=Blue"


# -- render ---------------------------------------------------------------------------------


def svg_cells(path) -> list:
    root = ET.parse(path).getroot()
    return [e for e in root.iter(f"{SVG}polygon") if e.get("class") == "cell"]


@settings(max_examples=25, deadline=None)
@given(cell_boards(), st.booleans())
def test_svg_has_one_polygon_per_cell_in_the_board_colours(tmp_path_factory, board, numbers):
    path = tmp_path_factory.mktemp("svg") / "board.svg"
    render(board, str(path), numbers=numbers)
    polygons = svg_cells(path)
    assert len(polygons) == len(board.cells)
    colours = lay.palette_colours(board.palette)
    assert {p.get("fill") for p in polygons} == {colours[i] for i in board.cells.values()}
    for p in polygons:  # every polygon is filled with its own cell's colour
        cell = tuple(map(int, p.get("data-id").split(",")))
        assert p.get("fill") == colours[board.cells[cell]]


def test_svg_graph_board_has_a_circle_per_node_and_a_line_per_edge(tmp_path):
    board = Board(
        geometry="graph",
        cells={"1": 0, "2": 1, "3": 0, "4": 2},
        palette=("Purple", "Yellow", "Red"),
        edges=(("1", "2"), ("2", "3"), ("3", "4")),
    )
    path = tmp_path / "graph.svg"
    render(board, str(path), palette=["#112233"])
    root = ET.parse(path).getroot()
    nodes = [e for e in root.iter(f"{SVG}circle") if e.get("class") == "node"]
    links = [e for e in root.iter(f"{SVG}line") if e.get("class") == "link"]
    labels = [e.text for e in root.iter(f"{SVG}text") if e.get("class") == "label"]
    assert len(nodes) == 4 and len(links) == 3 and sorted(labels) == ["1", "2", "3", "4"]
    assert {n.get("fill") for n in nodes} == {
        "#112233",
        lay.NAMED_COLOURS["yellow"],
        lay.NAMED_COLOURS["red"],
    }


@settings(max_examples=40, deadline=None)
@given(cell_boards(), st.integers(0, 4), st.integers(0, 10))
def test_frames_replay_the_moves(board, count, seed):
    moves = random_moves(board, count, seed)
    frames = frames_of(board, moves)
    g = region_graph(board)
    assert len(frames) == len(moves) + 1
    assert frames[0].colours == board.cells
    pos = rules.start(g)
    for frame, move in zip(frames, moves, strict=False):
        assert frame.colours == {c: pos[g.region_of[c]] for c in board.order}
        marked = {c for r in rules.current_region(g, pos, move[0]) for c in g.cells[r]}
        assert set(frame.marked) == marked and frame.tap in marked
        assert frame.new_colour == move[1]
        pos = rules.apply(g, pos, move)
    assert frames[-1].colours == {c: pos[g.region_of[c]] for c in board.order}
    assert frames[-1].marked == ()


@pytest.mark.parametrize("geo", ["square", "triangle", "hex", "kami2", "graph"])
def test_png_gif_and_svg_rows_open(tmp_path, geo):
    if geo == "kami2":
        board = kami2_board()
    elif geo == "graph":
        board = Board(
            geometry="graph",
            cells={i: i % 3 for i in range(6)},
            palette=("a", "b", "c"),
            edges=((0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (0, 5)),
        )
    else:
        board = board_of(geo)
    moves = random_moves(board, 3)
    png = render(board, str(tmp_path / "b.png"), numbers=True)
    with Image.open(png) as im:
        assert im.width > 0 and im.height > 0
        assert len(im.convert("RGB").getcolors(1 << 20)) > 2  # not a blank picture
    gif = render(board, str(tmp_path / "b.gif"), moves=moves)
    with Image.open(gif) as im:
        assert im.n_frames == len(moves) + 1
    row = render(board, str(tmp_path / "row.svg"), moves=moves, frames="row")
    root = ET.parse(row).getroot()
    captions = [e for e in root.iter(f"{SVG}text") if e.get("class") == "caption"]
    assert len(captions) == len(moves) + 1
    if geo != "graph":
        assert len(svg_cells(row)) == len(board.cells) * (len(moves) + 1)
    rowpng = render(board, str(tmp_path / "row.png"), moves=moves, per_row=2)
    with Image.open(rowpng) as im, Image.open(png) as single:
        assert im.width > single.width


def test_render_rejects_bad_requests(tmp_path):
    board = board_of("square")
    with pytest.raises(KamicpError):
        render(board, str(tmp_path / "b.jpg"))
    with pytest.raises(KamicpError):
        render(board, str(tmp_path / "b.png"), frames="gif")
    with pytest.raises(KamicpError):
        render(board, str(tmp_path / "b.svg"), frames="film")


@pytest.mark.skipif(not os.path.exists(BUD1), reason="shared KAMI 2 levels not present")
def test_kami2_level_renders_its_designer_solution(tmp_path):
    from kamicp import formats
    from kamicp.game.notation import parse_moves

    board = formats.load(BUD1)[0]
    g = region_graph(board)
    moves = parse_moves(board, g, board.solution)
    frames = frames_of(board, moves)
    assert len(set(frames[-1].colours.values())) == 1
    gif = render(board, str(tmp_path / "bud.gif"), moves=moves)
    with Image.open(gif) as im:
        assert im.n_frames == len(moves) + 1
    assert len(svg_cells(render(board, str(tmp_path / "bud.svg")))) == len(board.cells)
