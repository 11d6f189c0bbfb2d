"""Short tracebacks for errors a kernel raises: the user's frames, not the engine's plumbing.

A kernel error passes through a dozen frames of the launch machinery (launch, engine,
batch, rerun, wave scheduler) before it reaches the caller; printing them buries the kernel
line. `trim_kernel_traceback` relinks the traceback (its `tb_next` links are writable) so
that it shows the frames of code outside rocwmma_py, in order: the caller's launch line,
then the kernel line (and the kernel's own helper functions). For the package's deliberate
errors (RocwmmaError) the frames inside rocwmma_py after the kernel line go too, so the
traceback ends at the line that did the wrong thing; any other exception keeps them, so a
bug inside the emulator still shows where it happened.

The same trimming makes the package's refusals of a call itself short: a launch (or
`use_arch`) naming an unknown target raises from the caller's line, no rocwmma_py frame
(on Python 3.10, which cannot re-raise a trimmed traceback bare, one: the re-raising line).
"""

from __future__ import annotations

import os
from types import TracebackType

from ..errors import InternalError, RocwmmaError

PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def in_package(filename: str) -> bool:
    """Whether a frame's file belongs to rocwmma_py itself."""
    return os.path.abspath(filename).startswith(PACKAGE_DIR)


def trim_kernel_traceback(err: BaseException) -> None:
    """Drop rocwmma_py's frames from `err.__traceback__` as the module docstring says. A
    traceback without any frame outside the package loses them all if the error is deliberate
    (re-raised bare, it then starts at the caller's line), else is left alone."""
    entries: list[TracebackType] = []
    tb = err.__traceback__
    while tb is not None:
        entries.append(tb)
        tb = tb.tb_next
    user = [i for i, e in enumerate(entries) if not in_package(e.tb_frame.f_code.co_filename)]
    deliberate = isinstance(err, RocwmmaError) and not isinstance(err, InternalError)
    if not user:
        if deliberate:  # a check of the call itself (a bad target): the caller's line is all
            err.__traceback__ = None
        return
    kept = set(user)
    keep = [e for i, e in enumerate(entries)
            if i in kept or (i > user[-1] and not deliberate)]
    for entry, following in zip(keep, [*keep[1:], None], strict=True):
        entry.tb_next = following
    err.__traceback__ = keep[0]
