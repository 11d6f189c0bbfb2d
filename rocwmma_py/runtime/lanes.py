"""Per-lane values: one entry per lane of the running wave(s) along a lane axis.

Wave-uniform lane vectors convert to Python bool/int/float, so ordinary Python control flow
works inside kernels. A value that differs inside one wave raises `DivergenceError` (a wave
has a single program counter). In a batch of waves, a value uniform in each wave but
different between waves splits the batch (`BatchSplit`): the engine reruns each part.
`where(cond)` masks memory accesses per lane, the port of a C++ per-lane `if` around a load
or store.

Every per-lane container a kernel can hold (`threadIdx`, `lane_id()`, pointer gathers,
`frag.x`, `VectorRegs.regs`, builtin results, half2 pairs, and what numpy computes from them)
is a `Lanes`: not an ndarray, but an object holding one (`batch_data`, this package's one
accessor) whose every way out to plain Python or numpy is decided here. In a batch the lane
axis holds every wave (wave-major), and the contract is:

* proven lane-wise, so computed batched: ufuncs called element-wise, the functions in
  `_ELEMENTWISE`, rearrangements in `_FIRST_ARG`/`_SEQUENCE_ARG` whose probe of lane numbers
  shows every result position holding its own lane, reductions and scans in `_AXIS_FUNCTIONS`
  over axes other than the lane axis, indexing with ints and full slices on the lane axis or
  a per-lane gather by lane numbers (`x[lane_id() ^ 1]`), `astype`, `copy`, `ndim`, `dtype`;
* everything else (`np.asarray`, numpy scalar constructors, `len`, `shape`, `size`,
  iteration over lanes, `tolist`, `item`, `str`/`repr`/`format`, pickling, other numpy
  functions, other attributes) is only defined per wave: it raises `NeedsPerWave`, so those
  blocks rerun wave by wave, where `Lanes` acts as plain numpy.

What is one scalar per wave (`blockIdx.x`, a uniform load) is not a `Lanes` but the scalar
itself, or a `uniform.Uniform` while the waves of a batch disagree. Operations meeting
per-lane values ask it for its lanes (`__lane_values__`: each wave's scalar spread over its
lanes, typed as numpy types it against the other operands).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Literal

import numpy as np
from numpy.lib.mixins import NDArrayOperatorsMixin
from numpy.typing import ArrayLike

from ..errors import LaneTypeError, LaneValueError
from .errors import DivergenceError
from .state import (
    BatchSplit,
    NeedsFullWidth,
    NeedsPerWave,
    WaveContext,
    current_context,
    current_context_or_none,
    taint_running_batch,
    where_text,
)

_MAX_RUNS_SHOWN = 6
_PLAIN = (np.ndarray, np.generic, int, float)
_PYTHON_TYPES = {"b": bool, "i": int, "u": int, "f": float}


class Lanes(NDArrayOperatorsMixin):
    """One value per lane along `lane_axis` (negative: -1 = last, -2 = rows are lanes).

    Per wave it behaves as the numpy array it holds; in a batch every operation not proven
    lane-wise reruns the batch's blocks wave by wave (see the module docstring)."""

    __slots__ = ("_data", "lane_axis")

    def __init__(self, data: np.ndarray, lane_axis: int = -1) -> None:
        self._data = data
        self.lane_axis = lane_axis

    # --- what is the same in every wave ---------------------------------------------------
    @property
    def dtype(self) -> np.dtype:
        return self._data.dtype

    @property
    def ndim(self) -> int:
        return self._data.ndim

    @property
    def itemsize(self) -> int:
        return self._data.itemsize

    def _lane_count(self) -> int:
        shape = self._data.shape
        return shape[self.lane_axis] if len(shape) >= -self.lane_axis else 0

    # --- numpy protocols ------------------------------------------------------------------
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if method == "__call__" and not kwargs and ufunc.nout == 1 and ufunc.signature is None:
            # the hot path: element-wise on Lanes that share the lane axis
            axis = self.lane_axis
            plain = []
            for x in inputs:
                if isinstance(x, Lanes):
                    if x.lane_axis != axis:
                        break
                    plain.append(x._data)
                elif issubclass(type(x), _PLAIN):  # the real type: a Uniform answers
                    if type(x) is np.ndarray and x.ndim:  # isinstance as its scalars do
                        _plain_array_met()
                    plain.append(x)
                else:
                    break
            else:
                try:
                    result = ufunc(*plain)
                except Exception:
                    taint_running_batch()
                    raise
                return _wrap(result, axis, self._lane_count())
        _check_plain_arrays((*inputs, *kwargs.get("out", ())), True)
        with _batch_errors_taint() as batch:
            return _ufunc(ufunc, method, inputs, kwargs, batch)

    def __array_function__(self, func, types, args, kwargs):
        _check_plain_arrays((*args, *kwargs.values()), func in _ELEMENTWISE)
        with _batch_errors_taint() as batch:
            return _function(func, args, kwargs, batch)

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        data = self._per_wave_data()
        if dtype is not None and data.dtype != dtype:
            return data.astype(dtype)
        return data.copy() if copy else data

    def __getitem__(self, index):
        with _batch_errors_taint() as batch:
            plain, axis = _index_plan(self, index, batch)
            return _wrap(self._data[plain], axis, self._lane_count())

    def __setitem__(self, index, value) -> None:
        check_plain_data(value)
        with _batch_errors_taint() as batch:
            plain, axis = _index_plan(self, index, batch)
            self._data[plain] = _plain(_spread((value,), (self,), axis)[0])

    # --- lane-wise methods ----------------------------------------------------------------
    def copy(self, order: Literal["K", "A", "C", "F"] = "K") -> Lanes:
        return type(self)(self._data.copy(order), self.lane_axis)

    def __copy__(self) -> Lanes:
        return self.copy()

    def __deepcopy__(self, memo) -> Lanes:
        return self.copy()

    def astype(self, dtype, order: Literal["K", "A", "C", "F"] = "K",
               casting: Literal["no", "equiv", "safe", "same_kind", "unsafe"] = "unsafe",
               subok: bool = True, copy: bool = True) -> Lanes:
        with _batch_errors_taint():
            return Lanes(self._data.astype(dtype, order, casting, subok, copy), self.lane_axis)

    def view(self, *args, **kwargs) -> Any:
        """A reinterpretation of each lane's bytes; one that moves bytes between lanes, or a
        plain-array view, is defined only per wave."""
        dtype = kwargs.get("dtype", args[0] if args else None)
        if (kwargs.get("type") is not None or len(args) > 1
                or (isinstance(dtype, type) and issubclass(dtype, np.ndarray))):
            return self._per_wave_data().view(*args, **kwargs)
        out = self._data.view(*args, **kwargs)
        if out.ndim >= -self.lane_axis and out.shape[self.lane_axis] == self._lane_count():
            return Lanes(out, self.lane_axis)
        return Lanes(self._per_wave_data().view(*args, **kwargs), self.lane_axis)

    def fill(self, value) -> None:
        self._data.fill(_plain(_spread((value,), (self,))[0]))

    @property
    def T(self) -> Any:  # noqa: N802 - numpy's name
        return np.transpose(self)

    @property
    def real(self) -> Lanes:
        return np.real(self)

    @property
    def imag(self) -> Lanes:
        return np.imag(self)

    def __getattr__(self, name: str):
        """numpy methods: those with a numpy-function twin follow that function's batch rule;
        any other attribute is defined only per wave."""
        twin = _METHOD_TWINS.get(name)
        if twin is not None:
            return _method(self, twin)
        if name.startswith("__"):  # protocols numpy or Python probe for: not ndarray's
            return object.__getattribute__(self, name)
        attribute = getattr(self._per_wave_data(), name)
        if callable(attribute):
            return lambda *args, **kwargs: attribute(*_plain(args), **_plain(kwargs))
        return attribute

    # --- what exposes the batch: only per wave --------------------------------------------
    def _per_wave_data(self) -> np.ndarray:
        """The array, where it holds one wave; in a batch the blocks rerun wave by wave."""
        if _spans(self):
            raise NeedsPerWave
        return self._data

    @property
    def shape(self) -> tuple[int, ...]:
        return self._per_wave_data().shape

    @property
    def size(self) -> int:
        return self._per_wave_data().size

    @property
    def nbytes(self) -> int:
        return self._per_wave_data().nbytes

    @property
    def strides(self) -> tuple[int, ...]:
        return self._per_wave_data().strides

    @property
    def flat(self):
        return self._per_wave_data().flat

    def __len__(self) -> int:
        return len(self._per_wave_data())

    def __iter__(self) -> Iterator[Any]:
        if self.ndim + self.lane_axis == 0:  # over lanes: positions
            return iter(self._per_wave_data())
        return (self[i] for i in range(len(self._data)))

    def __contains__(self, value) -> bool:
        return value in self._per_wave_data()

    def tolist(self):
        return self._per_wave_data().tolist()

    def item(self, *args):
        return self._per_wave_data().item(*args)

    def tobytes(self, order: Literal["K", "A", "C", "F"] | None = "C") -> bytes:
        return self._per_wave_data().tobytes(order)

    def __repr__(self) -> str:
        return repr(self._per_wave_data())

    def __str__(self) -> str:
        return str(self._per_wave_data())

    def __format__(self, spec: str) -> str:
        return format(self._per_wave_data(), spec)

    def __reduce__(self):
        return (Lanes, (self._per_wave_data(), self.lane_axis))

    # --- uniform values act as Python scalars ---------------------------------------------
    def _uniform_value(self, action: str):
        """The value every lane holds (lanes that are no thread of a partial wave do not
        count: they do not run)."""
        ctx = current_context_or_none()
        spans = ctx is not None and _spans(self, ctx)
        whole = ctx is not None and self._lane_count() == ctx.lanes
        live = ctx.live if whole and ctx is not None and not ctx.narrow else None
        data = self._data if live is None else np.compress(live, self._data, self.lane_axis)
        values = data.reshape(-1)
        if values.size == 0:
            raise LaneValueError(f"{action} on an empty Lanes value")
        first = values[0]
        equal_nan = values.dtype.kind in "fc"
        if np.array_equal(values, np.full_like(values, first), equal_nan=equal_nan):
            return first
        if spans and ctx is not None:
            per_wave = np.moveaxis(self._data, self.lane_axis, -1).reshape(
                -1, ctx.n_waves, ctx.width)
            same = per_wave == per_wave[:1, :, :1]
            if live is not None:
                same |= ~live.reshape(ctx.n_waves, ctx.width)
            if same.all():
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

    def __complex__(self) -> complex:
        return complex(self._uniform_value("complex() conversion"))

    def __index__(self) -> int:
        if self.dtype.kind not in "iu":
            raise LaneTypeError(f"Lanes of {self.dtype} cannot be used as an index; integers only")
        return int(self._uniform_value("use as an index"))

    def __round__(self, ndigits=None):
        return np.round(self, ndigits or 0)


def _spread(values: tuple, context: tuple, axis: int | None = None) -> tuple:
    """Per-wave scalars (`__lane_values__`) among `values` spread over the lanes, typed
    against the operands `context` of the per-lane operation, on lane axis `axis` (default:
    the first Lanes' among `context`)."""
    if all(getattr(type(x), "__lane_values__", None) is None for x in values):
        return values
    if axis is None:
        axis = next((x.lane_axis for x in context if isinstance(x, Lanes)), -1)
    out = []
    for x in values:
        spread = getattr(type(x), "__lane_values__", None)
        if spread is not None:
            lanes = spread(x, context)
            x = Lanes(lanes.reshape(lanes.shape + (1,) * (-1 - axis)), axis)
        out.append(x)
    return tuple(out)


# --- the batch guard ------------------------------------------------------------------------

def _plain_array_met() -> None:
    """A plain array meets per-lane values: in a narrow batch (`WaveContext.narrow`) its
    length may pass for the batch's lanes where per-wave code reads it as one wave's (or
    fails), so the batch reruns with whole waves."""
    ctx = current_context_or_none()
    if ctx is not None and ctx.narrow:
        raise NeedsFullWidth


def _check_plain_arrays(values, sequences: bool) -> None:
    """`_plain_array_met` for any plain array among `values` or in their lists and tuples;
    `sequences`: a list or tuple without per-lane values is array data too (an operand)."""
    for v in values:
        if type(v) is np.ndarray and v.ndim:
            _plain_array_met()
        elif isinstance(v, (list, tuple)):
            if sequences and not any(isinstance(x, Lanes) for x in v):
                _plain_array_met()
            _check_plain_arrays(v, sequences)


def check_plain_data(*values: object) -> None:
    """Plain arrays, lists or tuples given where per-lane data goes (memory addresses and
    values): a narrow batch reruns with whole waves (`_plain_array_met`)."""
    _check_plain_arrays(values, True)


def _spans(x: object, ctx: WaveContext | None = None) -> bool:
    """Whether `x` is a per-lane value of a running batch of several waves."""
    if ctx is None:
        ctx = current_context_or_none()
    return (ctx is not None and ctx.batched and ctx.n_waves > 1 and isinstance(x, Lanes)
            and x._lane_count() == ctx.lanes)


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


def batch_data(value: object) -> Any:
    """This package's door to per-lane data: the array a `Lanes` holds (every wave of a
    batch), a register vector's (lanes, n) registers (`__batch_data__`); anything else as
    it is."""
    if isinstance(value, Lanes):
        return value._data
    registers = getattr(type(value), "__batch_data__", None)
    return value if registers is None else registers(value)


def is_per_lane(value: object) -> bool:
    """Whether `value` holds one value per lane (a Lanes)."""
    return isinstance(value, Lanes)


def _lane_layout(value: object) -> tuple[int, int] | None:
    """(lane axis counted from the front, lane count) of a per-lane argument: a Lanes that
    or a register vector (rows are lanes); None for anything else."""
    if isinstance(value, Lanes):
        return value.ndim + value.lane_axis, value._lane_count()
    if getattr(type(value), "__batch_data__", None) is not None:
        return 0, batch_data(value).shape[0]
    return None


def lane_wise_call(fn: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    """`__lane_wise__` of per-lane values (`lane_wise.py`): `fn` gets the batch arrays of
    the per-lane arguments, and its result comes back as Lanes, the lane axis where the
    first per-lane argument had it (pairs add or drop a trailing axis), so one call serves
    every wave. Per-wave scalars go in spread over the lanes."""
    layouts = [_lane_layout(x) for x in (*args, *kwargs.values())]
    layout = next((x for x in layouts if x is not None), None)
    if layout is None:
        return fn(*args, **kwargs)
    _check_plain_arrays((*args, *kwargs.values()), True)
    plain = [x if at is None else batch_data(x)
             for x, at in zip((*args, *kwargs.values()), layouts, strict=True)]
    result = fn(*plain[:len(args)], **dict(zip(kwargs, plain[len(args):], strict=True)))
    front, lanes = layout
    if isinstance(result, np.ndarray) and result.ndim > front and result.shape[front] == lanes:
        return Lanes(result, front - result.ndim)
    return result


Lanes.__lane_wise__ = staticmethod(lane_wise_call)  # type: ignore[attr-defined]


def _direct(name: str, ufunc: np.ufunc, reflected: bool) -> Callable[[Lanes, object], Any]:
    """`Lanes.__name__` with the common operands (a Python int or float, Lanes on the same
    lane axis) taken straight to `ufunc` — the hot path of `__array_ufunc__`, without
    numpy's dispatch (a third of the cost of an index computation) —, a per-wave scalar
    to its `WAVE_SCALARS` entry; anything else goes the mixin's way."""
    general = getattr(NDArrayOperatorsMixin, name)

    def op(self: Lanes, other: object) -> Any:
        kind = type(other)
        if kind in LANE_TYPES and other.lane_axis == self.lane_axis:  # type: ignore[attr-defined]
            other = other._data  # type: ignore[attr-defined]
        elif kind is not int and kind is not float:
            by_wave = WAVE_SCALARS.get(kind)  # a per-wave scalar (uniform.py)
            result = None if by_wave is None else (
                by_wave(ufunc, other, self, self) if reflected
                else by_wave(ufunc, self, other, self))
            return general(self, other) if result is None else result
        try:
            result = ufunc(other, self._data) if reflected else ufunc(self._data, other)
        except Exception:
            taint_running_batch()
            raise
        return _wrap(result, self.lane_axis, self._lane_count())

    op.__name__ = name
    return op


# Lanes and its subclasses that hold their values the same way (lane_grid.GridLanes)
LANE_TYPES: set[type] = {Lanes}

# type -> fn(ufunc, a, b, lanes): ufunc(a, b) of that per-wave scalar type and `lanes` (one
# of a, b), or None where it cannot; registered by uniform.py, which imports this module
WAVE_SCALARS: dict[type, Callable[[np.ufunc, Any, Any, Lanes], Lanes | None]] = {}

_DIRECT: dict[str, np.ufunc] = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "floordiv": np.floor_divide,
    "mod": np.remainder, "truediv": np.true_divide,  # and their reflected forms
    "lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal,
}
for _op_name, _op_ufunc in _DIRECT.items():
    setattr(Lanes, f"__{_op_name}__", _direct(f"__{_op_name}__", _op_ufunc, False))
    if _op_name not in ("lt", "le", "gt", "ge"):
        setattr(Lanes, f"__r{_op_name}__", _direct(f"__r{_op_name}__", _op_ufunc, True))


def _plain(value: Any) -> Any:
    """`batch_data` of Lanes, also inside tuples/lists/dicts (numpy function arguments)."""
    if isinstance(value, Lanes):
        return value._data
    if isinstance(value, (list, tuple)) and any(isinstance(v, (Lanes, list, tuple))
                                                for v in value):
        return type(value)(_plain(v) for v in value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _wrap(result, axis: int | None, lanes: int):
    """`result` as Lanes with lane axis `axis` when it has one of length `lanes`."""
    if isinstance(result, tuple):
        return tuple(_wrap(r, axis, lanes) for r in result)
    if (axis is None or not isinstance(result, np.ndarray) or result.ndim < -axis
            or result.shape[axis] != lanes):
        return result
    return Lanes(result, axis)


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
    inputs = _spread(inputs, inputs)
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
    axes = {operator.index(a) % ndim for a in given} if ndim else set()
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
                np.real_if_close}
# Functions whose data arguments are rearranged, never combined: kept batched when every
# result position comes from the same lane (checked on a probe of lane numbers).
_FIRST_ARG = {np.transpose, np.swapaxes, np.moveaxis, np.rollaxis, np.reshape, np.ravel,
              np.squeeze, np.expand_dims, np.broadcast_to, np.flip, np.fliplr, np.flipud,
              np.roll, np.rot90, np.tile, np.repeat, np.take, np.pad, np.delete, np.insert,
              np.resize, np.append, np.diagonal, np.triu, np.tril, np.compress, np.extract,
              np.trim_zeros}
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
    np.diff: (-1, True),
}
# What a value is, not what it holds: the same in every wave.
_METADATA = {np.result_type, np.can_cast, np.min_scalar_type, np.iscomplexobj, np.isrealobj,
             np.ndim}
# ndarray methods that are these numpy functions with the array first
_METHOD_TWINS = {name: getattr(np, name) for name in (
    "sum", "prod", "max", "min", "mean", "std", "var", "any", "all", "argmax", "argmin",
    "cumsum", "cumprod", "argsort", "reshape", "transpose", "swapaxes", "ravel", "squeeze",
    "take", "repeat", "nonzero", "diagonal", "trace", "searchsorted", "clip", "round",
    "conj", "conjugate", "dot", "ptp")}


def _flatten(x, order: Literal["K", "A", "C", "F"] = "C"):
    return np.ravel(x, order).copy()


_METHOD_TWINS.update(compress=lambda x, condition, *args, **kwargs: np.compress(
    condition, x, *args, **kwargs), flatten=_flatten)


def _method(x: Lanes, func):
    """`x.name(...)` as `func(x, ...)`; reshape/transpose also take their shape spread out."""
    def call(*args, **kwargs):
        if func in (np.reshape, np.transpose) and len(args) > 1:
            args = (args,)
        elif func is np.transpose and not args:
            args = (None,)
        return func(x, *args, **kwargs)

    return call


def _function(func, args, kwargs, batch):
    first = args[0] if args else next(iter(kwargs.values()), None)
    if func in _METADATA:
        return func(*_plain(args), **_plain(kwargs))
    if func in _ELEMENTWISE and not (func is np.where and len(args) == 1):
        lead = 1 if func is np.where else 0
        operands = _spread(tuple(args[lead:]), (*args, *kwargs.values()))
        args = (*args[:lead], *operands)
        axis, lanes = _lane_axes((*args, *kwargs.values()), batch)
        return _wrap(func(*_plain(args), **_plain(kwargs)), axis, lanes)
    args = _spread(tuple(args), (*args, *kwargs.values()))
    first = args[0] if args else first
    if func in _FIRST_ARG or func in _SEQUENCE_ARG or func in _ALL_ARGS:
        return _rearranged(func, args, kwargs, batch)
    if func in _AXIS_FUNCTIONS and isinstance(first, Lanes):
        default, keeps = _AXIS_FUNCTIONS[func]
        axis_arg = kwargs.get("axis", args[1] if len(args) > 1 else default)
        if func is np.diff and "axis" not in kwargs:
            axis_arg = args[3] if len(args) > 3 else -1
        axis = _reduced_axis(first, axis_arg, keeps or kwargs.get("keepdims", False), batch)
        return _wrap(func(*_plain(args), **_plain(kwargs)), axis, first._lane_count())
    if batch and _spans_any((*args, *kwargs.values())):
        raise NeedsPerWave  # dot, einsum, unique, nonzero, ...: not proven lane-wise
    return func(*_plain(args), **_plain(kwargs))


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
        return np.broadcast_to(np.arange(lanes).reshape(shape), value._data.shape)
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


def _rearranged(func, args, kwargs, batch):
    axis, lanes = _lane_axes((*args, *kwargs.values()), batch)
    plain_kwargs = _plain(kwargs)
    result = func(*_plain(args), **plain_kwargs)
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


def _index_plan(x: Lanes, index, batch: bool) -> tuple[Any, int | None]:
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


def _advanced_plan(x: Lanes, index, expanded, lane: int, lanes: int,
                   spans: bool) -> tuple[Any, int | None]:
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
                plain[g] = _wave_gather(idx._data, ctx)
            return tuple(plain), -1 - trailing
    if spans and any(isinstance(p, Lanes) and p._lane_count() == lanes for p in expanded):
        raise NeedsPerWave  # per-lane indices on another axis: a lanes x lanes result
    plain = _plain(index)
    probe_shape = [1] * x.ndim
    probe_shape[x.lane_axis] = lanes
    probe = np.broadcast_to(np.arange(lanes).reshape(probe_shape), x._data.shape)
    probed = _probe_axis(probe[plain], lanes)
    if probed is None and spans:
        raise NeedsPerWave
    return plain, probed


def _wave_gather(idx: np.ndarray, ctx: WaveContext) -> np.ndarray:
    """Per-lane lane numbers (each wave's own, -W..W-1) as positions in the batch; a narrow
    batch holds lanes 0..width-1 only, so another lane number needs whole waves."""
    width, lo = ctx.width, -ctx.wave_size
    if ctx.narrow:
        lo = 0
    if idx.size and (idx.min() < lo or idx.max() >= width):
        raise NeedsFullWidth if ctx.narrow else NeedsPerWave  # (per wave: an IndexError)
    return idx % width + ctx.lane_bases()


# --- helpers kernels call ---------------------------------------------------------------------

def describe_lanes(values: np.ndarray) -> str:
    """Compact per-lane listing by runs of equal values: "lanes 0-15 = 0, lanes 16-31 = 1"."""
    values = np.asarray(batch_data(values)).reshape(-1)
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
    per-lane data (W, ...) is the same in every wave of a batch (a narrow batch reads such
    plain arrays with whole waves)."""
    if ctx.narrow and not isinstance(value, Lanes) and np.ndim(batch_data(value)):
        raise NeedsFullWidth
    value = np.asarray(batch_data(value))
    if ctx.n_waves > 1 and value.ndim and value.shape[0] == ctx.wave_size:
        return np.tile(value, (ctx.n_waves,) + (1,) * (value.ndim - 1))
    return value


def as_lanes(value: np.ndarray, lane_axis: int = -1) -> Lanes:
    """Per-lane data (a fragment's registers, register vectors, builtin results) as the
    kernel's Lanes with its lane axis (-1: last, -2: rows are lanes)."""
    return Lanes(np.asarray(batch_data(value)), lane_axis)


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
    result = np.where(_as_bool(cond), a, b)
    ctx = current_context_or_none()
    if np.ndim(result) == 0 and ctx is not None:
        return Lanes(np.full(ctx.lanes, result))
    return result if isinstance(result, Lanes) else Lanes(np.asarray(result))


def _as_bool(cond: object) -> Any:
    if isinstance(cond, Lanes):
        return cond.astype(bool)
    spread = getattr(type(cond), "__lane_values__", None)
    if spread is not None:  # one bool per wave
        return Lanes(spread(cond, ()).astype(bool))
    return np.asarray(cond, dtype=bool)


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
    if ctx.narrow:
        _check_plain_arrays((cond,), True)
    mask = np.broadcast_to(np.asarray(batch_data(_as_bool(cond)), dtype=bool), (ctx.lanes,))
    outer = ctx.active_mask()
    ctx.masks.append(mask if outer is None else mask & outer)
    try:
        yield
    finally:
        ctx.masks.pop()
