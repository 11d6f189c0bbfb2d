"""The arithmetic of one matrix instruction: exact products, exact sum, one rounding.

rocwmma-notes §3.10 / docs/architecture.md: per instruction D = round(C + sum_k A*B).
Integers are summed exactly in int64 and then wrap (MFMA) or saturate (WMMA clamp). Float
inputs narrower than float64 (f16, bf16, fp8, xf32, f32) have products exact in float64, and
their sum is rounded once to the accumulator type:

1. fast path: when every product and C are multiples of 2**q and no partial sum can reach
   2**(53+q), the float64 sum (numpy's own einsum loops, never BLAS) is exact — always the
   case for integer-valued data;
2. otherwise a compensated sum (TwoSum over the terms) gives hi + lo with the sign of the
   remainder known, and rounding hi "to odd" by that sign makes the final RNE exact;
3. the rare elements whose remainder is too small to know its sign are summed exactly with
   `math.fsum`.

f64 inputs (f64 MFMA) have inexact float64 products; they are summed in float64.
"""

from __future__ import annotations

import math

import numpy as np

from .. import types as T

_EPS = 2.0**-53


def decode(values: np.ndarray, t) -> np.ndarray:
    """Element values as float64 / int64, the exact compute representation."""
    if T.is_float(t):
        if T.resolve(t) is T.xfloat32:
            values = T.to_xfloat32(values)  # hardware reads only the 19 xf32 bits
        return np.asarray(values).astype(np.float64)
    return np.asarray(values).astype(np.int64)


def accumulate(a: np.ndarray, b: np.ndarray, c: np.ndarray, acc_type, *, clamp: bool = False):
    """D = C + A @ B over the last two axes (batched), rounded once to `acc_type`.

    `a` (..., M, K), `b` (..., K, N) and `c` (..., M, N) are decoded values (see `decode`).
    """
    total = c + np.einsum("...mk,...kn->...mn", a, b)
    if not T.is_float(acc_type):
        info = np.iinfo(T.storage_dtype(acc_type))
        if clamp:
            return np.clip(total, info.min, info.max).astype(info.dtype)
        return total.astype(info.dtype)  # two's-complement wrap, like MFMA's i32 adder
    if T.bits(acc_type) == 64 or not np.all(np.isfinite(total)) or _sum_is_exact(a, b, c):
        return T.convert(total, acc_type)
    return T.convert(_exactly_rounded_sum(a, b, c), acc_type)


def _lowest_bit(x: np.ndarray) -> float:
    """An exponent q with every element a multiple of 2**q (inf if all zero)."""
    if not x.any():
        return math.inf
    if np.array_equal(x, np.rint(x)):
        return 0.0  # integer-valued data, the common case: skip the bit twiddling
    x = x[x != 0]
    mant, exp = np.frexp(np.abs(x))
    bits = (mant * 2.0**53).astype(np.int64)
    low = np.frexp((bits & -bits).astype(np.float64))[1] - 1
    return float(np.min(exp - 53 + low))


def _sum_is_exact(a, b, c) -> bool:
    """True when float64 holds every partial sum of every output exactly."""
    quantum = min(_lowest_bit(a) + _lowest_bit(b), _lowest_bit(c))
    if quantum == math.inf:
        return True
    k = a.shape[-1]
    bound = k * float(np.max(np.abs(a), initial=0)) * float(np.max(np.abs(b), initial=0))
    bound += float(np.max(np.abs(c), initial=0))
    return bound < 2.0 ** (53 + quantum)


def _exactly_rounded_sum(a, b, c) -> np.ndarray:
    """float64 values v with RNE(v) == RNE(exact sum) for every narrower float format."""
    hi = c.copy()
    lo = np.zeros_like(hi)
    err_abs = np.zeros_like(hi)
    for k in range(a.shape[-1]):
        term = a[..., :, k, None] * b[..., None, k, :]
        total = hi + term  # TwoSum: hi + term == total + err exactly
        virt = total - hi
        err = (hi - (total - virt)) + (term - virt)
        hi, lo, err_abs = total, lo + err, err_abs + np.abs(err)
    head = hi + lo  # Fast2Sum: the normalised pair (head, tail), tail exact
    tail = lo - (head - hi)
    # lo carries its own rounding error of at most K*eps*sum|err|: where |tail| is not
    # clearly larger, the remainder's sign is unknown -> exact fsum for those elements.
    unsure = np.abs(tail) <= 2 * a.shape[-1] * _EPS * err_abs
    unsure &= err_abs != 0
    out = _round_to_odd(head, tail)
    shape, k = out.shape, a.shape[-1]
    a, b = np.broadcast_to(a, (*shape[:-1], k)), np.broadcast_to(b, (*shape[:-2], k, shape[-1]))
    c = np.broadcast_to(c, shape)
    for idx in zip(*np.nonzero(unsure), strict=True):
        terms = [c[idx], *(a[idx[:-1]] * b[(*idx[:-2], slice(None), idx[-1])])]
        exact_hi = math.fsum(terms)
        out[idx] = _round_to_odd(np.float64(exact_hi), np.float64(math.fsum([*terms, -exact_hi])))
    return out


def _round_to_odd(head: np.ndarray, tail: np.ndarray) -> np.ndarray:
    """head + tail rounded to float64 "to odd": of the two doubles around the exact value take
    the one with an odd significand. A later RNE to <= 51 bits is then correctly rounded."""
    head = np.asarray(head, dtype=np.float64)
    tail = np.broadcast_to(tail, head.shape)
    inexact = tail != 0
    even = (head.view(np.int64) & 1) == 0
    step = inexact & even
    toward = np.where(tail > 0, np.inf, -np.inf)
    return np.where(step, np.nextafter(head, toward), head)
