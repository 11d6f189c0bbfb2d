"""The arithmetic of one matrix instruction: exact products, exact-as-f64 sum, one rounding.

rocwmma-notes §3.10 / docs/architecture.md: per instruction D = round(C + sum_k A*B). Float
inputs (f16, bf16, fp8, xf32, f32) have products exact in float64 and the K-term sum is formed
in float64 by numpy's own loops (`einsum`, never BLAS, so the result does not depend on the
host's BLAS or its threads); integers are summed exactly in int64. The result is rounded once
to the accumulator type: RNE for floats, wrap-around or saturation (WMMA clamp) for int32.
"""

from __future__ import annotations

import numpy as np

from .. import types as T


def decode(values: np.ndarray, t) -> np.ndarray:
    """Element values as float64 / int64, the exact compute representation."""
    if T.is_float(t):
        if T.resolve(t) is T.xfloat32:
            values = T.to_xfloat32(values)  # hardware reads only the 19 xf32 bits
        return np.asarray(values).astype(np.float64)
    return np.asarray(values).astype(np.int64)


def accumulate(a: np.ndarray, b: np.ndarray, c: np.ndarray, acc_type, *, clamp: bool = False):
    """D = C + A @ B over the last two axes (batched), rounded once to `acc_type`.

    `a` (..., M, K), `b` (..., K, N) and `c` (..., M, N) are decoded values (see `decode`).
    """
    product = np.einsum("...mk,...kn->...mn", a, b)
    total = c + product
    if T.is_float(acc_type):
        return T.convert(total, acc_type)
    info = np.iinfo(T.storage_dtype(acc_type))
    if clamp:
        return np.clip(total, info.min, info.max).astype(info.dtype)
    return total.astype(info.dtype)  # two's-complement wrap, like MFMA's i32 adder
