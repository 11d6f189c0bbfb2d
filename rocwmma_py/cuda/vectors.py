"""CUDA's built-in vector structs (`int4`, `float4`, `int2`, `uint4`, ...) as numpy
structured dtypes with fields x, y(, z, w), so 16-byte copies port directly:

    *reinterpret_cast<int4*>(dst + i) = *reinterpret_cast<const int4*>(src + j);
    (dst + i).cast(int4)[0] = (src + j).cast(int4)[0]           # the same, per lane

A value read through such a pointer is a record per lane; `v["x"]` is its x field. Casting
needs the byte offset to be a multiple of the struct size (16 for int4), as CUDA requires.
"""

from __future__ import annotations

import numpy as np

from ..errors import LaneTypeError
from ..runtime.lanes import Lanes, batch_data, check_plain_data, is_per_lane

_FIELDS = "xyzw"


def _vector(base: object, n: int) -> np.dtype:
    return np.dtype([(_FIELDS[i], base) for i in range(n)])


char2, char4 = _vector(np.int8, 2), _vector(np.int8, 4)
uchar2, uchar4 = _vector(np.uint8, 2), _vector(np.uint8, 4)
short2, short4 = _vector(np.int16, 2), _vector(np.int16, 4)
ushort2, ushort4 = _vector(np.uint16, 2), _vector(np.uint16, 4)
int2, int4 = _vector(np.int32, 2), _vector(np.int32, 4)
uint2, uint4 = _vector(np.uint32, 2), _vector(np.uint32, 4)
longlong2, ulonglong2 = _vector(np.int64, 2), _vector(np.uint64, 2)
float2, float4 = _vector(np.float32, 2), _vector(np.float32, 4)
double2 = _vector(np.float64, 2)

VECTOR_TYPES = {
    "char2": char2, "char4": char4, "uchar2": uchar2, "uchar4": uchar4, "short2": short2,
    "short4": short4, "ushort2": ushort2, "ushort4": ushort4, "int2": int2, "int4": int4,
    "uint2": uint2, "uint4": uint4, "longlong2": longlong2, "ulonglong2": ulonglong2,
    "float2": float2, "float4": float4, "double2": double2,
}


def _maker(dtype: np.dtype):
    fields: tuple[str, ...] = dtype.names or ()

    def make(*values: object) -> np.ndarray | Lanes:
        if len(values) != len(fields):
            raise LaneTypeError(f"make_{name} takes {len(fields)} values, got {len(values)}")
        per_lane = any(is_per_lane(v) for v in values)
        if per_lane:
            check_plain_data(*values)  # (meeting per-lane values: one wave's, per wave)
        parts = np.broadcast_arrays(*[batch_data(v) if is_per_lane(v) else np.asarray(v)
                                      for v in values])
        out = np.empty(parts[0].shape, dtype)
        for field, part in zip(fields, parts, strict=True):
            out[field] = part
        return Lanes(out) if per_lane else out
    name = next(k for k, v in VECTOR_TYPES.items() if v is dtype)
    make.__name__ = f"make_{name}"
    make.__doc__ = f"make_{name}(...): a {name} (one per lane for per-lane values)."
    return make


MAKERS = {f"make_{name}": _maker(dtype) for name, dtype in VECTOR_TYPES.items()}
globals().update(MAKERS)
