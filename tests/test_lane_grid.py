"""Thread-linear addresses held as a grid (`runtime/lane_grid.py`): threadIdx and its index
arithmetic keep the form (per-wave shifts, one lane pattern), loads and stores at them run
as strided views of memory, and every result, error and observer is the general path's.
Each kernel is checked against numpy on both engines, and the grid path is counted, so a
test that means to exercise it fails when it stops running."""

from __future__ import annotations

import numpy as np
import pytest

from rocwmma_py import (
    AccessError,
    GlobalRaceError,
    OutOfBoundsError,
    Pointer,
    blockDim,
    blockIdx,
    float16,
    fragment,
    kernel,
    load_matrix_sync,
    matrix_a,
    row_major,
    store_matrix_sync,
    threadIdx,
    use_engine,
    where,
)
from rocwmma_py.runtime.lane_grid import GridLanes, LaneGrid, even_step
from rocwmma_py.runtime.lanes import Lanes, batch_data

ENGINES = ("batch", "wave")
I64_MIN, I64_MAX = -(1 << 63), (1 << 63) - 1


@pytest.fixture
def grid_views(monkeypatch):
    """The number of loads and stores that ran as strided views."""
    seen = {"views": 0}
    original = Pointer._grid_view

    def counted(self, grid, base, write):
        view = original(self, grid, base, write)
        seen["views"] += view is not None
        return view

    monkeypatch.setattr(Pointer, "_grid_view", counted)
    return seen


# --- the form's arithmetic ------------------------------------------------------------------


@pytest.mark.parametrize("values, step", [
    ([], 0), ([7], 0), ([3, 5], 2), ([9, 6, 3, 0], -3), ([1, 2, 4], None), ([0, 0, 0], 0),
    ([I64_MAX - 1, I64_MAX], 1),
    ([I64_MAX, I64_MIN], None),  # one step of +1 modulo 2**64 that wrapped
    ([I64_MIN, 0, I64_MIN], None),  # steps of 2**63 that wrap back
])
def test_even_step_is_exact_in_int64(values, step):
    assert even_step(np.array(values, np.int64)) == step


def test_a_carried_step_is_dropped_where_an_element_wrapped():
    # pattern [MIN, MIN + 1] steps by 1; negated it is [MIN (wrapped), MAX]: no even step
    grid = LaneGrid(np.zeros(1, np.int64), np.array([I64_MIN, I64_MIN + 1], np.int64), 0, 1)
    assert grid.steps() == (0, 1)
    assert grid.negated().steps() == (0, None)
    assert grid.times(2).steps() == (0, 2)  # [0, 2] (the first wrapped): it does step by 2
    half = LaneGrid(np.zeros(1, np.int64), np.array([0, 1 << 62], np.int64), 0, 1 << 62)
    assert half.times(2).steps() == (0, None)  # [0, MIN]: a step of 2**63 is past int64


@pytest.mark.parametrize("offset, size, distinct, expected", [
    (0, 1000, False, (10, 213, 100, 1)),
    (0, 1000, True, (10, 213, 100, 1)),
    (-10, 1000, False, (0, 203, 100, 1)),
    (-11, 1000, False, None),  # the first lane before the buffer
    (0, 213, False, None),  # the last lane (210 + 3) past the end
    (0, 214, False, (10, 213, 100, 1)),
])
def test_strided_layout_and_its_ends(offset, size, distinct, expected):
    grid = LaneGrid(np.array([10, 110, 210], np.int64), np.arange(4, dtype=np.int64))
    assert grid.strided(offset, size, distinct) == expected


@pytest.mark.parametrize("shifts, pattern, read, write", [
    ([0, 4], [0, 1, 2, 3], True, True),  # the waves' lanes meet end to end
    ([0, 3], [0, 1, 2, 3], True, False),  # wave 1's lane 0 is wave 0's lane 3
    ([0, 0], [0, 1, 2, 3], True, False),  # every wave at the same addresses
    ([0, 8], [0, 0, 0, 0], True, False),  # every lane of a wave at one address
    ([8, 0], [0, 1, 2, 3], False, False),  # waves stepping back: the general path
    ([0, 8], [3, 2, 1, 0], False, False),  # lanes stepping back
    ([0, 5, 7], [0, 1], False, False),  # shifts that do not step evenly
])
def test_which_grids_are_strided(shifts, pattern, read, write):
    grid = LaneGrid(np.array(shifts, np.int64), np.array(pattern, np.int64))
    assert (grid.strided(0, 100, False) is not None) == read
    assert (grid.strided(0, 100, True) is not None) == write


def test_a_grid_is_never_used_once_its_array_was_built():
    lanes = GridLanes.of(LaneGrid(np.array([0, 10], np.int64), np.arange(3, dtype=np.int64)))
    twin = lanes.copy()  # (shares the grid, not an array)
    data = batch_data(lanes)  # built: the array is out
    assert lanes._grid is None and twin._grid is not None
    data[0] = 99  # changed through the array
    np.testing.assert_array_equal(batch_data(lanes + 1), [100, 2, 3, 11, 12, 13])
    assert type(lanes + 1) is Lanes and type(lanes.copy()) is GridLanes
    assert lanes.copy()._grid is None
    np.testing.assert_array_equal(batch_data(twin), [0, 1, 2, 10, 11, 12])


@kernel
def _index_forms(out, forms):
    tid = threadIdx.x
    exprs = [tid, blockIdx.x * 7 + 3 + tid, tid * 2 - 1, 5 - tid, tid - blockIdx.x,
             blockIdx.x - tid, 3 * tid + 2, tid + np.int32(4), (blockIdx.x + tid) * 3]
    for k, e in enumerate(exprs):
        forms.append(type(e) is GridLanes and e._grid is not None)
        out[k * 256 + blockIdx.x * 64 + threadIdx.x] = batch_data(e)


@pytest.mark.parametrize("engine", ENGINES)
def test_index_arithmetic_keeps_the_form_and_the_values(engine):
    out, forms = np.zeros(9 * 256, np.int64), []
    with use_engine(engine):
        _index_forms[4, 64, 0, "gfx942"](out, forms)
    assert all(forms) and forms and len(forms) % 9 == 0
    b, t = np.repeat(np.arange(4), 64), np.tile(np.arange(64), 4)
    expected = [t, b * 7 + 3 + t, t * 2 - 1, 5 - t, t - b, b - t, 3 * t + 2, t + 4, (b + t) * 3]
    np.testing.assert_array_equal(out.reshape(9, 256), np.array(expected))


@kernel
def _products_of_lanes(out):
    tid = threadIdx.x
    forms = [tid * tid, tid * blockIdx.x, tid // 2, -tid, tid + 1.5, tid * np.uint64(2)]
    for k, e in enumerate(forms):
        assert type(e) is not GridLanes or e._grid is None
        out[k * 128 + blockIdx.x * 64 + threadIdx.x] = batch_data(e)


def test_what_leaves_the_form_is_computed_as_lanes():
    out = np.zeros(6 * 128, np.float64)
    _products_of_lanes[2, 64, 0, "gfx942"](out)
    b, t = np.repeat(np.arange(2), 64), np.tile(np.arange(64), 2)
    np.testing.assert_array_equal(out.reshape(6, 128),
                                  [t * t, t * b, t // 2, -t, t + 1.5, t * 2])


@kernel
def _wave_indices(out, forms, big):
    tid = blockIdx.x * blockDim.x + threadIdx.x
    exprs = [tid // 64, tid % 64, tid // 128, tid % 128, (tid + 64) // 64 * 3 + 1,
             tid // 32, tid % 32, tid // -64, tid % -64, (tid + big) // 64, (tid - big) % 64]
    for k, e in enumerate(exprs):
        forms.append(type(e) is GridLanes and e._grid is not None)
        out[k * 256 + tid] = batch_data(e)


@pytest.mark.parametrize("engine", ENGINES)
def test_wave_indices_keep_the_form_where_each_wave_has_one_quotient(engine):
    """// and % by a positive int keep the form where every wave's lanes share a quotient
    (a wave index, a lane number); elsewhere (two quotients a wave, a negative divisor,
    lanes that would wrap int64) they are numpy's, on the same values."""
    out, forms, big = np.zeros(11 * 256, np.int64), [], I64_MAX - 100
    with use_engine(engine):
        _wave_indices[4, 64, 0, "gfx942"](out, forms, big)
    keeps = [True, True, True, True, True, False, False, False, False, False, False]
    assert forms and forms == keeps * (len(forms) // len(keeps))
    t = np.arange(256, dtype=np.int64)
    with np.errstate(over="ignore"):
        expected = [t // 64, t % 64, t // 128, t % 128, (t + 64) // 64 * 3 + 1, t // 32,
                    t % 32, t // -64, t % -64, (t + np.int64(big)) // 64,
                    (t - np.int64(big)) % 64]
    np.testing.assert_array_equal(out.reshape(11, 256), np.array(expected))


FragA16 = fragment[matrix_a, 16, 16, 16, float16, row_major]


@kernel
def _tiles_by_wave_index(a, out, forms, lda):
    wave = (blockIdx.x * blockDim.x + threadIdx.x) // 64
    frag = FragA16()
    src = a + wave * 16 * lda
    load_matrix_sync(frag, src, lda)
    forms.append(src.offset._grid is not None)
    store_matrix_sync(out + wave * 256, frag, 16)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("block", [256, 64])
def test_a_wave_index_addresses_fragments_without_its_array(engine, block):
    """A fragment load at a wave-index address reads each wave's address from the form (the
    one-address check and the block starts), and loads what numpy reads."""
    a = np.random.default_rng(block).standard_normal((8 * 16, 16)).astype(np.float16)
    out, forms = np.zeros(8 * 256, np.float16), []
    with use_engine(engine):
        _tiles_by_wave_index[512 // block, block, 0, "gfx942"](a, out, forms, 16)
    assert forms and all(forms)
    np.testing.assert_array_equal(out, a.reshape(-1))


# --- loads and stores at a grid -------------------------------------------------------------


@kernel
def _scale_and_index(x, y, n):
    i = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x
    with where(i < n):  # (the comparison leaves i a grid; where every lane is on, the
        y[i] = x[i] * 2 + i  # accesses run strided)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("arch, block", [
    ("gfx942", (32, 1)),  # blocks narrower than a wave
    ("gfx942", (64, 1)), ("gfx942", (256, 1)), ("gfx942", (16, 4)), ("gfx1100", (32, 2)),
    ("gfx1100", (8, 8)),
])
def test_thread_linear_loads_and_stores_run_strided(engine, arch, block, grid_views):
    threads = block[0] * block[1]
    n = 6 * threads
    x = np.random.default_rng(threads).standard_normal(n).astype(np.float32)
    y = np.full(n, np.nan, np.float32)
    with use_engine(engine):
        _scale_and_index[6, block, 0, arch](x, y, n)
    np.testing.assert_array_equal(y, x * 2 + np.arange(n, dtype=np.float32))
    # (a lone wave with lanes past its block's threads has them off in EXEC: general path)
    partial = engine == "wave" and threads < (64 if arch == "gfx942" else 32)
    assert (grid_views["views"] > 0) != partial


@pytest.mark.parametrize("engine", ENGINES)
def test_a_masked_tail_takes_the_general_path(engine, grid_views):
    n = 6 * 64 - 5
    x = np.arange(6 * 64, dtype=np.float32)
    y = np.full(6 * 64, -1, np.float32)
    with use_engine(engine):
        _scale_and_index[6, 64, 0, "gfx942"](x, y, n)
    expected = np.where(np.arange(6 * 64) < n, x * 2 + np.arange(6 * 64), -1)
    np.testing.assert_array_equal(y, expected)
    # per wave, the five whole blocks run strided; the batch's mask has lanes off
    assert (grid_views["views"] > 0) == (engine == "wave")


@kernel
def _compared(x, out):
    tid = threadIdx.x
    flags = [tid < 5, tid <= 5, tid > 60, tid >= 60, tid == 7, tid != 7, tid < blockIdx.x]
    for k, f in enumerate(flags):
        out[k * 128 + blockIdx.x * 64 + tid] = f
    assert tid._grid is not None  # (comparisons leave the grid as it was)
    out[7 * 128 + blockIdx.x * 64 + tid] = x[blockIdx.x * 64 + tid]


@pytest.mark.parametrize("engine", ENGINES)
def test_comparisons_of_a_grid_are_lane_wise(engine):
    x, out = np.arange(128, dtype=np.int64), np.zeros(8 * 128, np.int64)
    with use_engine(engine):
        _compared[2, 64, 0, "gfx942"](x, out)
    b, t = np.repeat(np.arange(2), 64), np.tile(np.arange(64), 2)
    expected = [t < 5, t <= 5, t > 60, t >= 60, t == 7, t != 7, t < b, np.arange(128)]
    np.testing.assert_array_equal(out.reshape(8, 128), np.array(expected, np.int64))


@kernel
def _patterns(x, y, n):
    tid = threadIdx.x
    y[n - 1 - tid] = x[tid]  # lanes stepping back
    (y + 100)[tid] = (x + 3)[tid]  # pointers with an offset
    y[200 + tid * 0] = x[tid]  # every lane at one address: the highest lane wins
    y[300 + tid * 3] = x[tid * 2]  # strided lanes


@pytest.mark.parametrize("engine", ENGINES)
def test_other_patterns_agree_with_numpy(engine):
    x = np.arange(400, dtype=np.float32)
    y = np.zeros(600, np.float32)
    with use_engine(engine):
        _patterns[1, 64, 0, "gfx942"](x, y, 64)
    expected = np.zeros(600, np.float32)
    t = np.arange(64)
    expected[63 - t] = t
    expected[100 + t] = t + 3
    expected[200] = 63
    expected[300 + 3 * t] = 2 * t
    np.testing.assert_array_equal(y, expected)


@kernel
def _changed_in_place(x, y, z):
    i = blockIdx.x * 64 + threadIdx.x
    j = i.copy()
    j += 1  # j's own array; i keeps its form
    y[i] = x[i]
    i += 2  # i's values change: every later access sees them
    z[i] = x[j]


@pytest.mark.parametrize("engine", ENGINES)
def test_values_changed_in_place_are_what_later_accesses_use(engine):
    x = np.arange(200, dtype=np.float32)
    y, z = np.zeros(200, np.float32), np.zeros(200, np.float32)
    with use_engine(engine):
        _changed_in_place[2, 64, 0, "gfx942"](x, y, z)
    i = np.arange(128)
    np.testing.assert_array_equal(y[:128], x[:128])
    expected = np.zeros(200, np.float32)
    expected[i + 2] = x[i + 1]
    np.testing.assert_array_equal(z, expected)


@kernel
def _past_the_end(x, y, n):
    y[blockIdx.x * 64 + threadIdx.x + n] = x[threadIdx.x]


@kernel
def _read_past_the_end(x, y, n):
    y[threadIdx.x] = x[blockIdx.x * 64 + threadIdx.x + n]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("k, what", [(_past_the_end, "write of buffer 'y'"),
                                     (_read_past_the_end, "read of buffer 'x'")])
def test_accesses_past_the_end_raise_and_write_nothing(engine, k, what):
    x, y = np.ones(128, np.float32), np.zeros(128, np.float32)
    with use_engine(engine), pytest.raises(OutOfBoundsError) as info:
        k[2, 64, 0, "gfx942"](x, y, 10)
    assert what in str(info.value) and "is out of bounds [0, 128)" in str(info.value)
    if k is _past_the_end:  # the lanes past the end are block 1's: block 0 stored, 1 not
        np.testing.assert_array_equal(y, np.r_[np.zeros(10), np.ones(64), np.zeros(54)])


@kernel
def _store(y, v):
    y[blockIdx.x * 64 + threadIdx.x] = v


@pytest.mark.parametrize("engine", ENGINES)
def test_stores_cast_as_numpy_assigns_and_refuse_read_only_buffers(engine):
    y = np.zeros(128, np.int32)
    with use_engine(engine):
        _store[2, 64, 0, "gfx942"](y, 2.75)
    assert (y == 2).all()
    frozen = np.zeros(128, np.float32)
    frozen.setflags(write=False)
    with use_engine(engine), pytest.raises(AccessError, match="read-only"):
        _store[2, 64, 0, "gfx942"](frozen, 1.0)


@kernel
def _every_block_writes_row_0(out):
    out[threadIdx.x] = blockIdx.x


@pytest.mark.parametrize("engine", ENGINES)
def test_the_race_check_still_sees_grid_stores(engine):
    with use_engine(engine), pytest.raises(GlobalRaceError, match="write-after-write"):
        _every_block_writes_row_0[2, 64].checked(racecheck=True)(np.zeros(64, np.float32))


@kernel
def _row_pointers(x, y, ncols):
    src, dst = x + blockIdx.x * ncols, y + blockIdx.x * ncols  # pointers per wave
    tid = threadIdx.x
    for col in range(0, ncols, 64):
        dst[col + tid] = src[col + tid] * 2
    lane = dst + tid  # a pointer per lane
    lane[0] = lane[0] + 1
    (src + tid)[ncols - 64] = -1.0  # (the last column block of each row of x)


@pytest.mark.parametrize("engine", ENGINES)
def test_pointers_moved_per_wave_and_per_lane_run_strided(engine, grid_views):
    x = np.arange(4 * 256, dtype=np.float32)
    y = np.zeros(4 * 256, np.float32)
    with use_engine(engine):
        _row_pointers[4, 64, 0, "gfx942"](x, y, 256)
    rows = np.arange(4 * 256, dtype=np.float32).reshape(4, 256)
    expected = rows * 2
    expected[:, :64] += 1
    np.testing.assert_array_equal(y.reshape(4, 256), expected)
    rows[:, 192:] = -1
    np.testing.assert_array_equal(x.reshape(4, 256), rows)
    # the 4 loads of x and lane[0]'s load and store at least (a batch's first stores to a
    # buffer take the general path, which the undo journal records)
    assert grid_views["views"] >= 4 + 2


@kernel
def _plus_one(x, y):
    i = blockIdx.x * 64 + threadIdx.x
    y[i] = x[i] + 1


@pytest.mark.parametrize("engine", ENGINES)
def test_loads_from_read_only_arrays_and_views_of_bigger_ones(engine, grid_views):
    frozen = np.arange(256, dtype=np.float32)
    frozen.setflags(write=False)
    inside = np.arange(1000, dtype=np.float32)[100:356]  # a view 400 bytes into its base
    for x in (frozen, inside):
        y = np.zeros(256, np.float32)
        with use_engine(engine):
            _plus_one[4, 64, 0, "gfx942"](x, y)
        np.testing.assert_array_equal(y, x + 1)
    assert grid_views["views"] >= 2
