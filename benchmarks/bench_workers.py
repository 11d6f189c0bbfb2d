"""One launch on 1 and N worker processes: wall time, CPU time and speed-up, same run.

- wave tile: bench_gemm's kernel (one 64x64 f16 -> f32 tile per wave, one wave per block);
- perf_hgemm: rocWMMA's perf sample kernel (gfx942: 128x128 macro tiles, 4 waves per block,
  cooperative loads through double-buffered LDS), f16 in/out, f32 accumulation, alpha = beta = 1.
Random normal data. Each row: median of REPEATS runs per worker count, 1 and N interleaved so
a busy moment of the machine hits both; the outputs of every run must equal the first
run's bit for bit (else exit status 1). "cpu" sums this process and its workers; the idle
estimate divides the serial CPU time by the N-worker CPU time per worker, what the speed-up
would be on N otherwise idle cores.

    python benchmarks/bench_workers.py [SIZE ...] [--workers N]   # default 2048, N = cores
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_gemm import wave_tile_gemm  # noqa: E402

from rocwmma_py import use_workers  # noqa: E402
from rocwmma_py.runtime import last_launch_stats  # noqa: E402
from rocwmma_py.settings import default_workers  # noqa: E402
from samples.perf_gemm_common import make_gemm_kernel  # noqa: E402
from samples.perf_hgemm import GFX9_PARAMS, TYPES  # noqa: E402

ARCH = "gfx942"
REPEATS = 3


def wave_tile(n: int, rng: np.random.Generator):
    a = rng.standard_normal((n, n)).astype(np.float16)
    bt = rng.standard_normal((n, n)).astype(np.float16)  # B col_major = B^T row-major
    d = np.zeros((n, n), np.float32)

    def launch() -> np.ndarray:
        d.fill(np.nan)
        wave_tile_gemm[(n // 64, n // 64), 64, 0, ARCH](n, n, n, a, bt, d, n, n, n)
        return d

    return launch


def perf_hgemm(n: int, rng: np.random.Generator):
    p = GFX9_PARAMS
    macro_m, macro_n = p.macro_tile
    a = np.asfortranarray(rng.standard_normal((n, n)).astype(np.float16)).reshape(-1, order="A")
    b = rng.standard_normal((n, n)).astype(np.float16)  # row_major
    c = rng.standard_normal((n, n)).astype(np.float16)
    d = np.zeros((n, n), np.float16)
    lds = 2 * 2 * (macro_m + macro_n) * p.ROCWMMA_K
    gemm = make_gemm_kernel(p, *TYPES)

    def launch() -> np.ndarray:
        d.fill(np.nan)
        gemm[(n // macro_m, n // macro_n), (p.TBLOCK_X, p.TBLOCK_Y), lds, ARCH](
            n, n, n, a, b, c, d, n, n, n, n, 1.0, 1.0)
        return d

    return launch


def timed(launch, workers: int) -> tuple[float, float, np.ndarray, int]:
    """(wall s, CPU s of this process and its workers, output copy, workers used)."""
    before, start = os.times(), time.perf_counter()
    with use_workers(workers):
        out = launch()
    wall, after = time.perf_counter() - start, os.times()
    cpu = sum(after[:4]) - sum(before[:4])
    return wall, cpu, out.copy(), last_launch_stats().workers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[2048])
    parser.add_argument("--workers", type=int, default=default_workers())
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    print(f"{args.workers} workers on {default_workers()} cores; load average {load:.1f} "
          "(other processes share the cores: wall-time ratios understate the idle speed-up)")
    print(f"{'workload':<12} {'size':>5} {'1 worker s':>11} {'N workers s':>12} "
          f"{'speed-up':>9} {'cpu 1 s':>8} {'cpu N s':>8} {'idle est.':>10}")
    status = 0
    for n in args.sizes:
        for name, make in (("wave tile", wave_tile), ("perf_hgemm", perf_hgemm)):
            launch = make(n, np.random.default_rng(0))
            runs: dict[int, list] = {1: [], args.workers: []}
            reference = None
            for _ in range(REPEATS):
                for count in runs:
                    wall, cpu, out, used = timed(launch, count)
                    runs[count].append((wall, cpu, used))
                    if reference is None:
                        reference = out
                    elif out.tobytes() != reference.tobytes():
                        print(f"{name} {n}: output with {count} workers differs", file=sys.stderr)
                        status = 1
            serial = [statistics.median(r[i] for r in runs[1]) for i in (0, 1)]
            spread = [statistics.median(r[i] for r in runs[args.workers]) for i in (0, 1)]
            used = max(r[2] for r in runs[args.workers])
            idle = serial[1] / (spread[1] / used)
            print(f"{name:<12} {n:>5} {serial[0]:>11.2f} {spread[0]:>12.2f} "
                  f"{serial[0] / spread[0]:>8.2f}x {serial[1]:>8.2f} {spread[1]:>8.2f} "
                  f"{idle:>9.2f}x" + ("" if used == args.workers else f" ({used} used)"))
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
