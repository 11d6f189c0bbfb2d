"""Wave-tile GEMM on emulated gfx942 matrix cores vs numpy.matmul (one BLAS thread).

Each wave computes one 64x64 tile of D = A * B (f16 inputs, f32 accumulate) with rocWMMA
fragments: A 64x16 row_major, B 16x64 col_major, a 64x64 f32 accumulator; K in steps of
16; one wave per block, grid (M/64, N/64). Inputs are small integers, so D is exact and is
checked against numpy's float64 product; a wrong result exits with status 1. Timings are
reported, never asserted.

    python benchmarks/bench_gemm.py [SIZE ...]      # default sizes: 256 512
"""

from __future__ import annotations

import os

# One BLAS thread for the numpy baseline: must be set before numpy is first imported.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import sys  # noqa: E402
import time  # noqa: E402
from contextlib import nullcontext  # noqa: E402

import numpy as np  # noqa: E402

from rocwmma_py import (  # noqa: E402
    accumulator,
    blockIdx,
    col_major,
    fill_fragment,
    float16,
    float32,
    fragment,
    kernel,
    load_matrix_sync,
    matrix_a,
    matrix_b,
    mem_row_major,
    mma_sync,
    row_major,
    store_matrix_sync,
)

ARCH = "gfx942"
TILE_M = TILE_N = 64
TILE_K = 16
REPEATS = 3

FragA = fragment[matrix_a, TILE_M, TILE_N, TILE_K, float16, row_major]
FragB = fragment[matrix_b, TILE_M, TILE_N, TILE_K, float16, col_major]
FragAcc = fragment[accumulator, TILE_M, TILE_N, TILE_K, float32]


@kernel
def wave_tile_gemm(m, n, k, a, b, d, lda, ldb, ldd):
    """D (row_major f32) = A (row_major f16) * B (col_major f16); one 64x64 tile per wave."""
    row, col = blockIdx.x * TILE_M, blockIdx.y * TILE_N
    if row + TILE_M > m or col + TILE_N > n:
        return
    acc = FragAcc()
    fill_fragment(acc, 0.0)
    frag_a, frag_b = FragA(), FragB()
    for kk in range(0, k, TILE_K):
        load_matrix_sync(frag_a, a + row * lda + kk, lda)  # row_major: (row, kk)
        load_matrix_sync(frag_b, b + col * ldb + kk, ldb)  # col_major: (kk, col)
        mma_sync(acc, frag_a, frag_b, acc)
    store_matrix_sync(d + row * ldd + col, acc, ldd, mem_row_major)


def blas_limit():
    """threadpoolctl's one-thread limit when it is installed (never a dependency)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return nullcontext()
    return threadpool_limits(limits=1)


def best_of(fn, repeats: int = REPEATS) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def inputs(size: int):
    """Small-integer A, B in {-2..2} (exact in f16, all sums exact in f32)."""
    rng = np.random.default_rng(size)
    a = rng.integers(-2, 3, (size, size)).astype(np.float16)
    b = rng.integers(-2, 3, (size, size)).astype(np.float16)
    return a, b


def run_size(size: int) -> tuple[float, float, bool, str]:
    m = n = k = size
    a, b = inputs(size)
    a_mem = np.ascontiguousarray(a).ravel()  # row_major, lda = k
    b_mem = np.ascontiguousarray(b.T).ravel()  # col_major, ldb = k
    d = np.full(m * n, np.nan, dtype=np.float32)
    launch = wave_tile_gemm[(m // TILE_M, n // TILE_N), 64, 0, ARCH]

    t_emu = best_of(lambda: launch(m, n, k, a_mem, b_mem, d, k, k, n))

    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    with blas_limit():
        t_np = best_of(lambda: np.matmul(a32, b32))
        ref32 = np.matmul(a32, b32)

    exact = np.einsum("mk,kn->mn", a.astype(np.float64), b.astype(np.float64))
    got = d.reshape(m, n)
    ok = bool(np.array_equal(got.astype(np.float64), exact))
    note = "exact" if ok else f"WRONG: {int(np.sum(got != exact))} of {m * n} elements differ"
    if ok and not np.array_equal(ref32, exact):
        note += " (numpy f32 differs from exact!)"
    return t_emu, t_np, ok, note


def main(argv: list[str]) -> int:
    sizes = [int(s) for s in argv] or [256, 512]
    for s in sizes:
        if s % TILE_M or s % TILE_K:
            print(f"size {s} must be a multiple of {TILE_M}", file=sys.stderr)
            return 2
    print(f"wave-tile GEMM {TILE_M}x{TILE_N}x{TILE_K} f16 -> f32 on emulated {ARCH}, "
          f"vs numpy.matmul float32 (1 BLAS thread), best of {REPEATS}")
    print(f"{'size':>6} {'emulated s':>11} {'numpy s':>10} {'ratio':>9}  check")
    all_ok = True
    for s in sizes:
        t_emu, t_np, ok, note = run_size(s)
        all_ok &= ok
        print(f"{s:>6} {t_emu:>11.4f} {t_np:>10.6f} {t_emu / t_np:>9.0f}  {note}")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
