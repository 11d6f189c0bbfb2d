"""Per-lane register vectors, HIP's ext_vector_type (half8, float4, ...).

An instance holds `.regs`, a (W, n) array: row l is lane l's n-element vector. `load`/
`store` move n elements per lane at each lane's own address, reinterpreting bytes when the
pointer's dtype differs (like `*reinterpret_cast<half8*>(p)`).
"""

from __future__ import annotations

import functools
import operator
from typing import ClassVar, TypeVar

import numpy as np
from numpy.typing import DTypeLike

from ..errors import ElementIndexError, LaneValueError
from ..types import cxx_type
from .lanes import Lanes, as_lanes, batch_data, lane_wise_call, per_lane
from .memory import Pointer
from .state import current_context

V = TypeVar("V", bound="VectorRegs")


class VectorRegs:
    """Base of all vector types; use `vector_type(dtype, n)` to get a concrete class."""

    dtype: ClassVar[np.dtype]
    n: ClassVar[int]
    __slots__ = ("_regs",)

    def __init__(self, value: object = 0) -> None:
        """Zero-filled, or `value` broadcast: a scalar, one value per lane (W,), or (W, n)."""
        ctx = current_context(f"{type(self).__name__}()")
        width = ctx.lanes
        value = per_lane(value, ctx)
        if value.ndim == 1 and value.shape[0] == width:
            value = value[:, None]
        elif value.ndim not in (0, 2) or (value.ndim == 2 and value.shape != (width, self.n)):
            raise LaneValueError(
                f"{type(self).__name__} takes a scalar, one value per lane ({width},) or "
                f"registers ({width}, {self.n}); got shape {value.shape}"
            )
        self._regs = np.empty((width, self.n), self.dtype)
        self._regs[...] = np.asarray(value)

    @property
    def regs(self) -> Lanes:
        """(lanes, n) registers as Lanes (rows are lanes)."""
        return as_lanes(self._regs, -2)

    @regs.setter
    def regs(self, value: np.ndarray | Lanes) -> None:
        self._regs = batch_data(value)

    __lane_wise__ = staticmethod(lane_wise_call)  # whole-array intrinsics take registers

    def __batch_data__(self) -> np.ndarray:
        """The registers of every wave of a batch (`lanes.batch_data`)."""
        return self._regs

    @classmethod
    def load(cls: type[V], ptr: Pointer) -> V:
        """Each lane reads n x dtype from its own address, reinterpreting ptr's bytes."""
        nbytes = cls.n * cls.dtype.itemsize
        if nbytes % ptr.dtype.itemsize == 0:
            raw = ptr.load(nbytes // ptr.dtype.itemsize)
        else:
            raw = ptr.cast(np.uint8).load(nbytes)
        vec = cls.__new__(cls)
        vec._regs = np.ascontiguousarray(raw).view(cls.dtype)
        return vec

    def store(self, ptr: Pointer) -> None:
        """Each lane writes its vector at its own address, reinterpreting as ptr's dtype."""
        if (self.n * self.dtype.itemsize) % ptr.dtype.itemsize == 0:
            ptr.store(self._regs.view(ptr.dtype))
        else:
            ptr.cast(np.uint8).store(self._regs.view(np.uint8))

    def _element(self, i: int) -> int:
        i = operator.index(i)
        if not 0 <= i < self.n:
            raise ElementIndexError(
                f"{type(self).__name__} has elements 0..{self.n - 1}, got index {i}"
            )
        return i

    def __getitem__(self, i: int) -> Lanes:
        """Element i of every lane's vector."""
        return Lanes(self._regs[:, self._element(i)].copy())

    def __setitem__(self, i: int, value: object) -> None:
        """Set element i of every lane's vector to a scalar or one value per lane."""
        self._regs[:, self._element(i)] = np.asarray(batch_data(value))

    def __len__(self) -> int:
        return self.n

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        """The registers as an array: one wave's, so in a batch only per wave (see Lanes)."""
        return as_lanes(self._regs, -2).__array__(dtype, copy)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.n} x {self.dtype} per lane)"


def vector_type(dtype: DTypeLike, n: int) -> type[VectorRegs]:
    """The (cached) n x dtype per-lane vector class: vector_type(np.float16, 8) is half8.

    An instance holds one n-vector per lane (`regs`, shaped (lanes, n)); `v[i]` is element i
    in every lane. Pass them to amdgcn builtins, `p.load(n)` / `p.store(v)`.

    Args:
        dtype: element type (Python's `float`, `int`, `bool` are C++'s: float32, int32,
            bool, so `vector_type(float, 4)` is `float4`). n: elements per lane, positive.

    Raises:
        ValueError: n < 1.

    Example:
        >>> import numpy as np
        >>> from rocwmma_py import vector_type
        >>> half4 = vector_type(np.float16, 4)
        >>> half4 is vector_type(np.float16, 4)
        True
    """
    n = operator.index(n)
    if n < 1:
        raise LaneValueError(f"vector_type needs a positive length, got {n}")
    return _vector_class(np.dtype(cxx_type(dtype)), n)


@functools.cache
def _vector_class(dtype: np.dtype, n: int) -> type[VectorRegs]:
    attrs = {"dtype": dtype, "n": n, "__slots__": (), "__module__": __name__,
             "__doc__": f"{n} x {dtype.name} per lane (HIP's ext_vector_type); `v[i]` is "
                        "element i in every lane. See `vector_type`."}
    return type(f"{dtype.name}x{n}", (VectorRegs,), attrs)


# The HIP vector types kernels use most; anything else: vector_type(dtype, n).
half4 = vector_type(np.float16, 4)
half8 = vector_type(np.float16, 8)
half16 = vector_type(np.float16, 16)
float4 = vector_type(np.float32, 4)
floatx8 = vector_type(np.float32, 8)
floatx16 = vector_type(np.float32, 16)
int8x8 = vector_type(np.int8, 8)
int8x16 = vector_type(np.int8, 16)
int32x4 = vector_type(np.int32, 4)
int32x8 = vector_type(np.int32, 8)
