"""Blocks narrower than a wave (CUDA's 32-, 16- and 8-thread blocks on 64-lane gfx942 and on
wave32 gfx1100/gfx1201): the batched engine must give exactly the per-wave engine's memory
and errors, whatever its batch size and on worker processes too.

Each kernel runs on the per-wave engine (the reference semantics) and on the batched engine
in default batches of many blocks and in batches of three blocks (`use_batch_lanes`); the
memory kernel and the samples also spread over two worker processes. Output buffers are
compared byte for byte (NaN payloads and -0 included) and errors by type, message and notes.
Where a reference is easy to write from HIP's definitions alone, the per-wave result is also
checked against numpy.
"""

from __future__ import annotations

import functools
from contextlib import ExitStack

import numpy as np
import pytest

from rocwmma_py import (
    CrossLaneError,
    DivergenceError,
    FragmentError,
    __activemask,
    __all,
    __any,
    __ballot,
    __popc,
    __popcll,
    __shfl,
    __shfl_down,
    __shfl_up,
    __shfl_xor,
    atomicAdd,
    blockDim,
    blockIdx,
    fill_fragment,
    float16,
    float32,
    fragment,
    gridDim,
    kernel,
    lane_id,
    last_launch_stats,
    load_matrix_sync,
    matrix_a,
    row_major,
    shared_array,
    syncthreads,
    threadIdx,
    use_engine,
    use_workers,
    wave_size,
    where,
)
from rocwmma_py import accumulator as acc
from rocwmma_py.amdgcn import ds_bpermute, ds_swizzle, mov_dpp, readfirstlane, readlane
from rocwmma_py.cuda import (
    __all_sync,
    __any_sync,
    __ballot_sync,
    __shared__,
    __shfl_down_sync,
    __shfl_sync,
    __shfl_up_sync,
    __shfl_xor_sync,
    __syncthreads,
    warpSize,
)
from rocwmma_py.settings import use_batch_lanes

WAVE = {"gfx942": 64, "gfx1100": 32, "gfx1201": 32}
# (arch, threads per block): the narrow shapes CUDA code launches on each wave size
NARROW = [("gfx942", 32), ("gfx942", 16), ("gfx942", 8), ("gfx1100", 16), ("gfx1100", 8),
          ("gfx1201", 16), ("gfx1201", 8)]
NARROW_IDS = [f"{a}-{n}" for a, n in NARROW]
MODES = ("batch", "tiny")
WITH_WORKERS = (*MODES, "workers")  # tests using it take the `spread` fixture


def _run(k, grid, block, arch, buffers, scalars, mode):
    """Memory after the launch, its error (type, message, notes) or None, and its stats."""
    copies = [b.copy() for b in buffers]
    with ExitStack() as stack:
        stack.enter_context(use_engine("wave" if mode == "wave" else "batch"))
        stack.enter_context(use_workers(2 if mode == "workers" else 1))
        if mode == "tiny":  # three one-wave blocks a batch: the grids leave a short last one
            stack.enter_context(use_batch_lanes(3 * WAVE[arch]))
        try:
            k[grid, block, 0, arch](*copies, *scalars)
            error = None
        except Exception as err:  # noqa: BLE001 - compared between engines
            error = (type(err), str(err), list(getattr(err, "__notes__", [])))
    return copies, error, last_launch_stats()


def differential(k, grid, block, arch, buffers, scalars=(), modes=MODES, batched=True,
                 raises: type[Exception] | None = None):
    """Run `k` on the per-wave engine and in every mode of `modes`; assert each gives the
    per-wave engine's memory and error. The per-wave run must raise `raises` (None: must
    not raise). Returns the per-wave (memory, error). `batched`: the default batched run
    must batch every block (no per-wave fallback), so the comparison is not the per-wave
    engine against itself."""
    want, want_err, _ = _run(k, grid, block, arch, buffers, scalars, "wave")
    if raises is not None:
        assert want_err is not None and want_err[0] is raises, want_err
    elif want_err is not None:
        raise AssertionError(f"the per-wave engine raised {want_err}")
    for mode in modes:
        got, err, stats = _run(k, grid, block, arch, buffers, scalars, mode)
        assert err == want_err, mode
        for i, (a, b) in enumerate(zip(want, got, strict=True)):
            assert a.dtype == b.dtype and a.tobytes() == b.tobytes(), (
                f"{mode}: buffer {i} differs at {np.flatnonzero(a != b)[:8]}: "
                f"{b.ravel()[a.ravel() != b.ravel()][:8]} (per wave "
                f"{a.ravel()[a.ravel() != b.ravel()][:8]})")
        if mode == "batch" and batched and want_err is None:
            assert stats.per_wave_blocks == 0, stats.fallbacks
        if mode == "workers" and want_err is None:  # spread, or sent back here with a cause
            assert stats.workers == 2 or any(f.kind == "serial" for f in stats.fallbacks)
    return want, want_err


# --- shuffles --------------------------------------------------------------------------------

SHUFFLES = {"": __shfl, "_up": __shfl_up, "_down": __shfl_down, "_xor": __shfl_xor}
SYNC_SHUFFLES = {"": __shfl_sync, "_up": __shfl_up_sync, "_down": __shfl_down_sync,
                 "_xor": __shfl_xor_sync}


def _operand(kind: str, t, operand: str):
    """The shuffle's second operand: per lane, uniform, or uniform per block (differing
    between the blocks of a batch)."""
    if operand == "lane":
        return (t * 5 + 3) % 64 if kind == "" else (t * 3 + 1) % 7 + (kind == "_xor")
    if operand == "block":
        return blockIdx.x % 3 + 1
    return 3


def _operand_np(kind: str, t: np.ndarray, block: int, operand: str) -> np.ndarray:
    if operand == "lane":
        return (t * 5 + 3) % 64 if kind == "" else (t * 3 + 1) % 7 + (kind == "_xor")
    return np.full_like(t, block % 3 + 1 if operand == "block" else 3)


@functools.cache
def _shuffle_kernel(kind: str, operand: str, width: int | None, sync_mask: int | None):
    @kernel
    def k(x, out):
        t = threadIdx.x
        i = blockIdx.x * blockDim.x + t
        op = _operand(kind, t, operand)
        if sync_mask is None:
            out[i] = SHUFFLES[kind](x[i], op, width)
        else:
            out[i] = SYNC_SHUFFLES[kind](sync_mask, x[i], op, width)
    return k


def _shuffle_reference(kind, x, ops, wave, width):
    """HIP's amd_warp_functions.h source lanes for each thread of each block (`ops`: the
    operand, (blocks, threads)); a source lane past the block's threads (no thread:
    inactive) reads 0 (DS_BPERMUTE_B32)."""
    n = ops.shape[1]
    rows = x.reshape(-1, n)
    out = np.empty_like(rows)
    lane = np.arange(n)
    w = width or wave
    for row, op, o in zip(rows, ops, out, strict=True):  # the blocks: a handful
        base = lane & ~(w - 1)
        if kind == "":
            src = (op & (w - 1)) + base
        elif kind == "_up":
            src = np.where(lane - op < base, lane, lane - op)
        elif kind == "_down":
            src = np.where((lane & (w - 1)) + op >= w, lane, lane + op)
        else:
            src = np.where(lane ^ op >= ((lane + w) & ~(w - 1)), lane, lane ^ op)
        src %= wave
        o[:] = np.where(src < n, row[np.minimum(src, n - 1)], 0)
    return out.reshape(-1)


def _values(dtype, count: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "i":
        return rng.integers(-1000, 1000, count).astype(dtype)
    return rng.standard_normal(count).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float64], ids=lambda d: d.__name__)
@pytest.mark.parametrize("operand", ["lane", "uniform", "block"])
@pytest.mark.parametrize("kind", list(SHUFFLES), ids=lambda k: f"shfl{k}")
@pytest.mark.parametrize("full_width", [False, True], ids=["width=n", "width=warpSize"])
@pytest.mark.parametrize(("arch", "n"), NARROW, ids=NARROW_IDS)
def test_shuffles(arch, n, full_width, kind, operand, dtype):
    """width = the block's threads keeps every read inside them; the default width
    (warpSize) lets lanes read past them, where no thread is (0)."""
    grid = 7
    x = _values(dtype, grid * n, seed=n)
    width = None if full_width else n
    k = _shuffle_kernel(kind, operand, width, None)
    (_, got), _ = differential(k, grid, n, arch, [x, np.zeros_like(x)])
    lanes = np.arange(n)
    ops = np.stack([_operand_np(kind, lanes, b, operand) for b in range(grid)])
    np.testing.assert_array_equal(got, _shuffle_reference(kind, x, ops, WAVE[arch], width))


@kernel
def _warp_sum(x, out, width):
    """llama.cpp's warp_reduce_sum over `width` lanes."""
    i = blockIdx.x * blockDim.x + threadIdx.x
    v = x[i]
    mask = width // 2
    while mask > 0:
        v = v + __shfl_xor_sync(0xFFFFFFFF, v, mask, width)
        mask //= 2
    out[i] = v


@pytest.mark.parametrize("dtype", [np.int32, np.float64])
@pytest.mark.parametrize(("arch", "n"), NARROW, ids=NARROW_IDS)
def test_xor_reduction_gives_row_sums(arch, n, dtype):
    grid = 40
    x = _values(dtype, grid * n, seed=1)
    if dtype == np.float64:  # sums of integers: exact in any order
        x = np.round(x * 100)
    (_, got), _ = differential(_warp_sum, grid, n, arch, [x, np.zeros_like(x)], (n,))
    np.testing.assert_array_equal(got, np.repeat(x.reshape(grid, n).sum(1), n))


# masks: (name, mask as a function of the lane, where-condition on the lane, valid for n)
SYNC_MASKS = {
    "0xFFFFFFFF": (lambda t: 0xFFFFFFFF, lambda n: n <= 32),
    "-1": (lambda t: -1, lambda n: True),
    "0xFFFF": (lambda t: 0xFFFF, lambda n: n <= 16),
    "per-lane-groups": (lambda t: 0xF << (t & ~3), lambda n: True),
    "not-own-lane": (lambda t: 0xFFFFFFFF ^ 0x4, lambda n: False),
    "mismatched": (lambda t: 0x3 << (t & ~1) | 0x4, lambda n: False),
}


@functools.cache
def _sync_kernel(kind: str, mask_name: str, width: int | None):
    mask_of, _ = SYNC_MASKS[mask_name]

    @kernel
    def k(x, out):
        t = threadIdx.x
        i = blockIdx.x * blockDim.x + t
        out[i] = SYNC_SHUFFLES[kind](mask_of(t), x[i], 1, width)
    return k


@pytest.mark.parametrize("mask", list(SYNC_MASKS))
@pytest.mark.parametrize("kind", list(SYNC_SHUFFLES), ids=lambda k: f"shfl{k}_sync")
@pytest.mark.parametrize(("arch", "n"), NARROW, ids=NARROW_IDS)
def test_sync_shuffle_masks(arch, n, kind, mask):
    """Valid masks give the shuffle; an invalid one (a lane outside its own mask, a mask
    naming a thread that does not call, a read outside the mask) raises the same
    CrossLaneError on both engines."""
    x = _values(np.float32, 5 * n, seed=2)
    width = 4 if mask == "per-lane-groups" else n
    valid = SYNC_MASKS[mask][1](n)
    (_, got), _ = differential(_sync_kernel(kind, mask, width), 5, n, arch,
                               [x, np.zeros_like(x)], raises=None if valid else CrossLaneError)
    if valid:
        ops = np.ones((5, n), np.int64)
        np.testing.assert_array_equal(got, _shuffle_reference(kind, x, ops, WAVE[arch], width))


@kernel
def _sync_inside_where(x, out, mask, delta, width):
    """Only the first 4 threads call, with `mask`: 0xF is valid for width 4, a read past
    lane 3 (width 8) leaves the mask, 0xFF names threads that do not call."""
    t = threadIdx.x
    i = blockIdx.x * blockDim.x + t
    with where(t < 4):
        out[i] = __shfl_down_sync(mask, x[i], delta, width)


@pytest.mark.parametrize(("mask", "delta", "width", "ok"), [
    (0xF, 1, 4, True), (0xF, 1, 8, False), (0xFF, 1, 4, False), (-1, 2, 4, False)])
@pytest.mark.parametrize(("arch", "n"), NARROW, ids=NARROW_IDS)
def test_sync_shuffle_inside_where(arch, n, mask, delta, width, ok):
    x = _values(np.float32, 4 * n, seed=3)
    differential(_sync_inside_where, 4, n, arch, [x, np.zeros_like(x)], (mask, delta, width),
                 raises=None if ok else CrossLaneError)


# --- votes -----------------------------------------------------------------------------------

def _vote_row(out, p, mask):
    """The votes of predicate `p` into out[0:9] (HIP's and CUDA's forms)."""
    ballot = __ballot(p)
    out[0] = ballot
    out[1] = __any(p)
    out[2] = __all(p)
    out[3] = __activemask()
    out[4] = __popcll(ballot)
    out[5] = __popc(ballot & 0xFFFF)
    out[6] = __ballot_sync(mask, p)
    out[7] = __any_sync(mask, p)
    out[8] = __all_sync(mask, p)


@kernel
def _votes(x, out, inside):
    """Votes over all threads, or (`inside`) inside `where` over the threads t % 3 != 1,
    their _sync masks naming exactly the lanes that call."""
    t = threadIdx.x
    i = blockIdx.x * blockDim.x + t
    p = x[i] > 0
    row = out + 9 * i
    if inside:
        calling = t % 3 != 1
        mask = __ballot(calling)
        with where(calling):
            _vote_row(row, p, mask)
    else:
        _vote_row(row, p, -1)


def _votes_reference(x, n, inside):
    """Per thread: the nine votes of its block, from the predicate bits alone."""
    t = np.arange(n)
    calling = (t % 3 != 1) if inside else np.ones(n, bool)
    weights = np.uint64(1) << t.astype(np.uint64)
    rows = []
    for p in x.reshape(-1, n) > 0:
        ballot = int(weights[p & calling].sum())
        active = int(weights[calling].sum())
        votes = [ballot, int(ballot != 0), int((p | ~calling).all()), active,
                 bin(ballot).count("1"), bin(ballot & 0xFFFF).count("1"), ballot,
                 int(ballot != 0), int((p | ~calling).all())]
        rows.append(np.where(calling[:, None], np.array(votes, np.uint64), 0))
    return np.concatenate(rows).reshape(-1)


def _run_votes(arch, n, inside):
    """The votes (per-wave engine, checked against the batched) and their reference, one
    row of nine per thread."""
    grid = 9
    x = _values(np.int32, grid * n, seed=4)
    x[:n] = 5  # block 0: every thread votes yes (__all holds)
    (_, got), _ = differential(_votes, grid, n, arch, [x, np.zeros(9 * grid * n, np.uint64)],
                               (inside,))
    return got.reshape(-1, 9), _votes_reference(x, n, inside).reshape(-1, 9)


@pytest.mark.parametrize("inside", [False, True], ids=["all-threads", "inside-where"])
@pytest.mark.parametrize(("arch", "n"), NARROW, ids=NARROW_IDS)
def test_votes(arch, n, inside):
    """Outside `where` the _sync masks are -1, naming lanes past the block's threads too:
    __any_sync/__all_sync vote over the named threads only (CUDA: "all non-exited threads
    named in mask"), not the predicates those lanes computed from their 0 loads."""
    got, want = _run_votes(arch, n, inside)
    np.testing.assert_array_equal(got, want)


# --- lane numbers and per-lane values indexed by them ----------------------------------------

LANE_EXPRESSIONS = {
    "lane_id": lambda v, n: lane_id(),
    "t%warpSize": lambda v, n: threadIdx.x % warpSize,
    "lane+wave_size": lambda v, n: lane_id() + wave_size(),
    "global-warp": lambda v, n: (blockIdx.x * blockDim.x + threadIdx.x) // warpSize,
    "block-lane": lambda v, n: blockIdx.x * wave_size() + lane_id(),
    "v[lane^1]": lambda v, n: v[lane_id() ^ 1],
    "v[(lane+1)%32]": lambda v, n: v[(lane_id() + 1) % 32],
    "v[(lane+n)%W]": lambda v, n: v[(lane_id() + n) % wave_size()],  # past the threads
    "v[lane+W]": lambda v, n: v[lane_id() + wave_size()],  # past the wave: IndexError
    "table-W+v": lambda v, n: np.arange(wave_size()) + v,
    "table-W[lane]": lambda v, n: np.arange(wave_size())[lane_id()] * 3,
    "table-n[lane]": lambda v, n: np.arange(n)[lane_id()],
    "table-n+v": lambda v, n: np.arange(n) + v,
    "len(v)": lambda v, n: len(v),
    "v.shape": lambda v, n: v.shape[0] * 2,
    "scratch": lambda v, n: _scratch(v),
    "v.sum()": lambda v, n: v.sum(),  # over a wave's lanes, on the per-wave engine
    "np.max(v)": lambda v, n: np.max(v) + lane_id(),
    "branch-lane<n": lambda v, n: 1 if lane_id() < n else 0,  # only threads decide
    "branch-diverges": lambda v, n: 1 if v > 15 else 0,
}


def _scratch(v):
    """A scratch array sized by the per-lane value, filled by lane and read rotated."""
    s = np.zeros(len(v), np.int64)
    s[lane_id()] = v
    return s[(lane_id() + 1) % len(s)]


def _lane_reference(name, n, wave, grid):
    """Per thread, for the expressions with a reference from the block shape alone."""
    t = np.tile(np.arange(n), grid)
    b = np.repeat(np.arange(grid), n)
    v = t * 10 + b
    return {
        "lane_id": t, "t%warpSize": t % wave, "lane+wave_size": t + wave,
        "global-warp": (b * n + t) // wave, "block-lane": b * wave + t,
        "v[lane^1]": (t ^ 1) * 10 + b, "v[(lane+1)%32]": np.where(
            (t + 1) % 32 < n, (t + 1) % 32 * 10 + b, -1),
        "table-W+v": t + v, "table-W[lane]": 3 * t, "len(v)": np.full_like(t, wave),
        "v.shape": np.full_like(t, 2 * wave), "branch-lane<n": np.ones_like(t),
    }.get(name)


@functools.cache
def _lane_kernel(name: str):
    expression = LANE_EXPRESSIONS[name]

    @kernel
    def k(out):
        t = threadIdx.x
        out[blockIdx.x * blockDim.x + t] = expression(t * 10 + blockIdx.x, blockDim.x)
    return k


# a wave's lanes index past an n-entry table or a wave-long value; n entries do not
# broadcast against a wave's lanes
LANE_ERRORS = {"v[lane+W]": IndexError, "table-n[lane]": IndexError, "table-n+v": ValueError,
               "branch-diverges": DivergenceError}
PER_WAVE_ONLY = {"table-W+v", "table-W[lane]", "len(v)", "v.shape", "scratch", "v.sum()",
                 "np.max(v)"}


@pytest.mark.parametrize("name", list(LANE_EXPRESSIONS))
@pytest.mark.parametrize(("arch", "n"), NARROW, ids=NARROW_IDS)
def test_lane_numbers_and_tables(arch, n, name):
    """Lane numbers, warpSize arithmetic, per-lane values indexed by lane numbers, plain
    numpy tables of a wave's or a block's length meeting per-lane values, len/shape of a
    per-lane value (a wave's lanes, on the per-wave engine). Results, and errors such as a
    table of n entries broadcast against a wave's lanes, are the per-wave engine's."""
    grid = 6
    (got,), _ = differential(_lane_kernel(name), grid, n, arch,
                             [np.full(grid * n, -7, np.int64)],
                             batched=name not in PER_WAVE_ONLY, raises=LANE_ERRORS.get(name))
    want = _lane_reference(name, n, WAVE[arch], grid)
    if want is not None:
        known = want != -1  # a read past the threads: the engine's own value
        np.testing.assert_array_equal(got[known], want[known])


# --- memory ----------------------------------------------------------------------------------

@kernel
def _memory(x, perm, y, counts, fsum, floats):
    """A gather and a scatter through per-lane indices, a masked store, int atomics and
    (`floats`) float ones, whose order is the result."""
    t = threadIdx.x
    i = blockIdx.x * blockDim.x + t
    v = x[perm[i]]
    y[perm[i]] = v * 2
    with where(v > 0):
        y[gridDim.x * blockDim.x + i] = v
        atomicAdd(counts + blockIdx.x, 1)  # each block its own counters: they commute
    atomicAdd(counts + gridDim.x + blockIdx.x, t)
    if floats:
        atomicAdd(fsum + blockIdx.x % 3, v)
        atomicAdd(fsum + 3, v * np.float32(1e-3))


@pytest.mark.parametrize("grid", [3, 40])
@pytest.mark.parametrize(("arch", "n"), NARROW, ids=NARROW_IDS)
def test_memory_and_atomics(arch, n, grid):
    rng = np.random.default_rng(5)
    x = rng.standard_normal(grid * n).astype(np.float32)
    perm = rng.permutation(grid * n).astype(np.int32)
    buffers = [x, perm, np.zeros(2 * grid * n, np.float32), np.zeros(2 * grid, np.int32),
               np.zeros(4, np.float32)]
    (_, _, y, counts, _), _ = differential(_memory, grid, n, arch, buffers, (True,))
    v = x[perm]  # thread i's value
    np.testing.assert_array_equal(y[:grid * n], 2 * x)
    np.testing.assert_array_equal(y[grid * n:], np.where(v > 0, v, 0))
    blocks = np.repeat(np.arange(grid), n)
    np.testing.assert_array_equal(
        counts, [*np.bincount(blocks[v > 0], minlength=grid), *[n * (n - 1) // 2] * grid])


@pytest.mark.parametrize("floats", [False, True], ids=["int-atomics", "float-atomics"])
@pytest.mark.parametrize(("arch", "n"), [("gfx942", 16), ("gfx1100", 8)])
def test_memory_and_atomics_on_workers(arch, n, floats, spread):
    """Integer atomics commute: the workers' pieces merge; float ones are order-sensitive:
    the blocks after the probe run serially here. Either way: the per-wave engine's memory."""
    rng = np.random.default_rng(6)
    grid = 24
    x = rng.standard_normal(grid * n).astype(np.float32)
    buffers = [x, rng.permutation(grid * n).astype(np.int32),
               np.zeros(2 * grid * n, np.float32), np.zeros(2 * grid, np.int32),
               np.zeros(4, np.float32)]
    differential(_memory, grid, n, arch, buffers, (floats,), modes=WITH_WORKERS)
    assert last_launch_stats().workers == (1 if floats else 2)  # the workers run: the last


@kernel
def _lds_reverse_and_sum(x, out):
    """HIP shared_array: each thread stores, a barrier, each reads its mirror; then a
    tree sum over the block's threads."""
    s = shared_array(np.float32, 32)
    t = threadIdx.x
    i = blockIdx.x * blockDim.x + t
    s[t] = x[i]
    syncthreads()
    out[i] = s[blockDim.x - 1 - t]
    syncthreads()
    stride = blockDim.x // 2
    while stride > 0:
        with where(t < stride):
            s[t] = s[t] + s[t + stride]
        syncthreads()
        stride //= 2
    out[gridDim.x * blockDim.x + i] = s[0]


@kernel
def _cuda_shared_prefix(x, out):
    """CUDA __shared__ with __syncthreads: a Hillis-Steele inclusive scan."""
    s = __shared__(np.int32, 2, 32)
    t = threadIdx.x
    i = blockIdx.x * blockDim.x + t
    s[0][t] = x[i]
    __syncthreads()
    offset, src = 1, 0
    while offset < blockDim.x:
        with where(t >= offset):
            s[1 - src][t] = s[src][t] + s[src][t - offset]
        with where(t < offset):
            s[1 - src][t] = s[src][t]
        __syncthreads()
        offset, src = offset * 2, 1 - src
    out[i] = s[src][t]


@pytest.mark.parametrize(("arch", "n"), NARROW, ids=NARROW_IDS)
def test_shared_memory_with_barriers(arch, n):
    grid = 12
    x = np.round(_values(np.float32, grid * n, seed=7) * 64)  # exact sums in any order
    (_, got), _ = differential(_lds_reverse_and_sum, grid, n, arch,
                               [x, np.zeros(2 * grid * n, np.float32)])
    rows = x.reshape(grid, n)
    np.testing.assert_array_equal(got[:grid * n], rows[:, ::-1].reshape(-1))
    np.testing.assert_array_equal(got[grid * n:], np.repeat(rows.sum(1), n))
    xi = _values(np.int32, grid * n, seed=8)
    (_, scan), _ = differential(_cuda_shared_prefix, grid, n, arch, [xi, np.zeros_like(xi)])
    np.testing.assert_array_equal(scan, np.cumsum(xi.reshape(grid, n), 1).reshape(-1))


# --- amdgcn cross-lane builtins --------------------------------------------------------------

BUILTINS = {
    "readlane-3": lambda v, n: readlane(v, 3),
    "readlane-past": lambda v, n: readlane(v, n + 1),
    "readfirstlane": lambda v, n: readfirstlane(v),
    "bpermute+3": lambda v, n: ds_bpermute((lane_id() + 3) * 4, v),
    "swizzle-xor1": lambda v, n: ds_swizzle(v, 0x041F),
    "swizzle-xor16": lambda v, n: ds_swizzle(v, 0x401F),  # n < 32: reads past the threads
    "dpp-row_shr1": lambda v, n: mov_dpp(v, 0x111, 0xF, 0xF, False),
    "dpp-row_shr1-bound": lambda v, n: mov_dpp(v, 0x111, 0xF, 0xF, True),
    "dpp-row_ror3": lambda v, n: mov_dpp(v, 0x123, 0xF, 0xF, False),
}


@functools.cache
def _builtin_kernel(name: str):
    op = BUILTINS[name]

    @kernel
    def k(x, out):
        i = blockIdx.x * blockDim.x + threadIdx.x
        with where(threadIdx.x != 2):  # lane 2 inactive: sources reading it
            out[i] = op(x[i] + 1, blockDim.x)
    return k


@pytest.mark.parametrize("name", list(BUILTINS))
@pytest.mark.parametrize(("arch", "n"), NARROW, ids=NARROW_IDS)
def test_cross_lane_builtins(arch, n, name):
    """Readlane, ds_bpermute, ds_swizzle and DPP in a narrow block, some reading lanes
    past the block's threads or the inactive lane 2."""
    x = _values(np.int32, 5 * n, seed=9)
    differential(_builtin_kernel(name), 5, n, arch, [x, np.zeros_like(x)])


# --- rocWMMA fragments -----------------------------------------------------------------------

@kernel
def _fragment_load(a, out):
    f = fragment[matrix_a, 16, 16, 16, float16, row_major]()
    c = fragment[acc, 16, 16, 16, float32]()
    fill_fragment(c, 0.0)
    out[threadIdx.x] = 1.0
    load_matrix_sync(f, a, 16)


@pytest.mark.parametrize(("arch", "n"), NARROW, ids=NARROW_IDS)
def test_fragments_refuse_narrow_blocks_alike(arch, n):
    a = np.ones(256, np.float16)
    differential(_fragment_load, 3, n, arch, [a, np.zeros(n, np.float32)], raises=FragmentError)


# --- the CUDA samples ------------------------------------------------------------------------

@pytest.mark.parametrize("arch", ["gfx942", "gfx1100"])
@pytest.mark.parametrize("name", ["softmax", "rms_norm"])
def test_samples_match_per_wave(name, arch, spread):
    """64 rows x 256 columns, one 32-thread block per row: bit-identical on every mode."""
    module = __import__(f"samples.cuda.{name}", fromlist=["reference"])
    x = np.random.default_rng(10).standard_normal((64, 256)).astype(np.float32).reshape(-1)
    if name == "softmax":
        (_, got), _ = differential(module.soft_max, 64, 32, arch, [x, np.zeros_like(x)],
                                   (256, np.float32(1.0)), modes=WITH_WORKERS)
        assert module.max_rel_err(got.reshape(64, 256), x.reshape(64, 256)) < 1e-5
    else:
        (_, got), _ = differential(module.rms_norm, 64, 32, arch, [x, np.zeros_like(x)],
                                   (256,), modes=WITH_WORKERS)
        assert module.max_rel_err(got.reshape(64, 256), x.reshape(64, 256)) < 1e-5
