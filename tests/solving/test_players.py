"""Hints and the designer's tools agree with the exact solver and the reference search."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kamicp.game import rules
from kamicp.game.regions import from_edges, region_graph
from kamicp.search.bfs import bfs
from kamicp.solving.alloptimal import all_optimal, foata, optimal_first_moves
from kamicp.solving.hint import hint, position_after
from tests.strategies import boards

SMALL = dict(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


@settings(**SMALL)
@given(boards(), st.randoms(use_true_random=False))
def test_hint_is_the_first_move_of_an_optimal_finish(board, rnd):
    g = region_graph(board)
    pos, played = rules.start(g), []
    for _ in range(rnd.randrange(3)):
        moves = list(rules.legal_moves(g, pos))
        if not moves:
            break
        played.append(rnd.choice(moves))
        pos = rules.apply(g, pos, played[-1])
    h = hint(board, played, "cpsat")
    ref = bfs(g, max_moves=None) if not played else None
    after = region_graph(position_after(board, played))
    exact = bfs(after)
    if exact.moves is None:
        assert h.result.status == "infeasible"
        return
    assert h.result.status == "optimal" and h.result.moves == len(exact.moves)
    if ref is not None:
        assert h.result.moves == len(ref.moves)
    if h.next_move is not None:
        rest = bfs(region_graph(position_after(position_after(board, played), [h.next_move])))
        assert len(rest.moves) == h.result.moves - 1


@settings(**SMALL)
@given(boards(rules=("free",)))
def test_all_optimal_solutions_are_optimal_and_distinct(board):
    g = region_graph(board)
    ref = bfs(g)
    if ref.moves is None or len(ref.moves) > 5:
        return
    every = all_optimal(g, len(ref.moves), cap=50)
    assert every, "the BFS solution exists, so at least one class"
    keys = {foata(g, m) for m in every}
    assert len(keys) == len(every)
    for moves in every:
        assert len(moves) == len(ref.moves)
        rules.verify_solution(g, moves)
    assert foata(g, ref.moves) in keys or len(every) == 50


def test_commuting_moves_are_counted_once():
    # Two separate blobs on a path a-b-a-c-a-b-a: fixing the left and the right end commute.
    g = from_edges([0, 1, 0, 2, 0, 1, 0], [(i, i + 1) for i in range(6)])
    left, right = (1, 0), (5, 0)
    assert foata(g, [left, right]) == foata(g, [right, left])
    assert foata(g, [left, right]) != foata(g, [right, (1, 2)])


def test_first_moves_that_keep_the_optimum():
    g = from_edges([0, 1, 0, 2, 0], [(i, i + 1) for i in range(4)])
    opt = len(bfs(g).moves)
    answers = dict(optimal_first_moves(g, opt, solver="bfs"))
    for move, verdict in answers.items():
        after = rules.apply(g, rules.start(g), move)
        rest = bfs(from_edges(list(after), g.edges(), k=g.k))
        assert verdict == ("yes" if len(rest.moves) == opt - 1 else "no")
