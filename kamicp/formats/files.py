"""Puzzle files on disk: reading text (or standard input), walking folders, naming boards.

Every problem is an :class:`~kamicp.errors.InputError` naming the file (and the line where
there is one), never a traceback: a missing, unreadable or non-UTF-8 file, a folder with no
puzzle file in it. The readers of each format share :func:`stem`, :func:`numbered` and
:func:`natural` from here.

Examples
--------
>>> stem("puzzles/square/first.txt"), numbered("first", 1, 3), shown(STDIN)
('first', 'first-2', '<stdin>')
"""

from __future__ import annotations

import os
import re
import sys

from kamicp.errors import InputError

__all__ = [
    "EXTENSIONS",
    "MOST_DIGITS",
    "SKIPPED",
    "STDIN",
    "STDIN_SHOWN",
    "decode",
    "iter_paths",
    "natural",
    "numbered",
    "read_text",
    "shown",
    "stem",
]

EXTENSIONS = (".txt", ".puz", ".json", ".kami")  # the files a folder is searched for
SKIPPED = ("README.md", "ORDER.yaml")  # files in puzzle folders that hold no puzzle
STDIN = "-"  # the file name that means standard input
STDIN_SHOWN = "<stdin>"  # how messages name it


def shown(path: str) -> str:
    """How messages name ``path``.

    Parameters
    ----------
    path : str
        A file name, or :data:`STDIN`.

    Returns
    -------
    str
        ``path`` itself, or :data:`STDIN_SHOWN` for :data:`STDIN`.
    """
    return STDIN_SHOWN if path == STDIN else path


def read_text(path: str) -> str:
    """The text of the file at ``path``.

    Parameters
    ----------
    path : str
        A file name, or :data:`STDIN` for standard input.

    Returns
    -------
    str
        The file's text, decoded as UTF-8.

    Raises
    ------
    InputError
        When the file is missing, a folder, unreadable or not UTF-8.
    """
    if path == STDIN:
        return decode(sys.stdin.buffer.read(), STDIN_SHOWN)
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        raise InputError("no such file", path) from None
    except IsADirectoryError:
        raise InputError("is a folder, not a file", path) from None
    except OSError as err:
        raise InputError(f"cannot read: {err.strerror or err}", path) from None
    return decode(data, path)


def decode(data: bytes, path: str) -> str:
    """``data`` as UTF-8 text.

    Parameters
    ----------
    data : bytes
        A file's bytes.
    path : str
        The file's name, for messages.

    Returns
    -------
    str
        The text.

    Raises
    ------
    InputError
        When ``data`` is not UTF-8, naming the line of the first bad byte.

    Examples
    --------
    >>> decode(b"ab\\n", "x.txt")
    'ab\\n'
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise InputError(f"not UTF-8 text (byte {err.start})", path, line) from None


def iter_paths(paths: list[str]) -> list[str]:
    """The puzzle files named by ``paths``.

    Parameters
    ----------
    paths : list of str
        Files and folders. A folder is expanded recursively (hidden folders skipped), sorted,
        keeping files with a known extension (:data:`EXTENSIONS`) and skipping
        :data:`SKIPPED`; a file named directly is kept as given.

    Returns
    -------
    list of str
        The files, in the order of ``paths``.

    Raises
    ------
    InputError
        When a path does not exist, or a folder holds no puzzle file (a wrong folder, most
        likely: a benchmark of nothing says nothing).
    """
    out: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            found = []
            for folder, dirs, files in os.walk(path):
                dirs[:] = [d for d in dirs if not d.startswith(".")]
                for name in files:
                    if name in SKIPPED or not name.endswith(EXTENSIONS):
                        continue
                    found.append(os.path.join(folder, name))
            if not found:
                kinds = ", ".join(EXTENSIONS)
                raise InputError(f"no puzzle file in this folder (none ends in {kinds})", path)
            out.extend(sorted(found))
        elif os.path.exists(path):
            out.append(path)
        else:
            raise InputError("no such file or folder", path)
    return out


def stem(path: str) -> str:
    """The name a board from ``path`` gets when its file names none.

    Parameters
    ----------
    path : str
        A file name as messages show it (see :func:`shown`).

    Returns
    -------
    str
        The file name without folder and extension; ``"stdin"`` for standard input, ``""``
        for text with no file (``<input>``).
    """
    if path.startswith("<"):
        return "stdin" if path == STDIN_SHOWN else ""
    return os.path.splitext(os.path.basename(path))[0]


def numbered(name: str, index: int, count: int) -> str:
    """The name of puzzle ``index`` (0-based) of ``count`` in one file.

    Parameters
    ----------
    name : str
        The file's name for its puzzles (see :func:`stem`).
    index, count : int
        Which puzzle, and how many the file holds.

    Returns
    -------
    str
        ``name`` for a file of one puzzle, else ``name-<index + 1>``.
    """
    return name if count == 1 else f"{name}-{index + 1}"


MOST_DIGITS = 18  # no count, size or coordinate of a puzzle comes near; int() stops at 4,300


def natural(text: str, what: str, path: str, line: int) -> int:
    """``text`` as a non-negative integer.

    Parameters
    ----------
    text : str
        Decimal digits, at most :data:`MOST_DIGITS` of them.
    what : str
        What the number is, for messages.
    path : str
        The file, for messages.
    line : int
        The line, for messages.

    Returns
    -------
    int
        The number.

    Raises
    ------
    InputError
        When ``text`` is not digits or has too many.

    Examples
    --------
    >>> natural("42", "par", "x.txt", 1)
    42
    """
    if not re.fullmatch(r"\d+", text):
        raise InputError(f"{what} must be a non-negative integer, not {text!r}", path, line)
    if len(text) > MOST_DIGITS:
        raise InputError(f"{what} is too large ({len(text)} digits)", path, line)
    return int(text)
