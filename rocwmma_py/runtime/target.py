"""Which GPU a launch targets.

Precedence: explicit launch argument > innermost `use_arch(...)` block > environment
variable ROCWMMA_PY_ARCH > "gfx942". `default_arch()` is the one place that applies it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from ..arch import Arch, get_arch
from ..errors import ConfigError
from .state import current_context_or_none

ENV_VAR = "ROCWMMA_PY_ARCH"
FALLBACK_ARCH = "gfx942"

_arch_stack: ContextVar[tuple[Arch, ...]] = ContextVar("rocwmma_py_arch_stack", default=())


def default_arch() -> str:
    """Target name for launches without an explicit arch: use_arch > $ROCWMMA_PY_ARCH > gfx942."""
    stack = _arch_stack.get()
    if stack:
        return stack[-1].name
    env = os.environ.get(ENV_VAR, "").strip()
    if env:
        try:
            return get_arch(env).name
        except ValueError as err:
            raise ConfigError(f"environment variable {ENV_VAR}={env!r}: {err}") from None
    return FALLBACK_ARCH


@contextmanager
def use_arch(name: str | Arch) -> Iterator[Arch]:
    """Make `name` the target of launches (and `current_arch()`) inside the with-block.

    Blocks nest (innermost wins) and are per thread/context; a launch's explicit 4th slot
    (`k[grid, block, lds, "gfx1100"]`) still takes precedence.

    Args:
        name: a target name ("gfx942", "gfx1100", ...) or an `Arch`.

    Raises:
        ValueError: an unknown target name (the message lists the valid ones).

    Example:
        >>> from rocwmma_py import use_arch, current_arch
        >>> with use_arch("gfx1100") as arch:
        ...     arch.wave_size, current_arch().name
        (32, 'gfx1100')
    """
    arch = get_arch(name)
    token = _arch_stack.set(_arch_stack.get() + (arch,))
    try:
        yield arch
    finally:
        _arch_stack.reset(token)


def current_arch() -> Arch:
    """The running kernel's target inside a kernel; `get_arch(default_arch())` outside."""
    ctx = current_context_or_none()
    return ctx.arch if ctx is not None else get_arch(default_arch())
