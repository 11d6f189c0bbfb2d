"""Family 1 of the silicon numerics: an FMA chain (f32 on CDNA1/2/3, f64 on CDNA2/3).

silicon-numerics.md, family 1: d = C; for k = 0 .. K-1 in ascending order d = fma(a_k, b_k, d),
one IEEE fused multiply-add in the accumulator format, round to nearest even, subnormals
kept; an overflow inside the chain stays inf.

numpy has no fused multiply-add, so each step is emulated exactly over whole arrays:

* f32: a*b is exact in float64 (48 bits), s = fl64(a*b + d) rounds once; rounding s to f32
  again is wrong only where s sits exactly on an f32 midpoint (or in f32's subnormal range),
  and there the TwoSum remainder rounds s "to odd" first, which makes the second rounding
  exact.
* f64: Dekker's exact product (a*b = p + err, Veltkamp splits made once per operand) and
  Boldo-Melquiond's emulation: (th, tl) = TwoSum(d, p), v = tl + err rounded to odd,
  result = RN(th + v). Where that is not proven exact (products or results near underflow,
  operands near overflow, non-finite values) the step is computed with exact rationals.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from . import silicon_common as SC

_CHUNK_OUTPUTS = 1 << 15  # outputs per chunk: the float64 temporaries stay in L2
_F32_MIDPOINT_BITS = (0x1FFFFFFF, 0x10000000)  # float64 bits below f32 precision, a midpoint
_F32_TINY = 2.0**-126
_SPLIT = 134217729.0  # 2**27 + 1, Veltkamp's splitter for float64
_F64_SAFE_LOW = 2.0**-960  # products and results above this leave Dekker's error unrounded
_F64_SAFE_HIGH = 2.0**995  # operands below this split without overflow


def fma_chain(a: np.ndarray, b: np.ndarray, c: np.ndarray, acc_type) -> np.ndarray:
    """D = C + A @ B over the last two axes (batched) as a chain of FMAs in ascending k.

    `a` (..., M, K), `b` (..., K, N), `c` (..., M, N) hold decoded values; `acc_type` is
    np.float32 or np.float64 (the instruction's accumulator). Returns that dtype."""
    a3, b3, c3, shape = SC.flatten_tiles(a, b, c)
    tiles, m, _ = a3.shape
    n = b3.shape[-1]
    out = np.empty((tiles, m, n), acc_type)
    step = max(1, _CHUNK_OUTPUTS // (m * n))
    chain = _chain_f32 if np.dtype(acc_type) == np.float32 else _chain_f64
    with np.errstate(over="ignore", invalid="ignore"):  # IEEE inf and NaN are results here
        for t0 in range(0, tiles, step):
            part = slice(t0, t0 + step)
            out[part] = chain(a3[part], b3[part], c3[part])
    return out.reshape(shape)


def _chain_f32(a, b, c) -> np.ndarray:
    d = np.array(c, np.float64)
    s = np.empty_like(d)
    low = np.empty(d.shape, np.int64)
    for k in range(a.shape[-1]):
        col, row = a[:, :, k, None], b[:, None, k, :]
        np.multiply(col, row, out=s)  # the exact product
        s += d
        rounded = s.astype(np.float32)
        np.bitwise_and(s.view(np.int64), _F32_MIDPOINT_BITS[0], out=low)
        unsure = low == _F32_MIDPOINT_BITS[1]
        if float(np.min(np.abs(rounded), initial=np.inf)) < _F32_TINY:  # f32 subnormals
            unsure |= np.abs(s) < _F32_TINY
        if unsure.any():  # (np.nonzero is slow: only where something is unsure)
            at = np.nonzero(unsure)
            p = np.broadcast_to(col, s.shape)[at] * np.broadcast_to(row, s.shape)[at]
            rounded[at] = _round_to_odd(s[at], _two_sum_error(d[at], p, s[at]))
        d[...] = rounded
    return d.astype(np.float32)


def _chain_f64(a, b, c) -> np.ndarray:
    a_hi, a_lo = _split(a)
    b_hi, b_lo = _split(b)
    d = np.array(c, np.float64)
    for k in range(a.shape[-1]):
        col = (slice(None), slice(None), slice(k, k + 1))
        row = (slice(None), slice(k, k + 1), slice(None))
        ah, al, bh, bl = a_hi[col], a_lo[col], b_hi[row], b_lo[row]
        p = a[col] * b[row]
        err = ((ah * bh - p) + ah * bl + al * bh) + al * bl  # a*b == p + err exactly
        th = d + p
        tl = _two_sum_error(d, p, th)
        u = tl + err
        v = _round_to_odd(u, _two_sum_error(tl, err, u))
        result = th + v
        unproven = ~_proven(a[col], b[row], p, result)
        if unproven.any():
            unsafe = np.nonzero(unproven)
            a_b = np.broadcast_arrays(a[col], b[row], d)
            result[unsafe] = [_exact_fma(x, y, z) for x, y, z in
                              zip(*(arr[unsafe].tolist() for arr in a_b), strict=True)]
        d = result
    return d


def _proven(a, b, p, result) -> np.ndarray:
    """Where the float64 emulation is proven exact: no underflow of Dekker's error term or of
    the result's rounding, no overflow in the splits, everything finite."""
    return ((np.abs(a) < _F64_SAFE_HIGH) & (np.abs(b) < _F64_SAFE_HIGH)
            & ((np.abs(p) >= _F64_SAFE_LOW) | (p == 0)) & (np.abs(result) >= _F64_SAFE_LOW)
            & np.isfinite(result))


def _split(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Veltkamp: x = hi + lo with 26-bit halves, so their products are exact."""
    t = _SPLIT * x
    hi = t - (t - x)
    return hi, x - hi


def _two_sum_error(x, y, s) -> np.ndarray:
    """The exact error of s = fl(x + y): x + y == s + error (Knuth's TwoSum)."""
    virt = s - x
    return (x - (s - virt)) + (y - virt)


def _round_to_odd(s: np.ndarray, error: np.ndarray) -> np.ndarray:
    """s + error (s = fl(s + error)) rounded to odd: an inexact even s moves one ulp toward the
    error, to the odd neighbour on the exact value's side."""
    bits = s.view(np.int64)
    even_inexact = (error != 0) & ((bits & 1) == 0) & np.isfinite(s)
    away = (error > 0) == (s > 0)  # magnitude grows: the next bit pattern up
    step = np.where(even_inexact, np.where(away, 1, -1), 0)
    return (bits + step).view(np.float64)


def _exact_fma(a: float, b: float, d: float) -> float:
    """fma(a, b, d) in float64 with IEEE special values, by exact rational arithmetic."""
    if not (np.isfinite(a) and np.isfinite(b)):
        return a * b + d  # inf*0 -> NaN, inf + -inf -> NaN, else the infinity
    if not np.isfinite(d):
        return d
    exact = Fraction(a) * Fraction(b) + Fraction(d)
    if exact == 0:
        product_negative_zero = (a == 0 or b == 0) and (np.signbit(a) != np.signbit(b))
        return -0.0 if product_negative_zero and np.signbit(d) else 0.0
    try:
        return exact.numerator / exact.denominator  # correctly rounded (CPython)
    except OverflowError:
        return float("inf") if exact > 0 else float("-inf")
