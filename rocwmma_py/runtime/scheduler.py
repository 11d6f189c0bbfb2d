"""Running the waves of one block (or the wave groups of a batch) in a fixed order, and the
workgroup barrier.

Each wave gets a thread (a pooled one, `wave_threads`), but a baton (one lock) lets only
one run at a time: wave 0 runs until it reaches a barrier or finishes, then wave 1, and so
on. Each wave waits on its own condition of that lock, so passing the baton wakes only the
wave whose turn it is (one condition for all woke every waiting wave at every pass: n²/2
thread switches for a block of n waves without barriers). When every live wave waits at
the barrier (finished waves don't count) they are all released and the lowest wave runs
again. The order, and hence every result, is deterministic. An exception in one wave stops
the others (they unwind at their next baton wait) and is re-raised unchanged.
The batched engine uses the same scheduler with one "wave" per wave group (a WaveContext
over the same waves of many blocks), so warp-specialized blocks interleave at barriers.

The launching thread waits in short timed slices, so a signal (Ctrl-C, an alarm) is handled
at once; on any exception there every wave thread is stopped (an asynchronous `_Abort`
raised inside it, for waves spinning in kernel code) and joined before it propagates.
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable, Sequence

from .errors import BarrierError
from .progress import note_step
from .state import WaveContext, current_context, note_where, running
from .wave_threads import Job

_POLL_S = 0.05  # the launching thread's wait slice: signals are handled within this time

class _Abort(BaseException):
    """Unwinds a wave whose block was stopped by another wave's exception or an interrupt.

    A BaseException so kernel code's `except Exception:` cannot swallow it.
    """


class WaveScheduler:
    """Baton passing between the waves (or wave groups) of one block (or batch)."""

    def __init__(self, n_waves: int, on_release: Callable[[], None],
                 synccheck: bool = False, labels: Sequence[str] | None = None) -> None:
        """`labels`: each turn's waves for messages ("3", or "0-3" for a wave group)."""
        self._lock = threading.RLock()  # (as a Condition's default: a stop that lands in a
        # wait, between its release and re-acquire, cannot release another thread's hold)
        self._wakes = [threading.Condition(self._lock) for _ in range(n_waves)]
        self._launcher = threading.Condition(self._lock)  # waits for the end of the block
        self._n = n_waves
        self._on_release = on_release
        self._synccheck = synccheck
        self._labels = list(labels) if labels else [str(w) for w in range(n_waves)]
        self._slots: dict[int, int] = {}  # id(context) -> its turn index
        self._barriers = [0] * n_waves  # barriers each wave has passed
        self._turn: int | None = None
        self._at_barrier: set[int] = set()
        self._finished: set[int] = set()
        self._error: BaseException | None = None
        self.failed_slot: int | None = None  # which wave (group) raised the error
        self._aborted = False
        self._done = False

    def run(self, contexts: Sequence[WaveContext], body: Callable[[], None]) -> None:
        """Run `body` once per context (in turn order); returns when all finished or one
        failed (its exception is re-raised)."""
        first = contexts[0]
        self._where = f" in kernel '{first.kernel_name}' (block {first.block_index})"
        for slot, ctx in enumerate(contexts):
            self._slots[id(ctx)] = slot
            ctx.scheduler = self
        # Each wave thread runs in a copy of the launcher's context, so `use_arch` (and any
        # other context variable) reaches kernels launched from inside a wave.
        jobs = [
            Job(f"{ctx.kernel_name} block {ctx.block_index} wave {self._labels[slot]}",
                contextvars.copy_context().run, self._wave_thread, slot, ctx, body)
            for slot, ctx in enumerate(contexts)
        ]
        try:
            with self._lock:
                self._turn = 0
                self._wakes[0].notify()
                while not (self._done or self._aborted):
                    self._launcher.wait(_POLL_S)
        except BaseException:  # KeyboardInterrupt, a signal handler's exception: stop waves
            self._stop(jobs)
            raise
        for job in jobs:
            job.join()
        if self._error is not None:
            raise self._error

    def barrier(self, ctx: WaveContext) -> None:
        """Wave (group) `ctx` waits here until every live wave of the block has arrived."""
        slot = self._slots[id(ctx)]
        with self._lock:
            self._at_barrier.add(slot)
            self._barriers[slot] += 1
            self._pass_baton()
            self._wait_turn(slot)

    def _stop(self, jobs: list[Job]) -> None:
        """Abort every wave and wait until each has ended (re-raising _Abort into waves that
        spin in kernel code, until they notice)."""
        with self._lock:
            self._wake_all()
        for job in jobs:
            job.join(_POLL_S)  # waves waiting for the baton unwind by themselves
            while job.is_alive():
                job.stop(_Abort)
                job.join(_POLL_S)

    def _wave_thread(self, slot: int, ctx: WaveContext, body: Callable[[], None]) -> None:
        try:
            self._wave_main(slot, ctx, body)
        except _Abort:  # stopped from outside, possibly outside the kernel body
            return

    def _wave_main(self, slot: int, ctx: WaveContext, body: Callable[[], None]) -> None:
        with running(ctx):
            try:
                with self._lock:
                    self._wait_turn(slot)
                body()
            except _Abort:
                return
            except BaseException as err:
                note_where(err, ctx)
                with self._lock:
                    self._fail(err, slot)
                return
        with self._lock:
            self._finished.add(slot)
            if not self._aborted:
                self._pass_baton()

    def _pass_baton(self) -> None:
        """Give the turn to the lowest ready wave, releasing the barrier when none is ready."""
        live = [w for w in range(self._n) if w not in self._finished]
        ready = [w for w in live if w not in self._at_barrier]
        if not ready and live:
            if self._synccheck and self._finished:
                self._fail(self._partial_barrier(live), None)
                return
            self._on_release()
            note_step()
            self._at_barrier.clear()
            ready = live
        if ready:
            self._turn = ready[0]
            self._wakes[self._turn].notify()
        else:
            self._turn = None
            self._done = True
            self._launcher.notify()

    def _partial_barrier(self, live: list[int]) -> BarrierError:
        where = self._where
        gone = ", ".join(f"wave {self._labels[w]} (after {self._barriers[w]} barriers)"
                         for w in sorted(self._finished))
        return BarrierError(
            f"synccheck: barrier #{self._barriers[live[0]]}{where} was reached by waves "
            f"{', '.join(self._labels[w] for w in live)}, but {gone} had already finished; "
            "every wave of a block must reach every barrier"
        )

    def _fail(self, err: BaseException, slot: int | None) -> None:
        """Stop the block with `err` (re-raised by run())."""
        if self._error is None:
            self._error, self.failed_slot = err, slot
        self._wake_all()

    def _wake_all(self) -> None:
        """Abort the block: every waiting wave unwinds, the launcher stops waiting (under the
        lock)."""
        self._aborted = True
        for wake in self._wakes:
            wake.notify_all()
        self._launcher.notify()

    def _wait_turn(self, wave: int) -> None:
        while self._turn != wave and not self._aborted:
            self._wakes[wave].wait()
        if self._aborted:
            raise _Abort


def synchronize_workgroup() -> None:
    """Barrier for all waves of the block (HIP __syncthreads()); also closes an LDS epoch."""
    ctx = current_context("synchronize_workgroup()")
    if ctx.scheduler is None:  # one wave, or a batch running its waves in lockstep
        ctx.lds.next_epoch()
        note_step()
    else:
        ctx.scheduler.barrier(ctx)


syncthreads = synchronize_workgroup
__syncthreads = synchronize_workgroup
