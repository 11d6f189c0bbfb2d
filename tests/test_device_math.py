"""CUDA's device math library (runtime.device_math) against mpmath at 200 bits.

Every row of `device_math.FUNCTIONS`, float and double form, on log-uniform random inputs
over its domain (fixed seeds) plus special inputs. The error is measured in ulps of the
result type at the exact value (subnormal ulps below the normal range): correctly rounded
functions must equal the exact value rounded to nearest even (integer arithmetic on
Fractions, subnormals and overflow included), the others stay within CUDA's documented bound.
"""

from __future__ import annotations

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
    return mp.loggamma(x) if x > 0 else mp.log(abs(mp.gamma(x)))


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
    "lgamma": _lgamma_ref, "tgamma": mp.gamma,
}
for _n in ("norm3d", "norm4d"):
    REFERENCE[_n] = REFERENCE["hypot"]
for _n in ("rnorm3d", "rnorm4d"):
    REFERENCE[_n] = REFERENCE["rhypot"]

SLOW = ("erfinv", "erfcinv", "normcdfinv")  # mpmath's inverses: fewer random inputs

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
    "lgamma": ((-40, 100, "+-"),), "tgamma": ((-40, 5.1, "+-"),),
    "fma": ((-200, 200, "+-"),) * 3,
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
        if i in row.int_args:
            out.append(rng.integers(-300 if fmt is np.float64 else -60, 60, n))
            continue
        lo = emin - p + 1 if lo is None else max(lo, emin - p + 1)
        hi = emax + 1 if hi is None else min(hi, emax + 1)
        mag = np.exp2(rng.uniform(lo, hi, n)).astype(fmt)
        sign = rng.choice([-1, 1] if signs == "+-" else [-1] if signs == "-" else [1], n)
        out.append((mag * sign).astype(fmt))
    if name == "lgamma":  # CUDA's bound holds outside (-10.001, -2.264)
        out[0] = np.where((out[0] > -10.001) & (out[0] < -2.264), -out[0], out[0])
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


def errors(name: str, fmt, args: list[np.ndarray], got: np.ndarray) -> np.ndarray:
    """Per input: the error of `got` in ulps at the exact value (inf where a result that
    should be finite, infinite or NaN is not)."""
    ref = REFERENCE.get(name)
    out = np.zeros(len(got))
    for i in range(len(got)):
        xs = [a[i] for a in args]
        exact = _exact_value(name, xs)
        if exact is None:
            with mp.workprec(200):
                v = ref(*[mp.mpf(float(x)) for x in xs])
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


def run_form(name: str, fmt, n: int, seed: int) -> float:
    row = ROWS[name]
    rng = np.random.default_rng(seed)
    args = sample(name, fmt, rng, n // 4 if name in SLOW else n)
    fn = getattr(D, row.single_name if fmt is np.float32 else row.name)
    got = np.asarray(fn(*args), dtype=np.float64)
    err = errors(name, fmt, args, got)
    bound = 0 if row.exact else (row.ulp_single if fmt is np.float32 else row.ulp_double)
    worst = int(np.argmax(err))
    assert err[worst] <= (bound if bound else 0), (
        f"{fn.__name__}{tuple(float(a[worst]) for a in args)} = {got[worst]!r}: "
        f"{err[worst]} ulp > {bound}")
    return float(err.max())


@pytest.mark.parametrize("name, fmt", list(forms()))
def test_within_cuda_bound(name, fmt):
    run_form(name, fmt, N, seed=sum(map(ord, name)) + (32 if fmt is np.float32 else 64))


@pytest.mark.extended
@pytest.mark.parametrize("name, fmt", list(forms()))
def test_within_cuda_bound_extended(name, fmt):
    run_form(name, fmt, 20 * N, seed=7 + sum(map(ord, name)))
