"""Hypothesis strategies: random small boards of every geometry, with holes and islands.

Sizes are kept small enough that the reference BFS finishes in milliseconds, so thousands of
examples fit in a test run. The referees :func:`oracle` (an optimum) and
:func:`assert_no_shorter` (no solution below a bound) keep a rare larger search in bounds.
"""

from __future__ import annotations

import numpy as np
from hypothesis import assume, currently_in_test_context, event, reject
from hypothesis import strategies as st

from kamicp.bounds import UNSOLVABLE
from kamicp.game import geometry
from kamicp.game.board import Board
from kamicp.game.regions import RegionGraph, region_graph
from kamicp.models.cpsat.horizon import CpsatHorizon
from kamicp.search.bfs import bfs


@st.composite
def grid_boards(
    draw,
    geometries=geometry.GRID_GEOMETRIES,
    max_cells=12,
    max_colours=4,
    rules=("free", "pivot"),
    holes=True,
) -> Board:
    """A square, triangle or hex board of at most ``max_cells`` cells, maybe with holes."""
    geo = draw(st.sampled_from(geometries))
    rows = draw(st.integers(1, 4))
    cols = draw(st.integers(1, max(1, min(6, max_cells // rows))))
    k = draw(st.integers(1, max_colours))
    cells = {}
    for r in range(rows):
        for c in range(cols):
            if holes and draw(st.integers(0, 5)) == 0:
                continue  # a hole
            cells[(r, c)] = draw(st.integers(0, k - 1))
    if not cells:
        cells[(0, 0)] = 0
    return Board(
        geometry=geo,
        cells=cells,
        palette=tuple("abcdefgh"[:k]),
        rules=draw(st.sampled_from(rules)),
    )


@st.composite
def graph_boards(draw, max_nodes=8, max_colours=4, rules=("free", "pivot")) -> Board:
    """A region graph given directly: random colours and edges (maybe disconnected)."""
    n = draw(st.integers(1, max_nodes))
    k = draw(st.integers(1, max_colours))
    colours = [draw(st.integers(0, k - 1)) for _ in range(n)]
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    edges = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=2 * n)) if pairs else []
    return Board(
        geometry="graph",
        cells=dict(enumerate(colours)),
        palette=tuple(f"c{i}" for i in range(k)),
        rules=draw(st.sampled_from(rules)),
        edges=tuple(edges),
    )


@st.composite
def kami2_boards(
    draw, max_rows=4, max_width=3, max_colours=3, rules=("free",), shuffled=False
) -> Board:
    """A board of KAMI 2 triangles (r, p, s): a few rows of 2w triangles, maybe with holes,
    its cells in reading order or (``shuffled``) in any order."""
    width = draw(st.integers(1, max_width))
    rows = draw(st.integers(1, max_rows))
    k = draw(st.integers(1, max_colours))
    cells = {
        (r, p, s): draw(st.integers(0, k - 1))
        for r in range(rows)
        for p in range(width)
        for s in (0, 1)
        if draw(st.integers(0, 5))
    } or {(0, 0, 0): 0}
    order = tuple(draw(st.permutations(list(cells)))) if shuffled else ()
    return Board(
        geometry="kami2",
        cells=cells,
        palette=tuple("1234"[:k]),
        rules=draw(st.sampled_from(rules)),
        width=width,
        order=order,
    )


def boards(**kwargs) -> st.SearchStrategy[Board]:
    """Boards of every geometry (grids and graphs), both rule sets unless restricted."""
    rules = kwargs.pop("rules", ("free", "pivot"))
    return st.one_of(grid_boards(rules=rules, **kwargs), graph_boards(rules=rules))


def region_graphs(**kwargs) -> st.SearchStrategy[RegionGraph]:
    """Region graphs of random boards (see :func:`boards`)."""
    return boards(**kwargs).map(region_graph)


@st.composite
def coloured_graphs(draw):
    """Small connected graphs whose neighbours may share a colour (not region graphs): the
    bound levels then iterate their closure instead of taking one pass."""
    n = draw(st.integers(1, 6))
    k = draw(st.integers(1, 3))
    edges = {(draw(st.integers(0, v - 1)), v) for v in range(1, n)}  # a spanning tree
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
    edges |= set(draw(st.lists(st.sampled_from(pairs), max_size=4))) if pairs else set()
    adj = [[] for _ in range(n)]
    for u, v in edges:
        adj[u].append(v)
        adj[v].append(u)
    return draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)), adj, k


def square_board_above_64_regions(seed: int) -> RegionGraph:
    """A random 16 x 16 board of three colours: its region graph has one piece of more than
    64 regions (rows of bits span two words), asserted."""
    rng = np.random.default_rng(seed)
    cells = {(r, c): int(rng.integers(0, 3)) for r in range(16) for c in range(16)}
    g = region_graph(Board(geometry="square", cells=cells, palette=("a", "b", "c")))
    assert len(g.islands) == 1 and len(g.islands[0]) > 64
    return g


# The BFS oracle's positions on one example, at most. A rare board of 20 cells needs millions
# (minutes of BFS); such an example is dropped, so no single board can stall the suite. The
# searches are still compared on every example the oracle finishes.
ORACLE_NODES = 300_000


def oracle(g: RegionGraph, final_colour: int | None = None):
    """BFS's answer for ``g`` (the reference), or the example is dropped (hypothesis.assume)."""
    ref = bfs(g, final_colour=final_colour, node_limit=ORACLE_NODES)
    assume(ref.complete)
    return ref


# CP-SAT's models with every optional part off: no bound, symmetry breaking or hint, only the
# rules (tests/test_cpsat.py checks them against BFS, bare and with each part alone).
BARE = {
    "free": dict(
        commute=0,
        regrow=False,
        colour_bound=False,
        radius_bound=False,
        depth_bound=False,
        hints=False,
    ),
    "pivot": dict(
        distance_bound=False,
        colour_bound=False,
        layer_bound=False,
        progress=False,
        eliminate=False,
        hints=False,
    ),
}

# Where BFS expands REFEREE_NODES positions before it has looked moves - 1 deep, the bare
# CP-SAT model decides, within REFEREE_SECONDS: on the small boards whose BFS is large, the
# model refutes a horizon in a small share of BFS's time.
REFEREE_NODES = 50_000
REFEREE_SECONDS = 60.0


def assert_no_shorter(g: RegionGraph, final_colour: int | None, moves: int) -> None:
    """Assert that ``g`` has no solution of fewer than ``moves`` moves, so that ``moves`` is
    at most the optimum (a bound is admissible on ``g``), or drop the example.

    Unlike :func:`oracle`, this needs no optimum: BFS looks ``moves - 1`` deep only; where it
    stops at REFEREE_NODES, CP-SAT's bare model (:data:`BARE`), which holds none of the
    bounds under test, must refute ``moves - 1``; an unknown at its time limit drops the
    example (hypothesis.reject). A board BFS could not finish is still checked."""
    if moves <= 0:
        return
    depth = None if moves >= UNSOLVABLE else moves - 1
    ref = bfs(g, final_colour=final_colour, max_moves=depth, node_limit=REFEREE_NODES)
    if ref.complete:
        assert ref.moves is None, (moves, ref.moves)
        return
    if currently_in_test_context():
        event("referee: BFS stopped, CP-SAT decides")  # counted by --hypothesis-show-statistics
    if depth is None:
        reject()  # no model refutes every horizon
    horizon = CpsatHorizon(g, final_colour=final_colour, **BARE[g.rules])
    decision = horizon.decide(depth, time_limit=REFEREE_SECONDS)
    if decision.status == "unknown":
        reject()
    assert decision.status == "unsat", (moves, decision.moves)
