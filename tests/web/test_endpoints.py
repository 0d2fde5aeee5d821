"""The one endpoint wrapper's rules, on an endpoint of each page, and the one progress
protocol: a job of either page is asked for at the same route, and one no page asks for is
cancelled."""

from __future__ import annotations

import json
import time
import warnings

import pytest

from kamicp import formats
from kamicp.web import design, drafts, endpoints, jobs
from kamicp.web.app import make_app
from kamicp.web.puzzle import puzzle_of
from tests.seed import long_board
from tests.web.test_design import hard_board

with warnings.catch_warnings():  # Starlette suggests another HTTP client; httpx serves
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

JSON = {"content-type": "application/json"}
# An endpoint of each page, and a body it takes
PLAY = "/api/board"
DESIGN = "/api/design/save"
PAGES = [PLAY, DESIGN]


@pytest.fixture(scope="module")
def client():
    with TestClient(make_app(routes=design.routes)) as both:
        yield both


def good_body(client, url: str) -> dict:
    if url == PLAY:
        return {"puzzle": client.get("/api/start").json()["puzzles"][0]}
    return {"design": drafts.blank("square", 2, 2, 2), "format": "grid"}


def test_every_json_endpoint_goes_through_the_one_wrapper(client):
    found = [route for route in client.app.routes if route.path.startswith("/api/")]
    assert {"/api/solve", "/api/jobs/{job}", "/api/design/check"} <= {r.path for r in found}
    for route in found:
        assert route.endpoint.__qualname__ == "endpoint.<locals>.answered", route.path


@pytest.mark.parametrize("url", PAGES)
def test_a_body_over_the_limit_is_refused(client, url):
    body = b'{"text": "' + b"R" * endpoints.MOST_BYTES + b'"}'
    answer = client.post(url, content=body, headers=JSON)
    assert answer.status_code == 413
    assert answer.json() == {"error": "the request is over 20 MB"}


@pytest.mark.parametrize("url", PAGES)
def test_a_streamed_body_is_refused_once_over_the_limit(client, url, monkeypatch):
    monkeypatch.setattr(endpoints, "MOST_BYTES", 1000)

    def chunks():  # no Content-Length: the server counts what it reads
        for _ in range(10):
            yield b" " * 400

    answer = client.post(url, content=chunks(), headers=JSON)
    assert answer.status_code == 413
    assert answer.json() == {"error": "the request is over 0.001 MB"}


@pytest.mark.parametrize("url", PAGES)
@pytest.mark.parametrize(
    "content, headers, status, error",
    [
        (b"{}", {"content-type": "text/plain"}, 415, "send the request as application/json"),
        (b"{}", {}, 415, "send the request as application/json"),
        (b"{not json", JSON, 400, "the request is not JSON"),
        (b"\xff\xfe", JSON, 400, "the request is not JSON"),
        (b"", JSON, 400, "the request is not JSON"),
        (b"[1, 2]", JSON, 400, "the request is not a JSON object"),
    ],
)
def test_a_body_must_be_a_json_object(client, url, content, headers, status, error):
    answer = client.post(url, content=content, headers=headers)
    assert answer.status_code == status and answer.json() == {"error": error}


@pytest.mark.parametrize("url", PAGES)
def test_a_good_body_is_answered_and_a_bad_field_refused_in_the_same_shape(client, url):
    body = good_body(client, url)
    assert client.post(url, json=body).status_code == 200
    refused = client.post(url, json={key: 7 for key in body})
    assert refused.status_code == 400
    assert list(refused.json()) == ["error"] and "\n" not in refused.json()["error"]


def test_a_json_charset_is_json(client):
    body = good_body(client, DESIGN)
    headers = {"content-type": "Application/JSON; charset=utf-8"}
    answer = client.post(DESIGN, content=json.dumps(body), headers=headers)
    assert answer.status_code == 200


@pytest.mark.parametrize(
    "url, status", [("/api/start", 200), ("/api/design/start", 200), ("/api/jobs/nine", 400)]
)
def test_a_request_without_a_body_needs_no_content_type(client, url, status):
    answer = client.get(url)  # as the pages send it: no body, no content type
    assert answer.status_code == status and answer.headers["content-type"] == "application/json"


@pytest.mark.parametrize("url", PAGES)
def test_a_bug_is_one_line_on_either_page(client, url, monkeypatch):
    def broken(*args):
        raise ZeroDivisionError("division by zero\nand more")

    monkeypatch.delenv("KAMICP_TRACEBACK", raising=False)
    monkeypatch.setattr("kamicp.web.app.board_json", broken)
    monkeypatch.setattr("kamicp.web.saving.save", broken)
    answer = client.post(url, json=good_body(client, url))
    assert answer.status_code == 500
    line = "internal error: ZeroDivisionError: division by zero (a bug in kamicp)"
    assert answer.json() == {"error": line}
    monkeypatch.setenv("KAMICP_TRACEBACK", "1")
    with pytest.raises(ZeroDivisionError):
        client.post(url, json=good_body(client, url))


def test_a_refusal_may_say_more():
    refused = endpoints.Refused(409, "level.txt exists: overwrite it?", exists=True)
    assert (refused.status, refused.body["exists"], str(refused)) == (
        409,
        True,
        "level.txt exists: overwrite it?",
    )


def test_both_pages_jobs_are_asked_for_and_cancelled_at_one_route(client, tmp_path):
    big = formats.load(str(long_board(tmp_path)))[0]
    body = {"puzzle": puzzle_of(big).to_json(), "time_limit": 600}
    solve = client.post("/api/solve", json=body).json()
    made = {"design": drafts.from_board(hard_board()), "time_limit": 120}
    check = client.post("/api/design/check", json=made).json()
    assert (solve["kind"], check["kind"]) == ("solve", "check")
    for job in (solve, check):
        assert set(job) == set(solve) and job["state"] == "running"
        asked = client.get(f"/api/jobs/{job['id']}").json()
        assert asked["id"] == job["id"] and asked["seconds"] >= job["seconds"]
        cancelled = client.delete(f"/api/jobs/{job['id']}").json()
        assert cancelled["state"] == "cancelled" and cancelled["error"] is None


def test_a_job_no_page_asks_for_is_cancelled(monkeypatch, tmp_path):
    monkeypatch.setattr(jobs, "ABANDONED", 0.5)
    monkeypatch.setattr(jobs, "SWEEP", 0.1)
    big = formats.load(str(long_board(tmp_path)))[0]
    with TestClient(make_app(big, routes=design.routes)) as client:
        (puzzle,) = client.get("/api/start").json()["puzzles"]
        solve = client.post("/api/solve", json={"puzzle": puzzle, "time_limit": 600}).json()
        made = {"design": drafts.from_board(hard_board()), "time_limit": 120}
        check = client.post("/api/design/check", json=made).json()
        started = [client.app.state.jobs.jobs[job["id"]] for job in (solve, check)]
        end = time.monotonic() + 30  # no request meanwhile: the sweep stops them
        while any(job.child.process.is_alive() for job in started) and time.monotonic() < end:
            time.sleep(0.1)
        for job in (solve, check):
            ended = client.get(f"/api/jobs/{job['id']}").json()
            assert ended["state"] == "cancelled"
            assert ended["error"] == "no page asked for it in 0.5 s"
