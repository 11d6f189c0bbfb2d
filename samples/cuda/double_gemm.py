"""A double-precision wmma GEMM (m8n8k4): on gfx90a/gfx942/gfx950 each 8x8 tile runs as a
padded 16x16x4 f64 MFMA; gfx11/gfx12 have no f64 matrix instruction.

    rocwmma-sample cuda.double_gemm [--arch gfx90a] [-m 32 -n 32 -k 32]
"""

from __future__ import annotations

if not __package__:  # run as a file, `python samples/X.py`: run as its module instead
    __import__("_script").run_as_module(__file__)

import numpy as np

from rocwmma_py.cuda import __global__, blockIdx, wmma

from .common import REFUSED, parse_args, report, small_ints

FragA = wmma.fragment[wmma.matrix_a, 8, 8, 4, wmma.double, wmma.row_major]
FragB = wmma.fragment[wmma.matrix_b, 8, 8, 4, wmma.double, wmma.row_major]
FragAcc = wmma.fragment[wmma.accumulator, 8, 8, 4, wmma.double]


@__global__
def dgemm(a, b, c, M, N, K):  # noqa: N803 - one warp per 8x8 tile; C += A*B
    row, col = blockIdx.x * 8, blockIdx.y * 8
    a_frag, b_frag, acc = FragA(), FragB(), FragAcc()
    wmma.load_matrix_sync(acc, c + row * N + col, N, wmma.mem_row_major)
    for k0 in range(0, K, 4):
        wmma.load_matrix_sync(a_frag, a + row * K + k0, K)
        wmma.load_matrix_sync(b_frag, b + k0 * N + col, N)
        wmma.mma_sync(acc, a_frag, b_frag, acc)
    wmma.store_matrix_sync(c + row * N + col, acc, N, wmma.mem_row_major)


def run(arch: str, m: int, n: int, k: int, seed: int = 3):
    rng = np.random.default_rng(seed)
    a, b, c = (small_ints(rng, s, np.float64) for s in ((m, k), (k, n), (m, n)))
    ref = a @ b + c
    dgemm[(m // 8, n // 8), 64, 0, arch](a, b, c, m, n, k)
    return c, ref


def main(argv=None) -> int:
    args = parse_args(argv, __doc__, wmma.double, "gfx942", (32, 32, 32), tile=(8, 8, 4))
    if args == REFUSED:
        return REFUSED
    got, ref = run(args.arch, args.m, args.n, args.k, args.seed)
    return report("double_gemm", args.arch, got, ref)


if __name__ == "__main__":
    raise SystemExit(main())
