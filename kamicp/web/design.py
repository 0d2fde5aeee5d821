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
``POST /api/design/check``     ``design, time_limit``                               a job
``GET /api/design/start``      (none)                                               a design
``POST /api/design/write``     ``design, format, overwrite``                        file name
=============================  ===================================================  ==========

``check`` starts a job (:mod:`kamicp.web.jobs`: the protocol the play page's solves use),
asked for at ``GET /api/jobs/ID`` until it ends, and cancelled by ``DELETE``; its result is
the verdict (:func:`kamicp.web.par.checked`).

Every endpoint keeps the rules of :mod:`kamicp.web.endpoints`: bad input answers 400 with
``{"error": one line}`` (the command line's message for a bad file), never a traceback.
``start`` and ``write`` use the file the app was opened with, ``app.state.design_file``
(:data:`DESIGN_FILE`) when the app sets it: ``start`` opens it in the designer (and names
its format, the one the page saves in first); ``write`` saves to it and answers 409 with
``"exists": true`` unless the page sends ``"overwrite": true`` (it asks the designer
first), and refuses a file of several puzzles (it would lose all but one).
"""

from __future__ import annotations

from importlib import resources

from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from kamicp.errors import KamicpError
from kamicp.formats import registry
from kamicp.formats.files import read_text
from kamicp.web import drafts, saving
from kamicp.web.endpoints import Refused, route
from kamicp.web.jobs import JobSpec, jobs_of, time_limit_of
from kamicp.web.par import TIME_LIMIT

__all__ = ["DESIGN_FILE", "routes"]

DESIGN_FILE = "design_file"  # the app.state attribute naming the file the page was opened with


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
        raise KamicpError("send the file's text and name as strings")
    fmt = body.get("format") or registry.detect(text)
    boards = registry.parse(text, name, fmt)
    index = body.get("index") or 0
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(boards):
        raise KamicpError(f"{name}: puzzle {index!r} of {len(boards)} (counted from 0)")
    return {**drafts.from_board(boards[index]), "puzzles": len(boards), "format": fmt}


async def formats(request: Request, body: dict) -> dict:
    """Which formats hold the design's board, and why the others do not."""
    return {"formats": saving.formats_for(drafts.to_board(body.get("design")))}


async def save(request: Request, body: dict) -> dict:
    """The design as a file's name and text, for the page to download."""
    return saving.save(body.get("design"), body.get("format"))


async def check(request: Request, body: dict) -> dict:
    """Start a job proving the optimum of the design's board and judging its par."""
    board = drafts.to_board(body.get("design"))
    spec = JobSpec("check", board, time_limit=time_limit_of(body, TIME_LIMIT))
    return jobs_of(request).start(spec).to_json()


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
        raise Refused(409, "the page was opened without a file: download the board instead")
    saved = saving.save(body.get("design"), body.get("format"))
    held = _puzzles_in(path)
    if held > 1:  # one board written there would lose the others
        raise Refused(409, f"{path} holds {held} puzzles: download the board instead")
    try:
        saving.write_file(path, saved["text"], overwrite=body.get("overwrite") is True)
    except FileExistsError:
        raise Refused(409, f"{path} exists: overwrite it?", exists=True) from None
    return {"file": path}


def _puzzles_in(path: str) -> int:
    """How many puzzles the file at ``path`` holds (0 when it is missing or unreadable)."""
    try:
        return len(registry.load(path))
    except KamicpError:
        return 0


routes = [
    Route("/design", page, methods=["GET"]),
    route("/api/design/start", start, methods=("GET",)),
    route("/api/design/blank", blank),
    route("/api/design/shapes", shapes),
    route("/api/design/from-text", from_text),
    route("/api/design/formats", formats),
    route("/api/design/save", save),
    route("/api/design/check", check),
    route("/api/design/write", write),
]
