"""C pointer semantics of `Pointer`: comparisons (uniform and per lane, on both engines),
`p != end` loops, pointer differences, cross-buffer rules, hashing, big-endian arrays in
`Pointer.from_array` (refused exactly as launches refuse them) and Python's `float`/`int`/
`bool` as C++'s float32/int32/bool in `shared_array`, `__shared__`, `vector_type` & co."""

from __future__ import annotations

import operator

import numpy as np
import pytest

from rocwmma_py import (
    DivergenceError,
    LaunchTypeError,
    Pointer,
    PointerTypeError,
    RocwmmaError,
    blockIdx,
    dynamic_shared,
    kernel,
    select,
    shared_array,
    syncthreads,
    threadIdx,
    vector_type,
    where,
)
from rocwmma_py import types as T
from rocwmma_py.cuda import __global__, __shared__
from rocwmma_py.runtime import Lanes, float4, int32x4, last_launch_stats, use_engine

ENGINES = ("batch", "wave")


def on_both_engines(launch, *arrays):
    """Copies of `arrays` after `launch(*copies)` on each engine, which must agree; returns
    the batch engine's copies (and asserts that engine ran batched, not wave by wave)."""
    results = {}
    for engine in ENGINES:
        copies = [a.copy() for a in arrays]
        with use_engine(engine):
            launch(*copies)
        results[engine] = copies
        if engine == "batch":
            stats = last_launch_stats()
            assert stats.per_wave_blocks == 0 and stats.batched_blocks > 0, stats
    for batch, wave in zip(results["batch"], results["wave"], strict=True):
        np.testing.assert_array_equal(batch, wave)
    return results["batch"]


def errors_on_both_engines(launch, *arrays):
    """(type, message) of the error `launch` raises, the same on both engines."""
    seen = []
    for engine in ENGINES:
        with use_engine(engine), pytest.raises(RocwmmaError) as info:
            launch(*[a.copy() for a in arrays])
        seen.append((info.type, str(info.value)))
    assert seen[0] == seen[1]
    return seen[0]


# --- uniform comparisons ---------------------------------------------------------------------

@kernel
def uniform_comparisons(a, b, out):
    checks = (
        (a + 1) == (a + 1),
        (a + 1) != (a + 2),
        a < a + 1,
        a + 1 > a,
        a <= a,
        a >= a + 1,          # False
        a + 3 - 3 == a,
        (a + 2) - 2 != a,    # False
        a == b,              # different buffers: never equal (False)
        a != b,              # True
        a.cast(np.uint8) + 4 == a + 1,       # byte addresses: (char*)p == (char*)(a + 1)
        (a + 1).cast(np.uint8) > a,
        a.cast(np.uint8) + 5 < a + 2,
        a.cast(np.uint8) + 3 >= a + 1,       # False
    )
    for k, check in enumerate(checks):
        out[k] = 1 if check else 0


def test_uniform_comparisons_on_both_engines():
    a, b = np.zeros(16, np.float32), np.zeros(16, np.float32)
    out = np.full(14, -1, np.int32)
    (_, _, out) = on_both_engines(uniform_comparisons[2, 128], a, b, out)
    assert out.tolist() == [1, 1, 1, 1, 1, 0, 1, 0, 0, 1, 1, 1, 1, 0]


def test_uniform_comparisons_are_python_bools():
    p = Pointer.from_array(np.zeros(8, np.int32), "p")
    results = [p + 1 == p + 1, p != p + 1, p < p + 1, p <= p, p > p, p >= p]
    assert all(type(r) is bool for r in results)
    assert results == [True, True, True, True, False, True]


@kernel
def sum_until_end(src, dst, n):
    p, end = src + blockIdx.x * n, src + (blockIdx.x + 1) * n   # per block, uniform
    total = src[0] * 0
    while p != end:
        total += p[0]
        p = p + 1
    q, count = end, 0
    while q > end - n:                   # backwards, with an ordering comparison
        q -= 1
        count += 1
    dst[blockIdx.x * 64 + threadIdx.x] = total + count * 1000


def test_while_p_not_end_loop_on_both_engines():
    src = np.arange(32, dtype=np.int64)
    dst = np.zeros(4 * 64, np.int64)
    (_, dst) = on_both_engines(lambda s, d: sum_until_end[4, 64](s, d, 8), src, dst)
    expected = src.reshape(4, 8).sum(axis=1) + 8000
    np.testing.assert_array_equal(dst.reshape(4, 64), np.repeat(expected[:, None], 64, 1))


# --- per-lane comparisons --------------------------------------------------------------------

@kernel
def per_lane_bounds(src, dst, flags, n):
    p = src + threadIdx.x            # one address per lane
    end = src + n
    with where(p < end):
        dst[threadIdx.x] = p[0]
    with where(p >= end):
        dst[threadIdx.x] = -1
    fifth = src + 5
    flags[threadIdx.x] = (select(p == fifth, 1, 0) + select(p != fifth, 10, 0)
                          + select(p <= fifth, 100, 0) + select(p > fifth, 1000, 0))


def test_per_lane_comparisons_under_where_on_both_engines():
    src = np.arange(100, 110, dtype=np.int32)
    dst = np.zeros(128, np.int32)
    flags = np.zeros(128, np.int32)
    (_, dst, flags) = on_both_engines(lambda s, d, f: per_lane_bounds[1, 128](s, d, f, 10),
                                      src, dst, flags)
    lane = np.arange(128)
    np.testing.assert_array_equal(dst, np.where(lane < 10, 100 + lane, -1))
    np.testing.assert_array_equal(
        flags, (lane == 5) * 1 + (lane != 5) * 10 + (lane <= 5) * 100 + (lane > 5) * 1000)


@kernel
def per_lane_kinds(src, other, out):
    p = src + threadIdx.x % 4                    # addresses 0, 1, 2, 3, 0, 1, ...
    rows = (p < src + 2, p == src + 1, src + 1 != p, p.cast(np.uint8) >= src + 2,
            p == other, p != other)              # the last two: different buffers
    for k, row in enumerate(rows):
        out[k * 64 + threadIdx.x] = select(row, 1, 0)
    out[6 * 64 + threadIdx.x] = p - (src + 1)    # ptrdiff_t, one per lane


def test_per_lane_comparisons_and_differences_on_both_engines():
    out = np.full(7 * 64, -9, np.int64)
    (_, _, out) = on_both_engines(per_lane_kinds[2, 64], np.zeros(8, np.float32),
                                  np.zeros(8, np.float32), out)
    address = np.arange(64) % 4
    expected = [address < 2, address == 1, address != 1, address >= 2,
                np.zeros(64, bool), np.ones(64, bool)]
    np.testing.assert_array_equal(out.reshape(7, 64)[:6], np.array(expected, np.int64))
    np.testing.assert_array_equal(out.reshape(7, 64)[6], address - 1)


def test_per_lane_comparisons_are_lanes_uniform_ones_python_bools():
    seen = {}

    @kernel
    def kinds(src, other):
        p = src + threadIdx.x
        seen["per lane"] = [type(p < src + 2), type(src + 1 != p), type(p - src)]
        seen["uniform"] = [type(src < src + 1), type(src == src)]
        seen["across"] = [type(p == other), type(p != other)]

    with use_engine("wave"):
        kinds[1, 64](np.zeros(64, np.float32), np.zeros(4, np.float32))
    assert all(issubclass(t, Lanes) for t in seen["per lane"])
    assert seen["uniform"] == [bool, bool] and seen["across"] == [bool, bool]


def test_pointer_difference():
    p = Pointer.from_array(np.zeros(16, np.float32), "p")
    assert (p + 5) - (p + 2) == 3 and (p + 2) - (p + 5) == -3
    assert type((p + 5) - p) is int
    with pytest.raises(PointerTypeError, match="same buffer.*float32.*uint8"):
        p - p.cast(np.uint8)
    with pytest.raises(PointerTypeError, match="same buffer"):
        p - Pointer.from_array(np.zeros(4, np.float32), "q")


# --- cross-buffer rules ----------------------------------------------------------------------

@pytest.mark.parametrize("symbol", ["<", "<=", ">", ">="])
def test_ordering_pointers_into_different_buffers_raises(symbol):
    a = Pointer.from_array(np.zeros(4, np.float32), "a")
    b = Pointer.from_array(np.zeros(4, np.int32), "b")
    compare = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}[symbol]
    with pytest.raises(PointerTypeError) as info:
        compare(a, b)
    assert isinstance(info.value, TypeError)
    assert str(info.value) == (
        f"cannot order pointers into different buffers: p {symbol} q with p into 'a' "
        "(float32) and q into 'b' (int32); C defines <, <=, >, >= only between pointers into "
        "the same array (== and != across buffers are allowed: never equal)"
    )


@kernel
def order_across(src, dst):
    if src + threadIdx.x < dst:
        dst[0] = 1


def test_ordering_across_buffers_in_a_kernel_raises_on_both_engines():
    kind, message = errors_on_both_engines(order_across[1, 64], np.zeros(64, np.float32),
                                           np.zeros(64, np.float32))
    assert kind is PointerTypeError
    assert "p < q with p into 'src' (float32) and q into 'dst' (float32)" in message
    assert "only between pointers into the same array" in message


def test_equality_across_buffers_and_with_non_pointers():
    a = Pointer.from_array(np.zeros(4, np.float32), "a")
    b = Pointer.from_array(np.zeros(4, np.float32), "b")
    assert (a == b) is False and (a != b) is True
    assert a != 0 and not (a == None)  # noqa: E711 - C's `p == nullptr` of a valid pointer
    with pytest.raises(TypeError):
        a < 1  # noqa: B015


@kernel
def aliasing(src, dst, out):
    out[0] = 1 if src == dst else 0          # C's `if (src == dst)` in-place check
    out[1] = 1 if dst + 1 > src else 0
    out[2] = dst - src
    out[3] = 1 if dst.cast(np.uint8) + 8 == src + 2 else 0


@pytest.mark.parametrize("engine", ENGINES)
def test_one_array_passed_twice_is_one_buffer_for_comparisons(engine):
    a = np.zeros(16, np.float32)
    out = np.zeros(4, np.int64)
    with use_engine(engine):
        aliasing[1, 64](a, a, out)
        assert out.tolist() == [1, 1, 0, 1]
        aliasing[1, 64](a, a[2:], out)       # overlapping views: one C array
        assert out.tolist() == [0, 1, 2, 0]


# --- hashing ---------------------------------------------------------------------------------

def test_hash_agrees_with_equality():
    array = np.zeros(8, np.float32)
    p = Pointer.from_array(array, "p")
    assert hash(p + 1) == hash(p + 1) and len({p + 1, p + 1, p + 2}) == 2
    assert p.cast(np.uint8) + 4 in {p + 1}
    assert Pointer.from_array(array, "again") + 3 in {p + 3}      # the same array's memory
    assert Pointer.from_array(array.copy(), "copy") + 3 not in {p + 3}


@kernel
def hash_per_lane(src, out):
    out[0] = 1 if hash(src + 2 + threadIdx.x * 0) == hash(src + 2) else 0  # lanes agree
    out[1] = 1 if (src + 2 + threadIdx.x * 0) in {src + 2} else 0
    hash(src + threadIdx.x)                                              # they differ


def test_per_lane_pointers_hash_only_when_their_lanes_agree():
    kind, message = errors_on_both_engines(hash_per_lane[1, 64], np.zeros(64, np.float32),
                                           np.zeros(2, np.int64))
    assert kind is DivergenceError and "differs across lanes" in message
    out = np.zeros(2, np.int64)
    with use_engine("wave"), pytest.raises(DivergenceError):
        hash_per_lane[1, 64](np.zeros(64, np.float32), out)
    assert out.tolist() == [1, 1]


# --- big-endian arrays -----------------------------------------------------------------------

def _launch_error(array: np.ndarray) -> str:
    @kernel
    def noop(values):
        pass

    with pytest.raises(LaunchTypeError) as info:
        noop[1, 64](array)
    return str(info.value)


@pytest.mark.parametrize("array", [
    pytest.param(np.zeros(4, ">f4"), id="big-endian"),
    pytest.param(np.zeros(4, [("x", ">i4"), ("y", ">i4")]), id="big-endian-struct"),
    pytest.param(np.zeros((4, 4), np.float32)[:, ::2], id="strided"),
])
def test_from_array_refuses_what_launches_refuse(array):
    with pytest.raises(PointerTypeError) as info:
        Pointer.from_array(array, "values")
    message = str(info.value)
    assert message.startswith("array 'values' ")
    assert _launch_error(array) == message.replace("array 'values'", "kernel argument 'values'",
                                                   1)


def test_from_array_big_endian_message():
    with pytest.raises(PointerTypeError) as info:
        Pointer.from_array(np.zeros(4, ">f4"), "values")
    assert str(info.value) == (
        "array 'values' has non-native byte order (dtype >f4); GPU memory is little-endian "
        "and vector loads would read swapped bytes: pass "
        "values.astype(values.dtype.newbyteorder('=')) and copy results back"
    )


def test_from_array_takes_native_byte_order_spelled_explicitly():
    native = np.zeros(4, np.dtype(np.float32).newbyteorder("="))
    p = Pointer.from_array(native, "n")
    p[1] = 2.5
    assert native[1] == 2.5


# --- Python's float/int/bool are C++'s float/int/bool ----------------------------------------

def test_cxx_type_mapping():
    assert T.cxx_type(float) is np.float32 and T.cxx_type(int) is np.int32
    assert T.cxx_type(bool) is np.bool_
    assert T.cxx_type(np.float64) is np.float64 and T.cxx_type("f16") == "f16"


def test_vector_type_of_python_types():
    assert vector_type(float, 4) is float4
    assert vector_type(int, 4) is int32x4
    assert vector_type(bool, 2).dtype == np.bool_


def test_shared_arrays_of_python_types():
    seen = {}

    @kernel
    def declare(x):
        seen["shared float"] = shared_array(float, 4).dtype
        seen["shared int"] = shared_array(int, 4).dtype
        seen["shared bool"] = shared_array(bool, 4).dtype
        seen["dynamic float"] = dynamic_shared(float).dtype
        seen["cast int"] = x.cast(int).dtype

    with use_engine("wave"):
        declare[1, 64, 16](np.zeros(4, np.float32))
    assert seen == {"shared float": np.float32, "shared int": np.int32,
                    "shared bool": np.bool_, "dynamic float": np.float32,
                    "cast int": np.int32}


@__global__
def shared_scalar_and_row(src, dst):
    count = __shared__(int, 1)              # __shared__ int count;
    row = __shared__(float, 64)             # __shared__ float row[64];
    count[0] = 7                            # every lane of the one wave: one value
    row[threadIdx.x] = src[threadIdx.x]
    syncthreads()
    dst[threadIdx.x] = row[63 - threadIdx.x] + count[0]


def test_cuda_shared_of_python_types_on_both_engines():
    src = np.arange(64, dtype=np.float32) + 0.25
    dst = np.zeros(64, np.float32)
    (_, dst) = on_both_engines(shared_scalar_and_row[1, 64], src, dst)
    np.testing.assert_array_equal(dst, src[::-1] + 7)
    seen = {}

    @__global__
    def declare(x):
        seen["float"] = __shared__(float, 8).dtype
        seen["int"] = __shared__(int, 2, 2).dtype

    with use_engine("wave"):
        declare[1, 64](np.zeros(1))
    assert seen == {"float": np.float32, "int": np.int32}


def test_shared_without_dimension_names_the_scalar_form():
    @__global__
    def scalar(x):
        __shared__(int)

    with pytest.raises(TypeError, match=r"scalar `__shared__ T x;` is x = __shared__\(T, 1\)"):
        scalar[1, 64](np.zeros(1))
