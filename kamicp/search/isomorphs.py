"""Isomorphic states: a bound of a state is a bound of its coloured graph, whatever its names.

The walk, tripod and tetrapod bounds (``encodings/bounds.md``, Bounds 6-8) are defined from
the coloured graph of the current regions alone: two states whose graphs are isomorphic by
a map that keeps every node's colour (colours are not permuted, so a required final colour
means the same in both) have the same values. So one tetrapod check per class serves the
whole class (:mod:`kamicp.search.ida.checks`).

A class is found in two steps: the Weisfeiler-Lehman hash of the coloured graph
(Shervashidze et al., "Weisfeiler-Lehman graph kernels", JMLR 12, 2011;
:func:`networkx.weisfeiler_lehman_graph_hash`) puts graphs that may be isomorphic in one
bucket (equal hashes are necessary, not sufficient), then VF2++ (Juttner and Madarasi,
"VF2++: an improved subgraph isomorphism algorithm", Discrete Applied Mathematics 242,
2018; :func:`networkx.vf2pp_is_isomorphic`) decides against each class of the bucket.
Region graphs of real levels have large automorphism groups (swaps of small local pieces),
so moves on like pieces give isomorphic states: a quarter of the start's children share a
class on the deep boards (BENCHMARKS.md, "Isomorphic states share their checks").

Cost: O(iterations x edges) for a hash; VF2++ is exponential in the worst case, polynomial in
practice on these sparse, coloured graphs.

Example (a path a-b-a: recolouring either end to b gives the same graph)::

    >>> from kamicp.game.regions import from_edges
    >>> from kamicp.bounds import contract
    >>> start = contract(from_edges([0, 1, 0], [(0, 1), (1, 2)]))
    >>> left, right, middle = start.play(0, 1), start.play(2, 1), start.play(1, 0)
    >>> isomorphic_groups([left, right, middle])
    [[0, 1], [2]]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kamicp.bounds import Current

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["HASH_ITERATIONS", "Classes", "coloured_graph", "isomorphic_groups"]

HASH_ITERATIONS = 3  # rounds of the hash: each sees one step further around a node


def coloured_graph(cur: Current) -> nx.Graph:
    """The graph of a state's current regions, each node carrying its colour as ``colour``."""
    import networkx as nx  # noqa: PLC0415 (loaded where asked: 0.17 s of start-up)

    graph = nx.Graph()
    for v, neighbours in cur.adj.items():
        graph.add_node(v, colour=cur.pos[v])
        graph.add_edges_from((v, u) for u in neighbours)
    return graph


class Classes:
    """The classes of the states met so far: :meth:`index` names a state's class, a new one
    when no state met before is isomorphic to it. Keeps one graph per class."""

    def __init__(self) -> None:
        self.buckets: dict[str, list[tuple[nx.Graph, int]]] = {}  # hash -> (graph, class)
        self.count = 0

    def index(self, cur: Current) -> int:
        """The class of ``cur``: 0, 1, ... in the order the classes were first met."""
        import networkx as nx  # noqa: PLC0415 (loaded where asked: 0.17 s of start-up)

        graph = coloured_graph(cur)
        key = nx.weisfeiler_lehman_graph_hash(graph, node_attr="colour", iterations=HASH_ITERATIONS)
        bucket = self.buckets.setdefault(key, [])
        for other, number in bucket:
            if nx.vf2pp_is_isomorphic(other, graph, node_label="colour"):
                return number
        bucket.append((graph, self.count))
        self.count += 1
        return self.count - 1


def isomorphic_groups(states: Sequence[Current]) -> list[list[int]]:
    """The states (indices into ``states``) grouped by colour-keeping isomorphism of their
    current region graphs, each group in order and the groups by their first member."""
    classes = Classes()
    groups: list[list[int]] = []
    for i, cur in enumerate(states):
        number = classes.index(cur)
        if number == len(groups):
            groups.append([])
        groups[number].append(i)
    return groups
