"""Designs: JSON to board and back, the polygons the page draws, and a bad design refused
with one line."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kamicp.errors import InputError
from kamicp.formats import registry
from kamicp.web import drafts


@st.composite
def designs(draw) -> dict:
    """A small design of any paintable geometry, with holes, digit or letter names."""
    geometry = draw(st.sampled_from(drafts.DESIGN_GEOMETRIES))
    rows = draw(st.integers(1, 4))
    columns = 2 * draw(st.integers(1, 3)) if geometry == "kami2" else draw(st.integers(1, 5))
    k = draw(st.integers(1, 4))
    design = drafts.blank(geometry, rows, columns, k)
    if draw(st.booleans()):
        design["palette"] = list("RGBY"[:k])
    holes = draw(st.booleans())  # hole-free rectangles are the Flood-It formats' boards
    for row in design["cells"]:
        for j in range(columns):
            row[j] = draw(st.sampled_from([None] * holes + list(range(k))))
    if all(x is None for row in design["cells"] for x in row):
        design["cells"][0][0] = 0
    design["rules"] = draw(st.sampled_from(["free", "pivot"]))
    present = [[i, j] for i, row in enumerate(design["cells"]) for j, x in enumerate(row)]
    present = [p for p in present if design["cells"][p[0]][p[1]] is not None]
    if design["rules"] == "pivot":
        design["pivot"] = draw(st.one_of(st.none(), st.sampled_from(present)))
    design["par"] = draw(st.one_of(st.none(), st.integers(0, 9)))
    design["optimum"] = draw(st.one_of(st.none(), st.integers(1, 9)))
    return design


@st.composite
def flood_it_designs(draw) -> dict:
    """A hole-free square design under pivot rules: what the Flood-It formats hold."""
    rows = draw(st.integers(2, 4))
    columns = draw(st.sampled_from([rows, draw(st.integers(1, 5))]))
    k = draw(st.integers(1, 5))
    design = drafts.blank("square", rows, columns, k)
    design["cells"] = [[draw(st.integers(0, k - 1)) for _ in range(columns)] for _ in range(rows)]
    design.update(rules="pivot", par=draw(st.integers(0, 9)))
    return design


def symbols(board) -> dict:
    """Cell -> colour symbol: boards compared by what a file says, not by palette order."""
    return {cell: board.palette[c] for cell, c in board.cells.items()}


@settings(max_examples=150, deadline=None)
@given(designs())
def test_a_design_survives_the_board_and_back(design):
    board = drafts.to_board(design)
    again = drafts.to_board(drafts.from_board(board))
    assert symbols(again) == symbols(board)
    assert (again.rules, again.pivot, again.par, again.optimum) == (
        board.rules,
        board.pivot,
        board.par,
        board.optimum,
    )
    assert again.palette == board.palette
    if board.geometry == "kami2":  # the file's width holds every triangle of every strip
        assert max(2 * p + s for _, p, s in again.cells) < 2 * again.width <= 2 * board.width


def mutated(change) -> dict:
    design = drafts.blank("square", 2, 2, 2)
    change(design)
    return design


BAD = [
    (lambda d: d.update(geometry="graph"), "region graphs cannot be painted"),
    (lambda d: d.update(rows=0), "rows must be a whole number from 1 to 60, not 0"),
    (lambda d: d.update(columns="3"), "columns must be a whole number from 1 to 60, not '3'"),
    (lambda d: d.update(geometry="kami2", top=0), "cell 1,0 lies above its strip"),
    (lambda d: d["cells"].pop(), "cells must be 2 rows"),
    (lambda d: d["cells"][1].append(0), "row 1 of the cells must hold 2 entries"),
    (lambda d: d["cells"][0].__setitem__(1, 2), "the colour of cell 0,1 must be a whole number"),
    (lambda d: d.update(cells=[[None, None], [None, None]]), "every cell is a hole"),
    (lambda d: d.update(palette=["1", "1"]), "colour name '1' is given twice"),
    (lambda d: d.update(palette=["1", " "]), "colour name ' ' is empty"),
    (lambda d: d.update(palette=[]), "the palette must list 1 to 16 colour names"),
    (lambda d: d.update(rules="any"), "rules must be free or pivot, not 'any'"),
    (lambda d: d.update(pivot=[2, 0]), "the pivot's row must be a whole number from 0 to 1"),
    (lambda d: (d["cells"][1].__setitem__(1, None), d.update(pivot=[1, 1])), "pivot 1,1 is a hole"),
    (lambda d: d.update(par=-1), "par must be a whole number from 0"),
    (lambda d: d.update(par=True), "par must be a whole number"),
]


@pytest.mark.parametrize("change, problem", BAD)
def test_a_bad_design_is_refused_in_one_line(change, problem):
    with pytest.raises(InputError) as caught:
        drafts.to_board(mutated(change))
    message = str(caught.value)
    assert problem in message and message.startswith("design: ") and "\n" not in message


def test_a_region_graph_cannot_be_opened_for_painting():
    [graph] = registry.parse('{"nodes": {"a": "R", "b": "G"}, "edges": [["a", "b"]]}', "g.json")
    with pytest.raises(InputError, match="g.json: a graph board has no cells to paint"):
        drafts.from_board(graph)


def test_a_file_read_into_a_design_keeps_holes_pivot_and_par():
    [board] = registry.parse("rules: pivot\npivot: 1,2\npar: 4\nRG.\nBBG\n", "p.txt")
    design = drafts.from_board(board)
    assert design["cells"] == [[2, 1, None], [0, 0, 1]]
    assert (design["pivot"], design["par"], design["name"]) == ([1, 2], 4, "p")
    assert design["colours"][2] == "#d64550"  # R is red


def test_shapes_cover_every_entry_and_list_its_neighbours():
    drawn = drafts.shapes("kami2", 2, 4)
    assert [c["at"] for c in drawn["cells"]] == [[i, j] for i in range(2) for j in range(4)]
    assert all(len(c["points"]) == 3 for c in drawn["cells"])
    first = next(c for c in drawn["cells"] if c["at"] == [0, 1])
    assert sorted(first["next"]) == [[0, 0], [0, 2]]  # the third side faces off the board
    hexes = drafts.shapes("hex", 2, 2)
    assert all(len(c["points"]) == 6 for c in hexes["cells"])


def centre_height(cell: dict) -> float:
    return round(sum(y for _, y in cell["points"]) / len(cell["points"]), 6)


@pytest.mark.parametrize("rows, columns, top", [(10, 29, None), (3, 5, 0), (4, 6, 7)])
def test_a_kami2_design_is_drawn_upright_rows_of_entries_level(rows, columns, top):
    drawn = drafts.shapes("kami2", rows, columns, top)
    heights = {}
    for cell in drawn["cells"]:
        heights.setdefault(cell["at"][1], set()).add(centre_height(cell))
    # each entry column j is one drawn line (the two pointings of a line differ by 1/6)
    assert all(max(h) - min(h) < 0.34 for h in heights.values())
    drawn_at = {tuple(c["at"]) for c in drawn["cells"]}
    t = 0 if top is None else top
    above = {(i, j) for i in range(rows) for j in range(columns) if (top is not None and t + j < i)}
    assert drawn_at == {(i, j) for i in range(rows) for j in range(columns)} - above


def test_a_kami2_level_opens_upright_with_every_triangle():
    # a blank design of 3 strips of 4 triangles, written as a .puz level and opened again
    text = registry.dump(drafts.to_board(drafts.blank("kami2", 3, 4, 2)), "puz")
    [level] = registry.parse(text, "level.puz")
    design = drafts.from_board(level)
    assert design["top"] == 2 and (design["rows"], design["columns"]) == (3, 4)
    assert all(x == 0 for row in design["cells"] for x in row)


def test_to_board_leaves_the_design_alone():
    design = drafts.blank("hex", 2, 2, 2)
    before = copy.deepcopy(design)
    drafts.to_board(design)
    assert design == before
