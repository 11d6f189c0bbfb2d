"""rocwmma_py: AMD's rocWMMA and the matrix cores of gfx9 / gfx11 / gfx12, emulated in numpy.

    from rocwmma_py import *            # the rocWMMA API, HIP built-ins and types
    from rocwmma_py import amdgcn       # the matrix-core builtins (__builtin_amdgcn_*)
"""

from . import amdgcn, types
from .arch import ARCH_NAMES, Arch, get_arch
from .arch.models import numerics_model, use_numerics
from .cuda import wmma  # noqa: F401 - `rocwmma_py.wmma`, `rocwmma_py.cuda` as attributes
from .errors import (
    BarrierError,
    DivergenceError,
    FragmentError,
    InitCheckError,
    LayoutError,
    LayoutQueryError,
    LdsLimitError,
    LdsRaceError,
    ModifierError,
    NotInKernelError,
    NumericsError,
    OutOfBoundsError,
    RocwmmaError,
    UnsupportedInstructionError,
)
from .rocwmma.accessors import GetDataLayout_t, GetIOShape_t, apply_data_layout_t, apply_transpose_t
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
from .rocwmma.fragment import fragment, fragment_traits
from .rocwmma.schedulers import fragment_scheduler
from .rocwmma.tags import accumulator, col_major, layout_t, matrix_a, matrix_b, row_major
from .rocwmma.utils import (
    Constants,
    Coord2d,
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
    blockDim,
    blockIdx,
    current_arch,
    default_arch,
    dim3,
    dynamic_shared,
    gridDim,
    kernel,
    lane_id,
    select,
    shared_array,
    synchronize_workgroup,
    syncthreads,
    threadIdx,
    use_arch,
    use_engine,
    vector_type,
    wave_size,
    where,
)
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
    "BarrierError", "InitCheckError", "LayoutError", "LayoutQueryError", "ModifierError",
    "NotInKernelError", "NumericsError", "RocwmmaError", "UnsupportedInstructionError",
    "accumulator", "amdgcn", "apply_data_layout", "apply_data_layout_t", "apply_fragment",
    "apply_transpose", "apply_transpose_t", "Arch", "ARCH_NAMES", "bfloat16", "bfloat16_t",
    "bfloat8", "bfloat8_fnuz", "bfloat8_fnuz_t", "bfloat8_t", "blockDim", "blockIdx",
    "ceil_div", "ceilDiv", "col_major", "Constants", "coop_col_major_2d", "coop_col_slice_2d",
    "coop_row_major_2d", "coop_row_slice_2d", "Coord2d", "current_arch", "default_arch",
    "default_schedule", "dim3", "DivergenceError", "dynamic_shared", "fill_fragment",
    "float16", "float16_t", "float32", "float32_t", "float64", "float64_t", "float8",
    "float8_fnuz", "float8_fnuz_t", "float8_t", "fragment", "fragment_scheduler",
    "fragment_traits", "FragmentError", "from_register_file", "get", "get_arch",
    "GetDataLayout_t", "GetIOShape_t", "getWarpSize", "gridDim", "hfloat16_t", "index_t",
    "int32", "int32_t", "int8", "int8_t", "kernel", "lane_id", "layout_t", "LdsLimitError",
    "LdsRaceError", "load_matrix_sync", "Log2", "make_coord2d", "MappingUtil", "matrix_a",
    "matrix_b", "mem_col_major", "mem_row_major", "mma_sync", "next_multiple", "numerics_model",
    "OutOfBoundsError", "Pointer", "row_major", "select", "shared_array", "single",
    "store_matrix_sync", "swap", "synchronize_workgroup", "syncthreads", "threadIdx",
    "to_register_file", "types", "uint32", "uint32_t", "uint8", "uint8_t", "use_arch",
    "use_engine", "use_numerics", "vector_type", "wave_size", "where", "xfloat32", "xfloat32_t",
]
