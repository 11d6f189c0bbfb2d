"""Family 3 of the silicon numerics: CDNA3's fused dot with truncated alignment and round-down.

silicon-numerics.md, family 3 (gfx942 f16, bf16, xf32, fp8/bf8). Per group of G consecutive
K positions, with d the running f32 value:

1. NaN/inf among the group's a_k, b_k or d: the IEEE value of d + sum(a_k*b_k);
2. an exact product |a_k*b_k| >= 2**128: +-inf by its sign (NaN if both signs occur);
3. each product is aligned at E = max(e(a_k) + e(b_k)) (operand exponents, subnormals at the
   format's minimum normal exponent, zero at -126) and truncated toward zero to a multiple of
   2**(E-24); the truncated products are summed exactly (S, an integer count of 2**(E-24));
   fp8/bf8 sum the even and odd k separately and floor both half sums onto the larger E;
4. M = max(E, e(d)): S is floored to a multiple of 2**(M-31), d to one of 2**(M-24) (fp8/bf8
   drop d when e(d) < M - 25), the two are added exactly and rounded once to f32 (RNE);
   an exact zero is +0.

Vectorised: K-major copies of A and B, exponent sums in int16 with the group maximum as one
reduction, scaled products truncated by a float -> int32 cast (truncation toward zero), sums
and the alignment of d in int64, everything over whole cache-sized chunks of tiles. Products
and scales are float32 when every product and 2**(24-E) is exact there (always for f16 and
fp8), else float64.
"""

from __future__ import annotations

import numpy as np

from . import silicon_common as SC

_FRACTION_BITS = 24  # product alignment: 24 fraction bits below 2**E
_SUM_BITS = 31  # the group sum keeps 31 fraction bits below 2**M
_ACC_BITS = 24  # d keeps 24 fraction bits below 2**M
_FP8_DROP = 25  # fp8/bf8: d is dropped when e(d) < M - 25
_BIG_PRODUCT = 2.0**128  # products at least this large make the group infinite
_CHUNK_TERMS = 1 << 17  # product terms per chunk step: float32 temporaries stay in L2
# float32 is exact for the scaled products when every non-zero product lies in
# [2**-100, 2**126): then a non-zero product has alignment exponent >= -101, and with E
# clamped at -102 the scale 2**(24-E) <= 2**126 stays a normal float32.
_F32_MIN_PRODUCT, _F32_MAX_PRODUCT, _F32_MIN_E = 2.0**-100, 2.0**126, -102
_F64_MIN_E = -252  # the smallest alignment exponent there is (zero times zero)


def fused_dot(a: np.ndarray, b: np.ndarray, c: np.ndarray, *, group: int, split: bool,
              a_min_exp: int, b_min_exp: int) -> np.ndarray:
    """D = C + A @ B over the last two axes (batched) as CDNA3 computes it; float32 result.

    `a` (..., M, K), `b` (..., K, N) hold decoded input values (float64), `c` (..., M, N)
    float32 values; `group` is G, `split` the fp8/bf8 two-stage sum, `*_min_exp` the input
    formats' minimum normal exponents.
    """
    a3, b3, c3, shape = SC.flatten_tiles(a, b, c)
    tiles, m, k = a3.shape
    n = b3.shape[-1]
    out = np.empty((tiles, m, n), np.float32)
    step = max(1, _CHUNK_TERMS // (m * n * min(group, k)))
    for t0 in range(0, tiles, step):
        part = slice(t0, t0 + step)
        out[part] = _fused_chunk(a3[part], b3[part], c3[part], group, split,
                                 a_min_exp, b_min_exp)
    return out.reshape(shape)


def _fused_chunk(a, b, c, group, split, a_min_exp, b_min_exp) -> np.ndarray:
    """`fused_dot` for one chunk of tiles: a (T, M, K), b (T, K, N), c (T, M, N)."""
    finite = bool(np.isfinite(a).all() and np.isfinite(b).all())
    a_fin, b_fin = (a, b) if finite else (np.where(np.isfinite(a), a, 0.0),
                                          np.where(np.isfinite(b), b, 0.0))
    big = SC.max_abs(a_fin) * SC.max_abs(b_fin) >= _BIG_PRODUCT
    work = _work_dtype(a_fin, b_fin)
    floor_e = _F32_MIN_E if work is np.float32 else _F64_MIN_E
    # K-major operands: every group step is a few whole-array operations on (G, T, M, N)
    a_k = np.ascontiguousarray(np.moveaxis(a_fin, -1, 0), dtype=work)[..., None]
    b_k = np.ascontiguousarray(np.moveaxis(b_fin, -2, 0), dtype=work)[:, :, None, :]
    ea = np.moveaxis(SC.exponents(a_fin, a_min_exp), -1, 0)[..., None]
    eb = np.moveaxis(SC.exponents(b_fin, b_min_exp), -2, 0)[:, :, None, :]
    d = np.array(c, np.float32)
    k = a.shape[-1]
    size = min(group, k)
    for g0 in range(0, k, size):
        ks = range(g0, min(g0 + size, k))
        halves = (slice(g0, ks.stop, 2), slice(g0 + 1, ks.stop, 2)) if split else (
            slice(g0, ks.stop),)
        parts = [_truncated_sum(a_k[h], b_k[h], ea[h], eb[h], floor_e) for h in halves]
        if split:
            (s0, e0), (s1, e1) = parts
            e = np.maximum(e0, e1)
            s = (s0 >> np.minimum(e - e0, 62)) + (s1 >> np.minimum(e - e1, 62))
        else:
            s, e = parts[0]
        specials = None
        if not finite or big or not np.isfinite(d).all():
            specials = _special_values(a[..., g0:ks.stop], b[..., g0:ks.stop, :], d, big)
        d = _add_accumulator(s, e, d, drop=split)
        if specials is not None:
            where, values = specials
            d[where] = values
    return d


def _work_dtype(a: np.ndarray, b: np.ndarray) -> type:
    """float32 when every non-zero product and its scaled form are exact in float32."""
    lo = SC.min_nonzero_abs(a) * SC.min_nonzero_abs(b)
    hi = SC.max_abs(a) * SC.max_abs(b)
    return np.float32 if lo >= _F32_MIN_PRODUCT and hi < _F32_MAX_PRODUCT else np.float64


def _truncated_sum(a_k, b_k, ea, eb, floor_e: int) -> tuple[np.ndarray, np.ndarray]:
    """(S, E) of one group (or fp8 half): E the largest alignment exponent, S the exact sum of
    the products truncated to multiples of 2**(E-24), counted in units of 2**(E-24)."""
    e = np.add(ea, eb).max(axis=0)
    scale = SC.pow2(_FRACTION_BITS - np.maximum(e, floor_e), a_k.dtype)
    products = np.multiply(a_k, b_k)
    products *= scale
    # the cast truncates toward zero; |scaled product| < 2**26, a sum of <= 16 < 2**31
    s = products.astype(np.int32).sum(axis=0, dtype=np.int64)
    return s, e.astype(np.int64)


def _add_accumulator(s: np.ndarray, e: np.ndarray, d: np.ndarray, drop: bool) -> np.ndarray:
    """Steps 5-6: floor S to 2**(M-31) and d to 2**(M-24), add exactly, round to f32 (RNE).

    Integer arithmetic in units of 2**(M-31): d = sd * 2**(ed-23) with sd its signed 24-bit
    significand; arithmetic right shifts are floors. An exact zero comes out as +0."""
    bits = d.view(np.int32).astype(np.int64)
    biased = (bits >> 23) & 0xFF
    mant = bits & 0x7FFFFF
    sd = np.where(biased > 0, mant | 0x800000, mant)
    sd = np.where(bits < 0, -sd, sd)
    ed = np.maximum(biased, 1) - 127  # subnormal and zero d: -126
    m = np.maximum(e, ed)
    s_shift = e - m + (_SUM_BITS - _FRACTION_BITS)  # <= 7
    s_q = (s << np.maximum(s_shift, 0)) >> np.minimum(np.maximum(-s_shift, 0), 62)
    d_shift = m - ed - 1  # >= -1: d is a multiple of 2**(ed-23)
    d_q = ((sd << np.maximum(-d_shift, 0)) >> np.minimum(np.maximum(d_shift, 0), 62)) << (
        _SUM_BITS - _ACC_BITS)
    if drop:
        d_q = np.where(ed < m - _FP8_DROP, 0, d_q)
    total = (s_q + d_q).astype(np.float64) * SC.pow2(m - _SUM_BITS, np.float64)
    with np.errstate(over="ignore"):  # overflow to +-inf is the intended result
        return total.astype(np.float32)


def _special_values(a, b, d, big: bool):
    """Steps 1-2 for one group: (index, float32 values) of the outputs they decide, or None.

    a (T, M, G), b (T, G, N) are the group's original inputs, d (T, M, N) the running value."""
    bad = ((~np.isfinite(a)).any(axis=-1)[..., :, None]
           | (~np.isfinite(b)).any(axis=-2)[..., None, :] | ~np.isfinite(d))
    decided = bad.copy()
    values = np.zeros(d.shape, np.float64)
    if bad.any():
        idx = np.nonzero(bad)
        with np.errstate(invalid="ignore", over="ignore"):  # IEEE inf*0, inf-inf: NaN
            terms = a[idx[0], idx[1], :] * b[idx[0], :, idx[2]]
            values[idx] = terms.sum(axis=-1) + d[idx].astype(np.float64)
    if big:
        with np.errstate(invalid="ignore", over="ignore"):
            products = a[..., :, :, None] * b[..., None, :, :]  # (T, M, G, N), finite ones
        pos = (products >= _BIG_PRODUCT).any(axis=-2)
        neg = (products <= -_BIG_PRODUCT).any(axis=-2)
        huge = (pos | neg) & ~bad
        values[huge] = np.where(pos & neg, np.nan, np.where(pos, np.inf, -np.inf))[huge]
        decided |= huge
    if not decided.any():
        return None
    with np.errstate(over="ignore", invalid="ignore"):
        return decided, values[decided].astype(np.float32)
