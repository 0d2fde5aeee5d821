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
from kamicp.plural import count, count_moves

__all__ = [
    "Move",
    "Position",
    "Replay",
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
    inside = g.rules != "pivot" or (0 <= region < g.n and region in current_region(g, pos, g.pivot))
    problem = _problem(g, move, pos[region] if 0 <= region < g.n else None, inside)
    if problem:
        raise IllegalMove(problem)


def _problem(g: RegionGraph, move: Move, current: int | None, inside: bool) -> str:
    """Why ``move`` is illegal ("" if it is legal): ``current`` is the colour its region has
    now (None for no such region), ``inside`` whether the region is in the pivot's current
    region (pivot rules). Shared by :func:`check_move` and :class:`Replay`."""
    region, colour = move
    if not 0 <= region < g.n:
        return f"no region {region} (the board has {g.n})"
    if not 0 <= colour < g.k:
        return f"colour {colour} is outside the palette of {count(g.k, 'colour')}"
    if current == colour:
        return f"region {region} already has colour {g.palette[colour]}"
    if g.rules == "pivot" and not inside:
        return f"pivot rules: region {region} is not in the pivot's region"
    return ""


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
    state = Replay(g, pos)
    for number, move in enumerate(moves, 1):
        try:
            state.play(move)
        except IllegalMove as err:
            raise IllegalMove(f"move {number}: {err}") from None
    return state.position()


class Replay:
    """A position played forward move by move, in time near the moves' reach, not the board's.

    The same rules as :func:`apply`, kept incrementally: the current regions are the sets of
    a union-find over the starting regions, each root holding its colour and the starting
    regions just outside it (its border, merged smaller into larger). A move recolours its
    root and unions the border's sets of the new colour: O(border) per move, where
    :func:`apply` is O(n). :func:`replay` (so every solution a solver returns) plays through
    it; the tests check it against :func:`apply` on random boards.

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    pos : tuple of int or None
        The position to start from; None for the start.

    Examples
    --------
    >>> from kamicp.game.regions import from_edges
    >>> state = Replay(from_edges([0, 1, 0, 2], [(0, 1), (1, 2), (2, 3)]))
    >>> state.play((1, 0)); state.region(2), state.colours_left()
    ([0, 1, 2], 2)
    """

    def __init__(self, g: RegionGraph, pos: Position | None = None):
        self.g = g
        colours = list(start(g) if pos is None else pos)
        self.parent = list(range(g.n))
        self.colour = colours  # meaningful at roots
        self.size = [1] * g.n  # starting regions in each root's set
        # Made for a root on first use: most starting regions are never asked about.
        self._members: dict[int, list[int]] = {}
        self._border: dict[int, set[int]] = {}
        self.count = [0] * g.k  # starting regions of each colour
        for c in colours:
            self.count[c] += 1
        if pos is None:
            return  # regions of the start never touch one of their own colour
        for r in range(g.n):  # the current regions of pos: neighbours of one colour
            for s in g.adj[r]:
                if colours[s] == colours[r]:
                    self._union(r, s)
        for r in list(self._border):
            self._clean(r)

    def find(self, r: int) -> int:
        """The root of the current region holding starting region ``r``."""
        parent = self.parent
        while parent[r] != r:
            parent[r] = parent[parent[r]]
            r = parent[r]
        return r

    def members(self, root: int) -> list[int]:
        """The starting regions of the current region whose root is ``root``, unsorted."""
        return self._members.get(root) or [root]

    def border(self, root: int) -> set[int]:
        """Starting regions just outside the current region whose root is ``root`` (some
        may have joined it since it was last cleaned; :meth:`play` cleans its root's)."""
        mine = self._border.get(root)
        if mine is None:
            mine = self._border[root] = set(self.g.adj[root])
        return mine

    def region(self, r: int) -> list[int]:
        """The starting regions of the current region holding ``r``, sorted (as
        :func:`current_region`)."""
        return sorted(self.members(self.find(r)))

    def colour_of(self, r: int) -> int:
        """The colour of starting region ``r`` now."""
        return self.colour[self.find(r)]

    def colours_left(self) -> int:
        """How many colours the board still has."""
        return sum(1 for c in self.count if c)

    def play(self, move: Move) -> None:
        """Play ``move`` (checked first, as :func:`check_move`).

        Raises
        ------
        kamicp.errors.IllegalMove
            If the move is not allowed, with :func:`check_move`'s reason.
        """
        region, colour = move
        exists = 0 <= region < self.g.n
        root = self.find(region) if exists else -1
        inside = exists and (self.g.rules != "pivot" or root == self.find(self.g.pivot))
        problem = _problem(self.g, move, self.colour[root] if exists else None, inside)
        if problem:
            raise IllegalMove(problem)
        size = self.size[root]
        self.count[self.colour[root]] -= size
        self.count[colour] += size
        self.colour[root] = colour
        joining = {r for r in self._roots(self.border(root)) if self.colour[r] == colour}
        for other in joining:
            root = self._join(root, other)
        self._clean(root)

    def roots(self, root: int) -> set[int]:
        """The current regions just outside the one whose root is ``root``, by their roots.

        Returns
        -------
        set of int
            Their roots.
        """
        return set(self._roots(self.border(root)))

    def _roots(self, regions: set[int]) -> Iterator[int]:
        """The root of each of ``regions`` (a starting region alone is its own: no call)."""
        parent, find = self.parent, self.find
        return (r if parent[r] == r else find(r) for r in regions)

    def position(self) -> Position:
        """The position now, as :func:`apply` gives it. O(n)."""
        return tuple(self.colour[self.find(r)] for r in range(self.g.n))

    def _union(self, a: int, b: int) -> int:
        """Merge the current regions of ``a`` and ``b`` (the same colour); the new root."""
        a, b = self.find(a), self.find(b)
        return a if a == b else self._join(a, b)

    def _join(self, a: int, b: int) -> int:
        """Merge the current regions of the roots ``a`` and ``b``; the new root."""
        if self.size[a] < self.size[b]:
            a, b = b, a
        self.parent[b] = a
        self.size[a] += self.size[b]
        together = self._members.get(a)
        if together is None:
            together = self._members[a] = [a]
        theirs = self._members.pop(b, None)
        if theirs is None:  # most often: a starting region alone, with nothing made for it
            together.append(b)
        else:
            together.extend(theirs)
        mine, outside = self.border(a), self._border.pop(b, None)
        if outside is None:
            mine.update(self.g.adj[b])
            return a
        if len(mine) < len(outside):
            mine, outside = outside, mine
            self._border[a] = mine
        mine |= outside
        return a

    def _clean(self, root: int) -> None:
        """Drop from ``root``'s border the starting regions now inside it."""
        parent, find = self.parent, self.find
        self._border[root] = {s for s in self.border(root) if parent[s] != root and find(s) != root}


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
                f"after {count_moves(len(moves))} the board is all {g.palette[end[0]]}, "
                f"not the final colour {g.palette[final_colour]}"
            )
    else:
        raise IllegalMove(f"after {count_moves(len(moves))} the board is not one colour")
