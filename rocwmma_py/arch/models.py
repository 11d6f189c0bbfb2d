"""Which arithmetic a matrix instruction uses: the silicon's model of its target, or exact.

Two numerics models (silicon-numerics.md):

* "silicon" (the default): the validated bit-level model of the target's matrix cores where
  one is published — the `Arch` row names it (gfx908 "cdna1", gfx90a "cdna2", gfx942
  "cdna3") — and the exact model on targets without one (gfx950, gfx11, gfx12);
* "exact": every instruction computes the exact C + sum(A*B) rounded once (`numerics.py`).

The setting (`rocwmma_py.settings`) is, innermost first: `use_numerics(name)`, a launch's
pin (it enters `use_numerics` around the launch, so the wave threads of the per-wave engine,
which copy the launcher's context, see it too), `$ROCWMMA_PY_NUMERICS`, else "silicon".
`numerics_model(arch)` names the model that applies: "cdna1", "cdna2", "cdna3" or "exact".

A silicon model is one function from an instruction to its `Arithmetic` (how it computes,
and when a chain of it provably equals one exact sum) plus its entry in `SILICON_MODELS`;
an `Arch` row opts in by naming it. Integer instructions are exact on every model.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, partial
from typing import NamedTuple

import ml_dtypes
import numpy as np

from .. import types as T
from ..settings import NUMERICS
from . import Arch, get_arch
from . import silicon_common as SC
from .instructions import Instruction
from .numerics import Shared, accumulate, distinct_of, sum_bound
from .silicon_fma import fma_chain
from .silicon_fused import fused_dot
from .silicon_pairwise import pairwise_dot

EXACT = "exact"


def numerics_model(arch: str | Arch) -> str:
    """The model that computes on `arch` under the current setting: the arch's silicon model
    ("cdna1", "cdna2", "cdna3"), or "exact" (setting "exact", or no public silicon model)."""
    model = get_arch(arch).silicon_model
    return EXACT if model is None or NUMERICS.get() == EXACT else model


# --- the models ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Arithmetic:
    """How one instruction computes on one silicon model.

    `compute(a, b, c)` gives D (accumulator storage dtype) for decoded a (..., M, K),
    b (..., K, N), c (..., M, N) in the instruction's K order. `chain_floor(a, b, c, max_a,
    max_b)` is the smallest q such that, when every term of C + A@B is a multiple of 2**q and
    every partial sum is representable, a K-chain of the instruction is exactly that sum
    (-inf: no extra condition, inf: never); its exact zero is then +0 where `positive_zero`
    (the model never yields -0 for an exact zero), else IEEE's.
    """

    compute: Callable[..., np.ndarray]
    chain_floor: Callable[[np.ndarray, np.ndarray, np.ndarray, float, float], float]
    positive_zero: bool
    order_free: bool = False  # the result does not depend on the order of K (exact sums)
    shares: bool = False  # compute also takes `shared=` (a's, b's distinct tiles, where known)


def _min_exp(t) -> int:
    """The format's minimum normal exponent (f16 -14, bf16/f32/xf32 -126, fp8 fnuz -7/-15)."""
    return int(ml_dtypes.finfo(T.storage_dtype(t)).minexp)


def _magnitudes(t) -> tuple[float, float]:
    """The format's (smallest non-zero, largest finite) magnitude."""
    info = ml_dtypes.finfo(T.storage_dtype(t))
    return float(info.smallest_subnormal), float(info.max)


def _no_floor(a, b, c, max_a: float, max_b: float) -> float:
    return -math.inf


def _fma(instr: Instruction) -> Arithmetic:
    return Arithmetic(partial(fma_chain, acc_type=T.storage_dtype(instr.c_type)), _no_floor,
                      positive_zero=False)


def _pairwise(instr: Instruction, flush: bool) -> Arithmetic:
    # G = 4 for f16 and bf16_1k, 2 for the original bf16 instructions
    group = 2 if instr.a_type is T.bfloat16 and not instr.builtin.endswith("_1k") else 4
    mins = (_min_exp(instr.a_type), _min_exp(instr.b_type))
    quantum = math.prod(float(ml_dtypes.finfo(T.storage_dtype(t)).smallest_subnormal)
                        for t in (instr.a_type, instr.b_type))
    floor = partial(_normal_floor, mins=mins) if flush else _no_floor
    return Arithmetic(partial(pairwise_dot, group=group, flush=mins if flush else None,
                              quantum=quantum), floor, positive_zero=True)


def _fused(instr: Instruction) -> Arithmetic:
    eight_bit = T.bits(instr.a_type) == 8
    group = 16 if eight_bit else 4 if instr.a_type is T.xfloat32 else 8
    mins = (_min_exp(instr.a_type), _min_exp(instr.b_type))
    return Arithmetic(partial(fused_dot, group=group, split=eight_bit, a_min_exp=mins[0],
                              b_min_exp=mins[1], formats=(_magnitudes(instr.a_type),
                                                          _magnitudes(instr.b_type))),
                      partial(_untruncated_floor, mins=mins), positive_zero=True, shares=True)


def _is_fma(instr: Instruction) -> bool:
    return instr.a_type in (T.float32, T.float64)


def cdna1(instr: Instruction) -> Arithmetic:
    """gfx908 (MI100): f32 FMA chains; f16/bf16 f32 products and pairwise trees."""
    return _fma(instr) if _is_fma(instr) else _pairwise(instr, flush=False)


def cdna2(instr: Instruction) -> Arithmetic:
    """gfx90a (MI200): as CDNA1 plus f64 FMA chains; f16/bf16 flush subnormals."""
    return _fma(instr) if _is_fma(instr) else _pairwise(instr, flush=True)


def cdna3(instr: Instruction) -> Arithmetic:
    """gfx942 (MI300): f32/f64 FMA chains; f16, bf16, xf32, fp8/bf8 fused truncated dots."""
    return _fma(instr) if _is_fma(instr) else _fused(instr)


SILICON_MODELS: dict[str, Callable[[Instruction], Arithmetic]] = {
    "cdna1": cdna1, "cdna2": cdna2, "cdna3": cdna3,
}


@cache
def arithmetic(model: str, instr: Instruction, clamp: bool = False) -> Arithmetic:
    """How `instr` computes under `model` (a `numerics_model` name): the exact sum rounded
    once for "exact" and for integer instructions (`clamp` saturating), else the silicon
    model's arithmetic (cached: built once per instruction, not once per mma_sync)."""
    if model == EXACT or instr.integer:
        return Arithmetic(partial(accumulate, acc_type=instr.result_type, clamp=clamp), _no_floor,
                          positive_zero=False, order_free=True, shares=True)
    return SILICON_MODELS[model](instr)


def compute(model: str, instr: Instruction, a: np.ndarray, b: np.ndarray, c: np.ndarray, *,
            clamp: bool = False) -> np.ndarray:
    """D of one instruction under `model` (a `numerics_model` name); batched over leading
    axes, K in the instruction's order."""
    return arithmetic(model, instr, clamp).compute(a, b, c)


class Collapsed(NamedTuple):
    """A K-chain computed as one exact sum (`collapsed_chain`): D (accumulator storage dtype,
    or its `accumulator_values`) and what the proof knows of it: every |D| <= bound, every D
    a multiple of 2**q. A next step whose C is this D takes them instead of reading C."""

    d: np.ndarray
    bound: Fraction
    q: int


def collapsed_chain(arith: Arithmetic, instr: Instruction, a: np.ndarray, b: np.ndarray,
                    c: np.ndarray, acc_type, clamp: bool = False,
                    known: Collapsed | None = None,
                    shared: tuple[Shared | None, Shared | None] = (None, None)
                    ) -> Collapsed | None:
    """D of a whole K-chain of `instr` computing with `arith`, as one exact sum, or None
    where that is not proven to be what the chain computes: the one collapse test of every
    numerics model. `known`: the collapse whose D is `c` (its bound and quantum stand for
    C's maximum and multiples; where they do not prove it, C is read). `shared`: the
    distinct tiles of a and b, where known (their maxima and multiples are read there).

    Integer chains: when no sum of terms leaves `acc_type`'s range (no wrap, no
    saturation between instructions).

    Proof: every term of C + A@B is a multiple of 2**q (A of 2**qa, B of 2**qb, q = qa + qb,
    C of 2**q), q is at least the subnormal quantum of `acc_type` (the type the running value
    is kept in: a 16-bit accumulator rounds after every instruction) and the model's
    `chain_floor`, and K max|a| max|b| + max|c| < 2**(p+q) (p: the precision of `acc_type`)
    and is finite there: then every partial sum, in any grouping, is exact, and so is every
    step of the model. q is the smallest such value, split between A and B by their maxima;
    the multiples are checked on a sample first, so random-valued data fails cheaply."""
    if not T.is_float(acc_type):
        bound = sum_bound(np.abs(a), np.abs(b), np.abs(c))
        if bound > ml_dtypes.iinfo(acc_type).max:
            return None
        return Collapsed(accumulate(a, b, c, instr.result_type, clamp=clamp), Fraction(bound), 0)
    a_all, b_all = distinct_of(a, shared[0]), distinct_of(b, shared[1])  # (values as in a, b)
    max_a, max_b = SC.max_abs(a_all), SC.max_abs(b_all)
    if not (math.isfinite(max_a) and math.isfinite(max_b)):
        return None
    nmant, q_sub, largest = _float_limits(acc_type)

    def least_q(above: int) -> int:  # the bound < 2**above < 2**(p + q)
        return max(above - nmant - 1, q_sub)

    def split(q: int) -> tuple[int, int]:
        ea, eb = math.frexp(max_a)[1], math.frexp(max_b)[1]  # max|a| < 2**ea
        qa = ea - (ea + eb - q) // 2
        return qa, q - qa

    k = a.shape[-1]
    proved = (-math.inf, -math.inf)  # A and B are multiples of 2**proved[0], 2**proved[1]
    if k and max_a and max_b:  # C and the model's floor only raise q, and both parts of its
        qa, qb = split(least_q(_product_exponent(k, max_a, max_b)))  # split with it: A and B
        if not (SC.multiples_of(a_all, qa) and SC.multiples_of(b_all, qb)):  # failing here fail
            return None  # there: random-valued data, before C is read or rational arithmetic
        proved = (qa, qb)
    # the bounds exactly (rational): a bound at the largest finite value still collapses
    products = k * Fraction(max_a) * Fraction(max_b)
    for facts in ([known] if known is not None and known.d is c else []) + [None]:
        if facts is None:
            max_c = SC.max_abs(c)
            if not math.isfinite(max_c):
                return None
        bound = products + (Fraction(max_c) if facts is None else facts.bound)
        if bound > largest:
            continue
        q: float = max(least_q(_exponent_above(bound)),
                       arith.chain_floor(a, b, c, max_a, max_b))
        if q == math.inf:
            continue
        q = int(q)
        exact_c = facts is not None and facts.q >= q  # (else read: `multiples_of`)
        if products:
            qa, qb = split(q)
            exact = (qa <= proved[0] or SC.multiples_of(a_all, qa)) and (
                qb <= proved[1] or SC.multiples_of(b_all, qb)) and (
                exact_c or SC.multiples_of(c, q))
        else:
            exact = exact_c or SC.multiples_of(c, q)
        if exact:
            d = accumulate(a, b, c, instr.result_type, proven_exact=True)
            if arith.positive_zero:
                d += d.dtype.type(0)  # -0 + +0 == +0; every other value unchanged
            return Collapsed(d, bound, q)
    return None


@cache
def _float_limits(t) -> tuple[int, int, Fraction]:
    """(significand bits stored, log2 of the subnormal quantum, largest finite value) of
    the float type t's storage (a per-call finfo costs microseconds)."""
    info = ml_dtypes.finfo(T.storage_dtype(t))
    return (int(info.nmant), math.frexp(float(info.smallest_subnormal))[1] - 1,
            Fraction(float(info.max)))


def _product_exponent(k: int, x: float, y: float) -> int:
    """`_exponent_above(k * x * y)` for k > 0 and finite x, y > 0, in integers: x y k is
    n / 2**s with n a positive integer, below 2**e exactly when n < 2**(e + s)."""
    (nx, dx), (ny, dy) = x.as_integer_ratio(), y.as_integer_ratio()  # dx, dy powers of two
    return (k * nx * ny).bit_length() - (dx * dy).bit_length() + 1


def _exponent_above(x: Fraction) -> int:
    """The least e with x < 2**e (x >= 0; the smallest int for 0)."""
    if not x:
        return -(2**31)
    e = x.numerator.bit_length() - x.denominator.bit_length()  # 2**(e-1) < x < 2**(e+1)
    return e + 1 if x >= Fraction(2) ** e else e


def _normal_floor(a, b, c, max_a: float, max_b: float, mins: tuple[int, int]) -> float:
    """CDNA2 flushes nothing when no A, B (own formats) or C (f32) element is subnormal and
    every non-zero partial sum is normal (q >= -126)."""
    for x, low in ((a, mins[0]), (b, mins[1]), (c, -126)):
        if SC.min_nonzero_abs(x) < 2.0**low:
            return math.inf
    return -126


def _untruncated_floor(a, b, c, max_a: float, max_b: float, mins: tuple[int, int]) -> float:
    """CDNA3 truncates and floors nothing when every alignment exponent e(a) + e(b) is at most
    q + 24: then every product, S and d are multiples of their grids (docs/architecture.md,
    Numerics). e is monotone in |x|, so the largest |a| and |b| bound them."""
    e_max = sum(int(SC.exponents(np.array([peak]), low)[0])
                for peak, low in ((max_a, mins[0]), (max_b, mins[1])))
    return e_max - 24
