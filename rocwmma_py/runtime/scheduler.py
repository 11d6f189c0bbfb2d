"""Running the waves of one block in a fixed order, and the workgroup barrier.

Each wave gets a thread, but a baton (one Condition) lets only one run at a time: wave 0
runs until it reaches a barrier or finishes, then wave 1, and so on. When every live wave
waits at the barrier (finished waves don't count) they are all released and the lowest
wave runs again. The order, and hence every result, is deterministic. An exception in one
wave stops the others (they unwind at their next baton wait) and is re-raised unchanged.
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable, Sequence

from .errors import BarrierError
from .state import WaveContext, current_context, enter_wave, note_where


class _Abort(BaseException):
    """Unwinds a wave whose block was stopped by another wave's exception.

    A BaseException so kernel code's `except Exception:` cannot swallow it.
    """


class WaveScheduler:
    """Baton passing between the waves of one block."""

    def __init__(self, n_waves: int, on_release: Callable[[], None],
                 synccheck: bool = False) -> None:
        self._cond = threading.Condition()
        self._n = n_waves
        self._on_release = on_release
        self._synccheck = synccheck
        self._barriers = [0] * n_waves  # barriers each wave has passed
        self._turn: int | None = None
        self._at_barrier: set[int] = set()
        self._finished: set[int] = set()
        self._error: BaseException | None = None
        self._aborted = False
        self._done = False

    def run(self, contexts: Sequence[WaveContext], body: Callable[[], None]) -> None:
        """Run `body` once per wave context; returns when all waves finished or one failed."""
        first = contexts[0]
        self._where = f" in kernel '{first.kernel_name}' (block {first.block_index})"
        # Each wave thread runs in a copy of the launcher's context, so `use_arch` (and any
        # other context variable) reaches kernels launched from inside a wave.
        threads = [
            threading.Thread(
                target=contextvars.copy_context().run,
                args=(self._wave_main, ctx, body),
                name=f"{ctx.kernel_name} block {ctx.block_index} wave {ctx.wave_index}",
                daemon=True,
            )
            for ctx in contexts
        ]
        for thread in threads:
            thread.start()
        try:
            with self._cond:
                self._turn = 0
                self._cond.notify_all()
                while not (self._done or self._aborted):
                    self._cond.wait()
        except BaseException:  # e.g. KeyboardInterrupt in the launcher: stop the waves
            with self._cond:
                self._aborted = True
                self._cond.notify_all()
            raise
        finally:
            for thread in threads:
                thread.join()
        if self._error is not None:
            raise self._error

    def barrier(self, wave: int) -> None:
        """Wave `wave` waits here until every live wave of the block has arrived."""
        with self._cond:
            self._at_barrier.add(wave)
            self._barriers[wave] += 1
            self._pass_baton()
            self._wait_turn(wave)

    def _wave_main(self, ctx: WaveContext, body: Callable[[], None]) -> None:
        enter_wave(ctx)
        try:
            with self._cond:
                self._wait_turn(ctx.wave_index)
            body()
        except _Abort:
            return
        except BaseException as err:
            note_where(err, ctx)
            with self._cond:
                self._fail(err)
            return
        finally:
            enter_wave(None)
        with self._cond:
            self._finished.add(ctx.wave_index)
            if not self._aborted:
                self._pass_baton()

    def _pass_baton(self) -> None:
        """Give the turn to the lowest ready wave, releasing the barrier when none is ready."""
        live = [w for w in range(self._n) if w not in self._finished]
        ready = [w for w in live if w not in self._at_barrier]
        if not ready and live:
            if self._synccheck and self._finished:
                self._fail(self._partial_barrier(live))
                return
            self._on_release()
            self._at_barrier.clear()
            ready = live
        if ready:
            self._turn = ready[0]
        else:
            self._turn = None
            self._done = True
        self._cond.notify_all()

    def _partial_barrier(self, live: list[int]) -> BarrierError:
        where = self._where
        gone = ", ".join(f"wave {w} (after {self._barriers[w]} barriers)"
                         for w in sorted(self._finished))
        return BarrierError(
            f"synccheck: barrier #{self._barriers[live[0]]}{where} was reached by waves "
            f"{', '.join(map(str, live))}, but {gone} had already finished; every wave of a "
            "block must reach every barrier"
        )

    def _fail(self, err: BaseException) -> None:
        """Stop the block with `err` (re-raised by run())."""
        if self._error is None:
            self._error = err
        self._aborted = True
        self._cond.notify_all()

    def _wait_turn(self, wave: int) -> None:
        while self._turn != wave and not self._aborted:
            self._cond.wait()
        if self._aborted:
            raise _Abort


def synchronize_workgroup() -> None:
    """Barrier for all waves of the block (HIP __syncthreads()); also closes an LDS epoch."""
    ctx = current_context("synchronize_workgroup()")
    if ctx.scheduler is None:  # one wave, or a batch running its waves in lockstep
        ctx.lds.next_epoch()
    else:
        ctx.scheduler.barrier(ctx.wave_index)


syncthreads = synchronize_workgroup
__syncthreads = synchronize_workgroup
