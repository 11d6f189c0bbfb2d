"""The batched engine's contract, one construct at a time: for every kind of Python a kernel
may contain, the batched engine gives the per-wave engine's outputs, exceptions and memory
(computing batched where it can, rerunning blocks per wave where it cannot).

Each case runs on both engines (fresh buffers each); references are plain Python per block
where a closed form exists, else the per-wave engine. `stays_batched` cases also check that
the batch did not fall back, so the comparison is not per-wave against per-wave.
"""

from __future__ import annotations

import numpy as np
import pytest

from rocwmma_py import (
    FragmentError,
    OutOfBoundsError,
    accumulator,
    amdgcn,
    fill_fragment,
    float32,
    fragment,
    kernel,
    matrix_a,
)
from rocwmma_py.runtime import (
    blockIdx,
    current_wave,
    float4,
    lane_id,
    last_launch_stats,
    threadIdx,
    use_engine,
)

pytestmark = pytest.mark.smoke

FragAcc = fragment[accumulator, 16, 16, 16, float32]
GRID, WAVE = 6, 64


def launch_both(k, make_buffers, grid=GRID, block=WAVE, arch="gfx942"):
    """{engine: (buffers, (error type, message) or None, stats)}."""
    out = {}
    for engine in ("wave", "batch"):
        buffers = make_buffers()
        error = None
        with use_engine(engine):
            try:
                k[grid, block, 0, arch](*buffers)
            except Exception as err:  # noqa: BLE001 - compared between engines
                error = (type(err), str(err))
        out[engine] = (buffers, error, last_launch_stats())
    return out


def assert_agree(results, stays_batched=False):
    (w_buf, w_err, _), (b_buf, b_err, stats) = results["wave"], results["batch"]
    assert b_err == w_err
    for w, b in zip(w_buf, b_buf, strict=True):
        assert w.dtype == b.dtype and w.tobytes() == b.tobytes()
    if stays_batched:
        assert stats.per_wave_blocks == 0 and stats.batched_blocks == GRID


def floats():
    return [np.arange(GRID * WAVE, dtype=np.float32) * np.float32(0.37) - 40,
            np.zeros(GRID * WAVE, np.float32)]


# --- 1. per-lane containers: gathers, reductions, positions ---------------------------------

@kernel
def shuffle_xor(src, dst):
    i = blockIdx.x * 64 + lane_id()
    x = src[i]
    dst[i] = x[lane_id() ^ 1] + x[(lane_id() + 5) % 64]


def test_lane_gather_stays_batched_and_matches_plain_python():
    results = launch_both(shuffle_xor, floats)
    src = floats()[0]
    lane = np.arange(GRID * WAVE) % WAVE
    base = np.arange(GRID * WAVE) - lane
    expect = src[base + (lane ^ 1)] + src[base + (lane + 5) % 64]
    assert results["batch"][0][1].tobytes() == expect.tobytes()
    assert_agree(results, stays_batched=True)


def _frag_sum(f, x, lane):
    return f.x.sum()


def _frag_position(f, x, lane):
    return f.x[0][0] + f.x[1][lane ^ 1]


def _frag_shape(f, x, lane):
    return f.x.shape[1] + len(lane) + x.size


def _regs_rotate(f, x, lane):
    return float4(x + lane).regs[(lane + 1) % 64][:, 2]


def _regs_total(f, x, lane):
    return float4(x).regs.sum()


def _builtin_corner(f, x, lane):
    d = amdgcn.mfma_f32_16x16x4f32(x, x, np.zeros((64, 4), np.float32), 0, 0, 0)
    return d[0, 0] + d[:, 1][lane ^ 2]


def _numpy_results(f, x, lane):
    return np.abs(x)[lane ^ 3] + np.sort(np.where(x > 0, x, -x))[lane] + np.cumsum(x)[lane]


def _lists(f, x, lane):
    return x.tolist()[3] + np.count_nonzero(x > 0) + np.dot(x, x) + np.argmax(x)


def _stacked(f, x, lane):
    return np.stack([x, x * 2])[1][::-1].copy()


PER_LANE_CASES = [_frag_sum, _frag_position, _frag_shape, _regs_rotate, _regs_total,
                  _builtin_corner, _numpy_results, _lists, _stacked]


@pytest.mark.parametrize("expr", PER_LANE_CASES, ids=lambda f: f.__name__.strip("_"))
def test_per_lane_containers_see_only_their_wave(expr):
    @kernel
    def k(src, dst):
        i = blockIdx.x * 64 + lane_id()
        f = FragAcc()
        fill_fragment(f, np.float32(0.5))
        f.x[...] = f.x + src[i] * (blockIdx.x + 1)
        dst[i] = expr(f, src[i], lane_id())

    assert_agree(launch_both(k, floats))


@kernel
def lane_preserving(src, dst):
    i = blockIdx.x * 64 + lane_id()
    f = FragAcc()
    fill_fragment(f, np.float32(1))
    f.x[...] = f.x * src[i]
    regs = float4(src[i]).regs
    dst[i] = (f.x.sum(axis=0) + f.x.T[:, 2] + np.stack([f.x[0], src[i]])[1]
              + regs.max(axis=1) + 64)


def test_lane_preserving_numpy_stays_batched():
    results = launch_both(lane_preserving, floats)
    src = floats()[0]
    column = ((src + src) + src) + src  # 4 elements per lane, summed in order
    assert results["wave"][0][1].tobytes() == ((((column + src) + src) + src)
                                               + np.float32(64)).tobytes()
    assert_agree(results, stays_batched=True)


# --- 2. number types: blockIdx promotes like a Python int --------------------------------------

@kernel
def promote(src, dst, half):
    i = blockIdx.x * 64 + lane_id()
    dst[i] = src[i] * (blockIdx.x + 1) * 0.1
    half[i] = np.float16(0.1) * (blockIdx.x + 3) + (blockIdx.x / 3) * np.float16(src[0])


def test_blockidx_promotes_like_a_python_int():
    def buffers():
        return floats() + [np.zeros(GRID * WAVE, np.float16)]

    results = launch_both(promote, buffers)
    src = floats()[0]
    block = np.arange(GRID * WAVE) // WAVE
    dst = np.array([s * (int(b) + 1) * 0.1 for s, b in zip(src, block, strict=True)],
                   np.float32)  # numpy float32 scalar times Python numbers: float32
    half = np.array([np.float16(0.1) * (int(b) + 3) + (int(b) / 3) * np.float16(src[0])
                     for b in block], np.float16)
    assert results["batch"][0][1].tobytes() == dst.tobytes()
    assert results["batch"][0][2].tobytes() == half.tobytes()
    assert_agree(results, stays_batched=True)


PYTHON_OPS = [
    lambda b: b // 4 - b % 3 + (b + 1) ** 2,
    lambda b: (b + 1) / 3,
    lambda b: -b ** 2 + abs(b - 3) * 2.5,
    lambda b: (b << 3) >> 1 ^ 5 | 2 & b,
    lambda b: 2 ** (b - 9) if b > -100 else 0,
    lambda b: divmod(b * 7, 4)[0] + round(b / 4),
    lambda b: (b > 2) + (b == 3) * 10 - (b != 1),
    lambda b: 7.5 // (b + 1) + 7.5 % (b + 0.5),
    lambda b: (b + 2) ** 40 / 2 ** 30,  # Python big ints: rerun per wave
]


@pytest.mark.parametrize("op", range(len(PYTHON_OPS)))
def test_blockidx_arithmetic_is_pythons(op):
    fn = PYTHON_OPS[op]

    @kernel
    def k(dst):
        dst[blockIdx.x * 64 + lane_id()] = fn(blockIdx.x)

    results = launch_both(k, lambda: [np.zeros(GRID * WAVE)])
    expect = np.repeat([float(fn(b)) for b in range(GRID)], WAVE)
    assert results["batch"][0][0].tobytes() == expect.tobytes()
    assert_agree(results)


# --- 3. errors Python raises where numpy only warns ------------------------------------------

@pytest.mark.parametrize("expr", ["100 // blockIdx.x", "100 % (blockIdx.x - 2)",
                                  "1.5 / (blockIdx.x - 4)", "(blockIdx.x - 1) ** -1",
                                  "2.0 ** (blockIdx.x * 400)", "1 >> (blockIdx.x - 3)"])
def test_python_errors_are_raised_not_warned(expr):
    code = compile(expr, "<expr>", "eval")

    @kernel
    def k(dst):
        dst[blockIdx.x * 64 + lane_id()] = eval(code)  # noqa: S307 - test expression

    results = launch_both(k, lambda: [np.zeros(GRID * WAVE)])
    assert results["wave"][1] is not None
    assert_agree(results)


# --- 4. exceptions caught inside the kernel ----------------------------------------------------

@kernel
def caught_bounds(src, dst, off):
    i = blockIdx.x * 64 + lane_id()
    try:
        v = src[i + off]
    except OutOfBoundsError:
        v = -1
    dst[i] = v


def test_caught_out_of_bounds_stays_per_block():
    src = floats()[0]
    results = {}
    for engine in ("wave", "batch"):
        dst = np.zeros(GRID * WAVE, np.float32)
        with use_engine(engine):
            caught_bounds[GRID, WAVE, 0, "gfx942"](src, dst, 64)
        results[engine] = dst
    expect = np.concatenate([src[64:], np.full(64, -1, np.float32)])
    assert results["batch"].tobytes() == expect.tobytes() == results["wave"].tobytes()


@kernel
def bare_except(dst):
    i = blockIdx.x * 64 + lane_id()
    v = 0
    try:
        if blockIdx.x % 2:
            v = 5
    except:  # noqa: E722 - the construct under test
        v = -1
    dst[i] = v


@kernel
def caught_division(dst):
    try:
        v = 10 // (blockIdx.x - 2)
    except ZeroDivisionError:
        v = 99
    dst[blockIdx.x * 64 + lane_id()] = v


@pytest.mark.parametrize("k, expect", [
    (bare_except, [0, 5, 0, 5, 0, 5]),
    (caught_division, [10 // (b - 2) if b != 2 else 99 for b in range(GRID)]),
])
def test_caught_exceptions_do_not_leak_across_blocks(k, expect):
    results = launch_both(k, lambda: [np.zeros(GRID * WAVE)])
    assert results["batch"][0][0].tobytes() == np.repeat(np.array(expect, float), WAVE).tobytes()
    assert_agree(results)


# --- 5. Python state reached through module globals ---------------------------------------------

CALLS: list = []
HOST_COUNTS = np.zeros(GRID, np.int64)


@kernel
def append_to_global(dst):
    CALLS.append(1)
    dst[blockIdx.x * 64 + lane_id()] = len(CALLS)


@kernel
def write_global_array(dst):
    HOST_COUNTS[blockIdx.x] += 1
    dst[blockIdx.x * 64 + lane_id()] = HOST_COUNTS[blockIdx.x]


def test_global_list_runs_per_wave():
    results = {}
    for engine in ("wave", "batch"):
        CALLS.clear()
        dst = np.zeros(GRID * WAVE)
        with use_engine(engine):
            append_to_global[GRID, WAVE, 0, "gfx942"](dst)
        results[engine] = (dst, len(CALLS))
    assert results["batch"][1] == results["wave"][1] == GRID
    assert results["batch"][0].tobytes() == np.repeat(np.arange(1.0, GRID + 1), WAVE).tobytes()


def test_global_host_array_written_per_wave_and_left_writable():
    for _engine in ("wave", "batch"):
        HOST_COUNTS[:] = 0
        dst = np.zeros(GRID * WAVE)
        with use_engine(_engine):
            write_global_array[GRID, (WAVE, 2), 0, "gfx942"](dst)
        assert HOST_COUNTS.tolist() == [2] * GRID
        assert dst.tobytes() == np.full(GRID * WAVE, 2.0).tobytes()  # wave 1 wrote last
        assert HOST_COUNTS.flags.writeable


def test_closure_arrays_read_stay_batched_and_written_run_per_wave():
    table = np.arange(GRID, dtype=np.float64) * 3
    hits = np.zeros(GRID)

    @kernel
    def reads(dst):
        dst[blockIdx.x * 64 + lane_id()] = table[blockIdx.x] + 1

    @kernel
    def writes(dst):
        hits[blockIdx.x] += 1
        dst[blockIdx.x * 64 + lane_id()] = hits[blockIdx.x]

    results = launch_both(reads, lambda: [np.zeros(GRID * WAVE)])
    assert results["batch"][0][0].tobytes() == np.repeat(table + 1, WAVE).tobytes()
    assert_agree(results, stays_batched=True)
    for engine in ("wave", "batch"):
        hits[:] = 0
        with use_engine(engine):
            writes[GRID, WAVE, 0, "gfx942"](np.zeros(GRID * WAVE))
        assert hits.tolist() == [1.0] * GRID and hits.flags.writeable


SHARED = np.zeros(GRID * WAVE)


@kernel
def writes_its_argument(dst):
    dst[blockIdx.x * 64 + lane_id()] = SHARED[blockIdx.x * 64 + lane_id()] + blockIdx.x


def test_launch_argument_that_is_also_a_global_is_read_per_wave():
    """A host array indexed per lane is numpy's own indexing, which the batch cannot enter:
    those blocks run per wave (pass the array as an argument to index it batched)."""
    SHARED[:] = 1
    with use_engine("batch"):
        writes_its_argument[GRID, WAVE, 0, "gfx942"](SHARED)
    assert SHARED.tobytes() == (1 + np.repeat(np.arange(GRID, dtype=float), WAVE)).tobytes()
    assert {f.kind for f in last_launch_stats().fallbacks} == {"per wave"}


@kernel
def shape_inside(dst):
    f = FragAcc()
    fill_fragment(f, np.float32(1))
    dst[blockIdx.x * 64 + lane_id()] = f.x.shape[1] * 1000 + len(lane_id()) + f.x.size


def test_shapes_are_one_waves_and_run_per_wave():
    """`.shape`, `len()` and `.size` of per-lane values are one wave's: they may size an
    allocation, so a batch reruns those blocks per wave (the engine's contract)."""
    results = launch_both(shape_inside, lambda: [np.zeros(GRID * WAVE)])
    assert results["batch"][0][0].tolist() == [64 * 1000 + 64 + 4 * 64] * (GRID * WAVE)
    assert_agree(results)
    assert results["batch"][2].per_wave_blocks == GRID


@kernel
def swallows_per_wave_signal(dst):
    v = 1
    try:
        v = len(current_wave().thread_idx)  # NeedsPerWave in a batch
    except:  # noqa: E722 - the construct under test
        v = -1
    dst[blockIdx.x * 64 + lane_id()] = v


@kernel
def catches_fragment_error(dst):
    try:
        v = 2 if blockIdx.x % 2 else fragment[matrix_a, 16, 16, 16, float32]  # no layout
    except FragmentError:
        v = -5
    dst[blockIdx.x * 64 + lane_id()] = v


@pytest.mark.parametrize("k, expect", [(swallows_per_wave_signal, [3] * GRID),
                                       (catches_fragment_error, [-5, 2] * (GRID // 2))])
def test_swallowed_signals_and_package_errors_rerun(k, expect):
    results = launch_both(k, lambda: [np.zeros(GRID * WAVE)])
    assert results["batch"][0][0].tolist() == np.repeat(expect, WAVE).tolist()
    assert_agree(results)


@kernel
def vector_rows(src, dst):
    i = blockIdx.x * 64 + lane_id()
    rows = (src + (i & ~1)).load(2)
    dst[i] = rows[:, 1] + rows[lane_id() ^ 1, 0] + rows[0, 0]


def test_vector_load_rows_are_lanes():
    assert_agree(launch_both(vector_rows, floats))


WAVE_COUNTS = np.zeros(GRID, np.int64)


@kernel
def counts_then_fails(src, dst):
    i = blockIdx.x * 128 + threadIdx.x
    if threadIdx.x // 64 == 1:  # the waves of a block differ: they run wave by wave
        WAVE_COUNTS[blockIdx.x] += 1
    dst[i] = 10 // (4 - blockIdx.x)  # block 4 raises (in wave 0, before wave 1 counts)


def test_host_writes_of_undone_per_wave_reruns_are_not_repeated():
    seen = {}
    for engine in ("wave", "batch"):
        WAVE_COUNTS[:] = 0
        with use_engine(engine), pytest.raises(ZeroDivisionError):
            counts_then_fails[GRID, 128, 0, "gfx942"](np.ones(GRID * 128), np.zeros(GRID * 128))
        seen[engine] = WAVE_COUNTS.tolist()
    assert seen["batch"] == seen["wave"] == [1, 1, 1, 1, 0, 0]


SCALES = [1.0, 2.0, 3.0]
TALLY: dict = {}


@kernel
def reads_global_list(dst):
    dst[blockIdx.x * 64 + lane_id()] = SCALES[blockIdx.x % 3]


@kernel
def stores_into_global_dict(dst):
    TALLY[blockIdx.x] = 1
    dst[blockIdx.x * 64 + lane_id()] = len(TALLY)


def test_global_containers_read_stay_batched_changed_run_per_wave():
    results = launch_both(reads_global_list, lambda: [np.zeros(GRID * WAVE)])
    assert results["batch"][0][0].tolist() == np.repeat([1.0, 2.0, 3.0] * 2, WAVE).tolist()
    assert_agree(results, stays_batched=True)
    seen = []
    for engine in ("wave", "batch"):
        TALLY.clear()
        dst = np.zeros(GRID * WAVE)
        with use_engine(engine):
            stores_into_global_dict[GRID, WAVE, 0, "gfx942"](dst)
        seen.append(dst.tolist())
    assert seen[0] == seen[1] == np.repeat(np.arange(1.0, GRID + 1), WAVE).tolist()
