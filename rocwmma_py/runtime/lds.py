"""LDS (shared memory) of workgroups: static `shared_array` buffers and the dynamic region.

A `BlockLds` holds the LDS of the blocks that run together (one for the per-wave engine, a
batch's blocks for the batched engine): each buffer has one segment per block. Every block
gets fresh, zero-filled LDS. (Real hardware leaves LDS undefined at kernel
start; zero-filling keeps the emulator deterministic, so do not rely on it.) Static plus
dynamic bytes are limited to the target's `lds_bytes` (64 KiB; 160 KiB on gfx950).
"""

from __future__ import annotations

import operator

import numpy as np
from numpy.typing import DTypeLike

from ..arch import Arch
from ..errors import LdsError
from ..types import cxx_type
from .errors import LdsLimitError, LdsRaceError
from .memory import Buffer, Pointer
from .state import current_context


class BlockLds:
    """The LDS allocations and barrier epoch of the running block(s)."""

    def __init__(self, arch: Arch, dynamic_bytes: int, kernel_name: str, blocks: int = 1,
                 initcheck: bool = False, deferred: bool = False) -> None:
        self.arch = arch
        self.blocks = blocks
        self.initcheck = initcheck
        self.deferred = deferred  # batched engine: race checks per epoch (EpochLog)
        self.kernel_name = kernel_name
        self.epoch = 0  # advanced at every barrier release; the race checker compares it
        self.static: list[Buffer] = []
        self.static_bytes = 0
        check_lds_budget(arch, 0, dynamic_bytes, kernel_name)
        self.dynamic = Buffer.segmented("lds.dynamic", dynamic_bytes, blocks, self,
                                        initcheck=initcheck, deferred=deferred)

    def next_epoch(self) -> None:
        """Barrier release: accesses before it can no longer race with accesses after it.
        A batch's deferred checks (`EpochLog`) run here and raise on a race."""
        self.epoch += 1
        if self.deferred:
            for buffer in (*self.static, self.dynamic):
                if buffer.tracker.close_epoch():  # type: ignore[union-attr] # deferred: EpochLog
                    raise LdsRaceError(f"LDS race in buffer '{buffer.name}' of kernel "
                                       f"'{self.kernel_name}' (found in a batch)")

    def static_buffer(self, index: int, dtype: np.dtype, n: int, wave: int) -> Buffer:
        """The index-th static allocation, created by the first wave that asks for it."""
        if index < len(self.static):
            buffer = self.static[index]
            if buffer.dtype != dtype or buffer.nbytes != n * dtype.itemsize:
                raise LdsError(
                    f"shared_array call #{index} of wave {wave} in kernel '{self.kernel_name}' "
                    f"asks for {n} x {dtype}, but an earlier wave allocated "
                    f"{buffer.nbytes // buffer.dtype.itemsize} x {buffer.dtype} there; every "
                    "wave must make the "
                    "same shared_array calls in the same order"
                )
            return buffer
        nbytes = n * dtype.itemsize
        check_lds_budget(
            self.arch, self.static_bytes + nbytes, self.dynamic.nbytes, self.kernel_name
        )
        self.static_bytes += nbytes
        buffer = Buffer.segmented(f"lds[{index}]", nbytes, self.blocks, self, dtype,
                                  initcheck=self.initcheck, deferred=self.deferred)
        self.static.append(buffer)
        return buffer


def check_lds_budget(arch: Arch, static_bytes: int, dynamic_bytes: int, kernel_name: str) -> None:
    """Raise LdsLimitError when static + dynamic LDS exceeds the target's LDS size."""
    total = static_bytes + dynamic_bytes
    if total > arch.lds_bytes:
        raise LdsLimitError(
            f"kernel '{kernel_name}' needs {total} bytes of LDS per block (static "
            f"{static_bytes} + dynamic {dynamic_bytes}), over the {arch.lds_bytes}-byte "
            f"limit of {arch.name}"
        )


def shared_array(dtype: DTypeLike, n: int) -> Pointer:
    """Static LDS array of n elements (HIP `__shared__ T x[n]`); all waves share the k-th call's.

    Call it once per array at the top of the kernel, not in a loop: each call allocates.

    Args:
        dtype: element type (numpy dtype or type; Python's `float`, `int`, `bool` are
            C++'s: float32, int32, bool). n: element count, positive.

    Raises:
        ValueError: n < 1. LdsLimitError: the block's static plus dynamic LDS exceeds the
            target's (64 KiB, 160 KiB on gfx950). NotInKernelError: outside a kernel.
        LdsRaceError: at an access, two waves touching one element between barriers.

    Example:
        >>> import numpy as np
        >>> from rocwmma_py import kernel, shared_array, syncthreads, threadIdx
        >>> @kernel
        ... def rotate(x):                     # two waves exchange through LDS
        ...     tile = shared_array(np.float32, 128)
        ...     tile[threadIdx.x] = x[threadIdx.x]
        ...     syncthreads()
        ...     x[threadIdx.x] = tile[(threadIdx.x + 64) % 128]
        >>> x = np.arange(128, dtype=np.float32)
        >>> rotate[1, 128, 0, "gfx942"](x)
        >>> float(x[0]), float(x[64])
        (64.0, 0.0)
    """
    ctx = current_context("shared_array()")
    dtype = np.dtype(cxx_type(dtype))
    n = operator.index(n)
    if n < 1:
        raise LdsError(f"shared_array needs a positive element count, got {n}")
    index = ctx.lds_calls
    ctx.lds_calls += 1
    return Pointer(ctx.lds.static_buffer(index, dtype, n, ctx.wave_index), 0, dtype)


def dynamic_shared(dtype: DTypeLike) -> Pointer:
    """Pointer to the dynamic LDS region (HIP `extern __shared__`), sized by the launch.

    The size in bytes is the launch's third slot, `k[grid, block, shared_bytes]`. `dtype`
    as for `shared_array` (`float` is float32).

    Raises:
        NotInKernelError: outside a kernel. LdsLimitError: static plus dynamic LDS over
        the target's size (at the launch).
    """
    ctx = current_context("dynamic_shared()")
    return Pointer(ctx.lds.dynamic, 0, np.dtype(cxx_type(dtype)))
