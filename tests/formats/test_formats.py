"""Input formats: every shipped puzzle and data file parses, optima are re-proved by BFS,
writers round-trip, and every malformed input is reported with its file and line."""

from __future__ import annotations

import json
import os
import re
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kamicp import formats
from kamicp.errors import InputError
from kamicp.game import geometry, notation, rules
from kamicp.game.board import Board
from kamicp.game.regions import region_graph
from kamicp.search.bfs import bfs
from tests.strategies import graph_boards, grid_boards

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"
DATA = Path(__file__).resolve().parents[1] / "data"
SHARED = ROOT.parent / "shared" / "data"  # read-only benchmark data next to the repository
KAMI2 = SHARED / "kami2-story"
FLOODIT = SHARED / "floodit-99"

needs_kami2 = pytest.mark.skipif(not KAMI2.is_dir(), reason=f"{KAMI2} not present")
needs_floodit = pytest.mark.skipif(not FLOODIT.is_dir(), reason=f"{FLOODIT} not present")


def shipped() -> list[str]:
    return formats.iter_paths([str(PUZZLES)])


# ----------------------------------------------------------------------------- shipped puzzles


def test_every_geometry_and_format_is_shipped():
    boards = [b for path in shipped() for b in formats.load(path)]
    assert {b.geometry for b in boards} == set(geometry.GEOMETRIES)
    assert {b.rules for b in boards} == {"free", "pivot"}
    kinds = {formats.detect(formats.read_text(path)) for path in shipped()}
    assert kinds == set(formats.FORMATS)
    graphs = [region_graph(b) for b in boards]
    assert any(len(g.islands) > 1 for g in graphs), "no board with islands"
    assert any(b.geometry in geometry.GRID_GEOMETRIES and holes(b) for b in boards)


def holes(board: Board) -> bool:
    rows = {r for r, _ in board.cells}
    cols = {c for _, c in board.cells}
    return len(board.cells) < len(rows) * len(cols)


@pytest.mark.parametrize("path", shipped(), ids=lambda p: os.path.relpath(p, PUZZLES))
def test_shipped_puzzle_optimum_is_proved_by_bfs(path):
    for board in formats.load(path):
        # The optimum key where the format has one; Tatham flood and .puz files use par.
        listed = board.optimum if board.optimum is not None else board.par
        assert listed is not None, f"{board.name}: no optimum recorded"
        g = region_graph(board)
        outcome = bfs(g)
        assert outcome.complete and outcome.moves is not None
        assert len(outcome.moves) == listed, board.name
        rules.verify_solution(g, outcome.moves)
        if board.solution is not None:  # an optimal designer's solution in .puz files
            moves = notation.parse_moves(board, g, board.solution)
            assert len(moves) == listed
            rules.verify_solution(g, moves)


def test_first_example_is_small_and_instant():
    [board] = formats.load(str(PUZZLES / "square" / "first.txt"))
    assert board.geometry == "square" and board.rules == "free"
    assert len(board.cells) == 36 and board.optimum == 4 and board.name == "first"


# ----------------------------------------------------------------------------- data files


def test_seed_flood_example():
    path = str(DATA / "flood-article-12x12.txt")
    assert formats.detect(formats.read_text(path)) == "flood"
    [board] = formats.load(path)
    assert board.geometry == "square" and board.rules == "pivot" and board.pivot == (0, 0)
    assert len(board.cells) == 144 and {r for r, _ in board.cells} == set(range(12))
    assert board.palette == ("0", "1", "2", "3", "4", "5")
    assert board.par == 23 and board.optimum is None  # the game's move limit, not an optimum
    assert board.cells[(0, 0)] == 2 and board.cells[(11, 11)] == 0
    assert formats.dump(board, "flood").split() == formats.read_text(path).split()


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


@needs_floodit
def test_floodit99_boards_parse():
    paths = sorted(FLOODIT.glob("*.txt"))
    assert len(paths) == 99
    for path in paths:
        rows, cols, k, _ = (int(x) for x in path.stem.split("_"))
        text = path.read_text()
        assert formats.detect(text) == "floodit99"
        [board] = formats.load(str(path))
        assert len(board.cells) == rows * cols and max(board.cells) == (rows - 1, cols - 1)
        assert board.palette == tuple(str(c) for c in range(1, k + 1))
        assert board.rules == "pivot" and board.pivot == (0, 0)
        assert board.optimum == board.par == int(text.split()[-1]) > 0
        assert formats.parse(formats.dump(board, "floodit99"))[0].cells == board.cells


# ----------------------------------------------------------------------------- round trips


def same_grid(a: Board, b: Board) -> None:
    assert (a.geometry, a.cells, a.palette, a.rules, a.pivot) == (
        b.geometry,
        b.cells,
        b.palette,
        b.rules,
        b.pivot,
    )
    assert (a.par, a.optimum, a.name) == (b.par, b.optimum, b.name)


@settings(max_examples=150, deadline=None)
@given(grid_boards(), st.none() | st.integers(0, 30), st.sampled_from(["", "a name"]))
def test_grid_text_round_trip(board, par, name):
    board = replace(board, par=par, optimum=par, name=name)
    text = formats.dump(board, "grid")
    assert formats.detect(text) == "grid"
    [back] = formats.parse(text)
    same_grid(board, back)


@settings(max_examples=150, deadline=None)
@given(grid_boards(), st.data())
def test_grid_text_round_trip_with_any_pivot(board, data):
    pivot = data.draw(st.sampled_from(sorted(board.cells)))
    board = replace(board, pivot=pivot)
    [back] = formats.parse(formats.dump(board, "grid"))
    assert back.pivot == pivot and back.cells == board.cells


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


@st.composite
def full_rectangles(draw, digits: bool) -> Board:
    """Hole-free rectangles under pivot rules (what flood and floodit-99 files hold)."""
    rows, cols = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    k = draw(st.integers(1, 10 if digits else 12))
    cells = {(r, c): draw(st.integers(0, k - 1)) for r in range(rows) for c in range(cols)}
    palette = tuple(str(d) for d in range(k)) if digits else tuple(str(d) for d in range(1, k + 1))
    if digits:  # the flood reader's palette is the digits present
        used = sorted(set(cells.values()))
        palette = tuple(palette[c] for c in used)
        cells = {cell: used.index(c) for cell, c in cells.items()}
    return Board("square", cells, palette, rules="pivot", par=draw(st.integers(0, 40)))


@settings(max_examples=100, deadline=None)
@given(st.lists(full_rectangles(digits=True), min_size=1, max_size=3))
def test_flood_text_round_trip_of_several_boards(boards):
    text = "\n".join(formats.dump(b, "flood") for b in boards)
    assert formats.detect(text) == "flood"
    back = formats.parse(text, "many.txt")
    assert [(b.cells, b.palette, b.par) for b in back] == [
        (b.cells, b.palette, b.par) for b in boards
    ]
    if len(boards) > 1:
        assert [b.name for b in back] == [f"many-{i}" for i in range(1, len(boards) + 1)]


@settings(max_examples=100, deadline=None)
@given(full_rectangles(digits=False))
def test_floodit99_round_trip(board):
    board = replace(board, optimum=board.par or None, par=board.par or None)
    text = formats.dump(board, "floodit99")
    [back] = formats.parse(text, fmt="floodit99")
    assert (back.cells, back.palette, back.optimum) == (board.cells, board.palette, board.optimum)


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


def test_writers_refuse_boards_that_do_not_fit():
    graph = formats.parse('{"nodes": {"a": "Red"}}')[0]
    holed = formats.parse("ab\n.a\n")[0]
    with pytest.raises(InputError, match="graph board cannot be written as grid"):
        formats.dump(graph, "grid")
    with pytest.raises(InputError, match="holes"):
        formats.dump(replace(holed, rules="pivot"), "flood")
    with pytest.raises(InputError, match="pivot rules"):
        formats.dump(formats.parse("ab\nba\n")[0], "floodit99")
    with pytest.raises(InputError, match="cannot be written as .puz"):
        formats.dump(holed, "puz")
    with pytest.raises(InputError, match="unknown format"):
        formats.dump(holed, "png")


# ----------------------------------------------------------------------------- reading details


def test_grid_text_details():
    text = "# comment\nname: demo  # trailing comment\npalette: Z A\n\nA A .\nA  A Z\n"
    [board] = formats.parse(text, "some/where/demo.kami")
    assert board.palette == ("Z", "A") and board.name == "demo" and board.source.endswith("kami")
    assert board.cells == {(0, 0): 1, (0, 1): 1, (1, 0): 1, (1, 1): 1, (1, 2): 0}
    assert board.pivot == (0, 0) and board.rules == "free" and board.geometry == "square"
    [unnamed] = formats.parse("ba\n", "dir/level7.txt")
    assert unnamed.name == "level7" and unnamed.palette == ("a", "b")


def test_json_details():
    text = (
        '[{"nodes": {"1": "Red", "x": "Blue"}, "edges": [[1, "x"]], "pivot": 1},\n'
        ' {"nodes": {"1": "Red"}, "name": "solo", "palette": ["Red", "Green"]}]'
    )
    first, second = formats.parse(text, "pair.json")
    assert first.cells == {"1": 1, "x": 0} and first.palette == ("Blue", "Red")
    assert first.edges == (("1", "x"),) and first.pivot == "1" and first.name == "pair-1"
    assert second.name == "solo" and second.palette == ("Red", "Green") and second.edges == ()


def test_floodit99_with_comments_and_lines():
    text = "# a comment\n2 3 4\n1 2 3\n4 4 1\n0\n"
    [board] = formats.parse(text, "b.txt")
    assert formats.detect(text) == "floodit99"
    assert board.optimum is None and board.par is None
    assert board.cells[(1, 0)] == 3 and board.palette == ("1", "2", "3", "4")


def test_detect_prefers_content_over_extension(tmp_path):
    path = tmp_path / "looks.json"
    path.write_text("ab\nba\n")
    [board] = formats.load(str(path))
    assert board.geometry == "square"
    assert formats.load(str(path), text='{"nodes": {"1": "R"}}')[0].geometry == "graph"
    with pytest.raises(InputError, match="bad JSON"):
        formats.load(str(path), fmt="json")


def test_iter_paths(tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "z.puz").write_text("x")
    (tmp_path / "b" / "README.md").write_text("x")
    (tmp_path / "a.json").write_text("x")
    (tmp_path / "c.kami").write_text("x")
    (tmp_path / "ORDER.yaml").write_text("x")
    (tmp_path / "notes.md").write_text("x")
    single = tmp_path / "plain.dat"
    single.write_text("x")
    found = formats.iter_paths([str(single), str(tmp_path)])
    names = [os.path.relpath(p, tmp_path) for p in found]
    assert names == ["plain.dat", "a.json", os.path.join("b", "z.puz"), "c.kami"]
    with pytest.raises(InputError, match="no such file or folder"):
        formats.iter_paths([str(tmp_path / "missing")])
    (tmp_path / "empty").mkdir()  # a folder of no puzzle: a wrong folder, most likely
    (tmp_path / "empty" / "notes.md").write_text("x")
    with pytest.raises(InputError, match="empty: no puzzle file in this folder"):
        formats.iter_paths([str(tmp_path / "empty")])


# ----------------------------------------------------------------------------- malformed input

# (text, expected line, a fragment of the message); detected formats unless the text says
# otherwise. Line numbers are counted by hand: keep each case's layout in mind when editing.
BAD = {
    "grid unknown key": ("name: x\ncolour: red\nab\n", 2, "unknown key 'colour'"),
    "grid repeated key": ("par: 1\npar: 2\nab\n", 2, "given twice"),
    "grid ragged row": ("# c\nab\n\nabc\n", 4, "ragged row"),
    "grid header after rows": ("ab\nba\nrules: pivot\n", 3, "after the grid rows"),
    "grid bad geometry": ("\ngeometry: octagon\nab\n", 2, "unknown geometry"),
    "grid bad rules": ("rules: flood\nab\n", 1, "unknown rules"),
    "grid bad par": ("name: x\npar: many\nab\n", 2, "par must be a non-negative integer"),
    "grid pivot on a hole": ("pivot: 1,0\nab\n.b\n", 1, "pivot 1,0 is a hole"),
    "grid pivot off the board": ("pivot: 5,0\nab\n", 1, "off the board"),
    "grid pivot malformed": ("pivot: a\nab\n", 1, "row,column"),
    "grid empty": ("# nothing\n\n", 2, "empty board"),
    "grid only holes": ("name: x\n...\n...\n", 2, "every cell is a hole"),
    "grid reserved colour": ("ab\na;\n", 2, "cannot be a colour"),
    "grid control character": ("ab\n\x00\x01\n", 2, "'\\x00' is not printable"),
    "grid palette control character": ("palette: ab\x07\nab\n", 1, "'\\x07' is not printable"),
    "grid palette misses a colour": ("palette: ab\nabc\n", 1, "'c' is on the board"),
    "grid palette twice": ("palette: aba\nab\n", 1, "twice"),
    "flood short row": ("3 by 2 -> 4\n  012\n  01\n", 3, "2 digits"),
    "flood missing rows": ("2 by 2 -> 4\n  01\n  10\n2 by 3 -> 1\n 01\n", 5, "header on line 4"),
    "flood not digits": ("2 by 2 -> 4\n  0a\n  10\n", 2, "row of 2 digits"),
    "flood junk between": ("1 by 1 -> 0\n 0\nhello\n", 3, "expected a header"),
    "flood empty side": ("0 by 2 -> 4\n", 1, "empty board"),
    "puz few fields": ("01|Default|0|0|1|20\n", 1, "fields"),
    "puz size not 20w": ("01|Default|0|0|2|30|1X30|1||0|\n", 1, "multiple of 2 x width 2"),
    "puz wrong decoded length": ("01|Default|0|0|1|20|1a|1||0|\n", 1, "decode to 3"),
    "puz colour out of range": ("\n01|Default|0|0|1|20|1q7|1||0|\n", 2, "7 is out of range"),
    "puz bad code": ("01|Default|0|0|1|20|1X2|1||0|\n", 1, "two digits after X"),
    "puz all holes": ("01|Default|0|0|1|20|0r|1||0|\n", 1, "every triangle is a hole"),
    "puz bad par": ("01|Default|0|0|1|20|1r|x||0|\n", 1, "par (field 8)"),
    "puz second level": ("01|Default|0|0|1|20|1r|1||0|\n01|Default|0|0|1|21|1r|1||0|\n", 2, "size"),
    "json syntax": ('{"nodes": {"1": "Red"},\n "edges": [[1, 2]\n}\n', 3, "bad JSON"),
    "json unknown node": (
        '{"nodes": {"1": "Red", "2": "Blue"},\n "edges": [\n  [1, 2],\n  [2, 3]\n ]}',
        4,
        "unknown node 3",
    ),
    "json self-loop": ('{"nodes": {"1": "Red"},\n "edges": [[1, 1]]}', 2, "self-loop"),
    "json repeated edge": (
        '{"nodes": {"1": "R", "2": "B"},\n "edges": [[1, 2],\n [2, 1]]}',
        3,
        "twice",
    ),
    "json unknown key": (
        '{\n "nodes": {"1": "Red"},\n "colours": 3\n}',
        3,
        "unknown key 'colours'",
    ),
    "json repeated key": (
        '{\n "nodes": {"1": "Red"},\n "nodes": {"2": "Red"}\n}',
        3,
        "given twice",
    ),
    "json no nodes": ('{"edges": []}', 1, "no 'nodes'"),
    "json empty nodes": ('{\n"nodes": {}}', 2, "empty board"),
    "json colour not a name": ('{"nodes": {\n "1": 3}}', 2, "colour must be a name"),
    "json bad pivot": ('{"nodes": {"1": "Red"},\n\n "pivot": 2}', 3, "pivot 2 is not a node"),
    "json bad rules": ('{"nodes": {"1": "Red"}, "rules": "pivoted"}', 1, "unknown rules"),
    "json bad par": ('{"nodes": {"1": "Red"},\n "par": -1}', 2, "par must be"),
    "json bad optimum": ('{"nodes": {"1": "Red"},\n "optimum": true}', 2, "optimum must be"),
    "json edge not a pair": ('{"nodes": {"1": "Red"},\n "edges": [[1]]}', 2, "pair"),
    "json bool node": ('{"nodes": {"1": "Red"},\n "edges": [[1, true]]}', 2, "integer or a string"),
    "json NaN node": ('{"nodes": {"1": "Red"},\n "edges": [[1, NaN]]}', 2, "integer or a string"),
    "json not an object": ("[\n 3\n]", 2, "JSON object"),
    "json empty array": ("[\n]", 1, "no puzzle"),
    "floodit99 colour out of range": ("2 2 3\n1 2\n3 4\n5\n", 3, "colour 4 is out of range"),
    "floodit99 colour zero": ("2 2 3\n1 2 0 1\n5\n", 2, "colour 0"),
    "floodit99 too few": ("2 2 3\n1 2 3\n5\n", 3, "expected 4 colours"),
    "floodit99 too many": ("1 1 3\n1\n5\n7\n", 4, "after the optimum"),
    "floodit99 empty board": ("# c\n0 2 3\n1\n5\n", 2, "empty board"),
}
FORCED = {
    "floodit99 too many": "floodit99",
    "floodit99 too few": "floodit99",
    "floodit99 empty board": "floodit99",
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_malformed_input_names_file_and_line(case):
    text, line, fragment = BAD[case]
    with pytest.raises(InputError) as info:
        formats.parse(text, "bad/file.x", fmt=FORCED.get(case))
    err = info.value
    assert (err.path, err.line) == ("bad/file.x", line), str(err)
    assert str(err).startswith(f"bad/file.x:{line}: ")
    assert fragment in err.problem, str(err)
    assert "\n" not in str(err)


def test_detection_of_each_format():
    assert formats.detect("ab\nba\n") == "grid"
    assert formats.detect("# c\n  3 by 1 -> 2\n 012\n") == "flood"
    assert formats.detect("01|Default|0|0|1|20|1r|1||0|") == "puz"
    assert formats.detect('\ufeff {"nodes": {}}') == "json"
    assert formats.detect("1 1 2\n1\n0\n") == "floodit99"
    assert formats.detect("1 2 3\n3 1 2\n") == "grid"  # a 3-cell row then another: a grid
    assert formats.detect("") == "grid"


def test_unreadable_files(tmp_path):
    missing = tmp_path / "missing.txt"
    with pytest.raises(InputError, match=re.escape(f"{missing}: no such file")):
        formats.load(str(missing))
    with pytest.raises(InputError, match="is a folder"):
        formats.load(str(tmp_path))
    latin = tmp_path / "latin.txt"
    latin.write_bytes("ab\nba\n# caf\u00e9\n".encode("latin-1"))
    with pytest.raises(InputError) as info:
        formats.load(str(latin))
    assert info.value.line == 3 and "UTF-8" in info.value.problem
    with pytest.raises(InputError, match="unknown format"):
        formats.parse("ab\n", fmt="gif")


def test_bom_and_crlf_are_accepted(tmp_path):
    path = tmp_path / "dos.txt"
    path.write_bytes(b"\xef\xbb\xbfrules: pivot\r\nab\r\nba\r\n")
    [board] = formats.load(str(path))
    assert board.rules == "pivot" and len(board.cells) == 4
    assert json.loads(formats.dump(board, "json"))["rules"] == "pivot"
