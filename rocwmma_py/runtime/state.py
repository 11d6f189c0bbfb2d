"""Execution state of the running waves: the bottom of the runtime.

One `WaveContext` describes what is running: a single wave (the per-wave engine) or a batch
of waves that the batched engine runs through the kernel's Python code together. In a batch,
every per-lane value holds the lanes of all its waves, wave-major with the lane axis last
(shape (waves * W,)), and `blockIdx` components are per-lane values too. Values, memory, LDS
and the engines read this record; it imports none of them.
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import on_error_created
from .dims import Dim3
from .errors import NotInKernelError

PER_WAVE = "per wave"  # WaveContext.taint of a batch that must rerun wave by wave


class BatchSplit(BaseException):  # noqa: N818 - a control-flow signal, not an error
    """A Python branch/loop bound of a batch has different values in different waves.

    `values[w]` is the (wave-uniform) value wave w saw; `cause` says why, where it is not a
    Python branch (LDS atomics that need their block's waves in turns). A BaseException, so
    kernel code's `except Exception:` cannot swallow it.
    """

    def __init__(self, values: np.ndarray, cause: str = "") -> None:
        super().__init__("batch split")
        self.values = values
        self.cause = cause
        taint_running_batch(split=self)


class NeedsPerWave(BaseException):  # noqa: N818 - a control-flow signal, not an error
    """The kernel did something that only the per-wave engine defines (current_wave(), a
    reduction across lanes, lanes diverging inside one wave): rerun those waves one by one."""

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        taint_running_batch()


class NeedsFullWidth(NeedsPerWave):
    """A batch that runs blocks narrower than a wave at their threads' width (per-lane values
    hold only those lanes, `WaveContext.narrow`) met an operation that sees whole waves
    (cross-lane reads past the threads, fragments, matrix builtins, plain arrays of lane
    data): rerun the batch with whole waves. Everything that handles NeedsPerWave reruns
    it correctly as well (wave by wave)."""


class NeedsBlockOrder(BaseException):  # noqa: N818 - a control-flow signal, not an error
    """An order-sensitive operation (an atomic) of a batch that split ran out of block order:
    undo the whole top-level batch and rerun its blocks wave by wave, in order."""


@dataclass(eq=False)
class WaveContext:
    """Everything the running wave(s) of a kernel can ask about themselves."""

    arch: Any  # arch.Arch
    kernel_name: str
    waves_per_block: int
    block_dim: Dim3
    grid_dim: Dim3
    wave_ids: np.ndarray  # (n,) index of each running wave within its block
    block_ids: np.ndarray  # (n,) linear index (x fastest) of each running wave's block
    block_slots: np.ndarray  # (n,) which of the batch's blocks (LDS segment) each wave is in
    thread_idx: tuple  # three per-lane values (Lanes), shape (n * W,)
    lane_ids: Any  # Lanes 0..W-1 of every wave, shape (n * W,)
    block_idx: tuple  # ints for a single wave; per-lane values for a batch
    lds: Any  # lds.BlockLds of the batch's blocks
    batched: bool = False
    scheduler: Any = None  # per-wave engine: WaveScheduler of a multi-wave block
    lds_calls: int = 0  # shared_array() calls made so far (k-th call -> k-th buffer)
    journal: Any = None  # journal.Journal recording global writes while they may be undone
    masks: list = field(default_factory=list)  # active `where(cond)` lane masks, innermost last
    # (lanes,) lanes that are threads of their block, None when all are: a block whose thread
    # count is not a multiple of the wave size ends in a partial wave, whose other lanes are
    # off in EXEC from the start (masks[0] is then this mask, so `where` and every op see it)
    live: np.ndarray | None = None
    checks: Any = None  # checks.Checks of the launch (None: all off)
    global_races: Any = None  # races.GlobalRaces of a launch under racecheck
    taint: BatchSplit | str | None = None  # see taint_running_batch
    # lanes per wave in per-lane values when a batch runs blocks narrower than a wave with
    # only their threads' lanes (0: whole waves), see `width` and `NeedsFullWidth`
    narrow: int = 0
    _position_waves: dict = field(default_factory=dict, repr=False)
    _lane_bases: np.ndarray | None = field(default=None, repr=False)
    _live_prefix: int | None = field(default=None, repr=False)

    @property
    def wave_size(self) -> int:
        """The target's wave size: what the kernel sees (warpSize, lane masks, shuffles)."""
        return self.arch.wave_size

    @property
    def width(self) -> int:
        """Lanes per wave in a per-lane value: the wave size, or a narrow batch's threads."""
        return self.narrow or self.arch.wave_size

    def whole_waves(self) -> None:
        """Raise NeedsFullWidth in a narrow batch: the caller needs every lane of a wave."""
        if self.narrow:
            raise NeedsFullWidth

    @property
    def n_waves(self) -> int:
        return self.wave_ids.size

    @property
    def lanes(self) -> int:
        """Length of a per-lane value: all lanes of all running waves."""
        return self.wave_ids.size * self.width

    @property
    def wave_index(self) -> int:
        return int(self.wave_ids[0])

    @property
    def block_index(self) -> Dim3:
        block, gx, gy = int(self.block_ids[0]), self.grid_dim.x, self.grid_dim.y
        return Dim3(block % gx, block // gx % gy, block // (gx * gy))

    def where(self) -> str:
        """Location for error messages: "kernel 'foo' (block (0,0,0), wave 1)"."""
        if self.n_waves == 1:
            return f"kernel '{self.kernel_name}' (block {self.block_index}, wave {self.wave_index})"
        return (f"kernel '{self.kernel_name}' (batch of {self.n_waves} waves, blocks "
                f"{int(self.block_ids[0])}..{int(self.block_ids[-1])})")

    def position_waves(self, shape: tuple[int, ...]) -> np.ndarray:
        """Wave (within its block) of every position of a lanes-last array, flattened."""
        waves = self._position_waves.get(shape)
        if waves is None:
            per_lane = np.repeat(self.wave_ids, self.width)
            waves = np.broadcast_to(per_lane, shape).reshape(-1)
            self._position_waves[shape] = waves
        return waves

    def lane_bases(self) -> np.ndarray:
        """Position of each lane's wave in a per-lane value: lane l of wave w -> w * W."""
        if self._lane_bases is None:
            width = self.width
            self._lane_bases = np.repeat(np.arange(self.n_waves) * width, width)
        return self._lane_bases

    def live_prefix(self) -> int:
        """p when the live lanes are lanes [0, p) of every wave (blocks narrower than a wave:
        a strided view then picks them, with no index), else 0."""
        if self._live_prefix is None:
            p = 0
            if self.live is not None:
                rows = self.live.reshape(self.n_waves, self.width)
                first = int(np.argmin(rows[0]))  # the first wave's first off lane
                if rows[:, :first].all() and not rows[:, first:].any():
                    p = first
            self._live_prefix = p
        return self._live_prefix

    def raise_if_tainted(self) -> None:
        """A batch whose kernel code caught an error or an engine signal ran past a point
        where its waves would not all have done the same: raise the signal that reruns it
        (split by the values of a swallowed split, else wave by wave)."""
        if isinstance(self.taint, BatchSplit):
            raise BatchSplit(self.taint.values, self.taint.cause)
        if self.taint is not None:
            raise NeedsPerWave

    @property
    def initcheck(self) -> bool:
        return self.checks is not None and self.checks.initcheck

    def active_mask(self) -> np.ndarray | None:
        """Lanes enabled by the enclosing `where(...)` blocks, or None when all are."""
        return self.masks[-1] if self.masks else None


_local = threading.local()


def current_context_or_none() -> WaveContext | None:
    """The running wave(s) of this thread, or None outside a kernel."""
    return getattr(_local, "wave", None)


def current_context(what: str) -> WaveContext:
    """The running wave(s); raises NotInKernelError outside a kernel."""
    ctx = getattr(_local, "wave", None)
    if ctx is None:
        raise NotInKernelError(
            f"{what} works only inside a kernel launched with kernel[grid, block](...)"
        )
    return ctx


def current_wave(what: str = "current_wave()") -> WaveContext:
    """The running wave (public): per-wave identity, so a batch reruns wave by wave."""
    ctx = current_context(what)
    if ctx.batched:
        raise NeedsPerWave
    return ctx


def where_text() -> str:
    """Location suffix for messages: " in kernel 'foo' (block ..., wave 1)", or "" outside."""
    ctx = current_context_or_none()
    return f" in {ctx.where()}" if ctx is not None else ""


@contextmanager
def running(ctx: WaveContext) -> Iterator[None]:
    """`ctx` is this thread's running wave(s) inside the with-block, the previous one again
    after it. Switching is idempotent and happens inside the block's try, and a switch back
    cut short by an interrupt (a signal handler's exception) is done again before the
    interrupt goes on, so an interrupt at any point leaves the previous wave(s) running.
    While code that may still be undone runs in any thread (a batch, or waves rerun inside
    a batch's attempt), the launch's guarded host arrays are read-only."""
    previous = getattr(_local, "wave", None)
    try:
        _switch(ctx)
        yield
    finally:
        try:
            _switch(previous)
        except BaseException:
            _switch(previous)
            raise


def _switch(ctx: WaveContext | None) -> None:
    """Make `ctx` the running wave(s). Every step can be repeated, so a switch cut short is
    finished by the next one, and no step takes a lock (an interrupt between a lock's
    acquire and its release would leave it held): each thread sets the guarded arrays from
    the set of undoable threads and sets them again until that set stayed the same across
    its writes, so the last thread to change the set leaves them right."""
    _local.wave = ctx
    me = threading.get_ident()
    if ctx is not None and (ctx.batched or ctx.journal is not None):
        _undoable_threads.add(me)
    else:
        _undoable_threads.discard(me)
    while True:
        writeable = not _undoable_threads
        for array, was_writeable in _guarded:
            if was_writeable:
                array.flags.writeable = writeable
        if writeable == (not _undoable_threads):
            return


def running_stale() -> bool:
    """Whether this thread still has a running wave, or counts as running undoable code,
    outside every kernel (what an interrupt must never leave behind)."""
    return (getattr(_local, "wave", None) is not None
            or threading.get_ident() in _undoable_threads)


_guarded: list[tuple[np.ndarray, bool]] = []  # (array, was writeable) of the running launch
_undoable_threads: set[int] = set()  # threads whose running wave(s) may still be undone


@contextmanager
def guard_host_arrays(arrays: list[np.ndarray]) -> Iterator[None]:
    """Make `arrays` (host arrays a kernel reaches through globals or closures, not through
    a pointer argument) read-only whenever code runs that the engine may still undo (see
    `running`): writing one there fails, the engine undoes the batch and reruns its blocks
    wave by wave, where the arrays are writable, so they see exactly the per-wave writes."""
    previous = list(_guarded)
    _guarded[:] = [(a, bool(a.flags.writeable)) for a in arrays]
    try:
        yield
    finally:
        for array, writeable in _guarded:
            if writeable:
                array.flags.writeable = True
        _guarded[:] = previous


def taint_running_batch(ctx: WaveContext | None = None, split: BatchSplit | None = None) -> None:
    """Mark the running batch as needing a rerun: a BatchSplit (`split`, whose values tell
    how to split), NeedsPerWave or an error (rerun wave by wave) was raised, and kernel code
    may catch it. The engine checks the mark when the batch ends (`raise_if_tainted`), so a
    caught error or a swallowed signal never gives the whole batch one block's path."""
    if ctx is None:
        ctx = getattr(_local, "wave", None)
    if ctx is None or not ctx.batched:
        return
    if split is None:
        ctx.taint = PER_WAVE
    elif ctx.taint is None:
        ctx.taint = split


def _taint_on_error(err: BaseException) -> None:
    taint_running_batch()


on_error_created(_taint_on_error)


def note_where(err: BaseException, ctx: WaveContext) -> None:
    """Add "raised in kernel 'k' (block ..., wave ...)" to a traceback; the message is kept.

    Python 3.10 has no `add_note`: the note goes into `__notes__` all the same (what 3.11's
    add_note does), so code reading it works on both; only 3.11+ tracebacks print it."""
    note = f"raised in {ctx.where()}"
    if hasattr(err, "add_note"):
        err.add_note(note)
    else:
        setattr(err, "__notes__", [*getattr(err, "__notes__", []), note])  # noqa: B010 - 3.10


_order_sensitive_ops = 0
_order_sensitive_cause = ""


def note_order_sensitive(cause: str) -> None:
    """An operation whose result may depend on the order of blocks across the launch ran
    (`cause` names it, e.g. a float or exchange atomic on global memory): a launch spread
    over worker processes must then rerun in block order."""
    global _order_sensitive_ops, _order_sensitive_cause
    _order_sensitive_ops += 1
    _order_sensitive_cause = cause


def order_sensitive_ops() -> int:
    """How many order-sensitive operations this process has run (see note_order_sensitive)."""
    return _order_sensitive_ops


def order_sensitive_cause() -> str:
    """What the latest order-sensitive operation was (see note_order_sensitive)."""
    return _order_sensitive_cause


@dataclass(frozen=True)
class AtomicHits:
    """One global atomic call's addresses: element indices `flat` (distinct, ascending) of
    the `itemsize`-byte view at `address` of buffer `name`, and the lowest and highest block
    whose lanes hit each."""

    address: int
    itemsize: int
    name: str
    flat: np.ndarray
    first: np.ndarray
    last: np.ndarray


# A context variable, not thread-local state: the wave threads of a block (and of a batch's
# wave groups) run in copies of the launching thread's context, so they log into its list.
_atomic_log: contextvars.ContextVar[list[AtomicHits] | None] = contextvars.ContextVar(
    "rocwmma_py_atomic_log", default=None)


def global_atomic_log() -> list[AtomicHits] | None:
    """Where the running launch's global atomics that do not depend on block order
    (commutative integer ops) note their addresses, or None when no one asks (see
    `logging_atomics`)."""
    return _atomic_log.get()


@contextmanager
def logging_atomics() -> Iterator[list[AtomicHits]]:
    """Collect the addresses of the global atomics of the blocks run in the with-block, their
    wave threads included (worker processes check that a piece's atomics met no address an
    earlier piece wrote)."""
    log: list[AtomicHits] = []
    token = _atomic_log.set(log)
    try:
        yield log
    finally:
        _atomic_log.reset(token)
