"""The compiled A* of pivot rules, and the bitset steps it is made of.

On random small pivot-rule boards of every geometry, with holes, islands and a required final
colour or none: the search finds the BFS optimum, a move limit one below it is refuted, a
stopped search claims only what is true, and every solution replays. The bounds it uses are
checked against BFS one by one (admissible), the colour-eliminating move against BFS (it
starts an optimal continuation). Boards of more than 64 regions (rows of several words) are
checked against the SAT model. ``-m slow`` runs thousands of boards.
"""

from __future__ import annotations

import random
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kamicp import bounds
from kamicp.game import rules
from kamicp.game.board import Board
from kamicp.game.regions import from_edges, region_graph
from kamicp.search import pivot_astar as module
from kamicp.search.bfs import bfs
from kamicp.search.bitboard import bit_board
from kamicp.search.bitsets import (
    border,
    eliminated,
    greedy_colours,
    layer_bound,
    sweep_bound,
)
from kamicp.search.pivot_astar import node_bytes, pivot_astar, shorten
from kamicp.search.sweep import sweep
from kamicp.solving.solve import SolveOptions, solve
from tests.strategies import oracle, region_graphs, square_board_above_64_regions

FINALS = st.none() | st.integers(0, 7)
PIVOT = {"rules": ("pivot",)}


def final_of(g, choice):
    """No final colour, or one of the palette (maybe absent from the board)."""
    return None if choice is None else choice % g.k


def check_optimum(g, final):
    """The search's answer is BFS's: the optimum, or none where none exists."""
    ref = oracle(g, final)
    out = pivot_astar(g, final_colour=final)
    assert out.complete
    if ref.moves is None:
        assert out.moves is None and out.lower_bound == bounds.UNSOLVABLE
        return
    assert out.moves is not None and len(out.moves) == len(ref.moves) == out.lower_bound
    rules.verify_solution(g, out.moves, final)


def check_horizon(g, final):
    """One move below the optimum is refuted, the optimum itself is found."""
    ref = oracle(g, final)
    if not ref.moves:
        return
    opt = len(ref.moves)
    below = pivot_astar(g, final_colour=final, max_moves=opt - 1)
    assert below.complete and below.moves is None and below.lower_bound >= opt
    at = pivot_astar(g, final_colour=final, max_moves=opt)
    assert at.complete and len(at.moves) == opt
    rules.verify_solution(g, at.moves, final)
    told = []
    pivot_astar(g, final_colour=final, on_bound=told.append)
    assert told == sorted(told) and all(t <= opt for t in told)


def check_limits(g, final, limit):
    """Stopped by a node limit, a past deadline or a memory budget: what it claims holds."""
    ref = oracle(g, final)
    opt = bounds.UNSOLVABLE if ref.moves is None else len(ref.moves)
    for out in (
        pivot_astar(g, final_colour=final, node_limit=limit),
        pivot_astar(g, final_colour=final, deadline=time.monotonic() - 1),
        pivot_astar(g, final_colour=final, memory=1),
    ):
        assert out.lower_bound <= opt
        if out.complete:
            assert (out.moves is None) == (ref.moves is None)
        if out.moves is not None:
            rules.verify_solution(g, out.moves, final)
            assert len(out.moves) >= opt
            if out.complete:
                assert len(out.moves) == opt


def check_bounds(g, final):
    """At the start and after each move of an optimal solution, the layered and sweep
    bounds and the greedy's length bracket BFS's optimum, and a colour-eliminating move
    starts an optimal continuation. The layered bound on bitsets is the region graph's, and
    the compiled greedy plays the sweep's moves."""
    ref = oracle(g, final)
    if ref.moves is None:
        return
    board = bit_board(g)
    inside = set(board.regions)
    others = {g.colour[v] for v in range(g.n) if v not in inside}
    end = final if final is not None else (others.pop() if others else -1)
    pos = rules.start(g)
    for i in range(len(ref.moves) + 1):
        left = len(ref.moves) - i
        piece = rules.current_region(g, pos, g.pivot)
        flooded = np.zeros(board.words, dtype=np.uint64)
        for v in piece:
            j = board.regions.index(v)
            flooded[j // 64] |= np.uint64(1) << np.uint64(j % 64)
        edge = border(flooded, board.neighbours)
        scratch = np.empty((3, board.words), dtype=np.uint64)
        layered = layer_bound(flooded, edge, board.neighbours, board.colour_masks, end)
        assert layered <= left
        if edge.any():  # a flooded piece: the caller adds the move to the final colour
            assert layered == bounds.pivot_layer_bound(bounds.contract(g, pos), final)
        assert (
            sweep_bound(flooded, edge, board.neighbours, board.colour_masks, end, scratch) <= left
        )
        out = np.empty(board.n + 1, dtype=np.int64)
        work = np.empty((3, board.words), dtype=np.uint64)
        length = greedy_colours(flooded, board.neighbours, board.colour_masks, end, out, work)
        if edge.any():
            moves = [(g.pivot, int(c)) for c in out[:length]]
            if i == 0:
                rules.verify_solution(g, moves, final)
                assert moves == sweep(g, final)
            assert length >= left
            c = eliminated(flooded, edge, board.colour_masks, end)
            if c >= 0:
                after = rules.apply(g, pos, (g.pivot, int(c)))
                rest = bfs(_board_at(g, after), final_colour=final)
                assert rest.complete and len(rest.moves) == left - 1
        if i < len(ref.moves):
            pos = rules.apply(g, pos, ref.moves[i])


def random_solution(g, final, seed):
    """A solution of random colours on the pivot's border, usually far from optimal."""
    rng = random.Random(seed)
    moves, pos = [], rules.start(g)
    while not rules.is_solved(pos, final):
        moves.append(rng.choice([m for m in rules.legal_moves(g, pos) if m[0] == g.pivot]))
        pos = rules.apply(g, pos, moves[-1])
    return moves


def check_shorten(g, final, seed):
    """From a random solution, each shortened solution is shorter, replays and keeps a
    prefix of the one before; with enough expansions the last is BFS's optimum."""
    ref = oracle(g, final)
    if ref.moves is None:
        return
    moves = random_solution(g, final, seed)
    while True:
        shorter = shorten(g, moves, final, node_limit=10**6)
        if shorter is None:
            break
        rules.verify_solution(g, shorter, final)
        assert len(shorter) < len(moves)
        kept = next(i for i, m in enumerate(shorter) if i == len(moves) or m != moves[i])
        assert shorter[:kept] == moves[:kept] and len(shorter) - kept < len(moves) - kept
        moves = shorter
    assert len(moves) == len(ref.moves)


def check_shorten_limits(g, final, seed):
    """An optimal solution is never shortened; a past deadline or one expansion a prefix
    gives nothing, or a shorter solution that replays."""
    ref = oracle(g, final)
    if ref.moves is None:
        return
    assert shorten(g, ref.moves, final, node_limit=10**6) is None
    moves = random_solution(g, final, seed)
    assert shorten(g, moves, final, deadline=time.monotonic() - 1) is None
    shorter = shorten(g, moves, final, node_limit=1)
    if shorter is not None:
        rules.verify_solution(g, shorter, final)
        assert len(ref.moves) <= len(shorter) < len(moves)


def _board_at(g, pos):
    """The board of position ``pos`` of ``g`` as a board of its own (regions contracted)."""
    return from_edges(list(pos), g.edges(), g.k, rules="pivot", pivot=g.pivot)


def _property(check, examples, **strategy):
    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(region_graphs(**PIVOT, **strategy), FINALS)
    def run(g, choice):
        check(g, final_of(g, choice))

    return run


test_optimum = _property(check_optimum, 400)
test_optimum_larger = _property(check_optimum, 60, max_cells=20, max_colours=5)
test_horizon = _property(check_horizon, 150)
test_bounds = _property(check_bounds, 150)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(**PIVOT), FINALS, st.integers(0, 2**16))
def test_shorten(g, choice, seed):
    check_shorten(g, final_of(g, choice), seed)


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(**PIVOT), FINALS, st.integers(0, 2**16))
def test_shorten_limits(g, choice, seed):
    check_shorten_limits(g, final_of(g, choice), seed)


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(**PIVOT), FINALS, st.integers(0, 20))
def test_limits(g, choice, limit):
    check_limits(g, final_of(g, choice), limit)


def commuting_boards(seed: int, count: int):
    """Random pivot boards of square, hex and triangle cells (a tenth of the cells holes),
    up to 5 x 6 cells in 2-5 colours: enough moves for pairs that commute (R9)."""
    rng = random.Random(seed)
    for _ in range(count):
        geometry = rng.choice(["square", "hex", "triangle"])
        k = rng.randint(2, 5)
        cells = {
            (r, c): rng.randrange(k)
            for r in range(rng.randint(2, 5))
            for c in range(rng.randint(2, 6))
            if (r, c) == (0, 0) or rng.random() < 0.9
        }
        palette = tuple("RGBYO"[:k])
        yield region_graph(Board(geometry=geometry, cells=cells, palette=palette, rules="pivot"))


def test_commuted_moves_keep_every_optimum():
    # R9 and R10 drop a child only where the commuted order is kept, and R10 only where that
    # order floods more: on these boards, every final colour, the A* agrees with BFS (R9
    # without the first check, or R10 without the second, loses optima here)
    pairs = 0
    for g in commuting_boards(1, 400):
        for final in [None, *range(g.k)]:
            ref, out = bfs(g, final_colour=final), pivot_astar(g, final_colour=final)
            assert (ref.moves is None) == (out.moves is None)
            if out.moves is not None:
                assert len(out.moves) == len(ref.moves)
                rules.verify_solution(g, out.moves, final)
            pairs += 1
    assert pairs > 1500


@pytest.mark.slow
def test_optimum_many():
    _property(check_optimum, 3000)()
    _property(check_optimum, 1000, max_cells=20, max_colours=5)()
    _property(check_bounds, 1000)()


@pytest.mark.parametrize("seed", [1, 2])
def test_rows_of_several_words_agree_with_sat(seed):
    """A piece of more than 64 regions: the optimum is the SAT model's."""
    g = square_board_above_64_regions(seed)
    g = from_edges(list(g.colour), g.edges(), g.k, rules="pivot", pivot=g.pivot)
    out = pivot_astar(g)
    assert out.complete and bit_board(g).words >= 2
    rules.verify_solution(g, out.moves)
    ref = solve(g, "sat", SolveOptions(max_moves=len(out.moves) - 1))
    assert ref.status == "infeasible"


def test_a_memory_budget_stops_the_search_with_a_bound():
    """A budget too small for the first growth of the arrays: incomplete, bound proved."""
    g = square_board_above_64_regions(3)
    g = from_edges(list(g.colour), g.edges(), g.k, rules="pivot", pivot=g.pivot)
    full = pivot_astar(g)
    small = pivot_astar(g, memory=1024 * node_bytes(bit_board(g).words))
    assert small.lower_bound <= len(full.moves)
    if not small.complete:
        assert small.moves is None or len(small.moves) >= len(full.moves)


def test_free_rules_are_refused():
    g = from_edges([0, 1, 0], [(0, 1), (1, 2)])
    with pytest.raises(ValueError, match="pivot rules"):
        pivot_astar(g)


def test_one_region_needs_the_final_colour_only():
    g = from_edges([1], [], 3, rules="pivot")
    assert pivot_astar(g).moves == []
    assert pivot_astar(g, final_colour=2).moves == [(0, 2)]
    assert pivot_astar(g, final_colour=2, max_moves=0).moves is None


def test_slices_meet_a_deadline_on_a_long_search(monkeypatch):
    """A search of many slices stops at its deadline with a proved bound: one slice is
    about SLICE_SECONDS, so the overrun is small (asserted loosely: a behaviour, not a
    timing)."""
    monkeypatch.setattr(module, "FIRST_WORK", 1)
    g = square_board_above_64_regions(4)
    g = from_edges(list(g.colour), g.edges(), g.k, rules="pivot", pivot=g.pivot)
    began = time.monotonic()
    out = pivot_astar(g, deadline=began + 0.05)
    assert time.monotonic() - began < 5
    assert out.lower_bound >= bounds.pivot_layer_bound(bounds.contract(g)) or out.complete


def six_colour_boards(count: int):
    """Random 14x14 pivot boards of six colours (rows of two and three words; a few store
    more positions than the first arrays hold, FIRST_NODES)."""
    for seed in range(count):
        rng = np.random.default_rng(seed)
        cells = {(r, c): int(rng.integers(0, 6)) for r in range(14) for c in range(14)}
        yield region_graph(
            Board(geometry="square", cells=cells, palette=tuple("abcdef"), rules="pivot")
        )


def test_a_search_does_not_depend_on_the_one_before():
    """Searches of one process share their first arrays (SPARE_WORDS): run forwards and
    backwards, stopped or finished, grown or not, every board expands the same nodes with
    the same answer."""
    runs = [(g, limit) for g in six_colour_boards(12) for limit in (None, 300)]

    def answers(order):
        outs = {i: pivot_astar(runs[i][0], node_limit=runs[i][1]) for i in order}
        return [(o.moves, o.lower_bound, o.complete, o.nodes) for _, o in sorted(outs.items())]

    forwards = answers(range(len(runs)))
    assert answers(reversed(range(len(runs)))) == forwards
    assert 12 < sum(complete for _, _, complete, _ in forwards) < 24
