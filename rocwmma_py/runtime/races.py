"""Race detection: per byte, who last wrote/read it and in which barrier interval (the
histories; `sanitizers.py` feeds them every access and words the reports).

A block's barrier epoch advances at every barrier release. Two different waves touching
the same byte in the same epoch, at least one of them writing, is a race on hardware (the
waves run concurrently there); here it is caught deterministically. For global memory
(racecheck, `GlobalRaces`) the tracker also keeps which block touched a byte: blocks never
synchronise, so two different blocks touching one byte, one of them writing, race whenever
it happens; the epoch is then that of the running block. One access may come
from many waves at once (the batched engine): `wave` is then one wave index per element
(the engine reruns wave by wave an access where two lanes write one element). The element
indices of a batch's blocks are disjoint (one LDS segment per block), so waves of different
blocks never meet.

History is kept per unit of `unit` bytes: the element size of the accesses seen so far (a
buffer is almost always accessed with one element type), refined to a common divisor when an
access of another size arrives, so the common case tracks each element once, not each byte.
"""

from __future__ import annotations

from math import gcd
from typing import Any, NamedTuple, Protocol

import numpy as np


class EpochClock(Protocol):
    @property
    def epoch(self) -> int: ...


class Conflict(NamedTuple):
    """First conflicting element of an access: its position in the access, the waves and
    (global memory) the blocks."""

    position: int
    wave: int
    other_wave: int
    kind: str  # "read-after-write", "write-after-read", "write-after-write"
    other_block: int = -1  # the other access's linear block (global memory only)


def split_units(flat: np.ndarray, per: int) -> np.ndarray:
    """Indices of the `per` consecutive units that make up each of the elements `flat`."""
    if per == 1:
        return flat
    return (flat[:, None] * per + np.arange(per)).reshape(-1)


def _unit_hulls(writes: list[tuple[Written, int]], unit: int) -> Hull | None:
    """Every write's per-wave hulls (`EpochLog.record_write`'s stores and item sizes) in
    `unit`-byte units, one after another; None when a write has none."""
    made = []
    for access, size in writes:
        hull = access.wave_hull()
        if hull is None:
            return None
        per = size // unit
        made.append(Hull(hull.lo * per, hull.hi * per + (per - 1), hull.slots, hull.waves))
    return Hull(*(np.concatenate(parts) for parts in zip(*made, strict=True)))


def _apart(hulls: Hull) -> bool:
    """No two waves' hulls (physical units: different LDS segments never overlap) share a
    unit, so no unit has two writers. One wave's writes may overlap each other (a wave
    writing a unit twice is no race): each wave's are taken as one span first."""
    spans = _wave_spans(hulls)
    order = np.argsort(spans.lo, kind="stable")
    return bool(np.all(np.maximum.accumulate(spans.hi[order])[:-1] < spans.lo[order][1:]))


def _wave_spans(hulls: Hull) -> Hull:
    """One hull per wave (LDS segment and wave of the block): from the first unit of its
    hulls to the last."""
    key = hulls.slots.astype(np.int64) * (int(hulls.waves.max(initial=0)) + 1) + hulls.waves
    waves, at = np.unique(key, return_inverse=True)
    if waves.size == key.size:  # one hull per wave already
        return hulls
    lo = np.full(waves.size, np.iinfo(np.int64).max)
    hi = np.full(waves.size, np.iinfo(np.int64).min)
    np.minimum.at(lo, at, hulls.lo)
    np.maximum.at(hi, at, hulls.hi)
    one = np.empty(waves.size, np.int64)
    one[at] = np.arange(key.size)  # some hull of each wave: its slot and wave
    return Hull(lo, hi, hulls.slots[one], hulls.waves[one])


def _segment_spans(written: Hull) -> tuple[np.ndarray, np.ndarray]:
    """Per LDS segment (block slot), the first and last unit written (none: max, -1)."""
    slots = int(written.slots.max(initial=0)) + 1
    lo = np.full(slots, np.iinfo(np.int64).max)
    hi = np.full(slots, -1, np.int64)
    np.minimum.at(lo, written.slots, written.lo)
    np.maximum.at(hi, written.slots, written.hi)
    return lo, hi


def _may_meet(hull: Hull, per: int, spans: tuple[np.ndarray, np.ndarray]) -> bool:
    """Whether some wave's units of a read (`hull`, `per` units an element) reach into the
    span of the units written in its LDS segment (`_segment_spans`)."""
    lo, hi = spans
    slots = np.minimum(hull.slots, lo.size - 1)  # (a slot past them: nothing written there)
    return bool(np.any((hull.slots < lo.size) & (hull.lo * per <= hi[slots])
                       & (hull.hi * per + (per - 1) >= lo[slots])))


def _bit(wave: np.ndarray | int) -> np.ndarray:
    return np.left_shift(np.uint32(1), np.asarray(wave, dtype=np.uint32))


_NARROWED = 8  # wave arrays whose int8 copies an EpochLog keeps
_HISTORY = ("_writer", "_write_epoch", "_readers", "_read_epoch",
            "_write_block", "_read_block", "_other_reader_block")


class RaceTracker:
    """Access history of one LDS buffer (all segments), or of one global buffer with
    `blocks=True` (blocks run one after another: the per-wave engine)."""

    def __init__(self, nbytes: int, clock: EpochClock, blocks: bool = False) -> None:
        self._clock = clock
        self._nbytes = nbytes
        self._blocks = blocks
        self._unit = 0  # bytes per tracked unit; 0 until the first access

    def _allocate(self, unit: int) -> None:
        units = self._nbytes // unit
        self._unit = unit
        self._writer = np.full(units, -1, np.int8)
        self._write_epoch = np.full(units, -1, np.int32)
        self._readers = np.zeros(units, np.uint32)  # bit w set: wave w read it in read_epoch
        self._read_epoch = np.full(units, -1, np.int32)
        if self._blocks:  # the block of the last write, of the last reads (whose waves are
            # `_readers`), and another block that read it earlier
            self._write_block = np.full(units, -1, np.int64)
            self._read_block = np.full(units, -1, np.int64)
            self._other_reader_block = np.full(units, -1, np.int64)

    def _refine(self, unit: int) -> None:
        """Track in smaller units from now on (an access of another element size)."""
        factor = self._unit // unit
        for name in _HISTORY:
            if hasattr(self, name):
                setattr(self, name, np.repeat(getattr(self, name), factor))
        self._unit = unit

    def _units(self, flat: np.ndarray, itemsize: int, wave: np.ndarray | int
               ) -> tuple[np.ndarray, np.ndarray | int, int]:
        """(unit indices, wave per unit, units per element) of elements of `itemsize`."""
        if self._unit == 0:
            self._allocate(itemsize)
        elif itemsize % self._unit:
            self._refine(gcd(self._unit, itemsize))
        per = itemsize // self._unit
        if per > 1 and np.ndim(wave):
            wave = np.repeat(wave, per)
        return split_units(flat, per), wave, per

    def _written_by_other(self, idx, wave, block: int) -> np.ndarray:
        writer = self._writer[idx]
        same_epoch = ((writer >= 0) & (writer != wave)
                      & (self._write_epoch[idx] == self._clock.epoch))
        if not self._blocks:
            return same_epoch
        other_block = self._write_block[idx] != block
        return (writer >= 0) & (other_block | (same_epoch & ~other_block))

    def _conflict(self, bad, per, wave, other, kind, other_block=None) -> Conflict:
        pos = int(np.argmax(bad))
        mine = int(np.broadcast_to(wave, bad.shape)[pos])
        block = -1 if other_block is None else int(other_block[pos])
        return Conflict(pos // per, mine, int(np.broadcast_to(other, bad.shape)[pos]), kind,
                        block)

    def check_read(self, flat: np.ndarray, itemsize: int, wave, block: int = 0
                   ) -> Conflict | None:
        """Conflict of waves `wave` (of linear block `block`, global memory) reading these
        elements, or None; records the reads."""
        idx, wave, per = self._units(flat, itemsize, wave)
        epoch = self._clock.epoch
        bad = self._written_by_other(idx, wave, block)
        if bad.any():
            blocks = self._write_block[idx] if self._blocks else None
            return self._conflict(bad, per, wave, self._writer[idx], "read-after-write", blocks)
        stale = self._read_epoch[idx] != epoch
        if self._blocks:
            last = self._read_block[idx]
            moved = last != block  # another block read it before: remember that block
            self._other_reader_block[idx[moved & (last >= 0)]] = last[moved & (last >= 0)]
            self._read_block[idx] = block
            stale |= moved
        self._readers[idx[stale]] = 0
        self._read_epoch[idx] = epoch
        if np.ndim(wave) == 0:
            self._readers[idx] |= _bit(wave)
        else:
            np.bitwise_or.at(self._readers, idx, _bit(wave))
        return None

    def check_write(self, flat: np.ndarray, itemsize: int, wave, block: int = 0
                    ) -> Conflict | None:
        """Conflict of waves `wave` writing these elements, or None (then `record_write`)."""
        idx, wave, per = self._units(flat, itemsize, wave)
        bad = self._written_by_other(idx, wave, block)
        if bad.any():
            blocks = self._write_block[idx] if self._blocks else None
            return self._conflict(bad, per, wave, self._writer[idx], "write-after-write", blocks)
        if self._blocks:  # a read by another block, at any time
            last = self._read_block[idx]
            bad = (last >= 0) & (last != block)
            if bad.any():
                return self._conflict(bad, per, wave, _lowest_bit(self._readers[idx]),
                                      "write-after-read", last)
            earlier = self._other_reader_block[idx]
            bad = (earlier >= 0) & (earlier != block)
            if bad.any():
                return self._conflict(bad, per, wave, -1, "write-after-read", earlier)
        others = self._readers[idx] & ~_bit(wave)
        bad = (others != 0) & (self._read_epoch[idx] == self._clock.epoch)
        if bad.any():
            blocks = np.full(idx.size, block) if self._blocks else None
            return self._conflict(bad, per, wave, _lowest_bit(others), "write-after-read",
                                  blocks)
        return None

    def record_write(self, flat: np.ndarray, itemsize: int, wave, block: int = 0) -> None:
        idx, wave, _ = self._units(flat, itemsize, wave)
        self._writer[idx] = wave
        self._write_epoch[idx] = self._clock.epoch
        if self._blocks:
            self._write_block[idx] = block


def _lowest_bit(bits: np.ndarray) -> np.ndarray:
    """Index of the lowest set bit of each uint32 (the lowest reader wave)."""
    low = bits.astype(np.int64)
    low &= -low
    return np.where(low > 0, np.log2(np.maximum(low, 1)), -1).astype(np.int64)


class GlobalRaces:
    """racecheck: one `RaceTracker(blocks=True)` per global buffer of a launch; the epoch is
    that of the running block's barriers (`clock`, the block's LDS, set by the engine)."""

    def __init__(self) -> None:
        self.clock: Any = None  # lds.BlockLds of the running block
        self._trackers: dict[int, tuple[object, RaceTracker]] = {}

    @property
    def epoch(self) -> int:
        return self.clock.epoch

    def tracker(self, buffer: object, nbytes: int) -> RaceTracker:
        """The history of `buffer` (kept alive with it for the launch)."""
        entry = self._trackers.get(id(buffer))
        if entry is None:
            entry = self._trackers[id(buffer)] = (buffer, RaceTracker(nbytes, self, blocks=True))
        return entry[1]


class Hull(NamedTuple):
    """Where each wave of an access stays: its elements lie in [lo, hi] (element indices,
    per wave), the wave in LDS segment (block slot) `slots`, wave `waves` of its block."""

    lo: np.ndarray
    hi: np.ndarray
    slots: np.ndarray
    waves: np.ndarray


class Written(Protocol):
    """An access as the log keeps it (`sanitizers.Access`, `BlockAccess`): its elements,
    their waves and its hull are only made if an epoch's check needs them."""

    @property
    def flat(self) -> np.ndarray: ...

    def waves(self) -> np.ndarray | int: ...

    def wave_hull(self) -> Hull | None: ...


class BlockRead(Written, Protocol):
    """A dense block load (`sanitizers.BlockAccess`): it always has a hull."""

    def wave_hull(self) -> Hull: ...


class EpochLog:
    """Race detection for the batched engine: the accesses of one barrier epoch are logged
    and checked together when the epoch closes (at the barrier or the end of the kernel).

    Any wave pair touching one unit in the epoch, one of them writing, is a race whatever
    the order, so one owner array settles it: every write claims its units, a unit claimed by
    two waves or read by a wave other than its owner is a race. Where every write's waves
    come with a `Hull`, a read whose waves' hulls miss the hull of their block's writes (LDS
    read from one half while the other is written, between two barriers) is settled without
    its elements. It only says whether there is a race; the engine then reruns the batch
    wave by wave, where `RaceTracker` reports it exactly.
    """

    def __init__(self, nbytes: int) -> None:
        self._nbytes = nbytes
        self._reads: list[tuple[np.ndarray, int, Any]] = []
        self._block_reads: list[tuple[BlockRead, int]] = []
        self._writes: list[tuple[Written, int]] = []
        self._narrowed: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._owner: np.ndarray | None = None

    def check_read(self, flat: np.ndarray, itemsize: int, wave) -> None:
        self._reads.append((flat, itemsize, wave))

    def check_block_read(self, access: BlockRead, itemsize: int) -> None:
        self._block_reads.append((access, itemsize))

    def record_write(self, access: Written, itemsize: int) -> None:
        """A store (checked when the epoch closes, with the others)."""
        self._writes.append((access, itemsize))

    def close_epoch(self) -> bool:
        """Whether the epoch that ends here had a race; starts the next one.

        With a hull for every write: when no two waves' hulls overlap, no unit has two
        writers, and a block read whose waves' hulls miss the hull of their block's writes
        reads no written unit (LDS read from one half while the other is written), so
        neither needs its elements. Everything else goes through the owner array: reads
        of units no write claimed (the usual case: a barrier between writing LDS and
        reading it) are settled by one maximum over their owners."""
        reads, block_reads, writes = self._reads, self._block_reads, self._writes
        self._reads, self._block_reads, self._writes = [], [], []
        if not writes:
            return False
        unit = 0
        for size in [r[1] for r in reads] + [w[1] for w in writes] + [r[1] for r in block_reads]:
            unit = gcd(unit, size)
        made = _unit_hulls(writes, unit) if block_reads or not reads else None
        spans = None if made is None or not block_reads else _segment_spans(made)
        reads += [(access.flat, size, access.waves()) for access, size in block_reads
                  if spans is None or _may_meet(access.wave_hull(), size // unit, spans)]
        if made is not None and not reads and _apart(made):
            return False
        owner = self._owners(unit)
        claimed = [(split_units(access.flat, size // unit),
                    self._per_unit(access.waves(), size // unit)) for access, size in writes]
        for idx, wave in claimed:
            owner[idx] = wave
        if any((owner[idx] != wave).any() for idx, wave in claimed):
            return True
        for flat, size, wave in reads:
            idx = split_units(flat, size // unit)
            seen = owner[idx]
            if np.max(seen, initial=-1) < 0:
                continue  # no read unit was written in this epoch
            if ((seen >= 0) & (seen != self._per_unit(wave, size // unit))).any():
                return True
        return False

    def _owners(self, unit: int) -> np.ndarray:
        """The owner array of `unit`-byte units, all -1 (none): one buffer per log, reset
        by a fill instead of a fresh allocation per epoch."""
        owner = self._owner
        if owner is None or owner.size != self._nbytes // unit:
            owner = self._owner = np.empty(self._nbytes // unit, np.int8)
        owner.fill(-1)
        return owner

    def _per_unit(self, wave, per: int):
        """The int8 wave of every unit of elements of `per` units."""
        wave = self._narrow(wave)
        return np.repeat(wave, per) if per > 1 and np.ndim(wave) else wave

    def _narrow(self, wave):
        """Per-element waves as int8, like the owner array (comparisons and stores without
        a widening pass); a batch passes the same wave array again and again
        (`WaveContext.position_waves`), so its conversion is kept (with the array)."""
        if np.ndim(wave) == 0 or wave.dtype == np.int8:
            return wave
        hit = self._narrowed.get(id(wave))
        if hit is not None and hit[0] is wave:
            return hit[1]
        if len(self._narrowed) >= _NARROWED:
            self._narrowed.clear()
        narrow = self._narrowed[id(wave)] = (wave, wave.astype(np.int8))
        return narrow[1]
