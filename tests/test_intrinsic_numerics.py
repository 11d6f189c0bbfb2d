"""Numerics of the emulated matrix instructions, called through the public `amdgcn` builtins.

Operands are placed into per-lane registers by the small helpers below, which write out the
closed-form layouts of tests/data/amic/README.md ("Closed-form layouts") independently of
rocwmma_py.arch.layouts. Expected values come from exact int64 / float64 GEMMs (inputs are
chosen so that float64 is exact) or are hand-computed; rocwmma-notes §3.4-3.10 and
docs/architecture.md ("Numerics model") are the spec: one exact sum per instruction, rounded
once; int32 wraps on MFMA and saturates with the WMMA clamp bit; fp8 is fnuz on gfx942 and
OCP on gfx12; xf32 truncates to 10 mantissa bits; gfx11 lane halves compute independently.
"""

from __future__ import annotations

import numpy as np
import pytest

from rocwmma_py import amdgcn
from rocwmma_py import types as T
from rocwmma_py.arch import get_arch
from rocwmma_py.arch.execute import ModifierError, execute
from rocwmma_py.runtime import use_arch

pytestmark = pytest.mark.smoke

I32_MAX, I32_MIN = 2**31 - 1, -(2**31)


def call(arch: str, builtin: str, *args):
    with use_arch(arch):
        return getattr(amdgcn, builtin)(*args)


def grid(*sizes):
    return np.meshgrid(*(np.arange(s) for s in sizes), indexing="ij")


def f32(x) -> np.float32:
    return np.float32(x)


# --- gfx9 MFMA 16x16xK, one block, wave64 (E = K/4 consecutive k per lane) -----------------
#   A[i][k]: lane i + 16*(k//E), elem k%E;  B[k][j]: lane j + 16*(k//E), elem k%E
#   C/D[i][j]: lane j + 16*(i//4), elem i%4   (f64: lane j + 16*(i%4), elem i//4)


def mfma16_a(a: np.ndarray) -> np.ndarray:
    k_dim = a.shape[1]
    e = k_dim // 4
    i, k = grid(16, k_dim)
    regs = np.zeros((64, e), a.dtype)
    regs[i + 16 * (k // e), k % e] = a
    return regs[:, 0] if e == 1 else regs  # a scalar per lane when E == 1 (float, double)


def mfma16_b(b: np.ndarray) -> np.ndarray:
    return mfma16_a(b.T)  # B column j sits where A row j would


def mfma16_acc(c: np.ndarray) -> np.ndarray:
    i, j = grid(16, 16)
    regs = np.zeros((64, 4), c.dtype)
    regs[j + 16 * (i // 4), i % 4] = c
    return regs


def mfma16_d(regs: np.ndarray) -> np.ndarray:
    i, j = grid(16, 16)
    return regs[j + 16 * (i // 4), i % 4]


def mfma16_f64_acc(c: np.ndarray) -> np.ndarray:
    i, j = grid(16, 16)
    regs = np.zeros((64, 4), np.float64)
    regs[j + 16 * (i % 4), i // 4] = c
    return regs


def mfma16_f64_d(regs: np.ndarray) -> np.ndarray:
    i, j = grid(16, 16)
    return regs[j + 16 * (i % 4), i // 4]


# --- gfx9 MFMA 4x4x1, 16 blocks: A[b][i][0] lane i + 4b; B[b][0][j] lane j + 4b;
#     C/D[b][i][j]: lane j + 4b, vgpr i -----------------------------------------------------


def mfma4x4_in(x: np.ndarray) -> np.ndarray:
    """x (16 blocks, 4): element r of block b -> lane r + 4b (one float per lane)."""
    return x.reshape(64).copy()


def mfma4x4_acc(c: np.ndarray) -> np.ndarray:
    b, i, j = grid(16, 4, 4)
    regs = np.zeros((64, 4), c.dtype)
    regs[j + 4 * b, i] = c
    return regs


def mfma4x4_d(regs: np.ndarray) -> np.ndarray:
    b, i, j = grid(16, 4, 4)
    return regs[j + 4 * b, i]


# --- gfx11 WMMA 16x16x16, wave32: A row i / B column j in lane i (j) and lane i+16, elem k ---
#   C/D[i][j]: lane j + 16*(i%2), VGPR i//2; 16-bit results in half `opsel` of that VGPR


def wmma11_a(a0: np.ndarray, a1: np.ndarray | None = None) -> np.ndarray:
    """Lanes 0-15 hold rows of a0, lanes 16-31 rows of a1 (the replica, a0 by default)."""
    return np.concatenate([a0, a0 if a1 is None else a1])


def wmma11_b(b0: np.ndarray, b1: np.ndarray | None = None) -> np.ndarray:
    return wmma11_a(b0.T, None if b1 is None else b1.T)


def wmma11_acc(c: np.ndarray, opsel: int | None = None, fill=None) -> np.ndarray:
    """32-bit C: (32, 8). 16-bit C: (32, 16), value in element 2*VGPR + opsel, the other half
    taken from `fill` (32, 16) (default zeros)."""
    i, j = grid(16, 16)
    if opsel is None:
        regs = np.zeros((32, 8), c.dtype)
        regs[j + 16 * (i % 2), i // 2] = c
    else:
        regs = np.zeros((32, 16), c.dtype) if fill is None else fill.copy()
        regs[j + 16 * (i % 2), 2 * (i // 2) + opsel] = c
    return regs


def wmma11_d(regs: np.ndarray, opsel: int | None = None) -> np.ndarray:
    i, j = grid(16, 16)
    if opsel is None:
        return regs[j + 16 * (i % 2), i // 2]
    return regs[j + 16 * (i % 2), 2 * (i // 2) + opsel]


# --- gfx12 WMMA, wave32: A/B split K between lane halves; C/D[i][j]: lane j + 16*(i//8),
#     elem i%8 (16-bit results packed: half8 per lane) --------------------------------------


def wmma12_a(a: np.ndarray) -> np.ndarray:
    k_dim = a.shape[1]
    i, k = grid(16, k_dim)
    regs = np.zeros((32, k_dim // 2), a.dtype)
    if a.dtype.itemsize == 2:  # 16-bit types: chunks of K/4 alternate between the halves
        q = k_dim // 4
        regs[i + 16 * ((k // q) % 2), q * (k // (2 * q)) + k % q] = a
    else:  # 8/4-bit: first half of K in lanes 0-15
        regs[i + 16 * (k // (k_dim // 2)), k % (k_dim // 2)] = a
    return regs


def wmma12_b(b: np.ndarray) -> np.ndarray:
    return wmma12_a(b.T)


def wmma12_acc(c: np.ndarray) -> np.ndarray:
    i, j = grid(16, 16)
    regs = np.zeros((32, 8), c.dtype)
    regs[j + 16 * (i // 8), i % 8] = c
    return regs


def wmma12_d(regs: np.ndarray) -> np.ndarray:
    i, j = grid(16, 16)
    return regs[j + 16 * (i // 8), i % 8]


# --- packing helpers (written here, not rocwmma_py.types.pack) -----------------------------


def pack_nibbles(vals: np.ndarray) -> np.ndarray:
    """(lanes, 8n) 4-bit values (signed or unsigned ints) -> (lanes, n) int32 words,
    element e in bits [4*(e%8), 4*(e%8)+4) of word e//8."""
    lanes, n = vals.shape
    nib = (vals.astype(np.int64) & 0xF).reshape(lanes, n // 8, 8)
    words = (nib << (4 * np.arange(8))).sum(axis=-1)
    return words.astype(np.uint32).view(np.int32)


def as_signed(raw: np.ndarray, bits: int) -> np.ndarray:
    raw = raw.astype(np.int64)
    return np.where(raw >= 2 ** (bits - 1), raw - 2**bits, raw)


def exact_i32(a, b, c) -> np.ndarray:
    return a.astype(np.int64) @ b.astype(np.int64) + c.astype(np.int64)


# ===========================================================================================
# Exact integer GEMMs
# ===========================================================================================


@pytest.mark.parametrize("arch,builtin,k", [
    ("gfx942", "mfma_i32_16x16x32_i8", 32),
    ("gfx950", "mfma_i32_16x16x32_i8", 32),
    ("gfx908", "mfma_i32_16x16x16i8", 16),
    ("gfx90a", "mfma_i32_16x16x16i8", 16),
])
def test_mfma_i8_exact_gemm(arch, builtin, k):
    rng = np.random.default_rng(1)
    a = rng.integers(-128, 128, (16, k)).astype(np.int8)
    b = rng.integers(-128, 128, (k, 16)).astype(np.int8)
    a[0, :], b[:, 0] = -128, -128  # extreme row/column: 2**14 * K
    c = rng.integers(-(10**6), 10**6, (16, 16)).astype(np.int32)
    d = call(arch, builtin, mfma16_a(a), mfma16_b(b), mfma16_acc(c), 0, 0, 0)
    assert d.dtype == np.int32 and d.shape == (64, 4)
    np.testing.assert_array_equal(mfma16_d(d), exact_i32(a, b, c))
    assert mfma16_d(d)[0, 0] == 2**14 * k + c[0, 0]


SIGNS = [(1, 1), (0, 0), (1, 0), (0, 1)]


@pytest.mark.parametrize("sgn_a,sgn_b", SIGNS)
@pytest.mark.parametrize("arch", ["gfx1100", "gfx1200"])
def test_wmma_iu8_exact_gemm_signed_and_unsigned(arch, sgn_a, sgn_b):
    rng = np.random.default_rng(2)
    raw_a = rng.integers(0, 256, (16, 16))
    raw_b = rng.integers(0, 256, (16, 16))
    raw_a[:, :8] = rng.integers(200, 256, (16, 8))  # bytes >= 0x80 differ signed/unsigned
    raw_b[:8, :] = rng.integers(200, 256, (8, 16))
    a = as_signed(raw_a, 8) if sgn_a else raw_a
    b = as_signed(raw_b, 8) if sgn_b else raw_b
    c = rng.integers(-(10**6), 10**6, (16, 16)).astype(np.int32)
    bytes_a, bytes_b = raw_a.astype(np.uint8).view(np.int8), raw_b.astype(np.uint8).view(np.int8)
    if arch == "gfx1100":
        args = (wmma11_a(bytes_a), wmma11_b(bytes_b), wmma11_acc(c))
        builtin, read = "wmma_i32_16x16x16_iu8_w32", wmma11_d
    else:
        args = (wmma12_a(bytes_a), wmma12_b(bytes_b), wmma12_acc(c))
        builtin, read = "wmma_i32_16x16x16_iu8_w32_gfx12", wmma12_d
    d = call(arch, builtin, sgn_a, args[0], sgn_b, args[1], args[2], False)
    assert d.dtype == np.int32 and d.shape == (32, 8)
    np.testing.assert_array_equal(read(d), exact_i32(a, b, c))


def test_wmma_iu8_sign_flags_change_the_result():
    rng = np.random.default_rng(3)
    raw = rng.integers(200, 256, (16, 16)).astype(np.uint8).view(np.int8)
    c = np.zeros((32, 8), np.int32)
    results = {
        s: wmma12_d(call("gfx1200", "wmma_i32_16x16x16_iu8_w32_gfx12", s[0], wmma12_a(raw),
                         s[1], wmma12_b(raw), c, False))
        for s in SIGNS
    }
    # all-unsigned products are positive, all-signed ones too (both negative), mixed negative
    u = raw.view(np.uint8).astype(np.int64)
    s = u - 256
    np.testing.assert_array_equal(results[(0, 0)], u @ u)
    np.testing.assert_array_equal(results[(1, 1)], s @ s)
    np.testing.assert_array_equal(results[(1, 0)], s @ u)
    assert len({r.tobytes() for r in results.values()}) == 4


@pytest.mark.parametrize("sgn_a,sgn_b", SIGNS)
@pytest.mark.parametrize("arch,builtin,k", [
    ("gfx1100", "wmma_i32_16x16x16_iu4_w32", 16),
    ("gfx1200", "wmma_i32_16x16x16_iu4_w32_gfx12", 16),
    ("gfx1200", "wmma_i32_16x16x32_iu4_w32_gfx12", 32),
])
def test_wmma_iu4_exact_gemm(arch, builtin, k, sgn_a, sgn_b):
    rng = np.random.default_rng(4)
    raw_a = rng.integers(0, 16, (16, k))
    raw_b = rng.integers(0, 16, (k, 16))
    raw_a[0, :], raw_b[:, 0] = 15, 8  # -1 vs 15, -8 vs 8
    a = as_signed(raw_a, 4) if sgn_a else raw_a
    b = as_signed(raw_b, 4) if sgn_b else raw_b
    c = rng.integers(-1000, 1000, (16, 16)).astype(np.int32)
    if arch == "gfx1100":
        regs_a, regs_b, regs_c, read = wmma11_a(raw_a), wmma11_b(raw_b), wmma11_acc(c), wmma11_d
    else:
        regs_a, regs_b, regs_c, read = wmma12_a(raw_a), wmma12_b(raw_b), wmma12_acc(c), wmma12_d
    words_a, words_b = pack_nibbles(regs_a), pack_nibbles(regs_b)
    assert words_a.shape == (32, {"gfx1100": 2, "gfx1200": k // 16}[arch])  # int2 / int / int2
    d = call(arch, builtin, sgn_a, words_a, sgn_b, words_b, regs_c, False)
    np.testing.assert_array_equal(read(d), exact_i32(a, b, c))
    sa = -1 if sgn_a else 15
    sb = -8 if sgn_b else 8
    assert read(d)[0, 0] == sa * sb * k + c[0, 0]


def test_wmma_iu4_accepts_int4_elements():
    """int4 element arrays (ml_dtypes) are the same bytes as the packed words."""
    rng = np.random.default_rng(5)
    a = rng.integers(-8, 8, (16, 32))
    b = rng.integers(-8, 8, (32, 16))
    c = np.zeros((32, 8), np.int32)
    d_el = call("gfx1200", "wmma_i32_16x16x32_iu4_w32_gfx12", True,
                wmma12_a(a).astype(T.int4), True, wmma12_b(b).astype(T.int4), c, False)
    np.testing.assert_array_equal(wmma12_d(d_el), a @ b)


# ===========================================================================================
# int32 overflow: MFMA wraps, WMMA clamp saturates
# ===========================================================================================


def _overflow_case(k: int):
    """A@B adds +1 to D[0][0] and -1 to D[1][1]; C is at the int32 limits there."""
    a = np.zeros((16, k), np.int64)
    b = np.zeros((k, 16), np.int64)
    a[0, 0], b[0, 0] = 1, 1
    a[1, 1], b[1, 1] = -1, 1
    c = np.full((16, 16), I32_MAX, np.int32)
    c[1, 1] = I32_MIN
    c[2, 2] = I32_MIN  # untouched by A@B
    return a, b, c


@pytest.mark.parametrize("arch,builtin,k", [
    ("gfx942", "mfma_i32_16x16x32_i8", 32),
    ("gfx908", "mfma_i32_16x16x16i8", 16),
])
def test_mfma_i32_wraps(arch, builtin, k):
    a, b, c = _overflow_case(k)
    d = mfma16_d(call(arch, builtin, mfma16_a(a.astype(np.int8)), mfma16_b(b.astype(np.int8)),
                      mfma16_acc(c), 0, 0, 0))
    assert d[0, 0] == I32_MIN  # 2**31 - 1 + 1 wraps
    assert d[1, 1] == I32_MAX  # -2**31 - 1 wraps
    assert d[2, 2] == I32_MIN and d[0, 1] == I32_MAX


@pytest.mark.parametrize("clamp", [True, False])
@pytest.mark.parametrize("arch,builtin,bits", [
    ("gfx1100", "wmma_i32_16x16x16_iu8_w32", 8),
    ("gfx1200", "wmma_i32_16x16x16_iu8_w32_gfx12", 8),
    ("gfx1100", "wmma_i32_16x16x16_iu4_w32", 4),
    ("gfx1200", "wmma_i32_16x16x32_iu4_w32_gfx12", 4),
])
def test_wmma_clamp_saturates_else_wraps(arch, builtin, bits, clamp):
    k = 32 if "16x16x32" in builtin else 16
    a, b, c = _overflow_case(k)
    if arch == "gfx1100":
        ra, rb, rc, read = wmma11_a(a), wmma11_b(b), wmma11_acc(c), wmma11_d
    else:
        ra, rb, rc, read = wmma12_a(a), wmma12_b(b), wmma12_acc(c), wmma12_d
    if bits == 8:
        ra, rb = ra.astype(np.int8), rb.astype(np.int8)
    else:
        ra, rb = pack_nibbles(ra), pack_nibbles(rb)
    d = read(call(arch, builtin, True, ra, True, rb, rc, clamp))
    assert d[0, 0] == (I32_MAX if clamp else I32_MIN)
    assert d[1, 1] == (I32_MIN if clamp else I32_MAX)
    assert d[2, 2] == I32_MIN and d[0, 1] == I32_MAX


# ===========================================================================================
# fp8 / bf8: fnuz on gfx942, OCP on gfx12; HIP-style saturating conversion
# ===========================================================================================


def test_fp8_conversion_saturates_like_hip():
    cases = [
        (T.float8, 1000.0, 448.0), (T.float8, -1000.0, -448.0), (T.float8, 449.0, 448.0),
        (T.float8_fnuz, 1000.0, 240.0), (T.float8_fnuz, 448.0, 240.0),
        (T.float8_fnuz, -300.0, -240.0),
        (T.bfloat8, 1e6, 57344.0), (T.bfloat8, -70000.0, -57344.0),
        (T.bfloat8_fnuz, 1e6, 57344.0),
    ]
    for t, x, want in cases:
        got = T.convert(np.array([x]), t)
        assert got.dtype == np.dtype(t)
        assert float(got.astype(np.float64)[0]) == want, (t, x)


FP8_CASES = [
    ("gfx942", "mfma_f32_16x16x32_fp8_fp8", T.float8_fnuz, T.float8_fnuz, 32),
    ("gfx942", "mfma_f32_16x16x32_fp8_bf8", T.float8_fnuz, T.bfloat8_fnuz, 32),
    ("gfx942", "mfma_f32_16x16x32_bf8_fp8", T.bfloat8_fnuz, T.float8_fnuz, 32),
    ("gfx942", "mfma_f32_16x16x32_bf8_bf8", T.bfloat8_fnuz, T.bfloat8_fnuz, 32),
    ("gfx1200", "wmma_f32_16x16x16_fp8_fp8_w32_gfx12", T.float8, T.float8, 16),
    ("gfx1200", "wmma_f32_16x16x16_fp8_bf8_w32_gfx12", T.float8, T.bfloat8, 16),
    ("gfx1200", "wmma_f32_16x16x16_bf8_fp8_w32_gfx12", T.bfloat8, T.float8, 16),
    ("gfx1200", "wmma_f32_16x16x16_bf8_bf8_w32_gfx12", T.bfloat8, T.bfloat8, 16),
]


def _fp8_operand(rng, shape, t, huge_at):
    """Multiples of 1/4 in [-4, 4], 2**-6 at [0][1] / [1][0], and overflowing values that must
    saturate. Products are multiples of 2**-12 below 2**33: every float64 sum is exact."""
    x = rng.integers(-16, 17, shape) / 4.0
    x[0, 1] = x[1, 0] = 2.0**-6  # normal in all four formats; A[0][1]*B[1][0] = 2**-12
    for idx, v in huge_at:
        x[idx] = v
    return T.convert(x, t)


def _run_f32_mma(arch, builtin, a, b, c):
    """Place A, B, C (f32) for the 16x16 builtin of this arch, run it, return D (16, 16)."""
    if arch.startswith("gfx9"):
        d = call(arch, builtin, mfma16_a(a), mfma16_b(b), mfma16_acc(c), 0, 0, 0)
        return mfma16_d(d)
    if arch == "gfx1100":
        return wmma11_d(call(arch, builtin, wmma11_a(a), wmma11_b(b), wmma11_acc(c)))
    return wmma12_d(call(arch, builtin, wmma12_a(a), wmma12_b(b), wmma12_acc(c)))


@pytest.mark.numerics("exact")  # reference: the exact sum rounded once per instruction
@pytest.mark.parametrize("arch,builtin,ta,tb,k", FP8_CASES)
def test_fp8_mma_equals_float64_gemm_of_decoded_inputs(arch, builtin, ta, tb, k):
    rng = np.random.default_rng(6)
    a = _fp8_operand(rng, (16, k), ta, [((0, 0), 1e6), ((1, 3), -1000.0), ((2, 5), 1000.0)])
    b = _fp8_operand(rng, (k, 16), tb, [((0, 0), 1e6), ((3, 1), 1000.0), ((5, 2), -1e6)])
    fmax = {T.float8: 448.0, T.float8_fnuz: 240.0, T.bfloat8: 57344.0, T.bfloat8_fnuz: 57344.0}
    # 1000 saturates in e4m3 (OCP 448, fnuz 240) and is 1024 in e5m2
    thousand = {T.float8: 448.0, T.float8_fnuz: 240.0, T.bfloat8: 1024.0, T.bfloat8_fnuz: 1024.0}
    assert float(a[0, 0].astype(np.float64)) == fmax[ta] == T.max_finite(ta)
    assert float(a[1, 3].astype(np.float64)) == -thousand[ta]
    assert float(b[5, 2].astype(np.float64)) == -fmax[tb]
    assert float(b[3, 1].astype(np.float64)) == thousand[tb]
    c = rng.integers(-100, 100, (16, 16)).astype(np.float32)
    d = _run_f32_mma(arch, builtin, a, b, c)
    assert d.dtype == np.float32
    exact = a.astype(np.float64) @ b.astype(np.float64) + c.astype(np.float64)
    np.testing.assert_array_equal(d, exact.astype(np.float32))
    # D[0][0] = max*max + 2**-12 + ...: |D| > 2**15, so the f32 rounding really happened
    assert exact[0, 0] != float(np.float32(exact[0, 0]))


def test_fp8_operands_are_bytes_ocp_bits_on_gfx942_read_as_fnuz():
    """gfx942's fp8 builtins decode the bytes as fnuz: OCP e4m3 bits mean half the value."""
    rng = np.random.default_rng(7)
    a = T.convert(rng.integers(1, 17, (16, 32)) / 4.0, T.float8)  # positive: no -0 byte
    b = T.convert(rng.integers(1, 17, (32, 16)) / 4.0, T.float8)
    c = np.zeros((16, 16), np.float32)
    d = _run_f32_mma("gfx942", "mfma_f32_16x16x32_fp8_fp8", a, b, c)
    exact = (a.astype(np.float64) / 2) @ (b.astype(np.float64) / 2)
    np.testing.assert_array_equal(d, exact.astype(np.float32))


# ===========================================================================================
# xf32 (gfx942): the instruction reads only 10 mantissa bits (truncation)
# ===========================================================================================


def truncate_xf32(x: np.ndarray) -> np.ndarray:
    return (np.asarray(x, np.float32).view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)


def test_xf32_truncates_low_mantissa_bits():
    a = np.zeros((16, 8), np.float32)
    b = np.zeros((8, 16), np.float32)
    a[0, :] = f32(1 + 2**-20)  # low 13 bits non-zero: behaves as 1.0
    a[1, :] = f32(-(1 + 2**-14 + 2**-20))  # -> -1 (sign-magnitude truncation, not floor)
    a[2, :] = f32(1.5 + 2**-10)  # 2**-10 is the lowest kept bit: stays
    b[:, :] = 1.0
    c = np.zeros((16, 16), np.float32)
    d = _run_f32_mma("gfx942", "mfma_f32_16x16x8_xf32", a, b, c)
    assert np.all(d[0] == 8.0)  # untruncated: 8 + 2**-17, representable in f32
    assert np.all(d[1] == -8.0)
    assert np.all(d[2] == f32(8 * (1.5 + 2**-10)))
    assert np.all(d[3:] == 0)


def test_xf32_gemm_equals_float64_gemm_of_truncated_inputs():
    rng = np.random.default_rng(8)
    # 11-bit significands with random garbage in the 13 low bits
    base_a = (rng.integers(-1024, 1025, (16, 8)) / 64.0).astype(np.float32)
    base_b = (rng.integers(-1024, 1025, (8, 16)) / 64.0).astype(np.float32)
    a = (base_a.view(np.uint32) | rng.integers(1, 2**13, (16, 8)).astype(np.uint32))
    b = (base_b.view(np.uint32) | rng.integers(1, 2**13, (8, 16)).astype(np.uint32))
    a, b = a.view(np.float32), b.view(np.float32)
    np.testing.assert_array_equal(truncate_xf32(a), base_a)
    c = rng.integers(-50, 50, (16, 16)).astype(np.float32)
    d = _run_f32_mma("gfx942", "mfma_f32_16x16x8_xf32", a, b, c)
    exact = base_a.astype(np.float64) @ base_b.astype(np.float64) + c
    np.testing.assert_array_equal(d, exact.astype(np.float32))
    untruncated = (a.astype(np.float64) @ b.astype(np.float64) + c).astype(np.float32)
    assert np.any(d != untruncated)


@pytest.mark.parametrize("builtin", ["mfma_f32_16x16x8_xf32", "mfma_f32_32x32x4_xf32"])
@pytest.mark.parametrize("arch", ["gfx950", "gfx90a", "gfx908", "gfx1100", "gfx1200"])
def test_xf32_exists_only_on_gfx942(arch, builtin):
    with pytest.raises(amdgcn.UnsupportedInstructionError) as err:
        call(arch, builtin, np.zeros((64, 2), np.float32), np.zeros((64, 2), np.float32),
             np.zeros((64, 4), np.float32), 0, 0, 0)
    msg = str(err.value)
    assert builtin in msg and arch in msg
    assert msg.split("exists on")[-1].strip() == "gfx942"


# ===========================================================================================
# One rounding per instruction
# ===========================================================================================


def _sequential_f32(values) -> np.float32:
    acc = f32(0)
    for v in values:
        acc = f32(acc + f32(v))
    return acc


@pytest.mark.numerics("exact")  # reference: the exact sum rounded once per instruction
def test_f32_mfma_rounds_once_after_exact_sum():
    tiny = 2.0**-24
    a = np.zeros((16, 4), np.float32)
    a[0] = [1, tiny, tiny, 0]  # exact 1 + 2**-23 (representable)
    a[1] = [1, tiny, tiny, tiny]  # exact 1 + 1.5 ulp: tie -> even -> 1 + 2**-22
    a[2] = [tiny, 1, 0, tiny]
    a[3] = [tiny, tiny, 0, 0]  # + C = 1 below
    b = np.ones((4, 16), np.float32)
    c = np.zeros((16, 16), np.float32)
    c[3] = 1.0
    d = _run_f32_mma("gfx942", "mfma_f32_16x16x4f32", a, b, c)
    assert np.all(d[0] == f32(1 + 2**-23))
    assert np.all(d[1] == f32(1 + 2**-22))
    assert np.all(d[2] == f32(1 + 2**-23))
    assert np.all(d[3] == f32(1 + 2**-23))
    # the reference really needs the single rounding: product-by-product f32 adds lose it
    assert _sequential_f32(a[0]) == 1.0 and _sequential_f32(a[1]) == 1.0


F16_F32_CASES = [
    ("gfx1100", "wmma_f32_16x16x16_f16_w32"),
    ("gfx942", "mfma_f32_16x16x16f16"),
    ("gfx1200", "wmma_f32_16x16x16_f16_w32_gfx12"),
]


@pytest.mark.numerics("exact")  # reference: the exact sum rounded once per instruction
@pytest.mark.parametrize("arch,builtin", F16_F32_CASES)
def test_f16_inputs_f32_result_round_once(arch, builtin):
    tiny = 2.0**-24  # smallest f16 subnormal: exact as input, product with 1 exact
    a = np.zeros((16, 16), np.float16)
    a[0, :3] = [1, tiny, tiny]  # 1 + 2**-23
    a[1, [0, 5, 9, 15]] = [1, tiny, tiny, tiny]  # 1 + 3*2**-24 -> tie -> 1 + 2**-22
    a[2, 0], a[2, 1:] = 1, tiny  # 1 + 15*2**-24 = 1 + 7.5 ulp -> tie -> 1 + 8 ulp
    a[3, [2, 11]] = tiny  # C = 1 added inside the same rounding
    b = np.ones((16, 16), np.float16)
    c = np.zeros((16, 16), np.float32)
    c[3] = 1.0
    d = _run_f32_mma(arch, builtin, a, b, c)
    assert np.all(d[0] == f32(1 + 2**-23))
    assert np.all(d[1] == f32(1 + 2**-22))
    assert np.all(d[2] == f32(1 + 2**-20))
    assert np.all(d[3] == f32(1 + 2**-23))
    assert _sequential_f32(a[0]) == 1.0 and _sequential_f32(a[2]) == 1.0


@pytest.mark.numerics("exact")  # reference: the exact sum rounded once per instruction
@pytest.mark.parametrize("arch,builtin,t", [
    ("gfx1100", "wmma_f32_16x16x16_f16_w32", np.float16),
    ("gfx942", "mfma_f32_16x16x16f16", np.float16),
    ("gfx1100", "wmma_f32_16x16x16_bf16_w32", T.bfloat16),
])
def test_wide_range_sum_is_rounded_once(arch, builtin, t):
    # exact sum 2**30 + 2**6 + 2**-48: just above the f32 tie between 2**30 and 2**30 + 2**7,
    # so it must round up; float64 drops the 2**-48 first and the tie then rounds to even.
    a = np.zeros((16, 16), t)
    b = np.zeros((16, 16), t)
    a[0, :3] = [2.0**15, 2.0**3, 2.0**-24]
    b[:3, 0] = [2.0**15, 2.0**3, 2.0**-24]
    d = _run_f32_mma(arch, builtin, a, b, np.zeros((16, 16), np.float32))
    assert d[0, 0] == f32(2**30 + 2**7)


# ===========================================================================================
# 16-bit results: gfx11 OPSEL halves, RNE from the exact sum, gfx12 packed
# ===========================================================================================


@pytest.mark.parametrize("opsel", [False, True])
@pytest.mark.parametrize("builtin,t", [
    ("wmma_f16_16x16x16_f16_w32", np.float16),
    ("wmma_bf16_16x16x16_bf16_w32", T.bfloat16),
])
def test_gfx11_16bit_result_opsel_half_and_other_half_kept(builtin, t, opsel):
    rng = np.random.default_rng(9)
    a = rng.integers(-4, 5, (16, 16)).astype(t)
    b = rng.integers(-4, 5, (16, 16)).astype(t)
    cm = rng.integers(-8, 9, (16, 16)).astype(t)
    # other half of every register: random bit patterns (NaNs included) that must survive
    fill = rng.integers(0, 2**16, (32, 16)).astype(np.uint16).view(t)
    regs_c = wmma11_acc(cm, opsel=int(opsel), fill=fill)
    d = call("gfx1100", builtin, wmma11_a(a), wmma11_b(b), regs_c, opsel)
    assert d.dtype == np.dtype(t) and d.shape == (32, 16)
    exact = a.astype(np.float64) @ b.astype(np.float64) + cm.astype(np.float64)
    np.testing.assert_array_equal(wmma11_d(d, int(opsel)).astype(np.float64), exact)
    other = 1 - int(opsel)
    np.testing.assert_array_equal(d[:, other::2].view(np.uint16),
                                  regs_c[:, other::2].view(np.uint16))


def _rounding_operands(t):
    """Row 0 of A@B: exact 1 + half-ulp + tiny -> must round up to 1 + ulp (RNE of the exact
    sum; rounding 1 + half-ulp first would tie to 1.0). Row 1: exact tie -> even (1.0)."""
    half_ulp = {np.float16: (2.0**-5, 2.0**-6), T.bfloat16: (2.0**-4, 2.0**-4)}[t]
    a = np.zeros((16, 16), t)
    b = np.zeros((16, 16), t)
    a[0, :3] = [1, half_ulp[0], 2.0**-15]
    a[1, :2] = [1, half_ulp[0]]
    b[:3, :] = np.array([1, half_ulp[1], 2.0**-15])[:, None]
    ulp = {np.float16: 2.0**-10, T.bfloat16: 2.0**-7}[t]
    return a, b, 1 + ulp


@pytest.mark.parametrize("arch,builtin,t", [
    ("gfx1100", "wmma_f16_16x16x16_f16_w32", np.float16),
    ("gfx1100", "wmma_bf16_16x16x16_bf16_w32", T.bfloat16),
    ("gfx1200", "wmma_f16_16x16x16_f16_w32_gfx12", np.float16),
    ("gfx1200", "wmma_bf16_16x16x16_bf16_w32_gfx12", T.bfloat16),
])
def test_16bit_result_rne_from_exact_sum(arch, builtin, t):
    a, b, up = _rounding_operands(t)
    cm = np.zeros((16, 16), t)
    if arch == "gfx1100":
        d = wmma11_d(call(arch, builtin, wmma11_a(a), wmma11_b(b), wmma11_acc(cm, 0), False), 0)
    else:
        d = wmma12_d(call(arch, builtin, wmma12_a(a), wmma12_b(b), wmma12_acc(cm)))
    assert d.dtype == np.dtype(t)
    assert np.all(d[0].astype(np.float64) == up)
    assert np.all(d[1].astype(np.float64) == 1.0)
    assert np.all(d[2:].astype(np.float64) == 0.0)


@pytest.mark.parametrize("builtin,t", [
    ("wmma_f16_16x16x16_f16_w32_gfx12", np.float16),
    ("wmma_bf16_16x16x16_bf16_w32_gfx12", T.bfloat16),
])
def test_gfx12_16bit_results_are_packed(builtin, t):
    rng = np.random.default_rng(10)
    a = rng.integers(-4, 5, (16, 16)).astype(t)
    b = rng.integers(-4, 5, (16, 16)).astype(t)
    c = rng.integers(-8, 9, (16, 16)).astype(t)
    regs_c = wmma12_acc(c)
    assert regs_c.shape == (32, 8)  # half8: two rows per VGPR
    d = call("gfx1200", builtin, wmma12_a(a), wmma12_b(b), regs_c)
    assert d.dtype == np.dtype(t) and d.shape == (32, 8)
    exact = a.astype(np.float64) @ b.astype(np.float64) + c.astype(np.float64)
    np.testing.assert_array_equal(wmma12_d(d).astype(np.float64), exact)


# ===========================================================================================
# gfx11 replication: each 16-lane half computes its rows from its own copy of A/B
# ===========================================================================================


def test_gfx11_swap16_k_permutation_in_half1_gives_same_result():
    """rocWMMA's to_wmma_input_gfx11: half 1 holds K 8..15,0..7 for both A and B."""
    rng = np.random.default_rng(11)
    a = rng.integers(-4, 5, (16, 16)).astype(np.float16)
    b = rng.integers(-4, 5, (16, 16)).astype(np.float16)
    c = rng.integers(-8, 9, (16, 16)).astype(np.float32)
    perm = np.r_[8:16, 0:8]
    plain = call("gfx1100", "wmma_f32_16x16x16_f16_w32", wmma11_a(a), wmma11_b(b),
                 wmma11_acc(c))
    swapped = call("gfx1100", "wmma_f32_16x16x16_f16_w32", wmma11_a(a, a[:, perm]),
                   wmma11_b(b, b[perm, :]), wmma11_acc(c))
    exact = a.astype(np.float64) @ b.astype(np.float64) + c
    np.testing.assert_array_equal(wmma11_d(plain), exact)
    np.testing.assert_array_equal(swapped, plain)

    ai = rng.integers(-128, 128, (16, 16)).astype(np.int8)
    bi = rng.integers(-128, 128, (16, 16)).astype(np.int8)
    ci = np.zeros((16, 16), np.int32)
    d = call("gfx1100", "wmma_i32_16x16x16_iu8_w32", True, wmma11_a(ai, ai[:, perm]), True,
             wmma11_b(bi, bi[perm, :]), wmma11_acc(ci), True)
    np.testing.assert_array_equal(wmma11_d(d), exact_i32(ai, bi, ci))


@pytest.mark.parametrize("which", ["a", "b"])
def test_gfx11_each_half_uses_its_own_copy(which):
    rng = np.random.default_rng(12)
    a = rng.integers(-4, 5, (16, 16)).astype(np.float16)
    b = rng.integers(-4, 5, (16, 16)).astype(np.float16)
    c = rng.integers(-8, 9, (16, 16)).astype(np.float32)
    if which == "a":  # lanes 16-31 hold 2*A
        regs_a, regs_b = wmma11_a(a, 2 * a), wmma11_b(b)
    else:  # lanes 16-31 hold 3*B
        regs_a, regs_b = wmma11_a(a), wmma11_b(b, 3 * b)
    d = wmma11_d(call("gfx1100", "wmma_f32_16x16x16_f16_w32", regs_a, regs_b, wmma11_acc(c)))
    ab = a.astype(np.float64) @ b.astype(np.float64)
    scale = 2 if which == "a" else 3
    np.testing.assert_array_equal(d[0::2], (ab + c)[0::2])  # rows of half 0 (lanes 0-15)
    np.testing.assert_array_equal(d[1::2], (scale * ab + c)[1::2])  # rows of half 1


# ===========================================================================================
# gfx9 modifiers: CBSZ/ABID, BLGP, CDNA3 f64 NEG
# ===========================================================================================


def _blocks_4x4(rng):
    a = rng.integers(-4, 5, (16, 4)).astype(np.float32)  # A[b][i][0]
    b = rng.integers(-4, 5, (16, 4)).astype(np.float32)  # B[b][0][j]
    c = rng.integers(-8, 9, (16, 4, 4)).astype(np.float32)
    return a, b, c


# seed 004: "cbsz=2 and abid=1 -> values from block 1 broadcast to blocks 0-3, block 5 to
# blocks 4-7, block 9 to 8-11, ..."; "cbsz=1 -> blocks 0 and 1 receive the same, 2 and 3 ..."
CBSZ_SOURCES = {
    (0, 0): list(range(16)),
    (1, 0): [0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 14, 14],
    (1, 1): [1, 1, 3, 3, 5, 5, 7, 7, 9, 9, 11, 11, 13, 13, 15, 15],
    (2, 1): [1, 1, 1, 1, 5, 5, 5, 5, 9, 9, 9, 9, 13, 13, 13, 13],
    (3, 6): [6] * 8 + [14] * 8,
    (4, 15): [15] * 16,
}


@pytest.mark.parametrize("arch", ["gfx942", "gfx908"])
@pytest.mark.parametrize("cbsz,abid", list(CBSZ_SOURCES))
def test_cbsz_abid_broadcast_a_blocks(arch, cbsz, abid):
    rng = np.random.default_rng(13)
    a, b, c = _blocks_4x4(rng)
    d = call(arch, "mfma_f32_4x4x1f32", mfma4x4_in(a), mfma4x4_in(b), mfma4x4_acc(c),
             cbsz, abid, 0)
    src = CBSZ_SOURCES[(cbsz, abid)]
    expected = a[src][:, :, None] * b[:, None, :] + c  # outer products, K = 1
    np.testing.assert_array_equal(mfma4x4_d(d), expected)


# seed 004 BLGP: the lane whose B data lane L receives
BLGP_SOURCE = {
    0: lambda lane: lane,
    1: lambda lane: lane % 32,  # lanes 0-31 also broadcast into 32-63
    2: lambda lane: 32 + lane % 32,  # lanes 32-63 broadcast into 0-31
    3: lambda lane: (lane + 16) % 64,  # rotated down by 16: lane 16's data into lane 0
    4: lambda lane: lane % 16,
    5: lambda lane: 16 + lane % 16,
    6: lambda lane: 32 + lane % 16,
    7: lambda lane: 48 + lane % 16,
}


@pytest.mark.parametrize("blgp", range(8))
def test_blgp_lane_patterns_on_4x4x1(blgp):
    rng = np.random.default_rng(14)
    a, b, c = _blocks_4x4(rng)
    regs_b = mfma4x4_in(b)
    d = call("gfx942", "mfma_f32_4x4x1f32", mfma4x4_in(a), regs_b, mfma4x4_acc(c), 0, 0, blgp)
    seen = regs_b[BLGP_SOURCE[blgp](np.arange(64))].reshape(16, 4)  # B each lane reads
    expected = a[:, :, None] * seen[:, None, :] + c
    np.testing.assert_array_equal(mfma4x4_d(d), expected)
    if blgp == 3:  # rotation by 16 lanes = by 4 blocks
        np.testing.assert_array_equal(seen, np.roll(b, -4, axis=0))


def test_cbsz_and_blgp_together():
    rng = np.random.default_rng(15)
    a, b, c = _blocks_4x4(rng)
    regs_b = mfma4x4_in(b)
    d = call("gfx90a", "mfma_f32_4x4x1f32", mfma4x4_in(a), regs_b, mfma4x4_acc(c), 2, 1, 3)
    seen = regs_b[(np.arange(64) + 16) % 64].reshape(16, 4)
    expected = a[CBSZ_SOURCES[(2, 1)]][:, :, None] * seen[:, None, :] + c
    np.testing.assert_array_equal(mfma4x4_d(d), expected)


@pytest.mark.parametrize("blgp,rows", [(3, [1, 2, 3, 0]), (1, [0, 1, 0, 1]), (2, [2, 3, 2, 3]),
                                       (6, [2, 2, 2, 2])])
def test_blgp_on_single_block_16x16x4f32(blgp, rows):
    """B[k][j] sits in lane j + 16k, so a lane pattern permutes the K rows of B."""
    rng = np.random.default_rng(16)
    a = rng.integers(-4, 5, (16, 4)).astype(np.float32)
    b = rng.integers(-4, 5, (4, 16)).astype(np.float32)
    c = rng.integers(-8, 9, (16, 16)).astype(np.float32)
    d = call("gfx942", "mfma_f32_16x16x4f32", mfma16_a(a), mfma16_b(b), mfma16_acc(c), 0, 0,
             blgp)
    np.testing.assert_array_equal(mfma16_d(d), a @ b[rows] + c)


@pytest.mark.parametrize("blgp", range(8))
def test_cdna3_f64_blgp_negates_a_b_c(blgp):
    rng = np.random.default_rng(17)
    a = rng.integers(-9, 10, (16, 4)).astype(np.float64)
    b = rng.integers(-9, 10, (4, 16)).astype(np.float64)
    c = rng.integers(-99, 100, (16, 16)).astype(np.float64)
    d = call("gfx942", "mfma_f64_16x16x4f64", mfma16_a(a), mfma16_b(b), mfma16_f64_acc(c), 0, 0,
             blgp)
    sa = -1 if blgp & 1 else 1
    sb = -1 if blgp & 2 else 1
    sc = -1 if blgp & 4 else 1
    np.testing.assert_array_equal(mfma16_f64_d(d), (sa * a) @ (sb * b) + sc * c)


def test_cdna2_f64_has_no_blgp():
    z = np.zeros(64)
    with pytest.raises(ModifierError, match="mfma_f64_16x16x4f64"):
        call("gfx90a", "mfma_f64_16x16x4f64", z, z, np.zeros((64, 4)), 0, 0, 1)
    d = call("gfx90a", "mfma_f64_16x16x4f64", z + 1, z + 2, np.zeros((64, 4)), 0, 0, 0)
    assert np.all(d == 8.0)  # sum over K = 4 of 1 * 2


# --- invalid modifiers --------------------------------------------------------------------


def _f32_operands(lanes=64, c_regs=4):
    return np.zeros(lanes, np.float32), np.zeros(lanes, np.float32), np.zeros(
        (lanes, c_regs), np.float32)


@pytest.mark.parametrize("arch,builtin,mods", [
    ("gfx942", "mfma_f32_16x16x4f32", (1, 0, 0)),  # cbsz on a single-block op
    ("gfx942", "mfma_f32_16x16x4f32", (0, 1, 0)),  # abid >= 2**0
    ("gfx942", "mfma_f32_4x4x1f32", (2, 4, 0)),  # abid >= 2**cbsz
    ("gfx942", "mfma_f32_4x4x1f32", (1, 2, 0)),
    ("gfx942", "mfma_f32_4x4x1f32", (5, 0, 0)),  # 16 blocks: cbsz <= 4
    ("gfx942", "mfma_f32_16x16x1f32", (3, 0, 0)),  # 4 blocks: cbsz <= 2
    ("gfx942", "mfma_f32_4x4x1f32", (0, 0, 8)),  # blgp is 3 bits
    ("gfx942", "mfma_f32_4x4x1f32", (-1, 0, 0)),
])
def test_invalid_mfma_modifiers(arch, builtin, mods):
    a, b, c = _f32_operands(c_regs=16 if builtin == "mfma_f32_16x16x1f32" else 4)
    with pytest.raises(ModifierError) as err:
        call(arch, builtin, a, b, c, *mods)
    assert builtin in str(err.value)


def test_blgp_rejected_where_cdna3_has_none():
    z8 = np.zeros((64, 8), np.int8)
    with pytest.raises(ModifierError, match="mfma_i32_16x16x32_i8"):
        call("gfx942", "mfma_i32_16x16x32_i8", z8, z8, np.zeros((64, 4), np.int32), 0, 0, 1)


def test_opsel_and_sign_flags_rejected_where_meaningless():
    f16 = np.zeros((32, 16), np.float16)
    c32 = np.zeros((32, 8), np.float32)
    i11 = get_arch("gfx1100").instructions
    with pytest.raises(ModifierError, match="wmma_f32_16x16x16_f16_w32"):
        execute(i11["wmma_f32_16x16x16_f16_w32"], f16, f16, c32, opsel=1)  # f32 result
    i12 = get_arch("gfx1200").instructions
    with pytest.raises(ModifierError, match="wmma_f16_16x16x16_f16_w32_gfx12"):
        execute(i12["wmma_f16_16x16x16_f16_w32_gfx12"], np.zeros((32, 8), np.float16),
                np.zeros((32, 8), np.float16), np.zeros((32, 8), np.float16), opsel=1)
    with pytest.raises(ModifierError, match="wmma_f32_16x16x16_f16_w32"):
        execute(i11["wmma_f32_16x16x16_f16_w32"], f16, f16, c32, sgn_a=False)  # float op
    with pytest.raises(ModifierError, match="wmma_f32_16x16x16_f16_w32"):
        execute(i11["wmma_f32_16x16x16_f16_w32"], f16, f16, c32, clamp=True)
    with pytest.raises(ModifierError, match="mfma_f32_16x16x16f16"):
        execute(get_arch("gfx942").instructions["mfma_f32_16x16x16f16"],
                np.zeros((64, 4), np.float16), np.zeros((64, 4), np.float16),
                np.zeros((64, 4), np.float32), sgn_b=False)
    # the public builtins do not even take those arguments
    with pytest.raises(TypeError):
        call("gfx1100", "wmma_f32_16x16x16_f16_w32", f16, f16, c32, True)
    assert issubclass(ModifierError, ValueError)


@pytest.mark.numerics("exact")  # reference: the exact sum rounded once per instruction
def test_nonfinite_row_leaves_other_rows_exact():
    """Issue 10 repro (gfx90a): Inf in A row 0; row 1's products 2**60, 1, -2**60 must still
    sum exactly to 1 (a plain float64 sum gives 0). Row 0 is Inf, every other row 0."""
    a = np.zeros((16, 4), np.float32)
    a[0, 0] = np.inf
    a[1, :3] = [2.0**30, 1.0, -(2.0**30)]
    b = np.zeros((4, 16), np.float32)
    b[:3, :] = np.array([2.0**30, 1.0, 2.0**30])[:, None]
    d = _run_f32_mma("gfx90a", "mfma_f32_16x16x4f32", a, b, np.zeros((16, 16), np.float32))
    assert np.all(d[0] == np.inf)
    assert np.all(d[1] == 1.0)
    assert not np.any(d[2:])
