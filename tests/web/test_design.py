"""The design page's routes answer as documented, bad input in one line (Starlette's test
client; the page itself in a browser: test_design_page.py)."""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.testclient import TestClient

from kamicp.game.board import Board
from kamicp.web import design, drafts, jobs

PUZ = Path(__file__).resolve().parents[2] / "puzzles" / "puz"


def design_app(opened: str | None = None) -> Starlette:
    """The design routes, the jobs' and the static files, as the play app serves them."""
    static = StaticFiles(packages=[("kamicp.web", "static")])
    routes = [*design.routes, *jobs.routes, Mount("/static", static, name="static")]
    app = Starlette(routes=routes, lifespan=jobs.lifespan)
    if opened is not None:
        setattr(app.state, design.DESIGN_FILE, opened)
    return app


@pytest.fixture(scope="module")
def client():
    with TestClient(design_app()) as test_client:
        yield test_client


def test_the_page_and_its_files_are_served(client):
    page = client.get("/design")
    assert page.status_code == 200 and '<script type="module" src="/static/design.js">' in page.text
    for name in ("design.js", "design-files.js", "design-common.js", "design.css"):
        assert client.get(f"/static/{name}").status_code == 200
    for name in ("api.js", "board.js"):  # the play page's too
        assert client.get(f"/static/{name}").status_code == 200
        assert f'from "./{name}"' in client.get("/static/design.js").text


def test_shapes_and_blank_designs(client):
    drawn = client.post("/api/design/shapes", json={"geometry": "hex", "rows": 2, "columns": 3})
    assert drawn.status_code == 200 and len(drawn.json()["cells"]) == 6
    made = client.post(
        "/api/design/blank", json={"geometry": "kami2", "rows": 10, "columns": 4, "colours": 5}
    )
    assert made.json()["palette"] == ["1", "2", "3", "4", "5"]
    refused = client.post("/api/design/shapes", json={"geometry": "graph", "rows": 2, "columns": 2})
    assert refused.status_code == 400
    assert "region graphs cannot be painted" in refused.json()["error"]


def test_a_file_opens_as_a_design(client):
    text = (PUZ / os.listdir(PUZ)[0]).read_text()
    opened = client.post("/api/design/from-text", json={"text": text, "filename": "level.puz"})
    assert opened.status_code == 200
    found = opened.json()
    assert found["geometry"] == "kami2" and found["puzzles"] >= 1
    assert drafts.to_board(found).cells  # the design the page gets is one the server takes


def test_a_file_of_several_puzzles_opens_the_one_asked_for(client):
    text = "0120 2\n012120201\n"
    second = {"text": text, "filename": "two.txt", "index": 1}
    opened = client.post("/api/design/from-text", json=second).json()
    assert (opened["puzzles"], opened["format"], opened["rows"]) == (2, "digits", 3)
    beyond = client.post("/api/design/from-text", json={**second, "index": 2})
    assert beyond.json() == {"error": "two.txt: puzzle 2 of 2 (counted from 0)"}


def test_a_file_is_read_in_the_format_asked_for(client):
    text = "0120\n"  # one grid row of four cells, or a 2 x 2 board of digits
    read = {"text": text, "filename": "d.txt"}
    assert client.post("/api/design/from-text", json=read).json()["rows"] == 1
    forced = client.post("/api/design/from-text", json={**read, "format": "digits"}).json()
    assert (forced["rows"], forced["columns"], forced["format"]) == (2, 2, "digits")


def test_a_bad_file_answers_the_command_line_message(client):
    answer = client.post("/api/design/from-text", json={"text": "RG\nR\n", "filename": "bad.txt"})
    assert answer.status_code == 400
    assert answer.json() == {"error": "bad.txt:2: ragged row: 1 cells, the first row has 2"}
    graph = '{"nodes": {"1": "R"}}'
    answer = client.post("/api/design/from-text", json={"text": graph, "filename": "g.json"})
    assert answer.json()["error"].startswith("g.json: a graph board has no cells to paint")


def checked(client, body: dict) -> tuple[list[dict], dict]:
    """A check of par as the page runs it: started, then asked for until it ends; what it
    told while it ran, and how it ended."""
    started = client.post("/api/design/check", json=body)
    assert started.status_code == 200, started.text
    job, told = started.json(), []
    end = time.monotonic() + 120
    while job["state"] == "running" and time.monotonic() < end:
        told.append(job)
        time.sleep(0.1)
        job = client.get(f"/api/jobs/{job['id']}").json()
    return told, job


def hard_board():
    """A random 10 x 10 board in 5 colours under free rules: seconds to prove, at least."""
    rng = random.Random(3)
    cells = {(r, c): rng.randrange(5) for r in range(10) for c in range(10)}
    return Board("square", cells, tuple("12345"), par=10)


def test_a_check_tells_its_bounds_as_it_goes(client):
    made = drafts.from_board(hard_board())
    told, last = checked(client, {"design": made, "time_limit": 2})
    assert told and all(job["kind"] == "check" for job in told)
    lowers = [job["lower"] for job in told if job["lower"] is not None]
    assert lowers and lowers == sorted(lowers)
    assert last["state"] == "done" and last["result"]["lower"] >= lowers[-1]
    assert [job["seconds"] for job in told] == sorted(job["seconds"] for job in told)


def test_a_check_is_cancelled_by_the_play_pages_route(client):
    made = drafts.from_board(hard_board())
    job = client.post("/api/design/check", json={"design": made, "time_limit": 120}).json()
    running = client.app.state.jobs.jobs[job["id"]]
    assert job["state"] == "running" and running.child.process.is_alive()
    cancelled = client.delete(f"/api/jobs/{job['id']}").json()
    assert cancelled["state"] == "cancelled" and cancelled["result"] is None
    assert not running.child.process.is_alive()
    assert client.get(f"/api/jobs/{job['id']}").json() == cancelled  # it stays ended


def test_formats_save_and_check(client):
    made = drafts.blank("square", 2, 2, 2)
    made["cells"] = [[0, 1], [1, 0]]
    made["par"] = 1
    fits = client.post("/api/design/formats", json={"design": made}).json()["formats"]
    assert [f["format"] for f in fits if f["problem"] is None] == ["grid", "json"]
    saved = client.post("/api/design/save", json={"design": made, "format": "grid"}).json()
    assert saved == {"filename": "design.txt", "text": "name: design\npar: 1\n12\n21\n"}
    refused = client.post("/api/design/save", json={"design": made, "format": "puz"})
    assert refused.json() == {"error": "design: a square board cannot be written as .puz"}
    _, job = checked(client, {"design": made, "time_limit": 20})
    found = job["result"]
    assert job["state"] == "done" and found["verdict"] == "low" and found["optimum"] == 2
    assert found["message"] == "par too low: no solution in 1 move (the optimum is 2)"


@pytest.mark.parametrize(
    "body, error",
    [
        ({"design": None}, "design: a design is a JSON object"),
        ({"design": {"geometry": "square"}}, "design: rows must be a whole number"),
        ({"time_limit": "soon"}, "the time limit must be a number of seconds, not 'soon'"),
        ({"time_limit": 0}, "the time limit must be more than 0 and at most 600 s"),
    ],
)
def test_a_bad_check_is_refused_in_one_line(client, body, error):
    full = {"design": drafts.blank("square", 1, 2, 2), **body}
    answer = client.post("/api/design/check", json=full)
    assert answer.status_code == 400 and answer.json()["error"].startswith(error)


def test_requests_must_be_json(client):
    plain = client.post("/api/design/save", content=b"{}", headers={"content-type": "text/plain"})
    assert plain.status_code == 415
    broken = client.post(
        "/api/design/save", content=b"{", headers={"content-type": "application/json"}
    )
    assert broken.json() == {"error": "the request is not JSON"}


def test_without_a_file_the_page_starts_blank_and_cannot_write(client):
    started = client.get("/api/design/start").json()
    assert started["file"] is None and started["design"]["rows"] == 5
    answer = client.post("/api/design/write", json={"design": started["design"], "format": "grid"})
    assert answer.status_code == 409 and "download" in answer.json()["error"]


def test_saving_to_the_opened_file_asks_before_overwriting(tmp_path):
    path = tmp_path / "level.txt"
    path.write_text("RG\nGB\n")
    with TestClient(design_app(str(path))) as opened:
        started = opened.get("/api/design/start").json()
        assert started["file"] == str(path) and started["design"]["palette"] == ["B", "G", "R"]
        changed = started["design"]
        changed["cells"][1][1] = 1
        body = {"design": changed, "format": "grid"}
        asked = opened.post("/api/design/write", json=body)
        assert asked.status_code == 409 and asked.json()["exists"] is True
        assert path.read_text() == "RG\nGB\n"
        done = opened.post("/api/design/write", json={**body, "overwrite": True})
        assert done.json() == {"file": str(path)}
        assert path.read_text() == "name: level\npalette: BGR\nRG\nGG\n"  # B stays playable


def test_a_file_of_several_puzzles_is_not_written_over(tmp_path):
    path = tmp_path / "two.txt"
    path.write_text("0120 2\n012120201\n")
    with TestClient(design_app(str(path))) as opened:
        design = opened.get("/api/design/start").json()["design"]
        body = {"design": design, "format": "grid", "overwrite": True}
        refused = opened.post("/api/design/write", json=body)
    assert refused.status_code == 409
    assert refused.json() == {"error": f"{path} holds 2 puzzles: download the board instead"}
    assert path.read_text() == "0120 2\n012120201\n"


def test_a_file_that_cannot_be_designed_starts_blank_and_says_why(tmp_path):
    path = tmp_path / "g.json"
    path.write_text(json.dumps({"nodes": {"1": "R", "2": "G"}, "edges": [[1, 2]]}))
    with TestClient(design_app(str(path))) as opened:
        started = opened.get("/api/design/start").json()
    assert started["design"]["geometry"] == "square"
    assert "a graph board has no cells to paint" in started["problem"]
