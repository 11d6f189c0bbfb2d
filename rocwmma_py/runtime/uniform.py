"""Per-wave scalars of a batch: what is one Python or numpy scalar in each wave.

Per wave, `blockIdx.x` is a Python int and `lds[0]` (every lane reading one address) a numpy
scalar. A batch runs many waves at once, and such a value may differ between them. Where
every wave of the batch has the same one, the batch holds that scalar itself; only while the
waves disagree is it a `Uniform`: the list of each wave's scalar. Nothing about Python's or
numpy's scalar rules is imitated:

* with Python and numpy scalars (operators, numpy functions, `divmod`, `round`), the
  operation runs on each wave's own scalar, so every result, type and exception is the
  per-wave one (an int beyond int64, `0.0 ** -1`, numpy's scalar `**`); only where every
  operand is a Python int within int64 and the operator's results provably are the same
  ints, bools or floats (`_whole`) does it run once on an int64 array of them;
* meeting per-lane values (`blockIdx.x * 64 + threadIdx.x`), each wave's scalar is spread
  over its lanes in the type numpy gives that scalar against those values (a Python scalar
  takes the lanes' type under NEP 50, an int out of its range raising OverflowError), and
  the per-lane operation runs batched;
* every other way out — `str`/`repr`/`format`/`hash`, `bool`/`int`/`index`, indexing,
  attributes, iteration, `np.asarray`, a result that is not a scalar — splits the batch
  (`BatchSplit`) into groups of agreeing waves, in each of which the value is one scalar.
`isinstance` answers as for the scalar (all waves have values of one type; else it splits).
"""

from __future__ import annotations

import operator
import struct
from collections.abc import Callable
from contextlib import suppress
from functools import cache
from itertools import starmap
from typing import Any, NamedTuple, cast

import numpy as np

from .lane_grid import I64_MAX as _I64_MAX
from .lane_grid import I64_MIN as _I64_MIN
from .lane_grid import GridLanes, Step, even_step
from .lane_grid import by_wave as grid_by_wave
from .lanes import LANE_TYPES, WAVE_SCALARS, Lanes, batch_data, is_per_lane
from .state import BatchSplit, current_context, taint_running_batch

_BINARY = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "lshift", "rshift",
           "and", "or", "xor", "matmul")
_COMPARISONS = ("lt", "le", "gt", "ge", "eq", "ne")
_UNARY = ("neg", "pos", "abs", "invert")
_SCALARS = (bool, int, float, complex, np.generic)
_MIXED = object()  # a Uniform whose waves' scalars have different types
_EXACT = 1 << 53  # every int up to this magnitude is an exact double
_FLOATS = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64))


def _key(value: object) -> object:
    """Identity of a per-wave scalar, bit-exact (-0.0 is not 0.0, NaN is itself)."""
    if isinstance(value, np.generic):
        return type(value), value.tobytes()
    if type(value) is float:
        return float, struct.pack("<d", value)
    if type(value) is complex:
        return complex, struct.pack("<dd", value.real, value.imag)
    return type(value), value


def uniform(values: list) -> Any:
    """Each running wave's scalar as one value: the scalar itself where all waves have the
    same one, else a Uniform."""
    first = values[0]
    if values.count(first) == len(values):  # equal (1 == 1.0 == True, 0.0 == -0.0) ...
        if type(first) is int and all(type(v) is int for v in values):
            return first  # ... ints of equal value are the same int
        key = _key(first)
        if all(_key(v) == key for v in values):  # ... bit for bit the same
            return first
    return Uniform(values)


class Uniform:
    """A per-wave scalar whose waves disagree (see the module docstring).

    Where every wave's scalar is a Python int within int64, an int64 array of them is kept
    (`_int64`), and operators whose results provably are the per-wave ints run on it
    whole-array (`_whole`); the list of scalars is made only when something asks for it."""

    __slots__ = ("_list", "_array", "_type", "_range", "_memo", "_step")

    def __init__(self, values: list) -> None:
        self._list: list | None = values
        self._array: np.ndarray | bool | None = None  # None: not looked at; False: no int64
        self._type: type | object | None = None  # the waves' one scalar type, or _MIXED
        self._range: tuple[int, int] | None = None  # (min, max) of the int64 values
        self._memo: dict | None = None  # `_with_int`'s recent results
        self._step: Step = False  # the int64 values' even step (`wave_step`)

    @classmethod
    def _of_ints(cls, array: np.ndarray, bounds: tuple[int, int]) -> Uniform:
        """The Uniform of Python ints `array` (int64) holds, their (min, max) `bounds`."""
        made = cls.__new__(cls)
        made._list, made._array, made._type, made._range = None, array, int, bounds
        made._memo, made._step = None, False
        return made

    @property
    def _values(self) -> list:
        """Each wave's scalar."""
        values = self._list
        if values is None:
            values = self._list = self._array.tolist()  # type: ignore[union-attr] # Python ints
        return values

    def _scalar_type(self) -> type | object:
        """The type of every wave's scalar, or _MIXED."""
        if self._type is None:
            kinds = set(map(type, self._values))
            self._type = kinds.pop() if len(kinds) == 1 else _MIXED
        return self._type

    def _int64(self) -> np.ndarray | None:
        """The values as int64 when each is a Python int (not bool) that int64 holds."""
        if self._array is None:
            self._array = False
            if self._scalar_type() is int:
                with suppress(OverflowError):  # an int beyond int64: the per-wave path
                    self._array = np.array(self._values, np.int64)
        return None if self._array is False else self._array  # type: ignore[return-value]

    def wave_step(self) -> Step:
        """s where the int64 values are values[0] + s * wave, else None (`_int64` is not
        None): kept, and carried over by `_with_int`."""
        if self._step is False:
            self._step = even_step(self._int64())  # type: ignore[arg-type]
        return self._step

    def _bounds(self) -> tuple[int, int]:
        """(min, max) of the int64 values (`_int64` is not None)."""
        if self._range is None:
            array = self._int64()
            self._range = int(array.min()), int(array.max())  # type: ignore[union-attr]
        return self._range

    # --- every way out needs the one scalar: split the batch until there is one ------------
    def _split(self, *_: object) -> Any:
        keys: dict = {}
        codes = [keys.setdefault(_key(v), len(keys)) for v in self._values]
        raise BatchSplit(np.array(codes))

    # what every scalar has (a Uniform has no __len__, __iter__, __getitem__: as an int has
    # none, len() or indexing raises, and the error reruns the blocks per wave)
    __bool__ = __int__ = __float__ = __complex__ = __index__ = __hash__ = _split
    __str__ = __repr__ = __format__ = __trunc__ = __floor__ = __ceil__ = __reduce__ = _split
    __copy__ = __deepcopy__ = _split

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        return self._split()

    def __getattr__(self, name: str) -> Any:
        """Attributes are the scalar's (`bit_length`, numpy's `__getitem__`): split."""
        if name.startswith("__") and not all(hasattr(v, name) for v in self._values):
            return object.__getattribute__(self, name)  # AttributeError, as for the scalar
        return self._split()

    @property  # type: ignore[misc] # isinstance(blockIdx.x, int) as per wave
    def __class__(self) -> type:
        kind = self._scalar_type()
        return kind if kind is not _MIXED else self._split()  # type: ignore[return-value]

    # --- computing ------------------------------------------------------------------------
    def __round__(self, ndigits: int | None = None) -> Any:
        return _per_wave(round, (self, ndigits), {})

    def __divmod__(self, other: object) -> Any:
        return _binary(divmod, self, other)

    def __rdivmod__(self, other: object) -> Any:
        return _binary(divmod, other, self)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return _call(getattr(ufunc, method) if method != "__call__" else ufunc, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        return _call(func, args, kwargs)

    def __lane_values__(self, others: tuple) -> np.ndarray:
        """Each wave's scalar spread over its lanes, typed as numpy types it against the
        other operands `others` of a per-lane operation (the hook Lanes calls)."""
        return np.repeat(self._wave_values(others), current_context("a per-wave scalar")
                         .width)

    def _wave_values(self, others: tuple) -> np.ndarray:
        """Each wave's scalar, typed as in `__lane_values__`."""
        kind = self._scalar_type()
        if kind is _MIXED:
            self._split()  # waves would promote differently
        ints = self._int64()
        with _marking_errors():
            if ints is None and issubclass(kind, np.generic):  # type: ignore[arg-type]
                per_wave = np.array(self._values)
            else:
                strong = [batch_data(x) for x in others
                          if x is not self and x is not None
                          and not isinstance(x, (Uniform, str, type, np.dtype))]
                first = self._values[0] if ints is None else int(ints[0])
                dtype = np.result_type(*strong, first)
                if ints is not None and _holds(dtype, *self._bounds()):
                    per_wave = ints.astype(dtype, copy=False)  # each int exactly
                else:
                    per_wave = np.array(self._values, dtype)
        return per_wave


def _holds(dtype: np.dtype, low: int, high: int) -> bool:
    """Whether `dtype` holds every int from low to high exactly (so converting an int64 of
    them is what converting the Python int is)."""
    least, most = _exact_ints(dtype)
    return least <= low and high <= most


@cache
def _exact_ints(dtype: np.dtype) -> tuple[int, int]:
    """The range of ints `dtype` holds, each exactly (empty for other dtypes)."""
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return int(info.min), int(info.max)
    if dtype in _FLOATS:
        exact = 2 ** (np.finfo(dtype).nmant + 1)
        return -exact, exact
    return 1, 0


class _marking_errors:  # noqa: N801 - used as a context manager, like a function
    """An error of some wave marks the running batch, so kernel code that catches it still
    reruns wave by wave (where only the waves that raise it do)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type | None, err: BaseException | None, tb: object) -> None:
        if isinstance(err, Exception):
            taint_running_batch()


def _values_at(x: object, wave: int) -> Any:
    if isinstance(x, Uniform):
        return x._values[wave]
    if isinstance(x, (list, tuple)):
        return type(x)(_values_at(v, wave) for v in x)
    return x


def _uniforms(values: tuple) -> list[Uniform]:
    found: list[Uniform] = []
    for x in values:
        if isinstance(x, Uniform):
            found.append(x)
        elif isinstance(x, (list, tuple)):
            found.extend(_uniforms(tuple(x)))
    return found


def _per_wave(fn: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    """`fn` on each wave's own scalars; scalar results make the next per-wave scalar, any
    other result splits the batch (per wave it would be one thing, here it is many)."""
    count = len(_uniforms((*args, *kwargs.values()))[0]._values)
    with _marking_errors():
        if kwargs or any(isinstance(x, (list, tuple)) for x in args):
            results = [fn(*_values_at(args, w), **{k: _values_at(v, w) for k, v in
                                                    kwargs.items()}) for w in range(count)]
        else:  # the common case, an operator: one list of each argument's per-wave values
            columns = [x._values if isinstance(x, Uniform) else [x] * count for x in args]
            results = list(starmap(fn, zip(*columns, strict=True)))
    if _all_scalars(results):
        return uniform(results)
    if all(isinstance(r, tuple) and _all_scalars(r) for r in results):
        return tuple(uniform(list(parts)) for parts in zip(*results, strict=True))
    first = _uniforms((*args, *kwargs.values()))[0]
    return first._split()


def _all_scalars(values: list | tuple) -> bool:
    """Whether every value is a scalar (by their few types where each is a scalar type; an
    object answering `isinstance` for another class is asked one by one)."""
    kinds = set(map(type, values))
    if all(issubclass(kind, _SCALARS) for kind in kinds):
        return True
    return all(isinstance(v, _SCALARS) for v in values)


class _Ints(NamedTuple):
    """An operand of a whole-array operator: int64 values (an array, or one Python int)
    and their bounds."""

    values: np.ndarray | int
    low: int
    high: int

    def nonzero(self) -> bool:
        return self.low > 0 or self.high < 0 or bool(np.all(self.values != 0))

    def within(self, limit: int) -> bool:
        return -limit <= self.low and self.high <= limit


def _ints(x: object) -> _Ints | None:
    """`x` as an operand of a whole-array operator: a Python int or a Uniform of them, all
    within int64 (a bool, a float or a numpy scalar is not: None)."""
    if type(x) is int:
        return _Ints(x, x, x) if _I64_MIN <= x <= _I64_MAX else None
    if isinstance(x, Uniform) and (array := x._int64()) is not None:
        return _Ints(array, *x._bounds())
    return None


def _corners(fn: Callable[[int, int], int]) -> Callable[[_Ints, _Ints], tuple[int, int]]:
    """The range of `fn` (monotone in each operand when the other is fixed, as +, -, *,
    << and >> are) over its operands' ranges: its extremes at their corners. Where one
    operand is one int they are attained, so they are the results' min and max."""
    def span(x: _Ints, y: _Ints) -> tuple[int, int]:
        values = (fn(x.low, y.low), fn(x.low, y.high), fn(x.high, y.low), fn(x.high, y.high))
        return min(values), max(values)
    return span


def _shifts(x: _Ints, y: _Ints) -> bool:
    return 0 <= y.low and y.high < 64  # numpy's shifts by 64 and more are not Python's


def _divides(x: _Ints, y: _Ints) -> bool:
    return x.low > _I64_MIN and y.nonzero()  # int64 min // -1 is 2**63


def _divides_exactly(x: _Ints, y: _Ints) -> bool:
    return x.within(_EXACT) and y.within(_EXACT) and y.nonzero()


# Python's int operator -> (numpy's, what the operands must satisfy besides the result
# fitting int64, the results' range (else they are looked at)). numpy's int64 floor_divide
# and remainder round as Python's // and % (toward -inf, the remainder taking the
# divisor's sign); ints of at most 2**53 in magnitude are exact doubles, so Python's
# int / int (the correctly rounded quotient) is numpy's IEEE division of them. Operands
# that fail (a zero divisor, a negative shift, a result past int64) go to the per-wave loop.
_Entry = tuple[np.ufunc, Callable[..., bool] | None, Callable[..., tuple[int, int]] | None]
_WHOLE: dict[Callable[[Any, Any], Any], _Entry] = {
    operator.add: (np.add, None, _corners(operator.add)),
    operator.sub: (np.subtract, None, _corners(operator.sub)),
    operator.mul: (np.multiply, None, _corners(operator.mul)),
    operator.lshift: (np.left_shift, _shifts, _corners(operator.lshift)),
    operator.rshift: (np.right_shift, _shifts, _corners(operator.rshift)),
    operator.floordiv: (np.floor_divide, _divides, None),
    operator.mod: (np.remainder, _divides, None),
    operator.truediv: (np.true_divide, _divides_exactly, None),
    operator.and_: (np.bitwise_and, None, None),
    operator.or_: (np.bitwise_or, None, None),
    operator.xor: (np.bitwise_xor, None, None),
    operator.lt: (np.less, None, None),
    operator.le: (np.less_equal, None, None),
    operator.gt: (np.greater, None, None),
    operator.ge: (np.greater_equal, None, None),
    operator.eq: (np.equal, None, None),
    operator.ne: (np.not_equal, None, None),
}
_WHOLE_UNARY: dict[Callable[[Any], Any], _Entry] = {
    operator.neg: (np.negative, lambda x: x.low > _I64_MIN, None),
    operator.abs: (np.absolute, lambda x: x.low > _I64_MIN, None),
    operator.pos: (np.positive, None, None),
    operator.invert: (np.invert, None, None),
}


def _whole(fn: Callable[..., Any], operands: tuple) -> Any:
    """`fn` (an operator in _WHOLE or _WHOLE_UNARY) as one numpy operation on the int64
    values of `operands` where that is each wave's Python result; else None."""
    entry = (_WHOLE if len(operands) == 2 else _WHOLE_UNARY).get(fn)
    if entry is None:
        return None
    ufunc, allowed, span = entry
    ints = []
    for x in operands:
        if (operand := _ints(x)) is None:
            return None
        ints.append(operand)
    if allowed is not None and not allowed(*ints):
        return None
    bounds = span(*ints) if span is not None else None
    if bounds is not None and (bounds[0] < _I64_MIN or bounds[1] > _I64_MAX):
        return None
    result = ufunc(*[x.values for x in ints])
    if result.dtype != np.int64:  # comparisons (bools), true division (floats)
        return uniform(result.tolist())
    if bounds is None or not any(type(x) is int for x in operands):  # not attained
        bounds = int(result.min()), int(result.max())
    return int(result[0]) if bounds[0] == bounds[1] else Uniform._of_ints(result, bounds)


def _with_int(fn: Callable[..., Any], a: object, b: object) -> Any:
    """`_whole` for the index arithmetic of kernels, a Uniform of ints and a Python int
    with + - * (`row * ncols + col`), in fewer steps: the int's corners bound the results
    and are attained. None where `_whole` decides."""
    ufunc = _AFFINE.get(fn)
    u, k = (cast(Uniform, a), b) if type(b) is int else (cast(Uniform, b), cast(int, a))
    if ufunc is None:
        return None
    key = (ufunc, k, u is a)
    memo = u._memo
    if memo is not None and (known := memo.get(key)) is not None:
        return known
    if not _I64_MIN <= k <= _I64_MAX or (array := u._int64()) is None:
        return None
    low, high = u._bounds()
    ends = (fn(low, k), fn(high, k)) if u is a else (fn(k, low), fn(k, high))
    bounds = min(ends), max(ends)
    if bounds[0] < _I64_MIN or bounds[1] > _I64_MAX:
        return None
    result = ufunc(array, k) if u is a else ufunc(k, array)
    out = int(result[0]) if bounds[0] == bounds[1] else Uniform._of_ints(result, bounds)
    if type(out) is Uniform and (step := u.wave_step()) is not None:
        out._step = step * k if ufunc is np.multiply else -step if (
            ufunc is np.subtract and u is b) else step  # (exact: the values are in int64)
    if memo is None or len(memo) >= _MEMO_SIZE:
        u._memo = memo = {}
    memo[key] = out
    return out


# results `_with_int` keeps per Uniform: a kernel loop recomputes `row * ncols + col` for
# every `col` in each of its loops, and twice in one line (`dst[i] = x[i]`); a Uniform's
# values never change, so a result is reused (the oldest all dropped when this many)
_MEMO_SIZE = 128


_AFFINE = {operator.add: np.add, operator.sub: np.subtract, operator.mul: np.multiply}


def _with_lanes(values: tuple) -> tuple:
    """The Uniforms among `values` (nested too) spread over the lanes."""
    return tuple(Lanes(x.__lane_values__(values)) if isinstance(x, Uniform)
                 else type(x)(_with_lanes(tuple(x))) if isinstance(x, (list, tuple))
                 else x for x in values)


def _has_lanes(values: tuple) -> bool:
    return any(is_per_lane(x) or (isinstance(x, (list, tuple)) and _has_lanes(tuple(x)))
               for x in values)


def _call(fn: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    """A numpy call with Uniform operands: per lane where per-lane values take part, else
    on each wave's scalars."""
    if _has_lanes((*args, *kwargs.values())):
        spread = _with_lanes((*args, *kwargs.values()))
        return fn(*spread[:len(args)], **dict(zip(kwargs, spread[len(args):], strict=True)))
    return _per_wave(fn, args, kwargs)


def _binary(fn: Callable[[Any, Any], Any], a: object, b: object) -> Any:
    """An operator: whole-array on ints where exact (`_whole`), per lane with per-lane
    values, per wave with scalars (and plain numpy arrays, whose results split),
    NotImplemented for other objects (a Pointer's reflected operator runs, as for an int)."""
    other = b if isinstance(a, Uniform) else a
    if type(other) in LANE_TYPES:
        if (ufunc := _BY_WAVE.get(fn)) is not None:
            result = _by_wave(ufunc, a, b, cast(Lanes, other))
            if result is not None:
                return result
    else:
        whole = _with_int(fn, a, b) if type(other) is int else None
        if whole is None:
            whole = _whole(fn, (a, b))
        if whole is not None:
            return whole
    if is_per_lane(other):
        x, y = _with_lanes((a, b))
        return fn(x, y)
    if isinstance(other, _OPERANDS):
        return _per_wave(fn, (a, b), {})
    return NotImplemented


# operators of a per-wave scalar and one-axis Lanes: the ufunc Lanes' own operator calls
_BY_WAVE: dict[Callable[[Any, Any], Any], np.ufunc] = {
    operator.add: np.add, operator.sub: np.subtract, operator.mul: np.multiply,
    operator.floordiv: np.floor_divide, operator.mod: np.remainder,
    operator.truediv: np.true_divide, operator.lt: np.less, operator.le: np.less_equal,
    operator.gt: np.greater, operator.ge: np.greater_equal,
}


def _by_wave(ufunc: np.ufunc, a: object, b: object, lanes: Lanes) -> Lanes | None:
    """`ufunc(a, b)` of a Uniform and (lanes,) Lanes with each wave's scalar broadcast over
    its lanes' row: the values and type of spreading it first (`__lane_values__`, then the
    Lanes operator's ufunc), in one pass (+ and - of ints and a grid's lanes: per wave,
    `lane_grid.by_wave`); None for Lanes of another shape."""
    ctx = current_context("a per-wave scalar")
    scalar = cast(Uniform, a if isinstance(a, Uniform) else b)
    ints = scalar._int64()  # index arithmetic: int64 lanes and ints type as int64 anyway
    if (type(lanes) is GridLanes and (grid := lanes._grid) is not None and ints is not None
            and grid.shifts.size == ctx.n_waves and grid.pattern.size == ctx.width
            and (kept := grid_by_wave(ufunc, scalar is a, ints, scalar.wave_step(), grid))
            is not None):
        return kept
    data = lanes._data
    if lanes.lane_axis != -1 or data.shape != (ctx.lanes,):
        return None
    per_wave = (ints if ints is not None and data.dtype == np.int64
                else scalar._wave_values((a, b)))[:, None]
    rows = data.reshape(ctx.n_waves, ctx.width)
    try:
        result = ufunc(per_wave, rows) if scalar is a else ufunc(rows, per_wave)
    except Exception:
        taint_running_batch()
        raise
    return Lanes(result.reshape(-1))


WAVE_SCALARS[Uniform] = _by_wave  # Lanes' operators with a Uniform operand


def _operator(name: str, reflected: bool = False) -> Callable[[Uniform, object], Any]:
    fn = getattr(operator, f"{name}_" if name in ("and", "or") else name)

    def op(self: Uniform, other: object) -> Any:
        return _binary(fn, other, self) if reflected else _binary(fn, self, other)

    op.__name__ = f"__{'r' if reflected else ''}{name}__"
    return op


def _unary(name: str) -> Callable[[Uniform], Any]:
    fn = getattr(operator, name)

    def op(self: Uniform) -> Any:
        whole = _whole(fn, (self,))
        return whole if whole is not None else _per_wave(fn, (self,), {})

    op.__name__ = f"__{name}__"
    return op


_OPERANDS = (*_SCALARS, Uniform, np.ndarray)  # what operators take per wave
for _name in _BINARY:
    setattr(Uniform, f"__{_name}__", _operator(_name))
    setattr(Uniform, f"__r{_name}__", _operator(_name, reflected=True))
for _name in _COMPARISONS:
    setattr(Uniform, f"__{_name}__", _operator(_name))
for _name in _UNARY:
    setattr(Uniform, f"__{_name}__", _unary(_name))
