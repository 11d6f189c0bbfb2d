"""No way out of the emulator's types shows a kernel the batch: per-lane and per-wave values
behave on the batched engine exactly as on the per-wave engine under `np.asarray`, numpy
functions, `len()`/`.shape` sizing, `int()`/`float()`/`bool()`/`__index__`, iteration,
`tolist`/`item`, formatting, `isinstance`, `hash`, numpy scalar constructors and positional
indexing, and the Python state a kernel touches ends as it does per wave.

"Identical" is the same output buffers bit for bit, or the same exception (type and
message). Every kernel runs on the per-wave engine (the reference), on the batched engine,
and batched over two worker processes (`use_workers(2)`, the worker thresholds lowered so
that these small grids really are spread).

* random kernels (tests/escape_fuzz.py): a fixed set by default, whole-wave blocks and,
  apart, blocks narrower than a wave (one partial wave: half a wave, a quarter, odd sizes,
  2-D); `-m extended` runs 5,000 new ones of both kinds spread over the cores (`-n auto`),
  from $ESCAPE_SEED if set, else a seed of the run (printed with every failure;
  `python tests/escape_fuzz.py SEED` replays one);
* one regression group per class of escape: per-lane scratch arrays, packed half2 pairs,
  numpy scalars and formatting of blockIdx, atomics followed by branches between the waves
  of a block, and Python state reached outside the kernel's arguments.
"""

from __future__ import annotations

import array
import collections
import functools
import itertools
import math  # noqa: F401 - used by expressions evaluated inside kernels
import os
import random
import re
import struct  # noqa: F401 - used by expressions evaluated inside kernels
import sys
import time
import types
import warnings
import zlib  # noqa: F401 - used by expressions evaluated inside kernels

import ml_dtypes  # noqa: F401 - used by expressions evaluated inside kernels
import numpy as np
import pytest
from escape_fuzz import check, generate, is_narrow, spread_small_grids

from rocwmma_py import accumulator, fill_fragment, float32, fragment, kernel
from rocwmma_py.runtime import (
    Pointer,
    __float2bfloat16,
    __float22bfloat162_rn,
    __floats2half2_rn,
    __h2div,
    __habs2,
    __hadd2,
    __half2half2,
    __half22float2,
    __halves2bfloat162,
    __halves2half2,
    __heq2_mask,
    __hfma2,
    __high2float,
    __hmax2,
    __hmul2,
    __hsub2,
    __low2half,
    __lowhigh2highlow,
    atomicAdd,
    atomicExch,
    atomicMax,
    blockDim,
    blockIdx,
    h2exp,
    h2sqrt,
    lane_id,
    shared_array,
    synchronize_workgroup,
    threadIdx,
    use_engine,
    use_workers,
    vector_type,
    wave_size,
)

FragAcc = fragment[accumulator, 16, 16, 16, float32]
Vec4 = vector_type(np.float32, 4)
WAVES = {"gfx942": 64, "gfx1100": 32, "gfx1201": 32}

# --- (a) and (b): random kernels ---------------------------------------------------------------

DEFAULT_KERNELS, DEFAULT_CHUNKS = 240, 8
NARROW_KERNELS, NARROW_CHUNKS = 120, 4
EXTENDED_KERNELS, EXTENDED_CHUNKS = 5000, 50

def _first_seeds(count: int, narrow: bool) -> tuple[int, ...]:
    """The first `count` seeds from 0 whose kernels launch narrow (or whole-wave) blocks."""
    seeds = (s for s in itertools.count()
             if is_narrow(s) == narrow)
    return tuple(itertools.islice(seeds, count))


WHOLE_WAVE_SEEDS = _first_seeds(DEFAULT_KERNELS, narrow=False)
NARROW_SEEDS = _first_seeds(NARROW_KERNELS, narrow=True)


def _check_seeds(seeds, header: str = "") -> None:
    """Every kernel of `seeds` agrees on every engine; else one failure listing the seeds
    that disagree (replay one: python tests/escape_fuzz.py SEED) and the first reports."""
    failures = [(seed, report) for seed in seeds if (report := check(seed))]
    if failures:
        lines = [f"{header}{len(failures)} of {len(seeds)} kernels disagree "
                 f"(seeds {[s for s, _ in failures]}); first reports:"]
        lines += [report for _, report in failures[:3]]
        pytest.fail("\n\n".join(lines), pytrace=False)


@pytest.mark.parametrize("chunk", range(DEFAULT_CHUNKS))
def test_random_escapes_agree(chunk):
    _check_seeds(WHOLE_WAVE_SEEDS[chunk::DEFAULT_CHUNKS])


@pytest.mark.parametrize("chunk", range(NARROW_CHUNKS))
def test_random_escapes_agree_in_narrow_blocks(chunk):
    """Blocks of fewer threads than the wave: what the lanes past the threads hold leaks
    out through every escape, and must be the same on every engine."""
    _check_seeds(NARROW_SEEDS[chunk::NARROW_CHUNKS], "narrow blocks: ")


@functools.cache
def _run_seed() -> int:
    """$ESCAPE_SEED, else one seed per run: pytest-xdist's run id (the same in every
    worker process), else the time."""
    text = os.environ.get("ESCAPE_SEED", "").strip()
    if text:
        return int(text)
    uid = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if uid:
        return int(uid[:12], 16) % 2**40
    return time.time_ns() % 2**40


@pytest.mark.extended
@pytest.mark.parametrize("chunk", range(EXTENDED_CHUNKS))
def test_random_escapes_agree_extended(chunk):
    base = _run_seed()
    print(f"ESCAPE_SEED={base}: kernels {base} .. {base + EXTENDED_KERNELS - 1}")
    per = EXTENDED_KERNELS // EXTENDED_CHUNKS
    _check_seeds(range(base + chunk * per, base + (chunk + 1) * per), f"ESCAPE_SEED={base}: ")


def test_generator_is_deterministic_and_varied():
    a, b = generate(11), generate(11)
    assert a.source == b.source and a.launch_text() == b.launch_text()
    assert all(a.inputs[k].tobytes() == b.inputs[k].tobytes() for k in a.inputs)
    cases = [generate(seed) for seed in range(60)]
    assert {c.arch for c in cases} == set(WAVES)
    assert {c.waves_per_block for c in cases} == {1, 2, 3, 4}
    assert all(3 <= c.blocks <= 9 for c in cases)
    assert 0 < sum(c.narrow for c in cases) < 30
    assert all(c.narrow == is_narrow(c.seed) for c in cases)
    text = "\n".join(c.source for c in cases)
    for construct in ("np.asarray(", "len(", ".shape", "int(", "str(", "isinstance(",
                      "atomicAdd(", "__hadd2(", ".regs", ".x", "blockIdx.x"):
        assert construct in text


def test_narrow_seeds_cover_every_wave_and_shape():
    cases = [generate(seed) for seed in NARROW_SEEDS]
    assert all(c.narrow and c.waves_per_block == 1 and 3 <= c.blocks <= 9 for c in cases)
    assert not any(is_narrow(seed) for seed in WHOLE_WAVE_SEEDS)
    for arch, w in WAVES.items():
        mine = [c for c in cases if c.arch == arch]
        assert len(mine) >= 20, arch
        sizes = {c.block[0] for c in mine if c.block[1] == 1}
        assert {w // 2, w // 4, 1, 7, 20, w - 1} <= sizes, (arch, sizes)
        assert any(c.block[1] > 1 for c in mine), arch
    assert any(c.batch_lanes for c in cases) and any(c.grid[1] > 1 for c in cases)
    text = "\n".join(c.source for c in cases)
    for construct in ("tid - lane", "blockDim.x * blockDim.y", "amdgcn.readlane(",
                      "shared_array(", "np.asarray(", "len(", "int("):
        assert construct in text


# --- launching one kernel every way -------------------------------------------------------------

def launch(k, grid, block, arch, buffers, mode, workers=None):
    """Run `k` on copies of `buffers` in `mode` ("wave", "batch", "workers": batched over two
    worker processes; `workers` overrides the count for the per-wave engine too)."""
    copies = [b.copy() for b in buffers]
    error = None
    count = workers or (2 if mode == "workers" else 1)
    with (use_engine("wave" if mode == "wave" else "batch"), use_workers(count),
          spread_small_grids(), warnings.catch_warnings(), np.errstate(all="ignore")):
        warnings.simplefilter("ignore")
        try:
            k[grid, block, 0, arch](*copies)
        except Exception as err:  # noqa: BLE001 - compared between engines
            error = (type(err), str(err))
    return copies, error


def assert_identical(k, grid, block, arch, buffers, modes=("batch", "workers")):
    """Every mode gives the per-wave engine's buffers (bit for bit) and exception; returns
    the per-wave engine's (buffers, error)."""
    ref = launch(k, grid, block, arch, buffers, "wave")
    for mode in modes:
        got = launch(k, grid, block, arch, buffers, mode)
        assert got[1] == ref[1], f"{mode}: exception {got[1]} instead of {ref[1]}"
        for i, (want, have) in enumerate(zip(ref[0], got[0], strict=True)):
            if want.tobytes() != have.tobytes():
                bad = np.flatnonzero(want.view(f"u{want.itemsize}") != have.view(
                    f"u{have.itemsize}"))
                pytest.fail(f"{mode}: buffer {i} differs in {bad.size} elements, first "
                            f"{bad[:6].tolist()}: per-wave {want.reshape(-1)[bad[:6]]} vs "
                            f"{have.reshape(-1)[bad[:6]]}", pytrace=False)
    return ref


# --- (c) 1. per-lane scratch arrays sized by .shape / len() -------------------------------------

def _scratch_shape(src, dst):
    i = blockIdx.x * blockDim.x + threadIdx.x
    tmp = np.zeros(threadIdx.x.shape, np.float32)
    tmp[lane_id()] = src[i]
    dst[i] = tmp[lane_id() ^ 1]


def _scratch_len(src, dst):
    i = blockIdx.x * blockDim.x + threadIdx.x
    tmp = np.zeros(len(threadIdx.x))
    tmp[lane_id()] = src[i]
    dst[i] = tmp[lane_id() ^ 1]


def _scratch_size_rotate(src, dst):
    i = blockIdx.x * blockDim.x + threadIdx.x
    tmp = np.zeros(lane_id().size, np.float32)
    tmp[lane_id()] = src[i]
    dst[i] = tmp[(lane_id() + 1) % wave_size()]


def _scratch_empty_of_load(src, dst):
    i = blockIdx.x * blockDim.x + threadIdx.x
    x = src[i]
    tmp = np.empty(x.shape, x.dtype)
    tmp[:] = x
    dst[i] = tmp[lane_id() ^ 1]


def _scratch_two_rows(src, dst):
    i = blockIdx.x * blockDim.x + threadIdx.x
    lane = lane_id()
    tmp = np.zeros((2, len(lane)), np.float32)
    tmp[0, lane] = src[i]
    tmp[1, lane ^ 1] = src[i] * 2
    dst[i] = tmp[0][lane ^ 2] + tmp[1, lane]


def _scratch_fragment_sized(src, dst):
    i = blockIdx.x * blockDim.x + threadIdx.x
    f = FragAcc()
    fill_fragment(f, np.float32(0))
    tmp = np.zeros(f.x.shape[1], np.float32)
    tmp[lane_id()] = src[i]
    dst[i] = tmp[lane_id() ^ 1]


def _scratch_regs_sized(src, dst):
    i = blockIdx.x * blockDim.x + threadIdx.x
    regs = Vec4(src[i]).regs
    tmp = np.zeros(regs.shape[0], np.float32)
    tmp[lane_id()] = regs[:, 2]
    dst[i] = tmp[lane_id() ^ 1]


def _scratch_reversed(src, dst):
    i = blockIdx.x * blockDim.x + threadIdx.x
    tmp = np.zeros(len(threadIdx.x), np.float32)
    tmp[lane_id()] = src[i]
    dst[i] = tmp[::-1]


def _scratch_sum(src, dst):
    i = blockIdx.x * blockDim.x + threadIdx.x
    tmp = np.zeros(threadIdx.x.shape, np.float32)
    tmp[lane_id()] = src[i]
    dst[i] = tmp.sum()


def _scratch_list(src, dst):
    i = blockIdx.x * blockDim.x + threadIdx.x
    tmp = [0.0] * len(lane_id())
    values = src[i].tolist()
    for j in range(len(values)):
        tmp[j] = values[j] * 2
    dst[i] = np.array(tmp, np.float32)[lane_id() ^ 1]


def _scratch_accumulate(src, dst):
    i = blockIdx.x * blockDim.x + threadIdx.x
    tmp = np.zeros(threadIdx.x.shape, np.float32)
    tmp += src[i]
    dst[i] = tmp


def _scratch_pairs_share(src, dst):
    i = blockIdx.x * blockDim.x + threadIdx.x
    tmp = np.zeros(len(lane_id()) // 2, np.float32)
    tmp[lane_id() // 2] = src[i]  # two lanes per element: the higher lane's value stays
    dst[i] = tmp[lane_id() // 2]


def _scratch_block_sized(src, dst):
    i = blockIdx.x * blockDim.x + threadIdx.x
    tmp = np.zeros(blockDim.x, np.float32)  # one wave's private copy of a block-sized array
    tmp[threadIdx.x] = src[i]
    dst[i] = tmp[threadIdx.x ^ 1]


def _swap(src, w):
    return src[np.arange(src.size) ^ 1]


def _rotate(src, w):
    n = np.arange(src.size)
    return src[n - n % w + (n % w + 1) % w]


def _reverse(src, w):
    n = np.arange(src.size)
    return src[n - n % w + (w - 1 - n % w)]


SCRATCH = [  # kernel, independent expectation from src (None: the per-wave engine's)
    (_scratch_shape, _swap), (_scratch_len, _swap), (_scratch_size_rotate, _rotate),
    (_scratch_empty_of_load, _swap), (_scratch_two_rows, None),
    (_scratch_fragment_sized, _swap), (_scratch_regs_sized, _swap),
    (_scratch_reversed, _reverse), (_scratch_sum, None), (_scratch_list, None),
    (_scratch_accumulate, lambda s, w: s), (_scratch_pairs_share, None),
    (_scratch_block_sized, _swap),
]
SCRATCH_LAUNCHES = [("gfx942", 1, 5), ("gfx942", 2, 4), ("gfx1100", 3, 3), ("gfx1201", 4, 6)]


@pytest.mark.parametrize("launch_shape", SCRATCH_LAUNCHES, ids=lambda s: f"{s[0]}-{s[1]}w-{s[2]}b")
@pytest.mark.parametrize("body, expect", SCRATCH,
                         ids=[body.__name__[len("_scratch_"):] for body, _ in SCRATCH])
def test_scratch_arrays_sized_by_shape_or_len(body, expect, launch_shape):
    arch, wpb, grid = launch_shape
    w = WAVES[arch]
    n = grid * wpb * w
    src = (np.arange(n, dtype=np.float32) * np.float32(0.75) - 20).astype(np.float32)
    (_, dst), _ = assert_identical(kernel(body), grid, wpb * w, arch,
                                   [src, np.zeros(n, np.float32)])
    if expect is not None:
        assert dst.tobytes() == expect(src, w).astype(np.float32).tobytes()


# --- (c) 2. packed half2 pairs: positions, halves, intrinsics -------------------------------------

def _pair_hadd(h, h1, x, bid):
    return __hadd2(__halves2half2(h, h1), __floats2half2_rn(x, 1.0))


def _pair_h2exp(h, h1, x, bid):
    return h2exp(__floats2half2_rn(x * 0.25, -0.5))


def _pair_hmul(h, h1, x, bid):
    return __hmul2(__half2half2(h), __floats2half2_rn(2.0, -1.0))


def _pair_hfma(h, h1, x, bid):
    return __hfma2(__halves2half2(h, h1), __floats2half2_rn(0.5, 0.25),
                   __floats2half2_rn(1.0, bid))


def _pair_swap(h, h1, x, bid):
    return __lowhigh2highlow(__halves2half2(h, h1))


def _pair_sqrt(h, h1, x, bid):
    return h2sqrt(__habs2(__hsub2(__halves2half2(h, h1), __floats2half2_rn(x, bid))))


def _pair_div_max(h, h1, x, bid):
    p = __halves2half2(h, h1)
    return __hmax2(__h2div(p, __floats2half2_rn(3.0, bid + 1)), __floats2half2_rn(-1.0, -2.0))


def _pair_bf16(h, h1, x, bid):
    b = __float2bfloat16(x)
    return __hadd2(__halves2bfloat162(b, b), __float22bfloat162_rn(np.stack([x, x * 3], -1)))


PAIRS = [_pair_hadd, _pair_h2exp, _pair_hmul, _pair_hfma, _pair_swap, _pair_sqrt,
         _pair_div_max, _pair_bf16]

PAIR_ACCESSES = {
    "q[0,0]": lambda q, lane: q[0, 0],
    "q[:,0]": lambda q, lane: q[:, 0],
    "q[lane,1]": lambda q, lane: q[lane, 1],
    "q[lane^1,0]": lambda q, lane: q[lane ^ 1, 0],
    "q[-1,1]": lambda q, lane: q[-1, 1],
    "q[3][0]+q[lane,0]": lambda q, lane: q[3][0] + q[lane, 0],
    "q.sum()": lambda q, lane: q.sum(),
    "q[:,1].max()": lambda q, lane: q[:, 1].max(),
    "len(q)+q[lane,0]": lambda q, lane: len(q) + q[lane, 0],
    "q.shape[0]*q[:,0]": lambda q, lane: q.shape[0] * q[:, 0],
    "asarray(q)[0,0]": lambda q, lane: np.asarray(q)[0, 0],
    "q.T[1]": lambda q, lane: q.T[1],
    "q.reshape(-1)[2*lane]": lambda q, lane: q.reshape(-1)[2 * lane],
    "low2half(q)[lane^1]": lambda q, lane: __low2half(q)[lane ^ 1],
    "high2float(q)[0]": lambda q, lane: __high2float(q)[0],
    "heq2_mask(q,swapped)[1]": lambda q, lane: __heq2_mask(q, __lowhigh2highlow(q))[1],
    "half22float2(q)[lane^2,1]": lambda q, lane: __half22float2(
        q.astype(np.float16))[lane ^ 2, 1],
    "q.view(u32)[:,0]": lambda q, lane: q.view(np.uint32)[:, 0],
    "q[::2,0].sum()": lambda q, lane: q[::2, 0].sum(),
    "sort(q[:,0])[lane]": lambda q, lane: np.sort(q[:, 0])[lane],
    "q.tolist()[1][1]": lambda q, lane: q.tolist()[1][1],
    "float(q[2,0])": lambda q, lane: float(q[2, 0]),
}
PAIR_LAUNCHES = [("gfx942", 2, 4), ("gfx1100", 1, 6), ("gfx1201", 3, 3)]


@pytest.mark.parametrize("access", list(PAIR_ACCESSES))
def test_packed_pair_results_index_per_wave(access):
    fn = PAIR_ACCESSES[access]
    arch, wpb, grid = PAIR_LAUNCHES[list(PAIR_ACCESSES).index(access) % len(PAIR_LAUNCHES)]
    w = WAVES[arch]
    n = grid * wpb * w

    @kernel
    def k(hsrc, src, dst):
        i = blockIdx.x * blockDim.x + threadIdx.x
        lane = lane_id()
        h, h1, x = hsrc[i], hsrc[i ^ 1], src[i]
        for slot, make in enumerate(PAIRS):
            dst[slot * n + i] = fn(make(h, h1, x, blockIdx.x), lane)

    rng = np.random.default_rng(5)
    src = rng.integers(-24, 25, n).astype(np.float32) * np.float32(0.375)
    assert_identical(k, grid, wpb * w, arch,
                     [src.astype(np.float16), src, np.zeros(len(PAIRS) * n, np.float32)])


# --- (c) 3. numpy scalar constructors and formatting of blockIdx ---------------------------------

BLOCK_ARITHMETIC = [
    "np.uint32(bid) - 1", "np.int8(bid) * 50", "np.float32(bid) / 3", "np.float32(1.1) ** bid",
    "np.uint8(bid) - 3", "np.int16(bid) << 13", "np.uint16(bid) * 30000",
    "np.float16(bid) / 3", "np.uint64(bid) - 1", "np.int64(bid) * 2 ** 62",
    "np.float64(bid) / 7", "(np.complex64(bid) * 1j).imag", "np.bool_(bid) + 1",
    "ml_dtypes.bfloat16(bid) / 3", "np.longdouble(bid) / 3", "np.int32(bid) // -2",
    "np.float32(bid) ** 0.5", "np.intc(bid) % 3", "-np.uint16(bid)",
    "np.uint8(bid) * np.uint8(100)", "np.float32(bid) / np.float32(0)",
    "abs(np.int8(bid) - 100)", "np.uint32(bid).item() - 1", "float(np.float32(bid) / 3)",
    "np.float16(1.1) ** bid", "np.uint32(bid - 1)", "np.int8(bid * 60)",
]
BLOCK_FORMATTING = [
    "int(str(bid) + '7')", "len(f'{bid}')", "int(f'{bid:03d}')", "int(format(bid, '03d') + '1')",
    "zlib.crc32(repr(bid).encode())", "zlib.crc32(str(bid).encode())",
    "zlib.crc32(f'{bid!r}|{bid:>4}|{bid:x}|{bid:.2f}'.encode())",
    # not `type(bid) is int`: Python lets no object answer type() for itself (kernels guide)
    "isinstance(blockIdx.x, int)", "isinstance(bid, (int, np.integer))",
    "hash(bid)", "hash(bid * 10 ** 20)", "{bid: 5, 1: 7}.get(bid, -1)",
    "[7, 8, 9, 10, 11, 12, 13, 14, 15, 16][bid]", "bid in {0, 2, 4}", "int('%d' % bid)",
    "int('{:x}'.format(bid * 11), 16)", "bin(bid).count('1')", "bid.bit_length()",
    "bid.to_bytes(2, 'little')[0]", "int(str(np.uint32(bid) - 1))",
    "len(np.binary_repr(bid))", "float(np.format_float_positional(np.float32(bid) / 3))",
    "zlib.crc32(str(np.float32(bid) / 3).encode())",
    "zlib.crc32(repr(np.uint32(bid) - 1).encode())", "len(str(bid / 3))",
    "bytes(bid).count(0)", "len(range(bid))", "math.factorial(bid)",
    "struct.unpack('<i', struct.pack('<i', bid))[0]", "np.arange(bid).size", "len(np.zeros(bid))",
    "sum([1] * bid)", "random.Random(bid).randint(0, 1000)",
    "np.random.default_rng(bid).integers(1000)", "np.asarray(bid).ndim", "np.ndim(bid)",
    "len(np.atleast_1d(bid))", "np.array([bid, 1]).size", "complex(bid).real",
    "zlib.crc32(str(divmod(bid, 2)).encode())", "zlib.crc32(str([bid]).encode())",
]
WAVE_ID_EXPRESSIONS = [  # the wave's index in its block, from threadIdx.x // warpSize
    "np.uint32(wid) - 1", "zlib.crc32(str(wid).encode())", "isinstance(wid, np.ndarray)",
    "np.int8(int(wid)) * 100", "len(str(int(wid)))", "zlib.crc32(repr(wid[0]).encode())",
    "np.asarray(wid).size", "int(wid) * 10 + len(wid)",
]
BLOCK_LAUNCHES = {"1wave": ("gfx942", 1, 6), "3waves": ("gfx1100", 3, 5)}


def _block_kernel(expr: str):
    code = compile(expr, "<expr>", "eval")

    @kernel
    def k(dst):
        bid = blockIdx.x  # noqa: F841 - used by the expression
        wid = threadIdx.x // wave_size()  # noqa: F841 - used by the expression
        dst[blockIdx.x * blockDim.x + threadIdx.x] = eval(code)  # noqa: S307 - test expressions

    return k


def _block_case(expr, shape):
    arch, wpb, grid = BLOCK_LAUNCHES[shape]
    w = WAVES[arch]
    return assert_identical(_block_kernel(expr), grid, wpb * w, arch,
                            [np.zeros(grid * wpb * w, np.float64)])


@pytest.mark.parametrize("shape", list(BLOCK_LAUNCHES))
@pytest.mark.parametrize("expr", BLOCK_ARITHMETIC + BLOCK_FORMATTING)
def test_blockidx_scalars_and_formatting(expr, shape):
    _block_case(expr, shape)


@pytest.mark.parametrize("expr", WAVE_ID_EXPRESSIONS)
def test_wave_id_scalars_and_formatting(expr):
    _block_case(expr, "3waves")


@pytest.mark.parametrize("expr", BLOCK_ARITHMETIC)
def test_blockidx_scalar_warnings_as_errors(expr):
    """With RuntimeWarning an error (pytest's setting here), numpy scalar overflow raises:
    in the same block, with the same message, on every engine."""
    code = compile(expr, "<expr>", "eval")

    @kernel
    def k(dst):
        bid = blockIdx.x  # noqa: F841 - used by the expression
        dst[blockIdx.x * blockDim.x + threadIdx.x] = eval(code)  # noqa: S307 - test expressions

    def run(mode):
        dst = np.zeros(6 * 64)
        error = None
        with (use_engine("wave" if mode == "wave" else "batch"),
              use_workers(2 if mode == "workers" else 1), spread_small_grids(),
              warnings.catch_warnings()):
            warnings.simplefilter("error", RuntimeWarning)
            try:
                k[6, 64, 0, "gfx942"](dst)
            except Exception as err:  # noqa: BLE001 - compared between engines
                error = (type(err), str(err))
        return dst, error

    ref = run("wave")
    for mode in ("batch", "workers"):
        dst, error = run(mode)
        assert error == ref[1], mode
        assert dst.tobytes() == ref[0].tobytes(), mode


# --- (c) 4. atomics, then branches that differ between the waves of a block ---------------------

def _tickets(cnt, dst, side):
    i = blockIdx.x * blockDim.x + threadIdx.x
    wid = threadIdx.x // wave_size()
    t = atomicAdd(cnt + 0, 1)
    if wid % 2 == 0:
        u = atomicAdd(cnt + 1, 2)
        dst[i] = t * 1000 + u
    else:
        dst[i] = t * 1000 - 1
        side[i] = atomicAdd(cnt + 2, 1)


def _tickets_reference(grid, wpb, w):
    """Per-wave order: blocks in order, the waves of a block in order, lanes in order."""
    cnt = [0, 0, 0]
    dst, side = np.zeros(grid * wpb * w, np.int32), np.zeros(grid * wpb * w, np.int32)
    for b in range(grid):
        for wave in range(wpb):
            base = (b * wpb + wave) * w
            t = list(range(cnt[0], cnt[0] + w))
            cnt[0] += w
            if wave % 2 == 0:
                u = [cnt[1] + 2 * lane for lane in range(w)]
                cnt[1] += 2 * w
                dst[base:base + w] = [a * 1000 + c for a, c in zip(t, u, strict=True)]
            else:
                dst[base:base + w] = [a * 1000 - 1 for a in t]
                side[base:base + w] = range(cnt[2], cnt[2] + w)
                cnt[2] += w
    return np.array(cnt, np.int32), dst, side


def _float_sums(src, acc, olds, olds2):
    i = blockIdx.x * blockDim.x + threadIdx.x
    wid = threadIdx.x // wave_size()
    olds[i] = atomicAdd(acc + 0, src[i])
    if wid % 2 == 0:
        olds2[i] = atomicAdd(acc + 1, src[i] * 3)
    else:
        olds2[i] = atomicAdd(acc + 1, -src[i])


def _float_sums_reference(src, grid, wpb, w):
    acc = np.zeros(2, np.float32)
    olds, olds2 = np.zeros_like(src), np.zeros_like(src)
    for b in range(grid):
        for wave in range(wpb):
            for lane in range(w):
                i = (b * wpb + wave) * w + lane
                olds[i] = acc[0]
                acc[0] = np.float32(acc[0] + src[i])
            for lane in range(w):
                i = (b * wpb + wave) * w + lane
                olds2[i] = acc[1]
                v = src[i] * np.float32(3) if wave % 2 == 0 else -src[i]
                acc[1] = np.float32(acc[1] + v)
    return acc, olds, olds2


def _specialized_then_atomic(src, acc, olds, olds2):
    i = blockIdx.x * blockDim.x + threadIdx.x
    wid = threadIdx.x // wave_size()
    if wid == 0:
        v = src[i]
    else:
        v = src[i] * np.float32(-0.5)
    olds[i] = atomicAdd(acc + blockIdx.x % 2, v)
    olds2[i] = atomicAdd(acc + 2, v * v)


def _early_return_then_atomic(src, acc, olds, olds2):
    i = blockIdx.x * blockDim.x + threadIdx.x
    wid = threadIdx.x // wave_size()
    olds2[i] = atomicAdd(acc + 2, src[i])
    if wid % 2 == 1:
        return
    olds[i] = atomicAdd(acc + 0, src[i] * 7)


def _exchange_chain(src, acc, olds, olds2):
    i = blockIdx.x * blockDim.x + threadIdx.x
    wid = threadIdx.x // wave_size()
    olds[i] = atomicExch(acc + 0, src[i])  # each lane sees the previous lane's value
    if wid % 2 == 0:
        olds2[i] = atomicMax(acc + 1, src[i])
    else:
        olds2[i] = atomicAdd(acc + 2, olds[i])


def _loop_bound_by_wave(src, acc, olds, olds2):
    i = blockIdx.x * blockDim.x + threadIdx.x
    wid = threadIdx.x // wave_size()
    for _ in range(int(wid) + 1):
        olds[i] = atomicAdd(acc + 0, src[i])
    olds2[i] = atomicAdd(acc + 1, olds[i] * np.float32(1e-3))


def _lds_tickets(src, acc, olds, olds2):
    i = blockIdx.x * blockDim.x + threadIdx.x
    wid = threadIdx.x // wave_size()
    s = shared_array(np.float32, 2)
    olds[i] = atomicAdd(s + 0, src[i])
    if wid % 2 == 0:
        olds2[i] = atomicAdd(s + 1, src[i] * 2)
    else:
        olds2[i] = atomicAdd(acc + 0, src[i])
    synchronize_workgroup()


ATOMIC_LAUNCHES = [("gfx942", 2, 4), ("gfx1100", 4, 3), ("gfx1201", 3, 5)]


def _magnitudes(n):
    """float32 values of very different magnitudes: the sum's rounding depends on order."""
    rng = np.random.default_rng(9)
    scale = rng.choice(np.array([1e8, 1.0, 1e-3, 3.3e7, 7.0, 1e-7], np.float32), n)
    return (rng.standard_normal(n).astype(np.float32) * scale).astype(np.float32)


@pytest.mark.parametrize("launch_shape", ATOMIC_LAUNCHES, ids=lambda s: f"{s[0]}-{s[1]}w-{s[2]}b")
def test_atomic_tickets_then_wave_branch(launch_shape):
    arch, wpb, grid = launch_shape
    w = WAVES[arch]
    n = grid * wpb * w
    buffers = [np.zeros(3, np.int32), np.zeros(n, np.int32), np.zeros(n, np.int32)]
    ref, _ = launch(kernel(_tickets), grid, wpb * w, arch, buffers, "wave")
    cnt, dst, side = _tickets_reference(grid, wpb, w)  # the reference is the documented order
    assert [b.tobytes() for b in ref] == [cnt.tobytes(), dst.tobytes(), side.tobytes()]
    assert_identical(kernel(_tickets), grid, wpb * w, arch, buffers)


@pytest.mark.parametrize("launch_shape", ATOMIC_LAUNCHES, ids=lambda s: f"{s[0]}-{s[1]}w-{s[2]}b")
def test_atomic_float_sums_then_wave_branch(launch_shape):
    arch, wpb, grid = launch_shape
    w = WAVES[arch]
    n = grid * wpb * w
    src = _magnitudes(n)
    buffers = [src, np.zeros(2, np.float32), np.zeros(n, np.float32), np.zeros(n, np.float32)]
    ref, _ = launch(kernel(_float_sums), grid, wpb * w, arch, buffers, "wave")
    acc, olds, olds2 = _float_sums_reference(src, grid, wpb, w)
    assert [b.tobytes() for b in ref[1:]] == [acc.tobytes(), olds.tobytes(), olds2.tobytes()]
    assert_identical(kernel(_float_sums), grid, wpb * w, arch, buffers)


@pytest.mark.parametrize("launch_shape", ATOMIC_LAUNCHES, ids=lambda s: f"{s[0]}-{s[1]}w-{s[2]}b")
@pytest.mark.parametrize("body", [_specialized_then_atomic, _early_return_then_atomic,
                                  _exchange_chain, _loop_bound_by_wave, _lds_tickets],
                         ids=lambda f: f.__name__[1:])
def test_atomics_with_wave_specialization(body, launch_shape):
    arch, wpb, grid = launch_shape
    n = grid * wpb * WAVES[arch]
    assert_identical(kernel(body), grid, wpb * WAVES[arch], arch,
                     [_magnitudes(n), np.zeros(3, np.float32), np.zeros(n, np.float32),
                      np.zeros(n, np.float32)])


# --- (c) 5. Python state a kernel touches outside its arguments ---------------------------------

STATE = types.ModuleType("escape_state")
STATE.counter = 0
sys.modules.setdefault("escape_state", STATE)
ESCAPE_COUNT = 0


def bump_helper():
    bump_helper.calls += 1
    return bump_helper.calls


bump_helper.calls = 0


class Tally:
    n = 0


class StateCase:
    """A kernel reaching Python state outside its arguments: `make()` resets the state and
    returns the kernel; `state()` what it left; `names` what an error refusing it may name;
    `expect(grid, waves_per_block)` the state one update per wave leaves (None: not
    checked independently)."""

    def __init__(self, name, make, state, names, expect=None):
        self.name, self.make, self.state, self.names = name, make, state, names
        self.expect = expect

    def __repr__(self) -> str:
        return self.name


def _module_attribute():
    STATE.counter = 0

    @kernel
    def k(dst):
        STATE.counter += 1
        dst[blockIdx.x * blockDim.x + threadIdx.x] = STATE.counter

    return k


def _global_int():
    global ESCAPE_COUNT
    ESCAPE_COUNT = 0

    @kernel
    def k(dst):
        global ESCAPE_COUNT
        ESCAPE_COUNT += 1
        dst[blockIdx.x * blockDim.x + threadIdx.x] = ESCAPE_COUNT

    return k


def _function_attribute():
    bump_helper.calls = 0

    @kernel
    def k(dst):
        dst[blockIdx.x * blockDim.x + threadIdx.x] = bump_helper()

    return k


def _class_attribute():
    Tally.n = 0

    @kernel
    def k(dst):
        Tally.n += 1
        dst[blockIdx.x * blockDim.x + threadIdx.x] = Tally.n

    return k


def _python_random():
    random.seed(1234)

    @kernel
    def k(dst):
        dst[blockIdx.x * blockDim.x + threadIdx.x] = random.random()

    return k


_holder: dict = {}


def _numpy_generator():
    draws_rng = _holder["draws_rng"] = np.random.default_rng(0)

    @kernel
    def k(dst):
        dst[blockIdx.x * blockDim.x + threadIdx.x] = draws_rng.random()

    return k


def _numpy_generator_per_lane():
    draws_rng = _holder["draws_rng"] = np.random.default_rng(0)

    @kernel
    def k(dst):
        dst[blockIdx.x * blockDim.x + threadIdx.x] = draws_rng.standard_normal(len(lane_id()))

    return k


def _itertools_count():
    ticket_counter = _holder["ticket_counter"] = itertools.count()

    @kernel
    def k(dst):
        dst[blockIdx.x * blockDim.x + threadIdx.x] = next(ticket_counter)

    return k


def _deque_append():
    wave_log = _holder["wave_log"] = collections.deque()

    @kernel
    def k(dst):
        wave_log.append(int(blockIdx.x))
        dst[blockIdx.x * blockDim.x + threadIdx.x] = len(wave_log)

    return k


def _bytearray_written():
    hit_bytes = _holder["hit_bytes"] = bytearray(8)

    @kernel
    def k(dst):
        hit_bytes[blockIdx.x] += 1
        dst[blockIdx.x * blockDim.x + threadIdx.x] = hit_bytes[blockIdx.x]

    return k


def _array_module_array():
    tally_array = _holder["tally_array"] = array.array("i", [0] * 8)

    @kernel
    def k(dst):
        tally_array[blockIdx.x] += 1
        dst[blockIdx.x * blockDim.x + threadIdx.x] = tally_array[blockIdx.x]

    return k


def _numpy_array_in_place():
    host_hits = _holder["host_hits"] = np.zeros(8)

    @kernel
    def k(dst):
        host_hits[blockIdx.x] += 1
        dst[blockIdx.x * blockDim.x + threadIdx.x] = host_hits[blockIdx.x]

    return k


def _pointer_moved():
    """A Pointer is an immutable value (assigning its offset raises); moving one the kernel
    shares is rebinding a closure variable."""
    cursor_ptr = Pointer.from_array(np.zeros(64), "cursor")
    _holder["cursor_offset"] = lambda: int(cursor_ptr.offset)

    @kernel
    def k(dst):
        nonlocal cursor_ptr
        cursor_ptr = cursor_ptr + 1
        dst[blockIdx.x * blockDim.x + threadIdx.x] = cursor_ptr.offset

    return k


STATE_CASES = [
    StateCase("module attribute", _module_attribute, lambda: STATE.counter,
              ("escape_state", "counter"), lambda g, w: g * w),
    StateCase("global int", _global_int, lambda: ESCAPE_COUNT, ("ESCAPE_COUNT",),
              lambda g, w: g * w),
    StateCase("function attribute", _function_attribute, lambda: bump_helper.calls,
              ("bump_helper", "calls"), lambda g, w: g * w),
    StateCase("class attribute", _class_attribute, lambda: Tally.n, ("Tally",),
              lambda g, w: g * w),
    StateCase("random.random", _python_random, lambda: zlib.crc32(repr(
        random.getstate()).encode()), ("random",)),
    StateCase("numpy Generator", _numpy_generator,
              lambda: repr(_holder["draws_rng"].bit_generator.state), ("draws_rng", "Generator")),
    StateCase("numpy Generator sized by len", _numpy_generator_per_lane,
              lambda: repr(_holder["draws_rng"].bit_generator.state), ("draws_rng", "Generator")),
    StateCase("itertools.count", _itertools_count, lambda: next(_holder["ticket_counter"]),
              ("ticket_counter", "itertools.count"), lambda g, w: g * w),
    StateCase("deque", _deque_append, lambda: list(_holder["wave_log"]), ("wave_log", "deque"),
              lambda g, w: [b for b in range(g) for _ in range(w)]),
    StateCase("bytearray", _bytearray_written, lambda: bytes(_holder["hit_bytes"]),
              ("hit_bytes", "bytearray"), lambda g, w: bytes([w] * g + [0] * (8 - g))),
    StateCase("array.array", _array_module_array, lambda: _holder["tally_array"].tolist(),
              ("tally_array", "array.array"), lambda g, w: [w] * g + [0] * (8 - g)),
    StateCase("numpy array", _numpy_array_in_place, lambda: _holder["host_hits"].tolist(),
              ("host_hits",), lambda g, w: [float(w)] * g + [0.0] * (8 - g)),
    StateCase("Pointer", _pointer_moved, lambda: _holder["cursor_offset"](),
              ("cursor_ptr", "'cursor'"), lambda g, w: g * w),
]
STATE_LAUNCHES = [("gfx942", 2, 2), ("gfx1100", 1, 4), ("gfx1201", 3, 2)]


def _state_run(case, arch, wpb, grid, mode, workers=None):
    w = WAVES[arch]
    k = case.make()
    (dst,), error = launch(k, grid, wpb * w, arch, [np.zeros(grid * wpb * w)], mode, workers)
    return dst, error, case.state()


def _waves(dst, arch) -> str:
    """The outputs compactly: each wave's first lane, and a checksum of all."""
    return f"{dst.reshape(-1, WAVES[arch])[:, 0].tolist()} (crc {zlib.crc32(dst.tobytes())})"


def _names_object(error, case) -> bool:
    return error is not None and any(re.search(rf"(?<!\w){re.escape(name)}(?!\w)",
                                               error[1]) for name in case.names)


@pytest.mark.parametrize("launch_shape", STATE_LAUNCHES, ids=lambda s: f"{s[0]}-{s[1]}w-{s[2]}b")
@pytest.mark.parametrize("case", STATE_CASES, ids=repr)
def test_python_state_ends_as_per_wave_or_is_refused(case, launch_shape):
    arch, wpb, grid = launch_shape
    ref_dst, ref_error, ref_state = _state_run(case, arch, wpb, grid, "wave")
    assert ref_error is None
    if case.expect is not None:  # the per-wave engine: one update per wave
        assert ref_state == case.expect(grid, wpb)
    dst, error, state = _state_run(case, arch, wpb, grid, "batch")
    if _names_object(error, case):
        return  # refused, naming the object
    assert error == ref_error, f"batch raised {error} (an error must name {case.names})"
    assert state == ref_state, (f"state after the batch: {repr(state)[:160]}, per wave: "
                                f"{repr(ref_state)[:160]}")
    assert dst.tobytes() == ref_dst.tobytes(), (
        f"outputs per wave: {_waves(dst, arch)}, per-wave engine {_waves(ref_dst, arch)}")


@pytest.mark.parametrize("case", STATE_CASES, ids=repr)
def test_python_state_with_workers(case):
    """Spread over worker processes, objects change in the workers only (documented): the
    batched engine must end as the serial per-wave engine, or as the per-wave engine under
    the same workers, or refuse naming the object."""
    arch, wpb, grid = "gfx942", 1, 6
    serial = _state_run(case, arch, wpb, grid, "wave")
    spread = _state_run(case, arch, wpb, grid, "wave", workers=2)
    dst, error, state = _state_run(case, arch, wpb, grid, "workers")
    if _names_object(error, case):
        return
    got = (dst.tobytes(), error, state)
    assert got in [(ref[0].tobytes(), ref[1], ref[2]) for ref in (serial, spread)], (
        f"batched with workers: outputs {_waves(dst, arch)}, {error}, state {state!r}; per "
        f"wave serial: {_waves(serial[0], arch)}, {serial[1]}, {serial[2]!r}; per wave with "
        f"workers: {_waves(spread[0], arch)}, {spread[1]}, {spread[2]!r}")
