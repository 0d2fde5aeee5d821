"""The moves A* and IDA* try from a state, and the restrictions that leave the others out.

Every restriction keeps at least one optimal solution; each is proved in
``encodings/bounds.md`` ("Search restrictions (A*, IDA*)"):

- pieces in order: moves on different pieces commute, so every solution can be reordered to
  play piece 0's moves, then piece 1's, and so on; a piece left behind is finished and its
  colour is the final colour (a state is the position plus the first piece still open);
- a one-node piece, once the final colour is known, is only recoloured to it;
- pivot rules: a move that merges nothing is only needed to recolour the finished pivot
  piece; a move that absorbs every remaining region of a colour (not the forced final one)
  may be played at once (Flood-It's colour-elimination rule, proved by blob monotonicity);
- free rules, two consecutive moves of one piece that commute are tried in one order only:
  two independent merging moves with the smaller node first (R5); a move that merges
  nothing as early as it can stand (R6). What the last move was is then part of a state
  (:func:`last_move_context`), and of its key in IDA*'s table.

Examples
--------
>>> from kamicp.bounds import contract
>>> from kamicp.game.regions import from_edges
>>> start = contract(from_edges([0, 1, 0], [(0, 1), (1, 2)]))
>>> sorted(move for move, _ in moves(start, 0, "free", None))
[(0, 1), (1, 0), (2, 1)]
"""

from __future__ import annotations

from kamicp.bounds import Current, pivot_final
from kamicp.game.rules import Move

__all__ = [
    "COLOUR_SLOTS",
    "context_bytes",
    "frame",
    "last_move",
    "last_move_context",
    "moves",
    "pivot_moves",
    "skipped",
    "state_key",
    "state_key_of",
    "transposition_key",
]

COLOUR_SLOTS = 256  # colours a last-move context can name (a palette is far smaller)


def state_key(cur: Current, first: int) -> bytes:
    """The key of a state: its position and its first open piece.

    Parameters
    ----------
    cur : Current
        The position.
    first : int
        The first piece still open (the pieces before it are finished).

    Returns
    -------
    bytes
        The position's bytes followed by ``first`` in four bytes, little-endian.
    """
    return state_key_of(cur.pos, first)


def state_key_of(position: bytes, first: int) -> bytes:
    """:func:`state_key` of a position given by its bytes alone."""
    return position + first.to_bytes(4, "little")


def transposition_key(cur: Current, first: int, after: int | None) -> bytes:
    """The key of a state in IDA*'s table: its position, its first open piece, and the last
    move's context (the moves tried next depend on it: rules R5 and R6).

    Returns
    -------
    bytes
        :func:`state_key`, then ``after`` (-1 for None) in four bytes, little-endian and
        signed.

    Examples
    --------
    >>> from kamicp.bounds import contract
    >>> from kamicp.game.regions import from_edges
    >>> cur = contract(from_edges([0, 1], [(0, 1)]))
    >>> transposition_key(cur, 0, None)
    b'\\x00\\x01\\x00\\x00\\x00\\x00\\xff\\xff\\xff\\xff'
    """
    return state_key(cur, first) + context_bytes(after)


def context_bytes(after: int | None) -> bytes:
    """A last move's context (``None``: no last move) as the four bytes ending a
    :func:`transposition_key`."""
    return (-1 if after is None else after).to_bytes(4, "little", signed=True)


def frame(cur: Current, first: int, final_colour: int | None) -> tuple[bool, int | None]:
    """Whether a state whose pieces before ``first`` are finished can still be solved.

    Finished pieces are never moved again, so each must be one node, all of one colour,
    which is then the final colour (and must match ``final_colour`` if given).

    Parameters
    ----------
    cur : Current
        The position.
    first : int
        The first piece still open.
    final_colour : int or None
        The colour the board must end in, if required.

    Returns
    -------
    tuple of (bool, int or None)
        (alive, the final colour when known).
    """
    final = final_colour
    for piece in cur.islands[:first]:
        if len(piece) != 1:
            return False, final
        colour = cur.pos[piece[0]]
        if final is None:
            final = colour
        elif colour != final:
            return False, final
    return True, final


def moves(cur: Current, first: int, rules: str, final: int | None) -> list[tuple[Move, int]]:
    """The moves tried from a state, each with the first open piece after it.

    Parameters
    ----------
    cur : Current
        The position.
    first : int
        The first piece still open.
    rules : str
        ``"free"`` or ``"pivot"``.
    final : int or None
        The colour the board must end in, when known.

    Returns
    -------
    list of ((node, colour), int)
        The moves kept by the restrictions of the module docstring.
    """
    if rules == "pivot":
        return [(m, 0) for m in pivot_moves(cur, final)]
    out = []
    for i in range(first, len(cur.islands)):
        piece = cur.islands[i]
        if len(piece) == 1:
            v = piece[0]
            targets = range(cur.k) if final is None else (final,)
            out.extend(((v, c), i) for c in targets if c != cur.pos[v])
            continue
        for v in piece:
            out.extend(((v, c), i) for c in range(cur.k) if c != cur.pos[v])
        break  # a later piece can only be started once this one is finished
    return out


def pivot_moves(cur: Current, final: int | None) -> list[Move]:
    """The pivot's moves kept under pivot rules (see the module docstring).

    Parameters
    ----------
    cur : Current
        The position.
    final : int or None
        The colour the board must end in, when asked; else the pieces the pivot cannot
        reach fix it (:func:`kamicp.bounds.pivot_final`).

    Returns
    -------
    list of (node, colour)
        One move when it absorbs a whole colour, else one per neighbouring colour.
    """
    p = cur.pivot
    final = pivot_final(cur, final)
    near: dict[int, int] = {}
    for u in cur.adj[p]:
        near[cur.pos[u]] = near.get(cur.pos[u], 0) + 1
    if not near:  # the pivot's piece is one region: only the final recolouring remains
        return [(p, final)] if final is not None and final != cur.pos[p] else []
    home = cur.islands[cur.island_of[p]]
    total: dict[int, int] = {}
    for v in home:
        total[cur.pos[v]] = total.get(cur.pos[v], 0) + 1
    for c, count in sorted(near.items(), key=lambda item: -item[1]):
        if count == total[c] and c != final:
            return [(p, c)]  # absorbs the whole colour: some optimal solution does it now
    return [(p, c) for c in near]


def last_move_context(v: int, merged: bool, old: int) -> int:
    """What the move just played on node ``v`` tells the next move (free rules, R5 and R6).

    Parameters
    ----------
    v : int
        The node moved.
    merged : bool
        Whether the move merged something.
    old : int
        The colour ``v`` had before the move.

    Returns
    -------
    int
        One number for the table's keys (-1 there: no last move).

    Examples
    --------
    >>> last_move(last_move_context(3, True, 2))
    (3, 2, True)
    """
    return (v * COLOUR_SLOTS + old) * 2 + int(merged)


def last_move(after: int | None) -> tuple[int, int, bool] | None:
    """The (node, colour before, merged) of a :func:`last_move_context`, or None."""
    if after is None or after < 0:
        return None
    rest, merged = divmod(after, 2)
    v, old = divmod(rest, COLOUR_SLOTS)
    return v, old, bool(merged)


def skipped(cur: Current, last: tuple[int, int, bool], near, v: int, c: int, gone) -> bool:
    """Whether the move (v, c) is left out after the last move of the same piece.

    Moves are put in order of (merges something, node): a merging move after a merging one
    as in R5; a move that merges nothing as early as it can stand, before the last move
    unless that move's node touches it and has or had the colour it takes (R6).

    Parameters
    ----------
    cur : Current
        The position after the last move.
    last : tuple of (int, int, bool)
        The last move: (node, colour before, merged), see :func:`last_move`.
    near : set of int
        The last move's node and its neighbours.
    v, c : int
        The move.
    gone : collection of int
        The nodes the move merges.

    Returns
    -------
    bool
        True when some optimal solution plays the two moves the other way.
    """
    node, old, merged = last
    if v == node:  # after a move that merged nothing, two recolourings where one would do
        return not merged
    if gone:  # R5: independent of a merging last move and on a smaller node
        return merged and v < node and v not in near and near.isdisjoint(gone)
    if not merged and v > node:
        return False
    return not (v in cur.adj[node] and c in (old, cur.pos[node]))
