"""API that ports of rocWMMA's samples need (issue 7, items 3, 4, 5 and 7): Coord2d arithmetic,
the C++ type and helper names, typed kernel scalars and scheduler/block mismatches."""

from __future__ import annotations

import numpy as np
import pytest

import rocwmma_py as rw
from rocwmma_py import (
    Coord2d,
    FragmentError,
    GetDataLayout_t,
    GetIOShape_t,
    Log2,
    accumulator,
    apply_data_layout_t,
    apply_transpose,
    apply_transpose_t,
    ceilDiv,
    col_major,
    fill_fragment,
    float16,
    float32,
    fragment,
    fragment_scheduler,
    get,
    getWarpSize,
    kernel,
    load_matrix_sync,
    make_coord2d,
    matrix_a,
    matrix_b,
    mem_row_major,
    mma_sync,
    row_major,
    store_matrix_sync,
    swap,
    use_arch,
)

pytestmark = pytest.mark.smoke

# --- item 3: Coord2d ------------------------------------------------------------------------


def test_coord2d_arithmetic_is_element_wise():
    a, b = make_coord2d(1, 2), make_coord2d(3, 4)
    assert a + b == (4, 6) and isinstance(a + b, Coord2d)
    assert b - a == (2, 2) and a * b == (3, 8)
    assert a * 3 == (3, 6) and 3 * a == (3, 6) and a + 1 == (2, 3)
    assert (10, 10) - a == (9, 8) and (1, 1) + a == (2, 3)
    row, col = a  # unpacks like a pair
    assert (row, col) == (1, 2) and get[0](a) == 1 and get[1](a) == 2
    assert swap(a) == (2, 1) and isinstance(swap(a), Coord2d)
    acc = make_coord2d(0, 0)
    acc += make_coord2d(16, 0)  # rocWMMA's `offset += kStep`
    assert acc == (16, 0)


def test_coord2d_holds_per_lane_values():
    lanes = np.arange(4)
    c = make_coord2d(lanes, 7) * make_coord2d(16, 2) + make_coord2d(1, 1)
    assert np.array_equal(c[0], lanes * 16 + 1) and c[1] == 15


def test_coord2d_rejects_other_lengths():
    with pytest.raises(TypeError, match="2-element"):
        make_coord2d(1, 2) + (1, 2, 3)


# --- item 4: names ----------------------------------------------------------------------------


def test_cpp_type_names():
    assert rw.float16_t is np.float16 and rw.hfloat16_t is np.float16
    assert rw.float32_t is np.float32 and rw.float64_t is np.float64
    assert rw.int8_t is np.int8 and rw.int32_t is np.int32
    assert rw.bfloat16_t is rw.bfloat16 and rw.xfloat32_t is rw.xfloat32


def test_bare_scheduler_names():
    fs = fragment_scheduler
    assert rw.default_schedule is fs.default_schedule
    assert rw.coop_row_major_2d[128, 2] == fs.coop_row_major_2d[128, 2]
    assert rw.coop_col_major_2d[64, 4] == fs.coop_col_major_2d[64, 4]
    assert rw.coop_row_slice_2d[64, 2] == fs.coop_row_slice_2d[64, 2]
    assert rw.coop_col_slice_2d[64, 2] == fs.coop_col_slice_2d[64, 2]
    assert rw.single[64, 2, 1] == fs.single[64, 2, 1]


def test_math_helpers():
    assert [Log2[n] for n in (1, 2, 64, 128)] == [0, 1, 6, 7]
    with pytest.raises(ValueError, match="power of two"):
        Log2[48]
    assert ceilDiv(257, 16) == 17 and ceilDiv(256, 16) == 16


@pytest.mark.parametrize("arch, wave", [("gfx942", 64), ("gfx1100", 32), ("gfx1201", 32)])
def test_get_warp_size(arch, wave):
    with use_arch(arch):
        assert getWarpSize() == wave


def test_transform_result_types():
    fa = fragment[matrix_a, 64, 32, 16, float16, col_major]
    assert apply_data_layout_t[fa, row_major] is fragment[matrix_a, 64, 32, 16, float16,
                                                          row_major]
    assert apply_transpose_t[fa] is fragment[matrix_b, 32, 64, 16, float16, row_major]
    with pytest.raises(FragmentError, match="accumulator"):
        apply_transpose_t[fragment[accumulator, 16, 16, 16, float32]]


def test_apply_transpose_t_names_the_runtime_result():
    fa = fragment[matrix_a, 32, 16, 16, float16, col_major]
    seen = []

    @kernel
    def probe():
        seen.append(type(apply_transpose(fa())))

    probe[1, 64, 0, "gfx942"]()
    assert seen == [apply_transpose_t[fa]]


@pytest.mark.parametrize("arch, pad_k", [("gfx942", 8), ("gfx1100", 4)])
def test_get_io_shape_is_padded_per_arch(arch, pad_k):
    # f16 (2,3,1) pads to (16,16,8) on wave64 and (16,16,4) on wave32 (rocwmma-notes §6)
    fa = fragment[matrix_a, 2, 3, 1, float16, row_major]
    fb = fragment[matrix_b, 2, 3, 1, float16, row_major]
    with use_arch(arch):
        a, b = GetIOShape_t[fa], GetIOShape_t[fb]
        assert (a.BlockHeight, a.BlockWidth, a.BlockDim, a.KDim) == (16, pad_k, 16, pad_k)
        assert (b.BlockHeight, b.BlockWidth, b.BlockDim, b.KDim) == (pad_k, 16, 16, pad_k)


def test_get_data_layout_from_matrix_coord():
    row = GetDataLayout_t[fragment[matrix_a, 16, 16, 16, float16, row_major]]
    col = GetDataLayout_t[fragment[matrix_b, 16, 16, 16, float16, col_major]]
    assert row.fromMatrixCoord(make_coord2d(3, 5), 100) == 305
    assert col.fromMatrixCoord(make_coord2d(3, 5), 100) == 503
    with pytest.raises(FragmentError, match="void"):
        GetDataLayout_t[fragment[accumulator, 16, 16, 16, float32]]


# --- item 5: typed kernel scalars -------------------------------------------------------------

FragA = fragment[matrix_a, 16, 16, 16, float16, row_major]
FragB = fragment[matrix_b, 16, 16, 16, float16, col_major]
FragC = fragment[accumulator, 16, 16, 16, float16]
FragAcc = fragment[accumulator, 16, 16, 16, float32]


def _epilogue(a, b, c, d, alpha, beta):
    frag_a, frag_b, frag_c, frag_acc = FragA(), FragB(), FragC(), FragAcc()
    fill_fragment(frag_acc, 0.0)
    load_matrix_sync(frag_a, a, 16)
    load_matrix_sync(frag_b, b, 16)
    mma_sync(frag_acc, frag_a, frag_b, frag_acc)
    load_matrix_sync(frag_c, c, 16, mem_row_major)
    frag_c.x[:] = alpha * frag_acc.x + beta * frag_c.x
    store_matrix_sync(d, frag_c, 16, mem_row_major)


@kernel
def hgemm_typed(a, b, c, d, alpha: float32, beta: float32):
    """alpha/beta declared like the C++ `float32_t alpha`: converted at launch."""
    _epilogue(a, b, c, d, alpha, beta)


@kernel
def hgemm_untyped(a, b, c, d, alpha, beta):
    _epilogue(a, b, c, d, alpha, beta)


def _hgemm_problem():
    rng = np.random.default_rng(7)
    a = rng.integers(-4, 5, (16, 16)).astype(np.float16)
    b = rng.integers(-4, 5, (16, 16)).astype(np.float16)
    c = (rng.integers(-2048, 2048, (16, 16)) / 8).astype(np.float16)
    ab = a.astype(np.int64) @ b.astype(np.int64)  # exact
    # C++: float alpha * float acc + float beta * float(half c), each op rounded to f32
    alpha = np.float32(2.1)
    f32 = (alpha * ab.astype(np.float32)) + (alpha * c.astype(np.float32))
    return a, np.ascontiguousarray(b.T), c, f32.astype(np.float16)


@pytest.mark.parametrize("arch", ["gfx942", "gfx1100"])
def test_annotated_scalars_convert_like_cpp(arch):
    a, b_cm, c, ref = _hgemm_problem()
    wave = 64 if arch == "gfx942" else 32
    results = {}
    runs = [("typed", hgemm_typed, 2.1), ("numpy", hgemm_untyped, np.float32(2.1)),
            ("python", hgemm_untyped, 2.1)]
    for name, k, scalar in runs:
        d = np.full((16, 16), np.nan, np.float16)
        k[1, wave, 0, arch](a, b_cm, c, d, scalar, scalar)
        results[name] = d
    assert np.array_equal(results["typed"], ref)  # a Python float, converted at launch
    assert np.array_equal(results["numpy"], ref)
    # the hazard the annotation removes: numpy keeps beta * half in f16 (weak Python scalar);
    # 93 of 256 outputs change with this data (the probe counted 96 with its own)
    differ = np.count_nonzero(results["python"] != ref)
    assert differ == 93, differ


def test_annotated_scalar_refuses_arrays():
    with pytest.raises(TypeError, match="'alpha' is annotated as the scalar type f32"):
        hgemm_typed[1, 64, 0, "gfx942"](*_hgemm_problem(), np.ones(3, np.float32), 1.0)


def test_annotations_that_are_not_element_types_are_ignored():
    seen = []

    @kernel
    def k(n: int, x: float16, y: np.ndarray, z: undefined_name):  # noqa: F821
        seen.append((type(n), type(x), type(y), z))

    k[1, 64, 0, "gfx942"](3, 1.5, [1], "kept")
    assert seen == [(int, np.float16, list, "kept")]


# --- item 7: cooperative scheduler vs launch block --------------------------------------------


@pytest.mark.parametrize("arch, wave", [("gfx942", 64), ("gfx1100", 32)])
@pytest.mark.parametrize("sched_waves, block_waves", [((2, 2), (1, 1)), ((2, 2), (4, 1)),
                                                      ((1, 4), (2, 2)), ((2, 1), (2, 2))])
def test_coop_scheduler_must_match_block(arch, wave, sched_waves, block_waves):
    sched = fragment_scheduler.coop_row_major_2d[sched_waves[0] * wave, sched_waves[1]]
    frag = fragment[matrix_a, 64, 64, 16, float16, row_major, sched]
    src = np.arange(64 * 16, dtype=np.float16)
    errors = []

    @kernel
    def load(a):
        try:
            load_matrix_sync(frag(), a, 16)
        except FragmentError as e:
            errors.append(str(e))

    load[1, (block_waves[0] * wave, block_waves[1]), 0, arch](src)
    assert len(errors) == block_waves[0] * block_waves[1]
    assert f"{sched_waves[0]}x{sched_waves[1]} waves" in errors[0]
    assert f"{block_waves[0]}x{block_waves[1]} waves" in errors[0]


def test_coop_scheduler_matching_block_loads_everything():
    sched = fragment_scheduler.coop_row_major_2d[128, 2]
    frag = fragment[matrix_a, 64, 64, 16, float16, row_major, sched]
    src = np.arange(64 * 16, dtype=np.float16)
    dst = np.full_like(src, np.nan)

    @kernel
    def copy(a, d):
        f = frag()
        load_matrix_sync(f, a, 16)
        store_matrix_sync(d, f, 16)

    copy[1, (128, 2), 0, "gfx942"](src, dst)
    assert np.array_equal(dst, src)
