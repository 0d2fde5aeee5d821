"""The bit-matrix kernels (kamicp.bounds.bits), across word boundaries."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kamicp.bounds.bits import (
    full_row,
    pack_bits,
    transpose64,
    transpose_bits,
    transpose_block,
    unpack_bits,
)

SIZES = st.sampled_from([1, 5, 63, 64, 65, 68, 72, 80, 100, 128, 130])


def tile_bits(tile):  # [row, column]: bit c of word r
    return np.unpackbits(tile.astype("<u8").view(np.uint8), bitorder="little").reshape(64, 64)


@settings(deadline=None)  # the first call compiles
@given(st.integers(0, 2**32 - 1))
def test_transpose64_twice_is_the_identity(seed):
    tile = np.random.default_rng(seed).integers(0, 2**64, 64, dtype=np.uint64)
    once = tile.copy()
    transpose64(once)
    assert (tile_bits(once) == tile_bits(tile).T).all()
    transpose64(once)
    assert (once == tile).all()


@settings(max_examples=40, deadline=None)
@given(SIZES, st.integers(0, 2**32 - 1))
def test_transpose_bits_is_the_transpose(n, seed):
    rows = np.random.default_rng(seed).random((n, n)) < 0.5
    packed = pack_bits(rows, (n + 63) // 64)
    out = np.zeros_like(packed)
    transpose_bits(packed, out)
    assert (unpack_bits(out, n) == rows.T).all()
    assert (out & ~full_row(n, packed.shape[1]) == 0).all()  # nothing past column n - 1


@settings(max_examples=40, deadline=None)
@given(SIZES, st.integers(0, 2), st.integers(0, 2**32 - 1))
def test_transpose_block_transposes_one_block_only(n, block, seed):
    # three n x n blocks side by side, as in a row of the tripod levels; slivers included
    words = (n + 63) // 64
    rows = np.random.default_rng(seed).random((3, n, n)) < 0.5
    packed = np.concatenate([pack_bits(rows[b], words) for b in range(3)], axis=1)
    out = np.full_like(packed, 12345)
    transpose_block(packed, block * words, out, n)
    mine = out[:, block * words : (block + 1) * words]
    assert (unpack_bits(mine, n) == rows[block].T).all()
    assert (mine & ~full_row(n, words) == 0).all()
    others = np.ones(packed.shape[1], dtype=bool)
    others[block * words : (block + 1) * words] = False
    assert (out[:, others] == 12345).all()  # the other blocks' columns are untouched


@settings(max_examples=40, deadline=None)
@given(SIZES, st.integers(0, 2**32 - 1))
def test_pack_then_unpack_is_the_identity(n, seed):
    rows = np.random.default_rng(seed).random((3, n)) < 0.5
    packed = pack_bits(rows, (n + 63) // 64)
    assert packed.dtype == np.uint64 and packed.shape == (3, (n + 63) // 64)
    assert (unpack_bits(packed, n) == rows).all()
    assert (unpack_bits(full_row(n, (n + 63) // 64), n)).all()
