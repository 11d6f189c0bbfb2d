"""Helpers shared by the silicon numerics families: tile batching, exponents, powers of two."""

from __future__ import annotations

import math

import numpy as np

ZERO_EXPONENT = -126  # e(0) in the silicon's alignment, whatever the format


def flatten_tiles(a: np.ndarray, b: np.ndarray, c: np.ndarray):
    """Broadcast a (..., M, K), b (..., K, N), c (..., M, N) over their leading axes and flatten
    those to one tile axis; also returns the output shape (..., M, N)."""
    lead = np.broadcast_shapes(a.shape[:-2], b.shape[:-2], c.shape[:-2])
    m, k, n = a.shape[-2], a.shape[-1], b.shape[-1]
    tiles = math.prod(lead)
    a3 = np.broadcast_to(a, (*lead, m, k)).reshape(tiles, m, k)
    b3 = np.broadcast_to(b, (*lead, k, n)).reshape(tiles, k, n)
    c3 = np.broadcast_to(c, (*lead, m, n)).reshape(tiles, m, n)
    return a3, b3, c3, (*lead, m, n)


def exponents(x: np.ndarray, min_exp: int) -> np.ndarray:
    """e(x) as int16: floor(log2|x|) for normal values, the format's minimum normal exponent
    `min_exp` for subnormals, -126 for zeros. `x` holds finite decoded values (float64), all
    normal float64 numbers or zero."""
    x = np.asarray(x, np.float64)
    e = ((x.view(np.int64) >> 52) & 0x7FF) - 1023
    e = np.maximum(e, min_exp).astype(np.int16)
    e[x == 0] = ZERO_EXPONENT
    return e


def pow2(e: np.ndarray, dtype) -> np.ndarray:
    """2**e for integer e in the normal range of `dtype` (float32 or float64), built from bits."""
    e = np.asarray(e)
    if np.dtype(dtype) == np.float32:
        return ((e.astype(np.int32) + 127) << 23).view(np.float32)
    return ((e.astype(np.int64) + 1023) << 52).view(np.float64)


def flush_subnormals(x: np.ndarray, min_exp: int) -> np.ndarray:
    """Values below 2**min_exp in magnitude (subnormals, -0) become +0, sign lost."""
    return np.where(np.abs(x) < 2.0**min_exp, 0.0, x).astype(x.dtype)


def max_abs(x: np.ndarray) -> float:
    """max |x| (0 when empty)."""
    return max(float(np.max(x, initial=0.0)), -float(np.min(x, initial=0.0)))


def min_nonzero_abs(x: np.ndarray) -> float:
    """The smallest non-zero |x| (inf when there is none)."""
    mag = np.abs(x)
    return float(np.min(mag, initial=np.inf, where=mag != 0))


def lowest_bit(x: np.ndarray) -> float:
    """The largest q with every element of x a multiple of 2**q (inf when all are zero)."""
    x = np.abs(np.asarray(x, np.float64))
    x = x[x != 0]
    if not x.size:
        return math.inf
    mant, exp = np.frexp(x)  # x = mant * 2**exp, mant in [0.5, 1)
    digits = (mant * 2.0**53).astype(np.int64)
    low = np.frexp((digits & -digits).astype(np.float64))[1] - 1  # lowest set bit of digits
    return float(np.min(exp - 53 + low))
