"""Element types of AMD matrix cores, HIP-style conversions and 32-bit register packing.

Every type is a numpy/ml_dtypes scalar type except `xfloat32`, a token whose storage is float32.
Byte order is numpy's native one, which is little-endian on every host numpy supports for this.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from .errors import ElementTypeError, OperandShapeError, OperandTypeError, PackingError
from .lane_wise import lane_wise

float16 = np.float16
bfloat16 = ml_dtypes.bfloat16
float32 = np.float32
float64 = np.float64
int8 = np.int8
uint8 = np.uint8
int32 = np.int32
uint32 = np.uint32
int4 = ml_dtypes.int4
uint4 = ml_dtypes.uint4
float8 = ml_dtypes.float8_e4m3fn  # OCP e4m3 (gfx950, gfx12)
bfloat8 = ml_dtypes.float8_e5m2  # OCP e5m2
float8_fnuz = ml_dtypes.float8_e4m3fnuz  # NANOO e4m3 (gfx942)
bfloat8_fnuz = ml_dtypes.float8_e5m2fnuz  # NANOO e5m2 (gfx942)
# OCP MX element types (gfx950 f8f6f4 MFMA and scaled conversions): no Inf, no NaN
float6_e2m3 = ml_dtypes.float6_e2m3fn  # "fp6"
float6_e3m2 = ml_dtypes.float6_e3m2fn  # "bf6"
float4_e2m1 = ml_dtypes.float4_e2m1fn  # "fp4"
e8m0 = ml_dtypes.float8_e8m0fnu  # MX block scale: 2**(bits - 127), 0xFF = NaN


class xfloat32:
    """Token for rocWMMA's xfloat32_t (gfx942): f32 container, 1 sign, 8 exponent, 10 mantissa.

    numpy has no such dtype, so values live in float32 with the low 13 mantissa bits zero.
    """


# one alias per line, so type checkers take them as types (`alpha: float32_t`)
float16_t = float16
hfloat16_t = float16
bfloat16_t = bfloat16
float32_t = float32
float64_t = float64
int8_t = int8
uint8_t = uint8
int32_t = int32
uint32_t = uint32
float8_t = float8
bfloat8_t = bfloat8
float8_fnuz_t = float8_fnuz
bfloat8_fnuz_t = bfloat8_fnuz
xfloat32_t = xfloat32
float6_e2m3_t = float6_e2m3
float6_e3m2_t = float6_e3m2
float4_e2m1_t = float4_e2m1
e8m0_t = e8m0
index_t = int32

# fmt: off
_SHORT: dict[type, str] = {
    float16: "f16", bfloat16: "bf16", float32: "f32", float64: "f64", int8: "i8", uint8: "u8",
    int32: "i32", uint32: "u32", int4: "i4", uint4: "u4", float8: "f8", bfloat8: "bf8",
    float8_fnuz: "f8_fnuz", bfloat8_fnuz: "bf8_fnuz", xfloat32: "xf32",
    float6_e2m3: "fp6", float6_e3m2: "bf6", float4_e2m1: "fp4", e8m0: "e8m0",
}
# accepted names: short ones, type names ("float8_e4m3fn") and this module's ("float8")
_BY_NAME = {s: t for t, s in _SHORT.items()} | {t.__name__: t for t in _SHORT} | {
    "float8": float8, "bfloat8": bfloat8, "float8_fnuz": float8_fnuz, "bfloat8_fnuz": bfloat8_fnuz,
    "float6_e2m3": float6_e2m3, "float6_e3m2": float6_e3m2, "float4_e2m1": float4_e2m1,
    "fp8": float8,  # LLVM's name of OCP e4m3 on gfx950 (its bf8 is already "bf8")
}
# fmt: on
_BY_DTYPE = {np.dtype(t): t for t in _SHORT if t is not xfloat32}
_FP8 = (float8, bfloat8, float8_fnuz, bfloat8_fnuz)
_MX = (float6_e2m3, float6_e3m2, float4_e2m1)  # no Inf/NaN: conversions saturate
_FLOATS = {float16, bfloat16, float32, float64, xfloat32, e8m0, *_FP8, *_MX}
_NIBBLE = {np.dtype(int4), np.dtype(uint4)}
# element types narrower than a byte: numpy holds one per byte, registers pack them densely
_SUBBYTE = {np.dtype(int4): 4, np.dtype(uint4): 4, np.dtype(float4_e2m1): 4,
            np.dtype(float6_e2m3): 6, np.dtype(float6_e3m2): 6}


def resolve(t: Any) -> type:
    """Canonical type object for a type, an equal numpy dtype, or a name ("bf16", "float16")."""
    if isinstance(t, type) and t in _SHORT:  # already canonical: the hot path
        return t
    if isinstance(t, str):
        if t.lower() in _BY_NAME:
            return _BY_NAME[t.lower()]
    elif t is xfloat32:
        return t
    elif t is not None:  # np.dtype(None) would silently mean float64
        try:
            dt = np.dtype(t)
        except (TypeError, ValueError):
            dt = None
        if dt is not None and dt in _BY_DTYPE:
            return _BY_DTYPE[dt]
    raise ElementTypeError(
        f"unsupported element type {t!r}; supported names: {', '.join(_BY_NAME)}"
    )


# C++'s meaning of Python's built-in type names (numpy's would make float and int 64-bit)
_CXX_BUILTINS: dict[type, type] = {float: float32, int: int32, bool: np.bool_}


def cxx_type(t: Any) -> Any:
    """Python's `float`, `int`, `bool` as the C++ types those names mean (float32, int32,
    bool): `fragment[..., float]`, `shared_array(int, n)`, `__shared__(float, n)` and
    `vector_type(float, 4)` all take them so. Anything else is returned unchanged."""
    return _CXX_BUILTINS.get(t, t) if isinstance(t, type) else t


def short_name(t: Any) -> str:
    """Short name used in instruction names and tables ("f16", "bf8_fnuz", "xf32")."""
    return _SHORT[resolve(t)]


def storage_dtype(t: Any) -> np.dtype:
    """numpy dtype that holds values of `t` (float32 for xfloat32)."""
    t = resolve(t)
    return np.dtype(np.float32 if t is xfloat32 else t)


def _dtype_bits(dt: np.dtype) -> int:
    return _SUBBYTE.get(dt, dt.itemsize * 8)


def bits(t: Any) -> int:
    """Width of one element in registers (int4/uint4 are 4 bits, not their 1-byte numpy size)."""
    return _dtype_bits(storage_dtype(t))


def is_float(t: Any) -> bool:
    """True for floating-point element types (including fp8 and xfloat32)."""
    return resolve(t) in _FLOATS


def is_signed(t: Any) -> bool:
    """True for types that can hold negative values (all floats, int8/int32/int4)."""
    t = resolve(t)
    return t in _FLOATS or t in (int8, int32, int4)


def max_finite(t: Any) -> float:
    """Largest finite value of a float type; xfloat32 has only 10 mantissa bits."""
    t = resolve(t)
    if t is xfloat32:
        return (2 - 2**-10) * 2.0**127
    if t not in _FLOATS:
        raise ElementTypeError(
            f"max_finite needs a float type, got {short_name(t)}; use ml_dtypes.iinfo"
        )
    return float(ml_dtypes.finfo(t).max)


def _to_f32_round_to_odd(x: np.ndarray) -> np.ndarray:
    """float64 -> float32 rounding to odd, so a second RNE rounding to <= 22 bits is exact RNE.

    ml_dtypes casts float64 to bf16/fp8 through an RNE float32 step (double rounding).
    """
    with np.errstate(over="ignore", invalid="ignore"):  # inf; a signaling NaN stays NaN
        r = x.astype(np.float32)
    nudge = (r != x) & np.isfinite(r) & ((r.view(np.uint32) & 1) == 0)
    toward = np.where(x > r, np.float32(np.inf), np.float32(-np.inf))
    return np.where(nudge, np.nextafter(r, toward), r)


def _source(x: Any) -> np.ndarray:
    a = np.asarray(x)
    if a.dtype.kind not in "biuf" and a.dtype not in _BY_DTYPE:
        raise ElementTypeError(
            f"cannot convert dtype {a.dtype}; need bool, integer or float values"
        )
    return a


@lane_wise
def convert(x: Any, t: Any) -> np.ndarray:
    """HIP `static_cast` of `x` to element type `t`, returned in `storage_dtype(t)`.

    Floats round to nearest even (once, also from float64); fp8 targets saturate like
    `__HIP_SATFINITE` (+-inf and overflow -> +-max finite, NaN stays NaN), fp6/fp4 (which
    have no NaN) saturate too and take NaN to +-max finite; other floats
    overflow to inf. xfloat32 truncates the low 13 bits as rocWMMA's constructor does.
    Float -> int truncates toward zero and, like AMD's v_cvt_i32_f32, saturates to the
    type's range with NaN -> 0. Int -> int wraps (two's complement), int4/uint4 included.
    """
    t, a = resolve(t), _source(x)
    if t is xfloat32:
        return to_xfloat32(a)
    if t in (float32, float64):
        with np.errstate(over="ignore", invalid="ignore"):  # inf is the IEEE result HIP
            return a.astype(t)  # gives; a signaling NaN converts to a NaN, as IEEE says
    src_float = a.dtype.kind == "f" or _BY_DTYPE.get(a.dtype) in _FLOATS
    if t in _FLOATS:
        if a.dtype in (np.float32, np.float16) and not np.isnan(a).any():
            w = a.astype(np.float32, copy=False)  # float32 holds them: one rounding below
        else:  # (NaNs keep the float64 path's payloads)
            with np.errstate(invalid="ignore"):  # a signaling NaN converts to a NaN
                w = a.astype(np.float64)  # exact for every supported float, |int| <= 2**53
        if t in _FP8:
            w = np.clip(w, -max_finite(t), max_finite(t))  # NaN passes through clip
        elif t in _MX:  # no NaN to keep: NaN gives the largest magnitude of its sign, as
            top = max_finite(t)  # HIP's OCP host conversions (amd_hip_ocp_host.hpp) do
            w = np.where(np.isnan(w), np.copysign(top, w), np.clip(w, -top, top))
        if w.dtype == np.float64:  # (ml_dtypes would round float64 twice, via float32)
            w = _to_f32_round_to_odd(w)
        with np.errstate(over="ignore"):  # float16/bfloat16 overflow to inf, as IEEE does
            return w.astype(t)
    if not src_float:
        return a.astype(np.int64).astype(t)  # numpy and ml_dtypes int casts wrap
    info = ml_dtypes.iinfo(t)
    w = np.nan_to_num(np.trunc(a.astype(np.float64)), nan=0.0)
    return np.clip(w, info.min, info.max).astype(t)


@lane_wise
def to_xfloat32(x: Any, rounding: str = "truncate") -> np.ndarray:
    """Round float32 values to xfloat32 (float32 storage), as rocWMMA's two constructors do.

    "truncate" clears the low 13 bits (so a NaN whose payload is only there becomes inf,
    exactly as in rocWMMA); "rne" rounds to nearest even, keeps inf and keeps NaN a NaN.
    """
    if rounding not in ("truncate", "rne"):
        raise PackingError(f"rounding must be 'truncate' or 'rne', got {rounding!r}")
    u = convert(x, float32).view(np.uint32)
    if rounding == "rne":
        finite = (u & 0x7F800000) != 0x7F800000
        keep_nan = np.where((u & 0x1FFF) != 0, u | 0x2000, u)
        u = np.where(finite, u + 0xFFF + ((u >> 13) & 1), keep_nan)
    return (u & np.uint32(0xFFFFE000)).view(np.float32)


def _to_bytes(a: np.ndarray) -> np.ndarray:
    """Bytes of `a` along its last axis. Sub-byte types pack densely as the ISA packs them:
    element e at bits [w*e, w*e + w) of the little-endian bit string (4-bit: two per byte,
    low nibble first; 6-bit: 16 per 3 dwords, element 5 straddling bytes 3 and 4)."""
    width = _SUBBYTE.get(a.dtype)
    if width is None:
        return np.ascontiguousarray(a).view(np.uint8)
    if a.shape[-1] * width % 8:
        raise PackingError(f"{a.shape[-1]} values of {width} bits do not fill whole bytes "
                           f"(need a count that is a multiple of {8 // np.gcd(width, 8)})")
    codes = np.ascontiguousarray(a).view(np.uint8)[..., None]
    field = np.unpackbits(codes, axis=-1, count=width, bitorder="little")
    return np.packbits(field.reshape(*a.shape[:-1], -1), axis=-1, bitorder="little")


def _from_bytes(b: np.ndarray, dt: np.dtype) -> np.ndarray:
    """Inverse of `_to_bytes`: reinterpret bytes along the last axis as dtype `dt`."""
    width = _SUBBYTE.get(dt)
    if width is None:
        return np.ascontiguousarray(b).view(dt)
    field = np.unpackbits(np.ascontiguousarray(b, dtype=np.uint8), axis=-1, bitorder="little")
    field = field.reshape(*b.shape[:-1], -1, width)
    codes = np.packbits(field, axis=-1, bitorder="little")[..., 0]
    if dt in _NIBBLE:
        return codes.astype(dt)  # uint8 -> int4 wraps, so 0xF becomes -1
    return codes.view(dt)


def _check_multiple(nbits: int, unit: int, what: str) -> None:
    if nbits % unit:
        raise PackingError(f"{what} is {nbits} bits, not a multiple of {unit}")


@lane_wise
def pack(elements: Any, t: Any) -> np.ndarray:
    """Pack elements along the last axis into uint32 register words, element 0 in the low bits.

    Never rounds: float elements must already be in `storage_dtype(t)` (use `convert`);
    integer elements may have any integer dtype if every value fits `t`.
    """
    t, a = resolve(t), np.atleast_1d(elements)
    sd = storage_dtype(t)
    if a.dtype != sd:
        if t in _FLOATS or not (a.dtype.kind in "biu" or a.dtype in _NIBBLE):
            name = short_name(t)
            raise ElementTypeError(
                f"pack to {name} needs dtype {sd}, got {a.dtype}; use convert first"
            )
        info, wide = ml_dtypes.iinfo(t), a.astype(np.int64)
        if wide.size and (wide.min() < info.min or wide.max() > info.max):
            raise PackingError(f"values outside {short_name(t)} range [{info.min}, {info.max}]")
        a = wide.astype(t)
    _check_multiple(a.shape[-1] * bits(t), 32, f"a row of {a.shape[-1]} {short_name(t)} elements")
    return _from_bytes(_to_bytes(a), np.dtype(np.uint32))


@lane_wise
def unpack(words: Any, t: Any) -> np.ndarray:
    """Inverse of `pack`: (..., m) 32-bit words -> (..., m*32/bits) elements of `t`."""
    t, w = resolve(t), np.atleast_1d(words)
    if w.dtype not in (np.int32, np.uint32):
        if w.dtype.kind not in "iu" or (w.size and (w.min() < -(2**31) or w.max() >= 2**32)):
            raise ElementTypeError(
                f"unpack needs int32/uint32 words (or 32-bit integers), got {w.dtype}"
            )
        w = (w.astype(np.int64) & 0xFFFFFFFF).astype(np.uint32)
    _check_multiple(w.shape[-1] * 32, bits(t), f"a row of {w.shape[-1]} words")
    return _from_bytes(_to_bytes(w.astype(np.uint32)), storage_dtype(t))


def _lanes(values: Any) -> np.ndarray:
    a = np.asarray(values)
    a = a[:, None] if a.ndim == 1 else a
    if a.ndim != 2:
        raise PackingError(
            f"expected per-lane values of shape (lanes,) or (lanes, n), got {a.shape}"
        )
    return a


def _reinterpret(a: np.ndarray, dt: np.dtype, count: int, what: str) -> np.ndarray:
    have = a.shape[1] * _dtype_bits(a.dtype)
    need = count * _dtype_bits(dt)
    if have != need:
        raise PackingError(
            f"values of shape {a.shape} and dtype {a.dtype} hold {have / 8:g} bytes per lane, "
            f"but {count} x {what} needs {need / 8:g} bytes per lane"
        )
    return _from_bytes(_to_bytes(a), dt)


@lane_wise
def as_elements(values: Any, t: Any, count: int) -> np.ndarray:
    """Reinterpret per-lane operand bytes (any dtype, e.g. int32 words) as `count` elements of t.

    Intrinsic operands are typed loosely (8 int8 in an i64, 4 fp8 in an i32), so only the
    bytes matter. Returns (lanes, count) in `storage_dtype(t)`, uncopied if already so.
    """
    a, sd = _lanes(values), storage_dtype(t)
    if a.dtype == sd and a.shape[1] == count:
        return a
    return _reinterpret(a, sd, count, short_name(t))


@lane_wise
def from_elements(elements: Any, like_dtype: Any, per_lane: int) -> np.ndarray:
    """Inverse of `as_elements`: (lanes, count) elements -> (lanes, per_lane) of `like_dtype`."""
    try:
        dt = storage_dtype(like_dtype)
    except TypeError:
        dt = np.dtype(like_dtype)
    return _reinterpret(_lanes(elements), dt, per_lane, str(dt))


# Element types whose builtins take float vectors in HIP (half4, float4, double4, float2 for
# xf32): any numbers convert by value, as C++ converts them. The others take integer vectors
# (bf16 as short, fp8 as long/int, int8/int4 packed, i32): integers are their raw bytes.
_VALUE_OPERANDS = {float16, float32, float64, xfloat32}


def as_operand(regs: np.ndarray, t: Any, count: int, what: str) -> np.ndarray:
    """A builtin operand (lanes,) or (lanes, n) as HIP would pass it to a builtin whose
    operand holds `count` elements of `t` per lane:

    - in t's storage dtype: as is;
    - integers where the builtin takes an integer vector (packed int8/int4, bf16 as short,
      fp8 as long, i32), and fp8 arrays for fp8 operands: their bytes, as is (non-native
      byte order made native first);
    - other numbers with `count` values per lane: converted by value (`convert`: int or
      double -> float, float -> bf16/fp8 rounding to nearest even), as C++ converts them;
    - a wrong count per lane (a half2 vector for a float operand) raises OperandShapeError,
      values that convert neither way (floats for an integer operand, complex or object
      arrays) OperandTypeError; both name the expected dtype and shape.
    """
    t, sd = resolve(t), storage_dtype(t)
    per_lane = regs.shape[-1] if regs.ndim == 2 else 1
    if regs.dtype == sd and per_lane == count or regs.ndim not in (1, 2):
        return regs  # other shapes: the caller's lanes check names them
    if not regs.dtype.isnative:
        regs = regs.astype(regs.dtype.newbyteorder("="))
    name = short_name(t)
    expected = (f"{count} x {name} per lane (dtype {sd}, shape (lanes,"
                f"{' ' + str(count) if count > 1 else ''}))")
    integer = regs.dtype.kind in "iu" or regs.dtype in _NIBBLE
    packed_fp8 = t in _FP8 and _BY_DTYPE.get(regs.dtype) in _FP8  # 8-bit floats in a long
    words = "" if t in _VALUE_OPERANDS else ", or the same bytes as integer words"
    have, need = per_lane * _dtype_bits(regs.dtype), count * bits(t)
    if (integer or packed_fp8) and t not in _VALUE_OPERANDS:
        if have != need:
            raise OperandShapeError(f"{what} holds {have / 8:g} bytes per lane ({per_lane} x "
                                    f"{regs.dtype}); it needs {expected}{words}")
        return regs
    numeric = regs.dtype.kind in "biuf" or _BY_DTYPE.get(regs.dtype) in _FLOATS
    if not numeric or not (t in _FLOATS or integer):
        raise OperandTypeError(
            f"{what} must be {expected}{words}; got {regs.dtype} values, which convert to "
            f"{name} neither by value nor as a packed integer vector"
        )
    if per_lane != count:
        raise OperandShapeError(
            f"{what} holds {per_lane} x {regs.dtype} ({have / 8:g} bytes per lane); it needs "
            f"{expected}{words}; bytes are reinterpreted only for packed integer vectors"
        )
    return convert(regs, float32 if t is xfloat32 else t)  # xf32 operands are C++ floats
