"""Emulated gfx942 GEMMs and launches vs numpy.matmul (float32, one BLAS thread), same run.

- wave tile: each wave computes one 64x64 tile of D = A * B (f16 inputs, f32 accumulate) with
  rocWMMA fragments (A 64x16 row_major, B 16x64 col_major, 64x64 f32 accumulator), K in steps
  of 16, one wave per block. Two data sets: small integers (D exact, checked bit for bit
  against float64) and random normal (checked with rocWMMA's compareEqual bound,
  K * eps(f32) relative to the float64 product).
- simple_hgemm: the rocWMMA sample's kernel (16x16 tile per wave, (4W, 4) blocks) on random
  data, checked against its exact reference.
- empty kernel over 4096 blocks of 256 threads (no numpy counterpart).
A wrong result exits with status 1. Timings are reported, never asserted.

    python benchmarks/bench_gemm.py [SIZE ...]      # default sizes: 256 512 1024 2048
    python benchmarks/bench_gemm.py --numerics exact 512   # the exact model (default: silicon)
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

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

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
    use_numerics,
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


def inputs(size: int, data: str):
    """A, B in f16: small integers in {-2..2} (all sums exact in f32), or standard normal."""
    rng = np.random.default_rng(size)
    if data == "integers":
        draw = lambda: rng.integers(-2, 3, (size, size))  # noqa: E731
    else:
        draw = lambda: rng.standard_normal((size, size))  # noqa: E731
    return draw().astype(np.float16), draw().astype(np.float16)


def repeats_for(size: int) -> int:
    """Best of REPEATS where that is quick; one run for the big sizes."""
    return REPEATS if size <= 1024 else 1


def numpy_time(size: int) -> float:
    a32 = np.random.default_rng(0).standard_normal((size, size)).astype(np.float32)
    with blas_limit():
        return best_of(lambda: np.matmul(a32, a32))


def wave_tile_row(size: int, data: str) -> tuple[float, bool, str]:
    m = n = k = size
    a, b = inputs(size, data)
    a_mem = np.ascontiguousarray(a).ravel()  # row_major, lda = k
    b_mem = np.ascontiguousarray(b.T).ravel()  # col_major, ldb = k
    d = np.full(m * n, np.nan, dtype=np.float32)
    launch = wave_tile_gemm[(m // TILE_M, n // TILE_N), 64, 0, ARCH]
    t_emu = best_of(lambda: launch(m, n, k, a_mem, b_mem, d, k, k, n), repeats_for(size))
    exact = np.einsum("mk,kn->mn", a.astype(np.float64), b.astype(np.float64))
    got = d.reshape(m, n).astype(np.float64)
    if data == "integers":
        ok = bool(np.array_equal(got, exact))
        return t_emu, ok, "exact" if ok else f"WRONG: {int(np.sum(got != exact))} differ"
    scale = np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64))
    err = float(np.max(np.abs(got - exact) / np.maximum(scale, 1e-30)))
    ok = err <= k * float(np.finfo(np.float32).eps)
    return t_emu, ok, f"max err {err:.1e} x |A||B| (bound {k}*eps32)"


def simple_hgemm_row(size: int) -> tuple[float, bool, str]:
    from samples import common
    from samples.simple_gemm_common import T_BLOCK_X_WAVES, T_BLOCK_Y, make_gemm_kernel

    types = (float16, float16, float32)
    gemm = make_gemm_kernel(*types)
    rng = np.random.default_rng(size)
    a, b, c = (common.fill_rand(rng, size, size, float16) for _ in range(3))
    d = np.full((size, size), np.nan, np.float16)
    wave = 64
    grid = (size // (16 * T_BLOCK_X_WAVES), size // (16 * T_BLOCK_Y))
    block = (T_BLOCK_X_WAVES * wave, T_BLOCK_Y)
    launch = gemm[grid, block, 0, ARCH]
    b_mem = common.to_memory(b, col_major=True)
    t_emu = best_of(lambda: launch(size, size, size, a, b_mem, c, d, size, size, size, size,
                                   2.0, 2.0), repeats_for(size))
    ref = common.gemm_reference(a, b, c, np.float32(2.0), np.float32(2.0), float16)
    ok, err = common.compare_equal(d, ref, float16)
    return t_emu, ok, f"compareEqual max rel err {err:.1e}"


@kernel
def empty():
    """No work: measures launch and batching overhead."""


def split_numerics(argv: list[str]) -> tuple[str, list[str]]:
    """`--numerics NAME` (silicon or exact; default silicon) and the remaining arguments."""
    if "--numerics" not in argv:
        return "silicon", argv
    at = argv.index("--numerics")
    return argv[at + 1], argv[:at] + argv[at + 2:]


def main(argv: list[str]) -> int:
    numerics, argv = split_numerics(argv)
    with use_numerics(numerics):
        return run_sizes(argv, numerics)


def run_sizes(argv: list[str], numerics: str) -> int:
    sizes = [int(s) for s in argv] or [256, 512, 1024, 2048]
    for s in sizes:
        if s % TILE_M or s % TILE_K:
            print(f"size {s} must be a multiple of {TILE_M}", file=sys.stderr)
            return 2
    print(f"emulated {ARCH} ({numerics} numerics), f16 -> f32, vs numpy.matmul float32 "
          "(1 BLAS thread)")
    print(f"{'workload':<24} {'size':>5} {'emulated s':>11} {'numpy s':>9} {'ratio':>6}  check")
    all_ok = True
    for s in sizes:
        t_np = numpy_time(s)
        rows = [("wave tile, integers", lambda s=s: wave_tile_row(s, "integers")),
                ("wave tile, normal", lambda s=s: wave_tile_row(s, "normal"))]
        if s <= 1024:
            rows.append(("simple_hgemm (4W, 4)", lambda s=s: simple_hgemm_row(s)))
        for name, row in rows:
            t_emu, ok, note = row()
            all_ok &= ok
            print(f"{name:<24} {s:>5} {t_emu:>11.3f} {t_np:>9.5f} {t_emu / t_np:>6.1f}  "
                  f"{'' if ok else 'FAILED '}{note}", flush=True)
    t_empty = best_of(lambda: empty[4096, 256, 0, ARCH]())
    print(f"{'empty kernel':<24} {'4096 x 256 threads':>17} {t_empty:>11.3f} s")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
