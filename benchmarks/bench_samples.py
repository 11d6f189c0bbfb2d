"""simple_hgemm and perf_hgemm (the sample kernels) on emulated gfx942 and gfx1100 vs
numpy.matmul in float32 on one BLAS thread, timed in the same run.

Inputs are the samples' fillRand data; every result is validated with rocWMMA's
compareEqual against the exact reference and a failure exits with status 1. Timings are
reported (best of REPEATS launches), never asserted.

    python benchmarks/bench_samples.py [SIZE ...]      # default sizes: 256 512
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

# isort: off
from bench_gemm import best_of, blas_limit  # noqa: E402 - sets one BLAS thread before numpy
import numpy as np  # noqa: E402
# isort: on

from rocwmma_py import float16_t, float32_t, get_arch  # noqa: E402
from samples import common, perf_gemm_common, perf_hgemm, simple_gemm_common  # noqa: E402

ARCHES = ("gfx942", "gfx1100")
TYPES = (float16_t, float16_t, float32_t)


def simple_launch(arch: str, size: int, a, b, c, d):
    wave = get_arch(arch).wave_size
    gemm = simple_gemm_common.make_gemm_kernel(*TYPES)
    waves_x, waves_y = simple_gemm_common.T_BLOCK_X_WAVES, simple_gemm_common.T_BLOCK_Y
    grid = (size // (16 * waves_x), size // (16 * waves_y))
    b_cm = common.to_memory(b, col_major=True)
    return lambda: gemm[grid, (waves_x * wave, waves_y), 0, arch](
        size, size, size, a, b_cm, c, d, size, size, size, size, 2.1, 2.1)


def perf_launch(arch: str, size: int, a, b, c, d):
    p = perf_hgemm.params(arch)
    gemm = perf_gemm_common.make_gemm_kernel(p, *TYPES)
    macro_m, macro_n = p.macro_tile
    lds = 2 * 2 * (macro_m + macro_n) * p.ROCWMMA_K
    a_cm = common.to_memory(a, col_major=True)  # A col_major, B and C row_major
    return lambda: gemm[(size // macro_m, size // macro_n), (p.TBLOCK_X, p.TBLOCK_Y), lds, arch](
        size, size, size, a_cm, b, c, d, size, size, size, size, 2, 2)


def main(argv: list[str]) -> int:
    sizes = [int(s) for s in argv] or [256, 512]
    rows, ok = [], True
    for size in sizes:
        rng = np.random.default_rng(size)
        a, b, c = (common.fill_rand(rng, size, size, np.float16) for _ in range(3))
        a32, b32 = a.astype(np.float32), b.astype(np.float32)
        with blas_limit():
            numpy_s = best_of(lambda a32=a32, b32=b32: a32 @ b32)
        for sample, launch, alpha in (("simple_hgemm", simple_launch, np.float32(2.1)),
                                      ("perf_hgemm", perf_launch, np.float32(2))):
            ref = common.gemm_reference(a, b, c, alpha, alpha, np.float16)
            for arch in ARCHES:
                d = np.full((size, size), np.nan, np.float16)
                seconds = best_of(launch(arch, size, a, b, c, d), repeats=2)
                passed, _ = common.compare_equal(d, ref, np.float16)
                ok &= passed
                rows.append((sample, arch, size, seconds, numpy_s, passed))
    print(f"{'sample':<14}{'arch':<9}{'size':>6}{'emulated s':>12}{'numpy f32 s':>13}"
          f"{'ratio':>9}  valid")
    for sample, arch, size, seconds, numpy_s, passed in rows:
        print(f"{sample:<14}{arch:<9}{size:>6}{seconds:>12.3f}{numpy_s:>13.5f}"
              f"{seconds / numpy_s:>9.0f}x  {'PASSED' if passed else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
