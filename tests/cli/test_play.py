"""``kamicp play``: it prints the address, serves the page, and stops on a signal at once."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import warnings

import pytest

from kamicp import formats
from kamicp.cli import play
from kamicp.web.puzzle import Puzzle, board_of
from tests.cli.helpers import ROOT, run
from tests.processes import descendants, running, sockets
from tests.seed import long_board

KAMICP = [sys.executable, "-m", "kamicp"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def start(*argv) -> tuple[subprocess.Popen, str]:
    """``kamicp play --no-browser *argv`` in a subprocess, and the address it printed."""
    proc = subprocess.Popen(
        [*KAMICP, "play", "--no-browser", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )
    line = proc.stdout.readline()
    assert line.startswith("kamicp play: http://127.0.0.1:"), line + proc.stderr.read()
    return proc, line.split()[2]


def get(url: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def refused(url: str) -> bool:
    """Whether the server at ``url`` no longer takes connections."""
    host, port = url.split("/")[2].split(":")
    try:
        socket.create_connection((host, int(port)), timeout=1).close()
    except OSError:
        return True
    return False


@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 130), (signal.SIGINT, 130)])
def test_serves_the_file_and_stops_within_a_second(sig, code):
    proc, url = start(str(ROOT / "puzzles" / "hex" / "blobs.txt"))
    try:
        (puzzle,) = get(url + "api/start")["puzzles"]
        assert puzzle["name"] == "hex blobs" and puzzle["format"] == "grid"
        with urllib.request.urlopen(url, timeout=30) as page:
            assert b"/static/play.js" in page.read()
        proc.send_signal(sig)
        sent = time.monotonic()
        while not refused(url) and time.monotonic() - sent < 10:
            time.sleep(0.01)
        # the server has stopped; the interpreter's own exit is not counted
        assert time.monotonic() - sent < 1.0
        assert proc.wait(timeout=10) == code
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
        proc.stderr.close()


def test_a_running_solve_ends_with_the_server(tmp_path):
    proc, url = start(str(long_board(tmp_path)))
    try:
        (puzzle,) = get(url + "api/start")["puzzles"]
        job = get(url + "api/solve", {"puzzle": puzzle, "time_limit": 600})
        assert job["state"] == "running"
        below = descendants(proc.pid)
        assert below
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
        end = time.monotonic() + 5
        while any(map(running, below)) and time.monotonic() < end:
            time.sleep(0.05)
        assert not any(map(running, below))
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
        proc.stderr.close()


def test_a_solve_holds_none_of_the_servers_connections(tmp_path):
    # a connection the server closes must close for the browser: no process below the
    # server (the solve's child, its own children) may keep it open, not even for a moment
    proc, url = start(str(long_board(tmp_path)))
    try:
        (puzzle,) = get(url + "api/start")["puzzles"]
        get(url + "api/solve", {"puzzle": puzzle, "time_limit": 600})
        served = sockets(proc.pid)
        below = descendants(proc.pid)
        assert served and below
        assert all(not sockets(pid) & served for pid in below)
        time.sleep(1)  # the solve under way
        assert all(not sockets(pid) & served for pid in descendants(proc.pid))
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
        proc.stderr.close()


def test_without_a_file_the_example_opens_and_the_browser_is_asked(capsys, monkeypatch):
    opened, served = [], []
    monkeypatch.setattr(play.webbrowser, "open", opened.append)
    monkeypatch.setattr("uvicorn.Server.run", lambda self, sockets: served.append(sockets))
    code, out, _ = run(capsys, "play", "--port", "0")
    url = out.split()[2]
    for _ in range(100):  # the browser is opened from a thread
        if opened:
            break
        time.sleep(0.01)
    assert code == 0 and opened == [url] and len(served) == 1
    host, port = served[0][0].getsockname()
    assert url == f"http://{host}:{port}/" and host == "127.0.0.1"
    served[0][0].close()


def served(capsys, monkeypatch, *argv):
    """The puzzles the page of ``kamicp play *argv`` opens with (the server is not run)."""
    apps = []

    def run_server(server, sockets):
        apps.append(server.config.app)
        sockets[0].close()

    monkeypatch.setattr("uvicorn.Server.run", run_server)
    assert run(capsys, "play", "--no-browser", *argv)[0] == 0
    with warnings.catch_warnings():  # Starlette suggests another HTTP client; httpx serves
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    with TestClient(apps[0], base_url=f"http://{play.HOST}") as client:
        puzzles = client.get("/api/start").json()["puzzles"]
    return [board_of(Puzzle.from_json(p)) for p in puzzles]


def test_index_and_rules_pick_what_the_page_opens(capsys, monkeypatch):
    small = str(ROOT / "puzzles" / "flood" / "small.txt")
    every = formats.load(small)
    assert [b.digest() for b in served(capsys, monkeypatch, small)] == [b.digest() for b in every]
    (second,) = served(capsys, monkeypatch, small, "--index", "2", "--rules", "free")
    assert second.digest() == every[1].with_rules("free").digest()


def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("RGB\nRG\n")
    code, out, err = run(capsys, "play", "--no-browser", str(bad))
    assert (
        code == 2
        and out == ""
        and err == f"kamicp: {bad}:2: ragged row: 2 cells, the first row has 3\n"
    )
    code, _, err = run(capsys, "play", "--no-browser", "--port", "70000")
    assert code == 2 and err == "kamicp: --port 70000: a port is 0 to 65535\n"
    taken = play.listening_socket(0)
    try:
        port = taken.getsockname()[1]
        code, _, err = run(capsys, "play", "--no-browser", "--port", str(port))
        assert code == 2 and err.startswith(f"kamicp: --port {port}: ") and err.count("\n") == 1
    finally:
        taken.close()


def test_the_design_page_is_served_and_other_hosts_are_refused():
    proc, url = start(str(ROOT / "puzzles" / "square" / "first.txt"))
    try:
        with urllib.request.urlopen(url + "design", timeout=30) as page:
            assert b"design" in page.read().lower()
        opened = get(url + "api/design/start")  # the designer opens the command's file
        assert opened["file"].endswith("first.txt") and opened["problem"] is None
        request = urllib.request.Request(url, headers={"Host": "evil.example"})
        with pytest.raises(urllib.error.HTTPError) as refused_host:
            urllib.request.urlopen(request, timeout=30)
        assert refused_host.value.code == 400
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
        proc.stdout.close()
        proc.stderr.close()
