"""The launch progress bar (tqdm on stderr): blocks done, rate, time left.

It counts blocks on both engines and also moves inside a long batch or block: every barrier
release and every `mma_sync` is a step (`note_step`), and once a batch (or block) has
finished, the next ones advance by their share of blocks per step (a kernel's batches take
about the same number of steps). Launches shorter than PROGRESS_DELAY_S never show it;
whether others do is the `progress` setting (`use_progress`, $ROCWMMA_PY_PROGRESS, default:
when stderr is a terminal).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from contextvars import ContextVar

from ..settings import PROGRESS

PROGRESS_DELAY_S = 2.0  # launches shorter than this never show a bar
_REFRESH_S = 0.2  # the fewest seconds between two step redraws

step_listener: ContextVar[Callable[[], None] | None] = ContextVar(
    "rocwmma_py_step_listener", default=None)  # the running launch's Progress.step


def note_step() -> None:
    """A step inside the running launch (a barrier release, an mma_sync): moves the bar."""
    listener = step_listener.get()
    if listener is not None:
        listener()


class Progress:
    """Blocks done so far, advanced per finished unit (batch or block) and per barrier."""

    def __init__(self, total: int, name: str) -> None:
        self._bar = None
        if PROGRESS.get():
            from tqdm import tqdm

            self._bar = tqdm(total=total, unit="block", desc=name, delay=PROGRESS_DELAY_S,
                             leave=False, file=sys.stderr)
        self._blocks = 0  # blocks of the running unit
        self._moved = 0.0  # of them already shown as done by steps
        self._steps = 0  # barrier releases and mma_syncs in the running unit
        self._unit_steps = 0  # steps the last finished unit took
        self._shown = 0.0

    def begin(self, blocks: int) -> None:
        """A unit of `blocks` blocks (a batch, or one block per wave) starts."""
        self._blocks, self._moved, self._steps = blocks, 0.0, 0

    def step(self) -> None:
        """A barrier was released, or an mma_sync ran, inside the running unit."""
        self._steps += 1
        if self._bar is None:
            return
        if self._unit_steps:
            share = min(self._blocks / self._unit_steps, self._blocks - self._moved - 0.5)
            if share > 0:
                self._moved += share
                self._bar.update(share)
        now = time.monotonic()
        if now - self._shown > _REFRESH_S:
            self._shown = now
            self._bar.set_postfix_str(f"step {self._steps}", refresh=True)

    def end(self) -> None:
        """The running unit is done: its remaining blocks count as done."""
        if self._steps:
            self._unit_steps = self._steps
        if self._bar is not None:
            self._bar.update(self._blocks - self._moved)
        self._blocks, self._moved = 0, 0.0

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
