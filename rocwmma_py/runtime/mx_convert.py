"""gfx950's scaled and stochastic-rounding conversions (`__builtin_amdgcn_cvt_scalef32_*`,
`cvt_scalef32_sr_*`, `cvt_sr_*`) between f32/f16/bf16 and the OCP formats fp8 (e4m3), bf8
(e5m2), fp6 (e2m3), bf6 (e3m2) and fp4 (e2m1).

Semantics (sources: CDNA4 ISA, section 6.7 "Packed Math", as quoted in public notes; LLVM's
clang/include/clang/Basic/BuiltinsAMDGPU.td for the signatures; HIP's host reference
ROCm/clr hipamd/include/hip/amd_detail/amd_hip_ocp_host.hpp @ 0c33dfa, `from_float`,
`from_float_sr`, `to_float`, for the arithmetic):

- `scale` is a float whose exponent field (bits 30:23) is the E8M0 block scale s: the
  conversion to a narrow format computes x / 2**(s - 127), the one from it x * 2**(s - 127);
  s = 0xFF is NaN (the results are NaN, or +-max for fp6/fp4, which have no NaN).
- narrowing rounds to nearest even once and saturates (+-inf and overflow to +-max finite;
  NaN stays NaN for fp8/bf8 and becomes +-max for fp6/fp4); widening is exact, then rounds
  to the destination with overflow to inf ("gfx950 HW behavior" in the HIP reference).
- stochastic rounding adds the top r bits of the 32-bit random operand (r = the source's
  mantissa bits minus the destination's: `rng >> (32 - r)`) to the source significand,
  aligned one bit below the kept ones, then truncates (HIP's `from_float_sr`).

Where the HIP host reference differs, the ISA text wins: it applies the scale only to the
fp6/fp4 encodings (its fp8 ones are not marked MX-scaled), whereas the ISA says the scaled
conversions scale every F4/F6/F8 value; and its saturation of an e4m3 overflow yields the
code 0x7F (a NaN), where this module gives the largest finite value 448 as HIP's
`__HIP_SATFINITE` conversions do.

Packing: fp8 four per dword (byte b = bits 8b..8b+7), fp4 eight (value e at bits 4e), fp6
sixteen per three dwords (value e at bits 6e..6e+5 of the little-endian 96-bit string): see
`types.pack`. Every function works on whole arrays: per-lane scalars (lanes,) and per-lane
vectors (lanes, n), or the kernel's per-lane values (`lane_wise`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import types as T
from ..errors import ModifierError
from ..lane_wise import lane_wise
from .lane_ops import GFX950, require

_SOURCE_MANTISSA = {T.float32: 23, T.float16: 10, T.bfloat16: 7}
# narrow formats: (mantissa bits, smallest normal exponent)
_NARROW = {T.float8: (3, -6), T.bfloat8: (2, -14), T.float6_e2m3: (3, 0),
           T.float6_e3m2: (2, -2), T.float4_e2m1: (1, 0), T.bfloat16: (7, -126),
           T.float16: (10, -14)}


def _sel(builtin: str, name: str, value: Any, count: int) -> int:
    """An immediate selector (word/byte/nibble-pair index) as the builtin's `_Constant`."""
    if isinstance(value, (bool, np.bool_)):
        value = int(value)
    if not isinstance(value, (int, np.integer)) or not 0 <= int(value) < count:
        raise ModifierError(f"__builtin_amdgcn_{builtin}: {name}={value!r} is not allowed "
                            f"(allowed: an integer immediate in 0..{count - 1})")
    return int(value)


def _scale(scale: Any) -> np.ndarray:
    """2**(s - 127) of the E8M0 exponent s held in bits 30:23 of a float32 scale (NaN for
    s = 0xFF)."""
    s = (np.asarray(scale, np.float32).view(np.uint32) >> 23) & 0xFF
    return np.where(s == 0xFF, np.nan, np.ldexp(1.0, s.astype(np.int64) - 127))


def _words(x: Any) -> np.ndarray:
    """Integer register values (any width) as uint32 words."""
    a = np.asarray(x)
    return (a.astype(np.int64) & 0xFFFFFFFF).astype(np.uint32) if a.dtype != np.uint32 else a


def _narrow(x: Any, src: type, fmt: type, scale: Any, rng: Any = None) -> np.ndarray:
    """x / scale in format `fmt` (RNE, or stochastic with `rng`), saturating; codes uint8."""
    v = np.asarray(x, T.storage_dtype(src)).astype(np.float64)
    factor = _scale(scale)
    with np.errstate(invalid="ignore", over="ignore"):
        t = np.where(np.isnan(factor), np.copysign(np.nan, v), v / factor)
    if rng is not None:
        t = _stochastic(t, src, fmt, rng)
    return T.convert(t, fmt).view(np.uint8)


def _stochastic(t: np.ndarray, src: type, fmt: type, rng: Any) -> np.ndarray:
    """t rounded to `fmt`'s grid by adding the top r random bits below the kept mantissa
    and truncating (HIP's from_float_sr); values it cannot represent pass to `convert`
    (which saturates or gives inf)."""
    man, emin = _NARROW[fmt]
    r = _SOURCE_MANTISSA[src] - man
    a = np.abs(t)
    finite = np.isfinite(a) & (a > 0)
    safe = np.where(finite, a, 1.0)
    exp = np.maximum(np.frexp(safe)[1] - 1, emin)
    step = np.ldexp(1.0, exp - man - r)  # one unit r bits below the kept mantissa
    n = np.floor(safe / step) + (_words(rng) >> np.uint32(32 - r)).astype(np.float64)
    rounded = np.floor(n / 2.0**r) * step * 2.0**r
    return np.where(finite, np.copysign(rounded, t), t)


def _widen(codes: np.ndarray, fmt: type, dst: type, scale: Any) -> np.ndarray:
    """Values of `fmt` codes times the scale, rounded once to `dst` (overflow: inf)."""
    v = codes.astype(np.uint8).view(T.storage_dtype(fmt)).astype(np.float64)
    with np.errstate(invalid="ignore"):
        return T.convert(v * _scale(scale)[..., None] if v.ndim > np.ndim(scale)
                         else v * _scale(scale), dst)


def _insert(old: np.ndarray, field: np.ndarray, width: int, sel: int) -> np.ndarray:
    """`old` words with bits [width*sel, width*sel + width) replaced by `field`."""
    shift = np.uint32(width * sel)
    mask = np.uint32(((1 << width) - 1) << (width * sel))
    return (old & ~mask) | ((field.astype(np.uint32) << shift) & mask)


def _pair(codes0: np.ndarray, codes1: np.ndarray, bits: int) -> np.ndarray:
    return codes0.astype(np.uint32) | (codes1.astype(np.uint32) << np.uint32(bits))


def _unpair(word: Any, bits: int, sel: int, width: int) -> np.ndarray:
    """The two `bits`-wide codes in field `sel` (of `width` bits) of each word, (..., 2)."""
    field = _words(word) >> np.uint32(width * sel)
    mask = np.uint32((1 << bits) - 1)
    return np.stack([field & mask, (field >> np.uint32(bits)) & mask], axis=-1).astype(np.uint8)


# --- fp8 / bf8 pairs ----------------------------------------------------------------------


def _pk_fp8(name: str, fmt: type, src: type, old: Any, values: np.ndarray, scale: Any,
            word_sel: Any, rng: Any = None) -> np.ndarray:
    require(name, GFX950)
    sel = _sel(name, "word_sel", word_sel, 2)
    codes = _narrow(values, src, fmt, scale[..., None] if np.ndim(scale) else scale, rng)
    words = np.ascontiguousarray(np.asarray(old, np.int16)).view(np.uint32)[..., 0]
    out = _insert(words, _pair(codes[..., 0], codes[..., 1], 8), 16, sel)
    return out[..., None].view(np.int16)


@lane_wise
def cvt_scalef32_pk_fp8_f32(old: Any, src0: Any, src1: Any, scale: Any,
                            word_sel: Any) -> np.ndarray:
    """short2(old) with word `word_sel` = fp8(src0 / scale), fp8(src1 / scale) (low byte
    src0): V_CVT_SCALEF32_PK_FP8_F32."""
    return _pk_fp8("cvt_scalef32_pk_fp8_f32", T.float8, T.float32, old,
                   np.stack(np.broadcast_arrays(src0, src1), -1), np.asarray(scale), word_sel)


@lane_wise
def cvt_scalef32_pk_bf8_f32(old: Any, src0: Any, src1: Any, scale: Any,
                            word_sel: Any) -> np.ndarray:
    """As `cvt_scalef32_pk_fp8_f32`, to bf8 (e5m2)."""
    return _pk_fp8("cvt_scalef32_pk_bf8_f32", T.bfloat8, T.float32, old,
                   np.stack(np.broadcast_arrays(src0, src1), -1), np.asarray(scale), word_sel)


def _pk_from_fp8(name: str, fmt: type, dst: type, src: Any, scale: Any,
                 word_sel: Any) -> np.ndarray:
    require(name, GFX950)
    sel = _sel(name, "word_sel", word_sel, 2)
    return _widen(_unpair(src, 8, sel, 16), fmt, dst, scale)


@lane_wise
def cvt_scalef32_pk_f32_fp8(src: Any, scale: Any, word_sel: Any) -> np.ndarray:
    """float2 of the two fp8 in word `word_sel` of `src`, times scale."""
    return _pk_from_fp8("cvt_scalef32_pk_f32_fp8", T.float8, T.float32, src, scale, word_sel)


@lane_wise
def cvt_scalef32_pk_f32_bf8(src: Any, scale: Any, word_sel: Any) -> np.ndarray:
    """float2 of the two bf8 in word `word_sel` of `src`, times scale."""
    return _pk_from_fp8("cvt_scalef32_pk_f32_bf8", T.bfloat8, T.float32, src, scale, word_sel)


def _sr_fp8(name: str, fmt: type, old: Any, src: Any, rng: Any, scale: Any,
            byte_sel: Any, src_type: type = T.float32) -> np.ndarray:
    require(name, GFX950)
    sel = _sel(name, "byte_sel", byte_sel, 4)
    codes = _narrow(src, src_type, fmt, scale, rng)
    return _insert(_words(old), codes, 8, sel).view(np.int32)


@lane_wise
def cvt_scalef32_sr_fp8_f32(old: Any, src: Any, rng: Any, scale: Any,
                            byte_sel: Any) -> np.ndarray:
    """int(old) with byte `byte_sel` = fp8(src / scale), stochastically rounded with `rng`."""
    return _sr_fp8("cvt_scalef32_sr_fp8_f32", T.float8, old, src, rng, scale, byte_sel)


@lane_wise
def cvt_scalef32_sr_bf8_f32(old: Any, src: Any, rng: Any, scale: Any,
                            byte_sel: Any) -> np.ndarray:
    """As `cvt_scalef32_sr_fp8_f32`, to bf8 (e5m2)."""
    return _sr_fp8("cvt_scalef32_sr_bf8_f32", T.bfloat8, old, src, rng, scale, byte_sel)


# --- fp4 pairs ----------------------------------------------------------------------------


def _pk_fp4(name: str, old: Any, values: np.ndarray, src: type, scale: Any, sel: Any,
            rng: Any = None) -> np.ndarray:
    require(name, GFX950)
    index = _sel(name, "dst_sel_index", sel, 4)
    scale = np.asarray(scale)
    codes = _narrow(values, src, T.float4_e2m1, scale[..., None] if scale.ndim else scale,
                    None if rng is None else np.asarray(rng)[..., None])
    return _insert(_words(old), _pair(codes[..., 0], codes[..., 1], 4), 8, index)


@lane_wise
def cvt_scalef32_pk_fp4_f32(old: Any, src0: Any, src1: Any, scale: Any,
                            dst_sel_index: Any) -> np.ndarray:
    """uint(old) with byte `dst_sel_index` = fp4(src0 / scale) (low nibble), fp4(src1 /
    scale): V_CVT_SCALEF32_PK_FP4_F32."""
    return _pk_fp4("cvt_scalef32_pk_fp4_f32", old,
                   np.stack(np.broadcast_arrays(src0, src1), -1), T.float32, scale,
                   dst_sel_index)


@lane_wise
def cvt_scalef32_sr_pk_fp4_f32(old: Any, src: Any, rng: Any, scale: Any,
                               dst_sel_index: Any) -> np.ndarray:
    """As `cvt_scalef32_pk_fp4_f32` from a float2, stochastically rounded with `rng`."""
    return _pk_fp4("cvt_scalef32_sr_pk_fp4_f32", old, np.asarray(src), T.float32, scale,
                   dst_sel_index, rng)


@lane_wise
def cvt_scalef32_pk_f32_fp4(src: Any, scale: Any, src_sel_index: Any) -> np.ndarray:
    """float2 of the two fp4 in byte `src_sel_index` of `src` (low nibble first), times
    scale."""
    name = "cvt_scalef32_pk_f32_fp4"
    require(name, GFX950)
    sel = _sel(name, "src_sel_index", src_sel_index, 4)
    return _widen(_unpair(src, 4, sel, 8), T.float4_e2m1, T.float32, scale)


# --- fp6 / bf6: 32 values in 6 dwords -----------------------------------------------------


def _pk32_to(name: str, fmt: type, src_type: type, src: Any, scale: Any,
             rng: Any = None) -> np.ndarray:
    require(name, GFX950)
    values = np.asarray(src)
    if values.shape[-1:] != (32,):
        raise ModifierError(f"__builtin_amdgcn_{name}: src must hold 32 values per lane, "
                            f"got shape {values.shape}")
    scale = np.asarray(scale)[..., None]
    rng = None if rng is None else np.asarray(rng)[..., None]
    codes = _narrow(values, src_type, fmt, scale, rng)
    return T.pack(codes.view(T.storage_dtype(fmt)), fmt)


def _pk32_from(name: str, fmt: type, dst: type, src: Any, scale: Any) -> np.ndarray:
    require(name, GFX950)
    codes = T.unpack(_words(src), fmt).view(np.uint8)
    return _widen(codes, fmt, dst, np.asarray(scale)[..., None])


@lane_wise
def cvt_scalef32_pk32_fp6_f16(src: Any, scale: Any) -> np.ndarray:
    """uint6 of the 32 half values / scale as fp6 (e2m3), value e at bits 6e."""
    return _pk32_to("cvt_scalef32_pk32_fp6_f16", T.float6_e2m3, T.float16, src, scale)


@lane_wise
def cvt_scalef32_pk32_bf6_f16(src: Any, scale: Any) -> np.ndarray:
    """uint6 of the 32 half values / scale as bf6 (e3m2)."""
    return _pk32_to("cvt_scalef32_pk32_bf6_f16", T.float6_e3m2, T.float16, src, scale)


@lane_wise
def cvt_scalef32_pk32_fp6_bf16(src: Any, scale: Any) -> np.ndarray:
    """uint6 of the 32 bf16 values / scale as fp6 (e2m3)."""
    return _pk32_to("cvt_scalef32_pk32_fp6_bf16", T.float6_e2m3, T.bfloat16, src, scale)


@lane_wise
def cvt_scalef32_pk32_bf6_bf16(src: Any, scale: Any) -> np.ndarray:
    """uint6 of the 32 bf16 values / scale as bf6 (e3m2)."""
    return _pk32_to("cvt_scalef32_pk32_bf6_bf16", T.float6_e3m2, T.bfloat16, src, scale)


@lane_wise
def cvt_scalef32_sr_pk32_fp6_f32(src: Any, rng: Any, scale: Any) -> np.ndarray:
    """uint6 of the 32 floats / scale as fp6 (e2m3), stochastically rounded with `rng`."""
    return _pk32_to("cvt_scalef32_sr_pk32_fp6_f32", T.float6_e2m3, T.float32, src, scale, rng)


@lane_wise
def cvt_scalef32_sr_pk32_bf6_f32(src: Any, rng: Any, scale: Any) -> np.ndarray:
    """uint6 of the 32 floats / scale as bf6 (e3m2), stochastically rounded with `rng`."""
    return _pk32_to("cvt_scalef32_sr_pk32_bf6_f32", T.float6_e3m2, T.float32, src, scale, rng)


@lane_wise
def cvt_scalef32_pk32_f32_fp6(src: Any, scale: Any) -> np.ndarray:
    """float32 x 32 of the fp6 (e2m3) values in the 6 dwords of `src`, times scale."""
    return _pk32_from("cvt_scalef32_pk32_f32_fp6", T.float6_e2m3, T.float32, src, scale)


@lane_wise
def cvt_scalef32_pk32_f32_bf6(src: Any, scale: Any) -> np.ndarray:
    """float32 x 32 of the bf6 (e3m2) values in the 6 dwords of `src`, times scale."""
    return _pk32_from("cvt_scalef32_pk32_f32_bf6", T.float6_e3m2, T.float32, src, scale)


# Value order of the 2xpk16 forms: fp6 field 2i of the result is src0[i], field 2i + 1 is
# src1[i]. Source: gem5's gfx950 model, gem5/gem5 src/arch/amdgpu/vega/insts/vop3_cvt.hh
# @ 613f788 (Inst_VOP3__V_CVT_SCALEF32_2XPK16_F32 builds its 32 "components" from dword 2i
# = src0[i] and 2i + 1 = src1[i]); Composable Kernel's gfx950 code agrees (it passes the
# even values of a 32-value block as src0 and the odd ones as src1). HIP's host fallback of
# __hipext_ocp_fp6x32_{e2m3,e3m2} disagrees: it concatenates (src0 to fields 0-15, src1 to
# 16-31) while its device path calls this builtin; the instruction model wins here.
def _2xpk16(name: str, fmt: type, src0: Any, src1: Any, scale: Any) -> np.ndarray:
    require(name, GFX950)
    a, b = np.asarray(src0), np.asarray(src1)
    if a.shape[-1:] != (16,) or b.shape[-1:] != (16,) or a.shape[:-1] != b.shape[:-1]:
        raise ModifierError(f"__builtin_amdgcn_{name}: src0 and src1 must hold 16 floats "
                            f"per lane each, for the same lanes; got shapes {a.shape} and "
                            f"{b.shape}")
    interleaved = np.stack([a, b], axis=-1).reshape(a.shape[:-1] + (32,))
    return _pk32_to(name, fmt, T.float32, interleaved, scale)


@lane_wise
def cvt_scalef32_2xpk16_fp6_f32(src0: Any, src1: Any, scale: Any) -> np.ndarray:
    """uint6 of 32 floats / scale as fp6 (e2m3): field 2i from src0[i], 2i + 1 from
    src1[i] (16 floats each)."""
    return _2xpk16("cvt_scalef32_2xpk16_fp6_f32", T.float6_e2m3, src0, src1, scale)


@lane_wise
def cvt_scalef32_2xpk16_bf6_f32(src0: Any, src1: Any, scale: Any) -> np.ndarray:
    """uint6 of 32 floats / scale as bf6 (e3m2), interleaved as the fp6 form."""
    return _2xpk16("cvt_scalef32_2xpk16_bf6_f32", T.float6_e3m2, src0, src1, scale)


# --- f32 -> bf16 / f16 with stochastic rounding -------------------------------------------


def _sr_half(name: str, dst: type, old: Any, src: Any, rng: Any, sel: Any) -> np.ndarray:
    require(name, GFX950)
    index = _sel(name, "sel", sel, 2)
    value = T.convert(_stochastic(np.asarray(src, np.float32).astype(np.float64), T.float32,
                                  dst, rng), dst)
    out = np.array(np.asarray(old, T.storage_dtype(dst)), copy=True)
    out[..., index] = value
    return out


@lane_wise
def cvt_sr_bf16_f32(old: Any, src: Any, rng: Any, sel: Any) -> np.ndarray:
    """bf16x2(old) with element `sel` = bf16(src) stochastically rounded: the top 16 bits of
    `rng` added below bf16's mantissa, then truncation (overflow to inf)."""
    return _sr_half("cvt_sr_bf16_f32", T.bfloat16, old, src, rng, sel)


@lane_wise
def cvt_sr_f16_f32(old: Any, src: Any, rng: Any, sel: Any) -> np.ndarray:
    """half2(old) with element `sel` = f16(src) stochastically rounded with the top 13 bits
    of `rng`."""
    return _sr_half("cvt_sr_f16_f32", T.float16, old, src, rng, sel)


# --- the f16/bf16 forms and single values ---------------------------------------------------


@lane_wise
def cvt_scalef32_pk_fp8_f16(old: Any, src: Any, scale: Any, word_sel: Any) -> np.ndarray:
    """short2(old) with word `word_sel` = the half2 `src` / scale as two fp8."""
    return _pk_fp8("cvt_scalef32_pk_fp8_f16", T.float8, T.float16, old, np.asarray(src),
                   np.asarray(scale), word_sel)


@lane_wise
def cvt_scalef32_pk_fp8_bf16(old: Any, src: Any, scale: Any, word_sel: Any) -> np.ndarray:
    """short2(old) with word `word_sel` = the bf16x2 `src` / scale as two fp8."""
    return _pk_fp8("cvt_scalef32_pk_fp8_bf16", T.float8, T.bfloat16, old, np.asarray(src),
                   np.asarray(scale), word_sel)


@lane_wise
def cvt_scalef32_pk_bf8_f16(old: Any, src: Any, scale: Any, word_sel: Any) -> np.ndarray:
    """short2(old) with word `word_sel` = the half2 `src` / scale as two bf8."""
    return _pk_fp8("cvt_scalef32_pk_bf8_f16", T.bfloat8, T.float16, old, np.asarray(src),
                   np.asarray(scale), word_sel)


@lane_wise
def cvt_scalef32_pk_bf8_bf16(old: Any, src: Any, scale: Any, word_sel: Any) -> np.ndarray:
    """short2(old) with word `word_sel` = the bf16x2 `src` / scale as two bf8."""
    return _pk_fp8("cvt_scalef32_pk_bf8_bf16", T.bfloat8, T.bfloat16, old, np.asarray(src),
                   np.asarray(scale), word_sel)


@lane_wise
def cvt_scalef32_pk_f16_fp8(src: Any, scale: Any, word_sel: Any) -> np.ndarray:
    """half2 of the two fp8 in word `word_sel` of `src`, times scale."""
    return _pk_from_fp8("cvt_scalef32_pk_f16_fp8", T.float8, T.float16, src, scale, word_sel)


@lane_wise
def cvt_scalef32_pk_bf16_fp8(src: Any, scale: Any, word_sel: Any) -> np.ndarray:
    """bf16x2 of the two fp8 in word `word_sel` of `src`, times scale."""
    return _pk_from_fp8("cvt_scalef32_pk_bf16_fp8", T.float8, T.bfloat16, src, scale, word_sel)


@lane_wise
def cvt_scalef32_pk_f16_bf8(src: Any, scale: Any, word_sel: Any) -> np.ndarray:
    """half2 of the two bf8 in word `word_sel` of `src`, times scale."""
    return _pk_from_fp8("cvt_scalef32_pk_f16_bf8", T.bfloat8, T.float16, src, scale, word_sel)


@lane_wise
def cvt_scalef32_pk_bf16_bf8(src: Any, scale: Any, word_sel: Any) -> np.ndarray:
    """bf16x2 of the two bf8 in word `word_sel` of `src`, times scale."""
    return _pk_from_fp8("cvt_scalef32_pk_bf16_bf8", T.bfloat8, T.bfloat16, src, scale,
                        word_sel)


def _one_from_fp8(name: str, fmt: type, dst: type, src: Any, scale: Any,
                  byte_sel: Any) -> np.ndarray:
    require(name, GFX950)
    sel = _sel(name, "byte_sel", byte_sel, 4)
    codes = ((_words(src) >> np.uint32(8 * sel)) & np.uint32(0xFF)).astype(np.uint8)
    return _widen(codes, fmt, dst, scale)


@lane_wise
def cvt_scalef32_f32_fp8(src: Any, scale: Any, byte_sel: Any) -> np.ndarray:
    """float of the fp8 in byte `byte_sel` of `src`, times scale."""
    return _one_from_fp8("cvt_scalef32_f32_fp8", T.float8, T.float32, src, scale, byte_sel)


@lane_wise
def cvt_scalef32_f32_bf8(src: Any, scale: Any, byte_sel: Any) -> np.ndarray:
    """float of the bf8 in byte `byte_sel` of `src`, times scale."""
    return _one_from_fp8("cvt_scalef32_f32_bf8", T.bfloat8, T.float32, src, scale, byte_sel)


def _half_from_fp8(name: str, fmt: type, old: Any, src: Any, scale: Any, byte_sel: Any,
                   word_sel: Any) -> np.ndarray:
    word = _sel(name, "word_sel", word_sel, 2)
    value = _one_from_fp8(name, fmt, T.float16, src, scale, byte_sel)
    out = np.array(np.asarray(old, np.float16), copy=True)
    out[..., word] = value
    return out


@lane_wise
def cvt_scalef32_f16_fp8(old: Any, src: Any, scale: Any, byte_sel: Any,
                         word_sel: Any) -> np.ndarray:
    """half2(old) with element `word_sel` = the fp8 in byte `byte_sel` of `src`, times
    scale."""
    return _half_from_fp8("cvt_scalef32_f16_fp8", T.float8, old, src, scale, byte_sel,
                          word_sel)


@lane_wise
def cvt_scalef32_f16_bf8(old: Any, src: Any, scale: Any, byte_sel: Any,
                         word_sel: Any) -> np.ndarray:
    """half2(old) with element `word_sel` = the bf8 in byte `byte_sel` of `src`, times
    scale."""
    return _half_from_fp8("cvt_scalef32_f16_bf8", T.bfloat8, old, src, scale, byte_sel,
                          word_sel)


@lane_wise
def cvt_scalef32_sr_fp8_f16(old: Any, src: Any, rng: Any, scale: Any,
                            byte_sel: Any) -> np.ndarray:
    """int(old) with byte `byte_sel` = fp8(half src / scale), stochastically rounded."""
    return _sr_fp8("cvt_scalef32_sr_fp8_f16", T.float8, old, src, rng, scale, byte_sel,
                   T.float16)


@lane_wise
def cvt_scalef32_sr_fp8_bf16(old: Any, src: Any, rng: Any, scale: Any,
                             byte_sel: Any) -> np.ndarray:
    """int(old) with byte `byte_sel` = fp8(bf16 src / scale), stochastically rounded."""
    return _sr_fp8("cvt_scalef32_sr_fp8_bf16", T.float8, old, src, rng, scale, byte_sel,
                   T.bfloat16)


@lane_wise
def cvt_scalef32_sr_bf8_f16(old: Any, src: Any, rng: Any, scale: Any,
                            byte_sel: Any) -> np.ndarray:
    """int(old) with byte `byte_sel` = bf8(half src / scale), stochastically rounded."""
    return _sr_fp8("cvt_scalef32_sr_bf8_f16", T.bfloat8, old, src, rng, scale, byte_sel,
                   T.float16)


@lane_wise
def cvt_scalef32_sr_bf8_bf16(old: Any, src: Any, rng: Any, scale: Any,
                             byte_sel: Any) -> np.ndarray:
    """int(old) with byte `byte_sel` = bf8(bf16 src / scale), stochastically rounded."""
    return _sr_fp8("cvt_scalef32_sr_bf8_bf16", T.bfloat8, old, src, rng, scale, byte_sel,
                   T.bfloat16)


@lane_wise
def cvt_scalef32_pk_fp4_f16(old: Any, src: Any, scale: Any, dst_sel_index: Any) -> np.ndarray:
    """uint(old) with byte `dst_sel_index` = the half2 `src` / scale as two fp4."""
    return _pk_fp4("cvt_scalef32_pk_fp4_f16", old, np.asarray(src), T.float16, scale,
                   dst_sel_index)


@lane_wise
def cvt_scalef32_pk_fp4_bf16(old: Any, src: Any, scale: Any,
                             dst_sel_index: Any) -> np.ndarray:
    """uint(old) with byte `dst_sel_index` = the bf16x2 `src` / scale as two fp4."""
    return _pk_fp4("cvt_scalef32_pk_fp4_bf16", old, np.asarray(src), T.bfloat16, scale,
                   dst_sel_index)


@lane_wise
def cvt_scalef32_sr_pk_fp4_f16(old: Any, src: Any, rng: Any, scale: Any,
                               dst_sel_index: Any) -> np.ndarray:
    """As `cvt_scalef32_pk_fp4_f16`, stochastically rounded with `rng`."""
    return _pk_fp4("cvt_scalef32_sr_pk_fp4_f16", old, np.asarray(src), T.float16, scale,
                   dst_sel_index, rng)


@lane_wise
def cvt_scalef32_sr_pk_fp4_bf16(old: Any, src: Any, rng: Any, scale: Any,
                                dst_sel_index: Any) -> np.ndarray:
    """As `cvt_scalef32_pk_fp4_bf16`, stochastically rounded with `rng`."""
    return _pk_fp4("cvt_scalef32_sr_pk_fp4_bf16", old, np.asarray(src), T.bfloat16, scale,
                   dst_sel_index, rng)


def _pk_from_fp4(name: str, dst: type, src: Any, scale: Any, sel: Any) -> np.ndarray:
    require(name, GFX950)
    index = _sel(name, "src_sel_index", sel, 4)
    return _widen(_unpair(src, 4, index, 8), T.float4_e2m1, dst, scale)


@lane_wise
def cvt_scalef32_pk_f16_fp4(src: Any, scale: Any, src_sel_index: Any) -> np.ndarray:
    """half2 of the two fp4 in byte `src_sel_index` of `src`, times scale."""
    return _pk_from_fp4("cvt_scalef32_pk_f16_fp4", T.float16, src, scale, src_sel_index)


@lane_wise
def cvt_scalef32_pk_bf16_fp4(src: Any, scale: Any, src_sel_index: Any) -> np.ndarray:
    """bf16x2 of the two fp4 in byte `src_sel_index` of `src`, times scale."""
    return _pk_from_fp4("cvt_scalef32_pk_bf16_fp4", T.bfloat16, src, scale, src_sel_index)


@lane_wise
def cvt_scalef32_pk32_f16_fp6(src: Any, scale: Any) -> np.ndarray:
    """half x 32 of the fp6 (e2m3) values in the 6 dwords of `src`, times scale."""
    return _pk32_from("cvt_scalef32_pk32_f16_fp6", T.float6_e2m3, T.float16, src, scale)


@lane_wise
def cvt_scalef32_pk32_bf16_fp6(src: Any, scale: Any) -> np.ndarray:
    """bf16 x 32 of the fp6 (e2m3) values in the 6 dwords of `src`, times scale."""
    return _pk32_from("cvt_scalef32_pk32_bf16_fp6", T.float6_e2m3, T.bfloat16, src, scale)


@lane_wise
def cvt_scalef32_pk32_f16_bf6(src: Any, scale: Any) -> np.ndarray:
    """half x 32 of the bf6 (e3m2) values in the 6 dwords of `src`, times scale."""
    return _pk32_from("cvt_scalef32_pk32_f16_bf6", T.float6_e3m2, T.float16, src, scale)


@lane_wise
def cvt_scalef32_pk32_bf16_bf6(src: Any, scale: Any) -> np.ndarray:
    """bf16 x 32 of the bf6 (e3m2) values in the 6 dwords of `src`, times scale."""
    return _pk32_from("cvt_scalef32_pk32_bf16_bf6", T.float6_e3m2, T.bfloat16, src, scale)


@lane_wise
def cvt_scalef32_sr_pk32_fp6_f16(src: Any, rng: Any, scale: Any) -> np.ndarray:
    """uint6 of the 32 halves / scale as fp6 (e2m3), stochastically rounded with `rng`."""
    return _pk32_to("cvt_scalef32_sr_pk32_fp6_f16", T.float6_e2m3, T.float16, src, scale, rng)


@lane_wise
def cvt_scalef32_sr_pk32_fp6_bf16(src: Any, rng: Any, scale: Any) -> np.ndarray:
    """uint6 of the 32 bf16 / scale as fp6 (e2m3), stochastically rounded with `rng`."""
    return _pk32_to("cvt_scalef32_sr_pk32_fp6_bf16", T.float6_e2m3, T.bfloat16, src, scale,
                    rng)


@lane_wise
def cvt_scalef32_sr_pk32_bf6_f16(src: Any, rng: Any, scale: Any) -> np.ndarray:
    """uint6 of the 32 halves / scale as bf6 (e3m2), stochastically rounded with `rng`."""
    return _pk32_to("cvt_scalef32_sr_pk32_bf6_f16", T.float6_e3m2, T.float16, src, scale, rng)


@lane_wise
def cvt_scalef32_sr_pk32_bf6_bf16(src: Any, rng: Any, scale: Any) -> np.ndarray:
    """uint6 of the 32 bf16 / scale as bf6 (e3m2), stochastically rounded with `rng`."""
    return _pk32_to("cvt_scalef32_sr_pk32_bf6_bf16", T.float6_e3m2, T.bfloat16, src, scale,
                    rng)

MX_CONVERT_BUILTINS = (
    "cvt_scalef32_pk_fp8_f32",
    "cvt_scalef32_pk_bf8_f32",
    "cvt_scalef32_pk_f32_fp8",
    "cvt_scalef32_pk_f32_bf8",
    "cvt_scalef32_sr_fp8_f32",
    "cvt_scalef32_sr_bf8_f32",
    "cvt_scalef32_pk_fp4_f32",
    "cvt_scalef32_sr_pk_fp4_f32",
    "cvt_scalef32_pk_f32_fp4",
    "cvt_scalef32_pk32_fp6_f16",
    "cvt_scalef32_pk32_bf6_f16",
    "cvt_scalef32_pk32_fp6_bf16",
    "cvt_scalef32_pk32_bf6_bf16",
    "cvt_scalef32_sr_pk32_fp6_f32",
    "cvt_scalef32_sr_pk32_bf6_f32",
    "cvt_scalef32_pk32_f32_fp6",
    "cvt_scalef32_pk32_f32_bf6",
    "cvt_scalef32_2xpk16_fp6_f32",
    "cvt_scalef32_2xpk16_bf6_f32",
    "cvt_sr_bf16_f32",
    "cvt_sr_f16_f32",
    "cvt_scalef32_pk_fp8_f16",
    "cvt_scalef32_pk_fp8_bf16",
    "cvt_scalef32_pk_bf8_f16",
    "cvt_scalef32_pk_bf8_bf16",
    "cvt_scalef32_pk_f16_fp8",
    "cvt_scalef32_pk_bf16_fp8",
    "cvt_scalef32_pk_f16_bf8",
    "cvt_scalef32_pk_bf16_bf8",
    "cvt_scalef32_f32_fp8",
    "cvt_scalef32_f32_bf8",
    "cvt_scalef32_f16_fp8",
    "cvt_scalef32_f16_bf8",
    "cvt_scalef32_sr_fp8_f16",
    "cvt_scalef32_sr_fp8_bf16",
    "cvt_scalef32_sr_bf8_f16",
    "cvt_scalef32_sr_bf8_bf16",
    "cvt_scalef32_pk_fp4_f16",
    "cvt_scalef32_pk_fp4_bf16",
    "cvt_scalef32_sr_pk_fp4_f16",
    "cvt_scalef32_sr_pk_fp4_bf16",
    "cvt_scalef32_pk_f16_fp4",
    "cvt_scalef32_pk_bf16_fp4",
    "cvt_scalef32_pk32_f16_fp6",
    "cvt_scalef32_pk32_bf16_fp6",
    "cvt_scalef32_pk32_f16_bf6",
    "cvt_scalef32_pk32_bf16_bf6",
    "cvt_scalef32_sr_pk32_fp6_f16",
    "cvt_scalef32_sr_pk32_fp6_bf16",
    "cvt_scalef32_sr_pk32_bf6_f16",
    "cvt_scalef32_sr_pk32_bf6_bf16",
)
