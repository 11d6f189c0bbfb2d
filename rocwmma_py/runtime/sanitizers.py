"""Observers of memory accesses: the undo journal, LDS race tracking, global race tracking
(racecheck) and initcheck.

Every load and store goes through `memory.py` — `p[i]` and `p[i] = v`, gathers and
scatters, vector loads and stores, LDS, the fragment loads and stores — and passes the
observers here in one loop: memory asks `watching(buffer, ctx, write)` which observers
watch the access, describes it as an `Access` (which elements, by which lanes) and hands it
to `before_read`, or to `before_write` then (after the store) `after_write`. An access
nobody watches gets an empty tuple and costs nothing more. That answer is the only way a
fast path may skip work: the dense block read of `load_matrix_sync`
(`Pointer.read_blocks`) runs only for loads nobody watches; a watched load takes the
gather, so the observers see its elements and lanes as always.

An `Observer` says for which accesses it is `active` (from the buffer and the running
wave(s)' context), and may act `read` (before a load), `write` (before a store: memory still
holds the old values; raising refuses the access and nothing is written) and `wrote` (after
the store). They run in the order of `OBSERVERS`: the checks that may refuse an access
before the journal records it. A new check is one `Observer` subclass added there.

The observers' state lives where its scope is: LDS race history and initcheck's written bytes on
the LDS `Buffer` (`lds_state`, made when the buffer is), the global race history in the
launch's `races.GlobalRaces` (`WaveContext.global_races`), the journal in
`WaveContext.journal`. Atomics (`atomics.py`) are not races: they apply their writes and
journal them on their own path, using `InitCheck` for their reads of LDS.
"""

from __future__ import annotations

import weakref
from abc import ABC, abstractmethod
from typing import ClassVar, Protocol

import numpy as np

from .errors import GlobalRaceError, InitCheckError, LdsRaceError
from .races import EpochClock, EpochLog, Hull, RaceTracker, split_units
from .state import NeedsPerWave, WaveContext, current_context, where_text


class Buffer(Protocol):
    """What the observers read of a `memory.Buffer` (memory.py calls them: it is above)."""

    name: str
    lds: bool
    nbytes: int
    tracker: RaceTracker | EpochLog | None
    written: np.ndarray | None
    observers: tuple | None

    @property
    def segment_bytes(self) -> int: ...

    def typed(self, dtype: np.dtype) -> np.ndarray: ...

_VERBS = {
    "read-after-write": ("reads", "wrote"),
    "write-after-read": ("writes", "read"),
    "write-after-write": ("writes", "wrote"),
}


class Access:
    """One load or store as the observers see it: `buffer` accessed as `dtype` by the
    running wave(s) `ctx` (None outside a kernel).

    `addr` are the physical element indices of the whole access, lanes last (0-d: one
    address for every lane); `src` the positions of `addr.reshape(-1)` that are accessed
    (None: all of them); `flat` the accessed indices, `addr.reshape(-1)[src]` (a store:
    one per address, the value that lands there). `repeats`: a store where several lanes
    wrote one address and only the last is kept (`flat` has each address once)."""

    __slots__ = ("buffer", "dtype", "ctx", "addr", "src", "flat", "size", "repeats")

    def __init__(self, buffer: Buffer, dtype: np.dtype, ctx: WaveContext | None,
                 addr: np.ndarray, src: np.ndarray | None, flat: np.ndarray,
                 repeats: bool = False) -> None:
        self.buffer, self.dtype, self.ctx = buffer, dtype, ctx
        self.addr, self.src, self.flat = addr, src, flat
        self.size = flat.size
        self.repeats = repeats

    def context(self, what: str) -> WaveContext:
        """The running wave(s); NotInKernelError (naming `what`) outside a kernel."""
        return self.ctx if self.ctx is not None else current_context(what)

    def waves(self) -> np.ndarray | int:
        """Wave (within its block) of every accessed element, for race checks."""
        ctx = self.context("LDS access")
        if ctx.n_waves == 1:
            return ctx.wave_index
        waves = ctx.position_waves(self.addr.shape)
        return waves if self.src is None else waves[self.src]

    def wave_hull(self) -> Hull | None:
        """Each running wave's first and last element and its LDS segment (`races.Hull`),
        for a whole access of the running waves' lanes (lanes last, every element accessed;
        else None)."""
        ctx, addr = self.ctx, self.addr
        if ctx is None or self.src is not None or addr.ndim == 0 or not addr.size \
                or addr.shape[-1] != ctx.lanes:
            return None
        rows = addr.reshape(-1, addr.shape[-1])  # (registers, lanes): whole rows at once
        lo = rows.min(axis=0).reshape(ctx.n_waves, ctx.width).min(axis=1)
        hi = rows.max(axis=0).reshape(ctx.n_waves, ctx.width).max(axis=1)
        return Hull(lo, hi, ctx.block_slots, ctx.wave_ids)

    def where_in_block(self, pos: int, ctx: WaveContext) -> tuple[str, int]:
        """("lane l" or "every lane", element offset in the block's segment) of accessed
        element `pos`, for messages."""
        addr = self.addr
        if addr.ndim == 0:
            lane = "every lane"
        else:
            at = pos if self.src is None else int(self.src[pos])
            lane = f"lane {at % addr.shape[-1] % ctx.width}"
        segment = self.buffer.segment_bytes // self.dtype.itemsize
        return lane, int(self.flat[pos]) % segment


class BlockAccess(Access):
    """A dense block load (`Pointer.read_blocks`): one block per running wave, element
    (r, c) of wave w's at base[w] + r * strides[0] + c * strides[1] (physical element
    indices). Its elements have no lane (the fragment layout, which memory does not know,
    places them), so only observers that `see_blocks` get one, and their indices are made
    only when one asks for them (`flat`); `addr` holds each wave's first element."""

    __slots__ = ("base", "grid")

    def __init__(self, buffer: Buffer, dtype: np.dtype, ctx: WaveContext, base: np.ndarray,
                 shape: tuple[int, int], strides: tuple[int, int]) -> None:
        self.buffer, self.dtype, self.ctx = buffer, dtype, ctx
        self.base = base
        self.grid = strides[0] * np.arange(shape[0])[:, None] + strides[1] * np.arange(shape[1])
        self.addr = base  # (each wave's first element: the lanes' addresses are not made)
        self.src, self.repeats = None, False
        self.size = base.size * self.grid.size

    @property  # (a slot of Access, made here on demand)
    def flat(self) -> np.ndarray:  # type: ignore[override]
        return (self.base[:, None, None] + self.grid).reshape(-1)

    def waves(self) -> np.ndarray | int:
        return np.repeat(self.context("LDS access").wave_ids, self.grid.size)

    def wave_hull(self) -> Hull:
        ctx = self.context("LDS access")
        return Hull(self.base, self.base + int(self.grid.max()), ctx.block_slots, ctx.wave_ids)

    def where_in_block(self, pos: int, ctx: WaveContext) -> tuple[str, int]:
        segment = self.buffer.segment_bytes // self.dtype.itemsize
        return "a lane of its fragment", int(self.flat[pos]) % segment


class Observer(ABC):
    """A sanitizer or recorder that loads and stores pass (see the module docstring).
    `reads` / `writes`: whether it looks at loads / stores at all."""

    reads: ClassVar[bool] = True
    writes: ClassVar[bool] = True

    @abstractmethod
    def active(self, buffer: Buffer, ctx: WaveContext) -> bool:
        """Whether it watches accesses of `buffer` by the running wave(s) `ctx`."""

    def sees_blocks(self, buffer: Buffer) -> bool:
        """Whether it takes a fragment load or store of `buffer` as a `BlockAccess` (else
        those go the register path, each element with its lane)."""
        return False

    def read(self, access: Access) -> None:
        """Before a load; raise to refuse it."""
        return None  # (nothing to do by default)

    def write(self, access: Access) -> None:
        """Before a store (memory holds the old values); raise to refuse it."""
        return None  # (nothing to do by default)

    def wrote(self, access: Access) -> None:
        """After a store."""
        return None  # (nothing to do by default)

    def lets_pass(self, buffer: Buffer, dtype: np.dtype, ctx: WaveContext, low: int,
                  high: int) -> bool:
        """Whether a store by `ctx` to elements low..high (of `dtype`) of `buffer`, all or
        some of them, needs no look (asked before a plain store's `Access` is made)."""
        return False


class LdsRaceCheck(Observer):
    """LDS of a block with more than one wave (a lone wave cannot race with itself): two
    waves touching one element between barriers, one of them writing, raise LdsRaceError
    (`races.RaceTracker`, as it happens); a batch logs its accesses and checks them when
    the epoch closes (`races.EpochLog`, in `lds.BlockLds.next_epoch`)."""

    def active(self, buffer: Buffer, ctx: WaveContext) -> bool:
        return buffer.tracker is not None and ctx.waves_per_block > 1

    def sees_blocks(self, buffer: Buffer) -> bool:
        """A batch's log keeps the accesses for its epoch's check, where a race reruns the
        batch wave by wave, and there the register path names the lane."""
        return isinstance(buffer.tracker, EpochLog)

    def read(self, access: Access) -> None:
        if isinstance(access, BlockAccess):  # (sees_blocks: the tracker is an EpochLog)
            access.buffer.tracker.check_block_read(  # type: ignore[union-attr]
                access, access.dtype.itemsize)
            return
        self._check(access, write=False)

    def write(self, access: Access) -> None:
        ctx = access.context("LDS access")
        if access.repeats and ctx.n_waves > 1:
            raise NeedsPerWave  # maybe two waves write one element: check wave by wave
        if not isinstance(access.buffer.tracker, EpochLog):  # (a log checks at the epoch's
            self._check(access, write=True)  # end what `wrote` records)

    def wrote(self, access: Access) -> None:
        tracker = access.buffer.tracker
        if isinstance(tracker, EpochLog):
            tracker.record_write(access, access.dtype.itemsize)
        else:
            tracker.record_write(  # type: ignore[union-attr] # active: set
                access.flat, access.dtype.itemsize, access.waves())

    @staticmethod
    def _check(access: Access, *, write: bool) -> None:
        tracker = access.buffer.tracker
        assert tracker is not None  # active() checked it
        if write:  # (only per wave: a batch's log checks its stores at the epoch's end)
            assert isinstance(tracker, RaceTracker)
            conflict = tracker.check_write(access.flat, access.dtype.itemsize, access.waves())
        else:
            conflict = tracker.check_read(access.flat, access.dtype.itemsize, access.waves())
        if conflict is None:
            return
        ctx = access.context("LDS access")
        lane, offset = access.where_in_block(conflict.position, ctx)
        verb, other_verb = _VERBS[conflict.kind]
        raise LdsRaceError(
            f"LDS race ({conflict.kind}){where_text()}: wave {conflict.wave} ({lane}) {verb} "
            f"buffer '{access.buffer.name}' at element offset {offset} "
            f"({access.dtype}), which wave {conflict.other_wave} {other_verb} since the last "
            "barrier; missing synchronize_workgroup()?"
        )


class GlobalRaceCheck(Observer):
    """racecheck: a global access conflicting with one by another block, or by another
    wave of this block since the last barrier, raises GlobalRaceError (the launch's
    `races.GlobalRaces`: one history per buffer; the per-wave engine runs racecheck)."""

    def active(self, buffer: Buffer, ctx: WaveContext) -> bool:
        return ctx.global_races is not None and not buffer.lds

    def read(self, access: Access) -> None:
        self._check(access, write=False)

    def write(self, access: Access) -> None:
        self._check(access, write=True)

    def wrote(self, access: Access) -> None:
        ctx = access.context("racecheck")
        tracker = ctx.global_races.tracker(access.buffer, access.buffer.nbytes)
        tracker.record_write(access.flat, access.dtype.itemsize, ctx.wave_index,
                             int(ctx.block_ids[0]))

    @staticmethod
    def _check(access: Access, *, write: bool) -> None:
        ctx = access.context("racecheck")
        buffer = access.buffer
        tracker = ctx.global_races.tracker(buffer, buffer.nbytes)
        block, wave = int(ctx.block_ids[0]), ctx.wave_index
        check = tracker.check_write if write else tracker.check_read
        conflict = check(access.flat, access.dtype.itemsize, wave, block)
        if conflict is None:
            return
        lane, offset = access.where_in_block(conflict.position, ctx)
        verb, other_verb = _VERBS[conflict.kind]
        other = f"block {_block_text(ctx, conflict.other_block)}"
        if conflict.other_wave >= 0:
            other += f" wave {conflict.other_wave}"
        if conflict.other_block == block:
            when = "since the last barrier of the block; missing synchronize_workgroup()?"
        else:
            when = ("(blocks never synchronise: give each block its own elements or use "
                    "atomics)")
        raise GlobalRaceError(
            f"global memory race ({conflict.kind}) in kernel '{ctx.kernel_name}': block "
            f"{_block_text(ctx, block)} wave {wave} ({lane}) {verb} buffer "
            f"'{buffer.name}' at element offset {offset} ({access.dtype}), which "
            f"{other} {other_verb} {when}"
        )


class InitCheck(Observer):
    """initcheck of LDS: every byte read must have been written by some wave of the block
    (`Buffer.written`, one flag per byte, set by stores)."""

    def active(self, buffer: Buffer, ctx: WaveContext) -> bool:
        return buffer.written is not None

    def read(self, access: Access) -> None:
        written = access.buffer.written
        assert written is not None  # active() checked it
        flat, size = access.flat, access.dtype.itemsize
        unwritten = ~written[split_units(flat, size)].reshape(flat.size, size).all(axis=1)
        if not unwritten.any():
            return
        pos = int(np.argmax(unwritten))
        lane, offset = access.where_in_block(pos, access.context("LDS access"))
        raise InitCheckError(
            f"initcheck: {lane} reads LDS buffer '{access.buffer.name}' at element offset "
            f"{offset} ({access.dtype}), which no wave of the block has "
            f"written{where_text()}; LDS starts undefined on hardware"
        )

    def wrote(self, access: Access) -> None:
        access.buffer.written[  # type: ignore[index] # active() checked it
            split_units(access.flat, access.dtype.itemsize)] = True


class JournalRecord(Observer):
    """The batched engine's undo journal (and a worker's write log): a global store first
    records the values it overwrites (`WaveContext.journal`, `journal.Journal.record`)."""

    reads = False

    def active(self, buffer: Buffer, ctx: WaveContext) -> bool:
        return (ctx.journal is not None and not buffer.lds
                and not ctx.journal.covers(*_byte_range(buffer)))

    def sees_blocks(self, buffer: Buffer) -> bool:
        """It needs the stored elements only (`Access.flat`), never their lanes."""
        return True

    def lets_pass(self, buffer: Buffer, dtype: np.dtype, ctx: WaveContext, low: int,
                  high: int) -> bool:
        """Stores where the journal's snapshots hold the old values already."""
        return ctx.journal.holds(buffer.typed(dtype), low, high)

    def write(self, access: Access) -> None:
        typed = access.buffer.typed(access.dtype)
        flat = access.flat
        journal = access.context("a journaled store").journal
        journal.record(typed, flat, typed[flat])
        if journal.covers(*_byte_range(access.buffer)):  # a snapshot now: stores skip us
            access.buffer.observers = None  # (`watching` asks `active` again)


def _byte_range(buffer: Buffer) -> tuple[int, int]:
    """(address, size) of all of the buffer's bytes."""
    raw = buffer.typed(np.dtype(np.uint8))
    return raw.__array_interface__["data"][0], raw.nbytes


INITCHECK = InitCheck()
OBSERVERS: tuple[Observer, ...] = (LdsRaceCheck(), GlobalRaceCheck(), INITCHECK,
                                   JournalRecord())
_NONE: tuple[Observer, ...] = ()


def watching(buffer: Buffer, ctx: WaveContext | None, write: bool) -> tuple[Observer, ...]:
    """The observers an access of `buffer` by the running wave(s) `ctx` (None: outside a
    kernel) must pass, in order; empty when nothing watches it (then there is nothing to
    do). LDS outside a kernel raises NotInKernelError.

    `Observer.active` depends on the buffer and the context only, so the answer is kept on
    the buffer for its last context (`Buffer.observers`, a weak reference to it)."""
    if ctx is None:
        if buffer.lds:
            current_context("LDS access")  # raises
        return _NONE
    cached = buffer.observers
    if cached is None or cached[0]() is not ctx:
        active = [o for o in OBSERVERS if o.active(buffer, ctx)]
        reads = tuple(o for o in active if o.reads)
        writes = tuple(o for o in active if o.writes)
        cached = buffer.observers = (weakref.ref(ctx), reads or _NONE, writes or _NONE)
    return cached[2] if write else cached[1]


def store_watchers(observers: tuple[Observer, ...], buffer: Buffer, dtype: np.dtype,
                   ctx: WaveContext, low: int, high: int) -> tuple[Observer, ...]:
    """The `observers` of a plain store to elements low..high that do look at it."""
    return tuple(o for o in observers if not o.lets_pass(buffer, dtype, ctx, low, high))


def before_read(observers: tuple[Observer, ...], access: Access) -> None:
    """Every observer of a load, before its values are read."""
    if access.size:
        for observer in observers:
            observer.read(access)


def before_write(observers: tuple[Observer, ...], access: Access) -> None:
    """Every observer of a store, before memory changes (any may refuse it)."""
    if access.size:
        for observer in observers:
            observer.write(access)


def after_write(observers: tuple[Observer, ...], access: Access) -> None:
    """Every observer of a store, after memory changed."""
    if access.size:
        for observer in observers:
            observer.wrote(access)


def lds_state(nbytes: int, clock: EpochClock, initcheck: bool, deferred: bool
              ) -> tuple[RaceTracker | EpochLog, np.ndarray | None]:
    """What the observers keep per LDS buffer of `nbytes` (all segments): its race history
    (checked per epoch when `deferred`, a batch's) and, under initcheck, which bytes have
    been written."""
    tracker = EpochLog(nbytes) if deferred else RaceTracker(nbytes, clock)
    return tracker, (np.zeros(nbytes, bool) if initcheck else None)


def _block_text(ctx: WaveContext, block: int) -> str:
    """"(x,y,z)" of a linear block index (x fastest)."""
    gx, gy = ctx.grid_dim.x, ctx.grid_dim.y
    return f"({block % gx},{block // gx % gy},{block // (gx * gy)})"
