"""Pooled wave threads: reused from block to block, never reused after a stop, forgotten in a
forked child, and each job runs to its end before `join` returns."""

from __future__ import annotations

import os
import threading
import time

import pytest

from rocwmma_py import kernel
from rocwmma_py.runtime import synchronize_workgroup, use_engine
from rocwmma_py.runtime import wave_threads as W


def _wave_idents(blocks: int) -> list[int]:
    idents: list[int] = []

    @kernel
    def record():
        synchronize_workgroup()
        idents.append(threading.get_ident())

    with use_engine("wave"):  # (each wave on a thread of its own)
        record[blocks, (64, 4)]()
    return idents


def test_blocks_reuse_the_threads_of_earlier_blocks():
    idents = _wave_idents(3)
    assert len(idents) == 12
    assert len(set(idents)) <= 4 + 4  # (an earlier test's idle threads may be among them)
    assert threading.get_ident() not in idents


def test_ended_jobs_leave_idle_renamed_threads():
    _wave_idents(1)
    names = {t.name for t in threading.enumerate()}
    assert W.IDLE_NAME in names
    assert not any(n.startswith("record block") for n in names)


def test_join_waits_for_the_job_and_a_stopped_thread_is_never_reused():
    started, spins = threading.Event(), []

    def spin():
        started.set()
        try:
            while True:
                spins.append(1)
                del spins[:]
        except KeyboardInterrupt:
            time.sleep(0.05)  # still running its clean-up when stopped

    job = W.Job("spinner", spin)
    started.wait(2)
    assert job.is_alive()
    runner = job._runner
    job.stop(KeyboardInterrupt)
    job.join()
    assert not job.is_alive()
    assert runner not in W._idle
    runner.thread.join(2)
    assert not runner.thread.is_alive()  # retired, not back in the pool


def test_a_job_that_ends_returns_its_thread_to_the_pool():
    done = []
    job = W.Job("quick", lambda: done.append(threading.get_ident()))
    job.join()
    assert done and not job.is_alive()
    deadline = time.monotonic() + 2
    while job._runner not in W._idle and time.monotonic() < deadline:
        time.sleep(0.001)
    assert job._runner in W._idle
    again = W.Job("again", lambda: done.append(threading.get_ident()))
    again.join()
    assert done[1] == done[0]  # the same thread took the next job


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_starts_without_the_parents_idle_threads():
    _wave_idents(1)
    assert W._idle
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its idle list is empty, and a launch works
        ok = False
        try:
            ok = not W._idle and len(_wave_idents(1)) == 4
        finally:
            os.write(write, b"1" if ok else b"0")
            os._exit(0)  # (never back into pytest)
    os.close(write)
    assert os.read(read, 1) == b"1"
    os.waitpid(pid, 0)


def test_an_idle_thread_keeps_small_numerics_buffers_only():
    """A job's chunk-sized scratch buffers are dropped when it ends; small ones (a per-wave
    engine's) stay for the thread's next job."""
    import numpy as np

    from rocwmma_py.arch import scratch

    def run(fn):
        out = []
        W.Job("scratch test", lambda: out.append((threading.get_ident(), fn()))).join()
        deadline = time.monotonic() + 2
        while len(W._idle) == 0 and time.monotonic() < deadline:
            time.sleep(0.001)
        return out[0]

    def kept():
        return sorted(name for name, _ in getattr(scratch._local, "pool", {}))

    for size, stays in ((16, True), (1 << 18, False)):  # 128 bytes; 2 MiB
        first, _ = run(lambda size=size: scratch.scratch(f"test {size}", (size,), np.float64))
        second, names = run(kept)
        assert second == first  # the same idle thread took the next job
        assert (f"test {size}" in names) == stays
