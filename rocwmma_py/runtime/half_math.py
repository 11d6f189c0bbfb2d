"""HIP's half-precision intrinsics (hip_fp16.h, hip_bf16.h) and float fast math, with HIP's
rounding.

Values: `__half` is numpy float16, `__hip_bfloat16` (= `__nv_bfloat16`) ml_dtypes bfloat16;
a packed pair (`__half2`, `__hip_bfloat162`) is an array whose last axis has length 2,
element 0 the low half (`.x`), element 1 the high half (`.y`): a per-lane pair is (lanes, 2),
so `half2 = vector_type(np.float16, 2)` registers work too. Every function is whole-array
numpy: it takes per-lane values (Lanes) inside kernels and arrays or scalars anywhere.
Overloaded names (`__hadd`, `hexp`, ...) pick the __half or the __hip_bfloat16 version from
the argument dtype, as C++ overloading does; other dtypes raise `HalfTypeError`.

Rounding, per function class (docs/guide/hip-builtins.md, "Half precision and fast math"):
* __half arithmetic and conversions are one IEEE rounding (the f16 ALU, v_cvt_f16_f32);
  `__hdiv`, `hrcp`, `hsqrt` correctly rounded.
* __hip_bfloat16 arithmetic and math run in float32 (one f32 rounding, `__ocml_*_f32`) and
  then round to bfloat16 with HIP's bit recipe, exactly as hip_bf16.h spells them.
* float `__f*_r?` are one rounding in the named mode; `__fdividef` is `x / y` (correctly
  rounded); `__expf`/`__exp10f` are v_exp_f32(fl(log2(e) * x)) as HIP writes them.
* Approximate transcendentals (v_exp/v_log/v_rsq/v_sin/v_cos, OCML's f16 and f32 math) are
  modelled as the float64 libm value rounded to nearest: correctly rounded except within
  2^-29 ulp of a rounding boundary, inside every documented bound.
"""

from __future__ import annotations

from collections.abc import Callable
from types import FunctionType
from typing import Any

import ml_dtypes
import numpy as np

from ..errors import HalfTypeError
from ..lane_wise import lane_wise
from . import rounding as R

__half = np.float16
__hip_bfloat16 = __nv_bfloat16 = ml_dtypes.bfloat16
_F16, _BF16, _F32 = R.F16, R.BF16, R.F32
_NAMES = {_F16: "__half", _BF16: "__hip_bfloat16"}


class PairType:
    """`__half2` / `__hip_bfloat162`: `__half2(x, y)` packs two values (converted to the
    element type, rounding to nearest) into a (..., 2) array, x the low half."""

    def __init__(self, name: str, dtype: np.dtype) -> None:
        self.name, self.dtype = name, dtype

    @lane_wise
    def __call__(self, x: Any = 0.0, y: Any = 0.0) -> np.ndarray:
        return _pair(_to(x, self.dtype), _to(y, self.dtype))

    def __repr__(self) -> str:
        return f"<HIP type {self.name}: pairs as (..., 2) arrays of {self.dtype}>"


__half2 = PairType("__half2", _F16)
__hip_bfloat162 = __nv_bfloat162 = PairType("__hip_bfloat162", _BF16)


# --- plumbing -------------------------------------------------------------------------------

def _wrap(result: Any) -> Any:
    """0-d results become numpy scalars (per-lane ones become Lanes in `_lane_wise`)."""
    result = np.asarray(result)
    return result[()] if result.ndim == 0 else result


def _to(x: Any, dtype: np.dtype) -> np.ndarray:
    """C++ implicit conversion to dtype (float -> f16/bf16 rounds to nearest once)."""
    a = np.asarray(x)
    if a.dtype == dtype:
        return a
    if a.dtype.kind not in "biuf" and a.dtype != _BF16:
        raise HalfTypeError(f"cannot convert {a.dtype} values to {dtype}")
    with np.errstate(all="ignore"):
        return R.nearest(_w(a), dtype)


def _f32(x: Any) -> np.ndarray:
    """A float argument: values converted to float32 as C++ does (round to nearest)."""
    a = np.asarray(x)
    if a.dtype.kind not in "biuf" and a.dtype != _BF16:
        raise HalfTypeError(f"a float intrinsic takes numbers, got {a.dtype}")
    with np.errstate(over="ignore", invalid="ignore"):
        return a.astype(np.float32)


def _kind(what: str, *xs: Any, only: np.dtype | None = None) -> tuple[np.dtype, list]:
    """The one half type of all arguments (f16 or bf16), and the arguments as arrays."""
    arrays = [np.asarray(x) for x in xs]
    kinds = {a.dtype for a in arrays}
    if len(kinds) != 1 or not kinds <= {_F16, _BF16}:
        got = ", ".join(str(a.dtype) for a in arrays)
        raise HalfTypeError(f"{what} takes __half (float16) or __hip_bfloat16 (bfloat16) "
                            f"values, all of one type; got {got}")
    dtype = kinds.pop()
    if only is not None and dtype != only:
        raise HalfTypeError(f"{what} exists in HIP for {_NAMES[only]} only, got {_NAMES[dtype]}")
    return dtype, arrays


def _pairs(what: str, *xs: Any) -> None:
    for x in xs:
        shape = np.shape(x)
        if not shape or shape[-1] != 2:
            raise HalfTypeError(f"{what} takes packed pairs (an array whose last axis has "
                                f"length 2: low, high); got shape {shape}")


def _pair(lo: Any, hi: Any) -> np.ndarray:
    lo, hi = np.broadcast_arrays(np.asarray(lo), np.asarray(hi))
    return np.stack([lo, hi], axis=-1)


def _w(a: np.ndarray) -> np.ndarray:
    """Exact float64 values (ml_dtypes warns casting a bfloat16 NaN: an intended NaN)."""
    with np.errstate(invalid="ignore"):
        return a.astype(np.float64)


# --- conversions ----------------------------------------------------------------------------

def _float2half(mode: str) -> Callable[[Any], Any]:
    def convert(x: Any) -> Any:
        with np.errstate(all="ignore"):
            return _wrap(R.round_odd(_w(_f32(x)), _F16, mode))
    convert.__name__ = f"__float2half_{mode}"
    convert.__doc__ = f"float -> __half rounded {mode} (v_cvt_f16_f32 / __ocml_cvtrt*_f16_f32)."
    return convert


__float2half_rn = _float2half("rn")
__float2half_rz = _float2half("rz")
__float2half_rd = _float2half("rd")
__float2half_ru = _float2half("ru")
__float2half = __float2half_rn


def __half2float(x: Any) -> Any:
    """__half -> float (exact)."""
    return _wrap(_w(_to(x, _F16)).astype(np.float32))


def __float2bfloat16(x: Any) -> Any:
    """float -> __hip_bfloat16: round to nearest even with HIP's bit recipe."""
    return _wrap(R.float_to_bf16(_f32(x)))


def __double2bfloat16(x: Any) -> Any:
    """double -> __hip_bfloat16: round to odd into float, then to nearest (one rounding)."""
    with np.errstate(all="ignore"):
        return _wrap(R.nearest(np.asarray(x, np.float64), _BF16))


def __bfloat162float(x: Any) -> Any:
    """__hip_bfloat16 -> float (exact)."""
    return _wrap(_w(_to(x, _BF16)).astype(np.float32))


def __floats2half2_rn(a: Any, b: Any) -> np.ndarray:
    """Two floats -> __half2 (a low, b high), each rounded to nearest."""
    return _pair(__float2half_rn(a), __float2half_rn(b))


def __float2half2_rn(a: Any) -> np.ndarray:
    """One float -> __half2 holding it twice."""
    h = __float2half_rn(a)
    return _pair(h, h)


def __float22half2_rn(f: Any) -> np.ndarray:
    """float2 (..., 2) -> __half2, each half rounded to nearest."""
    _pairs("__float22half2_rn", f)
    return np.asarray(__float2half_rn(np.asarray(f)))


def __float22bfloat162_rn(f: Any) -> np.ndarray:
    """float2 (..., 2) -> __hip_bfloat162, each rounded to nearest."""
    _pairs("__float22bfloat162_rn", f)
    return np.asarray(__float2bfloat16(np.asarray(f)))


def __half22float2(h: Any) -> np.ndarray:
    """__half2 -> float2 (exact)."""
    _pairs("__half22float2", h)
    return np.asarray(h, _F16).astype(np.float32)


def __bfloat1622float2(h: Any) -> np.ndarray:
    """__hip_bfloat162 -> float2 (exact)."""
    _pairs("__bfloat1622float2", h)
    return _w(np.asarray(h, _BF16)).astype(np.float32)


def __halves2half2(lo: Any, hi: Any) -> np.ndarray:
    """Two __half -> __half2 (lo low)."""
    return _pair(_to(lo, _F16), _to(hi, _F16))


def __halves2bfloat162(lo: Any, hi: Any) -> np.ndarray:
    """Two __hip_bfloat16 -> __hip_bfloat162 (lo low)."""
    return _pair(_to(lo, _BF16), _to(hi, _BF16))


def __half2half2(h: Any) -> np.ndarray:
    """__half -> __half2 holding it twice."""
    return _pair(_to(h, _F16), _to(h, _F16))


def __bfloat162bfloat162(h: Any) -> np.ndarray:
    """__hip_bfloat16 -> __hip_bfloat162 holding it twice."""
    return _pair(_to(h, _BF16), _to(h, _BF16))


def _half(h: Any, i: int, what: str) -> np.ndarray:
    _pairs(what, h)
    return np.asarray(h)[..., i]


def __low2half(h: Any) -> Any:
    """The low half of a pair."""
    return _wrap(_half(h, 0, "__low2half"))


def __high2half(h: Any) -> Any:
    """The high half of a pair."""
    return _wrap(_half(h, 1, "__high2half"))


__low2bfloat16, __high2bfloat16 = __low2half, __high2half


def __low2float(h: Any) -> Any:
    """The low half of a __half2 / __hip_bfloat162 as float (exact)."""
    return _wrap(_w(_half(h, 0, "__low2float")).astype(np.float32))


def __high2float(h: Any) -> Any:
    """The high half of a __half2 / __hip_bfloat162 as float (exact)."""
    return _wrap(_w(_half(h, 1, "__high2float")).astype(np.float32))


def __low2half2(h: Any) -> np.ndarray:
    """(low, low)."""
    lo = _half(h, 0, "__low2half2")
    return _pair(lo, lo)


def __high2half2(h: Any) -> np.ndarray:
    """(high, high)."""
    hi = _half(h, 1, "__high2half2")
    return _pair(hi, hi)


def __lows2half2(a: Any, b: Any) -> np.ndarray:
    """(low of a, low of b)."""
    return _pair(_half(a, 0, "__lows2half2"), _half(b, 0, "__lows2half2"))


def __highs2half2(a: Any, b: Any) -> np.ndarray:
    """(high of a, high of b)."""
    return _pair(_half(a, 1, "__highs2half2"), _half(b, 1, "__highs2half2"))


def __lowhigh2highlow(h: Any) -> np.ndarray:
    """The two halves swapped."""
    _pairs("__lowhigh2highlow", h)
    return np.asarray(h)[..., ::-1].copy()


__low2bfloat162, __high2bfloat162 = __low2half2, __high2half2
__lows2bfloat162, __highs2bfloat162 = __lows2half2, __highs2half2


def _bitcast(dtype: np.dtype, what: str) -> Callable[[Any], Any]:
    def cast(x: Any) -> Any:
        a = np.asarray(x)
        if a.dtype.kind in "biu":  # an integer argument: its low 16 bits, as C++ converts
            a = (a.astype(np.int64) & 0xFFFF).astype(np.uint16)
        elif a.dtype.itemsize != 2:
            raise HalfTypeError(f"{what} reinterprets 16-bit values, got {a.dtype}")
        return _wrap(np.asarray(a).view(dtype))
    cast.__name__ = what
    cast.__doc__ = f"{what}: the same 16 bits read as {dtype}."
    return cast


__half_as_ushort = _bitcast(np.dtype(np.uint16), "__half_as_ushort")
__half_as_short = _bitcast(np.dtype(np.int16), "__half_as_short")
__ushort_as_half = _bitcast(_F16, "__ushort_as_half")
__short_as_half = _bitcast(_F16, "__short_as_half")
__bfloat16_as_ushort = _bitcast(np.dtype(np.uint16), "__bfloat16_as_ushort")
__bfloat16_as_short = _bitcast(np.dtype(np.int16), "__bfloat16_as_short")
__ushort_as_bfloat16 = _bitcast(_BF16, "__ushort_as_bfloat16")
__short_as_bfloat16 = _bitcast(_BF16, "__short_as_bfloat16")


# --- arithmetic -----------------------------------------------------------------------------

def _arith(name: str, f16_op: Callable, f32_op: Callable, arity: int,
           pair: bool = False) -> Callable:
    """A __half op rounded once to f16 and the bfloat16 op HIP writes as float math then
    __float2bfloat16."""
    def op(*xs: Any) -> Any:
        if len(xs) != arity:
            raise HalfTypeError(f"{name} takes {arity} arguments, got {len(xs)}")
        if pair:
            _pairs(name, *xs)
        dtype, arrays = _kind(name, *xs)
        wide = [_w(a) for a in arrays]
        with np.errstate(all="ignore"):
            if dtype == _F16:
                out = f16_op(*wide, _F16)
            else:
                out = R.float_to_bf16(f32_op(*wide, _F32))
        return _wrap(out)
    op.__name__ = name
    args = ", ".join("xyz"[:arity])
    op.__doc__ = (f"HIP's {name}({args}) on __half or __hip_bfloat16 "
                  f"{'pairs, per half' if pair else 'values'}: __half exact then rounded once "
                  "to nearest even; bf16 as hip_bf16.h writes it, float math then "
                  "__float2bfloat16. Other types raise HalfTypeError.")
    return op


def _sat(x: np.ndarray) -> np.ndarray:
    """HIP's __clamp_01: below 0 -> +0, above 1 -> 1, NaN and [0, 1] unchanged."""
    one = np.ones((), x.dtype)
    return np.where(x < 0, np.zeros((), x.dtype), np.where(x > 1, one, x))


def _saturated(name: str, op: Callable, pair: bool = False) -> Callable:
    def sat_op(*xs: Any) -> Any:
        if pair:
            _pairs(name, *xs)
        _kind(name, *xs, only=_F16)
        return _wrap(_sat(np.asarray(op(*xs))))
    sat_op.__name__ = name
    sat_op.__doc__ = f"{op.__name__} clamped to [0, 1] (HIP's __clamp_01: NaN passes)."
    return sat_op


# Two halves add exactly in float64 (multiples of 2^-24 below 2^17: 41 bits), so f16 sums
# round once from the float64 result; bfloat16's float sums need the exact TwoSum path.
_ADD = (lambda a, b, t: R.nearest(a + b, t), lambda a, b, t: R.add(a, b, t))
_SUB = (lambda a, b, t: R.nearest(a - b, t), lambda a, b, t: R.add(a, -b, t))
_MUL = (lambda a, b, t: R.mul(a, b, t), lambda a, b, t: R.mul(a, b, t))
_DIV = (lambda a, b, t: R.div(a, b, t), lambda a, b, t: R.div(a, b, t))
_FMA = (lambda a, b, c, t: R.fma(a, b, c, t), lambda a, b, c, t: R.fma(a, b, c, t))


def _fmax(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IEEE maxNum with -0 < +0: a NaN operand is ignored unless both are NaN."""
    bigger = (a > b) | ((a == b) & ~np.signbit(a)) | np.isnan(b)
    return np.where(bigger, a, b)


def _fmin(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    smaller = (a < b) | ((a == b) & np.signbit(a)) | np.isnan(b)
    return np.where(smaller, a, b)


_MAX = (lambda a, b, t: R.nearest(_fmax(a, b), t), lambda a, b, t: R.nearest(_fmax(a, b), t))
_MIN = (lambda a, b, t: R.nearest(_fmin(a, b), t), lambda a, b, t: R.nearest(_fmin(a, b), t))

__hadd = _arith("__hadd", *_ADD, 2)
__hsub = _arith("__hsub", *_SUB, 2)
__hmul = _arith("__hmul", *_MUL, 2)
__hdiv = _arith("__hdiv", *_DIV, 2)
__hfma = _arith("__hfma", *_FMA, 3)
__hmax = _arith("__hmax", *_MAX, 2)
__hmin = _arith("__hmin", *_MIN, 2)
__hadd2 = _arith("__hadd2", *_ADD, 2, pair=True)
__hsub2 = _arith("__hsub2", *_SUB, 2, pair=True)
__hmul2 = _arith("__hmul2", *_MUL, 2, pair=True)
__h2div = _arith("__h2div", *_DIV, 2, pair=True)
__hfma2 = _arith("__hfma2", *_FMA, 3, pair=True)
__hmax2 = _arith("__hmax2", *_MAX, 2, pair=True)
__hmin2 = _arith("__hmin2", *_MIN, 2, pair=True)
__hadd_sat = _saturated("__hadd_sat", __hadd)
__hsub_sat = _saturated("__hsub_sat", __hsub)
__hmul_sat = _saturated("__hmul_sat", __hmul)
__hfma_sat = _saturated("__hfma_sat", __hfma)
__hadd2_sat = _saturated("__hadd2_sat", __hadd2, pair=True)
__hsub2_sat = _saturated("__hsub2_sat", __hsub2, pair=True)
__hmul2_sat = _saturated("__hmul2_sat", __hmul2, pair=True)
__hfma2_sat = _saturated("__hfma2_sat", __hfma2, pair=True)


def _nan_first(name: str, op: Callable) -> Callable:
    def nan_op(x: Any, y: Any) -> Any:
        dtype, (a, b) = _kind(name, x, y)
        out = np.where(np.isnan(_w(a)), a, np.where(np.isnan(_w(b)), b, np.asarray(op(a, b))))
        return _wrap(out.astype(dtype))
    nan_op.__name__ = name
    nan_op.__doc__ = f"{op.__name__}, but a NaN operand is returned (x first)."
    return nan_op


__hmax_nan = _nan_first("__hmax_nan", __hmax)
__hmin_nan = _nan_first("__hmin_nan", __hmin)


def _sign_bits(name: str, fn: Callable[[np.ndarray], np.ndarray], pair: bool) -> Callable:
    def op(x: Any) -> Any:
        if pair:
            _pairs(name, x)
        dtype, (a,) = _kind(name, x)
        u = np.asarray(a).view(np.uint16)
        return _wrap(fn(u).astype(np.uint16).view(dtype))
    op.__name__ = name
    op.__doc__ = (f"HIP's {name}(x): x with its sign bit "
                  f"{'flipped' if 'neg' in name else 'cleared'}"
                  f"{' in each half of the pair' if pair else ''} (a bit operation: NaN "
                  "payloads and zeros keep their other bits).")
    return op


__hneg = _sign_bits("__hneg", lambda u: u ^ np.uint16(0x8000), False)
__habs = _sign_bits("__habs", lambda u: u & np.uint16(0x7FFF), False)
__hneg2 = _sign_bits("__hneg2", lambda u: u ^ np.uint16(0x8000), True)
__habs2 = _sign_bits("__habs2", lambda u: u & np.uint16(0x7FFF), True)


# --- comparisons ----------------------------------------------------------------------------

_ORDERED = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
            "gt": np.greater, "ge": np.greater_equal}
# unordered: true also when either operand is NaN (the negation of the opposite ordered test)
_UNORDERED = {"equ": lambda a, b: ~(a < b) & ~(a > b), "neu": lambda a, b: ~(a == b),
              "ltu": lambda a, b: ~(a >= b), "leu": lambda a, b: ~(a > b),
              "gtu": lambda a, b: ~(a <= b), "geu": lambda a, b: ~(a < b)}
_TESTS = _ORDERED | _UNORDERED


def _compare(name: str, test: Callable, form: str) -> Callable:
    """form: "bool" (__heq), "pair" (__heq2: 1.0/0.0 per half), "both" (__hbeq2: both
    halves), "mask" (__heq2_mask: 0xFFFF per true half, low half in the low bits)."""
    def cmp(x: Any, y: Any) -> Any:
        if form != "bool":
            _pairs(name, x, y)
        dtype, (a, b) = _kind(name, x, y)
        with np.errstate(invalid="ignore"):
            t = np.asarray(test(_w(a), _w(b)))
        if form == "bool":
            return _wrap(t)
        if form == "pair":
            return t.astype(dtype)
        if form == "both":
            return _wrap(t.all(axis=-1))
        bits = t.astype(np.uint32) * np.uint32(0xFFFF)
        return _wrap(bits[..., 0] | (bits[..., 1] << np.uint32(16)))
    cmp.__name__ = name
    result = {"bool": "a bool", "pair": "1.0 or 0.0 per half (a pair)",
              "both": "whether both halves compare true",
              "mask": "0xFFFF per true half, the low half in the low 16 bits"}[form]
    unordered = name.removesuffix("_mask").removesuffix("2").endswith("u")
    nan = ("also true when either operand is NaN" if unordered
           else "false when either operand is NaN" if "ne" not in name
           else "true when either operand is NaN (C++ !=)")
    cmp.__doc__ = (f"HIP's {name}(x, y) on __half or __hip_bfloat16 values: {result}; "
                   f"{nan}.")
    return cmp


_compare_names: dict[str, Callable] = {}
for _t, _fn in _TESTS.items():
    _compare_names[f"__h{_t}"] = _compare(f"__h{_t}", _fn, "bool")
    _compare_names[f"__h{_t}2"] = _compare(f"__h{_t}2", _fn, "pair")
    _compare_names[f"__hb{_t}2"] = _compare(f"__hb{_t}2", _fn, "both")
    _compare_names[f"__h{_t}2_mask"] = _compare(f"__h{_t}2_mask", _fn, "mask")
globals().update(_compare_names)


def _classify(name: str, test: Callable, pair: bool) -> Callable:
    def op(x: Any) -> Any:
        if pair:
            _pairs(name, x)
        dtype, (a,) = _kind(name, x)
        t = test(_w(a))
        return t.astype(dtype) if pair else _wrap(t)
    op.__name__ = name
    op.__doc__ = (f"HIP's {name}(x): whether x is {'NaN' if 'nan' in name else 'infinite'}"
                  f"{', 1.0/0.0 per half of the pair' if pair else ''}.")
    return op


__hisnan = _classify("__hisnan", np.isnan, False)
__hisinf = _classify("__hisinf", np.isinf, False)
__hisnan2 = _classify("__hisnan2", np.isnan, True)
__hisinf2 = _classify("__hisinf2", np.isinf, True)


# --- half math (hexp, h2exp, ...) -----------------------------------------------------------

def _libm(fn: Callable) -> Callable:
    """An approximate function: the float64 libm value, rounded to nearest by the caller."""
    return lambda x, t: R.nearest(fn(x), t)


_MATH: dict[str, Callable] = {
    "exp": _libm(np.exp), "exp2": _libm(np.exp2), "exp10": _libm(lambda x: 10.0 ** x),
    "log": _libm(np.log), "log2": _libm(np.log2), "log10": _libm(np.log10),
    "sin": _libm(np.sin), "cos": _libm(np.cos), "rsqrt": _libm(lambda x: 1.0 / np.sqrt(x)),
    "sqrt": lambda x, t: R.sqrt(x, t), "rcp": lambda x, t: R.div(np.ones_like(x), x, t),
    "ceil": _libm(np.ceil), "floor": _libm(np.floor), "trunc": _libm(np.trunc),
    "rint": _libm(np.rint),
}


def _math(name: str, fn: Callable, pair: bool) -> Callable:
    def op(x: Any) -> Any:
        if pair:
            _pairs(name, x)
        dtype, (a,) = _kind(name, x)
        with np.errstate(all="ignore"):
            out = fn(_w(a), _F16) if dtype == _F16 else R.float_to_bf16(fn(_w(a), _F32))
        return _wrap(out)
    op.__name__ = name
    op.__doc__ = (f"HIP's {name}(x): {name.removeprefix('h2' if pair else 'h')}(x) of a "
                  f"__half or __hip_bfloat16{' pair, per half' if pair else ''}; __half "
                  "results correctly rounded, bf16 as the f32 function rounded to bf16.")
    return op


_math_names: dict[str, Callable] = {}
for _f, _fn in _MATH.items():
    _math_names[f"h{_f}"] = _math(f"h{_f}", _fn, False)
    _math_names[f"h2{_f}"] = _math(f"h2{_f}", _fn, True)
globals().update(_math_names)


# --- float fast math ------------------------------------------------------------------------

_LOG2E = np.float64(np.float32(float.fromhex("0x1.715476p+0")))  # __expf's f32 constant
_LOG2_10 = np.float64(np.float32(float.fromhex("0x1.a934f0p+1")))  # __exp10f's


def _unary(name: str, fn: Callable[[np.ndarray], np.ndarray], doc: str) -> Callable:
    def op(x: Any) -> Any:
        with np.errstate(all="ignore"):
            return _wrap(fn(_w(_f32(x))))
    op.__name__, op.__doc__ = name, doc
    return op


def _exp2_of_product(constant: np.float64) -> Callable[[np.ndarray], np.ndarray]:
    """v_exp_f32(fl32(constant * x)): the f32 product rounds first, as HIP writes it."""
    c = np.asarray(constant)
    return lambda x: R.nearest(np.exp2(_w(R.mul(c, x, _F32))), _F32)


__expf = _unary("__expf", _exp2_of_product(_LOG2E),
                "v_exp_f32(fl(log2(e) * x)) (HIP's __expf); error grows with |x|.")
__exp10f = _unary("__exp10f", _exp2_of_product(_LOG2_10),
                  "v_exp_f32(fl(log2(10) * x)) (HIP's __exp10f).")
__logf = _unary("__logf", lambda x: R.nearest(np.log(x), _F32), "ln(x) (llvm.log.f32).")
__log2f = _unary("__log2f", lambda x: R.nearest(np.log2(x), _F32), "log2(x) (v_log_f32).")
__log10f = _unary("__log10f", lambda x: R.nearest(np.log10(x), _F32), "log10(x).")
__sinf = _unary("__sinf", lambda x: R.nearest(np.sin(x), _F32), "sin(x) (v_sin_f32).")
__cosf = _unary("__cosf", lambda x: R.nearest(np.cos(x), _F32), "cos(x) (v_cos_f32).")
__frsqrt_rn = _unary("__frsqrt_rn", lambda x: R.nearest(1.0 / np.sqrt(x), _F32),
                     "1/sqrt(x) (v_rsq_f32).")
rsqrtf = _unary("rsqrtf", lambda x: R.nearest(1.0 / np.sqrt(x), _F32),
                "1/sqrt(x) (__ocml_rsqrt_f32).")


def __saturatef(x: Any) -> Any:
    """(x < 0) ? 0 : ((x > 1) ? 1 : x), as HIP writes it: NaN and -0 pass through."""
    return _wrap(_sat(_f32(x)))


def __powf(x: Any, y: Any) -> Any:
    """x to the power y (__ocml_pow_f32): C pow's special cases, modelled value rounded."""
    with np.errstate(all="ignore"):
        return _wrap(R.nearest(np.power(_w(_f32(x)), _w(_f32(y))), _F32))


def _rounded(name: str, fn: Callable, arity: int) -> dict[str, Callable]:
    """`name_rn/rz/rd/ru`: one rounding of the exact result in each mode."""
    made = {}
    for mode in R.MODES:
        def op(*xs: Any, _mode: str = mode) -> Any:
            if len(xs) != arity:
                raise HalfTypeError(f"{name}_{_mode} takes {arity} arguments, got {len(xs)}")
            with np.errstate(all="ignore"):
                return _wrap(fn(*[_w(_f32(x)) for x in xs], _F32, _mode))
        op.__name__ = f"{name}_{mode}"
        op.__doc__ = f"{name} rounded {mode} (correctly rounded, one rounding)."
        made[op.__name__] = op
    return made


_float_names: dict[str, Callable] = {}
_float_names |= _rounded("__fadd", R.add, 2)
_float_names |= _rounded("__fsub", lambda a, b, t, m: R.add(a, -b, t, m), 2)
_float_names |= _rounded("__fmul", R.mul, 2)
_float_names |= _rounded("__fdiv", R.div, 2)
_float_names |= _rounded("__fmaf", R.fma, 3)
_float_names |= _rounded("__frcp", lambda x, t, m: R.div(np.ones_like(x), x, t, m), 1)
_float_names |= _rounded("__fsqrt", R.sqrt, 1)
globals().update(_float_names)
__fdividef = _float_names["__fdiv_rn"]

HALF_MATH_NAMES = (
    ["__half", "__half2", "__hip_bfloat16", "__nv_bfloat16", "__hip_bfloat162",
     "__nv_bfloat162", "__float2half", "__float2half_rn", "__float2half_rz", "__float2half_rd",
     "__float2half_ru", "__half2float", "__float2bfloat16", "__double2bfloat16",
     "__bfloat162float", "__floats2half2_rn", "__float2half2_rn", "__float22half2_rn",
     "__float22bfloat162_rn", "__half22float2", "__bfloat1622float2", "__halves2half2",
     "__halves2bfloat162", "__half2half2", "__bfloat162bfloat162", "__low2half",
     "__high2half", "__low2bfloat16", "__high2bfloat16", "__low2float", "__high2float",
     "__low2half2", "__high2half2", "__lows2half2", "__highs2half2", "__lowhigh2highlow",
     "__low2bfloat162", "__high2bfloat162", "__lows2bfloat162", "__highs2bfloat162",
     "__half_as_ushort", "__half_as_short", "__ushort_as_half", "__short_as_half",
     "__bfloat16_as_ushort", "__bfloat16_as_short", "__ushort_as_bfloat16",
     "__short_as_bfloat16", "__hadd", "__hsub", "__hmul", "__hdiv", "__hfma", "__hmax",
     "__hmin", "__hadd2", "__hsub2", "__hmul2", "__h2div", "__hfma2", "__hmax2", "__hmin2",
     "__hadd_sat", "__hsub_sat", "__hmul_sat", "__hfma_sat", "__hadd2_sat", "__hsub2_sat",
     "__hmul2_sat", "__hfma2_sat", "__hmax_nan", "__hmin_nan", "__hneg", "__habs",
     "__hneg2", "__habs2", "__hisnan", "__hisinf", "__hisnan2", "__hisinf2", "__expf",
     "__exp10f", "__logf", "__log2f", "__log10f", "__sinf", "__cosf", "__frsqrt_rn",
     "rsqrtf", "__saturatef", "__powf", "__fdividef"]
    + sorted(_compare_names) + sorted(_math_names) + sorted(_float_names)
)
for _name in HALF_MATH_NAMES:  # per-lane arguments in as arrays, results out as Lanes
    if isinstance(globals()[_name], FunctionType):
        globals()[_name] = lane_wise(globals()[_name])
__all__ = ["HALF_MATH_NAMES", "PairType", *HALF_MATH_NAMES]
