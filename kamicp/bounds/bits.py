"""Boolean matrices as rows of 64-bit words, for the compiled bound loops.

Bit j of a row lives in word j // 64, at position j % 64 (little-endian). The walk levels
(:mod:`kamicp.bounds.walks`) are square bit matrices of shape (n, words), words = ceil(n / 64);
the tripod levels (:mod:`kamicp.bounds.tripods`) hold n such blocks per row. Bits past column
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

from kamicp.jit import kernel

__all__ = [
    "SMALL_TILE",
    "full_row",
    "pack_bits",
    "transpose64",
    "transpose_bits",
    "transpose_block",
    "unpack_bits",
]


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


# A tile with rows x columns at most this is gathered bit by bit. Measured on the flips of
# the tripod levels (n blocks of n x n): n = 65: 63 -> 31 us, 68: 66 -> 52, 72: 70 -> 57,
# 80: 96 -> 74, 96: 102 -> 115 us; at 1,024 (64 x 16 slivers gathered) n = 80 took 137 us.
SMALL_TILE = 256


@kernel
def transpose_bits(matrix, out) -> None:
    """out = the transpose of the n x n bit matrix ``matrix`` (shape (n, words)): bit x of
    row z of ``out`` = bit z of row x. ``out`` must not be ``matrix``."""
    transpose_block(matrix, 0, out, matrix.shape[0])


@kernel
def transpose_block(matrix, first, out, n) -> None:
    """The same for an n x n bit matrix stored in columns ``first`` .. ``first + words - 1``
    of ``matrix`` (row x: bits of ``matrix[x, first:first + words]``), written to the same
    columns of ``out``: the blocks of the tripod levels.

    Tiles are 64 x 64, cut short at row and column n. A tile is transposed whole by
    :func:`transpose64` (a fixed 6 x 32 swaps), a sliver (rows x columns at most
    :data:`SMALL_TILE`) bit by bit (rows x columns steps): when n is a little over a
    multiple of 64, three of the four tiles of each block are slivers (n = 65: 64 x 1,
    1 x 64 and 1 x 1), and transposing them whole took half of the time.
    """
    words = (n + 63) // 64
    tile = np.zeros(64, dtype=np.uint64)
    one = np.uint64(1)
    for i in range(words):  # rows 64 i .. 64 i + rows - 1, word j
        rows = min(64, n - 64 * i)
        for j in range(words):
            cols = min(64, n - 64 * j)
            if rows * cols <= SMALL_TILE:
                for c in range(cols):
                    shift = np.uint64(c)
                    gathered = np.uint64(0)
                    for r in range(rows):
                        bit = (matrix[64 * i + r, first + j] >> shift) & one
                        gathered |= bit << np.uint64(r)
                    out[64 * j + c, first + i] = gathered
                continue
            for r in range(64):
                tile[r] = matrix[64 * i + r, first + j] if r < rows else np.uint64(0)
            transpose64(tile)
            for c in range(cols):
                out[64 * j + c, first + i] = tile[c]


@kernel
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
