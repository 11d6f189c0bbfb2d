"""Engine mechanics: launch atomicity under asynchronous exceptions, a bounded undo journal,
warp-specialized kernels staying batched (wave groups), per-thread launch statistics that
name each fallback, and the progress bar. Each expectation is written from the per-wave
semantics (plain Python per lane / per block), never from the engine's own output."""

from __future__ import annotations

import signal
import threading
import time
import tracemalloc

import numpy as np
import pytest

from rocwmma_py import (
    LdsRaceError,
    accumulator,
    col_major,
    fill_fragment,
    float16,
    float32,
    fragment,
    load_matrix_sync,
    matrix_a,
    matrix_b,
    mem_row_major,
    mma_sync,
    row_major,
    store_matrix_sync,
    synchronize_workgroup,
    use_workers,
)
from rocwmma_py.runtime import (
    blockIdx,
    kernel,
    last_launch_stats,
    shared_array,
    threadIdx,
    use_engine,
)
from rocwmma_py.runtime import journal as journal_module
from rocwmma_py.runtime.journal import Journal
from rocwmma_py.settings import PROGRESS, use_batch_lanes
from samples.cuda import tensor_core_gemm

ENGINES = ["batch", "wave"]


def prefix_states(blocks: int, per_block: int, value: float) -> list[np.ndarray]:
    """Memory after 0, 1, ..., blocks whole blocks wrote `value` to their own elements."""
    states = []
    for done in range(blocks + 1):
        out = np.zeros(blocks * per_block, np.float32)
        out[: done * per_block] = value
        states.append(out)
    return states


# --- launch atomicity (class 6) -----------------------------------------------------------------

def raising_kernel(exc_type):
    @kernel
    def stops(out, stop_block):
        out[blockIdx.x * 64 + threadIdx.x] = 1.0
        if blockIdx.x == stop_block:
            raise exc_type
    return stops


@pytest.mark.parametrize("exc_type", [KeyboardInterrupt, SystemExit, GeneratorExit])
@pytest.mark.parametrize("batch_lanes", ["32768", "64"])
def test_base_exceptions_from_kernel_code_leave_a_block_order_prefix(exc_type, batch_lanes,
                                                                     monkeypatch):
    monkeypatch.setenv("ROCWMMA_PY_BATCH_LANES", batch_lanes)
    out = np.zeros(8 * 64, np.float32)
    with pytest.raises(exc_type):
        raising_kernel(exc_type)[8, 64](out, 5)
    # one batch of 8 blocks: undone whole (0 blocks); one block per batch: blocks 0-4 stay
    expected = prefix_states(8, 64, 1.0)[0 if batch_lanes == "32768" else 5]
    np.testing.assert_array_equal(out, expected)
    with use_engine("wave"), pytest.raises(exc_type):  # the per-wave engine: blocks 0-5
        raising_kernel(exc_type)[8, 64](wave_out := np.zeros(8 * 64, np.float32), 5)
    np.testing.assert_array_equal(wave_out, prefix_states(8, 64, 1.0)[6])


@kernel
def slow_blocks(out, spins):
    out[blockIdx.x * 64 + threadIdx.x] = 2.0
    x = 0
    for _ in range(spins):  # a long-running kernel (Python time, not memory)
        x += 1


class Timeout(Exception):
    pass


def _raise_timeout(signum, frame):
    raise Timeout("launch took too long")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_signal_handlers_exception_propagates_at_once(engine):
    if not hasattr(signal, "setitimer"):
        pytest.skip("needs signal.setitimer")
    out = np.zeros(4 * 64, np.float32)
    previous = signal.signal(signal.SIGALRM, _raise_timeout)
    t0 = time.monotonic()
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with use_engine(engine), pytest.raises(Timeout):
            slow_blocks[4, 64](out, 20_000_000)  # about 1 s of spinning per block
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert time.monotonic() - t0 < 0.3 + 1.5  # not swallowed and rerun wave by wave
    assert any((out == s).all() for s in prefix_states(4, 64, 2.0))
    assert signal.getsignal(signal.SIGALRM) is previous


@kernel
def hangs_in_wave_1(out):
    out[threadIdx.x + 64 * threadIdx.y] = 1.0
    synchronize_workgroup()
    if threadIdx.y == 1:
        while True:  # a hung wave: never reaches a barrier or a wait
            pass


@kernel
def hangs_everywhere(out):
    out[threadIdx.x + 64 * threadIdx.y] = 1.0
    synchronize_workgroup()
    while True:
        pass


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("hung", [hangs_in_wave_1, hangs_everywhere])
def test_one_interrupt_stops_a_hung_multi_wave_kernel_and_its_threads(engine, hung, interrupt_main):
    before = threading.active_count()
    out = np.zeros(4 * 64 * 2, np.float32)
    timer = threading.Timer(0.3, interrupt_main)
    timer.start()
    t0 = time.monotonic()
    with use_engine(engine), pytest.raises(KeyboardInterrupt):
        hung[4, (64, 2)](out)
    assert time.monotonic() - t0 < 5
    timer.join()

    def kernel_threads():  # wave threads are pooled: ended jobs leave idle, renamed threads
        return [t for t in threading.enumerate() if t.name.startswith(hung.name)]

    deadline = time.monotonic() + 2
    while kernel_threads() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not kernel_threads()
    assert threading.active_count() <= before + 2  # at most the two waves' pooled threads
    if engine == "batch":  # the running batch (all 4 blocks) is undone
        assert not out.any()


# --- bounded journal (class 7) -----------------------------------------------------------------

@kernel
def naive_gemv(a, x, y, k_dim):
    i = blockIdx.x * 64 + threadIdx.x
    for kk in range(k_dim):
        y[i] += a[i * k_dim + kk] * x[kk]


def gemv_inputs(rows: int, k_dim: int):
    rng = np.random.default_rng(7)
    a = rng.integers(-3, 4, rows * k_dim).astype(np.float32)
    x = rng.integers(-3, 4, k_dim).astype(np.float32)
    return a, x, np.ones(rows, np.float32)


def test_journal_memory_stays_with_the_distinct_addresses_written():
    rows, k_dim = 2048, 2048
    a, x, y = gemv_inputs(rows, k_dim)
    tracemalloc.start()
    try:
        with use_workers(1):  # this process's undo journal (workers keep their own logs)
            naive_gemv[rows // 64, 64](a, x, y, k_dim)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert last_launch_stats().batched_blocks == rows // 64
    one_entry_per_write = k_dim * rows * (8 + 4)  # 48 MiB
    assert peak < one_entry_per_write // 8  # measured alone: 0.3 MB (2.3 MB when compaction sorted)
    expected = 1 + a.reshape(rows, k_dim).astype(np.float64) @ x  # small integers: exact
    np.testing.assert_array_equal(y, expected)


@pytest.mark.parametrize("engine", ENGINES)
def test_naive_gemv_with_k_2048_is_exact_on_both_engines(engine):
    rows, k_dim = 128, 2048
    a, x, y = gemv_inputs(rows, k_dim)
    with use_engine(engine):
        naive_gemv[rows // 64, 64](a, x, y, k_dim)
    np.testing.assert_array_equal(y, 1 + a.reshape(rows, k_dim).astype(np.float64) @ x)


@kernel
def rewrite_then_fail(out, fail_block):
    i = blockIdx.x * 64 + threadIdx.x
    for step in range(40):
        out[i] = step + 1.0
    if blockIdx.x == fail_block:
        out[i] = out[i + 10_000]  # out of bounds: the per-wave rerun reports it


def test_over_budget_batches_shrink_and_keep_per_wave_memory(monkeypatch):
    # below the 2 KiB of `out`: a snapshot of it does not fit either, only 1-block batches do
    monkeypatch.setenv("ROCWMMA_PY_BATCH_BYTES", "1024")
    out = np.zeros(8 * 64, np.float32)
    rewrite_then_fail[8, 64](out, 99)
    np.testing.assert_array_equal(out, np.full(8 * 64, 40.0, np.float32))
    kinds = {f.kind for f in last_launch_stats().fallbacks}
    assert "smaller batches" in kinds
    out = np.zeros(8 * 64, np.float32)
    with pytest.raises(IndexError):
        rewrite_then_fail[8, 64](out, 3)
    np.testing.assert_array_equal(out, prefix_states(8, 64, 40.0)[4])  # block 3 wrote, then
    # failed: exactly the per-wave engine


def test_an_undone_batch_restores_a_snapshotted_buffer_as_per_wave(monkeypatch):
    """Every store rewrites all of `out`: its journal keeps a copy of it (a snapshot) instead
    of entries; the failing batch is undone from that copy and rerun wave by wave."""
    taken = []
    real = Journal._adopt_runs
    monkeypatch.setattr(Journal, "_adopt_runs",
                        lambda self, *args: taken.append(1) or real(self, *args))
    out = np.zeros(8 * 64, np.float32)
    with use_engine("batch"), use_workers(1), pytest.raises(IndexError):
        rewrite_then_fail[8, 64](out, 3)
    assert taken
    np.testing.assert_array_equal(out, prefix_states(8, 64, 40.0)[4])


def test_batches_rewriting_their_slice_of_a_buffer_snapshot_only_its_pages(monkeypatch):
    """Pages of one block's slice (64 float32), batches of two blocks: each batch copies its
    two pages, never the buffer, and its stores there pass the journal; the failing batch
    is undone from its pages and rerun wave by wave."""
    monkeypatch.setattr(journal_module, "_PAGE_BYTES", 256)
    records, copied = [], []
    record, adopt = Journal.record, Journal._adopt_runs
    monkeypatch.setattr(Journal, "record",
                        lambda self, *args: records.append(1) or record(self, *args))
    monkeypatch.setattr(Journal, "_adopt_runs", lambda self, key, runs: copied.append(
        sum(copy.nbytes for *_, copy in runs)) or adopt(self, key, runs))
    out = np.zeros(8 * 64, np.float32)
    with (use_engine("batch"), use_workers(1), use_batch_lanes(2 * 64),
          pytest.raises(IndexError)):
        rewrite_then_fail[8, 64](out, 3)
    np.testing.assert_array_equal(out, prefix_states(8, 64, 40.0)[4])
    assert copied and max(copied) == 2 * 256
    assert len(records) == 4  # the first store of each batch and of each block the failing
    # batch reruns: the other 39 pass


@pytest.mark.parametrize("value", ["lots", "0", "-5", "1.5"])
def test_batch_bytes_must_be_a_positive_integer(value, monkeypatch):
    monkeypatch.setenv("ROCWMMA_PY_BATCH_BYTES", value)
    with pytest.raises(ValueError, match=rf"ROCWMMA_PY_BATCH_BYTES={value!r}: give a positive int"):
        rewrite_then_fail[1, 64](np.zeros(64, np.float32), 9)


# --- warp-specialized kernels stay batched -----------------------------------------------------

@pytest.mark.parametrize("arch", ["gfx942", "gfx1100"])
@pytest.mark.parametrize("engine", ENGINES)
def test_tensor_core_gemm_port_is_exact_and_batched_as_wave_groups(arch, engine):
    with use_engine(engine):
        got, ref = tensor_core_gemm.run(arch, 256, 128, 128)
    np.testing.assert_array_equal(got, ref)  # small integers: exact in f32
    stats = last_launch_stats()
    if engine == "batch":
        assert stats.per_wave_blocks == 0 and stats.batched_blocks == 2
        assert stats.wave_groups == 2  # warps 0-3 copy A, warps 4-7 copy B
        assert [f.kind for f in stats.fallbacks] == ["wave groups"]


@kernel
def producer_consumer(src, out):
    """Wave 0 stages the block's data in LDS; after the barrier waves 1-3 each consume a
    part; edge blocks' last wave returns early (fewer consumers at the grid's end)."""
    tile = shared_array(np.float32, 192)
    wave = threadIdx.y
    base = blockIdx.x * 192
    if wave == 0:
        for part in range(3):
            tile[part * 64 + threadIdx.x] = src[base + part * 64 + threadIdx.x] * 3
    synchronize_workgroup()
    if wave == 3 and blockIdx.x >= 4:
        return
    if wave > 0:
        out[base + (wave - 1) * 64 + threadIdx.x] = tile[(wave - 1) * 64 + threadIdx.x] + wave


def test_producer_consumer_and_early_returning_waves_stay_batched():
    src = np.arange(6 * 192, dtype=np.float32)
    results, stats = {}, {}
    for engine in ENGINES:
        out = np.full(6 * 192, -1.0, np.float32)
        with use_engine(engine):
            producer_consumer[6, (64, 4)](src, out)
        results[engine], stats[engine] = out, last_launch_stats()
    expected = np.full((6, 3, 64), -1.0, np.float32)
    for blk in range(6):
        for wave in (1, 2, 3):
            if wave == 3 and blk >= 4:
                continue
            expected[blk, wave - 1] = 3 * src.reshape(6, 3, 64)[blk, wave - 1] + wave
    np.testing.assert_array_equal(results["wave"], expected.reshape(-1))
    np.testing.assert_array_equal(results["batch"], expected.reshape(-1))
    assert stats["batch"].per_wave_blocks == 0 and stats["batch"].wave_groups >= 2


@kernel
def specialized_race(out):
    tile = shared_array(np.float32, 64)
    if threadIdx.y == 0:
        tile[threadIdx.x] = 1.0
    else:
        out[threadIdx.x] = tile[threadIdx.x]  # no barrier: reads what wave 0 writes


@pytest.mark.parametrize("engine", ENGINES)
def test_lds_races_between_wave_groups_are_reported(engine):
    with use_engine(engine), pytest.raises(LdsRaceError, match="wave 1 .* wave 0 wrote"):
        specialized_race[2, (64, 2)](np.zeros(64, np.float32))


# --- launch statistics --------------------------------------------------------------------------

@kernel
def splits_at_block_3(out, d):
    value = 1.0
    if blockIdx.x >= 3:  # the line the fallback names
        value = 2.0
    out[blockIdx.x * 64 + threadIdx.x] = value / d[blockIdx.x]


def test_fallbacks_name_the_block_the_cause_and_the_kernel_line():
    out = np.zeros(6 * 64, np.float32)
    d = np.ones(6, np.float32)
    splits_at_block_3[6, 64](out, d)
    line = splits_at_block_3.fn.__code__.co_firstlineno + 3
    (split,) = last_launch_stats().fallbacks
    assert (split.kind, split.block, split.blocks) == ("block split", 3, 6)
    assert split.line.endswith(f"test_engine_mechanics.py:{line}")
    assert "between blocks" in split.cause


@kernel
def fails_in_block_2(out):
    out[blockIdx.x * 64 + threadIdx.x + 1000 * (blockIdx.x == 2)] = 1.0


def test_an_error_fallback_names_the_exception():
    with pytest.raises(IndexError):
        fails_in_block_2[4, 64](np.zeros(256, np.float32))
    per_wave = [f for f in last_launch_stats().fallbacks if f.kind == "per wave"]
    assert per_wave and per_wave[0].cause.startswith("OutOfBoundsError")


def test_launch_statistics_are_per_thread():
    out = np.zeros(6 * 64, np.float32)
    splits_at_block_3[6, 64](out, np.ones(6, np.float32))
    mine = last_launch_stats()
    seen = {}

    def other():
        seen["before"] = last_launch_stats().batched_blocks
        with use_engine("wave"):
            splits_at_block_3[2, 64](np.zeros(2 * 64, np.float32), np.ones(2, np.float32))
        seen["after"] = last_launch_stats()

    worker = threading.Thread(target=other)
    worker.start()
    worker.join()
    assert seen["before"] == 0 and seen["after"].per_wave_blocks == 2
    assert last_launch_stats() is mine and mine.batched_blocks == 6


# --- progress -----------------------------------------------------------------------------------

class RecordingBar:
    """Stands in for tqdm: records every update."""

    instances: list[RecordingBar] = []

    def __init__(self, total, **kwargs):
        self.total, self.updates = total, []
        RecordingBar.instances.append(self)

    def update(self, n):
        self.updates.append(n)

    def set_postfix_str(self, text, refresh=True):
        self.updates.append(text)

    def close(self):
        self.closed = True


@kernel
def many_barriers(out):
    for step in range(8):
        out[blockIdx.x * 128 + threadIdx.x + 64 * threadIdx.y] = step
        synchronize_workgroup()


@pytest.mark.parametrize("engine", ENGINES)
def test_progress_moves_within_batches_and_on_the_per_wave_engine(engine, monkeypatch):
    monkeypatch.setenv("ROCWMMA_PY_PROGRESS", "on")  # forced: stderr is not a terminal here
    monkeypatch.setenv("ROCWMMA_PY_BATCH_LANES", "256")  # 2 blocks of 2 waves per batch
    monkeypatch.setattr("tqdm.tqdm", RecordingBar)
    RecordingBar.instances.clear()
    with use_engine(engine):
        many_barriers[6, (64, 2)](np.zeros(6 * 128, np.float32))
    (bar,) = RecordingBar.instances
    counts = [u for u in bar.updates if not isinstance(u, str)]
    assert abs(sum(counts) - 6) < 1e-9 and bar.closed
    # after the first unit (batch or block), the bar advances at barriers: fractions
    assert any(0 < c < (2 if engine == "batch" else 1) for c in counts)


@kernel
def k_loop_gemm(a, b, d):
    """No barrier: only the mma_sync K steps can move the bar inside a batch."""
    fa = fragment[matrix_a, 16, 16, 16, float16, row_major]()
    fb = fragment[matrix_b, 16, 16, 16, float16, col_major]()
    acc = fragment[accumulator, 16, 16, 16, float32]()
    fill_fragment(acc, 0.0)
    for k in range(0, 128, 16):
        load_matrix_sync(fa, a + k, 128)
        load_matrix_sync(fb, b + k, 128)
        mma_sync(acc, fa, fb, acc)
    store_matrix_sync(d + blockIdx.x * 256, acc, 16, mem_row_major)


@pytest.mark.parametrize("engine", ENGINES)
def test_progress_moves_per_mma_sync_step(engine, monkeypatch):
    monkeypatch.setenv("ROCWMMA_PY_PROGRESS", "on")
    monkeypatch.setenv("ROCWMMA_PY_BATCH_LANES", "128")  # 2 one-wave blocks per batch
    monkeypatch.setattr("tqdm.tqdm", RecordingBar)
    RecordingBar.instances.clear()
    a = np.ones((16, 128), np.float16)
    d = np.zeros(6 * 256, np.float32)
    with use_engine(engine):
        k_loop_gemm[6, 64, 0, "gfx942"](a, a, d)
    assert (d == 128).all()
    (bar,) = RecordingBar.instances
    counts = [u for u in bar.updates if not isinstance(u, str)]
    assert abs(sum(counts) - 6) < 1e-9
    assert any(0 < c < (2 if engine == "batch" else 1) for c in counts)  # moved mid-unit


@pytest.mark.parametrize("value", ["off", "0", "false", "no", "OFF"])
def test_progress_off_values(value, monkeypatch):
    monkeypatch.setenv("ROCWMMA_PY_PROGRESS", value)
    assert not PROGRESS.get()


@pytest.mark.parametrize("value", ["on", "1", "true", "yes"])
def test_progress_on_values_force_the_bar(value, monkeypatch):
    monkeypatch.setenv("ROCWMMA_PY_PROGRESS", value)
    assert PROGRESS.get()


def test_progress_unknown_value_raises(monkeypatch):
    monkeypatch.setenv("ROCWMMA_PY_PROGRESS", "sometimes")
    with pytest.raises(ValueError, match=r"ROCWMMA_PY_PROGRESS='sometimes'.*off"):
        many_barriers[1, (64, 2)](np.zeros(128, np.float32))


# --- random warp-specialized kernels: both engines agree --------------------------------------

WAVES = 4


def make_specialized(roles: int, steps: int, edge_mod: int, extra_role: int):
    """Waves take role `wave % roles` (different Python paths), stage values in LDS, read a
    partner wave's slot after a barrier, and the last wave of every `edge_mod`-th block
    returns early after the loop."""

    waves = WAVES

    @kernel
    def specialized(src, out):
        tile = shared_array(np.float32, 64 * waves)
        wave = threadIdx.y
        mine = wave * 64 + threadIdx.x
        base = blockIdx.x * 64 * waves
        partner = (wave + 1) % waves * 64 + (63 - threadIdx.x)
        role = wave % roles
        for step in range(steps):
            if role == 0:
                tile[mine] = src[base + mine] * (step + 1)
            elif role == 1:
                tile[mine] = src[base + mine] + step
            else:
                for _ in range(step % 2 + 1):  # a role-dependent loop count
                    tile[mine] = tile[mine] - 1
            synchronize_workgroup()
            out[base + mine] = out[base + mine] + tile[partner]
            synchronize_workgroup()
        if wave == waves - 1 and blockIdx.x % edge_mod == 0:
            return
        if role == extra_role:
            out[base + mine] = out[base + mine] * 2
        else:
            out[base + mine] = -out[base + mine]

    return specialized


def specialized_reference(src, blocks, roles, steps, edge_mod, extra_role):
    """The kernel's per-wave semantics in plain numpy: per block, every wave writes its own
    LDS slot, then (after the barrier) adds its partner's slot, lanes reversed."""
    out = np.zeros((blocks, WAVES, 64), np.float64)
    src = src.reshape(blocks, WAVES, 64).astype(np.float64)
    for b in range(blocks):
        tile = np.zeros((WAVES, 64))
        for step in range(steps):
            for w in range(WAVES):
                role = w % roles
                if role == 0:
                    tile[w] = src[b, w] * (step + 1)
                elif role == 1:
                    tile[w] = src[b, w] + step
                else:
                    tile[w] -= step % 2 + 1
            for w in range(WAVES):
                out[b, w] += tile[(w + 1) % WAVES][::-1]
        for w in range(WAVES):
            if w == WAVES - 1 and b % edge_mod == 0:
                continue
            out[b, w] *= 2 if w % roles == extra_role else -1
    return out.reshape(-1)


def test_random_warp_specialized_kernels_agree_and_stay_batched():
    rng = np.random.default_rng(11)
    for _ in range(12):
        roles, steps = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        edge_mod, extra = int(rng.integers(1, 4)), int(rng.integers(0, 3))
        blocks = int(rng.integers(1, 6))
        k = make_specialized(roles, steps, edge_mod, extra)
        src = rng.integers(-8, 9, blocks * 256).astype(np.float32)
        outs = {}
        for engine in ENGINES:
            out = np.zeros(blocks * 256, np.float32)
            with use_engine(engine):
                k[blocks, (64, 4)](src, out)
            outs[engine] = (out, last_launch_stats())
        case = (roles, steps, edge_mod, extra, blocks)
        expected = specialized_reference(src, blocks, roles, steps, edge_mod, extra)
        np.testing.assert_array_equal(outs["wave"][0], expected, err_msg=str(case))
        assert outs["batch"][0].tobytes() == outs["wave"][0].tobytes(), case
        assert outs["batch"][1].per_wave_blocks == 0, case


@kernel
def _write_then_reuse_the_index(out, tail, bulk):
    idx = blockIdx.x * 64 + threadIdx.x
    if bulk:
        out.scatter(idx, -1.0)
    else:
        out[idx] = -1.0
    idx[...] = idx + 256  # the kernel reuses its index array in place
    out[0] = tail[blockIdx.x * 100]  # block 1 reads past tail's end: the batch is undone


@pytest.mark.parametrize("bulk", [False, True], ids=["p[i] = v", "scatter"])
@pytest.mark.parametrize("engine", ENGINES)
def test_an_undone_batch_restores_what_it_wrote_when_the_kernel_reused_its_index(engine, bulk):
    """The undo journal keeps the addresses the store had, not the kernel's array."""
    from rocwmma_py.runtime.errors import OutOfBoundsError
    out = np.arange(512, dtype=np.float32)
    with use_engine(engine), pytest.raises(OutOfBoundsError):
        _write_then_reuse_the_index[2, 64, 0, "gfx942"](out, np.zeros(10, np.float32), bulk)
    want = np.arange(512, dtype=np.float32)
    want[1:128] = -1.0  # both blocks wrote before block 1's error; out[0] is block 0's read
    np.testing.assert_array_equal(out, want)
