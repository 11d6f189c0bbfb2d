"""gfx1250's MX WMMA (`wmma_[scale[16]_]f32_16x16x128_f8f6f4`, `wmma_[scale[16]_]f32_32x16x128_f4`):
layouts against tables written out from their sources, exact GEMMs for every A/B format pair
through every builtin, block scales (E8M0, E5M3, E4M3; 32-bit and 64-bit words; the lane-half
selector), NaN scales, c_mod and modifier errors.

Sources written into the tables below (not the code's output):
- LLVM clang/include/clang/Basic/BuiltinsAMDGPU.td @ 008ba4314e761332c4eb0c8b817346a819d0654d:
  argument lists (`ARGS`), v16i32 A/B (f8f6f4), v16i32 A + v8i32 B + v16f32 C (f4), int scale
  words (scale) and long ones (scale16);
- LLVM's AMDGPU verifier for amdgcn_wmma_*_f8f6f4: format codes 0-4 = fp8, bf8, fp6, bf6, fp4
  reading 16, 16, 12, 12, 8 VGPRs (`getFormatNumRegs`);
- CK's gfx1250 MX WMMA test, ROCm/composable_kernel @ e02c566795e4
  test/mx_wmma_op/mx_wmma_op.hpp (`load_A_row_major`, `load_mx_A_row_major` register tables):
  lanes 0-15 / 16-31 alternate runs of K: fp8 VGPRs 0-3 K 0-15 / 16-31 ...; fp6 VGPRs 0-5
  K 0-31 / 32-63, 6-11 K 64-95 / 96-127; fp4 VGPRs 0-3 K 0-31 / 32-63, 4-7 K 64-95 / 96-127;
  scales Scale[0-3] (block 32) or Scale[0-7] (block 16) in K order, A's in lanes 16-31 (its
  selector 1), B's in lanes 0-15; ck_tile's base traits (ROCm/rocm-libraries @ 56e5c784e095)
  agree for fp8 (kK1PerLane 16) and fp4 (32);
- ROCm/llvm-project @ 1dce48db3438 amd/comgr/src/comgr-hotswap-patch-wmma-scale16.cpp: the
  32x16 f4 A is v[a:a+7] (rows 0-15) and v[a+8:a+15] (rows 16-31), D likewise; scale bytes
  in K order, block-16 bytes 2j, 2j+1 reducing to block-32 byte j;
- CK 8bit traits (ROCm/rocm-libraries @ 97b26eaeef57): lane L holds row L's K scales,
  selector 0 -> lanes 0..15, 1 -> lanes 16..31; mlir PR llvm/llvm-project#169854: a 32-row A's
  scales fill the whole VGPR;
- scale formats (AMDGPUInstPrinter MATRIX_SCALE_FMT_E8/E5M3/E4M3 = 0/1/2); E5M3 unsigned, bias
  15, subnormals, 0xFF NaN (tensilelite DataTypes_E5M3.hpp, CK utils::ScaleFormat<5, 3>); E4M3
  as CK's ScaleFormat<4, 3> (bias 7, 0x7F NaN, bit 7 ignored).
"""

from __future__ import annotations

import numpy as np
import pytest

from rocwmma_py import amdgcn, kernel
from rocwmma_py import types as T
from rocwmma_py.arch.execute import execute
from rocwmma_py.errors import (
    BuiltinArgumentError,
    LayoutQueryError,
    ModifierError,
    OperandShapeError,
    OperandTypeError,
)
from rocwmma_py.layout_inspector import instruction_layout, register_contents
from rocwmma_py.runtime import blockDim, blockIdx, threadIdx, use_arch

pytestmark = pytest.mark.smoke

F8F6F4 = ["wmma_f32_16x16x128_f8f6f4", "wmma_scale_f32_16x16x128_f8f6f4",
          "wmma_scale16_f32_16x16x128_f8f6f4"]
F4 = ["wmma_f32_32x16x128_f4", "wmma_scale_f32_32x16x128_f4", "wmma_scale16_f32_32x16x128_f4"]
_SCALES = ["matrix_a_scale", "matrix_a_scale_fmt", "matrix_a_scale_exp", "matrix_b_scale",
           "matrix_b_scale_fmt", "matrix_b_scale_exp", "matrix_a_reuse", "matrix_b_reuse"]
ARGS = {
    F8F6F4[0]: ["matrix_a_fmt", "a", "matrix_b_fmt", "b", "c_mod", "c"],
    F8F6F4[1]: ["matrix_a_fmt", "a", "matrix_b_fmt", "b", "c_mod", "c", *_SCALES],
    F8F6F4[2]: ["matrix_a_fmt", "a", "matrix_b_fmt", "b", "c_mod", "c", *_SCALES],
    F4[0]: ["a", "b", "c_mod", "c"],
    F4[1]: ["a", "b", "c_mod", "c", *_SCALES],
    F4[2]: ["a", "b", "c_mod", "c", *_SCALES],
}
# code: (type, bits, VGPRs of A/B, K values per run in a lane half)
FORMATS = {0: (T.float8, 8, 16, 16), 1: (T.bfloat8, 8, 16, 16), 2: (T.float6_e2m3, 6, 12, 32),
           3: (T.float6_e3m2, 6, 12, 32), 4: (T.float4_e2m1, 4, 8, 32)}
# lane -> the K values it holds (16x16x128 A row lane % 16 / B column lane % 16), per run
LANE_K = {
    16: {0: [*range(0, 16), *range(32, 48), *range(64, 80), *range(96, 112)],
         16: [*range(16, 32), *range(48, 64), *range(80, 96), *range(112, 128)]},
    32: {0: [*range(0, 32), *range(64, 96)], 16: [*range(32, 64), *range(96, 128)]},
}


def instr(name):
    return amdgcn.instruction(name, "gfx1250")


def place(x: int, k: int, run: int) -> tuple[int, int]:
    """(lane, slot) of row x of A (column x of B) at K k: runs of `run` K alternate between
    lanes x and x + 16; a 32-row A puts rows 16-31 in the 64 slots after rows 0-15's."""
    r, within = divmod(k, run)
    return x % 16 + 16 * (r % 2), run * (r // 2) + within + 64 * (x // 16)


def registers(mat: np.ndarray, code: int, is_b: bool, words: int = 16) -> np.ndarray:
    """(32, words) int32 of a logical A (rows, 128) or B (128, 16) in format `code`, placed by
    `place` (not the code's layout), zero-padded to the builtin's vector."""
    t, bits, _, run = FORMATS[code]
    m = mat.T if is_b else mat
    el = np.zeros((32, 64 * (m.shape[0] // 16)))
    for x in range(m.shape[0]):
        for k in range(128):
            el[place(x, k, run)] = m[x, k]
    packed = T.pack(el.astype(t), t)
    return np.pad(packed, ((0, 0), (0, words - packed.shape[1]))).view(np.int32)


def c_regs(c: np.ndarray) -> np.ndarray:
    """C/D: row i, column j at lane j + 16*((i // 8) % 2), slot i % 8 + 8*(i // 16)."""
    out = np.zeros((32, c.shape[0] // 2), np.float32)
    for i in range(c.shape[0]):
        out[np.arange(16) + 16 * ((i // 8) % 2), i % 8 + 8 * (i // 16)] = c[i]
    return out


def d_matrix(d, rows: int) -> np.ndarray:
    d = np.asarray(d)
    return np.array([[d[j + 16 * ((i // 8) % 2), i % 8 + 8 * (i // 16)] for j in range(16)]
                     for i in range(rows)], np.float64)


def small_ints(rng, shape):
    """Integers every format holds exactly (fp4's largest integers are 0..4 and 6)."""
    return rng.choice([-4, -3, -2, -1, 0, 1, 2, 3, 4], shape).astype(np.float64)


def scale_words(exps: np.ndarray, per_lane: int, sel: int, rng) -> np.ndarray:
    """Per-lane scale words: byte kb of lane x + 16*sel (lane x for 32 rows) = exps[x, kb],
    junk in the other lanes; int32 for 4 bytes, int64 for 8."""
    rows = exps.shape[0]
    lanes = np.arange(rows) + (0 if rows == 32 else 16 * sel)
    junk = rng.integers(0, 256, (32, per_lane))
    junk[lanes] = exps
    words = sum(junk[:, b].astype(np.uint64) << np.uint64(8 * b) for b in range(per_lane))
    return words.astype(np.uint32).view(np.int32) if per_lane == 4 else words.view(np.int64)


def call(name, a_code, a, b_code, b, c, *, c_mod=0, scales=None, **mods):
    """The builtin by its argument names; `scales` = (A word, B word) per lane. The f4
    builtins read fp4 whatever the codes say."""
    ins = instr(name)
    if name in F4:
        a_code = b_code = 4
    args = {"matrix_a_fmt": a_code, "matrix_b_fmt": b_code, "c_mod": c_mod,
            "a": registers(a, a_code, False), "b": registers(b, b_code, True,
                                                             16 if ins.m == 16 else 8),
            "c": c_regs(c)}
    if scales is not None:
        args["matrix_a_scale_exp"], args["matrix_b_scale_exp"] = scales
    args.update(mods)
    with use_arch("gfx1250"):
        d = getattr(amdgcn, name)(**{n: args.get(n, 0) for n in ARGS[name]})
    return d_matrix(d, ins.m)


def test_builtins_and_arguments_are_llvms():
    for name, args in ARGS.items():
        ins = instr(name)
        assert list(ins.args) == args and ins.wave == 32 and ins.isa == "v_" + name
        assert (ins.m, ins.n, ins.k) == ((16 if name in F8F6F4 else 32), 16, 128)
        assert amdgcn.instruction(name, "gfx1251").args == ins.args
    with use_arch("gfx950"), pytest.raises(Exception, match="gfx1250"):
        amdgcn.wmma_f32_32x16x128_f4(0, 0, 0, np.zeros((32, 16)))


@pytest.mark.parametrize("code", FORMATS)
@pytest.mark.parametrize("is_b", [False, True])
def test_layouts_match_the_source_table(code, is_b):
    t, bits, vgprs, run = FORMATS[code]
    lay = instr(F8F6F4[1]).mx_layout(t, is_b)
    assert lay.bits == bits and lay.slots * bits == 32 * vgprs
    for lane in range(32):
        x, ks = lane % 16, LANE_K[run][16 * (lane // 16)]
        dim, k = (lay.col, lay.row) if is_b else (lay.row, lay.col)
        assert (dim[lane] == x).all() and k[lane].tolist() == ks, lane
    if code == 4:  # the f4 builtins: the same B, and A of 32 rows in twice the slots
        tall = instr(F4[0])
        assert (tall.b_layout.row == lay.row).all() if is_b else tall.a_layout.slots == 128
        if not is_b:
            assert (tall.a_layout.row[:, :64] == lay.row).all()
            assert (tall.a_layout.row[:, 64:] == lay.row + 16).all()
            assert (tall.a_layout.col[:, 64:] == lay.col).all()


def test_32_row_c_layout():
    lay = instr(F4[0]).c_layout()
    assert lay.slots == 16
    for i in range(32):
        for j in range(16):
            lane, slot = j + 16 * ((i // 8) % 2), i % 8 + 8 * (i // 16)
            assert (lay.row[lane, slot], lay.col[lane, slot]) == (i, j)


def factors(exps: np.ndarray, is_b: bool) -> np.ndarray:
    """E8M0 exponents (x, blocks) -> the factor of every element of A (x, 128) / B (128, x)."""
    f = np.repeat(2.0 ** (exps - 127), 128 // exps.shape[1], axis=1)
    return f.T if is_b else f


@pytest.mark.parametrize("name", F8F6F4)
@pytest.mark.parametrize("a_code", FORMATS)
@pytest.mark.parametrize("b_code", FORMATS)
def test_exact_integer_gemm_every_format_pair(name, a_code, b_code):
    rng = np.random.default_rng(a_code * 5 + b_code)
    a, b = small_ints(rng, (16, 128)), small_ints(rng, (128, 16))
    c = rng.integers(-50, 50, (16, 16)).astype(np.float64)
    per_lane = instr(name).scale_bytes
    fa = fb = np.ones(1)
    scales = None
    if per_lane:  # 2**-3 .. 2**3 per block: every product and sum exact
        sa, sb = rng.integers(124, 131, (16, per_lane)), rng.integers(124, 131, (16, per_lane))
        scales = (scale_words(sa, per_lane, 0, rng), scale_words(sb, per_lane, 0, rng))
        fa, fb = factors(sa, False), factors(sb, True)
    got = call(name, a_code, a, b_code, b, c, scales=scales)
    np.testing.assert_array_equal(got, ((a * fa) @ (b * fb) + c).astype(np.float32))


@pytest.mark.parametrize("name", F4)
def test_exact_integer_gemm_32x16(name):
    """B's scales in lanes 16-31 (matrix_b_scale 1); A's 32 rows in lanes 0-31 whatever
    matrix_a_scale says (CK passes 1, the mlir reviewers expect 0)."""
    rng = np.random.default_rng(len(name))
    a, b = small_ints(rng, (32, 128)), small_ints(rng, (128, 16))
    c = rng.integers(-50, 50, (32, 16)).astype(np.float64)
    per_lane = instr(name).scale_bytes
    fa = fb = np.ones(1)
    scales = None
    if per_lane:
        sa, sb = rng.integers(120, 135, (32, per_lane)), rng.integers(120, 135, (16, per_lane))
        scales = (scale_words(sa, per_lane, 0, rng), scale_words(sb, per_lane, 1, rng))
        fa, fb = factors(sa, False), factors(sb, True)
    want = ((a * fa) @ (b * fb) + c).astype(np.float32)
    for sel_a in (0, 1) if per_lane else (0,):
        got = call(name, 4, a, 4, b, c, scales=scales, matrix_a_scale=sel_a,
                   matrix_b_scale=int(bool(per_lane)))
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", [F8F6F4[1], F8F6F4[2]])
@pytest.mark.parametrize("sel", [0, 1])
def test_selector_picks_the_lane_half(name, sel):
    """Scales in lanes 16*sel..16*sel+15, junk in the other half: only the selected half
    counts."""
    rng = np.random.default_rng(sel)
    per_lane = instr(name).scale_bytes
    a, b = small_ints(rng, (16, 128)), small_ints(rng, (128, 16))
    sa, sb = rng.integers(117, 138, (16, per_lane)), rng.integers(117, 138, (16, per_lane))
    got = call(name, 1, a, 3, b, np.zeros((16, 16)), matrix_a_scale=sel, matrix_b_scale=sel,
               scales=(scale_words(sa, per_lane, sel, rng), scale_words(sb, per_lane, sel, rng)))
    want = (a * factors(sa, False)) @ (b * factors(sb, True))
    np.testing.assert_array_equal(got, want.astype(np.float32))


def decode_scale(code: int, fmt: int) -> float:
    """A scale byte's value from its fields (the module docstring's sources)."""
    if fmt == 0:
        return float("nan") if code == 0xFF else 2.0 ** (code - 127)
    e_bits, bias = (5, 15) if fmt == 1 else (4, 7)
    code &= (1 << (e_bits + 3)) - 1
    if code == (1 << (e_bits + 3)) - 1:
        return float("nan")
    e, m = code >> 3, code & 7
    return m / 8 * 2.0 ** (1 - bias) if e == 0 else (1 + m / 8) * 2.0 ** (e - bias)


def test_scale_format_values():
    assert decode_scale(0x7C, 1) == 1.5 and decode_scale(0x01, 1) == 2.0**-17
    assert decode_scale(0xFE, 1) == 1.75 * 2**16 and decode_scale(0x38, 2) == 1.0
    assert decode_scale(0x7E, 2) == 448.0 and decode_scale(0xB8, 2) == 1.0
    assert np.isnan(decode_scale(0xFF, 1)) and np.isnan(decode_scale(0xFF, 2))


@pytest.mark.parametrize("name", [F8F6F4[1], F8F6F4[2], F4[1], F4[2]])
@pytest.mark.parametrize("fmt", [0, 1, 2])
def test_every_scale_byte_of_each_format(name, fmt):
    """A = B = ones and B's scales 1: D[i, j] = block * sum over K blocks of A's scale; all 256
    byte values serve as A scales (a few calls), NaN bytes poisoning their row."""
    ins = instr(name)
    per_lane, rows = ins.scale_bytes, ins.m
    n = rows * per_lane
    rng = np.random.default_rng(fmt)
    one = {0: 127, 1: 0x78, 2: 0x38}[fmt]
    sb = np.full((16, per_lane), one)
    for start in range(0, 256, n):
        sa = (np.arange(start, start + n) * 7 % 256).reshape(rows, per_lane)
        fa = np.vectorize(lambda v: decode_scale(int(v), fmt))(sa)
        with np.errstate(over="ignore"):
            want = np.repeat((fa * 128 / per_lane).sum(axis=1, keepdims=True), 16, axis=1)
        got = call(name, 0, np.ones((rows, 128)), 0, np.ones((128, 16)),
                   np.zeros((rows, 16)), matrix_a_scale_fmt=fmt, matrix_b_scale_fmt=fmt,
                   scales=(scale_words(sa, per_lane, 0, rng),
                           scale_words(sb, per_lane, 0, rng)))
        with np.errstate(over="ignore"):
            np.testing.assert_array_equal(got, want.astype(np.float32))


@pytest.mark.parametrize("name", [F8F6F4[1], F8F6F4[2]])
def test_scales_reach_what_f32_cannot_hold_unscaled(name):
    """A = 448 (fp8 max) with A scales 2**90..2**100 and B scales 2**-110..2**-100: the
    products are far outside f32 one way and the scales far the other; D is exact."""
    rng = np.random.default_rng(7)
    per_lane = instr(name).scale_bytes
    a, b = np.full((16, 128), 448.0), small_ints(rng, (128, 16))
    sa = rng.integers(127 + 90, 127 + 101, (16, per_lane))
    sb = rng.integers(127 - 110, 127 - 99, (16, per_lane))
    got = call(name, 0, a, 0, b, np.zeros((16, 16)),
               scales=(scale_words(sa, per_lane, 0, rng), scale_words(sb, per_lane, 0, rng)))
    want = (a * factors(sa, False)) @ (b * factors(sb, True))
    assert np.isfinite(want).all() and np.abs(want).max() < 2.0**100
    assert np.abs(want).max() > 2.0**-20  # scaled A alone (448 * 2**100) is no f32
    np.testing.assert_array_equal(got, want.astype(np.float32))


@pytest.mark.parametrize("name", [F8F6F4[1], F4[2]])
def test_nan_scale_poisons_only_its_row_and_column(name):
    ins = instr(name)
    per_lane = ins.scale_bytes
    rng = np.random.default_rng(3)
    a, b = small_ints(rng, (ins.m, 128)), small_ints(rng, (128, 16))
    sa, sb = np.full((ins.m, per_lane), 127), np.full((16, per_lane), 127)
    sa[3, 1], sb[5, per_lane - 1] = 0xFF, 0xFF
    got = call(name, 4, a, 4, b, np.zeros((ins.m, 16)),
               scales=(scale_words(sa, per_lane, 0, rng), scale_words(sb, per_lane, 0, rng)))
    assert np.isnan(got[3]).all() and np.isnan(got[:, 5]).all()
    rows, cols = np.delete(np.arange(ins.m), 3), np.delete(np.arange(16), 5)
    np.testing.assert_array_equal(got[np.ix_(rows, cols)], (a @ b)[np.ix_(rows, cols)])


@pytest.mark.parametrize("name", F8F6F4 + F4)
def test_c_mod(name):
    """0 none, 1 neg, 2 abs, 3 neg(abs), as the other gfx1250 builtins."""
    ins = instr(name)
    rng = np.random.default_rng(11)
    a, b = small_ints(rng, (ins.m, 128)), small_ints(rng, (128, 16))
    c = rng.integers(-50, 50, (ins.m, 16)).astype(np.float64)
    per_lane = ins.scale_bytes
    scales = None if not per_lane else tuple(
        scale_words(np.full((x, per_lane), 127), per_lane, 0, rng) for x in (ins.m, 16))
    for mod, cc in enumerate((c, -c, np.abs(c), -np.abs(c))):
        got = call(name, 4, a, 2, b, c, c_mod=mod, scales=scales)
        np.testing.assert_array_equal(got, a @ b + cc)


def test_fp6_and_fp4_read_only_their_registers():
    """Junk in the words a format does not read (12-15 for fp6, 8-15 for fp4) changes
    nothing; a vector of exactly those words (the intrinsic's v12i32/v8i32) works too."""
    rng = np.random.default_rng(5)
    a, b = small_ints(rng, (16, 128)), small_ints(rng, (128, 16))
    ra, rb = registers(a, 3, False), registers(b, 4, True)
    junk_a, junk_b = ra.copy(), rb.copy()
    junk_a[:, 12:], junk_b[:, 8:] = -1, 12345
    c = np.zeros((32, 8), np.float32)
    with use_arch("gfx1250"):
        d1 = amdgcn.wmma_f32_16x16x128_f8f6f4(3, junk_a, 4, junk_b, 0, c)
        d2 = amdgcn.wmma_f32_16x16x128_f8f6f4(3, ra[:, :12], 4, rb[:, :8], 0, c)
        with pytest.raises(OperandShapeError, match="allowed: 64 bytes, the v16i32"):
            amdgcn.wmma_f32_16x16x128_f8f6f4(3, ra[:, :10], 4, rb, 0, c)
    np.testing.assert_array_equal(d_matrix(d1, 16), a @ b)
    np.testing.assert_array_equal(np.asarray(d1), np.asarray(d2))


def test_scale16_word_is_any_64_bit_integer():
    """C's long per lane: a negative int64 and the same bits as uint64 are one scale word."""
    rng = np.random.default_rng(9)
    a, b = small_ints(rng, (16, 128)), small_ints(rng, (128, 16))
    sa = np.full((16, 8), 127)
    sa[:, 7] = 0x8A  # top byte set: the int64 word is negative; 2**11 keeps sums exact
    words = scale_words(sa, 8, 0, rng)
    ones = scale_words(np.full((16, 8), 127), 8, 0, rng)
    assert (words[:16] < 0).all()
    want = (a * factors(sa, False)) @ b
    for w in (words, words.view(np.uint64)):
        got = call(F8F6F4[2], 0, a, 0, b, np.zeros((16, 16)), scales=(w, ones))
        np.testing.assert_array_equal(got, want.astype(np.float32))


@pytest.mark.parametrize("name, mods, match", [
    (F8F6F4[0], {"matrix_a_fmt": 5}, r"matrix_a_fmt=5 .*0\.\.4"),
    (F8F6F4[1], {"matrix_b_fmt": -1}, r"matrix_b_fmt=-1 .*0\.\.4"),
    (F8F6F4[1], {"matrix_a_scale": 2}, r"matrix_a_scale=2 .*0\.\.1"),
    (F4[2], {"matrix_b_scale_fmt": 3}, r"matrix_b_scale_fmt=3 .*0\.\.2"),
    (F4[1], {"c_mod": 4}, r"c_mod=4 .*0\.\.3"),
    (F8F6F4[2], {"matrix_a_reuse": 2}, r"matrix_a_reuse=2 .*0\.\.1"),
    (F8F6F4[1], {"matrix_a_scale_fmt": 1.0}, r"matrix_a_scale_fmt=1\.0"),
])
def test_bad_modifiers_raise(name, mods, match):
    ins = instr(name)
    rng = np.random.default_rng(0)
    per_lane = ins.scale_bytes
    scales = None if not per_lane else tuple(
        scale_words(np.full((x, per_lane), 127), per_lane, 0, rng) for x in (ins.m, 16))
    with pytest.raises(ModifierError, match=match):
        call(name, 0, np.zeros((ins.m, 128)), 0, np.zeros((128, 16)),
             np.zeros((ins.m, 16)), scales=scales, **mods)


def test_execute_refuses_what_an_instruction_has_not():
    f4, f8f6f4, scaled = instr(F4[0]), instr(F8F6F4[0]), instr(F8F6F4[1])
    a16, b8, c16 = np.zeros((32, 16), np.int32), np.zeros((32, 8), np.int32), \
        np.zeros((32, 16), np.float32)
    with pytest.raises(ModifierError, match=r"matrix_a_fmt=2 .*0 only"):
        execute(f4, a16, b8, c16, matrix_a_fmt=2)
    with pytest.raises(ModifierError, match=r"matrix_b_scale=1 .*0 only"):
        execute(f8f6f4, a16, a16, c16[:, :8], matrix_b_scale=1)
    with pytest.raises(BuiltinArgumentError, match="matrix_a_scale_exp is not an operand"):
        execute(f8f6f4, a16, a16, c16[:, :8], scale_a=0, scale_b=0)
    with pytest.raises(BuiltinArgumentError, match="matrix_b_scale_exp is missing"):
        execute(scaled, a16, a16, c16[:, :8], scale_a=np.zeros(32, np.int32))
    with pytest.raises(ModifierError, match=r"opsel_a=1 .*0 only"):
        execute(scaled, a16, a16, c16[:, :8], opsel_a=1, scale_a=0, scale_b=0)
    with pytest.raises(ModifierError, match=r"matrix_a_fmt=1 .*0 only"):
        execute(instr("wmma_f32_16x16x128_fp8_fp8"), a16, a16, c16[:, :8], matrix_a_fmt=1)
    with pytest.raises(OperandTypeError, match="outside 32 bits"):
        execute(scaled, a16, a16, c16[:, :8], scale_a=np.full(32, 2**33), scale_b=0)
    with pytest.raises(OperandShapeError, match="matrix_a_scale_exp must hold one 64-bit int"):
        execute(instr(F8F6F4[2]), a16, a16, c16[:, :8], scale_a=np.zeros((32, 2), np.int32),
                scale_b=0)


def test_literal_zero_scales_are_e8m0_zero_not_the_unscaled_form():
    """gfx1250 has its own unscaled builtin: a scale word 0 is E8M0 2**-127 per block."""
    a, b = np.ones((16, 128)), np.ones((128, 16))
    got = call(F8F6F4[1], 0, a, 0, b, np.zeros((16, 16)), scales=(0, 0))
    assert (got == 0).all()  # 128 * 2**-254: below f32's smallest subnormal, rounds to 0
    got = call(F8F6F4[1], 0, a, 0, b, np.zeros((16, 16)), scales=(0, 0xFEFEFEFE))
    assert (got == 128).all()  # 128 * 2**-127 * 2**127


def test_scaled_wmma_in_a_kernel_batch():
    """Two waves, each its own A scale per lane, through a kernel (the scale word is a
    per-lane value like any other operand)."""
    rng = np.random.default_rng(2)
    a, b = small_ints(rng, (16, 128)), small_ints(rng, (128, 16))
    ra, rb = registers(a, 0, False), registers(b, 4, True)
    sa = [rng.integers(120, 135, (16, 4)) for _ in range(2)]
    words = np.concatenate([scale_words(s, 4, 0, rng) for s in sa])
    ones = scale_words(np.full((16, 4), 127), 4, 0, rng)
    out = np.zeros((64, 8), np.float32)

    @kernel
    def body(ra, rb, words, ones, out):
        t = blockIdx.x * blockDim.x + threadIdx.x
        lane = t % 32
        d = amdgcn.wmma_scale_f32_16x16x128_f8f6f4(
            0, np.stack([ra[lane * 16 + s] for s in range(16)], axis=1), 4,
            np.stack([rb[lane * 16 + s] for s in range(16)], axis=1), 0,
            np.stack([out[t * 8 + s] for s in range(8)], axis=1), 0, 0, words[t], 0, 0,
            ones[lane], 0, 0)
        for s in range(8):
            out[t * 8 + s] = d[:, s]

    with use_arch("gfx1250"):
        body[1, 64](ra.ravel(), rb.ravel(), words, ones, out.ravel())
    for w in range(2):
        want = (a * factors(sa[w], False)) @ b
        np.testing.assert_array_equal(d_matrix(out[32 * w:32 * w + 32], 16),
                                      want.astype(np.float32))


def test_inspector_shows_formats_and_scales():
    """rocwmma-layout's A in a format code, and SA/SB: lane x + 16*sel, byte k // block."""
    isa = "v_wmma_scale16_f32_16x16x128_f8f6f4"
    fp4 = instruction_layout(isa, "gfx1250", matrix="a", cbsz=4)
    assert "matrix_a_fmt=4: fp4" in fp4.title
    assert [e[1] for e in register_contents(fp4, 4, 16)][:2] == [(0, 0, 96), (0, 0, 97)]
    sb = instruction_layout(isa, "gfx1250", matrix="sb", opsel=1)
    for k in (0, 15, 16, 127):
        assert sb.where(k, 3) == [(19, (k // 16) // 4, 8 * (k // 16 % 4), 8 * (k // 16 % 4) + 7)]
    sa = instruction_layout("v_wmma_scale_f32_32x16x128_f4", "gfx1250", matrix="sa", opsel=1)
    assert sa.where(20, 70) == [(20, 0, 16, 23)]  # 32 rows: lane 20 whatever the selector
    with pytest.raises(LayoutQueryError, match="has none"):
        instruction_layout("v_wmma_f32_16x16x128_f8f6f4", "gfx1250", matrix="sa")
    with pytest.raises(LayoutQueryError, match="reads fp4 only"):
        instruction_layout("v_wmma_f32_32x16x128_f4", "gfx1250", matrix="a", cbsz=2)
    with pytest.raises(LayoutQueryError, match="scale selector"):
        instruction_layout(isa, "gfx1250", matrix="sa", opsel=2)
