"""CUDA's and HIP's device math library (math_functions.h): the single precision `f` forms
(`expf`, `sqrtf`, ...) and the double forms (`exp`, `sqrt`, ...), one row per function in
`FUNCTIONS`.

Why computing in float64 is faithful to the device: a float form takes its arguments as
float32 (as a C call converts them), evaluates in float64 and rounds once to float32. Exact
operations (`sqrtf`, `fmaf`, `floorf`, `fmodf`, ...) are then correctly rounded, like CUDA's
IEEE-compliant defaults (the float64 step is exact, or a square root/quotient/difference whose
double rounding is innocuous since 53 >= 2*24 + 2); every other float form is within
0.5 ulp + 2^-29 ulp of correctly rounded, inside each of CUDA's documented bounds. Double forms
use numpy's libm ufuncs where those meet CUDA's double bound, and double-double corrections or
vectorized rational approximations (fdlibm's erf structure) where numpy has no function.
Everything is whole-array numpy (no per-element Python), and per-lane values of a kernel go
in and come out per lane (`lane_wise`). Multi-output functions (`sincosf`, `frexpf`, `modff`,
`remquof`) return a tuple where C writes through pointers.

Special values follow C99 Annex F as CUDA does: fminf/fmaxf return the other operand of a NaN
(and order -0 < +0), roundf rounds half away from zero, rintf/nearbyintf half to even,
fmodf has the sign of x, ilogbf(0) = ilogbf(NaN) = INT_MIN, ilogbf(inf) = INT_MAX.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..errors import BuiltinArgumentError
from ..lane_wise import lane_wise
from . import rounding as R
from .half_math import rsqrtf as _half_math_rsqrtf

_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)
_INT_MIN, _INT_MAX = -(2**31), 2**31 - 1
_SQRT_PI_2 = 0.886226925452758  # sqrt(pi)/2
_TWO_SQRT_PI = 1.1283791670955126  # 2/sqrt(pi)
_PI_HI, _PI_LO = np.pi, 1.2246467991473532e-16  # pi as a double-double
_LN2_HI, _LN2_LO = 6.93147180369123816490e-01, 1.90821492927058770002e-10  # fdlibm's split


# --- error-free pieces (double-double arithmetic, no fma in numpy) --------------------------

def _split(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Dekker's split: a = hi + lo, each of <= 26 significant bits (|a| < 2^995)."""
    t = 134217729.0 * a
    hi = t - (t - a)
    return hi, a - hi


def _two_prod(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(p, e) with p = fl(a*b) and p + e = a*b exactly (operands of moderate size)."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _poly(x: np.ndarray, coefficients: tuple[float, ...]) -> np.ndarray:
    """c0 + c1 x + c2 x^2 + ... by Horner."""
    out = np.full_like(x, coefficients[-1])
    for c in coefficients[-2::-1]:
        out = out * x + c
    return out


def _with_exponent(x: np.ndarray, multiple: int) -> tuple[np.ndarray, np.ndarray]:
    """(m, k) with x = m * 2^k exactly, k a multiple of `multiple`, m in [1, 2^multiple)
    for finite nonzero x (other x pass through with k = 0)."""
    m, e = np.frexp(x)
    k = (e - 1) - np.mod(e - 1, multiple)
    return np.ldexp(x, -k), k


# --- exactly specified functions ------------------------------------------------------------

def _fmin(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IEEE minNum with -0 < +0: a NaN operand gives the other one (numpy's fmin; it may
    pick either zero of a tie of +0 and -0, decided here)."""
    return _zero_ties(np.fmin(a, b), a, b, np.signbit)


def _fmax(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IEEE maxNum with -0 < +0 (see `_fmin`)."""
    return _zero_ties(np.fmax(a, b), a, b, lambda x: ~np.signbit(x))


def _zero_ties(r: np.ndarray, a: np.ndarray, b: np.ndarray,
               pick_a: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """r with its ties of two zeros resolved: a where `pick_a(a)`, else b. Only a zero
    result can be such a tie, so the usual data (no zero result) costs one test."""
    zero = r == 0
    if not zero.any():
        return r
    ties = zero & (a == b)
    return np.where(ties & pick_a(a), a, np.where(ties, b, r)) if ties.any() else r


def _round(x: np.ndarray) -> np.ndarray:
    """Half away from zero (C round); x - trunc(x) is exact."""
    t = np.trunc(x)
    return np.where(np.abs(x - t) >= 0.5, t + np.sign(x), t)


def _remquo(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """IEEE remainder x - n*y (n = x/y rounded half to even) and n's low 3 bits with the
    sign of x/y, all exact: fmod by 8|y|, then 4|y|, 2|y|, |y| peeled off (Sterbenz)."""
    ay = np.abs(y)
    m = np.fmod(np.abs(x), 8 * ay)  # an overflowing 8|y| is inf: fmod gives |x|, right
    q = np.zeros(np.shape(m), np.int64)
    for j in (4, 2, 1):
        take = m >= j * ay
        m = np.where(take, m - j * ay, m)
        q = q + np.where(take, j, 0)
    up = (2 * m > ay) | ((2 * m == ay) & (q % 2 == 1))
    m = np.where(up, m - ay, m)
    q = (q + up) % 8
    r = np.where(np.signbit(x), -m, m)
    return r, np.where(np.signbit(x) != np.signbit(y), -q, q).astype(np.float64)


def _ilogb(x: np.ndarray) -> np.ndarray:
    e = np.frexp(x)[1].astype(np.float64) - 1
    return np.where(np.isnan(x) | (x == 0), _INT_MIN, np.where(np.isinf(x), _INT_MAX, e))


def _logb(x: np.ndarray) -> np.ndarray:
    e = np.frexp(x)[1].astype(np.float64) - 1
    return np.where(x == 0, -np.inf, np.where(np.isfinite(x), e, np.abs(x)))


def _fma(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """a*b + c rounded once (Boldo and Melquiond's emulation): a*b = p + e exactly, c + p =
    h + l exactly, then h + RO(l + e) rounded to nearest, RO rounding to odd. Exact while
    the product's error term is representable (|a*b| >= 2^-969, operands < 2^995); the plain
    expression gives the special values."""
    p, e = _two_prod(a, b)
    h, l0 = _two_sum(c, p)
    v = R.to_odd(*_two_sum(l0, e))
    ok = np.isfinite(h + v) & (np.abs(a) < 2.0**995) & (np.abs(b) < 2.0**995)
    return np.where(ok, h + v, a * b + c)


def _ldexp(x: np.ndarray, n: np.ndarray) -> np.ndarray:
    """x * 2^n; n clipped to a range that gives the same result without an int overflow."""
    return np.ldexp(x, np.clip(n, -2400, 2400).astype(np.int32))


# --- reciprocal roots and norms, corrected in double-double ---------------------------------

def _sumsq(xs: tuple[np.ndarray, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """sum x_i^2 of the operands scaled by 2^-k (k from the largest): (hi, lo, k)."""
    big = np.max(np.abs(np.stack(np.broadcast_arrays(*xs))), axis=0)
    big = np.where(np.isfinite(big) & (big > 0), big, 1.0)
    k = np.frexp(big)[1]
    hi = lo = np.zeros(big.shape)
    for x in xs:
        p, e = _two_prod(np.ldexp(x, -k), np.ldexp(x, -k))
        hi, t = _two_sum(hi, p)
        lo = lo + t + e
    return hi, lo, k


def _norm_specials(xs: tuple[np.ndarray, ...], value: np.ndarray,
                   inf: float, zero: float) -> np.ndarray:
    """C hypot's rules: any infinite operand gives `inf` (even with a NaN), else a NaN
    gives NaN; all zeros give `zero`."""
    stacked = np.stack(np.broadcast_arrays(*xs))
    value = np.where((stacked == 0).all(axis=0), zero, value)
    value = np.where(np.isnan(stacked).any(axis=0), np.nan, value)
    return np.where(np.isinf(stacked).any(axis=0), inf, value)


def _sqrt_dd(hi: np.ndarray, lo: np.ndarray) -> np.ndarray:
    """sqrt(hi + lo), one Newton correction of the double square root."""
    s = np.sqrt(hi)
    p, e = _two_prod(s, s)
    return s + (((hi - p) - e) + lo) / (2 * s)


def _rsqrt_dd(hi: np.ndarray, lo: np.ndarray) -> np.ndarray:
    """1/sqrt(hi + lo), one Newton correction: r + r/2 * (1 - (hi + lo) r^2)."""
    r = 1 / np.sqrt(hi)
    a, b = _two_prod(r, r)
    p, q = _two_prod(hi, a)
    err = (((1 - p) - q) - hi * b) - lo * a
    return r + 0.5 * r * err


def _norm(*xs: np.ndarray) -> np.ndarray:
    hi, lo, k = _sumsq(xs)
    return _norm_specials(xs, np.ldexp(_sqrt_dd(hi, lo), k), np.inf, 0.0)


def _rnorm(*xs: np.ndarray) -> np.ndarray:
    hi, lo, k = _sumsq(xs)
    return _norm_specials(xs, np.ldexp(_rsqrt_dd(hi, lo), -k), 0.0, np.inf)


def _rsqrt(x: np.ndarray) -> np.ndarray:
    m, k = _with_exponent(x, 2)
    r = np.ldexp(_rsqrt_dd(m, np.zeros_like(m)), -k // 2)
    return np.where((x == 0) | np.isinf(x) | np.isnan(x), 1 / np.sqrt(x), r)


def _cbrt_parts(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(m, k, c, err): x = m 2^k (3 | k), c = cbrt(m) and m - c^3 in double-double."""
    m, k = _with_exponent(np.abs(x), 3)
    c = np.cbrt(m)
    a, b = _two_prod(c, c)
    p, q = _two_prod(a, c)
    return m, k, c, ((m - p) - q) - b * c


def _cbrt(x: np.ndarray) -> np.ndarray:
    """libm cbrt with one Newton correction: c + (m - c^3) / (3 c^2)."""
    m, k, c, err = _cbrt_parts(x)
    out = np.copysign(np.ldexp(c + err / (3 * c * c), k // 3), x)
    return np.where((x == 0) | ~np.isfinite(x), np.cbrt(x), out)


def _rcbrt(x: np.ndarray) -> np.ndarray:
    """1/cbrt(x) as r + r/3 (1 - m r^3), the residual in double-double."""
    m, k, _, _ = _cbrt_parts(x)
    r = 1 / np.cbrt(m)
    a, b = _two_prod(r, r)
    p, q = _two_prod(a, r)
    t = b * r + q
    u, v = _two_prod(m, p)
    err = ((1 - u) - v) - m * t
    out = np.copysign(np.ldexp(r + r * err / 3, -(k // 3)), x)
    return np.where((x == 0) | ~np.isfinite(x), 1 / np.cbrt(x), out)


# --- sinpi / cospi: exact reduction, pi * t in double-double --------------------------------

def _reduce_half(x: np.ndarray) -> np.ndarray:
    """r = x - 2 round(x / 2) in [-1, 1], exact."""
    return x - 2 * np.round(x / 2)


def _sin_pi_small(t: np.ndarray) -> np.ndarray:
    """sin(pi t) for |t| <= 1/2: sin(a) + cos(a) b with a + b = pi t."""
    a, b = _two_prod(t, np.full_like(t, _PI_HI))
    b = b + t * _PI_LO
    return np.sin(a) + np.cos(a) * b


def _cos_pi_small(t: np.ndarray) -> np.ndarray:
    a, b = _two_prod(t, np.full_like(t, _PI_HI))
    b = b + t * _PI_LO
    return np.cos(a) - np.sin(a) * b


def _sinpi(x: np.ndarray) -> np.ndarray:
    r = _reduce_half(x)
    t = np.where(np.abs(r) > 0.5, np.sign(r) - r, r)  # sin(pi r) = sin(pi (1 - r)), exact
    out = _sin_pi_small(t)
    return np.where(out == 0, np.copysign(0.0, x), np.where(np.isinf(x), np.nan, out))


def _cospi(x: np.ndarray) -> np.ndarray:
    a = np.abs(_reduce_half(x))
    out = np.where(a <= 0.25, _cos_pi_small(a), _sin_pi_small(0.5 - a))  # exact for a >= 1/4
    return np.where(out == 0, 0.0, np.where(np.isinf(x), np.nan, out))


# --- erf / erfc: fdlibm's rational approximations (s_erf.c), vectorized ---------------------

_ERX = 8.45062911510467529297e-01  # erf(1) rounded to float
_EFX = 1.28379167095512586316e-01  # 2/sqrt(pi) - 1
_PP = (1.28379167095512558561e-01, -3.25042107247001499370e-01, -2.84817495755985104766e-02,
       -5.77027029648944159157e-03, -2.37630166566501626084e-05)
_QQ = (1.0, 3.97917223959155352819e-01, 6.50222499887672944485e-02,
       5.08130628187576562776e-03, 1.32494738004321644526e-04, -3.96022827877536812320e-06)
_PA = (-2.36211856075265944077e-03, 4.14856118683748331666e-01, -3.72207876035701323847e-01,
       3.18346619901161753674e-01, -1.10894694282396677476e-01, 3.54783043256182359371e-02,
       -2.16637559486879084300e-03)
_QA = (1.0, 1.06420880400844228286e-01, 5.40397917702171048937e-01,
       7.18286544141962662868e-02, 1.26171219808761642112e-01, 1.36370839120290507362e-02,
       1.19844998467991074170e-02)
_RA = (-9.86494403484714822705e-03, -6.93858572707181764372e-01, -1.05586262253232909814e+01,
       -6.23753324503260060396e+01, -1.62396669462573470355e+02, -1.84605092906711035994e+02,
       -8.12874355063065934246e+01, -9.81432934416914548592e+00)
_SA = (1.0, 1.96512716674392571292e+01, 1.37657754143519042600e+02,
       4.34565877475229228821e+02, 6.45387271733267880336e+02, 4.29008140027567833386e+02,
       1.08635005541779435134e+02, 6.57024977031928170135e+00, -6.04244152148580987438e-02)
_RB = (-9.86494292470009928597e-03, -7.99283237680523006574e-01, -1.77579549177547519889e+01,
       -1.60636384855821916062e+02, -6.37566443368389627722e+02, -1.02509513161107724954e+03,
       -4.83519191608651397019e+02)
_SB = (1.0, 3.03380607434824582924e+01, 3.25792512996573918826e+02,
       1.53672958608443695994e+03, 3.19985821950859553908e+03, 2.55305040643316442583e+03,
       4.74528541206955367215e+02, -2.24409524465858183362e+01)


def _erf_small(x: np.ndarray) -> np.ndarray:
    """(erf(x) - x) / x on |x| < 0.84375, a rational function of x^2."""
    z = x * x
    return _poly(z, _PP) / _poly(z, _QQ)


def _erf_near_one(a: np.ndarray) -> np.ndarray:
    """erf(a) - erx on 0.84375 <= a < 1.25."""
    s = a - 1
    return _poly(s, _PA) / _poly(s, _QA)


def _erfc_tail_log(a: np.ndarray) -> np.ndarray:
    """log(erfc(a) a) + a^2 for a >= 1.25: -0.5625 + R/S of 1/a^2 (two intervals)."""
    s = 1 / (a * a)
    near = a < 1 / 0.35
    return -0.5625 + np.where(near, _poly(s, _RA) / _poly(s, _SA),
                              _poly(s, _RB) / _poly(s, _SB))


def _erfc_tail(a: np.ndarray) -> np.ndarray:
    """erfc(a) for a >= 1.25: exp(-a^2 + tail) / a, with a^2 split as fdlibm does
    (z = a with its low 32 bits cleared, -a^2 = -z^2 + (z - a)(z + a) exactly)."""
    z = (a.view(np.int64) & np.int64(~0xFFFFFFFF)).view(np.float64)
    return np.exp(-z * z) * np.exp((z - a) * (z + a) + _erfc_tail_log(a)) / a


def _erf(x: np.ndarray) -> np.ndarray:
    a = np.abs(x)
    tiny = x + _EFX * x
    small = x + x * _erf_small(x)
    near = np.copysign(_ERX + _erf_near_one(a), x)
    safe = np.clip(a, 1.25, 6.0)
    far = np.copysign(1 - _erfc_tail(safe), x)
    out = np.where(a < 2.0**-28, tiny, np.where(a < 0.84375, small,
                   np.where(a < 1.25, near, np.where(a < 6, far, np.sign(x)))))
    return np.where(np.isnan(x), x, out)


def _erfc(x: np.ndarray) -> np.ndarray:
    a = np.abs(x)
    y = _erf_small(x)
    small = np.where(x < 0.25, 1 - (x + x * y), 0.5 - (x * y + (x - 0.5)))
    p = _erf_near_one(a)
    near = np.where(x >= 0, (1 - _ERX) - p, 1 + (_ERX + p))
    tail = _erfc_tail(np.clip(a, 1.25, 28.0))
    far = np.where(x > 0, tail, 2 - tail)
    out = np.where(a < 0.84375, small, np.where(a < 1.25, near, far))
    out = np.where(a >= 28, np.where(x > 0, 0.0, 2.0), out)
    return np.where(np.isnan(x), x, out)


def _erfcx(x: np.ndarray) -> np.ndarray:
    """exp(x^2) erfc(x): for x >= 1.25 the tail's exp(-x^2) cancels (fdlibm's form), past 28
    the asymptotic series; below 1.25 exp(x^2) erfc(x) directly (no overflow there)."""
    a = np.clip(x, 1.25, 28.0)
    tail = np.exp(_erfc_tail_log(a)) / a
    big = np.maximum(x, 28.0)
    inv, term, total = 1 / (2 * big * big), np.ones_like(big), np.ones_like(big)
    for n in range(1, 10):  # sum (-1)^n (2n-1)!! / (2x^2)^n, below 2^-60 by n = 9 at x = 28
        term = -term * (2 * n - 1) * inv
        total = total + term
    series = total / (big * np.sqrt(np.pi))
    sq, sq_err = _two_prod(x, x)
    low = np.exp(sq) * np.exp(sq_err) * _erfc(x)
    out = np.where(x < 1.25, low, np.where(x < 28, tail, series))
    return np.where(x == np.inf, 0.0, np.where(x == -np.inf, np.inf, out))


def _erfcinv_core(q: np.ndarray) -> np.ndarray:
    """y with erfc(y) = q for q in (0, 1]: Halley steps on erfc from the asymptotic guess,
    the step (erfc(y) - q) / erfc'(y) written with erfcx so nothing underflows."""
    t = -np.log(q)
    y = np.where(q < 0.5, np.sqrt(np.maximum(t - 0.5 * np.log(np.pi * t), 0.1)),
                 (1 - q) * _SQRT_PI_2)
    for _ in range(6):
        m, e = np.frexp(q)  # q e^{y^2} = m exp(y^2 + e ln 2), the exponent nearly exact
        sq, sq_err = _two_prod(y, y)
        arg = (sq + e * _LN2_HI) + (sq_err + e * _LN2_LO)
        qe = m * np.exp(arg)
        f = _SQRT_PI_2 * (_erfcx(y) - qe)  # -(erfc(y) - q) / erfc'(y)
        y = y + f / (1 - y * f)
    return y


def _erfinv(x: np.ndarray) -> np.ndarray:
    a = np.abs(x)
    near_one = np.copysign(_erfcinv_core(np.clip(1 - a, 1e-300, 1.0)), x)
    y = x * _SQRT_PI_2
    for _ in range(5):
        f = (_erf(y) - x) / (_TWO_SQRT_PI * np.exp(-y * y))
        y = y - f / (1 + y * f)
    out = np.where(a < 0.5, y, near_one)
    out = np.where(a == 1, np.copysign(np.inf, x), np.where(a > 1, np.nan, out))
    return np.where(x == 0, x, out)


def _erfcinv(q: np.ndarray) -> np.ndarray:
    low = _erfcinv_core(np.clip(q, np.finfo(np.float64).smallest_subnormal, 1.0))
    high = -_erfinv(np.clip(q, 1.0, 2.0) - 1)  # q - 1 exact on [1, 2]
    out = np.where(q <= 1, low, high)
    out = np.where(q == 0, np.inf, np.where(q == 2, -np.inf, out))
    return np.where((q < 0) | (q > 2) | np.isnan(q), np.nan, out)


def _normcdf(x: np.ndarray) -> np.ndarray:
    """erfc(-x/sqrt 2)/2 with -x/sqrt 2 as a double-double h + l: erfc(h + l) ~ erfc(h) -
    l 2/sqrt(pi) e^{-h^2} (relative form via erfcx where erfc is small)."""
    c_hi, c_lo = 0.7071067811865476, -4.833646656726457e-17
    h, l0 = _two_prod(-x, np.full_like(x, c_hi))
    lo = l0 - x * c_lo
    base = _erfc(h)
    hs = np.clip(h, 0, 27.0)
    rel = base * (1 - lo * _TWO_SQRT_PI / _erfcx(hs))
    add = base - lo * _TWO_SQRT_PI * np.exp(-h * h)
    out = 0.5 * np.where(h > 0.5, rel, add)
    return np.where(np.isinf(x), (x > 0).astype(np.float64), np.where(np.isnan(x), x, out))


def _normcdfinv(p: np.ndarray) -> np.ndarray:
    return -np.sqrt(2.0) * _erfcinv(2 * p)


# --- double-double arrays: (hi, lo) pairs, for the functions that cancel --------------------

DD = tuple[np.ndarray, np.ndarray]


def _fast_two_sum(s: np.ndarray, e: np.ndarray) -> DD:
    h = s + e
    return h, e - (h - s)


def _dd(a: Any) -> DD:
    a = np.asarray(a, np.float64)
    return a, np.zeros_like(a)


def _dd_add(a: DD, b: DD) -> DD:
    s, e = _two_sum(a[0], b[0])
    return _fast_two_sum(s, e + (a[1] + b[1]))


def _dd_mul(a: DD, b: DD) -> DD:
    p, e = _two_prod(a[0], b[0])
    return _fast_two_sum(p, e + (a[0] * b[1] + a[1] * b[0]))


def _dd_div(a: DD, b: DD) -> DD:
    """a / b: the double quotient and one correction from the double-double remainder."""
    q = a[0] / b[0]
    r = _dd_add(a, _dd_mul((-q, np.zeros_like(q)), b))
    return _fast_two_sum(q, (r[0] + r[1]) / b[0])


def _dd_const(value: Fraction) -> tuple[float, float]:
    hi = float(value)
    return hi, float(value - Fraction(hi))


_LN2_DD = (0.6931471805599453, 2.3190468138462996e-17)
_ODD_RECIPROCALS = tuple(_dd_const(Fraction(1, 2 * k + 1)) for k in range(22))


def _dd_log(a: DD) -> DD:
    """ln(hi + lo) for positive normal hi to ~2^-100: hi = m 2^e with m in [1/sqrt 2, sqrt 2),
    ln m = 2 atanh(s), s = (m - 1)/(m + 1) (|s| < 0.172), the odd series in double-double."""
    m, e = np.frexp(a[0])
    low = m < 0.7071067811865476
    m, e = np.where(low, 2 * m, m), np.where(low, e - 1, e).astype(np.float64)
    lo = np.ldexp(a[1], -e.astype(np.int64))
    s = _dd_div(_two_sum(m - 1, lo), _dd_add(_two_sum(m, np.ones_like(m)), _dd(lo)))
    s2 = _dd_mul(s, s)
    acc = _dd(np.full_like(m, _ODD_RECIPROCALS[-1][0]))
    for hi, lo_c in _ODD_RECIPROCALS[-2::-1]:
        acc = _dd_add(_dd_mul(acc, s2), (np.full_like(m, hi), np.full_like(m, lo_c)))
    ln_m = _dd_mul(_dd_mul(s, acc), _dd(np.full_like(m, 2.0)))
    p, err = _two_prod(e, np.full_like(m, _LN2_DD[0]))
    return _dd_add(ln_m, _fast_two_sum(p, err + e * _LN2_DD[1]))


_RECIPROCAL_FACTORIALS = tuple(_dd_const(Fraction(1, math.factorial(n))) for n in range(26))


def _dd_exp_neg(r: np.ndarray) -> DD:
    """exp(r) for double r in [-50, 0] to ~2^-100 relative: r = k ln 2 + t (|t| <= 0.35,
    t in double-double), the Taylor series of exp(t) to t^25/25! (below 2^-100) in
    double-double, times 2^k."""
    k = np.rint(r / _LN2_DD[0])
    p, err = _two_prod(k, np.full_like(r, _LN2_DD[0]))
    t = _dd_add(_two_sum(r, -p), _dd(-(err + k * _LN2_DD[1])))
    acc = _dd(np.full_like(r, _RECIPROCAL_FACTORIALS[-1][0]))
    for hi, lo in _RECIPROCAL_FACTORIALS[-2::-1]:
        acc = _dd_add(_dd_mul(acc, t), (np.full_like(r, hi), np.full_like(r, lo)))
    e = k.astype(np.int64)
    return np.ldexp(acc[0], e), np.ldexp(acc[1], e)


def _tanh(x: np.ndarray) -> np.ndarray:
    """tanh(|x|) = (1 - E) / (1 + E), E = exp(-2|x|), in double-double, rounded once (within
    CUDA's 1 ulp for double; libm's tanh is 1.1 ulp off in places, enough for the float
    form's one rounding); x itself below 2^-28 (the cubic term is below half an ulp), +-1
    from 22 on (1 - tanh < 2^-62)."""
    a = np.abs(x)
    mid = np.clip(np.nan_to_num(a, nan=1.0), 2.0**-28, 22.0)
    e = _dd_exp_neg(-2 * mid)
    one = _dd(np.ones_like(mid))
    t = _dd_div(_dd_add(one, (-e[0], -e[1])), _dd_add(one, e))
    out = np.where(a < 2.0**-28, a, np.where(a >= 22.0, 1.0, t[0] + t[1]))
    return np.where(np.isnan(x), x, np.copysign(out, x))


# --- gamma: double-double Stirling on a shifted argument, Taylor series at the roots 1, 2 -----

_EULER = (0.5772156649015329, -4.942915152430645e-18)
_ONE_MINUS_EULER = (0.42278433509846713, 4.942915152430645e-18)
_HALF_LN_2PI = (0.9189385332046728, -3.8782941580672414e-17)
_LN_PI = (1.1447298858494002, 1.0265951162707826e-17)
# lgamma(1 + t) + gamma t and lgamma(2 + t) - (1 - gamma) t: (-1)^k zeta(k)/k t^k, k >= 2
# (minus 1 from zeta(k) at 2), for |t| <= 1/8 (the 23rd power is below 2^-70 there)
_AT_ONE = (0.8224670334241132, -0.40068563438653143, 0.27058080842778454,
           -0.20738555102867398, 0.1695571769974082, -0.1440498967688461,
           0.12550966952474304, -0.11133426586956469, 0.1000994575127818,
           -0.09095401714582904, 0.083353840546109, -0.0769325164113522, 0.07143294629536133,
           -0.06666870588242046, 0.06250095514121304, -0.058823978658684585,
           0.055555767627403614, -0.05263167937961666, 0.05000004769810169,
           -0.047619070330142226, 0.04545455629320467, -0.04347826605304026)
_AT_TWO = (0.3224670334241132, -0.0673523010531981, 0.020580808427784546,
           -0.007385551028673986, 0.0028905103307415234, -0.001192753911703261,
           0.0005096695247430425, -0.00022315475845357939, 9.945751278180853e-05,
           -4.492623673813314e-05, 2.050721277567069e-05, -9.439488275268397e-06,
           4.374866789907488e-06, -2.039215753801366e-06, 9.55141213040742e-07,
           -4.492469198764566e-07, 2.1207184805554665e-07, -1.0043224823968099e-07)
# Stirling's series: B_2k / (2k (2k - 1)), k = 1..10 (below 2^-70 relative at y >= 12)
_STIRLING = (0.08333333333333333, -0.002777777777777778, 0.0007936507936507937,
             -0.0005952380952380953, 0.0008417508417508417, -0.0019175269175269176,
             0.00641025641025641, -0.029550653594771242, 0.17964437236883057,
             -1.3924322169059011)
_STIRLING_FROM = 12.0


def _stirling_dd(y: DD) -> DD:
    """lgamma(y) for y >= 12 (< 2^500): (y - 1/2) ln y - y + ln(2 pi)/2 in double-double, the
    series in 1/y^2 in double (it is below 1/144 of the result's leading terms)."""
    log_y = _dd_log(y)
    lead = _dd_add(_dd_mul(_dd_add(y, _dd(np.full_like(y[0], -0.5))), log_y),
                   (-y[0], -y[1]))
    inv = 1 / y[0]
    series = inv * _poly(inv * inv, _STIRLING)
    return _dd_add(lead, _fast_two_sum(np.full_like(inv, _HALF_LN_2PI[0]),
                                       series + _HALF_LN_2PI[1]))


def _lgamma_at_root(t: np.ndarray, lead: tuple[float, float],
                    tail: tuple[float, ...]) -> DD:
    """lead t + t^2 tail(t), the linear term in double-double (it carries the result)."""
    p, e = _two_prod(t, np.full_like(t, lead[0]))
    return _fast_two_sum(p, e + t * lead[1] + t * t * _poly(t, tail))


def _lgamma_dd(x: np.ndarray) -> DD:
    """lgamma(x) as a double-double for finite non-pole x (other lanes give garbage):
    near 1 and 2 Taylor series; x < 12 moved up to y = x + n >= 12 with lgamma(x) =
    lgamma(y) - ln|x (x+1) ... (x+n-1)| (the shifted argument and the product in double-double,
    so nothing cancels); x < -20 by reflection, ln(pi / |sin(pi x)|) - lgamma(1 - x)."""
    big = np.abs(x) >= 2.0**500
    xs = np.where(big | np.isnan(x), 13.0, x)
    reflect = xs < -20
    flipped = _two_sum(np.ones_like(xs), -xs)  # 1 - x, not exact across a binade
    z = np.where(reflect, flipped[0], xs)
    n = np.where(z < _STIRLING_FROM, np.ceil(_STIRLING_FROM - z), 0.0)
    y = _dd_add(_two_sum(z, n), _dd(np.where(reflect, flipped[1], 0.0)))
    prod = _dd(np.ones_like(z))
    for k in range(int(n.max(initial=0))):
        term = _two_sum(z, np.full_like(z, float(k)))
        prod = _dd_mul(prod, (np.where(k < n, term[0], 1.0), np.where(k < n, term[1], 0.0)))
    sign = np.where(prod[0] < 0, -1.0, 1.0)
    log_prod = _dd_log((sign * prod[0], sign * prod[1]))
    shifted = _dd_add(_stirling_dd(y), (-log_prod[0], -log_prod[1]))
    log_s = _dd_log(_dd(np.where(reflect, np.abs(_sinpi(xs)), 1.0)))
    ln_pi_over_s = _dd_add(_dd(np.full_like(xs, _LN_PI[0])), (-log_s[0], _LN_PI[1] - log_s[1]))
    reflected = _dd_add(ln_pi_over_s, (-shifted[0], -shifted[1]))
    at_one = _lgamma_at_root(xs - 1, (-_EULER[0], -_EULER[1]), _AT_ONE)
    at_two = _lgamma_at_root(xs - 2, _ONE_MINUS_EULER, _AT_TWO)
    hi = np.where(reflect, reflected[0], shifted[0])
    lo = np.where(reflect, reflected[1], shifted[1])
    near_one, near_two = np.abs(xs - 1) <= 0.125, np.abs(xs - 2) <= 0.125
    hi = np.where(near_one, at_one[0], np.where(near_two, at_two[0], hi))
    lo = np.where(near_one, at_one[1], np.where(near_two, at_two[1], lo))
    ax = np.abs(x)
    tiny = -np.log(np.where(ax < 2.0**-60, ax, 1.0))
    huge = ax * (np.log(np.where(big, ax, 1.0)) - 1)
    hi = np.where(ax < 2.0**-60, tiny, np.where(big, huge, hi))
    return hi, np.where((ax < 2.0**-60) | big, 0.0, lo)


def _gamma_pole(x: np.ndarray) -> np.ndarray:
    return (x <= 0) & (x == np.floor(x))


def _lgamma(x: np.ndarray) -> np.ndarray:
    hi, lo = _lgamma_dd(x)
    out = hi + lo
    return np.where(_gamma_pole(x) | np.isinf(x), np.inf, np.where(np.isnan(x), x, out))


def _tgamma(x: np.ndarray) -> np.ndarray:
    """exp of the double-double lgamma (exp(hi) (1 + lo): the exponent's rounding is in lo),
    with Gamma's sign (negative where x < 0 and floor(x) is odd); 1/x for |x| < 2^-60."""
    hi, lo = _lgamma_dd(np.where(x > 180, 180.0, x))
    e = np.exp(hi)
    out = np.where(np.isinf(e), e, e + e * lo)
    out = np.where((x < 0) & (np.mod(np.floor(x), 2) == 1), -out, out)
    out = np.where(np.abs(x) < 2.0**-60, 1 / x, out)
    out = np.where(x > 180, np.inf, out)
    pole = ((x < 0) & (x == np.floor(x))) | (x == -np.inf)
    return np.where(pole | np.isnan(x), np.nan, out)


# --- Bessel functions: power series in double-double below 20 (30 for I), Hankel's asymptotic
# expansions above, Taylor series at the zeros below 8, recurrences for jn and yn ------------

_TWO_OVER_PI = (0.6366197723675814, -3.935735335036497e-17)
_SERIES_BELOW, _I_SERIES_BELOW, _MAX_TERMS = 20.0, 30.0, 90
# (zero as a double-double, derivative there) of J0, J1, Y0, Y1 below 8
_ZEROS: dict[tuple[str, int], tuple[tuple[float, float, float], ...]] = {
    ("j", 0): ((2.404825557695773, -1.176691651530894e-16, -0.5191474972894667),
               (5.520078110286311, 8.088597146146722e-17, 0.34026480655836816)),
    ("j", 1): ((3.8317059702075125, -1.5269184090088067e-16, -0.402759395702553),
               (7.015586669815619, -9.414165653410389e-17, 0.30011575252613254)),
    ("y", 0): ((0.8935769662791675, 2.6596231539720385e-17, 0.8794208024971948),
               (3.957678419314858, -1.0764340697562706e-16, -0.40254267177502423),
               (7.086051060301773, -8.835285723085408e-17, 0.3000976149104752)),
    ("y", 1): ((2.197141326031017, -4.8259835876454966e-17, 0.5207864124022675),
               (5.429681040794135, 4.162514026670377e-16, -0.3403180455234406)),
}


def _harmonics(count: int) -> list[Fraction]:
    out, h = [], Fraction(0)
    for k in range(count + 1):
        out.append(h)
        h += Fraction(1, k + 1)
    return out


_H = _harmonics(_MAX_TERMS + 1)
# per order nu: 1/(k (k + nu)) and Y's weights h_k (H_k for nu = 0, (H_k + H_k+1)/2 for 1)
_STEP = {nu: tuple(_dd_const(Fraction(1, k * (k + nu))) for k in range(1, _MAX_TERMS + 1))
         for nu in (0, 1)}
_WEIGHT = {0: tuple(_dd_const(_H[k]) for k in range(_MAX_TERMS + 1)),
           1: tuple(_dd_const((_H[k] + _H[k + 1]) / 2) for k in range(_MAX_TERMS + 1))}


def _full(x: np.ndarray, c: tuple[float, float]) -> DD:
    return np.full_like(x, c[0]), np.full_like(x, c[1])


def _bessel_sums(x: np.ndarray, nu: int, alternate: bool) -> tuple[DD, DD]:
    """S = sum (-+q)^k / (k! (k+nu)!) and W = sum h_k (-+q)^k / (k! (k+nu)!), q = x^2/4,
    in double-double (to 2^-100 of the largest term: the sums cancel to J's size near its
    zeros), as many terms as the largest |x| needs."""
    q = _two_prod(x, x)
    q = (q[0] / 4, q[1] / 4) if not alternate else (-q[0] / 4, -q[1] / 4)
    count = min(int(2.2 * float(np.max(np.abs(x), initial=0.0))) + 16, _MAX_TERMS)
    term = _dd(np.ones_like(x))
    total, weighted = term, _full(x, _WEIGHT[nu][0])
    for k in range(1, count):
        term = _dd_mul(_dd_mul(term, q), _full(x, _STEP[nu][k - 1]))
        total = _dd_add(total, term)
        weighted = _dd_add(weighted, _dd_mul(term, _full(x, _WEIGHT[nu][k])))
    return total, weighted


def _hankel(x: np.ndarray, nu: int) -> tuple[np.ndarray, np.ndarray]:
    """(J_nu, Y_nu) for x >= 20 from Hankel's expansions P, Q (the terms fall below 2^-60
    by the 30th) and the phase x - (2 nu + 1) pi/4 from libm's accurately reduced sin x, cos x."""
    inv = 1 / x
    mu = 4.0 * nu * nu
    p, q = np.ones_like(x), np.zeros_like(x)
    term = np.ones_like(x)
    for k in range(1, 30):
        term = term * (mu - (2 * k - 1) ** 2) / (k * 8) * inv
        if k % 2:
            q = q + (-1) ** (k // 2) * term
        else:
            p = p + (-1) ** (k // 2) * term
    c, s = np.cos(x), np.sin(x)
    r = 0.7071067811865476
    cos_chi = (c + s) * r if nu == 0 else (s - c) * r
    sin_chi = (s - c) * r if nu == 0 else -(s + c) * r
    amp = np.sqrt(2 / (np.pi * x))
    return amp * (p * cos_chi - q * sin_chi), amp * (p * sin_chi + q * cos_chi)


def _near_zeros(kind: str, nu: int, x: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Within 2^-20 of a zero z below 8: f'(z) (t - t^2/(2z) + (2 + nu^2 - z^2) t^3/(6z^2)),
    t = x - z in double-double (the ODE gives the higher derivatives from f'(z))."""
    for z_hi, z_lo, slope in _ZEROS[(kind, nu)]:
        t = (x - z_hi) - z_lo
        taylor = slope * t * (1 - t / (2 * z_hi) + (2 + nu * nu - z_hi * z_hi) * t * t
                              / (6 * z_hi * z_hi))
        out = np.where(np.abs(t) < 2.0**-20, taylor, out)
    return out


def _bessel_jy(x: np.ndarray, nu: int, kind: str) -> np.ndarray:
    """J_nu or Y_nu (nu = 0, 1) for x >= 0 (J's odd/even symmetry and Y's domain outside)."""
    small = np.where(x < _SERIES_BELOW, x, 0.0)
    s, w = _bessel_sums(small, nu, alternate=True)
    half = _dd(small / 2)  # exact but for subnormal x (whose J1 is then within an ulp)
    j = _dd_mul(half, s) if nu else s
    if kind == "y":
        tiny = np.where(small > 0, small, 1.0)
        log_half = _dd_add(_dd_log(_dd(tiny)), (-np.full_like(x, _LN2_DD[0]),
                                               -np.full_like(x, _LN2_DD[1])))
        lead = _dd_mul(_dd_add(log_half, _full(x, _EULER)), j)
        rest = _dd_mul(half, w) if nu else w
        y = _dd_mul(_full(x, _TWO_OVER_PI), _dd_add(lead, (-rest[0], -rest[1])))
        if nu:
            pole = _dd_div(_full(x, _TWO_OVER_PI), _dd(tiny))
            y = _dd_add(y, (-pole[0], -pole[1]))
        series = y[0] + y[1]
    else:
        series = j[0] + j[1]
    big = np.maximum(x, _SERIES_BELOW)
    far = _hankel(big, nu)[0 if kind == "j" else 1]
    out = _near_zeros(kind, nu, x, np.where(x < _SERIES_BELOW, series, far))
    if kind == "y" and nu:  # -2/(pi x) alone (the series' double-double pole would overflow)
        out = np.where(x < 1e-300, -_TWO_OVER_PI[0] / np.where(x < 1e-300, x, 1.0), out)
    return np.where(np.isinf(x), 0.0, out)


def _j0(x: np.ndarray) -> np.ndarray:
    return np.where(np.isnan(x), x, _bessel_jy(np.abs(x), 0, "j"))


def _j1(x: np.ndarray) -> np.ndarray:
    out = _bessel_jy(np.abs(x), 1, "j") * np.where(np.signbit(x), -1.0, 1.0)  # odd; J1(-0) = -0
    return np.where(np.isnan(x), x, out)


def _y(nu: int) -> Callable[[np.ndarray], np.ndarray]:
    def fn(x: np.ndarray) -> np.ndarray:
        out = _bessel_jy(np.where(x > 0, x, 1.0), nu, "y")
        out = np.where(x == 0, -np.inf, out)
        return np.where((x < 0) | np.isnan(x), np.nan, out)
    return fn


def _exp_over_root(x: np.ndarray, tail: np.ndarray) -> np.ndarray:
    """e^x (1 + tail) / sqrt(2 pi x) for 30 <= x <= 800 with one libm rounding: e^x =
    2^k e^r, r = x - k ln 2 and the rest in double-double, 2^k applied last."""
    k = np.round(x / _LN2_DD[0])
    p, e = _two_prod(k, np.full_like(x, _LN2_DD[0]))
    r = _dd_add(_dd(x), (-p, -e - k * _LN2_DD[1]))
    er = np.exp(r[0])
    num = _dd_mul(_fast_two_sum(er, er * r[1]), _fast_two_sum(np.ones_like(x), tail))
    a, b = _two_prod(x, np.full_like(x, 6.283185307179586))
    a, b = _fast_two_sum(a, b + x * 2.4492935982947064e-16)
    root = np.sqrt(a)
    den = _fast_two_sum(root, ((a - root * root) + b) / (2 * root))
    q = _dd_div(num, den)
    return np.ldexp(q[0] + q[1], k.astype(np.int64))


def _bessel_i(x: np.ndarray, nu: int) -> np.ndarray:
    """I_nu (nu = 0, 1): the series (all terms positive) in double-double below 30, above it
    e^x / sqrt(2 pi x) times the asymptotic sum (terms below 2^-60 by the 25th)."""
    ax = np.abs(x)
    small = np.where(ax < _I_SERIES_BELOW, ax, 0.0)
    s, _ = _bessel_sums(small, nu, alternate=False)
    s = _dd_mul(_dd(small / 2), s) if nu else s
    big = np.clip(ax, _I_SERIES_BELOW, 800.0)
    mu = 4.0 * nu * nu
    tail, term = np.zeros_like(big), np.ones_like(big)
    for k in range(1, 25):
        term = -term * (mu - (2 * k - 1) ** 2) / (k * 8 * big)
        tail = tail + term
    out = np.where(ax < _I_SERIES_BELOW, s[0] + s[1], _exp_over_root(big, tail))
    out = np.where(ax > 800, np.inf, out)
    if nu:
        out = out * np.where(np.signbit(x), -1.0, 1.0)
    return np.where(np.isnan(x), x, out)


def _jn(n: np.ndarray, x: np.ndarray) -> np.ndarray:
    """J_n(x), integer n: forward recurrence from J0, J1 where |x| >= |n| (stable there),
    Miller's backward recurrence normalized by J0 + 2 (J2 + J4 + ...) = 1 below, the leading
    series terms (x/2)^n / n! (1 - q/(n+1)) for |x| < 1e-5; J_-n = J_n(-x) = (-1)^n J_n(x)."""
    m = np.abs(n).astype(np.int64)
    ax = np.abs(x)
    fin = np.where(np.isfinite(ax), ax, 1.0)
    j0, j1 = _j0(fin), _j1(fin)
    top = int(m.max(initial=0))
    # forward
    prev, cur = j0, j1
    forward = np.where(m == 0, j0, j1)
    for k in range(1, top):
        prev, cur = cur, (2 * k / np.where(fin > 0, fin, 1.0)) * cur - prev
        forward = np.where(m == k + 1, cur, forward)
    # backward (Miller), from an even start well above n
    start = 2 * ((top + int(np.sqrt(160 * max(top, 1)))) // 2) + 20
    safe = np.where(fin > 1e-5, fin, 1.0)
    b_next, b = np.zeros_like(fin), np.full_like(fin, 1e-300)
    norm, picked = np.zeros_like(fin), np.zeros_like(fin)
    for k in range(start, 0, -1):
        b_next, b = b, (2 * k / safe) * b - b_next  # now b = J_k-1 (unnormalized)
        if (k - 1) % 2 == 0:
            norm = norm + (2 * b if k - 1 else b)
        picked = np.where(m == k - 1, b, picked)
        scale = np.where(np.abs(b) > 1e250, 1e-250, 1.0)
        b, b_next, norm, picked = b * scale, b_next * scale, norm * scale, picked * scale
    backward = picked / norm
    # tiny |x|
    lead = np.ones_like(fin)
    for k in range(1, top + 1):
        lead = np.where(k <= m, lead * (fin / 2) / k, lead)
    tiny = lead * (1 - fin * fin / (4 * (m + 1)))
    out = np.where(fin >= m, forward, np.where(fin < 1e-5, tiny, backward))
    out = np.where(m == 0, j0, np.where(m == 1, j1, out))
    odd = (m % 2 == 1) & ((n < 0) != (x < 0))
    out = np.where(odd, -out, out)
    return np.where(np.isinf(x), 0.0, np.where(np.isnan(x), x, out))


def _yn(n: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Y_n(x) by the forward recurrence from Y0, Y1 (stable: Y grows with n); an infinite
    Y_k stays infinite. Y_-n = (-1)^n Y_n."""
    m = np.abs(n).astype(np.int64)
    y0, y1 = _y(0)(x), _y(1)(x)
    safe = np.where(x > 0, x, 1.0)
    prev, cur = y0, y1
    out = np.where(m == 0, y0, y1)
    for k in range(1, int(m.max(initial=0))):
        nxt = (2 * k / safe) * cur - prev
        prev, cur = cur, np.where(np.isinf(cur), cur, nxt)
        out = np.where(m == k + 1, cur, out)
    out = np.where((n < 0) & (m % 2 == 1), -out, out)
    return np.where(x == 0, -np.inf, np.where((x < 0) | np.isnan(x), np.nan, out))


# --- the table ------------------------------------------------------------------------------

@dataclass(frozen=True)
class MathFunction:
    """One row of CUDA's math table: the double-form name (`name` + "f" is the float form),
    the whole-array float64 implementation, CUDA's documented maximum ulp error of each form
    (programming guide, Mathematical Functions appendix; None where CUDA documents none), and
    whether the emulator's result is correctly rounded (0 ulp). Where the guide states an
    absolute error instead (the Bessel functions past |x| = 8, jn everywhere) the row carries
    it, with the guide's wording in `guide` for the bounds a number cannot say."""

    name: str
    fn: Callable[..., Any]
    ulp_single: float | None
    ulp_double: float | None
    exact: bool = False
    arity: int = 1
    out: tuple[str, ...] = ("float",)  # per output: "float", "int32", "int64"
    int_args: tuple[int, ...] = ()     # argument positions that are C ints
    double: bool = True                # the double form exists here
    single_fn: Callable[..., Any] | None = None  # the float form's own implementation
    abs_single: float | None = None    # CUDA's maximum absolute error, where it states one
    abs_double: float | None = None
    ulp_below: float | None = None     # the ulp bound for |x| < this, the absolute one above
    guide: tuple[str, str] = ("", "")  # the guide's wording (float, double) past "N (full range)"

    @property
    def single_name(self) -> str:
        return self.name + "f"


_M = MathFunction
_FLOAT2, _FLOAT_INT = ("float", "float"), ("float", "int32")

FUNCTIONS: tuple[MathFunction, ...] = (
    # exactly specified (CUDA: 0 ulp, IEEE-754 / correctly rounded)
    _M("sqrt", np.sqrt, 0, 0, exact=True),
    _M("fma", _fma, 0, 0, exact=True, arity=3, single_fn=lambda a, b, c: R.fma(a, b, c, _F32)),
    _M("fabs", np.abs, 0, 0, exact=True),
    _M("copysign", np.copysign, 0, 0, exact=True, arity=2),
    _M("fmin", _fmin, 0, 0, exact=True, arity=2),
    _M("fmax", _fmax, 0, 0, exact=True, arity=2),
    _M("fdim", lambda a, b: np.where(a > b, a - b, np.where(np.isnan(a + b), a + b, 0.0)),
       0, 0, exact=True, arity=2),
    _M("fmod", np.fmod, 0, 0, exact=True, arity=2),
    _M("remainder", lambda a, b: _remquo(a, b)[0], 0, 0, exact=True, arity=2),
    _M("remquo", _remquo, 0, 0, exact=True, arity=2, out=_FLOAT_INT),
    _M("floor", np.floor, 0, 0, exact=True),
    _M("ceil", np.ceil, 0, 0, exact=True),
    _M("trunc", np.trunc, 0, 0, exact=True),
    _M("round", _round, 0, 0, exact=True),
    _M("rint", np.rint, 0, 0, exact=True),
    _M("nearbyint", np.rint, 0, 0, exact=True),
    _M("lrint", np.rint, 0, 0, exact=True, out=("int64",)),
    _M("llrint", np.rint, 0, 0, exact=True, out=("int64",)),
    _M("lround", _round, 0, 0, exact=True, out=("int64",)),
    _M("llround", _round, 0, 0, exact=True, out=("int64",)),
    _M("ldexp", _ldexp, 0, 0, exact=True, arity=2, int_args=(1,)),
    _M("scalbn", _ldexp, 0, 0, exact=True, arity=2, int_args=(1,)),
    _M("scalbln", _ldexp, 0, 0, exact=True, arity=2, int_args=(1,)),
    _M("frexp", np.frexp, 0, 0, exact=True, out=_FLOAT_INT),
    _M("modf", np.modf, 0, 0, exact=True, out=_FLOAT2),
    _M("logb", _logb, 0, 0, exact=True),
    _M("ilogb", _ilogb, 0, 0, exact=True, out=("int32",)),
    _M("nextafter", np.nextafter, 0, 0, exact=True, arity=2),
    # roots and norms
    _M("rsqrt", _rsqrt, 2, 1),
    _M("cbrt", _cbrt, 1, 1),
    _M("rcbrt", _rcbrt, 1, 1),
    _M("hypot", _norm, 3, 2, arity=2),
    _M("rhypot", _rnorm, 2, 1, arity=2),
    _M("norm3d", _norm, 3, 2, arity=3),
    _M("rnorm3d", _rnorm, 2, 1, arity=3),
    _M("norm4d", _norm, 3, 2, arity=4),
    _M("rnorm4d", _rnorm, 2, 1, arity=4),
    # exponentials and logarithms
    _M("exp", np.exp, 2, 1),
    _M("exp2", np.exp2, 2, 1),
    _M("exp10", lambda x: np.power(10.0, x), 2, 1),
    _M("expm1", np.expm1, 1, 1),
    _M("log", np.log, 1, 1),
    _M("log2", np.log2, 1, 1),
    _M("log10", np.log10, 2, 1),
    _M("log1p", np.log1p, 1, 1),
    _M("pow", np.power, 4, 2, arity=2),
    # trigonometric and hyperbolic
    _M("sin", np.sin, 2, 2),
    _M("cos", np.cos, 2, 2),
    _M("tan", np.tan, 4, 2),
    _M("sincos", lambda x: (np.sin(x), np.cos(x)), 2, 2, out=_FLOAT2),
    _M("sinpi", _sinpi, 1, 2),
    _M("cospi", _cospi, 1, 2),
    _M("sincospi", lambda x: (_sinpi(x), _cospi(x)), 1, 2, out=_FLOAT2),
    _M("asin", np.arcsin, 2, 2),
    _M("acos", np.arccos, 2, 2),
    _M("atan", np.arctan, 2, 2),
    _M("atan2", np.arctan2, 3, 2, arity=2),
    _M("sinh", np.sinh, 3, 2),
    _M("cosh", np.cosh, 2, 1),
    _M("tanh", _tanh, 2, 1, single_fn=np.tanh),  # (libm's 1.1 double ulp, then one rounding)
    _M("asinh", np.arcsinh, 3, 3),
    _M("acosh", np.arccosh, 4, 3),
    _M("atanh", np.arctanh, 3, 2),
    # error and gamma functions
    _M("erf", _erf, 2, 2),
    _M("erfc", _erfc, 4, 5),
    _M("erfinv", _erfinv, 2, 5),
    _M("erfcinv", _erfcinv, 4, 6),
    _M("erfcx", _erfcx, 4, 4),
    _M("normcdf", _normcdf, 5, 5),
    _M("normcdfinv", _normcdfinv, 5, 8),
    _M("lgamma", _lgamma, 6, 4,
       guide=("6 (outside interval -10.001 ... -2.264; larger inside)",
              "4 (outside interval -23.0001 ... -2.2637; larger inside)")),
    _M("tgamma", _tgamma, 5, 10),
    # Bessel functions (the guide: "9 for |x| < 8, otherwise, the maximum absolute error is
    # 2.2 x 10^-6", double 7 ulp and 5 x 10^-12)
    *(_M(name, fn, 9, 7, abs_single=2.2e-6, abs_double=5e-12, ulp_below=8.0,
         guide=("9 for |x| < 8; otherwise, the maximum absolute error is 2.2 x 10^-6",
                "7 for |x| < 8; otherwise, the maximum absolute error is 5 x 10^-12"))
      for name, fn in (("j0", _j0), ("j1", _j1), ("y0", _y(0)), ("y1", _y(1)))),
    _M("jn", _jn, None, None, arity=2, int_args=(0,), abs_single=2.2e-6, abs_double=5e-12,
       guide=("For n = 128, the maximum absolute error is 2.2 x 10^-6",
              "For n = 128, the maximum absolute error is 5 x 10^-12")),
    _M("yn", _yn, None, None, arity=2, int_args=(0,), abs_single=2.2e-6, abs_double=5e-12,
       guide=("ceil(2 + 2.5n) for |x| < n; otherwise, the maximum absolute error is 2.2 x 10^-6",
              "For |x| > 1.5n, the maximum absolute error is 5 x 10^-12")),
    _M("cyl_bessel_i0", lambda x: _bessel_i(x, 0), 6, 6),
    _M("cyl_bessel_i1", lambda x: _bessel_i(x, 1), 6, 6),
    # float division by name (CUDA: x / y, or __fdividef under -use_fast_math)
    _M("fdivide", np.divide, 0, None, exact=True, arity=2, double=False),
)


# --- the public functions -------------------------------------------------------------------

def _result(value: np.ndarray, kind: str, dtype: np.dtype, scalar: bool) -> Any:
    """One output in C's type: the float form's float32 (one rounding), or a C integer
    (out-of-range and NaN give INT_MIN, x86's and AMD's convert-to-int answer)."""
    if kind == "float":
        out = np.asarray(value).astype(dtype)
    else:
        bits = 31 if kind == "int32" else 63
        value = np.asarray(value, np.float64)
        ok = (value >= -(2.0**bits)) & (value < 2.0**bits)
        out = np.where(ok, value, -(2.0**bits)).astype(np.int32 if bits == 31 else np.int64)
    return out[()] if scalar else out


# computed in the form's own type: nextafter steps in it, fmin/fmax return an operand
_NATIVE = ("nextafter", "fmin", "fmax")


def _form(row: MathFunction, dtype: np.dtype, name: str,
          output: int | None) -> Callable[..., Any]:
    """The C function `name` (or, with `output`, that output of a multi-output one)."""
    native = row.name in _NATIVE

    def fn(*xs: Any) -> Any:
        if len(xs) != row.arity:
            raise BuiltinArgumentError(f"{name} takes {row.arity} arguments, got {len(xs)}")
        scalar = all(np.ndim(x) == 0 for x in xs)
        args = [np.asarray(x).astype(np.int64) if i in row.int_args
                else np.asarray(x, dtype) if native
                else np.asarray(x, dtype).astype(np.float64) for i, x in enumerate(xs)]
        with np.errstate(all="ignore"):
            impl = row.single_fn if dtype == _F32 and row.single_fn else row.fn
            value = impl(*args)
            if output is not None:
                return _result(value[output], row.out[output], dtype, scalar)
            return _result(value, row.out[0], dtype, scalar)

    fn.__name__ = fn.__qualname__ = name
    return fn


def _tuple_form(parts: list[Callable[..., Any]], name: str, doc: str) -> Callable[..., Any]:
    def fn(*xs: Any) -> tuple[Any, ...]:
        return tuple(part(*xs) for part in parts)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return fn


def _doc(row: MathFunction, single: bool) -> str:
    c_name = row.single_name if single else row.name
    bound = row.ulp_single if single else row.ulp_double
    cuda = row.guide[not single] or ("none documented" if bound is None else f"{bound:g} ulp")
    if row.exact:
        ours = "correctly rounded (0 ulp)"
    elif row.abs_double is not None:
        ours = ("float64 within the CUDA bound (double-double series, Hankel's expansion past "
                "20; tests check it against mpmath)") + (", rounded once to float" * single)
    elif single:
        ours = "computed in float64 and rounded once: <= 0.5 ulp + 2^-29 ulp"
    else:
        ours = "float64 within the CUDA bound (tests check it against mpmath)"
    tail = " Returns a tuple (C's pointer outputs)." if len(row.out) > 1 else ""
    return f"CUDA/HIP {c_name}: CUDA's bound {cuda}; here {ours}.{tail}"


def _build() -> dict[str, Callable[..., Any]]:
    made: dict[str, Callable[..., Any]] = {}
    for row in FUNCTIONS:
        forms = [(True, _F32, row.single_name)] + ([(False, _F64, row.name)] * row.double)
        for single, dtype, name in forms:
            if len(row.out) == 1:
                fn = _form(row, dtype, name, None)
                fn.__doc__ = _doc(row, single)
                made[name] = lane_wise(fn)
            else:  # each output its own per-lane function, so each comes back per lane
                parts = [lane_wise(_form(row, dtype, f"{name}[{i}]", i))
                         for i in range(len(row.out))]
                made[name] = _tuple_form(parts, name, _doc(row, single))
    made["rsqrtf"] = _half_math_rsqrtf  # half_math's (same semantics), one object everywhere
    for name, test in (("isnan", np.isnan), ("isinf", np.isinf), ("isfinite", np.isfinite),
                       ("signbit", np.signbit)):
        made[name] = lane_wise(_classifier(name, test))
    for dtype, suffix in ((_F32, "f"), (_F64, "")):
        made["nan" + suffix] = _nan(dtype, "nan" + suffix)
        made["norm" + suffix] = _array_norm(_norm, dtype, "norm" + suffix)
        made["rnorm" + suffix] = _array_norm(_rnorm, dtype, "rnorm" + suffix)
    return made


def _classifier(name: str, test: Callable[[np.ndarray], np.ndarray]) -> Callable[..., Any]:
    def fn(x: Any) -> Any:
        out = test(np.asarray(x))  # float32 or float64 alike: no conversion changes the class
        return out[()] if np.ndim(out) == 0 else out
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"C/CUDA {name}(x) for float or double x: a bool (C++'s overload) per lane."
    return fn


def _nan(dtype: np.dtype, name: str) -> Callable[[str], Any]:
    bits, exp_bits, word_type = (23, 8, np.uint32) if dtype == _F32 else (52, 11, np.uint64)

    def fn(tag: str = "") -> Any:
        try:
            payload = int(tag, 0) if tag else 0
        except ValueError:  # C: an unparsable n-char-sequence gives the default NaN
            payload = 0
        word = (((1 << exp_bits) - 1) << bits) | (1 << (bits - 1)) \
            | (payload & ((1 << (bits - 1)) - 1))  # all-ones exponent, quiet bit, payload
        return np.array(word, word_type).view(dtype)[()]
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"C {name}(tag): a quiet NaN whose payload is the tag's number (strtoul's "
                  "reading, base by prefix; the low mantissa bits), the default NaN for \"\".")
    return fn


def _array_norm(impl: Callable[..., np.ndarray], dtype: np.dtype,
                name: str) -> Callable[..., Any]:
    """CUDA's normf(dim, p) / rnormf(dim, p): p is read as C reads it, p[0] .. p[dim - 1]
    (a Pointer, a device or numpy array, a list), each element a value or per-lane values."""
    @lane_wise
    def values(*xs: Any) -> Any:
        scalar = all(np.ndim(x) == 0 for x in xs)
        with np.errstate(all="ignore"):
            value = impl(*[np.asarray(x, dtype).astype(np.float64) for x in xs])
        return _result(value, "float", dtype, scalar)

    def fn(dim: int, p: Any) -> Any:
        n = int(dim)
        if n < 1:  # an empty vector: norm 0, reciprocal norm infinite
            return dtype.type(0.0 if impl is _norm else np.inf)
        return values(*[p[i] for i in range(n)])
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"CUDA/HIP {name}(dim, p): the {'reciprocal ' * (impl is _rnorm)}Euclidean "
                  "norm of p[0] .. p[dim-1] (p a Pointer, array or list; per-lane elements "
                  "work). CUDA documents no bound (a fast algorithm); here scaled, summed in "
                  "double-double, one rounding to the form's type.")
    return fn


_FUNCTIONS = _build()
globals().update(_FUNCTIONS)
DEVICE_MATH_NAMES: tuple[str, ...] = tuple(n for n in _FUNCTIONS if n != "rsqrtf")
__all__ = ["DEVICE_MATH_NAMES", "FUNCTIONS", "MathFunction", *DEVICE_MATH_NAMES]
