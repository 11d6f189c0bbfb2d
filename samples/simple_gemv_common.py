"""The kernel and host code of rocWMMA's simple_sgemv / simple_dgemv, which differ only in
their type (as rocWMMA's samples do): y = alpha * A x + beta * y, A col-major m x k.

Like the original, x is loaded as a 16-column matrix_b (col-major, ldb = k) and y as a
16-column accumulator (col-major, ldc = m) updated in place, so the kernel touches
16 columns of each although only column 0 is the vector. The C++ sample allocates just the
vectors and lets columns 1..15 run past them; here the buffers are allocated k x 16 and
m x 16 (columns 1..15 zero), which bounds checking requires, and only column 0 is validated.
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
    mem_col_major,
    mma_sync,
    store_matrix_sync,
    threadIdx,
)

from . import common

ROCWMMA_M = ROCWMMA_N = ROCWMMA_K = 16
T_BLOCK_X_WAVES = 16  # T_BLOCK_X = 16 * WAVE_SIZE
T_BLOCK_Y = 1


def make_gemv_kernel(data_t):
    """`sgemv_rocwmma_d` / `dgemv_rocwmma_d`: each wave computes ROCWMMA_M rows of y."""
    frag_a_t = fragment[matrix_a, ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, data_t, col_major]
    frag_b_t = fragment[matrix_b, ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, data_t, col_major]
    frag_c_t = fragment[accumulator, ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, data_t]
    frag_acc_t = fragment[accumulator, ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, data_t]

    @kernel
    def gemv_rocwmma_d(m, n, k, a, b, c, d, lda, ldb, ldc, ldd, alpha: data_t, beta: data_t):
        frag_a, frag_b = frag_a_t(), frag_b_t()
        frag_c, frag_acc = frag_c_t(), frag_acc_t()
        fill_fragment(frag_acc, 0.0)

        major_warp = (blockIdx.x * blockDim.x + threadIdx.x) // Constants.AMDGCN_WAVE_SIZE

        # Target C block
        c_row = major_warp * ROCWMMA_M

        if c_row < m:
            # frag_acc = A x B
            for i in range(0, k, ROCWMMA_K):
                load_matrix_sync(frag_a, a + (c_row + i * lda), lda)
                load_matrix_sync(frag_b, b + i, ldb)
                mma_sync(frag_acc, frag_a, frag_b, frag_acc)

            load_matrix_sync(frag_c, c + c_row, ldc, mem_col_major)
            frag_c.x[:] = alpha * frag_acc.x + beta * frag_c.x

            # Store the output (ldc, as the original)
            store_matrix_sync(d + c_row, frag_c, ldc, mem_col_major)

    return gemv_rocwmma_d


def main_for(name: str, description: str, data_t, supported, refusal: str, argv) -> int:
    """main() and `*gemv_test` of the GEMV samples: m = k = 256, n = T_BLOCK_Y * 16 = 16."""
    args = common.sample_parser(description, {"m": 256, "k": 256}).parse_args(argv)
    if not supported(args.arch):
        print(refusal)
        return common.REFUSED
    m, k, n = args.m, args.k, T_BLOCK_Y * ROCWMMA_N
    alpha = beta = data_t(2.1)
    if m % ROCWMMA_M or n % ROCWMMA_N or k % ROCWMMA_K:
        print(f"Unsupported size! M must be a multiple of {ROCWMMA_M}, K a multiple of "
              f"{ROCWMMA_K}")
        return common.REFUSED
    lda, ldb, ldc, ldd = m, k, m, m

    print("Initializing host data...")
    rng = np.random.default_rng(args.seed)
    matrix_a = common.fill_rand(rng, m, k, data_t)  # logical m x k, stored col_major
    vector_x = common.fill_rand(rng, k, 1, data_t)
    vector_y = np.ones((m, 1), data_t)

    print("Initializing device data...")
    d_a = common.to_memory(matrix_a, col_major=True)
    d_b = np.zeros((ROCWMMA_N, k), data_t)  # col_major k x 16: column 0 is x
    d_b[0] = vector_x[:, 0]
    d_c = np.zeros((ROCWMMA_N, m), data_t)  # col_major m x 16: column 0 is y, in place
    d_c[0] = vector_y[:, 0]

    wave = get_arch(args.arch).wave_size
    t_block_x = T_BLOCK_X_WAVES * wave
    grid = (ceil_div(m, ROCWMMA_M * t_block_x // wave), ceil_div(n, ROCWMMA_N * T_BLOCK_Y))
    print(f"Launching {name} kernel...")
    gemv = make_gemv_kernel(data_t)
    gemv[grid, (t_block_x, T_BLOCK_Y), 0, args.arch](m, n, k, d_a, d_b, d_c, d_c, lda, ldb,
                                                     ldc, ldd, alpha, beta)
    common.print_csv(["BlkM", "BlkN", "BlkK", "MatM", "MatN", "MatK"],
                     [ROCWMMA_M, ROCWMMA_N, ROCWMMA_K, m, n, k])

    print("Validating result with reference...")
    ref = common.gemm_reference(matrix_a, vector_x, vector_y, alpha, beta, data_t)
    status = common.report(common.compare_equal(d_c[0], ref[:, 0], data_t))
    print("Finished!")
    return status
