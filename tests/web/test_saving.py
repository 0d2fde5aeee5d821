"""Saving designs: every format that holds a board reads it back the same, the others say
why not, and a file is replaced only when the designer agreed."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kamicp.errors import InputError, KamicpError
from kamicp.formats import registry
from kamicp.game.regions import region_graph
from kamicp.web import drafts, saving
from tests.web.test_drafts import designs, flood_it_designs, symbols


def graph_view(board) -> tuple:
    g = region_graph(board)
    colours = tuple(board.palette[c] for c in g.colour)
    return colours, tuple(g.edges()), g.pivot if board.rules == "pivot" else None, board.rules


@settings(max_examples=150, deadline=None)
@given(st.one_of(designs(), flood_it_designs()))
def test_every_format_that_holds_a_design_reads_it_back(design):
    board = drafts.to_board(design)
    held = [f["format"] for f in saving.formats_for(board) if f["problem"] is None]
    assert "json" in held
    assert ("grid" in held) == (board.geometry != "kami2")
    for fmt in held:
        [back] = registry.parse(saving.save(design, fmt)["text"], "back", fmt)
        if fmt == "json":  # a region graph: the cells are merged into regions
            assert graph_view(back) == graph_view(board)
            continue
        assert back.geometry == board.geometry
        assert symbols(back) == symbols(board)
        assert back.rules == board.rules
        if board.rules == "pivot":
            assert back.pivot == board.pivot


def test_a_saved_grid_file_is_what_kamicp_reads():
    design = drafts.blank("square", 2, 3, 3)
    design["cells"] = [[0, 1, None], [2, 2, 1]]
    design.update(name="tiny", rules="pivot", pivot=[1, 0], par=3)
    saved = saving.save(design, "grid")
    assert saved == {
        "filename": "tiny.txt",
        "text": "name: tiny\nrules: pivot\npivot: 1,0\npar: 3\n12.\n332\n",
    }


def test_a_kami2_design_is_written_as_a_puz_level_of_ten_rows():
    design = drafts.blank("kami2", 2, 4, 2)
    design["cells"][1][3] = 1
    design["cells"][0][0] = None
    [level] = registry.parse(saving.save(design, "puz")["text"], "x.puz")
    # strips drawn level: entry [i][j] is triangle t = top + j - i (top 1) of strip i
    assert level.width == 3 and len(level.cells) == 7
    assert level.cells[(1, 1, 1)] == 1 and (0, 0, 1) not in level.cells
    assert drafts.from_board(level)["rows"] == 2  # the padding rows are holes, left out


def test_formats_that_cannot_hold_a_board_say_why():
    design = drafts.blank("square", 2, 2, 2)
    design["cells"][0][0] = None
    problems = {f["format"]: f["problem"] for f in saving.formats_for(drafts.to_board(design))}
    assert problems["grid"] is None and problems["json"] is None
    assert problems["puz"] == "design: a square board cannot be written as .puz"
    assert problems["flood"] == "design: flood text cannot hold holes"
    assert problems["digits"] == "design: the digit format cannot hold holes"


def test_a_square_pivot_board_without_holes_fits_the_flood_it_formats():
    design = drafts.blank("square", 3, 3, 3)
    design.update(rules="pivot", par=5)
    fits = [f["format"] for f in saving.formats_for(drafts.to_board(design)) if not f["problem"]]
    assert fits == list(registry.FORMATS[:3]) + ["json", "floodit99", "digits"]


def test_write_file_refuses_an_existing_file_unless_told(tmp_path):
    path = str(tmp_path / "level.txt")
    saving.write_file(path, "RG\n")
    with pytest.raises(FileExistsError):
        saving.write_file(path, "GG\n")
    assert open(path).read() == "RG\n"
    saving.write_file(path, "GG\n", overwrite=True)
    assert open(path).read() == "GG\n"
    assert os.listdir(tmp_path) == ["level.txt"]  # no temporary file left


def test_write_file_says_in_one_line_why_it_cannot_write(tmp_path):
    path = str(tmp_path / "missing" / "level.txt")
    with pytest.raises(KamicpError) as caught:
        saving.write_file(path, "RG\n")
    assert str(caught.value).startswith(f"{path}: cannot write: ")
    assert "\n" not in str(caught.value)


def test_save_refuses_an_unknown_format_in_one_line():
    with pytest.raises(InputError, match="unknown format 'svg'"):
        saving.save(drafts.blank("square", 1, 1, 1), "svg")
