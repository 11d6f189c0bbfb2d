"""The launch progress bar stays live (issue 24): its clock is redrawn while a long batch
runs and while worker processes compute, and worker processes report the blocks of their
running pieces, so it counts every block done exactly once."""

from __future__ import annotations

import io
import time

import numpy as np
import pytest

from rocwmma_py import kernel, use_workers
from rocwmma_py.runtime import blockDim, blockIdx, threadIdx, workers
from rocwmma_py.runtime import progress as P
from rocwmma_py.settings import use_progress


@kernel
def _slow(x, y):
    """One long batch: no barrier, no mma_sync inside, so nothing but the ticker redraws."""
    i = blockIdx.x * blockDim.x + threadIdx.x
    time.sleep(0.4)
    y[i] = x[i]


def test_the_clock_ticks_through_a_long_batch(monkeypatch):
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    monkeypatch.setattr(P, "PROGRESS_DELAY_S", 0.0)
    monkeypatch.setattr(P, "TICK_S", 0.05)
    x = np.arange(64 * 4, dtype=np.float32)
    y = np.zeros_like(x)
    with use_progress(True), use_workers(1):
        _slow[4, 64, 0, "gfx942"](x, y)
    assert (y == x).all()
    assert err.getvalue().count("\r") >= 5  # redrawn many times in 0.4 s, not once


def test_a_worker_reports_blocks_of_its_running_piece(monkeypatch):
    monkeypatch.setattr(P, "TICK_S", 0.0)
    sent: list[tuple[int, float]] = []
    p = P.PieceProgress(lambda piece, done: sent.append((piece, done)), unit_steps=4)
    p.start_piece(7)
    p.begin(10)
    for _ in range(4):
        p.step()
    p.end()
    assert [piece for piece, _ in sent] == [7] * len(sent)
    done = [d for _, d in sent]
    assert done == sorted(done) and len(done) >= 3 and done[-1] == pytest.approx(10)


class _Counting(P.Progress):
    def __init__(self) -> None:
        super().__init__(0, "")
        self.total = 0.0

    @property
    def shows(self) -> bool:
        return True

    def advance(self, blocks: float) -> None:
        self.total += blocks


def test_spread_launches_count_each_block_once(monkeypatch):
    """Reports from the workers and the pieces' application add up to the grid."""
    monkeypatch.setattr(workers, "MIN_PARALLEL_S", 0.0)
    monkeypatch.setattr(workers, "MIN_BLOCKS", 2)
    monkeypatch.setattr(workers, "PAYOFF", float("inf"))
    counting = _Counting()
    monkeypatch.setattr("rocwmma_py.runtime.engine.Progress", lambda total, name: counting)
    x = np.arange(64 * 32, dtype=np.float32)
    y = np.zeros_like(x)
    with use_workers(2):
        _copy[32, 64, 0, "gfx942"](x, y)
    assert (y == x).all()
    assert counting.total == pytest.approx(32)


@kernel
def _copy(x, y):
    i = blockIdx.x * blockDim.x + threadIdx.x
    y[i] = x[i]
