"""Waves that load the same block share it: `Pointer.read_blocks` reads each distinct block
once (`Blocks`), a dense load decodes it once and remembers where every wave's copy came
from (`numerics.Shared`), and the exact model's certificate reads each distinct tile's
lines once. Checked against `np.unique`, against exact rational references, bit for bit
against the same batches without the shared tiles (chunked batches included), and in
kernels where the facts must be dropped (registers written after the load)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_exact_speedpaths import KINDS, TARGETS, expected, operands, same

from rocwmma_py import (
    accumulator,
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
    store_matrix_sync,
    use_engine,
    use_numerics,
)
from rocwmma_py import types as T
from rocwmma_py.arch import numerics
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
    a_mem, b_mem = a.ravel(), np.ascontiguousarray(b.T).ravel()
    wave = 64 if arch == "gfx942" else 32
    out = {}
    with use_numerics("exact"):
        for engine in ("wave", "batch"):
            d = np.full(size * size, np.nan, np.float32)
            with use_engine(engine):
                tile_gemm[(size // TILE, size // TILE), wave, 0, arch](
                    a_mem, b_mem, d, size, scale_a)
            out[engine] = d.reshape(size, size)
    assert shared_facts == [(not scale_a, True)] * (size // K_STEP)
    assert same(out["batch"], out["wave"])
    acc = np.zeros((1, size, size), np.float32)
    a64 = a.astype(np.float64)[None] * (2.0 if scale_a else 1.0)
    b64 = b.astype(np.float64)[None]
    for kk in range(0, size, K_STEP):
        acc = expected(a64[..., kk:kk + K_STEP], b64[:, kk:kk + K_STEP], acc, np.float32)
    assert same(out["batch"], acc[0])
