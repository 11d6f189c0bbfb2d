"""rocWMMA's community sample simple_gemm_swiglu in Python: the LLaMA/Mistral FFN gate,
D = silu(A x B_gate) * (A x B_up), as one fused dual GEMM; f16 inputs and output, f32
accumulation and activation; every target (the original's gfx9 and gfx11/gfx12 tables).

    rocwmma-sample simple_gemm_swiglu [--arch gfx1201] [-m 64 -n 256 -k 128] [--seed 0]

Design (the original's header comment): each wave computes a warp tile of BLOCKS_X x BLOCKS_Y
16x16 blocks of both products; the waves of a (TBLOCK_X, 2) workgroup cooperatively read A,
B_gate and B_up (all row-major) into a three-segment col-major LDS buffer (A | B_gate^T |
B_up^T, width ROCWMMA_K), double-buffered over K; after the tail, every element of the gate
accumulator goes through SiLU (x / (1 + __expf(-x)) for x >= 0, x * e / (1 + e) with
e = __expf(x) otherwise), is multiplied by the up accumulator in f32 and rounded to f16.
Inputs are fillRand's integers scaled by 1/16, as in the original.

Validation: gate and up exactly; silu(gate) * up in float64, rounded once to f16 (the
exactly rounded result up to float64's error); compareEqual with the original's tolerance
(10 f16 epsilons). The kernel's __expf is numpy's float32 exp.

Exit status: 0 PASSED, 1 FAILED, 2 refused ("Unsupported matrix size! M must be a multiple
of 64, ...").
"""

if not __package__:  # run as a file, `python samples/X.py`: run as its module instead
    __import__("_script").run_as_module(__file__)

from dataclasses import dataclass

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
    float16_t,
    float32_t,
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

from . import common


@dataclass(frozen=True)
class Params:
    """One of the original's compile-time parameter sets."""

    ROCWMMA_M: int
    ROCWMMA_N: int
    ROCWMMA_K: int
    BLOCKS_X: int
    BLOCKS_Y: int
    TBLOCK_X: int
    TBLOCK_Y: int
    WARP_SIZE: int

    @property
    def macro_tile(self) -> tuple[int, int]:
        return (self.TBLOCK_X // self.WARP_SIZE * self.BLOCKS_X * self.ROCWMMA_M,
                self.TBLOCK_Y * self.BLOCKS_Y * self.ROCWMMA_N)


#                   ROCWMMA_M/N/K  BLOCKS_X/Y  TBLOCK_X/Y  WARP_SIZE
GFX9_PARAMS = Params(16, 16, 16, 2, 2, 128, 2, Constants.AMDGCN_WAVE_SIZE_64)
GFX11_PARAMS = Params(16, 16, 16, 2, 2, 64, 2, Constants.AMDGCN_WAVE_SIZE_32)  # gfx11, gfx12

# Types and data layouts
InputT, OutputT, ComputeT = float16_t, float16_t, float32_t
DataLayoutA = DataLayoutBGate = DataLayoutBUp = DataLayoutD = row_major
DataLayoutLds = col_major
K_SCALE = np.float32(1.0 / 16.0)  # input scaling against f16 overflow of silu(gate) * up


def params_for(arch: str) -> Params:
    """`#if ROCWMMA_ARCH_GFX9` gfx9Params, else gfx11Params."""
    return GFX9_PARAMS if common.is_gfx9(arch) else GFX11_PARAMS


def silu(x: np.ndarray) -> np.ndarray:
    """The device's two-branch SiLU in f32, element-wise (both branches, then a select)."""
    one = np.float32(1)
    with np.errstate(over="ignore", invalid="ignore"):
        positive = x / (one + np.exp(-x))
        ex = np.exp(x)
        negative = x * ex / (one + ex)
    return np.where(x >= np.float32(0), positive, negative)


def make_kernel(p: Params):
    """gemm_swiglu_fused for one parameter set (the original compiles one per target)."""
    ROCWMMA_M, ROCWMMA_N, ROCWMMA_K = p.ROCWMMA_M, p.ROCWMMA_N, p.ROCWMMA_K  # noqa: N806
    BLOCKS_X, BLOCKS_Y, WARP_SIZE = p.BLOCKS_X, p.BLOCKS_Y, p.WARP_SIZE  # noqa: N806

    # Tile dimensions
    WARP_TILE_X, WARP_TILE_Y = BLOCKS_X * ROCWMMA_M, BLOCKS_Y * ROCWMMA_N  # noqa: N806
    MACRO_TILE_X, MACRO_TILE_Y = p.macro_tile  # noqa: N806
    MACRO_TILE_K = ROCWMMA_K  # noqa: N806

    # Per-block mma fragments (warp tile elements)
    MfmaFragA = fragment[matrix_a, ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, InputT, DataLayoutA]  # noqa: N806
    MfmaFragBGate = fragment[matrix_b, ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, InputT,  # noqa: N806
                             DataLayoutBGate]
    MfmaFragBUp = fragment[matrix_b, ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, InputT, DataLayoutBUp]  # noqa: N806
    # Accumulators and the SwiGLU result stay in ComputeT; OutputT only for the final store
    MfmaFragComputeOut = fragment[accumulator, ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, ComputeT]  # noqa: N806
    MfmaFragStoreOut = fragment[accumulator, ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, OutputT,  # noqa: N806
                                DataLayoutD]
    MfmaFragAcc = MfmaFragComputeOut  # noqa: N806

    # Cooperative global read (macro tile)
    CoopScheduler = coop_row_major_2d[p.TBLOCK_X, p.TBLOCK_Y]  # noqa: N806
    GRBuffA = fragment[matrix_a, MACRO_TILE_X, ROCWMMA_N, ROCWMMA_K, InputT, DataLayoutA,  # noqa: N806
                       CoopScheduler]
    GRBuffBGate = fragment[matrix_b, ROCWMMA_M, MACRO_TILE_Y, ROCWMMA_K, InputT,  # noqa: N806
                           DataLayoutBGate, CoopScheduler]
    GRBuffBUp = fragment[matrix_b, ROCWMMA_M, MACRO_TILE_Y, ROCWMMA_K, InputT,  # noqa: N806
                         DataLayoutBUp, CoopScheduler]

    # Local write (macro tile): col-major LDS, B transposed
    LWBuffA = apply_data_layout_t[GRBuffA, DataLayoutLds]  # noqa: N806
    LWBuffBGate = apply_data_layout_t[apply_transpose_t[GRBuffBGate], DataLayoutLds]  # noqa: N806
    LWBuffBUp = apply_data_layout_t[apply_transpose_t[GRBuffBUp], DataLayoutLds]  # noqa: N806

    # Local read (mma fragments): col-major LDS, B transposed
    LRFragA = apply_data_layout_t[MfmaFragA, DataLayoutLds]  # noqa: N806
    LRFragBGate = apply_data_layout_t[apply_transpose_t[MfmaFragBGate], DataLayoutLds]  # noqa: N806
    LRFragBUp = apply_data_layout_t[apply_transpose_t[MfmaFragBUp], DataLayoutLds]  # noqa: N806

    # --- device helpers ---------------------------------------------------------------------

    def global_read_coop(gr, addr, ld):
        """globalReadCoopA / BGate / BUp."""
        load_matrix_sync(gr, addr, ld)

    def local_write_coop_a(lds_addr, gr, ldsld):
        store_matrix_sync(lds_addr, apply_data_layout[DataLayoutLds](gr), ldsld)

    def local_write_coop_b(lds_addr, gr, ldsld):
        """localWriteCoopBGate / BUp: transposed, then the LDS layout."""
        store_matrix_sync(lds_addr, apply_data_layout[DataLayoutLds](apply_transpose(gr)), ldsld)

    def local_read(lr_frag, count, to_mma, lds_addr, ldsld):
        """localReadA / BGate / BUp: `count` blocks stacked vertically in LDS."""
        block_step = GetDataLayout_t[lr_frag].fromMatrixCoord(
            make_coord2d(GetIOShape_t[lr_frag].BlockHeight, 0), ldsld)
        frags = []
        for _ in range(count):
            tmp = lr_frag()
            load_matrix_sync(tmp, lds_addr, ldsld)
            frags.append(to_mma(tmp))
            lds_addr += block_step
        return frags

    def local_read_a(lds_addr, ldsld):
        return local_read(LRFragA, BLOCKS_X, apply_data_layout[DataLayoutA], lds_addr, ldsld)

    def local_read_b_gate(lds_addr, ldsld):
        return local_read(LRFragBGate, BLOCKS_Y,
                          lambda t: apply_data_layout[DataLayoutBGate](apply_transpose(t)),
                          lds_addr, ldsld)

    def local_read_b_up(lds_addr, ldsld):
        return local_read(LRFragBUp, BLOCKS_Y,
                          lambda t: apply_data_layout[DataLayoutBUp](apply_transpose(t)),
                          lds_addr, ldsld)

    def clear_acc_fragments(frags, val):
        for row in frags:
            for frag in row:
                fill_fragment(frag, val)

    def mfma_warp_tile(acc_out, frags_a, frags_b, acc_in):
        for i in range(BLOCKS_X):
            for j in range(BLOCKS_Y):
                mma_sync(acc_out[i][j], frags_a[i], frags_b[j], acc_in[i][j])

    def apply_swiglu(frags_d, frags_gate, frags_up):
        """D = silu(gate) * up, element-wise in ComputeT (no cast here)."""
        for i in range(BLOCKS_X):
            for j in range(BLOCKS_Y):
                frags_d[i][j].x[:] = silu(frags_gate[i][j].x) * frags_up[i][j].x

    def global_write_d(g_addr_d, frags_d, ldd):
        """ComputeT -> OutputT through a MfmaFragStoreOut per block (same element order)."""
        mapper_1d, shape = GetDataLayout_t[MfmaFragStoreOut], GetIOShape_t[MfmaFragStoreOut]
        block_step_x = mapper_1d.fromMatrixCoord(make_coord2d(shape.BlockHeight, 0), ldd)
        block_step_y = mapper_1d.fromMatrixCoord(make_coord2d(0, shape.BlockWidth), ldd)
        for i in range(BLOCKS_X):
            offset_y = 0
            for j in range(BLOCKS_Y):
                frag_out = MfmaFragStoreOut()
                frag_out.x[:] = frags_d[i][j].x  # static_cast<float16_t>: round to nearest
                store_matrix_sync(g_addr_d + offset_y, frag_out, ldd)
                offset_y += block_step_y
            g_addr_d += block_step_x

    def warp_tile(frag_t):
        return [[frag_t() for _ in range(BLOCKS_Y)] for _ in range(BLOCKS_X)]

    @kernel
    def gemm_swiglu_fused(m, n, k, a, b_gate, b_up, d, lda, ld_b_gate, ld_b_up, ldd):
        # Warp / tile coordinates
        warp_tile_size = make_coord2d(WARP_TILE_X, WARP_TILE_Y)
        macro_tile_size = make_coord2d(MACRO_TILE_X, MACRO_TILE_Y)

        local_warp_coord = make_coord2d(threadIdx.x // WARP_SIZE, threadIdx.y)
        local_warp_offset = local_warp_coord * warp_tile_size

        macro_tile_coord = make_coord2d(blockIdx.x, blockIdx.y) * macro_tile_size
        warp_tile_coord = macro_tile_coord + local_warp_offset

        # Skip warps outside the output matrix
        warp_tile_bound = warp_tile_coord + warp_tile_size
        if get[0](warp_tile_bound) > m or get[1](warp_tile_bound) > n:
            return

        # Global read address setup
        gr_a_map_1d = GetDataLayout_t[GRBuffA]
        gr_b_gate_map_1d = GetDataLayout_t[GRBuffBGate]
        gr_b_up_map_1d = GetDataLayout_t[GRBuffBUp]

        global_read_offset_a = gr_a_map_1d.fromMatrixCoord(
            make_coord2d(get[0](macro_tile_coord), 0), lda)
        global_read_offset_b_gate = gr_b_gate_map_1d.fromMatrixCoord(
            make_coord2d(0, get[1](macro_tile_coord)), ld_b_gate)
        global_read_offset_b_up = gr_b_up_map_1d.fromMatrixCoord(
            make_coord2d(0, get[1](macro_tile_coord)), ld_b_up)

        k_step_offset_a = gr_a_map_1d.fromMatrixCoord(make_coord2d(0, MACRO_TILE_K), lda)
        k_step_offset_b_gate = gr_b_gate_map_1d.fromMatrixCoord(
            make_coord2d(MACRO_TILE_K, 0), ld_b_gate)
        k_step_offset_b_up = gr_b_up_map_1d.fromMatrixCoord(
            make_coord2d(MACRO_TILE_K, 0), ld_b_up)

        # Initial global pre-fetch
        gr_buff_a, gr_buff_b_gate, gr_buff_b_up = GRBuffA(), GRBuffBGate(), GRBuffBUp()
        global_read_coop(gr_buff_a, a + global_read_offset_a, lda)
        global_read_coop(gr_buff_b_gate, b_gate + global_read_offset_b_gate, ld_b_gate)
        global_read_coop(gr_buff_b_up, b_up + global_read_offset_b_up, ld_b_up)
        global_read_offset_a += k_step_offset_a
        global_read_offset_b_gate += k_step_offset_b_gate
        global_read_offset_b_up += k_step_offset_b_up

        # LDS layout: col-major, three segments (A | B_gate^T | B_up^T) per buffer
        local_mem_ptr = dynamic_shared(InputT)
        lw_a_shape = GetIOShape_t[LWBuffA]
        lw_b_gate_shape = GetIOShape_t[LWBuffBGate]
        lw_b_up_shape = GetIOShape_t[LWBuffBUp]
        lw_a_map_1d = GetDataLayout_t[LWBuffA]
        lw_b_gate_map_1d = GetDataLayout_t[LWBuffBGate]
        lw_b_up_map_1d = GetDataLayout_t[LWBuffBUp]

        lds_width = MACRO_TILE_K
        lds_height = (lw_a_shape.BlockHeight + lw_b_gate_shape.BlockHeight
                      + lw_b_up_shape.BlockHeight)
        size_lds = lds_height * lds_width
        ldsld = lds_width if DataLayoutLds is row_major else lds_height

        lds_ptr_lo = local_mem_ptr
        lds_ptr_hi = lds_ptr_lo + size_lds

        # Write offsets of each segment from the buffer base
        lds_write_offset_a = 0
        lds_write_offset_b_gate = lw_a_map_1d.fromMatrixCoord(
            make_coord2d(lw_a_shape.BlockHeight, 0), ldsld)
        lds_write_offset_b_up = lds_write_offset_b_gate + lw_b_gate_map_1d.fromMatrixCoord(
            make_coord2d(lw_b_gate_shape.BlockHeight, 0), ldsld)

        # Per-warp read offsets (the warp's row / column slice of each segment)
        lds_read_offset_a = lds_write_offset_a + lw_a_map_1d.fromMatrixCoord(
            make_coord2d(get[0](local_warp_offset), 0), ldsld)
        lds_read_offset_b_gate = lds_write_offset_b_gate + lw_b_gate_map_1d.fromMatrixCoord(
            make_coord2d(get[1](local_warp_offset), 0), ldsld)
        lds_read_offset_b_up = lds_write_offset_b_up + lw_b_up_map_1d.fromMatrixCoord(
            make_coord2d(get[1](local_warp_offset), 0), ldsld)

        # Initial prefetch into the Lo buffer
        local_write_coop_a(lds_ptr_lo + lds_write_offset_a, gr_buff_a, ldsld)
        local_write_coop_b(lds_ptr_lo + lds_write_offset_b_gate, gr_buff_b_gate, ldsld)
        local_write_coop_b(lds_ptr_lo + lds_write_offset_b_up, gr_buff_b_up, ldsld)

        # Gate and up accumulators
        frags_acc_gate, frags_acc_up = warp_tile(MfmaFragAcc), warp_tile(MfmaFragAcc)
        clear_acc_fragments(frags_acc_gate, ComputeT(0))
        clear_acc_fragments(frags_acc_up, ComputeT(0))

        synchronize_workgroup()

        # K loop, double-buffered: compute from Lo while prefetching into Hi
        for _current_k in range(MACRO_TILE_K, k, MACRO_TILE_K):
            frags_a = local_read_a(lds_ptr_lo + lds_read_offset_a, ldsld)
            frags_b_gate = local_read_b_gate(lds_ptr_lo + lds_read_offset_b_gate, ldsld)
            frags_b_up = local_read_b_up(lds_ptr_lo + lds_read_offset_b_up, ldsld)

            global_read_coop(gr_buff_a, a + global_read_offset_a, lda)
            global_read_coop(gr_buff_b_gate, b_gate + global_read_offset_b_gate, ld_b_gate)
            global_read_coop(gr_buff_b_up, b_up + global_read_offset_b_up, ld_b_up)
            global_read_offset_a += k_step_offset_a
            global_read_offset_b_gate += k_step_offset_b_gate
            global_read_offset_b_up += k_step_offset_b_up

            mfma_warp_tile(frags_acc_gate, frags_a, frags_b_gate, frags_acc_gate)
            mfma_warp_tile(frags_acc_up, frags_a, frags_b_up, frags_acc_up)

            local_write_coop_a(lds_ptr_hi + lds_write_offset_a, gr_buff_a, ldsld)
            local_write_coop_b(lds_ptr_hi + lds_write_offset_b_gate, gr_buff_b_gate, ldsld)
            local_write_coop_b(lds_ptr_hi + lds_write_offset_b_up, gr_buff_b_up, ldsld)

            synchronize_workgroup()
            lds_ptr_lo, lds_ptr_hi = lds_ptr_hi, lds_ptr_lo

        # Tail: the last K step, still in Lo
        frags_a = local_read_a(lds_ptr_lo + lds_read_offset_a, ldsld)
        frags_b_gate = local_read_b_gate(lds_ptr_lo + lds_read_offset_b_gate, ldsld)
        frags_b_up = local_read_b_up(lds_ptr_lo + lds_read_offset_b_up, ldsld)
        mfma_warp_tile(frags_acc_gate, frags_a, frags_b_gate, frags_acc_gate)
        mfma_warp_tile(frags_acc_up, frags_a, frags_b_up, frags_acc_up)

        # Fused SwiGLU in registers, then the f16 store
        frags_d = warp_tile(MfmaFragComputeOut)
        apply_swiglu(frags_d, frags_acc_gate, frags_acc_up)
        global_write_d(d + GetDataLayout_t[MfmaFragStoreOut].fromMatrixCoord(warp_tile_coord,
                                                                            ldd),
                       frags_d, ldd)

    lds_seg_height = (GetIOShape_t[LWBuffA].BlockHeight + GetIOShape_t[LWBuffBGate].BlockHeight
                      + GetIOShape_t[LWBuffBUp].BlockHeight)
    return gemm_swiglu_fused, lds_seg_height


def swiglu_cpu_ref(matrix_a, matrix_b_gate, matrix_b_up) -> np.ndarray:
    """D = silu(A x B_gate) * (A x B_up): exact products, SiLU and Hadamard product in float64,
    one rounding to f16. (The original's reference accumulates and activates in float.)"""
    gate = common.exact_matmul(matrix_a, matrix_b_gate)
    up = common.exact_matmul(matrix_a, matrix_b_up)
    silu64 = gate / (1.0 + np.exp(-gate))
    return common.types.convert(silu64 * up, OutputT)


def print_device_info(arch: str) -> None:
    """printDeviceInfo, for the emulated target (samples/common.py DEVICES)."""
    dev, a = common.DEVICES[arch], get_arch(arch)
    print("\n=== GPU Hardware Info ===")
    print(f"  Device name     : {dev.product} (emulated)")
    print(f"  GCN arch        : {arch}")
    print(f"  Compute units   : {dev.cus}")
    print(f"  Warp size       : {a.wave_size}")
    print(f"  Shared mem/blk  : {a.lds_bytes >> 10} KiB")
    print(f"  Max clock (MHz) : {round(dev.clock_ghz * 1000)}")
    print("========================\n")


def run_swiglu_sample(arch: str, m: int, n: int, k: int, seed: int) -> int:
    print_device_info(arch)
    p = params_for(arch)
    macro_x, macro_y = p.macro_tile
    wave = get_arch(arch).wave_size

    # Architecture checks
    if (common.is_gfx11(arch) or common.is_gfx12(arch)) and (p.ROCWMMA_M, p.ROCWMMA_N) != (16, 16):
        print("Unsupported block size!")
        return common.REFUSED
    if common.is_gfx9(arch) and (p.ROCWMMA_M != p.ROCWMMA_N or p.ROCWMMA_M not in (16, 32)):
        print("Unsupported block size!")
        return common.REFUSED
    if wave != p.WARP_SIZE:
        print("Unsupported wave size!")
        return common.REFUSED
    if m % macro_x or n % macro_y or k % p.ROCWMMA_K or 0 in (m, n, k):
        print(f"Unsupported matrix size! M must be a multiple of {macro_x}, N must be a "
              f"multiple of {macro_y}, K must be a multiple of {p.ROCWMMA_K}")
        return common.REFUSED

    # Leading dimensions, all row-major
    lda, ld_b_gate, ld_b_up, ldd = k, n, n, n

    print(f"Initializing host data (m={m} n={n} k={k})...")
    rng = np.random.default_rng(seed)

    def scaled(rows, cols):
        # fillRand's integers, then static_cast<InputT>(float(x) * kScale)
        return common.types.convert(
            common.fill_rand(rng, rows, cols, InputT).astype(np.float32) * K_SCALE, InputT)

    mat_a, mat_b_gate, mat_b_up = scaled(m, k), scaled(k, n), scaled(k, n)
    mat_d = np.full(m * n, np.nan, np.float16)  # NaN to catch contamination

    print("Allocating device memory...")
    block = (p.TBLOCK_X, p.TBLOCK_Y)
    grid = (ceil_div(m, macro_x), ceil_div(n, macro_y))
    print(f"gridDim  ({grid[0]} {grid[1]})  blockDim ({block[0]} {block[1]})")

    gemm, lds_seg_height = make_kernel(p)
    # Two ping-pong buffers of three segments x MACRO_TILE_K columns
    lds_usage = 2 * np.dtype(np.float16).itemsize * lds_seg_height * p.ROCWMMA_K
    print(f"LDS usage: {lds_usage} bytes ({lds_usage // 1024} KiB)")

    def run():
        gemm[grid, block, lds_usage, arch](m, n, k, mat_a, mat_b_gate, mat_b_up, mat_d, lda,
                                          ld_b_gate, ld_b_up, ldd)

    warmups, record_runs = 0, 1  # the original: 2 and 5
    print("Warming up...")
    common.timed_ms(run, warmups)
    print("Benchmarking...")
    elapsed_ms = common.timed_ms(run, record_runs)

    # Two GEMMs of 2 m n k FLOPs each
    gflops_per_run = 2.0 * 2.0 * m * n * k * 1e-9
    tflops = gflops_per_run * record_runs / (elapsed_ms * 1e-3) * 1e-3
    common.print_columns(
        [("TBlkX", 8), ("TBlkY", 8), ("BlkM", 6), ("BlkN", 6), ("BlkK", 6), ("MatM", 8),
         ("MatN", 8), ("MatK", 8), ("lda", 8), ("ldBGate", 8), ("ldBUp", 8), ("ldd", 8),
         ("elapsedMs", 14), ("GFlops(2xGEMM)", 22), ("TFlops/s", 12), ("Warmups", 10),
         ("Runs", 10)],
        [p.TBLOCK_X, p.TBLOCK_Y, p.ROCWMMA_M, p.ROCWMMA_N, p.ROCWMMA_K, m, n, k, lda,
         ld_b_gate, ld_b_up, ldd, elapsed_ms, gflops_per_run * record_runs, tflops, warmups,
         record_runs])
    print(f"(elapsedMs is the wall time of the emulated kernel on {arch})")

    print("\nValidating against CPU reference...")
    ref = swiglu_cpu_ref(mat_a, mat_b_gate, mat_b_up)
    status = common.report(common.compare_equal(mat_d.reshape(m, n), ref, OutputT), bang=False)
    print("Finished!")
    return status


def main(argv: list[str] | None = None) -> int:
    """The original's quick validation case, 64 x 256 x 128 (its --all LLaMA-2 sizes are not
    offered: far beyond an emulator)."""
    args = common.sample_parser(__doc__, {"m": 64, "n": 256, "k": 128},
                                default_arch="gfx942").parse_args(argv)
    print("Community Sample: SwiGLU Fused Dual GEMM")
    print("This sample demonstrates: fused dual-GEMM + SiLU activation (LLaMA/Mistral FFN gate "
          "layer) using rocWMMA")
    status = run_swiglu_sample(args.arch, args.m, args.n, args.k, args.seed)
    if status != common.REFUSED:
        print("Sample completed successfully!")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
