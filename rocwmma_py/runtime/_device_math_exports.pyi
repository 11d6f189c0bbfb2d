# Names rocwmma_py.runtime.device_math creates at import, for type checkers; written with
# tools/gen_amdgcn_stub.py's render_exports(device_math, DEVICE_MATH_NAMES): regenerate on change.
# ruff: noqa  (generated: sorted by name, not by isort's natural order)
from typing import Any



def sqrtf(*args: Any) -> Any:
    """CUDA/HIP sqrtf: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def sqrt(*args: Any) -> Any:
    """CUDA/HIP sqrt: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def fmaf(*args: Any) -> Any:
    """CUDA/HIP fmaf: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def fma(*args: Any) -> Any:
    """CUDA/HIP fma: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def fabsf(*args: Any) -> Any:
    """CUDA/HIP fabsf: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def fabs(*args: Any) -> Any:
    """CUDA/HIP fabs: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def copysignf(*args: Any) -> Any:
    """CUDA/HIP copysignf: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def copysign(*args: Any) -> Any:
    """CUDA/HIP copysign: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def fminf(*args: Any) -> Any:
    """CUDA/HIP fminf: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def fmin(*args: Any) -> Any:
    """CUDA/HIP fmin: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def fmaxf(*args: Any) -> Any:
    """CUDA/HIP fmaxf: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def fmax(*args: Any) -> Any:
    """CUDA/HIP fmax: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def fdimf(*args: Any) -> Any:
    """CUDA/HIP fdimf: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def fdim(*args: Any) -> Any:
    """CUDA/HIP fdim: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def fmodf(*args: Any) -> Any:
    """CUDA/HIP fmodf: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def fmod(*args: Any) -> Any:
    """CUDA/HIP fmod: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def remainderf(*args: Any) -> Any:
    """CUDA/HIP remainderf: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def remainder(*args: Any) -> Any:
    """CUDA/HIP remainder: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def remquof(*args: Any) -> Any:
    """CUDA/HIP remquof: CUDA's bound 0 ulp; here correctly rounded (0 ulp). Returns a tuple
    (C's pointer outputs).
    """


def remquo(*args: Any) -> Any:
    """CUDA/HIP remquo: CUDA's bound 0 ulp; here correctly rounded (0 ulp). Returns a tuple (C's
    pointer outputs).
    """


def floorf(*args: Any) -> Any:
    """CUDA/HIP floorf: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def floor(*args: Any) -> Any:
    """CUDA/HIP floor: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def ceilf(*args: Any) -> Any:
    """CUDA/HIP ceilf: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def ceil(*args: Any) -> Any:
    """CUDA/HIP ceil: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def truncf(*args: Any) -> Any:
    """CUDA/HIP truncf: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def trunc(*args: Any) -> Any:
    """CUDA/HIP trunc: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def roundf(*args: Any) -> Any:
    """CUDA/HIP roundf: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def round(*args: Any) -> Any:
    """CUDA/HIP round: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def rintf(*args: Any) -> Any:
    """CUDA/HIP rintf: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def rint(*args: Any) -> Any:
    """CUDA/HIP rint: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def nearbyintf(*args: Any) -> Any:
    """CUDA/HIP nearbyintf: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def nearbyint(*args: Any) -> Any:
    """CUDA/HIP nearbyint: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def lrintf(*args: Any) -> Any:
    """CUDA/HIP lrintf: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def lrint(*args: Any) -> Any:
    """CUDA/HIP lrint: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def llrintf(*args: Any) -> Any:
    """CUDA/HIP llrintf: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def llrint(*args: Any) -> Any:
    """CUDA/HIP llrint: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def lroundf(*args: Any) -> Any:
    """CUDA/HIP lroundf: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def lround(*args: Any) -> Any:
    """CUDA/HIP lround: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def llroundf(*args: Any) -> Any:
    """CUDA/HIP llroundf: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def llround(*args: Any) -> Any:
    """CUDA/HIP llround: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def ldexpf(*args: Any) -> Any:
    """CUDA/HIP ldexpf: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def ldexp(*args: Any) -> Any:
    """CUDA/HIP ldexp: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def scalbnf(*args: Any) -> Any:
    """CUDA/HIP scalbnf: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def scalbn(*args: Any) -> Any:
    """CUDA/HIP scalbn: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def scalblnf(*args: Any) -> Any:
    """CUDA/HIP scalblnf: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def scalbln(*args: Any) -> Any:
    """CUDA/HIP scalbln: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def frexpf(*args: Any) -> Any:
    """CUDA/HIP frexpf: CUDA's bound 0 ulp; here correctly rounded (0 ulp). Returns a tuple (C's
    pointer outputs).
    """


def frexp(*args: Any) -> Any:
    """CUDA/HIP frexp: CUDA's bound 0 ulp; here correctly rounded (0 ulp). Returns a tuple (C's
    pointer outputs).
    """


def modff(*args: Any) -> Any:
    """CUDA/HIP modff: CUDA's bound 0 ulp; here correctly rounded (0 ulp). Returns a tuple (C's
    pointer outputs).
    """


def modf(*args: Any) -> Any:
    """CUDA/HIP modf: CUDA's bound 0 ulp; here correctly rounded (0 ulp). Returns a tuple (C's
    pointer outputs).
    """


def logbf(*args: Any) -> Any:
    """CUDA/HIP logbf: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def logb(*args: Any) -> Any:
    """CUDA/HIP logb: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def ilogbf(*args: Any) -> Any:
    """CUDA/HIP ilogbf: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def ilogb(*args: Any) -> Any:
    """CUDA/HIP ilogb: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def nextafterf(*args: Any) -> Any:
    """CUDA/HIP nextafterf: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def nextafter(*args: Any) -> Any:
    """CUDA/HIP nextafter: CUDA's bound 0 ulp; here correctly rounded (0 ulp).
    """


def rsqrt(*args: Any) -> Any:
    """CUDA/HIP rsqrt: CUDA's bound 1 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def cbrtf(*args: Any) -> Any:
    """CUDA/HIP cbrtf: CUDA's bound 1 ulp; here computed in float64 and rounded once: <= 0.5 ulp
    + 2^-29 ulp.
    """


def cbrt(*args: Any) -> Any:
    """CUDA/HIP cbrt: CUDA's bound 1 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def rcbrtf(*args: Any) -> Any:
    """CUDA/HIP rcbrtf: CUDA's bound 1 ulp; here computed in float64 and rounded once: <= 0.5
    ulp + 2^-29 ulp.
    """


def rcbrt(*args: Any) -> Any:
    """CUDA/HIP rcbrt: CUDA's bound 1 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def hypotf(*args: Any) -> Any:
    """CUDA/HIP hypotf: CUDA's bound 3 ulp; here computed in float64 and rounded once: <= 0.5
    ulp + 2^-29 ulp.
    """


def hypot(*args: Any) -> Any:
    """CUDA/HIP hypot: CUDA's bound 2 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def rhypotf(*args: Any) -> Any:
    """CUDA/HIP rhypotf: CUDA's bound 2 ulp; here computed in float64 and rounded once: <= 0.5
    ulp + 2^-29 ulp.
    """


def rhypot(*args: Any) -> Any:
    """CUDA/HIP rhypot: CUDA's bound 1 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def norm3df(*args: Any) -> Any:
    """CUDA/HIP norm3df: CUDA's bound 3 ulp; here computed in float64 and rounded once: <= 0.5
    ulp + 2^-29 ulp.
    """


def norm3d(*args: Any) -> Any:
    """CUDA/HIP norm3d: CUDA's bound 2 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def rnorm3df(*args: Any) -> Any:
    """CUDA/HIP rnorm3df: CUDA's bound 2 ulp; here computed in float64 and rounded once: <= 0.5
    ulp + 2^-29 ulp.
    """


def rnorm3d(*args: Any) -> Any:
    """CUDA/HIP rnorm3d: CUDA's bound 1 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def norm4df(*args: Any) -> Any:
    """CUDA/HIP norm4df: CUDA's bound 3 ulp; here computed in float64 and rounded once: <= 0.5
    ulp + 2^-29 ulp.
    """


def norm4d(*args: Any) -> Any:
    """CUDA/HIP norm4d: CUDA's bound 2 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def rnorm4df(*args: Any) -> Any:
    """CUDA/HIP rnorm4df: CUDA's bound 2 ulp; here computed in float64 and rounded once: <= 0.5
    ulp + 2^-29 ulp.
    """


def rnorm4d(*args: Any) -> Any:
    """CUDA/HIP rnorm4d: CUDA's bound 1 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def expf(*args: Any) -> Any:
    """CUDA/HIP expf: CUDA's bound 2 ulp; here computed in float64 and rounded once: <= 0.5 ulp
    + 2^-29 ulp.
    """


def exp(*args: Any) -> Any:
    """CUDA/HIP exp: CUDA's bound 1 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def exp2f(*args: Any) -> Any:
    """CUDA/HIP exp2f: CUDA's bound 2 ulp; here computed in float64 and rounded once: <= 0.5 ulp
    + 2^-29 ulp.
    """


def exp2(*args: Any) -> Any:
    """CUDA/HIP exp2: CUDA's bound 1 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def exp10f(*args: Any) -> Any:
    """CUDA/HIP exp10f: CUDA's bound 2 ulp; here computed in float64 and rounded once: <= 0.5
    ulp + 2^-29 ulp.
    """


def exp10(*args: Any) -> Any:
    """CUDA/HIP exp10: CUDA's bound 1 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def expm1f(*args: Any) -> Any:
    """CUDA/HIP expm1f: CUDA's bound 1 ulp; here computed in float64 and rounded once: <= 0.5
    ulp + 2^-29 ulp.
    """


def expm1(*args: Any) -> Any:
    """CUDA/HIP expm1: CUDA's bound 1 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def logf(*args: Any) -> Any:
    """CUDA/HIP logf: CUDA's bound 1 ulp; here computed in float64 and rounded once: <= 0.5 ulp
    + 2^-29 ulp.
    """


def log(*args: Any) -> Any:
    """CUDA/HIP log: CUDA's bound 1 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def log2f(*args: Any) -> Any:
    """CUDA/HIP log2f: CUDA's bound 1 ulp; here computed in float64 and rounded once: <= 0.5 ulp
    + 2^-29 ulp.
    """


def log2(*args: Any) -> Any:
    """CUDA/HIP log2: CUDA's bound 1 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def log10f(*args: Any) -> Any:
    """CUDA/HIP log10f: CUDA's bound 2 ulp; here computed in float64 and rounded once: <= 0.5
    ulp + 2^-29 ulp.
    """


def log10(*args: Any) -> Any:
    """CUDA/HIP log10: CUDA's bound 1 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def log1pf(*args: Any) -> Any:
    """CUDA/HIP log1pf: CUDA's bound 1 ulp; here computed in float64 and rounded once: <= 0.5
    ulp + 2^-29 ulp.
    """


def log1p(*args: Any) -> Any:
    """CUDA/HIP log1p: CUDA's bound 1 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def powf(*args: Any) -> Any:
    """CUDA/HIP powf: CUDA's bound 4 ulp; here computed in float64 and rounded once: <= 0.5 ulp
    + 2^-29 ulp.
    """


def pow(*args: Any) -> Any:
    """CUDA/HIP pow: CUDA's bound 2 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def sinf(*args: Any) -> Any:
    """CUDA/HIP sinf: CUDA's bound 2 ulp; here computed in float64 and rounded once: <= 0.5 ulp
    + 2^-29 ulp.
    """


def sin(*args: Any) -> Any:
    """CUDA/HIP sin: CUDA's bound 2 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def cosf(*args: Any) -> Any:
    """CUDA/HIP cosf: CUDA's bound 2 ulp; here computed in float64 and rounded once: <= 0.5 ulp
    + 2^-29 ulp.
    """


def cos(*args: Any) -> Any:
    """CUDA/HIP cos: CUDA's bound 2 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def tanf(*args: Any) -> Any:
    """CUDA/HIP tanf: CUDA's bound 4 ulp; here computed in float64 and rounded once: <= 0.5 ulp
    + 2^-29 ulp.
    """


def tan(*args: Any) -> Any:
    """CUDA/HIP tan: CUDA's bound 2 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def sincosf(*args: Any) -> Any:
    """CUDA/HIP sincosf: CUDA's bound 2 ulp; here computed in float64 and rounded once: <= 0.5
    ulp + 2^-29 ulp. Returns a tuple (C's pointer outputs).
    """


def sincos(*args: Any) -> Any:
    """CUDA/HIP sincos: CUDA's bound 2 ulp; here float64 within the CUDA bound (tests check it
    against mpmath). Returns a tuple (C's pointer outputs).
    """


def sinpif(*args: Any) -> Any:
    """CUDA/HIP sinpif: CUDA's bound 1 ulp; here computed in float64 and rounded once: <= 0.5
    ulp + 2^-29 ulp.
    """


def sinpi(*args: Any) -> Any:
    """CUDA/HIP sinpi: CUDA's bound 2 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def cospif(*args: Any) -> Any:
    """CUDA/HIP cospif: CUDA's bound 1 ulp; here computed in float64 and rounded once: <= 0.5
    ulp + 2^-29 ulp.
    """


def cospi(*args: Any) -> Any:
    """CUDA/HIP cospi: CUDA's bound 2 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def sincospif(*args: Any) -> Any:
    """CUDA/HIP sincospif: CUDA's bound 1 ulp; here computed in float64 and rounded once: <= 0.5
    ulp + 2^-29 ulp. Returns a tuple (C's pointer outputs).
    """


def sincospi(*args: Any) -> Any:
    """CUDA/HIP sincospi: CUDA's bound 2 ulp; here float64 within the CUDA bound (tests check it
    against mpmath). Returns a tuple (C's pointer outputs).
    """


def asinf(*args: Any) -> Any:
    """CUDA/HIP asinf: CUDA's bound 2 ulp; here computed in float64 and rounded once: <= 0.5 ulp
    + 2^-29 ulp.
    """


def asin(*args: Any) -> Any:
    """CUDA/HIP asin: CUDA's bound 2 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def acosf(*args: Any) -> Any:
    """CUDA/HIP acosf: CUDA's bound 2 ulp; here computed in float64 and rounded once: <= 0.5 ulp
    + 2^-29 ulp.
    """


def acos(*args: Any) -> Any:
    """CUDA/HIP acos: CUDA's bound 2 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def atanf(*args: Any) -> Any:
    """CUDA/HIP atanf: CUDA's bound 2 ulp; here computed in float64 and rounded once: <= 0.5 ulp
    + 2^-29 ulp.
    """


def atan(*args: Any) -> Any:
    """CUDA/HIP atan: CUDA's bound 2 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def atan2f(*args: Any) -> Any:
    """CUDA/HIP atan2f: CUDA's bound 3 ulp; here computed in float64 and rounded once: <= 0.5
    ulp + 2^-29 ulp.
    """


def atan2(*args: Any) -> Any:
    """CUDA/HIP atan2: CUDA's bound 2 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def sinhf(*args: Any) -> Any:
    """CUDA/HIP sinhf: CUDA's bound 3 ulp; here computed in float64 and rounded once: <= 0.5 ulp
    + 2^-29 ulp.
    """


def sinh(*args: Any) -> Any:
    """CUDA/HIP sinh: CUDA's bound 2 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def coshf(*args: Any) -> Any:
    """CUDA/HIP coshf: CUDA's bound 2 ulp; here computed in float64 and rounded once: <= 0.5 ulp
    + 2^-29 ulp.
    """


def cosh(*args: Any) -> Any:
    """CUDA/HIP cosh: CUDA's bound 1 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def tanhf(*args: Any) -> Any:
    """CUDA/HIP tanhf: CUDA's bound 2 ulp; here computed in float64 and rounded once: <= 0.5 ulp
    + 2^-29 ulp.
    """


def tanh(*args: Any) -> Any:
    """CUDA/HIP tanh: CUDA's bound 1 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def asinhf(*args: Any) -> Any:
    """CUDA/HIP asinhf: CUDA's bound 3 ulp; here computed in float64 and rounded once: <= 0.5
    ulp + 2^-29 ulp.
    """


def asinh(*args: Any) -> Any:
    """CUDA/HIP asinh: CUDA's bound 3 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def acoshf(*args: Any) -> Any:
    """CUDA/HIP acoshf: CUDA's bound 4 ulp; here computed in float64 and rounded once: <= 0.5
    ulp + 2^-29 ulp.
    """


def acosh(*args: Any) -> Any:
    """CUDA/HIP acosh: CUDA's bound 3 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def atanhf(*args: Any) -> Any:
    """CUDA/HIP atanhf: CUDA's bound 3 ulp; here computed in float64 and rounded once: <= 0.5
    ulp + 2^-29 ulp.
    """


def atanh(*args: Any) -> Any:
    """CUDA/HIP atanh: CUDA's bound 2 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def erff(*args: Any) -> Any:
    """CUDA/HIP erff: CUDA's bound 2 ulp; here computed in float64 and rounded once: <= 0.5 ulp
    + 2^-29 ulp.
    """


def erf(*args: Any) -> Any:
    """CUDA/HIP erf: CUDA's bound 2 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def erfcf(*args: Any) -> Any:
    """CUDA/HIP erfcf: CUDA's bound 4 ulp; here computed in float64 and rounded once: <= 0.5 ulp
    + 2^-29 ulp.
    """


def erfc(*args: Any) -> Any:
    """CUDA/HIP erfc: CUDA's bound 5 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def erfinvf(*args: Any) -> Any:
    """CUDA/HIP erfinvf: CUDA's bound 2 ulp; here computed in float64 and rounded once: <= 0.5
    ulp + 2^-29 ulp.
    """


def erfinv(*args: Any) -> Any:
    """CUDA/HIP erfinv: CUDA's bound 5 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def erfcinvf(*args: Any) -> Any:
    """CUDA/HIP erfcinvf: CUDA's bound 4 ulp; here computed in float64 and rounded once: <= 0.5
    ulp + 2^-29 ulp.
    """


def erfcinv(*args: Any) -> Any:
    """CUDA/HIP erfcinv: CUDA's bound 6 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def erfcxf(*args: Any) -> Any:
    """CUDA/HIP erfcxf: CUDA's bound 4 ulp; here computed in float64 and rounded once: <= 0.5
    ulp + 2^-29 ulp.
    """


def erfcx(*args: Any) -> Any:
    """CUDA/HIP erfcx: CUDA's bound 4 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def normcdff(*args: Any) -> Any:
    """CUDA/HIP normcdff: CUDA's bound 5 ulp; here computed in float64 and rounded once: <= 0.5
    ulp + 2^-29 ulp.
    """


def normcdf(*args: Any) -> Any:
    """CUDA/HIP normcdf: CUDA's bound 5 ulp; here float64 within the CUDA bound (tests check it
    against mpmath).
    """


def normcdfinvf(*args: Any) -> Any:
    """CUDA/HIP normcdfinvf: CUDA's bound 5 ulp; here computed in float64 and rounded once: <=
    0.5 ulp + 2^-29 ulp.
    """


def normcdfinv(*args: Any) -> Any:
    """CUDA/HIP normcdfinv: CUDA's bound 8 ulp; here float64 within the CUDA bound (tests check
    it against mpmath).
    """


def lgammaf(*args: Any) -> Any:
    """CUDA/HIP lgammaf: CUDA's bound 6 ulp; here computed in float64 and rounded once: <= 0.5
    ulp + 2^-29 ulp.
    """


def tgammaf(*args: Any) -> Any:
    """CUDA/HIP tgammaf: CUDA's bound 5 ulp; here computed in float64 and rounded once: <= 0.5
    ulp + 2^-29 ulp.
    """


__all__ = [
    "sqrtf",
    "sqrt",
    "fmaf",
    "fma",
    "fabsf",
    "fabs",
    "copysignf",
    "copysign",
    "fminf",
    "fmin",
    "fmaxf",
    "fmax",
    "fdimf",
    "fdim",
    "fmodf",
    "fmod",
    "remainderf",
    "remainder",
    "remquof",
    "remquo",
    "floorf",
    "floor",
    "ceilf",
    "ceil",
    "truncf",
    "trunc",
    "roundf",
    "round",
    "rintf",
    "rint",
    "nearbyintf",
    "nearbyint",
    "lrintf",
    "lrint",
    "llrintf",
    "llrint",
    "lroundf",
    "lround",
    "llroundf",
    "llround",
    "ldexpf",
    "ldexp",
    "scalbnf",
    "scalbn",
    "scalblnf",
    "scalbln",
    "frexpf",
    "frexp",
    "modff",
    "modf",
    "logbf",
    "logb",
    "ilogbf",
    "ilogb",
    "nextafterf",
    "nextafter",
    "rsqrt",
    "cbrtf",
    "cbrt",
    "rcbrtf",
    "rcbrt",
    "hypotf",
    "hypot",
    "rhypotf",
    "rhypot",
    "norm3df",
    "norm3d",
    "rnorm3df",
    "rnorm3d",
    "norm4df",
    "norm4d",
    "rnorm4df",
    "rnorm4d",
    "expf",
    "exp",
    "exp2f",
    "exp2",
    "exp10f",
    "exp10",
    "expm1f",
    "expm1",
    "logf",
    "log",
    "log2f",
    "log2",
    "log10f",
    "log10",
    "log1pf",
    "log1p",
    "powf",
    "pow",
    "sinf",
    "sin",
    "cosf",
    "cos",
    "tanf",
    "tan",
    "sincosf",
    "sincos",
    "sinpif",
    "sinpi",
    "cospif",
    "cospi",
    "sincospif",
    "sincospi",
    "asinf",
    "asin",
    "acosf",
    "acos",
    "atanf",
    "atan",
    "atan2f",
    "atan2",
    "sinhf",
    "sinh",
    "coshf",
    "cosh",
    "tanhf",
    "tanh",
    "asinhf",
    "asinh",
    "acoshf",
    "acosh",
    "atanhf",
    "atanh",
    "erff",
    "erf",
    "erfcf",
    "erfc",
    "erfinvf",
    "erfinv",
    "erfcinvf",
    "erfcinv",
    "erfcxf",
    "erfcx",
    "normcdff",
    "normcdf",
    "normcdfinvf",
    "normcdfinv",
    "lgammaf",
    "tgammaf",
]
