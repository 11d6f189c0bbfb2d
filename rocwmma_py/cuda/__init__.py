"""CUDA's kernel context, so a CUDA wmma kernel body ports line by line.

    from rocwmma_py.cuda import *

    @__global__
    def k(a, b, c, M, N, K): ...            # body as in CUDA, `wmma::` -> `wmma.`
    k[grid, block](a, b, c, M, N, K)         # was k<<<grid, block>>>(a, b, c, M, N, K)

`warpSize` is the running target's wave size: 64 on gfx9, 32 on gfx11/gfx12. CUDA code that
writes `32` where it means `warpSize` runs on wave64 as it would on real gfx9 hardware: lanes
32-63 of a wave then compute their own warp index and address another tile, so the result is
wrong (docs/guide/cuda.md).
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

import numpy as np

from ..arch.devices import (
    DeviceProperties,
    cudaGetDeviceCount,
    cudaGetDeviceProperties,
)
from ..runtime import (
    __syncthreads,
    atomicAdd,
    atomicAnd,
    atomicCAS,
    atomicDec,
    atomicExch,
    atomicInc,
    atomicMax,
    atomicMin,
    atomicOr,
    atomicSub,
    atomicXor,
    blockDim,
    blockIdx,
    device_math,
    dim3,
    gridDim,
    half_math,
    kernel,
    last_launch_stats,
    threadIdx,
    wave_size,
)
from . import vectors, wmma
from .shared import SharedArray, __shared__
from .warp_sync import (
    __all_sync,
    __any_sync,
    __ballot_sync,
    __shfl_down_sync,
    __shfl_sync,
    __shfl_up_sync,
    __shfl_xor_sync,
)

__global__ = kernel


class _WarpSize:
    """CUDA's `warpSize`: an int-like read from the running kernel's target at each use."""

    __slots__ = ()

    def __index__(self) -> int:
        return wave_size()

    __int__ = __index__

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        return np.asarray(wave_size(), dtype=dtype)

    def __repr__(self) -> str:
        return "<CUDA built-in warpSize>"


def _binary(op, reflected: bool):
    if reflected:
        return lambda self, other: op(other, wave_size())
    return lambda self, other: op(wave_size(), other)


for _name in ("add", "sub", "mul", "floordiv", "truediv", "mod", "lshift", "rshift", "and",
              "or", "xor"):
    _op = getattr(operator, _name + ("_" if _name in ("and", "or") else ""))
    setattr(_WarpSize, f"__{_name}__", _binary(_op, False))
    setattr(_WarpSize, f"__r{_name}__", _binary(_op, True))
for _name in ("eq", "ne", "lt", "le", "gt", "ge"):
    setattr(_WarpSize, f"__{_name}__", _binary(getattr(operator, _name), False))
# compares by value, like the int it stands for (typeshed types __hash__ as a method)
_WarpSize.__hash__ = None  # type: ignore[assignment, method-assign]

warpSize = _WarpSize()  # noqa: N816 - CUDA spelling


__all__ = ["__all_sync", "__any_sync", "__ballot_sync", "__global__", "__shared__",
    "__shfl_down_sync", "__shfl_sync", "__shfl_up_sync", "__shfl_xor_sync", "__syncthreads",
    "atomicAdd", "atomicAnd", "atomicCAS", "atomicDec", "atomicExch", "atomicInc", "atomicMax",
    "atomicMin", "atomicOr", "atomicSub", "atomicXor", "blockDim", "blockIdx", "cudaGetDeviceCount",
    "cudaGetDeviceProperties", "DeviceProperties", "dim3", "gridDim", "last_launch_stats",
    "threadIdx", "warpSize", "wmma"]

# cuda_fp16.h / cuda_bf16.h / fast math (HIP's rounding) and the vector structs (int4, ...)
globals().update({n: getattr(half_math, n) for n in half_math.HALF_MATH_NAMES})
globals().update(vectors.VECTOR_TYPES | vectors.MAKERS)
__all__ += ["SharedArray", *half_math.HALF_MATH_NAMES, *vectors.VECTOR_TYPES, *vectors.MAKERS]
# math_functions.h: expf, sqrt, erff, ... (float and double forms)
globals().update({n: getattr(device_math, n) for n in device_math.DEVICE_MATH_NAMES})
__all__ += [*device_math.DEVICE_MATH_NAMES]
if TYPE_CHECKING:  # the same names for type checkers (generated stubs)
    from ..runtime._device_math_exports import *  # noqa: F403
    from ..runtime._half_math_exports import *  # noqa: F403
    from ._vector_exports import *  # noqa: F403
