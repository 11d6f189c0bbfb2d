"""accumulate's integer paths (float64 BLAS below 2**53, int64 above) against Python-int
sums, and the absence of numpy RuntimeWarnings on valid inputs whose IEEE result is Inf/NaN
(issue 10, item 2)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from rocwmma_py import types as T
from rocwmma_py.arch import get_arch, numerics
from rocwmma_py.arch.models import EXACT, arithmetic, collapsed_chain
from rocwmma_py.arch.numerics import accumulate

pytestmark = pytest.mark.smoke


def python_sums(a, b, c) -> list[list[int]]:
    return [[int(c[i, j]) + sum(int(x) * int(y) for x, y in zip(a[i], b[:, j], strict=True))
             for j in range(b.shape[1])] for i in range(a.shape[0])]


def wrap32(v: int) -> int:
    return (v + 2**31) % 2**32 - 2**31


@pytest.mark.parametrize("magnitude", [2**25, 2**26 - 32, 2**26 - 1, 2**40])
@pytest.mark.parametrize("clamp", [False, True])
def test_integer_sums_on_both_sides_of_2_53(magnitude, clamp):
    """K = 2 products of |a| <= magnitude, |b| <= top, plus C: sums from about 2**51 to 2**62,
    so the float64 path (bound < 2**53) and the int64 path are both taken; int64 holds
    every sum exactly (|sum| < 2**63), as the clamp needs."""
    rng = np.random.default_rng(magnitude)
    top = min(magnitude, 2**61 // magnitude)
    a = rng.integers(-magnitude, magnitude + 1, (3, 2))
    b = rng.integers(-top, top + 1, (2, 3))
    a[0], b[:, 0] = magnitude, top  # reach the bound
    c = rng.integers(-(2**31), 2**31, (3, 3))
    got = accumulate(a, b, c, T.int32, clamp=clamp)
    exact = python_sums(a, b, c)
    want = [[min(max(v, -(2**31)), 2**31 - 1) if clamp else wrap32(v) for v in row]
            for row in exact]
    assert got.dtype == np.int32 and got.tolist() == want


def test_integer_batch_in_chunks_equals_per_tile(monkeypatch):
    """A batch cut into chunks of 2 tiles, each choosing its own path (one tile needs int64)."""
    monkeypatch.setattr(numerics, "_CHUNK", 2 * 9)
    rng = np.random.default_rng(5)
    a, b = rng.integers(-128, 128, (7, 3, 4)), rng.integers(-128, 128, (7, 4, 3))
    a[6, 0, 0], b[6, 0, 0] = 2**40, 2**20  # past 2**53: the int64 path for that chunk only
    c = rng.integers(-(2**31), 2**31, (7, 3, 3))
    got = accumulate(a, b, c, T.int32)
    for n in range(7):
        assert got[n].tolist() == [[wrap32(v) for v in row] for row in python_sums(a[n], b[n],
                                                                                  c[n])]


def test_no_runtime_warning_where_ieee_gives_inf_or_nan():
    big = np.array([[2.0**100, 2.0**100]])
    ones = np.ones((2, 1))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for acc in (T.float32, T.float16, T.bfloat16, T.float64):
            if acc is not T.float64:  # 2**201: overflow to inf
                assert np.isinf(accumulate(big, big.T, np.zeros((1, 1)), acc)).all()
            inf_zero = accumulate(np.array([[np.inf]]), np.zeros((1, 1)), np.zeros((1, 1)), acc)
            assert np.isnan(inf_zero.astype(np.float64)).all()  # Inf * 0
            inf_inf = accumulate(np.array([[np.inf, np.inf]]), np.array([[1.0], [-1.0]]),
                                 np.zeros((1, 1)), acc)
            assert np.isnan(inf_inf.astype(np.float64)).all()  # Inf - Inf
        instr = get_arch("gfx942").instructions["mfma_f32_16x16x16f16"]
        assert collapsed_chain(arithmetic(EXACT, instr), instr, big, ones,
                               np.array([[np.nan]]), T.float32) is None
        assert np.isinf(T.convert(np.array([1e300, -1e300]), T.float32)).all()
        assert np.isinf(T.convert(np.array([1e300]), T.xfloat32)).all()
        assert np.isinf(T.to_xfloat32(np.array([1e300]), "rne")).all()
        assert np.isinf(T.convert(np.array([1e6], np.float32), T.float16)).all()
