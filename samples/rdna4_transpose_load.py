"""RDNA4 transpose load: the gfx12 hello world with a row-major B.

B is read with __builtin_amdgcn_global_load_tr_b128_v8i16: every lane loads 8 consecutive
f16 of one row of B (a 128-bit load), and each octant of 8 lanes transposes its 8x8 block
on the way into the registers, which yields exactly the WMMA B layout (lane j: column j).

    rocwmma-sample rdna4_transpose_load [--arch gfx1200] [--print]
"""

from __future__ import annotations

if not __package__:  # run as a file, `python samples/X.py`: run as its module instead
    __import__("_script").run_as_module(__file__)

from collections.abc import Sequence

import numpy as np

from rocwmma_py import amdgcn, float16, kernel, lane_id, use_arch, vector_type
from rocwmma_py.runtime import half8  # _Float16 __attribute__((ext_vector_type(8)))

from .common import parse_args, print_matrix, validate
from .rdna4_wmma_hello import load_half_rows, store_packed_c

BUILTIN = "wmma_f16_16x16x16_f16_w32_gfx12"

QuadWord = vector_type(np.int16, 8)  # int16_t __attribute__((ext_vector_type(8)))


# assumes single wave per workgroup (32 threads)
@kernel
def wmma_matmul_tr(pA, BbufferPtr, pC):
    a_frag = half8()
    b_frag = half8()

    # initialize c fragment to 0
    c_frag = half8()

    load_half_rows(a_frag, pA)  # load A row-major in memory

    # load B row-major in memory, transposing on load
    # Thread indexing math within the 16x16 tile to load
    quadGroup = lane_id() // 4
    quadGroupThreadPos = lane_id() % 4
    groupKHiLo = quadGroup % 2
    groupKquarterHiLo = lane_id() // 16
    groupNHiLo = (lane_id() // 8) % 2
    rowAddr = (quadGroupThreadPos + 8 * groupKHiLo + 4 * groupKquarterHiLo) * 16
    colAddr = 8 * groupNHiLo
    laneBaseAddr = rowAddr + colAddr

    # we pointer cast from half to a 8 wide integer vector type
    quadWordPtr = (BbufferPtr + laneBaseAddr).cast(np.int16)

    regsB = QuadWord(amdgcn.global_load_tr_b128_v8i16(quadWordPtr))
    b_frag = half8(np.asarray(regsB).view(float16))  # bit cast short8 -> half8

    c_frag = amdgcn.wmma_f16_16x16x16_f16_w32_gfx12(a_frag, b_frag, c_frag)

    store_packed_c(pC, c_frag)


def run(a: np.ndarray, b: np.ndarray, arch: str = "gfx1200") -> np.ndarray:
    """Host side: A and B (16x16) both uploaded row-major; returns C row-major."""
    a_gpu = np.ascontiguousarray(a, dtype=float16).reshape(-1)
    b_gpu = np.ascontiguousarray(b, dtype=float16).reshape(-1)  # row-major B, no transpose
    c_gpu = np.zeros(16 * 16, dtype=float16)
    with use_arch(arch):
        wmma_matmul_tr[1, 32](a_gpu, b_gpu, c_gpu)
    return c_gpu.reshape(16, 16)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv, __doc__, "gfx1200", [BUILTIN], seed=2025)
    print(
        f"RDNA4 transpose load: B row-major via __builtin_amdgcn_global_load_tr_b128_v8i16, "
        f"__builtin_amdgcn_{BUILTIN}, C = A*B on {args.arch}"
    )
    rng = np.random.default_rng(args.seed)
    a = rng.integers(-4, 5, size=(16, 16)).astype(float16)
    b = rng.integers(-4, 5, size=(16, 16)).astype(float16)
    ref = a.astype(np.float64) @ b.astype(np.float64)  # + C, which is zero

    c = run(a, b, args.arch)
    if args.show:
        print_matrix(c)
    ok = validate(f"{BUILTIN} + global_load_tr_b128_v8i16", c, ref)
    print("PASSED" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
