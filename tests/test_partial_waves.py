"""Blocks that are not whole waves (issue 22): HIP runs them, the last wave of each block with
its lanes past the block's thread count off in EXEC. Every test runs on both engines and both
wave sizes; the oracle is what each operation does for the lanes that exist, written out in
numpy from the block shape alone.

Per operation (what a lane that is no thread does, and what reading it gives):
- memory, atomics: it neither reads nor writes (loads give 0, like a `where` lane);
- votes (`__ballot`, `__any`, `__all`, `__activemask`): it counts as inactive (bit 0);
- `__shfl*` / `ds_bpermute`: reading it gives 0 (CDNA3/CDNA4 ISA, DS_BPERMUTE_B32: a
  disabled source lane returns 0), its own result is not written anywhere;
- `readfirstlane`: the first active lane (lane 0 exists in every wave);
- Python branches: only lanes that are threads decide (they alone run);
- the CUDA `_sync` masks: it may be named, as CUDA lets a mask name exited threads;
- rocWMMA fragments: refused, naming the wave and the block shape.
"""

from __future__ import annotations

import numpy as np
import pytest

from rocwmma_py import (
    FragmentError,
    blockDim,
    blockIdx,
    fill_fragment,
    float16,
    float32,
    fragment,
    kernel,
    matrix_a,
    matrix_b,
    mma_sync,
    row_major,
    threadIdx,
    use_engine,
    where,
)
from rocwmma_py import accumulator as acc
from rocwmma_py.amdgcn import readfirstlane, readlane
from rocwmma_py.cuda import __ballot_sync, __shfl_down_sync
from rocwmma_py.runtime import (
    __activemask,
    __ballot,
    __shfl_down,
    __shfl_xor,
    __syncthreads,
    atomicAdd,
    last_launch_stats,
    shared_array,
)
from rocwmma_py.runtime.state import current_context_or_none
from rocwmma_py.settings import use_batch_lanes, use_workers

ENGINES = ["batch", "wave"]
ARCHS = {"gfx942": 64, "gfx1100": 32}
# (block, grid): thread counts 1, 16, 21, 33, 48, 96, 120, 1000 - every kind of partial wave
BLOCKS = [1, 16, (7, 3, 1), 33, (8, 6, 1), 96, (4, 5, 6), (10, 10, 10)]


def _threads(block) -> int:
    b = block if isinstance(block, tuple) else (block, 1, 1)
    return b[0] * b[1] * b[2]


def _run(k, grid, block, arch, engine, *args):
    with use_engine(engine):
        k[grid, block, 0, arch](*args)
    stats = last_launch_stats()
    if engine == "batch":
        assert stats.per_wave_blocks == 0, stats.fallbacks
    return stats


@kernel
def _per_thread(out, count, votes):
    """Every thread writes its linear id once, counts itself, and records the wave's vote."""
    t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)
    n = blockDim.x * blockDim.y * blockDim.z
    out[blockIdx.x * n + t] = t + 1
    atomicAdd(count, 1)
    votes[blockIdx.x * n + t] = __activemask()


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("block", BLOCKS, ids=str)
def test_only_threads_run(block, arch, engine):
    n, w = _threads(block), ARCHS[arch]
    grid = 3
    out = np.zeros(grid * n + w, np.int64)  # room past the end: nothing may land there
    count = np.zeros(1, np.int32)
    votes = np.zeros(grid * n, np.uint64)
    _run(_per_thread, grid, block, arch, engine, out, count, votes)
    np.testing.assert_array_equal(out[:grid * n], np.tile(np.arange(1, n + 1), grid))
    assert not out[grid * n:].any()
    assert count[0] == grid * n
    # the wave of thread t has lanes min(w, n - w*(t//w)) on
    t = np.arange(n)
    on = np.minimum(w, n - w * (t // w))
    np.testing.assert_array_equal(votes, np.tile(_low_bits(on), grid))


def _low_bits(on: np.ndarray) -> np.ndarray:
    """2**on - 1 as uint64, on <= 64."""
    return np.array([(1 << int(x)) - 1 for x in on], np.uint64)


@kernel
def _warp_sum(x, out):
    """llama.cpp's warp_reduce_sum: xor shuffles over 32 lanes of a 32-thread block."""
    i = blockIdx.x * blockDim.x + threadIdx.x
    v = x[i]
    mask = 16
    while mask > 0:
        v = v + __shfl_xor(v, mask, 32)
        mask //= 2
    out[i] = v


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("arch", ARCHS)
def test_32_thread_blocks_reduce_as_llama_cpp_launches_them(arch, engine):
    """32-thread blocks: half a wave on gfx942, a whole one on gfx1100; the sums are the
    same (the shuffles stay inside the 32 threads)."""
    rng = np.random.default_rng(1)
    x = rng.integers(-100, 100, 32 * 5).astype(np.float32)
    out = np.zeros_like(x)
    _run(_warp_sum, 5, 32, arch, engine, x, out)
    np.testing.assert_array_equal(out, np.repeat(x.reshape(5, 32).sum(1), 32))


@kernel
def _shuffle_past_the_end(x, out):
    """Each thread reads the next one's value: the last thread reads a lane that is no
    thread on wave64 (0), or wraps to lane 0 of the wave (ds_bpermute index mod W)."""
    i = threadIdx.x
    out[i] = __shfl_down(x[i], 1)
    out[blockDim.x + i] = readfirstlane(x[i])


@pytest.mark.parametrize("engine", ENGINES)
def test_reading_a_lane_that_is_no_thread_gives_zero(engine):
    x = np.arange(1, 21, dtype=np.float32)
    out = np.zeros(40, np.float32)
    _run(_shuffle_past_the_end, 1, 20, "gfx942", engine, x, out)
    # __shfl_down(v, 1): lane 19 reads lane 20, inside the 64-lane group but no thread
    np.testing.assert_array_equal(out[:20], np.append(x[1:], 0))
    np.testing.assert_array_equal(out[20:], np.full(20, 1))


@kernel
def _branch_on_block_uniform(x, out):
    """A value loaded the same by every thread decides a Python branch; lanes past the end
    load 0 and must not make it diverge."""
    v = x[threadIdx.x * 0]  # every thread reads x[0]
    if v > 0:
        out[threadIdx.x] = v
    else:
        out[threadIdx.x] = -1


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("arch", ARCHS)
def test_branches_are_decided_by_the_threads(arch, engine):
    x = np.array([5.0], np.float32)
    out = np.zeros(10, np.float32)
    _run(_branch_on_block_uniform, 1, 10, arch, engine, x, out)
    np.testing.assert_array_equal(out, np.full(10, 5.0))


@kernel
def _block_sum(x, out):
    """A shared-memory tree reduction over a block of 100 threads in 2 (4) waves."""
    s = shared_array(np.float32, 128)
    t = threadIdx.x
    s[t] = 0.0
    __syncthreads()
    s[t] = x[blockIdx.x * blockDim.x + t]
    __syncthreads()
    stride = 64
    while stride > 0:
        with where(t < stride):
            s[t] = s[t] + s[t + stride]
        __syncthreads()
        stride //= 2
    with where(t == 0):
        out[blockIdx.x] = s[0]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("arch", ARCHS)
def test_shared_memory_reduction_over_partial_waves(arch, engine):
    x = np.arange(300, dtype=np.float32)
    out = np.zeros(3, np.float32)
    _run(_block_sum, 3, 100, arch, engine, x, out)
    np.testing.assert_array_equal(out, x.reshape(3, 100).sum(1))


@kernel
def _sync_votes(x, ballots, sums):
    """CUDA code with the full mask in a 20-thread block: the mask names lanes that are no
    threads, which CUDA allows (they count as exited)."""
    i = threadIdx.x
    full = 0xFFFFFFFF if blockDim.x <= 32 else -1
    ballots[i] = __ballot_sync(full, x[i] > 10)
    sums[i] = x[i] + __shfl_down_sync(full, x[i], 2)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("arch", ARCHS)
def test_cuda_sync_functions_with_the_full_mask(arch, engine):
    x = np.arange(20, dtype=np.float32)
    ballots = np.zeros(20, np.uint64)
    sums = np.zeros(20, np.float32)
    _run(_sync_votes, 1, 20, arch, engine, x, ballots, sums)
    assert (ballots == sum(1 << b for b in range(11, 20))).all()
    shifted = np.append(x[2:], [0, 0])  # lanes 20, 21 are no threads: they read as 0
    np.testing.assert_array_equal(sums, x + shifted)


def test_ballot_counts_threads_only_inside_where():
    @kernel
    def k(out):
        with where(threadIdx.x % 2 == 0):
            out[threadIdx.x] = __ballot(1)

    out = np.zeros(40, np.uint64)
    k[1, 40, 0, "gfx942"](out)
    assert (out[::2] == sum(1 << b for b in range(0, 40, 2))).all()
    assert not out[1::2].any()


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("arch", ARCHS)
def test_fragments_refuse_a_partial_wave(arch, engine):
    @kernel
    def k():
        f = fragment[acc, 16, 16, 16, float32]()
        fill_fragment(f, 0.0)  # registers only: fine
        a = fragment[matrix_a, 16, 16, 16, float16, row_major]()
        b = fragment[matrix_b, 16, 16, 16, float16, row_major]()
        mma_sync(f, a, b, f)

    w = ARCHS[arch]
    with use_engine(engine), pytest.raises(FragmentError) as err:
        k[1, w + w // 2, 0, arch]()
    msg = str(err.value)
    assert f"wave 1 of block 0 has lanes {w // 2}-{w - 1} inactive" in msg
    assert f"{w + w // 2} threads" in msg and f"multiple of {w}" in msg


@kernel
def _clash_and_copy(x, out, last):
    """Every thread copies x[t] to out[t] and writes its id to last[blockIdx.x] (the
    highest thread wins); a thread past x's end would read and write out of bounds."""
    t = blockIdx.x * blockDim.x + threadIdx.x
    out[t] = x[t] * 2
    last[blockIdx.x] = threadIdx.x


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("n", [1, 5, 16, 31, 32, 40, 63])
def test_threads_of_narrow_blocks_read_write_and_clash_as_threads(n, arch, engine):
    """Blocks narrower than a wave (the batch picks their lanes by a strided view): reads
    and writes of exactly the threads, the highest thread winning a shared address."""
    grid = 6
    x = np.arange(grid * n, dtype=np.float32) + 1  # no room past the end
    out = np.zeros_like(x)
    last = np.full(grid, -1, np.int64)
    _run(_clash_and_copy, grid, n, arch, engine, x, out, last)
    np.testing.assert_array_equal(out, 2 * x)
    np.testing.assert_array_equal(last, np.full(grid, n - 1))


@pytest.mark.parametrize(("block", "width", "prefix"), [
    (32, 64, 32), (1, 64, 1), ((7, 3, 1), 64, 21), (16, 32, 16), (64, 64, 0), (96, 64, 0),
    (33, 32, 0), ((8, 6, 1), 32, 0)])
def test_only_blocks_narrower_than_a_wave_pick_their_lanes_by_a_view(block, width, prefix,
                                                                     monkeypatch):
    """Batches of one block keep whole waves (a narrow batch needs two): there the strided
    view (`_live_prefix` > 0) serves exactly the waves whose first `prefix` lanes are on
    and the rest off."""
    from rocwmma_py.runtime import memory
    seen: list[int] = []
    choose = memory._live_prefix
    monkeypatch.setattr(memory, "_live_prefix",
                        lambda ctx, mask: seen.append(p := choose(ctx, mask)) or p)
    n = _threads(block)
    x = np.arange(3 * n, dtype=np.float32)
    with use_batch_lanes(1):
        _run(_clash_and_copy, 3, block, "gfx942" if width == 64 else "gfx1100", "batch",
             x, np.zeros_like(x), np.zeros(3, np.int64))
    assert seen and set(seen) == {prefix}


@pytest.mark.parametrize(("block", "width", "narrow"), [
    (32, 64, 32), (1, 64, 1), ((7, 3, 1), 64, 21), (16, 32, 16), (64, 64, 0), (96, 64, 0),
    (33, 32, 0), ((8, 6, 1), 32, 0)])
def test_batches_of_narrow_blocks_hold_only_their_threads(block, width, narrow, monkeypatch):
    """A batch of several blocks narrower than a wave holds their threads' lanes only
    (`WaveContext.narrow`, per-lane values of blocks x threads), its accesses unmasked;
    blocks of whole or partial waves past the first keep whole waves."""
    from rocwmma_py.runtime import memory
    seen: list[tuple[int, int, bool]] = []
    check = memory.Pointer._check_bounds

    def spy(self, addr, mask, *args):
        ctx = current_context_or_none()
        seen.append((ctx.narrow, addr.shape[-1] // ctx.n_waves, mask is None))
        return check(self, addr, mask, *args)

    monkeypatch.setattr(memory.Pointer, "_check_bounds", spy)
    n = _threads(block)
    x = np.arange(3 * n, dtype=np.float32)
    _run(_clash_and_copy, 3, block, "gfx942" if width == 64 else "gfx1100", "batch",
         x, np.zeros_like(x), np.zeros(3, np.int64))
    if narrow:
        assert set(seen) == {(narrow, narrow, True)}
    else:
        assert {s[:2] for s in seen} == {(0, width)}


@kernel
def _one_past(x, out):
    t = blockIdx.x * blockDim.x + threadIdx.x
    out[t] = x[t + 1]  # the grid's last thread reads one past x's end


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("arch", ARCHS)
def test_a_thread_of_a_narrow_block_reading_past_the_end_is_named(arch, engine):
    from rocwmma_py.runtime.errors import OutOfBoundsError
    x = np.zeros(4 * 20, np.float32)
    with use_engine(engine), pytest.raises(OutOfBoundsError, match=r"offset 80 by lane 19"):
        _one_past[4, 20, 0, arch](x, np.zeros_like(x))


@kernel
def _copy_then_readlane(x, out, late):
    """Copies x; from block `late` on, also reads lane 40 (past a 32-thread block's
    threads on wave64): only whole waves define that."""
    t = blockIdx.x * blockDim.x + threadIdx.x
    v = x[t]
    if blockIdx.x >= late:
        v = v + readlane(v, 40)
    out[t] = v


def test_narrow_batches_take_batch_lanes_of_threads_and_whole_waves_after(monkeypatch):
    """Batches of 32-thread blocks on wave64 hold ROCWMMA_PY_BATCH_LANES lanes of threads
    (twice the blocks of whole-wave batches); after an operation that needs whole waves,
    the batch reruns with them and the launch's later batches hold as many lanes."""
    from rocwmma_py.runtime import engine
    sizes: list[int] = []
    top = engine._Launch.top_batch
    monkeypatch.setattr(engine._Launch, "top_batch",
                        lambda self, blocks: sizes.append(blocks.size) or top(self, blocks))
    grid, n = 40, 32
    x = np.arange(grid * n, dtype=np.float32)
    out = np.zeros_like(x)
    with use_batch_lanes(8 * 32), use_workers(1):  # 8 narrow blocks, or 4 of whole waves
        stats = _run(_copy_then_readlane, grid, n, "gfx942", "batch", x, out, 16)
    assert sizes == [8, 8, 8, 4, 4, 4, 4], sizes  # blocks 16-23 met the readlane
    assert [(f.kind, f.block) for f in stats.fallbacks] == [("whole waves", 16)]
    np.testing.assert_array_equal(out, x)  # lane 40 runs no load: it holds 0


@kernel
def _plus_wave_table(out, table_kind):
    """Adds a table of the wave's length to each thread's id: per wave, entry l goes to
    lane l (a list, an array, or a `where` condition of that length)."""
    t = blockIdx.x * blockDim.x + threadIdx.x
    table = list(range(64)) if table_kind == "list" else np.arange(64)
    if table_kind == "where":
        with where(np.arange(64) % 3 == 0):
            out[t] = threadIdx.x
    else:
        out[t] = threadIdx.x + table


@pytest.mark.parametrize("table_kind", ["list", "array", "where"])
def test_plain_data_of_a_wave_length_in_a_narrow_batch_is_per_wave_data(table_kind):
    """Two 32-thread blocks on wave64 make a narrow batch of 64 lanes: a list or array of
    64 entries (one wave's, per wave) must not pass for the batch's lanes."""
    out = {}
    for engine in ENGINES:
        out[engine] = np.full(64, -1, np.int64)
        with use_engine(engine):  # (the batch ends per wave: whole waves cannot add them)
            _plus_wave_table[2, 32, 0, "gfx942"](out[engine], table_kind)
        if engine == "batch":  # the fallback names the kernel's line, not numpy's dispatch
            fallback = last_launch_stats().fallbacks[0]
            assert fallback.kind == "whole waves", fallback
            assert "test_partial_waves.py:" in fallback.line, fallback.line
    np.testing.assert_array_equal(out["batch"], out["wave"])
    want = np.tile(np.arange(32) * (1 if table_kind == "where" else 2), 2)
    if table_kind == "where":
        want = np.where(np.arange(64) % 32 % 3 == 0, want, -1)
    np.testing.assert_array_equal(out["wave"], want)


@kernel
def _wave_table_memory(x, out, how):
    """Per-lane memory through plain arrays of the wave's length (per wave, entry l is lane
    l's): an index, a stored value, a vector store's registers."""
    t = blockIdx.x * blockDim.x + threadIdx.x
    table = np.arange(64)
    if how == "index":
        out[t] = x[table]
    elif how == "value":
        (out + blockIdx.x * blockDim.x)[threadIdx.x] = table
    else:
        (out + 2 * t).store(np.stack([table, table + 100], axis=1))


@pytest.mark.parametrize("how", ["index", "value", "store"])
def test_plain_arrays_in_memory_operations_of_a_narrow_batch_are_per_wave_data(how):
    """As above, for the addresses and values of memory operations."""
    x = np.arange(1000, 1064)
    out = {}
    for engine in ENGINES:
        out[engine] = np.full(128, -1, np.int64)
        with use_engine(engine):
            _wave_table_memory[2, 32, 0, "gfx942"](x, out[engine], how)
    np.testing.assert_array_equal(out["batch"], out["wave"])
    assert (out["wave"] != -1).any()
