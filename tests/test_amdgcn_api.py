"""The public `rocwmma_py.amdgcn` builtins as an API: names, signatures, availability per
architecture, operand shapes and dtypes, errors, target selection and determinism.

Independent oracles: the builtin tables of rocwmma-notes §3.2/§3.3 (which targets have which
builtin), LLVM's builtin argument lists, seed 004's multi-block table (blocks per MFMA), the
AMIC README's register counts (bytes per lane) and the fact that with all-ones A and B every
element of D is C + K whatever the layout.
"""

from __future__ import annotations

import inspect
import re
import zlib

import ml_dtypes
import numpy as np
import pytest

from rocwmma_py import OperandShapeError, amdgcn, kernel
from rocwmma_py import types as T
from rocwmma_py.arch import ARCH_NAMES, get_arch
from rocwmma_py.runtime import Lanes, use_arch

pytestmark = pytest.mark.smoke

GFX9 = ["gfx908", "gfx90a", "gfx942", "gfx950"]
GFX11 = ["gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150", "gfx1151", "gfx1152", "gfx1153"]
GFX12 = ["gfx1200", "gfx1201", "gfx1170"]  # gfx1170: RDNA4's WMMA set (sparse.md §7)
GFX1250 = ["gfx1250", "gfx1251"]


def call(arch: str, builtin: str, *args, **kwargs):
    with use_arch(arch):
        return getattr(amdgcn, builtin)(*args, **kwargs)


# ===========================================================================================
# An independent description of every builtin, derived from its name
# ===========================================================================================

# seed 004 (CDNA2 table) + rocwmma-notes: the multi-block MFMAs and their block counts
MULTI_BLOCK = {
    "mfma_f32_32x32x1f32": 2, "mfma_f32_16x16x1f32": 4, "mfma_f32_4x4x1f32": 16,
    "mfma_f32_32x32x4f16": 2, "mfma_f32_16x16x4f16": 4, "mfma_f32_4x4x4f16": 16,
    "mfma_i32_32x32x4i8": 2, "mfma_i32_16x16x4i8": 4, "mfma_i32_4x4x4i8": 16,
    "mfma_f32_32x32x2bf16": 2, "mfma_f32_16x16x2bf16": 4, "mfma_f32_4x4x2bf16": 16,
    "mfma_f32_32x32x4bf16_1k": 2, "mfma_f32_16x16x4bf16_1k": 4, "mfma_f32_4x4x4bf16_1k": 16,
    "mfma_f64_4x4x4f64": 4,
}
PLAIN = {"f32": np.float32, "xf32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16,
         "bf16_1k": ml_dtypes.bfloat16, "i8": np.int8, "iu8": np.int8, "iu4": ml_dtypes.int4,
         "f64": np.float64, "i32": np.int32}
FP8 = {  # (gfx942 NANOO, OCP elsewhere)
    "fp8": (ml_dtypes.float8_e4m3fnuz, ml_dtypes.float8_e4m3fn),
    "bf8": (ml_dtypes.float8_e5m2fnuz, ml_dtypes.float8_e5m2),
}
MFMA_RE = re.compile(r"mfma_(f32|i32|f64)_(\d+)x(\d+)x(\d+)_?(.+)$")
WMMA_RE = re.compile(r"wmma_(f32|f16|bf16|i32)_16x16x(\d+)_(.+)_w(32|64)(_gfx12)?$")
# 4:2 sparse (sparse.md §3): A holds K/2 stored values, B is dense; an `int index` per lane
SMFMAC_RE = re.compile(r"smfmac_(f32|i32)_(\d+)x(\d+)x(\d+)_(.+)$")
SWMMAC_RE = re.compile(r"swmmac_(f32|f16|bf16|i32)_16x16x(\d+)_(.+)_w(32|64)$")
# GFX12.5 (LLVM BuiltinsAMDGPU.td @ 008ba4314e76): no suffix, wave32, modifier arguments
WMMA1250_RE = re.compile(r"(wmma|swmmac)_(f32|f16|bf16|bf16f32|i32|f64)_16x16x(\d+)_([a-z0-9]+"
                         r"(?:_[a-z0-9]+)?)$")
REUSE = ("matrix_a_reuse", "matrix_b_reuse")


def _describe_1250(builtin: str) -> dict | None:
    """Arguments as TD's ArgNames (the sparse ones after the dense ones), 16 lanes per K half:
    A K/2 elements per lane (K/4 stored when sparse), B K/2, C/D 8."""
    m = WMMA1250_RE.match(builtin)
    if not m or builtin.endswith(("_w32", "_w64", "_gfx12")) or "x16_" in builtin:
        return None
    kind, c_name, kk, ab = m.groups()
    kk, sparse = int(kk), kind == "swmmac"
    ta, tb = _types(ab, ocp=True)
    if ab == "iu8":
        args = ("a_sign", "a", "b_sign", "b", "c", *(("index",) if sparse else ()), *REUSE,
                "clamp")
    elif ab.split("_")[0] in FP8:
        args = ("a", "b", "c", "index", *REUSE) if sparse else ("a", "b", "c_mod", "c", *REUSE)
    elif sparse:
        args = ("a_neg", "a", "b_neg", "b", "c", "index", *REUSE)
    else:
        args = ("a_neg", "a", "b_neg", "b", "c_mod", "c", *REUSE)
    tc = np.float32 if c_name == "bf16f32" else PLAIN[c_name]
    return dict(args=args, lanes=32, ta=ta, tb=tb, tc=tc, k=kk // 2 if sparse else kk,
                n_a=kk // 4 if sparse else kk // 2, n_b=kk // 2, n_c=8,
                td=ml_dtypes.bfloat16 if c_name == "bf16f32" else tc)


# gfx950 MX (LLVM BuiltinsAMDGPU.td): v8i32 a, b; float4/float16 c; cbsz, blgp = formats
# (0 = fp8 e4m3, the OCP one), opsel_a, int scale_a, opsel_b, int scale_b
MFMA_SCALE_RE = re.compile(r"mfma_scale_f32_(\d+)x(\d+)x(\d+)_f8f6f4$")
MFMA_SCALE_ARGS = ("a", "b", "c", "cbsz", "blgp", "opsel_a", "scale_a", "opsel_b", "scale_b")


# gfx1250 MX WMMA (same .td): format codes (f8f6f4: 0 = fp8, A/B v16i32), per operand scale
# selector, scale format and scale word (int; long for scale16); f4: v16i32 A of 32 rows, v8i32 B
WMMA1250_MX_RE = re.compile(r"wmma_(scale16_|scale_|)f32_(16|32)x16x128_(f8f6f4|f4)$")
MX_SCALE_ARGS = ("matrix_a_scale", "matrix_a_scale_fmt", "matrix_a_scale_exp", "matrix_b_scale",
                 "matrix_b_scale_fmt", "matrix_b_scale_exp", *REUSE)


def _describe_1250_mx(builtin: str) -> dict | None:
    """E8M0 127 (1.0) in every scale byte, so all-ones A and B give C + K."""
    if not (m := WMMA1250_MX_RE.match(builtin)):
        return None
    scale, rows, ab = m.groups()
    fmt = ("matrix_a_fmt", "a", "matrix_b_fmt", "b") if ab == "f8f6f4" else ("a", "b")
    t = FP8["fp8"][1] if ab == "f8f6f4" else ml_dtypes.float4_e2m1fn
    return dict(args=(*fmt, "c_mod", "c", *(MX_SCALE_ARGS if scale else ())), lanes=32, ta=t,
                tb=t, tc=np.float32, k=128, n_a=int(rows) * 4 if ab == "f4" else 64, n_b=64,
                n_c=int(rows) // 2, one_scale=int("7f" * (8 if scale == "scale16_" else 4), 16))


def _types(ab: str, ocp: bool):
    if ab.split("_")[0] in FP8:
        return tuple(FP8[x][int(ocp)] for x in ab.split("_"))
    return PLAIN[ab], PLAIN[ab]


def describe(builtin: str, arch: str) -> dict:
    """Expected argument names, lanes, A/B/C element types, per-lane element counts and the
    K of all-ones A and B (the products one output sums: K/2 for the sparse ones)."""
    if (spec := _describe_1250_mx(builtin) or _describe_1250(builtin)) is not None:
        return spec
    if m := MFMA_SCALE_RE.match(builtin):
        mm, nn, kk = (int(x) for x in m.groups())
        return dict(args=MFMA_SCALE_ARGS, lanes=64, ta=FP8["fp8"][1], tb=FP8["fp8"][1],
                    tc=np.float32, k=kk, n_a=mm * kk // 64, n_b=nn * kk // 64,
                    n_c=mm * nn // 64)
    if m := SMFMAC_RE.match(builtin):
        c_name, mm, nn, kk, ab = m.groups()
        mm, nn, kk = int(mm), int(nn), int(kk)
        ta, tb = _types(ab, ocp=arch != "gfx942")
        return dict(args=("a", "b", "c", "index", "cbsz", "abid"), lanes=64, ta=ta, tb=tb,
                    tc=PLAIN[c_name], k=kk // 2, n_a=mm * kk // 2 // 64, n_b=nn * kk // 64,
                    n_c=mm * nn // 64)
    if m := SWMMAC_RE.match(builtin):
        c_name, kk, ab, wave = m.groups()
        kk, wave = int(kk), int(wave)
        ta, tb = _types(ab, ocp=True)
        iu = ("sgn_a", "a", "sgn_b", "b", "c", "index", "clamp")
        bits = T.bits(ta)
        return dict(args=iu if c_name == "i32" else ("a", "b", "c", "index"), lanes=wave,
                    ta=ta, tb=tb, tc=PLAIN[c_name], k=kk // 2,
                    n_a=max(32 // bits, 8 * kk // wave), n_b=max(32 // bits, 16 * kk // wave),
                    n_c=256 // wave)
    if m := MFMA_RE.match(builtin):
        c_name, mm, nn, kk, ab = m.groups()
        mm, nn, kk = int(mm), int(nn), int(kk)
        blocks = MULTI_BLOCK.get(builtin, 1)
        if "_" in ab and ab.split("_")[0] in FP8:
            ta, tb = (FP8[x][0 if arch == "gfx942" else 1] for x in ab.split("_"))
        else:
            ta = tb = PLAIN[ab]
        return dict(args=("a", "b", "c", "cbsz", "abid", "blgp"), lanes=64, ta=ta, tb=tb,
                    tc=PLAIN[c_name], k=kk, n_a=mm * kk * blocks // 64,
                    n_b=nn * kk * blocks // 64, n_c=mm * nn * blocks // 64)
    m = WMMA_RE.match(builtin)
    assert m, builtin
    c_name, kk, ab, wave, gfx12 = m.groups()
    kk, wave = int(kk), int(wave)
    if ab.split("_")[0] in FP8:
        ta, tb = (FP8[x][1] for x in ab.split("_"))
    else:
        ta = tb = PLAIN[ab]
    tc = PLAIN[c_name]
    if c_name == "i32" and ab in ("iu8", "iu4"):
        args = ("sgn_a", "a", "sgn_b", "b", "c", "clamp")
    elif c_name in ("f16", "bf16") and not gfx12:
        args = ("a", "b", "c", "opsel")
    else:
        args = ("a", "b", "c")
    bits = T.bits(ta)
    if gfx12:  # K split over the lanes; at least one VGPR per lane (iu4 w64 ignores 32-63)
        n_ab = max(32 // bits, 16 * kk // wave)
    else:  # gfx11: all 16 K in every lane (replicated)
        n_ab = 16
    n_c = 256 // wave * (2 if T.bits(tc) == 16 and not gfx12 else 1)  # gfx11 16-bit unpacked
    return dict(args=args, lanes=wave, ta=ta, tb=tb, tc=tc, k=kk, n_a=n_ab, n_b=n_ab, n_c=n_c)


def all_pairs():
    for arch in ARCH_NAMES:
        for builtin in sorted(get_arch(arch).instructions):
            yield arch, builtin


PAIRS = list(all_pairs())


# ===========================================================================================
# Names, signatures, availability
# ===========================================================================================


def test_builtins_are_the_union_of_the_instruction_tables():
    union = set().union(*(get_arch(a).instructions for a in ARCH_NAMES))
    assert amdgcn.BUILTINS == sorted(union)
    assert len(set(amdgcn.BUILTINS)) == len(amdgcn.BUILTINS)
    for name in amdgcn.BUILTINS:
        fn = getattr(amdgcn, name)
        assert callable(fn) and fn.__name__ == name
        assert f"__builtin_amdgcn_{name}" in fn.__doc__
        assert name in amdgcn.__all__


@pytest.mark.parametrize("name", amdgcn.BUILTINS)
def test_signature_matches_instruction_args_and_llvm(name):
    params = list(inspect.signature(getattr(amdgcn, name)).parameters.values())
    names = tuple(p.name for p in params)
    assert all(p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD for p in params)
    # like the builtins; the variadic GFX12.5 iu8 forms take an optional trailing clamp
    assert all(p.default is inspect.Parameter.empty or (p.name == "clamp" and p is params[-1]
               and "iu8" in name) for p in params)
    archs = [a for a in ARCH_NAMES if name in get_arch(a).instructions]
    assert archs
    for arch in archs:
        assert amdgcn.instruction(name, arch).args == names
        assert describe(name, arch)["args"] == names


# rocwmma-notes §3.2 / §3.3 (rocWMMA's mfma_impl.hpp / wmma_impl.hpp target lists)
AVAILABILITY = {
    "mfma_f32_16x16x16f16": GFX9,
    "mfma_f32_32x32x8f16": GFX9,
    "mfma_f32_16x16x4f32": GFX9,
    "mfma_f32_32x32x2f32": GFX9,
    "mfma_f32_16x16x32_f16": ["gfx950"],
    "mfma_f32_32x32x16_f16": ["gfx950"],
    "mfma_f32_16x16x8bf16": ["gfx908", "gfx90a"],
    "mfma_f32_32x32x4bf16": ["gfx908", "gfx90a"],
    "mfma_f32_16x16x16bf16_1k": ["gfx90a", "gfx942", "gfx950"],
    "mfma_f32_32x32x8bf16_1k": ["gfx90a", "gfx942", "gfx950"],
    "mfma_f32_16x16x32_bf16": ["gfx950"],
    "mfma_f64_16x16x4f64": ["gfx90a", "gfx942", "gfx950"],
    "mfma_i32_16x16x16i8": ["gfx908", "gfx90a"],
    "mfma_i32_32x32x8i8": ["gfx908", "gfx90a"],
    "mfma_i32_16x16x32_i8": ["gfx942", "gfx950"],
    "mfma_i32_32x32x16_i8": ["gfx942", "gfx950"],
    "mfma_i32_16x16x64_i8": ["gfx950"],
    "mfma_i32_32x32x32_i8": ["gfx950"],
    **{f"mfma_f32_{s}_{a}_{b}": ["gfx942", "gfx950"] for s in ("16x16x32", "32x32x16")
       for a in ("fp8", "bf8") for b in ("fp8", "bf8")},
    # sparse.md §7 (LLVM TD: gfx950-insts)
    "mfma_scale_f32_16x16x128_f8f6f4": ["gfx950"],
    "mfma_scale_f32_32x32x64_f8f6f4": ["gfx950"],
    "mfma_f32_16x16x8_xf32": ["gfx942"],
    "mfma_f32_32x32x4_xf32": ["gfx942"],
    **{f"wmma_{c}_16x16x16_{ab}_w{w}": GFX11 for c, ab in (
        ("f32", "f16"), ("f32", "bf16"), ("f16", "f16"), ("bf16", "bf16"), ("i32", "iu8"),
        ("i32", "iu4")) for w in (32, 64)},
    **{f"wmma_{c}_16x16x16_{ab}_w{w}_gfx12": GFX12 for c, ab in (
        ("f32", "f16"), ("f32", "bf16"), ("f16", "f16"), ("bf16", "bf16"), ("i32", "iu8"),
        ("i32", "iu4"), ("f32", "fp8_fp8"), ("f32", "fp8_bf8"), ("f32", "bf8_fp8"),
        ("f32", "bf8_bf8")) for w in (32, 64)},
    "wmma_i32_16x16x32_iu4_w32_gfx12": GFX12,
    "wmma_i32_16x16x32_iu4_w64_gfx12": GFX12,
    # sparse.md §3: gfx942's 14 SMFMAC (gfx950 keeps them), gfx950's 14, gfx12's 11 x 2
    **{f"smfmac_{c}_{s}_{ab}": ["gfx942", "gfx950"] for c, s, ab in (
        ("f32", "16x16x32", "f16"), ("f32", "32x32x16", "f16"), ("f32", "16x16x32", "bf16"),
        ("f32", "32x32x16", "bf16"), ("i32", "16x16x64", "i8"), ("i32", "32x32x32", "i8"),
        *(("f32", s, f"{a}_{b}") for s in ("16x16x64", "32x32x32") for a in ("fp8", "bf8")
          for b in ("fp8", "bf8")))},
    **{f"smfmac_{c}_{s}_{ab}": ["gfx950"] for c, s, ab in (
        ("f32", "16x16x64", "f16"), ("f32", "32x32x32", "f16"), ("f32", "16x16x64", "bf16"),
        ("f32", "32x32x32", "bf16"), ("i32", "16x16x128", "i8"), ("i32", "32x32x64", "i8"),
        *(("f32", s, f"{a}_{b}") for s in ("16x16x128", "32x32x64") for a in ("fp8", "bf8")
          for b in ("fp8", "bf8")))},
    **{f"swmmac_{c}_16x16x{k}_{ab}_w{w}": GFX12 for c, k, ab in (
        ("f32", 32, "f16"), ("f32", 32, "bf16"), ("f16", 32, "f16"), ("bf16", 32, "bf16"),
        ("i32", 32, "iu8"), ("i32", 32, "iu4"), ("i32", 64, "iu4"),
        *(("f32", 32, f"{a}_{b}") for a in ("fp8", "bf8") for b in ("fp8", "bf8")))
       for w in (32, 64)},
    # LLVM BuiltinsAMDGPU.td @ 008ba4314e76 "GFX1250 WMMA builtins"; the f64 one is gfx1251's
    # (gfx1251-gemm-insts; clang BuiltinsAMDGPUDocs.td @ 08e0d9a8e86b)
    **{f"wmma_{c}_16x16x{k}_{ab}": GFX1250 for c, k, ab in (
        ("f32", 4, "f32"), ("f32", 32, "f16"), ("f32", 32, "bf16"), ("f16", 32, "f16"),
        ("bf16", 32, "bf16"), ("bf16f32", 32, "bf16"), ("i32", 64, "iu8"),
        *((c, k, f"{a}_{b}") for c in ("f32", "f16") for k in (64, 128)
          for a in ("fp8", "bf8") for b in ("fp8", "bf8")))},
    "wmma_f64_16x16x4_f64": ["gfx1251"],
    **{f"wmma_{s}f32_{shape}": GFX1250 for s in ("", "scale_", "scale16_")
       for shape in ("16x16x128_f8f6f4", "32x16x128_f4")},
    **{f"swmmac_{c}_16x16x{k}_{ab}": GFX1250 for c, k, ab in (
        ("f32", 64, "bf16"), ("bf16", 64, "bf16"), ("bf16f32", 64, "bf16"), ("f32", 64, "f16"),
        ("f16", 64, "f16"), ("i32", 128, "iu8"),
        *((c, 128, f"{a}_{b}") for c in ("f32", "f16") for a in ("fp8", "bf8")
          for b in ("fp8", "bf8")))},
}


def test_every_sparse_builtin_is_listed():
    sparse = {n for n in amdgcn.BUILTINS if "smfmac" in n or "swmmac" in n}
    assert sparse == {n for n in AVAILABILITY if "smfmac" in n or "swmmac" in n}
    assert len(sparse) == 28 + 22 + 14


@pytest.mark.parametrize("name", sorted(AVAILABILITY))
def test_builtin_exists_exactly_on_the_documented_targets(name):
    assert name in amdgcn.BUILTINS
    have = [a for a in ARCH_NAMES if name in get_arch(a).instructions]
    assert have == AVAILABILITY[name]


def test_wave_size_of_every_builtin_matches_its_targets():
    for arch, builtin in PAIRS:
        want = 64 if arch in GFX9 else 32 if arch in GFX1250 else \
            int(builtin.split("_w")[-1][:2])
        assert amdgcn.instruction(builtin, arch).wave == want, (arch, builtin)


# ===========================================================================================
# Every builtin on every target: all-ones A and B give D = C + K, with C's dtype and shape
# ===========================================================================================


_FLOAT_VECTORS = {np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)}


def _ones_words(t, n: int, lanes: int) -> np.ndarray:
    """(lanes, n) elements equal to 1 of type t, handed over as 32-bit words (HIP int/long)
    where the builtin takes an integer vector; as the elements themselves where HIP's type
    is a float vector (half4, float4, double; xf32 as float2), which takes no raw words."""
    el = np.ones((lanes, n), t if t is not T.xfloat32 else np.float32)
    if el.dtype in _FLOAT_VECTORS:
        return el[:, 0] if n == 1 else el
    if el.dtype == np.dtype(ml_dtypes.int4):  # two nibbles per byte, element 0 low
        raw = np.full((lanes, n // 2), 0x11, np.uint8)
    elif el.dtype == np.dtype(ml_dtypes.float4_e2m1fn):  # fp4 1.0 is 0b0010, packed so too
        raw = np.full((lanes, n // 2), 0x22, np.uint8)
    else:
        raw = el.view(np.uint8)
    words = raw.view(np.uint32)
    return words[:, 0] if words.shape[1] == 1 else words  # one register: a scalar per lane


@pytest.mark.parametrize("arch,builtin", PAIRS)
def test_every_builtin_all_ones_gives_c_plus_k(arch, builtin):
    spec = describe(builtin, arch)
    lanes, tc = spec["lanes"], spec["tc"]
    rng = np.random.default_rng(zlib.crc32(builtin.encode()))
    c = rng.integers(-20, 21, (lanes, spec["n_c"])).astype(tc)
    if spec["n_c"] == 1:
        c = c[:, 0]
    kwargs = dict(a=_ones_words(spec["ta"], spec["n_a"], lanes),
                  b=_ones_words(spec["tb"], spec["n_b"], lanes), c=c)
    words = 2 if "iu8" in builtin or "fp8" in builtin or "bf8" in builtin else 1
    index = rng.integers(0, 2**32, (lanes, words) if "swmmac" in builtin and arch in GFX1250
                         and words == 2 else lanes).astype(np.uint32)
    extra = {"cbsz": 0, "abid": 0, "blgp": 0, "opsel": False, "sgn_a": True, "sgn_b": True,
             "clamp": False, "index": index, "a_sign": True, "b_sign": True, "a_neg": False,
             "b_neg": False, "c_mod": 0, "matrix_a_reuse": False, "matrix_b_reuse": False,
             "opsel_a": 0, "opsel_b": 0, "scale_a": 0, "scale_b": 0,  # MX: unscaled
             "matrix_a_fmt": 0, "matrix_b_fmt": 0, "matrix_a_scale": 0, "matrix_b_scale": 0,
             "matrix_a_scale_fmt": 0, "matrix_b_scale_fmt": 0,
             "matrix_a_scale_exp": spec.get("one_scale"), "matrix_b_scale_exp":
             spec.get("one_scale")}
    kwargs.update({x: extra[x] for x in spec["args"] if x not in kwargs})
    c_before = c.copy()
    d = call(arch, builtin, **kwargs)
    assert isinstance(d, Lanes)  # D is per lane, like every builtin result
    d = np.asarray(d)  # outside a kernel: the one wave's registers
    assert d.dtype == np.dtype(spec.get("td", c.dtype)) and d.shape == c.shape
    np.testing.assert_array_equal(c, c_before)  # C is not modified in place
    want = c.astype(np.float64) + spec["k"]
    if "opsel" in spec["args"]:  # gfx11 16-bit result: low halves, high halves keep C
        np.testing.assert_array_equal(d[:, 0::2].astype(np.float64), want[:, 0::2])
        np.testing.assert_array_equal(d[:, 1::2].view(np.uint16), c[:, 1::2].view(np.uint16))
    else:
        np.testing.assert_array_equal(d.astype(np.float64), want)


# ===========================================================================================
# Target selection and UnsupportedInstructionError
# ===========================================================================================


@pytest.mark.parametrize("arch,builtin,where", [
    ("gfx1100", "mfma_f32_16x16x4f32", GFX9),
    ("gfx1200", "mfma_f32_16x16x16f16", GFX9),
    ("gfx1100", "wmma_f32_16x16x16_f16_w32_gfx12", GFX12),
    ("gfx1201", "wmma_f16_16x16x16_f16_w32", GFX11),
    ("gfx942", "mfma_i32_16x16x16i8", ["gfx908", "gfx90a"]),
    ("gfx908", "mfma_f64_16x16x4f64", ["gfx90a", "gfx942", "gfx950"]),
    ("gfx1102", "wmma_f32_16x16x16_fp8_fp8_w32_gfx12", GFX12),
])
def test_unsupported_builtin_names_the_targets_that_have_it(arch, builtin, where):
    with pytest.raises(amdgcn.UnsupportedInstructionError) as err:  # before operand checks
        call(arch, builtin, *([None] * n_args(builtin)))
    msg = str(err.value)
    assert f"__builtin_amdgcn_{builtin}" in msg and f"not available on {arch}" in msg
    listed = [x.strip() for x in msg.split("exists on")[-1].split(",")]
    assert listed == where


def n_args(name: str) -> int:
    return len(inspect.signature(getattr(amdgcn, name)).parameters)


def test_every_missing_pair_raises_unsupported():
    for arch in ARCH_NAMES:
        have = get_arch(arch).instructions
        for name in amdgcn.BUILTINS:
            if name in have:
                continue
            with pytest.raises(amdgcn.UnsupportedInstructionError,
                               match=f"{name} is not available on {arch};"):
                call(arch, name, *([None] * n_args(name)))


def _wmma11_call():
    return amdgcn.wmma_f32_16x16x16_f16_w32(np.ones((32, 16), np.float16),
                                            np.ones((32, 16), np.float16),
                                            np.zeros((32, 8), np.float32))


def test_target_is_the_running_kernels_arch():
    out = {}

    @kernel
    def k():
        out["d"] = _wmma11_call()

    with use_arch("gfx942"):  # the launch's arch wins inside the kernel
        k[1, 32, 0, "gfx1100"]()
    np.testing.assert_array_equal(out["d"], np.full((32, 8), 16.0, np.float32))
    with pytest.raises(amdgcn.UnsupportedInstructionError, match="gfx942"):
        k[1, 64, 0, "gfx942"]()


def test_target_outside_kernels_use_arch_env_then_default(monkeypatch):
    monkeypatch.delenv("ROCWMMA_PY_ARCH", raising=False)
    with pytest.raises(amdgcn.UnsupportedInstructionError, match="not available on gfx942"):
        _wmma11_call()  # default target gfx942
    monkeypatch.setenv("ROCWMMA_PY_ARCH", "gfx1101")
    assert np.all(_wmma11_call() == 16.0)
    with use_arch("gfx1200"), pytest.raises(amdgcn.UnsupportedInstructionError,
                                             match="not available on gfx1200"):
        _wmma11_call()  # use_arch beats the environment
    with use_arch("gfx1200"), use_arch("gfx1102"):  # innermost wins
        assert np.all(_wmma11_call() == 16.0)


# ===========================================================================================
# Operand shapes and bytes
# ===========================================================================================


@pytest.mark.parametrize("operand", ["a", "b", "c"])
def test_wrong_lane_count_names_the_expected_shape(operand):
    ok = dict(a=np.zeros(64, np.float32), b=np.zeros(64, np.float32),
              c=np.zeros((64, 4), np.float32))
    bad = dict(ok, **{operand: np.zeros((32, 4) if operand == "c" else 32, np.float32)})
    with pytest.raises(ValueError) as err:
        call("gfx942", "mfma_f32_16x16x4f32", bad["a"], bad["b"], bad["c"], 0, 0, 0)
    msg = str(err.value)
    assert "mfma_f32_16x16x4f32" in msg and "(64, ...)" in msg and "(32" in msg

    ok11 = dict(a=np.zeros((32, 16), np.float16), b=np.zeros((32, 16), np.float16),
                c=np.zeros((32, 8), np.float32))
    bad11 = dict(ok11, **{operand: np.zeros((64,) + ok11[operand].shape[1:],
                                            ok11[operand].dtype)})
    with pytest.raises(ValueError, match=re.escape("(32, ...)")):
        call("gfx1100", "wmma_f32_16x16x16_f16_w32", bad11["a"], bad11["b"], bad11["c"])


@pytest.mark.parametrize("arch,builtin,a", [
    ("gfx942", "mfma_f32_16x16x4f32", np.zeros((64, 2), np.float32)),  # 8 bytes, needs 4
    ("gfx942", "mfma_i32_16x16x32_i8", np.zeros((64, 4), np.int8)),  # 4 bytes, needs 8
    ("gfx1100", "wmma_f32_16x16x16_f16_w32", np.zeros((32, 8), np.float16)),  # needs 16
])
def test_wrong_bytes_per_lane_raise_value_error(arch, builtin, a):
    spec = describe(builtin, arch)
    b = np.zeros((spec["lanes"], spec["n_b"]), spec["tb"])
    c = np.zeros((spec["lanes"], spec["n_c"]), spec["tc"])
    extra = [0, 0, 0] if builtin.startswith("mfma") else []
    with pytest.raises(ValueError, match="bytes per lane"):
        call(arch, builtin, a, b, c, *extra)


def _i8(rng, shape):
    return rng.integers(-128, 128, shape).astype(np.int8)


@pytest.mark.parametrize("arch,builtin,n,views", [
    ("gfx942", "mfma_i32_16x16x32_i8", 8, [np.int32, np.int64, np.uint8]),  # HIP long
    ("gfx908", "mfma_i32_16x16x16i8", 4, [np.int32, np.uint32]),  # HIP int: scalar per lane
    ("gfx1100", "wmma_i32_16x16x16_iu8_w32", 16, [np.int32, np.int64]),  # int4 vector
    ("gfx1200", "wmma_i32_16x16x16_iu8_w32_gfx12", 8, [np.int32, np.int64]),  # int2
])
def test_int8_elements_and_packed_words_are_the_same_bytes(arch, builtin, n, views):
    rng = np.random.default_rng(20)
    lanes = 64 if arch in GFX9 else 32
    a, b = _i8(rng, (lanes, n)), _i8(rng, (lanes, n))
    if arch == "gfx1100":  # keep the two lane halves identical (replicated operand)
        a[16:], b[16:] = a[:16], b[:16]
    c = rng.integers(-1000, 1000, (lanes, 4 if lanes == 64 else 8)).astype(np.int32)

    def run(x, y):
        if builtin.startswith("mfma"):
            return call(arch, builtin, x, y, c, 0, 0, 0)
        return call(arch, builtin, True, x, True, y, c, True)

    ref = run(a, b)
    assert ref.dtype == np.int32 and ref.shape == c.shape
    for v in views:
        wa, wb = a.view(v), b.view(v)
        np.testing.assert_array_equal(run(wa, wb), ref)
        if wa.shape[1] == 1:
            np.testing.assert_array_equal(run(wa[:, 0], wb[:, 0]), ref)


def test_fp8_and_f16_operands_as_words():
    rng = np.random.default_rng(21)
    a = T.convert(rng.integers(-8, 9, (64, 8)) / 2.0, T.float8_fnuz)
    b = T.convert(rng.integers(-8, 9, (64, 8)) / 2.0, T.bfloat8_fnuz)
    c = np.zeros((64, 4), np.float32)
    ref = call("gfx942", "mfma_f32_16x16x32_fp8_bf8", a, b, c, 0, 0, 0)
    assert np.any(ref != 0)
    got = call("gfx942", "mfma_f32_16x16x32_fp8_bf8", a.view(np.int64)[:, 0],
               b.view(np.int64)[:, 0], c, 0, 0, 0)
    np.testing.assert_array_equal(got, ref)

    # half16 is a float vector in HIP, not a packed integer one: raw words are refused
    h = rng.integers(-4, 5, (32, 16)).astype(np.float16)
    c11 = np.zeros((32, 8), np.float32)
    with pytest.raises(OperandShapeError, match="16 x f16 per lane"):
        call("gfx1100", "wmma_f32_16x16x16_f16_w32", h.view(np.uint32), h, c11)


def test_d_takes_cs_dtype_and_shape():
    rng = np.random.default_rng(22)
    a = rng.integers(-4, 5, 64).astype(np.float32)
    b = rng.integers(-4, 5, 64).astype(np.float32)
    c = rng.standard_normal((64, 4)).astype(np.float32)
    d = call("gfx942", "mfma_f32_16x16x4f32", a, b, c, 0, 0, 0)
    assert d.dtype == np.float32 and d.shape == (64, 4)
    # C given as float64 converts to the builtin's float4 (as C++ converts double to float):
    # D comes back as float32, the builtin's type
    d_from_double = call("gfx942", "mfma_f32_16x16x4f32", a, b, c.astype(np.float64), 0, 0, 0)
    assert d_from_double.dtype == np.float32
    np.testing.assert_array_equal(d_from_double, d)
    # scalar-per-lane A/B given as (64,) or (64, 1)
    np.testing.assert_array_equal(
        call("gfx942", "mfma_f32_16x16x4f32", a[:, None], b[:, None], c, 0, 0, 0), d)
    # f64 4x4x4 (4 blocks): one double of C per lane -> D one double per lane
    c64 = rng.integers(-9, 10, 64).astype(np.float64)
    d64 = call("gfx942", "mfma_f64_4x4x4f64", np.ones(64), np.ones(64), c64, 0, 0, 0)
    assert d64.dtype == np.float64 and d64.shape == (64,)
    np.testing.assert_array_equal(np.asarray(d64), c64 + 4)
    # gfx11 f16 result: D in half16 form, the other halves untouched
    c16 = rng.integers(-9, 10, (32, 16)).astype(np.float16)
    ones = np.ones((32, 16), np.float16)
    d16 = call("gfx1100", "wmma_f16_16x16x16_f16_w32", ones, ones, c16, True)
    assert d16.dtype == np.float16 and d16.shape == (32, 16)
    np.testing.assert_array_equal(d16[:, 1::2], c16[:, 1::2] + np.float16(16))
    np.testing.assert_array_equal(d16[:, 0::2], c16[:, 0::2])


def test_keyword_arguments_and_missing_arguments():
    z = np.zeros((32, 8), np.int8)
    c = np.arange(32 * 8, dtype=np.int32).reshape(32, 8)
    d = call("gfx1200", "wmma_i32_16x16x16_iu8_w32_gfx12", c=c, b=z, a=z, sgn_a=True,
             sgn_b=False, clamp=True)
    np.testing.assert_array_equal(d, c)
    with pytest.raises(TypeError):
        call("gfx1200", "wmma_i32_16x16x16_iu8_w32_gfx12", True, z, True, z, c)  # no clamp
    with pytest.raises(TypeError):
        call("gfx942", "mfma_f32_16x16x4f32", np.zeros(64), np.zeros(64), np.zeros((64, 4)))


# ===========================================================================================
# Determinism
# ===========================================================================================


@pytest.mark.parametrize("arch,builtin,shapes", [
    ("gfx942", "mfma_f32_16x16x4f32", ((64,), (64,), (64, 4))),
    ("gfx942", "mfma_f32_32x32x2f32", ((64,), (64,), (64, 16))),
    ("gfx90a", "mfma_f32_16x16x1f32", ((64,), (64,), (64, 16))),
    ("gfx942", "mfma_f64_16x16x4f64", ((64,), (64,), (64, 4))),
])
def test_repeat_calls_are_bit_identical(arch, builtin, shapes):
    rng = np.random.default_rng(23)
    dt = np.float64 if "f64" in builtin else np.float32
    a, b, c = ((rng.standard_normal(s) * 10.0 ** rng.integers(-6, 7, s)).astype(dt)
               for s in shapes)
    first = call(arch, builtin, a, b, c, 0, 0, 0)
    for _ in range(3):
        again = call(arch, builtin, a, b, c, 0, 0, 0)
        assert again.tobytes() == first.tobytes()
    # memory order of the operands does not matter either
    again = call(arch, builtin, a, b, np.asfortranarray(c), 0, 0, 0)
    assert np.ascontiguousarray(again).tobytes() == first.tobytes()


def test_repeat_wmma_calls_are_bit_identical():
    rng = np.random.default_rng(24)
    a = rng.standard_normal((16, 16)).astype(np.float16)
    b = rng.standard_normal((16, 16)).astype(np.float16)
    a32, b32 = np.concatenate([a, a]), np.concatenate([b.T, b.T])
    c = rng.standard_normal((32, 8)).astype(np.float32)
    first = call("gfx1100", "wmma_f32_16x16x16_f16_w32", a32, b32, c)
    assert not np.array_equal(first, c)
    for _ in range(3):
        assert call("gfx1100", "wmma_f32_16x16x16_f16_w32", a32, b32, c).tobytes() == \
            first.tobytes()
