"""Kernel runtime: HIP's execution model in Python (a kernel means "run once per wave";
the batched engine runs its code once for many waves at a time, see `engine.py`).

Kernel code uses HIP's built-ins (`threadIdx`, `blockIdx`, `blockDim`, `gridDim`,
`lane_id()` — HIP's `__lane_id()`, also importable as `__lane_id` by explicit import —,
`wave_size()`, `synchronize_workgroup()` / `syncthreads()` / `__syncthreads`, the atomics
`atomicAdd` … `atomicDec`), typed device pointers, per-lane `Lanes` values, register vectors
and LDS. See `launch.py` for
an example.
`wave_size()`, the warp functions `__shfl*`, `__ballot`, `__any`, `__all`, `__activemask`,
`__popc*`, `__ffs*` (`warp.py`), `synchronize_workgroup()` / `syncthreads()` /
`__syncthreads`), typed device pointers, per-lane `Lanes` values, register vectors and
LDS. See `launch.py` for an example.
"""

from typing import TYPE_CHECKING

from ..arch.devices import (
    DeviceError,
    DeviceProperties,
    device_properties,
    hipGetDeviceCount,
    hipGetDeviceProperties,
)
from ..settings import default_arch, engine_name, use_arch, use_engine, use_workers, worker_count
from . import device_math, half_math
from .atomics import (
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
)
from .dims import Dim3, dim3
from .errors import (
    AtomicError,
    AtomicTypeError,
    DivergenceError,
    LdsLimitError,
    LdsRaceError,
    NotInKernelError,
    OutOfBoundsError,
)
from .intrinsics import __lane_id, blockDim, blockIdx, gridDim, lane_id, threadIdx, wave_size
from .lanes import Lanes, select, where
from .launch import Kernel, Launch, kernel
from .lds import dynamic_shared, shared_array
from .memory import Buffer, Pointer
from .scheduler import __syncthreads, synchronize_workgroup, syncthreads
from .state import WaveContext, current_wave
from .stats import Fallback, LaunchStats, last_launch_stats
from .target import current_arch
from .vectors import (
    VectorRegs,
    float4,
    floatx8,
    floatx16,
    half4,
    half8,
    half16,
    int8x8,
    int8x16,
    int32x4,
    int32x8,
    vector_type,
)
from .warp import (
    __activemask,
    __all,
    __any,
    __ballot,
    __ffs,
    __ffsll,
    __popc,
    __popcll,
    __shfl,
    __shfl_down,
    __shfl_up,
    __shfl_xor,
)

__all__ = [
    "AtomicError",
    "AtomicTypeError",
    "Buffer",
    "Dim3",
    "DivergenceError",
    "Kernel",
    "Lanes",
    "Launch",
    "LdsLimitError",
    "LdsRaceError",
    "NotInKernelError",
    "OutOfBoundsError",
    "Pointer",
    "VectorRegs",
    "WaveContext",
    "__activemask",
    "__all",
    "__any",
    "__ballot",
    "__ffs",
    "__ffsll",
    "__lane_id",
    "__popc",
    "__popcll",
    "__shfl",
    "__shfl_down",
    "__shfl_up",
    "__shfl_xor",
    "__syncthreads",
    "atomicAdd",
    "atomicAnd",
    "atomicCAS",
    "atomicDec",
    "atomicExch",
    "atomicInc",
    "atomicMax",
    "atomicMin",
    "atomicOr",
    "atomicSub",
    "atomicXor",
    "blockDim",
    "blockIdx",
    "current_arch",
    "current_wave",
    "default_arch",
    "DeviceError",
    "DeviceProperties",
    "device_properties",
    "hipGetDeviceCount",
    "hipGetDeviceProperties",
    "dim3",
    "dynamic_shared",
    "float4",
    "floatx8",
    "floatx16",
    "gridDim",
    "half4",
    "half8",
    "half16",
    "int8x8",
    "int8x16",
    "int32x4",
    "int32x8",
    "kernel",
    "Fallback",
    "LaunchStats",
    "engine_name",
    "last_launch_stats",
    "use_engine",
    "use_workers",
    "worker_count",
    "lane_id",
    "select",
    "shared_array",
    "synchronize_workgroup",
    "syncthreads",
    "threadIdx",
    "use_arch",
    "vector_type",
    "wave_size",
    "where",
    *half_math.HALF_MATH_NAMES,
    *device_math.DEVICE_MATH_NAMES,
]

# HIP's half-precision intrinsics and float fast math (hip_fp16.h, hip_bf16.h), see half_math
globals().update({name: getattr(half_math, name) for name in half_math.HALF_MATH_NAMES})
if TYPE_CHECKING:  # the same names for type checkers (a generated stub)
    from ._half_math_exports import *  # noqa: F403

# CUDA's/HIP's float and double math library (expf, sqrt, erff, ...), see device_math
globals().update({name: getattr(device_math, name) for name in device_math.DEVICE_MATH_NAMES})
if TYPE_CHECKING:
    from ._device_math_exports import *  # noqa: F403
