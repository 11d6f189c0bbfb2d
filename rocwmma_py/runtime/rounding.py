"""One exact rounding of float64-computed results to binary16, bfloat16 or binary32, in the
four IEEE modes ("rn" to nearest even, "rz" toward zero, "rd" down, "ru" up).

Every correctly rounded operation here is built from error-free float64 steps: an exact
value is carried as `hi + lo` (TwoSum, exact products of <= 26-bit significands), squeezed
into one float64 rounded *to odd* (exact for any later rounding to <= 51 bits, in every
mode), then rounded once to the target; directed modes step the nearest result by one ulp
when it lies on the wrong side of the exact value. Whole-array numpy throughout.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

MODES = ("rn", "rz", "rd", "ru")
F16, BF16, F32 = np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16), np.dtype(np.float32)
_UINT = {F16: np.uint16, BF16: np.uint16, F32: np.uint32}


def two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(s, e) with s = fl(a + b) and s + e == a + b exactly (Knuth); e = 0 where s is not
    finite."""
    with np.errstate(invalid="ignore", over="ignore"):
        s = a + b
        bb = s - a
        e = (a - (s - bb)) + (b - bb)
    return s, np.where(np.isfinite(s), e, 0.0)


def to_odd(hi: np.ndarray, lo: np.ndarray) -> np.ndarray:
    """hi + lo (hi = fl(hi + lo)) rounded to odd in float64: hi, or its odd neighbour toward
    lo when lo != 0. A later rounding to <= 51 bits of this value equals that rounding of the
    exact hi + lo."""
    bits = np.asarray(hi, np.float64).view(np.int64)
    nudge = (lo != 0) & ((bits & 1) == 0) & np.isfinite(hi)
    away = (lo > 0) == (hi > 0)  # the odd neighbour toward lo: one step in magnitude
    return np.where(nudge, bits + np.where(away, 1, -1), bits).view(np.float64)


def _bits_to_bf16(u: np.ndarray) -> np.ndarray:
    """HIP's float -> bfloat16 (amd_hip_bf16.h): add 0x7FFF + lsb (round to nearest even,
    overflow to inf); NaN keeps its top bits, with the low payload folded into bit 16."""
    finite = (u & np.uint32(0x7F800000)) != np.uint32(0x7F800000)
    rounded = u + np.uint32(0x7FFF) + ((u >> np.uint32(16)) & np.uint32(1))
    nan_or_inf = np.where((u & np.uint32(0xFFFF)) != 0, u | np.uint32(0x10000), u)
    return (np.where(finite, rounded, nan_or_inf) >> np.uint32(16)).astype(np.uint16)


def float_to_bf16(x: np.ndarray) -> np.ndarray:
    """float32 values -> bfloat16 exactly as HIP's `__float2bfloat16` (bit recipe above)."""
    u = np.asarray(x, dtype=np.float32).view(np.uint32)
    return _bits_to_bf16(u).view(ml_dtypes.bfloat16)


def nearest(o: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """float64 -> dtype rounded to nearest even, once (numpy's f64 -> f16/f32 casts round
    directly; bfloat16 goes through a round-to-odd float32, exact for 8 bits)."""
    with np.errstate(over="ignore"):
        if dtype == BF16:
            r32 = o.astype(np.float32)
            nudge = (r32 != o) & np.isfinite(r32) & ((r32.view(np.uint32) & 1) == 0)
            r32 = np.where(nudge, np.nextafter(r32, np.where(o > r32, np.float32(np.inf),
                                                             np.float32(-np.inf))), r32)
            return float_to_bf16(r32)
        return o.astype(dtype)


def step(r: np.ndarray, down: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """r moved one representable value down (where `down`) or up (elsewhere) in `dtype`;
    +-0 steps to the smallest subnormal of the step's sign, +-inf to +-max."""
    uint = np.dtype(_UINT[dtype])
    u = np.asarray(r, dtype=dtype).view(uint)
    top = np.asarray(1 << (8 * uint.itemsize - 1), uint)
    one = np.asarray(1, uint)
    negative = (u & top) != 0
    zero = (u & (top - one)) == 0
    away = np.where(down, negative, ~negative)
    moved = np.where(away, u + one, u - one)
    smallest = np.where(down, top | one, one)
    return np.where(zero, smallest, moved).astype(uint).view(dtype)


def direct(rn: np.ndarray, err: np.ndarray, mode: str, dtype: np.dtype) -> np.ndarray:
    """The result in `mode` from the nearest result `rn` and err = sign(exact - rn)."""
    if mode == "rn":
        return rn
    if mode == "rd":
        fix, down = err < 0, np.ones(rn.shape, bool)
    elif mode == "ru":
        fix, down = err > 0, np.zeros(rn.shape, bool)
    else:  # rz: back toward zero where rn is farther from zero than the exact value
        positive = ~np.signbit(rn)
        fix, down = np.where(positive, err < 0, err > 0), positive
    return np.where(fix, step(rn, down, dtype), rn)


def error_sign(o: np.ndarray, rn: np.ndarray) -> np.ndarray:
    """sign(o - rn) for a float64 value o and its rounding rn (overflow to inf included)."""
    with np.errstate(invalid="ignore"):
        r = rn.astype(np.float64)
        err = np.sign(o - r)
    err = np.where(np.isinf(r) & np.isfinite(o), -np.sign(r), err)
    return np.nan_to_num(err, nan=0.0)


def round_odd(o: np.ndarray, dtype: np.dtype, mode: str) -> np.ndarray:
    """Round a float64 that is exact or rounded to odd to `dtype` in `mode`."""
    rn = nearest(o, dtype)
    if mode == "rn":
        return rn
    return direct(rn, error_sign(o, rn), mode, dtype)


def _zero_sign(o: np.ndarray, a: np.ndarray, b: np.ndarray, mode: str) -> np.ndarray:
    """IEEE 754 §6.3: an exact zero sum is +0 except -0 + -0 (any mode) and, rounding down,
    every zero sum other than +0 + +0."""
    if mode != "rd":
        return o
    both_plus = (a == 0) & (b == 0) & ~np.signbit(a) & ~np.signbit(b)
    return np.where((o == 0) & ~both_plus, -0.0, o)


def add(a: np.ndarray, b: np.ndarray, dtype: np.dtype, mode: str = "rn") -> np.ndarray:
    """a + b (float64 values of the inputs) rounded once to dtype."""
    hi, lo = two_sum(a, b)
    return round_odd(_zero_sign(to_odd(hi, lo), a, b, mode), dtype, mode)


def mul(a: np.ndarray, b: np.ndarray, dtype: np.dtype, mode: str = "rn") -> np.ndarray:
    """a * b rounded once (the float64 product of two <= 24-bit values is exact)."""
    with np.errstate(invalid="ignore"):
        return round_odd(a * b, dtype, mode)


def fma(a: np.ndarray, b: np.ndarray, c: np.ndarray, dtype: np.dtype,
        mode: str = "rn") -> np.ndarray:
    """a * b + c rounded once: exact product, TwoSum with c, round to odd, round."""
    with np.errstate(invalid="ignore"):
        p = a * b
    hi, lo = two_sum(p, c)
    return round_odd(_zero_sign(to_odd(hi, lo), p, c, mode), dtype, mode)


def div(a: np.ndarray, b: np.ndarray, dtype: np.dtype, mode: str = "rn") -> np.ndarray:
    """a / b rounded once. Nearest: the float64 quotient rounded again (innocuous, 53 >=
    2*24 + 2). Directed: sign(a/b - rn) = sign(b) * sign(a - rn*b), both steps exact."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        rn = nearest(a / b, dtype)
        if mode == "rn":
            return rn
        r = rn.astype(np.float64)
        rem = a - r * b
    normal = np.isfinite(a) & np.isfinite(b) & (b != 0) & np.isfinite(r)
    err = np.where(normal, np.sign(rem) * np.sign(b), 0.0)
    err = np.where(np.isinf(r) & np.isfinite(a) & np.isfinite(b) & (b != 0), -np.sign(r), err)
    return direct(rn, err, mode, dtype)


def sqrt(a: np.ndarray, dtype: np.dtype, mode: str = "rn") -> np.ndarray:
    """sqrt(a) rounded once; directed by sign(a - rn^2) (rn^2 and the difference exact)."""
    with np.errstate(invalid="ignore"):
        rn = nearest(np.sqrt(a), dtype)
        if mode == "rn":
            return rn
        r = rn.astype(np.float64)
        err = np.where(np.isfinite(r) & (a > 0), np.sign(a - r * r), 0.0)
    return direct(rn, err, mode, dtype)
