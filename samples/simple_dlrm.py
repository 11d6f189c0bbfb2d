"""rocWMMA's simple_dlrm in Python: the DLRM interaction ("dot") layer, forward and backward,
f16 data with f32 accumulation, TILE_DIM 16, 128-thread blocks, no LDS (as rocWMMA's sample).

Forward: D[b] = A[b] x A[b]^T per batch (A m x k row-major, the same buffer read col-major as
B), stored to an f32 m x m scratch; lanes then copy its strictly lower triangle after the
batch's bottom-MLP row into the output. Backward: trilReconstruct rebuilds the symmetric
m x m gradient (zero diagonal), then grad[b] = tril[b] x input[b], and the bottom-MLP
gradient is copied. Per-lane conditions (`if (row > col) out[...] = ...`) use `where`.

    rocwmma-sample simple_dlrm [--arch gfx1100] [-m 32 -k 128 -b 64] [--direction both]

Validation: compareEqual with tolerance 1.0. Exit status: 0 PASSED, 1 FAILED, 2 refused.
"""

if not __package__:  # run as a file, `python samples/X.py`: run as its module instead
    __import__("_script").run_as_module(__file__)

import numpy as np

from rocwmma_py import (
    Constants,
    Log2,
    MappingUtil,
    accumulator,
    blockDim,
    blockIdx,
    ceil_div,
    col_major,
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
    mem_row_major,
    mma_sync,
    row_major,
    store_matrix_sync,
    synchronize_workgroup,
    threadIdx,
    where,
)

from . import common

TILE_DIM = 16  # 16 x 16 fragments (32 x 32 on gfx9 only)
T_BLOCK_X = 128  # each wave computes one TILE_DIM x TILE_DIM output block

MappingA = MappingUtil[TILE_DIM, TILE_DIM, float16_t, row_major]
MappingB = MappingUtil[TILE_DIM, TILE_DIM, float16_t, col_major]
MappingC = MappingUtil[TILE_DIM, TILE_DIM, float16_t, row_major]
MappingAcc = MappingUtil[TILE_DIM, TILE_DIM, float32_t, row_major]
TileMapping = MappingC

FragAFwd = fragment[matrix_a, TILE_DIM, TILE_DIM, TILE_DIM, float16_t, row_major]
FragBFwd = fragment[matrix_b, TILE_DIM, TILE_DIM, TILE_DIM, float16_t, col_major]
FragBBwd = fragment[matrix_b, TILE_DIM, TILE_DIM, TILE_DIM, float16_t, row_major]
FragC = fragment[accumulator, TILE_DIM, TILE_DIM, TILE_DIM, float16_t]
FragAcc = fragment[accumulator, TILE_DIM, TILE_DIM, TILE_DIM, float32_t]


@kernel
def dlrm_dot_fwd(input, output, acc, m, k, b, input_batch_offset, output_batch_offset,  # noqa: A002
                 acc_batch_offset):
    """Forward interaction: one TILE_DIM x TILE_DIM block of A x A^T per wave."""
    # Copy the bottom MLP to the output: threads with a global index < k copy. The original's
    # count = k >> Log2<T_BLOCK_X> truncates, so k < T_BLOCK_X copied nothing and a k that is
    # not a multiple of T_BLOCK_X lost its tail (left uninitialised); round up, the guard trims.
    global_thread_coord = blockIdx.x * blockDim.x + threadIdx.x
    count = (k + T_BLOCK_X - 1) >> Log2[T_BLOCK_X]
    if blockIdx.x == 0 and blockIdx.y == 0:
        for i in range(count):
            with where(i * blockDim.x + global_thread_coord < k):
                output[output_batch_offset * blockIdx.z + i * blockDim.x + global_thread_coord] = \
                    input[input_batch_offset * blockIdx.z + i * blockDim.x + global_thread_coord]

    # Target output block
    matrix_coord_c = MappingC.matrixCoord()
    if get[0](matrix_coord_c) < m and get[1](matrix_coord_c) < m:
        frag_acc = FragAcc()
        fill_fragment(frag_acc, float32_t(0))

        # Starting addresses; A steps TILE_DIM through m x k, B through k x m
        input_with_offset = input + input_batch_offset * blockIdx.z
        addr_a = MappingA.dataCoord(input_with_offset, make_coord2d(get[0](matrix_coord_c), 0), k)
        addr_b = MappingB.dataCoord(input_with_offset, make_coord2d(0, get[1](matrix_coord_c)), k)
        incr_a = MappingA.dataOffset(make_coord2d(0, TILE_DIM), k)
        incr_b = MappingB.dataOffset(make_coord2d(TILE_DIM, 0), k)

        for _ in range(k // TILE_DIM):
            synchronize_workgroup()
            frag_a, frag_b = FragAFwd(), FragBFwd()
            load_matrix_sync(frag_a, addr_a, k)
            load_matrix_sync(frag_b, addr_b, k)
            mma_sync(frag_acc, frag_a, frag_b, frag_acc)
            addr_a += incr_a
            addr_b += incr_b
        synchronize_workgroup()

        # Store frag_acc to the global f32 scratch
        acc_with_offset = acc + acc_batch_offset * blockIdx.z
        addr_acc = MappingAcc.dataCoord(acc_with_offset, matrix_coord_c, m)
        store_matrix_sync(addr_acc, frag_acc, m, mem_row_major)

        # Copy the strictly lower triangle from the scratch to the output
        frag_col_idx = threadIdx.x % TILE_DIM
        global_col_idx = get[1](matrix_coord_c) + frag_col_idx
        rows_per_step = Constants.AMDGCN_WAVE_SIZE // TILE_DIM
        count = (TILE_DIM * TILE_DIM) >> Log2[Constants.AMDGCN_WAVE_SIZE]
        for i in range(count):
            frag_row_idx = i * rows_per_step + (
                (threadIdx.x & (Constants.AMDGCN_WAVE_SIZE - 1)) // TILE_DIM)
            global_row_idx = get[0](matrix_coord_c) + frag_row_idx
            with where(global_row_idx > global_col_idx):
                output_offset = k + ((global_row_idx * (global_row_idx - 1)) >> 1)
                # (float16_t)acc[...]: one RNE per lane (a numpy scalar type called on
                # per-lane values would rerun the block per wave; astype is lane-wise)
                output[output_batch_offset * blockIdx.z + output_offset + global_col_idx] = \
                    acc[acc_batch_offset * blockIdx.z + global_row_idx * m
                        + global_col_idx].astype(float16_t)


@kernel
def tril_reconstruct(upstream_grad, acc, m, k, b, upstream_batch_offset, acc_batch_offset):
    """Rebuild the symmetric m x m gradient (zero diagonal) from its lower triangle."""
    blocks_per_row = (m + blockDim.x - 1) // blockDim.x
    if blockDim.x >= m:
        global_row_idx = blockIdx.x * (blockDim.x // m) + (threadIdx.x // m)
    else:
        global_row_idx = blockIdx.x // blocks_per_row
    global_col_idx = (blockIdx.x * blockDim.x + threadIdx.x) % m
    inside = (global_row_idx < m) & (global_col_idx < m)
    with where(inside & (global_row_idx == global_col_idx)):
        acc[acc_batch_offset * blockIdx.z + global_row_idx * m + global_col_idx] = 0.0
    with where(inside & (global_row_idx > global_col_idx)):
        upstream_grad_offset = k + ((global_row_idx * (global_row_idx - 1)) >> 1)
        value = upstream_grad[upstream_batch_offset * blockIdx.z + upstream_grad_offset
                              + global_col_idx]
        acc[acc_batch_offset * blockIdx.z + global_row_idx * m + global_col_idx] = value  # tril
        acc[acc_batch_offset * blockIdx.z + global_col_idx * m + global_row_idx] = value  # ^T


@kernel
def dlrm_dot_bwd(input, upstream_grad, grad, bottom_mlp_grad, acc, m, k, b,  # noqa: A002
                 input_batch_offset, upstream_batch_offset, acc_batch_offset):
    """Backward interaction: one TILE_DIM x TILE_DIM block of tril x input per wave."""
    # Copy the bottom MLP gradient: threads with a global index < k copy. The original clamps
    # count = k >> Log2<T_BLOCK_X> to >= 1, which still drops the tail of a k that is not a
    # multiple of T_BLOCK_X (e.g. 160); round up as in the forward kernel.
    global_thread_coord = blockIdx.x * blockDim.x + threadIdx.x
    count = (k + T_BLOCK_X - 1) >> Log2[T_BLOCK_X]
    if blockIdx.x == 0 and blockIdx.y == 0:
        for i in range(count):
            with where(i * blockDim.x + global_thread_coord < k):
                bottom_mlp_grad[k * blockIdx.z + i * blockDim.x + global_thread_coord] = \
                    upstream_grad[upstream_batch_offset * blockIdx.z + i * blockDim.x
                                  + global_thread_coord]

    matrix_coord_c = TileMapping.matrixCoord()
    if get[0](matrix_coord_c) < m and get[1](matrix_coord_c) < k:
        frag_acc = FragAcc()
        fill_fragment(frag_acc, float32_t(0))

        # Starting addresses; A steps TILE_DIM through m x m, B through m x k
        acc_with_offset = acc + acc_batch_offset * blockIdx.z
        input_with_offset = input + input_batch_offset * blockIdx.z
        addr_a = TileMapping.dataCoord(acc_with_offset, make_coord2d(get[0](matrix_coord_c), 0), m)
        addr_b = TileMapping.dataCoord(input_with_offset,
                                       make_coord2d(0, get[1](matrix_coord_c)), k)
        incr_a = TileMapping.dataOffset(make_coord2d(0, TILE_DIM), m)
        incr_b = TileMapping.dataOffset(make_coord2d(TILE_DIM, 0), k)

        for _ in range(m // TILE_DIM):
            frag_a, frag_b = FragAFwd(), FragBBwd()
            load_matrix_sync(frag_a, addr_a, m)
            load_matrix_sync(frag_b, addr_b, k)
            mma_sync(frag_acc, frag_a, frag_b, frag_acc)
            addr_a += incr_a
            addr_b += incr_b

        grad_with_offset = grad + input_batch_offset * blockIdx.z
        addr_grad = TileMapping.dataCoord(grad_with_offset, matrix_coord_c, k)
        frag_c = FragC()
        frag_c.x[:] = frag_acc.x  # float16_t(fragAcc.x[i]): one RNE per element
        store_matrix_sync(addr_grad, frag_c, k, mem_row_major)


# --- host --------------------------------------------------------------------------------------


def dlrm_dot_fwd_cpu(inp: np.ndarray, m: int, k: int) -> np.ndarray:
    """dlrmDotFwdCPU, exact: per batch the bottom-MLP row, then tril(A A^T) row by row."""
    rows, cols = np.tril_indices(m, -1)
    out = [np.concatenate([a[0], common.exact_matmul(a, a.T)[rows, cols]]) for a in inp]
    return np.stack(out).astype(np.float16)


def tril_matrix(upstream: np.ndarray, m: int, k: int) -> np.ndarray:
    """The symmetric m x m matrix (zero diagonal) whose lower triangle follows k MLP values."""
    rows, cols = np.tril_indices(m, -1)
    temp = np.zeros((m, m), np.float16)
    temp[rows, cols] = temp[cols, rows] = upstream[k:]
    return temp


def dlrm_test(arch: str, m: int, k: int, b: int, forward: bool, seed: int) -> int:
    """dlrm_test: fill, launch, print and validate one direction."""
    rng = np.random.default_rng(seed)
    h_input = common.fill_unit(rng, (b, m, k), float16_t)
    tril_size = m * (m - 1) // 2 + k
    wave = get_arch(arch).wave_size
    input_batch_offset, acc_batch_offset = m * k, m * m
    print(f"Launching {'forwards' if forward else 'backwards'} DLRM kernel...")
    if forward:
        h_output = np.full((b, tril_size), np.nan, np.float16)
        d_acc = np.zeros((b, m, m), np.float32)
        grid = (ceil_div(m, TILE_DIM * T_BLOCK_X // wave), ceil_div(m, TILE_DIM), b)
        elapsed_ms = common.timed_ms(lambda: dlrm_dot_fwd[grid, T_BLOCK_X, 0, arch](
            h_input, h_output, d_acc, m, k, b, input_batch_offset, tril_size, acc_batch_offset))
    else:
        h_upstream = common.fill_unit(rng, (b, tril_size), float16_t)
        h_grad = np.full((b, m, k), np.nan, np.float16)
        h_bottom_mlp_grad = np.full((b, k), np.nan, np.float16)
        d_acc = np.zeros((b, m, m), np.float16)

        def run():
            tril_reconstruct[(ceil_div(m * m, T_BLOCK_X), 1, b), T_BLOCK_X, 0, arch](
                h_upstream, d_acc, m, k, b, tril_size, acc_batch_offset)
            grid = (ceil_div(m, TILE_DIM * T_BLOCK_X // wave), ceil_div(k, TILE_DIM), b)
            dlrm_dot_bwd[grid, T_BLOCK_X, 0, arch](
                h_input, h_upstream, h_grad, h_bottom_mlp_grad, d_acc, m, k, b,
                input_batch_offset, tril_size, acc_batch_offset)

        elapsed_ms = common.timed_ms(run)
    gflops = 2.0 * m * m * k * b * 1.0e-9
    common.print_csv(["TileSize", "MatM", "MatK", "Batches", "elapsedMs",
                      "Problem Size(GFlops)", "TFlops/s"],
                     [TILE_DIM, m, k, b, elapsed_ms, gflops, gflops / elapsed_ms])

    print("Validating result with reference...")
    if forward:
        status = common.report(common.compare_equal(
            h_output, dlrm_dot_fwd_cpu(h_input, m, k), float16_t, 1.0))
    else:
        grad_ref = np.stack([common.exact_matmul(tril_matrix(u, m, k), a)
                             for u, a in zip(h_upstream, h_input, strict=True)])
        status = max(
            common.report(common.compare_equal(h_grad, grad_ref.astype(np.float16),
                                               float16_t, 1.0)),
            common.report(common.compare_equal(h_bottom_mlp_grad, h_upstream[:, :k],
                                               float16_t, 1.0)))
    print("Finished!")
    return status


def main(argv: list[str] | None = None) -> int:
    parser = common.sample_parser(__doc__, {"m": 32, "k": 128, "b": 64})
    parser.add_argument("--direction", choices=("forward", "backward", "both"), default="both",
                        help="training pass to run (default both, forward first)")
    args = parser.parse_args(argv)
    if args.m % TILE_DIM or args.k % TILE_DIM:
        print(f"Unsupported size! M and K must be multiples of {TILE_DIM}")
        return common.REFUSED
    passes = {"forward": [True], "backward": [False], "both": [True, False]}[args.direction]
    return max(dlrm_test(args.arch, args.m, args.k, args.b, fwd, args.seed) for fwd in passes)


if __name__ == "__main__":
    raise SystemExit(main())
