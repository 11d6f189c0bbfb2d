"""Interrupts at any point of batched launches leave a point of the block order.

Whatever the moment of an asynchronous exception (inside numpy, the kernel's Python, the
undo journal's record, compaction, absorb or undo, a worker piece's apply), memory must be
what the per-wave engine leaves after some prefix of the blocks plus at most one block
partly written. Each block of the kernel writes its own region with many statements,
rewriting addresses (so the journal masks them) and with a loop bound that differs between
even and odd blocks (so the batch splits and its parts are absorbed one after the other);
the states a block may be in are computed here in plain Python, statement by statement.
Cases: one batch, journal budgets that make batches rerun in halves (down to one block run
wave by wave), and two worker processes.

Two ways to interrupt:
- signals: a timer (`setitimer`) fires at a random moment of the launch, and its SIGALRM
  handler sends SIGINT (the default handler raises KeyboardInterrupt: Ctrl-C) or raises an
  exception of its own (a timeout). The default run draws 4 moments per case (the two
  signals in turn) from a fixed seed; `-m extended` draws 40 per case and signal from a new
  seed (printed on failure).
- line by line: a trace function raises KeyboardInterrupt before one chosen line of the
  journal, of the engine's batch handling, of a global store or of a worker piece's apply
  (signal handlers run between bytecodes: every line boundary is such a point, reached
  deterministically). The default run tries every line of compaction, absorb, undo and
  `top_batch` in one batch, and a fixed sample of them (and of apply) under a small journal
  budget and with workers; `-m extended` tries every traced line that runs, in every case.
  Each line is tried at a random one of its executions.
"""

from __future__ import annotations

import os
import random
import signal
import sys
import threading
import time

import numpy as np
import pytest

from rocwmma_py import kernel, use_workers
from rocwmma_py.runtime import blockIdx, engine, journal, memory, state, threadIdx, workers

BLOCKS = 128
REGION = 8  # rows of 64 elements per block
STATEMENTS = 24  # stores of even blocks: each row rewritten three times (compaction)
EXTRA = 8  # more stores of odd blocks: a loop bound differing between blocks (a split)
SIGNALS = ("sigint", "alarm")
CASES = {  # name -> (environment, worker processes)
    "batch": ({}, 1),
    "small journal": ({"ROCWMMA_PY_BATCH_BYTES": "200000"}, 1),  # JournalFull, halves
    "tiny journal": ({"ROCWMMA_PY_BATCH_BYTES": "1000"}, 1),  # halves down to per wave
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
        return (f"blocks before {first} complete, block {first} at {done[first]}/"
                f"{total[first]} statements, but later blocks wrote: {later[:8]}")
    return ""


@pytest.fixture
def interruptible(monkeypatch):
    """Signals reach this thread, SIGINT raises KeyboardInterrupt, and launches of cases
    with workers spread even though they are short."""
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers run in the main thread only")
    monkeypatch.setattr(workers, "MIN_PARALLEL_S", 0.0)  # spread even this small launch
    monkeypatch.setattr(workers, "PAYOFF", float("inf"))
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def enter_case(case: str, monkeypatch) -> int:
    """Set the case's environment; its worker count."""
    environment, count = CASES[case]
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    return count


def complete_launch() -> float:
    """One launch without interrupts, which must write every block; its duration."""
    out = np.zeros(BLOCKS * REGION * 64, np.int32)
    started = time.perf_counter()
    stamps[BLOCKS, 64](out, STATEMENTS, EXTRA)
    seconds = time.perf_counter() - started
    done = statements_done(out)
    assert done == [len(s) - 1 for s in STATES], f"statements done per block: {done}"
    return seconds


# --- signals at random moments ------------------------------------------------------------------

class Interrupted(Exception):
    """What the test's timeout handler raises."""


def signalled_launch(out: np.ndarray, delay: float, how: str) -> bool:
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
    finally:
        clear_stale_wave()
    return False


def clear_stale_wave() -> None:
    """No interrupt may leave this thread a running wave, or counted as running undoable
    code, outside every kernel (`state.running` switches inside its try): later launches
    would run as if launched from kernel code."""
    assert not state.running_stale()


def check_signals(case: str, signals: tuple[str, ...], trials: int, seed: int,
                  monkeypatch) -> None:
    """`trials` launches interrupted at moments drawn over the launch's duration, by
    `signals` in turn. A launch that ends before its timer (the machine got faster, or the
    signal was lost) is checked too, and the trial retried with moments before that one."""
    rng = random.Random(seed)
    failures = []
    with use_workers(enter_case(case, monkeypatch)):
        complete_launch()  # warms the caches
        seconds = complete_launch()
        for trial in range(trials):
            for _ in range(10):
                out = np.zeros(BLOCKS * REGION * 64, np.int32)
                delay = rng.uniform(1e-5, seconds)
                interrupted = signalled_launch(out, delay, signals[trial % len(signals)])
                problem = block_order_problem(out)
                if problem:
                    failures.append(f"trial {trial} (after {delay * 1e3:.2f} ms): {problem}")
                if interrupted:
                    break
                seconds = delay
            else:
                pytest.fail(f"trial {trial}: no launch was interrupted")
    assert not failures, (f"seed {seed}: {len(failures)} of {trials} interrupted launches "
                          f"left no block-order prefix:\n" + "\n".join(failures))


# a signal landing in os.fork's at-fork hooks (a worker starting) is reported there by CPython
# as unraisable, and lost: that launch runs to its end
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize("case", CASES)
def test_signals_leave_a_block_order_prefix(case, interruptible, monkeypatch):
    check_signals(case, SIGNALS, trials=4, seed=2024, monkeypatch=monkeypatch)


@pytest.mark.extended
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize("how", SIGNALS)
@pytest.mark.parametrize("case", CASES)
def test_signals_leave_a_block_order_prefix_many(case, how, interruptible, monkeypatch):
    check_signals(case, (how,), trials=40, seed=random.randrange(1 << 30),
                  monkeypatch=monkeypatch)


# --- an interrupt before a chosen line -----------------------------------------------------------

TRACED = {f.__code__ for f in (engine._Launch.top_batch, engine._Launch.batch,
                                engine._Launch._split, engine._Launch._shrink,
                                memory.Pointer._write, workers._Spread._apply,
                                state._switch)}  # + journal.py
# `state.running` itself is not traced: its switch back begins with a bare `try:` line (a
# no-op, where CPython never runs a signal handler) and everything after is protected.
LINE_CASES = ("batch", "small journal", "workers")  # the tiny journal runs the same lines
UNDO_MACHINERY = ("compact", "_compact", "_swap", "absorb", "_take", "_mask", "_add", "undo",
                  "_restore", "top_batch", "_apply", "_switch")


class LineTrap:
    """A trace function: lists the (function, line) of every line run in journal.py and in
    TRACED code, here and not in workers; raises KeyboardInterrupt before line `at` (its
    index in that list). Python then drops the trace function: one interrupt per launch."""

    def __init__(self, at: int = -1) -> None:
        self.at = at
        self.lines: list[tuple[str, int]] = []
        self.pid = os.getpid()

    def __call__(self, frame, event, arg):
        code = frame.f_code
        if os.getpid() == self.pid and (code.co_filename == journal.__file__ or code in TRACED):
            return self.line
        return None

    def line(self, frame, event, arg):
        if event == "line":
            if len(self.lines) == self.at:
                raise KeyboardInterrupt
            self.lines.append((frame.f_code.co_name, frame.f_lineno))
        return self.line


def trapped_launch(out: np.ndarray, trap: LineTrap) -> bool:
    """Launch under `trap`; whether its KeyboardInterrupt came out. Every launch starts
    without spare snapshot buffers: an undone launch does not give its snapshot's buffer
    back, and taking a spare runs other journal lines than copying, so the lines of
    launches after an interrupt would drift from the ones counted."""
    journal._spares.clear()
    previous = sys.gettrace()
    sys.settrace(trap)
    try:
        stamps[BLOCKS, 64](out, STATEMENTS, EXTRA)
    except KeyboardInterrupt:
        return True
    finally:
        sys.settrace(previous)
        clear_stale_wave()
    return False


def check_lines(case: str, functions: tuple[str, ...] | None, sample: int | None, seed: int,
                monkeypatch) -> None:
    """Interrupt before each line run of `functions` (None: of all traced code), or before
    `sample` of them, each time at a random one of the line's executions."""
    rng = random.Random(seed)
    with use_workers(enter_case(case, monkeypatch)):
        complete_launch()  # warms the caches: the traced launches run the same lines
        trap = LineTrap()
        assert not trapped_launch(np.zeros(BLOCKS * REGION * 64, np.int32), trap)
        runs: dict[tuple[str, int], list[int]] = {}
        for index, where in enumerate(trap.lines):
            runs.setdefault(where, []).append(index)
        lines = [w for w in sorted(runs) if functions is None or w[0] in functions]
        if sample is not None:
            lines = rng.sample(lines, sample)
        failures = []
        for where in lines:
            out = np.zeros(BLOCKS * REGION * 64, np.int32)
            at = rng.choice(runs[where])
            assert trapped_launch(out, LineTrap(at)), f"no interrupt came out at {where}"
            problem = block_order_problem(out)
            if problem:
                failures.append(f"before {where[0]} line {where[1]} (run {at}): {problem}")
    assert not failures, (f"seed {seed}: {len(failures)} of {len(lines)} interrupted launches "
                          f"left no block-order prefix:\n" + "\n".join(failures))


@pytest.mark.parametrize(("case", "sample"), [("batch", None), ("small journal", 4),
                                              ("workers", 6)])
def test_an_interrupt_before_any_line_leaves_a_block_order_prefix(case, sample,
                                                                  interruptible,
                                                                  monkeypatch):
    check_lines(case, UNDO_MACHINERY, sample, seed=7, monkeypatch=monkeypatch)


@pytest.mark.extended
@pytest.mark.parametrize("case", LINE_CASES)
def test_an_interrupt_before_any_line_leaves_a_block_order_prefix_all(case, interruptible,
                                                                      monkeypatch):
    check_lines(case, None, None, seed=random.randrange(1 << 30), monkeypatch=monkeypatch)
