"""Fragment register layouts (rocwmma-notes §2.4, §2.6, §2.11) on every architecture.

A kernel loads an index-encoded matrix (value = row*1000 + col, int32 or float32) and each
lane's x[] is compared with the interleaved A/B formulas and the ACC_INT_A_MAJOR accumulator
formula, written out below from the notes; types that cannot hold the code are checked with
base-8 digit planes instead. The worked examples of §2.11 are checked literally.
"""

from __future__ import annotations

import numpy as np
import pytest
from notes_reference import (
    ARCH_TYPES,
    FAMILY,
    TYPES,
    WAVE,
    acc_positions,
    input_positions,
)

from rocwmma_py import (
    ARCH_NAMES,
    accumulator,
    col_major,
    float32,
    float64,
    fragment,
    int32,
    kernel,
    load_matrix_sync,
    matrix_a,
    matrix_b,
    mem_col_major,
    mem_row_major,
    row_major,
)

F64_ARCHS = ("gfx90a", "gfx942", "gfx950")



def no_padding(m, n, k, nbytes, wave) -> bool:
    """§6.1: no padding iff M*K, N*K and M*N are multiples of W*ceil(4/sizeof)."""
    mepf = wave * -(-4 // nbytes)
    return (m * k) % mepf == 0 and (n * k) % mepf == 0 and (m * n) % mepf == 0


# ------------------------------------------------------------------ the formulas (§2.4, §2.6)








# ------------------------------------------------------------------ observing x[]


@kernel
def load_x(frag_cls, src, ldm, rt_layout, box):
    f = frag_cls()
    if rt_layout is None:
        load_matrix_sync(f, src, ldm)
    else:
        load_matrix_sync(f, src, ldm, rt_layout)
    box.append(f.x.copy())


def to_memory(mat: np.ndarray, layout) -> tuple[np.ndarray, int]:
    if layout is row_major:
        return np.ascontiguousarray(mat).ravel(), mat.shape[1]
    return np.ascontiguousarray(mat.T).ravel(), mat.shape[0]


def load(arch, cls, mat, mem_layout, runtime=False):
    src, ld = to_memory(mat, mem_layout)
    rt = (mem_row_major if mem_layout is row_major else mem_col_major) if runtime else None
    box = []
    load_x[1, WAVE[arch], 0, arch](cls, src, ld, rt, box)
    return box[0]


def encoded_positions(arch, cls, height, width, dt, mem_layout, runtime=False):
    """(row, col) of every x[e, lane] from one load of value = row*1000 + col."""
    enc = np.arange(height)[:, None] * 1000 + np.arange(width)[None, :]
    x = load(arch, cls, enc.astype(dt), mem_layout, runtime).astype(np.int64)
    return x // 1000, x % 1000


def digit_positions(arch, cls, height, width, dt, mem_layout, runtime=False):
    """(row, col) from four loads of base-8 digits (0..7 is exact in every element type)."""
    assert height <= 64 and width <= 64
    r, c = np.arange(height)[:, None], np.arange(width)[None, :]
    planes = [np.broadcast_to(p, (height, width)) for p in (r // 8, r % 8, c // 8, c % 8)]
    d = [load(arch, cls, p.astype(dt), mem_layout, runtime).astype(np.int64) for p in planes]
    return d[0] * 8 + d[1], d[2] * 8 + d[3]


def tier(*values, level, id):
    return pytest.param(*values, marks=getattr(pytest.mark, level), id=id)


# ------------------------------------------------------------------ A/B formulas, every arch


def _input_cases():
    cases = []
    for arch in ARCH_NAMES:
        for which in ("a", "b"):
            for bd in (16, 32, 64):
                for bk in (2, 4, 8, 16, 32, 64):
                    if bk * 16 % WAVE[arch] or not no_padding(bd, bd, bk, 4, WAVE[arch]):
                        continue
                    level = "smoke" if bd == 16 and bk == 16 else "regression"
                    cases.append(tier(arch, which, bd, bk, level=level,
                                      id=f"{arch}-{which}-{bd}x{bk}"))
    return cases


@pytest.mark.parametrize("arch, which, bd, bk", _input_cases())
def test_input_layout_matches_interleaved_formula(arch, which, bd, bk):
    wave = WAVE[arch]
    for layout in (row_major, col_major):
        for t, dt in ((int32, np.int32), (float32, np.float32)):
            if which == "a":  # M = bd, K = bk; the matrix is M x K
                cls, h, w = fragment[matrix_a, bd, bd, bk, t, layout], bd, bk
            else:  # N = bd; the matrix is K x N
                cls, h, w = fragment[matrix_b, bd, bd, bk, t, layout], bk, bd
            rows, cols = encoded_positions(arch, cls, h, w, dt, layout)
            exp_rows, exp_cols = input_positions(which, bd, bk, wave, layout)
            assert rows.shape == (bd * bk // wave, wave)
            assert np.array_equal(rows, exp_rows), (layout.__name__, t)
            assert np.array_equal(cols, exp_cols), (layout.__name__, t)


def _type_cases():
    cases = []
    for arch in ARCH_NAMES:
        level = "regression" if arch in ("gfx942", "gfx1100", "gfx1200") else "extended"
        for which in ("a", "b"):
            for bd, bk in ((32, 32), (64, 16)):
                cases.append(tier(arch, which, bd, bk, level=level,
                                  id=f"{arch}-{which}-{bd}x{bk}"))
    return cases


@pytest.mark.parametrize("arch, which, bd, bk", _type_cases())
def test_input_layout_does_not_depend_on_data_type(arch, which, bd, bk):
    """§2.4: the A/B layout depends on (BlockDim, BlockK, W, DataLayout) only."""
    wave = WAVE[arch]
    for layout in (row_major, col_major):
        exp = input_positions(which, bd, bk, wave, layout)
        for tname in ARCH_TYPES[arch]:
            t, nbytes, dt = TYPES[tname]
            assert no_padding(bd, bd, bk, nbytes, wave)
            mat = matrix_a if which == "a" else matrix_b
            cls = fragment[mat, bd, bd, bk, t, layout]
            h, w = (bd, bk) if which == "a" else (bk, bd)
            got = digit_positions(arch, cls, h, w, dt, layout)
            assert np.array_equal(got[0], exp[0]) and np.array_equal(got[1], exp[1]), tname


# ------------------------------------------------------------------ accumulators, every arch


def _acc_cases():
    cases = []
    for arch in ARCH_NAMES:
        for m in (16, 32, 64):
            for n in (16, 32, 64):
                level = "smoke" if m == n == 16 else "regression"
                cases.append(tier(arch, m, n, level=level, id=f"{arch}-{m}x{n}"))
    return cases


@pytest.mark.parametrize("arch, m, n", _acc_cases())
def test_accumulator_layout_matches_acc_int_a_major(arch, m, n):
    wave, family = WAVE[arch], FAMILY[arch]
    types = [(int32, np.int32, False), (float32, np.float32, False)]
    if arch in F64_ARCHS:
        types.append((float64, np.float64, True))
    for t, dt, is_f64 in types:
        exp_rows, exp_cols = acc_positions(m, n, wave, family, is_f64)
        for layout, runtime in ((row_major, False), (col_major, False), (None, True)):
            for mem in (row_major, col_major) if runtime else (layout,):
                cls = fragment[accumulator, m, n, 16, t, layout]
                rows, cols = encoded_positions(arch, cls, m, n, dt, mem, runtime)
                where = (t, layout, mem)
                assert np.array_equal(rows, exp_rows), where
                assert np.array_equal(cols, exp_cols), where


ORDER_CASES = [tier(a, m, n, level="smoke" if m == n == 16 else "regression",
                    id=f"{a}-{m}x{n}")
               for a in ("gfx942", "gfx1100", "gfx1200", "gfx908", "gfx1201")
               for m, n in ((16, 16), (32, 32), (64, 16))]


@pytest.mark.parametrize("arch, m, n", ORDER_CASES)
def test_accumulator_order_same_for_types_and_layouts(arch, m, n):
    """§2.6: f32, f16, i32 (and bf16, u32) accumulators of equal shape hold the same
    elements in x[] for row_major, col_major and void layouts."""
    exp_rows, exp_cols = acc_positions(m, n, WAVE[arch], FAMILY[arch])
    for tname in ("f32", "f16", "i32", "bf16", "u32"):
        t, _, dt = TYPES[tname]
        for layout, mem, runtime in ((row_major, row_major, False), (col_major, col_major, False),
                                     (None, row_major, True), (None, col_major, True)):
            cls = fragment[accumulator, m, n, 16, t, layout]
            rows, cols = digit_positions(arch, cls, m, n, dt, mem, runtime)
            where = (tname, layout, mem)
            assert np.array_equal(rows, exp_rows), where
            assert np.array_equal(cols, exp_cols), where


# ------------------------------------------------------------------ §2.11 worked examples

_F64_A = [(1, 4), (1, 5), (1, 6), (1, 7)]
_ACC32_V2 = [(8, 2), (10, 2), (12, 2), (14, 2), (8, 3), (10, 3), (12, 3), (14, 3),
             (9, 2), (11, 2), (13, 2), (15, 2), (9, 3), (11, 3), (13, 3), (15, 3)]
WORKED = [
    # id, arch, matrix, (M, N, K), type, layouts, lane, x[0..] as (row, col)
    ("gfx9-A16-f16-l0", "gfx942", "a", (16, 16, 16), "f16", "rc", 0,
     [(0, 0), (0, 1), (0, 2), (0, 3)]),
    ("gfx9-A16-f16-l17", "gfx942", "a", (16, 16, 16), "f16", "rc", 17,
     [(1, 4), (1, 5), (1, 6), (1, 7)]),
    ("gfx9-A16-f16-l63", "gfx942", "a", (16, 16, 16), "f16", "rc", 63,
     [(15, 12), (15, 13), (15, 14), (15, 15)]),
    ("gfx9-B16-f16-l17", "gfx942", "b", (16, 16, 16), "f16", "rc", 17,  # (k, n) = (row, col)
     [(4, 1), (5, 1), (6, 1), (7, 1)]),
    ("gfx9-acc16-f32", "gfx942", "acc", (16, 16, 16), "f32", "rc", 17,
     [(4, 1), (5, 1), (6, 1), (7, 1)]),
    ("gfx9-acc16-f16", "gfx90a", "acc", (16, 16, 16), "f16", "rc", 17,
     [(4, 1), (5, 1), (6, 1), (7, 1)]),
    ("gfx9-acc16-i32", "gfx908", "acc", (16, 16, 16), "i32", "rc", 17,
     [(4, 1), (5, 1), (6, 1), (7, 1)]),
    ("gfx9-acc16-f64", "gfx942", "acc", (16, 16, 16), "f64", "rc", 17,
     [(1, 1), (5, 1), (9, 1), (13, 1)]),
    ("gfx9-acc32-v2", "gfx942", "acc", (32, 32, 16), "f32", "rc", 17, _ACC32_V2),
    ("gfx9-A32x16-f16-row", "gfx942", "a", (32, 32, 16), "f16", "r", 17,
     [(2, 4), (2, 5), (2, 6), (2, 7), (3, 4), (3, 5), (3, 6), (3, 7)]),
    ("gfx9-A32x16-f16-col", "gfx942", "a", (32, 32, 16), "f16", "c", 17,
     [(2, 4), (3, 4), (2, 5), (3, 5), (2, 6), (3, 6), (2, 7), (3, 7)]),
    ("gfx9-A16-f64-v2", "gfx942", "a", (16, 16, 16), "f64", "rc", 17, _F64_A),
    ("gfx11-A16-f16", "gfx1100", "a", (16, 16, 16), "f16", "rc", 17,
     [(1, k) for k in range(8, 16)]),
    ("gfx12-A16-f16", "gfx1200", "a", (16, 16, 16), "f16", "rc", 17,
     [(1, k) for k in range(8, 16)]),
    ("gfx11-acc16", "gfx1100", "acc", (16, 16, 16), "f32", "rc", 17,
     [(r, 1) for r in range(1, 16, 2)]),
    ("gfx12-acc16", "gfx1200", "acc", (16, 16, 16), "f32", "rc", 17,
     [(r, 1) for r in range(8, 16)]),
]


@pytest.mark.smoke
@pytest.mark.parametrize("arch, which, shape, tname, layouts, lane, expected",
                         [w[1:] for w in WORKED], ids=[w[0] for w in WORKED])
def test_worked_examples(arch, which, shape, tname, layouts, lane, expected):
    m, n, k = shape
    t, _, dt = TYPES[tname]
    mat = {"a": matrix_a, "b": matrix_b, "acc": accumulator}[which]
    h, w = {"a": (m, k), "b": (k, n), "acc": (m, n)}[which]
    for code in layouts:
        layout = row_major if code == "r" else col_major
        cls = fragment[mat, m, n, k, t, layout]
        rows, cols = digit_positions(arch, cls, h, w, dt, layout)
        got = list(zip(rows[:, lane].tolist(), cols[:, lane].tolist(), strict=True))
        assert got == expected, code


@pytest.mark.smoke
def test_worked_example_gfx12_wave_tile_64x32():
    """§2.11: gfx12 Acc 64x32, BlocksM 4, BlocksN 2: e = (bm*2+bn)*8 + r ->
    ((8h+r)*4 + bm, 2c + bn); lane 17 (h=1, c=1), spot values computed by hand."""
    cls = fragment[accumulator, 64, 32, 16, float32, row_major]
    rows, cols = encoded_positions("gfx1200", cls, 64, 32, np.float32, row_major)
    assert rows.shape == (64, 32)
    spots = {0: (32, 2), 1: (36, 2), 7: (60, 2), 8: (32, 3), 16: (33, 2), 24: (33, 3),
             63: (63, 3)}
    for e, (r, c) in spots.items():
        assert (rows[e, 17], cols[e, 17]) == (r, c), e
