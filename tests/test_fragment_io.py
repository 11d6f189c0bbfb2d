"""rocWMMA fragment I/O unit-test families (rocwmma-notes §1.2-1.3, §2.1, §5.2, §6).

fill_fragment, load/store round trips (load_store_matrix_sync_test shapes), contamination
(sentinel-padded buffers), partial fragments, io shape/traits and packed registers. Every
expectation is written out here from the notes (padding rule, sizes, hand-computed
conversions, register formulas), never taken from rocwmma_py itself.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from notes_reference import (
    ARCH_TYPES,
    TYPES,
    WAVE,
    acc_positions,
    input_positions,
    padded,
)

from rocwmma_py import (
    FragmentError,
    accumulator,
    col_major,
    fill_fragment,
    float16,
    float32,
    fragment,
    fragment_scheduler,
    fragment_traits,
    int8,
    kernel,
    load_matrix_sync,
    matrix_a,
    matrix_b,
    mem_col_major,
    mem_row_major,
    row_major,
    store_matrix_sync,
    use_arch,
)

# ------------------------------------------------------------------ facts from the notes


# element type name -> (type, bytes, numpy storage dtype)
# §3.6-3.8, §8: f64 on gfx90a/942/950; fnuz fp8 and xf32 only gfx942; OCP fp8 gfx950 + gfx12
SIGNED = {"f16", "bf16", "f32", "f64", "i8", "i32", "f8", "bf8", "f8_fnuz", "bf8_fnuz", "xf32"}


def next_multiple(x: int, m: int) -> int:
    return (x + m - 1) // m * m




def fits(bm: int, bn: int, nbytes: int, wave: int) -> bool:
    """§5.2 FragSize_guard: ceil(BM*BN*sizeof/(16*W*4))*16*PackRatio <= 256."""
    pack_ratio = max(1, 4 // nbytes)
    return math.ceil(bm * bn * nbytes / (16 * wave * 4)) * 16 * pack_ratio <= 256


def unit_fragment(which: str, bm: int, bn: int, t, layout):
    """load_store_matrix_sync_test shapes (§5.2); all three hold a BM x BN matrix."""
    if which == "a":
        return fragment[matrix_a, bm, 1, bn, t, layout]
    if which == "b":
        return fragment[matrix_b, 1, bn, bm, t, layout]
    return fragment[accumulator, bm, bn, 1, t, layout]


def to_memory(mat: np.ndarray, layout, ld: int | None = None) -> np.ndarray:
    """Flat buffer holding `mat` with leading dimension ld (row_major: rows, col_major: cols)."""
    rows, cols = mat.shape
    src = mat if layout is row_major else mat.T
    ld = ld or src.shape[1]
    buf = np.zeros((src.shape[0], ld), mat.dtype)
    buf[:, : src.shape[1]] = src
    return buf.ravel()


def from_memory(buf: np.ndarray, layout, rows: int, cols: int, ld: int | None = None):
    if layout is row_major:
        return buf.reshape(rows, ld or cols)[:, :cols]
    return buf.reshape(cols, ld or rows)[:, :rows].T


def random_bits(shape, dtype, seed) -> np.ndarray:
    """Arbitrary bit patterns (NaNs included): a copy must preserve every bit."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape)) * np.dtype(dtype).itemsize
    return rng.integers(0, 256, n, dtype=np.uint8).view(dtype).reshape(shape)


def bits_equal(a: np.ndarray, b: np.ndarray) -> bool:
    a, b = np.ascontiguousarray(a), np.ascontiguousarray(b)
    return a.shape == b.shape and np.array_equal(a.view(np.uint8), b.view(np.uint8))


def tier(*values, level: str, id: str):
    return pytest.param(*values, marks=getattr(pytest.mark, level), id=id)


# ------------------------------------------------------------------ kernels


@kernel
def copy_kernel(frag_cls, src, dst, ldm, rt_layout, box):
    f = frag_cls()
    if rt_layout is None:
        load_matrix_sync(f, src, ldm)
        store_matrix_sync(dst, f, ldm)
    else:
        load_matrix_sync(f, src, ldm, rt_layout)
        store_matrix_sync(dst, f, ldm, rt_layout)
    box.append(f.x.copy())


@kernel
def fill_kernel(frag_cls, value, dst, ldm, box):
    f = frag_cls()
    fill_fragment(f, value)
    store_matrix_sync(dst, f, ldm)
    box.append(f.x.copy())


@kernel
def load_kernel(frag_cls, src, src_off, ldm, box):
    f = frag_cls()
    load_matrix_sync(f, src + src_off, ldm)
    box.append(f.x.copy())


@kernel
def contamination_kernel(frag_cls, src, src_off, src_ld, plain, plain_ld, padded_dst, box):
    f = frag_cls()
    load_matrix_sync(f, src + src_off, src_ld)  # read the inner region of a padded buffer
    store_matrix_sync(plain, f, plain_ld)  # store unpadded
    store_matrix_sync(padded_dst + src_off, f, src_ld)  # store into a sentinel-filled buffer
    box.append(f.x.copy())


def launch(k, arch, *args):
    k[1, WAVE[arch], 0, arch](*args)


# ------------------------------------------------------------------ 1. fill_fragment


FILL_CASES = []
for _arch in ("gfx942", "gfx1100", "gfx1200", "gfx950"):
    for _t in ARCH_TYPES[_arch]:
        for _which in ("a", "b", "acc"):
            for _bm, _bn in ((16, 16), (32, 8), (64, 32)):
                _lvl = "smoke" if _bm == 16 else "regression"
                FILL_CASES.append(tier(_arch, _t, _which, _bm, _bn, level=_lvl,
                                       id=f"{_arch}-{_t}-{_which}-{_bm}x{_bn}"))


@pytest.mark.parametrize("arch, tname, which, bm, bn", FILL_CASES)
def test_fill_fragment_then_store(arch, tname, which, bm, bn):
    t, nbytes, dt = TYPES[tname]
    value = -3 if tname in SIGNED else 5  # exact in every type
    for layout in (row_major, col_major):
        cls = unit_fragment(which, bm, bn, t, layout)
        ld = bn if layout is row_major else bm
        dst = np.full(bm * bn, 77, dt)
        box = []
        launch(fill_kernel, arch, cls, value, dst, ld, box)
        assert np.all(from_memory(dst, layout, bm, bn) == dt(value))
        # §6.5: fill_fragment writes the padded elements too
        assert np.all(box[0] == dt(value))


# (arch, type, fill value, expected element bits or value) -- C++ casts computed by hand
FILL_CONVERSIONS = [
    ("gfx950", "f8", 1000.0, 448.0),  # __HIP_SATFINITE: e4m3fn max 448
    ("gfx1200", "f8", -1000.0, -448.0),
    ("gfx1200", "bf8", 1.0e5, 57344.0),  # e5m2 max finite
    ("gfx942", "f8_fnuz", 1000.0, 240.0),  # e4m3fnuz max 240
    ("gfx942", "bf8_fnuz", -1.0e5, -57344.0),
    ("gfx942", "f16", 1.0e6, np.inf),  # _Float16 overflows to inf
    ("gfx1100", "f16", 1 / 3, 0x3555),  # RNE bits
    ("gfx1100", "bf16", 1 / 3, 0x3EAB),  # 0x3EAA|AAAB... rounds up
    ("gfx942", "f32", 0.1, 0x3DCCCCCD),
    ("gfx942", "f64", 0.1, 0.1),
    ("gfx942", "xf32", 1 + 2.0**-11, 1.0),  # rocwmma_xfloat32(float) truncates 13 bits
    ("gfx942", "xf32", 1 + 2.0**-10, 1 + 2.0**-10),  # 10 mantissa bits survive
    ("gfx942", "i8", 300, 44),  # int -> int8 wraps
    ("gfx1200", "i8", -3.7, -3),  # float -> int truncates toward zero
    ("gfx1100", "u8", 257, 1),
    ("gfx942", "i32", -2.9, -2),
    ("gfx942", "u32", -1, 0xFFFFFFFF),
]


@pytest.mark.smoke
@pytest.mark.parametrize("arch, tname, value, expected", FILL_CONVERSIONS,
                         ids=[f"{a}-{t}-{v}" for a, t, v, _ in FILL_CONVERSIONS])
def test_fill_fragment_converts_like_cpp(arch, tname, value, expected):
    t, nbytes, dt = TYPES[tname]
    cls = fragment[accumulator, 16, 16, 16, t, row_major]
    dst = np.zeros(256, dt)
    launch(fill_kernel, arch, cls, value, dst, 16, [])
    if isinstance(expected, int) and tname in ("f16", "bf16", "f32"):
        view = {2: np.uint16, 4: np.uint32}[nbytes]
        assert np.all(dst.view(view) == expected), hex(int(dst.view(view)[0]))
    else:
        assert np.all(dst.astype(np.float64) == expected), dst[0]


@pytest.mark.smoke
@pytest.mark.parametrize("arch, tname", [("gfx950", "f8"), ("gfx1200", "bf8"),
                                         ("gfx942", "f8_fnuz")])
def test_fill_fragment_nan_stays_nan_in_fp8(arch, tname):
    t, _, dt = TYPES[tname]
    dst = np.zeros(256, dt)
    launch(fill_kernel, arch, fragment[accumulator, 16, 16, 16, t, row_major], np.nan, dst, 16, [])
    assert np.all(np.isnan(dst.astype(np.float32)))


# ------------------------------------------------------------------ 2. load/store round trip

SMOKE_SIZES = [(16, 16), (16, 32), (16, 64)]
REGRESSION_SIZES = [(bm, bn) for bm in (32, 64, 128, 256) for bn in (8, 16, 32, 64)]
EXTENDED_SIZES = [(bm, bn) for bm in (16, 32, 64, 128, 256) for bn in (128, 256)]


def _round_trip_cases():
    cases = []
    plan = {
        "gfx942": (SMOKE_SIZES, REGRESSION_SIZES, EXTENDED_SIZES),
        "gfx1100": (SMOKE_SIZES, REGRESSION_SIZES, EXTENDED_SIZES),
        "gfx1200": (SMOKE_SIZES, REGRESSION_SIZES, EXTENDED_SIZES),
        "gfx950": (SMOKE_SIZES[:1], [(32, 16), (32, 32)], REGRESSION_SIZES),
        "gfx908": (SMOKE_SIZES[:1], [(32, 16), (32, 32)], REGRESSION_SIZES),
        "gfx90a": ((), (), SMOKE_SIZES + REGRESSION_SIZES),
        "gfx1101": ((), (), SMOKE_SIZES + REGRESSION_SIZES),
        "gfx1201": ((), (), SMOKE_SIZES + REGRESSION_SIZES),
    }
    for arch, tiers in plan.items():
        for level, sizes in zip(("smoke", "regression", "extended"), tiers, strict=True):
            for bm, bn in sizes:
                for tname in ARCH_TYPES[arch]:
                    if not fits(bm, bn, TYPES[tname][1], WAVE[arch]):
                        continue
                    for which in ("a", "b", "acc"):
                        cases.append(tier(arch, tname, which, bm, bn, level=level,
                                          id=f"{arch}-{tname}-{which}-{bm}x{bn}"))
    return cases


@pytest.mark.parametrize("arch, tname, which, bm, bn", _round_trip_cases())
def test_load_store_round_trip(arch, tname, which, bm, bn):
    t, nbytes, dt = TYPES[tname]
    mat = random_bits((bm, bn), dt, seed=bm * 1000 + bn)
    layouts = [(row_major, None), (col_major, None)]
    if which == "acc":  # void-layout accumulators through the layout_t overloads
        layouts += [(None, mem_row_major), (None, mem_col_major)]
    for layout, rt in layouts:
        mem_layout = layout or (row_major if rt == mem_row_major else col_major)
        cls = unit_fragment(which, bm, bn, t, layout)
        ld = bn if mem_layout is row_major else bm
        src = to_memory(mat, mem_layout)
        dst = random_bits(src.shape, dt, seed=7)
        box = []
        launch(copy_kernel, arch, cls, src, dst, ld, rt, box)
        assert bits_equal(from_memory(dst, mem_layout, bm, bn), mat), (layout, rt)
        # register count of the padded fragment (§2.1 UnpackedSize, §6.2)
        pm, pn, pk = {"a": (bm, 1, bn), "b": (1, bn, bm), "acc": (bm, bn, 1)}[which]
        gm, gn, gk = padded(pm, pn, pk, nbytes, WAVE[arch])
        block_dim, k_dim = {"a": (gm, gk), "b": (gn, gk), "acc": (gn, gm)}[which]
        assert box[0].shape == (block_dim * k_dim // WAVE[arch], WAVE[arch])


@pytest.mark.smoke
@pytest.mark.parametrize("arch", ["gfx942", "gfx1100", "gfx1200"])
def test_runtime_layout_overload_works_for_any_fragment(arch):
    """v2 4-arg load/store: load as layout_t then apply_data_layout (§1.3)."""
    mat = (np.arange(32 * 16) % 251).astype(np.float32).reshape(32, 16)
    cls = fragment[matrix_a, 32, 32, 16, float32, row_major]
    ref_box, rt_box = [], []
    dst = np.zeros(32 * 16, np.float32)
    launch(copy_kernel, arch, cls, to_memory(mat, row_major), dst, 16, None, ref_box)
    col_src = to_memory(mat, col_major)
    launch(copy_kernel, arch, cls, col_src, dst, 32, mem_col_major, rt_box)
    assert np.array_equal(from_memory(dst, col_major, 32, 16), mat)
    assert np.array_equal(rt_box[0], ref_box[0])  # same registers whatever the memory layout


@pytest.mark.smoke
def test_three_arg_load_of_void_accumulator_raises():
    @kernel
    def k(src):
        f = fragment[accumulator, 16, 16, 16, float32]()
        load_matrix_sync(f, src, 16)

    with pytest.raises(FragmentError):
        k[1, 64, 0, "gfx942"](np.zeros(256, np.float32))


# ------------------------------------------------------------------ 3. contamination

PAD_ROWS, PAD_COLS = 4, 8  # §5.2 param1 / param2


def sentinel(tname):
    return {"u8": 238, "u32": 0xDEADBEEF}.get(tname, -7)


def _contamination_cases():
    cases = []
    for arch in ("gfx942", "gfx1100", "gfx1200"):
        for tname in ARCH_TYPES[arch]:
            for which in ("a", "b", "acc"):
                for bm, bn in ((16, 16), (32, 8), (64, 32), (128, 16)):
                    if not fits(bm, bn, TYPES[tname][1], WAVE[arch]):
                        continue
                    level = "smoke" if bm == 16 else "regression"
                    cases.append(tier(arch, tname, which, bm, bn, level=level,
                                      id=f"{arch}-{tname}-{which}-{bm}x{bn}"))
    return cases


def run_contamination(arch, cls, tname, rows, cols, mem_layout, mat):
    """Load the rows x cols `mat` from the inner region of a sentinel-padded buffer, store it
    unpadded and into a sentinel-filled padded buffer; return (plain, padded_out, x)."""
    dt = TYPES[tname][2]
    sv = dt(sentinel(tname))
    big = np.full((rows + 2 * PAD_ROWS, cols + 2 * PAD_COLS), sv, dt)
    big[PAD_ROWS:PAD_ROWS + rows, PAD_COLS:PAD_COLS + cols] = mat
    src = to_memory(big, mem_layout)
    if mem_layout is row_major:
        ld, off, plain_ld = cols + 2 * PAD_COLS, PAD_ROWS * (cols + 2 * PAD_COLS) + PAD_COLS, cols
    else:
        ld, off, plain_ld = rows + 2 * PAD_ROWS, PAD_COLS * (rows + 2 * PAD_ROWS) + PAD_ROWS, rows
    plain = np.full(rows * cols, sv, dt)
    out = np.full(src.shape, sv, dt)
    box = []
    launch(contamination_kernel, arch, cls, src, off, ld, plain, plain_ld, out, box)
    out_mat = from_memory(out, mem_layout, *big.shape)
    return from_memory(plain, mem_layout, rows, cols), out_mat, box[0]


@pytest.mark.parametrize("arch, tname, which, bm, bn", _contamination_cases())
def test_contamination(arch, tname, which, bm, bn):
    t, _, dt = TYPES[tname]
    sv = dt(sentinel(tname))
    rng = np.random.default_rng(bm + bn)
    mat = rng.integers(0, 16, (bm, bn)).astype(dt)  # exact in every type, never the sentinel
    for layout in (row_major, col_major):
        cls = unit_fragment(which, bm, bn, t, layout)
        plain, out, x = run_contamination(arch, cls, tname, bm, bn, layout, mat)
        assert not np.any(x == sv), "a sentinel outside the footprint was read"
        assert np.array_equal(plain, mat)
        inner = out[PAD_ROWS:PAD_ROWS + bm, PAD_COLS:PAD_COLS + bn]
        assert np.array_equal(inner, mat)
        border = np.ones(out.shape, bool)
        border[PAD_ROWS:PAD_ROWS + bm, PAD_COLS:PAD_COLS + bn] = False
        assert np.all(out[border] == sv), "a sentinel outside the footprint was overwritten"


# ------------------------------------------------------------------ partial fragments (§6)






PARTIAL_CASES = [
    # arch, type, matrix, FragM, FragN, FragK
    ("gfx942", "f32", "a", 12, 16, 10),
    ("gfx942", "f32", "b", 16, 12, 10),
    ("gfx942", "f32", "acc", 12, 20, 10),
    ("gfx942", "f16", "a", 12, 16, 10),
    ("gfx942", "i8", "b", 16, 24, 20),
    ("gfx942", "f64", "a", 1, 1, 1),
    ("gfx1100", "f16", "a", 12, 16, 10),
    ("gfx1100", "i8", "acc", 24, 24, 32),
    ("gfx1100", "f16", "b", 2, 3, 1),
    ("gfx1200", "bf16", "b", 16, 12, 10),
    ("gfx1200", "f8", "a", 20, 16, 40),
    ("gfx1200", "i32", "acc", 12, 8, 4),
    ("gfx942", "f16", "acc", 8, 8, 8),
]


@pytest.mark.smoke
@pytest.mark.parametrize("arch, tname, which, fm, fn, fk", PARTIAL_CASES,
                         ids=[f"{a}-{t}-{w}-{m}x{n}x{k}" for a, t, w, m, n, k in PARTIAL_CASES])
def test_partial_fragment_zero_fills_and_clips(arch, tname, which, fm, fn, fk):
    t, nbytes, dt = TYPES[tname]
    wave = WAVE[arch]
    family = {64: "gfx9", 32: "gfx11" if arch.startswith("gfx11") else "gfx12"}[wave]
    bm, bn, bk = padded(fm, fn, fk, nbytes, wave)
    assert (bm, bn, bk) != (fm, fn, fk)  # really a partial fragment
    rows, cols = {"a": (fm, fk), "b": (fk, fn), "acc": (fm, fn)}[which]
    sv = dt(sentinel(tname))
    enc = (np.arange(rows)[:, None] * 3 + np.arange(cols)[None, :] * 5) % 13 + 1  # 1..13
    mat = enc.astype(dt)
    for layout in (row_major, col_major):
        if which == "a":
            cls = fragment[matrix_a, fm, fn, fk, t, layout]
            r, c = input_positions("a", bm, bk, wave, layout)
        elif which == "b":
            cls = fragment[matrix_b, fm, fn, fk, t, layout]
            r, c = input_positions("b", bn, bk, wave, layout)
        else:
            cls = fragment[accumulator, fm, fn, fk, t, layout]
            r, c = acc_positions(bm, bn, wave, family)
        plain, out, x = run_contamination(arch, cls, tname, rows, cols, layout, mat)
        inside = (r < rows) & (c < cols)
        expected = np.where(inside, enc[np.minimum(r, rows - 1), np.minimum(c, cols - 1)], 0)
        assert np.array_equal(x.astype(np.float64), expected), "padding must load as 0"
        assert np.array_equal(plain, mat)
        inner = out[PAD_ROWS:PAD_ROWS + rows, PAD_COLS:PAD_COLS + cols]
        assert np.array_equal(inner, mat)
        border = np.ones(out.shape, bool)
        border[PAD_ROWS:PAD_ROWS + rows, PAD_COLS:PAD_COLS + cols] = False
        assert np.all(out[border] == sv), "store must clip the padded elements"


@pytest.mark.smoke
def test_partial_store_after_fill_clips_padding():
    """fill_fragment fills the padding (§6.5) but the store still clips it (§6.3)."""
    cls = fragment[matrix_a, 12, 16, 10, float32, row_major]
    out = np.full((12 + 8, 10 + 16), -7, np.float32)

    @kernel
    def k(dst):
        f = cls()
        fill_fragment(f, 2.5)
        store_matrix_sync(dst + 4 * 26 + 8, f, 26)

    k[1, 64, 0, "gfx942"](out.ravel())
    inner = np.zeros(out.shape, bool)
    inner[4:16, 8:18] = True
    assert np.all(out[inner] == 2.5)
    assert np.all(out[~inner] == -7)


# ------------------------------------------------------------------ 5. io shape / traits

# §2.1 table: (arch, matrix, M, N, K, type, num_elements)
NUM_ELEMENTS = [
    ("gfx942", "a", 16, 16, 16, "f16", 4), ("gfx942", "b", 16, 16, 16, "bf16", 4),
    ("gfx942", "a", 16, 16, 32, "f16", 8), ("gfx942", "b", 16, 16, 32, "i8", 8),
    ("gfx942", "a", 16, 16, 32, "f8_fnuz", 8), ("gfx950", "b", 16, 16, 32, "f8", 8),
    ("gfx942", "a", 32, 32, 8, "f16", 4), ("gfx942", "b", 32, 32, 16, "f16", 8),
    ("gfx942", "a", 16, 16, 4, "f32", 1), ("gfx942", "b", 16, 16, 4, "f64", 1),
    ("gfx942", "acc", 16, 16, 16, "f32", 4), ("gfx90a", "acc", 32, 32, 8, "f32", 16),
    ("gfx942", "acc", 64, 64, 16, "f32", 64), ("gfx908", "acc", 16, 16, 16, "i32", 4),
    ("gfx1100", "a", 16, 16, 16, "f16", 8), ("gfx1100", "b", 16, 16, 16, "bf16", 8),
    ("gfx1200", "a", 16, 16, 16, "i8", 8), ("gfx1200", "b", 16, 16, 32, "f16", 16),
    ("gfx1100", "a", 16, 16, 32, "i8", 16),
    ("gfx1100", "acc", 16, 16, 16, "f16", 8), ("gfx1200", "acc", 16, 16, 16, "i32", 8),
    ("gfx1201", "acc", 16, 16, 16, "f32", 8), ("gfx1100", "acc", 64, 32, 16, "f32", 64),
    ("gfx1200", "acc", 64, 32, 16, "bf16", 64),
]  # fmt: skip
MATRIX = {"a": matrix_a, "b": matrix_b, "acc": accumulator}


@pytest.mark.smoke
@pytest.mark.parametrize("arch, which, m, n, k, tname, expected", NUM_ELEMENTS,
                         ids=[f"{a}-{w}-{m}x{n}x{k}-{t}" for a, w, m, n, k, t, _ in NUM_ELEMENTS])
def test_num_elements_table(arch, which, m, n, k, tname, expected):
    cls = fragment[MATRIX[which], m, n, k, TYPES[tname][0], row_major]
    with use_arch(arch):
        f = cls()
        assert f.num_elements == expected
        assert cls.size() == expected
        assert f.x.shape == (expected, WAVE[arch])


@pytest.mark.smoke
def test_num_elements_32x32x2_f32_size():
    """§2.1 lists A 32x32x2 f32 with num_elements 1 (class-level size only: see report)."""
    with use_arch("gfx942"):
        assert fragment[matrix_a, 32, 32, 2, float32, row_major].size() == 1


# (arch, type, FragM, FragN, FragK, padded M, N, K): §6.1 worked examples
PADDING = [
    ("gfx942", "f16", 2, 3, 1, 16, 16, 8),
    ("gfx1100", "f16", 2, 3, 1, 16, 16, 4),
    ("gfx942", "f32", 12, 20, 10, 16, 32, 12),
    ("gfx942", "f16", 8, 8, 8, 16, 16, 8),
    ("gfx942", "f64", 1, 1, 1, 16, 16, 4),
    ("gfx1100", "i8", 24, 24, 32, 32, 32, 32),
    ("gfx942", "f16", 16, 16, 8, 16, 16, 8),
    ("gfx942", "f16", 48, 16, 16, 48, 16, 16),
    ("gfx942", "f16", 16, 1, 16, 16, 16, 16),  # dummy N forces N padding
]


@pytest.mark.smoke
@pytest.mark.parametrize("arch, tname, fm, fn, fk, pm, pn, pk", PADDING,
                         ids=[f"{c[0]}-{c[1]}-{c[2]}x{c[3]}x{c[4]}" for c in PADDING])
def test_padded_sizes(arch, tname, fm, fn, fk, pm, pn, pk):
    t, nbytes, _ = TYPES[tname]
    wave = WAVE[arch]
    assert padded(fm, fn, fk, nbytes, wave) == (pm, pn, pk)  # the test's own rule agrees
    with use_arch(arch):
        fa = fragment[matrix_a, fm, fn, fk, t, row_major]
        fb = fragment[matrix_b, fm, fn, fk, t, col_major]
        fc = fragment[accumulator, fm, fn, fk, t]
        assert (fa.height(), fa.width(), fa.blockDim(), fa.kDim()) == (pm, pk, pm, pk)
        assert (fb.height(), fb.width(), fb.blockDim(), fb.kDim()) == (pk, pn, pn, pk)
        assert (fc.height(), fc.width(), fc.blockDim(), fc.kDim()) == (pm, pn, pn, pm)
        g = fa.traits().geometry
        assert (g.block_m, g.block_n, g.block_k) == (pm, pn, pk)
        assert fa().num_elements == pm * pk // wave
        assert fb().num_elements == pn * pk // wave
        assert fc().num_elements == pm * pn // wave


@pytest.mark.smoke
@pytest.mark.parametrize("arch", ["gfx942", "gfx1100", "gfx1200"])
@pytest.mark.parametrize("m, n, k", [(32, 16, 64), (16, 64, 32), (64, 32, 16)])
def test_shape_accessors(arch, m, n, k):
    """§1.2: A H=M W=K blockDim=M kDim=K; B H=K W=N blockDim=N kDim=K; Acc H=M W=N
    blockDim=N kDim=M."""
    with use_arch(arch):
        fa = fragment[matrix_a, m, n, k, float16, col_major]
        fb = fragment[matrix_b, m, n, k, float16, row_major]
        fc = fragment[accumulator, m, n, k, float32]
        assert (fa.height(), fa.width(), fa.blockDim(), fa.kDim()) == (m, k, m, k)
        assert (fb.height(), fb.width(), fb.blockDim(), fb.kDim()) == (k, n, n, k)
        assert (fc.height(), fc.width(), fc.blockDim(), fc.kDim()) == (m, n, n, m)
        assert fc.kDim() == m


@pytest.mark.smoke
def test_fragment_traits_flags():
    sched = fragment_scheduler.coop_row_major_2d[128, 2]
    fa = fragment[matrix_a, 12, 20, 10, float16, row_major]
    fb = fragment[matrix_b, 16, 32, 64, int8, col_major, sched]
    fc = fragment[accumulator, 48, 16, 8, float32]
    ta, tb, tc = fragment_traits(fa), fragment_traits(fb), fragment_traits(fc)
    assert (ta.MatrixT, ta.FragM, ta.FragN, ta.FragK, ta.DataT, ta.DataLayoutT) == (
        matrix_a, 12, 20, 10, float16, row_major)  # unpadded template arguments
    assert ta.Scheduler == fragment_scheduler.default_schedule
    assert (ta.is_matrix_a, ta.is_matrix_b, ta.is_accumulator, ta.is_input) == (
        True, False, False, True)
    assert (ta.is_row_major, ta.is_col_major) == (True, False)
    assert (tb.is_matrix_a, tb.is_matrix_b, tb.is_accumulator, tb.is_input) == (
        False, True, False, True)
    assert (tb.is_row_major, tb.is_col_major) == (False, True)
    assert tb.Scheduler == sched and tb.DataT is int8
    assert (tc.is_matrix_a, tc.is_matrix_b, tc.is_accumulator, tc.is_input) == (
        False, False, True, False)
    assert (tc.is_row_major, tc.is_col_major, tc.DataLayoutT) == (False, False, None)
    assert (tc.FragM, tc.FragN, tc.FragK) == (48, 16, 8)


UNSUPPORTED = [("gfx1100", "f64"), ("gfx90a", "xf32"), ("gfx950", "f8_fnuz"),
               ("gfx942", "f8"), ("gfx1200", "bf8_fnuz"), ("gfx1100", "bf8"),
               ("gfx1201", "xf32")]


@pytest.mark.smoke
@pytest.mark.parametrize("arch, tname", UNSUPPORTED)
def test_unsupported_type_raises_at_creation(arch, tname):
    cls = fragment[matrix_a, 16, 16, 16, TYPES[tname][0], row_major]  # defining is fine
    with use_arch(arch), pytest.raises(FragmentError):
        cls()

    @kernel
    def k():
        cls()

    with pytest.raises(FragmentError):
        k[1, WAVE[arch], 0, arch]()


@pytest.mark.smoke
@pytest.mark.parametrize("arch", ["gfx942", "gfx1100"])
@pytest.mark.parametrize("tname, values, words", [
    ("f16", [1.0, 2.0], 0x40003C00),  # packed element 2i in bits [15:0]
    ("bf16", [1.0, -2.0], 0xC0003F80),
    ("i8", [1, 2, 3, -1], 0xFF030201),
    ("u8", [0x11, 0x22, 0x33, 0x44], 0x44332211),
    ("f32", [1.0], 0x3F800000),
])
def test_packed_register_view(arch, tname, values, words):
    t, nbytes, dt = TYPES[tname]
    wave = WAVE[arch]
    with use_arch(arch):
        f = fragment[matrix_a, 16, 16, 32, t, row_major]()
        n = f.num_elements
        assert n == 16 * 32 // wave
        f.x[...] = np.resize(np.array(values, dt), n)[:, None]
        p = f.packed
        regs = 16 * 32 * nbytes // (4 * wave)  # §2.1 PackedVRegCount
        assert p.shape == (wave, regs) and p.dtype == np.uint32
        assert np.all(p == words)


@pytest.mark.smoke
@pytest.mark.parametrize("arch, which, shape", [
    ("gfx942", "a", (8, 16, 32)),  # f32 W=64: 8*32, 16*32, 8*16 all multiples of 64
    ("gfx942", "b", (16, 8, 32)),
    ("gfx1100", "a", (8, 8, 16)),  # f32 W=32: 128, 128, 64 all multiples of 32
])
def test_unpadded_small_block_dim_round_trip(arch, which, shape):
    m, n, k = shape
    wave = WAVE[arch]
    assert padded(m, n, k, 4, wave) == (m, n, k)  # not a padded fragment
    rows, cols = (m, k) if which == "a" else (k, n)
    mat = (np.arange(rows * cols) % 251).astype(np.float32).reshape(rows, cols)
    cls = fragment[matrix_a if which == "a" else matrix_b, m, n, k, float32, row_major]
    dst = np.zeros(rows * cols, np.float32)
    launch(copy_kernel, arch, cls, to_memory(mat, row_major), dst, cols, None, [])
    assert np.array_equal(from_memory(dst, row_major, rows, cols), mat)


@pytest.mark.smoke
def test_unpadded_block_dim_8_needs_k_for_every_lane_pair():
    """rocWMMA's MmaDimSelector gives an 8-wide block MmaDim 2, so on wave64 K must cover 32
    lane pairs: 8x16x16 f32 (KPerThread 16*2/64 = 0) is rocWMMA's static_assert."""
    with use_arch("gfx942"), pytest.raises(FragmentError, match="does not spread"):
        fragment[matrix_a, 8, 16, 16, float32, row_major]()


@pytest.mark.smoke
@pytest.mark.parametrize("arch", ["gfx942", "gfx1200"])
def test_copy_constructor_and_element_access(arch):
    """§1.2: copy ctor copies the registers; operator[] is x[i]."""
    with use_arch(arch):
        cls = fragment[matrix_a, 16, 16, 32, float16, col_major]
        f = cls()
        f.x[...] = (np.arange(f.x.size) % 100).reshape(f.x.shape)
        g = cls(f)
        assert np.array_equal(g.x, f.x)
        f.x[...] = 0
        assert g.x.any()  # an independent copy
        for i in range(g.num_elements):
            assert np.array_equal(g[i], g.x[i])
        assert g.element_type is float16
        with pytest.raises(FragmentError):
            fragment[matrix_a, 32, 32, 32, float16, col_major](g)
