"""Launches spread over worker processes against the same launches in this process.

Each case runs a kernel on fresh copies of its buffers with `use_workers(1)` (the serial
engine) and `use_workers(2)`, on both engines, and compares every buffer bit for bit, the
exception (type, message, notes) and, where the launch must have used workers, the launch
statistics (so the comparison is not vacuous). Spreading is forced for these small grids by
lowering the module's size thresholds. Independent expectations (which blocks' writes are
present after an error) are checked from the kernels' definitions.
"""

from __future__ import annotations

import os
import re
import sys
import threading
import time

import numpy as np
import pytest

from rocwmma_py import (
    OutOfBoundsError,
    WorkerCountError,
    accumulator,
    col_major,
    fill_fragment,
    float16,
    float32,
    fragment,
    kernel,
    load_matrix_sync,
    matrix_a,
    matrix_b,
    mem_row_major,
    mma_sync,
    row_major,
    store_matrix_sync,
    use_workers,
)
from rocwmma_py.runtime import (
    Buffer,
    Pointer,
    atomicAdd,
    blockDim,
    blockIdx,
    current_wave,
    last_launch_stats,
    spread_cost,
    threadIdx,
    use_engine,
    worker_count,
    workers,
)
from rocwmma_py.settings import WORKERS

ENGINES = ("batch", "wave")
TILE = 16
FragA = fragment[matrix_a, TILE, TILE, TILE, float16, row_major]
FragB = fragment[matrix_b, TILE, TILE, TILE, float16, col_major]
FragAcc = fragment[accumulator, TILE, TILE, TILE, float32]


def compare(launch, buffers, engine, expect_workers=True):
    """Run `launch(*copies)` with 1 and 2 workers; assert identical memory and errors."""
    runs = {}
    for count in (1, 2):
        copies = [b.copy() for b in buffers]
        error = None
        with use_engine(engine), use_workers(count):
            try:
                launch(*copies)
            except Exception as err:  # noqa: BLE001 - compared between worker counts
                error = (type(err), str(err), list(getattr(err, "__notes__", [])))
        runs[count] = (copies, error, last_launch_stats())
    (serial, err1, stats1), (spread_, err2, stats2) = runs[1], runs[2]
    assert err1 == err2
    for a, b in zip(serial, spread_, strict=True):
        assert a.tobytes() == b.tobytes()
    assert stats1.workers == 1
    if expect_workers:
        assert stats2.workers == 2
    return runs


def serial_fallback(stats):
    """The launch's one "serial" fallback: where its blocks went back to this process."""
    [fallback] = [f for f in stats.fallbacks if f.kind == "serial"]
    return fallback


@kernel
def tile_gemm(n, a, b, d):
    """D = A * B (f16 -> f32), one 16x16 tile per wave, K in steps of 16."""
    row, col = blockIdx.x * TILE, blockIdx.y * TILE
    acc = FragAcc()
    fill_fragment(acc, 0.0)
    fa, fb = FragA(), FragB()
    for kk in range(0, n, TILE):
        load_matrix_sync(fa, a + row * n + kk, n)
        load_matrix_sync(fb, b + col * n + kk, n)
        mma_sync(acc, fa, fb, acc)
    store_matrix_sync(d + row * n + col, acc, n, mem_row_major)


@pytest.mark.parametrize("engine", ENGINES)
def test_gemm_identical_and_spread(spread, engine):
    n = 64
    rng = np.random.default_rng(1)
    a = rng.standard_normal((n, n)).astype(np.float16)
    bt = rng.standard_normal((n, n)).astype(np.float16)
    d = np.full((n, n), np.nan, np.float32)
    runs = compare(lambda a, bt, d: tile_gemm[(n // TILE, n // TILE), 64](n, a, bt, d),
                   [a, bt, d], engine)
    stats = runs[2][2]
    assert stats.batched_blocks + stats.per_wave_blocks == (n // TILE) ** 2
    exact = a.astype(np.float64) @ bt.astype(np.float64).T
    assert np.allclose(runs[2][0][2], exact, rtol=1e-5, atol=1e-4)  # every tile written


def test_perf_hgemm_lds_kernel_identical(spread):
    from samples.perf_gemm_common import make_gemm_kernel
    from samples.perf_hgemm import GFX9_PARAMS as P
    from samples.perf_hgemm import TYPES

    m = n = k = 256
    macro_m, macro_n = P.macro_tile
    rng = np.random.default_rng(2)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = np.asfortranarray(rng.standard_normal((k, n)).astype(np.float16)).reshape(-1, order="A")
    c = rng.standard_normal((m, n)).astype(np.float16)
    d = np.full((m, n), np.nan, np.float16)
    gemm = make_gemm_kernel(P, *TYPES)
    lds = 2 * 2 * (macro_m + macro_n) * P.ROCWMMA_K
    grid = (m // macro_m, n // macro_n)
    compare(lambda a, b, c, d: gemm[grid, (P.TBLOCK_X, P.TBLOCK_Y), lds, "gfx942"](
        m, n, k, a, b, c, d, k, k, n, n, 1.0, 1.0), [a.reshape(-1), b, c, d], "batch")


@kernel
def parity_branch(out):
    """Odd and even blocks take different Python branches: batches split."""
    i = blockIdx.x * blockDim.x + threadIdx.x
    if blockIdx.x % 2:
        out[i] = i * 3
    else:
        out[i] = -i


@pytest.mark.parametrize("engine", ENGINES)
def test_split_batches_identical(spread, engine):
    out = np.zeros(64 * 24, np.int32)
    runs = compare(lambda o: parity_branch[24, 64](o), [out], engine)
    i = np.arange(out.size)
    expected = np.where((i // 64) % 2 == 1, i * 3, -i)
    assert np.array_equal(runs[2][0][0], expected)
    if engine == "batch":
        assert runs[2][2].splits > 0


@kernel
def per_wave_identity(out):
    """current_wave() is per-wave: the batched engine reruns these blocks wave by wave."""
    wave = current_wave()
    i = blockIdx.x * blockDim.x + threadIdx.x
    out[i] = wave.wave_index * 1000 + blockIdx.x


@pytest.mark.parametrize("engine", ENGINES)
def test_per_wave_kernel_identical(spread, engine):
    out = np.zeros(128 * 20, np.int64)
    runs = compare(lambda o: per_wave_identity[20, 128](o), [out], engine)
    i = np.arange(out.size)
    expected = (i % 128) // 64 * 1000 + i // 128
    assert np.array_equal(runs[2][0][0], expected)


def test_container_kernel_stays_serial(spread):
    seen: list[int] = []

    @kernel
    def collect(out):
        seen.append(1)
        out[blockIdx.x * blockDim.x + threadIdx.x] = 7

    out = np.zeros(64 * 20, np.int32)
    compare(lambda o: collect[20, 64](o), [out], "batch", expect_workers=False)
    assert last_launch_stats().workers == 1
    assert len(seen) == 2 * 20  # every wave, once per run, all in this process


BAD_BLOCK = 13


@kernel
def fails_in_a_middle_block(out, bad):
    """Every block writes its slot; block BAD_BLOCK then writes one element past the end."""
    i = blockIdx.x * blockDim.x + threadIdx.x
    out[i] = blockIdx.x + 1
    if blockIdx.x == bad:
        out[out.size + threadIdx.x] = 5


@pytest.mark.parametrize("engine", ENGINES)
def test_error_in_a_middle_block(spread, engine):
    blocks, width = 24, 64
    out = np.zeros(blocks * width, np.int32)
    runs = compare(lambda o: fails_in_a_middle_block[blocks, width](o, BAD_BLOCK), [out],
                   engine)
    memory, error, stats = runs[2]
    assert error[0] is OutOfBoundsError
    assert any(f"block ({BAD_BLOCK},0,0)" in text for text in [error[1], *error[2]]), error
    slots = memory[0].reshape(blocks, width)
    assert (slots[:BAD_BLOCK + 1] == np.arange(1, BAD_BLOCK + 2)[:, None]).all()
    assert (slots[BAD_BLOCK + 1:] == 0).all()  # later blocks' writes are absent
    assert serial_fallback(stats).block <= BAD_BLOCK


@kernel
def counts_blocks(counter, out, first_atomic):
    """Blocks from `first_atomic` on add to one counter (the order of blocks matters for the
    old values); every block stores what it saw."""
    i = blockIdx.x * blockDim.x + threadIdx.x
    if blockIdx.x >= first_atomic:
        out[i] = atomicAdd(counter, 1)
    else:
        out[i] = -1


@pytest.mark.parametrize("engine", ENGINES)
def test_atomics_on_one_counter_fall_back_to_block_order(spread, engine):
    """The first piece with atomics on the counter runs on a worker (no earlier piece wrote
    it); the next one meets it and runs here, from its first block. (Atomics on it in the
    first blocks would keep the launch here: test_worker_atomics.py.)"""
    blocks, width, first_atomic = 24, 64, 17
    counter, out = np.zeros(1, np.int32), np.zeros(blocks * width, np.int32)
    runs = compare(lambda c, o: counts_blocks[blocks, width](c, o, first_atomic),
                   [counter, out], engine)
    (counter2, out2), _, stats = runs[2]
    atomic_lanes = (blocks - first_atomic) * width
    assert counter2[0] == atomic_lanes
    assert np.array_equal(np.sort(out2[first_atomic * width:]), np.arange(atomic_lanes))
    fallback = serial_fallback(stats)
    assert first_atomic < fallback.block
    assert re.fullmatch(rf"global atomics of blocks {fallback.block}\.\.\d+ on 'counter' hit "
                        "addresses an earlier piece wrote", fallback.cause)


_HIDDEN = np.zeros(64 * 20, np.int32)


@kernel
def writes_module_memory():
    """Writes an array that neither an argument nor a closure reaches."""
    hidden = Pointer(Buffer("hidden", globals()["_HIDDEN"]))
    hidden[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x + 1


def test_memory_this_process_cannot_name_reruns_here(spread):
    with use_workers(2):
        writes_module_memory[20, 64]()
    stats = last_launch_stats()
    assert stats.workers == 2 and "cannot name" in serial_fallback(stats).cause
    assert np.array_equal(_HIDDEN, np.repeat(np.arange(1, 21), 64))


def test_a_dying_worker_reruns_here(spread):
    parent = os.getpid()

    @kernel
    def dies(out):
        if os.getpid() != parent and blockIdx.x >= 16:
            os._exit(3)
        out[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x

    out = np.zeros(64 * 20, np.int32)
    with use_workers(2):
        dies[20, 64](out)
    assert np.array_equal(out, np.repeat(np.arange(20), 64))
    assert "ended" in serial_fallback(last_launch_stats()).cause
    assert _child_processes() == []


def _child_processes() -> list[str]:
    """Child processes of this process still existing (zombies included)."""
    children = []
    for task in os.listdir(f"/proc/{os.getpid()}/task"):
        with open(f"/proc/{os.getpid()}/task/{task}/children") as f:
            children += f.read().split()
    return children


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers fork on Linux only")
@pytest.mark.parametrize("engine", ENGINES)
def test_interrupt_stops_hung_workers(spread, engine, interrupt_main):
    parent = os.getpid()

    @kernel
    def hangs_in_workers(out):
        if os.getpid() != parent:
            time.sleep(600)
        out[blockIdx.x * blockDim.x + threadIdx.x] = 1

    out = np.zeros(64 * 20, np.int32)
    timer = threading.Timer(0.5, interrupt_main)
    started = time.monotonic()
    timer.start()
    try:
        with use_engine(engine), use_workers(2), pytest.raises(KeyboardInterrupt):
            hangs_in_workers[20, 64](out)
    finally:
        timer.cancel()
    assert time.monotonic() - started < 10
    assert _child_processes() == []
    probe = 3 if engine == "batch" else 1  # the first blocks, run here (see run_on_workers)
    assert (out[:64 * probe] == 1).all() and (out[64 * probe:] == 0).all()


@kernel
def prints_its_block(out, bad):
    print(f"block {int(blockIdx.x)}")
    print(f"err {int(blockIdx.x)}", file=sys.stderr)
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1
    if blockIdx.x == bad:
        out[out.size] = 1


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("bad", [-1, BAD_BLOCK])
def test_printed_output_comes_in_block_order(spread, capsys, engine, bad):
    """Through this process's sys.stdout and sys.stderr (pytest's capsys, a notebook), in
    block order; a failed piece prints only when rerun here. The batched engine may print a
    block again when it reruns a batch wave by wave (the engine's docstring), so there the
    failing case checks order and completeness only."""
    out = np.zeros(64 * 20, np.int32)
    with use_engine(engine), use_workers(2):
        if bad < 0:
            prints_its_block[20, 64](out, bad)
        else:
            with pytest.raises(OutOfBoundsError):
                prints_its_block[20, 64](out, bad)
    assert last_launch_stats().workers == 2
    printed = capsys.readouterr()
    blocks = list(range(20 if bad < 0 else bad + 1))
    for text, word in ((printed.out, "block"), (printed.err, "err")):
        seen = [int(line.removeprefix(f"{word} ")) for line in text.splitlines()]
        if engine == "wave" or bad < 0:
            assert seen == blocks
        else:
            assert sorted(set(seen)) == blocks
            assert seen[:seen.index(bad)] == blocks[:bad]  # the first failing piece reruns


def test_small_launches_stay_in_this_process():
    out = np.zeros(64 * 20, np.int32)
    with use_workers(2):
        parity_branch[20, 64](out)
    assert last_launch_stats().workers == 1


def test_launch_from_another_thread_stays_in_this_process(spread):
    out = np.zeros(64 * 20, np.int32)
    stats = []

    def launch():
        with use_workers(2):
            parity_branch[20, 64](out)
        stats.append(last_launch_stats())

    thread = threading.Thread(target=launch)
    thread.start()
    thread.join()
    assert stats[0].workers == 1 and out[64] == 64 * 3


def test_worker_count_parsing(monkeypatch):
    monkeypatch.delenv(WORKERS.env_var, raising=False)
    assert worker_count() == len(os.sched_getaffinity(0))
    monkeypatch.setenv(WORKERS.env_var, " 3 ")
    assert worker_count() == 3
    with use_workers(1):
        assert worker_count() == 1
        with use_workers(5):
            assert worker_count() == 5
        assert worker_count() == 1
    assert worker_count() == 3
    for bad in ("0", "-1", "2.0", "two", "1e2", "²"):
        monkeypatch.setenv(WORKERS.env_var, bad)
        with pytest.raises(WorkerCountError, match=WORKERS.env_var):
            worker_count()
    for bad in (0, -2, True, 2.0, "2"):
        with pytest.raises(WorkerCountError, match="positive int"):
            with use_workers(bad):
                pass
    assert issubclass(WorkerCountError, ValueError)


@pytest.mark.parametrize("check", ["initcheck", "synccheck", "racecheck"])
def test_sanitized_launches_stay_in_this_process(spread, check):
    out = np.zeros(64 * 20, np.int32)
    with use_workers(2):
        parity_branch[20, 64].checked(**{check: True})(out)
    assert last_launch_stats().workers == 1
    assert out[64] == 64 * 3


@pytest.mark.parametrize("size", [40, 1 << 16])  # mask over the buffer / sorted indices
def test_write_log_lists_each_written_element_once(size):
    from rocwmma_py.runtime.journal import WriteLog

    buffer, log = np.zeros(size, np.float32), WriteLog()
    writes = [np.array([7, 3, 7]), np.array([3, 39, 0]), np.array([39])]
    for flat in writes:
        log.record(buffer, flat, buffer[flat])
    log.compact()
    log.record(buffer, np.array([5, 3]), buffer[[5, 3]])
    [(view, flat)] = log.written()
    assert view.dtype == np.uint32 and view.size == size and np.shares_memory(view, buffer)
    assert flat.tolist() == [0, 3, 5, 7, 39]


@kernel
def _write_each(x, y):
    i = blockIdx.x * blockDim.x + threadIdx.x
    y[i] = x[i] + 1.0


@pytest.mark.parametrize(("per_element_s", "want_workers"), [(0.0, 2), (1e-3, 1)])
def test_workers_are_used_only_when_the_estimate_pays(monkeypatch, per_element_s,
                                                      want_workers):
    """The decision prices what the workers would send back: free transfers spread the
    launch, costly ones keep it here (fixed costs, so the test does not time anything)."""
    monkeypatch.setattr(workers, "MIN_BLOCKS", 2)
    monkeypatch.setattr(workers, "UNMEASURED_MIN_BATCHES", 1)
    monkeypatch.setattr(workers, "FORK_S", 0.0)
    monkeypatch.setattr(workers, "PIECE_S", 0.0)
    monkeypatch.setattr(workers, "_transfer_costs", lambda: (per_element_s, per_element_s))

    def probe(run, blocks, per_batch, promising, known=None):
        run(0, blocks)
        return spread_cost.Cost(0.0, 0.1, per_batch or 1, 1.0, 1.0), blocks, 2  # 0.1 s a block

    monkeypatch.setattr(spread_cost, "probe", probe)
    x = np.arange(64 * 64, dtype=np.float32)
    y = np.zeros_like(x)
    with use_workers(2):
        _write_each[64, 64, 0, "gfx942"](x, y)
    assert last_launch_stats().workers == want_workers
    assert (y == x + 1).all()


@pytest.mark.parametrize(("fixed", "want_workers"), [(0.0, 2), (10.0, 1)])
def test_a_batchs_fixed_cost_is_priced(monkeypatch, fixed, want_workers):
    """Pieces are batches of their own: a kernel whose batches cost mostly the same
    whatever their size (its Python, not its numpy work) stays in one process."""
    monkeypatch.setattr(workers, "MIN_BLOCKS", 2)
    monkeypatch.setattr(workers, "UNMEASURED_MIN_BATCHES", 1)

    def probe(run, blocks, per_batch, promising, known=None):
        run(0, blocks)
        return spread_cost.Cost(fixed, 0.1, 1 << 20, 1.0, 1.0), blocks, 2

    monkeypatch.setattr(spread_cost, "probe", probe)
    monkeypatch.setattr(workers, "_transfer_costs", lambda: (0.0, 0.0))
    x = np.arange(64 * 64, dtype=np.float32)
    y = np.zeros_like(x)
    with use_workers(2):
        _write_each[64, 64, 0, "gfx942"](x, y)
    assert last_launch_stats().workers == want_workers


def test_probe_separates_a_batchs_fixed_cost():
    """Two parts of 1/4 and 3/4 of the blocks: a part costing 0.2 s + 0.01 s a block."""
    def run(start, stop):
        deadline = time.process_time() + 0.2 + 0.01 * (stop - start)
        while time.process_time() < deadline:
            pass

    cost, ran, parts = spread_cost.probe(run, 16, 64, lambda first: True)
    assert ran == 16 and parts == 2 and cost.fixed == pytest.approx(0.2, abs=0.02)
    assert cost.per_block == pytest.approx(0.01, abs=0.003)
    assert cost.serial(128) == pytest.approx((2 * 0.2 + 1.28) / cost.share, rel=0.1)
    wave, ran, _ = spread_cost.probe(run, 4, None, lambda first: True)  # per wave: no batches
    assert ran == 4 and wave.fixed == 0 and wave.per_block == pytest.approx(0.24 / 4, rel=0.1)
    # the first part (1 block) shows spreading cannot pay: no second part
    seen = []
    short, ran, parts = spread_cost.probe(run, 4, 64, lambda first: bool(seen.append(first)))
    assert ran == 1 and parts == 1 and seen[0].per_block == pytest.approx(0.21, rel=0.1)
    assert short.per_block == pytest.approx(0.21, rel=0.1)


def test_an_earlier_whole_run_is_the_probes_second_equation():
    """With a known run (64 blocks in 2 batches: 2 x 0.2 s + 0.64 s) the probe's blocks
    as one part separate the fixed cost from the cost per block."""
    def run(start, stop):
        deadline = time.process_time() + 0.2 + 0.01 * (stop - start)
        while time.process_time() < deadline:
            pass

    cost, ran, parts = spread_cost.probe(run, 16, 64, lambda first: True, (64, 2, 1.04))
    assert (ran, parts) == (16, 1)
    assert cost.fixed == pytest.approx(0.2, abs=0.02)
    assert cost.per_block == pytest.approx(0.01, abs=0.002)


def test_transfer_costs_are_measured_positive():
    worker_s, apply_s = workers._transfer_costs()
    assert 0 < worker_s < 1e-5 and 0 < apply_s < 1e-5  # seconds per element


@pytest.mark.parametrize(("idle", "seconds", "want"), [(1.0, 10.0, True), (0.0, 10.0, False),
                                                       (0.05, 10.0, False), (1.0, 0.1, False)])
def test_spreading_is_promising_only_with_idle_cores_and_time(idle, seconds, want):
    """A machine whose cores other processes keep busy gives forked workers no more CPU
    (Linux shares it between sessions): only idle cores and a long enough launch pay."""
    cost = spread_cost.Cost(0.0, seconds / 100, 1 << 20, 1.0, idle)
    assert workers._promising(cost, 100, 2) is want


# --- when a launch is worth probing, and the serial rest after a probe -------------------------

COST_FIXED = spread_cost.Cost(0.05, 1e-6, 512, 1.0, 1.0)  # the kernel's Python: 50 ms a batch
COST_BLOCKS = spread_cost.Cost(0.005, 1e-3, 512, 1.0, 1.0)  # numpy work: 1 ms a block
COST_EDGE = spread_cost.Cost(0.012, 1e-3, 512, 1.0, 1.0)  # 12 ms of 524 ms a batch


@pytest.mark.parametrize(("memo", "batches", "want"), [
    (spread_cost.Memo(), 1, False),  # unmeasured, one batch: the probe could double it
    (spread_cost.Memo(), 3, False),
    (spread_cost.Memo(), 4, True),  # unmeasured, the rest absorbs the probe's batches
    (spread_cost.Memo(seconds=0.2), 8, False),  # too short to gain
    (spread_cost.Memo(seconds=0.8), 1, True),
    (spread_cost.Memo(COST_FIXED), 8, False),  # its batches are what it costs
    (spread_cost.Memo(COST_BLOCKS), 1, True),  # 2 x 5 ms of 517 ms
    (spread_cost.Memo(COST_BLOCKS), 8, True),
    (spread_cost.Memo(COST_EDGE), 1, False),  # two probe batches: 2 x 12 ms > 3 %
    (spread_cost.Memo(COST_EDGE, seconds=0.6), 1, True),  # one (a known run): 12 ms < 3 %
])
def test_a_launch_is_probed_only_where_the_probe_is_cheap(memo, batches, want):
    assert workers._worth_probing(memo, batches, 512 * batches) is want


@pytest.mark.parametrize(("rest", "batches", "probed", "want"), [
    (4096 - 128, 8, 2, 662),  # 8 batches in all, as without the probe
    (2000, 2, 2, 1024),  # at most twice a batch
    (4096 - 32, 8, 1, 581),
    (100, 8, 2, 512),  # never smaller than a batch
])
def test_the_serial_rest_after_a_probe_takes_its_batches_out(rest, batches, probed, want):
    assert spread_cost.rebatched(512, rest, batches, probed) == want


@kernel
def _python_heavy(x, y, n):
    """Mostly the kernel's Python: a long loop of small operations per thread."""
    i = blockIdx.x * 64 + threadIdx.x
    v = x[i]
    for _ in range(n):
        v = v * 1.0001
    y[i] = v


def _count_probes_and_batches(monkeypatch) -> tuple[list, list]:
    """(the probes' `known` arguments, the sizes of the top batches) of the launches that
    follow, `_python_heavy` never measured before."""
    from rocwmma_py.runtime import engine
    probes, batches = [], []
    real_probe, real_batch = spread_cost.probe, engine._Launch.top_batch

    def probe(run, blocks, per_batch, promising, known=None):
        probes.append(known)
        return real_probe(run, blocks, per_batch, promising, known)

    monkeypatch.setattr(spread_cost, "probe", probe)
    monkeypatch.setattr(engine._Launch, "top_batch", lambda self, blocks: (
        batches.append(blocks.size) or real_batch(self, blocks)))
    monkeypatch.setattr(_python_heavy, "costs", {})  # (never measured)
    return probes, batches


def _python_heavy_result(y: np.ndarray, n: int) -> bool:
    want = np.float32(1.0)
    for _ in range(n):
        want = want * np.float32(1.0001)
    return bool((y == want).all())


def test_a_short_never_measured_launch_is_timed_by_its_first_batch(monkeypatch):
    """A never-measured launch of 8 batches of a kernel whose batches cost its Python runs
    its first batch as usual: 8 x its time is under MIN_PARALLEL_S, so the rest follows
    in the same batches with no probe (whose two small batches cost as much as ordinary
    ones); the next launch of that shape, measured now, is not probed either."""
    probes, batches = _count_probes_and_batches(monkeypatch)
    monkeypatch.setattr(workers, "_promising", lambda cost, blocks, count: True)
    blocks = 8 * 512  # 8 batches of 512 one-wave blocks
    x = np.ones(blocks * 64, np.float32)
    y = np.zeros_like(x)
    with use_workers(2):
        for _ in range(2):
            _python_heavy[blocks, 64, 0, "gfx942"](x, y, 20)
            assert not probes and batches == [512] * 8
            assert last_launch_stats().workers == 1
            batches.clear()
    assert _python_heavy.costs[next(iter(_python_heavy.costs))].seconds > 0
    assert _python_heavy_result(y, 20)


def test_a_long_never_measured_launch_probes_one_part_after_its_first_batch(monkeypatch):
    """Where 8 x the first batch's time reaches MIN_PARALLEL_S, the probe runs one small
    part, the first batch its other equation; a launch whose workers cannot pay then stays
    here in 8 batches in all, and the next launch of that shape, known to be short, is not
    probed."""
    probes, batches = _count_probes_and_batches(monkeypatch)
    monkeypatch.setattr(workers, "MIN_PARALLEL_S", 0.0)
    monkeypatch.setattr(workers, "PAYOFF", 0.0)  # (workers never pay)
    blocks = 8 * 512
    x = np.ones(blocks * 64, np.float32)
    y = np.zeros_like(x)
    with use_workers(2):
        _python_heavy[blocks, 64, 0, "gfx942"](x, y, 20)
        assert len(probes) == 1 and probes[0][:2] == (512, 1) and probes[0][2] > 0
        assert batches[0] == 512 and len(batches) == 8 and sum(batches) == blocks
        assert 0 < batches[1] <= 64  # the probe's one part, an eighth of a batch
        assert last_launch_stats().workers == 1
        probes.clear(), batches.clear()
        monkeypatch.setattr(workers, "MIN_PARALLEL_S", 0.5)  # (its known cost is less)
        _python_heavy[blocks, 64, 0, "gfx942"](x, y, 20)
        assert not probes and batches == [512] * 8
    assert _python_heavy_result(y, 20)


def test_a_probe_after_a_first_batch_stays_inside_the_grid(monkeypatch):
    """Two batches, the second of one block: the probe after the first batch runs that
    block alone, and no block twice or past the grid."""
    probes, batches = _count_probes_and_batches(monkeypatch)
    monkeypatch.setattr(workers, "MIN_PARALLEL_S", 0.0)
    monkeypatch.setattr(workers, "PAYOFF", 0.0)
    monkeypatch.setattr(workers, "UNMEASURED_MIN_BATCHES", 1)  # (4 by default)
    blocks = 512 + 1
    x = np.ones(blocks * 64, np.float32)
    y = np.zeros_like(x)
    with use_workers(2):
        _python_heavy[blocks, 64, 0, "gfx942"](x, y, 20)
    assert len(probes) == 1 and batches == [512, 1]
    assert _python_heavy_result(y, 20)


def test_a_short_launch_of_one_batch_is_never_probed(monkeypatch):
    monkeypatch.setattr(_python_heavy, "costs", {})  # (never measured)
    probes = []
    real_probe = spread_cost.probe
    monkeypatch.setattr(spread_cost, "probe", lambda *a: probes.append(1) or real_probe(*a))
    x = np.ones(64 * 64, np.float32)
    y = np.zeros_like(x)
    with use_workers(2):
        for _ in range(3):
            _python_heavy[64, 64, 0, "gfx942"](x, y, 50)
    assert not probes and last_launch_stats().workers == 1


def test_a_launch_measured_unprobed_is_probed_next_by_one_small_batch(monkeypatch):
    """An unmeasured one-batch launch runs here unprobed, timed; the next one (long enough)
    runs its probe as one batch, whose cost with the first launch's prices it, and the
    rest here as one batch."""
    from rocwmma_py.runtime import engine
    monkeypatch.setattr(_python_heavy, "costs", {})  # (never measured)
    monkeypatch.setattr(workers, "MIN_PARALLEL_S", 0.0)
    monkeypatch.setattr(workers, "_promising", lambda cost, blocks, count: False)
    known, batches = [], []
    real_probe, real_batch = spread_cost.probe, engine._Launch.top_batch
    monkeypatch.setattr(spread_cost, "probe", lambda *a: known.append(a[4]) or real_probe(*a))
    monkeypatch.setattr(engine._Launch, "top_batch", lambda self, blocks: (
        batches.append(blocks.size) or real_batch(self, blocks)))
    x = np.ones(64 * 64, np.float32)
    y = np.zeros_like(x)
    with use_workers(2):
        _python_heavy[64, 64, 0, "gfx942"](x, y, 20)
        assert not known and batches == [64]
        batches.clear()
        _python_heavy[64, 64, 0, "gfx942"](x, y, 20)
    [(blocks, runs, seconds)] = known
    assert (blocks, runs) == (64, 1) and seconds > 0
    assert batches == [3, 61]  # (a probe of 3 blocks at least, as one batch)


def test_an_unmeasured_launch_of_a_matrix_core_kernel_is_probed(monkeypatch):
    """A GEMM's batches cost its tiles' numerics, not its Python: its first launch of few
    batches is probed (a Python-heavy kernel's is not: above)."""
    probes = []
    real_probe = spread_cost.probe
    monkeypatch.setattr(spread_cost, "probe", lambda *a: probes.append(1) or real_probe(*a))
    assert tile_gemm.matrix_work and not _python_heavy.matrix_work
    monkeypatch.setattr(tile_gemm, "costs", {})  # (other tests launched it: never measured)
    n = 64
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal((n, n)).astype(np.float16) for _ in range(2))
    d = np.zeros((n, n), np.float32)
    with use_workers(2):
        tile_gemm[(n // TILE, n // TILE), 64, 0, "gfx942"](n, a, b, d)
    assert probes == [1]
