"""store_matrix_sync's dense path (a fragment whose values are known — mma_sync's D, a dense
load's block — written as each wave's block by one strided assignment,
`Pointer.write_blocks`): memory ends as numpy says it must (exact integer GEMMs, copies of
the loaded tiles) for every data layout, accumulator type and engine; waves whose tiles
overlap take the scatter, whose lane order decides which write lands, and agree with the
per-wave engine; misuse raises what the scatter raises, with nothing written; a batch that
reruns after its stores leaves memory as one run does."""

from __future__ import annotations

import numpy as np
import pytest

from rocwmma_py import (
    accumulator,
    blockIdx,
    col_major,
    float16,
    float32,
    fragment,
    int8,
    int32,
    kernel,
    load_matrix_sync,
    matrix_a,
    matrix_b,
    mem_col_major,
    mem_row_major,
    mma_sync,
    row_major,
    store_matrix_sync,
    threadIdx,
    use_engine,
)
from rocwmma_py.arch import get_arch
from rocwmma_py.errors import AccessError
from rocwmma_py.rocwmma import api
from rocwmma_py.runtime import last_launch_stats, memory
from rocwmma_py.runtime.errors import OutOfBoundsError

pytestmark = pytest.mark.smoke

ENGINES = ["batch", "wave"]


@pytest.fixture
def dense_stores(results_of) -> list[bool]:
    """Whether each store took the dense path."""
    return results_of(api, "_store_dense")


@kernel
def gemm_tiles(a, b, d, types, n_tiles, ld, layout):
    """Block (i, j) computes the 16 x 16 tile (i, j) of D = A B (one K step of 16) and
    stores it in `layout` with leading dimension ld."""
    in_t, acc_t = types
    fa = fragment[matrix_a, 16, 16, 16, in_t, row_major]()
    fb = fragment[matrix_b, 16, 16, 16, in_t, col_major]()
    acc = fragment[accumulator, 16, 16, 16, acc_t]()
    i, j = blockIdx.x, blockIdx.y
    load_matrix_sync(fa, a + i * 16 * 16, 16)  # A row-major, 16 columns
    load_matrix_sync(fb, b + j * 16 * 16, 16)  # B column-major, 16 rows
    mma_sync(acc, fa, fb, acc)
    at = i * 16 * ld + j * 16 if layout is mem_row_major else j * 16 * ld + i * 16
    store_matrix_sync(d + at, acc, ld, layout)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("arch", ["gfx942", "gfx1100", "gfx1200"])
@pytest.mark.parametrize("types", [(float16, float32), (float16, float16), (int8, int32)],
                         ids=["f16-f32", "f16-f16", "i8-i32"])
@pytest.mark.parametrize("layout", [mem_row_major, mem_col_major], ids=["row", "col"])
def test_mma_results_land_where_numpy_puts_them(engine, arch, types, layout, dense_stores):
    """Exact integer GEMM tiles: every element of D is A B, every padding element untouched
    (ld wider than the matrix)."""
    tiles, ld = 3, 56
    size = 16 * tiles
    rng = np.random.default_rng(7)
    in_dtype = np.float16 if types[0] is float16 else np.int8
    acc_dtype = {float32: np.float32, float16: np.float16, int32: np.int32}[types[1]]
    a = rng.integers(-3, 4, (size, 16)).astype(in_dtype)
    b = rng.integers(-3, 4, (16, size)).astype(in_dtype)
    d = np.full(ld * size, 99, acc_dtype)
    with use_engine(engine):
        gemm_tiles[(tiles, tiles), get_arch(arch).wave_size, 0, arch](
            a.ravel(), np.ascontiguousarray(b.T).ravel(), d, types, tiles, ld, layout)
    want = a.astype(np.int64) @ b.astype(np.int64)
    grid = d.reshape(size, ld)
    got = grid[:, :size] if layout is mem_row_major else grid[:, :size].T
    assert np.array_equal(got.astype(np.int64), want)
    assert (grid[:, size:] == 99).all()
    assert dense_stores and all(dense_stores)


@kernel
def copy_tiles(src, dst, cls, ld_src, ld_dst, step):
    """Block k loads its 16 x 16 tile and stores it at k * step of dst."""
    frag = cls()
    load_matrix_sync(frag, src + blockIdx.x * 16 * ld_src, ld_src)
    store_matrix_sync(dst + blockIdx.x * step, frag, ld_dst)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("matrix,layout", [(matrix_a, row_major), (matrix_a, col_major),
                                           (matrix_b, row_major), (matrix_b, col_major)])
def test_loaded_tiles_copy_exactly(engine, matrix, layout, dense_stores):
    """A/B fragments stored after a dense load: the tiles as memory held them, signed zeros,
    subnormals and infinities bit for bit (an f16 NaN takes the register path at the load)."""
    blocks, ld_src, ld_dst = 4, 20, 24
    rng = np.random.default_rng(3)
    bits = rng.integers(0, 0x7C00, blocks * 16 * ld_src).astype(np.uint16)
    bits[::7] |= 0x8000
    bits[5], bits[9], bits[11] = 0x8000, 0x0001, 0x7C00  # -0, the smallest subnormal, inf
    src = bits.view(np.float16)
    step = 16 * ld_dst
    dst = np.zeros(blocks * step, np.float16)
    cls = fragment[matrix, 16, 16, 16, float16, layout]
    with use_engine(engine):
        copy_tiles[blocks, 64, 0, "gfx942"](src, dst, cls, ld_src, ld_dst, step)
    for k in range(blocks):
        tile = src[k * 16 * ld_src:(k + 1) * 16 * ld_src].reshape(16, ld_src)[:, :16]
        out = dst[k * step:(k + 1) * step].reshape(16, ld_dst)[:, :16]
        assert np.array_equal(out.view(np.uint16), tile.view(np.uint16))
    assert dense_stores and all(dense_stores)


@pytest.mark.parametrize("step", [8, 8 * 16 + 8, 4 * 16])
def test_overlapping_tiles_take_the_scatter(step, dense_stores):
    """Blocks whose tiles share elements: the batch gives what the per-wave engine gives (a
    later block's store lands last) and never takes the dense path there."""
    blocks, ld = 4, 16
    src = np.arange(blocks * 16 * ld, dtype=np.float16)
    cls = fragment[matrix_a, 16, 16, 16, float16, row_major]
    out = {}
    for engine in ENGINES:
        dst = np.zeros(blocks * step + 16 * ld, np.float16)
        with use_engine(engine):
            copy_tiles[blocks, 64, 0, "gfx942"](src, dst, cls, ld, ld, step)
        out[engine] = dst
    assert np.array_equal(out["batch"], out["wave"])
    last = src[(blocks - 1) * 16 * ld:].reshape(16, ld)
    assert np.array_equal(out["batch"][(blocks - 1) * step:][:16 * ld].reshape(16, ld), last)
    assert not any(dense_stores[:1])  # the batch's one store went to the scatter


def test_interleaved_disjoint_tiles_stay_dense(dense_stores):
    """Tiles of one grid whose rows interleave in memory (no two share an element): the dense
    path, and every tile where it belongs."""
    tiles, ld = 4, 64
    src = np.random.default_rng(1).standard_normal(tiles * 16 * 16).astype(np.float16)
    dst = np.full(16 * ld, np.nan, np.float16)
    cls = fragment[matrix_a, 16, 16, 16, float16, row_major]
    copy_tiles[tiles, 64, 0, "gfx942"](src, dst, cls, 16, ld, 16)
    grid = dst.reshape(16, ld)
    for k in range(tiles):
        tile = src[256 * k:256 * (k + 1)].reshape(16, 16)
        assert np.array_equal(grid[:, 16 * k:16 * (k + 1)], tile)
    assert dense_stores == [True]
    assert last_launch_stats().per_wave_blocks == 0


@pytest.mark.parametrize("engine", ENGINES)
def test_a_store_past_the_end_raises_and_writes_nothing(engine):
    src = np.ones(2 * 256, np.float16)
    dst = np.zeros(2 * 256 - 1, np.float16)  # the second tile's last element is missing
    cls = fragment[matrix_a, 16, 16, 16, float16, row_major]
    with use_engine(engine), pytest.raises(OutOfBoundsError, match="dst"):
        copy_tiles[2, 64, 0, "gfx942"](src, dst, cls, 16, 16, 256)
    assert not dst[256:].any()


@pytest.mark.parametrize("engine", ENGINES)
def test_a_store_to_a_read_only_array_raises(engine):
    src = np.ones(256, np.float16)
    dst = np.zeros(256, np.float16)
    dst.flags.writeable = False
    cls = fragment[matrix_a, 16, 16, 16, float16, row_major]
    with use_engine(engine), pytest.raises(AccessError, match="read-only"):
        copy_tiles[1, 64, 0, "gfx942"](src, dst, cls, 16, 16, 256)


@kernel
def add_then_fail(a, b, d, probe):
    """Every block adds A B to its tile of D in place; blocks 2 and 3 then read out of
    bounds. The batch must undo its stores before the per-wave rerun, or blocks 0 and 1
    add twice."""
    fa = fragment[matrix_a, 16, 16, 16, float16, row_major]()
    fb = fragment[matrix_b, 16, 16, 16, float16, col_major]()
    acc = fragment[accumulator, 16, 16, 16, float32]()
    load_matrix_sync(fa, a, 16)
    load_matrix_sync(fb, b, 16)
    tile = d + blockIdx.x * 256
    load_matrix_sync(acc, tile, 16, mem_row_major)
    mma_sync(acc, fa, fb, acc)
    store_matrix_sync(tile, acc, 16, mem_row_major)
    probe[threadIdx.x + blockIdx.x * 100] = probe[threadIdx.x + blockIdx.x * 100]


@pytest.mark.parametrize("engine", ENGINES)
def test_an_undone_batch_leaves_what_the_per_wave_engine_leaves(engine, dense_stores):
    blocks = 4
    ones = np.ones(256, np.float16)
    d0 = np.arange(blocks * 256, dtype=np.float32)
    d, probe = d0.copy(), np.zeros(200, np.float32)
    with use_engine(engine), pytest.raises(OutOfBoundsError):
        add_then_fail[blocks, 64, 0, "gfx942"](ones, ones, d, probe)
    # the per-wave engine's memory: blocks 0..2 added, then block 2 failed
    assert np.array_equal(d[:3 * 256], d0[:3 * 256] + 16)
    assert np.array_equal(d[3 * 256:], d0[3 * 256:])
    assert dense_stores and all(dense_stores)
    if engine == "batch":
        assert last_launch_stats().fallbacks  # the batch was undone and rerun


@pytest.mark.parametrize("seed", range(6))
def test_blocks_called_apart_share_no_element_wherever_they_sit(seed):
    """`memory._blocks_apart` (cached on the starts relative to the lowest) says apart only
    where no element is written twice (checked element by element), and says the same
    for the blocks moved together; the cached `_relative_positions` name each start's
    distinct block."""
    rng = np.random.default_rng(seed)
    shape, strides = (int(rng.integers(1, 5)), int(rng.integers(1, 9))), (40, 1)
    tiles = rng.choice(12, size=int(rng.integers(2, 10)), replace=bool(seed % 2))
    starts = (tiles // 4) * shape[0] * 40 + (tiles % 4) * 8
    if seed > 3:  # some blocks off the grid, into their neighbours
        starts = starts + rng.integers(0, 3, starts.size)
    elements = (starts[:, None, None] + strides[0] * np.arange(shape[0])[:, None]
                + strides[1] * np.arange(shape[1])).reshape(-1)
    apart = memory._blocks_apart(memory._relative(starts)[1], shape, strides)
    if apart:
        assert np.unique(elements).size == elements.size
    moved = starts + int(rng.integers(1, 10_000))
    assert memory._blocks_apart(memory._relative(moved)[1], shape, strides) == apart
    base, rel = memory._relative(moved)
    distinct, at = memory._relative_positions(rel)
    assert np.array_equal((distinct + base)[at] if at is not None else distinct + base, moved)
