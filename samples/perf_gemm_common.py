"""The kernel and host code of rocWMMA's perf_hgemm / perf_sgemm / perf_dgemm / perf_i8gemm,
which share one design and differ in types and tile parameters (as rocWMMA's samples do).

Design (the perf_hgemm.cpp header comment): each wave computes a warp tile of
BLOCKS_M x BLOCKS_N blocks with single wave-tile fragments; the waves of a workgroup
cooperatively read the macro tile of A and B from global memory (coop_row_major_2d
fragments, each wave a 1/WaveCount share), write it to LDS as
apply_data_layout<col_major>(A) and apply_data_layout<col_major>(apply_transpose(B)) — one
col-major buffer of height MacroM + MacroN and width K — and read their wave tiles back.
Two LDS buffers double-buffer the K loop: prefetch K0 -> LDS lo; loop: local read lo,
global read K+1, mma, local write hi, synchronize_workgroup(), swap; tail; D = alpha * acc +
beta * C. Layouts: A col-major, B row-major, C/D row-major.
"""

from dataclasses import dataclass

import numpy as np

from rocwmma_py import (
    GetDataLayout_t,
    GetIOShape_t,
    accumulator,
    apply_data_layout,
    apply_data_layout_t,
    apply_transpose,
    apply_transpose_t,
    blockIdx,
    ceil_div,
    col_major,
    coop_row_major_2d,
    dynamic_shared,
    fill_fragment,
    fragment,
    get,
    get_arch,
    kernel,
    load_matrix_sync,
    make_coord2d,
    matrix_a,
    matrix_b,
    mma_sync,
    row_major,
    store_matrix_sync,
    synchronize_workgroup,
    threadIdx,
)
from rocwmma_py.rocwmma.mma import select_instruction

from . import common

DataLayoutA, DataLayoutB, DataLayoutC, DataLayoutLds = col_major, row_major, row_major, col_major


@dataclass(frozen=True)
class Params:
    """One column of the original's kernel-parameter table."""

    ROCWMMA_M: int
    ROCWMMA_N: int
    ROCWMMA_K: int
    BLOCKS_M: int
    BLOCKS_N: int
    TBLOCK_X: int
    TBLOCK_Y: int
    WARP_SIZE: int

    @property
    def macro_tile(self) -> tuple[int, int]:
        return (self.TBLOCK_X // self.WARP_SIZE * self.BLOCKS_M * self.ROCWMMA_M,
                self.TBLOCK_Y * self.BLOCKS_N * self.ROCWMMA_N)


def make_gemm_kernel(p: Params, input_t, output_t, compute_t):
    """`gemm_rocwmma_d` for one parameter set and type set."""
    # Warp tile: computed by each warp
    WARP_TILE_M = p.BLOCKS_M * p.ROCWMMA_M  # noqa: N806 - the original's constants
    WARP_TILE_N = p.BLOCKS_N * p.ROCWMMA_N  # noqa: N806
    WARP_TILE_K = p.ROCWMMA_K  # noqa: N806
    # Macro tile: computed by each thread block (workgroup)
    WARPS_M, WARPS_N = p.TBLOCK_X // p.WARP_SIZE, p.TBLOCK_Y  # noqa: N806
    MACRO_TILE_M, MACRO_TILE_N = WARPS_M * WARP_TILE_M, WARPS_N * WARP_TILE_N  # noqa: N806
    MACRO_TILE_K = p.ROCWMMA_K  # noqa: N806
    WARP_SIZE = p.WARP_SIZE  # noqa: N806

    # Mma frags (warp tile), non-cooperative
    MmaFragA = fragment[matrix_a, WARP_TILE_M, WARP_TILE_N, WARP_TILE_K, input_t, DataLayoutA]  # noqa: N806
    MmaFragB = fragment[matrix_b, WARP_TILE_M, WARP_TILE_N, WARP_TILE_K, input_t, DataLayoutB]  # noqa: N806
    MmaFragC = fragment[accumulator, WARP_TILE_M, WARP_TILE_N, WARP_TILE_K, output_t,  # noqa: N806
                        DataLayoutC]
    MmaFragD = MmaFragC  # noqa: N806
    MmaFragAcc = fragment[accumulator, WARP_TILE_M, WARP_TILE_N, WARP_TILE_K, compute_t]  # noqa: N806

    # Global read (macro tile), cooperative
    CoopScheduler = coop_row_major_2d[p.TBLOCK_X, p.TBLOCK_Y]  # noqa: N806
    GRFragA = fragment[matrix_a, MACRO_TILE_M, MACRO_TILE_N, MACRO_TILE_K, input_t,  # noqa: N806
                       DataLayoutA, CoopScheduler]
    GRFragB = fragment[matrix_b, MACRO_TILE_M, MACRO_TILE_N, MACRO_TILE_K, input_t,  # noqa: N806
                       DataLayoutB, CoopScheduler]

    # Local write of global buffers (macro tile): LDS layout, B transposed
    LWFragA = apply_data_layout_t[GRFragA, DataLayoutLds]  # noqa: N806
    LWFragB = apply_data_layout_t[apply_transpose_t[GRFragB], DataLayoutLds]  # noqa: N806

    def transform_gr_frag_a_to_lw_frag_a(gr_frag_a):
        return apply_data_layout[DataLayoutLds](gr_frag_a)

    def transform_gr_frag_b_to_lw_frag_b(gr_frag_b):
        return apply_data_layout[DataLayoutLds](apply_transpose(gr_frag_b))

    # Local read (mma frags): LDS layout, B transposed
    LRFragA = apply_data_layout_t[MmaFragA, DataLayoutLds]  # noqa: N806
    LRFragB = apply_data_layout_t[apply_transpose_t[MmaFragB], DataLayoutLds]  # noqa: N806

    def transform_lr_frag_a_to_mma_frag_a(lr_frag_a):
        return apply_data_layout[DataLayoutA](lr_frag_a)

    def transform_lr_frag_b_to_mma_frag_b(lr_frag_b):
        return apply_data_layout[DataLayoutB](apply_transpose(lr_frag_b))

    @kernel
    def gemm_rocwmma_d(m, n, k, a, b, c, d, lda, ldb, ldc, ldd,
                       alpha: compute_t, beta: compute_t):
        # Tile sizes
        warp_tile_size = make_coord2d(WARP_TILE_M, WARP_TILE_N)
        macro_tile_size = make_coord2d(MACRO_TILE_M, MACRO_TILE_N)

        # Local warp coordinate relative to the current threadblock
        local_warp_coord = make_coord2d(threadIdx.x // WARP_SIZE, threadIdx.y)
        local_warp_offset = local_warp_coord * warp_tile_size

        # Global matrix coordinates for C/D
        macro_tile_coord = make_coord2d(blockIdx.x, blockIdx.y) * macro_tile_size
        warp_tile_coord = macro_tile_coord + local_warp_offset

        # Bounds check
        warp_tile_bound = warp_tile_coord + warp_tile_size
        if get[0](warp_tile_bound) > m or get[1](warp_tile_bound) > n:
            return

        # 1D global read coordinate transform
        gr_frag_a_map_1d = GetDataLayout_t[GRFragA]
        gr_frag_b_map_1d = GetDataLayout_t[GRFragB]

        # Initial and incremental global read address offsets
        global_read_offset_a = gr_frag_a_map_1d.fromMatrixCoord(
            make_coord2d(get[0](macro_tile_coord), 0), lda)
        global_read_offset_b = gr_frag_b_map_1d.fromMatrixCoord(
            make_coord2d(0, get[1](macro_tile_coord)), ldb)
        k_step_offset_a = gr_frag_a_map_1d.fromMatrixCoord(make_coord2d(0, MACRO_TILE_K), lda)
        k_step_offset_b = gr_frag_b_map_1d.fromMatrixCoord(make_coord2d(MACRO_TILE_K, 0), ldb)

        # Initial global pre-fetch
        gr_frag_a, gr_frag_b = GRFragA(), GRFragB()
        load_matrix_sync(gr_frag_a, a + global_read_offset_a, lda)
        load_matrix_sync(gr_frag_b, b + global_read_offset_b, ldb)
        global_read_offset_a += k_step_offset_a
        global_read_offset_b += k_step_offset_b

        # LDS addressing: two buffers for pipelining the prefetch with the accumulation
        local_mem_ptr = dynamic_shared(input_t)
        lw_frag_a_shape, lw_frag_b_shape = GetIOShape_t[LWFragA], GetIOShape_t[LWFragB]
        lw_frag_a_map_1d, lw_frag_b_map_1d = GetDataLayout_t[LWFragA], GetDataLayout_t[LWFragB]

        lds_width = MACRO_TILE_K
        lds_height = lw_frag_a_shape.BlockHeight + lw_frag_b_shape.BlockHeight
        size_lds = lds_height * lds_width
        ldsld = lds_width if DataLayoutLds is row_major else lds_height

        lds_ptr_lo = local_mem_ptr
        lds_ptr_hi = lds_ptr_lo + size_lds

        # Local write offsets to the start of the A / B data
        lds_write_offset_a = 0
        lds_write_offset_b = lw_frag_a_map_1d.fromMatrixCoord(
            make_coord2d(lw_frag_a_shape.BlockHeight, 0), ldsld)

        # Local read offsets for mma frags
        lds_read_offset_a = lds_write_offset_a + lw_frag_a_map_1d.fromMatrixCoord(
            make_coord2d(get[0](local_warp_offset), 0), ldsld)
        lds_read_offset_b = lds_write_offset_b + lw_frag_b_map_1d.fromMatrixCoord(
            make_coord2d(get[1](local_warp_offset), 0), ldsld)

        # Write prefetch to local
        store_matrix_sync(lds_ptr_lo + lds_write_offset_a,
                          transform_gr_frag_a_to_lw_frag_a(gr_frag_a), ldsld)
        store_matrix_sync(lds_ptr_lo + lds_write_offset_b,
                          transform_gr_frag_b_to_lw_frag_b(gr_frag_b), ldsld)

        # Initialize accumulation frags
        mma_frag_acc = MmaFragAcc()
        fill_fragment(mma_frag_acc, 0)

        synchronize_workgroup()

        # Accumulate A * B for all mma frags in the warp tile
        for _current_k in range(MACRO_TILE_K, k, MACRO_TILE_K):
            # Local read mma frags from the first LDS buffer
            lr_frag_a, lr_frag_b = LRFragA(), LRFragB()
            load_matrix_sync(lr_frag_a, lds_ptr_lo + lds_read_offset_a, ldsld)
            load_matrix_sync(lr_frag_b, lds_ptr_lo + lds_read_offset_b, ldsld)

            # Prefetch the next round of global frags
            load_matrix_sync(gr_frag_a, a + global_read_offset_a, lda)
            load_matrix_sync(gr_frag_b, b + global_read_offset_b, ldb)
            global_read_offset_a += k_step_offset_a
            global_read_offset_b += k_step_offset_b

            # Matrix mult-accum (A * B)
            mma_sync(mma_frag_acc, transform_lr_frag_a_to_mma_frag_a(lr_frag_a),
                     transform_lr_frag_b_to_mma_frag_b(lr_frag_b), mma_frag_acc)

            # Write the prefetch to the second LDS buffer
            store_matrix_sync(lds_ptr_hi + lds_write_offset_a,
                              transform_gr_frag_a_to_lw_frag_a(gr_frag_a), ldsld)
            store_matrix_sync(lds_ptr_hi + lds_write_offset_b,
                              transform_gr_frag_b_to_lw_frag_b(gr_frag_b), ldsld)

            # All waves have finished reading / writing LDS for current_k
            synchronize_workgroup()

            # Swap LDS buffers
            lds_ptr_lo, lds_ptr_hi = lds_ptr_hi, lds_ptr_lo

        # Start loading C
        mma_frag_c_map_1d, mma_frag_d_map_1d = GetDataLayout_t[MmaFragC], GetDataLayout_t[MmaFragD]
        mma_frag_c = MmaFragC()
        load_matrix_sync(mma_frag_c, c + mma_frag_c_map_1d.fromMatrixCoord(warp_tile_coord, ldc),
                         ldc)

        # Clean up tail A * B
        lr_frag_a, lr_frag_b = LRFragA(), LRFragB()
        load_matrix_sync(lr_frag_a, lds_ptr_lo + lds_read_offset_a, ldsld)
        load_matrix_sync(lr_frag_b, lds_ptr_lo + lds_read_offset_b, ldsld)
        mma_sync(mma_frag_acc, transform_lr_frag_a_to_mma_frag_a(lr_frag_a),
                 transform_lr_frag_b_to_mma_frag_b(lr_frag_b), mma_frag_acc)

        # D = alpha * accum + beta * C (the original unrolls this in chunks of 8 elements to
        # save registers; one whole-array statement here)
        mma_frag_d = MmaFragD()
        mma_frag_d.x[:] = alpha * mma_frag_acc.x + beta * mma_frag_c.x.astype(compute_t)

        # Final store of the completed warp tile
        store_matrix_sync(d + mma_frag_d_map_1d.fromMatrixCoord(warp_tile_coord, ldd),
                          mma_frag_d, ldd)

    return gemm_rocwmma_d


def refusal(p: Params, arch: str, m: int, n: int, k: int) -> str | None:
    """The original host checks, in order; None when the launch may go ahead."""
    if (common.is_gfx11(arch) or common.is_gfx12(arch)) and (p.ROCWMMA_M, p.ROCWMMA_N) != (16, 16):
        return "Unsupported block size!"
    if p.ROCWMMA_M != p.ROCWMMA_N or p.ROCWMMA_M not in (16, 32):
        return "Unsupported block size!"
    wave = get_arch(arch).wave_size
    if p.WARP_SIZE != wave:
        return "Unsupported wave size!"
    macro_m, macro_n = p.macro_tile
    if (m < macro_m or n < macro_n or k < p.ROCWMMA_K
            or m % p.ROCWMMA_M or n % p.ROCWMMA_N or k % p.ROCWMMA_K):
        return (f"Unsupported matrix size! M must be a multiple of {p.ROCWMMA_M} and at least "
                f"{macro_m}, N a multiple of {p.ROCWMMA_N} and at least {macro_n}, K a multiple "
                f"of {p.ROCWMMA_K}")
    return None


def gemm_test(p: Params, types: tuple, arch: str, m: int, n: int, k: int, alpha, beta,
              seed: int, warmups: int, runs: int) -> int:
    """The perf samples' host function."""
    input_t, output_t, compute_t = types
    why = refusal(p, arch, m, n, k)
    if why:
        print(why)
        return common.REFUSED
    macro_m, macro_n = p.macro_tile
    lda = k if DataLayoutA is row_major else m
    ldb = n if DataLayoutB is row_major else k
    ldc = n if DataLayoutC is row_major else m
    ldd = ldc

    print("Initializing host data...")
    rng = np.random.default_rng(seed)
    matrix_a = common.fill_rand(rng, m, k, input_t)
    matrix_b = common.fill_rand(rng, k, n, input_t)
    matrix_c = common.fill_rand(rng, m, n, output_t)
    out_dtype = common.types.storage_dtype(output_t)
    # Fill outputs with NaN (integers: a sentinel) to catch contamination
    matrix_d = np.full((m, n), np.nan if out_dtype.kind == "f" else -(2**31), out_dtype)

    print("Initializing device data...")
    d_a = common.to_memory(matrix_a, DataLayoutA is col_major)
    d_b = common.to_memory(matrix_b, DataLayoutB is col_major)

    grid = (ceil_div(m, macro_m), ceil_div(n, macro_n))
    block = (p.TBLOCK_X, p.TBLOCK_Y)
    print("Launching GEMM kernel...")
    print(f"gridDim ({grid[0]} {grid[1]}) blockdim ({block[0]} {block[1]})")

    # Two LDS blocks for the prefetch loop (A and B)
    lds_usage = 2 * np.dtype(common.types.storage_dtype(input_t)).itemsize * (
        macro_m + macro_n) * p.ROCWMMA_K
    gemm = make_gemm_kernel(p, *types)

    def run():
        gemm[grid, block, lds_usage, arch](m, n, k, d_a, d_b, matrix_c, matrix_d, lda, ldb,
                                          ldc, ldd, alpha, beta)

    common.timed_ms(run, warmups)  # warm-up runs, not recorded
    elapsed_ms = common.timed_ms(run, runs)

    gflops = common.gflops(m, n, k)
    common.print_columns(
        [("TBlockX", 8), ("TBlockY", 8), ("BlocksM", 8), ("BlocksN", 8), ("BlkM", 6),
         ("BlkN", 6), ("BlkK", 6), ("MatM", 8), ("MatN", 8), ("MatK", 8), ("alpha", 8),
         ("lda", 8), ("ldb", 8), ("beta", 8), ("ldc", 8), ("ldd", 8), ("elapsedMs", 13),
         ("Problem Size(GFlops)", 23), ("TFlops/s", 10)],
        [p.TBLOCK_X, p.TBLOCK_Y, p.BLOCKS_M, p.BLOCKS_N, p.ROCWMMA_M, p.ROCWMMA_N, p.ROCWMMA_K,
         m, n, k, compute_t(alpha), lda, ldb, compute_t(beta), ldc, ldd, elapsed_ms, gflops,
         gflops / elapsed_ms * runs])
    instr = select_instruction(get_arch(arch), input_t, input_t, compute_t, p.ROCWMMA_K)
    count = (m // 16) * (n // 16) * (k // p.ROCWMMA_K) * max(1, p.ROCWMMA_K // instr.k)
    common.print_perf_model(arch, instr, count, m, n, k, elapsed_ms, runs)

    print("Validating result with reference...")
    ref = common.gemm_reference(matrix_a, matrix_b, matrix_c, compute_t(alpha),
                                compute_t(beta), output_t)
    status = common.report(common.compare_equal(matrix_d, ref, output_t), bang=False)
    print("Finished!")
    return status


def main_for(description: str, params, types: tuple, supported, refusal_text: str,
             argv) -> int:
    """main() of a perf sample; `params(arch)` is the per-arch parameter set. The original
    runs 7168^3 with 2 warm-ups and 5 timed runs; the defaults here are 512^3, 0 and 1."""
    parser = common.sample_parser(description, {"m": 512, "n": 512, "k": 512},
                                  size_help="; the original runs 7168")
    parser.add_argument("--warmups", type=common.non_negative_int, default=0,
                        help="untimed runs before timing (default 0; the original: 2)")
    parser.add_argument("--runs", type=common.positive_int, default=1,
                        help="timed runs (default 1; the original: 5)")
    args = parser.parse_args(argv)
    if not supported(args.arch):
        print(refusal_text)
        return common.REFUSED
    return gemm_test(params(args.arch), types, args.arch, args.m, args.n, args.k, 2, 2,
                     args.seed, args.warmups, max(1, args.runs))
