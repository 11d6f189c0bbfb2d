"""rocwmma_py: AMD's rocWMMA and the matrix cores of gfx9 / gfx11 / gfx12, emulated in numpy.

    from rocwmma_py import *            # the rocWMMA API, HIP built-ins and types
    from rocwmma_py import amdgcn       # the matrix-core builtins (__builtin_amdgcn_*)
"""

from . import amdgcn, types
from .api import (
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
from .arch import ARCH_NAMES, Arch, get_arch
from .errors import FragmentError
from .fragment import fragment, fragment_traits
from .runtime import (
    DivergenceError,
    LdsLimitError,
    LdsRaceError,
    OutOfBoundsError,
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
    vector_type,
    wave_size,
)
from .schedulers import fragment_scheduler
from .tags import accumulator, col_major, layout_t, matrix_a, matrix_b, row_major
from .types import (
    bfloat8,
    bfloat8_fnuz,
    bfloat16,
    float8,
    float8_fnuz,
    float16,
    float32,
    float64,
    hfloat16_t,
    int8,
    int32,
    uint8,
    uint32,
    xfloat32,
)
from .utils import Constants, MappingUtil, ceil_div, get, make_coord2d, next_multiple, swap

mem_row_major = layout_t.mem_row_major
mem_col_major = layout_t.mem_col_major

__all__ = [
    "ARCH_NAMES", "Arch", "Constants", "DivergenceError", "FragmentError", "LdsLimitError",
    "LdsRaceError", "MappingUtil", "OutOfBoundsError", "Pointer", "accumulator", "amdgcn",
    "apply_data_layout", "apply_fragment", "apply_transpose", "bfloat8", "bfloat8_fnuz",
    "bfloat16", "blockDim", "blockIdx", "ceil_div", "col_major", "current_arch",
    "default_arch", "dim3", "dynamic_shared", "fill_fragment", "float8", "float8_fnuz",
    "float16", "float32", "float64", "fragment", "fragment_scheduler", "fragment_traits",
    "from_register_file", "get", "get_arch", "gridDim", "hfloat16_t", "int8", "int32",
    "kernel", "lane_id", "layout_t", "load_matrix_sync", "make_coord2d", "matrix_a",
    "matrix_b", "mem_col_major", "mem_row_major", "mma_sync", "next_multiple", "row_major",
    "select", "shared_array", "store_matrix_sync", "swap", "synchronize_workgroup",
    "syncthreads", "threadIdx", "to_register_file", "types", "uint8", "uint32", "use_arch",
    "vector_type", "wave_size", "xfloat32",
]
