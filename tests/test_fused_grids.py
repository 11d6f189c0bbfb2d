"""The CDNA3 fused dot forms a batch's outer products grid by grid where its waves pair
shared A and B tiles as a GEMM's do (`silicon_fused._Pairs`): the grids found hold every
tile once with the A and B tiles it takes, batches that are not grids are refused, and
every output equals, bit for bit, the same batch's without shared tiles (one tile a grid),
sampled outputs the scalar reference (tests/silicon_reference.py)."""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from test_silicon_speedpaths import (
    FORMATS,
    KINDS,
    accumulator,
    assert_shared_samples,
    decoded,
    operand,
)

from rocwmma_py.arch import silicon_fused
from rocwmma_py.arch.numerics import Shared

pytestmark = pytest.mark.smoke

TILE = 16  # rows shorter than silicon_fused._SHORT_ROW: the grids' case


def gemm_pairs(rng, blocks: int, rows: int, cols: int, stagger: bool = False):
    """(at_a, at_b) of a GEMM batch in a random wave order, its tiles numbered at random:
    `blocks` blocks of rows x cols waves, block z pairing its own A tiles with B tiles
    z*cols.. (`stagger`: B tiles z*(cols-1).., so neighbouring blocks share one)."""
    z, i, j = np.meshgrid(np.arange(blocks), np.arange(rows), np.arange(cols), indexing="ij")
    at_a = rng.permutation(blocks * rows)[(z * rows + i).reshape(-1)]
    at_b = (z * (cols - 1 if stagger else cols) + j).reshape(-1)
    at_b = rng.permutation(at_b.max() + 1)[at_b]
    order = rng.permutation(at_a.size)
    return at_a[order], at_b[order]


def grids_of(at_a, at_b, budget: int):
    return silicon_fused._grids(np.asarray(at_a, np.int64).tobytes(),
                                np.asarray(at_b, np.int64).tobytes(), budget)


@pytest.mark.parametrize(("blocks", "rows", "cols", "stagger", "budget"), [
    (1, 32, 16, False, 4096), (1, 32, 16, False, 128), (8, 2, 4, False, 1000),
    (3, 5, 3, False, 7), (4, 3, 4, True, 1000), (2, 6, 4, False, 3), (1, 1, 9, False, 4)])
def test_grids_hold_every_tile_once(blocks, rows, cols, stagger, budget):
    rng = np.random.default_rng(blocks * 100 + rows * 10 + cols)
    at_a, at_b = gemm_pairs(rng, blocks, rows, cols, stagger)
    pairs = grids_of(at_a, at_b, budget)
    assert pairs is not None
    tiles = pairs.tile_of
    assert np.array_equal(np.sort(tiles.reshape(-1)), np.arange(at_a.size))
    assert np.array_equal(at_a[tiles], np.broadcast_to(pairs.a_at[:, :, None], tiles.shape))
    assert np.array_equal(at_b[tiles], np.broadcast_to(pairs.b_at[:, None, :], tiles.shape))
    assert tiles[0].size <= budget
    assert tiles.shape[2] == max(d for d in range(1, cols + 1) if cols % d == 0 and d <= budget)
    assert not any(x.flags.writeable for x in pairs)  # (kept by the cache)


@pytest.mark.parametrize(("at_a", "at_b"), [
    ([0, 0, 1, 1, 1], [0, 1, 0, 1, 2]),  # A tiles meeting different numbers of B tiles
    ([0, 0, 1, 1, 0], [0, 1, 0, 1, 0]),  # a pair of tiles taken twice
    ([0, 1, 2, 3], [0, 0, 1, 1]),  # each A tile meets one B tile
    ([0, 0, 1, 1, 2, 2], [0, 1, 0, 1, 2, 3]),  # B sets met by different numbers of A tiles
])
def test_batches_that_are_not_grids_are_refused(at_a, at_b):
    assert grids_of(np.array(at_a), np.array(at_b), 100) is None
    pairs = silicon_fused._Pairs.of(np.array(at_a), np.array(at_b), (TILE, TILE, 8), False)
    assert pairs.tile_of is None


def test_grids_only_where_rows_are_short_and_values_plain():
    at_a, at_b = gemm_pairs(np.random.default_rng(0), 1, 4, 4)
    assert silicon_fused._Pairs.of(at_a, at_b, (TILE, TILE, 16), False).tile_of is not None
    assert silicon_fused._Pairs.of(at_a, at_b, (32, 32, 16), False).tile_of is None
    assert silicon_fused._Pairs.of(at_a, at_b, (TILE, TILE, 16), True).tile_of is None
    assert silicon_fused._Pairs.of(at_a, None, (TILE, TILE, 16), False).tile_of is None


def shared_batch(rng, a_fmt, b_fmt, k, data, blocks, rows, cols):
    """Bits and decoded values of distinct tiles, a GEMM's pairs of them, C bits."""
    at_a, at_b = gemm_pairs(rng, blocks, rows, cols)
    bits = [operand(rng, fmt, (count, *shape), data) for fmt, count, shape in
            ((a_fmt, blocks * rows, (TILE, k)), (b_fmt, blocks * cols, (k, TILE)))]
    dist = [decoded(x, fmt) for x, fmt in zip(bits, (a_fmt, b_fmt), strict=True)]
    c = accumulator(rng, (at_a.size, TILE, TILE), data)
    return bits, dist, (at_a, at_b), c


@pytest.fixture
def grid_calls(monkeypatch):
    """How many `fused_dot` calls ran grid by grid (a test meaning to use grids fails when
    they stop being used)."""
    calls = []
    to_grid = silicon_fused._Pairs.to_grid

    def counting(self, c3):
        calls.append(self.tile_of is not None)
        return to_grid(self, c3)

    monkeypatch.setattr(silicon_fused._Pairs, "to_grid", counting)
    return calls


@pytest.mark.parametrize("data", ["normal", "sparse", "tiny", "deep", "bits"])
@pytest.mark.parametrize(("a_fmt", "b_fmt", "group", "halves"), KINDS)
@pytest.mark.parametrize(("blocks", "rows", "cols"), [(1, 6, 4), (5, 2, 3)])
def test_grids_equal_single_tiles_and_the_reference(a_fmt, b_fmt, group, halves, data, blocks,
                                                    rows, cols, grid_calls, monkeypatch):
    """Every family-3 type and data kind, K a group and a half (a partial last group), grids
    cut by a small chunk budget; operands with NaN or inf ("bits") go tile by tile."""
    k = group + group // 2 + 1
    monkeypatch.setattr(silicon_fused, "_CHUNK_TERMS", TILE * TILE * k * 5)
    rng = np.random.default_rng(zlib.crc32(f"{a_fmt} {b_fmt} {data} {blocks}".encode()))
    bits, dist, ats, c = shared_batch(rng, a_fmt, b_fmt, k, data, blocks, rows, cols)
    a, b = (np.take(x, at, axis=0) for x, at in zip(dist, ats, strict=True))
    kwargs = dict(group=group, split=halves, a_min_exp=FORMATS[a_fmt][3],
                  b_min_exp=FORMATS[b_fmt][3])
    plain = silicon_fused.fused_dot(a, b, c.view(np.float32), **kwargs)
    got = silicon_fused.fused_dot(a, b, c.view(np.float32), **kwargs, shared=(
        Shared(a, dist[0], ats[0]), Shared(b, dist[1], ats[1])))
    assert grid_calls == [False, data != "bits"]
    assert np.array_equal(got.view(np.uint32), plain.view(np.uint32))
    assert_shared_samples(rng, got, bits, ats, c, a_fmt, b_fmt, group, halves, 60)


def test_grids_keep_a_non_finite_accumulator(grid_calls):
    """Finite operands and C holding inf, -inf, NaN and -0: those outputs stay as the
    single-tile path leaves them (d plus a finite sum), the others are the sums."""
    rng = np.random.default_rng(7)
    bits, dist, ats, c = shared_batch(rng, "f16", "f16", 16, "normal", 2, 3, 4)
    c32 = c.view(np.float32)
    c32.reshape(-1)[rng.choice(c.size, 40, replace=False)] = np.resize(
        np.array([np.inf, -np.inf, np.nan, -0.0], np.float32), 40)
    a, b = (np.take(x, at, axis=0) for x, at in zip(dist, ats, strict=True))
    kwargs = dict(group=8, split=False, a_min_exp=-14, b_min_exp=-14)
    plain = silicon_fused.fused_dot(a, b, c32, **kwargs)
    got = silicon_fused.fused_dot(a, b, c32, **kwargs, shared=(
        Shared(a, dist[0], ats[0]), Shared(b, dist[1], ats[1])))
    assert grid_calls == [False, True]
    assert np.array_equal(got.view(np.uint32), plain.view(np.uint32))
    assert np.array_equal(np.isinf(got), np.isinf(c32)) and np.isnan(got).sum() == 10
