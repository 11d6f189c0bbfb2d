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

from rocwmma_py.cuda import __global__, __shfl_xor_sync, blockDim, blockIdx, threadIdx

from .common import WARP, run_rows

EPS = np.float32(1e-6)


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


def max_rel_err(got: np.ndarray, x: np.ndarray) -> float:
    """Largest relative error of `got` against the float64 RMS norm of x."""
    ref = reference(x)
    return float(np.max(np.abs(got - ref) / np.abs(ref), initial=0.0))


def main(argv=None) -> int:
    return run_rows(__doc__, "rms_norm", argv,
                    lambda arch, x, dst: rms_norm[x.shape[0], WARP, 0, arch](x, dst, x.shape[1]),
                    max_rel_err, 1e-5)


if __name__ == "__main__":
    raise SystemExit(main())
