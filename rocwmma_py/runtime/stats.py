"""How launches ran: each launch's statistics, kept per thread for `last_launch_stats()`.

A module of their own because two modules fill them: the engine (batches, splits, fallbacks)
and the worker processes (their pieces' statistics, the blocks run serially after a piece
that cannot be exact); neither needs the other for it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Fallback:
    """One place where blocks left the plain batched path, and why."""

    kind: str  # "block split", "wave groups", "per wave", "smaller batches", "serial"
    block: int  # linear index of the (first) block that caused it
    blocks: int  # how many blocks the batch it happened in had
    cause: str  # the construct: "Python branch differing between blocks", "ZeroDivisionError"
    line: str = ""  # kernel source "file:line" where it happened, when known


@dataclass
class LaunchStats:
    """How the last launch of this thread ran: blocks whose batch ran to the end, blocks run
    wave by wave (including reruns), batch splits, the most wave groups a finished batch
    used (1: all waves in lockstep), and every fallback with its block and cause."""

    batched_blocks: int = 0
    per_wave_blocks: int = 0
    splits: int = 0
    wave_groups: int = 0
    fallbacks: list[Fallback] = field(default_factory=list)
    workers: int = 1  # processes that ran blocks in parallel (workers.py); 1: this one alone


_local = threading.local()


def publish(stats: LaunchStats) -> None:
    """Make `stats` what `last_launch_stats()` returns in this thread."""
    _local.stats = stats


def last_launch_stats() -> LaunchStats:
    """How the most recent launch started by this thread ran; see LaunchStats."""
    stats = getattr(_local, "stats", None)
    return stats if stats is not None else LaunchStats()
