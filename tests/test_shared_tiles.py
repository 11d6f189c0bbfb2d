"""Waves that load the same block share it: `Pointer.read_blocks` reads each distinct block
once (`Blocks`), a dense load decodes it once and remembers where every wave's copy came
from (`numerics.Shared`), and the exact model's certificate reads each distinct tile's
lines once. Checked against `np.unique`, against exact rational references, bit for bit
against the same batches without the shared tiles (chunked batches included), and in
kernels where the facts must be dropped (registers written after the load)."""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_exact_speedpaths import KINDS, TARGETS, expected, operands, same
from test_silicon_speedpaths import DATA as SILICON_DATA
from test_silicon_speedpaths import FORMATS as SILICON_FORMATS
from test_silicon_speedpaths import KINDS as SILICON_KINDS
from test_silicon_speedpaths import accumulator as silicon_accumulator
from test_silicon_speedpaths import assert_shared_samples
from test_silicon_speedpaths import decoded as silicon_decoded
from test_silicon_speedpaths import operand as silicon_operand

from rocwmma_py import (
    accumulator,
    apply_data_layout,
    apply_transpose,
    blockIdx,
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
    shared_array,
    store_matrix_sync,
    synchronize_workgroup,
    threadIdx,
    use_engine,
    use_numerics,
)
from rocwmma_py import types as T
from rocwmma_py.arch import numerics, silicon_fused
from rocwmma_py.arch.numerics import Shared, accumulate
from rocwmma_py.runtime.distinct import positions

pytestmark = pytest.mark.smoke


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(-5, 40), min_size=1, max_size=70))
def test_positions_agree_with_unique(values):
    x = np.array(values, np.int64)
    distinct, at = positions(x)
    if at is None:
        assert np.array_equal(distinct, x) and np.unique(x).size == x.size
    else:
        want, inverse = np.unique(x, return_inverse=True)
        assert np.array_equal(distinct, want) and np.array_equal(at, inverse.reshape(-1))


def shared_batch(rng, kind: str, waves: int, m: int, n: int, k: int, kinds: tuple[int, int]):
    """Operands of `waves` tiles gathered from kinds[0] distinct A tiles and kinds[1]
    distinct B tiles (each used at least once), with their `Shared` facts, and C."""
    dist_a, dist_b, _ = operands(rng, kind, max(kinds), m, n, k)
    dist_a, dist_b = dist_a[:kinds[0]], dist_b[:kinds[1]]
    c = operands(rng, kind, waves, m, n, k)[2]
    ats = [rng.permutation(np.resize(np.arange(u), waves)) for u in kinds]
    a, b = np.take(dist_a, ats[0], axis=0), np.take(dist_b, ats[1], axis=0)
    return a, b, c, Shared(a, dist_a, ats[0]), Shared(b, dist_b, ats[1])


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("acc", list(TARGETS))
def test_shared_tiles_give_the_exact_sums(kind, acc):
    """Every data kind and target: the same bits as the rational reference and as the batch
    without its shared facts; A alone, B alone or both shared."""
    rng = np.random.default_rng(KINDS.index(kind))
    a, b, c, sa, sb = shared_batch(rng, kind, 9, 4, 5, 16, (3, 2))
    if acc is not T.float32:
        c = T.convert(c, acc).astype(np.float32)
    want = expected(a, b, c, TARGETS[acc])
    assert same(accumulate(a, b, c, acc), want)
    for shared in ((sa, sb), (sa, None), (None, sb)):
        assert same(accumulate(a, b, c, acc, shared=shared), want), (kind, shared)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("acc", list(TARGETS))
def test_column_major_shared_b_gives_the_exact_sums(kind, acc):
    """B's tiles column-major views of column-major distinct tiles (perf_hgemm's transposed
    LDS fragment): made row-major from the distinct tiles (`_row_major_shared`), the same
    bits as the rational reference."""
    rng = np.random.default_rng(KINDS.index(kind) + 50)
    a, b, c, sa, sb = shared_batch(rng, kind, 9, 4, 5, 16, (3, 2))
    if acc is not T.float32:
        c = T.convert(c, acc).astype(np.float32)
    dist = np.ascontiguousarray(sb.distinct.transpose(0, 2, 1)).transpose(0, 2, 1)
    b_cm = np.ascontiguousarray(b.transpose(0, 2, 1)).transpose(0, 2, 1)
    facts = Shared(b_cm, dist, sb.at)
    taken, (_, rows) = numerics._row_major_shared(b_cm, (None, facts))
    assert taken.flags.c_contiguous and np.array_equal(taken, b) and rows.values is taken
    want = expected(a, b, c, TARGETS[acc])
    for shared in ((sa, facts), (None, facts)):
        assert same(accumulate(a, b_cm, c, acc, shared=shared), want), (kind, shared)


def lossy_tiles(waves: int, bad_waves: np.ndarray):
    """A batch where float64 loses the bit that decides the f32 rounding: distinct A tile 2
    holds the row (2**30, 2**6, 2**-30, 0, ...), whose exact sum with a column of ones lies
    just above an f32 midpoint while float64's sits on it; tiles 0 and 1 hold small
    integers (certified). Only `bad_waves` use tile 2."""
    rng = np.random.default_rng(3)
    dist_a = rng.integers(-3, 4, (3, 4, 16)).astype(np.float64)
    dist_a[2, 1] = 0.0
    dist_a[2, 1, :3] = 2.0**30, 2.0**6, 2.0**-30
    dist_b = np.ones((2, 16, 4))
    at_a = np.arange(waves) % 2
    at_a[bad_waves] = 2
    at_b = np.arange(waves) // 3 % 2
    a, b = np.take(dist_a, at_a, axis=0), np.take(dist_b, at_b, axis=0)
    c = np.zeros((waves, 4, 4), np.float32)
    return a, b, c, Shared(a, dist_a, at_a), Shared(b, dist_b, at_b)


@pytest.mark.parametrize("chunk", [None, 48])
def test_each_wave_gets_its_own_tiles_lines(chunk, monkeypatch):
    """The lossy row in the last waves only, in one batch and in chunks (`_CHUNK` made
    small: the lines of the chunk, not of the batch's first waves)."""
    if chunk is not None:
        monkeypatch.setattr(numerics, "_CHUNK", chunk)
    a, b, c, sa, sb = lossy_tiles(9, np.array([7, 8]))
    want = expected(a, b, c, np.float32)
    assert float(want[8, 1, 0]) == 2.0**30 + 2.0**7  # (rounded up, past the midpoint)
    assert same(accumulate(a, b, c, T.float32, shared=(sa, sb)), want)


def test_facts_of_other_values_are_ignored():
    """`Shared` facts whose values are not the operand (a copy) are not used: tiles changed
    behind them cannot leak into the certificate."""
    a, b, c, sa, sb = lossy_tiles(4, np.arange(4))
    lying = Shared(a.copy(), np.ones_like(sa.distinct), sa.at)  # certified lines
    got = accumulate(a, b, c, T.float32, shared=(lying, sb))
    assert same(got, expected(a, b, c, np.float32))


TILE, K_STEP = 32, 16
FragA = fragment[matrix_a, TILE, TILE, K_STEP, float16, row_major]
FragB = fragment[matrix_b, TILE, TILE, K_STEP, float16, col_major]
FragAcc = fragment[accumulator, TILE, TILE, K_STEP, float32]


@kernel
def tile_gemm(a, b, d, size, scale_a):
    """One TILE x TILE output tile per wave; blocks of a row share every A tile, blocks of a
    column every B tile. `scale_a`: A's registers are doubled after each load."""
    row, col = blockIdx.x * TILE, blockIdx.y * TILE
    acc, fa, fb = FragAcc(), FragA(), FragB()
    fill_fragment(acc, 0.0)
    for kk in range(0, size, K_STEP):
        load_matrix_sync(fa, a + row * size + kk, size)
        load_matrix_sync(fb, b + col * size + kk, size)
        if scale_a:
            fa.x[...] = fa.x * np.float16(2)
        mma_sync(acc, fa, fb, acc)
    store_matrix_sync(d + row * size + col, acc, size, mem_row_major)


@pytest.fixture
def shared_facts(monkeypatch) -> list[tuple[bool, bool]]:
    """For each `accumulate` that read lines from shared tiles: whether A's and B's facts
    were used."""
    seen: list[tuple[bool, bool]] = []
    real = numerics._shared_quanta

    def spy(a, b, shape, shared_a, shared_b):
        lines = real(a, b, shape, shared_a, shared_b)
        if lines is not None:
            seen.append((shared_a is not None and shared_a.values is a,
                         shared_b is not None and shared_b.values is b))
        return lines

    monkeypatch.setattr(numerics, "_shared_quanta", spy)
    return seen


def both_engines(gemm, arch: str, numerics: str, a: np.ndarray, b: np.ndarray, *args
                 ) -> tuple[np.ndarray, np.ndarray]:
    """D (size x size f32) of `gemm[grid, wave, 0, arch](a, b (col-major), d, size, *args)`
    on the batched engine and on the per-wave engine, which shares nothing."""
    size = a.shape[0]
    wave = 32 if arch == "gfx1100" else 64
    a_mem, b_mem = a.ravel(), np.ascontiguousarray(b.T).ravel()
    out = []
    with use_numerics(numerics):
        for engine in ("batch", "wave"):
            d = np.full(size * size, np.nan, np.float32)
            with use_engine(engine):
                gemm[(size // TILE, size // TILE), wave, 0, arch](a_mem, b_mem, d, size, *args)
            out.append(d.reshape(size, size))
    return out[0], out[1]


def exact_chain(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The rational reference of a K_STEP chain: each step's exact sum (float64 A, B) plus
    the accumulator, rounded once to f32."""
    size = a.shape[0]
    acc = np.zeros((1, size, size), np.float32)
    for kk in range(0, a.shape[1], K_STEP):
        acc = expected(a[None, :, kk:kk + K_STEP], b[None, kk:kk + K_STEP], acc, np.float32)
    return acc[0]


@pytest.mark.parametrize("scale_a", [False, True])
@pytest.mark.parametrize("arch", ["gfx942", "gfx1100"])
def test_a_gemm_of_shared_tiles(arch, scale_a, shared_facts):
    """Random normal f16 with tiny and subnormal values (uncertified lines): the batch (each
    A and B tile shared by two waves) gives each step's exact sum rounded once to f32, as
    the rational reference and the per-wave engine (no sharing) do; A's facts are dropped
    when its registers are written after the load."""
    size = 64
    rng = np.random.default_rng(11)
    a = rng.standard_normal((size, size)).astype(np.float16)
    b = rng.standard_normal((size, size)).astype(np.float16)
    a[rng.random(a.shape) < 0.02] = np.float16(2.0**-24)
    b[rng.random(b.shape) < 0.02] = np.float16(-(2.0**-17))
    batch, per_wave = both_engines(tile_gemm, arch, "exact", a, b, scale_a)
    assert shared_facts == [(not scale_a, True)] * (size // K_STEP)
    assert same(batch, per_wave)
    scale = 2.0 if scale_a else 1.0
    assert same(batch, exact_chain(a.astype(np.float64) * scale, b.astype(np.float64)))


@pytest.mark.parametrize("data", SILICON_DATA)
@pytest.mark.parametrize(("a_fmt", "b_fmt", "group", "halves"), SILICON_KINDS)
def test_cdna3_fused_dot_reads_shared_tiles(a_fmt, b_fmt, group, halves, data, monkeypatch):
    """The fused dot's ranges and exponent weights from distinct tiles: every output equal
    to the same batch's without them, and sampled outputs to the scalar reference (every
    family-3 type, special values, zeros, subnormals; chunks of tiles)."""
    monkeypatch.setattr(silicon_fused, "_CHUNK_TERMS", 700)
    rng = np.random.default_rng(zlib.crc32(f"{a_fmt} {b_fmt} {data}".encode()))
    waves, m, k, n = 7, 4, group + group // 2 + 1, 4
    bits = [silicon_operand(rng, fmt, (3, *shape), data)
            for fmt, shape in ((a_fmt, (m, k)), (b_fmt, (k, n)))]
    ats = [rng.permutation(np.resize(np.arange(3), waves)) for _ in range(2)]
    dist = [silicon_decoded(x, fmt) for x, fmt in zip(bits, (a_fmt, b_fmt), strict=True)]
    a, b = (np.take(x, at, axis=0) for x, at in zip(dist, ats, strict=True))
    c = silicon_accumulator(rng, (waves, m, n), data)
    kwargs = dict(group=group, split=halves, a_min_exp=SILICON_FORMATS[a_fmt][3],
                  b_min_exp=SILICON_FORMATS[b_fmt][3])
    plain = silicon_fused.fused_dot(a, b, c.view(np.float32), **kwargs)
    got = silicon_fused.fused_dot(a, b, c.view(np.float32), **kwargs, shared=(
        Shared(a, dist[0], ats[0]), Shared(b, dist[1], ats[1])))
    assert np.array_equal(got.view(np.uint32), plain.view(np.uint32))
    assert_shared_samples(rng, got, bits, ats, c, a_fmt, b_fmt, group, halves, 40)


FragA32 = fragment[matrix_a, TILE, TILE, 2 * K_STEP, float16, row_major]
FragB32 = fragment[matrix_b, TILE, TILE, 2 * K_STEP, float16, col_major]
FragAcc32 = fragment[accumulator, TILE, TILE, 2 * K_STEP, float32]


@kernel
def deep_tile_gemm(a, b, d, size):
    """`tile_gemm` with BlockK 32: two chained instructions per mma_sync (their K orders
    interleave the fragment's K on CDNA)."""
    row, col = blockIdx.x * TILE, blockIdx.y * TILE
    acc, fa, fb = FragAcc32(), FragA32(), FragB32()
    fill_fragment(acc, 0.0)
    for kk in range(0, size, 2 * K_STEP):
        load_matrix_sync(fa, a + row * size + kk, size)
        load_matrix_sync(fb, b + col * size + kk, size)
        mma_sync(acc, fa, fb, acc)
    store_matrix_sync(d + row * size + col, acc, size, mem_row_major)


@pytest.mark.parametrize(("arch", "numerics"), [("gfx942", "silicon"), ("gfx942", "exact"),
                                                ("gfx90a", "silicon"), ("gfx1100", "exact")])
@pytest.mark.parametrize("data", ["normal", "integers"])
def test_chained_instructions_read_their_part_of_the_shared_tiles(arch, numerics, data):
    """Every model, K split over chained instructions (the shared facts sliced per
    instruction; integer data collapses the chain into one exact sum): the batch equals
    the per-wave engine, which shares nothing, bit for bit."""
    size = 64
    rng = np.random.default_rng(17)
    draw = (lambda: rng.integers(-3, 4, (size, size))) if data == "integers" else (
        lambda: rng.standard_normal((size, size)))
    a, b = draw().astype(np.float16), draw().astype(np.float16)
    batch, per_wave = both_engines(deep_tile_gemm, arch, numerics, a, b)
    assert same(batch, per_wave)
    if data == "integers":
        want = a.astype(np.int64) @ b.astype(np.int64)
        assert np.array_equal(batch, want.astype(np.float32))


FragBT = fragment[matrix_b, TILE, TILE, K_STEP, float16, col_major]


@kernel
def transposed_gemm(a, b, d, size, relayout):
    """`tile_gemm` with A loaded as the B fragment of its transpose, then `apply_transpose`
    (and `apply_data_layout` to col_major where `relayout`): the facts travel with the
    values."""
    row, col = blockIdx.x * TILE, blockIdx.y * TILE
    acc, fbt, fb = FragAcc(), FragBT(), FragB()
    fill_fragment(acc, 0.0)
    for kk in range(0, size, K_STEP):
        load_matrix_sync(fbt, a + row * size + kk, size)  # element (k, n): A[row + n, kk + k]
        load_matrix_sync(fb, b + col * size + kk, size)
        fa = apply_transpose(fbt)
        mma_sync(acc, apply_data_layout(fa, col_major) if relayout else fa, fb, acc)
    store_matrix_sync(d + row * size + col, acc, size, mem_row_major)


@pytest.mark.parametrize("relayout", [False, True])
@pytest.mark.parametrize("numerics", ["exact", "silicon"])
def test_transposed_shared_tiles(numerics, relayout, shared_facts):
    size = 64
    rng = np.random.default_rng(23)
    a = rng.standard_normal((size, size)).astype(np.float16)
    b = rng.standard_normal((size, size)).astype(np.float16)
    a[rng.random(a.shape) < 0.03] = np.float16(2.0**-24)
    batch, per_wave = both_engines(transposed_gemm, "gfx942", numerics, a, b, relayout)
    assert same(batch, per_wave)
    if numerics == "exact":
        assert shared_facts == [(True, True)] * (size // K_STEP)
        assert same(batch, exact_chain(a.astype(np.float64), b.astype(np.float64)))


FragLds = fragment[matrix_a, 16, 16, 16, float16, row_major]
FragLdsAcc = fragment[accumulator, 16, 16, 16, float32]


@kernel
def lds_shared_tile(src, b, out):
    """Each block's two waves put their own tiles in the block's LDS; both then load wave 0's
    tile (one LDS block for the two: shared) and multiply it by B; every block's LDS sits at
    the same local offsets (their segments differ: never shared across blocks)."""
    lds = shared_array(float16, 512)
    wave = threadIdx.x // 64
    mine, got, fb, acc = FragLds(), FragLds(), FragB16(), FragLdsAcc()
    load_matrix_sync(mine, src + (blockIdx.x * 2 + wave) * 256, 16)
    store_matrix_sync(lds + wave * 256, mine, 16)
    synchronize_workgroup()
    load_matrix_sync(got, lds, 16)
    load_matrix_sync(fb, b, 16)
    fill_fragment(acc, 0.0)
    mma_sync(acc, got, fb, acc)
    store_matrix_sync(out + (blockIdx.x * 2 + wave) * 256, acc, 16, mem_row_major)


FragB16 = fragment[matrix_b, 16, 16, 16, float16, col_major]


def test_lds_tiles_are_shared_within_a_block_only(shared_facts):
    blocks = 3
    rng = np.random.default_rng(29)
    src = rng.integers(-4, 5, blocks * 2 * 256).astype(np.float16)
    b = rng.integers(-4, 5, 256).astype(np.float16)  # column-major 16 x 16
    out = np.full(blocks * 2 * 256, np.nan, np.float32)
    with use_numerics("exact"):
        lds_shared_tile[blocks, 128, 0, "gfx942"](src, b, out)
    b_mat = b.reshape(16, 16).T.astype(np.int64)
    for block in range(blocks):
        tile = src[block * 512:block * 512 + 256].reshape(16, 16).astype(np.int64)
        for wave in range(2):
            got = out[(block * 2 + wave) * 256:(block * 2 + wave + 1) * 256].reshape(16, 16)
            assert np.array_equal(got, (tile @ b_mat).astype(np.float32)), (block, wave)
    assert shared_facts == [(True, True)]  # A: 3 distinct of 6 waves, B: 1 of 6
