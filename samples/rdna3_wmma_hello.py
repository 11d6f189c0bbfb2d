"""RDNA3 WMMA hello world: C = A*B + C, 16x16x16 f16 in one wave32.

Port of the GPUOpen blog "How to accelerate AI applications on RDNA 3 using WMMA": the
kernel loads a row of A and a column of B into each lane (replicated in lanes 16-31), calls
__builtin_amdgcn_wmma_f16_16x16x16_f16_w32 and stores the unpacked 16-bit results, once with
OPSEL false (low halves) and once with OPSEL true (high halves).

    rocwmma-sample rdna3_wmma_hello [--arch gfx1100] [--print]
"""

from __future__ import annotations

if not __package__:  # run as a file, `python samples/X.py`: run as its module instead
    __import__("_script").run_as_module(__file__)

from collections.abc import Sequence

import numpy as np

from rocwmma_py import amdgcn, float16, kernel, threadIdx, use_arch
from rocwmma_py.runtime import half16  # _Float16 __attribute__((ext_vector_type(16)))

from .common import parse_args, print_matrix, validate

BUILTIN = "wmma_f16_16x16x16_f16_w32"


@kernel
def wmma_matmul(a, b, c, opsel):
    lIdx = threadIdx.x

    # a and b fragments are stored in 8 VGPRs each, in packed format, so 16 elements each
    # a_frag will store one row of the 16x16 matrix A tile (lane i: A[i][0..15])
    # b_frag will store one column of the 16x16 matrix B tile (lane j: B[0..15][j])
    a_frag = half16()
    b_frag = half16()
    # initialize c fragment to 0
    c_frag = half16()

    # lane is (0-31) mod 16 instead of 0-31 due to matrix replication in RDNA 3
    lane = lIdx % 16

    for ele in range(16):
        b_frag[ele] = b[16 * ele + lane]

    for ele in range(16):
        a_frag[ele] = a[16 * lane + ele]

    # call the WMMA intrinsic with OPSEL set to "false" (or "true")
    c_frag = amdgcn.wmma_f16_16x16x16_f16_w32(a_frag, b_frag, c_frag, opsel)

    for ele in range(8):
        r = ele * 2 + (lIdx // 16)
        # store results from unpacked c_frag output
        if not opsel:
            c[16 * r + lane] = c_frag[ele * 2]
        else:
            # OPSEL "true": the 16-bit results sit in the upper half of each VGPR
            c[16 * r + lane] = c_frag[ele * 2 + 1]


def run(a: np.ndarray, b: np.ndarray, opsel: bool, arch: str = "gfx1100") -> np.ndarray:
    """Host side: 'upload' A and B (16x16 f16, row-major), launch one wave32, return C."""
    a_gpu = np.ascontiguousarray(a, dtype=float16).reshape(-1)
    b_gpu = np.ascontiguousarray(b, dtype=float16).reshape(-1)
    c_gpu = np.zeros(16 * 16, dtype=float16)
    with use_arch(arch):
        wmma_matmul[1, 32](a_gpu, b_gpu, c_gpu, opsel)
    return c_gpu.reshape(16, 16)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv, __doc__, "gfx1100", [BUILTIN], seed=2023)
    print(f"RDNA3 WMMA hello world: __builtin_amdgcn_{BUILTIN}, C = A*B on {args.arch}")
    # small random integers: every product and sum is exact in f16 (|C| <= 16*4*4 = 256)
    rng = np.random.default_rng(args.seed)
    a = rng.integers(-4, 5, size=(16, 16)).astype(float16)
    b = rng.integers(-4, 5, size=(16, 16)).astype(float16)
    ref = a.astype(np.float64) @ b.astype(np.float64)  # + C, which is zero

    ok = True
    for opsel in (False, True):
        c = run(a, b, opsel, args.arch)
        if args.show:
            print_matrix(c)
        ok &= validate(f"wmma_f16_16x16x16_f16_w32 (OPSEL {str(opsel).lower()})", c, ref)
    print("PASSED" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
