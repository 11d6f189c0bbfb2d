"""A tf32 wmma GEMM (m16n16k8, CUDA's precision::tf32): float inputs rounded with
`__float_to_tf32` in the fragments, float accumulation. Only gfx942 has tf32 (xf32) MFMA.

    rocwmma-sample cuda.tf32_gemm [-m 32 -n 32 -k 32]
"""

from __future__ import annotations

if not __package__:  # run as a file, `python samples/X.py`: run as its module instead
    __import__("_script").run_as_module(__file__)

import numpy as np

from rocwmma_py.cuda import __global__, blockIdx, wmma

from .common import REFUSED, parse_args, report

FragA = wmma.fragment[wmma.matrix_a, 16, 16, 8, wmma.precision.tf32, wmma.row_major]
FragB = wmma.fragment[wmma.matrix_b, 16, 16, 8, wmma.precision.tf32, wmma.col_major]
FragAcc = wmma.fragment[wmma.accumulator, 16, 16, 8, float]


@__global__
def tf32_gemm(a, b, c, M, N, K):  # noqa: N803 - one warp per 16x16 tile of C
    row, col = blockIdx.x * 16, blockIdx.y * 16
    a_frag, b_frag, acc = FragA(), FragB(), FragAcc()
    wmma.fill_fragment(acc, 0.0)
    for k0 in range(0, K, 8):
        wmma.load_matrix_sync(a_frag, a + row * K + k0, K)
        wmma.load_matrix_sync(b_frag, b + col * K + k0, K)
        for t in range(a_frag.num_elements):
            a_frag.x[t] = wmma.__float_to_tf32(a_frag.x[t])
        for t in range(b_frag.num_elements):
            b_frag.x[t] = wmma.__float_to_tf32(b_frag.x[t])
        wmma.mma_sync(acc, a_frag, b_frag, acc)
    wmma.store_matrix_sync(c + row * N + col, acc, N, wmma.mem_row_major)


def run(arch: str, m: int, n: int, k: int, seed: int = 2):
    """Inputs with 9-bit significands (exact in tf32): every sum fits f32 exactly."""
    rng = np.random.default_rng(seed)
    a = (rng.integers(-511, 512, (m, k)) * 2.0**-8).astype(np.float32)
    b = (rng.integers(-511, 512, (k, n)) * 2.0**-8).astype(np.float32)
    c = np.zeros((m, n), np.float32)
    tf32_gemm[(m // 16, n // 16), 64, 0, arch](a, np.ascontiguousarray(b.T), c, m, n, k)
    ref = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)
    return c, ref


def main(argv=None) -> int:
    args = parse_args(argv, __doc__, wmma.precision.tf32, "gfx942", (32, 32, 32),
                      tile=(16, 16, 8))
    if args == REFUSED:
        return REFUSED
    got, ref = run(args.arch, args.m, args.n, args.k, args.seed)
    return report("tf32_gemm", args.arch, got, ref)


if __name__ == "__main__":
    raise SystemExit(main())
