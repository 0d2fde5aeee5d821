"""Tatham flood game IDs: IDs the game printed read as its boards, the move limit is par,
every board written reads back, an ID stands in for a file name, and (where the game is
installed) the game accepts what kamicp writes."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from hypothesis import given, settings

import kamicp
from kamicp import formats
from kamicp.errors import InputError
from tests.formats.helpers import full_rectangles

# Printed by `sgt-flood --generate 2 12x12c6m5#kamicp` (Simon Tatham's Portable Puzzle
# Collection, 20230122): the game writes only the size before the colon.
PRINTED = [
    "12x12:324513152110313134113210553045525220530011353405455202141350200325003344240040"
    "335454041003144104505211035330521422420242454102551101402345512430,22",
    "12x12:414442504352223044312442421303401553342121341310533504551514120002200025535232"
    "555205111025004420050034424150145100344340524532003003405550045302,23",
]
GAME = shutil.which("sgt-flood") or shutil.which("/usr/games/sgt-flood")


@pytest.mark.parametrize("game_id", PRINTED)
def test_an_id_the_game_printed_is_its_board_with_the_move_limit_as_par(game_id):
    [board] = formats.parse(game_id)
    cells = game_id.split(":")[1].split(",")[0]
    assert board.rules == "pivot" and board.pivot == (0, 0) and board.geometry == "square"
    assert board.name == "12x12" and board.par == int(game_id.split(",")[1])
    assert len(board.cells) == 144 and board.palette == tuple("012345")
    assert all(board.palette[board.cells[divmod(i, 12)]] == ch for i, ch in enumerate(cells))
    assert formats.dump(board, "gameid") == game_id + "\n"
    # the limit is the game's greedy count plus the leniency 5: never below the optimum
    result = kamicp.solve(board, time_limit=60)
    assert result.status == "optimal" and len(result.solution) <= board.par


def test_a_game_id_stands_in_for_a_file_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    game_id = PRINTED[0]
    assert formats.sources([game_id, "-"]) == [game_id, "-"]
    [board] = formats.load(game_id)
    assert board.source == "<game ID>" and board.par == 22
    assert kamicp.load(game_id).cells == board.cells
    # a file of that name wins
    (tmp_path / "3x2:121332,4").write_text("ab\nba\n")
    assert formats.load("3x2:121332,4")[0].rules == "free"


def test_several_ids_in_a_file_take_the_file_name(tmp_path):
    path = tmp_path / "mine.txt"
    path.write_text("# two\n\n3x2c4m0:121332,4\n  2:0110,3  \n")
    boards = formats.load(str(path))
    assert [(b.name, b.par, len(b.cells)) for b in boards] == [("mine-1", 4, 6), ("mine-2", 3, 4)]
    assert boards[0].palette == ("1", "2", "3")


@settings(max_examples=100, deadline=None)
@given(full_rectangles(digits=True))
def test_every_board_written_as_an_id_reads_back(board):
    text = formats.dump(board, "gameid")
    assert formats.detect(text) == "gameid"
    [back] = formats.parse(text)
    assert (back.cells, back.palette, back.par) == (board.cells, board.palette, board.par)


def test_the_writer_refuses_what_an_id_cannot_hold():
    with pytest.raises(InputError, match="digit colours"):
        formats.dump(formats.parse("rules: pivot\nab\nba\n")[0], "gameid")
    with pytest.raises(InputError, match="move limit"):
        formats.dump(formats.parse("rules: pivot\n01\n10\n")[0], "gameid")


@pytest.mark.skipif(GAME is None, reason="Tatham's sgt-flood is not installed (sgt-puzzles)")
@settings(max_examples=25, deadline=None)
@given(full_rectangles(digits=True))
def test_the_game_accepts_every_id_kamicp_writes(board):
    if len(board.cells) < 2 or max(int(s) for s in board.palette) > 5:
        return  # the game wants two cells, and checks colours against its setting (6)
    game_id = formats.dump(board, "gameid").strip()
    out = subprocess.run([GAME, "--generate", "1", game_id], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == game_id, out.stderr
