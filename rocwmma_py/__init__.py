"""rocwmma_py: AMD's rocWMMA and the matrix cores of gfx9 / gfx11 / gfx12, emulated in numpy.

    from rocwmma_py import *            # the rocWMMA API, HIP built-ins and types
    from rocwmma_py import amdgcn       # the matrix-core builtins (__builtin_amdgcn_*)
"""

from typing import TYPE_CHECKING

from . import amdgcn, sparse, types
from ._version import __version__
from .arch import ARCH_NAMES, Arch, get_arch
from .arch.devices import DeviceProperties, device_properties
from .arch.models import numerics_model
from .cuda import wmma  # noqa: F401 - `rocwmma_py.wmma`, `rocwmma_py.cuda` as attributes
from .errors import (
    AccessError,
    ArchError,
    AtomicError,
    AtomicTypeError,
    BarrierError,
    BuiltinArgumentError,
    ConfigError,
    CrossLaneError,
    DeviceError,
    DivergenceError,
    ElementIndexError,
    ElementTypeError,
    FragmentError,
    FragmentValueError,
    GlobalRaceError,
    HalfTypeError,
    InitCheckError,
    InternalError,
    LaneTypeError,
    LaneValueError,
    LaunchError,
    LaunchTypeError,
    LayoutError,
    LayoutQueryError,
    LdsError,
    LdsLimitError,
    LdsRaceError,
    ModifierError,
    NotInKernelError,
    NumericsError,
    OperandShapeError,
    OperandTypeError,
    OptionalDependencyError,
    OutOfBoundsError,
    PackingError,
    PointerTypeError,
    RocwmmaError,
    SharedTypeError,
    SparsityError,
    UnsupportedInstructionError,
    WorkerCountError,
)
from .rocwmma.accessors import (
    DataLayout,
    GetDataLayout_t,
    GetDataType_t,
    GetIOShape_t,
    apply_data_layout_t,
    apply_transpose_t,
)
from .rocwmma.api import (
    apply_data_layout,
    apply_fragment,
    apply_transpose,
    fill_fragment,
    from_register_file,
    load_matrix_sync,
    mma_sync,
    store_matrix_sync,
    to_register_file,
)
from .rocwmma.coop1x import load_matrix_coop_sync, store_matrix_coop_sync
from .rocwmma.cross_lane import (
    Blend,
    BlendImpl,
    CrossLaneOps,
    Dpp,
    DppImpl,
    Permute,
    PermuteImpl,
    Swizzle,
    SwizzleImpl,
)
from .rocwmma.fragment import fragment_traits

if TYPE_CHECKING:  # `FragA = fragment[...]` is a class-valued variable, not a type alias
    from .rocwmma.fragment import template as fragment
else:
    from .rocwmma.fragment import fragment
from .rocwmma.layout_traits import (
    is_layout_orthogonal,
    is_layout_same,
    layout_traits,
    orthogonal_layout_t,
)
from .rocwmma.schedulers import fragment_scheduler
from .rocwmma.tags import accumulator, col_major, layout_t, matrix_a, matrix_b, row_major
from .rocwmma.utils import (
    Constants,
    Coord2d,
    GetMappingUtil_t,
    Log2,
    MappingUtil,
    ceil_div,
    ceilDiv,
    get,
    getWarpSize,
    make_coord2d,
    next_multiple,
    swap,
)
from .runtime import (
    Pointer,
    __activemask,
    __all,
    __any,
    __ballot,
    __ffs,
    __ffsll,
    __lane_id,
    __popc,
    __popcll,
    __shfl,
    __shfl_down,
    __shfl_up,
    __shfl_xor,
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
    current_arch,
    default_arch,
    dim3,
    dynamic_shared,
    gridDim,
    half_math,
    kernel,
    lane_id,
    last_launch_stats,
    select,
    shared_array,
    synchronize_workgroup,
    syncthreads,
    threadIdx,
    use_arch,
    use_engine,
    use_workers,
    vector_type,
    wave_size,
    where,
)
from .settings import SettingNotEnteredWarning, current_settings, use_numerics
from .types import (
    bfloat8,
    bfloat8_fnuz,
    bfloat8_fnuz_t,
    bfloat8_t,
    bfloat16,
    bfloat16_t,
    float8,
    float8_fnuz,
    float8_fnuz_t,
    float8_t,
    float16,
    float16_t,
    float32,
    float32_t,
    float64,
    float64_t,
    hfloat16_t,
    index_t,
    int8,
    int8_t,
    int32,
    int32_t,
    uint8,
    uint8_t,
    uint32,
    uint32_t,
    xfloat32,
    xfloat32_t,
)

mem_row_major = layout_t.mem_row_major
mem_col_major = layout_t.mem_col_major

# rocwmma::fragment_scheduler names, also bare (rocwmma-notes §1.4)
default_schedule = fragment_scheduler.default_schedule
coop_row_major_2d = fragment_scheduler.coop_row_major_2d
coop_col_major_2d = fragment_scheduler.coop_col_major_2d
coop_row_slice_2d = fragment_scheduler.coop_row_slice_2d
coop_col_slice_2d = fragment_scheduler.coop_col_slice_2d
single = fragment_scheduler.single

__all__ = [
    "__activemask", "__all", "__any", "__ballot", "__ffs", "__ffsll", "__lane_id", "__popc",
    "__popcll", "__shfl", "__shfl_down", "__shfl_up", "__shfl_xor", "__version__", "AccessError",
    "accumulator", "amdgcn", "apply_data_layout", "apply_data_layout_t", "apply_fragment",
    "apply_transpose", "apply_transpose_t", "Arch", "ARCH_NAMES", "ArchError", "atomicAdd",
    "atomicAnd", "atomicCAS", "atomicDec", "AtomicError", "atomicExch", "atomicInc", "atomicMax",
    "atomicMin", "atomicOr", "atomicSub", "AtomicTypeError", "atomicXor", "BarrierError",
    "bfloat16", "bfloat16_t", "bfloat8", "bfloat8_fnuz", "bfloat8_fnuz_t", "bfloat8_t", "Blend",
    "BlendImpl", "blockDim", "blockIdx", "BuiltinArgumentError", "ceil_div", "ceilDiv",
    "col_major", "ConfigError", "Constants", "coop_col_major_2d", "coop_col_slice_2d",
    "coop_row_major_2d", "coop_row_slice_2d", "Coord2d", "CrossLaneError", "CrossLaneOps",
    "current_arch", "current_settings", "DataLayout", "default_arch", "default_schedule",
    "device_properties", "DeviceError", "DeviceProperties", "dim3", "DivergenceError", "Dpp",
    "DppImpl", "dynamic_shared", "ElementIndexError", "ElementTypeError",
    "fill_fragment",
    "float16", "float16_t", "float32", "float32_t", "float64", "float64_t", "float8",
    "float8_fnuz", "float8_fnuz_t", "float8_t", "fragment", "fragment_scheduler",
    "fragment_traits", "FragmentError", "FragmentValueError", "from_register_file", "get",
    "get_arch", "GetDataLayout_t", "GetDataType_t", "GetIOShape_t", "GetMappingUtil_t",
    "getWarpSize", "GlobalRaceError", "gridDim", "HalfTypeError", "hfloat16_t", "index_t",
    "InitCheckError", "int32", "int32_t", "int8", "int8_t", "InternalError",
    "is_layout_orthogonal", "is_layout_same", "kernel", "lane_id", "LaneTypeError",
    "last_launch_stats",
    "LaneValueError", "LaunchError", "LaunchTypeError", "layout_t", "layout_traits", "LayoutError",
    "LayoutQueryError", "LdsError", "LdsLimitError", "LdsRaceError", "load_matrix_coop_sync",
    "load_matrix_sync", "Log2",
    "make_coord2d", "MappingUtil", "matrix_a", "matrix_b", "mem_col_major", "mem_row_major",
    "mma_sync", "ModifierError", "next_multiple", "NotInKernelError", "numerics_model",
    "NumericsError", "OperandShapeError", "OperandTypeError", "OptionalDependencyError",
    "orthogonal_layout_t", "OutOfBoundsError", "PackingError", "Permute", "PermuteImpl", "Pointer",
    "PointerTypeError", "RocwmmaError", "row_major", "select", "SettingNotEnteredWarning",
    "shared_array", "SharedTypeError", "single", "sparse", "SparsityError",
    "store_matrix_coop_sync", "store_matrix_sync", "swap", "Swizzle", "SwizzleImpl",
    "synchronize_workgroup",
    "syncthreads", "threadIdx", "to_register_file", "types", "uint32", "uint32_t", "uint8",
    "uint8_t", "UnsupportedInstructionError", "use_arch", "use_engine", "use_numerics",
    "use_workers", "vector_type", "wave_size", "where", "WorkerCountError", "xfloat32",
    "xfloat32_t",
]

# HIP's half-precision intrinsics and float fast math (`rocwmma_py.runtime.half_math`)
globals().update({name: getattr(half_math, name) for name in half_math.HALF_MATH_NAMES})
if TYPE_CHECKING:  # the same names for type checkers (a generated stub)
    from .runtime._half_math_exports import *  # noqa: F403
