"""The batched engine against the per-wave engine: same kernels, same memory, same errors.

Each case runs a kernel on fresh copies of its buffers under `use_engine("wave")` and
`use_engine("batch")` and compares every buffer bit for bit (or the exception type and
message). Where a kernel is meant to stay batched, the launch statistics must show that no
block fell back to the per-wave engine, so the comparison is not vacuous.
"""

from __future__ import annotations

import numpy as np
import pytest
from gemm_kernels import make_problem, run_gemm, type_set

from rocwmma_py import (
    DivergenceError,
    LdsRaceError,
    OutOfBoundsError,
    accumulator,
    amdgcn,
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
    synchronize_workgroup,
)
from rocwmma_py.runtime import (
    blockDim,
    blockIdx,
    last_launch_stats,
    shared_array,
    threadIdx,
    use_engine,
    where,
)

pytestmark = pytest.mark.smoke


def both_engines(launch, buffers):
    """(outputs, error, stats) of `launch(*copies)` on each engine."""
    results = {}
    for engine in ("wave", "batch"):
        copies = [b.copy() for b in buffers]
        error = None
        with use_engine(engine):
            try:
                launch(*copies)
            except Exception as err:  # noqa: BLE001 - compared between engines
                error = (type(err), str(err))
        results[engine] = (copies, error, last_launch_stats())
    return results


def assert_same(results, *, batched: bool = True):
    (wave_out, wave_err, _), (batch_out, batch_err, stats) = results["wave"], results["batch"]
    assert batch_err == wave_err
    for w, b in zip(wave_out, batch_out, strict=True):
        assert w.tobytes() == b.tobytes()
    if batched:
        assert stats.per_wave_blocks == 0 and stats.batched_blocks > 0


@pytest.mark.parametrize("arch", ["gfx942", "gfx1100", "gfx1200"])
@pytest.mark.parametrize("kind, tb", [("sb", (2, 2)), ("mb", (1, 1)), ("tile", (1, 1))])
def test_gemm_grids_match(arch, kind, tb):
    t = type_set("f16_f32_f32", arch)
    problem = make_problem(t, 64, 96, 32, "NT", col_major)
    blocks = (2, 1) if kind == "mb" else (1, 1)
    out = {}
    for engine in ("wave", "batch"):
        with use_engine(engine):
            out[engine] = run_gemm(problem, arch, (16, 16, 16), tb, kind, blocks)
    assert out["wave"].tobytes() == out["batch"].tobytes()
    assert last_launch_stats().per_wave_blocks == 0


FragA = fragment[matrix_a, 16, 16, 16, float16, row_major]
FragB = fragment[matrix_b, 16, 16, 16, float16, col_major]
FragAcc = fragment[accumulator, 16, 16, 16, float32]


@kernel
def edge_gemm(m, n, k, a, b, d):
    """One 16x16 tile per wave, 4 waves per block; blocks past the edge return early, and the
    K loop's trip count depends on the block (so batches split by block)."""
    row = (blockIdx.x * blockDim.x + threadIdx.x) // 64 * 16
    col = (blockIdx.y * blockDim.y + threadIdx.y) * 16
    if row >= m or col >= n:
        return
    acc = FragAcc()
    fill_fragment(acc, 0.0)
    fa, fb = FragA(), FragB()
    for kk in range(0, k - 16 * (blockIdx.x % 2), 16):
        load_matrix_sync(fa, a + row * k + kk, k)
        load_matrix_sync(fb, b + col * k + kk, k)
        mma_sync(acc, fa, fb, acc)
    store_matrix_sync(d + row * n + col, acc, n, mem_row_major)


def test_split_batches_match_edge_tiles_and_block_dependent_loops():
    rng = np.random.default_rng(1)
    m, n, k = 80, 64, 64
    a = rng.standard_normal(m * k).astype(np.float16)
    b = rng.standard_normal(n * k).astype(np.float16)
    d = np.full(m * n, -7.0, np.float32)
    results = both_engines(lambda a, b, d: edge_gemm[(6, 1), (64, 4), 0, "gfx942"](
        m, n, k, a, b, d), [a, b, d])
    assert_same(results)
    assert results["batch"][2].splits >= 2


@kernel
def staged_copy(src, dst, n):
    """Each wave writes its lanes into LDS, then (after a barrier) reads another wave's."""
    tile = shared_array(np.float32, 1024)
    tid = threadIdx.x + blockDim.x * threadIdx.y
    base = blockIdx.x * 1024
    tile[tid] = src[base + tid] * 2
    synchronize_workgroup()
    with where(tid % 3 != 0):
        dst[base + tid] = tile[1023 - tid]


def test_lds_barriers_and_masks_match_on_16_wave_blocks():
    src = np.arange(4 * 1024, dtype=np.float32)
    dst = np.full(4 * 1024, -1.0, np.float32)
    assert_same(both_engines(lambda s, d: staged_copy[4, (256, 4)](s, d, 4096), [src, dst]))
    expected = np.where(np.arange(1024) % 3 != 0, 2 * src.reshape(4, 1024)[:, ::-1], -1)
    batched = both_engines(lambda s, d: staged_copy[4, (256, 4)](s, d, 4096), [src, dst])
    np.testing.assert_array_equal(batched["batch"][0][1].reshape(4, 1024), expected)


@kernel
def racy(src, dst):
    tile = shared_array(np.float32, 64)
    tile[threadIdx.x] = src[threadIdx.x]  # every wave writes the same 64 floats: a race
    dst[threadIdx.x + 64 * threadIdx.y] = tile[threadIdx.x]


@kernel
def racy_across_ops(dst):
    tile = shared_array(np.float32, 128)
    tile[threadIdx.x + 64 * threadIdx.y] = 1.0  # each wave its own half...
    dst[threadIdx.x + 64 * threadIdx.y] = tile[threadIdx.x + 64 * (1 - threadIdx.y)]  # ...reads
    # the other wave's half with no barrier in between


@kernel
def out_of_bounds(src, dst):
    i = blockIdx.x * 64 + threadIdx.x
    dst[i] = src[i + 10 * (blockIdx.x == 3)]


@kernel
def diverges_in_block_2(dst):
    dst[blockIdx.x * 64 + threadIdx.x] = 1.0
    if blockIdx.x == 2 and threadIdx.x < 5:
        dst[0] = 2.0


@pytest.mark.parametrize("launch, buffers, error", [
    (lambda s, d: racy[2, (64, 2)](s, d), [np.ones(64, np.float32), np.zeros(256, np.float32)],
     LdsRaceError),
    (lambda d: racy_across_ops[3, (64, 2)](d), [np.zeros(128, np.float32)], LdsRaceError),
    (lambda s, d: out_of_bounds[4, 64](s, d), [np.ones(256, np.float32),
                                              np.zeros(256, np.float32)], OutOfBoundsError),
    (lambda d: diverges_in_block_2[4, 64](d), [np.zeros(256, np.float32)], DivergenceError),
], ids=["lds-race", "lds-race-across-ops", "out-of-bounds", "divergence"])
def test_errors_and_memory_left_behind_match(launch, buffers, error):
    results = both_engines(launch, buffers)
    assert results["wave"][1][0] is error
    assert_same(results, batched=False)


@kernel
def wmma_builtin(a, b, d):
    """seed 000 style: each wave multiplies its own 16x16 A by B on gfx11 WMMA."""
    lane = threadIdx.x % 16
    base = blockIdx.x * 256
    a_frag = np.stack([a[base + lane * 16 + i] for i in range(16)], axis=1)
    b_frag = np.stack([b[lane + 16 * i] for i in range(16)], axis=1)
    c = np.zeros((32, 8), np.float32)
    dmat = amdgcn.wmma_f32_16x16x16_f16_w32(a_frag, b_frag, c)
    for r in range(8):
        d[base + (2 * r + threadIdx.x // 16) * 16 + lane] = dmat[:, r]


def test_amdgcn_builtin_on_a_batch_matches():
    rng = np.random.default_rng(2)
    a = rng.integers(-3, 4, 4 * 256).astype(np.float16)
    b = rng.integers(-3, 4, 256).astype(np.float16)
    d = np.zeros(4 * 256, np.float32)
    results = both_engines(lambda a, b, d: wmma_builtin[4, 32, 0, "gfx1100"](a, b, d), [a, b, d])
    assert_same(results)
    expected = a.reshape(4, 16, 16).astype(np.float64) @ b.reshape(16, 16).astype(np.float64)
    np.testing.assert_array_equal(results["batch"][0][2].reshape(4, 16, 16), expected)
