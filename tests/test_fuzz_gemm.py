"""GEMM fuzz (issue 10): random arch, fragment types, shapes (partial fragments, wave tiles),
layouts of A/B/C/D, ld padding, pointer offsets and waves per block; D must be bit-exact and
nothing outside D may be written.

Each wave computes one FragM x FragN tile: acc = C, then `mma_sync` over K in FragK steps,
then D = acc (no epilogue, so every rounding is the matrix cores'). Every buffer sits between
guard bands and has ld padding, all filled with a sentinel (NaN / INT_MIN + 1) that must
survive; a sentinel read into a product would also show up in D.

Both numerics models run (the launch pins one with `.numerics(...)`):

* exact: reference written here from rocwmma-notes §3 without rocwmma_py: per instruction,
  acc = RNE(acc + exact sum of A*B over that instruction's K subset) (§3.1 chaining; gfx9
  16-bit accumulators round to f32 and then to 16 bits, §3.4). The exact sum is taken in
  Python integers (every input is an integer times a power of two), rounded to 53 bits "to
  odd" and then to the format's precision with numpy's ties-to-even `rint`.
* silicon (gfx908/gfx90a/gfx942, whose models the MMA-Sim vectors validate at the builtin
  level): the same chain built instruction by instruction from the register-level builtins.
  Each 16x16 block's registers are filled as §3.1 says rocWMMA fills them (lane group h holds
  the kb-th chunk of its K values, the rest of a short K zero-padded), so the fragment layer's
  own K ordering, padding, collapse of exact chains and batching are checked against it.

Data is either small integers or random normal values of mixed binades (not for f64 under the
exact model, whose hardware summation order that model does not claim, nor for integers).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import numpy as np
import pytest
from gemm_kernels import ELEMS, k_subsets
from hypothesis import HealthCheck, assume, given, seed, settings
from hypothesis import strategies as st
from notes_reference import FAMILY, WAVE, padded

from rocwmma_py import (
    FragmentError,
    accumulator,
    amdgcn,
    col_major,
    fragment,
    kernel,
    layout_t,
    load_matrix_sync,
    matrix_a,
    matrix_b,
    mma_sync,
    row_major,
    store_matrix_sync,
    use_arch,
    use_numerics,
    wave_size,
)
from rocwmma_py.runtime import blockIdx, threadIdx

ARCHS = tuple(a for a in WAVE if a not in ("gfx1250", "gfx1251"))
SILICON_ARCHS = ("gfx908", "gfx90a", "gfx942")  # targets with a published silicon model

# --- what mma_sync supports: (A, B, C) types per arch (§3.2, §3.3, §3.6) and 16x16 K's -------

_MFMA = [("f16", "f16", "f32"), ("f16", "f16", "f16"), ("bf16", "bf16", "f32"),
         ("bf16", "bf16", "bf16"), ("f32", "f32", "f32"), ("i8", "i8", "i32")]
_WMMA = [t for t in _MFMA if t[0] != "f32"]
_F64 = [("f64", "f64", "f64")]


def _fp8(suffix: str) -> list[tuple[str, str, str]]:
    return [(a + suffix, b + suffix, "f32") for a in ("f8", "bf8") for b in ("f8", "bf8")]


COMBOS = {
    "gfx908": _MFMA,
    "gfx90a": _MFMA + _F64,
    "gfx942": _MFMA + _F64 + [("xf32", "xf32", "f32")] + _fp8("_fnuz"),
    "gfx950": _MFMA + _F64 + _fp8(""),
    **{a: _WMMA for a in ("gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150", "gfx1151",
                          "gfx1152", "gfx1153")},
    **{a: _WMMA + [("u8", "u8", "i32")] + _fp8("") for a in ("gfx1200", "gfx1201", "gfx1170")},
}  # GFX12.5 (K 32..128 instructions) is fuzzed by tests/test_gfx1250.py's GEMM grid instead

_MFMA_K = {  # K of the 16x16 MFMA instructions per input type (§3.2), where not one value
    ("gfx950", "f16"): (16, 32), ("gfx908", "bf16"): (8,), ("gfx90a", "bf16"): (8, 16),
    ("gfx950", "bf16"): (16, 32), ("gfx908", "i8"): (16,), ("gfx90a", "i8"): (16,),
    ("gfx950", "i8"): (32, 64),
}
_MFMA_K_ANY = {"f16": (16,), "bf16": (16,), "f32": (4,), "xf32": (8,), "f64": (4,),
               "i8": (32,)}


def instruction_k(arch: str, a: str, block_k: int) -> int:
    """§3.1: the largest instruction K <= BlockK, else the smallest (zero-padded)."""
    if FAMILY[arch] != "gfx9":
        ks = (16,)
    else:
        ks = _MFMA_K.get((arch, a)) or _MFMA_K_ANY.get(a, (32,))  # fp8/bf8: 32
    fitting = [k for k in ks if k <= block_k]
    return fitting[-1] if fitting else ks[0]


def mma_shape_ok(m: int, n: int, k: int, a: str, c: str, wave: int) -> bool:
    """§6.1 padding + §3.1/§2.1 constraints: A, B and the accumulator pad to the same
    BlockM x BlockN (multiples of 16), BlockK is a power of two with >= 1 K per lane group,
    and each fragment fills whole 32-bit registers."""
    bits_a, bits_c = ELEMS[a].size * 8, ELEMS[c].size * 8
    bm, bn, bk = padded(m, n, k, ELEMS[a].size, wave)
    if padded(m, n, k, ELEMS[c].size, wave)[:2] != (bm, bn) or bm % 16 or bn % 16:
        return False
    if bk & (bk - 1) or bk * 16 % wave:
        return False
    return all(e * bits % (32 * wave) == 0 and e * bits >= 32 * wave
               for e, bits in ((bm * bk, bits_a), (bn * bk, bits_a), (bm * bn, bits_c)))


# --- exact reference ----------------------------------------------------------------------

_FORMATS = {"f32": (24, -126), "f16": (11, -14), "bf16": (8, -126), "f64": (53, -1022)}


def _scaled(x: np.ndarray) -> tuple[np.ndarray, int]:
    """x (finite float64) as Python ints n (object array) and one e with x == n * 2**e."""
    mant, exp = np.frexp(x)
    ints = (mant * 2.0**53).astype(np.int64)
    e0 = int(exp.min(initial=0)) - 53
    shifts = (exp - 53 - e0).ravel()
    n = [int(i) << int(s) for i, s in zip(ints.ravel(), shifts, strict=True)]
    return np.array(n, dtype=object).reshape(x.shape), e0


def _round(n: np.ndarray, e: int, fmt: str) -> np.ndarray:
    """RNE of the exact values n * 2**e to format fmt (p bits, subnormals), as float64."""
    h = n.astype(np.float64)  # Python int -> float: nearest, ties to even
    rem = np.sign((n - np.frompyfunc(int, 1, 1)(h)).astype(np.float64))
    odd = (h.view(np.uint64) & 1).astype(bool)
    h = np.where((rem != 0) & ~odd, np.nextafter(h, np.copysign(np.inf, rem)), h)  # to odd
    v = np.ldexp(h, e)
    p, emin = _FORMATS[fmt]
    _, ex = np.frexp(v)
    keep = p - np.maximum(emin - (ex - 1), 0)  # fewer significant bits when subnormal
    out = np.ldexp(np.rint(np.ldexp(v, keep - ex)), ex - keep)
    assert np.all(np.isfinite(out)), "reference overflowed; the fuzz data is too large"
    return out


def reference(case, a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """D = C + A*B chained per instruction like the arch (§3.1); logical float64/int64."""
    if ELEMS[case.types[2]].p is None:  # int32: exact (the data cannot overflow)
        return c.astype(np.int64) + a.astype(np.int64) @ b.astype(np.int64)
    tc = case.types[2]
    two_step = FAMILY[case.arch] == "gfx9" and tc in ("f16", "bf16")  # f32 MFMA, then 16-bit
    a_n, ea = _scaled(a)
    b_n, eb = _scaled(b)
    bk = padded(case.m, case.n, case.k, ELEMS[case.types[0]].size, WAVE[case.arch])[2]
    subsets = k_subsets(bk, instruction_k(case.arch, case.types[0], bk), WAVE[case.arch])
    acc = c.astype(np.float64)
    for step in range(case.k_steps):
        for ks in subsets:
            cols = step * case.k + ks[ks < case.k]
            acc_n, ec = _scaled(acc)
            e = min(ea + eb, ec)
            total = (a_n[:, cols].dot(b_n[cols, :]) * (1 << (ea + eb - e))
                     + acc_n * (1 << (ec - e)))
            acc = _round(total, e, "f32" if two_step else tc)
            if two_step:
                acc = _round(*_scaled(acc), tc)
    return acc


# --- silicon reference: the chain through the register-level builtins ----------------------

_FP8_NAME = {"f8_fnuz": "fp8", "bf8_fnuz": "bf8"}


def silicon_builtin(arch: str, a: str, b: str, instr_k: int) -> str:
    """The 16x16 single-block MFMA rocWMMA picks (rocwmma-notes §3.2)."""
    if a in _FP8_NAME:
        return f"mfma_f32_16x16x32_{_FP8_NAME[a]}_{_FP8_NAME[b]}"
    return {"f16": "mfma_f32_16x16x16f16", "f32": "mfma_f32_16x16x4f32",
            "xf32": "mfma_f32_16x16x8_xf32", "f64": "mfma_f64_16x16x4f64",
            "bf16": "mfma_f32_16x16x8bf16" if instr_k == 8 else "mfma_f32_16x16x16bf16_1k",
            }[a]


def silicon_reference(case, a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """D under the silicon model: per wave tile (zero-padded to BlockM x BlockN, §6.1), per
    BlockK step, per 16x16 block and per chained instruction, the builtin on registers holding
    what rocWMMA feeds it (§3.1): lane l of group h = l // 16 holds A[row l % 16][h*KPT +
    kb*chunk + t] (and B[that k][col l % 16]) in slot t < chunk, zeros in the padded slots;
    C/D lane l slot i is row 4*(l // 16) + i (f64: l // 16 + 4*i, AMIC's H = 1), column
    l % 16. gfx9 16-bit accumulators run the f32 instruction and round back (§3.4)."""
    ta, tb, tc = case.types
    wave = WAVE[case.arch]
    bm, bn, bk = padded(case.m, case.n, case.k, ELEMS[ta].size, wave)
    instr_k = instruction_k(case.arch, ta, bk)
    builtin = getattr(amdgcn, silicon_builtin(case.arch, ta, tb, instr_k))
    groups = wave // 16
    kpt, ikpt = bk // groups, instr_k // groups
    chunk = min(kpt, ikpt)
    lane = np.arange(wave)
    h, r = lane // 16, lane % 16
    t = np.arange(ikpt)
    acc_dtype = np.float64 if tc == "f64" else np.float32
    m_tot, n_tot, k_tot = case.size
    out = np.zeros((m_tot, n_tot))
    slot = np.arange(4)[None, :]
    rows = h[:, None] + 4 * slot if tc == "f64" else 4 * h[:, None] + slot
    with use_arch(case.arch), use_numerics("silicon"):
        for i0 in range(0, m_tot, case.m):
            for j0 in range(0, n_tot, case.n):
                a_t = np.zeros((bm, k_tot))
                a_t[:case.m] = a[i0:i0 + case.m]
                b_t = np.zeros((k_tot, bn))
                b_t[:, :case.n] = b[:, j0:j0 + case.n]
                acc = np.zeros((bm, bn), acc_dtype)
                acc[:case.m, :case.n] = c[i0:i0 + case.m, j0:j0 + case.n]
                for step in range(case.k_steps):
                    for kb in range(max(1, bk // instr_k)):
                        k = h[:, None] * kpt + kb * chunk + t[None, :]  # fragment K per slot
                        real = (t[None, :] < chunk) & (k < case.k)  # padding holds zeros
                        cols = np.where(real, step * case.k + k, 0)
                        for bi in range(0, bm, 16):
                            a_regs = np.where(real, a_t[bi + r[:, None], cols], 0.0)
                            for bj in range(0, bn, 16):
                                b_regs = np.where(real, b_t[cols, bj + r[:, None]], 0.0)
                                at = (bi + rows, bj + r[:, None])
                                d_regs = builtin(a_regs.astype(ELEMS[ta].storage),
                                                 b_regs.astype(ELEMS[tb].storage), acc[at],
                                                 0, 0, 0)
                                if tc in ("f16", "bf16"):
                                    d_regs = d_regs.astype(ELEMS[tc].storage).astype(np.float32)
                                acc[at] = d_regs
                out[i0:i0 + case.m, j0:j0 + case.n] = acc[:case.m, :case.n]
    return out


# --- the case: strategy, buffers, kernel ---------------------------------------------------


@dataclass(frozen=True)
class Case:
    arch: str
    types: tuple[str, str, str]  # A/B, C/D element names (gemm_kernels.ELEMS)
    m: int  # FragM, FragN, FragK
    n: int
    k: int
    waves: tuple[int, int]  # waves per block in x and y
    grid: tuple[int, int]
    k_steps: int
    layouts: str  # A, B, C, D: "r" row_major, "c" col_major
    acc_layout: str  # "" (void accumulator, 4-argument load/store) or the C layout
    pads: tuple[int, int, int, int]  # ld padding of A, B, C, D
    guards: tuple[int, int, int, int]  # guard elements before (and after) A, B, C, D
    data: str  # "int" (small integers) or "normal"
    seed: int

    @property
    def size(self) -> tuple[int, int, int]:
        (wx, wy), (gx, gy) = self.waves, self.grid
        return self.m * wx * gx, self.n * wy * gy, self.k * self.k_steps


_DIMS = st.one_of(st.sampled_from([16, 32, 48, 64]), st.integers(1, 40))
_WAVES = st.sampled_from([(1, 1), (2, 1), (1, 2), (2, 2), (4, 1), (1, 4)])
_BUDGET = 2**18  # multiply-adds per case, to keep a case around 0.1 s


@st.composite
def cases(draw, arch: str, types: tuple[str, str, str] | None = None,
          numerics: str = "exact") -> Case:
    wave = WAVE[arch]
    types = types or draw(st.sampled_from(COMBOS[arch]))
    m, n = draw(_DIMS), draw(_DIMS)
    ks = [k for k in range(1, 65) if mma_shape_ok(m, n, k, types[0], types[2], wave)]
    if not ks:
        m, n, ks = 16, 16, [16]  # e.g. f64 at (1, 1, K) pads differently for A and C
    k = draw(st.sampled_from(ks))
    waves = draw(_WAVES)
    tiles = max(1, _BUDGET // (m * n * k * waves[0] * waves[1]))
    grid = (draw(st.integers(1, min(2, tiles))), draw(st.integers(1, min(2, tiles))))
    k_steps = draw(st.integers(1, max(1, min(3, tiles // (grid[0] * grid[1])))))
    layouts = "".join(draw(st.sampled_from("rc")) for _ in range(4))
    floats = ELEMS[types[2]].p is not None and (types[2] != "f64" or numerics == "silicon")
    return Case(
        arch, types, m, n, k, waves, grid, k_steps, layouts,
        acc_layout=draw(st.sampled_from(["", layouts[2]])),
        pads=tuple(draw(st.integers(0, 5)) for _ in range(4)),
        guards=tuple(draw(st.integers(1, 33)) for _ in range(4)),
        data=draw(st.sampled_from(["int", "normal"] if floats else ["int"])),
        seed=draw(st.integers(0, 2**32 - 1)),
    )


_LAYOUT = {"r": row_major, "c": col_major}
_MEM = {"r": layout_t.mem_row_major, "c": layout_t.mem_col_major}


def _offset(row, col, ld: int, layout: str):
    return row * ld + col if layout == "r" else col * ld + row


def make_kernel(case: Case):
    """One wave per FragM x FragN tile: acc = C, mma_sync over K, D = acc."""
    ta, tb, tc = (ELEMS[t].api for t in case.types)
    la, lb, lc, ld = case.layouts
    a_frag = fragment[matrix_a, case.m, case.n, case.k, ta, _LAYOUT[la]]
    b_frag = fragment[matrix_b, case.m, case.n, case.k, tb, _LAYOUT[lb]]
    acc_frag = fragment[accumulator, case.m, case.n, case.k, tc,
                        _LAYOUT.get(case.acc_layout)]
    wx, wy = case.waves

    @kernel
    def fuzz_gemm(a, b, c, d, lda, ldb, ldc, ldd, ga, gb, gc, gd):
        row = (blockIdx.x * wx + int(threadIdx.x // wave_size())) * case.m
        col = (blockIdx.y * wy + int(threadIdx.y)) * case.n
        acc = acc_frag()
        load_matrix_sync(acc, c + gc + _offset(row, col, ldc, lc), ldc, _MEM[lc])
        for step in range(case.k_steps):
            frag_a, frag_b = a_frag(), b_frag()
            load_matrix_sync(frag_a, a + ga + _offset(row, step * case.k, lda, la), lda)
            load_matrix_sync(frag_b, b + gb + _offset(step * case.k, col, ldb, lb), ldb)
            mma_sync(acc, frag_a, frag_b, acc)
        store_matrix_sync(d + gd + _offset(row, col, ldd, ld), acc, ldd, _MEM[ld])

    return fuzz_gemm


def _values(rng, shape, name: str, data: str, is_c: bool) -> np.ndarray:
    """Logical values exactly representable in element type `name` (float64 or int64)."""
    elem = ELEMS[name]
    if elem.p is None:
        if is_c:
            return rng.integers(-(2**20), 2**20, shape)
        info = np.iinfo(elem.storage)
        return rng.integers(info.min, info.max + 1, shape)
    if data == "int":
        top = 4 if elem.size == 1 else 16 if not is_c else 64
        x = rng.integers(-top, top + 1, shape).astype(np.float64)
    else:
        x = rng.standard_normal(shape) * 2.0 ** rng.integers(-3, 4, shape)
    if name == "xf32":  # 10 mantissa bits (rocwmma_xfloat32)
        return (x.astype(np.float32).view(np.uint32) & 0xFFFFE000).view(np.float32).astype(
            np.float64)
    return x.astype(elem.storage).astype(np.float64)


def _sentinel(elem) -> object:
    return np.nan if elem.p is not None else np.iinfo(elem.storage).min + 1


@dataclass
class Matrix:
    """A logical matrix in a guarded, padded flat buffer."""

    buffer: np.ndarray
    ld: int
    guard: int
    layout: str
    rows: int
    cols: int

    @classmethod
    def make(cls, values, name, layout, pad, guard):
        elem = ELEMS[name]
        rows, cols = values.shape
        ld = (cols if layout == "r" else rows) + pad
        outer = rows if layout == "r" else cols
        buffer = np.full(2 * guard + outer * ld, _sentinel(elem)).astype(elem.storage)
        matrix = cls(buffer, ld, guard, layout, rows, cols)
        matrix.region()[...] = (values if layout == "r" else values.T).astype(elem.storage)
        return matrix

    def region(self) -> np.ndarray:
        """The logical matrix as a view (rows x cols in memory order)."""
        outer, inner = (self.rows, self.cols) if self.layout == "r" else (self.cols, self.rows)
        return self.buffer[self.guard:self.guard + outer * self.ld].reshape(outer, self.ld)[
            :, :inner]

    def logical(self) -> np.ndarray:
        mem = self.region()
        return mem if self.layout == "r" else mem.T


def run_case(case: Case, numerics: str) -> None:
    rng = np.random.default_rng(case.seed)
    m_tot, n_tot, k_tot = case.size
    ta, _, tc = case.types
    a = _values(rng, (m_tot, k_tot), ta, case.data, False)
    b = _values(rng, (k_tot, n_tot), case.types[1], case.data, False)
    c = _values(rng, (m_tot, n_tot), tc, case.data, True)
    mats = [Matrix.make(v, t, lay, pad, g) for v, t, lay, pad, g in zip(
        (a, b, c, np.full((m_tot, n_tot), _sentinel(ELEMS[tc]))), (ta, case.types[1], tc, tc),
        case.layouts, case.pads, case.guards, strict=True)]
    before = [x.buffer.copy() for x in mats]

    (wx, wy), (gx, gy) = case.waves, case.grid
    launch = make_kernel(case)[(gx, gy), (WAVE[case.arch] * wx, wy), 0, case.arch]
    launch.numerics(numerics)(*(x.buffer for x in mats), *(x.ld for x in mats), *case.guards)

    for x, old, name in zip(mats[:3], before[:3], "ABC", strict=True):
        assert x.buffer.tobytes() == old.tobytes(), f"{name} was written"
    d = mats[3]
    silicon = numerics == "silicon" and case.arch in SILICON_ARCHS and ELEMS[tc].p is not None
    expected = (silicon_reference if silicon else reference)(case, a, b, c).astype(
        ELEMS[tc].storage)
    got = d.logical().copy()
    bad = got.view(np.uint8).reshape(got.shape + (-1,)) != expected.view(np.uint8).reshape(
        expected.shape + (-1,))
    assert not bad.any(), (f"D differs at {np.argwhere(bad.any(-1))[:5].tolist()}: got "
                           f"{got[bad.any(-1)][:5]}, expected {expected[bad.any(-1)][:5]}")
    d.region()[...] = _sentinel(ELEMS[tc])  # D's tiles checked: the rest must be untouched
    assert d.buffer.tobytes() == before[3].tobytes(), "D was written outside the tiles"


_HEALTH = [HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large]


def _models(arch: str, types: tuple[str, str, str]) -> tuple[str, ...]:
    """Both numerics where they differ (silicon targets, float types), else exact only."""
    floats = ELEMS[types[2]].p is not None
    return ("exact", "silicon") if arch in SILICON_ARCHS and floats else ("exact",)


@pytest.mark.regression
@pytest.mark.parametrize("arch,types,numerics", [(a, t, n) for a in ARCHS for t in COMBOS[a]
                                                 for n in _models(a, t)])
def test_gemm_fuzz(arch, types, numerics):
    """Every (arch, type combination, numerics) in every run, the rest fuzzed with a fixed
    seed per combination (reproducible, yet different cases for each)."""

    @seed(zlib.crc32(f"{arch} {types}".encode()))
    @settings(max_examples=6, database=None, deadline=None, suppress_health_check=_HEALTH)
    @given(case=cases(arch, types, numerics))
    def check(case):
        run_case(case, numerics)

    check()


@pytest.mark.extended
@pytest.mark.parametrize("arch", ARCHS)
@settings(max_examples=1200, deadline=None, suppress_health_check=_HEALTH, print_blob=True)
@given(data=st.data())
def test_gemm_fuzz_extended(arch, data):
    types = data.draw(st.sampled_from(COMBOS[arch]), label="types")
    numerics = data.draw(st.sampled_from(_models(arch, types)), label="numerics")
    run_case(data.draw(cases(arch, types, numerics), label="case"), numerics)


@pytest.mark.regression
@settings(max_examples=150, derandomize=True, database=None, deadline=None,
          suppress_health_check=_HEALTH)
@given(data=st.data())
def test_shapes_mma_sync_cannot_run_are_refused(data):
    """The other half of the fuzz: a FragM/N/K that §6.1/§3.1 rule out raises FragmentError
    (at fragment creation or in mma_sync), instead of computing something."""
    arch = data.draw(st.sampled_from(ARCHS), label="arch")
    types = data.draw(st.sampled_from(COMBOS[arch]), label="types")
    m, n, k = (data.draw(st.integers(1, 70), label=d) for d in "mnk")
    assume(not mma_shape_ok(m, n, k, types[0], types[2], WAVE[arch]))
    ta, tb, tc = (ELEMS[t].api for t in types)

    @kernel
    def mma_only():
        acc = fragment[accumulator, m, n, k, tc]()
        mma_sync(acc, fragment[matrix_a, m, n, k, ta, row_major](),
                 fragment[matrix_b, m, n, k, tb, col_major](), acc)

    with pytest.raises(FragmentError, match=r"mma_sync|fragment\["):
        mma_only[1, WAVE[arch], 0, arch]()
