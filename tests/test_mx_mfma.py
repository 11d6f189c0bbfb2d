"""gfx950's MX MFMA (`mfma_scale_f32_{16x16x128,32x32x64}_f8f6f4`): layouts against the
tables of their sources, exact GEMMs for every A/B format pair on both engines, E8M0 block
scales (range, NaN, OPSEL byte, which lane), the unscaled form and modifier errors.

Sources written into the tables below (not the code's output):
- CDNA4 ISA §6.7 "Packed Math" (as quoted in public notes): for 16x16x128 "K=0..31 for M=0
  in lane0, M=1 in lane1 ... up to M=15 in lane 15; then K=32..63 in lanes 16..31;
  K=64..96 in lanes 32..48; and K=96..127 in lanes 48..63"; for 32x32 with K=64 "Lane 0
  M=0, K=0..31 ... Lane 32 M=0, K=32..63 ... Lane 63 M=31, K=32..63";
- CK's WarpGemmAttributeMfmaImpl_f32_16x16x128_f8f6f4: kAMLane = kBNLane = 16,
  kABKLane = 4, kABKPerLane = 32; fp8/bf8 in int32x8, fp4 in int32x4 (the rest zero);
- LLVM: format codes 0-4 = fp8, bf8, fp6, bf6, fp4 (AMDGPU::MFMAScaleFormats,
  llvm/lib/Target/AMDGPU/SIDefines.h @ 002bce7) with 8, 8, 6, 6, 4 VGPRs
  (llvm/test/MC/AMDGPU/mai-gfx950.s @ 007e824, "wrong register tuple size").
"""

from __future__ import annotations

import numpy as np
import pytest

from rocwmma_py import amdgcn, kernel
from rocwmma_py import types as T
from rocwmma_py.arch.execute import execute
from rocwmma_py.errors import BuiltinArgumentError, ModifierError, OperandShapeError
from rocwmma_py.runtime import (
    blockDim,
    blockIdx,
    last_launch_stats,
    threadIdx,
    use_arch,
    use_engine,
)

pytestmark = pytest.mark.smoke

NAMES = ["mfma_scale_f32_16x16x128_f8f6f4", "mfma_scale_f32_32x32x64_f8f6f4"]
# code: (type, bits, VGPRs) - LLVM's MFMAScaleFormats order and register counts
FORMATS = {0: (T.float8, 8, 8), 1: (T.bfloat8, 8, 8), 2: (T.float6_e2m3, 6, 6),
           3: (T.float6_e3m2, 6, 6), 4: (T.float4_e2m1, 4, 4)}
# the ISA's lane table: lane -> (row of A / column of B, first K); 32 K values per lane
ISA_LANES = {
    NAMES[0]: {0: (0, 0), 1: (1, 0), 15: (15, 0), 16: (0, 32), 31: (15, 32), 32: (0, 64),
               48: (0, 96), 63: (15, 96)},
    NAMES[1]: {0: (0, 0), 1: (1, 0), 31: (31, 0), 32: (0, 32), 63: (31, 32)},
}


def instr(name):
    return amdgcn.instruction(name, "gfx950")


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("code", FORMATS)
def test_a_and_b_layouts_match_the_isa_table(name, code):
    t, bits, vgprs = FORMATS[code]
    ins = instr(name)
    for is_b in (False, True):
        lay = ins.mx_layout(t, is_b)
        assert lay.slots == 32 and lay.bits == bits
        assert lay.slots * bits // 32 == vgprs
        for lane, (x, k0) in ISA_LANES[name].items():
            rows, cols = lay.row[lane], lay.col[lane]
            dim, k = (cols, rows) if is_b else (rows, cols)
            assert (dim == x).all(), (lane, is_b)
            assert k.tolist() == list(range(k0, k0 + 32)), (lane, is_b)


def registers(mat: np.ndarray, t, lay) -> np.ndarray:
    """(64, 8) int32 words of a matrix in a format, per the layout, zero-padded to v8i32."""
    el = mat[lay.row, lay.col].astype(t)
    words = T.pack(el, t)
    return np.pad(words, ((0, 0), (0, 8 - words.shape[1]))).view(np.int32)


def small_ints(rng, shape, t):
    """Integers every format holds exactly (fp4's largest integers are 0..4 and 6)."""
    return rng.choice([-4, -3, -2, -1, 0, 1, 2, 3, 4], shape).astype(np.float64)


def d_matrix(ins, d) -> np.ndarray:
    lay = ins.c_layout()
    out = np.zeros((ins.m, ins.n))
    out[lay.row, lay.col] = np.asarray(d)
    return out


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("cbsz", FORMATS)
@pytest.mark.parametrize("blgp", FORMATS)
def test_exact_integer_gemm_every_format_pair(name, cbsz, blgp):
    ins = instr(name)
    rng = np.random.default_rng(cbsz * 5 + blgp)
    a = small_ints(rng, (ins.m, ins.k), None)
    b = small_ints(rng, (ins.k, ins.n), None)
    c = rng.integers(-50, 50, (ins.m, ins.n)).astype(np.float64)
    c_regs = c[ins.c_layout().row, ins.c_layout().col].astype(np.float32)
    ta, tb = FORMATS[cbsz][0], FORMATS[blgp][0]
    with use_arch("gfx950"):
        d = getattr(amdgcn, name)(registers(a, ta, ins.mx_layout(ta, False)),
                                  registers(b, tb, ins.mx_layout(tb, True)), c_regs,
                                  cbsz, blgp, 0, 0, 0, 0)
    np.testing.assert_array_equal(d_matrix(ins, d), a @ b + c)


def scale_words(ins, exps: np.ndarray, is_b: bool, opsel: int, rng) -> np.ndarray:
    """(64,) scale words: the E8M0 of (row/column x, K block kb) in byte `opsel` of lane
    x + dim*kb (the lane holding those 32 values), random bytes elsewhere."""
    dim = ins.n if is_b else ins.m
    words = rng.integers(0, 2**32, 64).astype(np.uint32)
    lanes = np.arange(64)
    byte = exps[lanes % dim, lanes // dim].astype(np.uint32)
    mask = np.uint32(0xFF << 8 * opsel)
    return ((words & ~mask) | (byte << np.uint32(8 * opsel))).view(np.int32)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("opsel", range(4))
def test_block_scales_reach_what_f32_cannot_hold_unscaled(name, opsel):
    """A = 448 (fp8 max) everywhere with A scales up to 2**100 and B scales down to 2**-110:
    products near 2**(100-110) * 448 * B; the sum is exact (powers of two times small
    ints) and each (row, column) pair gets its own blocks' scales."""
    ins = instr(name)
    rng = np.random.default_rng(opsel)
    blocks = ins.k // 32
    a = np.full((ins.m, ins.k), 448.0)
    b = small_ints(rng, (ins.k, ins.n), None)
    sa = rng.integers(127 + 90, 127 + 101, (ins.m, blocks))
    sb = rng.integers(127 - 110, 127 - 100, (ins.n, blocks))
    lay_a, lay_b = ins.mx_layout(T.float8, False), ins.mx_layout(T.float8, True)
    with use_arch("gfx950"):
        d = getattr(amdgcn, name)(registers(a, T.float8, lay_a), registers(b, T.float8, lay_b),
                                  np.zeros((64, ins.m * ins.n // 64), np.float32), 0, 0, opsel,
                                  scale_words(ins, sa, False, opsel, rng), opsel,
                                  scale_words(ins, sb, True, opsel, rng))
    fa = np.repeat(2.0 ** (sa - 127), 32, axis=1)  # (M, K)
    fb = np.repeat(2.0 ** (sb - 127), 32, axis=1).T  # (K, N)
    want = (a * fa) @ (b * fb)
    assert np.isfinite(want).all() and np.abs(want).max() < 2.0**100
    np.testing.assert_array_equal(d_matrix(ins, d), want.astype(np.float32))


@pytest.mark.parametrize("name", NAMES)
def test_nan_scale_poisons_only_its_row(name):
    ins = instr(name)
    rng = np.random.default_rng(1)
    a = small_ints(rng, (ins.m, ins.k), None)
    b = small_ints(rng, (ins.k, ins.n), None)
    sa = np.full((ins.m, ins.k // 32), 127)
    sa[3, 1] = 0xFF  # row 3, K block 1
    sb = np.full((ins.n, ins.k // 32), 127)
    lay_a, lay_b = ins.mx_layout(T.float6_e2m3, False), ins.mx_layout(T.float4_e2m1, True)
    with use_arch("gfx950"):
        d = getattr(amdgcn, name)(registers(a, T.float6_e2m3, lay_a),
                                  registers(b, T.float4_e2m1, lay_b),
                                  np.zeros((64, ins.m * ins.n // 64), np.float32), 2, 4, 0,
                                  scale_words(ins, sa, False, 0, rng), 0,
                                  scale_words(ins, sb, True, 0, rng))
    dm = d_matrix(ins, d)
    assert np.isnan(dm[3]).all()
    rest = np.delete(np.arange(ins.m), 3)
    np.testing.assert_array_equal(dm[rest], (a @ b)[rest])


def test_literal_zero_scales_are_the_unscaled_instruction_a_zero_register_is_not():
    ins = instr(NAMES[0])
    a = np.ones((16, 128))
    regs = registers(a, T.float8, ins.mx_layout(T.float8, False))
    c = np.zeros((64, 4), np.float32)
    with use_arch("gfx950"):
        unscaled = amdgcn.mfma_scale_f32_16x16x128_f8f6f4(regs, regs, c, 0, 0, 0, 0, 0, 0)
        zero = np.zeros(64, np.int32)  # E8M0 0 = 2**-127 for both: products 2**-254 -> 0
        tiny = amdgcn.mfma_scale_f32_16x16x128_f8f6f4(regs, regs, c, 0, 0, 0, zero, 0, zero)
        one = np.full(64, 127, np.int32)
        scaled = amdgcn.mfma_scale_f32_16x16x128_f8f6f4(regs, regs, c, 0, 0, 0, one, 0, one)
    assert (np.asarray(unscaled) == 128).all() and (np.asarray(scaled) == 128).all()
    assert (np.asarray(tiny) == 0).all()
    # the ISA level: no scales at all is v_mfma_f32_16x16x128_f8f6f4
    d = execute(ins, regs, regs, c, cbsz=0, blgp=0)
    assert (d == 128).all()


def test_fp6_and_fp4_read_only_their_registers():
    """Junk in the words a format does not read (VGPRs 6-7 for fp6, 4-7 for fp4) changes
    nothing; a vector of exactly those words (the IR intrinsic's v6i32/v4i32) works too."""
    ins = instr(NAMES[0])
    rng = np.random.default_rng(5)
    a = small_ints(rng, (16, 128), None)
    b = small_ints(rng, (128, 16), None)
    c = np.zeros((64, 4), np.float32)
    ra = registers(a, T.float6_e3m2, ins.mx_layout(T.float6_e3m2, False))
    rb = registers(b, T.float4_e2m1, ins.mx_layout(T.float4_e2m1, True))
    junk_a, junk_b = ra.copy(), rb.copy()
    junk_a[:, 6:] = -1
    junk_b[:, 4:] = 12345
    with use_arch("gfx950"):
        d1 = amdgcn.mfma_scale_f32_16x16x128_f8f6f4(junk_a, junk_b, c, 3, 4, 0, 0, 0, 0)
        d2 = amdgcn.mfma_scale_f32_16x16x128_f8f6f4(ra[:, :6], rb[:, :4], c, 3, 4, 0, 0, 0, 0)
    np.testing.assert_array_equal(d_matrix(ins, d1), a @ b)
    np.testing.assert_array_equal(np.asarray(d1), np.asarray(d2))
    with use_arch("gfx950"), pytest.raises(OperandShapeError, match="reads 24"):
        amdgcn.mfma_scale_f32_16x16x128_f8f6f4(ra[:, :4], rb, c, 3, 4, 0, 0, 0, 0)


@pytest.mark.parametrize("kw,match", [({"cbsz": 5}, "cbsz"), ({"blgp": 7}, "blgp"),
                                      ({"opsel_a": 4}, "opsel_a"), ({"opsel_b": -1}, "opsel_b"),
                                      ({"cbsz": 1.0}, "cbsz")])
def test_out_of_range_modifiers(kw, match):
    args = dict(cbsz=0, blgp=0, opsel_a=0, scale_a=0, opsel_b=0, scale_b=0)
    args.update(kw)
    z = np.zeros((64, 8), np.int32)
    with use_arch("gfx950"), pytest.raises(ModifierError, match=match):
        amdgcn.mfma_scale_f32_16x16x128_f8f6f4(z, z, np.zeros((64, 4), np.float32), **args)


def test_one_scale_without_the_other_and_scales_on_a_dense_mfma():
    ins = instr(NAMES[0])
    z = np.zeros((64, 8), np.int32)
    with pytest.raises(BuiltinArgumentError, match="together"):
        execute(ins, z, z, np.zeros((64, 4), np.float32), scale_a=np.zeros(64, np.int32))
    dense = amdgcn.instruction("mfma_f32_16x16x32_f16", "gfx950")
    with pytest.raises(ModifierError, match="not a scaled MX"):
        execute(dense, np.zeros((64, 8), np.float16), np.zeros((64, 8), np.float16),
                np.zeros((64, 4), np.float32), scale_a=0, scale_b=0)


def test_only_on_gfx950():
    with use_arch("gfx942"), pytest.raises(amdgcn.UnsupportedInstructionError, match="gfx950"):
        amdgcn.mfma_scale_f32_16x16x128_f8f6f4(*([None] * 9))


# ---- both engines ------------------------------------------------------------------------


def mx_kernel(name: str, cbsz: int, blgp: int):
    """Each lane loads its 8 A words, 8 B words, C registers and two scale words at (global
    thread id), calls the builtin and stores D."""
    sc = instr(name).c_layout().slots

    @kernel
    def body(a, b, c, sa, sb, d):
        t = blockIdx.x * blockDim.x + threadIdx.x
        av = np.stack([a[t * 8 + s] for s in range(8)], axis=1)
        bv = np.stack([b[t * 8 + s] for s in range(8)], axis=1)
        cv = np.stack([c[t * sc + s] for s in range(sc)], axis=1)
        out = getattr(amdgcn, name)(av, bv, cv, cbsz, blgp, 1, sa[t], 2, sb[t])
        for s in range(sc):
            d[t * sc + s] = out[:, s]

    return body


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("cbsz,blgp", [(0, 4), (2, 1), (3, 3)])
def test_kernel_on_both_engines(name, cbsz, blgp):
    """6 waves with their own data and scales: both engines give the same bits, each wave's
    D is the exact scaled product, and the batched launch ran no block per wave."""
    ins = instr(name)
    rng = np.random.default_rng(cbsz + 10 * blgp)
    ta, tb = FORMATS[cbsz][0], FORMATS[blgp][0]
    waves, blocks = 6, ins.k // 32
    cases = []
    for _ in range(waves):
        a = small_ints(rng, (ins.m, ins.k), None)
        b = small_ints(rng, (ins.k, ins.n), None)
        c = rng.integers(-9, 9, (ins.m, ins.n)).astype(np.float64)
        sa = rng.integers(120, 135, (ins.m, blocks))
        sb = rng.integers(120, 135, (ins.n, blocks))
        cases.append((a, b, c, sa, sb))
    mem = [np.concatenate(x) for x in zip(*[
        (registers(a, ta, ins.mx_layout(ta, False)).ravel(),
         registers(b, tb, ins.mx_layout(tb, True)).ravel(),
         c[ins.c_layout().row, ins.c_layout().col].astype(np.float32).ravel(),
         scale_words(ins, sa, False, 1, rng), scale_words(ins, sb, True, 2, rng))
        for a, b, c, sa, sb in cases], strict=True)]
    out = {}
    for engine in ("wave", "batch"):
        d_mem = np.zeros_like(mem[2])
        with use_engine(engine):
            mx_kernel(name, cbsz, blgp)[3, 128, 0, "gfx950"](*mem, d_mem)
        out[engine] = d_mem
        if engine == "batch":
            assert last_launch_stats().per_wave_blocks == 0
    assert out["wave"].tobytes() == out["batch"].tobytes()
    d_regs = out["batch"].reshape(waves, 64, -1)
    for w, (a, b, c, sa, sb) in enumerate(cases):
        fa = np.repeat(2.0 ** (sa - 127), 32, axis=1)
        fb = np.repeat(2.0 ** (sb - 127), 32, axis=1).T
        want = ((a * fa) @ (b * fb) + c).astype(np.float32)
        np.testing.assert_array_equal(d_matrix(ins, d_regs[w]), want, err_msg=f"wave {w}")


# ---- the inspector -----------------------------------------------------------------------


def test_inspector_shows_the_format_cbsz_and_blgp_pick(capsys):
    """B[40][3] of 32x32x64 in fp4: lane 3 + 32 (K block 1), element 8 = bits 32..35 (VGPR 1
    bits 3:0); A[1][37] of 16x16x128 in fp6: lane 17, element 5 = bits 30..35, which cross
    from VGPR 0 into VGPR 1 (the inspector names the first VGPR and its bit range)."""
    from rocwmma_py.inspector import cli

    assert cli.layout_main(["--instr", "v_mfma_scale_f32_32x32x64_f8f6f4", "--arch", "gfx950",
                            "--matrix", "b", "--blgp", "4", "--row", "40", "--col", "3"]) == 0
    out = capsys.readouterr().out
    assert "BLGP=4: fp4" in out and "B[40][3]  v1{35}.[3:0]" in out
    assert cli.layout_main(["--instr", "v_mfma_scale_f32_16x16x128_f8f6f4", "--arch", "gfx950",
                            "--cbsz", "2", "--row", "1", "--col", "37"]) == 0
    out = capsys.readouterr().out
    assert "CBSZ=2: fp6" in out and " 17 " in out
    assert cli.layout_main(["--instr", "v_mfma_scale_f32_16x16x128_f8f6f4", "--arch", "gfx950",
                            "--blgp", "5", "--matrix", "b"]) == 2
    assert "MX format code 0..4" in capsys.readouterr().err


def test_inspector_shows_which_lane_and_byte_hold_each_scale(capsys):
    """The scale of A row 3, K block 2 (k 64..95) is byte OPSEL of lane 3 + 16*2 = 35; of B
    column 1, K block 1 (32x32x64) byte 1 of lane 33 - the lanes holding those values."""
    from rocwmma_py.inspector import cli

    assert cli.layout_main(["--instr", "v_mfma_scale_f32_16x16x128_f8f6f4", "--arch", "gfx950",
                            "--matrix", "sa", "--opsel", "2", "--row", "3", "--col", "70"]) == 0
    assert "SA[3][70]  v0{35}.[23:16]" in capsys.readouterr().out
    assert cli.layout_main(["--instr", "v_mfma_scale_f32_32x32x64_f8f6f4", "--arch", "gfx950",
                            "--matrix", "sb", "--opsel", "1", "--row", "40", "--col", "1"]) == 0
    assert "SB[40][1]  v0{33}.[15:8]" in capsys.readouterr().out
    assert cli.layout_main(["--instr", "v_mfma_f32_16x16x32_f16", "--arch", "gfx950",
                            "--matrix", "sa"]) == 2
    assert "scale operands" in capsys.readouterr().err
    assert cli.layout_main(["--instr", "v_mfma_scale_f32_16x16x128_f8f6f4", "--arch", "gfx950",
                            "--matrix", "sa", "--opsel", "4"]) == 2
