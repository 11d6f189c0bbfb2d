"""HIP's dim3: grid and block sizes as (x, y, z) triples."""

from __future__ import annotations

import operator
from typing import NamedTuple

from ..errors import LaunchError, LaunchTypeError


class Dim3(NamedTuple):
    """An (x, y, z) extent or index; a tuple, so it compares and unpacks like one."""

    x: int
    y: int = 1
    z: int = 1

    def __str__(self) -> str:
        return f"({self.x},{self.y},{self.z})"


def dim3(x: int, y: int = 1, z: int = 1) -> Dim3:
    """HIP's `dim3(x, y, z)` constructor; missing dimensions are 1."""
    return as_dim3((x, y, z), "dim3")


def as_dim3(value: object, what: str) -> Dim3:
    """Normalise an int or a 1-3 tuple of positive ints into a Dim3; `what` names it in errors."""
    items = value if isinstance(value, (tuple, list)) else (value,)
    if not 1 <= len(items) <= 3:
        raise LaunchError(f"{what} must be an int or a tuple of 1 to 3 ints, got {value!r}")
    dims = []
    for item in items:
        if isinstance(item, bool):
            raise LaunchTypeError(f"{what} must hold ints, got {value!r}")
        try:
            n = operator.index(item)  # pyright: ignore[reportArgumentType] - the check
        except TypeError:
            raise LaunchTypeError(
                f"{what} must be an int or a tuple of 1 to 3 ints, got {value!r}"
            ) from None
        if n < 1:
            raise LaunchError(f"{what} dimensions must be positive, got {value!r}")
        dims.append(n)
    return Dim3(*dims)
