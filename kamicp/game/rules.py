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

Position = tuple[int, ...]
Move = tuple[int, int]


def start(g: RegionGraph) -> Position:
    """The starting position."""
    return tuple(g.colour)


def current_region(g: RegionGraph, pos: Position, region: int) -> list[int]:
    """Starting regions that form the current region holding ``region`` (flood fill)."""
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
    """All current regions, each a sorted list of starting regions, by smallest member."""
    seen: set[int] = set()
    out = []
    for r in range(g.n):
        if r not in seen:
            part = current_region(g, pos, r)
            seen.update(part)
            out.append(part)
    return out


def check_move(g: RegionGraph, pos: Position, move: Move) -> None:
    """Raise :class:`IllegalMove` with the reason when ``move`` is not allowed at ``pos``."""
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
    """The position after ``move`` (checked first)."""
    check_move(g, pos, move)
    region, colour = move
    new = list(pos)
    for r in current_region(g, pos, region):
        new[r] = colour
    return tuple(new)


def is_solved(pos: Position, final_colour: int | None = None) -> bool:
    """One colour everywhere (islands included), optionally a given one."""
    first = pos[0]
    return all(c == first for c in pos) and final_colour in (None, first)


def legal_moves(g: RegionGraph, pos: Position) -> Iterator[Move]:
    """Every legal move, one per (current region, new colour), region by smallest member."""
    parts = [current_region(g, pos, g.pivot)] if g.rules == "pivot" else current_regions(g, pos)
    for part in parts:
        for colour in range(g.k):
            if colour != pos[part[0]]:
                yield (part[0], colour)


def replay(g: RegionGraph, moves: Iterable[Move], pos: Position | None = None) -> Position:
    """Play ``moves`` from ``pos`` (default the start); raises on the first illegal move.

    The error message names the move's 1-based number.
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
