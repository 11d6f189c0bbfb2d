"""rocWMMA's community sample simple_gemm_act in Python: D = saturate_int8(silu(A x B)) with
int8 A (row-major m x k) and B (col-major k x n), int32 accumulation, float SiLU, int8 D
(row-major m x n); gfx9 only, like the original.

    rocwmma-sample simple_gemm_act [--arch gfx90a] [-m 256 -n 256 -k 256] [--seed 0]

Design (the original's header comment): each wave computes a warp tile of BLOCKS_X x BLOCKS_Y
16x16 blocks; the four waves of a (128, 2) workgroup cooperatively read the macro tile of A
and B (coop_row_major_2d fragments) into LDS (A, then B transposed, one col-major buffer of
width ROCWMMA_K), double-buffered over K. The grid is 1D over M: each workgroup walks the
macro tiles of its rows along N. After the tail mma, every accumulator element goes through
SiLU in float (x * 1 / (1 + expf(-x)) for x >= 0, x * (expf(x) / (1 + expf(x))) otherwise),
is saturated to [-128, 127] and truncated to int8. One barrier is added at the end of each
macro tile (see the kernel): the original races on LDS when it walks several N tiles with an
odd number of K steps.

Validation: the original's CPU reference, evaluated exactly: A x B in int64, the same float
formula with every operation rounded to float32 and expf correctly rounded; compareEqual
with the int8 tolerance (0: every element must match). The kernel's expf is numpy's float32
exp, which is not correctly rounded; for every int32 accumulator in [-2^20, 2^20) the int8
results agree all the same (the float results differ at 25 of those 2^21 values).

Exit status: 0 PASSED, 1 FAILED, 2 refused ("This sample not tested on gfx11/gfx12 yet!",
"Unsupported matrix size!").
"""

if not __package__:  # run as a file, `python samples/X.py`: run as its module instead
    __import__("_script").run_as_module(__file__)

import numpy as np

from rocwmma_py import (
    Constants,
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
    int8_t,
    int32_t,
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

from . import common

# Kernel parameters (the original's gfx9Params)
ROCWMMA_M, ROCWMMA_N, ROCWMMA_K = 16, 16, 32
BLOCKS_X, BLOCKS_Y = 2, 2
TBLOCK_X, TBLOCK_Y = 128, 2
WARP_SIZE = Constants.AMDGCN_WAVE_SIZE_64

# Types and data layouts
InputT, OutputT, ComputeT, ActComputeT = int8_t, int8_t, int32_t, np.float32
DataLayoutA, DataLayoutB, DataLayoutD, DataLayoutLds = row_major, col_major, row_major, col_major
INT8_MAX, INT8_MIN = 127, -128

# Warp tile: computed by each warp; macro tile: by each workgroup (TBLOCK_X multiple of WARP_SIZE)
WARP_TILE_X, WARP_TILE_Y = BLOCKS_X * ROCWMMA_M, BLOCKS_Y * ROCWMMA_N
WARPS_X, WARPS_Y = TBLOCK_X // WARP_SIZE, TBLOCK_Y
MACRO_TILE_X, MACRO_TILE_Y = WARPS_X * WARP_TILE_X, WARPS_Y * WARP_TILE_Y

# Mfma frags
MfmaFragA = fragment[matrix_a, ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, InputT, DataLayoutA]
MfmaFragB = fragment[matrix_b, ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, InputT, DataLayoutB]
MfmaFragD = fragment[accumulator, ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, OutputT, DataLayoutD]
MfmaFragAcc = fragment[accumulator, ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, ComputeT, DataLayoutD]
MfmaFragAct = fragment[accumulator, ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, OutputT, DataLayoutD]

# Global read (macro tile), cooperative
CoopScheduler = coop_row_major_2d[TBLOCK_X, TBLOCK_Y]
GRBuffA = fragment[matrix_a, MACRO_TILE_X, ROCWMMA_N, ROCWMMA_K, InputT, DataLayoutA,
                   CoopScheduler]
GRBuffB = fragment[matrix_b, ROCWMMA_M, MACRO_TILE_Y, ROCWMMA_K, InputT, DataLayoutB,
                   CoopScheduler]

# Local write of the global buffers: LDS layout, B transposed
LWBuffA = apply_data_layout_t[GRBuffA, DataLayoutLds]
LWBuffB = apply_data_layout_t[apply_transpose_t[GRBuffB], DataLayoutLds]

# Local read (mfma frags): LDS layout, B transposed
LRFragA = apply_data_layout_t[MfmaFragA, DataLayoutLds]
LRFragB = apply_data_layout_t[apply_transpose_t[MfmaFragB], DataLayoutLds]


# --- warp tile wrappers (the original's device helpers) --------------------------------------


def global_read_coop_a(gr_buff_a, g_addr_a, lda):
    load_matrix_sync(gr_buff_a, g_addr_a, lda)


def global_read_coop_b(gr_buff_b, g_addr_b, ldb):
    load_matrix_sync(gr_buff_b, g_addr_b, ldb)


def local_write_coop_a(lds_addr, gr_buff_a, ldsld):
    # No transpose, only the LDS data layout
    store_matrix_sync(lds_addr, apply_data_layout[DataLayoutLds](gr_buff_a), ldsld)


def local_write_coop_b(lds_addr, gr_buff_b, ldsld):
    # Transpose B, then the LDS data layout
    store_matrix_sync(lds_addr, apply_data_layout[DataLayoutLds](apply_transpose(gr_buff_b)),
                      ldsld)


def local_read_a(lds_addr_a, ldsld):
    """BLOCKS_X A blocks, stacked vertically in LDS."""
    block_step = GetDataLayout_t[LRFragA].fromMatrixCoord(
        make_coord2d(GetIOShape_t[LRFragA].BlockHeight, 0), ldsld)
    frags_a = []
    for _ in range(BLOCKS_X):
        tmp = LRFragA()
        load_matrix_sync(tmp, lds_addr_a, ldsld)
        frags_a.append(apply_data_layout[DataLayoutA](tmp))
        lds_addr_a += block_step
    return frags_a


def local_read_b(lds_addr_b, ldsld):
    """BLOCKS_Y B blocks, stacked vertically (transposed) in LDS."""
    block_step = GetDataLayout_t[LRFragB].fromMatrixCoord(
        make_coord2d(GetIOShape_t[LRFragB].BlockHeight, 0), ldsld)
    frags_b = []
    for _ in range(BLOCKS_Y):
        tmp = LRFragB()
        load_matrix_sync(tmp, lds_addr_b, ldsld)
        # Transform back to the mfma tile
        frags_b.append(apply_data_layout[DataLayoutB](apply_transpose(tmp)))
        lds_addr_b += block_step
    return frags_b


def global_write_d(g_addr_d, frags_d, ldd):
    """Stores the BLOCKS_X x BLOCKS_Y blocks of the warp tile."""
    mapper_1d, shape = GetDataLayout_t[MfmaFragD], GetIOShape_t[MfmaFragD]
    block_step_x = mapper_1d.fromMatrixCoord(make_coord2d(shape.BlockHeight, 0), ldd)
    block_step_y = mapper_1d.fromMatrixCoord(make_coord2d(0, shape.BlockWidth), ldd)
    for i in range(BLOCKS_X):
        offset_y = 0
        for j in range(BLOCKS_Y):
            store_matrix_sync(g_addr_d + offset_y, frags_d[i][j], ldd)
            offset_y += block_step_y
        g_addr_d += block_step_x


def fill(frags, value):
    for row in frags:
        for frag in row:
            fill_fragment(frag, value)


def mfma(frags_acc_out, frags_a, frags_b, frags_acc_in):
    for i in range(BLOCKS_X):
        for j in range(BLOCKS_Y):
            mma_sync(frags_acc_out[i][j], frags_a[i], frags_b[j], frags_acc_in[i][j])


def silu_f32(data: np.ndarray, expf) -> np.ndarray:
    """The original's two-branch SiLU of int32 `data`, every operation in float (C++ promotes
    the int operand of each float operation to float)."""
    x = data.astype(ActComputeT)
    one = ActComputeT(1)
    with np.errstate(over="ignore", invalid="ignore"):
        exp_negx = expf(-x)
        positive = x * (one / (one + exp_negx))
        exp_x = expf(x)
        negative = x * (exp_x / (one + exp_x))
    return np.where(data >= 0, positive, negative)


def saturate_int8(value: np.ndarray) -> np.ndarray:
    """> INT8_MAX -> INT8_MAX, < INT8_MIN -> INT8_MIN, else static_cast<int8_t> (truncation)."""
    clipped = np.where(value > INT8_MAX, INT8_MAX,
                       np.where(value < INT8_MIN, INT8_MIN, np.trunc(value)))
    return clipped.astype(np.int8)


def do_silu(frags_acc, frags_act, apply_silu):
    """SiLU on the accumulators (element-wise, every lane at once) and the int8 conversion."""
    for i in range(BLOCKS_X):
        for j in range(BLOCKS_Y):
            data = frags_acc[i][j].x
            value = silu_f32(data, np.exp) if apply_silu else data.astype(ActComputeT)
            frags_act[i][j].x[:] = saturate_int8(value)


@kernel
def gemm_rocwmma_d(m, n, k, a, b, d, lda, ldb, ldd, apply_silu):
    # Tile sizes
    warp_tile_size = make_coord2d(WARP_TILE_X, WARP_TILE_Y)
    macro_tile_size = make_coord2d(MACRO_TILE_X, MACRO_TILE_Y)

    # Local warp coordinate relative to the current threadblock
    local_warp_coord = make_coord2d(threadIdx.x // WARP_SIZE, threadIdx.y)
    local_warp_offset = local_warp_coord * warp_tile_size

    iterations = (n + MACRO_TILE_Y - 1) // MACRO_TILE_Y
    for it in range(iterations):
        # Global matrix coordinates for D
        macro_tile_coord = make_coord2d(blockIdx.x, it) * macro_tile_size
        warp_tile_coord = macro_tile_coord + local_warp_offset

        # Bounds check
        warp_tile_bound = warp_tile_coord + warp_tile_size
        if get[0](warp_tile_bound) > m or get[1](warp_tile_bound) > n:
            return

        # 1D global read coordinate setup: initial and incremental offsets
        gr_buff_a_map_1d, gr_buff_b_map_1d = GetDataLayout_t[GRBuffA], GetDataLayout_t[GRBuffB]
        global_read_offset_a = gr_buff_a_map_1d.fromMatrixCoord(
            make_coord2d(get[0](macro_tile_coord), 0), lda)
        global_read_offset_b = gr_buff_b_map_1d.fromMatrixCoord(
            make_coord2d(0, get[1](macro_tile_coord)), ldb)
        k_step_offset_a = gr_buff_a_map_1d.fromMatrixCoord(make_coord2d(0, ROCWMMA_K), lda)
        k_step_offset_b = gr_buff_b_map_1d.fromMatrixCoord(make_coord2d(ROCWMMA_K, 0), ldb)

        # (The original computes warpCount / warpIndex here for the cooperative schedule;
        # coop_row_major_2d derives the same from the launch.)

        # Initial global pre-fetch
        gr_buff_a, gr_buff_b = GRBuffA(), GRBuffB()
        global_read_coop_a(gr_buff_a, a + global_read_offset_a, lda)
        global_read_coop_b(gr_buff_b, b + global_read_offset_b, ldb)
        global_read_offset_a += k_step_offset_a
        global_read_offset_b += k_step_offset_b

        # LDS addressing: two buffers pipeline the prefetch with the accumulation
        local_mem_ptr = dynamic_shared(InputT)
        lw_a_shape, lw_b_shape = GetIOShape_t[LWBuffA], GetIOShape_t[LWBuffB]
        lw_a_map_1d, lw_b_map_1d = GetDataLayout_t[LWBuffA], GetDataLayout_t[LWBuffB]

        lds_width = ROCWMMA_K
        lds_height = lw_a_shape.BlockHeight + lw_b_shape.BlockHeight
        size_lds = lds_height * lds_width
        ldsld = lds_width if DataLayoutLds is row_major else lds_height

        lds_ptr_lo = local_mem_ptr
        lds_ptr_hi = lds_ptr_lo + size_lds

        # Local write offsets to the start of the A / B data
        lds_write_offset_a = 0
        lds_write_offset_b = lw_a_map_1d.fromMatrixCoord(
            make_coord2d(lw_a_shape.BlockHeight, 0), ldsld)

        # Local read offsets for mfma frags
        lds_read_offset_a = lds_write_offset_a + lw_a_map_1d.fromMatrixCoord(
            make_coord2d(get[0](local_warp_offset), 0), ldsld)
        lds_read_offset_b = lds_write_offset_b + lw_b_map_1d.fromMatrixCoord(
            make_coord2d(get[1](local_warp_offset), 0), ldsld)

        # Write prefetch to local
        local_write_coop_a(lds_ptr_lo + lds_write_offset_a, gr_buff_a, ldsld)
        local_write_coop_b(lds_ptr_lo + lds_write_offset_b, gr_buff_b, ldsld)

        # Initialize accumulation frags
        frags_acc = [[MfmaFragAcc() for _ in range(BLOCKS_Y)] for _ in range(BLOCKS_X)]
        fill(frags_acc, 0)

        synchronize_workgroup()

        # Accumulate A * B for all mfma frags in the warp tile
        for _current_k in range(ROCWMMA_K, k, ROCWMMA_K):
            # Local read mfma frags from the first LDS buffer
            frags_a = local_read_a(lds_ptr_lo + lds_read_offset_a, ldsld)
            frags_b = local_read_b(lds_ptr_lo + lds_read_offset_b, ldsld)

            # Prefetch the next round of global frags
            global_read_coop_a(gr_buff_a, a + global_read_offset_a, lda)
            global_read_coop_b(gr_buff_b, b + global_read_offset_b, ldb)
            global_read_offset_a += k_step_offset_a
            global_read_offset_b += k_step_offset_b

            # accum(A * B)
            mfma(frags_acc, frags_a, frags_b, frags_acc)

            # Write the prefetch to the second LDS buffer
            local_write_coop_a(lds_ptr_hi + lds_write_offset_a, gr_buff_a, ldsld)
            local_write_coop_b(lds_ptr_hi + lds_write_offset_b, gr_buff_b, ldsld)

            # All waves have finished reading / writing LDS for current_k
            synchronize_workgroup()

            # Swap LDS buffers
            lds_ptr_lo, lds_ptr_hi = lds_ptr_hi, lds_ptr_lo

        # Clean up tail A * B
        frags_a = local_read_a(lds_ptr_lo + lds_read_offset_a, ldsld)
        frags_b = local_read_b(lds_ptr_lo + lds_read_offset_b, ldsld)
        mfma(frags_acc, frags_a, frags_b, frags_acc)

        # SiLU on the accumulators and the int8 conversion
        frags_act = [[MfmaFragAct() for _ in range(BLOCKS_Y)] for _ in range(BLOCKS_X)]
        do_silu(frags_acc, frags_act, apply_silu)

        global_write_d(d + GetDataLayout_t[MfmaFragD].fromMatrixCoord(warp_tile_coord, ldd),
                       frags_act, ldd)

        # Not in the original: when k / ROCWMMA_K is odd the tail above read the first LDS
        # buffer, which the next macro tile's prefetch overwrites at once; without this
        # barrier a wave can overwrite A/B that another wave has yet to read (the emulator
        # reports the race for n > MACRO_TILE_Y and k = 32, 96, ...).
        synchronize_workgroup()


def expf_rounded(x: np.ndarray) -> np.ndarray:
    """expf correctly rounded: exp in float64 (error < 1 ulp of double), rounded to float."""
    with np.errstate(over="ignore"):
        return np.exp(np.asarray(x, np.float64)).astype(np.float32)


def gemm_act_cpu(matrix_a, matrix_b, apply_silu: bool) -> np.ndarray:
    """The original's gemm_act_cpu, exactly: int64 accumulation, float SiLU with every
    operation rounded to float and expf correctly rounded, int8 saturation."""
    accum = common.exact_matmul(matrix_a, matrix_b)
    assert np.abs(accum).max(initial=0) < 2**31  # ComputeT = int32
    value = silu_f32(accum, expf_rounded) if apply_silu else accum.astype(ActComputeT)
    return saturate_int8(value)


def refusal(arch: str, m: int, n: int, k: int) -> str | None:
    """The original's host checks, in order; None when the launch may go ahead."""
    if not common.is_gfx9(arch):  # main(): gemm_test only if isGfx9()
        return "This sample not tested on gfx11/gfx12 yet!"
    if ROCWMMA_M != ROCWMMA_N or ROCWMMA_M not in (16, 32):
        return "Unsupported block size!"
    if get_arch(arch).wave_size != WARP_SIZE:
        return "Unsupported wave size!"
    if (m < MACRO_TILE_X or n < MACRO_TILE_Y or k < ROCWMMA_K
            or m % ROCWMMA_M or n % ROCWMMA_N or k % ROCWMMA_K):
        return "Unsupported matrix size!"
    # Not in the original: a size its check admits but whose last macro tile is partial makes
    # some waves of a workgroup return while the others wait at the barrier (or rows are never
    # written); refused here with the same message.
    if m % MACRO_TILE_X or n % MACRO_TILE_Y:
        return "Unsupported matrix size!"
    return None


def gemm_test(arch: str, m: int, n: int, k: int, seed: int) -> int:
    why = refusal(arch, m, n, k)
    if why:
        print(why)
        return common.REFUSED

    # Layouts leading dims
    lda = k if DataLayoutA is row_major else m
    ldb = n if DataLayoutB is row_major else k
    ldd = n if DataLayoutD is row_major else m
    apply_silu = True

    print("Initializing host data...")
    rng = np.random.default_rng(seed)
    matrix_a = common.fill_rand(rng, m, k, InputT)
    matrix_b = common.fill_rand(rng, k, n, InputT)
    # The original fills D with int8's "signaling NaN" (0); a sentinel is visible instead
    matrix_d = np.full(m * n, -(2**7), np.int8)

    print("Initializing device data...")
    d_a = common.to_memory(matrix_a, DataLayoutA is col_major)
    d_b = common.to_memory(matrix_b, DataLayoutB is col_major)

    block = (TBLOCK_X, TBLOCK_Y)
    grid = (ceil_div(m, MACRO_TILE_X),)
    print("Launching GEMM kernel...")
    print(f"gridDim ({grid[0]} 1) blockDim ({block[0]} {block[1]})")

    # Two LDS blocks for the prefetch loop (A and B), or the D tile in ComputeT
    lds_usage = max(2 * np.dtype(np.int8).itemsize * (MACRO_TILE_X + MACRO_TILE_Y) * ROCWMMA_K,
                    np.dtype(np.int32).itemsize * MACRO_TILE_X * MACRO_TILE_Y)

    # The original: 2 warm-ups and 5 timed runs; one timed run here
    runs = 1
    elapsed_ms = common.timed_ms(lambda: gemm_rocwmma_d[grid, block, lds_usage, arch](
        m, n, k, d_a, d_b, matrix_d, lda, ldb, ldd, apply_silu), runs)

    gflops = common.gflops(m, n, k)
    print("TBlockX, TBlockY, BlocksX, BlocksY, BlkM, BlkN, BlkK, MatM, MatN, MatK, lda, ldb, "
          "ldd, elapsedMs, Problem Size(GFlops), TFlops/s,sizeof(InputT)")
    print(", ".join(common.fmt(v) for v in (
        TBLOCK_X, TBLOCK_Y, BLOCKS_X, BLOCKS_Y, ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, m, n, k, lda,
        ldb, ldd, elapsed_ms, gflops, gflops / elapsed_ms * runs)) + ",1")
    print(f"(elapsedMs is the wall time of the emulated kernel on {arch})")

    print("Validating result with reference...")
    ref = gemm_act_cpu(matrix_a, matrix_b, apply_silu)
    got = matrix_d.reshape(m, n)  # row_major D
    status = common.report(common.compare_equal(got, ref, OutputT), bang=False)
    print("Finished!")
    return status


def main(argv: list[str] | None = None) -> int:
    """The original runs 128 x 128 x 64; the size flags default to 256^3."""
    args = common.sample_parser(__doc__, {"m": 256, "n": 256, "k": 256},
                                default_arch="gfx942").parse_args(argv)
    return gemm_test(args.arch, args.m, args.n, args.k, args.seed)


if __name__ == "__main__":
    raise SystemExit(main())
