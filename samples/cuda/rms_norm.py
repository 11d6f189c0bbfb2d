"""RMS norm of each row with one 32-thread block per row, the way llama.cpp launches its norm
kernels for rows shorter than 1024 columns: each thread sums the squares of every 32nd value,
a warp reduction (`__shfl_xor_sync` over 32 lanes) gives the row's total, and each thread
scales its values by rsqrt(mean + eps).

On wave64 (gfx9) a 32-thread block is half a wave: lanes 32-63 are no threads and stay off,
as HIP runs it; the CUDA mask 0xffffffff names exactly the 32 threads. On wave32 it is one
whole wave. The launch stays on the batched engine.

    rocwmma-sample cuda.rms_norm [--arch gfx942] [-r 64 -c 4096]
    python -m rocwmma_py.samples.cuda.rms_norm
"""

from __future__ import annotations

if not __package__:  # run as a file, `python samples/X.py`: run as its module instead
    __import__("_script").run_as_module(__file__)

import numpy as np

from rocwmma_py import get_arch
from rocwmma_py.cuda import __global__, __shfl_xor_sync, blockDim, blockIdx, threadIdx
from rocwmma_py.runtime import last_launch_stats

from ..common import sample_parser

EPS = np.float32(1e-6)
WARP = 32  # llama.cpp's WARP_SIZE for these kernels: the block is 32 threads everywhere


@__global__
def rms_norm(x, dst, ncols):
    row, tid = blockIdx.x, threadIdx.x
    tmp = np.float32(0)
    for col in range(0, ncols, blockDim.x):  # thread tid takes columns tid, tid + 32, ...
        v = x[row * ncols + col + tid]
        tmp = tmp + v * v
    mask = 16
    while mask > 0:  # warp_reduce_sum: every thread ends with the row's total
        tmp = tmp + __shfl_xor_sync(0xFFFFFFFF, tmp, mask, WARP)
        mask //= 2
    scale = np.float32(1) / np.sqrt(tmp / np.float32(ncols) + EPS)
    for col in range(0, ncols, blockDim.x):
        i = row * ncols + col + tid
        dst[i] = scale * x[i]


def reference(x: np.ndarray) -> np.ndarray:
    """float64 RMS norm of each row."""
    x64 = x.astype(np.float64)
    return x64 / np.sqrt((x64 * x64).mean(axis=1, keepdims=True) + float(EPS))


def main(argv=None) -> int:
    parser = sample_parser(__doc__, {"r": 64, "c": 1024}, "gfx942")
    args = parser.parse_args(argv)
    if args.c % WARP:
        print(f"Unsupported size! the column count must be a multiple of {WARP}, got {args.c}")
        return 2
    x = np.random.default_rng(args.seed).normal(size=(args.r, args.c)).astype(np.float32)
    dst = np.zeros_like(x)
    rms_norm[args.r, WARP, 0, args.arch](x, dst, args.c)
    stats = last_launch_stats()
    ref = reference(x)
    err = float(np.max(np.abs(dst - ref) / np.abs(ref), initial=0.0))
    ok = err <= 1e-5
    print(f"rms_norm on {args.arch}: {args.r} rows x {args.c} columns, blocks of {WARP} threads "
          f"({'half a wave' if get_arch(args.arch).wave_size == 2 * WARP else 'one wave'} "
          f"each); {stats.batched_blocks} blocks batched, {stats.per_wave_blocks} per wave")
    print(f"{'PASSED' if ok else 'FAILED'} (max relative error {err:.3g} vs float64 numpy, "
          "limit 1e-05)")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
