"""Debugging a kernel: a `breakpoint()` (or `pdb.set_trace()`, `sys.breakpointhook()`) in a
kernel's code runs its launch per wave on every engine, so the debugger stops once per wave,
blocks in order, and sees that wave's values (`last_launch_stats()` says "breakpoint");
printing a per-lane value prints one wave's lanes in lane order on both engines."""

from __future__ import annotations

import pdb
import sys

import numpy as np
import pytest

from rocwmma_py.runtime import (
    blockDim,
    blockIdx,
    kernel,
    last_launch_stats,
    threadIdx,
    use_engine,
    use_workers,
)

GRID, WAVES, WAVE = 4, 2, 64
ARCH = "gfx942"
MODES = (("wave", 1), ("batch", 1), ("batch", 2))


def stop_here() -> None:
    """A helper the kernel calls: the debugger entry is found in the code the kernel reaches."""
    breakpoint()


@kernel
def with_breakpoint(out):
    v = blockIdx.x * 1000 + threadIdx.x
    breakpoint()
    out[blockIdx.x * blockDim.x + threadIdx.x] = v


@kernel
def with_set_trace(out):
    v = blockIdx.x * 1000 + threadIdx.x
    pdb.set_trace()
    out[blockIdx.x * blockDim.x + threadIdx.x] = v


@kernel
def with_hook(out):
    v = blockIdx.x * 1000 + threadIdx.x
    sys.breakpointhook()
    out[blockIdx.x * blockDim.x + threadIdx.x] = v


@kernel
def with_helper(out):
    v = blockIdx.x * 1000 + threadIdx.x
    stop_here()
    out[blockIdx.x * blockDim.x + threadIdx.x] = v


@pytest.fixture
def stops(monkeypatch):
    """Replaces the debugger: each stop records the kernel frame's `v` as a plain array."""
    seen: list[np.ndarray] = []

    def record(*args, **kwargs):
        frame = sys._getframe(1)
        while "v" not in frame.f_locals:  # from stop_here(): the kernel's frame is further out
            frame = frame.f_back
        seen.append(np.array(frame.f_locals["v"]))

    monkeypatch.setattr(sys, "breakpointhook", record)
    monkeypatch.setattr(pdb, "set_trace", record)
    return seen


@pytest.mark.parametrize("mode", MODES, ids=[f"{e}-{w}" for e, w in MODES])
@pytest.mark.parametrize("fn", [with_breakpoint, with_set_trace, with_hook, with_helper],
                         ids=lambda k: k.name)
def test_the_debugger_stops_once_per_wave_with_that_waves_values(stops, mode, fn):
    engine, workers = mode
    out = np.zeros(GRID * WAVES * WAVE, np.int64)
    with use_engine(engine), use_workers(workers):
        fn[GRID, WAVES * WAVE, 0, ARCH](out)
    lanes = np.arange(WAVE)
    expected = [block * 1000 + wave * WAVE + lanes for block in range(GRID)
                for wave in range(WAVES)]  # blocks in order, the waves of each in order
    assert len(stops) == GRID * WAVES
    for seen, want in zip(stops, expected, strict=True):
        assert seen.shape == (WAVE,)
        assert (seen == want).all()
    assert (out == np.concatenate(expected)).all()
    stats = last_launch_stats()
    assert stats.batched_blocks == 0 and stats.per_wave_blocks == GRID
    assert stats.workers == 1  # the debugger never runs in a worker process
    assert [f.cause for f in stats.fallbacks] == ["breakpoint"]
    assert stats.fallbacks[0].kind == "per wave"


@kernel
def no_breakpoint(out):
    out[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x * 1000 + threadIdx.x


def test_kernels_without_a_debugger_entry_stay_batched(stops):
    out = np.zeros(GRID * WAVES * WAVE, np.int64)
    no_breakpoint[GRID, WAVES * WAVE, 0, ARCH](out)
    assert last_launch_stats().per_wave_blocks == 0
    assert stops == []


@kernel
def prints_lanes(out):
    v = blockIdx.x * 1000 + threadIdx.x
    print(f"block {blockIdx.x}: {v}")  # one f-string: formatted whole, then written
    out[blockIdx.x * blockDim.x + threadIdx.x] = v


def test_printing_a_per_lane_value_prints_each_wave_in_lane_order(capsys):
    out = np.zeros(GRID * WAVE, np.int64)
    printed = {}
    for engine in ("wave", "batch"):
        with use_engine(engine):
            prints_lanes[GRID, WAVE, 0, ARCH](out)
        printed[engine] = capsys.readouterr().out
    assert printed["batch"] == printed["wave"]
    lines = printed["wave"].replace("\n ", " ").splitlines()  # numpy wraps long arrays
    assert len(lines) == GRID
    for block, line in enumerate(lines):
        label, values = line.split(": ")
        assert label == f"block {block}"
        assert [int(x) for x in values.strip("[]").split()] == list(block * 1000 + np.arange(WAVE))
