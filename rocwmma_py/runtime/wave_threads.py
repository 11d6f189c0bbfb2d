"""Long-lived threads for the waves of a block (the per-wave engine's waves, the batched
engine's wave groups): each needs its own stack, since a baton passes between them at
barriers, but not its own new thread.

A thread started afresh for every wave of every block costs ≈ 0.25 ms: the start handshake,
and numpy's first-call work in a new thread (einsum, take and casting reductions each pay
15-25 µs once per thread) — about a tenth of the per-wave engine's time on a 16-step GEMM
wave. A thread whose job ended waits here for the next one instead (with at most 1 MiB of
numerics buffers: a batch's wave group would keep chunk-sized ones). One that was stopped
from outside (`Job.stop`: an asynchronous exception, possibly still pending) never takes
another job, and a forked child forgets the parent's idle threads (they do not exist there).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable

from ..arch import scratch
from .interrupts import stop_thread

_MAX_IDLE = 64  # idle threads kept; more (a very wide block) end with their job
_SLICE_S = 0.05  # `Job.join` re-checks that the thread lives this often
_IDLE_SCRATCH = 1 << 20  # bytes of numerics buffers an idle thread may keep
IDLE_NAME = "rocwmma_py idle wave thread"
_idle: list[_Runner] = []  # (list.append and .pop are atomic)
os.register_at_fork(after_in_child=_idle.clear)


class _Runner:
    """A daemon thread running one job at a time, then going back to `_idle`."""

    def __init__(self) -> None:
        self._wake = threading.Semaphore(0)
        self._state = threading.Lock()  # guards busy/stopped against `Job.stop`
        self.busy = False
        self.stopped = False
        self._call: tuple[Callable[..., object], tuple[object, ...]] | None = None
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._serve, name=IDLE_NAME, daemon=True)
        self.thread.start()

    def start(self, name: str, fn: Callable[..., object], args: tuple[object, ...]) -> None:
        self._call, self.busy = (fn, args), True
        self.done = threading.Event()
        self.thread.name = name
        self._wake.release()

    def _serve(self) -> None:
        reuse = True
        try:
            while reuse:
                reuse = self._run_one()
        except BaseException:  # noqa: BLE001 - a stop that arrived after its job: this thread ends
            return

    def _run_one(self) -> bool:
        """Run the next job; True when this thread may take another."""
        self._wake.acquire()
        fn, args = self._call  # type: ignore[misc] # set by start()
        try:
            fn(*args)
            scratch.trim(_IDLE_SCRATCH)
        finally:
            with self._state:
                self._call, self.busy = None, False
                reuse = not self.stopped and len(_idle) < _MAX_IDLE
            self.done.set()
        if reuse:
            self.thread.name = IDLE_NAME
            _idle.append(self)
        return reuse


class Job:
    """`fn(*args)` running on a pooled thread, named `name` meanwhile (tracebacks,
    debuggers)."""

    def __init__(self, name: str, fn: Callable[..., object], *args: object) -> None:
        try:
            runner = _idle.pop()
        except IndexError:
            runner = _Runner()
        runner.start(name, fn, args)
        self._runner, self._done = runner, runner.done

    def join(self, timeout: float | None = None) -> None:
        """Wait until the job ended (or its thread did: a stop can end it before it says
        so), at most `timeout` seconds."""
        while not self._done.wait(_SLICE_S if timeout is None else min(timeout, _SLICE_S)):
            if not self._runner.thread.is_alive():
                return
            if timeout is not None:
                timeout -= _SLICE_S
                if timeout <= 0:
                    return

    def is_alive(self) -> bool:
        return not self._done.is_set() and self._runner.thread.is_alive()

    def stop(self, exc_type: type[BaseException]) -> None:
        """Raise `exc_type` in the job at its next Python instruction (no-op once it ended);
        its thread is then retired."""
        runner = self._runner
        with runner._state:
            if runner.busy and runner.done is self._done:
                runner.stopped = True
                stop_thread(runner.thread, exc_type)
