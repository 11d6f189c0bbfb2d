"""Interrupts at random points of batched launches leave a point of the block order.

A timer (`setitimer`) fires at a random moment of a launch, and its SIGALRM handler either
sends SIGINT (the default handler raises KeyboardInterrupt: Ctrl-C) or raises an exception
of its own (a timeout). Whatever the moment (inside numpy, the kernel's Python, the undo
journal's compaction or absorb, a worker piece's apply), memory must be what the per-wave
engine leaves after some prefix of the blocks plus at most one block partly written. Each
block of the kernel writes its own region with many statements, rewriting addresses (so
the journal compacts) and with a loop bound that differs between even and odd blocks (so
the batch splits and its parts are absorbed one after the other); the expected states of a
block are computed here in plain Python, statement by statement.

The default run draws a few moments per case from a fixed seed; `-m extended` draws 40 per
case from a new seed (printed on failure).
"""

from __future__ import annotations

import random
import signal
import statistics
import threading
import time

import numpy as np
import pytest

from rocwmma_py import kernel, use_workers
from rocwmma_py.runtime import blockIdx, threadIdx, workers

BLOCKS = 128
REGION = 8  # rows of 64 elements per block
STATEMENTS = 24  # stores of even blocks: each row rewritten three times (compaction)
EXTRA = 8  # more stores of odd blocks: a loop bound differing between blocks (a split)
SIGNALS = ("sigint", "alarm")
CASES = {  # name -> (environment, worker processes)
    "batch": ({}, 1),
    "small journal": ({"ROCWMMA_PY_BATCH_BYTES": "200000"}, 1),  # JournalFull, halves
    "tiny journal": ({"ROCWMMA_PY_BATCH_BYTES": "4000"}, 1),  # halves down to per wave
    "workers": ({}, 2),
}

pytestmark = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs setitimer")


@kernel
def stamps(out, statements, extra):
    """Block b's statement s writes b * 100 + s + 1 to row s % REGION of its region."""
    base = blockIdx.x * (REGION * 64) + threadIdx.x
    for s in range(statements + blockIdx.x % 2 * extra):
        out[base + s % REGION * 64] = blockIdx.x * 100 + s + 1


def block_states(block: int) -> list[np.ndarray]:
    """Block `block`'s region after 0, 1, ..., all of its statements (one wave: in order)."""
    region = np.zeros((REGION, 64), np.int32)
    states = [region.copy()]
    for s in range(STATEMENTS + block % 2 * EXTRA):
        region[s % REGION] = block * 100 + s + 1
        states.append(region.copy())
    return states


STATES = [block_states(b) for b in range(BLOCKS)]


def statements_done(out: np.ndarray) -> list[int]:
    """Per block, how many of its statements its region shows (-1: no per-wave state)."""
    done = []
    for block, region in enumerate(out.reshape(BLOCKS, REGION, 64)):
        done.append(next((k for k, s in enumerate(STATES[block]) if (region == s).all()), -1))
    return done


def block_order_problem(out: np.ndarray) -> str:
    """"" when `out` is a per-wave prefix: complete blocks, at most one partial, untouched."""
    done = statements_done(out)
    total = [len(s) - 1 for s in STATES]
    if -1 in done:
        return f"block {done.index(-1)} holds a state no statement prefix leaves"
    first = next((b for b in range(BLOCKS) if done[b] != total[b]), BLOCKS)
    later = [b for b in range(first + 1, BLOCKS) if done[b]]
    if later:
        return (f"blocks 0..{first - 1} complete, block {first} at {done[first]}/"
                f"{total[first]} statements, but later blocks wrote: {later[:8]}")
    return ""


class Interrupted(Exception):
    """What the test's timeout handler raises."""


def interrupted_launch(out: np.ndarray, delay: float, how: str) -> bool:
    """Launch with a timer firing after `delay` s; whether its exception came out."""
    armed = [True]

    def on_alarm(signum, frame):
        if not armed[0]:
            return
        if how == "sigint":
            signal.raise_signal(signal.SIGINT)  # Ctrl-C: the default handler raises
        else:
            raise Interrupted

    previous = signal.signal(signal.SIGALRM, on_alarm)
    try:
        try:
            signal.setitimer(signal.ITIMER_REAL, delay)
            stamps[BLOCKS, 64](out, STATEMENTS, EXTRA)
        finally:
            armed[0] = False
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    except (KeyboardInterrupt, Interrupted) as err:
        assert type(err) is (KeyboardInterrupt if how == "sigint" else Interrupted)
        return True
    return False


@pytest.fixture
def main_thread_signals(monkeypatch):
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers run in the main thread only")
    monkeypatch.setattr(workers, "MIN_PARALLEL_S", 0.0)  # spread even this small launch
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def complete_launch() -> float:
    """One launch without interrupts, which must write every block; its duration."""
    out = np.zeros(BLOCKS * REGION * 64, np.int32)
    started = time.perf_counter()
    stamps[BLOCKS, 64](out, STATEMENTS, EXTRA)
    seconds = time.perf_counter() - started
    assert statements_done(out) == [len(s) - 1 for s in STATES]
    return seconds


def check_interrupts(case: str, how: str, trials: int, seed: int, monkeypatch) -> None:
    """`trials` launches interrupted at moments drawn over the launch's duration."""
    environment, count = CASES[case]
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    rng = random.Random(seed)
    with use_workers(count):
        seconds = statistics.median(complete_launch() for _ in range(3))  # warm caches first
        failures, interrupted = [], 0
        for trial in range(trials):
            out = np.zeros(BLOCKS * REGION * 64, np.int32)
            delay = rng.uniform(1e-5, seconds)
            interrupted += interrupted_launch(out, delay, how)
            problem = block_order_problem(out)
            if problem:
                failures.append(f"trial {trial} (after {delay * 1e3:.2f} ms): {problem}")
    assert not failures, (f"seed {seed}: {len(failures)} of {trials} interrupted launches "
                          f"left no block-order prefix:\n" + "\n".join(failures))
    assert interrupted >= trials // 2  # the moments fell inside the launches


@pytest.mark.parametrize("case", CASES)
def test_uninterrupted_launches_write_every_block(case, main_thread_signals, monkeypatch):
    environment, count = CASES[case]
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    with use_workers(count):
        complete_launch()


@pytest.mark.parametrize("how", SIGNALS)
@pytest.mark.parametrize("case", CASES)
def test_interrupts_leave_a_block_order_prefix(case, how, main_thread_signals, monkeypatch):
    check_interrupts(case, how, trials=3, seed=2024, monkeypatch=monkeypatch)


@pytest.mark.extended
@pytest.mark.parametrize("how", SIGNALS)
@pytest.mark.parametrize("case", CASES)
def test_interrupts_leave_a_block_order_prefix_many(case, how, main_thread_signals,
                                                    monkeypatch):
    check_interrupts(case, how, trials=40, seed=random.randrange(1 << 30),
                     monkeypatch=monkeypatch)
