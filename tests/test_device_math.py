"""CUDA's device math library (runtime.device_math) against mpmath at 200 bits.

Every row of `device_math.FUNCTIONS`, float and double form, on log-uniform random inputs
over its domain (fixed seeds) plus special inputs. The error is measured in ulps of the
result type at the exact value (subnormal ulps below the normal range): correctly rounded
functions must equal the exact value rounded to nearest even (integer arithmetic on
Fractions, subnormals and overflow included), the others stay within CUDA's documented bound.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest

from rocwmma_py import blockDim, blockIdx, kernel, threadIdx, use_engine
from rocwmma_py.runtime import device_math as D
from rocwmma_py.runtime import last_launch_stats

mp.mp.prec = 200
FORMATS = {np.float32: (24, -126, 127), np.float64: (53, -1022, 1023)}
ROWS = {row.name: row for row in D.FUNCTIONS}
N = 300  # random inputs per form and run (the extended sweep takes 20x)


# --- the reference ------------------------------------------------------------------------

def exponent(q: Fraction) -> int:
    e = q.numerator.bit_length() - q.denominator.bit_length()
    return e - 1 if Fraction(2) ** e > q else e


def quantum(q: Fraction, fmt) -> Fraction:
    p, emin, _ = FORMATS[fmt]
    return Fraction(2) ** (max(exponent(abs(q)) if q else emin, emin) - p + 1)


def ref_round(q: Fraction, fmt) -> float:
    """q rounded to nearest even in fmt (inf past the largest finite)."""
    if q == 0:
        return 0.0
    p, _, emax = FORMATS[fmt]
    step = quantum(q, fmt)
    n, r = divmod(abs(q), step)
    n = int(n) + (r > step / 2 or (r == step / 2 and int(n) % 2 == 1))
    value = Fraction(n) * step
    if value >= Fraction(2) ** (emax + 1):
        return -math.inf if q < 0 else math.inf
    return -float(value) if q < 0 else float(value)


def frac(v) -> Fraction | None:
    """An mpf (or number) as a Fraction; None for complex, NaN or infinity."""
    if isinstance(v, (mp.mpc, complex)):
        if mp.im(v) != 0:
            return None
        v = mp.re(v)
    v = mp.mpf(v)
    if not mp.isfinite(v):
        return None
    sign, man, exp, _ = mp.mpf(v)._mpf_
    return (-1) ** sign * Fraction(int(man)) * Fraction(2) ** int(exp)


def erfcinv_ref(q):
    q = mp.mpf(q)
    if q > 1:
        return -erfcinv_ref(2 - q)
    if q > mp.mpf("1e-10"):
        return mp.erfinv(1 - q)
    y, target = mp.sqrt(-mp.log(q)), mp.log(q)
    for _ in range(12):  # Newton on log erfc(y) = log q (well scaled for tiny q)
        e = mp.erfc(y)
        y = y + (mp.log(e) - target) * e / (2 / mp.sqrt(mp.pi) * mp.exp(-y * y))
    return y


def _lgamma_ref(x):
    if x <= 0 and x == mp.floor(x):
        return mp.inf
    return mp.loggamma(x) if x > 0 else mp.log(abs(mp.gamma(x)))


def _gamma_ref(x):
    return mp.nan if x <= 0 and x == mp.floor(x) else mp.gamma(x)


def _pow_ref(x, y):
    if x < 0 and y != mp.floor(y):
        return mp.nan
    return mp.power(x, y)


REFERENCE = {
    "sqrt": mp.sqrt, "fma": lambda a, b, c: a * b + c, "fabs": abs,
    "fmin": min, "fmax": max, "fdim": lambda a, b: max(a - b, 0), "fmod": mp.fmod,
    "floor": mp.floor, "ceil": mp.ceil, "trunc": lambda x: mp.sign(x) * mp.floor(abs(x)),
    "round": lambda x: mp.sign(x) * mp.floor(abs(x) + mp.mpf(0.5)), "rint": mp.nint,
    "nearbyint": mp.nint, "lrint": mp.nint, "llrint": mp.nint,
    "lround": lambda x: mp.sign(x) * mp.floor(abs(x) + mp.mpf(0.5)),
    "llround": lambda x: mp.sign(x) * mp.floor(abs(x) + mp.mpf(0.5)),
    "logb": lambda x: mp.floor(mp.log(abs(x), 2)), "ilogb": lambda x: mp.floor(mp.log(abs(x), 2)),
    "rsqrt": lambda x: 1 / mp.sqrt(x), "cbrt": lambda x: mp.sign(x) * mp.cbrt(abs(x)),
    "rcbrt": lambda x: mp.sign(x) / mp.cbrt(abs(x)),
    "hypot": lambda *x: mp.sqrt(sum(v * v for v in x)),
    "rhypot": lambda *x: 1 / mp.sqrt(sum(v * v for v in x)),
    "exp": mp.exp, "exp2": lambda x: mp.power(2, x), "exp10": lambda x: mp.power(10, x),
    "expm1": mp.expm1, "log": mp.log, "log2": lambda x: mp.log(x, 2), "log10": mp.log10,
    "log1p": mp.log1p, "pow": _pow_ref, "sin": mp.sin, "cos": mp.cos, "tan": mp.tan,
    "sinpi": mp.sinpi, "cospi": mp.cospi, "asin": mp.asin, "acos": mp.acos, "atan": mp.atan,
    "atan2": mp.atan2, "sinh": mp.sinh, "cosh": mp.cosh, "tanh": mp.tanh, "asinh": mp.asinh,
    "acosh": mp.acosh, "atanh": mp.atanh, "erf": mp.erf, "erfc": mp.erfc,
    "erfinv": mp.erfinv, "erfcinv": erfcinv_ref, "erfcx": lambda x: mp.exp(x * x) * mp.erfc(x),
    "normcdf": mp.ncdf, "normcdfinv": lambda p: -mp.sqrt(2) * erfcinv_ref(2 * p),
    "lgamma": _lgamma_ref, "tgamma": _gamma_ref,
    "j0": lambda x: mp.besselj(0, x), "j1": lambda x: mp.besselj(1, x),
    "y0": lambda x: mp.bessely(0, x), "y1": lambda x: mp.bessely(1, x),
    "jn": lambda n, x: mp.besselj(int(n), x), "yn": lambda n, x: mp.bessely(int(n), x),
    "cyl_bessel_i0": lambda x: mp.besseli(0, x), "cyl_bessel_i1": lambda x: mp.besseli(1, x),
    "fdivide": lambda a, b: a / b,
}
for _n in ("norm3d", "norm4d"):
    REFERENCE[_n] = REFERENCE["hypot"]
for _n in ("rnorm3d", "rnorm4d"):
    REFERENCE[_n] = REFERENCE["rhypot"]

SLOW = ("erfinv", "erfcinv", "normcdfinv", "yn")  # slow in mpmath: fewer random inputs

# Inputs: per argument (lowest log2 magnitude, highest, signs); None -> the format's range.
WIDE = (None, None, "+-")
DOMAIN: dict[str, tuple[tuple, ...]] = {
    "sqrt": ((None, None, "+"),), "rsqrt": ((None, None, "+"),),
    "log": ((None, None, "+"),), "log2": ((None, None, "+"),), "log10": ((None, None, "+"),),
    "log1p": ((-60, None, "+"),), "exp": ((-40, 9.4, "+-"),), "exp2": ((-40, 10, "+-"),),
    "exp10": ((-40, 8.2, "+-"),), "expm1": ((-40, 9.4, "+-"),),
    "sinh": ((-40, 9.4, "+-"),), "cosh": ((-40, 9.4, "+-"),), "tanh": ((-40, 5, "+-"),),
    "pow": ((-20, 20, "+"), (-20, 5, "+-")),
    "sin": ((-40, 20, "+-"),), "cos": ((-40, 20, "+-"),), "tan": ((-40, 20, "+-"),),
    "sinpi": ((-40, 30, "+-"),), "cospi": ((-40, 30, "+-"),),
    "asin": ((-40, 0, "+-"),), "acos": ((-40, 0, "+-"),), "atanh": ((-40, -0.0001, "+-"),),
    "acosh": ((0, 100, "+"),), "erfinv": ((-40, -0.00001, "+-"),),
    "erfcinv": ((-1000, 0.99, "+"),), "erfc": ((-40, 4.8, "+-"),),
    "erfcx": ((-20, 8, "+-"),), "normcdf": ((-20, 5.2, "+-"),),
    "normcdfinv": ((-1000, -0.00001, "+"),),
    "lgamma": ((-40, 100, "+-"),), "tgamma": ((-40, 7.43, "+-"),),
    "fma": ((-200, 200, "+-"),) * 3,
    "j0": ((-40, 30, "+-"),), "j1": ((-40, 30, "+-"),), "y0": ((-40, 30, "+"),),
    "y1": ((-40, 30, "+"),), "jn": (WIDE, (-20, 12, "+-")), "yn": (WIDE, (-8, 12, "+")),
    "cyl_bessel_i0": ((-40, 9.48, "+-"),), "cyl_bessel_i1": ((-40, 9.48, "+-"),),
    **{f: ((None, 62, "+-"),) for f in ("lrint", "llrint", "lround", "llround")},
}


def sample(name: str, fmt, rng, n: int) -> list[np.ndarray]:
    row = ROWS[name]
    p, emin, emax = FORMATS[fmt]
    specs = DOMAIN.get(name, (WIDE,) * row.arity)
    if len(specs) == 1:
        specs = specs * row.arity
    out = []
    for i, (lo, hi, signs) in enumerate(specs):
        if i in row.int_args and name in ("jn", "yn"):  # orders up to the guide's n = 128
            out.append(rng.choice([-5, -2, 0, 1, 2, 3, 7, 20, 60, 128], n))
            continue
        if i in row.int_args:
            out.append(rng.integers(-300 if fmt is np.float64 else -60, 60, n))
            continue
        lo = emin - p + 1 if lo is None else max(lo, emin - p + 1)
        hi = emax + 1 if hi is None else min(hi, emax + 1)
        mag = np.exp2(rng.uniform(lo, hi, n)).astype(fmt)
        sign = rng.choice([-1, 1] if signs == "+-" else [-1] if signs == "-" else [1], n)
        out.append((mag * sign).astype(fmt))
    if name == "lgamma":  # CUDA's bound holds outside (-10.001, -2.264), double (-23.0001, -2.2637)
        lo = -10.001 if fmt is np.float32 else -23.0001
        out[0] = np.where((out[0] > lo) & (out[0] < -2.2637), -out[0], out[0])
    if name in ("tgamma", "lgamma"):  # and away from the poles (non-positive integers)
        out[0] = np.where(out[0] < -2.0**20, -out[0], out[0])
        out[0] = np.where((out[0] < 0) & (out[0] == np.floor(out[0])), out[0] + 0.25, out[0])
    return out


# --- the check ----------------------------------------------------------------------------

def _exact_value(name, args) -> Fraction | None:
    """Exactly specified results as Fractions (integer arithmetic, no mpmath)."""
    q = [Fraction(int(a)) if isinstance(a, (int, np.integer)) else Fraction(float(a))
         for a in args]
    if name in ("ldexp", "scalbn", "scalbln"):
        return q[0] * Fraction(2) ** int(args[1])
    if name == "fmod":
        n = q[0] / q[1]
        return q[0] - (math.floor(n) if n > 0 else math.ceil(n)) * q[1]
    if name == "remainder":
        return q[0] - round(q[0] / q[1]) * q[1]
    if name in ("rint", "nearbyint", "lrint", "llrint"):
        return Fraction(round(q[0]))
    if name == "copysign":
        return abs(q[0]) * (-1 if math.copysign(1, float(args[1])) < 0 else 1)
    return None


@functools.lru_cache(maxsize=20000)
def reference(name: str, *xs: float):
    """mpmath's value at 200 bits (cached: the absolute and ulp checks share it)."""
    with mp.workprec(200):
        return REFERENCE[name](*[mp.mpf(x) for x in xs])


def errors(name: str, fmt, args: list[np.ndarray], got: np.ndarray) -> np.ndarray:
    """Per input: the error of `got` in ulps at the exact value (inf where a result that
    should be finite, infinite or NaN is not)."""
    out = np.zeros(len(got))
    for i in range(len(got)):
        xs = [a[i] for a in args]
        exact = _exact_value(name, xs)
        if exact is None:
            v = reference(name, *map(float, xs))
            exact = frac(v)
        g = float(got[i])
        if exact is None:  # NaN or infinite: the result must be the same
            vs = mp.mpf(v) if not isinstance(v, mp.mpc) else mp.nan
            same = (math.isnan(g) and mp.isnan(vs)) or g == float(vs)
            out[i] = 0 if same else math.inf
            continue
        rounded = ref_round(exact, fmt)
        if math.isinf(rounded) or math.isinf(g):
            out[i] = 0 if g == rounded else math.inf
            continue
        if math.isnan(g):
            out[i] = math.inf
            continue
        out[i] = float(abs(Fraction(g) - exact) / quantum(exact, fmt))
        if ROWS[name].exact:
            out[i] = 0 if g == rounded else math.inf
    return out


def forms():
    for row in D.FUNCTIONS:
        if row.name in ("remquo", "frexp", "modf", "sincos", "sincospi", "nextafter"):
            continue  # multi-output and stepping functions: own tests below
        yield pytest.param(row.name, np.float32, id=row.single_name)
        if row.double:
            yield pytest.param(row.name, np.float64, id=row.name)


def absolute_errors(name: str, args: list[np.ndarray], got: np.ndarray) -> np.ndarray:
    out = np.zeros(len(got))
    for i in range(len(got)):
        v = reference(name, *(float(a[i]) for a in args))
        v = mp.mpf(v) if not isinstance(v, mp.mpc) else mp.nan
        ok = mp.isfinite(v) and math.isfinite(got[i])
        out[i] = float(abs(mp.mpf(float(got[i])) - v)) if ok else (
            0.0 if float(v) == got[i] or (mp.isnan(v) and math.isnan(got[i])) else math.inf)
    return out


def documented_bound(row, fmt, args: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Per input: (ulp bound, absolute bound), inf where that kind does not apply. The
    guide's regions: the ulp bound for |x| < 8 (j0 .. y1), below n (ynf); the absolute bound
    above 8, for all x (jn), above n (ynf) or 1.5 n (yn). Where it states nothing (yn for
    x <= 1.5 n) the emulator is held to 5e-12 relative."""
    single = fmt is np.float32
    ulp = row.ulp_single if single else row.ulp_double
    absolute = row.abs_single if single else row.abs_double
    n = len(args[-1])
    if row.exact or absolute is None:
        return np.full(n, 0 if row.exact else ulp, float), np.full(n, math.inf)
    x = np.abs(args[-1].astype(np.float64))
    if row.name == "yn":
        order = np.abs(args[0])
        near = x < (order if single else 1.5 * order)
        ulp_bound = np.where(near, np.ceil(2 + 2.5 * order) if single else math.inf, math.inf)
        return ulp_bound, np.where(near, math.inf if single else -5e-12, absolute)
    if row.ulp_below is None:
        return np.full(n, math.inf), np.full(n, absolute)
    near = x < row.ulp_below
    return np.where(near, ulp, math.inf), np.where(near, math.inf, absolute)


def run_form(name: str, fmt, n: int, seed: int) -> float:
    row = ROWS[name]
    rng = np.random.default_rng(seed)
    args = sample(name, fmt, rng, n // 4 if name in SLOW else n)
    fn = getattr(D, row.single_name if fmt is np.float32 else row.name)
    got = np.asarray(fn(*args), dtype=np.float64)
    ulp_bound, abs_bound = documented_bound(row, fmt, args)
    err = errors(name, fmt, args, got)
    ratio = np.where(np.isfinite(ulp_bound), err / np.maximum(ulp_bound, 1e-300), 0.0)
    ratio = np.where(np.isfinite(ulp_bound) & (ulp_bound == 0), np.where(err > 0, np.inf, 0),
                     ratio)
    if np.isfinite(abs_bound).any():
        a_err = absolute_errors(name, args, got)
        scale = np.where(abs_bound < 0, np.maximum(1, np.abs(got)), 1.0)  # relative: -bound
        with np.errstate(invalid="ignore"):
            a_ratio = np.where(np.isfinite(abs_bound), a_err / (np.abs(abs_bound) * scale), 0)
        ratio = np.maximum(ratio, a_ratio)
    worst = int(np.argmax(ratio))
    assert ratio[worst] <= 1, (
        f"{fn.__name__}{tuple(float(a[worst]) for a in args)} = {got[worst]!r}: "
        f"{err[worst]} ulp (bound {ulp_bound[worst]}), absolute bound {abs_bound[worst]}")
    return float(err.max())


@pytest.mark.parametrize("name, fmt", list(forms()))
def test_within_cuda_bound(name, fmt):
    run_form(name, fmt, N, seed=sum(map(ord, name)) + (32 if fmt is np.float32 else 64))


@pytest.mark.extended
@pytest.mark.parametrize("name, fmt", list(forms()))
def test_within_cuda_bound_extended(name, fmt):
    run_form(name, fmt, 20 * N, seed=7 + sum(map(ord, name)))


# --- special inputs, multi-output forms, kernels ------------------------------------------

INF, NAN = math.inf, math.nan
SPECIALS = [  # (function, arguments, C99 Annex F / CUDA result)
    ("logf", (-1.0,), NAN), ("logf", (0.0,), -INF), ("logf", (INF,), INF), ("log", (-0.0,), -INF),
    ("expf", (-INF,), 0.0), ("expf", (INF,), INF), ("expf", (NAN,), NAN), ("exp", (1000.0,), INF),
    ("sqrtf", (-0.0,), -0.0), ("sqrtf", (-1.0,), NAN), ("rsqrtf", (0.0,), INF),
    ("rsqrt", (-0.0,), -INF), ("rsqrt", (INF,), 0.0), ("cbrt", (-INF,), -INF),
    ("powf", (1.0, NAN), 1.0), ("powf", (NAN, 0.0), 1.0), ("powf", (-1.0, INF), 1.0),
    ("powf", (0.0, -1.0), INF), ("powf", (-0.0, -3.0), -INF), ("powf", (-8.0, 1 / 3), NAN),
    ("pow", (-2.0, 3.0), -8.0), ("fminf", (NAN, 1.0), 1.0), ("fmaxf", (2.0, NAN), 2.0),
    ("fminf", (0.0, -0.0), -0.0), ("fmaxf", (-0.0, 0.0), 0.0), ("fmodf", (-7.0, 2.0), -1.0),
    ("fmodf", (-0.0, 2.0), -0.0), ("fmodf", (1.0, 0.0), NAN), ("fmod", (5.0, INF), 5.0),
    ("roundf", (2.5,), 3.0), ("roundf", (-0.5,), -1.0), ("roundf", (0.49999997,), 0.0),
    ("rintf", (2.5,), 2.0), ("rintf", (-0.5,), -0.0), ("round", (0.49999999999999994,), 0.0),
    ("remainderf", (5.0, 2.0), 1.0), ("remainderf", (7.0, 2.0), -1.0),
    ("remainder", (1.0, 0.0), NAN),
    ("hypotf", (INF, NAN), INF), ("hypotf", (NAN, 1.0), NAN), ("rhypot", (0.0, 0.0), INF),
    ("hypot", (1e300, 1e300), 1.4142135623730951e300), ("norm3df", (0.0, -0.0, 0.0), 0.0),
    ("tanh", (-0.0,), -0.0), ("tanh", (INF,), 1.0), ("tanhf", (-INF,), -1.0),
    ("tanh", (NAN,), NAN), ("tanh", (30.0,), 1.0), ("tanh", (1e-300,), 1e-300),
    ("erff", (INF,), 1.0), ("erff", (-INF,), -1.0), ("erfcf", (-INF,), 2.0), ("erfc", (30.0,), 0.0),
    ("erfinvf", (1.0,), INF), ("erfinvf", (-1.0,), -INF), ("erfinv", (1.5,), NAN),
    ("erfcinv", (0.0,), INF), ("erfcinv", (2.0,), -INF), ("erfcinvf", (-0.5,), NAN),
    ("tgammaf", (0.0,), INF), ("tgammaf", (-0.0,), -INF), ("tgammaf", (-1.0,), NAN),
    ("tgammaf", (-INF,), NAN), ("tgammaf", (40.0,), INF), ("lgammaf", (0.0,), INF),
    ("lgammaf", (-2.0,), INF), ("lgammaf", (1.0,), 0.0), ("lgammaf", (2.0,), 0.0),
    ("sinpif", (1.0,), 0.0), ("sinpif", (-0.0,), -0.0), ("sinpi", (INF,), NAN),
    ("cospif", (0.5,), 0.0), ("cospi", (1.0,), -1.0), ("atan2f", (0.0, -0.0), math.pi),
    ("logbf", (0.0,), -INF), ("logbf", (-INF,), INF), ("logbf", (1.401298464324817e-45,), -149.0),
    ("ldexpf", (1.0, 128), INF), ("ldexpf", (1.0, -149), 1.401298464324817e-45),
    ("scalbn", (1.0, 100000), INF), ("nextafterf", (0.0, 1.0), 1.401298464324817e-45),
    ("nextafterf", (1.0, 0.0), 0.99999994), ("copysignf", (1.0, -0.0), -1.0),
    ("fdimf", (1.0, 3.0), 0.0), ("fdimf", (NAN, 3.0), NAN), ("fmaf", (INF, 0.0, 1.0), NAN),
    ("fmaf", (3.4028235e38, 2.0, -3.4028235e38), 3.4028235e38), ("fabsf", (-0.0,), 0.0),
    ("expm1f", (-INF,), -1.0), ("log1pf", (-1.0,), -INF), ("atanhf", (1.0,), INF),
    ("acoshf", (0.5,), NAN), ("normcdff", (-INF,), 0.0), ("normcdfinvf", (1.0,), INF),
    ("erfcxf", (INF,), 0.0), ("erfcxf", (-INF,), INF),
    ("lgamma", (1.0,), 0.0), ("lgamma", (2.0,), 0.0), ("lgamma", (-3.0,), INF),
    ("lgamma", (-0.0,), INF), ("lgamma", (-INF,), INF), ("lgamma", (NAN,), NAN),
    ("lgamma", (1e306,), INF), ("tgamma", (-0.0,), -INF), ("tgamma", (-2.0,), NAN),
    ("tgamma", (171.625,), INF), ("tgamma", (-INF,), NAN), ("tgamma", (INF,), INF),
    ("tgamma", (5.0,), 24.0), ("tgamma", (-200.5,), -0.0), ("tgamma", (-201.5,), 0.0),
    ("j0", (INF,), 0.0), ("j0", (-0.0,), 1.0), ("j0f", (NAN,), NAN), ("j1", (-0.0,), -0.0),
    ("j1f", (-INF,), -0.0), ("y0", (0.0,), -INF), ("y0f", (-1.0,), NAN), ("y1", (INF,), 0.0),
    ("y1", (5e-324,), -INF), ("jn", (3, INF), 0.0), ("jnf", (2, NAN), NAN), ("yn", (2, 0.0), -INF),
    ("ynf", (3, -2.0), NAN), ("yn", (200, 1.0), -INF), ("cyl_bessel_i0", (0.0,), 1.0),
    ("cyl_bessel_i0f", (-INF,), INF), ("cyl_bessel_i1", (-INF,), -INF),
    ("cyl_bessel_i1f", (-0.0,), -0.0), ("cyl_bessel_i0", (720.0,), INF),
    ("fdividef", (1.0, 0.0), INF), ("fdividef", (-0.0, 3.0), -0.0),
]


@pytest.mark.parametrize("name, args, want", SPECIALS, ids=[s[0] for s in SPECIALS])
def test_special_values(name, args, want):
    got = getattr(D, name)(*args)
    single = name.endswith("f") and name[:-1] in ROWS
    assert got.dtype == (np.float32 if single else np.float64)
    want = np.float32(want) if single else np.float64(want)
    if math.isnan(want):
        assert np.isnan(got)
    else:
        assert got == want and np.signbit(got) == np.signbit(want), (got, want)


def test_integer_results_and_c_types():
    assert D.ilogbf(0.0) == D.ilogbf(NAN) == -(2**31) and D.ilogbf(INF) == 2**31 - 1
    assert D.ilogbf(1.401298464324817e-45) == -149 and D.ilogbf(1.0).dtype == np.int32
    assert D.lroundf(2.5) == 3 and D.lroundf(-2.5) == -3 and D.lrintf(2.5) == 2
    assert D.llround(-0.5) == -1 and D.lrint(np.float64(2**60)) == 2**60
    assert D.lrintf(np.float32(1.5)).dtype == np.int64
    assert isinstance(D.expf(1.0), np.float32) and isinstance(D.exp(1.0), np.float64)
    assert D.expf(np.ones(3)).dtype == np.float32 and D.expf(np.ones(3)).shape == (3,)


def test_multi_output_forms():
    rng = np.random.default_rng(5)
    x = (rng.uniform(-1, 1, 500) * np.exp2(rng.uniform(-30, 30, 500))).astype(np.float32)
    s, c = D.sincosf(x)
    assert np.array_equal(s, D.sinf(x)) and np.array_equal(c, D.cosf(x))
    s, c = D.sincospi(x.astype(np.float64))
    assert np.array_equal(s, D.sinpi(x.astype(np.float64)))
    mant, e = D.frexpf(x)
    assert mant.dtype == np.float32 and e.dtype == np.int32
    assert np.array_equal(np.ldexp(mant.astype(np.float64), e), x)
    frac_part, whole = D.modff(x)
    assert np.array_equal(frac_part + whole, x) and np.array_equal(whole, np.trunc(x))
    assert D.modf(-INF) == (-0.0, -INF) and np.signbit(D.modf(-INF)[0])
    y = (rng.uniform(-1, 1, 500) * np.exp2(rng.uniform(-10, 10, 500))).astype(np.float32)
    r, quo = D.remquof(x, y)
    assert np.array_equal(r, D.remainderf(x, y)) and quo.dtype == np.int32
    for xi, yi, qi, ri in zip(x, y, quo, r, strict=True):
        n = round(Fraction(float(xi)) / Fraction(float(yi)))
        assert (abs(n) % 8) * (1 if n >= 0 else -1) == qi or (n == 0 and qi == 0)
        assert Fraction(float(ri)) == Fraction(float(xi)) - n * Fraction(float(yi))


def test_exported_everywhere():
    import rocwmma_py.cuda as C
    import rocwmma_py.runtime as RT
    from rocwmma_py.runtime import half_math as H
    for name in ("expf", "exp", "erfcinvf", "sincosf", "norm3df", "fmaxf", "rsqrtf"):
        assert getattr(RT, name) is getattr(C, name) is getattr(D, name)
        assert name in C.__all__
    assert D.rsqrtf is H.rsqrtf and H.__expf is C.__expf  # half_math's names untouched
    assert not set(D.DEVICE_MATH_NAMES) & set(H.HALF_MATH_NAMES)


@kernel
def _math_kernel(a, b, out, s, e):
    i = blockIdx.x * blockDim.x + threadIdx.x
    x, y = a[i], b[i]
    out[i] = D.fmaxf(D.expf(D.fminf(x, y)), D.erff(D.sqrtf(D.fabsf(x)))) + D.powf(
        D.fabsf(y), D.tanhf(x))
    s[i], _ = D.sincosf(x)
    _, e[i] = D.frexpf(D.log2f(D.fabsf(y) + 1.0))


@pytest.mark.parametrize("engine", ["batch", "wave"])
def test_math_in_kernels_per_lane(engine):
    rng = np.random.default_rng(11)
    a = rng.normal(0, 4, 256).astype(np.float32)
    b = rng.normal(0, 4, 256).astype(np.float32)
    out, s = np.zeros(256, np.float32), np.zeros(256, np.float32)
    e = np.zeros(256, np.int32)
    with use_engine(engine):
        _math_kernel[4, 64, 0, "gfx942"](a, b, out, s, e)
    if engine == "batch":
        assert last_launch_stats().per_wave_blocks == 0
    want = D.fmaxf(D.expf(D.fminf(a, b)), D.erff(D.sqrtf(D.fabsf(a)))) + D.powf(
        D.fabsf(b), D.tanhf(a))
    assert np.array_equal(out, want)
    assert np.array_equal(s, D.sincosf(a)[0])
    assert np.array_equal(e, D.frexpf(D.log2f(D.fabsf(b) + 1.0))[1])


# --- gamma and Bessel at their hard inputs ------------------------------------------------

def _around(points, steps=(1, 2, 1000)):
    """Each point and its neighbours `steps` doubles away on both sides."""
    out = []
    for p in points:
        out.append(p)
        for k in steps:
            out += [p + k * np.spacing(p), p - k * np.spacing(p)]
    return np.array(out, np.float64)


HARD_INPUTS = {
    "lgamma": np.concatenate([_around([1.0, 2.0, 0.5, 3.0, 12.0, -0.5, -1.5, -2.25]),
                              [5e-324, 1e-300, 2.0**-61, 0.875, 1.125, 1.875, 2.125, 11.999,
                               1e15, 2.0**500, 2.0**501, 2.5e305, -1e-300, -20.5, -23.5,
                               -23.0001, -100.5, -171.5, -1e15 - 0.5]]),
    "tgamma": np.concatenate([_around([1.0, 2.0, 0.5, 171.62, -0.5, -2.5, -170.5]),
                              [5e-324, 1e-300, -1e-300, 2.0**-61, 171.6243769563027,
                               -20.5, -177.3, -182.7, 100.0, 30.25, -31.43947124284342]]),
    "j0": _around([2.404825557695773, 5.520078110286311, 7.999, 1e-8, 5e-324]),
    "j1": _around([3.8317059702075125, 7.015586669815619, 1e-300, 5e-324]),
    "y0": _around([0.8935769662791675, 3.957678419314858, 7.086051060301773, 1e-300]),
    "y1": _around([2.197141326031017, 5.429681040794135, 1e-300]),
    "cyl_bessel_i0": np.array([29.999, 30.0, 30.001, 700.0, 713.98, 1e-300, 5e-324]),
    "cyl_bessel_i1": np.array([29.999, 30.0, 30.001, 700.0, 713.98, 1e-300, 5e-324]),
}
for _z in (2.0**-21, 2.0**-19):  # either side of the Taylor windows at the zeros
    for _name, _zeros in (("j0", [2.404825557695773]), ("y0", [0.8935769662791675]),
                          ("y1", [5.429681040794135]), ("j1", [7.015586669815619])):
        HARD_INPUTS[_name] = np.concatenate([HARD_INPUTS[_name], [z + _z for z in _zeros],
                                             [z - _z for z in _zeros]])


@pytest.mark.parametrize("name", sorted(HARD_INPUTS))
@pytest.mark.parametrize("fmt", [np.float32, np.float64], ids=["float", "double"])
def test_hard_inputs_within_bound(name, fmt):
    """Roots of lgamma, the poles' neighbourhoods, tgamma's overflow edge, the zeros of
    J0 .. Y1 below 8 (and the Taylor windows' edges), I's switch to the asymptotic form."""
    row = ROWS[name]
    with np.errstate(over="ignore"):
        x = HARD_INPUTS[name].astype(fmt)
    x = x[np.isfinite(x) & (x != 0)]  # the float forms: what survives the conversion
    fn = getattr(D, row.single_name if fmt is np.float32 else row.name)
    got = np.asarray(fn(x), np.float64)
    err = errors(name, fmt, [x], got)
    bound = row.ulp_single if fmt is np.float32 else row.ulp_double
    worst = int(np.argmax(err))
    assert err[worst] <= bound, f"{fn.__name__}({x[worst]!r}) = {got[worst]!r}: {err[worst]}"


def test_jn_at_the_guides_order_and_recurrence_regimes():
    """n = 128 (the guide's case) on both sides of x = n, and the tiny-x series."""
    x = np.array([1e-7, 1e-3, 0.5, 20.0, 100.0, 127.9, 128.0, 128.5, 200.0, 1e4])
    for fmt, bound in ((np.float32, 2.2e-6), (np.float64, 5e-12)):
        got = (D.jnf if fmt is np.float32 else D.jn)(128, x.astype(fmt)).astype(np.float64)
        err = absolute_errors("jn", [np.full(len(x), 128.0), x.astype(fmt)], got)
        assert err.max() <= bound, err


# --- classification, NaN, division, array norms -------------------------------------------

def test_classification_returns_c_bools():
    x = np.array([0.0, -0.0, 1.0, -INF, INF, NAN, -NAN, 5e-324])
    for xs in (x, x.astype(np.float32)):
        assert np.array_equal(D.isnan(xs), np.isnan(xs)) and D.isnan(xs).dtype == np.bool_
        assert np.array_equal(D.isinf(xs), np.isinf(xs))
        assert np.array_equal(D.isfinite(xs), np.isfinite(xs))
        assert np.array_equal(D.signbit(xs), np.signbit(xs))
    assert D.signbit(-0.0) and not D.isnan(1.0) and isinstance(D.isinf(INF), np.bool_)


def test_nan_from_a_tag():
    assert np.isnan(D.nanf("")) and D.nanf("").dtype == np.float32 and D.nan("").dtype == np.float64
    assert D.nan("").view(np.uint64) == 0x7FF8000000000000
    assert D.nan("0x12").view(np.uint64) == 0x7FF8000000000012
    assert D.nanf("7").view(np.uint32) == 0x7FC00007
    assert D.nanf("junk").view(np.uint32) == 0x7FC00000


def test_fdividef_is_correctly_rounded_division():
    rng = np.random.default_rng(3)
    a, b = (rng.normal(0, 1, 1000) * np.exp2(rng.uniform(-120, 120, (2, 1000)))).astype(np.float32)
    with np.errstate(over="ignore"):
        want = (a.astype(np.float64) / b.astype(np.float64)).astype(np.float32)
    assert np.array_equal(D.fdividef(a, b), want, equal_nan=True)


def test_array_norms_read_p_like_c():
    v = [3.0, 4.0, 12.0, 84.0]
    assert D.normf(3, v) == np.float32(13.0) and D.norm(4, np.array(v)) == 85.0
    assert D.rnorm(2, v) == 0.2 and D.rnormf(1, [-4.0]) == np.float32(0.25)
    assert D.normf(0, v) == 0 and D.rnorm(0, v) == INF
    assert D.norm(2, [INF, NAN]) == INF and np.isnan(D.norm(2, [1.0, NAN]))
    assert D.norm(3, [1e300, 1e300, 1e300]) == math.sqrt(3) * 1e300
    lanes = np.arange(1.0, 5.0)
    assert np.allclose(D.norm(2, (lanes, 2 * lanes)), lanes * math.sqrt(5), rtol=1e-15)


@kernel
def _special_kernel(a, n, bessel, gamma, norms):
    i = blockIdx.x * blockDim.x + threadIdx.x
    x = a[i]
    bessel[i] = D.j0f(x) + D.jnf(n[i], x) + D.y1f(D.fabsf(x) + 0.5) + D.cyl_bessel_i1f(x)
    gamma[i] = D.lgammaf(x) + D.tgammaf(D.fabsf(x) + 0.25)
    norms[i] = D.normf(3, (x, D.j1f(x), n[i]))


@pytest.mark.parametrize("engine", ["batch", "wave"])
def test_bessel_and_gamma_in_kernels_per_lane(engine):
    rng = np.random.default_rng(12)
    a = rng.uniform(-12, 12, 256).astype(np.float32)
    n = rng.integers(-3, 40, 256).astype(np.int32)
    bessel, gamma, norms = (np.zeros(256, np.float32) for _ in range(3))
    with use_engine(engine):
        _special_kernel[4, 64, 0, "gfx942"](a, n, bessel, gamma, norms)
    if engine == "batch":
        assert last_launch_stats().per_wave_blocks == 0
    want = D.j0f(a) + D.jnf(n, a) + D.y1f(D.fabsf(a) + 0.5) + D.cyl_bessel_i1f(a)
    assert np.array_equal(bessel, want)
    assert np.array_equal(gamma, D.lgammaf(a) + D.tgammaf(D.fabsf(a) + 0.25))
    assert np.array_equal(norms, D.normf(3, (a, D.j1f(a), n)))


@pytest.mark.parametrize("name", ["fminf", "fmaxf", "fmin", "fmax"])
def test_fmin_fmax_order_every_pair_of_specials_with_minus_zero_below_plus_zero(name):
    """IEEE minNum/maxNum with -0 < +0, each operand pair of zeros, signed ones, infinities
    and NaN at once (arrays: the ties are resolved element by element)."""
    values = [0.0, -0.0, 1.0, -1.0, INF, -INF, NAN, 1e-45, -3.5]
    dtype = np.float32 if name.endswith("f") else np.float64
    a = np.repeat(np.array(values, dtype), len(values))
    b = np.tile(np.array(values, dtype), len(values))

    def reference(x: float, y: float) -> float:
        if math.isnan(x) or math.isnan(y):
            return y if math.isnan(x) else x
        pick = min if name.startswith("fmin") else max
        return pick((x, y), key=lambda v: (v, math.copysign(1.0, v) > 0))  # -0 below +0

    got = getattr(D, name)(a, b)
    assert got.dtype == a.dtype
    for x, y, r in zip(a.tolist(), b.tolist(), got.tolist(), strict=True):
        want = reference(x, y)
        assert (math.isnan(r) and math.isnan(want)) or (
            r == want and math.copysign(1.0, r) == math.copysign(1.0, want)), (name, x, y, r)
