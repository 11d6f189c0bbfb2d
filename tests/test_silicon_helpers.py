"""The silicon models' array helpers against plain Python: magnitude ranges (the fused dot's
finiteness and work-dtype test) and operand exponents read from float64 or float32 bits."""

from __future__ import annotations

import math

import numpy as np
import pytest

from rocwmma_py.arch import silicon_common as SC

pytestmark = pytest.mark.smoke


def python_range(values: list[float]) -> tuple[float, float]:
    mags = [abs(v) for v in values]
    nonzero = [m for m in mags if m != 0 and not math.isnan(m)]
    top = math.nan if any(math.isnan(m) for m in mags) else max(mags, default=0.0)
    return min(nonzero, default=math.inf), top


@pytest.mark.parametrize("case", [
    [],
    [0.0, -0.0],
    [3.0, -0.5, 0.0, -0.0, 2.0**-1074, -2.0**-1022],
    [1.0, -np.inf, 2.0],
    [np.nan, 1.0, -np.inf],
    [-(2.0**1023), 5e-324],
])
def test_magnitude_range_against_python(case):
    got = SC.magnitude_range(np.array(case, np.float64).reshape(-1, 1)[:, [0, 0]].T)
    want = python_range(case)
    assert got[0] == want[0]
    assert (math.isnan(got[1]) and math.isnan(want[1])) or got[1] == want[1]


def test_magnitude_range_of_strided_random_data():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((7, 9, 11)) * 2.0 ** rng.integers(-60, 60, (7, 9, 11))
    x[rng.random(x.shape) < 0.2] = 0.0
    view = np.moveaxis(x, -1, 0)[::2]
    assert SC.magnitude_range(view) == python_range(view.reshape(-1).tolist())


def test_exponents_the_same_from_float32_and_float64():
    """floor(log2|x|) for normal values, the format's smallest normal exponent for its
    subnormals (here bf16's: float32 subnormals), -126 for zeros."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal(4096) * 2.0 ** rng.integers(-140, 120, 4096)
    x[::17] = 0.0
    x = x.astype(np.float32).astype(np.float64)
    want = [SC.ZERO_EXPONENT if v == 0 else max(math.floor(math.log2(abs(v))), -126)
            for v in x.tolist()]
    assert SC.exponents(x, -126).tolist() == want
    assert SC.exponents(x.astype(np.float32), -126).tolist() == want
