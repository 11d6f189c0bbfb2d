"""rocWMMA's simple_hgemm sample in Python: D = alpha * A * B + beta * C with f16 inputs,
f32 accumulation and f16 C/D, one 16x16 output block per wave (rocwmma-notes §4.2).

    python -m samples.simple_hgemm [--arch gfx1100] [-m 256 -n 256 -k 256]

The thread block is (2W, 2) — four waves, rocWMMA's maximum — where the C++ sample uses
(4W, 4). Validation uses rocWMMA's compareEqual rule (tolerance 10 x f16 epsilon).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from rocwmma_py import (
    accumulator,
    blockDim,
    blockIdx,
    col_major,
    fill_fragment,
    float16,
    float32,
    fragment,
    get_arch,
    kernel,
    load_matrix_sync,
    matrix_a,
    matrix_b,
    mem_row_major,
    mma_sync,
    row_major,
    store_matrix_sync,
    threadIdx,
    use_arch,
    wave_size,
)

ROCWMMA_M = ROCWMMA_N = ROCWMMA_K = 16
T_BLOCK_X_WAVES, T_BLOCK_Y = 2, 2

FragA = fragment[matrix_a, ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, float16, row_major]
FragB = fragment[matrix_b, ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, float16, col_major]
FragC = fragment[accumulator, ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, float16]
FragAcc = fragment[accumulator, ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, float32]


@kernel
def gemm_wmma_d(m, n, k, a, b, c, d, lda, ldb, ldc, ldd, alpha, beta):
    """One wave computes one 16x16 block of D."""
    frag_a, frag_b = FragA(), FragB()
    frag_c, frag_acc = FragC(), FragAcc()
    fill_fragment(frag_acc, 0.0)

    major_warp = (blockIdx.x * blockDim.x + threadIdx.x) // wave_size()
    minor_warp = blockIdx.y * blockDim.y + threadIdx.y
    c_row = major_warp * ROCWMMA_M
    c_col = minor_warp * ROCWMMA_N

    if c_row < m and c_col < n:
        for i in range(0, k, ROCWMMA_K):
            load_matrix_sync(frag_a, a + (c_row * lda + i), lda)
            load_matrix_sync(frag_b, b + (i + c_col * ldb), ldb)
            mma_sync(frag_acc, frag_a, frag_b, frag_acc)

        load_matrix_sync(frag_c, c + (c_row * ldc + c_col), ldc, mem_row_major)
        frag_c.x[:] = alpha * frag_acc.x + beta * frag_c.x  # f32 math, then RNE to f16
        store_matrix_sync(d + (c_row * ldd + c_col), frag_c, ldd, mem_row_major)


def fill_rand(rng: np.random.Generator, rows: int, cols: int) -> np.ndarray:
    """rocWMMA's fillRand: per row (r + j) % 5 in {0..4}, negated when a multiple of 3."""
    value = (rng.integers(0, 5, size=(rows, 1)) + np.arange(cols)) % 5
    return np.where(value % 3 == 0, -value, value).astype(np.float16)


def compare_equal(got: np.ndarray, ref: np.ndarray, tolerance: float = 10.0):
    """rocWMMA compareEqual: max |a-b| / (|a|+|b|+1) <= eps(f16) * tolerance, no NaN/inf."""
    a, b = got.astype(np.float64), ref.astype(np.float64)
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
        return False, float("inf")
    rel = float(np.max(np.abs(a - b) / (np.abs(a) + np.abs(b) + 1.0)))
    return rel <= float(np.finfo(np.float16).eps) * tolerance, rel


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--arch", default="gfx942")
    p.add_argument("-m", type=int, default=256)
    p.add_argument("-n", type=int, default=256)
    p.add_argument("-k", type=int, default=256)
    args = p.parse_args(argv)
    m, n, k = args.m, args.n, args.k
    wave = get_arch(args.arch).wave_size
    if m % (ROCWMMA_M * T_BLOCK_X_WAVES) or n % (ROCWMMA_N * T_BLOCK_Y) or k % ROCWMMA_K:
        print("Unsupported size!")
        return 1
    alpha, beta = np.float32(2.1), np.float32(2.1)

    print("Initializing host data...")
    rng = np.random.default_rng(0)
    a = fill_rand(rng, m, k)  # row_major, lda = k
    b = np.ascontiguousarray(fill_rand(rng, k, n).T)  # col_major K x N, ldb = k
    c = fill_rand(rng, m, n)  # row_major, ldc = n
    d = np.full((m, n), np.nan, np.float16)

    grid = (m // (ROCWMMA_M * T_BLOCK_X_WAVES), n // (ROCWMMA_N * T_BLOCK_Y))
    block = (T_BLOCK_X_WAVES * wave, T_BLOCK_Y)
    print(f"Launching GEMM kernel on {args.arch} (grid {grid}, block {block})...")
    start = time.perf_counter()
    with use_arch(args.arch):
        gemm_wmma_d[grid, block](m, n, k, a, b, c, d, k, k, n, n, alpha, beta)
    elapsed_ms = (time.perf_counter() - start) * 1e3
    print("BlkM, BlkN, BlkK, MatM, MatN, MatK, alpha, lda, ldb, beta, ldc, ldd, elapsedMs")
    print(f"{ROCWMMA_M}, {ROCWMMA_N}, {ROCWMMA_K}, {m}, {n}, {k}, {alpha:g}, {k}, {k}, {beta:g}, "
          f"{n}, {n}, {elapsed_ms:.1f}")

    print("Validating result with reference...")
    acc = a.astype(np.float32) @ b.T.astype(np.float32)  # small integers: exact in f32
    ref = (alpha * acc + beta * c.astype(np.float32)).astype(np.float16)
    ok, rel = compare_equal(d, ref)
    print("PASSED!" if ok else "FAILED!")
    print(f"Max relative error: {rel}")
    print("Finished!")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
