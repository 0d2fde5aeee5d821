"""What the play page is sent: a board as drawing data, the position after a move list,
and the answers of solves and hints.

The page keeps the puzzle (:class:`kamicp.web.puzzle.Puzzle`) and the moves played; every
request sends both and the server replays the moves with the rules engine
(:mod:`kamicp.game.rules`), so undo is a shorter list. Cells are numbered by their place in
``Board.order``; a move is ``[region, colour]`` on the starting region graph, as
:func:`kamicp.solve` answers it.
"""

from __future__ import annotations

from kamicp.errors import KamicpError
from kamicp.game import notation, rules
from kamicp.game.board import Board
from kamicp.game.regions import RegionGraph, region_graph
from kamicp.view import colour_names, places, words
from kamicp.view.layout import (
    NODE_RADIUS,
    Layout,
    is_light,
    layout,
    outline,
    palette_colours,
)

__all__ = [
    "board_json",
    "click_move",
    "hint_json",
    "move_text",
    "outline_json",
    "play_json",
    "result_json",
]


def _round(point) -> list[float]:
    return [round(point[0], 4), round(point[1], 4)]


def board_json(board: Board) -> dict:
    """What the page draws: each cell's polygon (or node centre), colours, regions, pivot.

    Parameters
    ----------
    board : Board
        The puzzle.

    Returns
    -------
    dict
        ``geometry``, ``rules``, ``name``, ``par``, ``optimum``; ``palette`` (per colour its
        ``name``, ``colour`` as ``#rrggbb``, whether it is ``light``, and what it is
        ``called``: "blue", or "" for a colour without a name); ``cells`` (per
        cell its ``label``, and ``points`` or, on graph boards, ``centre``); ``colours``
        and ``regions`` per cell (palette index, starting region); ``links`` (graph boards:
        pairs of cell numbers); ``border`` (the board's edge, holes' included, as
        :func:`outline_json` segments, so that a dark colour shows against the page);
        ``pivot`` (the pivot's cell number under pivot rules, else None); ``view`` (x, y,
        width, height in layout units) and ``radius`` of a node; ``labels`` (grid boards:
        ``rows`` as [number, y] and ``columns`` as [number, x], the numbers the moves' words
        use, from :func:`kamicp.view.places.grid_labels`; None on graph boards).

    Examples
    --------
    >>> from kamicp import formats
    >>> data = board_json(formats.parse("RG\\nGB\\n")[0])
    >>> data["cells"][1]["points"], data["regions"]
    ([[1.0, 0.0], [2.0, 0.0], [2.0, 1.0], [1.0, 1.0]], [0, 1, 2, 3])
    """
    g = region_graph(board)
    lay = layout(board)
    index = {cell: i for i, cell in enumerate(board.order)}
    cells = []
    for cell in board.order:
        item = {"label": notation.format_cell(board, cell)}
        if lay.polygons:
            item["points"] = [_round(p) for p in lay.polygons[cell]]
        else:
            item["centre"] = _round(lay.centres[cell])
        cells.append(item)
    xmin, ymin, xmax, ymax = lay.bounds()
    colours = palette_colours(board.palette)
    called = colour_names.palette_words(board, symbol=False)  # the names the command line says
    return {
        "geometry": board.geometry,
        "rules": board.rules,
        "name": board.name,
        "par": board.par,
        "optimum": board.optimum,
        "palette": [
            {
                "name": name,
                "colour": colour,
                "light": is_light(colour),
                "called": said,
            }
            for name, colour, said in zip(board.palette, colours, called, strict=True)
        ],
        "cells": cells,
        "colours": [board.cells[cell] for cell in board.order],
        "regions": [g.region_of[cell] for cell in board.order],
        "links": [[index[a], index[b]] for a, b in lay.links],
        "border": outline_json(board, range(len(board.order)), lay),
        "pivot": index[board.pivot] if board.rules == "pivot" else None,
        "view": [round(xmin, 4), round(ymin, 4), round(xmax - xmin, 4), round(ymax - ymin, 4)],
        "radius": NODE_RADIUS,
        "labels": _labels(board, lay),
    }


def _labels(board: Board, lay) -> dict | None:
    """The row and column numbers the moves' words use, where the page writes them (None on
    graph boards, whose nodes are named by their ids)."""
    if board.geometry == "graph":
        return None
    rows, columns = places.grid_labels(board, lay.centres)
    return {"rows": [list(r) for r in rows], "columns": [list(c) for c in columns]}


def move_text(
    board: Board, g: RegionGraph, move: rules.Move, pos: rules.Position | None = None
) -> str:
    """A move as the page shows it to the player (a solution's moves: :func:`result_json`).

    Parameters
    ----------
    board : Board
        The puzzle.
    g : RegionGraph
        Its starting region graph.
    move : (int, int)
        (starting region, colour).
    pos : tuple of int, optional
        The position the move is played in (the start by default): the place named is the
        middle of the region as it stands then.

    Returns
    -------
    str
        The move in words, as the command line says it (:func:`kamicp.view.words.move_words`).

    Examples
    --------
    >>> from kamicp import formats
    >>> board = formats.parse("RG\\nGB\\n")[0]
    >>> move_text(board, region_graph(board), (1, 0))
    'blue (B) at row 1, column 2'
    """
    return words.move_words(board, g, move, pos)


def _moves(g: RegionGraph, data: object) -> list[rules.Move]:
    """The move list of a request, as pairs of ints; :class:`KamicpError` otherwise."""
    ok = isinstance(data, list) and all(
        isinstance(m, list) and len(m) == 2 and all(type(x) is int for x in m) for m in data
    )
    if not ok:
        raise KamicpError("moves must be a list of [region, colour] pairs of integers")
    return [(m[0], m[1]) for m in data]


def click_move(board: Board, g: RegionGraph, pos: rules.Position, cell: int, colour: int):
    """The move a click on cell number ``cell`` with colour ``colour`` picked stands for.

    Free rules: the clicked region takes the picked colour. Pivot rules, as in Flood-It:
    the pivot's region takes the clicked cell's colour, or the picked colour when the click
    is on the pivot's region itself.

    Parameters
    ----------
    board : Board
        The puzzle.
    g : RegionGraph
        Its starting region graph.
    pos : tuple of int
        The position (colour per starting region).
    cell : int
        The cell's number (its place in ``board.order``).
    colour : int
        The picked colour.

    Returns
    -------
    (int, int)
        The move: (starting region, colour); the rules engine checks it.

    Raises
    ------
    kamicp.errors.KamicpError
        When there is no such cell.
    """
    if type(cell) is not int or not 0 <= cell < len(board.order):
        raise KamicpError(f"no cell {cell!r} (the board has {len(board.order)})")
    region = g.region_of[board.order[cell]]
    if board.rules != "pivot":
        return (region, colour)
    if region in rules.current_region(g, pos, g.pivot):
        return (g.pivot, colour)
    return (g.pivot, pos[region])


def play_json(board: Board, moves: object, click: object = None) -> dict:
    """Replay ``moves`` (and the move a click stands for): the position for the page.

    Parameters
    ----------
    board : Board
        The puzzle.
    moves : list of [int, int]
        The moves played, as the page sends them.
    click : dict, optional
        ``{"cell": n, "colour": c}``: one more move (:func:`click_move`).

    Returns
    -------
    dict
        ``moves`` (with the click's move), ``colours`` and ``regions`` (the smallest
        starting region of each cell's current region) per cell, ``links`` (the current
        regions that touch, as pairs of those ids: the region graph), ``used``,
        ``solved``, ``par``, ``last``, the text of the click's move (None without a
        click), and ``moved``: the ``cells`` the last move recoloured and their ``outline``.
        O(moves x cells + region graph edges).

    Raises
    ------
    kamicp.errors.IllegalMove
        At the first illegal move, the click's included; the message says why.
    kamicp.errors.KamicpError
        When ``moves`` or ``click`` is malformed.

    Examples
    --------
    >>> from kamicp import formats
    >>> board = formats.parse("RG\\nGG\\n")[0]
    >>> state = play_json(board, [], {"cell": 0, "colour": 0})
    >>> state["solved"], state["moves"], state["last"], state["moved"]["cells"]
    (True, [[0, 0]], 'green (G) at row 1, column 1', [0])
    """
    g = region_graph(board)
    played = _moves(g, moves)
    before = rules.replay(g, played[:-1])  # the position the last move was played in
    pos = rules.apply(g, before, played[-1]) if played else before
    last = None
    if click is not None:
        if not isinstance(click, dict) or type(click.get("colour")) is not int:
            raise KamicpError("a click needs a cell and a colour (integers)")
        move = click_move(board, g, pos, click.get("cell"), click["colour"])
        last = move_text(board, g, move, pos)
        before, pos = pos, rules.apply(g, pos, move)
        played.append(move)
    moved = []  # the cells the last move recoloured
    if played:
        part = set(rules.current_region(g, before, played[-1][0]))
        moved = [i for i, cell in enumerate(board.order) if g.region_of[cell] in part]
    label = {}
    for part in rules.current_regions(g, pos):
        for r in part:
            label[r] = part[0]
    links = {(label[a], label[b]) for a in range(g.n) for b in g.adj[a] if label[a] < label[b]}
    return {
        "moves": [list(m) for m in played],
        "colours": [pos[g.region_of[cell]] for cell in board.order],
        "regions": [label[g.region_of[cell]] for cell in board.order],
        "links": sorted([a, b] for a, b in links),
        "used": len(played),
        "solved": rules.is_solved(pos),
        "par": board.par,
        "last": last,
        "moved": {"cells": moved, "outline": outline_json(board, moved) if moved else []},
    }


def outline_json(board: Board, cells, lay: Layout | None = None) -> list[list[list[float]]]:
    """The boundary of a group of cells, as segments ``[[x1, y1], [x2, y2]]``.

    Parameters
    ----------
    board : Board
        The puzzle.
    cells : iterable of int
        Cell numbers.
    lay : Layout, optional
        The board's layout, when already made.

    Returns
    -------
    list
        The segments (empty on graph boards, whose nodes are drawn as circles).

    Examples
    --------
    >>> from kamicp import formats
    >>> len(outline_json(formats.parse("RG\\nGB\\n")[0], [0, 1]))
    6
    """
    polygons = (lay or layout(board)).polygons
    if not polygons:
        return []
    chosen = [polygons[board.order[i]] for i in cells]
    return [[_round(a), _round(b)] for a, b in outline(chosen)]


def result_json(board: Board, result) -> dict:
    """A solve's result for the page: status, bounds, proof, solution and its text.

    Parameters
    ----------
    board : Board
        The puzzle that was solved (from its start).
    result : kamicp.result.Result
        The solve's answer.

    Returns
    -------
    dict
        ``status``, ``moves``, ``lower``, ``upper``, ``proof``, ``solver``, ``seconds``,
        ``solution`` (list of [region, colour]) and ``text`` (the moves in notation).
    """
    g = region_graph(board)
    solution = result.solution or []
    text = words.moves_words(board, g, solution, numbered=False)  # the page's list numbers them
    return {
        "status": result.status,
        "moves": result.moves,
        "lower": result.lower_bound,
        "upper": result.upper_bound,
        "proof": result.proof,
        "solver": result.solver,
        "seconds": round(result.seconds, 3),
        "solution": [list(m) for m in solution],
        "text": text,
    }


def hint_json(board: Board, moves: list, h) -> dict:
    """A hint for the page: the move on the starting regions, the cells to mark, moves left.

    Parameters
    ----------
    board : Board
        The puzzle.
    moves : list of (int, int)
        The moves played before the hint.
    h : kamicp.solving.hint.Hint
        The hint.

    Returns
    -------
    dict
        What :func:`result_json` gives for the solve from the position (``moves`` is then
        the number of moves left, ``solution`` and ``text`` are not sent), and ``move``
        (``[region, colour]`` on the starting region graph, or None), ``move_text``,
        ``cells`` (the cell numbers of the region to recolour) and ``outline``.
    """
    g = region_graph(board)
    out = result_json(h.position, h.result)
    del out["solution"], out["text"]
    out.update(move=None, move_text=None, cells=[], outline=[])
    if h.next_move is not None:
        pg = region_graph(h.position)
        region, colour = h.next_move
        move = (g.region_of[pg.cells[region][0]], colour)
        pos = rules.replay(g, moves)
        part = set(rules.current_region(g, pos, move[0]))
        cells = [i for i, cell in enumerate(board.order) if g.region_of[cell] in part]
        out.update(
            move=list(move),
            move_text=move_text(board, g, move, pos),
            cells=cells,
            outline=outline_json(board, cells),
        )
    return out
