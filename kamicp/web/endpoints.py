"""The one way a JSON endpoint of the web pages reads its request and answers it.

Every JSON endpoint of the play page and the design page is a function
``work(request, body)`` answering a dict, made a Starlette route by :func:`route` (or an
endpoint by :func:`endpoint`), so that all of them keep the same rules:

- a ``POST`` body must be sent as ``application/json`` (else 415), hold at most
  :data:`MOST_BYTES` (else 413, refused before more is read) and be a JSON object (else
  400); other methods send no body, and ``work`` gets ``{}``;
- a :class:`~kamicp.errors.KamicpError` (a bad field, a bad file, an illegal move) answers
  400, a :class:`Refused` its own status (409 for a file that would be lost, say);
- anything else is a bug: 500 and the line the command line prints for one
  (``KAMICP_TRACEBACK`` set: the exception is raised instead, with its traceback).

Every refusal has one shape: ``{"error": one line}``, with the members a :class:`Refused`
adds. A page of another site cannot send ``application/json`` without the server's consent
(CORS), so no other site can make this server write a file or start a solve.
"""

from __future__ import annotations

import json
import os
from collections.abc import Awaitable, Callable, Sequence

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from kamicp.errors import KamicpError

__all__ = ["MOST_BYTES", "Refused", "endpoint", "read_json", "route"]

# The largest request body read: a 1000x1000 grid is 1 MB of text, and a design of the
# largest size 60 x 60 is 10 KB; a body twenty times the grid is refused unread.
MOST_BYTES = 20_000_000

Work = Callable[[Request, dict], Awaitable[dict]]


class Refused(KamicpError):
    """A request answered with ``status`` and ``{"error": error, **extra}``.

    Parameters
    ----------
    status : int
        The HTTP status (4xx).
    error : str
        The one line the page shows.
    **extra
        More members of the answer (``exists=True``, say).
    """

    def __init__(self, status: int, error: str, **extra):
        super().__init__(error)
        self.status = status
        self.body = {"error": error, **extra}


async def read_json(request: Request) -> dict:
    """The JSON object a request's body holds, read under the module's rules.

    Parameters
    ----------
    request : starlette.requests.Request
        A request with a body.

    Returns
    -------
    dict

    Raises
    ------
    Refused
        415 unless sent as ``application/json``; 413 over :data:`MOST_BYTES` (told by its
        ``Content-Length`` or found while reading); 400 when it is not a JSON object.
    """
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise Refused(415, "send the request as application/json")
    too_large = Refused(413, f"the request is over {MOST_BYTES / 1e6:g} MB")
    told = request.headers.get("content-length", "")
    if told.isdigit() and int(told) > MOST_BYTES:
        raise too_large
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MOST_BYTES:
            raise too_large
        chunks.append(chunk)
    try:
        body = json.loads(b"".join(chunks))
    except (ValueError, UnicodeDecodeError):
        raise Refused(400, "the request is not JSON") from None
    if not isinstance(body, dict):
        raise Refused(400, "the request is not a JSON object")
    return body


def _bug_line(err: Exception) -> str:
    """The one line the command line prints for a bug."""
    line = f"internal error: {type(err).__name__}: {err}".splitlines()[0]
    return f"{line} (a bug in kamicp)"


def endpoint(work: Work) -> Callable[[Request], Awaitable[JSONResponse]]:
    """A Starlette endpoint answering ``work(request, body)`` as JSON, under the rules.

    Parameters
    ----------
    work : async callable
        Called with the request and its JSON object (``{}`` unless the method is ``POST``);
        answers a dict.

    Returns
    -------
    async callable
        The endpoint (see the module docstring for its refusals).
    """

    async def answered(request: Request) -> JSONResponse:
        try:
            body = await read_json(request) if request.method == "POST" else {}
            return JSONResponse(await work(request, body))
        except Refused as refused:
            return JSONResponse(refused.body, status_code=refused.status)
        except KamicpError as err:
            return JSONResponse({"error": str(err)}, status_code=400)
        except Exception as err:
            if os.environ.get("KAMICP_TRACEBACK"):
                raise
            return JSONResponse({"error": _bug_line(err)}, status_code=500)

    answered.__name__ = work.__name__
    return answered


def route(path: str, work: Work, methods: Sequence[str] = ("POST",)) -> Route:
    """The route of a JSON endpoint: ``work`` at ``path`` through :func:`endpoint`.

    Parameters
    ----------
    path : str
        The route's path (``/api/...``).
    work : async callable
        As for :func:`endpoint`.
    methods : sequence of str
        The methods it answers.

    Returns
    -------
    starlette.routing.Route

    Examples
    --------
    >>> async def echo(request, body):
    ...     return body
    >>> route("/api/echo", echo).methods == {"POST"}
    True
    """
    return Route(path, endpoint(work), methods=list(methods))
