"""The design page's routes: paint a board, check its par, save it in any format kamicp reads.

``GET /design`` serves ``static/design.html``; its scripts (``static/design*.js``) keep the
design (:mod:`kamicp.web.drafts`) and ask the server for everything that needs kamicp:

=============================  ===================================================  ==========
route                          body (JSON)                                          answer
=============================  ===================================================  ==========
``POST /api/design/blank``     ``geometry, rows, columns, colours``                 a design
``POST /api/design/shapes``    ``geometry, rows, columns, top?``                    polygons
``POST /api/design/from-text`` ``text, filename, index, format``                    a design
``POST /api/design/formats``   ``design``                                           formats
``POST /api/design/save``      ``design, format``                                   file text
``POST /api/design/check``     ``design, time_limit``                               JSON lines
``GET /api/design/start``      (none)                                               a design
``POST /api/design/write``     ``design, format, overwrite``                        file name
=============================  ===================================================  ==========

``check`` answers JSON lines as the proof goes: ``{"lower", "upper", "seconds"}`` (the
bounds proved so far) every half second, then the verdict
(:meth:`~kamicp.web.par.ParCheck.poll`, with ``"done": true``) or ``{"error": one line}``.
When the page closes the request (its Cancel button) the proof's child process is killed.

Bad input answers 400 with ``{"error": one line}`` (the command line's message for a bad
file), never a traceback. ``start`` and ``write`` use the file the app was opened with,
``app.state.design_file`` (:data:`DESIGN_FILE`) when the app sets it: ``start`` opens it
in the designer (and names its format, the one the page saves in first); ``write`` saves
to it and answers 409 with ``"exists": true`` unless the page sends ``"overwrite": true``
(it asks the designer first), and refuses a file of several puzzles (it would lose all
but one). POST bodies must be sent as ``application/json``, which a page of another site
cannot do without the server's consent (CORS), so no other site can make this server
write a file.
"""

from __future__ import annotations

import json
from importlib import resources

import anyio
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from kamicp.errors import KamicpError
from kamicp.formats import registry
from kamicp.formats.files import read_text
from kamicp.game.board import Board
from kamicp.procs.child import STEP
from kamicp.web import drafts, saving
from kamicp.web.par import TIME_LIMIT, ParCheck

__all__ = ["BEAT", "DESIGN_FILE", "LONGEST_CHECK", "routes"]

DESIGN_FILE = "design_file"  # the app.state attribute naming the file the page was opened with
LONGEST_CHECK = 600.0  # seconds: a check of par asked for longer is refused
# Most seconds between two lines of a check's answer: the page's clock ticks at this pace,
# and a page that went away (its request closed) is seen within it.
BEAT = 0.5


class _Refused(Exception):
    """A request answered with ``status`` and a one-line ``error`` (and extra members)."""

    def __init__(self, status: int, error: str, **extra):
        super().__init__(error)
        self.status = status
        self.body = {"error": error, **extra}


def _handler(work):
    """A Starlette endpoint running ``work(request, body)`` and answering its dict as JSON
    (or the response it returns).

    Errors become one line: a :class:`~kamicp.errors.KamicpError` (bad input) 400, anything
    else 500 with the exception's type and message, never a traceback.
    """

    async def endpoint(request: Request) -> JSONResponse:
        try:
            body = {}
            if request.method == "POST":
                body = await _body(request)
            answer = await work(request, body)
            return answer if isinstance(answer, Response) else JSONResponse(answer)
        except _Refused as refused:
            return JSONResponse(refused.body, status_code=refused.status)
        except KamicpError as err:
            return JSONResponse({"error": str(err)}, status_code=400)
        except Exception as err:  # a bug: the page shows one line, as the command line does
            line = f"internal error: {type(err).__name__}: {err}".splitlines()[0]
            return JSONResponse({"error": line}, status_code=500)

    endpoint.__name__ = work.__name__
    return endpoint


async def _body(request: Request) -> dict:
    """The request's JSON object; refused unless sent as ``application/json``."""
    kind = request.headers.get("content-type", "").split(";")[0].strip()
    if kind != "application/json":
        raise _Refused(415, "send the request as application/json")
    try:
        body = json.loads(await request.body())
    except (ValueError, UnicodeDecodeError):
        raise _Refused(400, "the request is not valid JSON") from None
    if not isinstance(body, dict):
        raise _Refused(400, "the request must be a JSON object")
    return body


async def page(request: Request) -> HTMLResponse:
    """``GET /design``: the design page."""
    html = resources.files("kamicp.web").joinpath("static/design.html").read_text("utf-8")
    return HTMLResponse(html)


async def blank(request: Request, body: dict) -> dict:
    """A one-colour design of the size asked for."""
    keys = ("geometry", "rows", "columns", "colours")
    return drafts.blank(*(body.get(key) for key in keys))


async def shapes(request: Request, body: dict) -> dict:
    """The polygons of every entry of a design's grid."""
    return drafts.shapes(
        body.get("geometry"), body.get("rows"), body.get("columns"), body.get("top")
    )


async def from_text(request: Request, body: dict) -> dict:
    """The design of a puzzle file's text (its format detected unless ``format`` names it);
    ``puzzles`` says how many the file holds, ``format`` which format it was read as."""
    text, name = body.get("text"), body.get("filename") or "<text>"
    if not isinstance(text, str) or not isinstance(name, str):
        raise _Refused(400, "send the file's text and name as strings")
    fmt = body.get("format") or registry.detect(text)
    boards = registry.parse(text, name, fmt)
    index = body.get("index") or 0
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(boards):
        raise _Refused(400, f"{name}: puzzle {index!r} of {len(boards)} (counted from 0)")
    return {**drafts.from_board(boards[index]), "puzzles": len(boards), "format": fmt}


async def formats(request: Request, body: dict) -> dict:
    """Which formats hold the design's board, and why the others do not."""
    return {"formats": saving.formats_for(drafts.to_board(body.get("design")))}


async def save(request: Request, body: dict) -> dict:
    """The design as a file's name and text, for the page to download."""
    return saving.save(body.get("design"), body.get("format"))


async def check(request: Request, body: dict) -> StreamingResponse:
    """Prove the optimum of the design's board and judge its par, in a child process."""
    board = drafts.to_board(body.get("design"))
    limit = body.get("time_limit", TIME_LIMIT)
    if isinstance(limit, bool) or not isinstance(limit, (int, float)):
        raise _Refused(400, f"the time limit must be a number of seconds, not {limit!r}")
    if not 0 < limit <= LONGEST_CHECK:
        raise _Refused(400, f"the time limit must be more than 0 and at most {LONGEST_CHECK:g} s")
    return _Lines(_proving(request, board, float(limit)), media_type="application/x-ndjson")


class _Lines(StreamingResponse):
    """A streamed answer whose lines are closed however it ends (complete, cancelled, or the
    page gone), so that a check's ``finally`` stops its child at once, not when the
    abandoned generator is collected."""

    async def __call__(self, scope, receive, send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self.body_iterator.aclose()


async def _proving(request: Request, board: Board, limit: float):
    """The lines of a check's answer (see the module docstring). The child starts with the
    answer, and is stopped when the answer is complete or the page has gone."""
    proof = ParCheck(board, board.par, limit)
    start = told = anyio.current_time()
    bounds = None
    try:
        while True:
            try:
                found = proof.poll()
            except KamicpError as err:
                yield _line({"error": str(err)})
                return
            if found is not None:
                yield _line({**found, "done": True})
                return
            now = anyio.current_time()
            if (proof.lower, proof.upper) != bounds or now - told >= BEAT:
                bounds, told = (proof.lower, proof.upper), now
                seconds = round(now - start, 1)
                yield _line({"lower": proof.lower, "upper": proof.upper, "seconds": seconds})
                if await request.is_disconnected():
                    return
            await anyio.sleep(STEP)
    finally:
        proof.stop()


def _line(data: dict) -> str:
    return json.dumps(data) + "\n"


def _opened(request: Request) -> str | None:
    """The file the app was opened with, if it says."""
    return getattr(request.app.state, DESIGN_FILE, None)


async def start(request: Request, body: dict) -> dict:
    """The design the page opens with: the app's file when it has one, else a blank board."""
    path = _opened(request)
    answer = {"design": drafts.blank("square", 5, 5, 3), "file": path, "format": None}
    if path is None:
        return {**answer, "problem": None}
    try:
        text = read_text(path)
        fmt = registry.detect(text)
        board = registry.parse(text, path, fmt)[0]
        return {**answer, "design": drafts.from_board(board), "format": fmt, "problem": None}
    except KamicpError as err:  # a graph, say: the designer starts blank and says why
        return {**answer, "problem": str(err)}


async def write(request: Request, body: dict) -> dict:
    """Save the design to the app's file; an existing one only with ``overwrite``."""
    path = _opened(request)
    if path is None:
        raise _Refused(409, "the page was opened without a file: download the board instead")
    saved = saving.save(body.get("design"), body.get("format"))
    held = _puzzles_in(path)
    if held > 1:  # one board written there would lose the others
        raise _Refused(409, f"{path} holds {held} puzzles: download the board instead")
    try:
        saving.write_file(path, saved["text"], overwrite=body.get("overwrite") is True)
    except FileExistsError:
        raise _Refused(409, f"{path} exists: overwrite it?", exists=True) from None
    return {"file": path}


def _puzzles_in(path: str) -> int:
    """How many puzzles the file at ``path`` holds (0 when it is missing or unreadable)."""
    try:
        return len(registry.load(path))
    except KamicpError:
        return 0


routes = [
    Route("/design", page, methods=["GET"]),
    Route("/api/design/start", _handler(start), methods=["GET"]),
    Route("/api/design/blank", _handler(blank), methods=["POST"]),
    Route("/api/design/shapes", _handler(shapes), methods=["POST"]),
    Route("/api/design/from-text", _handler(from_text), methods=["POST"]),
    Route("/api/design/formats", _handler(formats), methods=["POST"]),
    Route("/api/design/save", _handler(save), methods=["POST"]),
    Route("/api/design/check", _handler(check), methods=["POST"]),
    Route("/api/design/write", _handler(write), methods=["POST"]),
]
