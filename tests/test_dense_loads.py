"""load_matrix_sync's dense path (A/B fragments from global memory straight into the per-wave
block mma_sync reads, registers rebuilt when kernel code looks at them): the registers it
leaves equal the fragment map's placement of the memory values, on both engines and for
batches of waves with different pointers; the register path still runs where only it is
exact (NaN payloads); a write through frag.x reaches mma_sync."""

from __future__ import annotations

import numpy as np
import pytest

from rocwmma_py import (
    accumulator,
    blockIdx,
    col_major,
    fill_fragment,
    float16,
    float32,
    fragment,
    kernel,
    load_matrix_sync,
    matrix_a,
    matrix_b,
    mem_row_major,
    mma_sync,
    row_major,
    store_matrix_sync,
    use_engine,
)
from rocwmma_py.arch import get_arch
from rocwmma_py.rocwmma import api

pytestmark = pytest.mark.smoke


@pytest.fixture
def dense_loads(results_of) -> list[bool]:
    """Whether each load took the dense path."""
    return results_of(api, "_load_dense")


@kernel
def load_kernel(cls, mem, ldm, tile, box):
    """Block b loads the fragment at element offset b * tile; its registers are recorded."""
    frag = cls()
    load_matrix_sync(frag, mem + blockIdx.x * tile, ldm)
    box.append(np.array(frag.x))


@pytest.mark.parametrize("engine", ["batch", "wave"])
@pytest.mark.parametrize("arch", ["gfx942", "gfx1100", "gfx1200"])
@pytest.mark.parametrize("matrix,layout", [(matrix_a, row_major), (matrix_a, col_major),
                                           (matrix_b, row_major), (matrix_b, col_major)])
def test_registers_after_a_dense_load(engine, arch, matrix, layout, dense_loads):
    cls = fragment[matrix, 16, 16, 16, float16, layout]
    wave = get_arch(arch).wave_size
    blocks, ldm = 3, 24  # padded leading dimension
    tile = 16 * ldm
    rng = np.random.default_rng(4)
    mem = rng.standard_normal(blocks * tile).astype(np.float16)
    box: list[np.ndarray] = []
    with use_engine(engine):
        load_kernel[blocks, wave, 0, arch](cls, mem, ldm, tile, box)
    got = np.concatenate(box, axis=1)  # (elements, blocks * W), block-major either way
    fmap = cls.map(get_arch(arch))
    for b in range(blocks):
        block = mem[b * tile:(b + 1) * tile].reshape(16, ldm)[:, :16]  # memory rows
        matrix_view = block if layout is row_major else block.T  # element (row, col)
        want = matrix_view[fmap.row, fmap.col]
        assert np.array_equal(got[:, b * wave:(b + 1) * wave].view(np.uint16),
                              want.view(np.uint16))
    assert dense_loads and all(dense_loads)


def test_nan_payloads_take_the_register_path(dense_loads):
    """A NaN with a payload only the raw registers keep: loaded and stored bit for bit."""
    cls = fragment[matrix_a, 16, 16, 16, float16, row_major]
    mem = np.ones(256, np.float16)
    mem.view(np.uint16)[5] = 0x7D2B  # a signalling NaN with a payload
    box: list[np.ndarray] = []
    load_kernel[1, 64, 0, "gfx942"](cls, mem, 16, 0, box)
    fmap = cls.map(get_arch("gfx942"))
    want = mem.reshape(16, 16)[fmap.row, fmap.col]
    assert np.array_equal(box[0].view(np.uint16), want.view(np.uint16))
    assert dense_loads == [False]


FragA = fragment[matrix_a, 16, 16, 16, float16, row_major]
FragB = fragment[matrix_b, 16, 16, 16, float16, col_major]
FragAcc = fragment[accumulator, 16, 16, 16, float32]


@kernel
def scaled_gemm(a, b, d):
    """D = (2 A) B: A is scaled through its registers after the load."""
    fa, fb, acc = FragA(), FragB(), FragAcc()
    fill_fragment(acc, 0.0)
    load_matrix_sync(fa, a, 16)
    load_matrix_sync(fb, b, 16)
    fa.x[...] = fa.x * np.float16(2)
    mma_sync(acc, fa, fb, acc)
    store_matrix_sync(d, acc, 16, mem_row_major)


@pytest.mark.parametrize("engine", ["batch", "wave"])
def test_register_writes_after_a_dense_load_reach_mma(engine, dense_loads):
    rng = np.random.default_rng(9)
    a = rng.integers(-3, 4, (16, 16)).astype(np.float16)
    b = rng.integers(-3, 4, (16, 16)).astype(np.float16)
    d = np.zeros(256, np.float32)
    with use_engine(engine):
        scaled_gemm[1, 64, 0, "gfx942"](a.ravel(), np.ascontiguousarray(b.T).ravel(), d)
    want = 2 * a.astype(np.int64) @ b.astype(np.int64)
    assert np.array_equal(d.reshape(16, 16), want.astype(np.float32))
    assert dense_loads == [True, True]
