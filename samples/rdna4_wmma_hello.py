"""RDNA4 WMMA hello world: C = A*B, 16x16x16 f16 in one wave32 on gfx12.

Port of the end-to-end example of the GPUOpen blog "Accelerating Generative AI on AMD Radeon
GPUs": A is row-major and B column-major in memory, each lane loads two runs of 4 K-values
(lanes 16-31 take the K-quarters after lanes 0-15's), one
__builtin_amdgcn_wmma_f16_16x16x16_f16_w32_gfx12, and the packed C holds rows 0-7 in lanes
0-15 and rows 8-15 in lanes 16-31.

    rocwmma-sample rdna4_wmma_hello [--arch gfx1200] [--print]
"""

from __future__ import annotations

if not __package__:  # run as a file, `python samples/X.py`: run as its module instead
    __import__("_script").run_as_module(__file__)

from collections.abc import Sequence

import numpy as np

from rocwmma_py import amdgcn, float16, kernel, lane_id, select, use_arch
from rocwmma_py.runtime import half8  # _Float16 __attribute__((ext_vector_type(8)))

from .common import parse_args, print_matrix, validate

BUILTIN = "wmma_f16_16x16x16_f16_w32_gfx12"


def load_half_rows(frag, ptr):
    """Lane l: row l % 16, K values 4h..4h+3 and 8+4h..8+4h+3 (h = l // 16) of a row-major
    16x16 tile -- A from a row-major, or B from a column-major buffer (seed 003)."""
    for i, j in zip(range(4), range(8, 12), strict=True):
        lowHigh = lane_id() // 16
        rowAddr = lane_id() % 16

        colAddr1 = i + lowHigh * 4
        colAddr2 = j + lowHigh * 4

        frag[i] = ptr[(rowAddr * 16) + colAddr1]
        frag[i + 4] = ptr[(rowAddr * 16) + colAddr2]


def store_packed_c(pC, c_frag):
    """C frag is in the same layout as B matrix in registers, 4 vgprs per thread."""
    outwaveRow = select(lane_id() >= 16, 8, 0)  # use wave lane id intrinsic
    outwaveCol = lane_id() % 16

    for i in range(8):
        rowAddr = outwaveRow + i
        colAddr = outwaveCol

        # store results from packed c_frag output
        pC[rowAddr * 16 + colAddr] = c_frag[i]


# assumes single wave per workgroup (32 threads)
@kernel
def wmma_matmul(pA, pB, pC):
    # a and b fragments are stored in 4 VGPRs each, in packed format, so 8 elements each
    # a_frag will store half of one row of the 16x16 matrix A tile
    # b_frag will store half of one column of the 16x16 matrix B tile
    a_frag = half8()
    b_frag = half8()

    # initialize c fragment to 0
    c_frag = half8()

    load_half_rows(a_frag, pA)  # load A row-major in memory
    load_half_rows(b_frag, pB)  # load B if col-major memory

    # call the WMMA intrinsic (gfx12 has no OPSEL: the f16 result is packed)
    c_frag = amdgcn.wmma_f16_16x16x16_f16_w32_gfx12(a_frag, b_frag, c_frag)

    store_packed_c(pC, c_frag)


def run(a: np.ndarray, b: np.ndarray, arch: str = "gfx1200") -> np.ndarray:
    """Host side: A (16x16) uploaded row-major, B (16x16) column-major; returns C row-major."""
    a_gpu = np.ascontiguousarray(a, dtype=float16).reshape(-1)
    b_gpu = np.ascontiguousarray(np.asarray(b, dtype=float16).T).reshape(-1)  # col-major B
    c_gpu = np.zeros(16 * 16, dtype=float16)
    with use_arch(arch):
        wmma_matmul[1, 32](a_gpu, b_gpu, c_gpu)
    return c_gpu.reshape(16, 16)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv, __doc__, "gfx1200", [BUILTIN], seed=2025)
    print(f"RDNA4 WMMA hello world: __builtin_amdgcn_{BUILTIN}, C = A*B on {args.arch}")
    # small random integers: every product and sum is exact in f16
    rng = np.random.default_rng(args.seed)
    a = rng.integers(-4, 5, size=(16, 16)).astype(float16)
    b = rng.integers(-4, 5, size=(16, 16)).astype(float16)
    ref = a.astype(np.float64) @ b.astype(np.float64)  # + C, which is zero

    c = run(a, b, args.arch)
    if args.show:
        print_matrix(c)
    ok = validate(BUILTIN, c, ref)
    print("PASSED" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
