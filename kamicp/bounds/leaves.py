"""Leaves: a piece without some of its degree-1 regions never needs more moves.

Let l be a node of degree 1 of a connected piece G of at least three nodes. Every spanning
tree T of G has l as a leaf, and T - l is both a spanning tree of G - l and a subtree of T.
By Meeks and Scott's theorem (m(G, d) = min over the spanning trees T of G of m(T, d);
"Spanning trees and the complexity of flood-filling games", Theory of Computing Systems 54,
2014) and Lemma 3 of ``encodings/bounds.md`` (a subtree never needs more moves than its
tree), with T* a best spanning tree of G,

    m(G - l, d) <= m(T* - l, d) <= m(T*, d) = m(G, d).

Each other leaf of G is still a leaf of G - l (its one neighbour is not l, since G is not a
single edge), so the argument repeats: for any set L of leaves, every lower bound on
m(G - L, d) is one on m(G, d). Full argument: Lemma 4 of ``encodings/bounds.md``.

Why it pays: the bound levels are rows of ceil(n / 64) words of 64 bits
(:mod:`kamicp.bounds.bits`), so a piece of 65-68 regions pays two words a row where one of 64
pays one. IDA*'s tetrapod checks (:func:`kamicp.bounds.tetrapods_bound` with a cap: only
"above the cap?" is asked) first try the piece without just enough leaves to fit one word
fewer, the most central leaves dropped (:func:`trimmed`). The ends of the quadruples that
decide the bound lie far apart, so far leaves are often among them, and the central leaves
rarely are: on children of a 67-region start the trim kept every cut of the whole piece in
half the time (BENCHMARKS.md, "Trimmed tetrapod checks"). The tripod checks, hundredths of a
second, are left whole (BENCHMARKS.md, "Peeled tripod checks: not kept").

Peeling: removing leaves makes new ones (the next node of a pendant chain), and the argument
applies again to the smaller piece, so a lower bound on any piece left by removing leaves one
at a time is one on the piece. :func:`peeled` keeps removing the most central leaf as long as
what is left has the piece's diameter and radius: the far ends, and the centre the radius
bound measures from, stay. It is a guess, not a rule: it keeps most cuts on some boards and
half on others (BENCHMARKS.md, "Peeled tetrapod checks"), so a check it misses ends there
and a start bound goes on to the trim.

Cost: O(leaves x (n + edges)) for the eccentricities of :func:`central_leaves` (a
breadth-first search per leaf); O(n (n + edges) + n^3) for :func:`peeled` (all distances,
then the eccentricities after each removal).

Example (a star with a long arm: the leaves 1 and 2 are central, 5 is far)::

    >>> adj = [[1, 2, 3], [0], [0], [0, 4], [3, 5], [4]]
    >>> central_leaves(adj)
    [1, 2, 5]
    >>> trimmed([0, 1, 1, 2, 0, 1], adj, width=4)
    ([0, 2, 0, 1], [[1], [0, 2], [1, 3], [2]])

A path 0 1 2 3 4 with an arm 2 5 6 (diameter 4, radius 2, centre 2), peeled: 0 goes, then
1 (a leaf once 0 is gone); then every leaf's removal would shorten the diameter::

    >>> peeled([0, 1, 0, 1, 0, 1, 0], [[1], [0, 2], [1, 3, 5], [2, 4], [3], [2, 6], [5]])
    ([0, 1, 0, 1, 0], [[1, 3], [0, 2], [1], [0, 4], [3]])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["WORD", "central_leaves", "peeled", "trimmed"]

WORD = 64  # bits in a word of the bound levels' rows (tests lower it to reach the trim)


def central_leaves(adj: Sequence[Sequence[int]]) -> list[int]:
    """The nodes of degree 1 of a connected graph (adjacency lists), the least eccentric
    first (ties by number). The eccentricity of a node is its largest distance to another."""
    import networkx as nx  # noqa: PLC0415 (loaded where asked: 0.17 s of start-up)

    graph = _graph(adj)
    leaves = [v for v in range(len(adj)) if len(adj[v]) == 1]
    far = nx.eccentricity(graph, v=leaves) if leaves else {}
    return sorted(leaves, key=lambda v: (far[v], v))


def trimmed(
    colour: Sequence[int], adj: Sequence[Sequence[int]], width: int | None = None
) -> tuple[list[int], list[list[int]]] | None:
    """The connected piece (colours, adjacency lists) without the fewest of its most central
    leaves that bring its size to a multiple of ``width`` (default :data:`WORD`), so that
    its bit rows need one word fewer; renumbered in the same order. None when the piece has
    at most ``width`` nodes or too few leaves. Any lower bound on the moves of the result
    is one on the moves of the piece (module docstring)."""
    width = WORD if width is None else width
    n = len(colour)
    drop_count = n - width * ((n - 1) // width)
    if n <= width:
        return None
    leaves = central_leaves(adj)
    if drop_count > len(leaves):
        return None
    drop = set(leaves[:drop_count])
    kept = [v for v in range(n) if v not in drop]
    return _kept(colour, adj, kept)


def peeled(
    colour: Sequence[int], adj: Sequence[Sequence[int]]
) -> tuple[list[int], list[list[int]]] | None:
    """The connected piece without the leaves removed one at a time, the most central
    first (new leaves included), for as long as what is left keeps the piece's diameter
    and radius and at least three nodes; renumbered in the same order. None when no leaf
    goes. Any lower bound on the moves of the result is one on the moves of the piece
    (module docstring).

    A leaf is never inside a shortest path between two other nodes, so removing it leaves
    the other distances as they were: one table of distances serves every step."""
    import networkx as nx  # noqa: PLC0415 (loaded where asked: 0.17 s of start-up)

    n = len(colour)
    graph = _graph(adj)
    far = np.zeros((n, n), dtype=np.int32)
    for v, lengths in nx.all_pairs_shortest_path_length(graph):
        for u, length in lengths.items():
            far[v, u] = length
    alive = np.ones(n, dtype=bool)
    degree = [len(adj[v]) for v in range(n)]
    eccentricity = far.max(axis=1)
    shape = (eccentricity.max(), eccentricity.min())
    while alive.sum() > 3:
        leaf_nodes = [v for v in range(n) if alive[v] and degree[v] == 1]
        if not leaf_nodes:
            break
        v = min(leaf_nodes, key=lambda v: (eccentricity[v], v))
        alive[v] = False
        eccentricity = np.where(alive, far[:, alive].max(axis=1), 0)
        if (eccentricity[alive].max(), eccentricity[alive].min()) != shape:
            alive[v] = True
            break
        for u in adj[v]:
            degree[u] -= 1
    if alive.all():
        return None
    kept = [v for v in range(n) if alive[v]]
    return _kept(colour, adj, kept)


def _graph(adj: Sequence[Sequence[int]]) -> nx.Graph:
    """The graph of adjacency lists, nodes 0..n-1."""
    import networkx as nx  # noqa: PLC0415 (loaded where asked: 0.17 s of start-up)

    graph = nx.Graph()
    graph.add_nodes_from(range(len(adj)))
    graph.add_edges_from((v, u) for v in range(len(adj)) for u in adj[v])
    return graph


def _kept(
    colour: Sequence[int], adj: Sequence[Sequence[int]], kept: list[int]
) -> tuple[list[int], list[list[int]]]:
    """The nodes ``kept`` (in increasing order) as a graph of their own, renumbered 0..:
    their colours and adjacency lists."""
    number = {v: i for i, v in enumerate(kept)}
    return [colour[v] for v in kept], [[number[u] for u in adj[v] if u in number] for v in kept]
