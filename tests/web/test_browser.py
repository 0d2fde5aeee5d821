"""The play page in a real headless Chromium: open files, play by clicks, undo, hint, solve.

Colours and regions are read from the board's SVG cells (``data-colour``, ``data-region``),
and every expected count is proved here by breadth-first search, not taken from the page.
"""

from __future__ import annotations

import re
import time

import pytest

import kamicp
from kamicp import formats
from kamicp.game.regions import region_graph
from kamicp.solving.hint import position_after
from kamicp.view import places
from kamicp.view.layout import layout
from tests.seed import long_board

from .conftest import ROOT

PUZZLES = ROOT / "puzzles"
WAIT = 60  # seconds at most for the page to show what a step asks


def wait_for(browser, condition, seconds=WAIT):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, seconds, poll_frequency=0.05).until(lambda _: condition())


def js(browser, script: str):
    return browser.execute_script(script)


def colours(browser) -> list[int]:
    return js(
        browser, "return [...document.querySelectorAll('#board .cell')].map(c => +c.dataset.colour)"
    )


def regions(browser) -> list[int]:
    return js(
        browser, "return [...document.querySelectorAll('#board .cell')].map(c => +c.dataset.region)"
    )


def text(browser, element_id: str) -> str:
    return js(browser, f"return document.getElementById('{element_id}').textContent")


def data(browser, element_id: str, key: str):
    return js(browser, f"return document.getElementById('{element_id}').dataset.{key} ?? null")


def open_file(browser, server, path, name: str | None = None):
    """Load the page and open ``path`` through its file input; wait for the board."""
    browser.get(server)
    wait_for(browser, lambda: js(browser, "return document.body.dataset.ready === 'true'"))
    before = text(browser, "title")
    browser.find_element("id", "file").send_keys(str(path))
    if name is not None:
        wait_for(
            browser, lambda: text(browser, "title") != before and name in text(browser, "title")
        )


def click_cell(browser, cell: int):
    browser.find_element("css selector", f'#board .cell[data-cell="{cell}"]').click()


def play(browser, board, moves, done: int = 0, keys: bool = False):
    """Play ``moves`` (regions of the board's region graph): pick each colour (its swatch,
    or the key its swatch shows), click a cell of the region."""
    g = region_graph(board)
    digits = all(len(name) == 1 and name.isdigit() for name in board.palette)
    for k, (region, colour) in enumerate(moves, done + 1):
        if keys:
            swatch = browser.find_elements("css selector", ".swatch")[colour]
            key = swatch.find_element("tag name", "kbd").text
            # a palette of digits: the key is the colour's name, as the hints say it
            assert key == (board.palette[colour] if digits else str(colour + 1))
            browser.find_element("tag name", "body").send_keys(key)
        else:
            browser.find_elements("css selector", ".swatch")[colour].click()
        picked = browser.find_element("css selector", ".swatch.picked")
        assert picked.get_attribute("data-colour") == str(colour)
        click_cell(browser, board.order.index(g.cells[region][0]))
        wait_for(browser, lambda k=k: data(browser, "status", "used") == str(k))


def solution(board) -> list:
    return kamicp.solve(board, "bfs").solution


def test_a_kami2_level_is_played_to_the_end(browser, server):
    path = PUZZLES / "puz" / "small.puz"
    board = formats.load(str(path))[0]
    open_file(browser, server, path, board.name)
    assert colours(browser) == [board.cells[c] for c in board.order]
    g = region_graph(board)
    assert text(browser, "count") == f"{g.n} regions, {g.k} colours left"
    # the row and column numbers the hints' words count by, along the top and left
    rows, columns = places.grid_labels(board, layout(board).centres)
    shown = js(
        browser,
        "return [...document.querySelectorAll('#board .labels text')].map((t) => t.textContent);",
    )
    assert shown == [str(n) for n, _ in columns] + [str(n) for n, _ in rows]
    moves = solution(board)
    play(browser, board, moves, keys=True)
    assert text(browser, "count") == "1 region, 1 colour left"
    assert len(set(colours(browser))) == 1 and len(set(regions(browser))) == 1
    assert text(browser, "status") == f"Solved in {len(moves)} moves (par {board.par})."
    assert data(browser, "board", "solved") == "true"


def test_a_palette_of_digits_is_played_with_the_digits_the_hints_name(browser, server, tmp_path):
    # colours named 5, 8, 0 (as KAMI 2 levels and Flood-It boards name theirs): the key of
    # each is its name, as a hint says "(8)", not its place in the palette
    path = tmp_path / "digits.txt"
    path.write_text("name: digits\npalette: 580\n5850\n0088\n5580\n")
    board = formats.load(str(path))[0]
    open_file(browser, server, path, board.name)
    keys = [kbd.text for kbd in browser.find_elements("css selector", ".swatch kbd")]
    assert keys == ["5", "8", "0"]
    moves = solution(board)
    play(browser, board, moves, keys=True)
    assert data(browser, "board", "solved") == "true"


def test_undo_redo_and_restart_bring_the_colours_back(browser, server):
    path = PUZZLES / "hex" / "blobs.txt"
    board = formats.load(str(path))[0]
    open_file(browser, server, path, board.name)
    start = colours(browser)
    moves = solution(board)
    play(browser, board, moves[:1])
    after_one = colours(browser)
    play(browser, board, moves[1:2], done=1)
    after_two = colours(browser)
    assert start != after_one != after_two
    browser.find_element("id", "undo").click()
    wait_for(browser, lambda: data(browser, "status", "used") == "1")
    assert colours(browser) == after_one
    browser.find_element("id", "redo").click()
    wait_for(browser, lambda: data(browser, "status", "used") == "2")
    assert colours(browser) == after_two
    browser.find_element("id", "restart").click()
    wait_for(browser, lambda: data(browser, "status", "used") == "0")
    assert colours(browser) == start
    # the region graph over the board: a node per region, a link per touching pair
    browser.find_element("id", "graph").click()
    g = region_graph(board)
    assert js(browser, "return document.querySelectorAll('.region-graph circle').length") == g.n
    lines = js(browser, "return document.querySelectorAll('.region-graph line').length")
    assert lines == len(g.edges())
    browser.find_element("id", "graph").click()
    assert js(browser, "return document.querySelectorAll('.region-graph *').length") == 0


def test_a_hint_marks_a_region_and_the_proved_moves_left(browser, server):
    path = PUZZLES / "hex" / "blobs.txt"
    board = formats.load(str(path))[0]
    open_file(browser, server, path, board.name)
    browser.find_element("id", "hint").click()
    wait_for(browser, lambda: data(browser, "hint-text", "movesLeft") is not None)
    assert data(browser, "hint-text", "movesLeft") == str(len(solution(board)))
    hinted = js(
        browser,
        "return [...document.querySelectorAll('#board .cell.hinted')].map(c => +c.dataset.cell)",
    )
    assert hinted and len({regions(browser)[i] for i in hinted}) == 1
    assert js(browser, "return document.querySelectorAll('.hint-outline').length") == 1
    suggested = browser.find_elements("css selector", ".swatch.suggested")
    assert len(suggested) == 1
    # the hinted move, played, leaves one move fewer (the hint is on an optimal path)
    suggested[0].click()
    click_cell(browser, hinted[0])
    wait_for(browser, lambda: data(browser, "status", "used") == "1")
    g = region_graph(board)
    played = [(g.region_of[board.order[hinted[0]]], int(suggested[0].get_attribute("data-colour")))]
    assert len(solution(position_after(board, played))) == len(solution(board)) - 1
    assert text(browser, "hint-text") == ""  # the hint was about the position before


def test_solve_shows_the_optimum_and_plays_it(browser, server):
    path = PUZZLES / "triangle" / "islands.txt"
    board = formats.load(str(path))[0]
    open_file(browser, server, path, board.name)
    browser.find_element("id", "solve").click()
    wait_for(browser, lambda: data(browser, "solve-text", "moves") is not None)
    optimum = len(solution(board))
    assert data(browser, "solve-text", "moves") == str(optimum)
    assert text(browser, "proof").startswith(f"optimal; bounds {optimum} ≤ optimum ≤ {optimum}")
    wait_for(browser, lambda: data(browser, "board", "solved") == "true")
    assert data(browser, "status", "used") == str(optimum)
    # the region the last step recoloured is outlined, as a hint's is
    assert js(browser, "return document.querySelectorAll('.hint-outline').length") == 1


def test_the_players_game_comes_back_after_the_solution_is_shown(browser, server):
    path = PUZZLES / "hex" / "blobs.txt"
    board = formats.load(str(path))[0]
    open_file(browser, server, path, board.name)
    moves = solution(board)
    play(browser, board, moves[:2])
    browser.find_element("id", "undo").click()
    wait_for(browser, lambda: data(browser, "status", "used") == "1")
    mine = colours(browser)
    # a move that breaks the rules leaves an error, which Undo, Redo and Restart clear
    browser.find_elements("css selector", ".swatch")[mine[0]].click()  # cell 0's own colour
    click_cell(browser, 0)
    message = browser.find_element("id", "message")
    wait_for(browser, lambda: "error" in message.get_attribute("class"))
    browser.find_element("id", "solve").click()
    wait_for(browser, lambda: data(browser, "board", "solved") == "true")
    wait_for(browser, lambda: data(browser, "status", "used") == "1")  # the player's, again
    assert colours(browser) == mine
    assert "error" not in message.get_attribute("class")
    browser.find_element("id", "redo").click()  # what Redo held is still there
    wait_for(browser, lambda: data(browser, "status", "used") == "2")


def test_cancel_stops_a_long_solve(browser, server, tmp_path):
    path = long_board(tmp_path)
    open_file(browser, server, path, "big")
    browser.find_element("id", "solve").click()
    # the lower bound shows as soon as it is proved, long before the solve ends
    wait_for(browser, lambda: re.match(r"Solve: .* s, \d+ ≤ optimum", text(browser, "progress")))
    browser.find_element("id", "cancel").click()
    wait_for(browser, lambda: data(browser, "progress", "state") == "cancelled", seconds=5)
    assert re.match(r"Cancelled after .* s: \d+ ≤ optimum", text(browser, "progress"))
    assert browser.find_element("id", "solve").is_enabled()


def test_pivot_rules_flood_the_pivot_and_mark_it(browser, server):
    path = PUZZLES / "square" / "pivot.txt"
    board = formats.load(str(path))[0]
    open_file(browser, server, path, board.name)
    pivot = board.order.index(board.pivot)
    assert js(browser, "return document.querySelectorAll('#board .pivot').length") == 1
    g = region_graph(board)
    far = next(
        i
        for i, c in enumerate(board.order)
        if board.cells[c] != board.cells[board.pivot] and g.region_of[c] != g.pivot
    )
    # a cell clicked: the pivot's region takes its colour
    click_cell(browser, far)
    wait_for(browser, lambda: data(browser, "status", "used") == "1")
    assert colours(browser)[pivot] == board.cells[board.order[far]]
    # a colour clicked (or its key pressed) is played at once, as in Flood-It
    other = ({0, 1, 2} - {colours(browser)[pivot]}).pop()
    browser.find_elements("css selector", ".swatch")[other].click()
    wait_for(browser, lambda: data(browser, "status", "used") == "2")
    assert colours(browser)[pivot] == other
    key = browser.find_elements("css selector", ".swatch kbd")[board.cells[board.pivot]].text
    browser.find_element("tag name", "body").send_keys(key)
    wait_for(browser, lambda: data(browser, "status", "used") == "3")
    assert colours(browser)[pivot] == board.cells[board.pivot]
    # the pivot's own colour again: nothing is played
    browser.find_element("tag name", "body").send_keys(key)
    time.sleep(0.5)  # a move played would be drawn by then
    assert data(browser, "status", "used") == "3"


def test_a_file_of_several_puzzles_offers_a_picker(browser, server):
    path = PUZZLES / "flood" / "small.txt"
    boards = formats.load(str(path))
    open_file(browser, server, path, boards[0].name)
    options = browser.find_elements("css selector", "#picker option")
    assert len(options) == 3 and browser.find_element("id", "picker").is_displayed()
    options[2].click()
    wait_for(browser, lambda: len(colours(browser)) == len(boards[2].order))
    assert colours(browser) == [boards[2].cells[c] for c in boards[2].order]


def test_a_file_dropped_on_the_page_opens(browser, server):
    browser.get(server)
    wait_for(browser, lambda: js(browser, "return document.body.dataset.ready === 'true'"))
    content = (PUZZLES / "graph" / "wheel.json").read_text()
    board = formats.parse(content, "wheel.json")[0]
    browser.execute_script(
        """const drop = new DataTransfer();
        drop.items.add(new File([arguments[0]], "wheel.json"));
        document.dispatchEvent(new DragEvent("drop", {dataTransfer: drop, bubbles: true}));""",
        content,
    )
    wait_for(browser, lambda: board.name in text(browser, "title"))
    assert js(browser, "return document.querySelectorAll('#board circle.cell').length") == len(
        board.order
    )
    assert js(browser, "return document.querySelectorAll('#board .links line').length") == len(
        board.edges
    )


@pytest.mark.parametrize("content", ["RGB\nRG\n", "01|Default|0|0|3|60|zz|4||0|\n"])
def test_a_bad_file_shows_the_command_lines_line(browser, server, tmp_path, content):
    path = tmp_path / "bad.txt"
    path.write_text(content)
    with pytest.raises(kamicp.errors.InputError) as err:
        formats.parse(content, "bad.txt")
    open_file(browser, server, path)
    wait_for(browser, lambda: text(browser, "message") != "")
    assert text(browser, "message") == str(err.value)
    assert "error" in browser.find_element("id", "message").get_attribute("class")


def test_the_designers_board_opens_on_the_play_page(browser, server):
    browser.get(server + "design")
    wait_for(browser, lambda: js(browser, "return document.body.dataset.ready === 'true'"))
    wait_for(browser, lambda: js(browser, "return document.getElementById('format').value"))
    browser.find_element("id", "play").click()
    wait_for(browser, lambda: js(browser, "return location.pathname === '/'"))
    wait_for(browser, lambda: js(browser, "return document.body.dataset.ready === 'true'"))
    # the designer's blank board: 5 x 5 cells of its first colour, one region
    assert colours(browser) == [0] * 25 and set(regions(browser)) == {0}
    browser.refresh()  # handed over once: the page opens its own board again
    wait_for(browser, lambda: js(browser, "return document.body.dataset.ready === 'true'"))
    assert len(colours(browser)) != 25


def test_the_region_graph_option_is_hidden_on_a_board_that_is_a_graph(browser, server):
    path = PUZZLES / "hex" / "blobs.txt"
    open_file(browser, server, path, formats.load(str(path))[0].name)
    assert browser.find_element("id", "graph-option").is_displayed()
    path = ROOT / "tests" / "data" / "kami2-article-graph.json"
    open_file(browser, server, path, formats.load(str(path))[0].name)
    assert not browser.find_element("id", "graph-option").is_displayed()
    # nodes are named by their ids: no row or column numbers
    assert js(browser, "return document.querySelectorAll('#board .labels text').length") == 0


def test_a_game_id_pasted_on_the_page_opens_with_its_move_limit(browser, server):
    browser.get(server)
    wait_for(browser, lambda: js(browser, "return document.body.dataset.ready === 'true'"))
    game_id = (PUZZLES / "flood" / "ids.txt").read_text().splitlines()[-1]
    board = formats.parse(game_id)[0]
    browser.execute_script(
        """const paste = new DataTransfer();
        paste.setData("text/plain", arguments[0]);
        const event = new ClipboardEvent("paste", {clipboardData: paste, bubbles: true});
        document.dispatchEvent(event);""",
        game_id,
    )
    wait_for(browser, lambda: board.name in text(browser, "title"))
    assert colours(browser) == [board.cells[c] for c in board.order]
    assert f"par {board.par}" in text(browser, "status")
