"""CUDA's `__shared__` declarations: static arrays with C's multi-dimensional indexing and
`extern __shared__` (the dynamic region sized by the launch).

    tile = __shared__(np.float16, 32, 16)   # __shared__ half tile[32][16];
    tile[r][c] = v;  tile[r, c] = v         # element (r, c); tile[r] is row r (a pointer)
    tile + k                                # decays to a flat element pointer, as `&tile[0][0] + k`
    row = __shared__(float, 64)             # __shared__ float row[64];  (float is float32)
    count = __shared__(int, 1)              # __shared__ int count;  read/write count[0]
    sh = __shared__.extern(np.float32)      # extern __shared__ float sh[];

`T` is a numpy type or dtype, or Python's `float`, `int`, `bool`, which mean C++'s float32,
int32 and bool (as in `fragment[..., float]`), not numpy's 64-bit defaults.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
from numpy.typing import DTypeLike

from ..errors import ElementIndexError, LdsError, SharedTypeError
from ..runtime import dynamic_shared, shared_array
from ..runtime.memory import Pointer


class SharedArray(Pointer):
    """A pointer into LDS that also knows C's array shape: indexing with one index per
    dimension reaches an element; fewer indices give the sub-array (a row) at that place."""

    __slots__ = ("shape",)

    def __init__(self, pointer: Pointer, shape: tuple[int, ...]) -> None:
        super().__init__(pointer.buffer, pointer.offset, pointer.dtype)
        self.shape = shape

    def _place(self, index) -> tuple[Pointer, tuple[int, ...]]:
        """The element offset of a (partial) index and the shape left over."""
        parts = index if isinstance(index, tuple) else (index,)
        if len(parts) > len(self.shape):
            raise ElementIndexError(f"__shared__ array of shape {list(self.shape)} takes at most "
                                    f"{len(self.shape)} indices, got {len(parts)}")
        offset: Any = 0
        for k, part in enumerate(parts):
            offset = offset + part * int(np.prod(self.shape[k + 1:], dtype=np.int64))
        return Pointer(self.buffer, self.offset, self.dtype) + offset, self.shape[len(parts):]

    def __getitem__(self, index):
        """`sh[i][j]`, `sh[i, j]`: the element; `sh[i]` of a 2-D array: row i."""
        pointer, rest = self._place(index)
        return SharedArray(pointer, rest) if rest else Pointer.__getitem__(pointer, 0)

    def __setitem__(self, index, value) -> None:
        pointer, rest = self._place(index)
        if rest:
            raise SharedTypeError(f"cannot assign to a whole row of a __shared__ array of shape "
                                  f"{list(self.shape)}; index every dimension (sh[i][j] = v or "
                                  "sh[i, j] = v)")
        Pointer.__setitem__(pointer, 0, value)

    def __repr__(self) -> str:
        return f"SharedArray({Pointer.__repr__(self)}, shape={list(self.shape)})"


class _Shared:
    """`__shared__(T, a, b)` for `__shared__ T x[a][b]`, `__shared__(T, n)` for
    `__shared__ T x[n]`, `__shared__(T, 1)` for a scalar `__shared__ T x;` (used as `x[0]`);
    `__shared__.extern(T)` for `extern __shared__ T x[]`. `float`/`int` mean float32/int32."""

    def __call__(self, dtype: DTypeLike, *shape: int) -> SharedArray:
        if not shape:
            raise SharedTypeError("__shared__(T, n, ...) needs at least one dimension; a "
                                  "scalar `__shared__ T x;` is x = __shared__(T, 1), used "
                                  "as x[0]")
        try:
            dims = tuple(operator.index(s) for s in shape
                         if not isinstance(s, (bool, np.bool_)))
        except TypeError:
            dims = ()
        if len(dims) != len(shape):
            raise SharedTypeError(f"__shared__(T, {', '.join(map(repr, shape))}): dimensions "
                                  "must be integers")
        if any(d < 1 for d in dims):
            raise LdsError(f"__shared__(T, {', '.join(map(str, dims))}): every dimension must "
                           "be positive (C++ array bounds)")
        return SharedArray(shared_array(dtype, int(np.prod(dims, dtype=np.int64))), dims)

    @staticmethod
    def extern(dtype: DTypeLike) -> Pointer:
        """The dynamic shared memory (bytes from the launch's third argument) as `dtype`."""
        return dynamic_shared(dtype)

    def __repr__(self) -> str:
        return "<CUDA __shared__: __shared__(T, dims...), __shared__.extern(T)>"


__shared__ = _Shared()
