"""RDNA4 wide-K int8 WMMA: `fused_mma_TN`, a 16x16x32 step from two 16x16x16 WMMAs.

Port of "WMMA guide for AMD RDNA 4 architecture GPUs - part 2": each lane loads 16
contiguous int8 of K (one 128-bit load) and feeds the first 8 to one
__builtin_amdgcn_wmma_i32_16x16x16_iu8_w32_gfx12 and the last 8 to a second one. A (M0 x K0)
and B (N0 x K0) are K-major ("TN"), C (M0 x N0) is column-major, as hipblasGemmEx(OP_T,
OP_N) produces it; here the reference is an exact numpy int64 GEMM instead of hipBLAS.

    rocwmma-sample rdna4_int8_fused_mma [--arch gfx1200] [--print]
"""

from __future__ import annotations

if not __package__:  # run as a file, `python samples/X.py`: run as its module instead
    __import__("_script").run_as_module(__file__)

from collections.abc import Sequence

import numpy as np

from rocwmma_py import amdgcn, int8, int32, kernel, threadIdx, use_arch, vector_type

from .common import parse_args, validate

BUILTIN = "wmma_i32_16x16x16_iu8_w32_gfx12"

MMA_M, MMA_N, MMA_K = 16, 16, 32
M0_M, M0_N, M0_K = 2, 3, 2
WMMA_DATA_WIDTH = 8
frag_i8_16 = vector_type(int8, WMMA_DATA_WIDTH * 2)
frag_i8_8 = vector_type(int8, WMMA_DATA_WIDTH)
frag_i32_8 = vector_type(int32, WMMA_DATA_WIDTH)


def mma_i32i8_16_16_32_gfx12(am, bm, cm, signed_a=True, signed_b=True, signed_c=True):
    """cm += am * bm over K = 32; `cm` is updated in place (it is a reference in HIP)."""
    a_ptr = np.asarray(am)  # reinterpret_cast<const int8_t*>(&am): (lanes, 16) int8
    b_ptr = np.asarray(bm)
    # NB: the seed passes signed_c as the builtin's last argument, which is the clamp bit.
    cm.regs[...] = amdgcn.wmma_i32_16x16x16_iu8_w32_gfx12(
        signed_a, frag_i8_8(a_ptr[:, 0:WMMA_DATA_WIDTH]),
        signed_b, frag_i8_8(b_ptr[:, 0:WMMA_DATA_WIDTH]),
        cm, signed_c)
    cm.regs[...] = amdgcn.wmma_i32_16x16x16_iu8_w32_gfx12(
        signed_a, frag_i8_8(a_ptr[:, WMMA_DATA_WIDTH:2 * WMMA_DATA_WIDTH]),
        signed_b, frag_i8_8(b_ptr[:, WMMA_DATA_WIDTH:2 * WMMA_DATA_WIDTH]),
        cm, signed_c)


@kernel
def fused_mma_TN(a, b, c):
    ab_size = frag_i8_16.n  # sizeof(frag_i8_16) / sizeof(int8_t)
    c_size = frag_i32_8.n  # sizeof(frag_i32_8) / sizeof(int32_t)
    lIdx = threadIdx.x
    lane = lIdx % ab_size
    lane_group = lIdx // ab_size
    a_frag = [[None] * M0_K for _ in range(M0_M)]
    b_frag = [[None] * M0_K for _ in range(M0_N)]
    c_frag = [[frag_i32_8() for _ in range(M0_N)] for _ in range(M0_M)]  # = {}
    m0_stride_m = MMA_M * M0_K * MMA_K
    m0_stride_n = MMA_N * M0_K * MMA_K
    m0_stride_k = MMA_K
    m0_stride_mma_m = M0_K * MMA_K
    m0_stride_mma_n = M0_K * MMA_K
    for m in range(M0_M):
        for k in range(M0_K):
            block_idx = m * m0_stride_m + k * m0_stride_k
            lane_idx = lane * m0_stride_mma_m
            lane_group_idx = lane_group * ab_size
            a_frag[m][k] = frag_i8_16.load(a + block_idx + lane_idx + lane_group_idx)
    for n in range(M0_N):
        for k in range(M0_K):
            block_idx = n * m0_stride_n + k * m0_stride_k
            lane_idx = lane * m0_stride_mma_n
            lane_group_idx = lane_group * ab_size
            b_frag[n][k] = frag_i8_16.load(b + block_idx + lane_idx + lane_group_idx)
    for m in range(M0_M):
        for n in range(M0_N):
            for k in range(M0_K):
                mma_i32i8_16_16_32_gfx12(a_frag[m][k], b_frag[n][k], c_frag[m][n])
    c_stride_m = MMA_M
    c_stride_n = MMA_N * M0_M * MMA_M
    c_stride_mma_n = M0_M * MMA_M
    for n in range(M0_N):
        for m in range(M0_M):
            block_idx = m * c_stride_m + n * c_stride_n
            lane_idx = lane * c_stride_mma_n
            lane_group_idx = lane_group * c_size
            c_frag[m][n].store(c + block_idx + lane_idx + lane_group_idx)


M0, N0, K0 = M0_M * MMA_M, M0_N * MMA_N, M0_K * MMA_K


def run(h_A: np.ndarray, h_B: np.ndarray, arch: str = "gfx1200") -> np.ndarray:
    """Launch one wave32 on A (M0 x K0) and B (N0 x K0); returns the flat column-major C."""
    d_A = np.ascontiguousarray(h_A, dtype=int8).reshape(-1)
    d_B = np.ascontiguousarray(h_B, dtype=int8).reshape(-1)
    d_C = np.zeros(M0 * N0, dtype=int32)
    with use_arch(arch):
        fused_mma_TN[1, 32](d_A, d_B, d_C)
    return d_C


def reference(h_A: np.ndarray, h_B: np.ndarray) -> np.ndarray:
    """hipblasGemmEx(OP_T, OP_N, M0, N0, K0, A lda=K0, B ldb=K0, C ldc=M0) in exact int64."""
    a64 = np.asarray(h_A, np.int64).reshape(M0, K0)
    b64 = np.asarray(h_B, np.int64).reshape(N0, K0)
    return (a64 @ b64.T).T.reshape(-1)  # column-major M0 x N0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv, __doc__, "gfx1200", [BUILTIN], seed=2025)
    print(
        f"RDNA4 wide-K int8 WMMA: fused_mma_TN, M0={M0} N0={N0} K0={K0}, "
        f"2 x __builtin_amdgcn_{BUILTIN} per 16x16x32 step on {args.arch}"
    )
    rng = np.random.default_rng(args.seed)
    h_A = rng.integers(-3, 3, size=M0 * K0, endpoint=True).astype(int8)
    h_B = rng.integers(-3, 3, size=N0 * K0, endpoint=True).astype(int8)

    h_C = run(h_A, h_B, args.arch)
    h_C_ref = reference(h_A, h_B)
    if args.show:
        print(h_C.reshape(N0, M0).T)
    ok = validate("fused_mma_TN vs numpy int64 GEMM", h_C, h_C_ref)
    if ok:
        print("Wide MMA has same result as the numpy int64 GEMM.")
    print("PASSED" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
