"""The region graph: one node per one-colour connected region, edges between touching regions.

Every solver works on a :class:`RegionGraph`. Regions are numbered 0..n-1 in the reading
order of their first cell, so the numbering is stable and the pivot's region is found from
the pivot cell. Contraction is linear in cells plus cell sides (:mod:`kamicp.game.labels`);
networkx serves the conversions and :attr:`RegionGraph.graph` alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from kamicp.errors import InputError
from kamicp.game.board import Board
from kamicp.game.labels import gc_paused, label_cells, label_grid
from kamicp.procs.deadline import Deadline, LimitReached

if TYPE_CHECKING:  # annotations only: networkx loads where a graph is asked for
    import networkx as nx

__all__ = [
    "COMPILED_CELLS",
    "MEASURE_NODES",
    "RegionGraph",
    "distances",
    "from_edges",
    "measures",
    "region_graph",
    "subgraph",
]


# Boards of more cells than this are labelled in compiled code, smaller ones in Python, where
# loading Numba's cached loop (0.3 s when nothing else has loaded Numba) would cost more than
# the search (BENCHMARKS.md, "Big boards": 100x100 in 0.07 s in Python, 500x500 in 3.6 s in
# Python against 0.7 s compiled).
COMPILED_CELLS = 10_000

# Radius and diameter are measured on islands of at most this many regions: a search from
# every region is quadratic (BENCHMARKS.md, "Big boards": 1323 regions, 50x50, take 0.9 s).
MEASURE_NODES = 2000


@dataclass(frozen=True, eq=False)
class RegionGraph:
    """Regions of a board.

    ``colour[i]`` is region i's colour, ``adj[i]`` its neighbours (sorted tuple),
    ``cells[i]`` its cells in reading order, ``region_of`` maps a cell to its region.
    ``k`` is the palette size; ``pivot`` the pivot's region (used under pivot rules).
    """

    colour: tuple[int, ...]
    adj: tuple[tuple[int, ...], ...]
    cells: tuple[tuple, ...]
    region_of: dict
    k: int
    pivot: int
    rules: str
    palette: tuple[str, ...]

    @property
    def n(self) -> int:
        """The number of regions.

        Returns
        -------
        int
            n, the regions being 0..n-1.
        """
        return len(self.colour)

    @cached_property
    def graph(self) -> nx.Graph:
        """The region graph as a networkx graph, nodes carrying ``colour``.

        Returns
        -------
        networkx.Graph
            Nodes 0..n-1 with attribute ``colour`` (a palette index); computed once.
        """
        # networkx loads only where a graph is asked for: it costs 0.17 s of start-up
        import networkx as nx

        g = nx.Graph()
        for i, c in enumerate(self.colour):
            g.add_node(i, colour=c)
        g.add_edges_from((i, j) for i in range(self.n) for j in self.adj[i] if i < j)
        return g

    @cached_property
    def islands(self) -> list[list[int]]:
        """The connected pieces, each a sorted list of regions, in order of first region.

        Returns
        -------
        list of list of int
            The pieces; computed once.
        """
        seen = [False] * self.n
        pieces = []
        for v in range(self.n):
            if not seen[v]:
                seen[v] = True
                piece = [v]
                for u in piece:  # grows while it is read: a breadth-first search
                    for w in self.adj[u]:
                        if not seen[w]:
                            seen[w] = True
                            piece.append(w)
                pieces.append(sorted(piece))
        return pieces

    @cached_property
    def pivot_island(self) -> list[int]:
        """The piece of :attr:`islands` that holds the pivot's region (the one piece that
        moves under pivot rules).

        Returns
        -------
        list of int
            That piece, the same list object as in :attr:`islands`; computed once.
        """
        return next(piece for piece in self.islands if self.pivot in piece)

    def colours_present(self) -> set[int]:
        """The colours some region has.

        Returns
        -------
        set of int
            Their palette indices.
        """
        return set(self.colour)

    def edges(self) -> list[tuple[int, int]]:
        """Every edge once, as (smaller region, larger region).

        Returns
        -------
        list of (int, int)
            The edges, by first then second region.
        """
        return [(i, j) for i in range(self.n) for j in self.adj[i] if i < j]

    @classmethod
    def from_networkx(
        cls,
        graph: nx.Graph,
        colour: str = "colour",
        rules: str | None = None,
        pivot=None,
        palette: tuple | None = None,
    ) -> RegionGraph:
        """The region graph of a networkx graph whose nodes carry a colour.

        Adjacent nodes of one colour are contracted into one region, as for any board.

        Parameters
        ----------
        graph : networkx.Graph
            Undirected; every node has the attribute ``colour`` (any hashable value:
            a name such as ``"red"`` or a number).
        colour : str
            The name of the node attribute that holds the colour.
        rules : {"free", "pivot"}, optional
            The rule set; default ``graph.graph["rules"]`` if set, else ``"free"``.
        pivot : node, optional
            The pivot node (pivot rules); default ``graph.graph["pivot"]`` if set, else the
            first node.
        palette : tuple, optional
            Every colour of the puzzle in order (colours may be missing from the graph);
            default ``graph.graph["palette"]`` if set, else the colours in order of
            first appearance.

        Returns
        -------
        RegionGraph
            Regions numbered in the order of their first node.

        Raises
        ------
        kamicp.errors.InputError
            A node without the colour attribute, a colour outside ``palette``, an empty
            graph, a directed graph, or a pivot that is not a node.

        Examples
        --------
        >>> import networkx as nx
        >>> G = nx.path_graph(4)
        >>> nx.set_node_attributes(G, {0: "red", 1: "red", 2: "blue", 3: "red"}, "colour")
        >>> g = RegionGraph.from_networkx(G)
        >>> g.n, g.colour, g.palette
        (3, (0, 1, 0), ('red', 'blue'))
        >>> sorted(g.to_networkx().edges)
        [(0, 1), (1, 2)]
        """
        if graph.is_directed():
            raise InputError("a region graph is undirected (use an nx.Graph)")
        meta = graph.graph
        nodes = list(graph.nodes)
        missing = [v for v in nodes if colour not in graph.nodes[v]]
        if missing:
            raise InputError(f"node {missing[0]!r} has no {colour!r} attribute")
        if palette is None:
            palette = meta.get("palette") or tuple(
                dict.fromkeys(graph.nodes[v][colour] for v in nodes)
            )
        palette = tuple(palette)
        index = {name: i for i, name in enumerate(palette)}
        if len(index) != len(palette):
            raise InputError("the palette names a colour twice")
        cells = {}
        for v in nodes:
            name = graph.nodes[v][colour]
            if name not in index:
                raise InputError(f"node {v!r} has colour {name!r}, not in the palette")
            cells[v] = index[name]
        board = Board(
            geometry="graph",
            cells=cells,
            palette=tuple(str(name) for name in palette),
            rules=rules or meta.get("rules", "free"),
            pivot=pivot if pivot is not None else meta.get("pivot"),
            edges=tuple((a, b) for a, b in graph.edges if a != b),
            order=tuple(nodes),
        )
        return region_graph(board)

    def to_networkx(self) -> nx.Graph:
        """This region graph as a new networkx graph.

        Returns
        -------
        networkx.Graph
            Nodes ``0..n-1`` (the regions) with attributes ``colour`` (the colour's name
            in the palette) and ``size`` (cells in the region); graph attributes
            ``palette``, ``rules`` and ``pivot``, so that :meth:`from_networkx` gives this
            region graph back.
        """
        # networkx loads only where a graph is asked for: it costs 0.17 s of start-up
        import networkx as nx

        g = nx.Graph(palette=self.palette, rules=self.rules, pivot=self.pivot)
        for i, c in enumerate(self.colour):
            g.add_node(i, colour=self.palette[c], size=len(self.cells[i]))
        g.add_edges_from(self.edges())
        return g


def distances(g: RegionGraph, source: int, cutoff: int | None = None) -> dict[int, int]:
    """Hop distances from ``source`` to the regions of its piece.

    A breadth-first search.

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    source : int
        A region.
    cutoff : int or None
        Only the regions within this many hops, if given.

    Returns
    -------
    dict
        Region -> hops from ``source``.

    Notes
    -----
    O(n + m).

    Examples
    --------
    >>> g = from_edges([0, 1, 0, 2], [(0, 1), (1, 2), (2, 3)])
    >>> sorted(distances(g, 0).items())
    [(0, 0), (1, 1), (2, 2), (3, 3)]
    """
    far = {source: 0}
    layer = [source]
    hops = 0
    while layer and (cutoff is None or hops < cutoff):
        hops += 1
        following = []
        for u in layer:
            for w in g.adj[u]:
                if w not in far:
                    far[w] = hops
                    following.append(w)
        layer = following
    return far


def region_graph(board: Board, deadline: float | None = None) -> RegionGraph:
    """Contract ``board`` into its region graph.

    Parameters
    ----------
    board : Board
        The puzzle.
    deadline : float or None
        A ``time.monotonic()`` value; the work stops within a fraction of a second of it.

    Returns
    -------
    RegionGraph
        One region per one-colour connected group of cells, numbered in the reading order
        of their first cell.

    Raises
    ------
    kamicp.procs.deadline.LimitReached
        Once ``deadline`` has passed.

    Notes
    -----
    O(cells + cell sides): compiled on grid boards above :data:`COMPILED_CELLS` cells
    (:func:`~kamicp.game.labels.label_grid`), a search in Python otherwise.

    Examples
    --------
    >>> from kamicp.game.board import Board
    >>> cells = {(0, 0): 0, (0, 1): 0, (1, 0): 1, (1, 1): 0}
    >>> g = region_graph(Board(geometry="square", cells=cells, palette=("R", "G")))
    >>> g.colour, g.adj
    ((0, 1), ((1,), (0,)))
    """
    with gc_paused():
        labels = label_grid(board, deadline) if len(board.cells) > COMPILED_CELLS else None
        if labels is None:  # a small board, or not a grid dense enough for the array
            labels = label_cells(board, deadline)
    return RegionGraph(
        colour=labels.colour,
        adj=labels.adj,
        cells=labels.groups,
        region_of=labels.group_of,
        k=len(board.palette),
        pivot=labels.group_of[board.pivot],
        rules=board.rules,
        palette=board.palette,
    )


def from_edges(
    colour: list[int],
    edges: list[tuple[int, int]],
    k: int | None = None,
    rules: str = "free",
    pivot: int = 0,
) -> RegionGraph:
    """A region graph straight from colours and edges (test and model helper).

    Adjacent nodes of one colour are contracted, as for any board.

    Parameters
    ----------
    colour : list of int
        Node i's colour.
    edges : list of (int, int)
        The edges between nodes.
    k : int or None
        The palette size; None for ``max(colour) + 1``.
    rules : str
        "free" or "pivot".
    pivot : int
        The pivot node (pivot rules).

    Returns
    -------
    RegionGraph
        Its palette is "0", "1", ...

    Examples
    --------
    >>> from_edges([0, 0, 1], [(0, 1), (1, 2)]).colour
    (0, 1)
    """
    k = k if k is not None else max(colour) + 1
    board = Board(
        geometry="graph",
        cells={i: c for i, c in enumerate(colour)},
        palette=tuple(str(i) for i in range(k)),
        rules=rules,
        pivot=pivot,
        edges=tuple(edges),
    )
    return region_graph(board)


def subgraph(g: RegionGraph, regions: list[int]) -> RegionGraph:
    """The region graph of the given regions alone (e.g. one island), renumbered 0..m-1.

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    regions : list of int
        Sorted regions of ``g``.

    Returns
    -------
    RegionGraph
        Region j is ``regions[j]`` of ``g``; the palette is kept, so colour indices mean the
        same. The pivot is mapped when inside, else 0.

    Examples
    --------
    >>> g = from_edges([0, 1, 0, 2], [(0, 1), (1, 2), (2, 3)])
    >>> subgraph(g, [2, 3]).colour
    (0, 2)
    """
    index = {r: j for j, r in enumerate(regions)}
    return RegionGraph(
        colour=tuple(g.colour[r] for r in regions),
        adj=tuple(tuple(index[s] for s in g.adj[r] if s in index) for r in regions),
        cells=tuple(g.cells[r] for r in regions),
        region_of={cell: index[r] for cell, r in g.region_of.items() if r in index},
        k=g.k,
        pivot=index.get(g.pivot, 0),
        rules=g.rules,
        palette=g.palette,
    )


def measures(g: RegionGraph, deadline: float | None = None) -> dict:
    """Radius and diameter of the region graph (the largest over its islands).

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    deadline : float or None
        A ``time.monotonic()`` value, looked at after every breadth-first search.

    Returns
    -------
    dict
        ``{"radius": int, "diameter": int}``; both None, with ``"measures_skipped"`` saying
        why, when an island has more than :data:`MEASURE_NODES` regions or the deadline
        came first.

    Notes
    -----
    O(n (n + m)): a breadth-first search from every region.

    Examples
    --------
    >>> g = from_edges([0, 1, 0, 2], [(0, 1), (1, 2), (2, 3)])
    >>> measures(g)
    {'radius': 2, 'diameter': 3}
    """
    largest = max(len(piece) for piece in g.islands)
    if largest > MEASURE_NODES:
        why = f"an island of {largest} regions (above {MEASURE_NODES})"
        return {"radius": None, "diameter": None, "measures_skipped": why}
    clock = Deadline(deadline)
    radius = diameter = 0
    try:
        for piece in g.islands:
            ecc = []
            for v in piece:
                ecc.append(max(distances(g, v).values()))
                clock.check()
            radius = max(radius, min(ecc))
            diameter = max(diameter, max(ecc))
    except LimitReached:
        return {"radius": None, "diameter": None, "measures_skipped": "the time limit"}
    return {"radius": radius, "diameter": diameter}
