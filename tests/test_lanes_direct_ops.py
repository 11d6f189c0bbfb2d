"""Lanes' direct operators (Python int/float and same-axis Lanes operands skip numpy's
dispatch) give exactly what the ufunc gives on the data, NEP 50 dtypes included, and every
other operand takes the general path with the same answer."""

from __future__ import annotations

import operator

import ml_dtypes
import numpy as np
import pytest

from rocwmma_py.runtime.lanes import Lanes, batch_data

OPS = [operator.add, operator.sub, operator.mul, operator.floordiv, operator.mod,
       operator.truediv, operator.lt, operator.le, operator.gt, operator.ge]
DATA = [np.arange(1, 65, dtype=np.int64), np.arange(1, 65, dtype=np.int32),
        np.linspace(0.5, 8.0, 64, dtype=np.float32),
        np.linspace(0.5, 8.0, 64).astype(ml_dtypes.bfloat16)]
OTHERS = [3, 2.5, "lanes", np.float32(1.5), np.int16(7), "plain array"]


def operand(other, data):
    if other == "lanes":
        return Lanes(data[::-1].copy()), data[::-1].copy()
    if other == "plain array":
        return data[::-1].copy(), data[::-1].copy()
    return other, other


@pytest.mark.parametrize("data", DATA, ids=lambda d: str(d.dtype))
@pytest.mark.parametrize("other", OTHERS, ids=str)
@pytest.mark.parametrize("op", OPS, ids=lambda f: f.__name__)
def test_direct_operators_match_the_ufunc(op, other, data):
    lanes_other, raw_other = operand(other, data)
    for swapped in (False, True):
        if swapped and op in (operator.lt, operator.le, operator.gt, operator.ge) \
                and other == "lanes":
            continue  # (reflected comparisons are the mirrored comparison: covered)
        with np.errstate(all="ignore"):
            want = op(raw_other, data) if swapped else op(data, raw_other)
            got = op(lanes_other, Lanes(data)) if swapped else op(Lanes(data), lanes_other)
        got = batch_data(got) if isinstance(got, Lanes) else got
        assert isinstance(got, np.ndarray) and got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def test_lanes_on_another_axis_take_the_general_path():
    """Lanes on different lane axes are the general path's case (outside a kernel: numpy's
    plain result, which the direct path would have wrapped as Lanes)."""
    rows = Lanes(np.arange(6).reshape(2, 3), lane_axis=-2)
    cols = Lanes(np.arange(3), lane_axis=-1)
    got = rows + cols
    assert type(got) is np.ndarray
    np.testing.assert_array_equal(got, np.arange(6).reshape(2, 3) + np.arange(3))
