"""rocWMMA 2.x helpers a port reaches for (MappingUtil's parts, GetMappingUtil_t, GetDataType_t,
DataLayout.Array1d, layout_traits, GetIOShape_t's arch) and narrow (32x8-style) accumulators,
checked against rocWMMA's own formulas written out here."""

from __future__ import annotations

import numpy as np
import pytest

from rocwmma_py import (
    DataLayout,
    FragmentError,
    GetDataLayout_t,
    GetDataType_t,
    GetIOShape_t,
    GetMappingUtil_t,
    accumulator,
    blockDim,
    blockIdx,
    col_major,
    current_arch,
    float16,
    float32,
    float64,
    fragment,
    get_arch,
    int8,
    is_layout_orthogonal,
    is_layout_same,
    kernel,
    layout_traits,
    load_matrix_sync,
    matrix_a,
    matrix_b,
    orthogonal_layout_t,
    row_major,
    store_matrix_sync,
    threadIdx,
    use_arch,
    use_engine,
)

ENGINES = ["batch", "wave"]
ARCHES = ["gfx942", "gfx1100", "gfx1200"]


# --- narrow accumulators: rocWMMA's RowInlineInt / RowOrthoInt with MmaDim 2 --------------

def rocwmma_narrow_acc(m: int, n: int, wave: int, layout):
    """row/col[e, lane] of fragment<accumulator, m, n, K, T, layout> for n < 16, from
    rocWMMA 2.x: MmaDimSelector<n> = 2, DimPerThread = n / 2, KPerThread = m*2 / W;
    baseOffset (x, y) = ((l*DPT) % n, (l/2*KPT) % m); RowInlineInt (row_major) moves DPT
    elements along x per transaction over KPT steps of y; RowOrthoInt (col_major) KPT
    elements along y over DPT steps of x; no register transform follows (MmaDim 2 has none),
    and the Row* layouts read x as the column, y as the row."""
    mma, dpt = 2, n // 2
    kpt = m * mma // wave
    rows = np.zeros((dpt * kpt, wave), int)
    cols = np.zeros((dpt * kpt, wave), int)
    for lane in range(wave):
        x0, y0 = (lane * dpt) % n, (lane // mma * kpt) % m
        e = 0
        outer, inner = (kpt, dpt) if layout is row_major else (dpt, kpt)
        for o in range(outer):
            for i in range(inner):
                x, y = (x0 + i, y0 + o) if layout is row_major else (x0 + o, y0 + i)
                rows[e, lane], cols[e, lane] = y, x
                e += 1
    return rows, cols


NARROW = [(arch, m, t, layout) for arch in ARCHES for m in (32, 64)
          for t in (float32, float16, int8) for layout in (row_major, col_major)]


@pytest.mark.parametrize("arch, m, t, layout", NARROW)
def test_narrow_accumulator_register_map_is_rocwmmas(arch, m, t, layout):
    wave = get_arch(arch).wave_size
    frag = fragment[accumulator, m, 8, m, t, layout]
    with use_arch(arch):
        fmap = frag.map()
        assert frag.size() == m * 8 // wave
    rows, cols = rocwmma_narrow_acc(m, 8, wave, layout)
    np.testing.assert_array_equal(fmap.row, rows)
    np.testing.assert_array_equal(fmap.col, cols)


@kernel
def override_m(frag_cls, src, dst, ld, override):
    """rocWMMA map_util_test MapBlockToMatrixOverrideM: read the block whose row is
    overridden, write it at the wave's own block."""
    mapping = GetMappingUtil_t[frag_cls]
    read = mapping.matrixCoord(mapping.blockCoordM(override))
    write = mapping.matrixCoord()
    f = frag_cls()
    load_matrix_sync(f, mapping.dataCoord(src, read, ld), ld)
    store_matrix_sync(mapping.dataCoord(dst, write, ld), f, ld)


@pytest.mark.parametrize("arch", ARCHES + ["gfx90a"])
@pytest.mark.parametrize("layout", [row_major, col_major])
def test_narrow_accumulator_map_util_override_round_trip(arch, layout):
    wave = get_arch(arch).wave_size
    bm, bn = 32, 8
    t = float64 if arch == "gfx90a" else float32
    frag = fragment[accumulator, bm, bn, bm, t, layout]
    waves_x, waves_y = 2, 2                       # blockDim (2W, 2): 4 waves, grid 2 x 2
    m, n = bm * waves_x * 2, bn * waves_y * 2
    ld = n if layout is row_major else m
    mat = (np.arange(m * n) % 1000).astype(t).reshape(m, n)
    src = (mat if layout is row_major else mat.T).reshape(-1).copy()
    override = 1
    outs = []
    for engine in ENGINES:
        dst = np.zeros(m * n, t)
        with use_engine(engine):
            override_m[(2, 2), (waves_x * wave, waves_y), 0, arch](frag, src, dst, ld,
                                                                   override)
        outs.append(dst.reshape((m, n) if layout is row_major else (n, m)))
    want = np.zeros((m, n), t)
    for wx in range(m // bm):                     # the test's host reference loop
        for wy in range(n // bn):
            want[wx * bm:(wx + 1) * bm, wy * bn:(wy + 1) * bn] = \
                mat[override * bm:(override + 1) * bm, wy * bn:(wy + 1) * bn]
    for got in outs:
        np.testing.assert_array_equal(got if layout is row_major else got.T, want)


@kernel
def load_only(frag_cls, src, ld, box):
    f = frag_cls()
    load_matrix_sync(f, src, ld)
    box.append(f.x.copy())


@pytest.mark.parametrize("arch", ARCHES)
@pytest.mark.parametrize("layout", [row_major, col_major])
def test_narrow_accumulator_loads_through_its_map(arch, layout):
    wave = get_arch(arch).wave_size
    frag = fragment[accumulator, 64, 8, 64, float32, layout]
    mat = np.arange(64 * 8, dtype=np.float32).reshape(64, 8)
    src = (mat if layout is row_major else mat.T).reshape(-1).copy()
    box = []
    load_only[1, wave, 0, arch](frag, src, 8 if layout is row_major else 64, box)
    rows, cols = rocwmma_narrow_acc(64, 8, wave, layout)
    np.testing.assert_array_equal(box[0], mat[rows, cols])


def test_eight_row_and_void_narrow_accumulators_are_refused():
    with use_arch("gfx942"):
        with pytest.raises(FragmentError, match="ACC_INT_A_MAJOR"):
            fragment[accumulator, 8, 32, 8, float32, row_major]()
        with pytest.raises(FragmentError, match="void layout"):
            fragment[accumulator, 32, 8, 32, float32]()


# --- MappingUtil parts ---------------------------------------------------------------------

@kernel
def wave_space(out):
    ws = GetMappingUtil_t[fragment[accumulator, 16, 16, 16, float32, row_major]].WaveSpace
    t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * (blockIdx.x + 2 * blockIdx.y))
    wg, wd = ws.workgroupCoord(), ws.workgroupDim()
    lw, gw = ws.localWaveCoord(), ws.globalWaveCoord()
    for i, v in enumerate((ws.localLaneId(), lw[0], lw[1], gw[0], gw[1], wg[0], wg[1],
                           wd[0], wd[1])):
        out[9 * t + i] = v


@pytest.mark.parametrize("arch", ["gfx942", "gfx1100"])
def test_wave_space_coordinates(arch):
    wave = get_arch(arch).wave_size
    bx, by = 2 * wave, 3
    results = []
    for engine in ENGINES:
        out = np.zeros(9 * bx * by * 4, np.int64)
        with use_engine(engine):
            wave_space[(2, 2), (bx, by), 0, arch](out)
        results.append(out.reshape(-1, 9))
    np.testing.assert_array_equal(results[0], results[1])
    rows = []
    for gy in range(2):
        for gx in range(2):
            for ty in range(by):
                for tx in range(bx):
                    rows.append((tx % wave, tx // wave, ty, (gx * bx + tx) // wave,
                                 gy * by + ty, gx, gy, bx // wave, by))
    np.testing.assert_array_equal(results[0], np.array(rows))


def test_mapping_util_spaces_and_accessors():
    frag = fragment[matrix_a, 32, 16, 16, float16, col_major]
    mapping = GetMappingUtil_t[frag]
    assert (mapping.height, mapping.width, mapping.layout) == (32, 16, col_major)
    assert mapping.MatrixSpace.fromBlockCoord((2, 3)) == (64, 48)
    assert mapping.DataSpace.fromMatrixCoord((5, 7), 100) == 7 * 100 + 5
    assert GetDataType_t[frag] is float16
    layout = DataLayout.Array1d[row_major]
    assert layout.leadingDim((10, 20)) == 20 and DataLayout.ColMajor.leadingDim((10, 20)) == 10
    assert layout.fromMatrixCoord((2, 3), 20) == 43 and DataLayout.RowMajor == layout
    assert GetDataLayout_t[fragment[matrix_b, 16, 16, 16, float16, row_major]] == layout
    with pytest.raises(FragmentError, match="void"):
        GetMappingUtil_t[fragment[accumulator, 16, 16, 16, float32]]


def test_get_io_shape_names_its_arch():
    frag = fragment[matrix_a, 2, 3, 1, float16, row_major]   # padding depends on the wave
    outside = GetIOShape_t[frag]
    assert outside.arch is current_arch() and outside.arch.name in repr(outside)
    assert GetIOShape_t[frag, "gfx942"].KDim == 8 and GetIOShape_t[frag, "gfx1100"].KDim == 4
    with use_arch("gfx1200"):
        assert GetIOShape_t[frag].arch.name == "gfx1200" and GetIOShape_t[frag].KDim == 4
    seen = []

    @kernel
    def inside(box):
        box.append(GetIOShape_t[frag])

    inside[1, 32, 0, "gfx1100"](seen)
    assert seen[0].arch.name == "gfx1100" and seen[0].BlockHeight == 16


# --- layout_traits -------------------------------------------------------------------------

def test_layout_traits_of_fragments_follow_rocwmmas_io_layout():
    with use_arch("gfx942"):
        a_row = layout_traits[fragment[matrix_a, 32, 16, 16, float16, row_major]]
        a_col = layout_traits[fragment[matrix_a, 32, 16, 16, float16, col_major]]
        b_row = layout_traits[fragment[matrix_b, 16, 32, 16, float16, row_major]]
        acc = layout_traits[fragment[accumulator, 32, 32, 16, float32, col_major]]
    assert a_row.is_col_ortho and a_row.StorageFormat == "SOA_INT" and a_row.is_interleaved
    assert a_col.is_col_inline and a_col.StorageFormat == "AOS_INT"
    assert (a_row.MmaDim, a_row.DimPerThread, a_row.KPerThread) == (16, 2, 4)
    assert (a_row.VectorWidth, a_col.VectorWidth) == (4, 2)   # KPT (ortho), DPT (inline)
    assert b_row.is_row_inline and acc.is_row_ortho and acc.FragmentFormat == "ACC_INT_A_MAJOR"
    dl = layout_traits[col_major]
    assert dl.is_col_major and not dl.is_row_major and dl.is_data_layout
    assert layout_traits[DataLayout.RowMajor].is_row_major


def test_is_layout_same_and_orthogonal():
    assert is_layout_same[row_major, DataLayout.RowMajor]
    assert is_layout_orthogonal[row_major, col_major] and not is_layout_same[row_major, col_major]
    assert orthogonal_layout_t[row_major] is col_major
    assert orthogonal_layout_t[DataLayout.ColMajor] == DataLayout.RowMajor
    with use_arch("gfx942"):
        a16r = fragment[matrix_a, 16, 16, 16, float16, row_major]
        a16c = fragment[matrix_a, 16, 16, 16, float16, col_major]
        a32r = fragment[matrix_a, 32, 16, 16, float16, row_major]
        a32c = fragment[matrix_a, 32, 16, 16, float16, col_major]
        # DimPerThread 1: AOS and SOA orders coincide (rocWMMA's identity quirk)
        assert is_layout_same[a16r, a16c] and not is_layout_orthogonal[a16r, a16c]
        assert is_layout_orthogonal[a32r, a32c] and not is_layout_same[a32r, a32c]
        assert not is_layout_orthogonal[a32r, fragment[matrix_b, 16, 32, 16, float16,
                                                        row_major]]
    with pytest.raises(TypeError):
        is_layout_same[row_major]
