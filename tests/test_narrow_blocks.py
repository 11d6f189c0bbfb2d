"""Blocks narrower than a wave (CUDA's 32-, 16- and 8-thread blocks on 64-lane gfx942 and on
wave32 gfx1100/gfx1201): the batched engine must give exactly the per-wave engine's memory
and errors, whatever its batch size and on worker processes too.

Each kernel runs on the per-wave engine (the reference semantics) and on the batched engine
three ways: default batches of many blocks, tiny batches (`use_batch_lanes`), and spread
over two worker processes. Output buffers are compared byte for byte (NaN payloads and -0
included) and errors by type, message and notes. Where a reference is easy to write from
HIP's definitions alone, the per-wave result is also checked against numpy.
"""

from __future__ import annotations

import functools
from contextlib import ExitStack

import numpy as np
import pytest

from rocwmma_py import (
    FragmentError,
    __activemask,
    __all,
    __any,
    __ballot,
    __popc,
    __popcll,
    __shfl,
    __shfl_down,
    __shfl_up,
    __shfl_xor,
    atomicAdd,
    blockDim,
    blockIdx,
    fill_fragment,
    float16,
    float32,
    fragment,
    kernel,
    lane_id,
    last_launch_stats,
    load_matrix_sync,
    matrix_a,
    row_major,
    shared_array,
    syncthreads,
    threadIdx,
    use_engine,
    use_workers,
    wave_size,
    where,
)
from rocwmma_py import accumulator as acc
from rocwmma_py.amdgcn import ds_bpermute, ds_swizzle, mov_dpp, readfirstlane, readlane
from rocwmma_py.cuda import (
    __all_sync,
    __any_sync,
    __ballot_sync,
    __shared__,
    __shfl_down_sync,
    __shfl_sync,
    __shfl_up_sync,
    __shfl_xor_sync,
    __syncthreads,
    warpSize,
)
from rocwmma_py.runtime import workers
from rocwmma_py.settings import use_batch_lanes

WAVE = {"gfx942": 64, "gfx1100": 32, "gfx1201": 32}
# (arch, threads per block): the narrow shapes CUDA code launches on each wave size
NARROW = [("gfx942", 32), ("gfx942", 16), ("gfx942", 8), ("gfx1100", 16), ("gfx1100", 8),
          ("gfx1201", 16)]
NARROW_IDS = [f"{a}-{n}" for a, n in NARROW]
MODES = ("batch", "tiny")
WITH_WORKERS = (*MODES, "workers")  # tests using it take the `spread` fixture


@pytest.fixture
def spread(monkeypatch):
    """Let launches of a few small blocks fork workers (the thresholds are for real work)."""
    monkeypatch.setattr(workers, "MIN_PARALLEL_S", 0.0)
    monkeypatch.setattr(workers, "MIN_BLOCKS", 2)
    monkeypatch.setattr(workers, "PAYOFF", float("inf"))
    monkeypatch.setattr(workers, "UNMEASURED_MIN_BATCHES", 1)
    monkeypatch.setattr(workers, "PROBE_SHARE_MAX", float("inf"))


def _run(k, grid, block, arch, buffers, scalars, mode):
    """Memory after the launch, its error (type, message, notes) or None, and its stats."""
    copies = [b.copy() for b in buffers]
    with ExitStack() as stack:
        stack.enter_context(use_engine("wave" if mode == "wave" else "batch"))
        stack.enter_context(use_workers(2 if mode == "workers" else 1))
        if mode == "tiny":  # a wave or two per batch: blocks batch in twos and threes
            stack.enter_context(use_batch_lanes(WAVE[arch] + 1))
        try:
            k[grid, block, 0, arch](*copies, *scalars)
            error = None
        except Exception as err:  # noqa: BLE001 - compared between engines
            error = (type(err), str(err), list(getattr(err, "__notes__", [])))
    return copies, error, last_launch_stats()


def differential(k, grid, block, arch, buffers, scalars=(), modes=MODES, batched=True):
    """Run `k` on the per-wave engine and in every mode of `modes`; assert each gives the
    per-wave engine's memory and error. Returns the per-wave (memory, error). `batched`:
    the default batched run must batch every block (no per-wave fallback), so the
    comparison is not the per-wave engine against itself."""
    want, want_err, _ = _run(k, grid, block, arch, buffers, scalars, "wave")
    for mode in modes:
        got, err, stats = _run(k, grid, block, arch, buffers, scalars, mode)
        assert err == want_err, mode
        for i, (a, b) in enumerate(zip(want, got, strict=True)):
            assert a.dtype == b.dtype and a.tobytes() == b.tobytes(), (
                f"{mode}: buffer {i} differs at {np.flatnonzero(a != b)[:8]}: "
                f"{b.ravel()[a.ravel() != b.ravel()][:8]} (per wave "
                f"{a.ravel()[a.ravel() != b.ravel()][:8]})")
        if mode == "batch" and batched and want_err is None:
            assert stats.per_wave_blocks == 0, stats.fallbacks
        if mode == "workers" and want_err is None:
            assert stats.workers == 2
    return want, want_err


# --- shuffles --------------------------------------------------------------------------------

SHUFFLES = {"": __shfl, "_up": __shfl_up, "_down": __shfl_down, "_xor": __shfl_xor}
SYNC_SHUFFLES = {"": __shfl_sync, "_up": __shfl_up_sync, "_down": __shfl_down_sync,
                 "_xor": __shfl_xor_sync}


def _operand(kind: str, t, operand: str):
    """The shuffle's second operand: per lane, uniform, or uniform per block (differing
    between the blocks of a batch)."""
    if operand == "lane":
        return (t * 5 + 3) % 64 if kind == "" else (t * 3 + 1) % 7 + (kind == "_xor")
    if operand == "block":
        return blockIdx.x % 3 + 1
    return 3


def _operand_np(kind: str, t: np.ndarray, block: int, operand: str) -> np.ndarray:
    if operand == "lane":
        return (t * 5 + 3) % 64 if kind == "" else (t * 3 + 1) % 7 + (kind == "_xor")
    return np.full_like(t, block % 3 + 1 if operand == "block" else 3)


@functools.cache
def _shuffle_kernel(kind: str, operand: str, width: int | None, sync_mask: int | None):
    @kernel
    def k(x, out):
        t = threadIdx.x
        i = blockIdx.x * blockDim.x + t
        op = _operand(kind, t, operand)
        if sync_mask is None:
            out[i] = SHUFFLES[kind](x[i], op, width)
        else:
            out[i] = SYNC_SHUFFLES[kind](sync_mask, x[i], op, width)
    return k


def _shuffle_reference(kind, x, ops, wave, width):
    """HIP's amd_warp_functions.h source lanes for each thread of each block (`ops`: the
    operand, (blocks, threads)); a source lane past the block's threads (no thread:
    inactive) reads 0 (DS_BPERMUTE_B32)."""
    n = ops.shape[1]
    rows = x.reshape(-1, n)
    out = np.empty_like(rows)
    lane = np.arange(n)
    w = width or wave
    for row, op, o in zip(rows, ops, out, strict=True):  # the blocks: a handful
        base = lane & ~(w - 1)
        if kind == "":
            src = (op & (w - 1)) + base
        elif kind == "_up":
            src = np.where(lane - op < base, lane, lane - op)
        elif kind == "_down":
            src = np.where((lane & (w - 1)) + op >= w, lane, lane + op)
        else:
            src = np.where(lane ^ op >= ((lane + w) & ~(w - 1)), lane, lane ^ op)
        src %= wave
        o[:] = np.where(src < n, row[np.minimum(src, n - 1)], 0)
    return out.reshape(-1)


def _values(dtype, count: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "i":
        return rng.integers(-1000, 1000, count).astype(dtype)
    return rng.standard_normal(count).astype(dtype)


@pytest.mark.parametrize("operand", ["lane", "uniform", "block"])
@pytest.mark.parametrize("kind", list(SHUFFLES), ids=lambda k: f"shfl{k}")
@pytest.mark.parametrize("full_width", [False, True], ids=["width=n", "width=warpSize"])
@pytest.mark.parametrize(("arch", "n"), NARROW, ids=NARROW_IDS)
def test_shuffles(arch, n, full_width, kind, operand):
    """width = the block's threads keeps every read inside them; the default width
    (warpSize) lets lanes read past them, where no thread is (0)."""
    dtype = {"": np.float32, "_up": np.int32, "_down": np.float64, "_xor": np.float32}[kind]
    grid = 7
    x = _values(dtype, grid * n, seed=n)
    width = None if full_width else n
    k = _shuffle_kernel(kind, operand, width, None)
    (_, got), _ = differential(k, grid, n, arch, [x, np.zeros_like(x)])
    lanes = np.arange(n)
    ops = np.stack([_operand_np(kind, lanes, b, operand) for b in range(grid)])
    np.testing.assert_array_equal(got, _shuffle_reference(kind, x, ops, WAVE[arch], width))


@kernel
def _warp_sum(x, out, width):
    """llama.cpp's warp_reduce_sum over `width` lanes."""
    i = blockIdx.x * blockDim.x + threadIdx.x
    v = x[i]
    mask = width // 2
    while mask > 0:
        v = v + __shfl_xor_sync(0xFFFFFFFF, v, mask, width)
        mask //= 2
    out[i] = v


@pytest.mark.parametrize("dtype", [np.int32, np.float64])
@pytest.mark.parametrize(("arch", "n"), NARROW, ids=NARROW_IDS)
def test_xor_reduction_gives_row_sums(arch, n, dtype):
    grid = 40
    x = _values(dtype, grid * n, seed=1)
    if dtype == np.float64:  # sums of integers: exact in any order
        x = np.round(x * 100)
    (_, got), _ = differential(_warp_sum, grid, n, arch, [x, np.zeros_like(x)], (n,))
    np.testing.assert_array_equal(got, np.repeat(x.reshape(grid, n).sum(1), n))


# masks: (name, mask as a function of the lane, where-condition on the lane, valid for n)
SYNC_MASKS = {
    "0xFFFFFFFF": (lambda t: 0xFFFFFFFF, lambda n: n <= 32),
    "-1": (lambda t: -1, lambda n: True),
    "0xFFFF": (lambda t: 0xFFFF, lambda n: n <= 16),
    "per-lane-groups": (lambda t: 0xF << (t & ~3), lambda n: True),
    "not-own-lane": (lambda t: 0xFFFFFFFF ^ 0x4, lambda n: False),
    "mismatched": (lambda t: 0x3 << (t & ~1) | 0x4, lambda n: False),
}


@functools.cache
def _sync_kernel(kind: str, mask_name: str, width: int | None):
    mask_of, _ = SYNC_MASKS[mask_name]

    @kernel
    def k(x, out):
        t = threadIdx.x
        i = blockIdx.x * blockDim.x + t
        out[i] = SYNC_SHUFFLES[kind](mask_of(t), x[i], 1, width)
    return k


@pytest.mark.parametrize("mask", list(SYNC_MASKS))
@pytest.mark.parametrize("kind", list(SYNC_SHUFFLES), ids=lambda k: f"shfl{k}_sync")
@pytest.mark.parametrize(("arch", "n"), NARROW, ids=NARROW_IDS)
def test_sync_shuffle_masks(arch, n, kind, mask):
    """Valid masks give the shuffle; an invalid one (a lane outside its own mask, a mask
    naming a thread that does not call, a read outside the mask) raises the same
    CrossLaneError on both engines."""
    x = _values(np.float32, 5 * n, seed=2)
    width = 4 if mask == "per-lane-groups" else n
    (_, got), err = differential(_sync_kernel(kind, mask, width), 5, n, arch,
                                 [x, np.zeros_like(x)])
    if SYNC_MASKS[mask][1](n):
        assert err is None
        ops = np.ones((5, n), np.int64)
        np.testing.assert_array_equal(got, _shuffle_reference(kind, x, ops, WAVE[arch], width))
    else:
        assert err is not None and err[0].__name__ == "CrossLaneError"


@kernel
def _sync_inside_where(x, out, mask, delta, width):
    """Only the first 4 threads call, with `mask`: 0xF is valid for width 4, a read past
    lane 3 (width 8) leaves the mask, 0xFF names threads that do not call."""
    t = threadIdx.x
    i = blockIdx.x * blockDim.x + t
    with where(t < 4):
        out[i] = __shfl_down_sync(mask, x[i], delta, width)


@pytest.mark.parametrize(("mask", "delta", "width", "ok"), [
    (0xF, 1, 4, True), (0xF, 1, 8, False), (0xFF, 1, 4, False), (-1, 2, 4, False)])
@pytest.mark.parametrize(("arch", "n"), NARROW, ids=NARROW_IDS)
def test_sync_shuffle_inside_where(arch, n, mask, delta, width, ok):
    x = _values(np.float32, 4 * n, seed=3)
    _, err = differential(_sync_inside_where, 4, n, arch, [x, np.zeros_like(x)],
                          (mask, delta, width))
    assert (err is None) == ok, err
