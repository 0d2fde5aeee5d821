"""``kamicp play``: a local web page to play, hint, solve and design a board (:mod:`kamicp.web`).

The server listens on 127.0.0.1 only, on a free port unless ``--port`` names one; it prints
the page's address and opens it in the browser. Ctrl-C or SIGTERM stop it (uvicorn's signal
handlers), and the page's running solves with it.
"""

from __future__ import annotations

import argparse
import socket
import threading
import webbrowser

from kamicp import formats
from kamicp.cli.args import POSITIVE, load_boards
from kamicp.errors import KamicpError
from kamicp.formats.files import stem

__all__ = ["HOST", "add_play", "listening_socket", "run_play"]

HOST = "127.0.0.1"  # the page is for this machine's user: nobody else reaches it


def add_play(p: argparse.ArgumentParser) -> None:
    """Add the options of ``play``.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser.
    """
    kinds = "grid text, flood text, .puz, JSON, floodit-99, digit lines; - reads stdin"
    p.add_argument("file", nargs="?", help=f"puzzle file ({kinds}); default: an example board")
    p.add_argument(
        "--format", choices=formats.FORMATS, help="input format (default: detected from content)"
    )
    p.add_argument("--rules", choices=("free", "pivot"), help="override the file's rule set")
    p.add_argument(
        "--index",
        type=POSITIVE,
        help="only the N-th puzzle (1-based) of a multi-puzzle file (default: a picker of all)",
    )
    p.add_argument(
        "--port", type=int, default=0, help="the port to listen on (default: a free one)"
    )
    p.add_argument("--no-browser", action="store_true", help="print the address only")
    p.set_defaults(run=run_play)


def listening_socket(port: int) -> socket.socket:
    """A socket listening on :data:`HOST` at ``port`` (0: a free port the system picks).

    It listens before the server starts, so the address printed answers at once.

    Parameters
    ----------
    port : int
        The port, or 0.

    Returns
    -------
    socket.socket

    Raises
    ------
    KamicpError
        When the port is out of range or taken.
    """
    if not 0 <= port <= 65535:
        raise KamicpError(f"--port {port}: a port is 0 to 65535")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind((HOST, port))
    except OSError as err:
        sock.close()
        raise KamicpError(f"--port {port}: {err.strerror or err}") from None
    sock.listen(128)
    return sock


def run_play(args: argparse.Namespace) -> int:
    """Serve the play page until Ctrl-C or SIGTERM; a file of several puzzles opens at the
    first (or the ``--index`` one), the others in the page's picker.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed arguments of ``play``.

    Returns
    -------
    int
        0 if the server stopped of itself.

    Raises
    ------
    KamicpError
        If the file is bad (one line naming it), or the port cannot be had.
    KeyboardInterrupt
        Once a signal (Ctrl-C, SIGTERM) has stopped the server.
    """
    # the server and the page load only for this command, keeping the others' start-up short
    import uvicorn
    from starlette.middleware.trustedhost import TrustedHostMiddleware

    from kamicp.web import design
    from kamicp.web.app import make_app

    boards, name = None, None
    if args.file is not None:
        boards = load_boards(args)
        name = boards[0].name if len(boards) == 1 else stem(formats.shown(args.file))
    sock = listening_socket(args.port)
    url = f"http://{HOST}:{sock.getsockname()[1]}/"
    app = make_app(boards, name, routes=design.routes)
    # only pages of this machine's own address: a page elsewhere that renames itself to
    # 127.0.0.1 (DNS rebinding) is refused before it can write a file through the designer
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=[HOST, "localhost"])
    if args.file is not None and args.file != "-":
        setattr(app.state, design.DESIGN_FILE, args.file)  # the designer may save back to it
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1)
    print(f"kamicp play: {url}  (Ctrl-C stops)", flush=True)
    if not args.no_browser:
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
    server = uvicorn.Server(config)
    server.run(sockets=[sock])
    # uvicorn raises the signal that stopped it again once stopped, but a Ctrl-C raised there
    # goes to asyncio's own handler, which can lose it as the loop ends: a stop that a signal
    # asked for is an interrupt (exit 130), whichever way the loop ended
    if server.should_exit:
        raise KeyboardInterrupt
    return 0
