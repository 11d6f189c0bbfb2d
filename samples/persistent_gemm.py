"""A persistent-grid GEMM: D = A x B (f16 inputs, f32 accumulation and output) whose grid is
sized from the device properties, as HIP/CUDA persistent kernels do:

    prop = hipGetDeviceProperties(0)                       # hipGetDeviceProperties(&prop, 0)
    grid = min(prop.multiProcessorCount * BLOCKS_PER_CU, n_tiles)

Each block is one wave; it loops over 16x16 output tiles gridDim.x apart
(`for tile in range(blockIdx.x, n_tiles, gridDim.x)`), computing each with rocWMMA fragments,
so the same kernel covers any matrix size with a grid that fits the device at once.

    rocwmma-sample persistent_gemm [--arch gfx1100] [-m 512 -n 512 -k 64] [--blocks-per-cu 2]

Exit status: 0 PASSED, 1 FAILED, 2 refused (sizes not multiples of 16).
"""

from __future__ import annotations

if not __package__:  # run as a file, `python samples/X.py`: run as its module instead
    __import__("_script").run_as_module(__file__)

import numpy as np

from rocwmma_py import (
    accumulator,
    blockIdx,
    col_major,
    fill_fragment,
    fragment,
    gridDim,
    kernel,
    load_matrix_sync,
    matrix_a,
    matrix_b,
    mem_row_major,
    mma_sync,
    row_major,
    store_matrix_sync,
)
from rocwmma_py.runtime import hipGetDeviceProperties, use_arch

from . import common

TILE = 16  # one 16x16x16 fragment triple per tile step
FragA = fragment[matrix_a, TILE, TILE, TILE, np.float16, row_major]
FragB = fragment[matrix_b, TILE, TILE, TILE, np.float16, col_major]
FragAcc = fragment[accumulator, TILE, TILE, TILE, np.float32]


@kernel
def persistent_gemm(a, b, d, m, n, k):
    """Block b computes tiles b, b + gridDim.x, ... of D (row-major tile order)."""
    tiles_n = n // TILE
    n_tiles = (m // TILE) * tiles_n
    frag_a, frag_b, acc = FragA(), FragB(), FragAcc()
    for tile in range(blockIdx.x, n_tiles, gridDim.x):
        row, col = tile // tiles_n * TILE, tile % tiles_n * TILE
        fill_fragment(acc, 0.0)
        for i in range(0, k, TILE):
            load_matrix_sync(frag_a, a + (row * k + i), k)  # A row-major, lda = k
            load_matrix_sync(frag_b, b + (col * k + i), k)  # B col-major, ldb = k
            mma_sync(acc, frag_a, frag_b, acc)
        store_matrix_sync(d + (row * n + col), acc, n, mem_row_major)


def grid_size(n_tiles: int, blocks_per_cu: int) -> int:
    """The persistent grid: every CU `blocks_per_cu` blocks, never more blocks than tiles."""
    prop = hipGetDeviceProperties(0)
    return min(prop.multiProcessorCount * blocks_per_cu, n_tiles)


def run(arch: str, m: int, n: int, k: int, blocks_per_cu: int, seed: int) -> int:
    if m % TILE or n % TILE or k % TILE:
        print(f"Unsupported size! M, N and K must be multiples of {TILE}")
        return common.REFUSED
    rng = np.random.default_rng(seed)
    a = common.fill_rand(rng, m, k, np.float16)  # row-major
    b = common.fill_rand(rng, k, n, np.float16)  # logical K x N, stored col-major
    d = np.full((m, n), np.nan, np.float32)
    n_tiles = (m // TILE) * (n // TILE)
    with use_arch(arch):  # device 0 is the current target
        prop = hipGetDeviceProperties(0)
        grid = grid_size(n_tiles, blocks_per_cu)
    wave = prop.warpSize
    print(f"Device: {prop.name} ({prop.gcnArchName}), {prop.multiProcessorCount} CUs, "
          f"warpSize {wave}")
    print(f"GEMM {m}x{n}x{k}: {n_tiles} tiles of {TILE}x{TILE}; grid {grid} blocks "
          f"({blocks_per_cu} per CU, capped by the tiles) of {wave} threads, up to "
          f"{-(-n_tiles // grid)} tiles per block")
    elapsed_ms = common.timed_ms(lambda: persistent_gemm[grid, wave, 0, arch](
        a, common.to_memory(b, col_major=True), d, m, n, k))
    print(f"Emulated in {elapsed_ms:.0f} ms (wall time of the emulator)")
    ok = common.validate("persistent_gemm", d, common.exact_matmul(a, b))
    return common.PASSED if ok else common.FAILED


def main(argv: list[str] | None = None) -> int:
    parser = common.sample_parser(__doc__, {"m": 512, "n": 512, "k": 64})
    parser.add_argument("--blocks-per-cu", type=common.positive_int, default=2, metavar="N",
                        help="occupancy the grid is sized for: blocks per CU (default 2)")
    args = parser.parse_args(argv)
    return run(args.arch, args.m, args.n, args.k, args.blocks_per_cu, args.seed)


if __name__ == "__main__":
    raise SystemExit(main())
