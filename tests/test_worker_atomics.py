"""Launches with atomics on worker processes against the same launches in this process.

LDS atomics are block-local, so they never keep a launch here; global commutative integer
atomics run on workers when no earlier piece wrote their addresses. Every case compares
memory (atomic results and the old values the kernel stores) with the serial engine's bit
for bit (`test_workers.compare`), and states where and why a launch went back to block order.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_workers import ENGINES, compare, serial_fallback

from rocwmma_py import (
    atomicAdd,
    atomicAnd,
    atomicDec,
    atomicExch,
    atomicInc,
    atomicMax,
    atomicMin,
    atomicOr,
    atomicSub,
    atomicXor,
    blockDim,
    blockIdx,
    kernel,
    shared_array,
    synchronize_workgroup,
    threadIdx,
    where,
)
from rocwmma_py.runtime.disjoint import WrittenMemory

BINS = 16
WIDTH = 64


def serial_fallbacks(stats) -> list:
    return [f for f in stats.fallbacks if f.kind == "serial"]


def _block_bins(data, per_block, dtype):
    """The block's histogram of its `per_block` values, in LDS by LDS atomics (called from
    the kernels below, as a __device__ function)."""
    bins = shared_array(dtype, BINS)
    t = threadIdx.x
    with where(t < BINS):
        bins[t] = 0
    synchronize_workgroup()
    base = blockIdx.x * per_block
    for k in range(0, per_block, blockDim.x):
        atomicAdd(bins + data[base + k + t] % BINS, 1)
    synchronize_workgroup()
    return bins


@kernel
def lds_histogram(data, partial, per_block):
    """NVIDIA histogram256's shape: a block's histogram in LDS by LDS atomics, then the
    block's partial bins stored to global memory."""
    bins, t = _block_bins(data, per_block, np.uint32), threadIdx.x
    with where(t < BINS):
        partial[blockIdx.x * BINS + t] = bins[t]


@pytest.mark.parametrize("engine", ENGINES)
def test_lds_atomics_run_on_workers(spread, engine):  # noqa: F811 - the fixture
    blocks, per_block = 24, 4 * WIDTH
    data = np.random.default_rng(3).integers(0, 1 << 20, blocks * per_block).astype(np.uint32)
    partial = np.zeros(blocks * BINS, np.uint32)
    runs = compare(lambda d, p: lds_histogram[blocks, WIDTH](d, p, per_block),
                   [data, partial], engine)
    _, got = runs[2][0]
    want = np.stack([np.bincount(row % BINS, minlength=BINS)
                     for row in data.reshape(blocks, per_block)])
    assert np.array_equal(got.reshape(blocks, BINS), want)
    assert serial_fallbacks(runs[2][2]) == []


@kernel
def own_bins(op, slot, data, bins, olds):
    """Each block applies `op` to its own bins only, storing the old values it got."""
    i = blockIdx.x * blockDim.x + threadIdx.x
    olds[i] = op(bins + blockIdx.x * BINS + slot[i], data[i])


COMMUTATIVE = [(atomicAdd, np.int32), (atomicSub, np.uint32), (atomicAnd, np.uint64),
               (atomicOr, np.int32), (atomicXor, np.uint32), (atomicMin, np.int64),
               (atomicMax, np.uint32), (atomicInc, np.uint32), (atomicDec, np.uint32)]


def own_bins_buffers(dtype, blocks: int):
    rng = np.random.default_rng(4)
    slot = rng.integers(0, BINS, blocks * WIDTH).astype(np.int32)
    data = rng.integers(0, 1000, blocks * WIDTH).astype(dtype)
    bins = rng.integers(0, 1000, blocks * BINS).astype(dtype)
    return [slot, data, bins, np.zeros(blocks * WIDTH, dtype)]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("op", "dtype"), COMMUTATIVE, ids=lambda v: getattr(v, "__name__", v))
def test_disjoint_integer_atomics_run_on_workers(spread, engine, op, dtype):  # noqa: F811
    blocks = 24
    runs = compare(lambda s, d, b, o: own_bins[blocks, WIDTH](op, s, d, b, o),
                   own_bins_buffers(dtype, blocks), engine)
    assert serial_fallbacks(runs[2][2]) == []


@pytest.mark.parametrize(("op", "dtype", "name"), [(atomicAdd, np.float32, "atomicAdd on float32"),
                                                   (atomicMax, np.float64, "atomicMax on float64"),
                                                   (atomicExch, np.int32, "atomicExch on int32")])
def test_float_and_exchange_atomics_stay_in_block_order(spread, op, dtype, name):  # noqa: F811
    """Found in the first blocks: the launch never forks."""
    blocks = 24
    runs = compare(lambda s, d, b, o: own_bins[blocks, WIDTH](op, s, d, b, o),
                   own_bins_buffers(dtype, blocks), "batch", expect_workers=False)
    stats = runs[2][2]
    assert stats.workers == 1
    assert serial_fallback(stats).cause == (f"{name} in 'bins' (only commutative integer "
                                            "atomics can run on workers)")


@kernel
def float_atomics_late(bins, out, first):
    """Blocks from `first` on add floats to their own bin; the others store."""
    i = blockIdx.x * blockDim.x + threadIdx.x
    if blockIdx.x >= first:
        atomicAdd(bins + blockIdx.x, np.float32(0.1))
    else:
        out[i] = np.float32(i)


def test_float_atomics_in_a_piece_rerun_here(spread):  # noqa: F811
    blocks, first = 24, 17
    runs = compare(lambda b, o: float_atomics_late[blocks, WIDTH](b, o, first),
                   [np.zeros(blocks, np.float32), np.zeros(blocks * WIDTH, np.float32)],
                   "batch")
    fallback = serial_fallback(runs[2][2])
    assert fallback.block <= first and "atomicAdd on float32 in 'bins'" in fallback.cause


@kernel
def shared_bins(data, bins):
    """Every block adds to the same bins: the classic global-atomics histogram."""
    i = blockIdx.x * blockDim.x + threadIdx.x
    atomicAdd(bins + data[i] % BINS, 1)


@pytest.mark.parametrize("engine", ENGINES)
def test_atomics_of_two_blocks_on_one_address_keep_the_launch_here(spread, engine):  # noqa: F811
    """The first blocks (64 // 32 = 2 here, 3 on the batched engine: workers.py) show two
    blocks' atomics meeting: no fork."""
    blocks = 64
    data = np.arange(blocks * WIDTH, dtype=np.int32)
    runs = compare(lambda d, b: shared_bins[blocks, WIDTH](d, b),
                   [data, np.zeros(BINS, np.int32)], engine, expect_workers=False)
    stats = runs[2][2]
    assert stats.workers == 1 and runs[2][0][1].tolist() == [blocks * WIDTH // BINS] * BINS
    fallback = serial_fallback(stats)
    probe = 3 if engine == "batch" else 2
    assert fallback.block == probe
    assert fallback.cause == (f"global atomics of blocks 0 and {probe - 1} on one address of "
                              "'bins' (element 0): their results depend on the order of blocks")


@kernel
def adds_to_previous(flags, seen):
    """Block b stores its flag, then adds to block b-1's flag: a plain write of one piece
    meets an atomic of the next."""
    b = blockIdx.x
    with where(threadIdx.x == 0):
        flags[b] = 100 * b
        if b > 0:
            seen[b] = atomicAdd(flags + (b - 1), 1)


@pytest.mark.parametrize("engine", ENGINES)
def test_atomics_on_an_earlier_pieces_plain_write_rerun_here(spread, engine):  # noqa: F811
    blocks = 24
    runs = compare(lambda f, s: adds_to_previous[blocks, WIDTH](f, s),
                   [np.zeros(blocks, np.int32), np.zeros(blocks, np.int32)], engine)
    flags, seen = runs[2][0]
    assert seen[1:].tolist() == [100 * b for b in range(blocks - 1)]
    assert flags[:-1].tolist() == [100 * b + 1 for b in range(blocks - 1)]
    fallback = serial_fallback(runs[2][2])
    assert fallback.block > 1  # the first piece ran on a worker
    assert fallback.cause.endswith("on 'flags' hit addresses an earlier piece wrote")


@kernel
def lds_then_own_global(data, totals, per_block):
    """An LDS histogram per block, then one global atomicAdd per bin into the block's own
    totals (the global-atomics variant whose blocks never meet)."""
    bins, t = _block_bins(data, per_block, np.int32), threadIdx.x
    with where(t < BINS):
        atomicAdd(totals + blockIdx.x * BINS + t, bins[t])


@pytest.mark.parametrize("engine", ENGINES)
def test_lds_and_disjoint_global_atomics_run_on_workers(spread, engine):  # noqa: F811
    blocks, per_block = 24, 2 * WIDTH
    data = np.random.default_rng(5).integers(0, 1 << 20, blocks * per_block).astype(np.int32)
    totals = np.full(blocks * BINS, 7, np.int32)
    runs = compare(lambda d, t: lds_then_own_global[blocks, WIDTH](d, t, per_block),
                   [data, totals], engine)
    want = 7 + np.stack([np.bincount(row % BINS, minlength=BINS)
                         for row in data.reshape(blocks, per_block)])
    assert np.array_equal(runs[2][0][1].reshape(blocks, BINS), want)
    assert serial_fallbacks(runs[2][2]) == []


@pytest.mark.parametrize("exact", [True, False])
def test_written_memory_compares_bytes_across_element_sizes(exact):
    """Elements 2..3 of a 4-byte view at 1000 (bytes 1008..1015) were written."""
    written = WrittenMemory(exact)
    written.add(1000, 4, np.array([2, 3]), 100)
    hits = {(1000, 8, 1): True, (1000, 8, 0): False, (1000, 2, 4): True, (1000, 2, 3): False,
            (1000, 2, 8): False, (1004, 4, 1): True, (1016, 4, 0): False, (1000, 4, 50): False}
    for (address, itemsize, index), want in hits.items():
        assert written.met(address, itemsize, np.array([index])) is want, (address, index)
