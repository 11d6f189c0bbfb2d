"""The workers' rule, row by row: a launch on the default worker count is never more than 5 %
slower (wall) than on one process, and long GEMMs keep their speed-up.

Rows (gfx942):
- softmax: samples/cuda/softmax.py, llama.cpp's soft_max_f32 shape, one 32-thread block per
  row (ROWS x COLS float32; the issue measured 32 heads x 512 rows x 4096 columns);
- map_util: rocWMMA's test/unit/map_util_test MapMatrixToData (ROCm/rocWMMA fa7e8ee,
  device/map_matrix_to_data.hpp): each wave finds its 16x16 block through MappingUtil's
  matrixCoord and copies it element by element (every lane of the wave on one element);
- write-heavy: element-wise, each thread writes four outputs;
- histogram LDS: NVIDIA histogram256's shape, a 256-bin histogram per block in LDS by LDS
  atomics, each block's partial bins stored to global memory;
- histogram global: the same, the block's bins then added by global atomics to its own row;
- wave tile, perf_hgemm: bench_workers.py's GEMMs.
Each row: REPEATS runs on 1 worker and on N (default: the machine's count), interleaved,
medians; wall and CPU (this process and its workers); every run's output equal to the first
run's bit for bit (else "DIFFERS" and exit status 1). rule: N-worker wall <= 1.05 x 1-worker
wall (met / missed; a wall time on a machine other processes share is noisy: see the load).

    python benchmarks/bench_worker_rule.py [--quick [--spread]] [--workers N] [--rows softmax,...]
                                           [--size softmax=16384x4096 ...]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections.abc import Callable

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_workers import perf_hgemm, timed, wave_tile  # noqa: E402

from rocwmma_py import (  # noqa: E402
    MappingUtil,
    atomicAdd,
    blockDim,
    blockIdx,
    float32,
    kernel,
    row_major,
    shared_array,
    synchronize_workgroup,
    threadIdx,
)
from rocwmma_py.runtime import last_launch_stats, workers  # noqa: E402
from rocwmma_py.settings import default_workers  # noqa: E402
from samples.cuda.softmax import soft_max  # noqa: E402

ARCH = "gfx942"
REPEATS = 3
RULE = 1.05  # N-worker wall at most this x the 1-worker wall
BINS = 256
BLOCK = 16  # map_util: the MappingUtil block, BLOCK x BLOCK elements per wave
Launch = Callable[[], np.ndarray]


def softmax(size: tuple[int, int], rng: np.random.Generator) -> Launch:
    rows, cols = size
    x = rng.standard_normal((rows, cols)).astype(np.float32)
    dst = np.zeros_like(x)

    def launch() -> np.ndarray:
        dst.fill(np.nan)
        soft_max[rows, 32, 0, ARCH](x, dst, cols, np.float32(1.0))
        return dst

    return launch


@kernel
def map_matrix_to_data(src, dst, ld):
    """rocWMMA map_util_test's MapMatrixToData, row major: the wave's block, element by
    element (all lanes of the wave on one element, as in the C++ test)."""
    mapping = MappingUtil[BLOCK, BLOCK, float32, row_major]
    row, col = mapping.matrixCoord()
    for i in range(BLOCK):
        for j in range(BLOCK):
            dst[(row + j) * ld + col + i] = src[(row + j) * ld + col + i]


def map_util(size: tuple[int, int], rng: np.random.Generator) -> Launch:
    m, n = size  # a grid of (m / (2 * BLOCK), n / (2 * BLOCK)) blocks of 2 x 2 waves
    src = rng.standard_normal((m, n)).astype(np.float32)
    dst = np.zeros_like(src)

    def launch() -> np.ndarray:
        dst.fill(np.nan)
        map_matrix_to_data[(m // (2 * BLOCK), n // (2 * BLOCK)), (128, 2), 0, ARCH](src, dst, n)
        return dst

    return launch


@kernel
def four_outputs(x, out, n):
    """Element-wise: each thread writes four outputs of its element."""
    i = blockIdx.x * blockDim.x + threadIdx.x
    v = x[i]
    out[i] = v + np.float32(1)
    out[n + i] = v * v
    out[2 * n + i] = v - np.float32(1)
    out[3 * n + i] = v * np.float32(0.5)


def write_heavy(size: tuple[int, int], rng: np.random.Generator) -> Launch:
    blocks, width = size
    n = blocks * width
    x = rng.standard_normal(n).astype(np.float32)
    out = np.zeros(4 * n, np.float32)

    def launch() -> np.ndarray:
        out.fill(np.nan)
        four_outputs[blocks, width, 0, ARCH](x, out, n)
        return out

    return launch


def _block_histogram(data, per_block):
    """The block's histogram of its `per_block` values in LDS (LDS atomics)."""
    bins = shared_array(np.uint32, BINS)
    t = threadIdx.x
    bins[t] = 0  # blockDim.x == BINS
    synchronize_workgroup()
    base = blockIdx.x * per_block
    for k in range(0, per_block, blockDim.x):
        atomicAdd(bins + (data[base + k + t] & (BINS - 1)), 1)
    synchronize_workgroup()
    return bins, t


@kernel
def histogram_lds(data, partial, per_block):
    bins, t = _block_histogram(data, per_block)
    partial[blockIdx.x * BINS + t] = bins[t]


@kernel
def histogram_global(data, totals, per_block):
    bins, t = _block_histogram(data, per_block)
    atomicAdd(totals + blockIdx.x * BINS + t, bins[t])


def histogram(kernel_fn) -> Callable[[tuple[int, int], np.random.Generator], Launch]:
    def make(size: tuple[int, int], rng: np.random.Generator) -> Launch:
        blocks, per_block = size
        data = rng.integers(0, 1 << 30, blocks * per_block).astype(np.uint32)
        out = np.zeros(blocks * BINS, np.uint32)

        def launch() -> np.ndarray:
            out.fill(3)
            kernel_fn[blocks, BINS, 0, ARCH](data, out, per_block)
            return out

        return launch

    return make


def gemm(make) -> Callable[[tuple[int, int], np.random.Generator], Launch]:
    return lambda size, rng: make(size[0], rng)


# name -> (factory, full size, quick size)
ROWS: dict[str, tuple[Callable, tuple[int, int], tuple[int, int]]] = {
    "softmax": (softmax, (4096, 2048), (64, 256)),  # rows x columns
    "map_util": (map_util, (1024, 1024), (128, 128)),  # m x n
    "write-heavy": (write_heavy, (16384, 256), (64, 256)),  # blocks x threads
    "histogram LDS": (histogram(histogram_lds), (512, 4096), (32, 1024)),  # blocks x values
    "histogram global": (histogram(histogram_global), (512, 4096), (32, 1024)),
    "wave tile": (gemm(wave_tile), (1024, 0), (128, 0)),  # n (n x n x n)
    "perf_hgemm": (gemm(perf_hgemm), (1024, 0), (256, 0)),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: outputs checked")
    parser.add_argument("--spread", action="store_true",
                        help="spread every launch (the rule's thresholds off): checks the "
                        "workers' outputs, for tests with --quick")
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--rows", default=",".join(ROWS), help="comma-separated row names")
    parser.add_argument("--size", action="append", default=[], metavar="ROW=AxB",
                        help="a row's size, e.g. softmax=16384x4096 (the issue's size)")
    args = parser.parse_args(argv)
    sizes = {}
    for given in args.size:
        name, _, size = given.partition("=")
        try:
            sizes[name] = tuple(int(v) for v in size.split("x"))
        except ValueError:
            parser.error(f"--size {given!r}: give ROW=AxB with integers, e.g. softmax=64x256")
    if args.spread:
        workers.MIN_PARALLEL_S, workers.MIN_BLOCKS, workers.PAYOFF = 0.0, 2, float("inf")
    names = args.rows.split(",")
    unknown = [n for n in [*names, *sizes] if n not in ROWS]
    if unknown:
        parser.error(f"unknown rows {unknown}; rows: {', '.join(ROWS)}")
    print(f"load average at the start {os.getloadavg()[0]:.1f}; 1 vs {args.workers} workers "
          f"on {default_workers()} cores")
    print(f"{'workload':<17} {'size':>10} {'wall 1':>7} {'wall N':>7} {'N/1':>5} "
          f"{'cpu 1':>7} {'cpu N':>7} {'used':>4} {'rule':>6}  output; why N ran serially")
    status = 0
    for name in names:
        make, full, quick = ROWS[name]
        size = sizes.get(name, quick if args.quick else full)
        launch = make(size, np.random.default_rng(0))
        runs: dict[int, list] = {1: [], args.workers: []}
        reference, same, why = None, True, set()
        for _ in range(REPEATS):
            for count in runs:
                wall, cpu, out, used = timed(launch, count)
                runs[count].append((wall, cpu, used))
                why.update(f"blocks {f.block}..: {f.cause}" for f in last_launch_stats().fallbacks
                           if count > 1 and f.kind == "serial")
                if reference is None:
                    reference = out
                same = same and out.tobytes() == reference.tobytes()
        wall1, cpu1 = (statistics.median(r[i] for r in runs[1]) for i in (0, 1))
        wall_n, cpu_n = (statistics.median(r[i] for r in runs[args.workers]) for i in (0, 1))
        used = max(r[2] for r in runs[args.workers])
        rule = "met" if wall_n <= RULE * wall1 else "missed"
        status |= not same
        shown = "x".join(str(s) for s in size if s)
        print(f"{name:<17} {shown:>10} {wall1:>7.2f} {wall_n:>7.2f} {wall_n / wall1:>5.2f} "
              f"{cpu1:>7.2f} {cpu_n:>7.2f} {used:>4} {rule:>6}  "
              f"{'identical' if same else 'DIFFERS'}" + "".join(f"; serial {w}" for w in why))
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
