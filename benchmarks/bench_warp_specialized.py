"""The warp-specialized cudaTensorCoreGemm port (samples/cuda/tensor_core_gemm.py) against
samples/simple_hgemm at the same size, in the same run: random normal f16 A and B, median
of REPEATS launches each on the default (batched) engine. The port's warps 0-3 and 4-7 take
different Python paths, so it runs as wave groups; the table shows how the batched engine
ran it and the ratio to simple_hgemm (target: within 3x). The port's result is checked
against numpy (float64 reference, f32 tolerance); nothing is asserted about time.

    python benchmarks/bench_warp_specialized.py [SIZE] [--arch gfx942]   # default 512
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

# isort: off
from bench_gemm import blas_limit  # noqa: E402 - sets one BLAS thread before numpy
import numpy as np  # noqa: E402
# isort: on

from rocwmma_py import get_arch  # noqa: E402
from rocwmma_py.runtime import last_launch_stats  # noqa: E402
from samples import simple_gemm_common  # noqa: E402
from samples.cuda import tensor_core_gemm  # noqa: E402

REPEATS = 3


def median_seconds(fn) -> float:
    times = []
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("size", nargs="?", type=int, default=512)
    p.add_argument("--arch", default="gfx942")
    args = p.parse_args(argv)
    size, arch = args.size, args.arch
    rng = np.random.default_rng(size)
    a, b = (rng.standard_normal((size, size)).astype(np.float16) for _ in range(2))
    c = rng.standard_normal((size, size)).astype(np.float32)
    d = np.zeros((size, size), np.float32)
    b_cols = np.ascontiguousarray(b.T)

    with blas_limit():
        tc_s = median_seconds(lambda: tensor_core_gemm.launch(arch, a, b_cols, c, d, 1.0, 1.0))
    stats = last_launch_stats()
    ref = a.astype(np.float64) @ b.astype(np.float64) + c
    error = float(np.abs(d - ref).max() / np.abs(ref).max())

    wave = get_arch(arch).wave_size
    gemm = simple_gemm_common.make_gemm_kernel(np.float16, np.float16, np.float32)
    waves_x, waves_y = simple_gemm_common.T_BLOCK_X_WAVES, simple_gemm_common.T_BLOCK_Y
    grid = (size // (16 * waves_x), size // (16 * waves_y))
    a16, c16, d16 = a, c.astype(np.float16), np.zeros((size, size), np.float16)
    with blas_limit():
        simple_s = median_seconds(lambda: gemm[grid, (waves_x * wave, waves_y), 0, arch](
            size, size, size, a16, b_cols, c16, d16, size, size, size, size,
            np.float32(1), np.float32(1)))

    print(f"{'kernel':<20}{'arch':<9}{'size':>6}{'median s':>10}{'ratio':>8}")
    print(f"{'simple_hgemm':<20}{arch:<9}{size:>6}{simple_s:>10.3f}{1:>8.2f}")
    print(f"{'tensor_core_gemm':<20}{arch:<9}{size:>6}{tc_s:>10.3f}{tc_s / simple_s:>8.2f}")
    print(f"tensor_core_gemm: {stats.batched_blocks} blocks batched, {stats.per_wave_blocks} "
          f"per wave, {stats.wave_groups} wave groups; max relative error {error:.1e}")
    return 0 if error < 1e-5 and stats.per_wave_blocks == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
