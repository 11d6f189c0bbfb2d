"""The launch progress bar (tqdm on stderr): blocks done, rate, time left.

It counts blocks on both engines and also moves inside a long batch or block: every barrier
release and every `mma_sync` is a step (`note_step`), and once a batch (or block) has
finished, the next ones advance by their share of blocks per step (a kernel's batches take
about the same number of steps). Worker processes report the blocks of their pieces the same
way while they run (`advance`). A ticker thread redraws the bar every TICK_S while it is
shown, so its clock never stops. Launches shorter than PROGRESS_DELAY_S never show it;
whether others do is the `progress` setting (`use_progress`, $ROCWMMA_PY_PROGRESS, default:
when stderr is a terminal).
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from contextvars import ContextVar

from ..settings import PROGRESS

PROGRESS_DELAY_S = 2.0  # launches shorter than this never show a bar
TICK_S = 0.5  # the ticker's redraw interval: the clock moves at least this often
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
        self._ticker: threading.Thread | None = None
        self._stop = threading.Event()
        if PROGRESS.get():
            from tqdm import tqdm

            self._bar = tqdm(total=total, unit="block", desc=name, delay=PROGRESS_DELAY_S,
                             leave=False, file=sys.stderr)
            self._ticker = threading.Thread(target=self._tick, daemon=True,
                                            name="rocwmma_py progress")
            self._ticker.start()
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
        if not self.shows:
            return
        if self._unit_steps:
            share = min(self._blocks / self._unit_steps, self._blocks - self._moved - 0.5)
            if share > 0:
                self._moved += share
                self._done(share)
        now = time.monotonic()
        if self._bar is not None and now - self._shown > _REFRESH_S:
            self._shown = now
            self._bar.set_postfix_str(f"step {self._steps}", refresh=True)

    def end(self) -> None:
        """The running unit is done: its remaining blocks count as done."""
        if self._steps:
            self._unit_steps = self._steps
        if self.shows:
            self._done(self._blocks - self._moved)
        self._blocks, self._moved = 0, 0.0

    @property
    def unit_steps(self) -> int:
        """Steps the last finished unit took (0: none finished yet)."""
        return self._unit_steps

    @property
    def shows(self) -> bool:
        """Whether blocks done go anywhere (a bar here, or the launching process)."""
        return self._bar is not None

    def _done(self, blocks: float) -> None:
        """`blocks` more blocks of the running unit are done."""
        self.advance(blocks)

    def advance(self, blocks: float) -> None:
        """`blocks` more blocks are done elsewhere (a worker process's running piece)."""
        if self._bar is not None and blocks > 0:
            self._bar.update(blocks)

    def close(self) -> None:
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
        if self._bar is not None:
            self._bar.close()

    def _tick(self) -> None:
        """Redraw the bar every TICK_S once it is shown: rate and clock stay live through a
        long batch or while worker processes compute."""
        bar = self._bar
        started = time.monotonic()
        while not self._stop.wait(TICK_S):
            if bar is not None and time.monotonic() - started >= PROGRESS_DELAY_S:
                bar.refresh()


class PieceProgress(Progress):
    """A worker process's progress: blocks done in its running piece, sent to the launching
    process (`send(piece, blocks done so far)`) at most every TICK_S, which shows them."""

    def __init__(self, send: Callable[[int, float], None], unit_steps: int) -> None:
        super().__init__(0, "")
        self._send = send
        self._unit_steps = unit_steps  # the launching process's estimate, from its probe
        self.piece = -1
        self._piece_done = 0.0
        self._sent_at = time.monotonic()

    def start_piece(self, piece: int) -> None:
        self.piece, self._piece_done = piece, 0.0

    @property
    def shows(self) -> bool:
        return True

    def _done(self, blocks: float) -> None:
        self._piece_done += blocks
        now = time.monotonic()
        if now - self._sent_at >= TICK_S:
            self._sent_at = now
            self._send(self.piece, self._piece_done)
