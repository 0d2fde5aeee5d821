"""The play page's web application: its routes, built from a list so more can be added.

``GET /`` is the page and ``/static/`` its files (the design page's too); the JSON
endpoints take and answer JSON under the rules of :mod:`kamicp.web.endpoints` (a bad
request, a bad file or an illegal move: status 4xx and ``{"error": one line}``, the line
the command line prints for the same problem; a bug: status 500 and its line):

- ``GET /api/start``: the puzzles the server was started with (the page opens the first);
- ``POST /api/open`` ``{text, name, format?}``: the puzzles of a file's text;
- ``POST /api/board`` ``{puzzle}``: what the page draws (:func:`kamicp.web.page.board_json`);
- ``POST /api/play`` ``{puzzle, moves, click?}``: the position (:func:`~kamicp.web.page.
  play_json`);
- ``POST /api/solve``, ``POST /api/hint`` ``{puzzle, moves, solver?, time_limit?}``: a job
  (:mod:`kamicp.web.jobs`), asked for at ``GET /api/jobs/ID`` and cancelled by ``DELETE``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from kamicp import formats
from kamicp.errors import KamicpError
from kamicp.game.board import Board
from kamicp.solving.options import DEFAULT_SOLVER
from kamicp.web.endpoints import route
from kamicp.web.jobs import Jobs, JobSpec, jobs_of, lifespan, time_limit_of
from kamicp.web.jobs import routes as job_routes
from kamicp.web.page import board_json, play_json
from kamicp.web.puzzle import EXAMPLE, Puzzle, board_of, open_text, puzzle_of

__all__ = ["STATIC", "example_board", "make_app", "play_routes"]

STATIC = Path(__file__).resolve().parent / "static"


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


def _spec(kind: str, data: dict) -> JobSpec:
    """The job a solve or hint request asks for."""
    limit = time_limit_of(data, 60.0)
    solver = data.get("solver") or DEFAULT_SOLVER
    board = board_of(Puzzle.from_json(data.get("puzzle")))
    moves = play_json(board, data.get("moves", []))["moves"]
    return JobSpec(kind, board, tuple(tuple(m) for m in moves), str(solver), limit)


def play_routes(start: Sequence[Puzzle]) -> list:
    """The routes of the play page.

    Parameters
    ----------
    start : sequence of Puzzle
        The puzzles the page offers first; it opens the first one.

    Returns
    -------
    list of starlette routes
        The page, its static files and its JSON endpoints (see the module docstring); the
        jobs it starts run in ``app.state.jobs`` (:func:`kamicp.web.jobs.lifespan`).
    """

    async def index(request: Request):
        return FileResponse(STATIC / "index.html")

    async def initial(request: Request, body: dict) -> dict:
        return {"puzzles": [p.to_json() for p in start]}

    async def open_file(request: Request, body: dict) -> dict:
        text, name, fmt = body.get("text"), body.get("name") or "upload", body.get("format")
        if not isinstance(text, str) or not isinstance(name, str):
            raise KamicpError("an open request needs the file's text and name")
        if fmt is not None and fmt not in formats.FORMATS:
            raise KamicpError(f"unknown format {fmt!r} (one of {', '.join(formats.FORMATS)})")
        return {"puzzles": [p.to_json() for p in open_text(text, name, fmt)]}

    async def board(request: Request, body: dict) -> dict:
        return board_json(board_of(Puzzle.from_json(body.get("puzzle"))))

    async def play(request: Request, body: dict) -> dict:
        puzzle = board_of(Puzzle.from_json(body.get("puzzle")))
        return play_json(puzzle, body.get("moves", []), body.get("click"))

    async def solve(request: Request, body: dict) -> dict:
        return jobs_of(request).start(_spec("solve", body)).to_json()

    async def hint(request: Request, body: dict) -> dict:
        return jobs_of(request).start(_spec("hint", body)).to_json()

    return [
        Route("/", index),
        route("/api/start", initial, methods=("GET",)),
        route("/api/open", open_file),
        route("/api/board", board),
        route("/api/play", play),
        route("/api/solve", solve),
        route("/api/hint", hint),
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
        More routes, after the page's own and the jobs' (the design page's, say).

    Returns
    -------
    starlette.applications.Starlette
        The application; its jobs (``app.state.jobs``) are cancelled when it shuts down.

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
    app = Starlette(routes=play_routes(start) + job_routes + list(routes), lifespan=lifespan)
    app.state.jobs = Jobs()
    return app
