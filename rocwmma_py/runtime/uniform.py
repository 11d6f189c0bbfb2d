"""Per-wave scalars of a batch: what is one Python or numpy scalar in each wave.

Per wave, `blockIdx.x` is a Python int and `lds[0]` (every lane reading one address) a numpy
scalar. A batch runs many waves at once, and such a value may differ between them. Where
every wave of the batch has the same one, the batch holds that scalar itself; only while the
waves disagree is it a `Uniform`: the list of each wave's scalar. Nothing about Python's or
numpy's scalar rules is imitated:

* with Python and numpy scalars (operators, numpy functions, `divmod`, `round`), the
  operation runs on each wave's own scalar, so every result, type and exception is the
  per-wave one (an int beyond int64, `0.0 ** -1`, numpy's scalar `**`);
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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from .lanes import Lanes, batch_data, is_per_lane
from .state import BatchSplit, current_context, taint_running_batch

_BINARY = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "lshift", "rshift",
           "and", "or", "xor", "matmul")
_COMPARISONS = ("lt", "le", "gt", "ge", "eq", "ne")
_UNARY = ("neg", "pos", "abs", "invert")
_SCALARS = (bool, int, float, complex, np.generic)


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
    """A per-wave scalar whose waves disagree (see the module docstring)."""

    __slots__ = ("_values",)

    def __init__(self, values: list) -> None:
        self._values = values

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
        kinds = {type(v) for v in self._values}
        return kinds.pop() if len(kinds) == 1 else self._split()

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
        ctx = current_context("a per-wave scalar")
        kinds = {type(v) for v in self._values}
        if len(kinds) != 1:
            self._split()  # waves would promote differently
        first = self._values[0]
        with _marking_errors():
            if isinstance(first, np.generic):
                per_wave = np.array(self._values)
            else:
                strong = [batch_data(x) for x in others
                          if x is not self and x is not None
                          and not isinstance(x, (Uniform, str, type, np.dtype))]
                per_wave = np.array(self._values, np.result_type(*strong, first))
        return np.repeat(per_wave, ctx.wave_size)


@contextmanager
def _marking_errors() -> Iterator[None]:
    """An error of some wave marks the running batch, so kernel code that catches it still
    reruns wave by wave (where only the waves that raise it do)."""
    try:
        yield
    except Exception:
        taint_running_batch()
        raise


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
            results = [fn(*row) for row in zip(*columns, strict=True)]
    if all(isinstance(r, _SCALARS) for r in results):
        return uniform(results)
    if all(isinstance(r, tuple) and all(isinstance(p, _SCALARS) for p in r) for r in results):
        return tuple(uniform(list(parts)) for parts in zip(*results, strict=True))
    first = _uniforms((*args, *kwargs.values()))[0]
    return first._split()


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
    """An operator: per lane with per-lane values, per wave with scalars (and plain numpy
    arrays, whose results split), NotImplemented for other objects (a Pointer's reflected
    operator runs, as for a Python int)."""
    other = b if isinstance(a, Uniform) else a
    if is_per_lane(other):
        x, y = _with_lanes((a, b))
        return fn(x, y)
    if isinstance(other, (*_SCALARS, Uniform, np.ndarray)):
        return _per_wave(fn, (a, b), {})
    return NotImplemented


def _operator(name: str, reflected: bool = False) -> Callable[[Uniform, object], Any]:
    fn = getattr(operator, f"{name}_" if name in ("and", "or") else name)

    def op(self: Uniform, other: object) -> Any:
        return _binary(fn, other, self) if reflected else _binary(fn, self, other)

    op.__name__ = f"__{'r' if reflected else ''}{name}__"
    return op


def _unary(name: str) -> Callable[[Uniform], Any]:
    fn = getattr(operator, name)

    def op(self: Uniform) -> Any:
        return _per_wave(fn, (self,), {})

    op.__name__ = f"__{name}__"
    return op


for _name in _BINARY:
    setattr(Uniform, f"__{_name}__", _operator(_name))
    setattr(Uniform, f"__r{_name}__", _operator(_name, reflected=True))
for _name in _COMPARISONS:
    setattr(Uniform, f"__{_name}__", _operator(_name))
for _name in _UNARY:
    setattr(Uniform, f"__{_name}__", _unary(_name))
