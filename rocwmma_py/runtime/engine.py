"""Running a launch: the batched engine (default) and the per-wave engine.

Per-wave engine: blocks run one after another; the waves of a multi-wave block each get a
thread and take turns between barriers (`scheduler.py`). Every wave sees plain ints for
`blockIdx` and its own `current_wave()`.

Batched engine: consecutive blocks are grouped into batches of about `batch_lanes()` lanes,
and the kernel's Python code runs once per batch: every per-lane value spans all waves of
the batch (wave-major, lane axis last), so each fragment op, load and store is one numpy
call for the whole batch. Waves of a block run in lockstep, so a barrier only closes the
LDS race epoch. Where a batch cannot stay together the engine falls back, keeping the
per-wave engine's results:
- a branch, loop bound or index that differs between blocks (`BatchSplit`): global writes
  of the batch are undone (`Journal`) and each group of blocks that agree reruns as its own
  batch (groups in the order of their first block; blocks that do not race commute, so the
  memory left behind is the per-wave engine's);
- one that differs between the waves of a block (warp specialization, early-returning
  waves): the batch reruns as wave groups, each a context over the same waves of every
  block, run in turns between barriers like the per-wave engine's waves (`WaveScheduler`),
  sharing the batch's LDS; groups are refined (by the values the waves saw) until every
  group agrees, and the next batch starts from the last grouping that worked;
- anything only per-wave execution defines (`NeedsPerWave`: `current_wave()`, a reduction
  over lanes, lanes diverging inside a wave, two lanes writing one LDS byte): the batch's
  blocks rerun wave by wave;
- a journal over its byte budget (`JournalFull`): the batch is undone and its blocks rerun
  in smaller batches (one block: per wave, unjournaled), and later batches stay smaller;
- any exception: the whole batch is undone and rerun wave by wave, so the error raised (and
  the memory left behind) is exactly the per-wave engine's, blocks in order;
- an asynchronous exception (KeyboardInterrupt, SystemExit, GeneratorExit, any other
  BaseException, or an exception raised by a Python signal handler): the running batch is
  undone and the exception propagates at once, so memory is what the per-wave engine left
  after the blocks before the batch.
Python side effects of kernel code other than memory writes (printing) may therefore happen
more than once; kernels that change other Python state run per wave (`reach.py`).
"""

from __future__ import annotations

import os
import sysconfig
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from ..arch import Arch
from ..settings import BATCH_BYTES, batch_bytes, batch_lanes, engine_name
from .checks import Checks
from .dims import Dim3
from .interrupts import is_asynchronous, signal_exceptions_marked
from .journal import Journal, JournalFull
from .lane_grid import ThreadLanes
from .lds import BlockLds
from .progress import Progress, step_listener
from .races import GlobalRaces
from .scheduler import WaveScheduler
from .spread_cost import Memo
from .state import (
    BatchSplit,
    NeedsBlockOrder,
    NeedsFullWidth,
    NeedsPerWave,
    WaveContext,
    note_where,
    running,
)
from .stats import Fallback, LaunchStats, publish
from .uniform import uniform
from .workers import run_on_workers

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_NUMPY_DIR = os.path.dirname(os.path.abspath(np.__file__))
_STDLIB_DIR = os.path.abspath(sysconfig.get_paths()["stdlib"])
_INSTALLED_DIRS = tuple({os.path.abspath(sysconfig.get_paths()[k]) for k in ("purelib",
                                                                            "platlib")})


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
    memo: Memo = field(default_factory=Memo)  # the kernel's last launch of this shape

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

    def live_lanes(self) -> np.ndarray | None:
        """(waves_per_block, W): which lanes of a block's waves are threads, None when all
        are (the block is whole waves)."""
        threads = self.block_dim.x * self.block_dim.y * self.block_dim.z
        width = self.arch.wave_size
        if threads == self.waves_per_block * width:
            return None
        return (np.arange(self.waves_per_block * width) < threads).reshape(-1, width)

    def narrow_width(self) -> int:
        """The threads of a block narrower than a wave (0 for blocks of whole waves)."""
        threads = self.block_dim.x * self.block_dim.y * self.block_dim.z
        return threads if threads < self.arch.wave_size else 0


def run(grid: Grid, per_wave: str = "") -> None:
    """Run every block of the launch on the selected engine (per wave, blocks in order, when
    `per_wave` gives a cause: the kernel may change Python state, see reach.py; racecheck
    always runs per wave)."""
    stats = LaunchStats()
    publish(stats)
    progress = Progress(grid.blocks, grid.kernel_name)
    token = step_listener.set(progress.step)
    try:
        with signal_exceptions_marked():
            wave_engine = bool(per_wave) or grid.checks.racecheck or engine_name() == "wave"
            launch = _Launch(grid, stats, progress, wave_engine)
            if per_wave:
                stats.fallbacks.append(Fallback("per wave", 0, grid.blocks, per_wave))
            if grid.checks.racecheck:
                stats.fallbacks.append(Fallback("per wave", 0, grid.blocks, "racecheck"))
            run_on_workers(launch, _only_serial(grid, per_wave))
    finally:
        step_listener.reset(token)
        progress.close()
        publish(stats)  # a launch from kernel code must not replace this one's


class _Launch:
    """One launch in progress: its grid, statistics, progress bar and batch shape."""

    def __init__(self, grid: Grid, stats: LaunchStats, progress: Progress,
                 per_wave: bool = False) -> None:
        self.grid = grid
        self.per_wave = per_wave
        self.record: Journal | None = None  # in a worker process: every global write kept
        self.stats = stats
        self.progress = progress
        self.budget = batch_bytes()
        self.narrow = grid.narrow_width()  # 0 once a batch needed whole waves
        lanes = grid.waves_per_block * (self.narrow or grid.arch.wave_size)  # per block
        self.per_batch = max(1, batch_lanes() // lanes)
        self.groups: list[np.ndarray] = [np.arange(grid.waves_per_block)]
        self.races = GlobalRaces() if grid.checks.racecheck else None
        width = grid.arch.wave_size
        # threadIdx and lane_id() for each context
        self.lanes_of = ThreadLanes([t.reshape(grid.waves_per_block, width)
                                     for t in grid.thread_indices()])
        self.live = grid.live_lanes()

    def run_blocks(self, start: int, stop: int) -> None:
        """Blocks [start, stop) in block order, on the launch's engine."""
        if self.per_wave:
            self.run_per_wave(start, stop)
        else:
            self.run_batched(start, stop)

    def run_per_wave(self, start: int, stop: int) -> None:
        for block in range(start, stop):
            self.progress.begin(1)
            self.block_per_wave(block, None)
            self.progress.end()

    def run_batched(self, start: int, stop: int) -> None:
        _warm_allocator()
        while start < stop:
            blocks = np.arange(start, min(start + self.per_batch, stop))
            self.progress.begin(blocks.size)
            self.top_batch(blocks)
            self.progress.end()
            start += blocks.size

    def top_batch(self, blocks: np.ndarray) -> None:
        """One batch; an error (or an atomic that met its blocks out of order after a split)
        undoes it and reruns it wave by wave, blocks in order (the per-wave engine's error and
        memory); an asynchronous exception undoes it and propagates."""
        journal = Journal(self.budget, snapshots=self.record is None)  # (a record lists writes)
        try:
            try:
                self.batch(blocks, journal, self.groups)
                if self.record is not None:
                    self.record.absorb(journal)
                journal.release()
                return
            except JournalFull:
                journal.undo()
                shrink = True
            except (Exception, NeedsBlockOrder) as err:  # an atomic met blocks out of order
                journal.undo()
                if is_asynchronous(err):
                    raise
                self._note("per wave", blocks, blocks, err, f"{type(err).__name__}: {err}")
                shrink = False
        except BaseException:  # also an interrupt in a handler above before its undo began
            journal.undo()
            raise
        # rerun outside the except clauses: the rerun's error is the one the user sees, not
        # chained to the batch's ("During handling of the above exception ...")
        if shrink:
            self._shrink(blocks)
            return
        for block in blocks:  # raises the per-wave engine's error, if there is one
            self.block_per_wave(int(block), None)

    def _shrink(self, blocks: np.ndarray) -> None:
        """The batch's journal passed the budget: smaller batches from now on."""
        cause = f"undo journal over ${BATCH_BYTES.env_var} = {self.budget} bytes"
        if blocks.size == 1:
            self.stats.fallbacks.append(Fallback("per wave", int(blocks[0]), 1, cause))
            self.block_per_wave(int(blocks[0]), None)
            return
        self.stats.fallbacks.append(Fallback("smaller batches", int(blocks[0]), blocks.size,
                                             cause))
        half = self.per_batch = max(1, blocks.size // 2)  # a half may shrink it further
        for start in range(0, blocks.size, half):
            self.top_batch(blocks[start:start + half])

    def batch(self, blocks: np.ndarray, parent: Journal, groups: list[np.ndarray]) -> None:
        """Run `blocks` as one batch in wave groups `groups`; on a split, rerun refined."""
        grid, k = self.grid, blocks.size
        journal = Journal(parent=parent)
        lds = BlockLds(grid.arch, grid.shared_bytes, grid.kernel_name, blocks=k,
                       initcheck=grid.checks.initcheck, deferred=True)
        contexts = [self._context(blocks, g, lds, journal) for g in groups]
        scheduler = None
        try:
            if len(contexts) == 1:
                with running(contexts[0]):
                    grid.body()
                contexts[0].raise_if_tainted()  # kernel code caught an error or a signal
            else:
                labels = [_label(g) for g in groups]
                scheduler = WaveScheduler(len(groups), lds.next_epoch, grid.checks.synccheck,
                                          labels)
                scheduler.run(contexts, grid.body)
                if any(ctx.taint is not None for ctx in contexts):
                    raise NeedsPerWave  # kernel code caught an error or a signal
            lds.next_epoch()  # the last epoch's race check
        except BatchSplit as split:
            journal.undo()
            slot = 0 if scheduler is None else scheduler.failed_slot or 0
            self._split(blocks, parent, groups, slot, split)
            return
        except NeedsPerWave as err:
            journal.undo()
            if isinstance(err, NeedsFullWidth) and contexts[0].narrow:
                # whole waves for the rest of the launch, in batches of as many lanes
                self.per_batch = max(1, self.per_batch * self.narrow // grid.arch.wave_size)
                self.narrow = 0
                self._note("whole waves", blocks, blocks, err,
                           str(err) or "an operation that sees every lane of a wave, in "
                           "blocks narrower than a wave")
                self.batch(blocks, parent, groups)
                return
            self._note("per wave", blocks, blocks, err,
                       str(err) or "a construct only per-wave execution defines "
                       "(current_wave(), lanes by position or reduced, divergence inside a "
                       "wave, two lanes writing one LDS element)")
            for block in blocks:
                self.block_per_wave(int(block), parent)
            return
        except BaseException:
            journal.undo()
            raise
        parent.absorb(journal)
        self.groups = groups
        self.stats.batched_blocks += k
        self.stats.wave_groups = max(self.stats.wave_groups, len(groups))

    def _split(self, blocks: np.ndarray, parent: Journal, groups: list[np.ndarray],
               slot: int, split: BatchSplit) -> None:
        """Rerun after a BatchSplit in group `slot`: with that group's waves regrouped when
        waves of a block disagreed, else with its blocks split by the value they saw."""
        group = groups[slot]
        per_block = split.values.reshape(blocks.size, group.size)
        disagree = ~(per_block == per_block[:, :1]).all(axis=1)
        if disagree.any():
            _, first, which = np.unique(per_block.T, axis=0, return_index=True,
                                        return_inverse=True)
            which = which.reshape(-1)
            parts = [group[which == part] for part in np.argsort(first)]
            where = blocks[np.flatnonzero(disagree)[:1]]
            self._note("wave groups", where, blocks, split, split.cause or
                       "a Python branch, loop bound or index differing between waves of a block")
            self.batch(blocks, parent, groups[:slot] + parts + groups[slot + 1:])
            return
        self.stats.splits += 1
        _, first, which = np.unique(per_block[:, 0], return_index=True, return_inverse=True)
        which = which.reshape(-1)
        differs = blocks[np.flatnonzero(which != which[0])[:1]]
        self._note("block split", differs, blocks, split,
                   "a Python branch, loop bound or index differing between blocks")
        for part in np.argsort(first):  # in the order of each part's first block
            self.batch(blocks[which == part], parent, groups)

    def _note(self, kind: str, where: np.ndarray, blocks: np.ndarray, err: BaseException,
              cause: str) -> None:
        """Record a fallback of batch `blocks` caused at the first of `where`."""
        block = int(where[0]) if where.size else int(blocks[0])
        self.stats.fallbacks.append(Fallback(kind, block, int(blocks.size), cause,
                                             _kernel_line(err)))

    def _context(self, blocks: np.ndarray, group: np.ndarray, lds: BlockLds,
                 journal: Journal) -> WaveContext:
        """The batch's context for waves `group` of every block of `blocks`."""
        grid, k, n = self.grid, blocks.size, group.size
        # blocks narrower than a wave: per-lane values hold the threads' lanes only (a batch
        # of one wave keeps whole waves: there a per-lane value would pass for the wave's)
        narrow = self.narrow if k > 1 else 0
        width = narrow or grid.arch.wave_size
        tx, ty, tz = self.lanes_of(group, width, k)
        # (a narrow batch's lanes are all threads, but its EXEC is a mask all the same, as
        # the partial waves' it stands for: operations take the same masked paths)
        live = (np.ones(k * n * width, bool) if narrow else None if self.live is None
                else np.tile(self.live[group].reshape(-1), k))
        return WaveContext(
            arch=grid.arch,
            kernel_name=grid.kernel_name,
            waves_per_block=grid.waves_per_block,
            block_dim=grid.block_dim,
            grid_dim=grid.grid_dim,
            wave_ids=np.tile(group, k),
            block_ids=np.repeat(blocks, n),
            block_slots=np.repeat(np.arange(k), n),
            thread_idx=(tx, ty, tz),
            lane_ids=self.lanes_of.lane_numbers(k * n, width),
            block_idx=tuple(uniform(np.repeat(c, n).tolist())  # Python ints per wave
                            for c in grid.block_coords(blocks)),
            lds=lds,
            batched=True,
            journal=journal,
            checks=grid.checks,
            narrow=narrow,
            **self._exec(live, narrow > 0),
        )

    @staticmethod
    def _exec(live: np.ndarray | None, narrow: bool = False) -> dict:
        """The context fields of lanes `live`: a partial wave starts with its other lanes off
        in EXEC (the first `where` mask), so every masked operation skips them (a narrow
        batch's EXEC, all on, stands for them)."""
        if live is None or (live.all() and not narrow):
            return {}
        return dict(live=live, masks=[live])

    def block_per_wave(self, block: int, journal: Journal | None) -> None:
        """The per-wave engine for one block: ints for blockIdx, one context per wave."""
        grid = self.grid
        journal = self.record if journal is None else journal
        self.stats.per_wave_blocks += 1
        width = grid.arch.wave_size
        coords = tuple(int(c) for c in grid.block_coords(np.array(block)))
        lds = BlockLds(grid.arch, grid.shared_bytes, grid.kernel_name,
                       initcheck=grid.checks.initcheck)
        if self.races is not None:
            self.races.clock = lds
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
                thread_idx=self.lanes_of(np.array([w]), width, 1),
                lane_ids=self.lanes_of.lane_numbers(1, width),
                block_idx=coords,
                lds=lds,
                journal=journal,
                checks=grid.checks,
                global_races=self.races,
                **self._exec(self.live[w] if self.live is not None else None),
            )
            for w in range(grid.waves_per_block)
        ]
        if len(contexts) == 1:
            ctx = contexts[0]
            with running(ctx):
                try:
                    grid.body()
                except BaseException as err:
                    note_where(err, ctx)
                    raise
            return
        WaveScheduler(len(contexts), lds.next_epoch, grid.checks.synccheck).run(contexts,
                                                                                 grid.body)


def _only_serial(grid: Grid, per_wave: str) -> str:
    """Why the launch must run in this process, block after block ("" if it need not)."""
    if per_wave:
        return per_wave
    checks = grid.checks
    names = [n for n in ("initcheck", "synccheck", "racecheck") if getattr(checks, n)]
    return f"{'/'.join(names)} reports in block order" if names else ""


def _label(group: np.ndarray) -> str:
    """Waves of a group for messages: "3", "0-3" or "0,2,5"."""
    if group.size > 1 and (np.diff(group) == 1).all():
        return f"{group[0]}-{group[-1]}"
    return ",".join(str(w) for w in group)


def _kernel_line(err: BaseException) -> str:
    """"file:line" of the innermost frame outside the libraries (`_in_library`) where `err`
    was raised: the kernel line that caused a fallback."""
    line = ""
    for frame in traceback.extract_tb(err.__traceback__):
        if not _in_library(os.path.abspath(frame.filename)):
            line = f"{frame.filename}:{frame.lineno}"
    return line


def _in_library(path: str) -> bool:
    """Whether a frame's file is no kernel's: this package's, numpy's dispatch, or the
    standard library's (contextlib's, for `with where(...)`), but for the packages
    installed beside it (installed samples and user code)."""
    if path.startswith((_PACKAGE_DIR, _NUMPY_DIR)):
        return True
    return path.startswith(_STDLIB_DIR) and not path.startswith(_INSTALLED_DIRS)


_WARM_BYTES = 4 << 20  # a batch's largest usual numpy temporaries, with room


@cache
def _warm_allocator() -> None:
    """Allocate and free one 4 MiB block, once per process: glibc's malloc then serves
    blocks below that size from its heap, where by default it maps fresh pages for any
    block of 128 KiB or more (a batch of 32768 lanes makes 256 KiB float64 temporaries),
    and their page faults measured up to a quarter of a SIMT kernel's time. (Elsewhere,
    one allocation.)"""
    np.empty(_WARM_BYTES, np.uint8)
