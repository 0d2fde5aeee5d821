"""The play page's endpoints through Starlette's test client: boards, moves, files, jobs."""

from __future__ import annotations

import time
import warnings

import pytest

import kamicp
from kamicp import formats
from kamicp.errors import InputError
from kamicp.game.regions import region_graph
from kamicp.solving.hint import position_after
from kamicp.view import colour_names, places
from kamicp.web import children, jobs
from kamicp.web.app import example_board, make_app
from kamicp.web.page import outline_json
from kamicp.web.puzzle import Puzzle, board_of, puzzle_of
from tests.cli.helpers import ROOT
from tests.seed import long_board

with warnings.catch_warnings():  # Starlette suggests another HTTP client; httpx serves
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

PUZZLES = ROOT / "puzzles"
JSON = "application/json"


def load(path: str, index: int = 0):
    return formats.load(str(PUZZLES / path))[index]


def solution(board) -> list:
    """An optimal solution, by breadth-first search (no bound involved)."""
    return kamicp.solve(board, "bfs").solution


def optimum(board) -> int:
    return len(solution(board))


@pytest.fixture
def client():
    with TestClient(make_app()) as c:
        yield c


def post(client, url, body, status=200):
    response = client.post(url, json=body)
    assert response.status_code == status, response.text
    return response.json()


def wait(client, job, seconds=120.0):
    end = time.monotonic() + seconds
    while job["state"] == "running" and time.monotonic() < end:
        time.sleep(0.05)
        job = client.get(f"/api/jobs/{job['id']}").json()
    return job


def test_the_page_and_its_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and 'src="/static/play.js"' in page.text
    board_js = client.get("/static/board.js")
    assert "export function drawBoard(svg, board, { onCellClick, seams = false } = {})" in (
        board_js.text
    )
    for name in ("play.js", "api.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/static/none.js").status_code == 404


def test_start_opens_the_example_and_its_drawing_matches_the_board(client):
    (start,) = client.get("/api/start").json()["puzzles"]
    board = example_board()
    assert board_of(Puzzle.from_json(start)).digest() == board.digest()
    data = post(client, "/api/board", {"puzzle": start})
    g = region_graph(board)
    assert len(data["cells"]) == len(board.order) and data["geometry"] == "triangle"
    assert data["regions"] == [g.region_of[c] for c in board.order]
    assert data["colours"] == [board.cells[c] for c in board.order]
    assert all(len(cell["points"]) == 3 for cell in data["cells"])
    assert [p["name"] for p in data["palette"]] == list(board.palette)
    assert [p["called"] for p in data["palette"]] == ["orange", "teal", "white", "purple"]
    assert data["pivot"] is None and data["par"] == board.par
    assert data["border"] == outline_json(board, range(len(board.order))) != []


def test_graph_boards_are_sent_as_nodes_and_links():
    board = load("graph/wheel.json")
    with TestClient(make_app(board)) as client:
        (start,) = client.get("/api/start").json()["puzzles"]
        data = post(client, "/api/board", {"puzzle": start})
    assert all("centre" in cell and "points" not in cell for cell in data["cells"])
    assert len(data["links"]) == len(board.edges) > 0 and data["border"] == []


def test_an_optimal_solution_played_by_clicks_ends_solved(client):
    board = load("puz/small.puz")
    puzzle = puzzle_of(board).to_json()
    g = region_graph(board)
    moves = []
    for region, colour in solution(board):
        cell = board.order.index(g.cells[region][0])
        state = post(
            client,
            "/api/play",
            {"puzzle": puzzle, "moves": moves, "click": {"cell": cell, "colour": colour}},
        )
        moves = state["moves"]
        assert state["last"].startswith(colour_names.colour_words(board, colour) + " at ")
    assert state["solved"] and state["used"] == optimum(board) == len(moves)
    assert len(set(state["colours"])) == 1 and len(set(state["regions"])) == 1
    assert state["links"] == []
    # undo is a shorter list: one move less, the board is not solved
    assert not post(client, "/api/play", {"puzzle": puzzle, "moves": moves[:-1]})["solved"]
    start = post(client, "/api/play", {"puzzle": puzzle, "moves": []})
    assert start["colours"] == [board.cells[c] for c in board.order]
    assert start["links"] == sorted(list(edge) for edge in g.edges())


def test_pivot_rules_flood_the_pivot_region(client):
    board = load("square/pivot.txt")
    puzzle = puzzle_of(board).to_json()
    g = region_graph(board)
    far = next(
        i
        for i, c in enumerate(board.order)
        if board.cells[c] != board.cells[board.pivot] and g.region_of[c] != g.pivot
    )
    # a colour picked that is neither the pivot's nor the clicked cell's
    picked = ({0, 1, 2} - {board.cells[board.pivot], board.cells[board.order[far]]}).pop()
    click = {"cell": far, "colour": picked}
    state = post(client, "/api/play", {"puzzle": puzzle, "moves": [], "click": click})
    # the pivot's region takes the clicked cell's colour, whatever colour was picked
    pivot = board.order.index(board.pivot)
    assert state["moves"] == [[g.pivot, board.cells[board.order[far]]]]
    assert state["colours"][pivot] == board.cells[board.order[far]]
    # a click on the pivot's region plays the colour picked
    other = next(c for c in range(len(board.palette)) if c != state["colours"][pivot])
    state = post(
        client,
        "/api/play",
        {"puzzle": puzzle, "moves": state["moves"], "click": {"cell": pivot, "colour": other}},
    )
    assert state["colours"][pivot] == other and state["used"] == 2


@pytest.mark.parametrize(
    "body, says",
    [
        ({"moves": [], "click": {"cell": 0, "colour": 0}}, "already has colour"),
        ({"moves": [[0, 9]]}, "outside the palette"),
        ({"moves": [[99, 0]]}, "no region 99"),
        ({"moves": "0,0:T"}, "moves must be a list"),
        ({"moves": [], "click": {"cell": 999, "colour": 1}}, "no cell 999"),
        ({"moves": [], "click": {"cell": 0}}, "needs a cell and a colour"),
    ],
)
def test_bad_moves_are_one_line_errors(client, body, says):
    puzzle = client.get("/api/start").json()["puzzles"][0]
    error = post(client, "/api/play", {"puzzle": puzzle, **body}, status=400)["error"]
    assert says in error and "\n" not in error


def test_bad_requests_are_one_line_errors(client):
    for url in ("/api/board", "/api/play", "/api/solve", "/api/hint", "/api/open"):
        response = client.post(url, content=b"{not json", headers={"content-type": JSON})
        assert response.status_code == 400 and response.json()["error"] == "the request is not JSON"
        assert "needs" in post(client, url, {"puzzle": {"text": 1}}, status=400)["error"]
    broken = {"text": "RG\nG\n", "format": "grid", "name": "broken.txt"}
    assert "ragged row" in post(client, "/api/board", {"puzzle": broken}, status=400)["error"]
    assert client.get("/api/jobs/nine").json() == {"error": "no job 'nine'"}


def test_a_bad_file_gives_the_command_lines_message(client):
    text = "name: bad\nRGB\nRG\n"
    with pytest.raises(InputError) as err:
        formats.parse(text, "bad.txt")
    got = post(client, "/api/open", {"text": text, "name": "bad.txt"}, status=400)
    assert got["error"] == str(err.value) == "bad.txt:3: ragged row: 2 cells, the first row has 3"
    unknown = post(client, "/api/open", {"text": "RG\n", "name": "a", "format": "xml"}, 400)
    assert "unknown format 'xml'" in unknown["error"]


def test_a_file_of_several_puzzles_offers_each(client):
    text = (PUZZLES / "flood" / "small.txt").read_text()
    puzzles = post(client, "/api/open", {"text": text, "name": "small.txt"})["puzzles"]
    boards = formats.parse(text, "small.txt")
    assert [p["name"] for p in puzzles] == ["small-1 (1)", "small-2 (2)", "small-3 (3)"]
    for puzzle, board in zip(puzzles, boards, strict=True):
        assert board_of(Puzzle.from_json(puzzle)).digest() == board.digest()
    with TestClient(make_app(boards, "small")) as several:
        assert len(several.get("/api/start").json()["puzzles"]) == 3


def test_hint_gives_an_optimal_next_move_and_the_proved_moves_left(client):
    board = load("hex/blobs.txt")
    puzzle = puzzle_of(board).to_json()
    g = region_graph(board)
    first = solution(board)[0]
    job = post(client, "/api/hint", {"puzzle": puzzle, "moves": [list(first)], "time_limit": 60})
    job = wait(client, job)
    hint = job["result"]
    assert job["state"] == "done" and hint["status"] == "optimal"
    assert hint["moves"] == optimum(board) - 1 == job["lower"] == job["upper"]
    # the hinted move is legal and leaves one move fewer to make
    after = position_after(board, [first, tuple(hint["move"])])
    assert optimum(after) == optimum(board) - 2
    marked = {g.region_of[board.order[i]] for i in hint["cells"]}
    assert tuple(hint["move"])[0] in marked and hint["outline"]
    # the words name the hinted colour and a cell of the hinted region
    colour, place = hint["move_text"].split(" at ")
    assert colour == colour_names.colour_words(board, hint["move"][1])
    assert board.order.index(places.cell_at(board, place)) in hint["cells"]


def test_solve_proves_the_optimum_and_its_solution_replays(client):
    board = load("triangle/holes.txt")
    puzzle = puzzle_of(board).to_json()
    job = wait(client, post(client, "/api/solve", {"puzzle": puzzle, "time_limit": 60}))
    result = job["result"]
    assert job["state"] == "done" and result["status"] == "optimal"
    assert result["moves"] == optimum(board) == result["lower"] == len(result["text"])
    state = post(client, "/api/play", {"puzzle": puzzle, "moves": result["solution"]})
    assert state["solved"]


def test_cancel_ends_the_child_and_keeps_the_bounds(client, tmp_path):
    board = formats.load(str(long_board(tmp_path)))[0]
    body = {"puzzle": puzzle_of(board).to_json(), "time_limit": 600}
    job = post(client, "/api/solve", body)
    running = client.app.state.jobs.jobs[job["id"]]
    end = time.monotonic() + 60
    while job["lower"] is None and time.monotonic() < end:
        time.sleep(0.1)
        job = client.get(f"/api/jobs/{job['id']}").json()
    # a bound as the solve proves it, long before it ends
    assert job["state"] == "running" and job["lower"] > 0
    cancelled = client.delete(f"/api/jobs/{job['id']}").json()
    assert cancelled["state"] == "cancelled" and cancelled["result"] is None
    assert cancelled["lower"] >= job["lower"]
    assert not running.child.process.is_alive()


def test_a_hint_on_a_solved_board_has_no_move(client):
    board = load("square/first.txt")
    puzzle = puzzle_of(board).to_json()
    job = wait(client, post(client, "/api/hint", {"puzzle": puzzle, "moves": solution(board)}))
    assert job["state"] == "done" and job["result"]["moves"] == 0
    assert job["result"]["move"] is None and job["result"]["cells"] == []


def test_a_child_that_dies_fails_its_job(client, tmp_path):
    board = formats.load(str(long_board(tmp_path)))[0]
    job = post(client, "/api/solve", {"puzzle": puzzle_of(board).to_json(), "time_limit": 600})
    client.app.state.jobs.jobs[job["id"]].child.process.kill()
    job = wait(client, job, seconds=30)
    assert job["state"] == "failed" and job["error"] == "the solve stopped without an answer"


def test_a_job_past_its_time_limit_is_stopped(monkeypatch):
    # a solve that overruns its limit (here one that sleeps) is killed past the grace
    monkeypatch.setattr(jobs, "solve", lambda *args: time.sleep(600))
    monkeypatch.setattr(children, "GRACE", 0.2)
    running = jobs.Jobs(context="fork")  # a forked child sees the sleeping solve
    job = running.start(jobs.JobSpec("solve", example_board(), time_limit=0.3))
    while job.state == "running":
        time.sleep(0.05)
        job.read()
    assert job.state == "cancelled" and job.error == "stopped at the time limit"
    assert not job.child.process.is_alive()


def test_a_solve_that_raises_fails_its_job_with_the_reason(monkeypatch):
    def broken(*args):
        raise ValueError("no such thing")

    monkeypatch.setattr(jobs, "solve", broken)
    running = jobs.Jobs(context="fork")
    job = running.start(jobs.JobSpec("solve", example_board(), time_limit=30))
    end = time.monotonic() + 30
    while job.state == "running" and time.monotonic() < end:
        time.sleep(0.05)
        job.read()
    assert job.state == "failed" and job.error == "no such thing"


def test_jobs_are_checked_and_limited(client, tmp_path):
    puzzle = puzzle_of(formats.load(str(long_board(tmp_path)))[0]).to_json()
    for body, says in [
        ({"solver": "magic"}, "unknown solver 'magic'"),
        ({"time_limit": "soon"}, "the time limit must be a number of seconds, not 'soon'"),
        ({"time_limit": 3601}, "the time limit must be more than 0 and at most 3600 s"),
        ({"time_limit": 0}, "more than 0"),
    ]:
        assert says in post(client, "/api/solve", {"puzzle": puzzle, **body}, 400)["error"]
    for _ in range(jobs.MOST_JOBS):
        post(client, "/api/solve", {"puzzle": puzzle, "time_limit": 600})
    error = post(client, "/api/hint", {"puzzle": puzzle, "time_limit": 600}, 400)["error"]
    assert error == f"{jobs.MOST_JOBS} solves are running: cancel one first"


def test_jobs_stop_with_the_app(tmp_path):
    board = formats.load(str(long_board(tmp_path)))[0]
    app = make_app(board)
    with TestClient(app) as client:
        (puzzle,) = client.get("/api/start").json()["puzzles"]
        job = post(client, "/api/solve", {"puzzle": puzzle, "time_limit": 600})
        child = app.state.jobs.jobs[job["id"]].child
        assert child.process.is_alive()
    assert not child.process.is_alive()


def test_a_bug_is_one_line_too(client, monkeypatch):
    def broken(board):
        raise ZeroDivisionError("division by zero")

    monkeypatch.delenv("KAMICP_TRACEBACK", raising=False)
    monkeypatch.setattr("kamicp.web.app.board_json", broken)
    puzzle = client.get("/api/start").json()["puzzles"][0]
    got = post(client, "/api/board", {"puzzle": puzzle}, status=500)
    assert got == {"error": "internal error: ZeroDivisionError: division by zero (a bug in kamicp)"}


def test_more_routes_are_served_beside_the_page():
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    async def design(request):
        return PlainTextResponse("design page")

    with TestClient(make_app(routes=[Route("/design", design)])) as client:
        assert client.get("/design").text == "design page"
        assert client.get("/api/start").status_code == 200
