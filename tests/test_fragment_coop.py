"""Cooperative load/store (rocwmma-notes §1.4, §2.9, §5.2 load_store_matrix_coop_sync_test).

Fragments with each of the six schedulers are loaded and stored by every wave of thread
blocks (W,1) ... (4W,1) on gfx942 (wave64) and gfx1100 (wave32). Expectations come from the
notes, written out here: the scheduler table of §1.4 (waveIndex / waveCount), the SplitK
split of §2.9 (wave i of c owns K in [i*K/c, (i+1)*K/c), KPT = BK*16/(W*c)), the register
constraints of §1.2 (PackedVRegCount % WaveCount == 0) and the mma_sync restriction (§1.3).
"""

from __future__ import annotations

import numpy as np
import pytest
from notes_reference import padded

from rocwmma_py import (
    FragmentError,
    accumulator,
    apply_data_layout,
    apply_transpose,
    col_major,
    float16,
    float32,
    float64,
    fragment,
    fragment_scheduler,
    int8,
    int32,
    kernel,
    load_matrix_sync,
    matrix_a,
    matrix_b,
    mma_sync,
    row_major,
    store_matrix_sync,
    threadIdx,
    use_arch,
    wave_size,
)

WAVE = {"gfx942": 64, "gfx1100": 32}
SCHEDULERS = ["default_schedule", "coop_row_major_2d", "coop_col_major_2d",
              "coop_row_slice_2d", "coop_col_slice_2d", "single"]
BLOCKS = [(1, 1), (1, 2), (2, 1), (1, 4), (2, 2), (4, 1)]  # (TBlockX / W, TBlockY), §1.4
TYPES = {"f32": (float32, 4, np.float32), "f16": (float16, 2, np.float16),
         "i8": (int8, 1, np.int8)}
SENTINEL = -7


def scheduler(name, tbx, tby, wave_idx=None):
    fs = fragment_scheduler
    if name == "default_schedule":
        return fs.default_schedule
    if name == "single" and wave_idx is not None:
        return fs.single[tbx, tby, wave_idx]
    return getattr(fs, name)[tbx, tby]


def index_and_count(name, wx, wy, n_wx, n_wy, wave_idx=0):
    """§1.4 table: (waveIndex, waveCount) of wave (wx, wy) in a WX x WY wave grid."""
    if name == "default_schedule":
        return 0, 1
    if name == "coop_row_major_2d":
        return wx * n_wy + wy, n_wx * n_wy
    if name == "coop_col_major_2d":
        return wy * n_wx + wx, n_wx * n_wy
    if name == "coop_row_slice_2d":
        return wy, n_wy
    if name == "coop_col_slice_2d":
        return wx, n_wx
    return (wx * n_wy + wy - wave_idx) % 2**32, 1  # single: unsigned, RangeCheck




def splittable(block_dim, block_k, nbytes, wave, count) -> bool:
    """§2.9 KPT = BK*16/(W*c) a whole number, and §1.2 PackedVRegCount % WaveCount == 0."""
    packed_regs = block_dim * block_k * nbytes // (4 * wave)
    return (block_k * 16) % (wave * count) == 0 and packed_regs % count == 0


def to_memory(mat, layout):
    if layout is row_major:
        return np.ascontiguousarray(mat).ravel(), mat.shape[1]
    return np.ascontiguousarray(mat.T).ravel(), mat.shape[0]


def from_memory(buf, layout, rows, cols):
    return buf.reshape(rows, cols) if layout is row_major else buf.reshape(cols, rows).T


@kernel
def coop_copy(cls, src, ld, dst, per_wave, plane, box):
    """Every wave loads its share and stores it to `dst` and to its own plane of
    `per_wave` (plane index = HIP wave number y*WX + x)."""
    f = cls()
    load_matrix_sync(f, src, ld)
    store_matrix_sync(dst, f, ld)
    wx, wy = int(threadIdx.x // wave_size()), int(threadIdx.y)
    n_wx = box["n_wx"]
    store_matrix_sync(per_wave + (wy * n_wx + wx) * plane, f, ld)
    box[(wx, wy)] = f.x.copy()


def unit_fragment(which, bm, bn, t, layout, sched):
    """load_store_matrix_coop_sync_test shapes: the fragment holds a BM x BN matrix."""
    if which == "a":
        return fragment[matrix_a, bm, 1, bn, t, layout, sched]
    return fragment[matrix_b, 1, bn, bm, t, layout, sched]


def tier(*values, level, id):
    return pytest.param(*values, marks=getattr(pytest.mark, level), id=id)


SIZES = [((16, 16), "smoke"), ((32, 32), "regression"), ((64, 16), "regression"),
         ((16, 64), "regression"), ((64, 64), "regression"), ((128, 64), "extended"),
         ((256, 32), "extended")]
COOP_CASES = [
    tier(arch, name, blk, which, bm, bn, level=level,
         id=f"{arch}-{name}-{blk[0]}Wx{blk[1]}-{which}-{bm}x{bn}")
    for arch in WAVE for name in SCHEDULERS for blk in BLOCKS for which in ("a", "b")
    for (bm, bn), level in SIZES
]


def check_cooperative_copy(arch, name, blk, which, bm, bn, t, nbytes, dt) -> bool:
    """Load/store a BM x BN matrix with the unit-test fragment of scheduler `name` in thread
    block `blk` and check every wave's share (§1.4 index/count, §2.9 K slices) and the union.
    Returns False (nothing run) when the wave count cannot split this fragment."""
    wave = WAVE[arch]
    n_wx, n_wy = blk
    tbx, tby = n_wx * wave, n_wy
    sched = scheduler(name, tbx, tby)
    pm, pn, pk = padded(*((bm, 1, bn) if which == "a" else (1, bn, bm)), nbytes, wave)
    block_dim, block_k = (pm, pk) if which == "a" else (pn, pk)
    counts = {index_and_count(name, x, y, n_wx, n_wy)[1]
              for x in range(n_wx) for y in range(n_wy)}
    (count,) = counts  # the same for every wave of the block
    if not splittable(block_dim, block_k, nbytes, wave, count):
        return False  # see test_sub_register_share_is_rejected
    mat = np.random.default_rng(bm * 7 + bn).integers(0, 16, (bm, bn)).astype(dt)
    for layout in (row_major, col_major):
        cls = unit_fragment(which, bm, bn, t, layout, sched)
        src, ld = to_memory(mat, layout)
        dst = np.full(src.size, SENTINEL, dt)
        per_wave = np.full(src.size * n_wx * n_wy, SENTINEL, dt)
        box = {"n_wx": n_wx}
        coop_copy[1, (tbx, tby), 0, arch](cls, src, ld, dst, per_wave, src.size, box)
        where = (np.dtype(dt).name, layout.__name__)
        with use_arch(arch):  # 1/WaveCount of the registers per wave (§1.4)
            assert cls.size() == block_dim * block_k // (wave * count), where
        for wx in range(n_wx):
            for wy in range(n_wy):
                index, count = index_and_count(name, wx, wy, n_wx, n_wy)
                plane = per_wave[(wy * n_wx + wx) * src.size:][: src.size]
                got = from_memory(plane, layout, bm, bn)
                expected = np.full((bm, bn), SENTINEL, dt)
                if index < count:  # this wave takes part: it owns K slice `index`
                    lo, hi = index * block_k // count, (index + 1) * block_k // count
                    if which == "a":  # A: K along columns (clipped to FragK by slicing)
                        expected[:, lo:hi] = mat[:, lo:hi]
                    else:  # B: K along rows
                        expected[lo:hi, :] = mat[lo:hi, :]
                    assert box[(wx, wy)].shape == (block_dim * block_k // (wave * count),
                                                   wave), where
                assert np.array_equal(got, expected), (*where, wx, wy, index, count)
        # together the waves reproduce the matrix
        assert np.array_equal(from_memory(dst, layout, bm, bn), mat), where
    return True


@pytest.mark.parametrize("arch, name, blk, which, bm, bn", COOP_CASES)
def test_cooperative_load_store(arch, name, blk, which, bm, bn):
    ran = [check_cooperative_copy(arch, name, blk, which, bm, bn, *spec)
           for spec in TYPES.values()]
    assert any(ran), "no type could be split over this scheduler's waves"


@pytest.mark.smoke
@pytest.mark.parametrize("arch, tname, which, bm, bn, blk", [
    ("gfx942", "f64", "a", 16, 6, (2, 1)),  # K 6 -> 8: wave 1 owns K 4..7, only 4..5 exist
    ("gfx942", "f64", "a", 16, 6, (1, 2)),
    ("gfx1100", "f32", "b", 11, 16, (1, 2)),  # K 11 -> 12: wave 1 owns K 6..11
    ("gfx1100", "f32", "b", 11, 16, (2, 1)),
])
@pytest.mark.parametrize("name", ["coop_row_major_2d", "coop_col_major_2d"])
def test_cooperative_partial_fragment(arch, tname, which, bm, bn, blk, name):
    """§6 + §2.9: padded K is split over the waves; the padding stays unread/unwritten."""
    dt = {"f64": np.float64, "f32": np.float32}[tname]
    t = {"f64": float64, "f32": float32}[tname]
    nbytes = np.dtype(dt).itemsize
    k_frag = bn if which == "a" else bm
    pm, pn, pk = padded(*((bm, 1, bn) if which == "a" else (1, bn, bm)), nbytes, WAVE[arch])
    assert pk > k_frag  # K really is padded
    assert check_cooperative_copy(arch, name, blk, which, bm, bn, t, nbytes, dt)


@pytest.mark.smoke
@pytest.mark.parametrize("arch", list(WAVE))
@pytest.mark.parametrize("blk, wave_idx", [((2, 2), 3), ((4, 1), 2), ((1, 4), 1), ((2, 1), 5)])
def test_single_scheduler_only_the_chosen_wave_acts(arch, blk, wave_idx):
    wave = WAVE[arch]
    n_wx, n_wy = blk
    sched = fragment_scheduler.single[n_wx * wave, n_wy, wave_idx]
    mat = (np.arange(32 * 32) % 97).astype(np.float32).reshape(32, 32)
    cls = fragment[matrix_a, 32, 32, 32, float32, row_major, sched]
    src, ld = to_memory(mat, row_major)
    dst = np.full(src.size, SENTINEL, np.float32)
    per_wave = np.full(src.size * n_wx * n_wy, SENTINEL, np.float32)
    box = {"n_wx": n_wx}
    launch = coop_copy[1, (n_wx * wave, n_wy), 0, arch]
    if wave_idx >= n_wx * n_wy:  # rocWMMA would have no wave act (unsigned wrap): refused
        with pytest.raises(FragmentError, match=f"WaveIdx={wave_idx} names no wave"):
            launch(cls, src, ld, dst, per_wave, src.size, box)
        return
    launch(cls, src, ld, dst, per_wave, src.size, box)
    chosen = [(x, y) for x in range(n_wx) for y in range(n_wy) if x * n_wy + y == wave_idx]
    for wx in range(n_wx):
        for wy in range(n_wy):
            plane = per_wave[(wy * n_wx + wx) * src.size:][: src.size]
            if (wx, wy) in chosen:
                assert np.array_equal(plane, src)
            else:
                assert np.all(plane == SENTINEL), (wx, wy)
    assert np.array_equal(dst, src)


@pytest.mark.regression
@pytest.mark.parametrize("arch", list(WAVE))
@pytest.mark.parametrize("name", ["coop_row_major_2d", "coop_col_major_2d"])
@pytest.mark.parametrize("blk", [(1, 2), (2, 2), (4, 1)])
@pytest.mark.parametrize("which", ["a", "b"])
def test_cooperative_share_register_layout(arch, name, blk, which):
    """§2.9 + §2.4: wave i of c holds K positions i*BK/c + h*KPT + k (KPT = BK*16/(W*c)) and
    BlockDim positions c*DPT + d, in the AOS/SOA order of its data layout."""
    wave = WAVE[arch]
    n_wx, n_wy = blk
    bd, bk = 32, 64
    sched = scheduler(name, n_wx * wave, n_wy)
    h_, w_ = (bd, bk) if which == "a" else (bk, bd)
    enc = (np.arange(h_)[:, None] * 1000 + np.arange(w_)[None, :]).astype(np.int32)
    lane = np.arange(wave)
    lh, lc = lane // 16, lane % 16
    for layout in (row_major, col_major):
        mat_t = matrix_a if which == "a" else matrix_b
        cls = fragment[mat_t, bd, bd, bk, int32, layout, sched]
        src, ld = to_memory(enc, layout)
        box = {"n_wx": n_wx}
        scratch = np.zeros(src.size * n_wx * n_wy, np.int32)
        coop_copy[1, (n_wx * wave, n_wy), 0, arch](cls, src, ld, np.zeros_like(src), scratch,
                                                   src.size, box)
        for wx in range(n_wx):
            for wy in range(n_wy):
                index, count = index_and_count(name, wx, wy, n_wx, n_wy)
                dpt, kpt = bd // 16, bk * 16 // (wave * count)
                e = np.arange(dpt * kpt)[:, None]
                aos = (which == "a") == (layout is col_major)
                d, k = (e % dpt, e // dpt) if aos else (e // kpt, e % kpt)
                bd_pos = lc * dpt + d
                k_pos = index * (bk // count) + lh * kpt + k
                rows, cols = (bd_pos, k_pos) if which == "a" else (k_pos, bd_pos)
                assert np.array_equal(box[(wx, wy)], rows * 1000 + cols), (layout, wx, wy)


# ------------------------------------------------------------------ errors


def launch_expect_fragment_error(arch, blk, body):
    wave = WAVE[arch]
    errors = []

    @kernel
    def k():
        try:
            body()
        except FragmentError as e:
            errors.append(e)

    k[1, (blk[0] * wave, blk[1]), 0, arch]()
    return errors


@pytest.mark.smoke
@pytest.mark.parametrize("arch, blk, shape", [
    ("gfx942", (1, 2), (16, 16, 4)),  # KPT = 4*16/(64*2) = 1/2
    ("gfx942", (4, 1), (32, 32, 8)),  # 8*16/(64*4) = 1/2
    ("gfx1100", (1, 4), (16, 16, 4)),  # 4*16/(32*4) = 1/2
    ("gfx1100", (2, 2), (64, 64, 2)),  # 2*16/(32*4) = 1/4
])
def test_wave_count_that_cannot_split_k_raises(arch, blk, shape):
    wave = WAVE[arch]
    m, n, k = shape
    sched = fragment_scheduler.coop_row_major_2d[blk[0] * wave, blk[1]]
    cls = fragment[matrix_a, m, n, k, float32, row_major, sched]
    errors = launch_expect_fragment_error(arch, blk, cls)
    assert len(errors) == blk[0] * blk[1]  # every wave's fragment creation is refused
    # the same fragment with one wave fewer per split works where KPT becomes whole
    if (k * 16) % (wave * blk[0] * blk[1] // 2) == 0:
        half = fragment_scheduler.coop_row_major_2d[wave, blk[0] * blk[1] // 2]
        ok = fragment[matrix_a, m, n, k, float32, row_major, half]
        assert launch_expect_fragment_error(arch, (1, blk[0] * blk[1] // 2), ok) == []


@pytest.mark.smoke
@pytest.mark.parametrize("arch, blk, tname, shape", [
    ("gfx942", (1, 4), "f16", (16, 16, 16)),  # PackedVRegCount 2, WaveCount 4
    ("gfx942", (2, 1), "i8", (16, 16, 16)),  # i8 pads K to 16: PackedVRegCount 1, WaveCount 2
    ("gfx1100", (2, 2), "f16", (16, 16, 8)),  # PackedVRegCount 2, WaveCount 4
])
def test_sub_register_share_is_rejected(arch, blk, tname, shape):
    wave = WAVE[arch]
    t, nbytes, _ = TYPES[tname]
    m, n, k = shape
    pm, pn, pk = padded(m, n, k, nbytes, wave)
    count = blk[0] * blk[1]
    assert (pk * 16) % (wave * count) == 0  # KPT is whole: only the register rule fails
    assert not splittable(pm, pk, nbytes, wave, count)
    sched = fragment_scheduler.coop_row_major_2d[blk[0] * wave, blk[1]]
    cls = fragment[matrix_a, m, n, k, t, row_major, sched]
    errors = launch_expect_fragment_error(arch, blk, cls)
    assert len(errors) == count


@pytest.mark.smoke
@pytest.mark.parametrize("arch", list(WAVE))
@pytest.mark.parametrize("coop_roles", ["abcd", "a", "b", "cd"])
def test_mma_sync_on_cooperative_fragments_raises(arch, coop_roles):
    wave = WAVE[arch]
    coop = fragment_scheduler.coop_row_major_2d[wave, 2]
    plain = fragment_scheduler.default_schedule

    def pick(role):
        return coop if role in coop_roles else plain

    fa = fragment[matrix_a, 16, 16, 16, float16, row_major, pick("a")]
    fb = fragment[matrix_b, 16, 16, 16, float16, col_major, pick("b")]
    fc = fragment[accumulator, 16, 16, 16, float32, row_major, pick("cd")]

    def body():
        c = fc()
        mma_sync(c, fa(), fb(), c)

    assert len(launch_expect_fragment_error(arch, (1, 2), body)) == 2


@pytest.mark.smoke
@pytest.mark.parametrize("arch, name, tbx, tby", [
    ("gfx942", "coop_row_major_2d", 32, 2),  # TBlockX < W: WX = 0
    ("gfx942", "coop_col_slice_2d", 0, 2),
    ("gfx1100", "coop_row_major_2d", 32, 0),
])
def test_invalid_scheduler_arguments_raise_fragment_error(arch, name, tbx, tby):
    sched = getattr(fragment_scheduler, name)[tbx, tby]
    with use_arch(arch), pytest.raises(FragmentError):
        fragment[matrix_a, 32, 32, 32, float32, row_major, sched]()


@kernel
def global_read_to_lds_layout(fa_cls, fb_cls, a, b, lds, macro_m, macro_n, k_dim):
    """perf_hgemm's global read (§4.2): cooperative A (col_major) and B (row_major) macro-tile
    fragments written to one col_major buffer of height MacroM + MacroN as
    apply_data_layout<col_major>(A) and apply_data_layout<col_major>(apply_transpose(B))."""
    ga, gb = fa_cls(), fb_cls()
    load_matrix_sync(ga, a, macro_m)  # A: MacroM x K, col_major, ld = MacroM
    load_matrix_sync(gb, b, macro_n)  # B: K x MacroN, row_major, ld = MacroN
    height = macro_m + macro_n
    store_matrix_sync(lds, apply_data_layout[col_major](ga), height)
    store_matrix_sync(lds + macro_m, apply_data_layout[col_major](apply_transpose(gb)), height)


@pytest.mark.regression
@pytest.mark.parametrize("arch", list(WAVE))
@pytest.mark.parametrize("blk", [(1, 2), (2, 2), (4, 1), (1, 4)])
@pytest.mark.parametrize("name", ["coop_row_major_2d", "coop_col_major_2d"])
def test_perf_gemm_global_read_pattern(arch, blk, name):
    wave = WAVE[arch]
    macro_m, macro_n, k_dim = 64, 32, 16
    sched = scheduler(name, blk[0] * wave, blk[1])
    fa = fragment[matrix_a, macro_m, macro_n, k_dim, float16, col_major, sched]
    fb = fragment[matrix_b, macro_m, macro_n, k_dim, float16, row_major, sched]
    rng = np.random.default_rng(5)
    a = rng.integers(-4, 5, (macro_m, k_dim)).astype(np.float16)
    b = rng.integers(-4, 5, (k_dim, macro_n)).astype(np.float16)
    lds = np.full((macro_m + macro_n) * k_dim, SENTINEL, np.float16)
    a_mem, _ = to_memory(a, col_major)
    b_mem, _ = to_memory(b, row_major)
    global_read_to_lds_layout[1, (blk[0] * wave, blk[1]), 0, arch](
        fa, fb, a_mem, b_mem, lds, macro_m, macro_n, k_dim)
    expected = np.concatenate([a, b.T])  # (MacroM + MacroN) x K, stored col_major
    assert np.array_equal(from_memory(lds, col_major, macro_m + macro_n, k_dim), expected)
