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
    """How messages name ``path``: :data:`STDIN_SHOWN` for :data:`STDIN`."""
    return STDIN_SHOWN if path == STDIN else path


def read_text(path: str) -> str:
    """The file's text (standard input's for :data:`STDIN`); a missing, unreadable or
    non-UTF-8 file is an :class:`InputError`."""
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
    """UTF-8 text; anything else is an :class:`InputError` naming the line."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise InputError(f"not UTF-8 text (byte {err.start})", path, line) from None


def iter_paths(paths: list[str]) -> list[str]:
    """Files named by ``paths``: folders are expanded recursively, sorted, keeping files with
    a known extension (:data:`EXTENSIONS`) and skipping README.md and ORDER.yaml; files named
    directly are kept as given. A path that does not exist, or a folder with no puzzle file
    in it (a wrong folder, most likely: a benchmark of nothing says nothing), is an
    :class:`InputError`."""
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
    """The file name without folder and extension ("stdin" for standard input, "" for
    ``<input>``)."""
    if path.startswith("<"):
        return "stdin" if path == STDIN_SHOWN else ""
    return os.path.splitext(os.path.basename(path))[0]


def numbered(name: str, index: int, count: int) -> str:
    """The name of puzzle ``index`` (0-based) of ``count`` in one file."""
    return name if count == 1 else f"{name}-{index + 1}"


MOST_DIGITS = 18  # no count, size or coordinate of a puzzle comes near; int() stops at 4,300


def natural(text: str, what: str, path: str, line: int) -> int:
    """A non-negative integer, or an error naming ``what``."""
    if not re.fullmatch(r"\d+", text):
        raise InputError(f"{what} must be a non-negative integer, not {text!r}", path, line)
    if len(text) > MOST_DIGITS:
        raise InputError(f"{what} is too large ({len(text)} digits)", path, line)
    return int(text)
