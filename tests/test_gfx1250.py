"""GFX12.5 (gfx1250, gfx1251) WMMA and SWMMAC builtins: layouts against their source table,
exact integer-valued GEMMs through every builtin (direct, and launched on both engines), the
a_neg / b_neg / c_mod modifiers, the 64-bit sparse index, and the target rows.

The layout oracle is written here from its source, not from the package:
ROCm/rocm-libraries @ 0149199e2afacfb649606a0a15ae418985d10732,
projects/composablekernel/include/ck_tile/ops/gemm/warp/warp_gemm_attribute_wmma_impl_base_traits.hpp
(gfx1250 uses `WmmaTraitsBase<gfx12_t, ...>`): an A/B element (x, k) sits in lane
x + 16 * kLane, slot k0 * K1 + k1, where k = k0 * (2 * K1) + kLane * K1 + k1 and K1 (kK1PerLane)
is 8 for 16-bit types, 16 for fp8/bf8 (LayoutFrom8BitK64 / LayoutFrom8BitMixPrec), 2 for
fp32/fp64; C/D (i, j) sits in lane j + 16 * (i // 8), slot i % 8 (kCMLane 2, kCM1PerLane 8).
Operand vector lengths: LLVM clang/include/clang/Basic/BuiltinsAMDGPU.td @ 008ba4314e76.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from sparse_helpers import from_regs, to_regs

from rocwmma_py import amdgcn, kernel
from rocwmma_py import types as T
from rocwmma_py.arch import get_arch
from rocwmma_py.errors import ModifierError, UnsupportedInstructionError
from rocwmma_py.runtime import (
    blockDim,
    blockIdx,
    last_launch_stats,
    threadIdx,
    use_arch,
    use_engine,
)
from rocwmma_py.sparse import compress_4to2

pytestmark = pytest.mark.smoke

# the MX WMMA rows (format codes, block scales) are tests/test_mx_wmma1250.py's
DENSE = sorted(n for n, i in get_arch("gfx1251").instructions.items()
               if not (i.sparse or i.mx_wmma))
SPARSE = sorted(n for n, i in get_arch("gfx1250").instructions.items() if i.sparse)
# A, B, C, D vector types of each builtin's signature: LLVM
# clang/include/clang/Basic/BuiltinsAMDGPU.td @ 008ba4314e761332c4eb0c8b817346a819d0654d;
# wmma_f64_16x16x4_f64 (gfx1251, not in that .td) from clang's gfx1251 Sema test at the same
# tree (v2d a, v2d b, v8d c). fp8/bf8/iu8 operands are packed in int vectors.
_FP8 = [f"{x}_{y}" for x in ("fp8", "bf8") for y in ("fp8", "bf8")]
TD_SIGNATURES = {
    "wmma_f32_16x16x4_f32": ("v2f32", "v2f32", "v8f32", "v8f32"),
    "wmma_f32_16x16x32_bf16": ("v16bf16", "v16bf16", "v8f32", "v8f32"),
    "wmma_bf16_16x16x32_bf16": ("v16bf16", "v16bf16", "v8bf16", "v8bf16"),
    "wmma_bf16f32_16x16x32_bf16": ("v16bf16", "v16bf16", "v8f32", "v8bf16"),
    "wmma_f32_16x16x32_f16": ("v16f16", "v16f16", "v8f32", "v8f32"),
    "wmma_f16_16x16x32_f16": ("v16f16", "v16f16", "v8f16", "v8f16"),
    "wmma_i32_16x16x64_iu8": ("v8i32", "v8i32", "v8i32", "v8i32"),
    "wmma_f64_16x16x4_f64": ("v2f64", "v2f64", "v8f64", "v8f64"),
    **{f"wmma_f32_16x16x64_{t}": ("v8i32", "v8i32", "v8f32", "v8f32") for t in _FP8},
    **{f"wmma_f16_16x16x64_{t}": ("v8i32", "v8i32", "v8f16", "v8f16") for t in _FP8},
    **{f"wmma_f32_16x16x128_{t}": ("v16i32", "v16i32", "v8f32", "v8f32") for t in _FP8},
    **{f"wmma_f16_16x16x128_{t}": ("v16i32", "v16i32", "v8f16", "v8f16") for t in _FP8},
    "swmmac_f32_16x16x64_bf16": ("v16bf16", "v32bf16", "v8f32", "v8f32"),
    "swmmac_bf16_16x16x64_bf16": ("v16bf16", "v32bf16", "v8bf16", "v8bf16"),
    "swmmac_bf16f32_16x16x64_bf16": ("v16bf16", "v32bf16", "v8f32", "v8f32"),
    "swmmac_f32_16x16x64_f16": ("v16f16", "v32f16", "v8f32", "v8f32"),
    "swmmac_f16_16x16x64_f16": ("v16f16", "v32f16", "v8f16", "v8f16"),
    "swmmac_i32_16x16x128_iu8": ("v8i32", "v16i32", "v8i32", "v8i32"),
    **{f"swmmac_f32_16x16x128_{t}": ("v8i32", "v16i32", "v8f32", "v8f32") for t in _FP8},
    **{f"swmmac_f16_16x16x128_{t}": ("v8i32", "v16i32", "v8f16", "v8f16") for t in _FP8},
}
# LLVM declares this builtin's result v8f32; the table here gives it a bf16 D (as the dense
# wmma_bf16f32, whose result the .td does declare v8bf16): a disagreement left to the tables
TD_DISAGREES = {"swmmac_bf16f32_16x16x64_bf16"}


def vector_bytes(vec: str) -> int:
    """Bytes of an LLVM vector type written vNtype (v16bf16 -> 32)."""
    count, bits = re.fullmatch(r"v(\d+)[a-z]+?(\d+)", vec).groups()
    return int(count) * int(bits) // 8


def ck_place(k: int, bits: int, is_b: bool) -> dict[tuple[int, int], tuple[int, int]]:
    """(row, col) -> (lane, slot) from CK's constants (module docstring)."""
    k1 = {16: 8, 8: 16, 32: 2, 64: 2}[bits]
    table = {}
    for x in range(16):
        for kk in range(k):
            k0, rest = divmod(kk, 2 * k1)
            lane_half, k_1 = divmod(rest, k1)
            key = (kk, x) if is_b else (x, kk)
            table[key] = (x + 16 * lane_half, k0 * k1 + k_1)
    return table


def layout_dict(layout) -> dict[tuple[int, int], tuple[int, int]]:
    lane, slot = layout.written
    return {(int(r), int(c)): (int(ln), int(s)) for r, c, ln, s in
            zip(layout.row[lane, slot], layout.col[lane, slot], lane, slot, strict=True)}


def test_target_rows():
    assert get_arch("gfx1250").wave_size == get_arch("gfx1251").wave_size == 32
    assert get_arch("gfx1250").lds_bytes == 320 * 1024  # AMDGPU.td AddressableLocalMemorySize
    assert "wmma_f64_16x16x4_f64" in get_arch("gfx1251").instructions
    assert "wmma_f64_16x16x4_f64" not in get_arch("gfx1250").instructions
    assert len(DENSE) == 24 and len(SPARSE) == 14  # 23 + f64 on gfx1251; 14 sparse
    assert not any(n.endswith(("_w32", "_w64", "_gfx12")) for n in DENSE + SPARSE)


def test_td_covers_every_builtin():
    assert sorted(TD_SIGNATURES) == sorted(DENSE + SPARSE)


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(
    strict=True, reason="LLVM: v8f32 result")) if n in TD_DISAGREES else n
    for n in sorted(TD_SIGNATURES)])
def test_operand_sizes_match_llvm(name):
    """Bytes per lane of A, B, C and D equal the builtin's vector types in the .td."""
    instr = amdgcn.instruction(name, "gfx1251")
    c = instr.c_layout()
    got = (instr.a_layout.slots * T.bits(instr.a_type),
           instr.b_layout.slots * T.bits(instr.b_type),
           c.slots * T.bits(instr.c_type), c.slots * T.bits(instr.result_type))
    assert tuple(g // 8 for g in got) == tuple(map(vector_bytes, TD_SIGNATURES[name]))


@pytest.mark.parametrize("name", DENSE + SPARSE)
def test_layouts_match_ck_table(name):
    instr = amdgcn.instruction(name, "gfx1251")
    bits = T.bits(instr.a_type)
    assert layout_dict(instr.a_layout) == ck_place(instr.a_k, bits, False)
    assert layout_dict(instr.b_layout) == ck_place(instr.k, bits, True)
    assert layout_dict(instr.c_layout()) == {(i, j): (j + 16 * (i // 8), i % 8)
                                             for i in range(16) for j in range(16)}


def operands(rng, instr):
    """Small integers (exact in every type, every sum exact in the result type)."""
    a = rng.integers(-1, 2, (16, instr.k)).astype(np.float64)
    b = rng.integers(-1, 2, (instr.k, 16)).astype(np.float64)
    c = rng.integers(-4, 5, (16, 16)).astype(np.float64)
    if instr.sparse:
        a[:, 1::2] = 0  # 4:2 sparse: keep two of every four
        a[:, 0::4] = 0
    return a, b, c


def call(name: str, arch: str, a, b, c, **mods):
    """The builtin on registers of dense A (or 4:2 sparse A), B and C, by argument name."""
    instr = amdgcn.instruction(name, arch)
    args = {"b": to_regs(instr.b_layout, T.convert(b, instr.b_type)),
            "c": to_regs(instr.c_layout(), T.convert(c, instr.c_type))}
    if instr.sparse:
        args["a"], args["index"] = compress_4to2(a).registers(name, arch)
    else:
        args["a"] = to_regs(instr.a_layout, T.convert(a, instr.a_type))
    args.update(mods)
    args = {n: args.get(n, 1 if n in ("a_sign", "b_sign") else 0) for n in instr.args}
    with use_arch(arch):
        d = getattr(amdgcn, name)(**args)
    return from_regs(instr.c_layout(), np.asarray(d)).astype(np.float64)


@pytest.mark.parametrize("name", DENSE + SPARSE)
def test_integer_gemm(name):
    instr = amdgcn.instruction(name, "gfx1251")
    rng = np.random.default_rng(len(name))
    a, b, c = operands(rng, instr)
    assert np.array_equal(call(name, "gfx1251", a, b, c), a @ b + c)


@pytest.mark.parametrize("name", [n for n in DENSE + SPARSE if "a_neg" in
                                  amdgcn.instruction(n, "gfx1251").args])
@pytest.mark.parametrize("a_neg, b_neg", [(0, 1), (1, 0), (1, 1)])
def test_negation(name, a_neg, b_neg):
    instr = amdgcn.instruction(name, "gfx1251")
    a, b, c = operands(np.random.default_rng(3), instr)
    want = ((-1) ** a_neg * a) @ ((-1) ** b_neg * b) + c
    assert np.array_equal(call(name, "gfx1251", a, b, c, a_neg=a_neg, b_neg=b_neg), want)


@pytest.mark.parametrize("name", [n for n in DENSE if "c_mod" in
                                  amdgcn.instruction(n, "gfx1251").args])
def test_c_mod(name):
    """0 none, 1 neg, 2 abs, 3 neg(abs) (BuiltinsAMDGPUDocs.td); reuse hints change nothing."""
    instr = amdgcn.instruction(name, "gfx1251")
    a, b, c = operands(np.random.default_rng(5), instr)
    for mod, cc in enumerate((c, -c, np.abs(c), -np.abs(c))):
        got = call(name, "gfx1251", a, b, c, c_mod=mod, matrix_a_reuse=1, matrix_b_reuse=1)
        assert np.array_equal(got, a @ b + cc), mod
    with pytest.raises(ModifierError, match="c_mod=4"):
        call(name, "gfx1251", a, b, c, c_mod=4)


def test_iu8_signs_clamp_and_optional_clamp():
    name = "wmma_i32_16x16x64_iu8"
    instr = amdgcn.instruction(name, "gfx1250")
    a = np.full((16, 64), 200.0)
    b = np.full((64, 16), 250.0)
    c = np.zeros((16, 16))
    unsigned = a @ b  # 3.2e6: fits; unsigned inputs read as 200, 250
    assert np.array_equal(call(name, "gfx1250", a.astype(np.uint8).view(np.int8).astype(
        float), b.astype(np.uint8).view(np.int8).astype(float), c, a_sign=0, b_sign=0),
        unsigned)
    assert "clamp" in instr.args and instr.optional == 1
    big = np.full((16, 16), 2.0**31 - 10)
    ones = np.ones((16, 64))
    assert np.all(call(name, "gfx1250", ones, ones.T, big, clamp=True) == 2**31 - 1)


def test_bf16f32_rounds_to_bf16():
    """f32 C, bf16 D: one rounding of the exact sum to bf16."""
    name = "wmma_bf16f32_16x16x32_bf16"
    instr = amdgcn.instruction(name, "gfx1250")
    a = np.zeros((16, 32))
    b = np.zeros((32, 16))
    c = np.full((16, 16), 1.0 + 2.0**-9)  # not a bf16 value: rounds to 1.0
    args = {"a_neg": 0, "a": to_regs(instr.a_layout, T.convert(a, T.bfloat16)), "b_neg": 0,
            "b": to_regs(instr.b_layout, T.convert(b, T.bfloat16)), "c_mod": 0,
            "c": to_regs(instr.c_layout(), c.astype(np.float32)), "matrix_a_reuse": 0,
            "matrix_b_reuse": 0}
    with use_arch("gfx1250"):
        d = np.asarray(amdgcn.wmma_bf16f32_16x16x32_bf16(**args))
    assert d.dtype == T.storage_dtype(T.bfloat16) and d.shape == (32, 8)
    assert np.all(d.astype(np.float64) == 1.0)


def test_sparse_index_is_two_words_for_8_bit():
    instr = amdgcn.instruction("swmmac_i32_16x16x128_iu8", "gfx1250")
    assert (instr.index_words, instr.index_sets) == (2, 1)
    assert amdgcn.instruction("swmmac_f32_16x16x64_f16", "gfx1250").index_words == 1


def test_not_on_other_targets():
    with use_arch("gfx1201"), pytest.raises(UnsupportedInstructionError, match="gfx1250"):
        amdgcn.wmma_f32_16x16x32_f16(0, np.zeros((32, 16)), 0, np.zeros((32, 16)), 0,
                                     np.zeros((32, 8)), 0, 0)


def gemm_kernel(name: str):
    """Each lane loads its A, B, C (and index) registers at (global thread id) * slots."""
    instr = amdgcn.instruction(name, "gfx1250")
    sa, sb, sc = instr.a_layout.slots, instr.b_layout.slots, instr.c_layout().slots
    words = instr.index_words

    @kernel
    def body(a, b, c, index, d):
        t = blockIdx.x * blockDim.x + threadIdx.x
        args = {"a": np.stack([a[t * sa + s] for s in range(sa)], axis=1),
                "b": np.stack([b[t * sb + s] for s in range(sb)], axis=1),
                "c": np.stack([c[t * sc + s] for s in range(sc)], axis=1)}
        if words:
            args["index"] = np.stack([index[t * words + w] for w in range(words)], axis=1) \
                if words > 1 else index[t]
        args = {n: args.get(n, 1 if n in ("a_sign", "b_sign") else 0) for n in instr.args}
        out = getattr(amdgcn, name)(**args)
        for s in range(sc):
            d[t * sc + s] = out[:, s]

    return body


@pytest.mark.parametrize("name", ["wmma_f32_16x16x32_f16", "wmma_i32_16x16x64_iu8",
                                  "wmma_f16_16x16x128_fp8_bf8", "swmmac_i32_16x16x128_iu8",
                                  "swmmac_f32_16x16x64_bf16"])
def test_kernel_on_both_engines(name):
    """6 waves with different data: both engines give the same bits and the exact product,
    and the batched launch ran no block per wave."""
    instr = amdgcn.instruction(name, "gfx1250")
    rng = np.random.default_rng(11)
    cases = [operands(rng, instr) for _ in range(6)]
    regs = []
    for a, b, c in cases:
        if instr.sparse:
            a_regs, idx = compress_4to2(a).registers(name, "gfx1250")
        else:
            a_regs, idx = to_regs(instr.a_layout, T.convert(a, instr.a_type)), np.zeros(1)
        regs.append((a_regs, to_regs(instr.b_layout, T.convert(b, instr.b_type)),
                     to_regs(instr.c_layout(), T.convert(c, instr.c_type)), idx))
    a_mem, b_mem, c_mem, idx_mem = (np.concatenate([r[n].ravel() for r in regs])
                                    for n in range(4))
    out = {}
    for engine in ("wave", "batch"):
        d_mem = np.zeros_like(c_mem)
        with use_engine(engine):
            gemm_kernel(name)[3, 64, 0, "gfx1250"](a_mem, b_mem, c_mem, idx_mem, d_mem)
        out[engine] = d_mem
        if engine == "batch":
            assert last_launch_stats().per_wave_blocks == 0
    assert out["wave"].tobytes() == out["batch"].tobytes()
    for w, (a, b, c) in enumerate(cases):
        d = from_regs(instr.c_layout(), out["batch"].reshape(6, 32, -1)[w])
        assert np.array_equal(d.astype(np.float64), a @ b + c), f"wave {w}"


# ---- the rocWMMA fragment API (develop: gfx1250 in rocWMMA's gfx12 enablers, wmma_impl.hpp
# of ROCm/rocm-libraries @ 0ea94c5f2432), through the GEMM kernels of the rocWMMA grid -------

GRID_TYPES = ["f16_f32_f32", "f16_f16_f16", "bf16_f32_f32", "bf16_bf16_bf16", "i8_i32_i32",
              "f8_f32_f32", "bf8_f32_f32", "u8_i32_i32", "f32_f32_f32"]


@pytest.mark.parametrize("block", [(16, 16, 16), (16, 16, 64)])
@pytest.mark.parametrize("types", GRID_TYPES)
@pytest.mark.parametrize("arch", ["gfx1250", "gfx1251"])
def test_rocwmma_gemm_grid(arch, types, block):
    """Exactly-representable GEMMs (the grid's fill values) equal the exact reference."""
    from gemm_kernels import gemm_reference, make_problem, run_gemm, type_set

    problem = make_problem(type_set(types, arch), 64, 64, 64)
    got = run_gemm(problem, arch, block)
    np.testing.assert_array_equal(np.asarray(got, np.float64),
                                  np.asarray(gemm_reference(problem), np.float64))


def test_rocwmma_f64_fragments_are_not_on_gfx1251():
    """gfx1251 has the f64 WMMA builtin, but rocWMMA serves GFX12.5 with its gfx12 type set
    (no f64 fragments), so an f64 fragment is refused there, naming the types it has."""
    from rocwmma_py import FragmentError, float64, fragment, matrix_a, row_major, use_arch

    assert "wmma_f64_16x16x4_f64" in get_arch("gfx1251").instructions
    with use_arch("gfx1251"), pytest.raises(FragmentError, match="f64 is not supported on gfx1251"):
        fragment[matrix_a, 16, 16, 16, float64, row_major]()
