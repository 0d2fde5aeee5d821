"""The play page's web application: its routes, built from a list so more can be added.

``GET /`` is the page and ``/static/`` its files; the JSON endpoints take and answer JSON,
and a bad request (a bad file, an illegal move, a malformed body) is answered with status
400 and ``{"error": "one line"}``, the line the command line prints for the same problem:

- ``GET /api/start``: the puzzles the server was started with (the page opens the first);
- ``POST /api/open`` ``{text, name, format?}``: the puzzles of a file's text;
- ``POST /api/board`` ``{puzzle}``: what the page draws (:func:`kamicp.web.page.board_json`);
- ``POST /api/play`` ``{puzzle, moves, click?}``: the position (:func:`~kamicp.web.page.
  play_json`);
- ``POST /api/solve``, ``POST /api/hint`` ``{puzzle, moves, solver?, time_limit?}``: a job
  (:mod:`kamicp.web.jobs`), polled at ``GET /api/jobs/ID`` and cancelled by ``DELETE``.

A bug answers status 500 and ``{"error": "internal error: ..."}``, the command line's line.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from kamicp import formats
from kamicp.errors import KamicpError
from kamicp.game.board import Board
from kamicp.solving.options import DEFAULT_SOLVER
from kamicp.web.jobs import Jobs, JobSpec
from kamicp.web.page import board_json, play_json
from kamicp.web.puzzle import EXAMPLE, Puzzle, board_of, open_text, puzzle_of

__all__ = ["STATIC", "example_board", "make_app", "play_routes"]

STATIC = Path(__file__).resolve().parent / "static"

# The largest request body read: a 1000x1000 grid is 1 MB of text; a body twenty times that
# is refused unread.
MOST_BYTES = 20_000_000


def example_board() -> Board:
    """The board the page opens without a file (:data:`kamicp.web.puzzle.EXAMPLE`).

    Returns
    -------
    Board

    Examples
    --------
    >>> example_board().geometry
    'triangle'
    """
    return formats.parse(EXAMPLE, "example")[0]


async def _body(request: Request) -> dict:
    """The request's JSON object; :class:`KamicpError` when it is not one."""
    raw = await request.body()
    if len(raw) > MOST_BYTES:
        raise KamicpError(f"the request is over {MOST_BYTES} bytes")
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise KamicpError("the request is not JSON") from None
    if not isinstance(data, dict):
        raise KamicpError("the request is not a JSON object")
    return data


def _answers(handler: Callable) -> Callable:
    """A handler whose :class:`KamicpError` becomes a 400 answer with its one line, and any
    other exception (a bug) a 500 answer with the line the command line gives for a bug
    (``KAMICP_TRACEBACK`` set: the exception is raised instead)."""

    async def answered(request: Request):
        try:
            return JSONResponse(await handler(request))
        except KamicpError as err:
            return JSONResponse({"error": str(err)}, status_code=400)
        except Exception as err:
            if os.environ.get("KAMICP_TRACEBACK"):
                raise
            line = f"internal error: {type(err).__name__}: {err} (a bug in kamicp)"
            return JSONResponse({"error": line}, status_code=500)

    return answered


def _spec(kind: str, data: dict) -> JobSpec:
    """The job a solve or hint request asks for."""
    limit = data.get("time_limit", 60)
    if isinstance(limit, bool) or not isinstance(limit, (int, float)):
        raise KamicpError("time_limit must be a number of seconds")
    solver = data.get("solver") or DEFAULT_SOLVER
    board = board_of(Puzzle.from_json(data.get("puzzle")))
    moves = play_json(board, data.get("moves", []))["moves"]
    return JobSpec(kind, board, tuple(tuple(m) for m in moves), str(solver), float(limit))


def play_routes(start: Sequence[Puzzle], jobs: Jobs) -> list:
    """The routes of the play page.

    Parameters
    ----------
    start : sequence of Puzzle
        The puzzles the page offers first; it opens the first one.
    jobs : Jobs
        Where the solves and hints run.

    Returns
    -------
    list of starlette routes
        The page, its static files and its JSON endpoints (see the module docstring).
    """

    async def index(request: Request):
        return FileResponse(STATIC / "index.html")

    async def initial(request: Request) -> dict:
        return {"puzzles": [p.to_json() for p in start]}

    async def open_file(request: Request) -> dict:
        data = await _body(request)
        text, name, fmt = data.get("text"), data.get("name") or "upload", data.get("format")
        if not isinstance(text, str) or not isinstance(name, str):
            raise KamicpError("an open request needs the file's text and name")
        if fmt is not None and fmt not in formats.FORMATS:
            raise KamicpError(f"unknown format {fmt!r} (one of {', '.join(formats.FORMATS)})")
        return {"puzzles": [p.to_json() for p in open_text(text, name, fmt)]}

    async def board(request: Request) -> dict:
        data = await _body(request)
        return board_json(board_of(Puzzle.from_json(data.get("puzzle"))))

    async def play(request: Request) -> dict:
        data = await _body(request)
        puzzle = board_of(Puzzle.from_json(data.get("puzzle")))
        return play_json(puzzle, data.get("moves", []), data.get("click"))

    async def solve(request: Request) -> dict:
        return jobs.start(_spec("solve", await _body(request))).to_json()

    async def hint(request: Request) -> dict:
        return jobs.start(_spec("hint", await _body(request))).to_json()

    async def job(request: Request) -> dict:
        found = jobs.get(request.path_params["job"])
        if request.method == "DELETE":
            found.cancel()
        return found.to_json()

    return [
        Route("/", index),
        Route("/api/start", _answers(initial)),
        Route("/api/open", _answers(open_file), methods=["POST"]),
        Route("/api/board", _answers(board), methods=["POST"]),
        Route("/api/play", _answers(play), methods=["POST"]),
        Route("/api/solve", _answers(solve), methods=["POST"]),
        Route("/api/hint", _answers(hint), methods=["POST"]),
        Route("/api/jobs/{job}", _answers(job), methods=["GET", "DELETE"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]


def make_app(
    board: Board | Sequence[Board] | None = None, name: str | None = None, routes: Sequence = ()
):
    """The play page's application.

    Parameters
    ----------
    board : Board or sequence of Board, optional
        The board the page opens with (default :func:`example_board`); of several (a
        multi-puzzle file), the page opens the first and offers the others in a picker.
    name : str, optional
        What the page calls the board (default: the board's name); several are called by
        their own names (``name`` where they have none) and their place, ``small-1 (1)``.
    routes : sequence of starlette routes
        More routes, after the page's own (the design page's, say).

    Returns
    -------
    starlette.applications.Starlette
        The application; its running jobs are cancelled when it shuts down.

    Examples
    --------
    >>> [route.path for route in make_app().routes][:3]
    ['/', '/api/start', '/api/open']
    """
    boards = [example_board()] if board is None else [board] if isinstance(board, Board) else board
    if len(boards) == 1:
        start = [puzzle_of(boards[0], name)]
    else:
        start = [puzzle_of(b, f"{b.name or name} ({i})") for i, b in enumerate(boards, 1)]
    jobs = Jobs()

    @contextlib.asynccontextmanager
    async def lifespan(app):
        try:
            yield
        finally:
            jobs.stop_all()

    app = Starlette(routes=play_routes(start, jobs) + list(routes), lifespan=lifespan)
    app.state.jobs = jobs
    return app
