"""How whole-array functions below the runtime (element conversions, half math) take
per-lane values without knowing what they are.

A function decorated with `lane_wise` computes on whole arrays. Called with an argument
whose type has `__lane_wise__` (a kernel's per-lane values: `runtime.lanes.Lanes`,
register vectors), the call is handed to that hook, which passes the values' arrays in
and gives the result back in per-lane form (like numpy's `__array_function__`). This module
imports nothing of the package, so `types.py` can sit below the runtime.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def lane_wise(fn: F) -> F:
    """`fn` on whole arrays, callable with per-lane values (see the module docstring)."""
    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        for value in (*args, *kwargs.values()):
            hook = getattr(type(value), "__lane_wise__", None)
            if hook is not None:
                return hook(fn, args, kwargs)
        return fn(*args, **kwargs)

    return call  # type: ignore[return-value]
