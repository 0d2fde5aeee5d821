"""The Python API: load a puzzle, solve it, check a solution, name its moves.

These few functions are what ``import kamicp`` offers; everything else is reachable from
the subpackages. A puzzle is a :class:`~kamicp.game.board.Board` (what a file holds: cells,
geometry, palette, par) or a :class:`~kamicp.game.regions.RegionGraph` (its contraction, or
any graph with coloured nodes, see :meth:`RegionGraph.from_networkx`).

Examples
--------
>>> import kamicp
>>> board = kamicp.load("RRG\\nRBG\\nBBG\\n")
>>> result = kamicp.solve(board, time_limit=10)
>>> result.status, result.moves, result.bounds
('optimal', 2, (2, 2))
>>> kamicp.check(board, result.solution).solved
True
"""

from __future__ import annotations

import numbers
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace

from kamicp import formats
from kamicp.errors import IllegalMove, InputError
from kamicp.game import notation, rules
from kamicp.game.board import Board
from kamicp.game.regions import RegionGraph, region_graph
from kamicp.game.rules import Move
from kamicp.result import Result
from kamicp.solving.options import SolveOptions
from kamicp.solving.solve import solve as solve_graph

__all__ = ["Verdict", "check", "format_moves", "load", "load_all", "parse_moves", "solve"]

Puzzle = Board | RegionGraph


def load_all(source: str | os.PathLike, fmt: str | None = None) -> list[Board]:
    """Every puzzle in a file, or in a text.

    Parameters
    ----------
    source : str or path-like
        A path, or the text of a puzzle file: a string that holds a line break is read as
        text, any other string or path as a file name.
    fmt : {"grid", "flood", "gameid", "puz", "json", "floodit99", "digits"}, optional
        The format; detected from the content by default.

    Returns
    -------
    list of Board
        In the order of the file.

    Raises
    ------
    kamicp.errors.InputError
        The file is missing or unreadable, or its content is not a puzzle; the message
        names the file and the line.
    """
    if isinstance(source, str) and "\n" in source:
        return formats.parse(source, "<text>", fmt)
    return formats.load(os.fspath(source), fmt)


def load(source: str | os.PathLike, fmt: str | None = None, index: int | None = None) -> Board:
    """One puzzle from a file, or from a text.

    Parameters
    ----------
    source : str or path-like
        As for :func:`load_all`.
    fmt : str, optional
        As for :func:`load_all`.
    index : int, optional
        Which puzzle of a file that holds several (from 0); required then.

    Returns
    -------
    Board

    Raises
    ------
    kamicp.errors.InputError
        As for :func:`load_all`; also when the file holds several puzzles and ``index`` is
        not given, or ``index`` is out of range.

    Examples
    --------
    >>> board = load("RRG\\nRBG\\nBBG\\n")
    >>> board.geometry, len(board.cells), board.palette
    ('square', 9, ('B', 'G', 'R'))
    """
    boards = load_all(source, fmt)
    where = "<text>" if isinstance(source, str) and "\n" in source else os.fspath(source)
    if index is None:
        if len(boards) > 1:
            raise InputError(f"{len(boards)} puzzles in the file: give an index", where)
        return boards[0]
    if not 0 <= index < len(boards):
        raise InputError(f"no puzzle {index} (the file holds {len(boards)})", where)
    return boards[index]


def _graph(puzzle: Puzzle) -> RegionGraph:
    if isinstance(puzzle, RegionGraph):
        return puzzle
    if isinstance(puzzle, Board):
        return region_graph(puzzle)
    raise TypeError(f"a Board or a RegionGraph, not {type(puzzle).__name__}")


def solve(
    puzzle: Puzzle,
    solver: str = "portfolio",
    *,
    max_moves: int | None = None,
    time_limit: float | None = None,
    final_colour: int | None = None,
    options=None,
) -> Result:
    """Solve a puzzle in the fewest moves, and prove it.

    Parameters
    ----------
    puzzle : Board or RegionGraph
    solver : str
        ``"portfolio"`` (the default: IDA* and SAT side by side), ``"sat"``, ``"cpsat"``,
        ``"idastar"``, ``"astar"``, ``"bfs"`` or ``"greedy"`` (a good solution, no proof).
    max_moves : int, optional
        Decide "solvable in at most this many moves?" instead of minimising.
    time_limit : float, optional
        Seconds; when reached, the result holds the bounds proved so far.
    final_colour : int or str, optional
        The colour the board must end in: an index into the palette, or a colour's name.
    options : kamicp.solving.options.SolveOptions, optional
        The solver's other settings (workers, strategy, journal, ...), as the command line
        takes them; ``max_moves``, ``time_limit`` and ``final_colour``, where given, take
        the place of the ones in ``options``.

    Returns
    -------
    Result
        ``status`` is ``"optimal"`` (``lower_bound == moves``: a refuted horizon or an
        admissible bound, named in ``proof``), ``"feasible"``, ``"infeasible"`` (with
        ``max_moves``) or ``"unknown"``. ``solution`` is a list of ``(region, colour)``
        moves, replayed by the rules engine before it is returned.

    Raises
    ------
    ValueError
        An unknown solver; a final colour not in the palette; a negative ``time_limit``
        or ``max_moves``.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.cycle_graph(6)
    >>> nx.set_node_attributes(G, dict(enumerate("ABCABC")), "colour")
    >>> r = solve(RegionGraph.from_networkx(G), time_limit=10)
    >>> r.status, r.moves
    ('optimal', 4)
    """
    g = _graph(puzzle)
    if time_limit is not None and not time_limit >= 0:  # NaN too
        raise ValueError(f"time_limit must be at least 0 seconds, not {time_limit!r}")
    if max_moves is not None and (not isinstance(max_moves, numbers.Integral) or max_moves < 0):
        raise ValueError(f"max_moves must be a count of moves (0 or more), not {max_moves!r}")
    final = None if final_colour is None else _colour_index(g, final_colour)
    settings = {"max_moves": max_moves, "time_limit": time_limit, "final_colour": final}
    options = replace(
        options or SolveOptions(), **{k: v for k, v in settings.items() if v is not None}
    )
    return solve_graph(g, solver, options)


def _colour_index(g: RegionGraph, colour: int | str) -> int:
    """The palette index of ``colour``: an index, or a name of the palette."""
    names = " ".join(str(name) for name in g.palette)
    if isinstance(colour, str):
        if colour in g.palette:
            return g.palette.index(colour)
        raise ValueError(f"final colour {colour!r} is not in the palette ({names})")
    if isinstance(colour, bool) or not isinstance(colour, numbers.Integral):
        raise TypeError(f"a final colour is a palette index or name, not {colour!r}")
    if not 0 <= colour < len(g.palette):
        raise ValueError(
            f"final colour {colour} is not a palette index (0 to {len(g.palette) - 1}: {names})"
        )
    return int(colour)


@dataclass(frozen=True)
class Verdict:
    """What :func:`check` found.

    ``legal`` is False when a move breaks the rules (``problem`` says which and why);
    ``solved`` when the moves end with one colour; ``colours_left`` counts the colours
    after the last legal move; ``par_difference`` is moves minus par, when the puzzle has
    a par.
    """

    legal: bool
    solved: bool
    moves: int
    colours_left: int
    par_difference: int | None = None
    problem: str = ""


def check(puzzle: Puzzle, moves: str | Sequence[Move]) -> Verdict:
    """Replay moves on a puzzle with the rules engine.

    Parameters
    ----------
    puzzle : Board or RegionGraph
    moves : str or sequence of (region, colour)
        Moves in the command line's notation (``"2,2:G 1,3:B"``, see
        :mod:`kamicp.game.notation`; a Board is needed for cells and colour names), or
        moves as ``(region, colour)`` pairs of the region graph, as :func:`solve` returns.

    Returns
    -------
    Verdict

    Examples
    --------
    >>> board = load("RG\\nGG\\n")
    >>> check(board, "0,0:G")
    Verdict(legal=True, solved=True, moves=1, colours_left=1, par_difference=None, problem='')
    >>> check(board, "1,1:G").problem
    'move 1: region 1 already has colour G'
    >>> check(board, "0,0:B").problem
    "move 1 (0,0:B): colour 'B' is not in the palette (G R)"
    """
    g = _graph(puzzle)
    if isinstance(moves, str):
        if not isinstance(puzzle, Board):
            raise TypeError("moves in notation need the Board they name cells of")
        try:
            moves = notation.parse_moves(puzzle, g, moves)
        except IllegalMove as err:
            return Verdict(False, False, 0, len(set(g.colour)), problem=str(err))
    pos = rules.start(g)
    par = puzzle.par if isinstance(puzzle, Board) else None
    for done, move in enumerate(moves):
        try:
            pos = rules.apply(g, pos, tuple(move))
        except IllegalMove as err:
            return Verdict(False, False, done, len(set(pos)), problem=f"move {done + 1}: {err}")
    n = len(moves)
    return Verdict(
        True,
        rules.is_solved(pos),
        n,
        len(set(pos)),
        None if par is None else n - par,
    )


def format_moves(puzzle: Puzzle, moves: Sequence[Move]) -> str:
    """Moves of :func:`solve` in the command line's notation (cells and colour names).

    Parameters
    ----------
    puzzle : Board or RegionGraph
        The puzzle the moves are for. A Board names each region by its first cell in the
        board's notation; a RegionGraph by its first cell as the region graph keeps it (a
        networkx node's name, or ``row,column`` for a grid's cell).
    moves : sequence of (int, int)
        (region, colour) pairs, regions of the puzzle's region graph.

    Returns
    -------
    str
        One ``cell:colour`` token per move, separated by spaces.

    Raises
    ------
    ValueError
        A region or a colour the puzzle does not have.

    Examples
    --------
    >>> board = load("RG\\nGG\\n")
    >>> format_moves(board, solve(board).solution)
    '0,0:G'
    >>> import networkx as nx
    >>> G = nx.Graph([("a", "b"), ("b", "c")])
    >>> nx.set_node_attributes(G, {"a": "red", "b": "blue", "c": "red"}, "colour")
    >>> format_moves(RegionGraph.from_networkx(G), [(1, 0)])
    'b:red'
    """
    g = _graph(puzzle)
    moves = list(moves)
    for region, colour in moves:
        if not (0 <= region < g.n and 0 <= colour < len(g.palette)):
            raise ValueError(f"move {(region, colour)}: no such region or colour in the puzzle")
    if isinstance(puzzle, Board):
        return notation.format_moves(puzzle, g, moves)
    return " ".join(f"{_cell_name(g.cells[v][0])}:{g.palette[c]}" for v, c in moves)


def _cell_name(cell) -> str:
    """A cell as the notation writes it without its board: ``row,column`` for a grid's."""
    if isinstance(cell, tuple):
        return ",".join(str(x) for x in cell)
    return str(cell)


def parse_moves(board: Board, text: str) -> list[Move]:
    """Moves in the command line's notation as ``(region, colour)`` pairs.

    Parameters
    ----------
    board : Board
        The puzzle the moves are for.
    text : str
        Moves such as ``"0,0:G 1,1:R"``, separated by spaces or semicolons.

    Returns
    -------
    list of (int, int)
        The moves, not replayed (:func:`check` replays them).

    Raises
    ------
    kamicp.errors.IllegalMove
        A cell that is not on the board or a colour not in the palette.

    Examples
    --------
    >>> board = load("RG\\nGG\\n")
    >>> parse_moves(board, "0,0:G") == solve(board).solution
    True
    """
    return notation.parse_moves(board, region_graph(board), text)
