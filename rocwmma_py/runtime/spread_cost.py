"""What the first blocks of a launch cost, measured, for workers.py's decision to spread it.

A batch of k blocks costs about `fixed + per_block * k` CPU seconds: the kernel's Python runs
once per batch whatever its size (a softmax row loop, a map_util element loop), its numpy
work grows with k. The per-wave engine has no batches (fixed = 0). The probe runs its blocks
as two batches of different sizes (1/4 and 3/4 of them) so the two parts separate: timing
one small batch and scaling it by the grid would count the fixed cost once per probe-sized
batch, which the serial engine's bigger batches and the workers' pieces do not pay.

Other processes on the machine take cores from the workers. The workers count on the share
of a core this process got during the probe, for one of them, and on the cores that stood
idle meanwhile for the others: a busy machine does not give a process more cores because it
forked (Linux shares them between sessions, autogroups, not processes), so workers pay only
where cores are idle (counted low: the machine's busy time is read in clock ticks).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass


def cores() -> int:
    """The cores this process may run on."""
    with suppress(AttributeError):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _machine_busy() -> float | None:
    """Busy CPU seconds of the whole machine since boot, summed over cores (Linux; counted
    in clock ticks per core, so two readings may each be a tick per core short)."""
    try:
        with open("/proc/stat") as stat:
            fields = [int(v) for v in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Cost:
    """CPU seconds of a batch beyond its blocks and of one block, blocks per batch, the
    share of a core this process got during the probe and the cores idle meanwhile."""

    fixed: float
    per_block: float
    per_batch: int
    share: float
    idle: float

    def serial(self, blocks: int) -> float:
        """Wall seconds of `blocks` more blocks run here."""
        batches = -(-blocks // self.per_batch)
        return (self.fixed * batches + self.per_block * blocks) / self.share

    def cores_for(self, count: int) -> float:
        """The cores `count` busy workers get: this process's share and idle cores."""
        return self.share + min(count - 1.0, self.idle)


@dataclass
class Memo:
    """What the last launch of one kernel configuration (`launch.Kernel.costs`) measured:
    its probe's cost, or, run unprobed, its CPU seconds (`workers.run_on_workers` decides
    from it whether a launch is worth probing)."""

    cost: Cost | None = None
    seconds: float | None = None
    matrix_work: bool = False  # the kernel calls mma_sync: its blocks' work outweighs its Python


def rebatched(per_batch: int, rest: int, batches: int, probed: int) -> int:
    """Blocks per batch for the `rest` blocks a probe of `probed` batches left, when they
    run here: as many batches in all as without the probe (`batches`), growing a batch by
    at most 2x (a batch's fixed cost is the kernel's Python, paid once per batch)."""
    target = max(1, batches - probed)
    return min(2 * per_batch, max(per_batch, -(-rest // target)))


def probe(run: Callable[[int, int], None], blocks: int, per_batch: int | None,
          promising: Callable[[Cost], bool], known: Part | None = None
          ) -> tuple[Cost, int, int]:
    """Run blocks [0, blocks) of a launch through `run(start, stop)`, timed; `per_batch` is
    None on the per-wave engine (no batches: every block costs alike). The second part is
    skipped when `promising(cost of the first part alone)` says spreading could not pay
    even at that cost per block (fixed cost included) and the idle cores then: a launch
    that stays here pays one extra batch for the probe, not two. `known`: an earlier
    launch of this shape run whole (its blocks, batches and CPU seconds), the other
    equation of the probe's cost: its blocks run as one part. The cost, the blocks run and
    the parts (batches) they ran in."""
    first = max(1, blocks // 4) if per_batch is not None and blocks >= 3 else 0
    # (with `known`, all the probe's blocks in one part: long enough to see idle cores)
    spans = ((0, first), (first, blocks)) if known is None else ((0, blocks),)
    busy, wall = _machine_busy(), time.perf_counter()
    parts: list[Part] = []
    for start, stop in spans:
        if start >= stop:
            continue
        if parts and not promising(_measured(parts, per_batch or 1, busy, wall, True)):
            break
        cpu = time.process_time()
        run(start, stop)
        parts.append((stop - start, 1, time.process_time() - cpu))
    cost = _measured(parts, per_batch or 1, busy, wall, False, known)
    return cost, sum(n for n, _, _ in parts), len(parts)


Part = tuple[int, int, float]  # (blocks, batches, CPU seconds) of a timed run


def _measured(parts: list[Part], per_batch: int, busy: float | None, started: float,
              point: bool, known: Part | None = None) -> Cost:
    """The cost of the parts run since `started` (perf_counter) with the machine's busy
    time `busy` then (and of a `known` earlier run: its CPU only); `point`: idle cores as
    measured, not counted low (a first look)."""
    wall = time.perf_counter() - started
    used = sum(cpu for _, _, cpu in parts)
    share = min(1.0, used / wall) if wall > 0 and used > 0 else 1.0
    idle = 0.0
    after = _machine_busy()
    if busy is not None and after is not None and wall > 0:
        uncertain = 0.0 if point else 2 * cores() / os.sysconf("SC_CLK_TCK")  # ticks
        idle = max(0.0, cores() - (after - busy + uncertain) / wall)
    runs = parts + ([known] if known is not None else [])
    (k1, n1, c1) = runs[0]
    # batches * fixed + blocks * per_block = CPU, for two runs of different shapes
    det = 0 if len(runs) == 1 else runs[1][0] * n1 - k1 * runs[1][1]
    if det == 0:  # per wave, too few blocks to separate the parts, or a first look
        return Cost(0.0, c1 / k1, per_batch, share, idle)
    k2, n2, c2 = runs[1]
    per_block = max(0.0, (c2 * n1 - c1 * n2) / det)
    fixed = max(0.0, (c1 + c2 - per_block * (k1 + k2)) / (n1 + n2))
    return Cost(fixed, per_block, per_batch, share, idle)
