"""The formats by name: every shipped puzzle parses and its recorded optimum is re-proved by
BFS, detection goes by content, and every malformed input is reported with its file and line."""

from __future__ import annotations

import json
import os
from dataclasses import replace

import pytest

from kamicp import formats
from kamicp.errors import InputError
from kamicp.game import geometry, notation, rules
from kamicp.game.board import Board
from kamicp.game.regions import region_graph
from kamicp.search.bfs import bfs
from tests.formats.helpers import PUZZLES, shipped


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


def test_detection_of_each_format():
    assert formats.detect("ab\nba\n") == "grid"
    assert formats.detect("# c\n  3 by 1 -> 2\n 012\n") == "flood"
    assert formats.detect("# c\n12x1c6m5:012345012345,9\n") == "gameid"
    assert formats.detect("12x12c6m5#seed\n") == "gameid"
    assert formats.detect("01|Default|0|0|1|20|1r|1||0|") == "puz"
    assert formats.detect('\ufeff {"nodes": {}}') == "json"
    assert formats.detect("1 1 2\n1\n0\n") == "floodit99"
    assert formats.detect("1 2 3\n3 1 2\n") == "grid"  # a 3-cell row then another: a grid
    assert formats.detect("") == "grid"


def test_detect_prefers_content_over_extension(tmp_path):
    path = tmp_path / "looks.json"
    path.write_text("ab\nba\n")
    [board] = formats.load(str(path))
    assert board.geometry == "square"
    assert formats.load(str(path), text='{"nodes": {"1": "R"}}')[0].geometry == "graph"
    with pytest.raises(InputError, match="bad JSON"):
        formats.load(str(path), fmt="json")


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
    "game ID seed": ("# a seed\n12x12c6m5#123\n", 2, "a random seed, not a game ID"),
    "game ID short": ("3x2:12133,4\n", 1, "5 cells, the parameters say 3x2 = 6"),
    "game ID square": ("2:1213,4\n3:1,2\n", 2, "1 cells, the parameters say 3x3 = 9"),
    "game ID lower case": ("3x2:12a332,4\n", 1, "'a' is not a colour"),
    "game ID colour past c": ("3x2c3m0:121332,4\n", 1, "colour '3' is past the parameters' 3"),
    "game ID limit": ("3x2:121332,x\n", 1, "the move limit must be a non-negative integer"),
    "game ID junk": ("3x2:121332,4\nhello\n", 2, "expected a game ID"),
    "game ID empty side": ("0x2:,4\n", 1, "empty board"),
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


def test_bom_and_crlf_are_accepted(tmp_path):
    path = tmp_path / "dos.txt"
    path.write_bytes(b"\xef\xbb\xbfrules: pivot\r\nab\r\nba\r\n")
    [board] = formats.load(str(path))
    assert board.rules == "pivot" and len(board.cells) == 4
    assert json.loads(formats.dump(board, "json"))["rules"] == "pivot"
