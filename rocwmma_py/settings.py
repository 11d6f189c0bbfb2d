"""Every setting of the emulator in one place: what launches target and how they run.

Each setting is, innermost first: a `with use_<name>(value):` block, the environment
variable `$ROCWMMA_PY_<NAME>` (read at each use: a change applies to the next launch), else
its default. A launch's own options (its 4th slot `k[grid, block, lds, "gfx1100"]`,
`.checked(...)`, `.numerics(...)`) take precedence over all three. The settings are the
`Setting` rows `ARCH` ... `RACECHECK` below (docs/guide/kernels.md#settings has them as a
table); on/off settings take True/False in Python, 1/true/yes/on or 0/false/no/off in their
variable. A value a setting does not take raises its error, a `ConfigError` (`ArchError`,
`WorkerCountError`, `NumericsError` for those three), naming where the value came from and
the values allowed.

The with-blocks are `contextvars` values: they nest (innermost wins) and belong to the
thread or asyncio task that entered them; the per-wave engine's wave threads and the worker
processes start from the launcher's. `current_settings()` shows every setting's effective
value and where it came from.

`use_<name>(value)` checks `value` at once but changes nothing until entered. A call cannot
know whether `with` follows it, so a bare `use_engine("wave")` is caught when its result is
dropped unentered: it warns (`SettingNotEnteredWarning`, at the call's line), as Python warns
of a coroutine never awaited.
"""

from __future__ import annotations

import operator
import os
import sys
import warnings
from collections.abc import Callable
from contextvars import ContextVar, Token
from dataclasses import dataclass
from typing import Any, Generic, Protocol, SupportsIndex, TypeVar

from .arch import DEFAULT_ARCH, Arch, get_arch
from .errors import ArchError, ConfigError, NumericsError, WorkerCountError

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)

_ON, _OFF = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


class SettingNotEnteredWarning(UserWarning):
    """A `use_<name>(...)` result dropped without `with`: the setting never changed."""


class Kind(Protocol[T_co]):
    """The values a setting takes; each refusal (a ConfigError) says which are allowed."""

    def check(self, value: object, /) -> T_co:
        """A value given in Python (`use_<name>(value)`) as the setting's value."""
        ...

    def parse(self, text: str, /) -> T_co:
        """The environment variable's text (stripped, not empty) as the setting's value."""
        ...


class Choice:
    """One of a few names, spelled exactly (no case folding)."""

    def __init__(self, noun: str, *names: str) -> None:
        self.names = names
        self.refusal = f"unknown {noun}; allowed: {', '.join(repr(n) for n in names)}"

    def check(self, value: object) -> str:
        if not isinstance(value, str) or value not in self.names:
            raise ConfigError(self.refusal)
        return value

    parse = check


class PositiveInt:
    """A positive integer: an int (not a bool) in Python, decimal digits in the variable."""

    def __init__(self, meaning: str) -> None:
        self.refusal = f"give a positive integer ({meaning})"

    def check(self, value: object) -> int:
        if (isinstance(value, bool) or not isinstance(value, SupportsIndex)
                or operator.index(value) < 1):
            raise ConfigError(self.refusal)
        return operator.index(value)

    def parse(self, text: str) -> int:
        if not (text.isascii() and text.isdigit()):  # int() would take "+3", "1_0", "٣"
            raise ConfigError(self.refusal)
        return self.check(int(text))


class Flag:
    """On or off: True or False in Python, 1/true/yes/on or 0/false/no/off in the variable."""

    def check(self, value: object) -> bool:
        if not isinstance(value, bool):
            raise ConfigError("use True (on) or False (off)")
        return value

    def parse(self, text: str) -> bool:
        word = text.lower()
        if word not in _ON + _OFF:
            raise ConfigError(f"use 1 (on) or 0 (off), or one of {'/'.join(_ON[1:])} and "
                              f"{'/'.join(_OFF[1:])}")
        return word in _ON


class Target:
    """A target: an `Arch`, or its name in any case (`get_arch` lists the valid ones)."""

    def check(self, value: object) -> Arch:
        return get_arch(value if isinstance(value, Arch) else str(value))

    parse = check


@dataclass(frozen=True)
class SettingValue(Generic[T]):
    """A setting's effective value and where it came from: "context" (a `use_<name>`
    with-block), "env" (its environment variable) or "default"."""

    value: T
    source: str


class Setting(Generic[T]):
    """One setting: its name (`use_<name>`, the key of `current_settings()`), environment
    variable, the values it takes, its default and the error a value it does not take
    raises; the with-blocks of `use_<name>` are a ContextVar of it."""

    def __init__(self, name: str, env_var: str, kind: Kind[T], default: Callable[[], T],
                 error: type[ConfigError] = ConfigError) -> None:
        self.name, self.env_var, self.kind, self.default, self.error = (
            name, env_var, kind, default, error)
        self.override: ContextVar[T | None] = ContextVar(f"rocwmma_py_{name}", default=None)

    def check(self, value: object, where: str) -> T:
        """`value` as this setting's value; else `error`, naming `where` it came from."""
        return self._valid(self.kind.check, value, where)

    def lookup(self) -> SettingValue[T]:
        """The innermost `use_<name>` block's value, else the variable's, else the default."""
        value = self.override.get()
        if value is not None:
            return SettingValue(value, "context")
        text = os.environ.get(self.env_var, "").strip()
        if not text:
            return SettingValue(self.default(), "default")
        return SettingValue(self._valid(self.kind.parse, text, f"${self.env_var}={text!r}"),
                            "env")

    def get(self) -> T:
        """The effective value (see `lookup`)."""
        return self.lookup().value

    def use(self, value: object) -> SettingOverride[T]:
        """A context manager making the setting `value` inside its with-block; `value` is
        checked now."""
        call = f"use_{self.name}({value!r})"
        return SettingOverride(self, self.check(value, call), call)

    def _valid(self, convert: Callable[[Any], T], value: object, where: str) -> T:
        try:
            return convert(value)
        except ConfigError as err:  # the refusal names the allowed values; add where
            raise self.error(f"{where}: {err}") from None


class SettingOverride(Generic[T]):
    """`with use_<name>(value):` — the setting is `value` inside the block, which yields it.
    Dropped without having been entered, it warns: a bare call changes nothing."""

    def __init__(self, setting: Setting[T], value: T, call: str) -> None:
        self.setting, self.value, self.call = setting, value, call
        self._tokens: list[Token[T | None]] = []  # one per entry not yet exited
        self._entered = False

    def __enter__(self) -> T:
        self._entered = True
        self._tokens.append(self.setting.override.set(self.value))
        return self.value

    def __exit__(self, *exc_info: object) -> None:
        self.setting.override.reset(self._tokens.pop())

    def __del__(self) -> None:
        # A bare `use_x(...)` statement drops the override as soon as it returns, so the
        # frame running when it is collected (stacklevel 2) is the caller's line.
        if not self._entered:
            warnings.warn(f"{self.call} was never entered, so it changed nothing; "
                          f"use `with {self.call}:`", SettingNotEnteredWarning, stacklevel=2)


def default_workers() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # platforms without affinity
        return os.cpu_count() or 1


ARCH = Setting("arch", "ROCWMMA_PY_ARCH", Target(), lambda: get_arch(DEFAULT_ARCH), ArchError)
ENGINE = Setting("engine", "ROCWMMA_PY_ENGINE", Choice("engine", "batch", "wave"),
                 lambda: "batch")
WORKERS = Setting("workers", "ROCWMMA_PY_WORKERS",
                  PositiveInt("1 runs launches in this process only"), default_workers,
                  WorkerCountError)
NUMERICS = Setting("numerics", "ROCWMMA_PY_NUMERICS",
                   Choice("numerics model", "silicon", "exact"), lambda: "silicon",
                   NumericsError)
BATCH_LANES = Setting("batch_lanes", "ROCWMMA_PY_BATCH_LANES",
                      PositiveInt("lanes, waves x wave size, a batch aims for"), lambda: 32768)
BATCH_BYTES = Setting("batch_bytes", "ROCWMMA_PY_BATCH_BYTES",
                      PositiveInt("bytes a batch's undo journal may hold"), lambda: 256 << 20)
PROGRESS = Setting("progress", "ROCWMMA_PY_PROGRESS", Flag(), lambda: sys.stderr.isatty())
INITCHECK = Setting("initcheck", "ROCWMMA_PY_INITCHECK", Flag(), lambda: False)
SYNCCHECK = Setting("synccheck", "ROCWMMA_PY_SYNCCHECK", Flag(), lambda: False)
RACECHECK = Setting("racecheck", "ROCWMMA_PY_RACECHECK", Flag(), lambda: False)
SETTINGS: tuple[Setting[Any], ...] = (ARCH, ENGINE, WORKERS, NUMERICS, BATCH_LANES,
                                      BATCH_BYTES, PROGRESS, INITCHECK, SYNCCHECK, RACECHECK)


def current_settings() -> dict[str, SettingValue[Any]]:
    """Every setting's effective value here and now, and where it came from: "context" (a
    `use_<name>` with-block), "env" (its `ROCWMMA_PY_*` variable) or "default".

    Raises:
        ConfigError: a variable set to a value its setting does not take.

    Example:
        >>> from rocwmma_py import current_settings, use_engine
        >>> with use_engine("wave"):
        ...     current_settings()["engine"]
        SettingValue(value='wave', source='context')
    """
    return {setting.name: setting.lookup() for setting in SETTINGS}


def default_arch() -> str:
    """Target name for launches without an explicit arch: use_arch > $ROCWMMA_PY_ARCH > gfx942."""
    return ARCH.get().name


def engine_name() -> str:
    """The engine of launches: innermost `use_engine` > $ROCWMMA_PY_ENGINE > "batch"."""
    return ENGINE.get()


def worker_count() -> int:
    """Worker processes of launches: innermost `use_workers` > $ROCWMMA_PY_WORKERS > the cores
    this process may use. 1 runs every launch in this process."""
    return WORKERS.get()


def batch_lanes() -> int:
    """Lanes (waves x wave size) a batch aims for: $ROCWMMA_PY_BATCH_LANES or 32768."""
    return BATCH_LANES.get()


def batch_bytes() -> int:
    """Bytes one batch's undo journal may hold: $ROCWMMA_PY_BATCH_BYTES or 256 MiB."""
    return BATCH_BYTES.get()


def use_arch(name: str | Arch) -> SettingOverride[Arch]:
    """Make `name` the target of launches (and `current_arch()`) inside the with-block.

    Blocks nest (innermost wins) and are per thread/context; a launch's explicit 4th slot
    (`k[grid, block, lds, "gfx1100"]`) still takes precedence.

    Args:
        name: a target name ("gfx942", "gfx1100", ...), a product or generation name
            ("MI300X", "RX 7900 XTX", "CDNA3": `rocwmma_py.arch.aliases`) or an `Arch`.

    Raises:
        ArchError: an unknown target name, raised from the caller's line (the message gives
            the closest names and lists the valid ones).

    Example:
        >>> from rocwmma_py import use_arch, current_arch
        >>> with use_arch("gfx1100") as arch:
        ...     arch.wave_size, current_arch().name
        (32, 'gfx1100')
    """
    try:
        return ARCH.use(name)
    except ArchError as err:
        from .runtime.tracebacks import trim_kernel_traceback  # (runtime imports settings)

        trim_kernel_traceback(err)
        raise


def use_engine(name: str) -> SettingOverride[str]:
    """Run launches inside the with-block on engine `name`: "batch" or "wave" (per wave).

    "batch" (the default) runs the kernel's Python once for many waves; "wave" runs each
    wave on its own, the reference semantics. Both give the same results, errors and memory.

    Raises:
        ConfigError: an unknown engine name (the message lists the valid ones).

    Example:
        >>> import numpy as np
        >>> from rocwmma_py import kernel, threadIdx, use_engine
        >>> @kernel
        ... def iota(x):
        ...     x[threadIdx.x] = threadIdx.x
        >>> x = np.zeros(64, np.int32)
        >>> with use_engine("wave"):
        ...     iota[1, 64](x)
        >>> int(x[63])
        63
    """
    return ENGINE.use(name)


def use_workers(count: int) -> SettingOverride[int]:
    """Spread launches inside the with-block over `count` worker processes (1: none).

    Raises:
        WorkerCountError: `count` is not a positive int.
    """
    return WORKERS.use(count)


def use_numerics(name: str) -> SettingOverride[str]:
    """Compute every matrix instruction inside the with-block with numerics `name`
    ("silicon" or "exact"), on every path (builtins, mma_sync, both engines).

    Raises:
        NumericsError: another name (the message lists the allowed ones).
    """
    return NUMERICS.use(name)


def use_batch_lanes(lanes: int) -> SettingOverride[int]:
    """Batches of about `lanes` lanes (waves x wave size) inside the with-block."""
    return BATCH_LANES.use(lanes)


def use_batch_bytes(budget: int) -> SettingOverride[int]:
    """At most `budget` bytes in one batch's undo journal inside the with-block (a batch
    over it reruns in smaller batches)."""
    return BATCH_BYTES.use(budget)


def use_progress(show: bool) -> SettingOverride[bool]:
    """Show the progress bar of long launches inside the with-block (True), even when stderr
    is not a terminal, or never (False)."""
    return PROGRESS.use(show)


def use_initcheck(on: bool) -> SettingOverride[bool]:
    """The initcheck sanitizer on or off for launches inside the with-block."""
    return INITCHECK.use(on)


def use_synccheck(on: bool) -> SettingOverride[bool]:
    """The synccheck sanitizer on or off for launches inside the with-block."""
    return SYNCCHECK.use(on)


def use_racecheck(on: bool) -> SettingOverride[bool]:
    """The racecheck sanitizer on or off for launches inside the with-block."""
    return RACECHECK.use(on)
