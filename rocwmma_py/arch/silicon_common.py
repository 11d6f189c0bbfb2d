"""Helpers shared by the silicon numerics families: tile batching, exponents, powers of two."""

from __future__ import annotations

import math

import numpy as np

from .magnitudes import magnitude_bits
from .scratch import scratch

ZERO_EXPONENT = -126  # e(0) in the silicon's alignment, whatever the format


def flatten_tiles(a: np.ndarray, b: np.ndarray, c: np.ndarray):
    """Broadcast a (..., M, K), b (..., K, N), c (..., M, N) over their leading axes and flatten
    those to one tile axis; also returns the output shape (..., M, N)."""
    m, k, n = a.shape[-2], a.shape[-1], b.shape[-1]
    if a.shape[:-2] == b.shape[:-2] == c.shape[:-2]:  # nothing to broadcast (one call fewer)
        lead = a.shape[:-2]
        tiles = math.prod(lead)
        return (a.reshape(tiles, m, k), b.reshape(tiles, k, n), c.reshape(tiles, m, n),
                (*lead, m, n))
    lead = np.broadcast_shapes(a.shape[:-2], b.shape[:-2], c.shape[:-2])
    tiles = math.prod(lead)
    a3 = np.broadcast_to(a, (*lead, m, k)).reshape(tiles, m, k)
    b3 = np.broadcast_to(b, (*lead, k, n)).reshape(tiles, k, n)
    c3 = np.broadcast_to(c, (*lead, m, n)).reshape(tiles, m, n)
    return a3, b3, c3, (*lead, m, n)


def exponents(x: np.ndarray, min_exp: int) -> np.ndarray:
    """e(x) as int16: floor(log2|x|) for normal values, the format's minimum normal exponent
    `min_exp` for subnormals, -126 for zeros. `x` holds finite float64 or float32 values
    (the float32 ones normal or zero), read from their exponent bits."""
    x = np.asarray(x)
    if x.dtype != np.float32:
        x = x.astype(np.float64, copy=False)
    info = np.finfo(x.dtype)
    field = (x.view(f"i{x.itemsize}") >> info.nmant) & (2 * info.maxexp - 1)
    e = np.maximum(field - (info.maxexp - 1), min_exp).astype(np.int16)
    e[x == 0] = ZERO_EXPONENT
    return e


def pow2(e: np.ndarray, dtype) -> np.ndarray:
    """2**e for integer e in the normal range of `dtype` (float32 or float64), built from bits."""
    if np.dtype(dtype) == np.float32:
        bits = np.add(e, 127, dtype=np.int32)
        bits <<= 23
        return bits.view(np.float32)
    bits = np.add(e, 1023, dtype=np.int64)
    bits <<= 52
    return bits.view(np.float64)


def flush_subnormals(x: np.ndarray, min_exp: int) -> np.ndarray:
    """Values below 2**min_exp in magnitude (subnormals, -0) become +0, sign lost."""
    return np.where(np.abs(x) < 2.0**min_exp, 0.0, x).astype(x.dtype)


_SAMPLE = 4096  # elements tested before a whole array; small arrays' size


def max_abs(x: np.ndarray) -> float:
    """max |x| (0 when empty; NaN when x holds one): small arrays through one |x| temporary
    (fewer numpy calls), large ones without it."""
    if x.size <= _SAMPLE:
        return float(np.abs(x).max(initial=0.0))
    return max(float(np.max(x, initial=0.0)), -float(np.min(x, initial=0.0)))


def min_nonzero_abs(x: np.ndarray) -> float:
    """The smallest non-zero |x| (inf when there is none)."""
    return magnitude_range(np.asarray(x, np.float64))[0]


def magnitude_range(x: np.ndarray) -> tuple[float, float]:
    """(smallest non-zero |x|, largest |x|) of float64 x: (inf, 0.0) when x is all zero or
    empty, the largest NaN when x holds a NaN (`magnitude_bits`). Small finite arrays take
    a path of fewer numpy calls; NaN and inf take the bit patterns' (which order them)."""
    if x.size <= _SAMPLE and x.dtype.kind == "f":
        mags = np.abs(x)
        largest = float(mags.max(initial=0.0))
        if math.isfinite(largest):
            return float(np.fmin.reduce(mags, axis=None, where=mags != 0, initial=math.inf)), \
                largest
    top, low = magnitude_bits(x, None, "magnitude bits")
    smallest = math.inf if low[0] == 0 else float(low.view(np.float64)[0])
    return smallest, float(top.view(np.float64)[0])


def multiples_of(x: np.ndarray, q: int) -> bool:
    """Every element of x (finite float64, |x| < 2**(53+q)) is a multiple of 2**q; a sample is
    tested first, so random-valued data fails cheaply."""
    if q <= -1074:
        return True  # every float64 is
    flat = np.asarray(x).reshape(-1)
    for part in (flat,) if flat.size <= _SAMPLE else (flat[:_SAMPLE], flat):
        if q < 0 and part.size > _SAMPLE and _whole(part, 0):
            continue  # integers are multiples of 2**q: no scaling pass over a large part
        if not _whole(part, -q):
            return False
    return True


_CHUNK = 1 << 16  # elements `_whole` tests at a time: its temporaries stay in the L2 cache


def _whole(x: np.ndarray, scale: int) -> bool:
    """Whether every element of the flat array x times 2**scale is an integer (computed in
    x's dtype), a chunk at a time through per-thread scratch buffers: each rounded chunk is
    compared while it is in cache, and the first chunk that fails ends the test. (Small
    arrays, the per-wave engine's tiles: three calls, no buffers.)"""
    if x.size <= _SAMPLE:
        scaled = np.ldexp(x, scale) if scale else x
        return bool((scaled == np.rint(scaled)).all())
    size = min(x.size, _CHUNK)
    scaled = scratch("whole scaled", (size,), x.dtype) if scale else None
    rounded = scratch("whole rounded", (size,), x.dtype)
    same = scratch("whole same", (size,), np.bool_)
    for start in range(0, x.size, _CHUNK):
        part = x[start:start + _CHUNK]
        n = part.size
        if scaled is not None:
            part = np.ldexp(part, scale, out=scaled[:n])
        np.rint(part, out=rounded[:n])
        if not np.equal(rounded[:n], part, out=same[:n]).all():
            return False
    return True
