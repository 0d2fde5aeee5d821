"""The bit-matrix kernels (kamicp.bits), across word boundaries."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kamicp.bits import full_row, pack_bits, transpose64, transpose_bits, unpack_bits

SIZES = st.sampled_from([1, 5, 63, 64, 65, 100, 128, 130])


def tile_bits(tile):  # [row, column]: bit c of word r
    return np.unpackbits(tile.astype("<u8").view(np.uint8), bitorder="little").reshape(64, 64)


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
@given(SIZES, st.integers(0, 2**32 - 1))
def test_pack_then_unpack_is_the_identity(n, seed):
    rows = np.random.default_rng(seed).random((3, n)) < 0.5
    packed = pack_bits(rows, (n + 63) // 64)
    assert packed.dtype == np.uint64 and packed.shape == (3, (n + 63) // 64)
    assert (unpack_bits(packed, n) == rows).all()
    assert (unpack_bits(full_row(n, (n + 63) // 64), n)).all()
