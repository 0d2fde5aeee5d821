"""A move in words: the colour by the name of its drawn colour, the region by where it is.

Move notation (:mod:`kamicp.game.notation`) is compact and exact, for files and JSON; this
module says the same move the way a person finds it on the picture of
:mod:`kamicp.view.layout`: "green (G) at row 3, column 5". Colours are named by
:mod:`kamicp.view.colour_names`, places by :mod:`kamicp.view.places`. Under pivot rules
every move recolours the pivot's region, so a move is said by its colour alone ("orange
(1)") and its notation names the pivot cell.
"""

from __future__ import annotations

import functools

from kamicp.game import rules
from kamicp.game.board import Board
from kamicp.game.notation import format_cell, format_colour
from kamicp.game.regions import RegionGraph
from kamicp.view.colour_names import colour_words, palette_words
from kamicp.view.places import centres_of, naming_cell, place_words, region_cell, region_cells

__all__ = [
    "cell_words",
    "move_said",
    "move_token",
    "move_words",
    "moves_said",
    "moves_words",
]


def move_words(
    board: Board,
    g: RegionGraph,
    move: rules.Move,
    pos: rules.Position | None = None,
    symbol: bool = True,
) -> str:
    """One move in words: ``green (G) at row 3, column 5``.

    Parameters
    ----------
    board : Board
        The board.
    g : RegionGraph
        Its region graph, which the move refers to.
    move : (int, int)
        (region, colour).
    pos : tuple of int, optional
        The position the move is played in (None: the start); the place named is the
        middle of the current region there (:func:`region_cell`).
    symbol : bool, default True
        Add the palette symbol to the colour's name (:func:`colour_words`).

    Returns
    -------
    str
        The words.

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> from kamicp.game.regions import region_graph
    >>> board = parse("GGR\\nGRR\\n")[0]
    >>> move_words(board, region_graph(board), (1, 0))
    'green (G) at row 2, column 3'
    """
    region, colour = move
    return _words_at(board, colour, region_cell(board, g, region, pos), symbol)


def move_token(
    board: Board, g: RegionGraph, move: rules.Move, pos: rules.Position | None = None
) -> str:
    """The move in notation naming the cell :func:`move_words` names (pasteable anywhere
    notation is read).

    Parameters
    ----------
    board, g, move, pos
        As in :func:`move_words`.

    Returns
    -------
    str
        ``WHERE:COLOUR`` (:mod:`kamicp.game.notation`).

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> from kamicp.game.regions import region_graph
    >>> board = parse("GGR\\nGRR\\n")[0]
    >>> move_token(board, region_graph(board), (1, 0))
    '1,2:G'
    """
    region, colour = move
    return _token_at(board, colour, region_cell(board, g, region, pos))


def move_said(
    board: Board, g: RegionGraph, move: rules.Move, pos: rules.Position | None = None
) -> tuple[str, str]:
    """The move in words and in notation, both naming one cell, found once
    (:func:`move_words`, :func:`move_token`).

    Parameters
    ----------
    board, g, move, pos
        As in :func:`move_words`.

    Returns
    -------
    (str, str)
        The words (with the palette symbol), and ``WHERE:COLOUR`` on the cell they name.

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> from kamicp.game.regions import region_graph
    >>> board = parse("GGR\\nGRR\\n")[0]
    >>> move_said(board, region_graph(board), (1, 0))
    ('green (G) at row 2, column 3', '1,2:G')
    """
    region, colour = move
    cell = region_cell(board, g, region, pos)
    return _words_at(board, colour, cell, True), _token_at(board, colour, cell)


def cell_words(board: Board, colour: int, cell) -> str:
    """A move in words that names ``cell`` of the region moved (as a player named it).

    Parameters
    ----------
    board : Board
        The board.
    colour : int
        The colour played.
    cell : tuple or node
        A cell of the region moved; under pivot rules the pivot names no place.

    Returns
    -------
    str
        The words, with the palette symbol.

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> cell_words(parse("GGR\\nGRR\\n")[0], 0, (0, 2))
    'green (G) at row 1, column 3'
    """
    return _words_at(board, colour, cell, True)


def _words_at(board: Board, colour: int, cell, symbol: bool) -> str:
    return _said(board, colour_words(board, colour, symbol), cell)


def _said(board: Board, colour_said: str, cell) -> str:
    """A move's words: its colour, and its place unless the move recolours the pivot."""
    if board.rules == "pivot" and cell == board.pivot:
        return colour_said
    return f"{colour_said} at {place_words(board, cell)}"


def _token_at(board: Board, colour: int, cell) -> str:
    return f"{format_cell(board, cell)}:{format_colour(board, colour)}"


def moves_words(
    board: Board, g: RegionGraph, moves: list, symbol: bool = True, numbered: bool = True
) -> list[str]:
    """Moves replayed from the start, one line each: ``1. green (G) at row 3, ...``.

    Parameters
    ----------
    board : Board
        The board.
    g : RegionGraph
        Its region graph, which the moves refer to (starting regions, as solvers answer).
    moves : list of (int, int)
        The moves, replayed with :func:`kamicp.game.rules.apply`; each is named in the
        position the earlier moves leave, where its region may have merged with others.
    symbol : bool, default True
        Add the palette symbols (:func:`colour_words`).
    numbered : bool, default True
        Start each line with the move's number (a list that numbers its items: without).

    Returns
    -------
    list of str
        One line per move. O(moves * cells).

    Raises
    ------
    IllegalMove
        For a move the rules reject.

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> from kamicp.game.regions import region_graph
    >>> board = parse("GRB\\n")[0]
    >>> for line in moves_words(board, region_graph(board), [(1, 1), (0, 0)]):
    ...     print(line)
    1. green (G) at row 1, column 2
    2. blue (B) at row 1, column 1
    """
    return moves_said(board, g, moves, symbol, numbered)[0]


def moves_said(
    board: Board, g: RegionGraph, moves: list, symbol: bool = True, numbered: bool = True
) -> tuple[list[str], list[str]]:
    """:func:`moves_words`, and each move in notation on the cell its words name.

    Both name the middle cell of the region moved, as it stands when the move is played
    (any cell of that region names the same move), so that a reader finds the words' cell
    in the notation: ``row 3, column 5`` is ``2,4`` (rows and columns counted from 1 in
    words, from 0 in notation).

    Returns
    -------
    (list of str, list of str)
        The lines of :func:`moves_words`, and one ``WHERE:COLOUR`` token per move.

    Examples
    --------
    >>> from kamicp.formats import parse
    >>> from kamicp.game.regions import region_graph
    >>> board = parse("GRB\\n")[0]
    >>> moves_said(board, region_graph(board), [(1, 1), (0, 0)])
    (['1. green (G) at row 1, column 2', '2. blue (B) at row 1, column 1'], ['0,1:G', '0,0:B'])
    """
    words = palette_words(board, symbol=symbol)
    # the board drawn once, when a region of more than one cell is first named
    centres = functools.cache(lambda: centres_of(board, board.order))
    pos = rules.start(g)
    lines, tokens = [], []
    for number, move in enumerate(moves, 1):
        region, colour = move
        cell = naming_cell(board, region_cells(g, region, pos), centres)
        head = f"{number}. " if numbered else ""
        lines.append(head + _said(board, words[colour], cell))
        tokens.append(_token_at(board, colour, cell))
        pos = rules.apply(g, pos, move)
    return lines, tokens
