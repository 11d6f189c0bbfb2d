"""Per-wave scalars in a batch (runtime/uniform.py): blockIdx components and loads of one
address are, per wave, a Python int and a numpy scalar; the batch must give exactly those
scalars' results — their types, numpy's scalar arithmetic, Python's big ints and exceptions —
while staying batched where the scalar meets per-lane values."""

from __future__ import annotations

import numpy as np
import pytest

from rocwmma_py import kernel, shared_array, synchronize_workgroup, where
from rocwmma_py.runtime import blockIdx, lane_id, last_launch_stats, threadIdx, use_engine
from rocwmma_py.runtime.state import BatchSplit
from rocwmma_py.runtime.uniform import Uniform, uniform

GRID, WAVE = 8, 64


def both(k, make, grid=GRID, block=WAVE):
    """Buffers and error of the per-wave and the batched engine, and the batch's stats."""
    out = {}
    for engine in ("wave", "batch"):
        buffers = make()
        error = None
        with use_engine(engine):
            try:
                k[grid, block, 0, "gfx942"](*buffers)
            except Exception as err:  # noqa: BLE001 - compared between engines
                error = (type(err), str(err))
        out[engine] = buffers, error, last_launch_stats()
    (wave, wave_err, _), (batch, batch_err, stats) = out["wave"], out["batch"]
    assert batch_err == wave_err
    for w, b in zip(wave, batch, strict=True):
        assert w.dtype == b.dtype and w.tobytes() == b.tobytes()
    return wave, stats


def test_uniform_collapses_only_to_a_bit_identical_scalar():
    assert uniform([3, 3, 3]) == 3 and type(uniform([3, 3])) is int
    assert isinstance(uniform([0.0, -0.0]), Uniform)  # equal, but not the same scalar
    assert isinstance(uniform([1, 1.0]), Uniform)  # equal, of different types
    assert isinstance(uniform([np.float32(1), np.float64(1)]), Uniform)
    nan = float("nan")
    assert uniform([nan, nan]) is nan  # one NaN bit pattern: the same scalar


def test_every_way_out_splits_by_the_waves_values():
    u = uniform([5, 7, 5, 9])
    for escape in (str, repr, hash, bool, int, float, np.asarray,
                   lambda x: f"{x}", lambda x: [1, 2, 3][x], lambda x: x.bit_length()):
        with pytest.raises(BatchSplit) as split:
            escape(u)
        assert split.value.values.tolist() == [0, 1, 0, 2]
    for as_int_does in (len, iter, lambda x: x[0]):  # TypeError: the batch reruns per wave
        with pytest.raises(TypeError):
            as_int_does(u)
    assert isinstance(u, int) and not isinstance(u, float)
    with pytest.raises(BatchSplit):
        isinstance(uniform([5, 2.5]), int)  # noqa: B015 - the check is what splits


def test_operators_on_scalars_run_per_wave():
    u = uniform([2, 3, 2 ** 70])
    assert (u * 3)._values == [6, 9, 3 * 2 ** 70]  # Python ints: no int64 wrap
    assert (u / 2)._values == [1.0, 1.5, 2.0 ** 69]
    assert (np.uint32(7) - uniform([2, 3]))._values == [np.uint32(5), np.uint32(4)]
    with pytest.raises(OverflowError):  # numpy's own error, from the wave holding 2**70
        np.uint32(7) - u
    assert [type(v) for v in (np.float32(1.1) ** uniform([2, 3]))._values] == [np.float32] * 2
    quotient, remainder = divmod(uniform([7, 9]), 2)
    assert quotient._values == [3, 4] and remainder == 1 and type(remainder) is int


@kernel
def block_numbers(out):
    b = blockIdx.x
    lane = lane_id()
    out[b * 64 + lane] = (np.uint32(b) * 3 // 2) + (b ** 40) % 1000 + len(str(b * 11))


def test_block_numbers_follow_python_and_numpy_scalars():
    wave, _ = both(block_numbers, lambda: [np.zeros(GRID * WAVE)])
    want = [float((np.uint32(b) * 3 // 2) + (b ** 40) % 1000 + len(str(b * 11)))
            for b in range(GRID)]
    assert wave[0].reshape(GRID, WAVE)[:, 0].tolist() == want


@kernel
def caught_per_block(out):
    try:
        v = 100 // (blockIdx.x - 3)
    except ZeroDivisionError:
        v = -1
    out[blockIdx.x * 64 + lane_id()] = v


def test_an_error_of_one_wave_is_that_waves_alone():
    wave, _ = both(caught_per_block, lambda: [np.zeros(GRID * WAVE)])
    assert wave[0][::WAVE].tolist() == [100 // (b - 3) if b != 3 else -1 for b in range(GRID)]


@kernel
def spread_over_lanes(src, out):
    i = blockIdx.x * 64 + threadIdx.x
    out[i] = src[i] * (blockIdx.x + 1) * 0.1 + np.float16(0.5) * blockIdx.x


def test_meeting_lanes_promotes_like_a_python_scalar_and_stays_batched():
    wave, stats = both(spread_over_lanes, lambda: [np.arange(GRID * WAVE, dtype=np.float32),
                                                   np.zeros(GRID * WAVE, np.float32)])
    assert stats.per_wave_blocks == 0 and stats.splits == 0
    b = np.repeat(np.arange(GRID), WAVE)
    src = np.arange(GRID * WAVE, dtype=np.float32)
    want = [src[i] * (int(b[i]) + 1) * 0.1 + np.float16(0.5) * int(b[i]) for i in range(b.size)]
    assert wave[1].tolist() == np.array(want, np.float32).tolist()


@kernel
def uniform_loads(src, out):
    lds = shared_array(np.float32, 4)
    with where(threadIdx.x < 4):
        lds[threadIdx.x] = src[blockIdx.x * 4 + threadIdx.x]
    synchronize_workgroup()
    s = lds[1]  # one address, every lane: a numpy scalar per wave
    t = src[blockIdx.x]  # likewise from global memory
    out[blockIdx.x * 128 + threadIdx.x] = s ** np.float32(2.37) + t ** 0.61 + isinstance(
        s, np.float32)


def test_loads_of_one_address_are_numpy_scalars_per_wave():
    """numpy's scalar ** differs from its array ** in the last bit for many inputs: the
    batch must compute the scalar's."""
    src = np.random.default_rng(5).random(GRID * 4, np.float32) * 7
    wave, stats = both(uniform_loads, lambda: [src.copy(), np.zeros(GRID * 128, np.float32)],
                       block=128)
    s = src.reshape(GRID, 4)[:, 1]
    want = [s[b] ** np.float32(2.37) + src[b] ** 0.61 + 1 for b in range(GRID)]
    assert wave[1].reshape(GRID, 128)[:, 0].tolist() == want
    assert stats.per_wave_blocks == 0
