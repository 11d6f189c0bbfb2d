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

Vectorised: K-major copies of A and B, the group's largest exponent sum from one small
matmul of powers of two, scaled products truncated by a float -> int32 cast (truncation
toward zero), sums and the alignment of d in int64, everything over whole cache-sized
chunks of tiles. Products and scales are float32 when every product and 2**(24-E) is exact
there (always for f16 and fp8), else float64.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import silicon_common as SC
from .scratch import scratch

_FRACTION_BITS = 24  # product alignment: 24 fraction bits below 2**E
_SUM_BITS = 31  # the group sum keeps 31 fraction bits below 2**M
_FP8_DROP = 25  # fp8/bf8: d is dropped when e(d) < M - 25
_F32_TINY = np.float32(2.0**-126)  # 2**e(d) of a subnormal or zero d
_BIG_PRODUCT = 2.0**128  # products at least this large make the group infinite
_CHUNK_TERMS = 1 << 18  # product terms per chunk step (measured best: temporaries near L2 size)
# float32 is exact for the scaled products when every non-zero product lies in
# [2**-100, 2**126): then a non-zero product has alignment exponent >= -101, and with E
# clamped at -102 the scale 2**(24-E) <= 2**126 stays a normal float32.
_F32_MIN_PRODUCT, _F32_MAX_PRODUCT, _F32_MIN_E = 2.0**-100, 2.0**126, -102
_F64_MIN_E = -252  # the smallest alignment exponent there is (zero times zero)
_SCALE_BITS = np.int64((1023 + _FRACTION_BITS) << 52)  # float64 bits of 2**24, see _scale


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
    range_a, range_b = SC.magnitude_range(a3), SC.magnitude_range(b3)
    finite = math.isfinite(range_a[1]) and math.isfinite(range_b[1])
    a_fin, b_fin = a3, b3
    if not finite:
        a_fin, b_fin = (np.where(np.isfinite(x), x, 0.0) for x in (a3, b3))
        range_a, range_b = SC.magnitude_range(a_fin), SC.magnitude_range(b_fin)
    lo, hi = range_a[0] * range_b[0], range_a[1] * range_b[1]
    # float32 is exact for every non-zero product and its scaled form (always for f16, fp8)
    work = np.float32 if lo >= _F32_MIN_PRODUCT and hi < _F32_MAX_PRODUCT else np.float64
    # K-major operands, made once: every group step is a few whole-array operations on
    # (G, T, M, N) for a chunk of T tiles
    a_k = np.ascontiguousarray(np.moveaxis(a_fin, -1, 0), dtype=work)
    b_k = np.ascontiguousarray(np.moveaxis(b_fin, -2, 0), dtype=work)
    # a zero operand makes an alignment exponent of -126 + e: E may then fall below the
    # float32 floor, and the scale must be clamped
    zeros = np.count_nonzero(a_k) < a_k.size or np.count_nonzero(b_k) < b_k.size
    operands = Operands(
        a=a3, b=b3, finite=finite, big=hi >= _BIG_PRODUCT,
        floor_e=_F32_MIN_E if work is np.float32 and zeros else _F64_MIN_E,
        a_k=a_k[..., None], b_k=b_k[:, :, None, :],
        wa=np.moveaxis(_exponent_weights(SC.exponents(a_k, a_min_exp)), 0, -1),
        wb=np.moveaxis(_exponent_weights(SC.exponents(b_k, b_min_exp)), 0, -2))
    out = np.empty((tiles, m, n), np.float32)
    step = max(1, _CHUNK_TERMS // (m * n * min(group, k)))
    # non-finite d (its outputs are the special values' anyway) and overflow to +-inf (the
    # intended result) must not warn
    with np.errstate(over="ignore", invalid="ignore"):
        for t0 in range(0, tiles, step):
            part = slice(t0, t0 + step)
            out[part] = _fused_chunk(operands.part(part), c3[part], group, split)
    return out.reshape(shape)


@dataclass(frozen=True)
class Operands:
    """A and B of a batch of tiles as `_fused_chunk` reads them: the original values (for
    special values), K-major working copies (non-finite entries zeroed) and exponents."""

    a: np.ndarray  # (T, M, K)
    b: np.ndarray  # (T, K, N)
    finite: bool  # no NaN/inf in a or b
    big: bool  # some product may reach 2**128
    floor_e: int  # the alignment exponent the product scale is clamped to (-252: none)
    a_k: np.ndarray  # (K, T, M, 1) in the working dtype
    b_k: np.ndarray  # (K, T, 1, N)
    wa: np.ndarray  # (T, M, K) float64 2**(4 e(a)), `_exponent_weights`
    wb: np.ndarray  # (T, K, N) float64 2**(4 e(b))

    def part(self, tiles: slice) -> Operands:
        """The same for a chunk of tiles."""
        return Operands(self.a[tiles], self.b[tiles], self.finite, self.big, self.floor_e,
                        self.a_k[:, tiles], self.b_k[:, tiles], self.wa[tiles],
                        self.wb[tiles])


def _fused_chunk(ops: Operands, c, group, split) -> np.ndarray:
    """`fused_dot` for one chunk of tiles; c (T, M, N)."""
    a, b, finite, big, floor_e = ops.a, ops.b, ops.finite, ops.big, ops.floor_e
    a_k, b_k, wa, wb = ops.a_k, ops.b_k, ops.wa, ops.wb
    d = np.array(c, np.float32)
    k = a.shape[-1]
    size = min(group, k)
    for g0 in range(0, k, size):
        ks = range(g0, min(g0 + size, k))
        halves = (slice(g0, ks.stop, 2), slice(g0 + 1, ks.stop, 2)) if split else (
            slice(g0, ks.stop),)
        parts = [_truncated_sum(a_k[h], b_k[h], wa[..., h], wb[..., h, :], floor_e)
                 for h in halves]
        if split:
            (s0, e0, _), (s1, e1, _) = parts
            e = np.maximum(e0, e1)
            s = (s0 >> np.minimum(e - e0, 31)) + (s1 >> np.minimum(e - e1, 31))
            scale = _scale(e)
        else:
            s, e, scale = parts[0]
        d_units = d * scale  # d in units of 2**(E-24), exact
        hi, lo = float(d_units.max()), float(d_units.min())
        specials = None
        if not (finite and not big and math.isfinite(hi) and math.isfinite(lo)):
            specials = _special_values(a[..., g0:ks.stop], b[..., g0:ks.stop, :], d, big)
        d = _add_accumulator(s, scale, d, d_units, (lo, hi), drop=split)
        if specials is not None:
            where, values = specials
            d[where] = values
    return d


def _exponent_weights(e: np.ndarray) -> np.ndarray:
    """2**(4 e) as float64 (every e in [-126, 127]: normal, and so are products of two)."""
    return SC.pow2(4 * e.astype(np.int32), np.float64)


def _scale(e: np.ndarray) -> np.ndarray:
    """2**(24 - e) as float64, from the bits: (1023 + 24 - e) << 52 (e int64 in [-252, 254])."""
    bits = np.left_shift(e, 52)
    np.subtract(_SCALE_BITS, bits, out=bits)
    return bits.view(np.float64)


def _truncated_sum(a_k, b_k, wa, wb, floor_e: int
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(S, E, 2**(24-E)) of one group (or fp8 half) of at most 8 K positions, a_k (G, T, M, 1)
    and b_k (G, T, 1, N) with their weights wa (T, M, G), wb (T, G, N): E (int64) the
    largest alignment exponent e(a_k) + e(b_k), S (int32) the exact sum of the products
    truncated to multiples of 2**(E-24), in units of 2**(E-24); the scale float64.

    E comes from one small matmul: sum_k 2**(4 e(a_k)) 2**(4 e(b_k)) lies in
    [2**(4E), 8 * 2**(4E)] (powers of two, at most 8 of them; float64 rounding keeps it
    there), so its exponent field divided by 4, rounded down, is E. The (G, T, M, N)
    temporaries are per-thread scratch buffers, reused chunk after chunk and call after
    call."""
    shape = np.broadcast_shapes(a_k.shape, b_k.shape)
    assert shape[0] <= 8, "G = 4, 8, or fp8's 16 in two halves of 8"
    weights = np.matmul(wa, wb, out=scratch("exponent weights", shape[1:], np.float64))
    e = weights.view(np.int64) >> 52
    e -= 1023
    e >>= 2  # floor(log2(weights) / 4)
    scale64 = _scale(e)
    if a_k.dtype == np.float64:
        scale = scale64
    elif floor_e == _F64_MIN_E or int(e.min()) >= floor_e:  # (-252: no E is smaller)
        scale = scale64.astype(np.float32)  # powers of two in float32's normal range
    else:  # groups with zero products only: zero at any scale
        scale = _scale(np.maximum(e, floor_e)).astype(np.float32)
    # the outer products a_k b_k^T; einsum's loop beats broadcasting multiply here
    products = np.einsum("gtm,gtn->gtmn", a_k[..., 0], b_k[:, :, 0, :],
                         out=scratch("products", shape, a_k.dtype))
    products *= scale
    # the cast truncates toward zero; |scaled product| < 2**26, a sum of <= 8 < 2**31
    counts = scratch("counts", shape, np.int32)
    np.copyto(counts, products, casting="unsafe")
    return counts.sum(axis=0, dtype=np.int32), e, scale64


def _add_accumulator(s, scale, d, d_units, bounds: tuple[float, float], drop: bool
                     ) -> np.ndarray:
    """Steps 5-6: floor S to 2**(M-31) and d to 2**(M-24), add exactly, round to f32 (RNE).

    Everything in units u = 2**(E-24) (`scale` = 1/u, `d_units` = d/u, `bounds` its min and
    max). With R = 2**max(0, e(d) - E - 7) = max(1, 2**(M-31) / u) the result is
    (floor(S / R) + floor(d_units / R)) * R * u: where e(d) <= E + 7 (R = 1, |d_units| <
    2**32) that is S plus d floored to u, computed for every output at once; the few outputs
    with a larger d (or all, for fp8/bf8's drop rule) take the general form. Both parts are
    multiples of R below 2**53 R, so every step is exact in float64 and the one rounding is
    the final float32 cast. An exact zero comes out +0 (S is never -0, and +0 + -0 is +0).
    Runs under `fused_dot`'s errstate: a non-finite d (its outputs are the special values')
    and overflow to +-inf (the intended result) do not warn."""
    lo, hi = bounds
    if drop:
        return _general_sum(s, scale, d, d_units, drop)
    large = None if -2.0**32 < lo and hi < 2.0**32 else np.flatnonzero(
        np.abs(d_units) >= 2.0**32)
    if large is not None and large.size:
        d_large, units_large = d.reshape(-1)[large], d_units.reshape(-1)[large]
    total = np.floor(d_units, out=d_units)
    total += s
    total /= scale
    out = total.astype(np.float32)
    if large is not None and large.size:
        out.reshape(-1)[large] = _general_sum(s.reshape(-1)[large], scale.reshape(-1)[large],
                                              d_large, units_large, drop)
    return out


def _general_sum(s, scale, d, d_units, drop: bool) -> np.ndarray:
    """`_add_accumulator` for any R (d_units is changed); under `fused_dot`'s errstate."""
    # 2**e(d) with e(d) >= -126: the exponent bits of d, at least the smallest normal
    pow_d = np.maximum((d.view(np.int32) & 0x7F800000).view(np.float32), _F32_TINY)
    ratio = pow_d * scale  # 2**(e(d) - E + 24)
    r = np.maximum(ratio * 2.0**-_SUM_BITS, 1.0)  # R
    d_units /= r
    np.floor(d_units, out=d_units)
    if drop:  # fp8/bf8: d is dropped when e(d) < M - 25 (M = E there)
        d_units[ratio < 2.0 ** (_FRACTION_BITS - _FP8_DROP)] = 0.0
    total = s / r
    np.floor(total, out=total)
    total += d_units
    total *= r
    total /= scale
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
