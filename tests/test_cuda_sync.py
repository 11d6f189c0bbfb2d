"""CUDA's `*_sync` warp functions as ported code calls them (issue 22): every function with
every shuffle overload on gfx942 (wave64) and gfx1100 (wave32), on both engines, against
numpy's index arithmetic of CUDA's definitions; the batched engine never falls back; masks
are checked against the lanes that call, with C's integer conversions.
"""

from __future__ import annotations

import numpy as np
import pytest

from rocwmma_py import CrossLaneError, blockIdx, kernel, threadIdx, use_engine, where
from rocwmma_py.cuda import (
    __all_sync,
    __any_sync,
    __ballot_sync,
    __shfl_down_sync,
    __shfl_sync,
    __shfl_up_sync,
    __shfl_xor_sync,
)
from rocwmma_py.runtime import __floats2half2_rn, __high2float, __low2float, last_launch_stats

ARCHS = {"gfx942": 64, "gfx1100": 32}
ENGINES = ["batch", "wave"]
# int, unsigned, float, double, long long, unsigned long long, __half
TYPES = [np.int32, np.uint32, np.float32, np.float64, np.int64, np.uint64, np.float16]
BLOCKS = 3


def _values(t, n: int) -> np.ndarray:
    rng = np.random.default_rng(n)
    if np.dtype(t).kind == "f":
        return rng.normal(size=n).astype(t)
    info = np.iinfo(t)
    return rng.integers(info.min, info.max, n, dtype=t, endpoint=True)


def _shfl_sources(kind: str, w: int, operand: int, width: int) -> np.ndarray:
    """Source lane of each lane of one wave, CUDA's definitions (no wrap out of a group)."""
    lane = np.arange(w)
    base = lane - lane % width
    if kind == "idx":
        return base + operand % width
    if kind == "up":
        return np.where(lane % width >= operand, lane - operand, lane)
    if kind == "down":
        return np.where(lane % width + operand < width, lane + operand, lane)
    return np.where((lane ^ operand) < base + width, lane ^ operand, lane)


SHUFFLES = {"idx": (__shfl_sync, 5), "up": (__shfl_up_sync, 3), "down": (__shfl_down_sync, 2),
            "xor": (__shfl_xor_sync, 6)}


def _launch(k, arch, engine, *args):
    with use_engine(engine):
        k[BLOCKS, ARCHS[arch], 0, arch](*args)
    if engine == "batch":
        stats = last_launch_stats()
        assert stats.per_wave_blocks == 0, stats.fallbacks


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("t", TYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("kind", SHUFFLES)
def test_every_shuffle_overload(kind, t, arch, engine):
    fn, operand = SHUFFLES[kind]
    w = ARCHS[arch]
    width = w // 2

    @kernel
    def k(x, out):
        i = threadIdx.x + w * blockIdx.x
        out[i] = fn(-1, x[i], operand, width)

    x = _values(t, BLOCKS * w)
    out = np.zeros_like(x)
    _launch(k, arch, engine, x, out)
    src = _shfl_sources(kind, w, operand, width)
    want = x.reshape(BLOCKS, w)[:, src].reshape(-1)
    np.testing.assert_array_equal(out.view(np.uint8), want.view(np.uint8))


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("arch", ARCHS)
def test_half2_pairs_shuffle_whole(arch, engine):
    w = ARCHS[arch]

    @kernel
    def k(x, lo, hi):
        i = threadIdx.x + w * blockIdx.x
        h = __shfl_xor_sync(-1, __floats2half2_rn(x[i], -x[i]), 1)
        lo[i], hi[i] = __low2float(h), __high2float(h)

    x = np.arange(BLOCKS * w, dtype=np.float32)
    lo, hi = np.zeros_like(x), np.zeros_like(x)
    _launch(k, arch, engine, x, lo, hi)
    partner = np.arange(BLOCKS * w) ^ 1
    np.testing.assert_array_equal(lo, x[partner])
    np.testing.assert_array_equal(hi, -x[partner])


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("arch", ARCHS)
def test_votes(arch, engine):
    w = ARCHS[arch]

    @kernel
    def k(x, ballot, anyv, allv):
        i = threadIdx.x + w * blockIdx.x
        ballot[i] = __ballot_sync(-1, x[i] > 0)
        anyv[i] = __any_sync(-1, x[i] > 2)
        allv[i] = __all_sync(-1, x[i] > -3)

    x = np.random.default_rng(3).integers(-3, 3, BLOCKS * w).astype(np.int32)
    ballot = np.zeros(BLOCKS * w, np.uint64)
    anyv, allv = np.zeros(BLOCKS * w, np.int32), np.zeros(BLOCKS * w, np.int32)
    _launch(k, arch, engine, x, ballot, anyv, allv)
    per_wave = x.reshape(BLOCKS, w)
    bits = np.array([sum(1 << b for b in np.flatnonzero(row > 0)) for row in per_wave],
                    np.uint64)
    np.testing.assert_array_equal(ballot, np.repeat(bits, w))
    np.testing.assert_array_equal(anyv, np.repeat((per_wave > 2).any(1), w))
    np.testing.assert_array_equal(allv, np.repeat((per_wave > -3).all(1), w))


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("arch", ARCHS)
def test_a_mask_names_the_lanes_that_call(arch, engine):
    """`__shfl_up_sync(0xf, v, 1)` by lanes 0-3 only, and `__ballot_sync(0xff00, ...)` by
    lanes 8-15: valid on both wave sizes."""
    w = ARCHS[arch]

    @kernel
    def k(x, up, ballot):
        i = threadIdx.x + w * blockIdx.x
        with where(threadIdx.x < 4):
            up[i] = __shfl_up_sync(0xF, x[i], 1)
        with where((threadIdx.x >= 8) & (threadIdx.x < 16)):
            ballot[i] = __ballot_sync(0xFF00, x[i] > 0)

    x = np.arange(1, BLOCKS * w + 1, dtype=np.float32)
    up, ballot = np.zeros_like(x), np.zeros(BLOCKS * w, np.uint64)
    _launch(k, arch, engine, x, up, ballot)
    first4 = x.reshape(BLOCKS, w)[:, [0, 0, 1, 2]]
    np.testing.assert_array_equal(up.reshape(BLOCKS, w)[:, :4], first4)
    assert (ballot.reshape(BLOCKS, w)[:, 8:16] == 0xFF00).all()


@pytest.mark.parametrize("engine", ENGINES)
def test_a_32_bit_mask_on_wave64_called_by_every_lane_is_refused_with_a_hint(engine):
    @kernel
    def k(x, out):
        out[threadIdx.x] = __shfl_xor_sync(0xFFFFFFFF, x[threadIdx.x], 1)

    x = np.zeros(64, np.float32)
    with use_engine(engine), pytest.raises(CrossLaneError) as err:
        k[1, 64, 0, "gfx942"](x, x.copy())
    msg = str(err.value)
    assert msg.startswith("__shfl_xor_sync: lane 32 calls with mask 0xffffffff")
    assert "0xffffffffffffffff" in msg


@pytest.mark.parametrize("mask", [-1, np.int32(-1), 0xFFFFFFFF, np.uint32(0xFFFFFFFF)])
def test_c_conversions_of_the_mask_on_wave32(mask):
    @kernel
    def k(x, out):
        out[threadIdx.x] = __ballot_sync(mask, x[threadIdx.x] > 0)

    x = np.ones(32, np.float32)
    out = np.zeros(32, np.uint64)
    k[1, 32, 0, "gfx1100"](x, out)
    assert (out == 0xFFFFFFFF).all()


def test_a_wave32_mask_wider_than_32_bits_is_refused():
    @kernel
    def k(x, out):
        out[threadIdx.x] = __ballot_sync(0x1FFFFFFFF, x[threadIdx.x] > 0)

    with pytest.raises(CrossLaneError, match=r"__ballot_sync: a wave32 mask has 32 bits"):
        k[1, 32, 0, "gfx1100"](np.ones(32, np.float32), np.zeros(32, np.uint64))
