"""The incremental replay (:class:`kamicp.game.rules.Replay`) against the reference engine
(:func:`kamicp.game.rules.apply`) on random boards, legal and illegal moves alike."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kamicp.errors import IllegalMove
from kamicp.game import rules
from kamicp.game.regions import region_graph
from tests.strategies import boards


def _reference(g, pos, move):
    """The position after ``move`` by :func:`rules.apply`, or the reason it is illegal."""
    try:
        return rules.apply(g, pos, move), None
    except IllegalMove as err:
        return pos, str(err)


@settings(max_examples=200, deadline=None)
@given(boards(), st.randoms(use_true_random=False))
def test_replay_matches_apply_move_by_move(board, rnd):
    g = region_graph(board)
    pos = rules.start(g)
    state = rules.Replay(g)
    for _ in range(3 * g.n + 2):
        if rnd.random() < 0.15:  # now and then any move, often illegal
            move = (rnd.randrange(-1, g.n + 1), rnd.randrange(-1, g.k + 1))
        else:
            move = rnd.choice(list(rules.legal_moves(g, pos)) or [(0, 0)])
        pos, reason = _reference(g, pos, move)
        if reason is None:
            state.play(move)
        else:
            with pytest.raises(IllegalMove) as err:
                state.play(move)
            assert str(err.value) == reason
        assert state.position() == pos
        r = rnd.randrange(g.n)
        assert state.region(r) == rules.current_region(g, pos, r)
        if rules.is_solved(pos):
            break


@settings(max_examples=50, deadline=None)
@given(boards(), st.randoms(use_true_random=False))
def test_replay_from_a_given_position(board, rnd):
    g = region_graph(board)
    pos = tuple(rnd.randrange(g.k) for _ in range(g.n))  # neighbours may share a colour
    state = rules.Replay(g, pos)
    assert state.position() == pos
    assert sorted(map(sorted, {tuple(state.region(r)) for r in range(g.n)})) == sorted(
        rules.current_regions(g, pos)
    )
    moves = list(rules.legal_moves(g, pos))[:1]
    assert rules.replay(g, moves, pos) == _fold(g, pos, moves)


def _fold(g, pos, moves):
    for move in moves:
        pos = rules.apply(g, pos, move)
    return pos
