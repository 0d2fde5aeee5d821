"""Saving a design: the formats that can hold its board, the file's name and text, and a
write that never replaces a file without the designer's consent.

Examples
--------
>>> from kamicp.web.drafts import blank
>>> print(save(blank("square", 1, 2, 2), "grid")["text"], end="")
name: design
palette: 12
11
"""

from __future__ import annotations

import os
import re
import tempfile

from kamicp.errors import InputError, KamicpError
from kamicp.formats import registry
from kamicp.game.board import Board
from kamicp.web.drafts import DESIGN, to_board

__all__ = ["EXTENSIONS", "filename", "formats_for", "save", "write_file"]

EXTENSIONS = {
    "grid": ".txt",
    "flood": ".txt",
    "gameid": ".txt",
    "puz": ".puz",
    "json": ".json",
    "floodit99": ".txt",
    "digits": ".txt",
}


def formats_for(board: Board) -> list[dict]:
    """Every format, and why it cannot hold ``board`` (None when it can).

    Parameters
    ----------
    board : Board
        The board.

    Returns
    -------
    list of dict
        ``{"format": name, "problem": None or the writer's one-line message}`` in the
        order of :data:`~kamicp.formats.registry.FORMATS`.

    Examples
    --------
    >>> from kamicp.web.drafts import blank
    >>> [f["format"] for f in formats_for(to_board(blank("square", 2, 2, 2)))
    ...  if f["problem"] is None]
    ['grid', 'json']
    """
    found = []
    for fmt in registry.FORMATS:
        try:
            registry.dump(board, fmt)
            problem = None
        except InputError as err:
            problem = str(err)
        found.append({"format": fmt, "problem": problem})
    return found


def filename(name: str, fmt: str) -> str:
    """A file name for a board called ``name`` saved as ``fmt``.

    Parameters
    ----------
    name : str
        The board's name.
    fmt : str
        One of :data:`~kamicp.formats.registry.FORMATS`.

    Returns
    -------
    str
        Letters, digits, ``-`` and ``_`` of the name (others become ``-``), then the
        format's extension (:data:`EXTENSIONS`).

    Examples
    --------
    >>> filename("my level #2", "puz")
    'my-level-2.puz'
    """
    base = re.sub(r"[^A-Za-z0-9_]+", "-", name).strip("-") or DESIGN
    return base + EXTENSIONS[fmt]


def save(design: dict, fmt: str) -> dict:
    """A design as the text of a file of format ``fmt``.

    Parameters
    ----------
    design : dict
        The design.
    fmt : str
        One of :data:`~kamicp.formats.registry.FORMATS`.

    Returns
    -------
    dict
        ``filename`` (:func:`filename`) and ``text`` (which kamicp reads back as the board).

    Raises
    ------
    InputError
        For a design that is no board, an unknown format or one that cannot hold the board.
    """
    board = to_board(design)
    text = registry.dump(board, fmt)  # first: it refuses an unknown format with one line
    return {"filename": filename(board.name, fmt), "text": text}


def write_file(path: str, text: str, overwrite: bool = False) -> None:
    """Write ``text`` to ``path``; an existing file only with ``overwrite``.

    The text goes to a temporary file beside ``path`` first, which then takes its place, so
    a failed write leaves the old file whole.

    Parameters
    ----------
    path : str
        The file.
    text : str
        What it will hold.
    overwrite : bool
        Whether an existing file may be replaced (the page asks the designer first).

    Raises
    ------
    FileExistsError
        When ``path`` exists and ``overwrite`` is False.
    KamicpError
        When the file cannot be written: one line naming it and the reason.
    """
    folder = os.path.dirname(os.path.abspath(path))
    try:
        if not overwrite:
            with open(path, "x", encoding="utf-8") as out:
                out.write(text)
            return
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".kamicp-")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except FileExistsError:
        raise
    except OSError as err:
        raise KamicpError(f"{path}: cannot write: {err.strerror or err}") from None
