"""Per-lane values: a numpy vector with one entry per lane of the running wave(s).

Wave-uniform lane vectors convert to Python bool/int/float, so ordinary Python control flow
works inside kernels. A value that differs inside one wave raises `DivergenceError` (a wave
has a single program counter). In a batch of waves, a value uniform in each wave but
different between waves splits the batch (`BatchSplit`): the engine reruns each part.
`where(cond)` masks memory accesses per lane, the port of a C++ per-lane `if` around a load
or store.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from ..errors import LaneTypeError, LaneValueError
from .errors import DivergenceError
from .state import (
    BatchSplit,
    NeedsPerWave,
    WaveContext,
    current_context,
    current_context_or_none,
    where_text,
)

_MAX_RUNS_SHOWN = 6


class Lanes(np.ndarray):
    """One value per lane, shape (lanes,); numpy arithmetic on it returns Lanes."""

    def __array_wrap__(self, array, context=None, return_scalar=False):
        # Reductions (np.all, .sum(), ...) come back as plain numpy scalars, and results
        # that are not one value per lane (outer products, ...) as plain arrays.
        if return_scalar or array.ndim == 0:
            ctx = current_context_or_none()
            if ctx is not None and ctx.batched and self.size == ctx.lanes > ctx.wave_size:
                raise NeedsPerWave  # a reduction over a batch would mix waves
            return array[()]
        if array.ndim != 1:
            return array.view(np.ndarray)
        return array.view(Lanes)

    def __getitem__(self, index):
        # Lanes by position (x[0], x[:16]) mean one wave's lanes; in a batch they would pick
        # other waves' lanes, so such kernels run wave by wave.
        ctx = current_context_or_none()
        if (ctx is not None and ctx.batched and self.size == ctx.lanes > ctx.wave_size
                and not _keeps_lanes(index)):
            raise NeedsPerWave
        return super().__getitem__(index)

    def _uniform_value(self, action: str):
        values = np.asarray(self).reshape(-1)
        if values.size == 0:
            raise LaneValueError(f"{action} on an empty Lanes value")
        first = values[0]
        equal_nan = values.dtype.kind in "fc"
        if np.array_equal(values, np.full_like(values, first), equal_nan=equal_nan):
            return first
        ctx = current_context_or_none()
        if ctx is not None and ctx.batched and values.size == ctx.lanes:
            per_wave = values.reshape(ctx.n_waves, ctx.wave_size)
            if (per_wave == per_wave[:, :1]).all():
                raise BatchSplit(per_wave[:, 0].copy())
            raise NeedsPerWave  # divergence inside a wave: the per-wave rerun reports it
        hint = ""
        if action == "use as an index":
            hint = (" If this indexes a Python list or tuple: per-lane data must be a numpy "
                    "array, which a launch turns into a pointer indexable per lane.")
        raise DivergenceError(
            f"{action} on a value that differs across lanes{where_text()}: "
            f"{describe_lanes(values)}. Python control flow (if/while/and/or/int()/range()) "
            "needs a wave-uniform value; use select(cond, a, b), where(cond) or masks for "
            f"per-lane choices.{hint}"
        )

    def __bool__(self) -> bool:
        return bool(self._uniform_value("branch"))

    def __int__(self) -> int:
        return int(self._uniform_value("int() conversion"))

    def __float__(self) -> float:
        return float(self._uniform_value("float() conversion"))

    def __index__(self) -> int:
        if self.dtype.kind not in "iu":
            raise LaneTypeError(f"Lanes of {self.dtype} cannot be used as an index; integers only")
        return int(self._uniform_value("use as an index"))


def _keeps_lanes(index) -> bool:
    """Whether an index takes every lane as it is (x[:], x[..., None]), not by position."""
    if isinstance(index, str):  # a field of structured per-lane values (CUDA's int4 .x)
        return True
    parts = index if isinstance(index, tuple) else (index,)
    return all(p is None or p is Ellipsis or (isinstance(p, slice) and p == slice(None))
               for p in parts)


def describe_lanes(values: np.ndarray) -> str:
    """Compact per-lane listing by runs of equal values: "lanes 0-15 = 0, lanes 16-31 = 1"."""
    values = np.asarray(values).reshape(-1)
    changes = np.flatnonzero(values[1:] != values[:-1]) + 1
    starts = np.concatenate(([0], changes))
    ends = np.concatenate((changes, [values.size])) - 1
    parts = []
    for start, end in zip(starts[:_MAX_RUNS_SHOWN], ends[:_MAX_RUNS_SHOWN], strict=True):
        lanes = f"lane {start}" if start == end else f"lanes {start}-{end}"
        parts.append(f"{lanes} = {values[start].item()!r}")
    if starts.size > _MAX_RUNS_SHOWN:
        distinct = np.unique(values).size
        parts.append(f"... ({starts.size} runs, {distinct} distinct values)")
    return ", ".join(parts)


def per_lane(value: object, ctx: WaveContext) -> np.ndarray:
    """`value` with its leading lane axis spanning the running waves: one wave's worth of
    per-lane data (W, ...) is the same in every wave of a batch."""
    value = np.asarray(value)
    if ctx.n_waves > 1 and value.ndim and value.shape[0] == ctx.wave_size:
        return np.tile(value, (ctx.n_waves,) + (1,) * (value.ndim - 1))
    return value


def select(cond: object, a: object, b: object) -> Lanes:
    """Per-lane ternary `cond ? a : b` (np.where), the escape hatch for divergent choices."""
    result = np.where(np.asarray(cond, dtype=bool), a, b)
    ctx = current_context_or_none()
    if result.ndim == 0 and ctx is not None:
        result = np.full(ctx.lanes, result)
    return result.view(Lanes)


@contextmanager
def where(cond: object) -> Iterator[None]:
    """Per-lane `if (cond) { ... }` around memory accesses: inside the block, pointer reads
    and writes (p[i], p[i] = v, loads, stores, fragment loads/stores) touch only the lanes
    where `cond` holds; other lanes read 0, write nothing and are not bounds-checked.
    Blocks nest (the masks are and-ed); `where(~cond)` is the else branch."""
    ctx = current_context("where()")
    mask = np.broadcast_to(np.asarray(cond, dtype=bool), (ctx.lanes,))
    outer = ctx.active_mask()
    ctx.masks.append(mask if outer is None else mask & outer)
    try:
        yield
    finally:
        ctx.masks.pop()
