"""NVIDIA's cudaTensorCoreGemm (cuda-samples, 3_CUDA_Features) ported through rocwmma_py.cuda:
D = alpha * A x B + beta * C, half A (row-major) and B (column-major), float C and D, with
warp-specialized staging: each block of 8 warps owns a 128x128 tile of D, streams its C tile
through shared memory, and per K chunk warps 0-3 copy A's rows while warps 4-7 copy B's
columns (`int4` copies, 16 bytes per lane) before every warp computes a 32x64 piece with
2x4 wmma tiles read from shared memory.

    rocwmma-sample cuda.tensor_core_gemm [--arch gfx1100] [-m 256 -n 128 -k 128]

The structure follows the CUDA sample (persistent block loop, skewed shared rows, one
`extern __shared__` buffer viewed as half for A/B and as float for C/D); sizes are
parameters instead of compile-time constants and copies are written for any warpSize.
The one change: D = alpha * (A x B) + beta * C is formed at the end (the CUDA kernel
scales C by beta before the K loop and the sum by alpha after it, i.e. alpha * beta * C).
"""

from __future__ import annotations

if not __package__:  # run as a file, `python samples/X.py`: run as its module instead
    __import__("_script").run_as_module(__file__)

import numpy as np

from rocwmma_py import get_arch
from rocwmma_py.cuda import __global__, __syncthreads, blockIdx, gridDim, threadIdx, warpSize, wmma
from rocwmma_py.runtime import dynamic_shared

from .common import REFUSED, parse_args, report, small_ints

M = N = K = 16  # wmma tile
WARPS_PER_BLOCK = 8
BLOCK_ROW_WARPS, BLOCK_COL_WARPS = 2, 4  # warps along a block tile's columns / rows
WARP_ROW_TILES, WARP_COL_TILES = 4, 2  # 16x16 tiles per warp along columns / rows
BLOCK_ROW_TILES = WARP_ROW_TILES * BLOCK_ROW_WARPS  # 8: the block tile is 128 columns
BLOCK_COL_TILES = WARP_COL_TILES * BLOCK_COL_WARPS  # 8: and 128 rows
CHUNK_K = 4  # 16-wide K tiles staged per iteration
SKEW_HALF = 16  # padding of a staged row (bank conflicts on NVIDIA; kept for the layout)
SHMEM_ROW = CHUNK_K * K + SKEW_HALF  # halves per staged A/B row
SHMEM_STRIDE = N * BLOCK_ROW_TILES  # floats per row of the staged C/D tile
SHMEM_OFFSET = N * WARP_ROW_TILES  # a warp's column offset in the C/D tile
SHMEM_BYTES = max(2 * (BLOCK_COL_TILES * M + BLOCK_ROW_TILES * N) * SHMEM_ROW,
                  4 * M * BLOCK_COL_TILES * SHMEM_STRIDE)
BLOCK_M, BLOCK_N, CHUNK = M * BLOCK_COL_TILES, N * BLOCK_ROW_TILES, K * CHUNK_K

FragA = wmma.fragment[wmma.matrix_a, M, N, K, wmma.half, wmma.row_major]
FragB = wmma.fragment[wmma.matrix_b, M, N, K, wmma.half, wmma.col_major]
FragAcc = wmma.fragment[wmma.accumulator, M, N, K, float]


def _stream_rows(src, src_stride, dst, dst_stride, lane, per_lane: int) -> None:
    """Copy K rows of BLOCK_N floats, each lane `per_lane` consecutive floats per row (the
    CUDA sample's int4-per-lane streaming of a warp's 16 rows of the C or D tile)."""
    for i in range(K):
        values = (src + (i * src_stride + lane * per_lane)).load(per_lane)
        (dst + (i * dst_stride + lane * per_lane)).store(values)


@__global__
def compute_gemm(a, b, c, d, alpha, beta, M_GLOBAL, N_GLOBAL, K_GLOBAL):  # noqa: N803
    shmem_half = dynamic_shared(np.float16)  # extern __shared__ half shmem[][SHMEM_ROW]
    shmem_float = dynamic_shared(np.float32)  # the same bytes, as the C/D tile
    warp_id = threadIdx.x // warpSize
    lane_id = threadIdx.x % warpSize
    n_tiles, k_tiles = N_GLOBAL // N, K_GLOBAL // K
    floats_per_lane = SHMEM_STRIDE // warpSize  # one row of the tile per warp-wide copy
    copy_line_lanes = CHUNK * 2 // 16  # lanes per staged row (16 bytes each)
    copy_lines_per_warp = warpSize // copy_line_lanes
    b_offset = BLOCK_COL_TILES * M  # staged B rows follow the staged A rows

    block_pos = blockIdx.x
    while True:  # persistent blocks: a block takes tiles gridDim.x apart
        block_tile_i = block_pos * BLOCK_ROW_TILES // n_tiles * BLOCK_COL_TILES
        block_tile_j = block_pos * BLOCK_COL_TILES % n_tiles
        if block_tile_i >= M_GLOBAL // M:
            break

        # Each warp streams 16 rows of the block's C tile into shared memory.
        gmem_idx = (block_tile_i + warp_id) * M * N_GLOBAL + block_tile_j * N
        _stream_rows(c + gmem_idx, N_GLOBAL, shmem_float + warp_id * SHMEM_STRIDE * K,
                     SHMEM_STRIDE, lane_id, floats_per_lane)
        __syncthreads()

        # This warp's 2x4 tiles of C, and accumulators for A x B.
        warp_tile = (warp_id // 2) * SHMEM_STRIDE * K * 2 + (warp_id % 2) * SHMEM_OFFSET
        c_frags = [[FragAcc() for _ in range(WARP_ROW_TILES)] for _ in range(WARP_COL_TILES)]
        acc = [[FragAcc() for _ in range(WARP_ROW_TILES)] for _ in range(WARP_COL_TILES)]
        for i in range(WARP_COL_TILES):
            for j in range(WARP_ROW_TILES):
                wmma.load_matrix_sync(c_frags[i][j],
                                      shmem_float + (warp_tile + i * SHMEM_STRIDE * K + j * N),
                                      SHMEM_STRIDE, wmma.mem_row_major)
                wmma.fill_fragment(acc[i][j], 0.0)
        __syncthreads()

        # Warps 0-3 stage A's rows, warps 4-7 B's columns (B is column-major: rows of B^T).
        if warp_id < WARPS_PER_BLOCK // 2:
            warp_src = a + (block_tile_i * M * K_GLOBAL + M * K_GLOBAL * (warp_id % 4) * 2)
            shmem_idx = M * (warp_id % 4) * 2
        else:
            warp_src = b + (block_tile_j * N * K_GLOBAL + N * K_GLOBAL * (warp_id % 4) * 2)
            shmem_idx = N * (warp_id % 4) * 2 + b_offset
        shmem_idx = shmem_idx + lane_id // copy_line_lanes
        line = lane_id % copy_line_lanes

        for tile_k in range(0, k_tiles, CHUNK_K):
            lane_src = warp_src + (tile_k * K + (lane_id // copy_line_lanes) * K_GLOBAL
                                   + line * 8)
            row = shmem_idx
            for _ in range(2 * M // copy_lines_per_warp):  # 2 tiles' rows per warp
                (shmem_half + (row * SHMEM_ROW + line * 8)).store(lane_src.load(8))
                lane_src = lane_src + K_GLOBAL * copy_lines_per_warp
                row = row + copy_lines_per_warp
            __syncthreads()

            for k_step in range(CHUNK_K):
                a_frags = [FragA() for _ in range(WARP_COL_TILES)]
                b_frags = [FragB() for _ in range(WARP_ROW_TILES)]
                for i in range(WARP_COL_TILES):
                    shmem_idx_a = (warp_id // 2) * M * 2 + i * M
                    wmma.load_matrix_sync(a_frags[i],
                                          shmem_half + (shmem_idx_a * SHMEM_ROW + k_step * K),
                                          SHMEM_ROW)
                    for j in range(WARP_ROW_TILES):
                        if i == 0:
                            shmem_idx_b = b_offset + WARP_ROW_TILES * N * (warp_id % 2) + j * N
                            wmma.load_matrix_sync(
                                b_frags[j], shmem_half + (shmem_idx_b * SHMEM_ROW + k_step * K),
                                SHMEM_ROW)
                        wmma.mma_sync(acc[i][j], a_frags[i], b_frags[j], acc[i][j])
            __syncthreads()

        # D = alpha * (A x B) + beta * C, through shared memory back to global.
        for i in range(WARP_COL_TILES):
            for j in range(WARP_ROW_TILES):
                acc[i][j].x[:] = alpha * acc[i][j].x + beta * c_frags[i][j].x
                wmma.store_matrix_sync(shmem_float + (warp_tile + i * SHMEM_STRIDE * K + j * N),
                                       acc[i][j], SHMEM_STRIDE, wmma.mem_row_major)
        __syncthreads()
        _stream_rows(shmem_float + warp_id * SHMEM_STRIDE * K, SHMEM_STRIDE, d + gmem_idx,
                     N_GLOBAL, lane_id, floats_per_lane)
        __syncthreads()
        block_pos = block_pos + gridDim.x


def launch(arch: str, a: np.ndarray, b_cols: np.ndarray, c: np.ndarray, d: np.ndarray,
           alpha: float, beta: float, blocks: int | None = None) -> None:
    """Run the kernel: a (M, K) half, b_cols (N, K) half (B column-major), c/d (M, N) float.
    `blocks`: persistent blocks (default one per 128x128 tile)."""
    m, k = a.shape
    n = b_cols.shape[0]
    if m % BLOCK_M or n % BLOCK_N or k % CHUNK:
        raise ValueError(f"tensor_core_gemm needs M, N multiples of {BLOCK_M} and K of "
                         f"{CHUNK}; got {m}x{n}x{k}")
    warp = get_arch(arch).wave_size
    if (BLOCK_N // warp) * warp != BLOCK_N:
        raise ValueError(f"tensor_core_gemm streams {BLOCK_N}-float rows; wave size {warp} "
                         "must divide it")
    grid = blocks if blocks is not None else (m // BLOCK_M) * (n // BLOCK_N)
    compute_gemm[grid, WARPS_PER_BLOCK * warp, SHMEM_BYTES, arch](
        a, b_cols, c, d, np.float32(alpha), np.float32(beta), m, n, k)


def run(arch: str, m: int, n: int, k: int, seed: int = 1):
    """(D from the kernel, exact reference) on small-integer data."""
    rng = np.random.default_rng(seed)
    a = small_ints(rng, (m, k), np.float16)
    b = small_ints(rng, (k, n), np.float16)
    c = small_ints(rng, (m, n), np.float32)
    d = np.full((m, n), np.nan, np.float32)
    alpha, beta = 2.0, 0.5
    launch(arch, a, np.ascontiguousarray(b.T), c, d, alpha, beta)
    ref = alpha * (a.astype(np.float64) @ b.astype(np.float64)) + beta * c.astype(np.float64)
    return d, ref


def main(argv=None) -> int:
    args = parse_args(argv, __doc__, wmma.half, "gfx942", (256, 128, 128),
                      tile=(M * BLOCK_COL_TILES, N * BLOCK_ROW_TILES, K * CHUNK_K))
    if args == REFUSED:
        return REFUSED
    try:
        got, ref = run(args.arch, args.m, args.n, args.k, args.seed)
    except ValueError as err:
        print(f"tensor_core_gemm: FAILED ({err})")
        return 1
    return report("tensor_core_gemm", args.arch, got, ref)


if __name__ == "__main__":
    raise SystemExit(main())
