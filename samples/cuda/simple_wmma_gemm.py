"""CUDA's classic simple_wmma_gemm: one warp per 16x16 tile of C = alpha * A*B + beta * C,
half inputs (column-major), float accumulation.

    rocwmma-sample cuda.simple_wmma_gemm [--arch gfx1100] [-m 64 -n 64 -k 64]

The kernel body is the CUDA one with `wmma::` -> `wmma.`; only the launch line changes
(`k<<<grid, block>>>(...)` -> `k[grid, block, 0, arch](...)`), and the host sizes the grid
with the target's warpSize (64 on gfx9) where the CUDA sample wrote 32.
"""

from __future__ import annotations

if not __package__:  # run as a file, `python samples/X.py`: run as its module instead
    __import__("_script").run_as_module(__file__)

import numpy as np

from rocwmma_py import get_arch
from rocwmma_py.cuda import __global__, blockDim, blockIdx, threadIdx, warpSize, wmma

from .common import REFUSED, parse_args, report, small_ints

WMMA_M = WMMA_N = WMMA_K = 16
FragA = wmma.fragment[wmma.matrix_a, WMMA_M, WMMA_N, WMMA_K, wmma.half, wmma.col_major]
FragB = wmma.fragment[wmma.matrix_b, WMMA_M, WMMA_N, WMMA_K, wmma.half, wmma.col_major]
FragAcc = wmma.fragment[wmma.accumulator, WMMA_M, WMMA_N, WMMA_K, float]


@__global__
def wmma_example(a, b, c, M, N, K, alpha, beta):  # noqa: N803 - the CUDA sample's names
    lda, ldb, ldc = M, K, M
    warpM = (blockIdx.x * blockDim.x + threadIdx.x) // warpSize  # noqa: N806
    warpN = blockIdx.y * blockDim.y + threadIdx.y  # noqa: N806
    a_frag, b_frag = FragA(), FragB()
    acc_frag, c_frag = FragAcc(), FragAcc()
    wmma.fill_fragment(acc_frag, 0.0)
    for i in range(0, K, WMMA_K):
        aRow, aCol = warpM * WMMA_M, i  # noqa: N806
        bRow, bCol = i, warpN * WMMA_N  # noqa: N806
        if aRow < M and aCol < K and bRow < K and bCol < N:
            wmma.load_matrix_sync(a_frag, a + aRow + aCol * lda, lda)
            wmma.load_matrix_sync(b_frag, b + bRow + bCol * ldb, ldb)
            wmma.mma_sync(acc_frag, a_frag, b_frag, acc_frag)
    cRow, cCol = warpM * WMMA_M, warpN * WMMA_N  # noqa: N806
    if cRow < M and cCol < N:
        wmma.load_matrix_sync(c_frag, c + cRow + cCol * ldc, ldc, wmma.mem_col_major)
        for i in range(c_frag.num_elements):
            c_frag.x[i] = alpha * acc_frag.x[i] + beta * c_frag.x[i]
        wmma.store_matrix_sync(c + cRow + cCol * ldc, c_frag, ldc, wmma.mem_col_major)


def run(arch: str, m: int, n: int, k: int, seed: int = 0):
    """(result, numpy reference) for column-major random small-integer A, B, C."""
    rng = np.random.default_rng(seed)
    a, b = small_ints(rng, (m, k), np.float16), small_ints(rng, (k, n), np.float16)
    c = small_ints(rng, (m, n), np.float32)
    alpha, beta = np.float32(2.0), np.float32(2.0)
    ref = alpha * (a.astype(np.float64) @ b.astype(np.float64)) + beta * c
    c_dev = np.asfortranarray(c).ravel(order="K").copy()  # column-major C, updated in place
    warp = get_arch(arch).wave_size
    block = (128, 4)
    grid = (-(-m // (WMMA_M * block[0] // warp)), -(-n // (WMMA_N * block[1])))
    wmma_example[grid, block, 0, arch](np.asfortranarray(a).ravel(order="K").copy(),
                                       np.asfortranarray(b).ravel(order="K").copy(),
                                       c_dev, m, n, k, alpha, beta)
    return c_dev.reshape(n, m).T, ref


def main(argv=None) -> int:
    args = parse_args(argv, __doc__, wmma.half, "gfx942", (64, 64, 64))
    if args == REFUSED:
        return REFUSED
    got, ref = run(args.arch, args.m, args.n, args.k, args.seed)
    return report("simple_wmma_gemm", args.arch, got, ref)


if __name__ == "__main__":
    raise SystemExit(main())
