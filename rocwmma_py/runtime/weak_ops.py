"""Python's number rules for a batch's blockIdx values ("weak" Lanes), on plain arrays.

Per wave, `blockIdx.x` is a Python int: `blockIdx.x // 0` raises ZeroDivisionError,
`blockIdx.x / 2` is a float, ints never overflow, and with a numpy operand it promotes as a
weak scalar (NEP 50: `f32_array * (blockIdx.x + 1)` stays float32). In a batch it is an
int64 array with one value per lane; these functions make that array follow the Python
rules: operators between weak values and Python scalars compute what Python would (raising
what Python raises), and a weak value meeting per-lane numpy values is first cast as numpy
casts a Python scalar. What int64/float64 cannot reproduce exactly (huge ints, complex
powers) raises NeedsPerWave, so those blocks rerun with real Python ints. The functions take
and return plain arrays (one value per lane); `lanes.py` wraps them.
"""

from __future__ import annotations

import numpy as np

from .state import NeedsPerWave

OPERATORS = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "truediv": np.true_divide,
    "floordiv": np.floor_divide, "mod": np.remainder, "pow": np.power,
    "lshift": np.left_shift, "rshift": np.right_shift, "and": np.bitwise_and,
    "or": np.bitwise_or, "xor": np.bitwise_xor, "lt": np.less, "le": np.less_equal,
    "gt": np.greater, "ge": np.greater_equal, "eq": np.equal, "ne": np.not_equal,
}
COMPARISONS = frozenset({"lt", "le", "gt", "ge", "eq", "ne"})
_SYMBOLS = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%",
            "pow": "**", "lshift": "<<", "rshift": ">>", "and": "&", "or": "|", "xor": "^",
            "divmod": "divmod()"}
_PYTHON_SCALARS = (bool, int, float)
_EXACT_INT = 2.0 ** 53  # ints that float64 holds exactly
_INT_LIMIT = 2.0 ** 62  # int64 results at or beyond this may have overflowed


def is_python_scalar(value: object) -> bool:
    """A Python bool/int/float (what blockIdx arithmetic is per wave)."""
    return type(value) in _PYTHON_SCALARS


def _operand(value: object) -> np.ndarray:
    if isinstance(value, np.ndarray):
        return value
    if type(value) is int and not -2**63 <= value < 2**63:
        raise NeedsPerWave  # a Python int beyond int64
    return np.asarray(value)


def _no_bool(x: np.ndarray) -> np.ndarray:
    return x.astype(np.int64) if x.dtype == np.bool_ else x


def _overflows(estimate: np.ndarray) -> bool:
    return bool((np.abs(estimate) >= _INT_LIMIT).any())


def python_binary(op: str, a: object, b: object):
    """`a <op> b` with Python's semantics, a and b weak values (arrays) or Python scalars."""
    x, y = _operand(a), _operand(b)
    with np.errstate(all="ignore"):
        if op in COMPARISONS:
            if x.dtype.kind != y.dtype.kind and _beyond_exact(x, y):
                raise NeedsPerWave  # Python compares int and float exactly
            return OPERATORS[op](x, y)
        if op in ("and", "or", "xor") and x.dtype == np.bool_ and y.dtype == np.bool_:
            return OPERATORS[op](x, y)
        x, y = _no_bool(x), _no_bool(y)
        floats = x.dtype.kind == "f" or y.dtype.kind == "f"
        if op in ("and", "or", "xor", "lshift", "rshift") and floats:
            raise TypeError(f"unsupported operand type(s) for {_SYMBOLS[op]}: "
                            f"'{_py_name(x)}' and '{_py_name(y)}'")
        if op in ("truediv", "floordiv", "mod", "divmod") and (y == 0).any():
            raise ZeroDivisionError("division by zero")
        if op == "divmod":
            return (np.floor_divide(x, y), np.remainder(x, y))
        if op == "pow":
            return _power(x, y, floats)
        if op in ("lshift", "rshift") and (y < 0).any():
            raise ValueError("negative shift count")
        if op == "lshift":
            if _overflows(x * np.exp2(np.minimum(y, 64).astype(np.float64))):
                raise NeedsPerWave
            return np.left_shift(x, y)
        if op == "rshift":
            return np.right_shift(x, np.minimum(y, 63))
        if op == "truediv" and not floats and _beyond_exact(x, y):
            raise NeedsPerWave  # Python divides big ints exactly, then rounds once
        result = OPERATORS[op](x, y)
        if not floats and op in ("add", "sub", "mul") and _overflows(
                OPERATORS[op](x.astype(np.float64), y.astype(np.float64))):
            raise NeedsPerWave
        return result


def _power(x: np.ndarray, y: np.ndarray, floats: bool) -> np.ndarray:
    if not floats:
        negative = y < 0
        if negative.any():
            if not negative.all():
                raise NeedsPerWave  # some blocks get an int, others a float
            if (x == 0).any():
                raise ZeroDivisionError("0.0 cannot be raised to a negative power")
            return x.astype(np.float64) ** y.astype(np.float64)
        if _overflows(np.abs(x.astype(np.float64)) ** y):
            raise NeedsPerWave
        return x ** y
    if ((x == 0) & (y < 0)).any():
        raise ZeroDivisionError("0.0 cannot be raised to a negative power")
    if ((x < 0) & (y != np.floor(y))).any():
        raise NeedsPerWave  # Python gives a complex number
    result = np.power(x.astype(np.float64), y.astype(np.float64))
    if (np.isinf(result) & np.isfinite(x) & np.isfinite(y)).any():
        raise OverflowError("(34, 'Numerical result out of range')")
    return result


def _beyond_exact(x: np.ndarray, y: np.ndarray) -> bool:
    return any(v.dtype.kind in "iu" and v.size and bool((np.abs(v) > _EXACT_INT).any())
               for v in (x, y))


def _py_name(x: np.ndarray) -> str:
    return "float" if x.dtype.kind == "f" else "int"


def python_unary(name: str, value: np.ndarray):
    """-x, +x, abs(x), ~x with Python's rules (bools act as ints)."""
    x = _no_bool(value)
    if name == "invert":
        if x.dtype.kind == "f":
            raise TypeError("bad operand type for unary ~: 'float'")
        return np.invert(x)
    op = {"neg": np.negative, "pos": np.positive, "abs": np.absolute}[name]
    return op(x)


def python_round(value: np.ndarray, ndigits: int | None):
    """round(x) / round(x, n) as Python rounds an int or float."""
    x = value
    if ndigits is None:
        if x.dtype.kind == "f":
            if not np.isfinite(x).all():
                raise ValueError("cannot convert float NaN or infinity to integer")
            return np.rint(x).astype(np.int64)
        return _no_bool(x)
    if x.dtype.kind != "f" and ndigits >= 0:
        return _no_bool(x)
    raise NeedsPerWave  # Python rounds decimally, numpy by scaling


def cast_like_python_scalar(values: np.ndarray, target: np.dtype) -> np.ndarray:
    """Weak values as numpy casts a Python scalar to `target` (NEP 50): an int out of the
    target's range raises OverflowError, as it does per wave."""
    if target.kind in "iu" and values.dtype.kind in "iub" and values.size:
        info = np.iinfo(target)
        if values.min() < info.min or values.max() > info.max:
            raise OverflowError(f"Python integer out of bounds for {target}")
    return values.astype(target)
