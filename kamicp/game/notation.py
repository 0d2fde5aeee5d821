"""Move notation, the same in ``solve`` output and ``check`` input.

A move is ``WHERE:COLOUR``; moves are separated by spaces, commas between moves are not
used because cells contain them, so use spaces, newlines or ``;``.

- ``WHERE`` is a cell of the region to recolour: ``r,c`` (0-based row and column) on
  square, triangle and hex grids; the game's flat triangle index on KAMI 2 boards
  (``219``); the node id on region-graph boards (``10``); or ``#N``, region N of the
  starting board as numbered by ``kamicp show --regions`` and ``info``.
- ``COLOUR`` is the palette symbol as written in the input: the grid character, the
  Flood-It digit, the KAMI 2 digit, or the node colour name (case-insensitive).

KAMI 2 files also accept the game's own solution tokens, ``219C184F`` (flat index then a
letter, B = colour 1, C = colour 2, ...).

Examples: ``0,0:3 0,0:5``, ``10:Purple 8:White 5:Yellow``, ``219:2 184:5``, ``#4:r``.
"""

from __future__ import annotations

import re

from kamicp.errors import IllegalMove
from kamicp.game import geometry
from kamicp.game.board import Board
from kamicp.game.regions import RegionGraph
from kamicp.game.rules import Move, verify_solution

__all__ = [
    "format_cell",
    "format_colour",
    "format_move",
    "format_moves",
    "parse_cell",
    "parse_colour",
    "parse_move",
    "parse_moves",
    "parse_solution",
    "token_cell",
    "tokens",
]

GAME_TOKEN = re.compile(r"(\d+)([B-Z])")


def format_cell(board: Board, cell) -> str:
    """The text of ``cell`` in move notation.

    Parameters
    ----------
    board : Board
        The board the notation is for.
    cell : tuple or node
        A cell of ``board``.

    Returns
    -------
    str
        "row,column" on grids, the flat triangle index on KAMI 2 boards, the node's name on
        graphs.
    """
    if board.geometry == "graph":
        return str(cell)
    if board.geometry == "kami2":
        return str(geometry.kami2_index(cell, board.width))
    return ",".join(str(x) for x in cell)


# Digits 0-9 only: str.isdigit and \d also take digits such as '²', which int() refuses.
ASCII_NUMBER = re.compile(r"[0-9]+")
BEYOND = 10**18  # any board's cells, triangles and regions are numbered below this


def _number(text: str) -> int:
    """An ASCII number (maybe with a minus sign), as at most ``BEYOND``: int() refuses more
    than 4,300 digits, and every such number is off the board anyway."""
    digits = text.removeprefix("-")
    value = int(digits) if len(digits) <= 18 else BEYOND
    return -value if text.startswith("-") else value


def parse_cell(board: Board, text: str):
    """The cell named by ``text``.

    Parameters
    ----------
    board : Board
        The board the notation is for.
    text : str
        A cell in move notation (see :func:`format_cell`).

    Returns
    -------
    tuple or node
        The cell.

    Raises
    ------
    kamicp.errors.IllegalMove
        For text that names no cell, a hole or an off-board cell.
    """
    if board.geometry == "graph":
        for cell in board.cells:
            if str(cell) == text:
                return cell
        raise IllegalMove(f"no node {text!r} on the board")
    if board.geometry == "kami2":
        if not ASCII_NUMBER.fullmatch(text):
            raise IllegalMove(f"{text!r} is not a triangle index")
        index = _number(text)
        rows = 1 + max(cell[0] for cell in board.cells)  # 10 in most levels, 9 in some
        if index >= 2 * board.width * rows:
            raise IllegalMove(f"triangle {text} is off the board")
        cell = geometry.kami2_cell(index, board.width)
    else:
        parts = text.split(",")
        if len(parts) != 2 or not all(ASCII_NUMBER.fullmatch(p.removeprefix("-")) for p in parts):
            raise IllegalMove(f"{text!r} is not a cell (expected row,column)")
        cell = (_number(parts[0]), _number(parts[1]))
    if cell not in board.cells:
        rows = [c[0] for c in board.cells]
        cols = [c[1] for c in board.cells]
        inside = min(rows) <= cell[0] <= max(rows) and min(cols) <= cell[1] <= max(cols)
        raise IllegalMove(f"cell {text} is {'a hole' if inside else 'off the board'}")
    return cell


def format_colour(board: Board, colour: int) -> str:
    """The palette name of colour ``colour``.

    Parameters
    ----------
    board : Board
        The board the notation is for.
    colour : int
        A palette index.

    Returns
    -------
    str
        Its name.
    """
    return board.palette[colour]


def parse_colour(board: Board, text: str) -> int:
    """The palette index of ``text`` (case-insensitive where the palette has no exact match).

    Parameters
    ----------
    board : Board
        The board the notation is for.
    text : str
        A colour name.

    Returns
    -------
    int
        Its palette index.

    Raises
    ------
    kamicp.errors.IllegalMove
        When ``text`` is not in the palette.
    """
    if text in board.palette:
        return board.palette.index(text)
    lowered = [p.lower() for p in board.palette]
    if text.lower() in lowered:
        return lowered.index(text.lower())
    raise IllegalMove(f"colour {text!r} is not in the palette ({' '.join(board.palette)})")


def format_move(board: Board, g: RegionGraph, move: Move) -> str:
    """One move in notation: the first cell of its region, a colon, the colour's name.

    Parameters
    ----------
    board : Board
        The board the notation is for.
    g : RegionGraph
        Its region graph.
    move : (int, int)
        (region, colour).

    Returns
    -------
    str
        The move's text.

    Examples
    --------
    >>> from kamicp.game.board import Board
    >>> from kamicp.game.regions import region_graph
    >>> board = Board(geometry="square", cells={(0, 0): 0, (0, 1): 1}, palette=("R", "G"))
    >>> g = region_graph(board)
    >>> format_move(board, g, (1, 0))
    '0,1:R'
    """
    region, colour = move
    return f"{format_cell(board, g.cells[region][0])}:{format_colour(board, colour)}"


def format_moves(board: Board, g: RegionGraph, moves: list[Move]) -> str:
    """Moves in notation, separated by spaces.

    Parameters
    ----------
    board : Board
        The board the notation is for.
    g : RegionGraph
        Its region graph.
    moves : list of (int, int)
        The moves.

    Returns
    -------
    str
        The moves' text.
    """
    return " ".join(format_move(board, g, m) for m in moves)


def tokens(board: Board, text: str) -> list[str]:
    """The move tokens of ``text``: split at white space and semicolons, or a KAMI 2 solution
    string (``219C184F``) split into its moves.

    Parameters
    ----------
    board : Board
        The board the notation is for.
    text : str
        Moves in notation.

    Returns
    -------
    list of str
        The non-empty tokens.

    Examples
    --------
    >>> from kamicp.game.board import Board
    >>> board = Board(geometry="square", cells={(0, 0): 0, (0, 1): 1}, palette=("R", "G"))
    >>> tokens(board, " 0,1:R; 0,0:G ")
    ['0,1:R', '0,0:G']
    """
    if board.geometry == "kami2" and re.fullmatch(r"(\d+[B-Z])+", text.strip()):
        return [m.group(0) for m in GAME_TOKEN.finditer(text.strip())]
    return [t for t in re.split(r"[\s;]+", text.strip()) if t]


def token_cell(board: Board, token: str):
    """The cell a move token names, or None when it names a region (``#N``) or no cell.

    Parameters
    ----------
    board : Board
        The board the notation is for.
    token : str
        One move token.

    Returns
    -------
    tuple or node or None
        The cell.

    Examples
    --------
    >>> from kamicp.game.board import Board
    >>> board = Board(geometry="square", cells={(0, 0): 0, (0, 1): 1}, palette=("R", "G"))
    >>> token_cell(board, "0,1:R"), token_cell(board, "#0:R")
    ((0, 1), None)
    """
    game = GAME_TOKEN.fullmatch(token)
    where = game.group(1) if board.geometry == "kami2" and game else token.rpartition(":")[0]
    try:
        return parse_cell(board, where)
    except IllegalMove:
        return None


def parse_move(board: Board, g: RegionGraph, token: str) -> Move:
    """One move token: ``WHERE:COLOUR``, ``WHERE`` a cell or ``#region``; on KAMI 2 boards also
    the game's own form (``219C``).

    Parameters
    ----------
    board : Board
        The board the notation is for.
    g : RegionGraph
        Its region graph.
    token : str
        The token.

    Returns
    -------
    (int, int)
        (region, colour).

    Raises
    ------
    kamicp.errors.IllegalMove
        Naming what is wrong with the token.

    Examples
    --------
    >>> from kamicp.game.board import Board
    >>> from kamicp.game.regions import region_graph
    >>> board = Board(geometry="square", cells={(0, 0): 0, (0, 1): 1}, palette=("R", "G"))
    >>> g = region_graph(board)
    >>> parse_move(board, g, "0,1:R"), parse_move(board, g, "#0:g")
    ((1, 0), (0, 1))
    """
    game = GAME_TOKEN.fullmatch(token)
    if board.geometry == "kami2" and game:
        digit = str(ord(game.group(2)) - ord("B") + 1)
        return parse_move(board, g, f"{game.group(1)}:{digit}")
    where, sep, colour = token.rpartition(":")
    if not sep or not where:
        raise IllegalMove(f"{token!r} is not a move (expected WHERE:COLOUR)")
    if where.startswith("#"):
        if not ASCII_NUMBER.fullmatch(where[1:]) or _number(where[1:]) >= g.n:
            raise IllegalMove(f"no region {where} (regions are #0..#{g.n - 1})")
        region = _number(where[1:])
    else:
        region = g.region_of[parse_cell(board, where)]
    return (region, parse_colour(board, colour))


def parse_solution(
    board: Board, g: RegionGraph, text: str, final_colour: int | None = None
) -> list[Move]:
    """The moves of ``text`` (:func:`parse_moves`), replayed.

    Parameters
    ----------
    board : Board
        The board the notation is for.
    g : RegionGraph
        Its region graph.
    text : str
        Moves in notation.
    final_colour : int or None
        The colour the board must end in, or None for any.

    Returns
    -------
    list of (int, int)
        The moves.

    Raises
    ------
    kamicp.errors.IllegalMove
        Unless the moves are legal and solve the board (in ``final_colour``, if given).
    """
    moves = parse_moves(board, g, text)
    verify_solution(g, moves, final_colour)
    return moves


def parse_moves(board: Board, g: RegionGraph, text: str) -> list[Move]:
    """All moves in ``text``; a KAMI 2 solution string like ``219C184F`` is split first.

    Parameters
    ----------
    board : Board
        The board the notation is for.
    g : RegionGraph
        Its region graph.
    text : str
        Moves in notation.

    Returns
    -------
    list of (int, int)
        The moves, not replayed (see :func:`parse_solution`).

    Raises
    ------
    kamicp.errors.IllegalMove
        For no text, or a move that cannot be read (naming its number).

    Examples
    --------
    >>> from kamicp.game.board import Board
    >>> from kamicp.game.regions import region_graph
    >>> board = Board(geometry="square", cells={(0, 0): 0, (0, 1): 1}, palette=("R", "G"))
    >>> g = region_graph(board)
    >>> parse_moves(board, g, "0,1:R 0,0:G")
    [(1, 0), (0, 1)]
    """
    if text is None:
        raise IllegalMove("no moves given")
    moves = []
    for number, token in enumerate(tokens(board, text), 1):
        try:
            moves.append(parse_move(board, g, token))
        except IllegalMove as err:
            raise IllegalMove(f"move {number} ({token}): {err}") from None
    return moves
