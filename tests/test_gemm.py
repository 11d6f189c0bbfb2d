"""GEMM tests in the style of rocWMMA's test/gemm (rocwmma-notes §5.3) plus matrix-core numerics.

Every GEMM result is checked three ways against references computed here without rocwmma_py:
  1. rocWMMA's compareEqual rule against the exact reference (tol 10, 100 for 16-bit ComputeT);
  2. exact equality whenever no rounding can occur anywhere (integer types, small values);
  3. for 16-bit ComputeT, exact equality with the per-instruction rounding model of §3.1/§3.4
     (written out in gemm_kernels.chained_reference_16bit).

Markers: smoke (64^3, a couple of configs per arch, numerics cases), regression (default run:
every arch x type set x block size x layout pair appears, thread blocks and sizes rotate),
extended (-m extended: the full cartesian grid at (64,64,256) and (128,128,128) with C/D
col_major and row_major, 256^3 for a few, and MB_NC BlocksX x BlocksY grids).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from gemm_kernels import (
    AB_LAYOUTS,
    ARCH_TYPE_SETS,
    ARCHS,
    ELEMS,
    FAMILY,
    THREAD_BLOCKS,
    WAVE_SIZE,
    block_sizes,
    chained_reference_16bit,
    compare_equal,
    exact_expected,
    fill_values,
    gemm_reference,
    k_subsets,
    make_problem,
    mma_store,
    run_gemm,
    type_set,
)

from rocwmma_py import (
    MappingUtil,
    bfloat16,
    blockIdx,
    col_major,
    float16,
    int8,
    int32,
    kernel,
    make_coord2d,
    row_major,
    uint8,
)

smoke, regression, extended = pytest.mark.smoke, pytest.mark.regression, pytest.mark.extended


# ---------------------------------------------------------------------------------------------
# Case generation
# ---------------------------------------------------------------------------------------------


def case_id(arch, types, layouts, block, tb, size, layout_c=col_major, blocks=None):
    bm, bn, bk = block
    tbx, tby = tb
    s = f"{arch}-{types}-{layouts}-{bm}x{bn}x{bk}-{'' if tbx == 1 else tbx}Wx{tby}-"
    s += "x".join(map(str, size))
    if layout_c is row_major:
        s += "-CDrow"
    if blocks:
        s += f"-{blocks[0]}x{blocks[1]}blk"
    return s


def check_gemm(arch, types, layouts, block, tb, size, layout_c=col_major, kind="sb",
               blocks=(1, 1)):
    t = type_set(types, arch)
    m, n, k = size
    problem = make_problem(t, m, n, k, layouts, layout_c)
    d = run_gemm(problem, arch, block, tb, kind, blocks)
    ref = gemm_reference(problem)
    ok, max_rel = compare_equal(d, ref, t.output, t.tolerance)
    assert ok, f"compareEqual failed: max rel err {max_rel} > {t.output.eps * t.tolerance}"
    if exact_expected(problem):
        mismatch = np.flatnonzero(d.astype(np.float64) != ref.astype(np.float64))
        assert mismatch.size == 0, (
            f"{mismatch.size} elements differ from the exact result, first at "
            f"{np.unravel_index(mismatch[0], d.shape)}"
        )
    if t.compute.size == 2:
        model = chained_reference_16bit(problem, arch, block[2])
        np.testing.assert_array_equal(d.astype(np.float64), model.astype(np.float64))


def regression_cases():
    """Every arch x type set x block size x A/B layout once; the thread block and the
    problem size rotate (rocWMMA's (64,64,K), (32,64,K), (64,32,K) shapes, small K)."""
    sizes = [(64, 64, 128), (32, 64, 64), (64, 32, 64), (64, 64, 64)]
    counter = itertools.count()
    for arch in ARCHS:
        for types in ARCH_TYPE_SETS[arch]:
            for block, layouts in itertools.product(block_sizes(arch, types), AB_LAYOUTS):
                i = next(counter)
                yield arch, types, layouts, block, THREAD_BLOCKS[i % 3], sizes[(i // 3) % 4]


SMOKE_SECOND = {  # arch: (type set, block) of the second smoke config
    "gfx908": ("bf16_bf16_bf16", (32, 32, 32)),
    "gfx90a": ("f64_f64_f64", (16, 16, 64)),
    "gfx942": ("i8_i32_i32", (32, 32, 32)),
    "gfx950": ("f8_f32_f32", (32, 32, 32)),
    "gfx1100": ("bf16_bf16_bf16", (16, 16, 32)),
    "gfx1200": ("u8_i32_i32", (16, 16, 32)),
}


def smoke_cases():
    """Two SB_NC configs per arch at 64^3."""
    for arch in ARCHS:
        yield arch, "f16_f32_f32", "NN", (16, 16, 16), (1, 4), (64, 64, 64)
        types, block = SMOKE_SECOND[arch]
        yield arch, types, "TT", block, (2, 2), (64, 64, 64)


def extended_cases():
    for arch in ARCHS:
        for types in ARCH_TYPE_SETS[arch]:
            for block, layouts, tb, size, lc in itertools.product(
                block_sizes(arch, types), AB_LAYOUTS, THREAD_BLOCKS,
                [(64, 64, 256), (128, 128, 128)], (col_major, row_major),
            ):
                yield arch, types, layouts, block, tb, size, lc


def big_cases():
    """256^3 for a few configs per arch."""
    for arch in ARCHS:
        gfx9 = FAMILY[arch] == "gfx9"
        yield arch, "f16_f32_f32", "NT", (32, 32, 16) if gfx9 else (16, 16, 64), (2, 2)
        yield arch, "bf16_bf16_bf16", "TN", (16, 16, 32), (4, 1)
        yield arch, "i8_i32_i32", "TT", (16, 16, 64), (1, 4)


# ---------------------------------------------------------------------------------------------
# gemm_PGR0_LB0_MP0_SB_NC
# ---------------------------------------------------------------------------------------------


@smoke
@pytest.mark.parametrize("arch,types,layouts,block,tb,size",
                         [pytest.param(*c, id=case_id(*c)) for c in smoke_cases()])
def test_gemm_sb_smoke(arch, types, layouts, block, tb, size):
    check_gemm(arch, types, layouts, block, tb, size)


@regression
@pytest.mark.parametrize("arch,types,layouts,block,tb,size",
                         [pytest.param(*c, id=case_id(*c)) for c in regression_cases()])
def test_gemm_sb(arch, types, layouts, block, tb, size):
    check_gemm(arch, types, layouts, block, tb, size)


# BlockK below 16, at the per-arch minimums of rocWMMA's predicates (§5.3: f32 16x16 K>=4,
# 32x32 K>=8; xf32 16x16 K>=8, 32x32 K>=4; f64 K>=4; gfx908 bf16 16x16 K>=8, 32x32 K>=4) and
# below the instruction K, where the backend zero-pads (§3.1: f16 K=8 on gfx9, K=4/8 on
# gfx11; i8/f8 K=8).
SMALL_K_CASES = [
    ("gfx942", "f32_f32_f32", (16, 16, 4)), ("gfx942", "f32_f32_f32", (32, 32, 8)),
    ("gfx908", "f32_f32_f32", (32, 32, 4)), ("gfx90a", "f64_f64_f64", (16, 16, 4)),
    ("gfx942", "f64_f64_f64", (16, 16, 8)), ("gfx942", "xf32_f32_f32", (16, 16, 8)),
    ("gfx942", "xf32_f32_f32", (32, 32, 4)), ("gfx908", "bf16_f32_f32", (16, 16, 8)),
    ("gfx908", "bf16_bf16_bf16", (32, 32, 4)), ("gfx942", "bf16_bf16_bf16", (16, 16, 8)),
    ("gfx942", "f16_f16_f16", (16, 16, 8)), ("gfx942", "f16_f32_f32", (32, 32, 8)),
    ("gfx950", "f16_f16_f16", (16, 16, 8)), ("gfx950", "bf16_bf16_bf16", (32, 32, 8)),
    ("gfx1100", "f16_f16_f16", (16, 16, 4)), ("gfx1100", "f16_f32_f32", (16, 16, 8)),
    ("gfx1200", "bf16_bf16_bf16", (16, 16, 8)), ("gfx942", "i8_i32_i32", (16, 16, 8)),
    ("gfx1200", "i8_i32_i32", (16, 16, 8)), ("gfx942", "f8_f32_f32", (16, 16, 8)),
    ("gfx1200", "bf8_f32_f32", (16, 16, 8)),
]


@regression
@pytest.mark.parametrize("arch,types,block", SMALL_K_CASES,
                         ids=[f"{a}-{t}-{b[0]}x{b[1]}x{b[2]}" for a, t, b in SMALL_K_CASES])
@pytest.mark.parametrize("layouts", AB_LAYOUTS)
def test_gemm_small_block_k(arch, types, block, layouts):
    check_gemm(arch, types, layouts, block, (2, 2), (64, 64, 64))


@regression
@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("types", ["f16_f32_f32", "i8_i32_i32", "f16_f16_f16"])
def test_gemm_sb_row_major_cd(arch, types):
    block = (32, 32, 16) if FAMILY[arch] == "gfx9" else (16, 16, 16)
    check_gemm(arch, types, "NT", block, (2, 2), (64, 64, 64), layout_c=row_major)


@extended
@pytest.mark.parametrize(
    "arch,types,layouts,block,tb,size,layout_c",
    [pytest.param(*c, id=case_id(*c)) for c in extended_cases()],
)
def test_gemm_sb_extended(arch, types, layouts, block, tb, size, layout_c):
    check_gemm(arch, types, layouts, block, tb, size, layout_c)


@extended
@pytest.mark.parametrize("arch,types,layouts,block,tb",
                         [pytest.param(*c, id=case_id(*c, (256, 256, 256))) for c in big_cases()])
def test_gemm_sb_256(arch, types, layouts, block, tb):
    check_gemm(arch, types, layouts, block, tb, (256, 256, 256))


# ---------------------------------------------------------------------------------------------
# gemm_PGR0_LB0_MP0_MB_NC (separate fragments per output block) and the wave-tile variant
# ---------------------------------------------------------------------------------------------


def mb_cases(types_list, blocks_list, size):
    """Multi-block cases; block size, layouts and thread block rotate; only macro tiles that
    divide the problem (as rocWMMA's harness requires)."""
    counter = itertools.count()
    for arch in ARCHS:
        for types in types_list:
            if types not in ARCH_TYPE_SETS[arch]:
                continue
            for blocks in blocks_list:
                i = next(counter)
                sizes = block_sizes(arch, types)
                block = sizes[i % len(sizes)]
                if size[0] % (block[0] * blocks[0]) or size[1] % (block[1] * blocks[1]):
                    continue
                yield arch, types, AB_LAYOUTS[i % 4], block, THREAD_BLOCKS[i % 3], size, blocks


MB_TYPES = ["f16_f32_f32", "i8_i32_i32", "bf16_bf16_bf16"]


@smoke
@pytest.mark.parametrize("arch", ARCHS)
def test_gemm_mb_smoke(arch):
    check_gemm(arch, "f16_f32_f32", "TN", (16, 16, 32), (2, 2), (64, 64, 64), kind="mb",
               blocks=(2, 2))


@regression
@pytest.mark.parametrize(
    "arch,types,layouts,block,tb,size,blocks",
    [pytest.param(*c[:6], c[6], id=case_id(*c[:6], blocks=c[6]))
     for c in mb_cases(MB_TYPES, [(1, 2), (2, 1), (2, 2), (4, 1)], (64, 64, 64))],
)
def test_gemm_mb(arch, types, layouts, block, tb, size, blocks):
    check_gemm(arch, types, layouts, block, tb, size, kind="mb", blocks=blocks)


@regression
@pytest.mark.parametrize(
    "arch,types,layouts,block,tb,size,blocks",
    [pytest.param(*c[:6], c[6], id=case_id(*c[:6], blocks=c[6]))
     for c in mb_cases(MB_TYPES, [(2, 2), (4, 4), (1, 4)], (64, 64, 64))],
)
def test_gemm_wave_tile(arch, types, layouts, block, tb, size, blocks):
    check_gemm(arch, types, layouts, block, tb, size, kind="tile", blocks=blocks)


@extended
@pytest.mark.parametrize(
    "arch,types,layouts,block,tb,size,blocks",
    [pytest.param(*c[:6], c[6], id=case_id(*c[:6], blocks=c[6]))
     for c in mb_cases(list(ARCH_TYPE_SETS["gfx942"]) + ["u8_i32_i32"],
                       list(itertools.product((1, 2, 4, 8), repeat=2)), (128, 128, 128))],
)
def test_gemm_mb_extended(arch, types, layouts, block, tb, size, blocks):
    check_gemm(arch, types, layouts, block, tb, size, kind="mb", blocks=blocks)


# ---------------------------------------------------------------------------------------------
# The reference itself (hand-computed values, so a wrong reference cannot hide a bug)
# ---------------------------------------------------------------------------------------------


@smoke
def test_fill_matches_rocwmma_formula():
    # (row*n + col) % 3 on a 2x4 matrix: row 0 -> 0 1 2 0, row 1 -> 1 2 0 1
    np.testing.assert_array_equal(fill_values(2, 4, signed=False),
                                  [[0, 1, 2, 0], [1, 2, 0, 1]])
    np.testing.assert_array_equal(fill_values(2, 4, signed=True),
                                  [[0, -1, -2, 0], [-1, -2, 0, -1]])


@smoke
def test_reference_by_hand():
    t = type_set("i8_i32_i32", "gfx942")
    p = make_problem(t, 2, 2, 3)
    # A = [[0,-1,-2],[0,-1,-2]]... rows: (r*3+c)%3 = c -> A = [[0,-1,-2],[0,-1,-2]]
    # B (3x2): (r*2+c)%3 -> [[0,1],[2,0],[1,2]] negated -> [[0,-1],[-2,0],[-1,-2]]
    # A@B = [[0+2+2, 0+0+4]] = [[4,4],[4,4]]; C (2x2) = [[0,-1],[-2,0]]
    # D = 2*AB + 2*C = [[8,6],[4,8]]
    np.testing.assert_array_equal(gemm_reference(p), [[8, 6], [4, 8]])


@smoke
def test_reference_int32_epilogue_wraps():
    t = type_set("i8_i32_i32", "gfx942")
    p = make_problem(t, 1, 1, 1)
    p.a[...] = 1
    p.b[...] = 2**20
    p.alpha, p.beta = 2**12, 0  # 2**32 wraps to 0, like int32 arithmetic in C++
    assert gemm_reference(p)[0, 0] == 0


@smoke
@pytest.mark.parametrize("types,acc,expect", [
    # f16: acc 2049 -> tie between 2048 and 2050 -> even 2048; 2*2048 + 2*(-1) = 4094 (exact)
    ("f16_f16_f16", 2049, 4094.0),
    # bf16: acc 257 -> tie between 256 and 258 -> even 256; 2*256 + 2*(-1) = 510 (exact)
    ("bf16_bf16_bf16", 257, 510.0),
    # f32 ComputeT: no rounding, 2*2049 - 2 = 4096
    ("f16_f32_f32", 2049, 4096.0),
])
def test_reference_epilogue_in_compute_type(types, acc, expect):
    p = make_problem(type_set(types, "gfx942"), 1, 1, 1)
    p.a[...], p.b[...], p.c[...] = acc, 1, -1
    assert float(gemm_reference(p)[0, 0]) == expect


@smoke
def test_compare_equal_thresholds():
    # rocwmma-notes §4.1 thresholds with tolerance 10: f32 1.19e-6, f16 9.77e-3, bf16 7.8e-2
    assert ELEMS["f32"].eps * 10 == pytest.approx(1.19e-6, rel=1e-2)
    assert ELEMS["f16"].eps * 10 == pytest.approx(9.77e-3, rel=1e-3)
    assert ELEMS["bf16"].eps * 10 == pytest.approx(7.8e-2, rel=2e-3)
    assert ELEMS["f64"].eps * 10 == pytest.approx(2.2e-15, rel=1e-2)
    f16 = ELEMS["f16"]
    # rel = |a-b|/(|a|+|b|+1): 1000 vs 1001 -> 1/2002 = 5.0e-4 <= 9.77e-3
    assert compare_equal(np.array([1000.0]), np.array([1001.0]), f16)[0]
    # 0 vs 0.05 -> 0.05/1.05 = 0.0476 > 9.77e-3 (but passes with tol 100: 0.0977)
    assert not compare_equal(np.array([0.0]), np.array([0.05]), f16)[0]
    assert compare_equal(np.array([0.0]), np.array([0.05]), f16, 100.0)[0]
    assert not compare_equal(np.array([np.nan]), np.array([0.0]), f16)[0]
    assert not compare_equal(np.array([np.inf]), np.array([np.inf]), f16)[0]
    # integers: epsilon() == 0, so any difference fails
    assert not compare_equal(np.array([5]), np.array([6]), ELEMS["i32"])[0]
    assert compare_equal(np.array([5]), np.array([5]), ELEMS["i32"])[0]


@smoke
def test_k_subsets_match_notes_example():
    # §3.1: gfx942 f16 BlockK=32 -> 2 x 16x16x16; lane group h holds K h*8..h*8+7,
    # instruction 0 takes the first 4 of them, instruction 1 the last 4
    s0, s1 = k_subsets(32, 16, 64)
    assert sorted(s0) == [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27]
    assert sorted(s1) == [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31]


@smoke
def test_gemm_detects_a_wrong_result(monkeypatch):
    """The checks are not vacuous: a corrupted element fails check_gemm."""
    import gemm_kernels

    real = gemm_kernels.run_gemm

    def corrupt(*args, **kwargs):
        d = real(*args, **kwargs)
        d[3, 5] += 2
        return d

    monkeypatch.setitem(globals(), "run_gemm", corrupt)
    with pytest.raises(AssertionError):
        check_gemm("gfx942", "f16_f32_f32", "NN", (16, 16, 16), (1, 4), (64, 64, 64))


# ---------------------------------------------------------------------------------------------
# Numerics on the emulated matrix cores (mma_sync + store, no epilogue)
# ---------------------------------------------------------------------------------------------


def run_mma(arch, a, b, c, input_t, compute_t, block_k):
    """D = A (16xK, row_major) * B (Kx16, col_major) + C (16x16, col_major) on one wave."""
    k = a.shape[1]
    fn = mma_store(16, 16, block_k, input_t, compute_t, row_major, col_major, col_major)
    a_mem = np.ascontiguousarray(a).ravel()
    b_mem = np.ascontiguousarray(b.T).ravel()
    c_mem = np.ascontiguousarray(c.T).ravel()
    d_mem = np.zeros_like(c_mem)
    fn[1, WAVE_SIZE[arch], 0, arch](k, a_mem, b_mem, c_mem, d_mem, k, k, 16, 16)
    return d_mem.reshape(16, 16).T


@smoke
@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("dtype,ulp", [(float16, 2.0**-10), (bfloat16, 2.0**-7)],
                         ids=["f16", "bf16"])
def test_16bit_accumulator_double_rounding(arch, dtype, ulp):
    """Exact D[0][0] = 1 + ulp/2 + 2**-30 (f16: 1 + 2**-11 + 2**-30, bf16: 1 + 2**-8 + 2**-30).
    gfx9: the f32 MFMA result is 1 + ulp/2 (2**-30 is below f32's half ulp 2**-24), a tie
    that the f32 -> 16-bit conversion rounds to the even 1.0 (gfx908 bf16 uses two 16x16x8
    MFMAs: K {0,1} give 1 + 2**-8 -> 1.0, then + 2**-30 -> 1.0; same result).
    gfx11/gfx12: native 16-bit accumulation rounds the exact value once -> 1 + ulp."""
    half = ulp / 2
    a = np.zeros((16, 16), dtype)
    b = np.zeros((16, 16), dtype)
    a[0, :3] = [1.0, half, 2.0**-15]
    b[:3, 0] = [1.0, 1.0, 2.0**-15]
    assert float(a[0, 2]) == 2.0**-15 and float(a[0, 1]) == half  # exact inputs
    d = run_mma(arch, a, b, np.zeros((16, 16), dtype), dtype, dtype, 16)
    expected = 1.0 if FAMILY[arch] == "gfx9" else 1.0 + ulp
    assert float(d[0, 0]) == expected
    # everything else is 0 (row 0 x other columns, other rows)
    assert np.count_nonzero(d.astype(np.float64)) == 1


@smoke
@pytest.mark.parametrize("arch", ["gfx908", "gfx90a", "gfx942", "gfx950"])
@pytest.mark.parametrize("ks", [(0, 1, 4), (0, 1, 16)], ids=["k4", "k16"])
def test_f16_accumulator_rounds_per_instruction_k32(arch, ks):
    """BlockK = 32, f16 -> f16 on gfx9. Terms at K indices ks: 1*1 + 2**-11 + 2**-11.

    Exact sum 1 + 2**-10 is an f16 number, so one rounding gives 1 + 2**-10.
    gfx908/90a/942 use two 16x16x16 MFMAs; instruction 0 sums K {0-3, 8-11, 16-19, 24-27},
    instruction 1 K {4-7, 12-15, 20-23, 28-31} (rocwmma-notes §3.1):
      ks = (0, 1, 4):  instr 0: 1 + 2**-11 -> f32 exact -> f16 tie -> 1.0;
                       instr 1: 1.0 + 2**-11 -> tie -> 1.0.  Result 1.0.
      ks = (0, 1, 16): all in instr 0 -> 1 + 2**-10 exactly.
    gfx950 picks the single 16x16x32 MFMA -> 1 + 2**-10 in both cases.
    """
    a = np.zeros((16, 32), np.float16)
    b = np.zeros((32, 16), np.float16)
    a[0, list(ks)] = [1.0, 2.0**-11, 2.0**-11]
    b[list(ks), 0] = 1.0
    d = run_mma(arch, a, b, np.zeros((16, 16), np.float16), float16, float16, 32)
    once = 1.0 + 2.0**-10
    if arch == "gfx950" or ks == (0, 1, 16):
        expected = once
    else:
        expected = 1.0
    assert float(d[0, 0]) == expected
    # the same data with an f32 accumulator is exact everywhere
    d32 = run_mma(arch, a, b, np.zeros((16, 16), np.float32), float16, np.float32, 32)
    assert float(d32[0, 0]) == once


@smoke
@pytest.mark.parametrize("arch", ARCHS)
def test_int32_accumulator_wraps_or_saturates(arch):
    """C = 2**31 - 10, A.B = 4*5 = 20 -> 2**31 + 10 does not fit int32.
    MFMA (gfx9) has no clamp: wraps to 2**31 + 10 - 2**32 = -2**31 + 10.
    WMMA signed i8 (gfx11/12, clamp=1 in rocWMMA): saturates to 2**31 - 1."""
    a = np.zeros((16, 16), np.int8)
    b = np.zeros((16, 16), np.int8)
    a[0, 0], b[0, 0] = 4, 5
    a[1, 0], b[0, 1] = -4, 5  # D[i][j] = C[i][j] + A[i][0] * B[0][j]
    c = np.zeros((16, 16), np.int32)
    c[0, 0] = 2**31 - 10  # D[0][0] = 2**31 - 10 + 20
    c[1, 0] = -(2**31) + 10  # D[1][0] = -2**31 + 10 - 20 = -2**31 - 10
    d = run_mma(arch, a, b, c, int8, int32, 16)
    if FAMILY[arch] == "gfx9":
        assert d[0, 0] == -(2**31) + 10
        assert d[1, 0] == 2**31 - 10
    else:
        assert d[0, 0] == 2**31 - 1
        assert d[1, 0] == -(2**31)
    assert d[0, 1] == 20 and d[1, 1] == -20  # row 1 x column 1: (-4)*5


@smoke
def test_uint8_accumulator_wraps_on_gfx12():
    """gfx12 u8 WMMA is called with clamp = 0 (rocwmma-notes §3.5): wraps."""
    a = np.zeros((16, 16), np.uint8)
    b = np.zeros((16, 16), np.uint8)
    a[0, 0], b[0, 0] = 4, 5
    a[0, 1], b[1, 0] = 255, 255  # 65025
    c = np.zeros((16, 16), np.int32)
    c[0, 0] = 2**31 - 10
    d = run_mma("gfx1200", a, b, c, uint8, int32, 16)
    assert d[0, 0] == 2**31 - 10 + 20 + 65025 - 2**32


# ---------------------------------------------------------------------------------------------
# MappingUtil as rocWMMA's kernels call it
# ---------------------------------------------------------------------------------------------


@smoke
def test_mapping_util_datacoord_rocwmma_overloads():
    """rocWMMA's dataCoord(baseAddr, matrixCoord, ldm) and dataCoord(baseAddr, ldm)."""
    buf = np.zeros(64 * 64, np.float32)
    seen = {}
    mapping = MappingUtil[16, 16, np.float32, col_major]

    @kernel
    def probe(p):
        seen["ptr"] = mapping.dataCoord(p, make_coord2d(3, 5), 64)
        seen[blockIdx.y] = mapping.dataCoord(p, 64)

    probe[(1, 2), 64, 0, "gfx942"](buf)
    assert seen["ptr"].offset == 5 * 64 + 3  # col_major: col * ldm + row
    assert seen[1].offset == 16 * 64 + 0  # block (0, 1): matrix coord (0, 16)


@smoke
def test_mapping_util_coordinate_overrides():
    """matrixCoordM/N and blockCoordM/N, as gemm_PGR0_LB0_MP0_SB_NC uses them."""
    seen = {}
    mapping = MappingUtil[16, 32, np.float32, row_major]

    @kernel
    def probe():
        seen[(blockIdx.x, blockIdx.y)] = (mapping.matrixCoordN(0), mapping.matrixCoordM(0),
                                          mapping.blockCoordN(7), mapping.blockCoordM(7))

    probe[(3, 4), 64, 0, "gfx942"]()
    # block (2, 3) of one 64-lane wave: wave coord (2, 3), matrix coord (2*16, 3*32)
    n0, m0, bn7, bm7 = seen[(2, 3)]
    assert tuple(n0) == (32, 0)  # row kept, col overridden
    assert tuple(m0) == (0, 96)  # col kept, row overridden
    assert tuple(bn7) == (2, 7) and tuple(bm7) == (7, 3)
