"""Kernels and launches: `@kernel` functions mean "run once per wave" over a grid of blocks.

    @kernel
    def axpy(x, y, a):
        i = blockIdx.x * blockDim.x + threadIdx.x
        y[i] = a * x[i] + y[i]

    axpy[grid, block](x, y, 2.0)            # also [grid, block, shared_bytes(, arch)]

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
from ..errors import LaunchError, LaunchTypeError
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
from .tracebacks import trim_kernel_traceback

MAX_THREADS_PER_BLOCK = 1024  # HIP's limit


class Kernel:
    """A Python function with per-wave semantics; launch it with `k[grid, block](*args)`."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        if not callable(fn):
            raise LaunchTypeError(f"@kernel needs a function, got {type(fn).__name__}")
        _refuse_coroutine(fn)
        self.fn = fn
        self.name = getattr(fn, "__name__", repr(fn))
        self.signature = inspect.signature(fn)
        self.scalar_types = _scalar_annotations(fn, self.signature)
        functools.update_wrapper(self, fn)

    def __getitem__(self, config: tuple) -> Launch:
        if not isinstance(config, tuple) or not 2 <= len(config) <= 4:
            raise LaunchTypeError(
                f"launch kernel '{self.name}' as {self.name}[grid, block](...), "
                f"{self.name}[grid, block, shared_bytes](...) or "
                f"{self.name}[grid, block, shared_bytes, arch](...); got [{config!r}]"
            )
        grid, block, shared_bytes, arch = config + (0, None)[len(config) - 2 :]
        return Launch(self, grid, block, shared_bytes, arch)

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        raise LaunchTypeError(
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
        self.grid = check_grid_limits(as_dim3(grid, "grid"))
        self.block = as_dim3(block, "block")
        if isinstance(shared_bytes, (bool, np.bool_)) or not hasattr(type(shared_bytes),
                                                                     "__index__"):
            raise LaunchTypeError(
                f"shared_bytes (dynamic LDS) must be an int, got {type(shared_bytes).__name__}"
            )
        self.shared_bytes = operator.index(shared_bytes)
        if self.shared_bytes < 0:
            raise LaunchError(f"shared_bytes (dynamic LDS) must be >= 0, got {self.shared_bytes}")
        self.arch = arch
        self.initcheck: bool | None = None
        self.synccheck: bool | None = None
        self.racecheck: bool | None = None

    def checked(self, initcheck: bool | None = None, synccheck: bool | None = None,
                racecheck: bool | None = None) -> Launch:
        """This launch with sanitizers on or off (None: $ROCWMMA_PY_INITCHECK/SYNCCHECK/
        RACECHECK)."""
        flags = {"initcheck": initcheck, "synccheck": synccheck, "racecheck": racecheck}
        for name, flag in flags.items():
            if flag is not None and not isinstance(flag, (bool, np.bool_)):
                raise LaunchTypeError(
                    f"checked({name}={flag!r}): sanitizer flags are True (on), False (off) or "
                    f"None (from $ROCWMMA_PY_{name.upper()}); got {type(flag).__name__}"
                )
        launch = Launch(self.kernel, self.grid, self.block, self.shared_bytes, self.arch)
        launch.initcheck, launch.synccheck, launch.racecheck = (
            None if flag is None else bool(flag) for flag in flags.values())
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
        checks = Checks.resolve(self.initcheck, self.synccheck, self.racecheck)
        try:
            run(Grid(arch, name, body, self.grid, self.block, self.shared_bytes, n_waves,
                     checks), per_wave)
        except Exception as err:
            trim_kernel_traceback(err)
            raise

    def _device_arguments(self, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
        """Bind to the kernel's signature; numpy arrays become Pointers named after params."""
        sig = self.kernel.signature
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError as err:
            raise LaunchTypeError(f"kernel '{self.kernel.name}{sig}': {err}") from None
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


def _refuse_coroutine(fn: Callable[..., Any]) -> None:
    """Calling an `async def` or generator function only makes a coroutine or generator
    object, so its body would never run: refuse it where it is made a kernel."""
    kinds = ((inspect.iscoroutinefunction, "an async def function (a coroutine)"),
             (inspect.isasyncgenfunction, "an async generator function"),
             (inspect.isgeneratorfunction, "a generator function (it uses yield)"))
    for test, kind in kinds:
        if test(fn):
            raise LaunchTypeError(
                f"@kernel {getattr(fn, '__name__', fn)!r} is {kind}: calling it would not run "
                "its body; a kernel must be a plain def function (no async, no yield)"
            )


MAX_GRID = Dim3(2**31 - 1, 65535, 65535)  # HIP's gridDim limits (blocks per dimension)


def check_grid_limits(grid: Dim3) -> Dim3:
    """Refuse a grid HIP would refuse to launch: x <= 2**31-1, y and z <= 65535 blocks."""
    if any(n > limit for n, limit in zip(grid, MAX_GRID, strict=True)):
        raise LaunchError(
            f"grid {grid} exceeds HIP's limits: x <= {MAX_GRID.x}, y <= {MAX_GRID.y}, "
            f"z <= {MAX_GRID.z} blocks"
        )
    return grid


def waves_per_block(block: Dim3, arch: Arch) -> int:
    """Wave count of a block; refuses blocks that aren't whole waves or exceed 1024 threads."""
    threads = block.x * block.y * block.z
    wave = arch.wave_size
    if threads % wave:
        raise LaunchError(
            f"block {block} has {threads} threads, not a multiple of the wave size {wave} of "
            f"{arch.name}; x*y*z must be a positive multiple of {wave}"
        )
    if threads > MAX_THREADS_PER_BLOCK:
        raise LaunchError(
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
        raise LaunchTypeError(
            f"kernel '{kernel_name}': parameter '{pname}' is annotated as the scalar type "
            f"{short_type_name(t)} but got an array of shape {value.shape}; pass a scalar, or "
            "drop the annotation for a pointer parameter"
        )
    return convert(value, t)[()]


def _to_device(name: str, value: object) -> object:
    if isinstance(value, np.ndarray) and not isinstance(value, Lanes):
        if value.ndim == 0:
            raise LaunchTypeError(
                f"kernel argument '{name}' is a 0-d array: pass {name}[()] for a scalar value, "
                f"or a 1-element array ({name}.reshape(1)) for a pointer the kernel writes"
            )
        if not value.dtype.isnative:
            raise LaunchTypeError(
                f"kernel argument '{name}' has non-native byte order (dtype {value.dtype.str}); "
                f"GPU memory is little-endian and vector loads would read swapped bytes: pass "
                f"{name}.astype({name}.dtype.newbyteorder('=')) and copy results back"
            )
        if not value.flags.c_contiguous:
            raise LaunchTypeError(
                f"kernel argument '{name}' must be a C-contiguous array (got shape "
                f"{value.shape}, strides {value.strides}); pass np.ascontiguousarray({name}) "
                "and copy results back"
            )
        return Pointer(Buffer(name, value))
    return value
