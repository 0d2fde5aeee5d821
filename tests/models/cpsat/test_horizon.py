"""The CP-SAT horizon models against the reference BFS.

For random small boards of every geometry (holes and islands included), both rule sets,
with and without a final colour: ``decide(opt)`` is sat with a solution of at most opt
moves that replays, and ``decide(opt - 1)`` is unsat. Every optional part of the models
(bounds, symmetry breaking, dominance) is also checked switched off, so the base model is
exact on its own and each part is checked for removing no needed solution.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kamicp.game import rules
from kamicp.game.regions import from_edges, region_graph
from kamicp.models.cpsat.horizon import CpsatHorizon, build_model
from kamicp.search.bfs import bfs
from tests.seed import article_board
from tests.strategies import BARE, boards, oracle

SETTINGS = {"deadline": None, "suppress_health_check": list(HealthCheck)}

# Model variants: all parts on (the default), everything optional off (BARE, from
# tests.strategies), and one part at a time off, so a part that removed every optimal
# solution would show up as a wrong unsat.


def check_exact(g, final_colour, reference=bfs, **options):
    """decide(opt) is sat with a replaying solution of <= opt moves, decide(opt-1) unsat;
    ``reference`` gives the optimum (:func:`tests.strategies.oracle` where BFS may not finish)."""
    ref = reference(g, final_colour=final_colour)
    h = CpsatHorizon(g, final_colour=final_colour, **options)
    if ref.moves is None:  # no sequence of moves solves it (pivot rules, other pieces)
        assert h.decide(3).status == "unsat"
        return
    opt = len(ref.moves)
    d = h.decide(opt)
    assert d.status == "sat", (g.colour, g.adj, g.rules, final_colour, opt)
    assert len(d.moves) <= opt
    rules.verify_solution(g, d.moves, final_colour)
    if opt > 0:
        below = h.decide(opt - 1)
        assert below.status == "unsat", (g.colour, g.adj, g.rules, final_colour, opt)


def _final(g, choice):
    return None if choice is None else choice % g.k


@settings(max_examples=200, **SETTINGS)
@given(boards(), st.one_of(st.none(), st.integers(0, 7)))
def test_agrees_with_bfs(board, choice):
    g = region_graph(board)
    check_exact(g, _final(g, choice))


@settings(max_examples=60, **SETTINGS)
@given(boards(), st.one_of(st.none(), st.integers(0, 7)))
def test_bare_model_agrees_with_bfs(board, choice):
    g = region_graph(board)
    check_exact(g, _final(g, choice), **BARE[g.rules])


OPTIONAL = [
    ("free", "commute", 1),
    ("free", "commute", 99),
    ("free", "regrow", True),
    ("free", "colour_bound", True),
    ("free", "radius_bound", True),
    ("free", "depth_bound", True),
    ("pivot", "distance_bound", True),
    ("pivot", "colour_bound", True),
    ("pivot", "layer_bound", True),
    ("pivot", "progress", True),
    ("pivot", "eliminate", True),
]


@pytest.mark.parametrize(("rule", "name", "value"), OPTIONAL)
def test_each_part_alone(rule, name, value):
    """The bare model plus one optional part: still exact on random boards."""
    options = {**BARE[rule], name: value}

    @settings(max_examples=25, **SETTINGS)
    @given(boards(rules=(rule,)), st.one_of(st.none(), st.integers(0, 7)))
    def run(board, choice):
        g = region_graph(board)
        check_exact(g, _final(g, choice), **options)

    run()


def _grid_graph(rng: random.Random, rule: str):
    """A random planar-ish region graph with 8..20 nodes: deeper optima than the strategies."""
    w, h, k = rng.randint(3, 5), rng.randint(3, 4), rng.randint(2, 4)
    cells = [(r, c) for r in range(h) for c in range(w) if rng.random() > 0.1]
    index = {cell: i for i, cell in enumerate(cells)}
    edges = []
    for r, c in cells:
        for other in ((r + 1, c), (r, c + 1), (r + 1, c + 1)):
            if other in index and (other[0] == r or other[1] == c or rng.random() < 0.3):
                edges.append((index[(r, c)], index[other]))
    colours = [rng.randrange(k) for _ in cells]
    return from_edges(colours, edges, k=k, rules=rule)


@pytest.mark.parametrize("rule", ["free", "pivot"])
def test_deeper_random_graphs(rule):
    """Boards whose optimum reaches 5 to 9 moves, where the symmetry breaking has room."""
    rng = random.Random(2024 if rule == "free" else 7)
    for _ in range(12 if rule == "free" else 30):
        g = _grid_graph(rng, rule)
        final = rng.choice([None, None, rng.randrange(g.k)])
        check_exact(g, final)


@pytest.mark.slow
@pytest.mark.parametrize("rule", ["free", "pivot"])
def test_many_deeper_random_graphs(rule):
    rng = random.Random(99)
    for _ in range(300):
        g = _grid_graph(rng, rule)
        check_exact(g, rng.choice([None, rng.randrange(g.k)]))


@pytest.mark.slow
@settings(max_examples=2000, **SETTINGS)
@given(boards(max_cells=16), st.one_of(st.none(), st.integers(0, 7)))
def test_many_boards(board, choice):
    g = region_graph(board)
    check_exact(g, _final(g, choice), reference=oracle)


def test_seed_article_graph_needs_five():
    g = region_graph(article_board())
    h = CpsatHorizon(g)
    assert h.decide(4).status == "unsat"
    d = h.decide(5)
    assert d.status == "sat" and len(d.moves) == 5
    rules.verify_solution(g, d.moves)


def test_islands_need_a_move_that_merges_nothing():
    # two separate regions of different colours: one move, which merges nothing
    g = from_edges([0, 1], [], k=2)
    h = CpsatHorizon(g)
    assert h.decide(0).status == "unsat"
    d = h.decide(1)
    assert d.status == "sat" and len(d.moves) == 1
    # asking for the other colour costs one move too, a third colour two
    g3 = from_edges([0, 1], [], k=3)
    assert CpsatHorizon(g3, final_colour=2).decide(1).status == "unsat"
    assert CpsatHorizon(g3, final_colour=2).decide(2).status == "sat"


def test_pivot_cannot_reach_other_pieces():
    # the other piece has two regions: it can never become one colour
    g = from_edges([0, 1, 0, 1], [(0, 1), (2, 3)], k=2, rules="pivot")
    assert CpsatHorizon(g).decide(5).status == "unsat"
    g = from_edges([0, 1, 1], [(0, 1)], k=2, rules="pivot")  # the other piece is colour 1
    d = CpsatHorizon(g).decide(1)
    assert d.status == "sat" and d.moves == [(0, 1)]
    assert CpsatHorizon(g, final_colour=0).decide(5).status == "unsat"


def test_already_solved_is_zero_moves():
    g = from_edges([1, 1], [(0, 1)], k=2)
    assert CpsatHorizon(g).decide(0).moves == []
    assert CpsatHorizon(g, final_colour=0).decide(0).status == "unsat"
    assert CpsatHorizon(g, final_colour=0).decide(1).moves == [(0, 0)]


@pytest.mark.parametrize("rule", ["free", "pivot"])
def test_model_exports_as_a_valid_proto(tmp_path, rule):
    g = region_graph(article_board())
    if rule == "pivot":
        g = from_edges(list(g.colour), g.edges(), k=g.k, rules="pivot")
    model, _ = build_model(g, 5)
    assert model.validate() == ""
    path = tmp_path / "model.pb"
    assert model.export_to_file(str(path))
    assert path.stat().st_size > 0


def test_time_limit_gives_unknown_or_an_answer():
    g = region_graph(article_board())
    d = CpsatHorizon(g).decide(5, time_limit=0.0)
    assert d.status in ("sat", "unknown")
    if d.status == "sat":
        rules.verify_solution(g, d.moves)
