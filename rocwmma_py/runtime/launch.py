"""Kernels and launches: `@kernel` functions mean "run once per wave" over a grid of blocks.

    @kernel
    def axpy(x, y, a):
        i = blockIdx.x * blockDim.x + threadIdx.x
        y[i] = a * x[i] + y[i]

    axpy[grid, block](x, y, 2.0)            # also [grid, block, shared_bytes(, arch)]
    axpy[grid, block].numerics("exact")(x, y, 2.0)   # pin the numerics model

Numpy array arguments become `Pointer`s named after the parameter; writes land in the
arrays. `engine.py` runs the blocks: in batches of many waves (the default) or wave by wave.
"""

from __future__ import annotations

import functools
import inspect
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from ..arch import Arch, get_arch
from ..arch.models import check_numerics, use_numerics
from ..types import convert
from ..types import resolve as resolve_type
from ..types import short_name as short_type_name
from .checks import Checks
from .dims import Dim3, as_dim3
from .engine import Grid, run
from .lanes import Lanes
from .lds import check_lds_budget
from .memory import Buffer, Pointer
from .target import default_arch

MAX_THREADS_PER_BLOCK = 1024  # HIP's limit


class Kernel:
    """A Python function with per-wave semantics; launch it with `k[grid, block](*args)`."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        if not callable(fn):
            raise TypeError(f"@kernel needs a function, got {type(fn).__name__}")
        self.fn = fn
        self.name = getattr(fn, "__name__", repr(fn))
        self.signature = inspect.signature(fn)
        self.scalar_types = _scalar_annotations(fn, self.signature)
        functools.update_wrapper(self, fn)

    def __getitem__(self, config: tuple) -> Launch:
        if not isinstance(config, tuple) or not 2 <= len(config) <= 4:
            raise TypeError(
                f"launch kernel '{self.name}' as {self.name}[grid, block](...), "
                f"{self.name}[grid, block, shared_bytes](...) or "
                f"{self.name}[grid, block, shared_bytes, arch](...); got [{config!r}]"
            )
        grid, block, shared_bytes, arch = config + (0, None)[len(config) - 2 :]
        return Launch(self, grid, block, shared_bytes, arch)

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError(
            f"kernel '{self.name}' cannot be called directly; launch it with "
            f"{self.name}[grid, block](...)"
        )

    def __repr__(self) -> str:
        return f"<kernel {self.name}>"


def kernel(fn: Callable[..., Any]) -> Kernel:
    """Decorator (or plain call) turning a per-wave Python function into a launchable Kernel."""
    return Kernel(fn)


class Launch:
    """A kernel with its launch configuration; calling it runs the whole grid."""

    def __init__(
        self,
        kernel: Kernel,
        grid: object,
        block: object,
        shared_bytes: object = 0,
        arch: str | Arch | None = None,
    ) -> None:
        self.kernel = kernel
        self.grid = as_dim3(grid, "grid")
        self.block = as_dim3(block, "block")
        try:
            self.shared_bytes = operator.index(shared_bytes)
        except TypeError:
            raise TypeError(
                f"shared_bytes (dynamic LDS) must be an int, got {type(shared_bytes).__name__}"
            ) from None
        if self.shared_bytes < 0:
            raise ValueError(f"shared_bytes (dynamic LDS) must be >= 0, got {self.shared_bytes}")
        self.arch = arch
        self.initcheck: bool | None = None
        self.synccheck: bool | None = None
        self.numerics_name: str | None = None

    def checked(self, initcheck: bool | None = None, synccheck: bool | None = None) -> Launch:
        """This launch with sanitizers on or off (None: $ROCWMMA_PY_INITCHECK/SYNCCHECK)."""
        launch = self._copy()
        launch.initcheck, launch.synccheck = initcheck, synccheck
        return launch

    def numerics(self, name: str) -> Launch:
        """This launch with its numerics model pinned ("silicon" or "exact"), whatever
        `use_numerics` or $ROCWMMA_PY_NUMERICS say; kernels it launches inherit the pin."""
        launch = self._copy()
        launch.numerics_name = check_numerics(name, f"kernel '{self.kernel.name}' numerics")
        return launch

    def _copy(self) -> Launch:
        launch = Launch(self.kernel, self.grid, self.block, self.shared_bytes, self.arch)
        launch.initcheck, launch.synccheck = self.initcheck, self.synccheck
        launch.numerics_name = self.numerics_name
        return launch

    def resolve_arch(self) -> Arch:
        """Explicit launch arch, else `default_arch()` (use_arch > $ROCWMMA_PY_ARCH > gfx942)."""
        return get_arch(self.arch if self.arch is not None else default_arch())

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        arch = self.resolve_arch()
        name = self.kernel.name
        n_waves = waves_per_block(self.block, arch)
        check_lds_budget(arch, 0, self.shared_bytes, name)
        args, kwargs = self._device_arguments(args, kwargs)
        fn = self.kernel.fn

        def body() -> None:
            fn(*args, **kwargs)

        per_wave = _collects_python_objects(fn, args, kwargs)
        checks = Checks.resolve(self.initcheck, self.synccheck)
        grid = Grid(arch, name, body, self.grid, self.block, self.shared_bytes, n_waves, checks)
        if self.numerics_name is None:
            run(grid, per_wave)
            return
        with use_numerics(self.numerics_name):
            run(grid, per_wave)

    def _device_arguments(self, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
        """Bind to the kernel's signature; numpy arrays become Pointers named after params."""
        sig = self.kernel.signature
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError as err:
            raise TypeError(f"kernel '{self.kernel.name}{sig}': {err}") from None
        for pname, value in bound.arguments.items():
            kind = sig.parameters[pname].kind
            if kind is inspect.Parameter.VAR_POSITIONAL:
                value = tuple(_to_device(f"{pname}[{i}]", v) for i, v in enumerate(value))
            elif kind is inspect.Parameter.VAR_KEYWORD:
                value = {k: _to_device(k, v) for k, v in value.items()}
            elif pname in self.kernel.scalar_types:
                value = _to_scalar(self.kernel.name, pname, value,
                                   self.kernel.scalar_types[pname])
            else:
                value = _to_device(pname, value)
            bound.arguments[pname] = value
        return bound.args, bound.kwargs

    def __repr__(self) -> str:
        return (
            f"<launch {self.kernel.name}[grid={self.grid}, block={self.block}, "
            f"shared_bytes={self.shared_bytes}, arch={self.arch}]>"
        )


def waves_per_block(block: Dim3, arch: Arch) -> int:
    """Wave count of a block; refuses blocks that aren't whole waves or exceed 1024 threads."""
    threads = block.x * block.y * block.z
    wave = arch.wave_size
    if threads % wave:
        raise ValueError(
            f"block {block} has {threads} threads, not a multiple of the wave size {wave} of "
            f"{arch.name}; x*y*z must be a positive multiple of {wave}"
        )
    if threads > MAX_THREADS_PER_BLOCK:
        raise ValueError(
            f"block {block} has {threads} threads ({threads // wave} waves of {wave} lanes); "
            f"HIP allows at most {MAX_THREADS_PER_BLOCK} threads per block"
        )
    n_waves = threads // wave
    return n_waves


_CONTAINERS = (list, dict, set)


def _collects_python_objects(fn: Callable[..., Any], args: tuple, kwargs: dict) -> bool:
    """Whether the kernel can reach a Python list/dict/set (an argument, or a closure
    variable of the kernel or of a function it is given): appending to one per wave is
    per-wave behaviour, so such kernels run on the per-wave engine."""
    pending, seen = [fn, *args, *kwargs.values()], set()
    while pending:
        value = pending.pop()
        if isinstance(value, _CONTAINERS):
            return True
        if id(value) in seen:
            continue
        seen.add(id(value))
        for cell in getattr(value, "__closure__", None) or ():
            try:
                pending.append(cell.cell_contents)
            except ValueError:  # a closure variable not assigned yet
                continue
    return False


def _scalar_annotations(fn: Callable[..., Any], sig: inspect.Signature) -> dict[str, type]:
    """Parameters annotated with an element type (`alpha: float32`): converted at launch like
    a C kernel parameter. String annotations (PEP 563) are evaluated in the function's
    globals; ones that do not evaluate, and non-element types, are left alone."""
    out: dict[str, type] = {}
    for pname, param in sig.parameters.items():
        ann = param.annotation
        if isinstance(ann, str):
            try:
                ann = eval(ann, getattr(fn, "__globals__", {}))  # noqa: S307 - the user's code
            except Exception:  # noqa: BLE001 - an annotation we cannot use is not an error
                continue
        try:
            out[pname] = resolve_type(ann)
        except (TypeError, ValueError, KeyError):
            continue
    return out


def _to_scalar(kernel_name: str, pname: str, value: object, t: type) -> object:
    """`static_cast<T>(value)` at the call, as C++ converts a `float alpha` argument."""
    if isinstance(value, np.ndarray) and value.ndim > 0:
        raise TypeError(
            f"kernel '{kernel_name}': parameter '{pname}' is annotated as the scalar type "
            f"{short_type_name(t)} but got an array of shape {value.shape}; pass a scalar, or "
            "drop the annotation for a pointer parameter"
        )
    return convert(value, t)[()]


def _to_device(name: str, value: object) -> object:
    if isinstance(value, np.ndarray) and not isinstance(value, Lanes):
        if not value.flags.c_contiguous:
            raise TypeError(
                f"kernel argument '{name}' must be a C-contiguous array (got shape "
                f"{value.shape}, strides {value.strides}); pass np.ascontiguousarray({name}) "
                "and copy results back"
            )
        return Pointer(Buffer(name, value))
    return value
