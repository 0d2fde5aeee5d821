"""The region graph: one node per one-colour connected region, edges between touching regions.

Every solver works on a :class:`RegionGraph`. Regions are numbered 0..n-1 in the reading
order of their first cell, so the numbering is stable and the pivot's region is found from
the pivot cell. Built with networkx; contraction is linear in cells plus edges.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import networkx as nx

from kamicp.game.board import Board


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
        return len(self.colour)

    @cached_property
    def graph(self) -> nx.Graph:
        """The region graph as a networkx graph, nodes carrying ``colour``."""
        g = nx.Graph()
        for i, c in enumerate(self.colour):
            g.add_node(i, colour=c)
        g.add_edges_from((i, j) for i in range(self.n) for j in self.adj[i] if i < j)
        return g

    @cached_property
    def islands(self) -> list[list[int]]:
        """The connected pieces, each a sorted list of regions, in order of first region."""
        return sorted(sorted(p) for p in nx.connected_components(self.graph))

    def colours_present(self) -> set[int]:
        return set(self.colour)

    def edges(self) -> list[tuple[int, int]]:
        return [(i, j) for i in range(self.n) for j in self.adj[i] if i < j]


def distances(g: RegionGraph, source: int, cutoff: int | None = None) -> dict[int, int]:
    """Hop distances from ``source`` to the regions of its piece (to those within ``cutoff``
    hops, if given): a breadth-first search, networkx's
    ``single_source_shortest_path_length``. O(n + m)."""
    return nx.single_source_shortest_path_length(g.graph, source, cutoff=cutoff)


def region_graph(board: Board) -> RegionGraph:
    """Contract ``board`` into its region graph.

    Complexity: O(cells + cell edges), one union-find pass (networkx components on the
    subgraph of same-colour edges).
    """
    adjacency = board.adjacency()
    same = nx.Graph()
    same.add_nodes_from(board.order)
    for cell, others in adjacency.items():
        for other in others:
            if board.cells[cell] == board.cells[other]:
                same.add_edge(cell, other)
    position = {cell: i for i, cell in enumerate(board.order)}
    comps = [sorted(comp, key=position.__getitem__) for comp in nx.connected_components(same)]
    comps.sort(key=lambda comp: position[comp[0]])
    region_of = {cell: i for i, comp in enumerate(comps) for cell in comp}
    adj = [set() for _ in comps]
    for cell, others in adjacency.items():
        for other in others:
            a, b = region_of[cell], region_of[other]
            if a != b:
                adj[a].add(b)
                adj[b].add(a)
    return RegionGraph(
        colour=tuple(board.cells[comp[0]] for comp in comps),
        adj=tuple(tuple(sorted(s)) for s in adj),
        cells=tuple(tuple(comp) for comp in comps),
        region_of=region_of,
        k=len(board.palette),
        pivot=region_of[board.pivot],
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

    Region j of the result is ``regions[j]`` of ``g`` (``regions`` must be sorted); the
    palette is kept so colour indices mean the same. The pivot is mapped when inside, else 0.
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


def measures(g: RegionGraph) -> dict:
    """Radius and diameter of the region graph (the largest over its islands).

    Complexity: O(n * (n + m)) through networkx eccentricities.
    """
    radius = diameter = 0
    for piece in g.islands:
        ecc = nx.eccentricity(g.graph.subgraph(piece))
        radius = max(radius, min(ecc.values()))
        diameter = max(diameter, max(ecc.values()))
    return {"radius": radius, "diameter": diameter}
