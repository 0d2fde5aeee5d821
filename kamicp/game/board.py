"""The board: coloured cells, their geometry, the rule set, and what the file said about it.

A :class:`Board` is immutable. Colours are small integers indexing ``palette`` (the names
or symbols the input used). Holes are simply absent from ``cells``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace
from functools import lru_cache

from kamicp.errors import InputError
from kamicp.game import geometry

__all__ = [
    "LAYOUTS_KEPT",
    "LAYOUT_CELLS",
    "RULES",
    "Board",
]

RULES = ("free", "pivot")

# Grid boards of at most this many cells share the neighbour lists of their layout (geometry
# and cells in order), kept for the last LAYOUTS_KEPT layouts: a file of a thousand 14x14
# boards makes them once, not once a board (0.13 ms a board, of 5.6 ms a solve). Larger
# boards make their own, so no big board's lists outlive it.
LAYOUT_CELLS = 4096
LAYOUTS_KEPT = 16


@dataclass(frozen=True)
class Board:
    """A flood-fill puzzle.

    ``cells`` maps each present cell (a tuple, or a node id for graph boards) to its colour
    index; ``edges`` is only given for ``graph`` boards, grids derive it from geometry.
    ``order`` lists the cells in reading order (the order of the input).
    """

    geometry: str
    cells: dict
    palette: tuple[str, ...]
    rules: str = "free"
    pivot: object = None
    par: int | None = None
    optimum: int | None = None  # a proved optimum the file lists (floodit-99, shipped puzzles)
    name: str = ""
    width: int | None = None  # KAMI 2 boards: rhombus pairs per row (f5 of the file)
    edges: tuple = ()
    solution: str | None = None  # a designer's solution kept from the file, if any
    source: str | None = None
    order: tuple = field(default=())

    def __post_init__(self):
        if self.geometry not in geometry.GEOMETRIES:
            raise InputError(f"unknown geometry {self.geometry!r}", self.source)
        if self.rules not in RULES:
            raise InputError(f"unknown rules {self.rules!r} (free or pivot)", self.source)
        if not self.cells:
            raise InputError("empty board: no cells", self.source)
        if not self.order:
            object.__setattr__(self, "order", tuple(self.cells))
        if self.pivot is None:
            object.__setattr__(self, "pivot", self.order[0])
        elif self.pivot not in self.cells:
            raise InputError(f"pivot {self.pivot} is not a cell of the board", self.source)

    def adjacency(self) -> dict:
        """Each cell's present neighbours, in a fixed order.

        Returns
        -------
        dict
            Cell -> list of the cells beside it (holes and off-board cells left out).
        """
        if self.geometry == "graph":
            adj = {cell: [] for cell in self.order}
            for a, b in self.edges:
                adj[a].append(b)
                adj[b].append(a)
            return adj
        return _grid_adjacency(self.geometry, self.cells, self.order)

    def neighbour_indices(self) -> tuple[tuple[int, ...], ...]:
        """Each cell's present neighbours by their places in ``order``, as :meth:`adjacency`
        lists them.

        Returns
        -------
        tuple of tuple of int
            Entry i: the places of the cells beside cell ``order[i]``.

        Examples
        --------
        >>> board = Board(geometry="square", cells={(0, 0): 0, (0, 1): 1}, palette=("R", "G"))
        >>> board.neighbour_indices()
        ((1,), (0,))
        """
        if self.geometry == "graph" or len(self.order) > LAYOUT_CELLS:
            return _indices(self.order, self.adjacency())
        return _layout(self.geometry, self.order)

    def digest(self) -> str:
        """A SHA-256 of what defines the puzzle (cells, colours, edges, rules, pivot).

        Name, par and source are left out, and so is the pivot under free rules: the same
        puzzle under another name has the same digest, so batch results and certificates
        follow the puzzle, not the file.

        Returns
        -------
        str
            The digest in hexadecimal.
        """
        canon = {
            "geometry": self.geometry,
            "cells": [[repr(c), self.cells[c]] for c in self.order],
            "palette": list(self.palette),
            "rules": self.rules,
            # the pivot plays no part under free rules: any cell there is the first one
            "pivot": repr(self.pivot if self.rules == "pivot" else self.order[0]),
            "edges": sorted(sorted([repr(a), repr(b)]) for a, b in self.edges),
        }
        text = json.dumps(canon, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def with_colours(self, colours: dict) -> Board:
        """A copy of this board whose cells have the given colours.

        Parameters
        ----------
        colours : dict
            Cell -> palette index, for every cell.

        Returns
        -------
        Board
            The copy.
        """
        return replace(self, cells=dict(colours))

    def with_rules(self, rules: str) -> Board:
        """A copy of this board played under other rules.

        Parameters
        ----------
        rules : str
            "free" or "pivot".

        Returns
        -------
        Board
            The copy.
        """
        return replace(self, rules=rules)


@lru_cache(maxsize=LAYOUTS_KEPT)
def _layout(geometry_name: str, order: tuple) -> tuple[tuple[int, ...], ...]:
    """The neighbour places of a grid layout (:meth:`Board.neighbour_indices`), kept."""
    return _indices(order, _grid_adjacency(geometry_name, set(order), order))


def _grid_adjacency(geometry_name: str, present, order: tuple) -> dict:
    """Each cell of ``order``'s neighbours on the grid that are among ``present``."""
    beside = geometry.NEIGHBOURS[geometry_name]
    return {cell: [other for other in beside(cell) if other in present] for cell in order}


def _indices(order: tuple, adjacency: dict) -> tuple[tuple[int, ...], ...]:
    """``adjacency``'s lists of cells as lists of places in ``order``."""
    place = {cell: i for i, cell in enumerate(order)}
    return tuple(tuple(place[other] for other in adjacency[cell]) for cell in order)
