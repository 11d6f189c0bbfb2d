"""A launch's blocks spread over worker processes: every core of the machine.

Blocks of a launch are independent in HIP's model, so after the first blocks ran here (they
time the kernel, its batches and the machine's other load: spread_cost.py; a launch estimated
to take under `MIN_PARALLEL_S` in all, or not to gain from workers, stays here), the rest of
the grid is cut into contiguous pieces of blocks that `worker_count()` forked processes take
in turn. The probe runs two small batches, which cost a launch whose kernel's Python
dominates up to two batches more (twice a one-batch launch): a launch is probed only where
its kernel's last launch of the same shape showed that cheap (`Kernel.costs`), or one ran
long enough unprobed (its CPU time is then every later probe's second equation: one
batch), or, never measured, where it has batches enough that the rest, staying here,
absorbs the probe's (`spread_cost.rebatched`) or the kernel calls `mma_sync`; else it runs
here unprobed, timed. A never-measured launch of several batches without matrix-core work
(its batches cost its Python) first runs its first batch as usual, timed: where that batch
shows the launch too short to spread, the rest follows unprobed; else the probe needs only
one small part, the first batch its other equation.

Fork (not threads: the kernel's Python would fight over the GIL; not spawn: kernels
are closures) hands each worker the kernel, its arguments and this process's memory
copy-on-write, without pickling. A worker runs a piece with the ordinary engine, its
journal keeping every global write (`_Launch.record`), and sends back each written address
with its new value, the piece's statistics and whether it failed. This process applies the
pieces in block order. From the first piece that failed, ran an order-sensitive atomic (a
float or exchange one, or one on an address an earlier piece wrote: see disjoint.py), wrote
memory this process cannot name, or whose worker died, it runs the rest of the grid itself,
serially: its memory is then exactly what the serial engine had at that block, so the error
raised and the memory left behind are the serial engine's. LDS atomics are block-local and
never order-sensitive. What a worker prints (sys.stdout, sys.stderr) travels with its piece
and is printed here when the piece is applied: output comes in block order, a piece rerun
here prints only once, and it reaches whatever this process's streams are (a notebook,
pytest's capture).
Other Python side effects (changing objects) happen in the workers and stay there.
"""

from __future__ import annotations

import ctypes
import functools
import io
import os
import pickle
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from multiprocessing.connection import Connection, Pipe, wait
from typing import Protocol

import numpy as np

from ..settings import use_progress, worker_count
from . import spread_cost
from .atomics import OrderMarks
from .disjoint import WrittenMemory, by_view, shared_address
from .journal import Journal, WriteLog
from .memory import Buffer, Pointer
from .progress import PieceProgress, Progress, step_listener
from .state import (
    current_context_or_none,
    logging_atomics,
    order_sensitive_cause,
    order_sensitive_ops,
)
from .stats import Fallback, LaunchStats

MIN_PARALLEL_S = 0.5  # estimated serial time below which a launch never forks (see README)
PAYOFF = 0.9  # fork only when the estimated wall time with workers is below this x serial
FORK_S = 0.02  # starting one worker process and its first piece, seconds
PIECE_S = 0.002  # a piece's fixed cost beyond its blocks: collecting, sending, applying it
MIN_BLOCKS = 16  # grids with fewer blocks never fork
PROBE_SHARE = 32  # the first 1/PROBE_SHARE of the blocks (at most a batch, at least 3 of a
# batched launch that has 12) run here, timed
PIECES_PER_WORKER = 2  # pieces per worker: balance vs bigger batches (faster per block)
PROBE_SHARE_MAX = 0.03  # a launch is probed only where the probe's batches cost at most this
UNMEASURED_MIN_BATCHES = 4  # a launch of fewer batches, never measured, is not probed
_POLL_S = 0.05  # wait slice of this process: interrupts are handled within it
_PR_SET_PDEATHSIG = 1  # Linux prctl: a signal for the child when its parent dies

_PROGRESS = "progress"  # a worker's message tag: (tag, piece, blocks done in it so far)
_in_worker = False  # this process is a worker: its launches (nested ones) run serially


class LaunchGrid(Protocol):
    """What the workers read of a launch's grid (`engine.Grid`)."""

    @property
    def blocks(self) -> int: ...

    @property
    def memo(self) -> spread_cost.Memo: ...

    @property
    def body(self) -> Callable[[], None]: ...


class BlockRunner(Protocol):
    """What the workers need of a launch in progress (`engine._Launch`): its grid and batch
    shape to cut pieces, running a range of blocks, and the statistics, write record and
    progress bar a worker process replaces with its own."""

    stats: LaunchStats
    record: Journal | None  # every global write, kept while a worker runs a piece
    progress: Progress

    @property
    def grid(self) -> LaunchGrid: ...

    @property
    def per_wave(self) -> bool: ...

    per_batch: int  # blocks per batch (the serial rest after a probe may take more)

    def run_blocks(self, start: int, stop: int) -> None: ...


def run_on_workers(launch: BlockRunner, serial_cause: str) -> None:
    """Run every block of `launch`: on worker processes when that pays and can be exact,
    else here; `serial_cause` says why it must stay here ("" if not)."""
    grid = launch.grid
    count = worker_count()
    if (count == 1 or serial_cause or grid.blocks < MIN_BLOCKS or not _can_fork()
            or current_context_or_none() is not None):
        launch.run_blocks(0, grid.blocks)
        return
    per_batch = None if launch.per_wave else launch.per_batch
    memo = grid.memo
    first, known = 0, None  # blocks run before the probe, and a whole run's cost
    if per_batch is not None:
        batches = -(-grid.blocks // per_batch)
        if not _worth_probing(memo, batches, grid.blocks):
            started = time.process_time()
            launch.run_blocks(0, grid.blocks)
            memo.seconds = time.process_time() - started
            return
        if memo.seconds is not None:
            known = (grid.blocks, batches, memo.seconds)
        elif memo.cost is None and not memo.matrix_work and batches > 1:
            first, known = _first_batch(launch, per_batch)
            if known[2] * batches < MIN_PARALLEL_S:  # too short to spread: as if unprobed
                started = time.process_time()
                launch.run_blocks(first, grid.blocks)
                memo.seconds = known[2] + time.process_time() - started
                return
    probe = max(1, grid.blocks // PROBE_SHARE)
    if per_batch is not None:
        # at least 3 blocks: two parts of different sizes (spread_cost), if the grid has 12;
        # after a first batch, an eighth of one: its run is the other equation, and the
        # probe's write log costs as much as its blocks again in a write-heavy kernel
        probe = min(max(probe, 3), max(1, per_batch // 8) if first else per_batch,
                    max(1, grid.blocks // 4), grid.blocks - first)
    sensitive = order_sensitive_ops()
    launch.record = record = WriteLog()  # the probe's writes price what workers send back
    try:
        with logging_atomics() as atomics:
            cost, probe, parts = spread_cost.probe(
                lambda start, stop: launch.run_blocks(first + start, first + stop), probe,
                per_batch, lambda c: _promising(c, grid.blocks, count), known)
    finally:
        launch.record = None
    memo.cost = cost
    rest = grid.blocks - first - probe
    serial = cost.serial(rest)
    cause = (order_sensitive_cause() if order_sensitive_ops() != sensitive
             else shared_address(atomics))
    if cause:
        _note_serial(launch, first + probe, cause)
    elif rest and serial >= MIN_PARALLEL_S:
        written = rest / probe * sum(flat.size for _, flat in _kernel_writes(record))
        spread = _Spread(launch, count, first + probe, bool(atomics))
        if _spread_time(cost, rest, written, spread) <= PAYOFF * serial:
            spread.run()
            return
    if per_batch is not None:  # the probe's batches taken out of the rest's
        launch.per_batch = spread_cost.rebatched(per_batch, rest, batches, parts + bool(first))
    launch.run_blocks(first + probe, grid.blocks)


def _first_batch(launch: BlockRunner, per_batch: int) -> tuple[int, spread_cost.Part]:
    """Run a never-measured launch's first batch as usual, timed: (its blocks, the run as
    (blocks, 1 batch, CPU seconds)). A kernel whose batches cost its Python (a softmax row
    loop) shows from it whether its launch is long enough to spread at all, and its probe
    then needs one small part, not two: two small batches cost it as much as the ordinary
    ones, and their slope overstated its cost per block (3x, llama.cpp's softmax)."""
    blocks = min(per_batch, launch.grid.blocks)
    started = time.process_time()
    launch.run_blocks(0, blocks)
    return blocks, (blocks, 1, time.process_time() - started)


def _worth_probing(memo: spread_cost.Memo, batches: int, blocks: int) -> bool:
    """Whether a batched launch of `blocks` blocks in `batches` batches should run the probe,
    whose batches (two; one with a known earlier run) cost up to as many batches' fixed
    cost more (twice a one-batch launch whose kernel's Python dominates): where the
    kernel's last launch of this shape showed that at most `PROBE_SHARE_MAX` of it, or took
    `MIN_PARALLEL_S` or more unprobed, or, unmeasured, where the rest can absorb the probe's
    batches (`spread_cost.rebatched`) or the kernel does matrix-core work (a GEMM's
    batches cost its tiles' numerics, not its Python)."""
    if memo.cost is not None:
        cpu = memo.cost.fixed * batches + memo.cost.per_block * blocks
        parts = 1 if memo.seconds is not None else 2
        return cpu >= MIN_PARALLEL_S and parts * memo.cost.fixed <= PROBE_SHARE_MAX * cpu
    if memo.seconds is not None:
        return memo.seconds >= MIN_PARALLEL_S
    return batches >= UNMEASURED_MIN_BATCHES or memo.matrix_work


def _promising(cost: spread_cost.Cost, blocks: int, count: int) -> bool:
    """Whether `blocks` blocks at `cost` could gain from `count` workers: long enough, and
    idle cores that would beat `PAYOFF` even if spreading cost nothing."""
    return (cost.serial(blocks) >= MIN_PARALLEL_S
            and cost.cores_for(count) * PAYOFF >= cost.share)


def _spread_time(cost: spread_cost.Cost, blocks: int, written: float, spread: _Spread) -> float:
    """Estimated wall time of the last `blocks` blocks of a launch on `spread.count`
    workers: each piece a batch of its own, moving `written` elements back (in the workers,
    and here, where pieces are applied one after another, sharing the cores with them),
    each piece's fixed cost and starting the processes; the workers get the cores other
    processes leave (`Cost.cores_for`)."""
    worker_s, apply_s = _transfer_costs()
    count, pieces = spread.count, len(spread.pieces)
    work = cost.fixed * pieces + cost.per_block * blocks + written * worker_s
    return (work / cost.cores_for(count) + written * apply_s / cost.share + PIECE_S * pieces
            + FORK_S * count)


@functools.cache
def _transfer_costs() -> tuple[float, float]:
    """Seconds per written element (float32, scattered) for a worker to log, collect and
    pickle it, and for this process to unpickle and apply it: measured once per process,
    on 16,384 elements (enough for a per-element price; 65,536 cost the first launch that
    weighed workers 30 ms)."""
    n = 1 << 14
    target = np.zeros(4 * n, np.float32)
    flat = np.random.default_rng(0).permutation(4 * n)[:n]
    costs = []
    for _ in range(3):  # the least of three: a busy moment must not price workers out
        log = WriteLog()
        started = time.perf_counter()
        log.record(target, flat, target[flat])
        data = pickle.dumps([(0, f, view[f]) for view, f in log.written()],
                            pickle.HIGHEST_PROTOCOL)
        worker = time.perf_counter() - started
        started = time.perf_counter()
        applying = Journal()
        for _, where, values in pickle.loads(data):
            typed = target.view(values.dtype)
            applying.record(typed, where, typed[where])
            typed[where] = values
        costs.append((worker / n, (time.perf_counter() - started) / n))
    return min(c[0] for c in costs), min(c[1] for c in costs)


def _can_fork() -> bool:
    """Fork is safe here: Linux, the main thread (no lock of another thread copied held),
    and not inside a worker."""
    return (sys.platform.startswith("linux") and not _in_worker
            and threading.current_thread() is threading.main_thread())


@dataclass
class _Child:
    pid: int
    conn: Connection
    piece: int | None = None  # the piece it is running


class _Spread:
    """Blocks [first, grid) of one launch, cut into pieces, on worker processes."""

    def __init__(self, launch: BlockRunner, count: int, first: int, atomics: bool) -> None:
        self.launch = launch
        blocks = launch.grid.blocks
        rest = blocks - first
        size = -(-rest // (count * PIECES_PER_WORKER))
        if not launch.per_wave:
            size = min(size, launch.per_batch)
        self.pieces = [(s, min(s + size, blocks)) for s in range(first, blocks, size)]
        self.count = min(count, len(self.pieces))
        self.memory = _known_memory(launch.grid.body)
        self.written = WrittenMemory(exact=atomics)  # what the applied pieces wrote
        self.cause = ""  # why the pieces from `stop` on run here
        self.stop = len(self.pieces)  # the first piece that runs here
        self.handed = 0  # pieces handed out so far
        # piece -> (piece, failure, writes, atomic addresses, stats, printed)
        self.results: dict[int, tuple] = {}
        self.shown: dict[int, float] = {}  # piece -> its blocks the bar already counts

    def run(self) -> None:
        children: list[_Child] = []
        _flush_output()
        try:
            for _ in range(self.count):
                try:
                    children.append(self._fork(children))
                except OSError:  # no more processes: the ones started do the work
                    break
            self.launch.stats.workers = max(1, len(children))
            stop = self._collect(children)
        finally:
            _end(children)
        if stop < len(self.pieces):
            start = self.pieces[stop][0]
            _note_serial(self.launch, start, self.cause)
            self.launch.run_blocks(start, self.launch.grid.blocks)

    def _fork(self, siblings: list[_Child]) -> _Child:
        ours, theirs = Pipe()
        parent = os.getpid()
        with warnings.catch_warnings():  # Python 3.12+ warns of native (BLAS) threads;
            warnings.simplefilter("ignore", DeprecationWarning)  # OpenBLAS handles fork
            pid = os.fork()
        if pid == 0:  # the worker: never returns
            ours.close()
            for sibling in siblings:
                sibling.conn.close()
            _work(self.launch, theirs, self.pieces, parent)
        theirs.close()
        return _Child(pid, ours)

    def _collect(self, children: list[_Child]) -> int:
        """Hand out pieces and apply results in block order; the first piece to run here."""
        applied = 0
        for child in children:
            self._hand(child)
        while applied < self.stop:
            running = [(c, c.piece) for c in children if c.piece is not None]
            if not running:  # no worker left to finish the pieces before `stop`
                self.cause = self.cause or "the worker processes ended"
                return applied
            ready = wait([c.conn for c, _ in running], _POLL_S)
            for child, piece in running:
                if child.conn not in ready:
                    continue
                child.piece = None
                try:
                    result = pickle.loads(child.conn.recv_bytes())
                except (EOFError, OSError):
                    result = _failed(piece, f"its worker process (pid {child.pid}) ended")
                if result[0] == _PROGRESS:  # blocks done so far in the running piece
                    child.piece = piece
                    self._show(piece, result[2])
                    continue
                self._received(piece, result)
                if not result[1]:  # a failed worker's memory is no longer ours: it idles
                    self._hand(child)
            while applied < self.stop and applied in self.results:
                if not self._apply(applied, self.results.pop(applied)):
                    return applied
                applied += 1
        return self.stop

    def _hand(self, child: _Child) -> None:
        """Give `child` the next piece, if one before `stop` is left."""
        if self.handed >= self.stop:
            return
        piece, self.handed = self.handed, self.handed + 1
        try:
            child.conn.send(piece)
        except OSError:
            self._received(piece, _failed(piece, f"its worker process (pid {child.pid}) ended"))
            return
        child.piece = piece

    def _received(self, piece: int, result: tuple) -> None:
        self.results[piece] = result
        if result[1] and piece < self.stop:
            self.stop, self.cause = piece, result[1]

    def _apply(self, index: int, result: tuple) -> bool:
        """Write a piece's results into this process's memory (all or nothing)."""
        _, _, writes, atomics, stats, printed = result
        start, stop = self.pieces[index]
        for address, itemsize, name, flat in atomics:
            if self.written.met(address, itemsize, flat):
                self.cause = (f"global atomics of blocks {start}..{stop - 1} on '{name}' hit "
                              "addresses an earlier piece wrote")
                return False
        targets = []
        for address, values_flat, values in writes:
            memory = self.memory.get(address)
            if memory is None or memory.size < (int(values_flat[-1]) + 1) * values.itemsize:
                self.cause = "a global write to memory this process cannot name"
                return False
            usable = memory.size - memory.size % values.itemsize
            targets.append((memory[:usable].view(values.dtype), values_flat, values))
        applying = Journal()
        try:
            for view, flat, values in targets:
                applying.record(view, flat, view[flat])
                view[flat] = values
        except BaseException:  # an interrupt: nothing of this piece stays (see Journal)
            applying.undo()
            raise
        for (address, values_flat, values), (view, _, _) in zip(writes, targets, strict=True):
            self.written.add(address, values.itemsize, values_flat, view.size)
        _merge(self.launch.stats, stats)
        _print(printed)
        self.launch.progress.advance(stop - start - self.shown.pop(index, 0.0))
        return True

    def _show(self, piece: int, done: float) -> None:
        """A worker's report: `done` blocks of `piece` are finished (not yet applied)."""
        self.launch.progress.advance(done - self.shown.get(piece, 0.0))
        self.shown[piece] = done


def _work(launch: BlockRunner, conn: Connection, pieces: list[tuple[int, int]],
          parent: int) -> None:
    """A worker process: run the pieces this process is sent, report each; exit."""
    global _in_worker
    status = 1
    try:
        _in_worker = True
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the launching process stops us
        _die_with(parent)
        with use_progress(False):  # the launching process shows what this one reports
            launch.progress = PieceProgress(
                lambda piece, done: conn.send_bytes(pickle.dumps((_PROGRESS, piece, done))),
                launch.progress.unit_steps)
        step_listener.set(launch.progress.step)
        sys.stdout, sys.stderr = io.StringIO(), io.StringIO()  # sent with each piece
        while True:
            piece = conn.recv()
            if piece is None:
                break
            conn.send_bytes(_run_piece(launch, piece, *pieces[piece]))
        status = 0
    except BaseException:  # noqa: BLE001 - the launching process reruns the piece
        status = 1
    finally:
        os._exit(status)


def _run_piece(launch: BlockRunner, piece: int, start: int, stop: int) -> bytes:
    """Blocks [start, stop) here; the pickled (piece, failure or "", writes, atomic
    addresses (`disjoint.by_view`), stats, printed) where printed is the (stdout, stderr)
    text of the piece."""
    if isinstance(launch.progress, PieceProgress):
        launch.progress.start_piece(piece)
    sensitive = order_sensitive_ops()
    launch.stats = LaunchStats()
    launch.record = record = WriteLog()
    failure = ""
    try:
        with logging_atomics() as atomics:
            launch.run_blocks(start, stop)
    except BaseException as err:  # noqa: BLE001 - reported; the launching process reruns it
        failure = f"{type(err).__name__} in blocks {start}..{stop - 1}"
    if order_sensitive_ops() != sensitive:
        failure = order_sensitive_cause()
    writes = []
    if not failure:
        for view, flat in _kernel_writes(record):
            if flat.size:
                writes.append((view.__array_interface__["data"][0], flat, view[flat]))
    printed = _take_output()
    try:
        return pickle.dumps((piece, failure, writes, by_view(atomics) if not failure else [],
                             launch.stats, printed), pickle.HIGHEST_PROTOCOL)
    except Exception as err:  # noqa: BLE001 - e.g. a Fallback text that does not pickle
        return pickle.dumps(_failed(piece, f"results not picklable ({err})"))


def _kernel_writes(record: WriteLog) -> list[tuple[np.ndarray, np.ndarray]]:
    """The kernel's global writes `record` kept: its `written()` without the engine's
    atomic order records (`atomics.OrderMarks`)."""
    return [(view, flat) for view, flat in record.written() if not isinstance(view, OrderMarks)]


def _failed(piece: int, cause: str) -> tuple:
    """The result of a piece that runs again here: nothing of it is applied or printed."""
    return piece, cause, [], [], None, ("", "")


def _take_output() -> tuple[str, str]:
    """A worker: what the kernel printed since the last call, (stdout, stderr)."""
    texts = []
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        text = stream.getvalue() if isinstance(stream, io.StringIO) else ""
        setattr(sys, name, io.StringIO())  # the kernel may have replaced or closed it
        texts.append(text)
    return texts[0], texts[1]


def _print(printed: tuple[str, str]) -> None:
    """Print a piece's output here, as the serial engine would have."""
    for stream, text in zip((sys.stdout, sys.stderr), printed, strict=True):
        if text:
            stream.write(text)
            stream.flush()


def _die_with(parent: int) -> None:
    """Linux: this worker gets SIGKILL when the launching process dies (no orphans)."""
    with suppress(OSError, AttributeError):  # no prctl: the parent still reaps on exit
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL))
    if os.getppid() != parent:  # it died before prctl
        os._exit(1)


def _end(children: list[_Child]) -> None:
    """Stop and reap every worker: idle ones are told to exit, busy ones killed at once."""
    for child in children:
        try:
            if child.piece is None:
                child.conn.send(None)
            else:
                _kill(child.pid)
        except OSError:  # it already ended
            _kill(child.pid)
        finally:
            child.conn.close()
    pending = [child.pid for child in children]
    try:
        while pending:
            with suppress(ChildProcessError):  # already reaped
                os.waitpid(pending[0], 0)
            pending.pop(0)
    except BaseException:  # an interrupt while waiting: kill the rest
        for pid in pending:
            _kill(pid)
            with suppress(ChildProcessError):
                os.waitpid(pid, 0)
        raise


def _kill(pid: int) -> None:
    with suppress(ProcessLookupError):  # it already ended
        os.kill(pid, signal.SIGKILL)


def _flush_output() -> None:
    """Flush Python's buffers: a fork must not copy unwritten output."""
    for stream in (sys.stdout, sys.stderr):
        with suppress(AttributeError, OSError, ValueError):  # closed or replaced streams
            stream.flush()


def _merge(stats: LaunchStats, piece: LaunchStats | None) -> None:
    """Add a piece's statistics to the launch's."""
    if piece is None:
        return
    stats.batched_blocks += piece.batched_blocks
    stats.per_wave_blocks += piece.per_wave_blocks
    stats.splits += piece.splits
    stats.wave_groups = max(stats.wave_groups, piece.wave_groups)
    stats.fallbacks.extend(piece.fallbacks)


def _note_serial(launch: BlockRunner, start: int, cause: str) -> None:
    """Record that blocks from `start` on ran in the launching process, and why."""
    launch.stats.fallbacks.append(Fallback("serial", start, launch.grid.blocks - start, cause))


def _known_memory(body: Callable[[], None]) -> dict[int, np.ndarray]:
    """Start address -> bytes of every array a launch's kernel can reach through its
    arguments and closures: the memory a worker's writes may be applied to."""
    memory: dict[int, np.ndarray] = {}
    pending: list[object] = [body]
    seen: set[int] = set()
    while pending:
        value = pending.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        if isinstance(value, Pointer):
            pending.append(value.buffer)
        elif isinstance(value, Buffer):
            pending.append(value.array)
        elif isinstance(value, np.ndarray):
            if value.flags.c_contiguous and value.size and not value.dtype.hasobject:
                data = value.reshape(-1).view(np.uint8)
                address = data.__array_interface__["data"][0]
                if address not in memory or memory[address].size < data.size:
                    memory[address] = data
        elif isinstance(value, (tuple, list, set, frozenset)):
            pending.extend(value)
        elif isinstance(value, dict):
            pending.extend(value.values())
        elif isinstance(value, functools.partial):
            pending.extend((value.func, *value.args, *value.keywords.values()))
        else:
            wrapped = getattr(value, "__wrapped__", None)  # a Kernel's function
            if wrapped is not None:
                pending.append(wrapped)
            for cell in getattr(value, "__closure__", None) or ():
                try:
                    pending.append(cell.cell_contents)
                except ValueError:  # a closure variable not assigned yet
                    continue
            pending.extend(getattr(value, "__defaults__", None) or ())
    return memory
