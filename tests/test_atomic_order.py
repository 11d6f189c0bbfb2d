"""Atomics keep the per-wave order on every path of the batched engine: blocks in order, the
waves of a block in order between barriers. A batch whose waves take different branches
reruns as wave groups; an atomic those groups would apply out of that order (waves {0, 2}
before {1, 3}) reruns the batch wave by wave instead, so tickets and float sums are the
per-wave engine's, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from rocwmma_py.runtime import (
    atomicAdd,
    blockIdx,
    kernel,
    last_launch_stats,
    shared_array,
    synchronize_workgroup,
    threadIdx,
    use_engine,
    use_workers,
)

WAVE, WAVES, BLOCKS = 64, 4, 3
LANES = WAVE * WAVES
ARCH = "gfx942"


def run(k, buffers, engine, workers=1, grid=BLOCKS):
    bufs = [b.copy() for b in buffers]
    with use_engine(engine), use_workers(workers):
        k[grid, LANES, 0, ARCH](*bufs)
    return bufs, last_launch_stats()


def assert_same(k, buffers, workers=1, grid=BLOCKS):
    (wave_bufs, _), (batch_bufs, stats) = (run(k, buffers, e, workers, grid)
                                           for e in ("wave", "batch"))
    for w, b in zip(wave_bufs, batch_bufs, strict=True):
        assert w.dtype == b.dtype and w.tobytes() == b.tobytes()
    return wave_bufs, stats


@kernel
def tickets_then_branch(shared, per_block, fsum, tickets, sums, out):
    """Tickets from a counter every block shares and from one per block, float32 sums whose
    rounding depends on the order, then a branch that differs between the waves."""
    i = blockIdx.x * 256 + threadIdx.x
    tickets[2 * i] = atomicAdd(shared + 0, 1)
    tickets[2 * i + 1] = atomicAdd(per_block + blockIdx.x, 1)
    sums[i] = atomicAdd(fsum + blockIdx.x, np.float32(0.1) * (threadIdx.x + 1))
    if threadIdx.x // 64 % 2:  # waves 1 and 3 take this branch, 0 and 2 the other
        out[i] = 1
    else:
        out[i] = 2


def order_buffers():
    return [np.zeros(1, np.int32), np.zeros(BLOCKS, np.uint32), np.zeros(BLOCKS, np.float32),
            np.zeros(2 * BLOCKS * LANES, np.int32), np.zeros(BLOCKS * LANES, np.float32),
            np.zeros(BLOCKS * LANES, np.int32)]


@pytest.mark.parametrize("workers", [1, 2])
def test_tickets_and_float_sums_before_a_wave_branch_are_the_per_wave_engines(workers):
    (shared, per_block, fsum, tickets, sums, out), stats = assert_same(
        tickets_then_branch, order_buffers(), workers)
    # the per-wave engine's order: block by block, wave by wave, lane by lane
    assert tickets[0::2].tolist() == list(range(BLOCKS * LANES))
    assert tickets[1::2].tolist() == list(range(LANES)) * BLOCKS
    assert shared[0] == BLOCKS * LANES and per_block.tolist() == [LANES] * BLOCKS
    expect = np.zeros(BLOCKS, np.float32)
    for b in range(BLOCKS):
        for lane in range(LANES):
            assert sums[b * LANES + lane] == expect[b]
            expect[b] += np.float32(0.1) * np.float32(lane + 1)
    assert fsum.tobytes() == expect.tobytes()
    assert stats.per_wave_blocks > 0
    causes = " ".join(f.cause for f in stats.fallbacks)
    assert "per-wave order" in causes or "lower block after a higher one" in causes


@kernel
def lds_tickets_then_branch(tickets, sums, out):
    counter = shared_array(np.int32, 1)
    total = shared_array(np.float32, 1)
    i = blockIdx.x * 256 + threadIdx.x
    tickets[i] = atomicAdd(counter + 0, 1)
    sums[i] = atomicAdd(total + 0, np.float32(0.1) * (threadIdx.x + 1))
    if threadIdx.x // 64 % 2:
        out[i] = 1
    synchronize_workgroup()
    out[i] += counter[0]


def test_lds_tickets_before_a_wave_branch_are_the_per_wave_engines():
    bufs = [np.zeros(BLOCKS * LANES, np.int32), np.zeros(BLOCKS * LANES, np.float32),
            np.zeros(BLOCKS * LANES, np.int32)]
    (tickets, _, _), stats = assert_same(lds_tickets_then_branch, bufs)
    assert tickets.tolist() == list(range(LANES)) * BLOCKS
    assert stats.per_wave_blocks > 0
    assert any("per-wave order" in f.cause for f in stats.fallbacks)


@kernel
def branch_then_own_slots(slots, out):
    """Wave groups whose atomics never share an address: no order to keep, they stay batched
    in groups."""
    wave = threadIdx.x // 64
    i = blockIdx.x * 256 + threadIdx.x
    if wave % 2:
        out[i] = atomicAdd(slots + blockIdx.x * 4 + wave, 1)
    else:
        out[i] = atomicAdd(slots + blockIdx.x * 4 + wave, 2) + 100


def test_wave_groups_with_disjoint_atomics_stay_batched():
    bufs = [np.zeros(BLOCKS * WAVES, np.int32), np.zeros(BLOCKS * LANES, np.int32)]
    (slots, out), stats = assert_same(branch_then_own_slots, bufs, grid=1)
    assert slots[:4].tolist() == [128, 64, 128, 64]
    assert stats.per_wave_blocks == 0 and stats.wave_groups == 2


@kernel
def one_wave_twice(counter, out):
    """Each wave draws twice from its own counter, then every wave once from a shared one:
    later calls only reach an address from the same or a later wave."""
    wave = threadIdx.x // 64
    i = blockIdx.x * 256 + threadIdx.x
    a = atomicAdd(counter + 1 + wave, 1)
    b = atomicAdd(counter + 1 + wave, 1)
    out[i] = a * 1000 + b + 10 * atomicAdd(counter + 0, 1)


def test_repeated_atomics_in_order_stay_batched():
    bufs = [np.zeros(1 + WAVES, np.int32), np.zeros(LANES, np.int32)]
    (counter, out), stats = assert_same(one_wave_twice, bufs, grid=1)
    assert counter.tolist() == [LANES] + [2 * WAVE] * WAVES
    assert stats.per_wave_blocks == 0


@kernel
def twice_shared(counter, out):
    i = blockIdx.x * 256 + threadIdx.x
    out[2 * i] = atomicAdd(counter + 0, 1)
    out[2 * i + 1] = atomicAdd(counter + 0, 1)  # per wave: wave 0's two calls come first


def test_second_call_on_a_shared_address_reruns_per_wave():
    bufs = [np.zeros(1, np.int32), np.zeros(2 * LANES, np.int32)]
    (counter, out), stats = assert_same(twice_shared, bufs, grid=1)
    assert out[0::2][:WAVE].tolist() == list(range(WAVE))
    assert out[1::2][:WAVE].tolist() == list(range(WAVE, 2 * WAVE))
    assert stats.per_wave_blocks == 1
