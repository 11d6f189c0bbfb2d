"""LDS race detection: per byte, who last wrote/read it and in which barrier interval.

A block's barrier epoch advances at every barrier release. Two different waves touching
the same byte in the same epoch, at least one of them writing, is a race on hardware (the
waves run concurrently there); here it is caught deterministically. One access may come
from many waves at once (the batched engine): `wave` is then one wave index per byte (the
engine reruns wave by wave an access where two lanes write one byte). The byte indices of a batch's
blocks are disjoint (one LDS segment per block), so waves of different blocks never meet.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

import numpy as np


class EpochClock(Protocol):
    epoch: int


class Conflict(NamedTuple):
    """First conflicting byte of an access: its position in the access and the two waves."""

    position: int
    wave: int
    other_wave: int
    kind: str  # "read-after-write", "write-after-read", "write-after-write"


def _bit(wave: np.ndarray | int) -> np.ndarray:
    return np.left_shift(np.uint32(1), np.asarray(wave, dtype=np.uint32))


class RaceTracker:
    """Per-byte access history of one LDS buffer (all segments)."""

    def __init__(self, nbytes: int, clock: EpochClock) -> None:
        self._clock = clock
        self._writer = np.full(nbytes, -1, np.int8)
        self._write_epoch = np.full(nbytes, -1, np.int64)
        self._readers = np.zeros(nbytes, np.uint32)  # bit w set: wave w read it in read_epoch
        self._read_epoch = np.full(nbytes, -1, np.int64)

    def _written_by_other(self, byte_idx, wave) -> np.ndarray:
        writer = self._writer[byte_idx]
        return (writer >= 0) & (writer != wave) & (self._write_epoch[byte_idx] == self._clock.epoch)

    def _conflict(self, bad, byte_idx, wave, other, kind) -> Conflict:
        pos = int(np.argmax(bad))
        mine = int(np.broadcast_to(wave, bad.shape)[pos])
        return Conflict(pos, mine, int(np.broadcast_to(other, bad.shape)[pos]), kind)

    def check_read(self, byte_idx: np.ndarray, wave) -> Conflict | None:
        """Conflict of waves `wave` reading these bytes, or None; records the reads if none."""
        epoch = self._clock.epoch
        bad = self._written_by_other(byte_idx, wave)
        if bad.any():
            return self._conflict(bad, byte_idx, wave, self._writer[byte_idx], "read-after-write")
        stale = self._read_epoch[byte_idx] != epoch
        self._readers[byte_idx[stale]] = 0
        self._read_epoch[byte_idx] = epoch
        if np.ndim(wave) == 0:
            self._readers[byte_idx] |= _bit(wave)
        else:
            np.bitwise_or.at(self._readers, byte_idx, _bit(wave))
        return None

    def check_write(self, byte_idx: np.ndarray, wave) -> Conflict | None:
        """Conflict of waves `wave` writing these bytes, or None (then `record_write`)."""
        epoch = self._clock.epoch
        bad = self._written_by_other(byte_idx, wave)
        if bad.any():
            return self._conflict(bad, byte_idx, wave, self._writer[byte_idx],
                                  "write-after-write")
        others = self._readers[byte_idx] & ~_bit(wave)
        bad = (others != 0) & (self._read_epoch[byte_idx] == epoch)
        if bad.any():
            pos = int(np.argmax(bad))
            readers = int(others[pos])
            lowest = (readers & -readers).bit_length() - 1
            return self._conflict(bad, byte_idx, wave, lowest, "write-after-read")
        return None

    def record_write(self, byte_idx: np.ndarray, wave) -> None:
        self._writer[byte_idx] = wave
        self._write_epoch[byte_idx] = self._clock.epoch
