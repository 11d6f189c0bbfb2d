"""Per-lane values: numpy arrays with one entry per lane of the running wave(s) along a lane axis.

Wave-uniform lane vectors convert to Python bool/int/float, so ordinary Python control flow
works inside kernels. A value that differs inside one wave raises `DivergenceError` (a wave
has a single program counter). In a batch of waves, a value uniform in each wave but
different between waves splits the batch (`BatchSplit`): the engine reruns each part.
`where(cond)` masks memory accesses per lane, the port of a C++ per-lane `if` around a load
or store.

Every per-lane container a kernel can touch (`threadIdx`, `lane_id()`, pointer gathers,
`frag.x`, `VectorRegs.regs`, builtin results, and what numpy computes from them) is a `Lanes`
array that knows its lane axis. In a batch that axis holds every wave (wave-major), so
`Lanes` keeps the batch out of the kernel's reach: element-wise numpy stays batched; lane-
preserving reshuffles (transposes, stacking, slices of other axes) stay batched with the lane
axis tracked; a gather by a per-lane index (`x[lane_id() ^ 1]`) is computed per wave exactly;
`shape`, `size` and `len()` answer for one wave; anything else that depends on lane positions
(reductions over lanes, positional indexing, sorting, dot products, iteration, `.tolist()`)
raises `NeedsPerWave`, so those blocks rerun wave by wave. Per wave, `Lanes` is plain numpy.

`blockIdx` components of a batch are "weak" Lanes: Python operators on them follow Python's
int/float rules (`weak_ops.py`), and with numpy operands they promote like Python scalars
(NEP 50), exactly as the per-wave engine's plain ints do.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from ..errors import LaneTypeError, LaneValueError
from . import weak_ops
from .errors import DivergenceError
from .state import (
    BatchSplit,
    NeedsPerWave,
    WaveContext,
    current_context,
    current_context_or_none,
    taint_running_batch,
    where_text,
)

_MAX_RUNS_SHOWN = 6
_PACKAGES = ("rocwmma_py", "numpy", "ml_dtypes")  # callers that see a batch's real shape


class Lanes(np.ndarray):
    """One value per lane along `lane_axis` (negative: -1 = last); numpy on it returns Lanes
    where the result still has that lane axis (`WeakLanes`: a batch's blockIdx values)."""

    lane_axis: int = -1
    weak: bool = False

    def __array_finalize__(self, obj) -> None:
        # views and copies of a Lanes keep its lane axis (the class default otherwise)
        if isinstance(obj, Lanes) and obj.lane_axis != -1 and obj.ndim == self.ndim:
            self.lane_axis = obj.lane_axis

    # --- numpy protocols ------------------------------------------------------------------
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if method == "__call__" and not kwargs and ufunc.nout == 1:
            # the hot path: element-wise on Lanes (not weak) that share the lane axis
            axis = self.lane_axis
            plain = []
            for x in inputs:
                if isinstance(x, Lanes):
                    if x.weak or x.lane_axis != axis:
                        break
                    plain.append(x.view(np.ndarray))
                else:
                    plain.append(x)
            else:
                if ufunc.signature is None:
                    try:
                        result = ufunc(*plain)
                    except Exception:
                        taint_running_batch()
                        raise
                    lanes = np.ndarray.shape.__get__(self)[axis] if self.ndim >= -axis else -1
                    if (type(result) is np.ndarray and result.ndim >= -axis
                            and result.shape[axis] == lanes):
                        result = result.view(Lanes)
                        if axis != -1:
                            result.lane_axis = axis
                    return result
        with _batch_errors_taint() as batch:
            return _ufunc(ufunc, method, inputs, kwargs, batch)

    def __array_function__(self, func, types, args, kwargs):
        if func in _ELEMENTWISE and not kwargs and len(args) > 1:
            # the hot path (np.where & co. on Lanes that share the lane axis, none weak)
            axis = self.lane_axis
            plain = []
            for x in args:
                if isinstance(x, Lanes):
                    if x.weak or x.lane_axis != axis:
                        break
                    plain.append(x.view(np.ndarray))
                elif isinstance(x, (list, tuple)):
                    break
                else:
                    plain.append(x)
            else:
                try:
                    result = func(*plain)
                except Exception:
                    taint_running_batch()
                    raise
                return _wrap(result, axis, self._lane_count())
        with _batch_errors_taint() as batch:
            return _function(func, args, kwargs, batch)

    def __getitem__(self, index):
        with _batch_errors_taint() as batch:
            plain, axis = _index_plan(self, index, batch)
            return _wrap(np.ndarray.__getitem__(self.view(np.ndarray), plain), axis,
                         self._lane_count())

    def __setitem__(self, index, value) -> None:
        with _batch_errors_taint() as batch:
            plain, _ = _index_plan(self, index, batch)
            np.ndarray.__setitem__(self.view(np.ndarray), plain, _plain(value))

    # --- what exposes the batch: answered per wave, or only per wave ----------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return self._shape_for_caller(2)

    @shape.setter
    def shape(self, value) -> None:
        np.ndarray.shape.__set__(self, value)  # type: ignore[attr-defined] # numpy's descriptor

    @property
    def size(self) -> int:
        return int(np.prod(self._shape_for_caller(2)))

    @property
    def nbytes(self) -> int:
        return int(np.prod(self._shape_for_caller(2))) * self.itemsize

    def __len__(self) -> int:
        if not self.ndim:
            return np.ndarray.__len__(self)
        return self._shape_for_caller(2)[0]

    def _shape_for_caller(self, depth: int) -> tuple[int, ...]:
        """The real shape for package code; for kernel code, one wave's (the lane axis as
        long as a wave), so a kernel never sees the batch's size."""
        shape = np.ndarray.shape.__get__(self)
        if _spans(self) and not _caller_is_package(depth + 1):
            wave_shape = list(shape)
            wave_shape[self.lane_axis] = current_context("shape").wave_size
            return tuple(wave_shape)
        return shape

    def __iter__(self):
        if self.ndim + self.lane_axis == 0:
            _only_per_wave(self)
        return (self[i] for i in range(np.ndarray.__len__(self)))

    def __contains__(self, value) -> bool:
        _only_per_wave(self)
        return np.ndarray.__contains__(self, value)

    @property
    def flat(self):
        _only_per_wave(self)
        return np.ndarray.flat.__get__(self)

    @property
    def T(self) -> np.ndarray:  # type: ignore[override] # noqa: N802 - numpy's name
        return np.transpose(self)

    def tolist(self):
        _only_per_wave(self)
        return np.ndarray.tolist(self)

    def item(self, *args):
        _only_per_wave(self)
        return np.ndarray.item(self, *args)

    def tobytes(self, order="C") -> bytes:
        _only_per_wave(self)
        return np.ndarray.tobytes(self, order)

    def sort(self, axis=-1, kind=None, order=None) -> None:  # type: ignore[override]
        if self.ndim and (axis is None or axis % self.ndim == self.ndim + self.lane_axis):
            _only_per_wave(self)
        np.ndarray.sort(self.view(np.ndarray), axis, kind, order)

    # numpy methods with a numpy-function twin go through __array_function__'s rules.
    def reshape(self, *shape, **kwargs):
        return np.reshape(self, shape[0] if len(shape) == 1 else shape, **kwargs)

    def transpose(self, *axes):
        return np.transpose(self, axes[0] if len(axes) == 1 else (axes or None))

    def swapaxes(self, a, b):
        return np.swapaxes(self, a, b)

    def ravel(self, order="C"):
        return np.ravel(self, order)

    def flatten(self, order="C"):
        return np.ravel(self, order).copy()

    def squeeze(self, axis=None):
        return np.squeeze(self, axis)

    def take(self, indices, axis=None, out=None, mode="raise"):
        return np.take(self, indices, axis, out, mode)

    def repeat(self, repeats, axis=None):
        return np.repeat(self, repeats, axis)

    def argmax(self, axis=None, out=None, **kwargs):
        return np.argmax(self, axis, out, **kwargs)

    def argmin(self, axis=None, out=None, **kwargs):
        return np.argmin(self, axis, out, **kwargs)

    def argsort(self, axis=-1, kind=None, order=None, **kwargs):
        return np.argsort(self, axis, kind, order, **kwargs)

    def cumsum(self, axis=None, dtype=None, out=None):
        return np.cumsum(self, axis, dtype, out)

    def cumprod(self, axis=None, dtype=None, out=None):
        return np.cumprod(self, axis, dtype, out)

    def dot(self, other, out=None):
        return np.dot(self, other, out)

    def nonzero(self):
        return np.nonzero(self)

    def diagonal(self, offset=0, axis1=0, axis2=1):
        return np.diagonal(self, offset, axis1, axis2)

    def trace(self, *args, **kwargs):
        return np.trace(self, *args, **kwargs)

    def compress(self, condition, axis=None, out=None):
        return np.compress(condition, self, axis, out)

    def searchsorted(self, v, side="left", sorter=None):
        return np.searchsorted(self, v, side, sorter)

    def partition(self, kth, axis=-1, kind="introselect", order=None) -> None:
        _only_per_wave(self)
        np.ndarray.partition(self, kth, axis, kind, order)

    def put(self, indices, values, mode="raise") -> None:
        _only_per_wave(self)
        np.ndarray.put(self, indices, values, mode)

    # --- uniform values act as Python scalars ---------------------------------------------
    def _lane_count(self) -> int:
        shape = np.ndarray.shape.__get__(self)
        return shape[self.lane_axis] if len(shape) >= -self.lane_axis else 0

    def _uniform_value(self, action: str):
        values = self.view(np.ndarray).reshape(-1)
        if values.size == 0:
            raise LaneValueError(f"{action} on an empty Lanes value")
        first = values[0]
        equal_nan = values.dtype.kind in "fc"
        if np.array_equal(values, np.full_like(values, first), equal_nan=equal_nan):
            return first
        ctx = current_context_or_none()
        if ctx is not None and _spans(self, ctx):
            lanes_last = np.moveaxis(self.view(np.ndarray), self.lane_axis, -1)
            per_wave = lanes_last.reshape(-1, ctx.n_waves, ctx.wave_size)
            if (per_wave == per_wave[:1, :, :1]).all():
                raise BatchSplit(per_wave[0, :, 0].copy())
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



class WeakLanes(Lanes):
    """A batch's stand-in for a per-wave Python int/float/bool (blockIdx and what Python
    operators compute from it with Python scalars): Python's rules (`weak_ops.py`)."""

    weak = True

    def __hash__(self) -> int:  # type: ignore[override] # Python ints hash; arrays do not
        return hash(self._uniform_value("hash()").item())

    def __round__(self, ndigits=None):
        with _batch_errors_taint():
            return weak_ops.python_round(self, ndigits)

    def __divmod__(self, other):
        if weak_ops.is_weak(other):
            with _batch_errors_taint():
                return weak_ops.python_binary("divmod", self, other)
        return np.divmod(self, other)

    def __rdivmod__(self, other):
        if weak_ops.is_weak(other):
            with _batch_errors_taint():
                return weak_ops.python_binary("divmod", other, self)
        return np.divmod(other, self)


def _python_operator(dunder: str, reflected: bool = False, inplace: bool = False):
    """A binary operator of WeakLanes: Python's rules when it meets a weak value or a Python
    scalar, numpy's otherwise (the weak value promoting like a Python scalar)."""
    prefix = "r" if reflected else ""
    numpy_op = getattr(np.ndarray, f"__{prefix}{dunder}__")  # in place: rebinds, as for int

    def op(self, other):
        if weak_ops.is_weak(other):
            with _batch_errors_taint():
                a, b = (other, self) if reflected else (self, other)
                return weak_ops.python_binary(dunder, a, b)
        return numpy_op(self, other)

    op.__name__ = f"__{'i' if inplace else prefix}{dunder}__"
    return op


def _python_unary(name: str):
    def op(self):
        with _batch_errors_taint():
            return weak_ops.python_unary(name, self)

    op.__name__ = f"__{name}__"
    return op


for _dunder in weak_ops.OPERATORS:
    setattr(WeakLanes, f"__{_dunder}__", _python_operator(_dunder))
    if _dunder not in weak_ops.COMPARISONS:
        setattr(WeakLanes, f"__r{_dunder}__", _python_operator(_dunder, reflected=True))
        setattr(WeakLanes, f"__i{_dunder}__", _python_operator(_dunder, inplace=True))
for _unary in ("neg", "pos", "abs", "invert"):
    setattr(WeakLanes, f"__{_unary}__", _python_unary(_unary))


def weak_lanes(values: np.ndarray) -> WeakLanes:
    """`values` (one per lane) as a batch's stand-in for Python ints (blockIdx)."""
    return np.asarray(values).view(WeakLanes)


# --- the batch guard ------------------------------------------------------------------------

def _spans(x: np.ndarray, ctx: WaveContext | None = None) -> bool:
    """Whether `x` is a per-lane value of a running batch of several waves."""
    if ctx is None:
        ctx = current_context_or_none()
    return (ctx is not None and ctx.batched and ctx.n_waves > 1 and isinstance(x, Lanes)
            and x._lane_count() == ctx.lanes)


def _only_per_wave(x: np.ndarray) -> None:
    """`x`'s lanes by position mean one wave's lanes: a batch reruns wave by wave."""
    if _spans(x):
        raise NeedsPerWave


def _caller_is_package(depth: int) -> bool:
    """Whether the code `depth` frames above this function's caller is this package's or
    numpy's."""
    name = sys._getframe(depth).f_globals.get("__name__", "")
    return name.split(".", 1)[0] in _PACKAGES


class _batch_errors_taint:  # noqa: N801 - used as a context manager, like a function
    """Yields whether a batch is running; an exception escaping the block marks the batch,
    so a kernel that catches it still gets rerun wave by wave."""

    __slots__ = ("ctx",)

    def __enter__(self) -> bool:
        ctx = self.ctx = current_context_or_none()
        return ctx is not None and ctx.batched and ctx.n_waves > 1

    def __exit__(self, kind, err, tb) -> Literal[False]:
        if err is not None and isinstance(err, Exception) and self.ctx is not None:
            taint_running_batch(self.ctx)
        return False


def _plain(value):
    """ndarray views of Lanes, also inside tuples/lists (numpy function arguments)."""
    if isinstance(value, Lanes):
        return value.view(np.ndarray)
    if isinstance(value, (list, tuple)) and any(isinstance(v, (Lanes, list, tuple))
                                                for v in value):
        return type(value)(_plain(v) for v in value)
    return value


def _wrap(result, axis: int | None, lanes: int):
    """`result` as Lanes with lane axis `axis` when it has one of length `lanes`."""
    if isinstance(result, tuple):
        return tuple(_wrap(r, axis, lanes) for r in result)
    if (axis is None or not isinstance(result, np.ndarray) or result.ndim < -axis
            or result.shape[axis] != lanes):
        return result
    out = result.view(Lanes)
    out.lane_axis = axis
    return out


def _lane_axes(values, batch: bool) -> tuple[int | None, int]:
    """The common lane axis of the Lanes among `values` (None: none) and its length; Lanes
    that disagree about the axis mix lanes, which a batch cannot do."""
    axis, lanes = None, 0
    for v in values:
        if isinstance(v, (list, tuple)):
            sub, n = _lane_axes(v, batch)
            found = [(sub, n)] if sub is not None else []
        elif isinstance(v, Lanes) and v._lane_count():
            found = [(v.lane_axis, v._lane_count())]
        else:
            found = []
        for a, n in found:
            if axis is None:
                axis, lanes = a, n
            elif (a, n) != (axis, lanes):
                if batch:
                    raise NeedsPerWave
                return None, 0
    return axis, lanes


# --- ufuncs -----------------------------------------------------------------------------------

def _ufunc(ufunc, method, inputs, kwargs, batch):
    inputs = weak_ops.resolve_weak(ufunc, inputs) if any(
        isinstance(x, Lanes) and x.weak for x in inputs) else inputs
    out = kwargs.get("out")
    kwargs = {k: _plain(v) for k, v in kwargs.items()}
    if out is not None:
        kwargs["out"] = tuple(_plain(o) for o in out)
    axis, lanes = _lane_axes(inputs + (out or ()), batch)
    plain = [_plain(x) for x in inputs]
    if method == "__call__":
        if ufunc.signature is not None and axis is not None:  # matmul & co: lanes are data
            if batch:
                raise NeedsPerWave
            axis = None
        result = ufunc(*plain, **kwargs)
    elif method in ("reduce", "accumulate", "reduceat"):
        axis = _reduced_axis(inputs[0], kwargs.get("axis", 0), kwargs.get("keepdims", False)
                             or method != "reduce", batch)
        result = getattr(ufunc, method)(*plain, **kwargs)
    elif method == "outer":
        a, b = inputs
        span_a, span_b = isinstance(a, Lanes), isinstance(b, Lanes)
        if span_a and span_b:
            if batch:
                raise NeedsPerWave
            axis = None
        elif span_a:
            axis = a.ndim + a.lane_axis - (a.ndim + np.ndim(b))
        result = ufunc.outer(*plain, **kwargs)
    else:  # "at": in-place by position
        if batch and axis is not None:
            raise NeedsPerWave
        return getattr(ufunc, method)(*plain, **kwargs)
    if out is not None:
        return out[0] if len(out) == 1 else out
    return _wrap(result, axis, lanes)


def _reduced_axis(x, axis, keepdims: bool, batch: bool) -> int | None:
    """Lane axis after reducing `x` over `axis`; reducing over lanes mixes waves."""
    if not isinstance(x, Lanes) or not x._lane_count():
        return None
    ndim = x.ndim
    lane = ndim + x.lane_axis
    given = range(ndim) if axis is None else (axis if isinstance(axis, tuple) else (axis,))
    axes = {int(a) % ndim for a in given} if ndim else set()
    if lane in axes:
        if batch:
            raise NeedsPerWave
        return None
    if keepdims:
        return x.lane_axis
    return lane - sum(a < lane for a in axes) - (ndim - len(axes))


# --- numpy functions --------------------------------------------------------------------------

_ELEMENTWISE = {np.where, np.clip, np.isclose, np.nan_to_num, np.round, np.around, np.real,
                np.imag, np.zeros_like, np.ones_like, np.full_like, np.empty_like, np.copy,
                np.copyto, np.select, np.fix, np.isreal, np.iscomplex, np.isneginf,
                np.isposinf, np.angle, np.sinc, np.i0, np.putmask, np.astype,
                np.real_if_close, np.asanyarray, np.require}
# Functions whose data arguments are rearranged, never combined: kept batched when every
# result position comes from the same lane (checked on a probe of lane numbers).
_FIRST_ARG = {np.transpose, np.swapaxes, np.moveaxis, np.rollaxis, np.reshape, np.ravel,
              np.squeeze, np.expand_dims, np.broadcast_to, np.flip, np.fliplr, np.flipud,
              np.roll, np.rot90, np.tile, np.repeat, np.take, np.pad, np.delete, np.insert,
              np.resize, np.append, np.atleast_1d, np.atleast_2d, np.atleast_3d, np.diagonal,
              np.triu, np.tril, np.compress, np.extract, np.trim_zeros}
_SEQUENCE_ARG = {np.concatenate, np.stack, np.vstack, np.hstack, np.dstack, np.column_stack,
                 np.block}
_ALL_ARGS = {np.broadcast_arrays, np.atleast_1d, np.atleast_2d, np.atleast_3d}
# Reductions and scans with an axis argument: batched unless they run over the lane axis.
# value: (default axis, keeps the shape)
_AXIS_FUNCTIONS = {
    np.sum: (None, False), np.prod: (None, False), np.max: (None, False),
    np.min: (None, False), np.amax: (None, False), np.amin: (None, False),
    np.mean: (None, False), np.std: (None, False), np.var: (None, False),
    np.any: (None, False), np.all: (None, False), np.argmax: (None, False),
    np.argmin: (None, False), np.count_nonzero: (None, False), np.nansum: (None, False),
    np.nanprod: (None, False), np.nanmax: (None, False), np.nanmin: (None, False),
    np.nanmean: (None, False), np.median: (None, False), np.ptp: (None, False),
    np.average: (None, False), np.nanargmax: (None, False), np.nanargmin: (None, False),
    np.cumsum: (None, True), np.cumprod: (None, True), np.nancumsum: (None, True),
    np.nancumprod: (None, True), np.sort: (-1, True), np.argsort: (-1, True),
    np.diff: (-1, True), np.cumulative_sum: (None, True), np.cumulative_prod: (None, True),
}
# What a value is, not what it holds: answered as for the plain array.
_METADATA = {np.result_type, np.can_cast, np.min_scalar_type, np.iscomplexobj, np.isrealobj,
             np.may_share_memory, np.shares_memory}
_SHAPE_QUERIES = {np.shape: lambda shape: shape, np.size: lambda shape: int(np.prod(shape)),
                  np.ndim: len}


def _function(func, args, kwargs, batch):
    first = args[0] if args else next(iter(kwargs.values()), None)
    if func in _SHAPE_QUERIES and len(args) == 1 and not kwargs and isinstance(first, Lanes):
        return _SHAPE_QUERIES[func](first._shape_for_caller(3))
    plain_args, plain_kwargs = _plain(args), {k: _plain(v) for k, v in kwargs.items()}
    if func in _METADATA:
        return func(*plain_args, **plain_kwargs)
    if func in _ELEMENTWISE and not (func is np.where and len(args) == 1):
        operands = args[1:] if func is np.where else args
        if any(isinstance(x, Lanes) and x.weak for x in operands):
            operands = weak_ops.resolve_weak(None, tuple(operands))
            plain_args = _plain(((args[0],) if func is np.where else ()) + tuple(operands))
        axis, lanes = _lane_axes((*args, *kwargs.values()), batch)
        return _wrap(func(*plain_args, **plain_kwargs), axis, lanes)
    if func in _FIRST_ARG or func in _SEQUENCE_ARG or func in _ALL_ARGS:
        return _rearranged(func, args, kwargs, plain_args, plain_kwargs, batch)
    if func in _AXIS_FUNCTIONS and isinstance(first, Lanes):
        default, keeps = _AXIS_FUNCTIONS[func]
        axis_arg = kwargs.get("axis", args[1] if len(args) > 1 else default)
        if func is np.diff and "axis" not in kwargs:
            axis_arg = args[3] if len(args) > 3 else -1
        axis = _reduced_axis(first, axis_arg, keeps or kwargs.get("keepdims", False), batch)
        return _wrap(func(*plain_args, **plain_kwargs), axis, first._lane_count())
    axis, _ = _lane_axes((*args, *kwargs.values()), False)
    if batch and axis is not None and _spans_any((*args, *kwargs.values())):
        raise NeedsPerWave  # dot, einsum, unique, nonzero, ...: lanes combined
    return func(*plain_args, **plain_kwargs)


def _spans_any(values) -> bool:
    ctx = current_context_or_none()
    for v in values:
        if isinstance(v, (list, tuple)) and _spans_any(v):
            return True
        if _spans(v, ctx):
            return True
    return False


def _probe(value, lanes: int):
    """Lane numbers in the shape of a data argument (-1 where it is not per-lane)."""
    if isinstance(value, (list, tuple)):
        return type(value)(_probe(v, lanes) for v in value)
    if isinstance(value, Lanes) and value._lane_count() == lanes:
        shape = [1] * value.ndim
        shape[value.lane_axis] = lanes
        return np.broadcast_to(np.arange(lanes).reshape(shape), value.view(np.ndarray).shape)
    if isinstance(value, np.ndarray) or np.isscalar(value):
        return np.broadcast_to(np.int64(-1), np.shape(value))
    return value


def _probe_axis(result, lanes: int) -> int | None:
    """The axis along which every position of a rearranged probe holds its own lane."""
    if not isinstance(result, np.ndarray):
        return None
    for a in range(result.ndim - 1, -1, -1):
        if result.shape[a] != lanes:
            continue
        shape = [1] * result.ndim
        shape[a] = lanes
        if (result == np.arange(lanes).reshape(shape)).all():
            return a - result.ndim
    return None


def _rearranged(func, args, kwargs, plain_args, plain_kwargs, batch):
    axis, lanes = _lane_axes((*args, *kwargs.values()), batch)
    result = func(*plain_args, **plain_kwargs)
    if axis is None:
        return result
    if func in _SEQUENCE_ARG or func in _ALL_ARGS:
        data = list(range(len(args))) if func in _ALL_ARGS else [0]
    else:
        data = [0]
    probe_args = [_probe(a, lanes) if i in data else _plain(a) for i, a in enumerate(args)]
    if func is np.take and len(probe_args) > 1 and isinstance(args[1], Lanes):
        probe = None  # a gather by per-lane indices: positions, not lanes
    else:
        probe = func(*probe_args, **plain_kwargs)
    results = result if isinstance(result, (tuple, list)) else (result,)
    probes = probe if isinstance(probe, (tuple, list)) else (probe,)
    wrapped = []
    for r, p in zip(results, probes, strict=True):
        r_axis = _probe_axis(p, lanes)
        if r_axis is None and batch:
            raise NeedsPerWave
        wrapped.append(_wrap(r, r_axis, lanes))
    if isinstance(result, (tuple, list)):
        return type(result)(wrapped)
    return wrapped[0]


# --- indexing ---------------------------------------------------------------------------------

def _full(part) -> bool:
    return (isinstance(part, slice) and part.start in (None, 0) and part.stop is None
            and part.step in (None, 1))


def _is_int(part) -> bool:
    return isinstance(part, (int, np.integer)) and not isinstance(part, (bool, np.bool_))


def _index_plan(x: Lanes, index, batch: bool):
    """(index for the plain array, lane axis of the result or None). In a batch an index
    that picks lanes by position raises NeedsPerWave, and a gather by a per-lane index is
    shifted to each wave's own lanes."""
    if isinstance(index, str):  # a field of structured per-lane values (CUDA's int4 .x)
        return index, x.lane_axis
    parts = index if isinstance(index, tuple) else (index,)
    ndim = x.ndim
    lane = ndim + x.lane_axis
    used = sum(p is not None and p is not Ellipsis for p in parts)
    expanded = []
    for p in parts:
        if p is Ellipsis:
            expanded.extend([slice(None)] * (ndim - used))
        else:
            expanded.append(p)
    consumed = sum(p is not None for p in expanded)
    expanded.extend([slice(None)] * max(0, ndim - consumed))
    lanes = x._lane_count()
    spans = batch and _spans(x)
    if all(p is None or isinstance(p, slice) or _is_int(p) for p in expanded):
        axis, out, lane_out, positional = 0, 0, None, False
        for p in expanded:
            if p is None:
                out += 1
                continue
            if axis == lane:
                if _full(p):
                    lane_out = out
                else:
                    positional = True
            axis += 1
            out += isinstance(p, slice)
        if positional or lane_out is None:
            if spans:
                raise NeedsPerWave
            return index, None
        return index, lane_out - out
    return _advanced_plan(x, index, expanded, lane, lanes, spans)


def _advanced_plan(x: Lanes, index, expanded, lane: int, lanes: int, spans: bool):
    """Index with arrays: a per-lane integer index on the lane axis (the rest ints and full
    slices) is a gather inside each wave; other array indices are checked on a probe."""
    arrays = [i for i, p in enumerate(expanded) if p is not None and not isinstance(p, slice)]
    axis_of = {}
    axis = 0
    for i, p in enumerate(expanded):
        if p is not None:
            axis_of[i] = axis
            axis += 1
    gathers = [i for i in arrays if not _is_int(expanded[i])]
    ctx = current_context_or_none()
    if len(gathers) == 1 and axis_of[gathers[0]] == lane and arrays == list(
            range(arrays[0], arrays[-1] + 1)):
        g = gathers[0]
        idx = expanded[g]
        if (isinstance(idx, Lanes) and idx.ndim == 1 and idx.dtype.kind in "iu"
                and idx._lane_count() == lanes
                and all(_full(p) or p is None or _is_int(p)
                        for i, p in enumerate(expanded) if i != g)):
            trailing = sum(p is None or isinstance(p, slice) for p in expanded[arrays[-1] + 1:])
            plain = [_plain(p) for p in expanded]
            if spans and ctx is not None:
                plain[g] = _wave_gather(idx.view(np.ndarray), ctx)
            return tuple(plain), -1 - trailing
    if spans and any(isinstance(p, Lanes) and p._lane_count() == lanes for p in expanded):
        raise NeedsPerWave  # per-lane indices on another axis: a lanes x lanes result
    plain = _plain(index)
    probe_shape = [1] * x.ndim
    probe_shape[x.lane_axis] = lanes
    probe = np.broadcast_to(np.arange(lanes).reshape(probe_shape), x.view(np.ndarray).shape)
    probed = _probe_axis(probe[plain], lanes)
    if probed is None and spans:
        raise NeedsPerWave
    return plain, probed


def _wave_gather(idx: np.ndarray, ctx: WaveContext) -> np.ndarray:
    """Per-lane lane numbers (each wave's own, -W..W-1) as positions in the batch."""
    width = ctx.wave_size
    if idx.size and (idx.min() < -width or idx.max() >= width):
        raise NeedsPerWave  # the per-wave engine reports the IndexError
    return idx % width + ctx.lane_bases()


# --- helpers kernels call ---------------------------------------------------------------------

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


def as_lanes(value: np.ndarray, lane_axis: int = -1) -> Lanes:
    """A view of per-lane data (a fragment's registers, register vectors, builtin results)
    as Lanes with its lane axis (-1: last, -2: rows are lanes)."""
    out = value.view(Lanes)
    out.lane_axis = lane_axis
    return out


def lanes_for_kernel(value: np.ndarray, lane_axis: int = -1) -> np.ndarray:
    """Per-lane data handed out by an attribute (`frag.x`, `vec.regs`; call this from the
    attribute's getter): a Lanes view for kernel code, the plain array for this package's
    own code (which handles batches itself)."""
    if _caller_is_package(3):
        return value
    return as_lanes(value, lane_axis)


def select(cond: ArrayLike, a: ArrayLike, b: ArrayLike) -> Lanes:
    """Per-lane ternary `cond ? a : b` (np.where), the escape hatch for divergent choices.

    A Python `if` on a value that differs between lanes raises `DivergenceError`; `select`
    picks per lane instead. Returns `Lanes` (one value per lane inside a kernel).

    Example:
        >>> import numpy as np
        >>> from rocwmma_py import kernel, select, threadIdx
        >>> @kernel
        ... def relu(x):
        ...     v = x[threadIdx.x]
        ...     x[threadIdx.x] = select(v > 0, v, 0.0)
        >>> x = np.arange(64.0) - 32
        >>> relu[1, 64, 0, "gfx942"](x)
        >>> float(x.min()), float(x.max())
        (0.0, 31.0)
    """
    result = np.where(np.asarray(cond, dtype=bool), a, b)
    ctx = current_context_or_none()
    if np.ndim(result) == 0 and ctx is not None:
        result = np.full(ctx.lanes, result)
    return np.asarray(result).view(Lanes)


@contextmanager
def where(cond: object) -> Iterator[None]:
    """Per-lane `if (cond) { ... }` around memory accesses: inside the block, pointer reads
    and writes (p[i], p[i] = v, loads, stores, fragment loads/stores) touch only the lanes
    where `cond` holds; other lanes read 0, write nothing and are not bounds-checked.
    Blocks nest (the masks are and-ed); `where(~cond)` is the else branch.

    Raises:
        NotInKernelError: outside a kernel.

    Example:
        >>> import numpy as np
        >>> from rocwmma_py import kernel, threadIdx, where
        >>> @kernel
        ... def head(src, dst, n):             # if (i < n) dst[i] = src[i];
        ...     with where(threadIdx.x < n):
        ...         dst[threadIdx.x] = src[threadIdx.x]
        >>> src, dst = np.arange(10.0), np.zeros(64)
        >>> head[1, 64, 0, "gfx942"](src, dst, 10)   # lanes 10..63 never touch src
        >>> float(dst.sum())
        45.0
    """
    ctx = current_context("where()")
    mask = np.broadcast_to(np.asarray(cond, dtype=bool), (ctx.lanes,))
    outer = ctx.active_mask()
    ctx.masks.append(mask if outer is None else mask & outer)
    try:
        yield
    finally:
        ctx.masks.pop()
