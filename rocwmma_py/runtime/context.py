"""The running wave: a thread-local record that the HIP-style built-ins read from."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import NotInKernelError

if TYPE_CHECKING:
    from ..arch import Arch
    from .dims import Dim3
    from .lanes import Lanes
    from .lds import BlockLds


@dataclass(eq=False)
class WaveContext:
    """Everything a wave of a running kernel can ask about itself."""

    arch: Arch
    kernel_name: str
    wave_index: int
    waves_per_block: int
    block_index: Dim3
    block_dim: Dim3
    grid_dim: Dim3
    thread_idx: tuple[Lanes, Lanes, Lanes]
    lane_ids: Lanes
    lds: BlockLds
    scheduler: Any = None  # WaveScheduler of the block, or None when the block has one wave
    lds_calls: int = 0  # shared_array() calls made so far by this wave (k-th call -> k-th buffer)

    @property
    def wave_size(self) -> int:
        return self.arch.wave_size

    def where(self) -> str:
        """Location for error messages: "kernel 'foo' (block (0,0,0), wave 1)"."""
        return f"kernel '{self.kernel_name}' (block {self.block_index}, wave {self.wave_index})"


_local = threading.local()


def current_wave_or_none() -> WaveContext | None:
    """The running wave of this thread, or None outside a kernel."""
    return getattr(_local, "wave", None)


def current_wave(what: str = "current_wave()") -> WaveContext:
    """The running wave; raises NotInKernelError outside a kernel."""
    ctx = getattr(_local, "wave", None)
    if ctx is None:
        raise NotInKernelError(
            f"{what} works only inside a kernel launched with kernel[grid, block](...)"
        )
    return ctx


def where_text() -> str:
    """Location suffix for messages: " in kernel 'foo' (block ..., wave 1)", or "" outside."""
    ctx = current_wave_or_none()
    return f" in {ctx.where()}" if ctx is not None else ""


def enter_wave(ctx: WaveContext | None) -> WaveContext | None:
    """Make `ctx` this thread's running wave; returns the previous one for `enter_wave(prev)`."""
    previous = getattr(_local, "wave", None)
    _local.wave = ctx
    return previous


def note_where(err: BaseException, ctx: WaveContext) -> None:
    """Add "raised in kernel 'k' (block ..., wave ...)" to a traceback; the message is kept."""
    if hasattr(err, "add_note"):  # Python 3.11+
        err.add_note(f"raised in {ctx.where()}")
