"""HIP's built-in variables and functions (threadIdx, blockIdx, lane_id(), ...) for kernels.

They are module-level proxies that read the running wave(s) from a thread-local, so kernel
code can use them exactly like in HIP. threadIdx components are Lanes (one value per lane,
even when uniform); blockDim and gridDim components are plain ints; blockIdx components are
ints for a single wave and per-lane values (acting as ints where uniform) in a batch.
"""

from __future__ import annotations

from collections.abc import Callable

from .lanes import Lanes
from .state import WaveContext, current_context


class _Dim3Builtin:
    """A read-only HIP built-in with .x/.y/.z looked up in the running wave."""

    __slots__ = ("_name", "_get")

    def __init__(self, name: str, get: Callable[[WaveContext], tuple]) -> None:
        self._name = name
        self._get = get

    def _component(self, axis: int, letter: str):
        value = self._get(current_context(f"{self._name}.{letter}"))[axis]
        # Copies, so `tx = threadIdx.x; tx += 1` cannot change the wave's own indices.
        return value.copy() if isinstance(value, Lanes) else value

    @property
    def x(self):
        return self._component(0, "x")

    @property
    def y(self):
        return self._component(1, "y")

    @property
    def z(self):
        return self._component(2, "z")

    def __repr__(self) -> str:
        return f"<HIP built-in {self._name}>"


threadIdx = _Dim3Builtin("threadIdx", lambda ctx: ctx.thread_idx)
blockIdx = _Dim3Builtin("blockIdx", lambda ctx: ctx.block_idx)
blockDim = _Dim3Builtin("blockDim", lambda ctx: ctx.block_dim)
gridDim = _Dim3Builtin("gridDim", lambda ctx: ctx.grid_dim)


def lane_id() -> Lanes:
    """Lane number 0..W-1 of each lane of the running wave (HIP's __lane_id())."""
    return current_context("lane_id()").lane_ids.copy()


def wave_size() -> int:
    """Lanes per wave of the running kernel's target (HIP's warpSize): 64 or 32."""
    return current_context("wave_size()").wave_size


__lane_id = lane_id
