"""The rules engine, for both rule sets.

A position is the colour of every region of the *starting* region graph (a tuple). The
current regions are the connected one-colour groups of those regions; recolouring one merges
it with every touching region of the new colour. This one engine replays every solution a
solver returns before it is reported.

- free rules: any current region may be recoloured;
- pivot rules: only the current region holding the pivot.

A move is ``(region, colour)`` with ``region`` any starting region inside the current region
to recolour. Recolouring to the colour it already has is rejected (it changes nothing);
recolouring so that nothing merges is legal (boards in pieces need it).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from kamicp.errors import IllegalMove
from kamicp.game.regions import RegionGraph

__all__ = [
    "Move",
    "Position",
    "apply",
    "check_move",
    "current_region",
    "current_regions",
    "is_solved",
    "legal_moves",
    "replay",
    "start",
    "verify_solution",
]

Position = tuple[int, ...]
Move = tuple[int, int]


def start(g: RegionGraph) -> Position:
    """The starting position.

    Parameters
    ----------
    g : RegionGraph
        The puzzle.

    Returns
    -------
    tuple of int
        The colour of every starting region.

    Examples
    --------
    >>> from kamicp.game.regions import from_edges
    >>> start(from_edges([0, 1, 0], [(0, 1), (1, 2)]))
    (0, 1, 0)
    """
    return tuple(g.colour)


def current_region(g: RegionGraph, pos: Position, region: int) -> list[int]:
    """Starting regions that form the current region holding ``region`` (flood fill).

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    pos : tuple of int
        The position.
    region : int
        A starting region.

    Returns
    -------
    list of int
        The starting regions of its current region, sorted.

    Notes
    -----
    O(n + m) for n regions and m edges.

    Examples
    --------
    >>> from kamicp.game.regions import from_edges
    >>> current_region(from_edges([0, 1, 0], [(0, 1), (1, 2)]), (1, 1, 0), 0)
    [0, 1]
    """
    colour = pos[region]
    seen = {region}
    stack = [region]
    while stack:
        r = stack.pop()
        for s in g.adj[r]:
            if s not in seen and pos[s] == colour:
                seen.add(s)
                stack.append(s)
    return sorted(seen)


def current_regions(g: RegionGraph, pos: Position) -> list[list[int]]:
    """All current regions, each a sorted list of starting regions, by smallest member.

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    pos : tuple of int
        The position.

    Returns
    -------
    list of list of int
        The current regions.

    Examples
    --------
    >>> from kamicp.game.regions import from_edges
    >>> current_regions(from_edges([0, 1, 0], [(0, 1), (1, 2)]), (1, 1, 0))
    [[0, 1], [2]]
    """
    seen: set[int] = set()
    out = []
    for r in range(g.n):
        if r not in seen:
            part = current_region(g, pos, r)
            seen.update(part)
            out.append(part)
    return out


def check_move(g: RegionGraph, pos: Position, move: Move) -> None:
    """Raise :class:`IllegalMove` with the reason when ``move`` is not allowed at ``pos``.

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    pos : tuple of int
        The position.
    move : (int, int)
        The move: (a starting region, its new colour).

    Raises
    ------
    kamicp.errors.IllegalMove
        A region or colour out of range, the colour the region already has, or (pivot
        rules) a region outside the pivot's current region.
    """
    region, colour = move
    if not 0 <= region < g.n:
        raise IllegalMove(f"no region {region} (the board has {g.n})")
    if not 0 <= colour < g.k:
        raise IllegalMove(f"colour {colour} is outside the palette of {g.k} colours")
    if pos[region] == colour:
        raise IllegalMove(f"region {region} already has colour {g.palette[colour]}")
    if g.rules == "pivot" and region not in current_region(g, pos, g.pivot):
        raise IllegalMove(f"pivot rules: region {region} is not in the pivot's region")


def apply(g: RegionGraph, pos: Position, move: Move) -> Position:
    """The position after ``move`` (checked first).

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    pos : tuple of int
        The position.
    move : (int, int)
        The move: (a starting region, its new colour).

    Returns
    -------
    tuple of int
        The new position.

    Raises
    ------
    kamicp.errors.IllegalMove
        If the move is not allowed (see :func:`check_move`).

    Examples
    --------
    >>> from kamicp.game.regions import from_edges
    >>> g = from_edges([0, 1, 0], [(0, 1), (1, 2)])
    >>> apply(g, start(g), (1, 0))
    (0, 0, 0)
    """
    check_move(g, pos, move)
    region, colour = move
    new = list(pos)
    for r in current_region(g, pos, region):
        new[r] = colour
    return tuple(new)


def is_solved(pos: Position, final_colour: int | None = None) -> bool:
    """One colour everywhere (islands included), optionally a given one.

    Parameters
    ----------
    pos : tuple of int
        The position.
    final_colour : int or None
        The colour the board must end in, or None for any.

    Returns
    -------
    bool
        Whether ``pos`` is solved.

    Examples
    --------
    >>> is_solved((2, 2, 2)), is_solved((2, 2, 2), final_colour=0)
    (True, False)
    """
    first = pos[0]
    return all(c == first for c in pos) and final_colour in (None, first)


def legal_moves(g: RegionGraph, pos: Position) -> Iterator[Move]:
    """Every legal move, one per (current region, new colour), region by smallest member.

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    pos : tuple of int
        The position.

    Yields
    ------
    (int, int)
        A move: (the smallest starting region of a current region, a colour it has not).

    Examples
    --------
    >>> from kamicp.game.regions import from_edges
    >>> g = from_edges([0, 1, 0], [(0, 1), (1, 2)])
    >>> list(legal_moves(g, start(g)))
    [(0, 1), (1, 0), (2, 1)]
    """
    parts = [current_region(g, pos, g.pivot)] if g.rules == "pivot" else current_regions(g, pos)
    for part in parts:
        for colour in range(g.k):
            if colour != pos[part[0]]:
                yield (part[0], colour)


def replay(g: RegionGraph, moves: Iterable[Move], pos: Position | None = None) -> Position:
    """Play ``moves`` from ``pos`` (default the start).

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    moves : iterable of (int, int)
        The moves, in order.
    pos : tuple of int or None
        The position to play from; None for the start.

    Returns
    -------
    tuple of int
        The position after the last move.

    Raises
    ------
    kamicp.errors.IllegalMove
        At the first illegal move; the message names its 1-based number.
    """
    pos = start(g) if pos is None else pos
    for number, move in enumerate(moves, 1):
        try:
            pos = apply(g, pos, move)
        except IllegalMove as err:
            raise IllegalMove(f"move {number}: {err}") from None
    return pos


def verify_solution(g: RegionGraph, moves: list[Move], final_colour: int | None = None) -> None:
    """Raise unless ``moves`` are legal and end with one colour (``final_colour`` if given).

    Every solver's answer goes through here before it is reported.

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    moves : list of (int, int)
        The solution to check.
    final_colour : int or None
        The colour the board must end in, or None for any.

    Raises
    ------
    kamicp.errors.IllegalMove
        An illegal move, or a board that does not end in one colour (or not in
        ``final_colour``).

    Examples
    --------
    >>> from kamicp.game.regions import from_edges
    >>> verify_solution(from_edges([0, 1, 0], [(0, 1), (1, 2)]), [(1, 0)])
    """
    end = replay(g, moves)
    if is_solved(end):
        if not is_solved(end, final_colour):
            raise IllegalMove(
                f"after {len(moves)} moves the board is all {g.palette[end[0]]}, "
                f"not the final colour {g.palette[final_colour]}"
            )
    else:
        raise IllegalMove(f"after {len(moves)} moves the board is not one colour")
