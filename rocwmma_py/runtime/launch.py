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
from contextlib import nullcontext
from typing import Any, Generic, NoReturn, ParamSpec

import numpy as np

from ..arch import Arch, get_arch
from ..errors import LaunchError, LaunchTypeError, PointerTypeError
from ..settings import NUMERICS, default_arch, use_numerics
from ..types import convert
from ..types import resolve as resolve_type
from ..types import short_name as short_type_name
from .checks import Checks
from .dims import Dim3, as_dim3
from .engine import Grid, run
from .lanes import Lanes
from .lds import check_lds_budget
from .memory import Pointer
from .reach import kernel_state
from .spread_cost import Memo
from .state import guard_host_arrays
from .tracebacks import trim_kernel_traceback

MAX_THREADS_PER_BLOCK = 1024  # HIP's limit

P = ParamSpec("P")  # the kernel function's parameters, kept by Kernel and Launch


class Kernel(Generic[P]):
    """A Python function with per-wave semantics; launch it with `k[grid, block](*args)`.

    `Kernel[P]` keeps the function's parameters for type checkers: `k[grid, block]` is a
    `Launch[P]` whose call takes the same arguments as the decorated function.
    """

    def __init__(self, fn: Callable[P, Any]) -> None:
        if not callable(fn):
            raise LaunchTypeError(f"@kernel needs a function, got {type(fn).__name__}")
        _refuse_coroutine(fn)
        self.fn = fn
        self.name = getattr(fn, "__name__", repr(fn))
        self.signature = inspect.signature(fn)
        self.scalar_types = _scalar_annotations(fn, self.signature)
        # launch shape -> what its last launch measured (workers.py: whether to probe)
        self.costs: dict[tuple, Memo] = {}
        code = getattr(fn, "__code__", None)
        self.matrix_work = code is not None and "mma_sync" in code.co_names
        functools.update_wrapper(self, fn)

    def __getitem__(self, config: tuple[Any, ...]) -> Launch[P]:
        """The launch `k[grid, block]`, `k[grid, block, shared_bytes]` or
        `k[grid, block, shared_bytes, arch]`.

        grid, block: an int, a 1-3 tuple or a `dim3` (blocks per grid, threads per block; a
        block is a whole number of waves, at most 1024 threads). shared_bytes: dynamic LDS
        bytes for `dynamic_shared` (the numba/Triton third slot is the stream; here it is
        HIP's `hipLaunchKernelGGL` shared-memory size). arch: a target name or `Arch`
        (default: `default_arch()`).

        Raises:
            TypeError: not 2 to 4 entries; non-int grid/block entries or `shared_bytes`.
            ValueError: a negative `shared_bytes`; grid/block dimensions that are not 1 to
                3 positive ints.

        Example:
            >>> axpy[(4,), (256,)](x, y, 2.0)                           # doctest: +SKIP
        """
        if not isinstance(config, tuple) or not 2 <= len(config) <= 4:
            raise LaunchTypeError(
                f"launch kernel '{self.name}' as {self.name}[grid, block](...), "
                f"{self.name}[grid, block, shared_bytes](...) or "
                f"{self.name}[grid, block, shared_bytes, arch](...); got [{config!r}]"
            )
        grid, block, shared_bytes, arch = config + (0, None)[len(config) - 2 :]
        return Launch(self, grid, block, shared_bytes, arch)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> NoReturn:
        raise LaunchTypeError(
            f"kernel '{self.name}' cannot be called directly; launch it with "
            f"{self.name}[grid, block](...)"
        )

    def __repr__(self) -> str:
        return f"<kernel {self.name}>"


def kernel(fn: Callable[P, Any]) -> Kernel[P]:
    """Decorator (or plain call) turning a per-wave Python function into a launchable Kernel.

    The function runs once per wave: `threadIdx`, `lane_id()` are per-lane values, numpy
    array arguments arrive as bounds-checked `Pointer`s, parameters annotated with an
    element type (`alpha: float32_t`) are converted at launch like C parameters.

    Raises:
        TypeError: `fn` is not callable.

    Example:
        >>> import numpy as np
        >>> from rocwmma_py import kernel, threadIdx
        >>> @kernel
        ... def double(x):
        ...     x[threadIdx.x] = 2 * x[threadIdx.x]
        >>> x = np.arange(64.0)
        >>> double[1, 64](x)
        >>> float(x[5])
        10.0
    """
    return Kernel(fn)


def _cost_shape(arg: object) -> object:
    """What of a kernel argument the cost of a launch depends on: an array's size and type,
    an int's value (a loop bound), the type of anything else."""
    if isinstance(arg, Pointer):
        return arg.buffer.array.shape, arg.buffer.array.dtype.str
    return arg if type(arg) is int else type(arg)


class Launch(Generic[P]):
    """A kernel with its launch configuration; calling it runs the whole grid."""

    def __init__(
        self,
        kernel: Kernel[P],
        grid: object,
        block: object,
        shared_bytes: int = 0,
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
        self.numerics_name: str | None = None

    def checked(self, initcheck: bool | None = None, synccheck: bool | None = None,
                racecheck: bool | None = None) -> Launch[P]:
        """This launch with sanitizers on or off (None: the initcheck/synccheck/racecheck
        settings, `use_initcheck(...)` > $ROCWMMA_PY_INITCHECK > off and the same for the others).

        initcheck: reads of LDS never written and fragments never filled raise
        `InitCheckError`. synccheck: waves reaching different barrier counts raise
        `BarrierError`. racecheck: global-memory races between blocks or waves raise
        `GlobalRaceError` (the launch then runs on the per-wave engine).

        Example:
            >>> k[grid, block].checked(initcheck=True, racecheck=True)(a, b)  # doctest: +SKIP
        """
        flags = {"initcheck": initcheck, "synccheck": synccheck, "racecheck": racecheck}
        for name, flag in flags.items():
            if flag is not None and not isinstance(flag, (bool, np.bool_)):
                raise LaunchTypeError(
                    f"checked({name}={flag!r}): sanitizer flags are True (on), False (off) or "
                    f"None (the {name} setting: use_{name} or $ROCWMMA_PY_{name.upper()}); got "
                    f"{type(flag).__name__}"
                )
        launch = self._copy()
        launch.initcheck, launch.synccheck, launch.racecheck = (
            None if flag is None else bool(flag) for flag in flags.values())
        return launch

    def numerics(self, name: str) -> Launch[P]:
        """This launch with its numerics model pinned ("silicon" or "exact"), whatever
        `use_numerics` or $ROCWMMA_PY_NUMERICS say; kernels it launches inherit the pin."""
        launch = self._copy()
        where = f"kernel '{self.kernel.name}' numerics({name!r})"
        launch.numerics_name = NUMERICS.check(name, where)
        return launch

    def _copy(self) -> Launch[P]:
        launch = Launch(self.kernel, self.grid, self.block, self.shared_bytes, self.arch)
        launch.initcheck, launch.synccheck = self.initcheck, self.synccheck
        launch.racecheck, launch.numerics_name = self.racecheck, self.numerics_name
        return launch

    def resolve_arch(self) -> Arch:
        """Explicit launch arch, else `default_arch()` (use_arch > $ROCWMMA_PY_ARCH > gfx942)."""
        return get_arch(self.arch if self.arch is not None else default_arch())

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> None:
        """Run the whole grid with these arguments (numpy arrays become Pointers).

        Raises:
            TypeError: arguments that do not bind to the kernel's signature, a
                non-C-contiguous array, an array for a scalar-annotated parameter.
            ValueError: a block that is not a whole number of waves or over 1024 threads.
            LdsLimitError: static plus dynamic LDS over the target's size.
            ArchError: an unknown target (raised from the caller's line, as the errors below).
            RocwmmaError: any error of the kernel body (with the block and wave).
        """
        try:
            self._launch(args, kwargs)
        except Exception as err:
            trim_kernel_traceback(err)
            raise

    def _launch(self, args: tuple, kwargs: dict) -> None:
        """Resolve the target, bind the arguments and run the grid (`__call__`)."""
        arch = self.resolve_arch()
        name = self.kernel.name
        n_waves = waves_per_block(self.block, arch)
        check_lds_budget(arch, 0, self.shared_bytes, name)
        dev_args, dev_kwargs = self._device_arguments(args, kwargs)
        fn = self.kernel.fn

        def body() -> None:
            fn(*dev_args, **dev_kwargs)

        launch_arrays = [p.buffer.array for p in (*dev_args, *dev_kwargs.values())
                         if isinstance(p, Pointer)]
        per_wave, host_arrays = kernel_state(fn, dev_args, dev_kwargs, launch_arrays)
        checks = Checks.resolve(self.initcheck, self.synccheck, self.racecheck)
        shape = (self.grid, self.block, self.shared_bytes, arch.name, checks,
                 *(_cost_shape(v) for v in (*dev_args, *dev_kwargs.values())))
        memo = self.kernel.costs.setdefault(shape, Memo(matrix_work=self.kernel.matrix_work))
        grid = Grid(arch, name, body, self.grid, self.block, self.shared_bytes, n_waves, checks,
                    memo)
        with guard_host_arrays(host_arrays), (  # made after the guard is entered
                nullcontext() if self.numerics_name is None
                else use_numerics(self.numerics_name)):
            run(grid, per_wave)

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
    """Wave count of a block: its threads in waves, the last one partial when the count is
    not a multiple of the wave size (its other lanes are inactive, as HIP runs it); refuses
    blocks over HIP's 1024 threads."""
    threads = block.x * block.y * block.z
    wave = arch.wave_size
    if threads > MAX_THREADS_PER_BLOCK:
        raise LaunchError(
            f"block {block} has {threads} threads ({-(-threads // wave)} waves of {wave} "
            f"lanes); HIP allows at most {MAX_THREADS_PER_BLOCK} threads per block"
        )
    return -(-threads // wave)


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
        try:
            return Pointer.from_array(value, name, "kernel argument")
        except PointerTypeError as err:  # refused as Pointer.from_array refuses it
            raise LaunchTypeError(*err.args) from None
    return value
