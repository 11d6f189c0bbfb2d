"""Non-finite inputs stay in their own rows and columns through the fragment API (issue 10):
mma_sync on gfx90a with f32 fragments, one 16x16x4 MFMA per mma_sync (BlockK = 4)."""

from __future__ import annotations

import numpy as np
import pytest
from gemm_kernels import WAVE_SIZE, mma_store

from rocwmma_py import col_major, float32, row_major

# the exact model's IEEE isolation of non-finite inputs (the silicon's differs: FMA chains
# and bf16 products overflow inside an instruction, a gfx90a subnormal times inf is NaN)
pytestmark = [pytest.mark.smoke, pytest.mark.numerics("exact")]


def run_mma_sync(arch: str, a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """D = A (16xK, row_major) * B (Kx16, col_major) + C (16x16, col_major), BlockK = K."""
    k = a.shape[1]
    fn = mma_store(16, 16, k, float32, float32, row_major, col_major, col_major)
    a_mem, b_mem = np.ascontiguousarray(a).ravel(), np.ascontiguousarray(b.T).ravel()
    c_mem = np.ascontiguousarray(c.T).ravel()
    d_mem = np.zeros_like(c_mem)
    fn[1, WAVE_SIZE[arch], 0, arch](k, a_mem, b_mem, c_mem, d_mem, k, k, 16, 16)
    return d_mem.reshape(16, 16).T


@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan])
def test_nonfinite_row_leaves_other_rows_exact(bad):
    """Issue 10 repro: A row 0 holds a non-finite value; row 1's products 2**60, 1, -2**60 sum
    exactly to 1 (a plain float64 sum gives 0). Column 5 meets the bad value with B = 0."""
    a = np.zeros((16, 4), np.float32)
    a[0, 0] = bad
    a[1, :3] = [2.0**30, 1.0, -(2.0**30)]
    b = np.zeros((4, 16), np.float32)
    b[:3, :] = np.array([2.0**30, 1.0, 2.0**30])[:, None]
    b[0, 5] = 0.0  # Inf * 0 = NaN
    d = run_mma_sync("gfx90a", a, b, np.zeros((16, 16), np.float32))
    others = np.arange(16) != 5
    if np.isnan(bad):
        assert np.isnan(d[0]).all()
    else:
        assert np.all(d[0, others] == bad) and np.isnan(d[0, 5])
    assert np.all(d[1, others] == 1.0)
    assert d[1, 5] == -(2.0**60)  # 0 + 1 - 2**60 exactly, rounded once to f32
    assert not np.any(d[2:])


def test_nonfinite_c_element_only_poisons_itself():
    a = np.zeros((16, 4), np.float32)
    a[:, :3] = [2.0**30, 1.0, -(2.0**30)]
    b = np.zeros((4, 16), np.float32)
    b[:3, :] = np.array([2.0**30, 1.0, 2.0**30])[:, None]
    c = np.zeros((16, 16), np.float32)
    c[3, 7] = np.nan
    d = run_mma_sync("gfx90a", a, b, c)
    assert np.isnan(d[3, 7])
    mask = np.ones((16, 16), bool)
    mask[3, 7] = False
    assert np.all(d[mask] == 1.0)
