"""Exceptions raised by the kernel runtime, one per kind of kernel bug, so tests can catch them."""

from __future__ import annotations


class DivergenceError(RuntimeError):
    """Python control flow (if/while/int()/range()) met a value that differs across lanes."""


class OutOfBoundsError(IndexError):
    """A lane read or wrote outside its buffer; nothing was written."""


class LdsLimitError(ValueError):
    """A block asked for more LDS (static + dynamic) than the target has."""


class LdsRaceError(RuntimeError):
    """Two waves touched the same LDS bytes between barriers (missing synchronize_workgroup())."""


class NotInKernelError(RuntimeError):
    """A kernel-only built-in (threadIdx, lane_id(), shared_array, ...) ran outside a kernel."""


class InitCheckError(RuntimeError):
    """initcheck: a kernel read LDS bytes nobody wrote, or a fragment nobody filled."""


class BarrierError(RuntimeError):
    """synccheck: a barrier was reached by only some waves of a block."""
