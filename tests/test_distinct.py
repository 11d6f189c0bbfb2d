"""The sort-based dedup the runtime uses equals numpy's unique (values and first indices)."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from rocwmma_py.runtime.distinct import distinct, first_occurrences

INDICES = arrays(np.int64, st.integers(0, 300), elements=st.integers(-50, 50))


@given(INDICES)
def test_distinct_is_unique(values):
    np.testing.assert_array_equal(distinct(values), np.unique(values))


@given(INDICES)
def test_first_occurrences_is_unique_with_index(values):
    got, first = first_occurrences(values)
    want, want_first = np.unique(values, return_index=True)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(first, want_first)
