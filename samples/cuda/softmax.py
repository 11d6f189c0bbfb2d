"""Softmax of each row with one 32-thread block per row, after llama.cpp's `soft_max_f32`
for rows that one warp covers: each thread scales every 32nd value and keeps its maximum, a
warp reduction (`__shfl_xor_sync` with `fmaxf`) gives the row's maximum, each thread stores
`expf(x - max)` and sums it, a second warp reduction gives the row's sum, and each thread
scales its values by 1 / sum (dst holds the exponentials in between, as llama.cpp's `vals`
does when it has no shared buffer).

On wave64 (gfx9) a 32-thread block is half a wave, as in `cuda.rms_norm`. The launch stays
on the batched engine.

    rocwmma-sample cuda.softmax [--arch gfx942] [-r 64 -c 1024]
    python -m rocwmma_py.samples.cuda.softmax
"""

from __future__ import annotations

if not __package__:  # run as a file, `python samples/X.py`: run as its module instead
    __import__("_script").run_as_module(__file__)

import numpy as np

from rocwmma_py.cuda import __global__, __shfl_xor_sync, blockDim, blockIdx, expf, fmaxf, threadIdx

from .common import WARP, run_rows

TOLERANCE = 1e-5  # relative, against float64 (expf is within 2 ulp, the sum within 32 x ncols)


@__global__
def soft_max(x, dst, ncols, scale):
    row, tid = blockIdx.x, threadIdx.x
    max_val = np.float32(-np.inf)
    for col in range(0, ncols, blockDim.x):  # thread tid takes columns tid, tid + 32, ...
        val = x[row * ncols + col + tid] * scale
        dst[row * ncols + col + tid] = val
        max_val = fmaxf(max_val, val)
    mask = 16
    while mask > 0:  # warp_reduce_max
        max_val = fmaxf(max_val, __shfl_xor_sync(0xFFFFFFFF, max_val, mask, WARP))
        mask //= 2
    tmp = np.float32(0)
    for col in range(0, ncols, blockDim.x):
        i = row * ncols + col + tid
        val = expf(dst[i] - max_val)
        tmp = tmp + val
        dst[i] = val
    mask = 16
    while mask > 0:  # warp_reduce_sum
        tmp = tmp + __shfl_xor_sync(0xFFFFFFFF, tmp, mask, WARP)
        mask //= 2
    inv_sum = np.float32(1) / tmp
    for col in range(0, ncols, blockDim.x):
        i = row * ncols + col + tid
        dst[i] = dst[i] * inv_sum


def reference(x: np.ndarray, scale: float = 1.0) -> np.ndarray:
    """numpy softmax of each row (in x's type: float32 for the benchmark's baseline)."""
    s = x * x.dtype.type(scale)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def max_rel_err(got: np.ndarray, x: np.ndarray, scale: float = 1.0) -> float:
    """Largest relative error of `got` against the float64 softmax of x."""
    ref = reference(x.astype(np.float64), scale)
    return float(np.max(np.abs(got - ref) / ref, initial=0.0))


def main(argv=None) -> int:
    return run_rows(__doc__, "soft_max", argv,
                    lambda arch, x, dst: soft_max[x.shape[0], WARP, 0, arch](
                        x, dst, x.shape[1], np.float32(1.0)),
                    max_rel_err, TOLERANCE)


if __name__ == "__main__":
    raise SystemExit(main())
