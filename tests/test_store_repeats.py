"""A batched store's repeated-address test (`memory._repeats`) against np.unique on address
sets of every shape the shortcuts see: translated wave patterns, interleaved translates,
fragment stores' matrix tiles (on a grid, off it, across row ends, meeting), patterns with
repeats, unequal rows, dense and sparse ranges."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rocwmma_py.runtime.memory import _repeats


def _truth(flat: np.ndarray) -> bool:
    return np.unique(flat).size < flat.size


@st.composite
def address_sets(draw):
    waves = draw(st.integers(1, 12))
    lanes = draw(st.integers(1, 16))
    kind = draw(st.sampled_from(["translates", "random", "dense", "ascending"]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    if kind == "translates":  # base + pattern per wave: the SIMT store of a batch
        pattern = rng.choice(draw(st.integers(1, 64)), lanes)
        step = draw(st.integers(-70, 70))
        bases = step * np.arange(waves) + rng.integers(0, 3, waves) * draw(st.integers(0, 1))
        flat = (bases[:, None] + pattern[None, :]).reshape(-1)
    elif kind == "random":
        flat = rng.integers(0, draw(st.integers(1, 10**7)), waves * lanes)
    elif kind == "ascending":  # a thread-linear store, or one with a repeat in order
        flat = np.sort(rng.integers(0, draw(st.integers(1, 4 * waves * lanes)), waves * lanes))
    else:
        flat = rng.permutation(waves * lanes + draw(st.integers(0, 3)))[: waves * lanes]
    return flat.astype(np.int64), waves


@settings(max_examples=400, deadline=None)
@given(address_sets())
def test_repeats_equals_unique(case):
    flat, waves = case
    assert _repeats(flat, waves) == _truth(flat)


@st.composite
def tile_stores(draw):
    """A fragment store's (elements, waves x W) addresses: each wave an h x w tile of an
    ld-wide matrix, its elements over its lanes and registers in one order for all; tile
    origins on a grid (shifted, or with one tile off it, or meeting another)."""
    waves, h, w = draw(st.integers(2, 10)), draw(st.integers(1, 6)), draw(st.integers(1, 6))
    ld = w + draw(st.integers(0, 12))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    across = ld // w  # tiles side by side within a row of the matrix
    if draw(st.booleans()):  # distinct cells of the grid
        picks = rng.permutation(across * waves)[:waves]
        cells = np.stack([picks // across, picks % across], axis=1)
    else:  # any cells, some of them one cell
        cells = rng.integers(0, draw(st.integers(1, 9)), (waves, 2))
    origins = cells[:, 0] * h * ld + cells[:, 1] * w * draw(st.sampled_from([1, 1, 2]))
    origins = origins + draw(st.sampled_from([0, 0, 1, ld - 1]))
    if draw(st.booleans()):
        origins[-1] += draw(st.integers(-3, 3))
    tile = (np.arange(h)[:, None] * ld + np.arange(w)).reshape(-1)
    lanes = draw(st.sampled_from([d for d in range(1, tile.size + 1) if tile.size % d == 0]))
    regs = tile.size // lanes
    layout = rng.permutation(tile)  # the fragment's register layout, one for every wave
    per_wave = [(o + layout).reshape(regs, lanes) for o in origins]
    addr = np.concatenate(per_wave, axis=1).astype(np.int64)  # (regs, waves x lanes)
    return addr, waves


@settings(max_examples=600, deadline=None)
@given(tile_stores())
def test_fragment_store_repeats_equal_unique(case):
    addr, waves = case
    by_wave = addr.reshape(addr.shape[0], waves, -1).transpose(1, 0, 2)
    flat = addr.reshape(-1)
    assert _repeats(flat, waves, by_wave) == _truth(flat)


def test_shortcut_cases():
    lane = np.arange(32)
    rows = (4096 * np.arange(64))[:, None] + lane  # softmax: row * ncols + col + tid
    assert not _repeats(rows.reshape(-1), 64)
    assert _repeats((rows // 2).reshape(-1), 64)  # the pattern repeats
    interleaved = (2 * np.arange(8))[:, None] + 16 * lane  # translates overlap, no repeat
    assert not _repeats(interleaved.reshape(-1), 8)
    overlapping = np.arange(8)[:, None] + lane  # translates share addresses
    assert _repeats(overlapping.reshape(-1), 8)


def test_fragment_tiles_on_a_grid_are_proved_by_their_cells(monkeypatch):
    """64 waves storing the 16 x 16 tiles of a 128 x 128 matrix (ld 128): side by side,
    so the bases are closer than a tile's span; the tile-grid proof decides (no bincount),
    and a repeated tile or one moved by a column is caught."""
    import rocwmma_py.runtime.memory as memory

    decided = []
    real = memory._tiles_repeat
    monkeypatch.setattr(memory, "_tiles_repeat",
                        lambda o, b: decided.append(real(o, b)) or decided[-1])
    rng = np.random.default_rng(0)
    tile = (np.arange(16)[:, None] * 128 + np.arange(16)).reshape(-1)
    grid = np.array([r * 16 * 128 + c * 16 for r in range(8) for c in range(8)])

    layout = rng.permutation(tile)  # the fragment's register layout: one for every wave

    def store(origins):
        per_wave = [(o + layout).reshape(8, 32) for o in origins]
        addr = np.concatenate(per_wave, axis=1)  # 8 registers x (64 waves x 32 lanes)
        by_wave = addr.reshape(8, 64, 32).transpose(1, 0, 2)
        return _repeats(addr.reshape(-1), 64, by_wave), _truth(addr.reshape(-1))

    assert store(rng.permutation(grid)) == (False, False) and decided == [False]
    twice = grid.copy()
    twice[5] = twice[9]
    assert store(twice) == (True, True) and decided[-1] is True
    moved = grid.copy()
    moved[3] += 1  # overlaps its right neighbour by one column
    assert store(moved) == (True, True) and decided[-1] is None  # (the bincount decides)


@st.composite
def wave_rows(draw):
    """(waves, W) addresses: translates of a pattern with repeats, apart or overlapping."""
    waves, width = draw(st.integers(2, 9)), draw(st.integers(1, 16))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    pattern = rng.integers(0, draw(st.integers(1, 20)), width)
    step = draw(st.integers(-40, 40))
    bases = step * rng.permutation(waves) if draw(st.booleans()) else step * np.arange(waves)
    return (bases[:, None] + pattern).astype(np.int64)


@settings(max_examples=300, deadline=None)
@given(wave_rows())
def test_last_writes_by_wave_are_the_last_of_each_address(rows):
    """Against a dict of the last position per address in row-major (lane-major) order."""
    from rocwmma_py.runtime.memory import _last_writes_by_wave
    flat = rows.reshape(-1)
    last = {int(a): i for i, a in enumerate(flat)}
    got = _last_writes_by_wave(rows)
    span = int(rows[0].max() - rows[0].min())
    gaps = np.diff(np.sort(rows[:, 0]))
    if not (gaps > span).all():
        assert got is None  # overlapping ranges: the general path
    else:
        assert got is not None and sorted(got.tolist()) == sorted(last.values())


@pytest.mark.parametrize("group", [64, 16, 1])
def test_lanes_sharing_an_address_leave_the_last_lanes_value_on_both_engines(group):
    """Each wave's lanes write in groups of `group` to one element each (64: the whole wave,
    as rocWMMA's map_util test): the highest lane of a group wins, batched as per wave."""
    from rocwmma_py import kernel
    from rocwmma_py.runtime import blockIdx, last_launch_stats, threadIdx, use_engine

    @kernel
    def shared_store(out):
        out[blockIdx.x * 64 // group + threadIdx.x // group] = threadIdx.x * 1.0 + blockIdx.x

    results = []
    for engine in ("batch", "wave"):
        out = np.full(8 * 64 // group, -1.0, np.float32)
        with use_engine(engine):
            shared_store[8, 64, 0, "gfx942"](out)
        assert last_launch_stats().per_wave_blocks == (8 if engine == "wave" else 0)
        results.append(out)
    want = (np.arange(64 // group)[None, :] * group + group - 1 + np.arange(8)[:, None])
    np.testing.assert_array_equal(results[0], want.reshape(-1).astype(np.float32))
    np.testing.assert_array_equal(results[1], results[0])
