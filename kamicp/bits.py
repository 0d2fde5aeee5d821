"""Boolean matrices as rows of 64-bit words, for the compiled bound loops.

Bit j of a row lives in word j // 64, at position j % 64 (little-endian). The walk levels
(:mod:`kamicp.walks`) are square bit matrices of shape (n, words), words = ceil(n / 64);
the tripod levels (:mod:`kamicp.tripods`) hold n such blocks per row. Bits past column
n - 1 are always zero, which keeps whole-row comparisons exact.

The transposition works on 64 x 64 tiles by the recursive block swap of Warren, "Hacker's
Delight" (2nd ed., section 7-3): O(words^2 x 64 x 6) word operations for an n x n matrix.

Example::

    >>> import numpy as np
    >>> rows = np.array([[True, True, False], [False, False, True], [False, False, False]])
    >>> packed = pack_bits(rows, 1)
    >>> flipped = np.zeros_like(packed)
    >>> transpose_bits(packed, flipped)
    >>> unpack_bits(flipped, 3).astype(int).tolist()
    [[1, 0, 0], [1, 0, 0], [0, 1, 0]]
"""

from __future__ import annotations

import numpy as np
from numba import njit


def pack_bits(rows: np.ndarray, words: int) -> np.ndarray:
    """Boolean rows (last axis: columns) as 64-bit words, bit j of word j // 64."""
    octets = np.zeros(rows.shape[:-1] + (words * 8,), dtype=np.uint8)
    bits = np.packbits(rows, axis=-1, bitorder="little")
    octets[..., : bits.shape[-1]] = bits
    return octets.view("<u8").astype(np.uint64)


def unpack_bits(packed: np.ndarray, n: int) -> np.ndarray:
    """The first ``n`` bits of each row of 64-bit words (last axis), as booleans."""
    octets = np.ascontiguousarray(packed).astype("<u8").view(np.uint8)
    return np.unpackbits(octets, axis=-1, count=n, bitorder="little").astype(bool)


def full_row(n: int, words: int) -> np.ndarray:
    """A row of ``words`` words with bits 0 .. n - 1 set."""
    return pack_bits(np.ones(n, dtype=bool), words)


@njit(cache=True)
def transpose_bits(matrix, out) -> None:
    """out = the transpose of the n x n bit matrix ``matrix`` (shape (n, words)): bit x of
    row z of ``out`` = bit z of row x. ``out`` must not be ``matrix``."""
    n, words = matrix.shape
    tile = np.zeros(64, dtype=np.uint64)
    for i in range(words):  # rows 64 i .. 64 i + 63, word j
        for j in range(words):
            for r in range(64):
                x = 64 * i + r
                tile[r] = matrix[x, j] if x < n else np.uint64(0)
            transpose64(tile)
            for r in range(64):
                z = 64 * j + r
                if z < n:
                    out[z, i] = tile[r]


@njit(cache=True)
def transpose64(tile) -> None:
    """Transpose a 64 x 64 bit matrix in place (row r = word r, column c = bit c): swap the
    off-diagonal blocks of width 32, then 16, ... 1 within each diagonal block (Warren,
    "Hacker's Delight", 2nd ed., section 7-3)."""
    width = 32
    mask = np.uint64(0x00000000FFFFFFFF)
    while width:
        shift = np.uint64(width)
        r = 0
        while r < 64:
            swap = ((tile[r] >> shift) ^ tile[r + width]) & mask
            tile[r] ^= swap << shift
            tile[r + width] ^= swap
            r = (r + width + 1) & ~width
        width //= 2
        mask ^= mask << np.uint64(width)
