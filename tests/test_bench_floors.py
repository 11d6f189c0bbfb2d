"""benchmarks/bench_floors.py computes what its rows claim: the floors' GEMM tiles are the
product's tiles and the SIMT transliterations give softmax and RMS norm (else a floor could
time less work than the row it bounds)."""

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import bench_floors as F  # noqa: E402


@pytest.mark.parametrize("tile, staged", [(16, False), (64, False), (64, True)])
def test_exact_floor_tiles_are_the_product(tile, staged):
    g = F.Gemm(128, tile, staged)
    a, bt = F._operands(g)
    want = a.reshape(128, 128).astype(np.float64) @ bt.reshape(128, 128).T.astype(np.float64)
    got = F.exact_gemm_floor(g)()  # (tiles, tile, tile), tiles row-major over the grid
    per_side = 128 // tile
    got = got.reshape(per_side, per_side, tile, tile).transpose(0, 2, 1, 3).reshape(128, 128)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-3)


@pytest.mark.parametrize("tile, staged", [(16, False), (64, True)])
def test_silicon_floor_accumulates_the_product_through_its_truncated_groups(tile, staged):
    """The silicon floor's per-output passes are real: its D is A @ B within the fused
    dot's truncation (24 fraction bits below each group's largest exponent sum, per group
    and K step)."""
    g = F.Gemm(128, tile, staged)
    a, bt = F._operands(g)
    a64, b64 = a.reshape(128, 128).astype(np.float64), bt.reshape(128, 128).T.astype(np.float64)
    got = F.silicon_gemm_floor(g)()
    per_side = 128 // tile
    if tile >= F.SHORT_ROW:  # (else it computes grids of tiles in the output matrix itself)
        got = got.reshape(per_side, per_side, tile, tile).transpose(0, 2, 1, 3)
    got = got.reshape(128, 128)
    scale = np.abs(a64) @ np.abs(b64)
    assert np.max(np.abs(got - a64 @ b64) / scale) < 128 * 2.0**-21


def test_simt_floors_compute_softmax_and_rms_norm():
    x = np.random.default_rng(1).standard_normal((8, 256)).astype(np.float32)
    soft = F.softmax_floor(x)().reshape(x.shape)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(soft, e / e.sum(axis=1, keepdims=True), rtol=1e-5)
    norm = F.rms_norm_floor(x)().reshape(x.shape)
    np.testing.assert_allclose(norm, x / np.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-6),
                               rtol=1e-5)


def test_every_floor_row_names_a_bench_targets_row():
    import bench_targets

    for t in bench_targets.TARGETS:
        assert F.floor_for(t.workload, t.numerics) is not None, t.workload
