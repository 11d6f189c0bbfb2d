"""LDS race detection: per byte, who last wrote/read it and in which barrier interval.

A block's barrier epoch advances at every barrier release. Two different waves touching
the same byte in the same epoch, at least one of them writing, is a race on hardware (the
waves run concurrently there); here it is caught deterministically. One access may come
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
from typing import NamedTuple, Protocol

import numpy as np


class EpochClock(Protocol):
    epoch: int


class Conflict(NamedTuple):
    """First conflicting element of an access: its position in the access and the waves."""

    position: int
    wave: int
    other_wave: int
    kind: str  # "read-after-write", "write-after-read", "write-after-write"


def split_units(flat: np.ndarray, per: int) -> np.ndarray:
    """Indices of the `per` consecutive units that make up each of the elements `flat`."""
    if per == 1:
        return flat
    return (flat[:, None] * per + np.arange(per)).reshape(-1)


def _bit(wave: np.ndarray | int) -> np.ndarray:
    return np.left_shift(np.uint32(1), np.asarray(wave, dtype=np.uint32))


class RaceTracker:
    """Access history of one LDS buffer (all segments)."""

    def __init__(self, nbytes: int, clock: EpochClock) -> None:
        self._clock = clock
        self._nbytes = nbytes
        self._unit = 0  # bytes per tracked unit; 0 until the first access

    def _allocate(self, unit: int) -> None:
        units = self._nbytes // unit
        self._unit = unit
        self._writer = np.full(units, -1, np.int8)
        self._write_epoch = np.full(units, -1, np.int32)
        self._readers = np.zeros(units, np.uint32)  # bit w set: wave w read it in read_epoch
        self._read_epoch = np.full(units, -1, np.int32)

    def _refine(self, unit: int) -> None:
        """Track in smaller units from now on (an access of another element size)."""
        factor = self._unit // unit
        for name in ("_writer", "_write_epoch", "_readers", "_read_epoch"):
            setattr(self, name, np.repeat(getattr(self, name), factor))
        self._unit = unit

    def _units(self, flat: np.ndarray, itemsize: int, wave) -> tuple[np.ndarray, object, int]:
        """(unit indices, wave per unit, units per element) of elements of `itemsize`."""
        if self._unit == 0:
            self._allocate(itemsize)
        elif itemsize % self._unit:
            self._refine(gcd(self._unit, itemsize))
        per = itemsize // self._unit
        if per > 1 and np.ndim(wave):
            wave = np.repeat(wave, per)
        return split_units(flat, per), wave, per

    def _written_by_other(self, idx, wave) -> np.ndarray:
        writer = self._writer[idx]
        return (writer >= 0) & (writer != wave) & (self._write_epoch[idx] == self._clock.epoch)

    @staticmethod
    def _conflict(bad, per, wave, other, kind) -> Conflict:
        pos = int(np.argmax(bad))
        mine = int(np.broadcast_to(wave, bad.shape)[pos])
        return Conflict(pos // per, mine, int(np.broadcast_to(other, bad.shape)[pos]), kind)

    def check_read(self, flat: np.ndarray, itemsize: int, wave) -> Conflict | None:
        """Conflict of waves `wave` reading these elements, or None; records the reads."""
        idx, wave, per = self._units(flat, itemsize, wave)
        epoch = self._clock.epoch
        bad = self._written_by_other(idx, wave)
        if bad.any():
            return self._conflict(bad, per, wave, self._writer[idx], "read-after-write")
        stale = self._read_epoch[idx] != epoch
        self._readers[idx[stale]] = 0
        self._read_epoch[idx] = epoch
        if np.ndim(wave) == 0:
            self._readers[idx] |= _bit(wave)
        else:
            np.bitwise_or.at(self._readers, idx, _bit(wave))
        return None

    def check_write(self, flat: np.ndarray, itemsize: int, wave) -> Conflict | None:
        """Conflict of waves `wave` writing these elements, or None (then `record_write`)."""
        idx, wave, per = self._units(flat, itemsize, wave)
        bad = self._written_by_other(idx, wave)
        if bad.any():
            return self._conflict(bad, per, wave, self._writer[idx], "write-after-write")
        others = self._readers[idx] & ~_bit(wave)
        bad = (others != 0) & (self._read_epoch[idx] == self._clock.epoch)
        if bad.any():
            readers = int(others[int(np.argmax(bad))])
            lowest = (readers & -readers).bit_length() - 1
            return self._conflict(bad, per, wave, lowest, "write-after-read")
        return None

    def record_write(self, flat: np.ndarray, itemsize: int, wave) -> None:
        idx, wave, _ = self._units(flat, itemsize, wave)
        self._writer[idx] = wave
        self._write_epoch[idx] = self._clock.epoch


class EpochLog:
    """Race detection for the batched engine: the accesses of one barrier epoch are logged
    and checked together when the epoch closes (at the barrier or the end of the kernel).

    Any wave pair touching one unit in the epoch, one of them writing, is a race whatever
    the order, so one owner array settles it: every write claims its units, a unit claimed by
    two waves or read by a wave other than its owner is a race. It only says whether there is
    one; the engine then reruns the batch wave by wave, where `RaceTracker` reports it exactly.
    """

    def __init__(self, nbytes: int) -> None:
        self._nbytes = nbytes
        self._reads: list[tuple[np.ndarray, int, np.ndarray]] = []
        self._writes: list[tuple[np.ndarray, int, np.ndarray]] = []

    def check_read(self, flat: np.ndarray, itemsize: int, wave) -> None:
        self._reads.append((flat, itemsize, wave))

    def check_write(self, flat: np.ndarray, itemsize: int, wave) -> None:
        """Writes are logged by `record_write`."""

    def record_write(self, flat: np.ndarray, itemsize: int, wave) -> None:
        self._writes.append((flat, itemsize, wave))

    def close_epoch(self) -> bool:
        """Whether the epoch that ends here had a race; starts the next one."""
        reads, writes = self._reads, self._writes
        self._reads, self._writes = [], []
        if not writes:
            return False
        unit = 0
        for _, size, _ in reads + writes:
            unit = gcd(unit, size)
        owner = np.full(self._nbytes // unit, -1, np.int8)

        def units(flat, size, wave):
            per = size // unit
            return split_units(flat, per), (np.repeat(wave, per) if per > 1 else wave)

        claimed = [units(*w) for w in writes]
        for idx, wave in claimed:
            owner[idx] = wave
        if any((owner[idx] != wave).any() for idx, wave in claimed):
            return True
        for read in reads:
            idx, wave = units(*read)
            seen = owner[idx]
            if ((seen >= 0) & (seen != wave)).any():
                return True
        return False
