"""A shared-memory tiled wmma GEMM: each block stages a 32x16 slice of A and a 16x32 slice of
B in `__shared__` memory, `__syncthreads()`, and its 2x2 warps each compute one 16x16 tile
of C = A*B (half in, float out, row-major).

    rocwmma-sample cuda.shared_tiled_gemm [--arch gfx1100] [-m 64 -n 64 -k 64]
"""

from __future__ import annotations

if not __package__:  # run as a file, `python samples/X.py`: run as its module instead
    __import__("_script").run_as_module(__file__)

import numpy as np

from rocwmma_py import get_arch
from rocwmma_py.cuda import (
    __global__,
    __shared__,
    __syncthreads,
    blockIdx,
    threadIdx,
    warpSize,
    wmma,
)

from .common import REFUSED, parse_args, report, small_ints

TILE, WARPS_X, WARPS_Y = 16, 2, 2
BM, BN = TILE * WARPS_Y, TILE * WARPS_X  # block tile 32x32
FragA = wmma.fragment[wmma.matrix_a, 16, 16, 16, wmma.half, wmma.row_major]
FragB = wmma.fragment[wmma.matrix_b, 16, 16, 16, wmma.half, wmma.row_major]
FragAcc = wmma.fragment[wmma.accumulator, 16, 16, 16, float]


@__global__
def tiled_gemm(a, b, c, M, N, K):  # noqa: N803
    a_tile = __shared__(np.float16, BM, TILE)  # __shared__ half a_tile[BM][TILE]
    b_tile = __shared__(np.float16, TILE, BN)
    warp = threadIdx.x // warpSize
    warp_row, warp_col = warp // WARPS_X, warp % WARPS_X
    tid = threadIdx.x
    nthreads = WARPS_X * WARPS_Y * warpSize
    a_frag, b_frag, acc = FragA(), FragB(), FragAcc()
    wmma.fill_fragment(acc, 0.0)
    row0, col0 = blockIdx.y * BM, blockIdx.x * BN
    for k0 in range(0, K, TILE):
        for e in range(0, BM * TILE, nthreads):  # cooperative copy, one element per thread
            idx = e + tid
            a_tile[idx // TILE][idx % TILE] = a[(row0 + idx // TILE) * K + k0 + idx % TILE]
            b_tile[idx // BN][idx % BN] = b[(k0 + idx // BN) * N + col0 + idx % BN]
        __syncthreads()
        wmma.load_matrix_sync(a_frag, a_tile + warp_row * TILE * TILE, TILE)
        wmma.load_matrix_sync(b_frag, b_tile + warp_col * TILE, BN)
        wmma.mma_sync(acc, a_frag, b_frag, acc)
        __syncthreads()
    c_row, c_col = row0 + warp_row * TILE, col0 + warp_col * TILE
    wmma.store_matrix_sync(c + c_row * N + c_col, acc, N, wmma.mem_row_major)


def run(arch: str, m: int, n: int, k: int, seed: int = 1):
    rng = np.random.default_rng(seed)
    a, b = small_ints(rng, (m, k), np.float16), small_ints(rng, (k, n), np.float16)
    c = np.full((m, n), np.nan, np.float32)
    warp = get_arch(arch).wave_size
    tiled_gemm[(n // BN, m // BM), WARPS_X * WARPS_Y * warp, 0, arch](a, b, c, m, n, k)
    return c, a.astype(np.float64) @ b.astype(np.float64)


def main(argv=None) -> int:
    args = parse_args(argv, __doc__, wmma.half, "gfx942", (64, 64, 64))
    if args == REFUSED:
        return REFUSED
    if args.m % BM or args.n % BN or args.k % TILE:
        print(f"shared_tiled_gemm: FAILED (sizes must be multiples of {BM}x{BN}x{TILE})")
        return 1
    got, ref = run(args.arch, args.m, args.n, args.k, args.seed)
    return report("shared_tiled_gemm", args.arch, got, ref)


if __name__ == "__main__":
    raise SystemExit(main())
