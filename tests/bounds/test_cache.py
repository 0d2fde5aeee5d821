"""The memory of the costly bounds (kamicp.bounds.cache): what is kept, merged and let go."""

from __future__ import annotations

from kamicp import bounds
from kamicp.bounds.cache import BOUND_CACHE, BoundCache, piece_key, piece_lists
from kamicp.game.regions import from_edges


def test_a_full_cache_lets_every_piece_go_before_it_keeps_one_more():
    cache = BoundCache(pieces=2)
    cache.keep_tripods(("a",), (1,))
    cache.keep_tripods(("b",), (2,))
    cache.keep_tripods(("c",), (3,))
    assert cache.tripods == {("c",): (3,)}


def test_tetrapod_values_kept_twice_are_merged_with_the_larger_cap():
    # both entries are lower bounds, each exact up to its cap: the larger of each pair holds
    cache = BoundCache()
    assert cache.keep_tetrapods(("a",), (3, 5), 4) == (3, 5)
    assert cache.keep_tetrapods(("a",), (4, 2), 3) == (4, 5)
    assert cache.tetrapods[("a",)] == ((4, 5), 4)
    cache.keep_tetrapods(("a",), (1, 1), None)  # values without a cap are exact
    assert cache.tetrapods[("a",)] == ((4, 5), None)


def test_helpful_pairs_are_counted_by_region_and_ranked():
    cache = BoundCache()
    cache.note_helpful(5, 2)
    cache.note_helpful(7, 1)
    cache.note_helpful(2, 5)
    assert cache.helpful == {(2, 5): 2, (1, 7): 1}
    assert cache.ranked_pairs() == [(2, 5), (1, 7)]


def test_kept_memory_is_reused_while_large_enough():
    cache = BoundCache()
    assert cache.scratch(8).size == 8 and cache.memory is None  # not kept: new each time
    cache.keep_memory = True
    first = cache.scratch(8)
    assert cache.scratch(4).base is cache.memory and first.base is cache.memory
    cache.scratch(16)
    assert cache.memory.size == 16  # a larger one replaces it


def test_forgetting_empties_the_values_but_keeps_the_memory_setting():
    cache = BoundCache()
    cache.keep_tripods(("a",), (1,))
    cache.keep_tetrapods(("a",), (1,), None)
    cache.note_helpful(1, 2)
    cache.last_levels[:] = ["a", [], iter(())]
    cache.keep_memory = True
    cache.forget()
    assert not (cache.tripods or cache.tetrapods or cache.helpful or cache.last_levels)
    assert cache.keep_memory


def test_forget_cached_bounds_empties_the_one_cache_the_bounds_use():
    cur = bounds.contract(from_edges([0, 1, 0, 2, 0], [(0, 1), (1, 2), (2, 3), (3, 4)]))
    bounds.forget_cached_bounds()
    bounds.tetrapods_bound(cur, cap=5)
    key = piece_key(cur, cur.islands[0])
    assert key in BOUND_CACHE.tripods and key in BOUND_CACHE.tetrapods
    bounds.forget_cached_bounds()
    assert not BOUND_CACHE.tripods and not BOUND_CACHE.tetrapods


def test_a_piece_key_gives_back_the_piece():
    g = from_edges([0, 1, 2, 1], [(0, 1), (1, 2), (2, 3), (3, 0)])
    cur = bounds.contract(g)
    k, colours, adj = piece_lists(piece_key(cur, cur.islands[0]))
    assert (k, colours) == (3, (0, 1, 2, 1))
    assert sorted(map(sorted, adj)) == sorted(map(sorted, g.adj))
