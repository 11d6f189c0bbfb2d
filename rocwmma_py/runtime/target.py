"""Which GPU the running code targets: the kernel's inside a kernel, else the setting.

The setting (`use_arch`, `$ROCWMMA_PY_ARCH`, default gfx942) is in `rocwmma_py.settings`;
a launch's explicit 4th slot takes precedence over it.
"""

from __future__ import annotations

from ..arch import Arch, get_arch
from ..settings import default_arch
from .state import current_context_or_none


def current_arch() -> Arch:
    """The running kernel's target inside a kernel; `get_arch(default_arch())` outside."""
    ctx = current_context_or_none()
    return ctx.arch if ctx is not None else get_arch(default_arch())
