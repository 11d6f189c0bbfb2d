"""Cooperative loads and stores as whole blocks (`api._load_shares` / `_store_shares`): where
every wave's share of a cooperative fragment is a rectangle of the matrix, a batch reads and
writes each wave's share as one strided block. Registers must hold what the fragment map
says (each register of wave w the matrix element its share's map names), stores must put
every element where the layout says and nothing elsewhere, on both engines; overlapping
shares of different blocks in LDS race as before."""

from __future__ import annotations

import numpy as np
import pytest

from rocwmma_py import (
    blockDim,
    blockIdx,
    col_major,
    float16,
    float32,
    fragment,
    fragment_scheduler,
    int8,
    kernel,
    load_matrix_sync,
    matrix_a,
    matrix_b,
    row_major,
    shared_array,
    store_matrix_sync,
    synchronize_workgroup,
    threadIdx,
    use_engine,
)
from rocwmma_py.arch import get_arch
from rocwmma_py.rocwmma import api
from rocwmma_py.runtime import last_launch_stats
from rocwmma_py.runtime.errors import LdsRaceError

pytestmark = pytest.mark.smoke

ENGINES = ["batch", "wave"]
TYPES = {"f16": (float16, np.float16), "f32": (float32, np.float32), "i8": (int8, np.int8)}


@pytest.fixture
def share_io(results_of) -> list[bool]:
    """Whether each cooperative load or store took the block path."""
    cooperative = lambda frag, ptr, plan: frag.scheduler.kind != "default"  # noqa: E731
    seen = results_of(api, "_load_shares", cooperative)
    return results_of(api, "_store_shares", cooperative, into=seen)


def share_of(scheduler: str, wx: int, wy: int, n_wx: int, n_wy: int) -> int:
    """rocWMMA's wave index of wave (wx, wy) in an n_wx x n_wy wave grid (notes §1.4)."""
    return wx * n_wy + wy if scheduler == "coop_row_major_2d" else wy * n_wx + wx


@kernel
def copy_and_record(cls, src, ld_src, dst, ld_dst, regs, tile):
    """Block b loads its tile of src cooperatively, stores it into its tile of dst and
    writes every register of every lane to `regs` (lane-major, one row per thread)."""
    frag = cls()
    load_matrix_sync(frag, src + blockIdx.x * tile, ld_src)
    store_matrix_sync(dst + blockIdx.x * tile, frag, ld_dst)
    threads = blockDim.x * blockDim.y
    thread = blockIdx.x * threads + threadIdx.y * blockDim.x + threadIdx.x
    for e in range(frag.num_elements):
        regs[thread * frag.num_elements + e] = frag.x[e]


CASES = [(arch, sched, grid, which, layout)
         for arch in ("gfx942", "gfx1100")
         for sched in ("coop_row_major_2d", "coop_col_major_2d")
         for grid in ((2, 2), (4, 1), (1, 2))
         for which in ("a", "b") for layout in (row_major, col_major)]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("arch,sched,grid,which,layout", CASES,
                         ids=[f"{c[0]}-{c[1]}-{c[2][0]}x{c[2][1]}-{c[3]}-{c[4].__name__}"
                              for c in CASES])
def test_registers_and_memory_follow_the_map(engine, arch, sched, grid, which, layout,
                                             share_io):
    wave = get_arch(arch).wave_size
    n_wx, n_wy = grid
    scheduler = getattr(fragment_scheduler, sched)[n_wx * wave, n_wy]
    size = 128 if arch == "gfx942" else 64
    cls = (fragment[matrix_a, size, size, 16, float16, layout, scheduler] if which == "a"
           else fragment[matrix_b, size, size, 16, float16, layout, scheduler])
    height, width = (size, 16) if which == "a" else (16, size)
    ld_src = (width if layout is row_major else height) + 8  # padded leading dimensions
    ld_dst = ld_src + 4
    lines = height if layout is row_major else width
    tile = lines * ld_dst  # both buffers hold one tile per block
    blocks = 3
    rng = np.random.default_rng(5)
    src = rng.standard_normal(blocks * tile).astype(np.float16)
    dst = np.full(blocks * tile, np.nan, np.float16)
    waves = n_wx * n_wy
    elements = cls.traits(get_arch(arch)).num_elements
    regs = np.zeros(blocks * waves * wave * elements, np.float16)
    with use_engine(engine):
        copy_and_record[blocks, (n_wx * wave, n_wy), 0, arch](cls, src, ld_src, dst, ld_dst,
                                                             regs, tile)
    regs = regs.reshape(blocks, n_wy, n_wx, wave, elements)
    for b in range(blocks):
        memory = src[b * tile:b * tile + lines * ld_src].reshape(lines, ld_src)
        matrix = memory[:, :width] if layout is row_major else memory[:, :height].T
        out = dst[b * tile:(b + 1) * tile].reshape(lines, ld_dst)
        stored = out[:, :width] if layout is row_major else out[:, :height].T
        assert np.array_equal(stored, matrix)
        assert np.isnan(out[:, width if layout is row_major else height:]).all()
        for wy in range(n_wy):
            for wx in range(n_wx):
                fmap = cls.map(get_arch(arch), share_of(sched, wx, wy, n_wx, n_wy))
                want = matrix[fmap.row, fmap.col]  # (elements, lanes)
                assert np.array_equal(regs[b, wy, wx].T, want), (b, wx, wy)
    if engine == "batch":
        assert share_io and all(share_io)
        assert last_launch_stats().per_wave_blocks == 0


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("kind", list(TYPES))
def test_every_type_round_trips_bit_for_bit(engine, kind, share_io):
    """f16 (NaN payloads and -0 among them), f32 and i8 shares: stored bits are loaded bits."""
    t, dt = TYPES[kind]
    scheduler = fragment_scheduler.coop_row_major_2d[128, 2]
    cls = fragment[matrix_a, 128, 128, 16, t, col_major, scheduler]
    tile = 16 * 128
    rng = np.random.default_rng(11)
    raw = rng.integers(0, 256, 2 * tile * np.dtype(dt).itemsize, dtype=np.uint8)
    src = raw.view(dt)
    dst = np.zeros_like(src)
    regs = np.zeros(2 * 4 * 64 * cls.traits(get_arch("gfx942")).num_elements, dt)
    with use_engine(engine):
        copy_and_record[2, (128, 2), 0, "gfx942"](cls, src, 128, dst, 128, regs, tile)
    assert np.array_equal(dst.view(np.uint8), src.view(np.uint8))
    if engine == "batch":
        assert share_io and all(share_io)


@kernel
def shares_into_lds(cls, src, out, overlap):
    """Every block loads a 128 x 16 tile cooperatively and stores it into LDS, wave shares
    `overlap` elements apart from where they belong (0: its own columns), then copies
    LDS out after a barrier."""
    lds = shared_array(float16, 128 * 16 + 64)
    frag = cls()
    load_matrix_sync(frag, src + blockIdx.x * 2048, 128)
    store_matrix_sync(lds + overlap * (threadIdx.x // 64 + 2 * threadIdx.y), frag, 128)
    synchronize_workgroup()
    thread = threadIdx.y * blockDim.x + threadIdx.x
    for i in range(0, 128 * 16, 256):
        out[blockIdx.x * 2048 + i + thread] = lds[i + thread]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("overlap", [0, 16])
def test_lds_shares_race_exactly_when_they_meet(engine, overlap, share_io):
    """Four waves' 128 x 4 shares of a col-major A tile: placed where they belong, no race
    and LDS holds the tile; shifted 16 elements per wave (each share then covers part of
    the next wave's), the write-write race is found on both engines."""
    scheduler = fragment_scheduler.coop_row_major_2d[128, 2]
    cls = fragment[matrix_a, 128, 128, 16, float16, col_major, scheduler]
    src = np.random.default_rng(2).standard_normal(3 * 2048).astype(np.float16)
    out = np.zeros_like(src)
    with use_engine(engine):
        if overlap:
            with pytest.raises(LdsRaceError):
                shares_into_lds[3, (128, 2), 0, "gfx942"](cls, src, out, overlap)
            return
        shares_into_lds[3, (128, 2), 0, "gfx942"](cls, src, out, overlap)
    assert np.array_equal(out, src)
    if engine == "batch":
        assert last_launch_stats().per_wave_blocks == 0
        assert share_io and all(share_io)


@pytest.mark.parametrize("shape", [(8, 4, 64), (4, 1, 32), (1, 3, 64), (16, 2, 1)])
@pytest.mark.parametrize("order", [(1, 2, 0), (1, 0, 2), (0, 1, 2), (2, 1, 0)])
def test_register_order_finds_the_axes_that_count_through_the_blocks(shape, order):
    """Registers (E, waves, lanes) that hold the flat blocks in some axis order are a
    transposed copy of them; any other index (a reversed run, a gap) takes the index."""
    counting = np.arange(np.prod(shape)).reshape([shape[ax] for ax in order])
    index = counting.transpose(np.argsort(order))
    found = api._register_order(index)
    assert found is not None
    assert np.array_equal(np.arange(index.size).reshape([shape[ax] for ax in found])
                          .transpose(np.argsort(found)), index)
    if index.size > 1:
        longest = int(np.argmax(shape))
        assert api._register_order(np.flip(index, axis=longest)) is None
        assert api._register_order(index * 2) is None
