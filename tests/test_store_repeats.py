"""A batched store's repeated-address test (`memory._repeats`) against np.unique on address
sets of every shape the shortcuts see: translated wave patterns, interleaved translates,
patterns with repeats, unequal rows, dense and sparse ranges."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from rocwmma_py.runtime.memory import _repeats


def _truth(flat: np.ndarray) -> bool:
    return np.unique(flat).size < flat.size


@st.composite
def address_sets(draw):
    waves = draw(st.integers(1, 12))
    lanes = draw(st.integers(1, 16))
    kind = draw(st.sampled_from(["translates", "random", "dense"]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    if kind == "translates":  # base + pattern per wave: the SIMT store of a batch
        pattern = rng.choice(draw(st.integers(1, 64)), lanes)
        step = draw(st.integers(-70, 70))
        bases = step * np.arange(waves) + rng.integers(0, 3, waves) * draw(st.integers(0, 1))
        flat = (bases[:, None] + pattern[None, :]).reshape(-1)
    elif kind == "random":
        flat = rng.integers(0, draw(st.integers(1, 10**7)), waves * lanes)
    else:
        flat = rng.permutation(waves * lanes + draw(st.integers(0, 3)))[: waves * lanes]
    return flat.astype(np.int64), waves


@settings(max_examples=400, deadline=None)
@given(address_sets())
def test_repeats_equals_unique(case):
    flat, waves = case
    assert _repeats(flat, waves) == _truth(flat)


def test_shortcut_cases():
    lane = np.arange(32)
    rows = (4096 * np.arange(64))[:, None] + lane  # softmax: row * ncols + col + tid
    assert not _repeats(rows.reshape(-1), 64)
    assert _repeats((rows // 2).reshape(-1), 64)  # the pattern repeats
    interleaved = (2 * np.arange(8))[:, None] + 16 * lane  # translates overlap, no repeat
    assert not _repeats(interleaved.reshape(-1), 8)
    overlapping = np.arange(8)[:, None] + lane  # translates share addresses
    assert _repeats(overlapping.reshape(-1), 8)
