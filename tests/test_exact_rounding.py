"""The per-instruction sum is exact and rounded once, for any inputs: checked against exact
rational arithmetic (fractions) on random wide-range data, including cancellation and ties."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rocwmma_py import types as T
from rocwmma_py.arch.numerics import accumulate

pytestmark = pytest.mark.smoke


def _exact_rne(values: np.ndarray, t) -> np.ndarray:
    """Round exact rationals to the nearest value of format t (ties to even), by search over
    the format's neighbours of the float64 approximation (independent of the library)."""
    out = np.empty(len(values), T.storage_dtype(t))
    for n, v in enumerate(values):
        approx = np.asarray([float(v)]).astype(np.float32 if T.bits(t) == 32 else np.float64)
        cand = np.asarray(T.convert(approx, t))
        # neighbours: walk the integer bit pattern +-2
        bits = cand.view(f"u{cand.dtype.itemsize}").astype(np.int64)[0]
        pats = np.arange(bits - 2, bits + 3).astype(f"u{cand.dtype.itemsize}")
        near = pats.view(cand.dtype)
        near = near[np.isfinite(near.astype(np.float64))]
        dist = [abs(Fraction(float(x)) - v) for x in near.astype(np.float64)]
        best = min(dist)
        ties = [x for x, d in zip(near, dist, strict=True) if d == best]
        even = [x for x in ties if int(np.asarray(x).view(f"u{cand.dtype.itemsize}")) % 2 == 0]
        out[n] = (even or ties)[0]
    return out


def _fractions(x: np.ndarray) -> list[Fraction]:
    return [Fraction(float(v)) for v in x.ravel()]


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([T.float32, T.float16, T.bfloat16]),
    st.sampled_from([T.float16, T.bfloat16, T.float32]),
    st.integers(0, 2**32 - 1),
    st.integers(2, 16),
)
def test_sum_is_rounded_once(acc, src, seed, k):
    rng = np.random.default_rng(seed)
    shape_a, shape_b = (4, k), (k, 4)
    # wide exponent range, random signs: products spanning far more than 53 bits
    span = 6 if T.float16 in (src, acc) else 40  # keep f16 results finite
    a = T.convert(rng.standard_normal(shape_a) * 2.0 ** rng.integers(-span, span, shape_a), src)
    b = T.convert(rng.standard_normal(shape_b) * 2.0 ** rng.integers(-span, span, shape_b), src)
    c = T.convert(rng.standard_normal((4, 4)), acc).astype(np.float64)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    b64[:, 0] = -b64[:, 1]  # column 0 cancels column 1's products exactly
    got = accumulate(a64, b64, c, acc)
    fa, fb, fc = _fractions(a64), _fractions(b64), _fractions(c)
    exact = [fc[i * 4 + j] + sum(fa[i * k + q] * fb[q * 4 + j] for q in range(k))
             for i in range(4) for j in range(4)]
    expected = _exact_rne(np.array(exact, dtype=object), acc).reshape(4, 4)
    assert got.tobytes() == expected.tobytes()


@pytest.mark.parametrize("acc", [T.float32, T.float16, T.bfloat16])
def test_exact_tie_and_sticky_bit(acc):
    one_ulp = {T.float32: 2.0**-23, T.float16: 2.0**-10, T.bfloat16: 2.0**-7}[acc]
    a = np.array([[1.0, one_ulp / 2, 2.0**-100]])
    b = np.ones((3, 1))
    c = np.zeros((1, 1))
    # 1 + half an ulp + a speck above: rounds up although float64 alone would see a tie
    assert float(accumulate(a, b, c, acc)[0, 0]) == 1.0 + one_ulp
    a[0, 2] = -(2.0**-100)  # a speck below the tie: rounds down
    assert float(accumulate(a, b, c, acc)[0, 0]) == 1.0
    a[0, 2] = 0.0  # an exact tie: to even
    assert float(accumulate(a, b, c, acc)[0, 0]) == 1.0
