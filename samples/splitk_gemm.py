"""Split-K GEMM: D = A x B with K split across blocks, partial tiles combined by atomicAdd.

    rocwmma-sample splitk_gemm [--arch gfx1100] [-m 64 -n 64 -k 512] [--splits 4] [--seed 0]

f16 inputs (A row-major m x k, B col-major k x n), f32 D (row-major, zeroed first). The grid
is (m/32, n/32, splits): block (x, y, z) computes the 32x32 tile (x, y) over the K slice z
with rocWMMA fragments (2x2 waves, one 16x16x16 f16 -> f32 accumulator each), stores its
partial tile to LDS and adds it into D with f32 atomicAdd, one element per lane per call.
A GEMM whose M and N are too small to fill a GPU gets `splits` times more blocks this way.

The atomics apply in the emulator's documented order (blocks in order, so slice 0 first,
then slice 1, ...), so D is the same every run and on both engines, although f32 addition
is not associative. Three checks:
1. integer data (rocWMMA's fillRand values): every partial sum is an integer below 2**24,
   so every order gives the exact product; D must equal it exactly;
2. random normal data: |D - A.B| must stay within gamma(K + splits) * (|A|.|B|), the
   rounding error bound of any evaluation order in which each product passes through at most
   K + splits f32 roundings (Higham, ASNA 3.1: K/splits inside a slice, `splits` atomic adds);
3. determinism: a second run on the random data gives D bit for bit.

Exit status: 0 PASSED, 1 FAILED, 2 refused (sizes that do not tile).
"""

if not __package__:  # run as a file, `python samples/X.py`: run as its module instead
    __import__("_script").run_as_module(__file__)

import numpy as np

from rocwmma_py import (
    accumulator,
    atomicAdd,
    blockIdx,
    col_major,
    fill_fragment,
    float16_t,
    float32_t,
    fragment,
    kernel,
    lane_id,
    load_matrix_sync,
    matrix_a,
    matrix_b,
    mem_row_major,
    mma_sync,
    row_major,
    shared_array,
    store_matrix_sync,
    threadIdx,
    wave_size,
)

from . import common

TILE = 16  # one wave's 16x16 block of D
WAVES_X, WAVES_Y = 2, 2  # waves per block: the block's tile is 32x32
BLOCK_TILE_M, BLOCK_TILE_N = WAVES_X * TILE, WAVES_Y * TILE

FragA = fragment[matrix_a, TILE, TILE, TILE, float16_t, row_major]
FragB = fragment[matrix_b, TILE, TILE, TILE, float16_t, col_major]
FragAcc = fragment[accumulator, TILE, TILE, TILE, float32_t]


@kernel
def gemm_splitk(a, b, d, lda, ldb, ldd, k_slice):
    wave_x, wave_y = threadIdx.x // wave_size(), threadIdx.y
    row0 = blockIdx.x * BLOCK_TILE_M + wave_x * TILE
    col0 = blockIdx.y * BLOCK_TILE_N + wave_y * TILE
    a_slice = a + (row0 * lda + blockIdx.z * k_slice)  # this block's K slice of A and B
    b_slice = b + (col0 * ldb + blockIdx.z * k_slice)

    frag_a, frag_b, acc = FragA(), FragB(), FragAcc()
    fill_fragment(acc, 0.0)
    for kk in range(0, k_slice, TILE):  # the same trip count in every block
        load_matrix_sync(frag_a, a_slice + kk, lda)
        load_matrix_sync(frag_b, b_slice + kk, ldb)
        mma_sync(acc, frag_a, frag_b, acc)

    # The partial tile goes through this wave's own LDS region (no other wave reads it),
    # then every lane adds its share of the 256 elements into D.
    partial = shared_array(float32_t, WAVES_X * WAVES_Y * TILE * TILE)
    region = partial + (wave_x + WAVES_X * wave_y) * TILE * TILE
    store_matrix_sync(region, acc, TILE, mem_row_major)
    for i in range(TILE * TILE // wave_size()):
        idx = i * wave_size() + lane_id()
        row, col = idx // TILE, idx % TILE
        atomicAdd(d + ((row0 + row) * ldd + col0 + col), region[idx])


def run(arch: str, a: np.ndarray, b: np.ndarray, splits: int) -> np.ndarray:
    """D = A x B (A m x k f16, B k x n f16 as logical matrices) by the split-K kernel."""
    m, k = a.shape
    n = b.shape[1]
    a_mem = common.to_memory(a, col_major=False)
    b_mem = common.to_memory(b, col_major=True)
    d = np.zeros(m * n, np.float32)  # atomics accumulate into D: it starts at zero
    width = common.get_arch(arch).wave_size
    grid = (m // BLOCK_TILE_M, n // BLOCK_TILE_N, splits)
    gemm_splitk[grid, (WAVES_X * width, WAVES_Y), 0, arch](
        a_mem, b_mem, d, k, k, n, k // splits
    )
    return d.reshape(m, n)


def error_bound(a: np.ndarray, b: np.ndarray, splits: int) -> np.ndarray:
    """gamma(K + splits) * (|A|.|B|) with u = 2**-24, plus 2**-50 (|A|.|B|) for the float64
    reference's own rounding."""
    u, steps = 2.0**-24, a.shape[1] + splits
    magnitude = np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64))
    return (steps * u / (1 - steps * u) + 2.0**-50) * magnitude


def main(argv: list[str] | None = None) -> int:
    parser = common.sample_parser(__doc__, {"m": 64, "n": 64, "k": 512})
    parser.add_argument("--splits", type=common.positive_int, default=4, metavar="S",
                        help="number of K slices, one block per slice and tile (default 4)")
    args = parser.parse_args(argv)
    m, n, k, splits = args.m, args.n, args.k, args.splits
    print(f"splitk_gemm on {args.arch}: m={m} n={n} k={k}, {splits} K slices, "
          f"{BLOCK_TILE_M}x{BLOCK_TILE_N} tiles per block ({WAVES_X}x{WAVES_Y} waves)")
    if (m % BLOCK_TILE_M or n % BLOCK_TILE_N or splits < 1 or k % (splits * TILE)
            or min(m, n, k) < 1):
        print(f"Unsupported size! m and n must be multiples of {BLOCK_TILE_M}, k a multiple "
              f"of {TILE} * splits")
        return common.REFUSED
    rng = np.random.default_rng(args.seed)

    a_int = common.fill_rand(rng, m, k, float16_t)
    b_int = common.fill_rand(rng, k, n, float16_t)
    exact = common.exact_matmul(a_int, b_int)
    ok = common.validate("integer data (exact)", run(args.arch, a_int, b_int, splits), exact)

    a_rand = rng.standard_normal((m, k)).astype(np.float16)
    b_rand = rng.standard_normal((k, n)).astype(np.float16)
    d_rand = run(args.arch, a_rand, b_rand, splits)
    error = np.abs(d_rand.astype(np.float64) - common.exact_matmul(a_rand, b_rand))
    within = bool((error <= error_bound(a_rand, b_rand, splits)).all())
    print(f"random data: {'PASSED' if within else 'FAILED'} (max abs error "
          f"{float(error.max()):g}, within the f32 rounding bound: {within})")

    same = run(args.arch, a_rand, b_rand, splits).tobytes() == d_rand.tobytes()
    print(f"deterministic: {'PASSED' if same else 'FAILED'} (second run bit for bit)")
    return common.PASSED if ok and within and same else common.FAILED


if __name__ == "__main__":
    raise SystemExit(main())
