#!/usr/bin/env python3
"""Check a kamicp certificate of optimality with this file and Python's standard library alone.

Usage: ``python kamicp/proof/standalone.py DIR [--time-limit S] [--quiet]``.

A certificate (``encodings/certificates.md``, the contract this file implements) claims that
k moves is the least that makes a board one colour, under free rules (KAMI 2) or pivot rules
(Flood-It), with a final colour or any. This file shares no code with kamicp: it has its own
reader of ``board.json``, its own neighbour rules, region graph, rules engine and bounds, so
a sceptic can read it alone. It checks:

- the manifest, and the SHA-256 of every file it lists;
- ``board.json``: its digest is the manifest's, its rules, pivot, final colour and geometry
  are the question's;
- ``solution.txt``: k legal moves that leave the board one colour (the final one if given),
  so the optimum is at most k;
- the evidence that k - 1 moves do not suffice:

  - ``trivial``: k = 0 and the start is solved;
  - ``log``: every line of ``refutation.log.gz``, each claim against the claims before it,
    with the bounds ``colours``, ``islands`` (free rules) and ``layers`` (pivot rules) of
    ``encodings/bounds.md`` (Bounds 1, 2, 3-4), each computed here;
  - ``drat``: ``drat-trim horizon.cnf proof.drat`` when ``drat-trim`` is on the PATH; that the
    CNF says "solvable in k - 1 moves" of this board is kamicp's encoder's word;
  - ``kamicp-bound``: not checkable here (kamicp's own bound code).

What the verdict rests on: this file, Python, the proofs of the bounds in
``encodings/bounds.md``, and for ``drat`` drat-trim and kamicp's encoder. The puzzle file of
the certificate is not read: that it is the board of ``board.json`` is ``kamicp verify DIR
PUZZLE``'s check. Exit codes: 0 verified, 1 rejected, 2 bad usage, 3 not fully checked, 130
interrupted.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import math
import re
import shutil
import subprocess
import sys
import zlib
from collections import namedtuple
from pathlib import Path

__all__ = [
    "FORMAT",
    "Around",
    "INFINITE",
    "LOG_FORMAT",
    "Board",
    "CheckError",
    "Game",
    "apply_move",
    "board_digest",
    "check",
    "check_log",
    "children",
    "colours_bound",
    "is_solved",
    "islands_bound",
    "layers_bound",
    "legal_moves",
    "main",
    "make_game",
    "move_problem",
    "neighbours",
    "read_board",
    "region_graph",
]

FORMAT = "kamicp-certificate-2"
LOG_FORMAT = "kamicp-refutation 1"
LOG_FILE = "refutation.log.gz"
EVIDENCE_FILES = {"trivial": (), "log": (LOG_FILE,), "drat": ("horizon.cnf", "proof.drat")}
INFINITE = math.inf  # the bound of a position that no sequence of moves solves
GEOMETRIES = ("square", "triangle", "hex", "kami2", "graph")
RULE_BOUNDS = {"free": ("colours", "islands"), "pivot": ("colours", "layers", "sweep")}
MAX_DIGITS = 18  # a longer number in a log is no region, colour, position or budget here

Board = namedtuple("Board", "geometry palette rules pivot final cells colours edges")
Board.__doc__ = """board.json read: ``cells`` (keys) and ``colours`` (indices) in reading order,
``pivot`` the cell given (or None), ``final`` the final colour's index (or None)."""

Game = namedtuple("Game", "n k adj rules pivot final piece_of pieces start")
Game.__doc__ = """The starting regions 0..n-1: ``adj[r]`` sorted neighbours, ``k`` colours,
``pivot`` the pivot's region, ``final`` a colour index or None, ``piece_of[r]`` r's piece,
``pieces`` the connected components, ``start`` the starting position (a byte per region)."""


class CheckError(Exception):
    """A check that does not hold; the message says why."""


# ---- board.json ---------------------------------------------------------------------------


def _is_int(value) -> bool:
    """Whether a JSON value is an integer (JSON true and false are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _cell(value, geometry: str):
    """A cell or node of board.json as a hashable key: a list is a tuple."""
    if geometry == "graph":
        parts = value if isinstance(value, list) and value else [value]
        if all(_is_int(x) or isinstance(x, str) for x in parts):
            return tuple(value) if isinstance(value, list) else value
        raise CheckError(f"{value!r} is not a node (a string, an integer or a list of them)")
    size = 3 if geometry == "kami2" else 2
    if not (isinstance(value, list) and len(value) == size and all(map(_is_int, value))):
        raise CheckError(f"{value!r} is not a {geometry} cell ({size} integers)")
    if geometry == "kami2" and value[2] not in (0, 1):
        raise CheckError(f"{value!r} is not a kami2 cell (its side is 0 or 1)")
    return tuple(value)


def read_board(data) -> Board:
    """The board of board.json (``data``, as ``json.loads`` gave it), its final colour as a
    palette index; CheckError at the first thing not as encodings/certificates.md says."""
    if not isinstance(data, dict):
        raise CheckError("not a JSON object")
    geometry, palette, rules = data.get("geometry"), data.get("palette"), data.get("rules")
    if geometry not in GEOMETRIES:
        raise CheckError(f"geometry {geometry!r} is none of {', '.join(GEOMETRIES)}")
    if not (isinstance(palette, list) and palette and all(isinstance(s, str) for s in palette)):
        raise CheckError("palette: not a non-empty list of strings")
    if len(set(palette)) != len(palette) or len(palette) > 256:
        raise CheckError("palette: a symbol given twice, or more than 256 colours")
    if rules not in RULE_BOUNDS:
        raise CheckError(f"rules {rules!r} are neither free nor pivot")
    cells, colours, edges = [], [], []
    if not isinstance(data.get("cells"), list) or not data["cells"]:
        raise CheckError("cells: not a non-empty list")
    for pair in data["cells"]:
        if not (isinstance(pair, list) and len(pair) == 2):
            raise CheckError(f"cells: {pair!r} is not a [cell, colour] pair")
        cells.append(_cell(pair[0], geometry))
        if not (_is_int(pair[1]) and 0 <= pair[1] < len(palette)):
            raise CheckError(f"cells: the colour {pair[1]!r} of {pair[0]!r} is no palette index")
        colours.append(pair[1])
    known = set(cells)
    if len(known) != len(cells):
        raise CheckError("cells: a cell given twice")
    given = data.get("edges", [])
    if not isinstance(given, list) or (given and geometry != "graph"):
        raise CheckError("edges: a list, empty but on graph boards")
    for edge in given:
        if not (isinstance(edge, list) and len(edge) == 2):
            raise CheckError(f"edges: {edge!r} is not a pair of nodes")
        edges.append((_cell(edge[0], geometry), _cell(edge[1], geometry)))
        if not known.issuperset(edges[-1]):
            raise CheckError(f"edges: {edge!r} joins a node that is not a cell")
    pivot, final = data.get("pivot"), data.get("final_colour")
    if pivot is not None and _cell(pivot, geometry) not in known:
        raise CheckError(f"pivot {pivot!r} is not a cell")
    if pivot is None and rules == "pivot":
        raise CheckError("pivot rules without a pivot")
    if final is not None and final not in palette:
        raise CheckError(f"final colour {final!r} is not in the palette")
    pivot = None if pivot is None else _cell(pivot, geometry)
    final = None if final is None else palette.index(final)
    return Board(geometry, tuple(palette), rules, pivot, final, cells, colours, edges)


def board_digest(board: Board) -> str:
    """The digest of encodings/certificates.md: SHA-256 (hex) of the board's canonical JSON;
    with no pivot given, the pivot is the first cell."""
    canon = {
        "geometry": board.geometry,
        "palette": list(board.palette),
        "rules": board.rules,
        "cells": [[repr(c), colour] for c, colour in zip(board.cells, board.colours, strict=True)],
        "pivot": repr(board.cells[0] if board.pivot is None else board.pivot),
        "edges": sorted(sorted([repr(a), repr(b)]) for a, b in board.edges),
    }
    text = json.dumps(canon, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def neighbours(geometry: str, cell: tuple) -> list[tuple]:
    """The cells beside a cell of a grid (square, triangle, hex or kami2), holes included."""
    if geometry == "kami2":
        r, p, s = cell
        if s == 0:
            return [(r, p, 1), (r, p - 1, 1), (r - 1, p, 1)]
        return [(r, p, 0), (r, p + 1, 0), (r + 1, p, 0)]
    r, c = cell
    if geometry == "square":
        return [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
    if geometry == "triangle":  # the third side faces left when r + c is even
        return [(r - 1, c), (r + 1, c), (r, c - 1) if (r + c) % 2 == 0 else (r, c + 1)]
    if c % 2 == 0:  # hex, odd columns half a cell lower
        return [(r - 1, c), (r + 1, c), (r - 1, c - 1), (r, c - 1), (r - 1, c + 1), (r, c + 1)]
    return [(r - 1, c), (r + 1, c), (r, c - 1), (r + 1, c - 1), (r, c + 1), (r + 1, c + 1)]


def _groups(adj, colour) -> tuple[list[int], list[list[int]]]:
    """The connected groups of one colour over ``adj``, numbered by their first vertex:
    each vertex's group, and each group's members (its first vertex first)."""
    label, groups = [-1] * len(colour), []
    for first in range(len(colour)):
        if label[first] < 0:
            c, members, number = colour[first], [first], len(groups)
            label[first] = number
            for x in members:  # grows while read: a breadth-first search
                for y in adj[x]:
                    if label[y] < 0 and colour[y] == c:
                        label[y] = number
                        members.append(y)
            groups.append(members)
    return label, groups


def region_graph(board: Board) -> tuple[list[int], list[int], tuple[tuple[int, ...], ...]]:
    """The starting regions, numbered by their first cell in reading order: each cell's
    region, each region's colour, each region's neighbours (sorted)."""
    index = {cell: i for i, cell in enumerate(board.cells)}
    if board.geometry == "graph":
        adj = [set() for _ in board.cells]
        for a, b in board.edges:
            adj[index[a]].add(index[b])
            adj[index[b]].add(index[a])
    else:
        adj = [{index[x] for x in neighbours(board.geometry, c) if x in index} for c in board.cells]
    region, groups = _groups(adj, board.colours)
    near = [set() for _ in groups]
    for x, ys in enumerate(adj):
        near[region[x]].update(region[y] for y in ys if region[y] != region[x])
    colour = [board.colours[members[0]] for members in groups]
    return region, colour, tuple(tuple(sorted(s)) for s in near)


def make_game(board: Board) -> Game:
    """The game on a board's starting regions (the pivot's region is the first cell's when
    no pivot is given; pieces are the connected components, which never merge)."""
    region, colour, adj = region_graph(board)
    pivot = 0 if board.pivot is None else region[board.cells.index(board.pivot)]
    piece_of, pieces = _groups(adj, [0] * len(adj))
    k, final = len(board.palette), board.final
    return Game(len(adj), k, adj, board.rules, pivot, final, piece_of, pieces, bytes(colour))


# ---- rules --------------------------------------------------------------------------------


def _current_region(game: Game, pos: bytes, region: int) -> list[int]:
    """The starting regions of the current region holding ``region``."""
    members, seen, adj = [region], {region}, game.adj
    for x in members:
        for y in adj[x]:
            if y not in seen and pos[y] == pos[region]:
                seen.add(y)
                members.append(y)
    return members


def move_problem(game: Game, pos: bytes, region: int, colour: int) -> str:
    """Why the move (region, colour) is not legal at ``pos``; "" when it is."""
    if not 0 <= region < game.n:
        return f"no region {region} (the board has {game.n})"
    if not 0 <= colour < game.k:
        return f"no colour {colour} (the palette has {game.k})"
    if pos[region] == colour:
        return f"region {region} has colour {colour} already"
    if game.rules == "pivot" and region not in _current_region(game, pos, game.pivot):
        return f"region {region} is not in the pivot's region (pivot rules)"
    return ""


def apply_move(game: Game, pos: bytes, region: int, colour: int) -> bytes:
    """The position after the move (region, colour), which must be legal."""
    after = bytearray(pos)
    for r in _current_region(game, pos, region):
        after[r] = colour
    return bytes(after)


def children(game: Game, pos: bytes):
    """Yield (smallest region, colour, position after) for every move from ``pos``: every
    current region (free rules) or the pivot's (pivot rules), to every other colour."""
    if game.rules == "pivot":
        movable = [sorted(_current_region(game, pos, game.pivot))]
    else:
        movable = _groups(game.adj, pos)[1]  # every current region, its smallest region first
    for members in movable:
        after = bytearray(pos)
        for colour in range(game.k):
            if colour != pos[members[0]]:
                for r in members:
                    after[r] = colour
                yield members[0], colour, bytes(after)


def legal_moves(game: Game, pos: bytes) -> list[tuple[int, int]]:
    """Every move from ``pos``, the region named by its smallest starting region."""
    return [(region, colour) for region, colour, _ in children(game, pos)]


def is_solved(game: Game, pos: bytes) -> bool:
    """Every starting region one colour (the final colour, if one is given)."""
    return pos.count(pos[0]) == len(pos) and game.final in (None, pos[0])


# ---- bounds (encodings/bounds.md) -------------------------------------------------------


def colours_bound(game: Game, pos: bytes) -> int:
    """Bound 1 (colours): the colours present less one, or less the final colour if given."""
    present = set(pos)
    return len(present) - 1 if game.final is None else len(present - {game.final})


def _current_graph(game: Game, pos: bytes) -> tuple[list[list[int]], list[set]]:
    """The current region graph: each node's members (its smallest first) and neighbours."""
    adj, (label, groups) = game.adj, _groups(game.adj, pos)
    near = [{label[y] for x in members for y in adj[x]} for members in groups]
    for v, others in enumerate(near):
        others.discard(v)
    return groups, near


def _radius(nodes: list[int], near: list[set]) -> int:
    """The radius of a connected piece: the least t at which some node's ball (a bitset of
    nodes, grown a step at a time from its neighbours' balls) holds the whole piece."""
    ball = {v: 1 << v for v in nodes}
    full, t = sum(ball.values()), 0
    while full not in ball.values():
        grown = {}
        for v, b in ball.items():
            for u in near[v]:
                b |= ball[u]
            grown[v] = b
        ball, t = grown, t + 1
    return t


def islands_bound(game: Game, pos: bytes) -> int:
    """Bound 2 (islands): min over f of the sum over pieces i of max(rad_i, |C_i less f|),
    f the final colour when given, else each colour present."""
    groups, near = _current_graph(game, pos)
    nodes = [[] for _ in game.pieces]
    for v, members in enumerate(groups):
        nodes[game.piece_of[members[0]]].append(v)
    radii = [_radius(piece, near) for piece in nodes]
    palettes = [{pos[groups[v][0]] for v in piece} for piece in nodes]
    finals = set(pos) if game.final is None else {game.final}
    return min(
        sum(max(r, len(cs - {f})) for r, cs in zip(radii, palettes, strict=True)) for f in finals
    )


def _target(game: Game, pos: bytes) -> tuple[bool, int | None]:
    """F* of Bound 4 (the final colour, else that of the regions outside the pivot's piece,
    which never change, else None), and False when those regions have two colours, or one
    other than the final colour: then nothing solves the position."""
    home = game.piece_of[game.pivot]
    outside = {pos[r] for i, piece in enumerate(game.pieces) if i != home for r in piece}
    target = game.final if game.final is not None else next(iter(outside), None)
    return len(outside | {target}) <= 1, target  # {None}: nothing outside, no final colour


def layers_bound(game: Game, pos: bytes) -> float:
    """Bounds 3-4 (layers, pivot rules): max over 0 <= d < e of d + |C_{>d} with F*|, e the
    pivot's eccentricity in its piece; INFINITE when nothing solves the position."""
    solvable, target = _target(game, pos)
    if not solvable:
        return INFINITE
    adj, seen = game.adj, [False] * game.n
    seen[game.pivot] = True
    ring, layers = [game.pivot], []
    while ring:  # ring: the starting regions at distance len(layers) in the current graph
        for x in ring:  # grows while read: the current regions of the ring, whole
            for y in adj[x]:
                if not seen[y] and pos[y] == pos[x]:
                    seen[y] = True
                    ring.append(y)
        layers.append({pos[x] for x in ring})
        ring, touching = [], ring
        for x in touching:
            for y in adj[x]:
                if not seen[y]:
                    seen[y] = True
                    ring.append(y)
    if len(layers) == 1:
        return int(target is not None and pos[game.pivot] != target)
    best, beyond = 0, set() if target is None else {target}
    for d in range(len(layers) - 2, -1, -1):  # the colours farther than d, growing as d falls
        beyond |= layers[d + 1]
        best = max(best, d + len(beyond))
    return best


def sweep_bound(game: Game, pos: bytes) -> float:
    """Bound 5 (sweep, pivot rules): flood step by step with the lowest colour other than F*
    all of whose regions left lie on the border, else with the whole border; the bound is
    the steps, or t + |the colours left at step t with F*| if larger; INFINITE as layers."""
    solvable, target = _target(game, pos)
    if not solvable:
        return INFINITE
    flood = _current_region(game, pos, game.pivot)
    rest = set(game.pieces[game.piece_of[game.pivot]]) - set(flood)
    border = {y for x in flood for y in game.adj[x]} & rest
    steps = best = 0
    while border:
        left = {pos[r] for r in rest}
        best = max(best, steps + len(left | {target} - {None}))
        steps += 1
        gone = [c for c in sorted(left - {target}) if all(r in border for r in rest if pos[r] == c)]
        grab = border if not gone else {r for r in border if pos[r] == gone[0]}
        rest -= grab
        border = (border | {y for x in grab for y in game.adj[x]}) & rest
    return max(best, steps)


BOUNDS = {"colours": colours_bound, "islands": islands_bound, "layers": layers_bound,
          "sweep": sweep_bound}  # fmt: skip


# ---- the proof log -------------------------------------------------------------------------


def _number(text: str, what: str) -> int:
    """A non-negative decimal number of a log line."""
    if not (0 < len(text) <= MAX_DIGITS and text.isascii() and text.isdigit()):
        raise CheckError(f"{what} {text[:30]!r} is not a number of at most {MAX_DIGITS} digits")
    return int(text)


def _header(lines, game: Game, horizon: int) -> None:
    """Check the three header lines against the board and H = k - 1."""
    final = "-" if game.final is None else str(game.final)
    want = [
        LOG_FORMAT,
        f"regions {game.n} colours {game.k} rules {game.rules} final {final}",
        f"horizon {horizon}",
    ]
    for number, expected in enumerate(want, 1):
        line = next(lines, None)
        if line is None:
            raise CheckError(f"line {number}: missing, expected {expected!r}")
        if line.rstrip("\n") != expected:
            raise CheckError(f"line {number}: {line.rstrip()[:80]!r}, expected {expected!r}")


def check_log(game: Game, text, horizon: int) -> str:
    """Check a proof log (``text``: its lines) that H = ``horizon`` moves do not solve the
    start: every line in order, each claim against the claims before it. Returns what the
    log held; CheckError at the first line that does not hold (numbered from 1), or when
    the start is not claimed for H."""
    lines = iter(text)
    _header(lines, game, horizon)
    positions, claims = [game.start], {}
    counts = {"P": 0, "E": 0, "F": 0, "C": 0}
    cuts = dict.fromkeys(RULE_BOUNDS[game.rules], 0)
    for number, line in enumerate(lines, 4):
        try:
            _record(game, line.rstrip("\n").split(" "), positions, claims, cuts, counts)
        except CheckError as err:
            raise CheckError(f"line {number}: {err}") from None
    best = claims.get(positions[0], -1)
    if best < horizon:
        said = f"for {_count(best, 'move')} at most" if best >= 0 else "by no line"
        raise CheckError(f"the start is claimed {said}, not for H = {horizon}")
    named = "".join(f", {n} by {name}" for name, n in cuts.items() if n)
    claimed = _count(counts["E"] + counts["F"] + counts["C"], "claim")
    return (
        f"{_count(counts['P'] + 1, 'position')}, {claimed} ({counts['E']} expanded, "
        f"{counts['F']} forced, {counts['C']} cut{named}): the start cannot be solved in "
        f"{_count(horizon, 'move')}"
    )


def _count(n: int, word: str) -> str:
    """``n`` and the word, plural unless n is 1."""
    return f"{n} {word}" + ("" if n == 1 else "s")


def _record(game, fields, positions, claims, cuts, counts) -> None:
    """Check one line of the log (split at spaces) and record what it defines or claims."""
    tag = fields[0]
    if tag == "P" and len(fields) == 4:
        parent = _number(fields[1], "parent")
        region, colour = _number(fields[2], "region"), _number(fields[3], "colour")
        if parent >= len(positions):
            raise CheckError(f"parent {parent} is not an earlier position")
        problem = move_problem(game, positions[parent], region, colour)
        if problem:
            raise CheckError(f"P {parent} {region} {colour}: {problem}")
        positions.append(apply_move(game, positions[parent], region, colour))
    elif tag in ("E", "F", "C") and len(fields) == (4 if tag == "C" else 3):
        x, d = _number(fields[1], "position"), _number(fields[2], "budget")
        if x >= len(positions):
            raise CheckError(f"position {x} is not defined before")
        pos = positions[x]
        if tag in ("E", "F"):
            _expanded(game, pos, x, d, claims, forced=tag == "F")
        else:
            name = fields[3]
            if name not in RULE_BOUNDS[game.rules]:
                raise CheckError(f"C: no bound {name[:30]!r} under {game.rules} rules")
            value = BOUNDS[name](game, pos)
            if not value > d:
                raise CheckError(f"C {x} {d} {name}: the bound is {value}, not above {d}")
            cuts[name] += 1
        if claims.get(pos, -1) < d:
            claims[pos] = d
    else:
        raise CheckError(f"{' '.join(fields)[:80]!r} is no P, E, F or C record")
    counts[tag] += 1


def _eliminating(game: Game, pos: bytes) -> int | None:
    """R7 (pivot rules): the lowest colour other than F* all of whose regions outside the
    pivot's region touch it, or None."""
    flood = set(_current_region(game, pos, game.pivot))
    border = {y for x in flood for y in game.adj[x]} - flood
    outside = [r for r in range(game.n) if r not in flood]
    for c in sorted({pos[r] for r in outside} - {_target(game, pos)[1]}):
        if all(r in border for r in outside if pos[r] == c):
            return c
    return None


def _expanded(game: Game, pos: bytes, x: int, d: int, claims: dict, forced: bool) -> None:
    """``E x d``: x is not solved and every move from it is covered for d - 1; ``F x d``
    (pivot rules): the same for the colour-eliminating move alone (encodings/bounds.md, R7)."""
    if is_solved(game, pos):
        raise CheckError(f"E {x} {d}: position {x} is solved")
    moves = children(game, pos)
    if forced:
        colour = _eliminating(game, pos) if game.rules == "pivot" else None
        if colour is None:
            raise CheckError(f"F {x} {d}: no colour-eliminating move (pivot rules) here")
        moves = [move for move in moves if move[1] == colour]
    if d == 0:
        return
    need = d - 1
    around = Around(game, pos) if game.rules == "free" else None
    for region, colour, child in moves:
        if claims.get(child, -1) >= need or colours_bound(game, child) > need:
            continue
        if around:
            bound = around.islands_after(region, colour)
        else:
            bound = max(layers_bound(game, child), sweep_bound(game, child))
        if bound <= need:
            raise CheckError(
                f"E {x} {d}: the move ({region}, {colour}) leads to a position that no earlier "
                f"claim and no default bound covers for {need} moves"
            )


class Around:
    """A position's current region graph with the distances inside each piece, from which the
    islands bound after any move is found without building the next graph.

    A move contracts a star S (the node moved and its neighbours of the new colour) into one
    node s; for nodes u, w outside S the new distance is min(d(u, w), d(u, S) + d(S, w)) and
    d(u, s) = d(u, S). By encodings/bounds.md, Lemma 1, a piece's radius r falls by at most
    one, and by Lemma 2, when it falls some centre of the new graph is s or a neighbour of an
    old centre: only those are tried.
    """

    def __init__(self, game: Game, pos: bytes):
        self.game, self.pos = game, pos
        self.label, groups = _groups(game.adj, pos)
        self.colour = [pos[ms[0]] for ms in groups]
        near = [
            {self.label[y] for m in ms for y in game.adj[m]} - {v} for v, ms in enumerate(groups)
        ]
        self.near = near
        self.piece = [game.piece_of[ms[0]] for ms in groups]
        self.nodes = [[] for _ in game.pieces]
        for v, i in enumerate(self.piece):
            self.nodes[i].append(v)
        self.local = [0] * len(groups)  # a node's place in its piece's distance rows
        for nodes in self.nodes:
            for place, v in enumerate(nodes):
                self.local[v] = place
        self.dist = [self._distances(v) for v in range(len(groups))]
        self.far: dict[int, list[int]] = {}  # a node's far places (_far), kept
        self.radius, self.centres = [], []
        for nodes in self.nodes:
            ecc = [max(self.dist[v]) for v in nodes]
            r = min(ecc)
            self.radius.append(r)
            self.centres.append([v for v, e in zip(nodes, ecc, strict=True) if e == r])

    def _far(self, u: int, r: int) -> list[int]:
        """The places of the nodes at distance r or more from u, in u's piece."""
        if u not in self.far:
            self.far[u] = [w for w, t in enumerate(self.dist[u]) if t >= r]
        return self.far[u]

    def _distances(self, v: int) -> list[int]:
        """The distances from v to the nodes of its piece, in their order (a search)."""
        row = [-1] * len(self.nodes[self.piece[v]])
        row[self.local[v]] = 0
        ring, t = [v], 0
        while ring:
            t += 1
            nxt = []
            for w in ring:
                for u in self.near[w]:
                    if row[self.local[u]] < 0:
                        row[self.local[u]] = t
                        nxt.append(u)
            ring = nxt
        return row

    def islands_after(self, region: int, colour: int) -> int:
        """Bound 2 (islands) of the position after the move (region, colour)."""
        v = self.label[region]
        star = {v} | {u for u in self.near[v] if self.colour[u] == colour}
        i, r = self.piece[v], self.radius[self.piece[v]]
        if len(self.nodes[i]) == len(star):
            r = 0  # the piece becomes one node
        elif r > 0:
            to_star = [min(t) for t in zip(*(self.dist[y] for y in star), strict=True)]
            tried = {u for c in self.centres[i] for u in (c, *self.near[c])} - star
            # s is a centre at r - 1, or u is: its nodes r or more away (never none) are within
            # r - 1 through s; the rows hold the star's own nodes too, at distance 0 from s
            if max(to_star) < r or any(
                all(to_star[w] <= r - 1 - to_star[self.local[u]] for w in self._far(u, r))
                for u in tried
            ):
                r -= 1
        palettes = []
        for j, nodes in enumerate(self.nodes):
            cs = {self.colour[u] for u in nodes if j != i or u not in star}
            palettes.append(cs | {colour} if j == i else cs)
        radii = [r if j == i else self.radius[j] for j in range(len(self.nodes))]
        finals = set().union(*palettes) if self.game.final is None else {self.game.final}
        return min(
            sum(max(rad, len(cs - {f})) for rad, cs in zip(radii, palettes, strict=True))
            for f in finals
        )


# ---- the certificate -----------------------------------------------------------------------


class _Report:
    """The lines of a check, and whether any failed or was skipped."""

    def __init__(self):
        self.lines: list[str] = []
        self.failed = self.skipped = False
        self.checked: list[str] = []
        self.trusted: list[str] = []

    def ok(self, name: str, detail: str) -> None:
        """A check that passed."""
        self.lines.append(f"ok   {name}: {detail}")

    def fail(self, name: str, detail: str) -> None:
        """A check that failed."""
        self.failed = True
        self.lines.append(f"FAIL {name}: {detail}")

    def skip(self, name: str, detail: str) -> None:
        """A check that could not be made."""
        self.skipped = True
        self.lines.append(f"skip {name}: {detail}")


def _load_json(path: Path):
    """The JSON value of a file (NaN and infinities refused)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CheckError(f"{path.name} is missing") from None
    except (OSError, UnicodeDecodeError) as err:
        raise CheckError(f"{path.name} cannot be read ({err})") from None
    try:
        return json.loads(text, parse_constant=_no_constant)
    except ValueError as err:
        raise CheckError(f"{path.name} is not JSON ({err})") from None


def _no_constant(name: str):
    """Refuse NaN and Infinity in JSON."""
    raise ValueError(f"{name} is not JSON")


def _read_manifest(folder: Path) -> dict:
    """The manifest, with the fields every check needs, of the right types."""
    manifest = _load_json(folder / "manifest.json")
    if not isinstance(manifest, dict):
        raise CheckError("manifest.json is not a JSON object")
    if manifest.get("format") != FORMAT:
        raise CheckError(f"format {manifest.get('format')!r}, not {FORMAT!r}")
    question, evidence = manifest.get("question"), manifest.get("evidence")
    if not isinstance(question, dict) or not isinstance(question.get("digest"), str):
        raise CheckError("question: not an object with a digest")
    k = manifest.get("optimum")
    if not (_is_int(k) and k >= 0):
        raise CheckError(f"optimum {k!r} is not a natural number")
    if not (isinstance(evidence, dict) and isinstance(evidence.get("kind"), str)):
        raise CheckError("evidence: not an object with a kind")
    files = manifest.get("files")
    if not (isinstance(files, dict) and all(isinstance(v, str) for v in files.values())):
        raise CheckError("files: not an object of file names and SHA-256 digests")
    return manifest


def _question_lines(manifest: dict) -> list[str]:
    """The question the certificate answers, a line per part."""
    q = manifest["question"]
    rules = str(q.get("rules"))
    final = q.get("final_colour")
    return [
        f"puzzle:       {q.get('name', '?')}",
        f"digest:       {q['digest']}",
        f"geometry:     {q.get('geometry', '?')}",
        f"rules:        {rules}" + (f", pivot {q.get('pivot')!r}" if rules == "pivot" else ""),
        f"final colour: {'any' if final is None else final}",
        f"claim:        the optimum is {manifest['optimum']} moves",
    ]


def _sha256(path: Path) -> str:
    """The SHA-256 of a file, in hex."""
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _check_files(report: _Report, folder: Path, manifest: dict) -> None:
    """Every listed file present with its SHA-256; board, solution and evidence listed."""
    files, kind = manifest["files"], manifest["evidence"]["kind"]
    needed = ("board.json", "solution.txt", *EVIDENCE_FILES.get(kind, ()))
    problems = [f"{name} is not listed" for name in needed if name not in files]
    for name, digest in sorted(files.items()):
        if not name or name in (".", "..") or any(ch in name for ch in "/\\\0"):
            problems.append(f"{name!r} is not a file name of the folder")
        elif not (folder / name).is_file():
            problems.append(f"{name} is missing")
        elif _sha256(folder / name) != digest.lower():
            problems.append(f"{name} does not match its SHA-256")
    if problems:
        report.fail("files", "; ".join(problems))
    else:
        report.ok("files", f"{len(files)} files match their SHA-256 ({', '.join(sorted(files))})")


def _check_question(report: _Report, board: Board, manifest: dict) -> None:
    """The manifest's question agrees with board.json."""
    q = manifest["question"]
    problems = []
    for field, ours in (("geometry", board.geometry), ("rules", board.rules)):
        if q.get(field) != ours:
            problems.append(f"{field} {q.get(field)!r} in the manifest, {ours!r} in board.json")
    final = None if board.final is None else board.palette[board.final]
    if q.get("final_colour") != final:
        problems.append(f"final colour {q.get('final_colour')!r}, board.json {final!r}")
    pivot = q.get("pivot")
    try:
        pivot = None if pivot is None else _cell(pivot, board.geometry)
    except CheckError as err:
        problems.append(f"pivot: {err}")
    if pivot != (board.pivot if board.rules == "pivot" else None):
        problems.append(f"pivot {q.get('pivot')!r} in the manifest, {board.pivot!r} in board.json")
    if problems:
        report.fail("question", "; ".join(problems))
    else:
        report.ok("question", "geometry, rules, pivot and final colour are board.json's")


TOKEN = re.compile(r"#([0-9]{1,18}):(.+)", re.DOTALL)


def _check_solution(report: _Report, folder: Path, board: Board, game: Game, k: int) -> None:
    """solution.txt: k legal moves that solve the board."""
    try:
        text = (folder / "solution.txt").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as err:
        report.fail("solution", f"solution.txt cannot be read ({err})")
        return
    # A move is #N:COLOUR; a colour symbol may hold spaces, so moves split where #N: begins.
    tokens = re.split(r"\s+(?=#[0-9]+:)", text) if text else []
    pos = game.start
    for number, token in enumerate(tokens, 1):
        match = TOKEN.fullmatch(token)
        if not match or match.group(2) not in board.palette:
            report.fail("solution", f"move {number}: {token[:40]!r} is not #REGION:COLOUR")
            return
        region, colour = int(match.group(1)), board.palette.index(match.group(2))
        problem = move_problem(game, pos, region, colour)
        if problem:
            report.fail("solution", f"move {number} ({token}): {problem}")
            return
        pos = apply_move(game, pos, region, colour)
    if not is_solved(game, pos):
        end = "not one colour" if pos.count(pos[0]) != len(pos) else "not in the final colour"
        report.fail("solution", f"after its {len(tokens)} moves the board is {end}")
    elif len(tokens) != k:
        report.fail("solution", f"{len(tokens)} moves solve the board, the claim is {k}")
    else:
        report.ok("solution", f"{k} legal moves leave the board one colour: optimum <= {k}")
        report.checked.append(f"the solution of {k} moves (this file's rules engine)")


def _check_log(report: _Report, folder: Path, game: Game, k: int) -> None:
    """Evidence ``log``: refutation.log.gz refutes k - 1 moves."""
    if k == 0:
        report.fail("log", "a log refutes k - 1 moves, and k is 0 (the evidence is trivial)")
        return
    try:
        with gzip.open(folder / LOG_FILE, "rt", encoding="utf-8", newline="\n") as stream:
            detail = check_log(game, stream, k - 1)
    except CheckError as err:
        report.fail("log", str(err))
        return
    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as err:
        report.fail("log", f"{LOG_FILE} is not a gzip-compressed UTF-8 log ({err})")
        return
    report.ok("log", detail + f": optimum >= {k}")
    bounds = " and ".join(RULE_BOUNDS[game.rules])
    report.checked.append(f"the proof log (this file's rules engine and its bounds {bounds})")
    lemmas = " (with Lemmas 1-2)" if game.rules == "free" else ""
    report.trusted.append(f"the proofs of the bounds {bounds}{lemmas} in encodings/bounds.md")


def _check_drat(report: _Report, folder: Path, manifest: dict, time_limit) -> None:
    """Evidence ``drat``: drat-trim refutes horizon.cnf, when it is on the PATH."""
    k = manifest["optimum"]
    if manifest["evidence"].get("horizon") != k - 1:
        report.fail("drat", f"horizon {manifest['evidence'].get('horizon')!r}, not k - 1 = {k - 1}")
        return
    tie = "that horizon.cnf says 'solvable in k - 1 moves' of this board (kamicp's encoder)"
    report.trusted.append(tie + "; kamicp verify DIR rebuilds the CNF and compares it")
    exe = shutil.which("drat-trim")
    if exe is None:
        report.skip("drat", "drat-trim is not on the PATH: the DRAT refutation is unchecked")
        return
    cmd = [exe, str(folder / "horizon.cnf"), str(folder / "proof.drat")]
    if time_limit is not None:
        cmd += ["-t", str(max(1, int(time_limit)))]
    try:
        done = subprocess.run(
            cmd,
            capture_output=True,
            text=True,
            errors="replace",
            check=False,
            timeout=None if time_limit is None else time_limit + 5,
        )
    except subprocess.TimeoutExpired:
        report.skip("drat", f"drat-trim did not finish within {time_limit} s")
        return
    except OSError as err:
        report.skip("drat", f"drat-trim did not run ({err})")
        return
    verdicts = [line.strip() for line in done.stdout.splitlines() if line.startswith("s ")]
    if "s VERIFIED" in verdicts:
        report.ok("drat", f"drat-trim: s VERIFIED (horizon {k - 1}); the CNF rests on {tie}")
        report.checked.append("the DRAT refutation of horizon.cnf (drat-trim)")
        report.trusted.append("drat-trim")
    elif "TIMEOUT" in done.stdout.upper():
        report.skip("drat", "drat-trim ran out of time")
    else:
        said = (verdicts or [f"exit code {done.returncode}"])[-1]
        report.fail("drat", f"drat-trim: {said}")


def _check_evidence(report, folder, manifest, board, game, time_limit) -> None:
    """The evidence that k - 1 moves do not solve the board, by its kind."""
    kind, k = manifest["evidence"]["kind"], manifest["optimum"]
    if kind == "trivial":
        if k == 0 and is_solved(game, game.start):
            report.ok("trivial", "the start is already solved: optimum 0")
        else:
            report.fail("trivial", f"the optimum is {k} and the start is not solved")
    elif kind == "log":
        _check_log(report, folder, game, k)
    elif kind == "drat":
        _check_drat(report, folder, manifest, time_limit)
    elif kind == "kamicp-bound":
        name, value = manifest["evidence"].get("bound"), manifest["evidence"].get("value")
        if not (_is_int(value) and value >= k):
            report.fail("kamicp-bound", f"bound {name!r} is {value!r}, not k = {k} or more")
        else:
            report.skip("kamicp-bound", f"bound {name} = {value} rests on kamicp's own bound code")
            report.trusted.append(f"kamicp's bound {name} (kamicp verify DIR recomputes it)")
    else:
        report.fail("evidence", f"unknown kind {kind!r}")


def _check_board(report: _Report, folder: Path, manifest: dict):
    """Read board.json and compare its digest with the question's; the board, or None."""
    try:
        board = read_board(_load_json(folder / "board.json"))
    except CheckError as err:
        report.fail("board", f"board.json: {err}")
        return None
    region = region_graph(board)[0]
    report.ok(
        "board",
        f"{board.geometry}, {len(board.cells)} cells, {len(board.palette)} colours, "
        f"{max(region) + 1} starting regions",
    )
    digest = board_digest(board)
    if digest != manifest["question"]["digest"]:
        report.fail("digest", f"board.json's digest is {digest}, the manifest's is not")
    else:
        report.ok("digest", "board.json's digest is the question's")
    return board


def _run_checks(report: _Report, folder: Path, drat_time_limit) -> None:
    """Every check, in order; the question first."""
    try:
        manifest = _read_manifest(folder)
    except CheckError as err:
        report.fail("manifest", str(err))
        return
    report.lines.extend([*_question_lines(manifest), ""])
    report.ok("manifest", f"format {FORMAT}, evidence {manifest['evidence']['kind']}")
    _check_files(report, folder, manifest)
    report.checked.append("the files against the manifest's SHA-256")
    board = _check_board(report, folder, manifest)
    if board is None:
        report.skip("solution", "no board to play it on")
        return
    report.checked.append("board.json against the question and its digest")
    _check_question(report, board, manifest)
    game = make_game(board)
    _check_solution(report, folder, board, game, manifest["optimum"])
    _check_evidence(report, folder, manifest, board, game, drat_time_limit)


def check(dir_path, drat_time_limit: float | None = None) -> tuple[int, list[str]]:
    """Check the certificate in the folder ``dir_path`` (drat-trim, if run, stopped after
    ``drat_time_limit`` seconds): the exit code (0 verified, 1 rejected, 3 not fully checked)
    and the lines to print: the question, a line per check, what was checked and trusted,
    the verdict."""
    report, folder = _Report(), Path(dir_path)
    try:
        _run_checks(report, folder, drat_time_limit)
    except Exception as err:  # noqa: BLE001 - malformed input is a failed check, never a crash
        report.fail("check", f"stopped by {type(err).__name__}: {str(err)[:200]}")
    report.lines.append("")
    if report.checked:
        report.lines.append("checked: " + "; ".join(report.checked))
    report.trusted[:0] = ["this file and Python"]
    report.trusted.append("not read here: the puzzle file (kamicp verify DIR PUZZLE ties it)")
    report.lines.append("trusted: " + "; ".join(report.trusted))
    code = 1 if report.failed else 3 if report.skipped else 0
    report.lines.append({0: "certificate verified", 1: "certificate REJECTED"}.get(
        code, "certificate not fully checked"))  # fmt: skip
    return code, report.lines


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr (exit 2)."""

    def error(self, message: str):
        """Say what is wrong in one line and exit with 2."""
        self.exit(2, f"{self.prog}: {message}\n")


def main(argv: list[str] | None = None) -> int:
    """Run the checker on ``argv`` (default ``sys.argv[1:]``): 0 verified, 1 rejected, 2 bad
    usage, 3 not fully checked, 130 interrupted."""
    parser = _Parser(prog="standalone.py", description="Check a kamicp certificate.")
    parser.add_argument("dir", help="the certificate's folder")
    parser.add_argument("--time-limit", type=float, metavar="S", help="seconds for drat-trim")
    parser.add_argument("--quiet", action="store_true", help="print failures and the verdict")
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        return int(stop.code or 0)
    if not Path(args.dir).is_dir():
        print(f"standalone.py: {args.dir}: no such folder", file=sys.stderr)
        return 2
    if args.time_limit is not None and not args.time_limit > 0:
        print("standalone.py: --time-limit must be a positive number of seconds", file=sys.stderr)
        return 2
    try:
        code, lines = check(args.dir, args.time_limit)
    except KeyboardInterrupt:  # Ctrl-C: one line, no traceback
        print("standalone.py: interrupted", file=sys.stderr)
        return 130
    for line in lines:
        if not args.quiet or line.startswith(("FAIL", "skip")) or line is lines[-1]:
            print(line)
    return code


if __name__ == "__main__":
    sys.exit(main())
