"""The per-wave engine (the reference, debugging and fallback engine) on blocks of many
waves, where handing the baton from wave to wave is a large part of a launch.

Rows, each on gfx942 (wave64) and gfx1100 (wave32), 1024-thread blocks (16 or 32 waves):
- element-wise: y[i] = 2 x[i] over N float32 (no barrier: each wave runs to its end, then
  hands over to the next);
- block sum: each block sums its 1024 values in shared memory by a tree of __syncthreads()
  steps (every wave waits at each of the 11 barriers).
Each row: the median of REPEATS launches (wall seconds, one worker) and the same work in
numpy; the result is checked exactly (the sums against a float32 tree in numpy) and a
wrong one exits with status 1. Nothing is asserted about time.

    python benchmarks/bench_per_wave.py [--n N] [--repeats R]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

# isort: off
from bench_gemm import seconds  # noqa: E402 - sets one BLAS thread before numpy
import numpy as np  # noqa: E402
# isort: on

from rocwmma_py import use_engine, use_workers, where  # noqa: E402
from rocwmma_py.cuda import (  # noqa: E402
    __global__,
    __shared__,
    __syncthreads,
    blockDim,
    blockIdx,
    threadIdx,
)

BLOCK = 1024


@__global__
def doubled(x, y, n):
    i = blockIdx.x * blockDim.x + threadIdx.x
    if i < n:
        y[i] = x[i] * np.float32(2)


@__global__
def block_sum(x, sums):
    part = __shared__(np.float32, BLOCK)
    tid = threadIdx.x
    part[tid] = x[blockIdx.x * BLOCK + tid]
    __syncthreads()
    stride = BLOCK // 2
    while stride > 0:
        with where(tid < stride):
            part[tid] = part[tid] + part[tid + stride]
        __syncthreads()
        stride //= 2
    with where(tid == 0):
        sums[blockIdx.x] = part[0]


def tree_sums(x: np.ndarray) -> np.ndarray:
    """block_sum's float32 tree in numpy: the reference and the numpy timing."""
    part = x.reshape(-1, BLOCK).copy()
    width = BLOCK
    while width > 1:
        width //= 2
        part[:, :width] += part[:, width:2 * width]
    return part[:, 0]


def median_s(fn: Callable[[], object], repeats: int) -> float:
    return statistics.median(seconds(fn) for _ in range(repeats))


def rows(x: np.ndarray, arch: str):
    """(name, launch, numpy, check) of each row on `arch`."""
    n = x.size
    y, sums = np.zeros_like(x), np.zeros(n // BLOCK, np.float32)
    return (("element-wise", lambda: doubled[n // BLOCK, BLOCK, 0, arch](x, y, n),
             lambda: x * np.float32(2), lambda: np.array_equal(y, x * np.float32(2))),
            ("block sum", lambda: block_sum[n // BLOCK, BLOCK, 0, arch](x, sums),
             lambda: tree_sums(x), lambda: np.array_equal(sums, tree_sums(x))))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1 << 18, help="elements (multiple of 1024)")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    n = max(BLOCK, args.n - args.n % BLOCK)
    x = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    ok = True
    print(f"per-wave engine, {n} float32, {BLOCK}-thread blocks, 1 worker; wall, median of "
          f"{args.repeats}")
    print(f"{'row':14s} {'arch':8s} {'waves':>5s} {'engine s':>9s} {'numpy s':>9s} {'ratio':>8s}")
    for arch in ("gfx942", "gfx1100"):
        waves = BLOCK // (64 if arch == "gfx942" else 32)
        for name, launch, numpy_fn, check in rows(x, arch):
            with use_engine("wave"), use_workers(1):
                launch()
                seconds = median_s(launch, args.repeats)
            base = median_s(numpy_fn, args.repeats)
            good = check()
            ok &= good
            print(f"{name:14s} {arch:8s} {waves:5d} {seconds:9.3f} {base:9.5f} "
                  f"{seconds / base:7.0f}x{'' if good else '  WRONG'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
