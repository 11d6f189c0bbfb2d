"""LDS race detection: per byte, who last wrote/read it and in which barrier interval.

A block's barrier epoch advances at every barrier release. Two different waves touching
the same byte in the same epoch, at least one of them writing, is a race on hardware
(the waves run concurrently there); here the waves run one after another, so it is
caught deterministically. Checks are vectorised over all bytes of one access.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

import numpy as np


class EpochClock(Protocol):
    epoch: int


class Conflict(NamedTuple):
    """First conflicting byte of an access: its position in the access and the other wave."""

    position: int
    other_wave: int
    kind: str  # "read-after-write", "write-after-read", "write-after-write"


class RaceTracker:
    """Per-byte access history of one LDS buffer."""

    def __init__(self, nbytes: int, clock: EpochClock) -> None:
        self._clock = clock
        self._writer = np.full(nbytes, -1, np.int8)
        self._write_epoch = np.full(nbytes, -1, np.int64)
        self._readers = np.zeros(nbytes, np.uint32)  # bit w set: wave w read it in read_epoch
        self._read_epoch = np.full(nbytes, -1, np.int64)

    def check_read(self, byte_idx: np.ndarray, wave: int) -> Conflict | None:
        """Conflict of wave `wave` reading these bytes, or None; records the read if none."""
        epoch = self._clock.epoch
        writer = self._writer[byte_idx]
        bad = (writer >= 0) & (writer != wave) & (self._write_epoch[byte_idx] == epoch)
        if bad.any():
            pos = int(np.argmax(bad))
            return Conflict(pos, int(writer[pos]), "read-after-write")
        stale = self._read_epoch[byte_idx] != epoch
        self._readers[byte_idx[stale]] = 0
        self._read_epoch[byte_idx] = epoch
        self._readers[byte_idx] |= np.uint32(1 << wave)
        return None

    def check_write(self, byte_idx: np.ndarray, wave: int) -> Conflict | None:
        """Conflict of wave `wave` writing these bytes, or None (the write is then recorded)."""
        epoch = self._clock.epoch
        writer = self._writer[byte_idx]
        bad = (writer >= 0) & (writer != wave) & (self._write_epoch[byte_idx] == epoch)
        if bad.any():
            pos = int(np.argmax(bad))
            return Conflict(pos, int(writer[pos]), "write-after-write")
        others = self._readers[byte_idx] & np.uint32(~(1 << wave) & 0xFFFFFFFF)
        bad = (others != 0) & (self._read_epoch[byte_idx] == epoch)
        if bad.any():
            pos = int(np.argmax(bad))
            other = (int(others[pos]) & -int(others[pos])).bit_length() - 1  # lowest reader
            return Conflict(pos, other, "write-after-read")
        return None

    def record_write(self, byte_idx: np.ndarray, wave: int) -> None:
        self._writer[byte_idx] = wave
        self._write_epoch[byte_idx] = self._clock.epoch
