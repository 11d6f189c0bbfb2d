"""Per-wave scalars in a batch (runtime/uniform.py): blockIdx components and loads of one
address are, per wave, a Python int and a numpy scalar; the batch must give exactly those
scalars' results — their types, numpy's scalar arithmetic, Python's big ints and exceptions —
while staying batched where the scalar meets per-lane values."""

from __future__ import annotations

import operator
import struct

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rocwmma_py import kernel, shared_array, synchronize_workgroup, where
from rocwmma_py.cuda import warp_sync
from rocwmma_py.errors import CrossLaneError
from rocwmma_py.runtime import blockIdx, lane_id, last_launch_stats, threadIdx, use_engine
from rocwmma_py.runtime import uniform as uniform_module
from rocwmma_py.runtime.state import BatchSplit
from rocwmma_py.runtime.uniform import Uniform, uniform

GRID, WAVE = 8, 64


def both(k, make, grid=GRID, block=WAVE):
    """Buffers and error of the per-wave and the batched engine, and the batch's stats."""
    out = {}
    for engine in ("wave", "batch"):
        buffers = make()
        error = None
        with use_engine(engine):
            try:
                k[grid, block, 0, "gfx942"](*buffers)
            except Exception as err:  # noqa: BLE001 - compared between engines
                error = (type(err), str(err))
        out[engine] = buffers, error, last_launch_stats()
    (wave, wave_err, _), (batch, batch_err, stats) = out["wave"], out["batch"]
    assert batch_err == wave_err
    for w, b in zip(wave, batch, strict=True):
        assert w.dtype == b.dtype and w.tobytes() == b.tobytes()
    return wave, stats


def test_uniform_collapses_only_to_a_bit_identical_scalar():
    assert uniform([3, 3, 3]) == 3 and type(uniform([3, 3])) is int
    assert isinstance(uniform([0.0, -0.0]), Uniform)  # equal, but not the same scalar
    assert isinstance(uniform([1, 1.0]), Uniform)  # equal, of different types
    assert isinstance(uniform([np.float32(1), np.float64(1)]), Uniform)
    nan = float("nan")
    assert uniform([nan, nan]) is nan  # one NaN bit pattern: the same scalar


def test_every_way_out_splits_by_the_waves_values():
    u = uniform([5, 7, 5, 9])
    for escape in (str, repr, hash, bool, int, float, np.asarray,
                   lambda x: f"{x}", lambda x: [1, 2, 3][x], lambda x: x.bit_length()):
        with pytest.raises(BatchSplit) as split:
            escape(u)
        assert split.value.values.tolist() == [0, 1, 0, 2]
    for as_int_does in (len, iter, lambda x: x[0]):  # TypeError: the batch reruns per wave
        with pytest.raises(TypeError):
            as_int_does(u)
    assert isinstance(u, int) and not isinstance(u, float)
    with pytest.raises(BatchSplit):
        isinstance(uniform([5, 2.5]), int)  # noqa: B015 - the check is what splits


def test_operators_on_scalars_run_per_wave():
    u = uniform([2, 3, 2 ** 70])
    assert (u * 3)._values == [6, 9, 3 * 2 ** 70]  # Python ints: no int64 wrap
    assert (u / 2)._values == [1.0, 1.5, 2.0 ** 69]
    assert (np.uint32(7) - uniform([2, 3]))._values == [np.uint32(5), np.uint32(4)]
    with pytest.raises(OverflowError):  # numpy's own error, from the wave holding 2**70
        np.uint32(7) - u
    assert [type(v) for v in (np.float32(1.1) ** uniform([2, 3]))._values] == [np.float32] * 2
    quotient, remainder = divmod(uniform([7, 9]), 2)
    assert quotient._values == [3, 4] and remainder == 1 and type(remainder) is int


@kernel
def block_numbers(out):
    b = blockIdx.x
    lane = lane_id()
    out[b * 64 + lane] = (np.uint32(b) * 3 // 2) + (b ** 40) % 1000 + len(str(b * 11))


def test_block_numbers_follow_python_and_numpy_scalars():
    wave, _ = both(block_numbers, lambda: [np.zeros(GRID * WAVE)])
    want = [float((np.uint32(b) * 3 // 2) + (b ** 40) % 1000 + len(str(b * 11)))
            for b in range(GRID)]
    assert wave[0].reshape(GRID, WAVE)[:, 0].tolist() == want


@kernel
def caught_per_block(out):
    try:
        v = 100 // (blockIdx.x - 3)
    except ZeroDivisionError:
        v = -1
    out[blockIdx.x * 64 + lane_id()] = v


def test_an_error_of_one_wave_is_that_waves_alone():
    wave, _ = both(caught_per_block, lambda: [np.zeros(GRID * WAVE)])
    assert wave[0][::WAVE].tolist() == [100 // (b - 3) if b != 3 else -1 for b in range(GRID)]


@kernel
def spread_over_lanes(src, out):
    i = blockIdx.x * 64 + threadIdx.x
    out[i] = src[i] * (blockIdx.x + 1) * 0.1 + np.float16(0.5) * blockIdx.x


def test_meeting_lanes_promotes_like_a_python_scalar_and_stays_batched():
    wave, stats = both(spread_over_lanes, lambda: [np.arange(GRID * WAVE, dtype=np.float32),
                                                   np.zeros(GRID * WAVE, np.float32)])
    assert stats.per_wave_blocks == 0 and stats.splits == 0
    b = np.repeat(np.arange(GRID), WAVE)
    src = np.arange(GRID * WAVE, dtype=np.float32)
    want = [src[i] * (int(b[i]) + 1) * 0.1 + np.float16(0.5) * int(b[i]) for i in range(b.size)]
    assert wave[1].tolist() == np.array(want, np.float32).tolist()


@kernel
def uniform_loads(src, out):
    lds = shared_array(np.float32, 4)
    with where(threadIdx.x < 4):
        lds[threadIdx.x] = src[blockIdx.x * 4 + threadIdx.x]
    synchronize_workgroup()
    s = lds[1]  # one address, every lane: a numpy scalar per wave
    t = src[blockIdx.x]  # likewise from global memory
    out[blockIdx.x * 128 + threadIdx.x] = s ** np.float32(2.37) + t ** 0.61 + isinstance(
        s, np.float32)


def test_loads_of_one_address_are_numpy_scalars_per_wave():
    """numpy's scalar ** differs from its array ** in the last bit for many inputs: the
    batch must compute the scalar's."""
    src = np.random.default_rng(5).random(GRID * 4, np.float32) * 7
    wave, stats = both(uniform_loads, lambda: [src.copy(), np.zeros(GRID * 128, np.float32)],
                       block=128)
    s = src.reshape(GRID, 4)[:, 1]
    want = [s[b] ** np.float32(2.37) + src[b] ** 0.61 + 1 for b in range(GRID)]
    assert wave[1].reshape(GRID, 128)[:, 0].tolist() == want
    assert stats.per_wave_blocks == 0


# --- whole-array fast paths: each result must be every wave's own, types included ---------

BINARY = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv,
          operator.mod, operator.pow, operator.lshift, operator.rshift, operator.and_,
          operator.or_, operator.xor, operator.lt, operator.le, operator.gt, operator.ge,
          operator.eq, operator.ne, divmod]
UNARY = [operator.neg, operator.pos, operator.abs, operator.invert]
EDGES = [0, 1, -1, 2, 63, 64, 2**31, 2**53, 2**53 + 1, -(2**53), 2**62, 2**63 - 1, -(2**63),
         2**63, -(2**63) - 1, 2**70]
INTS = st.one_of(st.integers(-70, 70), st.sampled_from(EDGES),
                 st.integers(-(2**63), 2**63 - 1), st.integers(-(2**80), 2**80))
OPERANDS = st.one_of(INTS, st.booleans(), st.floats(allow_nan=True, width=64),
                     st.sampled_from([np.int32(3), np.uint8(200), np.float32(1.5)]))
WAVE_INTS = st.lists(INTS, min_size=2, max_size=6)


def exactly(value: object) -> object:
    """A value as its type and bits (-0.0 is not 0.0, NaNs by payload), a Uniform as the
    list of its waves' (uniform()'s contract), a pair as its parts."""
    if type(value) is Uniform:
        return "uniform", [exactly(v) for v in value._values]
    if type(value) is tuple:
        return tuple(exactly(v) for v in value)
    if type(value) is float:
        return float, struct.pack("<d", value)
    if isinstance(value, np.generic):
        return type(value), value.tobytes()
    return type(value), repr(value)


def outcome(fn, *args) -> object:
    """`exactly` fn's result, or the type of the error it raises (numpy's warnings too)."""
    try:
        with np.errstate(all="raise"):
            return exactly(fn(*args))
    except Exception as err:  # noqa: BLE001 - compared, never swallowed
        return type(err)


def per_wave(fn, *args) -> object:
    """What the waves compute one by one: the first failing wave's error, else their
    results as one value where all are the same, else as a Uniform (a pair for divmod)."""
    count = next(len(a) for a in args if isinstance(a, list))
    results = [outcome(fn, *(a[w] if isinstance(a, list) else a for a in args))
               for w in range(count)]
    if error := next((r for r in results if isinstance(r, type)), None):
        return error
    if all(type(r[0]) is tuple for r in results):  # divmod: (quotient, remainder) each
        return tuple(map(_one_or_many, zip(*results, strict=True)))
    return _one_or_many(results)


def _one_or_many(results) -> object:
    results = list(results)
    return results[0] if results.count(results[0]) == len(results) else ("uniform", results)


def tame(fn, right: object) -> bool:
    """Whether Python computes fn(..., right) quickly: ** and << by huge ints do not."""
    exponents = right if isinstance(right, list) else [right]
    return fn not in (operator.pow, operator.lshift) or all(
        not isinstance(e, int) or abs(e) < 300 for e in exponents)


@settings(max_examples=400)
@given(st.sampled_from(BINARY), WAVE_INTS, OPERANDS, st.booleans())
def test_an_operator_with_a_scalar_gives_every_waves_result(fn, values, other, reflected):
    left, right = (other, values) if reflected else (values, other)
    assume(tame(fn, right))
    want = per_wave(fn, left, right)
    wrap = lambda x: Uniform(x) if isinstance(x, list) else x  # noqa: E731
    assert outcome(fn, wrap(left), wrap(right)) == want


@settings(max_examples=300)
@given(st.sampled_from(BINARY), st.integers(2, 6).flatmap(
    lambda n: st.lists(st.tuples(INTS, INTS), min_size=n, max_size=n)))
def test_an_operator_of_two_uniforms_gives_every_waves_result(fn, pairs):
    a, b = map(list, zip(*pairs, strict=True))
    assume(tame(fn, b))
    want = per_wave(lambda w: fn(a[w], b[w]), list(range(len(a))))
    assert outcome(fn, Uniform(a), Uniform(b)) == want


@given(st.sampled_from(UNARY), WAVE_INTS)
def test_a_unary_operator_gives_every_waves_result(fn, values):
    assert outcome(fn, Uniform(values)) == per_wave(fn, values)


@pytest.mark.parametrize("fn", [f for f in BINARY if f not in (operator.pow, divmod)])
def test_small_ints_never_take_the_per_wave_loop(fn, monkeypatch):
    """Within int64 (no zero divisor, shifts of 0-63) the operators run on the int64 array,
    and an int result stays an int64 array of the waves' Python ints."""
    monkeypatch.setattr(uniform_module, "_per_wave", None)  # calling it would fail
    a = [5, -7, 13, 2**40 + 1]
    b = [5, 1, 4, 2] if fn in (operator.lshift, operator.rshift) else [5, 1, -4, 2]
    got = fn(Uniform(a), Uniform(b))
    assert exactly(got) == ("uniform", [exactly(fn(x, y)) for x, y in zip(a, b, strict=True)])
    if isinstance(fn(1, 1), int) and not isinstance(fn(1, 1), bool):
        assert isinstance(got._array, np.ndarray) and got._array.dtype == np.int64
    assert exactly(fn(Uniform(a), 3)) == exactly(uniform([fn(x, 3) for x in a]))
    assert exactly(fn(3, Uniform(b))) == exactly(uniform([fn(3, y) for y in b]))


def test_true_division_past_2_to_53_is_pythons_correctly_rounded_quotient():
    """numpy would round each int to a double first (2**53 + 1 -> 2**53): the per-wave loop
    divides these."""
    big = [2**53 + 1, 2**60 + 1]
    assert exactly(Uniform(big) / 3) == exactly(uniform([v / 3 for v in big]))
    assert exactly(Uniform(big) / Uniform([3, 2**55 + 3])) == exactly(
        uniform([(2**53 + 1) / 3, (2**60 + 1) / (2**55 + 3)]))
    assert (Uniform(big) / 3)._values != [float(v) / 3 for v in big]  # what numpy gives


def test_equal_results_collapse_to_the_one_int():
    assert type(Uniform([2, 3]) * 0) is int and Uniform([2, 3]) * 0 == 0
    assert type(Uniform([4, 6]) // 2) is Uniform and Uniform([4, 5]) % 1 == 0
    assert Uniform([4, 5]) >> 3 == 0 and type(Uniform([4, 5]) >> 3) is int


@settings(max_examples=300)
@given(st.sampled_from([np.int8, np.uint8, np.int16, np.uint32, np.int64, np.uint64,
                        np.float16, np.float32, np.float64]),
       st.lists(st.integers(-(2**63), 2**63 - 1), min_size=1, max_size=6))
def test_an_int_range_a_dtype_holds_converts_as_the_python_ints_do(dtype, values):
    """Where `_holds` says so, converting the int64 values is converting the Python ints."""
    dtype = np.dtype(dtype)
    if uniform_module._holds(dtype, min(values), max(values)):
        want = np.array(values, dtype)
        assert np.array(values, np.int64).astype(dtype).tobytes() == want.tobytes()


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.float16, np.float32,
                                   np.int64])
@pytest.mark.parametrize("step", [1, 40, 2**20, 2**40])
def test_spreading_ints_over_typed_lanes_matches_the_per_wave_engine(dtype, step):
    @kernel
    def spread(src, out):
        i = blockIdx.x * 64 + threadIdx.x
        out[i] = src[i] + (blockIdx.x - 3) * step

    both(spread, lambda: [np.arange(GRID * WAVE).astype(dtype) % 50,
                          np.zeros(GRID * WAVE, np.float64)])


# --- warp_sync: the common mask checked on (n, W), the rest by the full (n, W, W) check ---

@settings(max_examples=300)
@given(st.integers(1, 3).flatmap(lambda n: st.tuples(
    st.one_of(st.lists(st.integers(0, 255), min_size=n, max_size=n).map(
        lambda m: np.repeat(np.array(m, np.uint64)[:, None], 8, axis=1)),
        st.lists(st.integers(0, 255), min_size=8 * n, max_size=8 * n).map(
            lambda m: np.array(m, np.uint64).reshape(-1, 8))),
    st.lists(st.booleans(), min_size=8 * n, max_size=8 * n).map(
        lambda c: np.array(c).reshape(-1, 8)),
    st.lists(st.booleans(), min_size=8 * n, max_size=8 * n).map(
        lambda t: np.array(t).reshape(-1, 8)))))
def test_a_plainly_valid_mask_passes_the_full_check(case):
    masks, calling, threads = case
    calling = calling & threads  # a lane that is no thread does not call
    if warp_sync._plainly_valid(masks, calling, threads):
        warp_sync._check_named(masks, calling, threads, "test")  # must not raise


def test_the_full_check_still_names_an_inactive_lane():
    masks = np.full((2, 8), 0xFF, np.uint64)
    calling = np.ones((2, 8), bool)
    calling[1, 5] = False
    assert not warp_sync._plainly_valid(masks, calling, np.ones((2, 8), bool))
    with pytest.raises(CrossLaneError, match="lane 0's mask 0xff names lane 5, which is "
                                             "inactive"):
        warp_sync._check_named(masks, calling, np.ones((2, 8), bool), "test")


# --- a per-wave scalar meeting one-axis Lanes: broadcast over each wave's row ---------------

BY_WAVE_OPS = [operator.add, operator.sub, operator.mul, operator.floordiv, operator.mod,
               operator.truediv, operator.lt, operator.le, operator.gt, operator.ge]


@pytest.mark.parametrize("scalar", ["int", "float", "big int", "numpy scalar"])
@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.int64, np.float16, np.float32])
@pytest.mark.parametrize("op", BY_WAVE_OPS, ids=lambda f: f.__name__)
def test_a_per_wave_scalar_meets_lanes_as_each_wave_would(op, dtype, scalar):
    @kernel
    def meet(src, out, tail):
        i = blockIdx.x * 64 + threadIdx.x
        if scalar == "int":
            s = blockIdx.x + 1
        elif scalar == "float":
            s = (blockIdx.x + 1) * 0.75
        elif scalar == "big int":
            s = (blockIdx.x + 1) * 300  # (past uint8 and float16's exact ints: NEP 50 says)
        else:
            s = tail[blockIdx.x]  # a numpy float32 per wave
        out[i] = op(s, src[i])
        out[GRID * WAVE + i] = op(src[i], s)

    def make():
        src = (np.arange(GRID * WAVE) % 97 + 1).astype(dtype)
        return [src, np.zeros(2 * GRID * WAVE, np.float64),
                np.arange(1, GRID + 1, dtype=np.float32) * 1.25]

    _, stats = both(meet, make)
    if scalar == "big int" and (dtype is np.uint8 or op is operator.mul and dtype is np.float16):
        assert stats.fallbacks  # 300 is no uint8 (NEP 50), float16 overflows: per wave
    else:
        assert stats.per_wave_blocks == 0


def test_index_arithmetic_with_an_int_is_kept_per_uniform():
    """`row * ncols + col` in every iteration of a kernel loop: a Uniform's values never
    change, so `_with_int` gives its earlier result object again, for each side of the
    operator apart, and past its memo's size still the right values."""
    u = Uniform([3, 5, 7])
    first = u * 4096
    assert u * 4096 is first and exactly(first) == exactly(uniform([12288, 20480, 28672]))
    assert exactly(4096 - u) == exactly(uniform([4093, 4091, 4089]))
    assert exactly(u - 4096) == exactly(uniform([-4093, -4091, -4089]))
    for k in range(3 * uniform_module._MEMO_SIZE):
        assert exactly(first + k) == exactly(uniform([12288 + k, 20480 + k, 28672 + k]))
    assert len(first._memo) <= uniform_module._MEMO_SIZE
