"""Running a launch: the batched engine (default) and the per-wave engine.

Per-wave engine: blocks run one after another; the waves of a multi-wave block each get a
thread and take turns between barriers (`scheduler.py`). Every wave sees plain ints for
`blockIdx` and its own `current_wave()`.

Batched engine: consecutive blocks are grouped into batches of about `batch_lanes()` lanes,
and the kernel's Python code runs once per batch; every per-lane value spans all waves of
the batch (wave-major, lane axis last), so each fragment op, load and store is one numpy
call for the whole batch. Waves of a block run in lockstep, so a barrier only closes the
LDS race epoch. Where a batch cannot stay together the engine falls back, keeping the
per-wave engine's results:
- a branch, loop bound or index that differs between blocks (`BatchSplit`): global writes
  of the batch are undone (`Journal`) and each group of blocks that agree reruns as its own
  batch; blocks whose waves disagree run wave by wave;
- anything only per-wave execution defines (`NeedsPerWave`: `current_wave()`, a reduction
  over lanes, lanes diverging inside a wave, two lanes writing one LDS byte): the batch's
  blocks rerun wave by wave;
- any exception: the whole batch is undone and rerun wave by wave, so the error raised (and
  the memory left behind) is exactly the per-wave engine's, blocks in order.
Python side effects of kernel code other than memory writes (appending to a list, print)
may therefore happen more than once.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import numpy as np

from ..arch import Arch
from .checks import Checks
from .dims import Dim3
from .lanes import Lanes, weak_lanes
from .lds import BlockLds
from .scheduler import WaveScheduler
from .state import BatchSplit, NeedsPerWave, WaveContext, enter_wave, note_where

ENGINE_VAR = "ROCWMMA_PY_ENGINE"  # "batch" (default) or "wave"
BATCH_LANES_VAR = "ROCWMMA_PY_BATCH_LANES"
PROGRESS_VAR = "ROCWMMA_PY_PROGRESS"  # "0" turns the progress bar off
ENGINES = ("batch", "wave")
DEFAULT_BATCH_LANES = 32768
PROGRESS_DELAY_S = 2.0  # launches shorter than this never show a bar

_engine: ContextVar[str | None] = ContextVar("rocwmma_py_engine", default=None)


def engine_name() -> str:
    """The engine of launches: innermost `use_engine` > $ROCWMMA_PY_ENGINE > "batch"."""
    name = _engine.get() or os.environ.get(ENGINE_VAR, "").strip() or "batch"
    if name not in ENGINES:
        raise ValueError(f"unknown engine {name!r} (from use_engine or ${ENGINE_VAR}); "
                         f"valid engines are: {', '.join(ENGINES)}")
    return name


@contextmanager
def use_engine(name: str) -> Iterator[None]:
    """Run launches inside the with-block on engine `name`: "batch" or "wave" (per wave)."""
    if name not in ENGINES:
        raise ValueError(f"unknown engine {name!r}; valid engines are: {', '.join(ENGINES)}")
    token = _engine.set(name)
    try:
        yield
    finally:
        _engine.reset(token)


def batch_lanes() -> int:
    """Lanes (waves x wave size) a batch aims for: $ROCWMMA_PY_BATCH_LANES or 32768."""
    value = os.environ.get(BATCH_LANES_VAR, "").strip()
    try:
        lanes = int(value) if value else DEFAULT_BATCH_LANES
    except ValueError:
        lanes = 0
    if lanes < 1:
        raise ValueError(f"${BATCH_LANES_VAR} must be a positive integer, got {value!r}")
    return lanes


@dataclass
class LaunchStats:
    """How the last launch ran: blocks whose batch ran to the end, blocks run wave by wave
    (including reruns), and batch splits."""

    batched_blocks: int = 0
    per_wave_blocks: int = 0
    splits: int = 0


_stats = LaunchStats()


def last_launch_stats() -> LaunchStats:
    """How the most recent launch (of this process) ran; see LaunchStats."""
    return _stats


class Journal:
    """Old values of the global memory a batch wrote, so the batch can be undone."""

    def __init__(self) -> None:
        self._entries: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []

    def record(self, typed: np.ndarray, flat: np.ndarray, old: np.ndarray) -> None:
        self._entries.append((typed, flat, old))

    def mark(self) -> int:
        return len(self._entries)

    def undo(self, mark: int = 0) -> None:
        """Restore memory to what it was at `mark`, newest write first."""
        while len(self._entries) > mark:
            typed, flat, old = self._entries.pop()
            typed[flat] = old


@dataclass(frozen=True, eq=False)
class Grid:
    """What every block of one launch shares."""

    arch: Arch
    kernel_name: str
    body: Callable[[], None]
    grid_dim: Dim3
    block_dim: Dim3
    shared_bytes: int
    waves_per_block: int
    checks: Checks = Checks()

    @property
    def blocks(self) -> int:
        return self.grid_dim.x * self.grid_dim.y * self.grid_dim.z

    def block_coords(self, blocks: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(x, y, z) of linear block indices, x fastest (HIP's order)."""
        gx, gy = self.grid_dim.x, self.grid_dim.y
        return blocks % gx, blocks // gx % gy, blocks // (gx * gy)

    def thread_indices(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """threadIdx x/y/z of one block's lanes, wave-major: tid = x + X*(y + Y*z)."""
        block = self.block_dim
        tid = np.arange(self.waves_per_block * self.arch.wave_size, dtype=np.int64)
        return tid % block.x, tid // block.x % block.y, tid // (block.x * block.y)


def run(grid: Grid, per_wave: bool = False) -> None:
    """Run every block of the launch on the selected engine (per wave when asked)."""
    global _stats
    _stats = LaunchStats()
    if per_wave or engine_name() == "wave":
        for block in range(grid.blocks):
            run_block_per_wave(grid, block, None)
        return
    per_batch = max(1, batch_lanes() // (grid.waves_per_block * grid.arch.wave_size))
    starts = range(0, grid.blocks, per_batch)
    with _progress(grid) as bar:
        for start in starts:
            blocks = np.arange(start, min(start + per_batch, grid.blocks))
            run_top_batch(grid, blocks)
            bar.update(blocks.size)


def run_top_batch(grid: Grid, blocks: np.ndarray) -> None:
    """One batch; on any error it is undone and rerun wave by wave, blocks in order, so the
    error and the memory left behind are exactly the per-wave engine's."""
    journal = Journal()
    try:
        _run_batch(grid, blocks, journal)
    except Exception:
        journal.undo()
        for block in blocks:  # raises the per-wave engine's error, if there is one
            run_block_per_wave(grid, int(block), None)


def _run_batch(grid: Grid, blocks: np.ndarray, journal: Journal) -> None:
    wpb, width = grid.waves_per_block, grid.arch.wave_size
    k = blocks.size
    lanes_per_block = wpb * width

    def spread(per_block: np.ndarray) -> Lanes:
        return weak_lanes(np.repeat(per_block, lanes_per_block))  # Python ints per wave

    tx, ty, tz = (np.tile(t, k).view(Lanes) for t in grid.thread_indices())
    ctx = WaveContext(
        arch=grid.arch,
        kernel_name=grid.kernel_name,
        waves_per_block=wpb,
        block_dim=grid.block_dim,
        grid_dim=grid.grid_dim,
        wave_ids=np.tile(np.arange(wpb), k),
        block_ids=np.repeat(blocks, wpb),
        block_slots=np.repeat(np.arange(k), wpb),
        thread_idx=(tx, ty, tz),
        lane_ids=np.tile(np.arange(width, dtype=np.int64), k * wpb).view(Lanes),
        block_idx=tuple(spread(c) for c in grid.block_coords(blocks)),
        lds=BlockLds(grid.arch, grid.shared_bytes, grid.kernel_name, blocks=k,
                     initcheck=grid.checks.initcheck, deferred=True),
        batched=True,
        journal=journal,
        checks=grid.checks,
    )
    mark = journal.mark()
    previous = enter_wave(ctx)
    try:
        grid.body()
        ctx.raise_if_tainted()  # kernel code caught an error or an engine signal
        ctx.lds.next_epoch()  # the last epoch's race check
        _stats.batched_blocks += k
        return
    except BatchSplit as split:
        _stats.splits += 1
        journal.undo(mark)
        per_block = split.values.reshape(k, wpb)
        agree = (per_block == per_block[:, :1]).all(axis=1)
        _, group = np.unique(per_block[:, 0], return_inverse=True)
        group = np.where(agree, group.reshape(-1), -1)
    except NeedsPerWave:
        journal.undo(mark)
        group = np.full(k, -1)
    finally:
        enter_wave(previous)
    for g in np.unique(group[group >= 0]):
        _run_batch(grid, blocks[group == g], journal)
    for block in blocks[group < 0]:
        run_block_per_wave(grid, int(block), journal)


def run_block_per_wave(grid: Grid, block: int, journal: Journal | None) -> None:
    """The per-wave engine for one block: ints for blockIdx, one context per wave."""
    _stats.per_wave_blocks += 1
    width = grid.arch.wave_size
    coords = tuple(int(c) for c in grid.block_coords(np.array(block)))
    lds = BlockLds(grid.arch, grid.shared_bytes, grid.kernel_name,
                   initcheck=grid.checks.initcheck)
    tid = [t.reshape(grid.waves_per_block, width) for t in grid.thread_indices()]
    contexts = [
        WaveContext(
            arch=grid.arch,
            kernel_name=grid.kernel_name,
            waves_per_block=grid.waves_per_block,
            block_dim=grid.block_dim,
            grid_dim=grid.grid_dim,
            wave_ids=np.array([w]),
            block_ids=np.array([block]),
            block_slots=np.zeros(1, np.int64),
            thread_idx=tuple(t[w].view(Lanes) for t in tid),
            lane_ids=np.arange(width, dtype=np.int64).view(Lanes),
            block_idx=coords,
            lds=lds,
            journal=journal,
            checks=grid.checks,
        )
        for w in range(grid.waves_per_block)
    ]
    if len(contexts) == 1:
        ctx = contexts[0]
        previous = enter_wave(ctx)
        try:
            grid.body()
        except BaseException as err:
            note_where(err, ctx)
            raise
        finally:
            enter_wave(previous)
        return
    scheduler = WaveScheduler(len(contexts), lds.next_epoch, grid.checks.synccheck)
    for ctx in contexts:
        ctx.scheduler = scheduler
    scheduler.run(contexts, grid.body)


class _NoBar:
    def update(self, n: int) -> None:
        """Nothing to show."""


@contextmanager
def _progress(grid: Grid) -> Iterator:
    """A tqdm bar on stderr (blocks done, rate, time left) for launches that run longer than
    PROGRESS_DELAY_S; off when stderr is not a terminal or $ROCWMMA_PY_PROGRESS=0."""
    wanted = os.environ.get(PROGRESS_VAR, "").strip() != "0" and sys.stderr.isatty()
    if not wanted:
        yield _NoBar()
        return
    from tqdm import tqdm

    with tqdm(total=grid.blocks, unit="block", desc=grid.kernel_name, delay=PROGRESS_DELAY_S,
              leave=False, file=sys.stderr) as bar:
        yield bar
