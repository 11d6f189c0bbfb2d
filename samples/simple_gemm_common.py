"""The kernel and host code of rocWMMA's simple_sgemm / simple_dgemm / simple_hgemm (and the
host side of hipRTC_gemm), which differ only in their types (as rocWMMA's samples do).

One wave computes one 16x16 block of D = alpha * A x B + beta * C: A row-major m x k,
B col-major k x n, C and D row-major m x n, no LDS. The thread block is (4W, 4): sixteen
waves, each owning one output block.
"""

import numpy as np

from rocwmma_py import (
    Constants,
    accumulator,
    blockDim,
    blockIdx,
    ceil_div,
    col_major,
    fill_fragment,
    fragment,
    get_arch,
    kernel,
    load_matrix_sync,
    matrix_a,
    matrix_b,
    mem_row_major,
    mma_sync,
    row_major,
    store_matrix_sync,
    threadIdx,
)

from . import common

# Supports ROCWMMA_M/N of 16 (every target) or 32 (gfx9 only); ROCWMMA_K a multiple of 16.
ROCWMMA_M = ROCWMMA_N = ROCWMMA_K = 16
T_BLOCK_X_WAVES = 4  # T_BLOCK_X = 4 * WAVE_SIZE
T_BLOCK_Y = 4


def make_gemm_kernel(input_t, output_t, compute_t):
    """`gemm_rocwmma_d` for one type set (C++: the kernel of each sample's file)."""
    frag_a_t = fragment[matrix_a, ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, input_t, row_major]
    frag_b_t = fragment[matrix_b, ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, input_t, col_major]
    frag_c_t = fragment[accumulator, ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, output_t]
    frag_acc_t = fragment[accumulator, ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, compute_t]

    @kernel
    def gemm_rocwmma_d(m, n, k, a, b, c, d, lda, ldb, ldc, ldd,
                       alpha: compute_t, beta: compute_t):
        """Each wave computes one ROCWMMA_M x ROCWMMA_N block of D."""
        frag_a, frag_b = frag_a_t(), frag_b_t()
        frag_c, frag_acc = frag_c_t(), frag_acc_t()
        fill_fragment(frag_acc, 0.0)

        # Tile using a 2D grid
        major_warp = (blockIdx.x * blockDim.x + threadIdx.x) // Constants.AMDGCN_WAVE_SIZE
        minor_warp = blockIdx.y * blockDim.y + threadIdx.y

        # Target C block
        c_row = major_warp * ROCWMMA_M
        c_col = minor_warp * ROCWMMA_N

        if c_row < m and c_col < n:
            # frag_acc = A x B
            for i in range(0, k, ROCWMMA_K):
                load_matrix_sync(frag_a, a + (c_row * lda + i), lda)
                load_matrix_sync(frag_b, b + (i + c_col * ldb), ldb)
                mma_sync(frag_acc, frag_a, frag_b, frag_acc)

            load_matrix_sync(frag_c, c + (c_row * ldc + c_col), ldc, mem_row_major)

            # D = alpha * A x B + beta * C, in compute_t as C++ does with typed alpha/beta
            frag_c.x[:] = alpha * frag_acc.x + beta * frag_c.x

            store_matrix_sync(d + (c_row * ldd + c_col), frag_c, ldd, mem_row_major)

    return gemm_rocwmma_d


def gemm_test(gemm, arch: str, m: int, n: int, k: int, alpha, beta, seed: int,
              types: tuple) -> int:
    """The samples' host function: checks sizes, fills, launches, prints, validates."""
    input_t, output_t, compute_t = types
    wave = get_arch(arch).wave_size
    t_block_x = T_BLOCK_X_WAVES * wave
    if (m < ROCWMMA_M * t_block_x // wave or n < ROCWMMA_N * T_BLOCK_Y or k < ROCWMMA_K
            or m % ROCWMMA_M or n % ROCWMMA_N or k % ROCWMMA_K):
        print(f"Unsupported size! M must be a multiple of {ROCWMMA_M} and at least "
              f"{ROCWMMA_M * t_block_x // wave}, N a multiple of {ROCWMMA_N} and at least "
              f"{ROCWMMA_N * T_BLOCK_Y}, K a multiple of {ROCWMMA_K}")
        return common.REFUSED
    lda, ldb, ldc, ldd = k, k, n, n

    print("Initializing host data...")
    rng = np.random.default_rng(seed)
    matrix_a = common.fill_rand(rng, m, k, input_t)  # row_major
    matrix_b = common.fill_rand(rng, k, n, input_t)  # logical K x N
    matrix_c = common.fill_rand(rng, m, n, output_t)
    # Fill outputs with NaN to catch contamination
    matrix_d = np.full((m, n), np.nan, common.types.storage_dtype(output_t))

    print("Initializing device data...")
    d_b = common.to_memory(matrix_b, col_major=True)  # col_major, ldb = k

    grid = (ceil_div(m, ROCWMMA_M * t_block_x // wave), ceil_div(n, ROCWMMA_N * T_BLOCK_Y))
    block = (t_block_x, T_BLOCK_Y)
    print("Launching GEMM kernel...")
    elapsed_ms = common.timed_ms(lambda: gemm[grid, block, 0, arch](
        m, n, k, matrix_a, d_b, matrix_c, matrix_d, lda, ldb, ldc, ldd, alpha, beta))

    gflops = common.gflops(m, n, k)
    common.print_csv(
        ["BlkM", "BlkN", "BlkK", "MatM", "MatN", "MatK", "alpha", "lda", "ldb", "beta", "ldc",
         "ldd", "elapsedMs", "Problem Size(GFlops)", "TFlops/s"],
        [ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, m, n, k, compute_t(alpha), lda, ldb,
         compute_t(beta), ldc, ldd, elapsed_ms, gflops, gflops / elapsed_ms])
    print(f"(elapsedMs is the wall time of the emulated kernel on {arch})")

    print("Validating result with reference...")
    ref = common.gemm_reference(matrix_a, matrix_b, matrix_c, compute_t(alpha),
                                compute_t(beta), output_t)
    status = common.report(common.compare_equal(matrix_d, ref, output_t))
    print("Finished!")
    return status


def main_for(description: str, types: tuple, supported, refusal: str, argv) -> int:
    """main() of a simple GEMM sample: the original's 256^3 with alpha = beta = 2.1."""
    args = common.sample_parser(description, {"m": 256, "n": 256, "k": 256}).parse_args(argv)
    if not supported(args.arch):
        print(refusal)
        return common.REFUSED
    gemm = make_gemm_kernel(*types)
    return gemm_test(gemm, args.arch, args.m, args.n, args.k, 2.1, 2.1, args.seed, types)
