"""The puzzle as the play page holds it: one board's text, sent back with every request.

A file the page opens is parsed once (:func:`open_text`) and each of its puzzles is written
in its geometry's own format (grid text, KAMI 2 ``.puz``, JSON), which reads back the same
cells in the same order; the server parses a puzzle again when a request sends it
(:func:`board_of`, cached), so it keeps no game of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from kamicp import formats
from kamicp.errors import InputError, KamicpError
from kamicp.game.board import Board

__all__ = ["EXAMPLE", "NATIVE", "Puzzle", "board_of", "open_text", "puzzle_of"]

# The board the page opens without a file: a small triangle board written for the page
# (13 regions, 4 colours), built from this text so that it ships inside the module.
EXAMPLE = """\
name: paper folds
geometry: triangle
palette: OTWP
par: 4
OOOTTTTW
OOTTTWWW
OWWTTWPP
WWWPTPPP
WWPPPPOO
TTPPOOOO
TTTWWOOO
TTWWWWOT
"""

# The format each geometry's board is written in for the page (every one reads back the
# same cells in the same order).
NATIVE = {"kami2": "puz", "graph": "json"}


@dataclass(frozen=True)
class Puzzle:
    """One puzzle as the page holds it: its text in format ``format``, and a name."""

    text: str
    format: str
    name: str

    def to_json(self) -> dict:
        """The puzzle as a JSON object (``text``, ``format``, ``name``)."""
        return {"text": self.text, "format": self.format, "name": self.name}

    @classmethod
    def from_json(cls, data: object) -> Puzzle:
        """The puzzle a request sends; :class:`~kamicp.errors.KamicpError` when it is not one.

        Parameters
        ----------
        data : object
            The decoded JSON value.

        Returns
        -------
        Puzzle

        Raises
        ------
        kamicp.errors.KamicpError
            When ``data`` lacks a string ``text``, ``format`` or ``name``.
        """
        keys = ("text", "format", "name")
        if not isinstance(data, dict) or not all(isinstance(data.get(k), str) for k in keys):
            raise KamicpError("the request's puzzle needs text, format and name (strings)")
        return cls(data["text"], data["format"], data["name"])


def puzzle_of(board: Board, name: str | None = None) -> Puzzle:
    """``board`` as the page holds it: written in its geometry's format.

    Parameters
    ----------
    board : Board
        The puzzle.
    name : str, optional
        What the page calls it (default: the board's name).

    Returns
    -------
    Puzzle

    Examples
    --------
    >>> board = formats.parse("RG\\nGB\\n", "tiny.txt")[0]
    >>> puzzle_of(board).format, puzzle_of(board).name
    ('grid', 'tiny')
    """
    fmt = NATIVE.get(board.geometry, "grid")
    return Puzzle(formats.dump(board, fmt), fmt, name or board.name or "puzzle")


@lru_cache(maxsize=64)
def board_of(puzzle: Puzzle) -> Board:
    """The board a :class:`Puzzle` holds (parsed once per puzzle, then cached).

    Parameters
    ----------
    puzzle : Puzzle
        One puzzle.

    Returns
    -------
    Board

    Raises
    ------
    kamicp.errors.InputError
        When the text is not one puzzle of its format.
    """
    boards = formats.parse(puzzle.text, puzzle.name, puzzle.format)
    if len(boards) != 1:
        raise InputError(f"{len(boards)} puzzles where one was expected", puzzle.name)
    return boards[0]


def open_text(text: str, name: str, fmt: str | None = None) -> list[Puzzle]:
    """Every puzzle of a file's text, each as a :class:`Puzzle`.

    Parameters
    ----------
    text : str
        The file's content.
    name : str
        The file's name (error messages name it).
    fmt : str, optional
        Its format; detected from the content by default.

    Returns
    -------
    list of Puzzle
        In the file's order; puzzles of a multi-puzzle file are named ``name (i)``.

    Raises
    ------
    kamicp.errors.InputError
        The message the command line gives for the same file.

    Examples
    --------
    >>> [p.name for p in open_text("RG\\nGB\\n", "tiny.txt")]
    ['tiny']
    """
    boards = formats.parse(text, name, fmt)
    if len(boards) == 1:
        return [puzzle_of(boards[0])]
    return [puzzle_of(b, f"{b.name or name} ({i})") for i, b in enumerate(boards, 1)]
