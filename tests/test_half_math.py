"""HIP half-precision intrinsics and float fast math against exact rational rounding.

The reference rounds Fractions to binary16 / bfloat16 / binary32 with its own integer
round-to-nearest-even and directed rounding (written here, independent of the package), on
random bit patterns including subnormals, ties, +-0, inf and NaN. Approximate functions are
checked against documented error bounds with a float64 reference.
"""

from __future__ import annotations

import math
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

import rocwmma_py as R
from rocwmma_py import HalfTypeError, blockDim, blockIdx, kernel, threadIdx, use_engine
from rocwmma_py.runtime import half_math as H

BF16 = ml_dtypes.bfloat16
FORMATS = {np.float16: (11, -14, 15), BF16: (8, -126, 127), np.float32: (24, -126, 127)}
rng = np.random.default_rng(20261123)


# --- the independent reference ------------------------------------------------------------

def ref_round(q: Fraction, fmt, mode: str = "rn", zero_sign: float = 1.0) -> float:
    """Exact rational q rounded to the format (precision p, emin, emax) in `mode`."""
    p, emin, emax = FORMATS[fmt]
    if q == 0:
        return math.copysign(0.0, zero_sign)
    sign = 1 if q > 0 else -1
    a = abs(q)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    e = max(e, emin)
    quantum = Fraction(2) ** (e - p + 1)
    n = a / quantum
    n0 = n.numerator // n.denominator
    rem = n - n0
    away = {"rn": rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n0 % 2 == 1),
            "rz": False, "rd": rem > 0 and sign < 0, "ru": rem > 0 and sign > 0}[mode]
    m = (n0 + away) * quantum
    largest = (2 - Fraction(2) ** (1 - p)) * Fraction(2) ** emax
    if m > largest:
        to_inf = mode == "rn" or (mode == "rd" and sign < 0) or (mode == "ru" and sign > 0)
        return sign * math.inf if to_inf else sign * float(largest)
    if m == 0:
        return math.copysign(0.0, sign)
    return sign * float(m)


def random_bits(fmt, n: int) -> np.ndarray:
    """n values of the format from uniformly random bit patterns plus the special ones."""
    if fmt is np.float32:
        bits = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
        special = np.array([0, 0x80000000, 1, 0x80000001, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000,
                            0xFF800000, 0x7FC00000, 0x3F800000, 0x00800000, 0x007FFFFF],
                           np.uint32)
        return np.concatenate([special, bits]).view(np.float32)
    bits = rng.integers(0, 2**16, n, dtype=np.uint32).astype(np.uint16)
    top = 0x7BFF if fmt is np.float16 else 0x7F7F
    inf = 0x7C00 if fmt is np.float16 else 0x7F80
    special = np.array([0, 0x8000, 1, 0x8001, top, top | 0x8000, inf, inf | 0x8000, inf | 1,
                        0x3C00 if fmt is np.float16 else 0x3F80, 0x03FF, 0x0400], np.uint16)
    return np.concatenate([special, bits]).view(np.dtype(fmt))


def same(got, want) -> bool:
    """Bit-equal up to NaN payloads (both NaN), and with the sign of zero."""
    got, want = float(got), float(want)
    if math.isnan(want):
        return math.isnan(got)
    return got == want and math.copysign(1, got) == math.copysign(1, want)


def check(got, want_fn, *inputs) -> None:
    got = np.asarray(got).reshape(-1)
    flat = [np.broadcast_to(np.asarray(x), got.shape).reshape(-1) for x in inputs]
    for i in range(got.size):
        args = [x[i] for x in flat]
        want = want_fn(*args)
        assert same(got[i], want), (args, got[i], want)


def ieee_or(exact_fn, ieee_fn):
    """exact_fn on finite inputs (Fractions), ieee_fn (float64 IEEE) when any is inf/NaN."""
    def ref(*xs):
        if all(math.isfinite(float(x)) for x in xs):
            return exact_fn(*[Fraction(float(x)) for x in xs], *xs)
        with np.errstate(all="ignore"):
            return ieee_fn(*[np.float64(x) for x in xs])
    return ref


def sum_zero_sign(mode, *terms) -> float:
    """IEEE 754 §6.3 sign of an exact zero sum of the given (float) terms."""
    if all(t == 0 and math.copysign(1, t) < 0 for t in terms):
        return -1.0
    if mode == "rd" and not all(t == 0 and math.copysign(1, t) > 0 for t in terms):
        return -1.0
    return 1.0


def product_sign(x, y) -> float:
    return math.copysign(1, float(x)) * math.copysign(1, float(y))


# --- correctly rounded __half arithmetic ---------------------------------------------------

F16_OPS = {
    "__hadd": (lambda a, b, x, y: ref_round(a + b, np.float16, "rn",
                                            sum_zero_sign("rn", float(x), float(y))),
               lambda a, b: a + b),
    "__hsub": (lambda a, b, x, y: ref_round(a - b, np.float16, "rn",
                                            sum_zero_sign("rn", float(x), -float(y))),
               lambda a, b: a - b),
    "__hmul": (lambda a, b, x, y: ref_round(a * b, np.float16, "rn", product_sign(x, y)),
               lambda a, b: a * b),
    "__hdiv": (lambda a, b, x, y: (ref_round(a / b, np.float16, "rn", math.copysign(1, float(x))
                                             * math.copysign(1, float(y)))
                                   if b != 0 else float(np.float64(x) / np.float64(y))),
               lambda a, b: a / b),
}


@pytest.mark.parametrize("name", sorted(F16_OPS))
def test_half_binary_ops_round_once(name):
    exact, ieee = F16_OPS[name]
    a, b = random_bits(np.float16, 3000), random_bits(np.float16, 3000)[::-1]
    with np.errstate(all="ignore"):
        check(getattr(H, name)(a, b), ieee_or(exact, ieee), a, b)


def test_half_fma_rounds_once_including_ties():
    a, b, c = (random_bits(np.float16, 3000) for _ in range(3))
    # ties: a*b + c exactly halfway between two halves (c chosen from the product)
    x = rng.integers(1025, 2047, 500).astype(np.float16)
    y = (rng.integers(1025, 2047, 500) * 2.0 ** -10).astype(np.float16)
    a, b = np.concatenate([a, x]), np.concatenate([b, y])
    c = np.concatenate([c, np.zeros(500, np.float16)])

    def exact(p, q, r, x, y, z):
        s = sum_zero_sign("rn", float(np.float64(x) * np.float64(y)), float(z))
        return ref_round(p * q + r, np.float16, "rn", s)
    with np.errstate(all="ignore"):
        check(H.__hfma(a, b, c), ieee_or(exact, lambda p, q, r: p * q + r), a, b, c)


def test_half2_ops_are_the_scalar_ops_per_half():
    a = random_bits(np.float16, 2000).reshape(-1, 2)
    b = random_bits(np.float16, 2000).reshape(-1, 2)
    with np.errstate(all="ignore"):
        for pair, scalar in (("__hadd2", "__hadd"), ("__hmul2", "__hmul"),
                             ("__h2div", "__hdiv"), ("__hsub2", "__hsub")):
            got = getattr(H, pair)(a, b)
            want = np.stack([getattr(H, scalar)(a[:, i], b[:, i]) for i in (0, 1)], -1)
            assert got.shape == a.shape
            assert np.array_equal(got.view(np.uint16), want.view(np.uint16), equal_nan=False) \
                or np.array_equal(np.isnan(got), np.isnan(want))


def test_sat_variants_clamp_like_hip():
    a = np.array([0.75, -0.5, 2.0, np.nan, -0.0, 0.5], np.float16)
    b = np.array([0.5, 0.25, 1.0, 1.0, -0.0, 0.0], np.float16)
    got = H.__hadd_sat(a, b)
    assert got[:3].tolist() == [1.0, 0.0, 1.0] and np.isnan(got[3])
    assert np.signbit(got[4]) and got[5] == 0.5   # -0 and values in [0, 1] pass unchanged
    fma = H.__hfma_sat(np.float16(3), np.float16(-1), np.float16(1))
    assert fma == 0 and not np.signbit(fma)
    with pytest.raises(HalfTypeError, match="__half only"):
        H.__hadd_sat(a.astype(BF16), b.astype(BF16))


# --- __hip_bfloat16: float math, then HIP's bfloat16 rounding -----------------------------

def test_bfloat16_ops_are_float_then_bfloat16():
    a, b, c = (random_bits(BF16, 2000) for _ in range(3))

    def via_f32(exact_op, zero):
        def ref(*args):
            xs, raw = args[:len(args) // 2], args[len(args) // 2:]
            f = ref_round(exact_op(*xs), np.float32, "rn", zero(*raw))
            return ref_round(Fraction(f), BF16) if math.isfinite(f) and f != 0 else f
        return ref
    mul_sign = lambda x, y: math.copysign(1, float(x)) * math.copysign(1, float(y))  # noqa: E731
    cases = {
        "__hadd": (via_f32(lambda p, q: p + q,
                           lambda x, y: sum_zero_sign("rn", float(x), float(y))),
                   lambda p, q: np.float32(p) + np.float32(q)),
        "__hmul": (via_f32(lambda p, q: p * q, mul_sign), lambda p, q: p * q),
    }
    with np.errstate(all="ignore"):
        for name, (exact, ieee) in cases.items():
            check(getattr(H, name)(a, b), ieee_or(exact, ieee), a, b)
        fma = via_f32(lambda p, q, r: p * q + r,
                      lambda x, y, z: sum_zero_sign("rn", float(np.float64(x) * float(y)),
                                                    float(z)))
        check(H.__hfma(a, b, c), ieee_or(fma, lambda p, q, r: p * q + r), a, b, c)


def test_bfloat16_double_rounding_of_fma_is_hips():
    # a*b + c whose f32 rounding lands on a bf16 tie that rounds to even, although the exact
    # value is above the tie: HIP's float fma then __float2bfloat16 gives the lower value.
    a, b = np.array([1.0], BF16), np.array([1.0], BF16)
    c = np.array([2.0 ** -8 + 2.0 ** -30], np.float32)  # not a bf16: use a sum of two calls
    exact_tie = 1 + 2.0 ** -8
    assert float(H.__float2bfloat16(np.float32(exact_tie))) == 1.0      # tie -> even
    assert float(H.__float2bfloat16(np.float32(c[0] + 1))) == 1.0     # f32 rounded to the tie
    assert float(H.__double2bfloat16(1 + 2.0 ** -8 + 2.0 ** -40)) == 1 + 2.0 ** -7  # one rounding
    assert float(H.__hfma(a, b, np.array([2.0 ** -8], BF16))[0]) == 1.0


def test_float2bfloat16_nan_and_rounding_bits():
    bits = np.array([0x7F800001, 0x7FC00000, 0xFF800000, 0x3F808000, 0x3F818000, 0x3F808001,
                     0x7F7FFFFF, 0x00008000], np.uint32)
    got = H.__bfloat16_as_ushort(H.__float2bfloat16(bits.view(np.float32)))
    # NaN payload folded into bit 16, inf kept, ties to even, above-tie up, overflow to inf
    assert got.tolist() == [0x7F81, 0x7FC0, 0xFF80, 0x3F80, 0x3F82, 0x3F81, 0x7F80, 0x0000]


# --- conversions with rounding modes -------------------------------------------------------

@pytest.mark.parametrize("mode", ["rn", "rz", "rd", "ru"])
def test_float2half_modes(mode):
    x = random_bits(np.float32, 3000)
    near = (rng.integers(-2**15, 2**15, 2000) * 2.0 ** rng.integers(-40, 6, 2000))
    x = np.concatenate([x, near.astype(np.float32), (near + 0.5).astype(np.float32)])
    got = getattr(H, f"__float2half_{mode}")(x)

    def ref(v):
        f = float(v)
        if not math.isfinite(f):
            return f
        return ref_round(Fraction(f), np.float16, mode, math.copysign(1, f))
    check(got, ref, x)


def test_conversions_and_pairs():
    h2 = H.__floats2half2_rn(np.float32(1.5), np.float32(1e6))
    assert h2.dtype == np.float16 and h2.tolist() == [1.5, np.inf]
    assert H.__low2float(h2) == 1.5 and H.__high2half(h2) == np.inf
    assert H.__halves2half2(np.float16(1), np.float16(2)).tolist() == [1, 2]
    assert H.__lowhigh2highlow(h2).tolist() == [np.inf, 1.5]
    assert H.__half22float2(h2).dtype == np.float32
    b2 = H.__float22bfloat162_rn(np.array([[1.0, 3.0]], np.float32))
    assert b2.dtype == BF16 and H.__high2float(b2).tolist() == [3.0]
    assert H.__ushort_as_half(0x3C00) == 1.0 and H.__half_as_ushort(np.float16(-2)) == 0xC000
    assert H.__half2(1, 2).tolist() == [1, 2] and H.__hip_bfloat162(1, 2).dtype == BF16
    with pytest.raises(HalfTypeError, match="pairs"):
        H.__low2half(np.float16(1))


# --- float directed-rounding arithmetic (exact f32 fma included) ---------------------------

def adversarial_fma(n: int):
    """Random f32 a, b and c = -(a*b rounded to ~30 bits) plus tiny noise: cancellation,
    results near ties and near subnormals."""
    a = (rng.standard_normal(n) * 2.0 ** rng.integers(-60, 60, n)).astype(np.float32)
    b = (rng.standard_normal(n) * 2.0 ** rng.integers(-60, 60, n)).astype(np.float32)
    p = a.astype(np.float64) * b
    c = (-p + p * rng.choice([0, 2.0**-24, -2.0**-25, 2.0**-48], n)).astype(np.float32)
    return a, b, c


def double_rounding_fma(n: int):
    """a*b + c whose exact value is an f32 tie plus 2^q (q the product's lowest bit) with a
    54-bit span, so float64 loses the 2^q and a float64 fma would round a tie: A*B = m*2^29 + 1
    (B = A^-1 mod 2^29, kept when B < 2^24), |c| with ulp 2^(30+q) puts m*2^29 on a tie."""
    out = []
    while len(out) < n:
        big_a = int(rng.integers(2**22, 2**24)) | 1
        big_b = pow(big_a, -1, 2**29)
        if big_b >= 2**24:
            continue
        m = (big_a * big_b - 1) >> 29
        if m % 2 == 0:
            continue
        mant = int(rng.integers(2**23, 2**24))
        sign = 1 if rng.random() < 0.5 else -1
        out.append((big_a * 2.0**-23, big_b * 2.0**-23, sign * mant * 2.0 ** (30 - 46)))
    return (np.array(v, np.float32) for v in zip(*out, strict=True))


@pytest.mark.parametrize("mode", ["rn", "rz", "rd", "ru"])
def test_fmaf_all_modes_exact(mode):
    a, b, c = (np.concatenate(v) for v in zip(adversarial_fma(1500), double_rounding_fma(300),
                                               strict=True))
    ra, rb, rc = (random_bits(np.float32, 1500) for _ in range(3))
    a, b, c = (np.concatenate(v) for v in ((a, ra), (b, rb), (c, rc)))

    def exact(p, q, r, x, y, z):
        s = sum_zero_sign(mode, float(np.float64(x) * np.float64(y)), float(z))
        return ref_round(p * q + r, np.float32, mode, s)
    with np.errstate(all="ignore"):
        got = getattr(H, f"__fmaf_{mode}")(a, b, c)
        check(got, ieee_or(exact, lambda p, q, r: p * q + r), a, b, c)


@pytest.mark.parametrize("mode", ["rn", "rz", "rd", "ru"])
def test_fadd_fmul_fdiv_fsqrt_frcp_modes(mode):
    a, b = random_bits(np.float32, 1200), random_bits(np.float32, 1200)[::-1]
    sign = lambda x, y: math.copysign(1, float(x)) * math.copysign(1, float(y))  # noqa: E731
    cases = {
        "__fadd": (lambda p, q, x, y: ref_round(p + q, np.float32, mode,
                                                sum_zero_sign(mode, float(x), float(y))),
                   lambda p, q: p + q),
        "__fsub": (lambda p, q, x, y: ref_round(p - q, np.float32, mode,
                                                sum_zero_sign(mode, float(x), -float(y))),
                   lambda p, q: p - q),
        "__fmul": (lambda p, q, x, y: ref_round(p * q, np.float32, mode, sign(x, y)),
                   lambda p, q: p * q),
        "__fdiv": (lambda p, q, x, y: (ref_round(p / q, np.float32, mode, sign(x, y)) if q
                                       else float(np.float64(x) / np.float64(y))),
                   lambda p, q: p / q),
    }
    with np.errstate(all="ignore"):
        for name, (exact, ieee) in cases.items():
            check(getattr(H, f"{name}_{mode}")(a, b), ieee_or(exact, ieee), a, b)
        pos = np.abs(a)
        check(getattr(H, f"__frcp_{mode}")(a),
              ieee_or(lambda p, x: (ref_round(1 / p, np.float32, mode, math.copysign(1, x))
                                    if p else 1 / np.float64(x)), lambda p: 1 / p), a)
        check(getattr(H, f"__fsqrt_{mode}")(pos), ieee_or(
            lambda p, x: sqrt_ref(p, mode, x), np.sqrt), pos)


def sqrt_ref(q: Fraction, mode: str, x) -> float:
    """Correctly rounded f32 sqrt: bracket by integer square roots of the scaled value."""
    if q == 0:
        return float(x)
    # sqrt(q) to 80 fractional bits as floor, then exact tie/inexact information
    scale = 2 ** 200
    num = q.numerator * scale * scale // q.denominator
    r = math.isqrt(num)
    exact = r * r == num and q.numerator * scale * scale % q.denominator == 0
    value = Fraction(r, scale) + (0 if exact else Fraction(1, scale * 2 ** 10))
    return ref_round(value, np.float32, mode)


def test_fdividef_and_saturatef():
    assert H.__fdividef(1.0, 3.0) == np.float32(1) / np.float32(3)
    got = H.__saturatef(np.array([-1.0, -0.0, 0.25, 7.0, np.nan], np.float32))
    assert got[:4].tolist() == [0, 0, 0.25, 1] and np.signbit(got[1]) and np.isnan(got[4])


# --- comparisons, max/min, classification --------------------------------------------------

def test_comparisons_ordered_unordered_pairs_and_masks():
    vals = np.array([1.0, 2.0, np.nan, -0.0, 0.0, np.inf], np.float16)
    a, b = np.repeat(vals, 6), np.tile(vals, 6)
    fa, fb = a.astype(np.float64), b.astype(np.float64)
    nan = np.isnan(fa) | np.isnan(fb)
    with np.errstate(invalid="ignore"):
        ordered = {"eq": fa == fb, "ne": fa != fb, "lt": fa < fb, "le": fa <= fb,
                   "gt": fa > fb, "ge": fa >= fb}
    for t, want in ordered.items():
        assert (H.__dict__[f"__h{t}"](a, b) == want).all(), t   # __hne is C++ != (HIP)
        unordered = H.__dict__[f"__h{t}u"](a, b) if t != "ne" else H.__hneu(a, b)
        assert (unordered == (want | nan)).all(), t
    pa, pb = a.reshape(-1, 2), b.reshape(-1, 2)
    lt = H.__hlt2(pa, pb)
    assert lt.dtype == np.float16 and (lt == (fa < fb).reshape(-1, 2)).all()
    mask = H.__hlt2_mask(pa, pb)
    want = (fa < fb).reshape(-1, 2)
    assert (mask == want[:, 0] * 0xFFFF + want[:, 1] * 0xFFFF0000).all()
    assert (H.__hblt2(pa, pb) == want.all(axis=1)).all()
    assert (H.__hbequ2(pa, pb) == (~(fa < fb) & ~(fa > fb)).reshape(-1, 2).all(axis=1)).all()
    assert H.__hisnan(vals).tolist() == [False, False, True, False, False, False]
    assert H.__hisinf2(vals.reshape(3, 2)).tolist() == [[0, 0], [0, 0], [0, 1]]


def test_max_min_ignore_nan_and_order_zeros():
    a = np.array([1, np.nan, np.nan, -0.0, 0.0, 3], np.float16)
    b = np.array([2, 5, np.nan, 0.0, -0.0, -3], np.float16)
    mx, mn = H.__hmax(a, b), H.__hmin(a, b)
    assert mx[[0, 1, 5]].tolist() == [2, 5, 3] and np.isnan(mx[2])
    assert not np.signbit(mx[3]) and not np.signbit(mx[4])
    assert np.signbit(mn[3]) and np.signbit(mn[4]) and mn[1] == 5
    assert np.isnan(H.__hmax_nan(a, b)[1]) and H.__hmin_nan(a, b)[0] == 1
    assert H.__hmax(a.astype(BF16), b.astype(BF16))[1] == 5


def test_type_errors_name_the_types():
    with pytest.raises(HalfTypeError, match="float32"):
        H.__hadd(np.float32(1), np.float32(2))
    with pytest.raises(HalfTypeError, match="all of one type"):
        H.__hadd(np.float16(1), BF16(2))
    assert issubclass(HalfTypeError, TypeError) and issubclass(HalfTypeError, R.RocwmmaError)


# --- half math: exact ones exactly, approximate ones within bounds ------------------------

ALL_F16 = np.arange(2**16, dtype=np.uint32).astype(np.uint16).view(np.float16)
FINITE_F16 = ALL_F16[np.isfinite(ALL_F16)]


def f16_ulp(v: float) -> float:
    e = max(math.frexp(abs(v))[1] - 1, -14) if v else -14
    return 2.0 ** (e - 10)


def test_hsqrt_hrcp_exact_for_every_half():
    pos = FINITE_F16[(FINITE_F16 > 0)]
    got = H.hsqrt(pos)
    for v, g in zip(pos.tolist(), got.tolist(), strict=True):
        lo, hi = Fraction(g) - Fraction(f16_ulp(g)) / 2, Fraction(g) + Fraction(f16_ulp(g)) / 2
        assert lo * lo <= Fraction(v) <= hi * hi, (v, g)  # within half an ulp of sqrt(v)
    with np.errstate(divide="ignore"):
        check(H.hrcp(FINITE_F16[::7]), ieee_or(lambda p, x: (
        ref_round(1 / p, np.float16, "rn", math.copysign(1, x)) if p else 1 / np.float64(x)),
            lambda p: 1 / p), FINITE_F16[::7])
    assert np.isnan(H.hsqrt(np.float16(-1))) and np.signbit(H.hsqrt(np.float16(-0.0)))


@pytest.mark.parametrize("name, ref", [
    ("hexp", math.exp), ("hexp2", lambda x: 2.0 ** x), ("hexp10", lambda x: 10.0 ** x),
    ("hlog", math.log), ("hlog2", math.log2), ("hlog10", math.log10),
    ("hsin", math.sin), ("hcos", math.cos), ("hrsqrt", lambda x: 1 / math.sqrt(x)),
])
def test_half_math_within_half_ulp_for_every_half(name, ref):
    x = FINITE_F16[FINITE_F16 > 0] if "log" in name or name == "hrsqrt" else FINITE_F16
    with np.errstate(all="ignore"):
        got = getattr(H, name)(x).astype(np.float64)
        h2 = getattr(H, "h2" + name[1:])(x[: x.size // 2 * 2].reshape(-1, 2))
    assert np.array_equal(h2.reshape(-1), got[: h2.size], equal_nan=True)
    for v, g in zip(x.tolist(), got.tolist(), strict=True):
        try:
            want = ref(v)
        except OverflowError:
            want = math.inf
        if abs(want) > 65520:          # beyond max + half an ulp: overflow to inf
            assert g == math.copysign(math.inf, want), (v, g)
            continue
        # the model: correctly rounded (<= 0.5 ulp + float64 noise), inside any bound
        assert abs(g - want) <= f16_ulp(want) * (0.5 + 1e-6), (name, v, g, want)


def test_half_rounding_functions_exact():
    x = FINITE_F16
    for name, fn in (("hceil", np.ceil), ("hfloor", np.floor), ("htrunc", np.trunc)):
        got = getattr(H, name)(x)
        want = [float(fn(v)) for v in x.tolist()]
        assert got.astype(np.float64).tolist() == want, name
    rint = H.hrint(np.array([0.5, 1.5, 2.5, -0.5], np.float16))
    assert rint.tolist() == [0, 2, 2, 0] and np.signbit(rint[3])


def test_bfloat16_math_is_f32_math_then_bfloat16():
    with np.errstate(invalid="ignore"):
        x = random_bits(BF16, 2000).astype(np.float64)
    x = x[np.isfinite(x) & (x > 0)].astype(BF16)
    got = H.hlog(x).astype(np.float64)
    for v, g in zip(x.astype(np.float64).tolist(), got.tolist(), strict=True):
        f32 = ref_round(Fraction(math.log(v)), np.float32)   # f32 log, then bf16 rounding
        assert g == ref_round(Fraction(f32), BF16), (v, g)


# --- float fast math: HIP's formulas and the CUDA guide's bounds ---------------------------

def f32_ulp(v: float) -> float:
    e = max(math.frexp(abs(v))[1] - 1, -126) if v else -126
    return 2.0 ** (e - 23)


def test_expf_is_v_exp_of_rounded_product_within_cuda_bound():
    x = (rng.uniform(-80, 80, 3000)).astype(np.float32)
    got = H.__expf(x).astype(np.float64)
    log2e = Fraction(float(np.float32(float.fromhex("0x1.715476p+0"))))
    for v, g in zip(x.tolist(), got.tolist(), strict=True):
        t = ref_round(log2e * Fraction(v), np.float32)          # the f32 product first
        assert abs(g - 2.0 ** t) <= f32_ulp(2.0 ** t) * (0.5 + 1e-6), v
        bound = 2 + math.floor(abs(1.173 * v))                  # CUDA guide: __expf
        assert abs(g - math.exp(v)) <= bound * f32_ulp(math.exp(v)), v
    x10 = rng.uniform(-30, 30, 1000).astype(np.float32)
    got10 = H.__exp10f(x10).astype(np.float64)
    for v, g in zip(x10.tolist(), got10.tolist(), strict=True):
        assert abs(g - 10.0 ** v) <= (2 + math.floor(abs(2.97 * v))) * f32_ulp(10.0 ** v), v


@pytest.mark.parametrize("name, ref, ulps, abs_in_half_two", [
    ("__logf", math.log, 3, 2.0 ** -21.41), ("__log2f", math.log2, 2, 2.0 ** -22),
    ("__log10f", math.log10, 3, 2.0 ** -24),
])
def test_logs_within_cuda_bounds(name, ref, ulps, abs_in_half_two):
    x = (2.0 ** rng.uniform(-120, 120, 3000)).astype(np.float32)
    got = getattr(H, name)(x).astype(np.float64)
    for v, g in zip(x.tolist(), got.tolist(), strict=True):
        want = ref(v)
        if 0.5 <= v <= 2:
            assert abs(g - want) <= abs_in_half_two, v
        else:
            assert abs(g - want) <= ulps * f32_ulp(want), v


def test_sin_cos_rsqrt_pow_bounds():
    x = rng.uniform(-math.pi, math.pi, 2000).astype(np.float32)
    assert np.max(np.abs(H.__sinf(x) - np.sin(x.astype(np.float64)))) <= 2.0 ** -21.41
    assert np.max(np.abs(H.__cosf(x) - np.cos(x.astype(np.float64)))) <= 2.0 ** -21.19
    y = (2.0 ** rng.uniform(-100, 100, 2000)).astype(np.float32)
    for fn in (H.rsqrtf, H.__frsqrt_rn):
        got = fn(y).astype(np.float64)
        want = 1 / np.sqrt(y.astype(np.float64))
        assert (np.abs(got - want) <= 2 * np.array([f32_ulp(w) for w in want])).all()
    b, e = rng.uniform(0.1, 10, 500).astype(np.float32), rng.uniform(-20, 20, 500).astype(
        np.float32)
    got = H.__powf(b, e).astype(np.float64)
    want = b.astype(np.float64) ** e.astype(np.float64)
    assert (np.abs(got - want) <= np.array([f32_ulp(w) for w in want])).all()


# --- inside kernels, both engines ----------------------------------------------------------

@kernel
def _half_kernel(a, b, out, packed):
    i = blockIdx.x * blockDim.x + threadIdx.x
    x, y = a[i], b[i]
    out[i] = H.__hfma(x, y, H.__hadd(x, y))
    pair = H.__halves2half2(x, y)
    packed[i] = H.__hlt2_mask(pair, H.__hneg2(pair))


@pytest.mark.parametrize("engine", ["batch", "wave"])
def test_half_intrinsics_in_kernels_per_lane(engine):
    a = random_bits(np.float16, 256)[:256].copy()
    b = random_bits(np.float16, 256)[:256][::-1].copy()
    out = np.zeros(256, np.float16)
    packed = np.zeros(256, np.uint32)
    with np.errstate(all="ignore"):
        with use_engine(engine):
            _half_kernel[4, 64, 0, "gfx942"](a, b, out, packed)
        want = H.__hfma(a, b, H.__hadd(a, b))
    assert np.array_equal(out.view(np.uint16)[~np.isnan(want)],
                          want.view(np.uint16)[~np.isnan(want)])
    neg = -np.stack([a, b], -1).astype(np.float64)
    with np.errstate(invalid="ignore"):
        lt = np.stack([a, b], -1).astype(np.float64) < neg
    assert (packed == lt[:, 0] * 0xFFFF + lt[:, 1] * 0xFFFF0000).all()


def test_exported_everywhere():
    import rocwmma_py.cuda as C
    import rocwmma_py.runtime as RT
    for name in ("__hadd2", "hexp", "__expf", "__fmaf_rd", "__half2", "__heq2_mask"):
        assert getattr(R, name) is getattr(RT, name) is getattr(C, name) is getattr(H, name)
