"""rocwmma_py.types against hand-computed bit patterns and independent references."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rocwmma_py import types as T

pytestmark = pytest.mark.smoke

ALL_SHORT = ["f16", "bf16", "f32", "f64", "i8", "u8", "i32", "u32", "i4", "u4",
             "f8", "bf8", "f8_fnuz", "bf8_fnuz", "xf32"]  # fmt: skip

# name -> (type object, short name, bits, is_float, is_signed), written out by hand
TYPES = {
    "f16": (np.float16, "f16", 16, True, True),
    "bf16": (ml_dtypes.bfloat16, "bf16", 16, True, True),
    "f32": (np.float32, "f32", 32, True, True),
    "f64": (np.float64, "f64", 64, True, True),
    "i8": (np.int8, "i8", 8, False, True),
    "u8": (np.uint8, "u8", 8, False, False),
    "i32": (np.int32, "i32", 32, False, True),
    "u32": (np.uint32, "u32", 32, False, False),
    "i4": (ml_dtypes.int4, "i4", 4, False, True),
    "u4": (ml_dtypes.uint4, "u4", 4, False, False),
    "f8": (ml_dtypes.float8_e4m3fn, "f8", 8, True, True),
    "bf8": (ml_dtypes.float8_e5m2, "bf8", 8, True, True),
    "f8_fnuz": (ml_dtypes.float8_e4m3fnuz, "f8_fnuz", 8, True, True),
    "bf8_fnuz": (ml_dtypes.float8_e5m2fnuz, "bf8_fnuz", 8, True, True),
    "xf32": (T.xfloat32, "xf32", 32, True, True),
}
LONG_NAMES = {
    "float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64", "int8": "i8",
    "uint8": "u8", "int32": "i32", "uint32": "u32", "int4": "i4", "uint4": "u4",
    "float8_e4m3fn": "f8", "float8_e5m2": "bf8", "float8_e4m3fnuz": "f8_fnuz",
    "float8_e5m2fnuz": "bf8_fnuz", "xfloat32": "xf32",
}  # fmt: skip


def u32(*bits: int) -> np.ndarray:
    return np.array(bits, dtype=np.uint32)


def f32(*bits: int) -> np.ndarray:
    return u32(*bits).view(np.float32)


# ---------------------------------------------------------------- names and properties


@pytest.mark.parametrize("name", ALL_SHORT + list(LONG_NAMES))
def test_resolve_and_short_name(name):
    short = LONG_NAMES.get(name, name)
    typ, expected_short, nbits, flt, signed = TYPES[short]
    assert T.resolve(name) is typ
    assert T.resolve(name.upper()) is typ
    assert T.resolve(typ) is typ
    assert T.short_name(name) == expected_short
    assert T.bits(name) == nbits
    assert T.is_float(name) is flt
    assert T.is_signed(name) is signed
    expected_storage = np.dtype(np.float32 if typ is T.xfloat32 else typ)
    assert T.storage_dtype(name) == expected_storage
    if typ is not T.xfloat32:
        assert T.resolve(np.dtype(typ)) is typ


def test_aliases():
    assert T.float16_t is T.hfloat16_t is np.float16
    assert T.bfloat16_t is ml_dtypes.bfloat16
    assert T.float32_t is np.float32 and T.float64_t is np.float64
    assert (T.int8_t, T.uint8_t, T.int32_t, T.uint32_t) == (np.int8, np.uint8, np.int32, np.uint32)
    assert T.float8_t is T.float8 is ml_dtypes.float8_e4m3fn
    assert T.bfloat8_t is T.bfloat8 is ml_dtypes.float8_e5m2
    assert T.float8_fnuz_t is ml_dtypes.float8_e4m3fnuz
    assert T.bfloat8_fnuz_t is ml_dtypes.float8_e5m2fnuz
    assert T.xfloat32_t is T.xfloat32 and isinstance(T.xfloat32, type)
    assert T.index_t is np.int32
    assert T.int4 is ml_dtypes.int4 and T.uint4 is ml_dtypes.uint4


@pytest.mark.parametrize("bad", ["f17", "float", "", None, np.int64, np.dtype("int16"), 3, "half"])
def test_resolve_unknown_lists_names(bad):
    with pytest.raises(TypeError, match="supported names") as err:
        T.resolve(bad)
    for name in ALL_SHORT:
        assert name in str(err.value)


@pytest.mark.parametrize(
    "name, value",
    [
        ("f16", 65504.0),
        ("bf16", (2 - 2**-7) * 2.0**127),
        ("f32", 3.4028234663852886e38),
        ("f64", 1.7976931348623157e308),
        ("f8", 448.0),
        ("bf8", 57344.0),
        ("f8_fnuz", 240.0),
        ("bf8_fnuz", 57344.0),
        ("xf32", (2 - 2**-10) * 2.0**127),
    ],
)
def test_max_finite(name, value):
    assert T.max_finite(name) == value


def test_max_finite_xf32_is_bit_pattern():
    assert T.max_finite("xf32") == float(f32(0x7F7FE000)[0])


@pytest.mark.parametrize("name", ["i8", "u4", "i32"])
def test_max_finite_rejects_ints(name):
    with pytest.raises(TypeError, match="float type"):
        T.max_finite(name)


# ---------------------------------------------------------------- fp8 saturation and rounding

# name -> (+max bits, -max bits, max, max + one ulp of the format)
FP8 = {
    "f8": (0x7E, 0xFE, 448.0, 480.0),
    "bf8": (0x7B, 0xFB, 57344.0, 65536.0),
    "f8_fnuz": (0x7F, 0xFF, 240.0, 256.0),
    "bf8_fnuz": (0x7F, 0xFF, 57344.0, 65536.0),
}


@pytest.mark.parametrize("name", FP8)
@pytest.mark.parametrize("src", [np.float64, np.float32])
def test_fp8_saturates(name, src):
    pos, neg, mx, above = FP8[name]
    x = np.array([mx, above, mx + 1, 1e30, np.inf, -mx, -above, -1e30, -np.inf], dtype=src)
    got = T.convert(x, name).view(np.uint8)
    np.testing.assert_array_equal(got, [pos, pos, pos, pos, pos, neg, neg, neg, neg])


@pytest.mark.parametrize("name", FP8)
def test_fp8_nan_stays_nan(name):
    got = T.convert(np.array([np.nan, -np.nan]), name)
    assert np.isnan(got.astype(np.float32)).all()


def test_fp8_e4m3fn_specific_points():
    # 449 and 464 (tie between 448 and 480: even mantissa 110 wins) both give 448
    assert T.convert(np.array([449.0, 464.0, 465.0]), "f8").view(np.uint8).tolist() == [0x7E] * 3


@pytest.mark.parametrize(
    "name, values, expected",
    [
        # e4m3fn: 1.0 = 0x38; ties 1.0625 -> 1.0 (even), 1.1875 -> 1.25; subnormal ties
        ("f8", [1.0, 1.0625, 1.1875, 2**-10, 3 * 2**-10, -1.0625], [0x38, 0x38, 0x3A, 0, 2, 0xB8]),
        # e5m2: 1.0 = 0x3C; ties 1.125 -> 1.0, 1.375 -> 1.5
        ("bf8", [1.0, 1.125, 1.375, -1.375], [0x3C, 0x3C, 0x3E, 0xBE]),
        # e4m3fnuz (bias 8): 1.0 = 0x40
        ("f8_fnuz", [1.0, 1.0625, 1.1875, -1.0], [0x40, 0x40, 0x42, 0xC0]),
        # e5m2fnuz (bias 16): 1.0 = 0x40
        ("bf8_fnuz", [1.0, 1.125, 1.375, -1.0], [0x40, 0x40, 0x42, 0xC0]),
    ],
)
def test_fp8_round_to_nearest_even(name, values, expected):
    assert T.convert(np.array(values), name).view(np.uint8).tolist() == expected


def test_float64_rounds_once():
    # just above a tie: one correct rounding goes up; rounding through float32 first would not
    assert T.convert(np.array([1.0625 + 2**-40]), "f8").view(np.uint8).tolist() == [0x39]
    assert T.convert(np.array([1 + 2**-8 + 2**-30]), "bf16").view(np.uint16).tolist() == [0x3F81]


# (mantissa bits, smallest normal, largest input whose RNE result is still finite and in range)
NORMAL_RANGES = {
    "f8": (3, 2.0**-6, 464.0),
    "bf8": (2, 2.0**-14, 57344.0),
    "f8_fnuz": (3, 2.0**-7, 240.0),
    "bf8_fnuz": (2, 2.0**-15, 57344.0),
    "bf16": (7, 2.0**-126, 3e38),
}


def rne_reference(x: np.ndarray, mbits: int) -> np.ndarray:
    """Round the significand to mbits fraction bits with rint (RNE), valid for normal results."""
    m, e = np.frexp(x.astype(np.float64))
    return np.ldexp(np.rint(m * 2.0 ** (mbits + 1)), e - mbits - 1)


@pytest.mark.parametrize("name", NORMAL_RANGES)
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_rne_matches_frexp_reference(name, data):
    mbits, lo, hi = NORMAL_RANGES[name]
    x = np.array(data.draw(st.lists(st.floats(lo, hi), min_size=1, max_size=16)))
    x = x * data.draw(st.sampled_from([1.0, -1.0]))
    for src in (x, x.astype(np.float32)):
        got = T.convert(src, name).astype(np.float64)
        np.testing.assert_array_equal(got, rne_reference(src, mbits))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(allow_nan=False, width=64), min_size=1, max_size=16))
def test_f16_matches_numpy_direct_cast(values):
    x = np.array(values)
    with np.errstate(over="ignore"):
        ref = x.astype(np.float16)  # numpy rounds float64 -> float16 directly
    np.testing.assert_array_equal(T.convert(x, "f16").view(np.uint16), ref.view(np.uint16))


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 0xFFFFFFFF))
def test_bf16_from_f32_matches_integer_rne(bits):
    x = f32(bits)
    got = int(T.convert(x, "bf16").view(np.uint16)[0])
    if np.isnan(x[0]):
        assert (got & 0x7F80) == 0x7F80 and (got & 0x7F)
    else:  # classic bit trick: add 0x7FFF plus the lowest kept bit, then drop 16 bits
        assert got == (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16


# ---------------------------------------------------------------- f16 / bf16 hand-computed ties


@pytest.mark.parametrize(
    "name, values, expected",
    [
        ("f16", [1 + 2**-11, 1 + 3 * 2**-11, 65519.0, 65520.0, -(1 + 2**-11)],
         [0x3C00, 0x3C02, 0x7BFF, 0x7C00, 0xBC00]),
        ("bf16", [1 + 2**-8, 1 + 3 * 2**-8, 257.0, 259.0, -(1 + 2**-8)],
         [0x3F80, 0x3F82, 0x4380, 0x4382, 0xBF80]),
    ],
)  # fmt: skip
def test_half_ties(name, values, expected):
    for src in (np.float64, np.float32):
        got = T.convert(np.array(values, dtype=src), name).view(np.uint16)
        assert got.tolist() == expected


def test_bf16_overflow_is_inf():
    assert T.convert(f32(0x7F7FFFFF), "bf16").view(np.uint16).tolist() == [0x7F80]


def test_int_sources_round_to_float():
    assert T.convert(np.array([257, 259], np.int32), "bf16").view(np.uint16).tolist() == [
        0x4380,
        0x4382,
    ]
    assert T.convert(np.array([16777217], np.int32), "f32").tolist() == [16777216.0]


def test_scalar_input_gives_0d():
    got = T.convert(1.5, "f16")
    assert got.shape == () and got.dtype == np.float16 and float(got) == 1.5


@pytest.mark.parametrize("bad", [np.array([1 + 2j]), np.array(["a"]), "abc"])
def test_convert_rejects_non_numeric(bad):
    with pytest.raises(TypeError, match="cannot convert"):
        T.convert(bad, "f16")


# ---------------------------------------------------------------- xfloat32

XF32_CASES = [
    # input,     truncate,   rne
    (0x3F801FFF, 0x3F800000, 0x3F802000),
    (0x3F801000, 0x3F800000, 0x3F800000),  # tie, kept mantissa even
    (0x3F803000, 0x3F802000, 0x3F804000),  # tie, kept mantissa odd -> up
    (0xBF801FFF, 0xBF800000, 0xBF802000),
    (0x3F800FFF, 0x3F800000, 0x3F800000),
    (0x7F7FFFFF, 0x7F7FE000, 0x7F800000),  # RNE above max -> inf
    (0x7F800000, 0x7F800000, 0x7F800000),  # +inf
    (0xFF800000, 0xFF800000, 0xFF800000),  # -inf
    (0x7FC00000, 0x7FC00000, 0x7FC00000),  # quiet NaN
    (0x00001FFF, 0x00000000, 0x00002000),  # subnormal
]


def test_xf32_truncate_and_rne():
    x = f32(*(c[0] for c in XF32_CASES))
    trunc = [c[1] for c in XF32_CASES]
    rne = [c[2] for c in XF32_CASES]
    assert T.to_xfloat32(x).view(np.uint32).tolist() == trunc
    assert T.to_xfloat32(x, rounding="truncate").view(np.uint32).tolist() == trunc
    assert T.convert(x, "xf32").view(np.uint32).tolist() == trunc
    assert T.convert(x, T.xfloat32).dtype == np.float32
    assert T.to_xfloat32(x, rounding="rne").view(np.uint32).tolist() == rne


def test_xf32_nan_with_low_payload():
    x = f32(0x7F800001)
    assert T.to_xfloat32(x, rounding="rne").view(np.uint32).tolist() == [0x7F802000]  # NaN
    assert T.to_xfloat32(x).view(np.uint32).tolist() == [0x7F800000]  # as rocWMMA truncates


def test_xf32_bad_rounding():
    with pytest.raises(ValueError, match="truncate"):
        T.to_xfloat32(1.0, rounding="nearest")


# ---------------------------------------------------------------- integer conversions


def test_float_to_int_truncates_toward_zero():
    x = np.array([2.7, -2.7, 0.5, -0.5, 7.99, -7.99])
    assert T.convert(x, "i32").tolist() == [2, -2, 0, 0, 7, -7]
    assert T.convert(x, "i4").astype(int).tolist() == [2, -2, 0, 0, 7, -7]
    assert T.convert(x.astype(np.float16), "i8").tolist() == [2, -2, 0, 0, 7, -7]


def test_float_to_int_saturates():
    x = np.array([1e10, -1e10, np.inf, -np.inf, np.nan])
    assert T.convert(x, "i32").tolist() == [2147483647, -2147483648, 2147483647, -2147483648, 0]
    assert T.convert(x, "u32").tolist() == [4294967295, 0, 4294967295, 0, 0]
    assert T.convert(np.array([-1.0, 255.9, 256.0]), "u8").tolist() == [0, 255, 255]
    assert T.convert(np.array([7.9, -8.9, 100.0]), "i4").astype(int).tolist() == [7, -8, 7]
    assert T.convert(np.array([-3.0, 15.5, 99.0]), "u4").astype(int).tolist() == [0, 15, 15]


def test_int_to_int_wraps():
    assert T.convert(np.array([300, -129, 127]), "i8").tolist() == [44, 127, 127]
    assert T.convert(np.array([-1]), "u8").tolist() == [255]
    assert T.convert(np.array([-1], np.int32), "u32").tolist() == [4294967295]
    assert T.convert(np.array([9, -9, 16]), "i4").astype(int).tolist() == [-7, 7, 0]
    assert T.convert(np.array([17, -1]), "u4").astype(int).tolist() == [1, 15]
    assert T.convert(np.array([-1, 7], ml_dtypes.int4), "u4").astype(int).tolist() == [15, 7]
    assert T.convert(300, "i8").tolist() == 44


# ---------------------------------------------------------------- pack / unpack


@pytest.mark.parametrize(
    "elements, name, words",
    [
        (np.array([1.0, 2.0], np.float16), "f16", [0x40003C00]),
        (np.array([1.0, 2.0], ml_dtypes.bfloat16), "bf16", [0x40003F80]),
        (np.array([1, 2, 3, -1], np.int8), "i8", [0xFF030201]),
        ([1, 2, 3, -1], "i8", [0xFF030201]),
        ([1, 2, 3, 255], "u8", [0xFF030201]),
        ([1, 2, 3, 4, 5, 6, 7, -1], "i4", [0xF7654321]),
        (np.array([1, 2, 3, 4, 5, 6, 7, -1], ml_dtypes.int4), "i4", [0xF7654321]),
        ([1, 2, 3, 4, 5, 6, 7, 15], "u4", [0xF7654321]),
        (np.array([1.0]), "f64", [0x00000000, 0x3FF00000]),
        (np.array([1.0, 2.0, 0.5, -1.0], ml_dtypes.float8_e4m3fn), "f8", [0xB8304038]),
        (np.array([1.0, -2.0], np.float32), "f32", [0x3F800000, 0xC0000000]),
        (np.array([-1], np.int32), "i32", [0xFFFFFFFF]),
        (f32(0x3F802000), "xf32", [0x3F802000]),
    ],
)
def test_pack_known_words(elements, name, words):
    got = T.pack(elements, name)
    assert got.dtype == np.uint32 and got.tolist() == words
    back = T.unpack(u32(*words), name)
    ref = np.asarray(elements).astype(T.storage_dtype(name))
    assert back.dtype == T.storage_dtype(name)
    np.testing.assert_array_equal(back.astype(np.float64), ref.astype(np.float64))


def test_unpack_int4_sign_extends():
    assert T.unpack(u32(0x8F0F7F01), "i4").astype(int).tolist() == [1, 0, -1, 7, -1, 0, -1, -8]
    assert T.unpack(u32(0x8F0F7F01), "u4").astype(int).tolist() == [1, 0, 15, 7, 15, 0, 15, 8]


def test_pack_leading_axes():
    x = np.arange(24, dtype=np.int8).reshape(2, 3, 4)
    got = T.pack(x, "i8")
    assert got.shape == (2, 3, 1)
    assert got[1, 2, 0] == 0x17161514
    assert T.unpack(np.array([[0x40003C00], [-1]], np.int32), "f16").shape == (2, 2)


def test_pack_errors():
    with pytest.raises(ValueError, match="multiple of 32"):
        T.pack(np.ones(3, np.float16), "f16")
    with pytest.raises(ValueError, match="multiple of 32"):
        T.pack(np.ones(4, ml_dtypes.int4), "i4")
    with pytest.raises(TypeError, match="float16.*float64|float64.*float16"):
        T.pack(np.ones(2), "f16")
    with pytest.raises(TypeError, match="float32"):
        T.pack(np.ones(1, np.float16), "xf32")
    with pytest.raises(ValueError, match=r"range \[-8, 7\]"):
        T.pack([8, 0, 0, 0, 0, 0, 0, 0], "i4")
    with pytest.raises(ValueError, match="multiple of 64"):
        T.unpack(u32(1, 2, 3), "f64")
    with pytest.raises(TypeError, match="int32/uint32"):
        T.unpack(np.ones(2), "f16")


ROUNDTRIP_NAMES = ALL_SHORT


@pytest.mark.parametrize("name", ROUNDTRIP_NAMES)
@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_words_roundtrip_bytes(name, data):
    nwords = 2 * data.draw(st.integers(0, 6))
    word = st.integers(0, 2**32 - 1)
    words = np.array(data.draw(st.lists(word, min_size=nwords, max_size=nwords)), np.uint32)
    elems = T.unpack(words, name)
    assert elems.shape == (nwords * 32 // T.bits(name),)
    assert T.pack(elems, name).tobytes() == words.tobytes()


@pytest.mark.parametrize("name", [n for n in ROUNDTRIP_NAMES if T.bits(n) >= 8])
@settings(max_examples=50, deadline=None)
@given(raw=st.integers(1, 4).flatmap(lambda k: st.binary(min_size=16 * k, max_size=16 * k)))
def test_pack_matches_little_endian_bytes(name, raw):
    elems = np.frombuffer(raw, dtype=T.storage_dtype(name)).reshape(2, -1)
    ref = [int.from_bytes(raw[i : i + 4], "little") for i in range(0, len(raw), 4)]
    assert T.pack(elems, name).ravel().tolist() == ref
    assert T.unpack(T.pack(elems, name), name).tobytes() == raw


@pytest.mark.parametrize("name, lo", [("i4", -8), ("u4", 0)])
@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_pack_nibbles_reference(name, lo, data):
    values = data.draw(st.lists(st.integers(lo, lo + 15), min_size=8, max_size=8))
    ref = sum((v & 0xF) << (4 * i) for i, v in enumerate(values))
    assert T.pack(values, name).tolist() == [ref]
    assert T.unpack(u32(ref), name).astype(int).tolist() == values


# ---------------------------------------------------------------- as_elements / from_elements


def test_as_elements_words_equal_elements():
    elements = np.array([[1, 2, 3, 4, -128, -3, -2, -1], [0, 0, 0, 0, 5, 6, 7, 8]], np.int8)
    words_u32 = np.array([[0x04030201, 0xFFFEFD80], [0, 0x08070605]], np.uint32)
    words_i32 = words_u32.view(np.int32)
    words_i64 = np.array([0xFFFEFD8004030201 - 2**64, 0x0807060500000000], np.int64)
    for values in (elements, words_i32, words_u32, words_i64):
        got = T.as_elements(values, "i8", 8)
        assert got.dtype == np.int8
        np.testing.assert_array_equal(got, elements)


def test_as_elements_other_types():
    assert T.as_elements(u32(0xB8304038), "f8", 4).astype(float).tolist() == [[1, 2, 0.5, -1]]
    nibbles = T.as_elements(u32(0xF7654321), "i4", 8)
    assert nibbles.astype(int).tolist() == [[1, 2, 3, 4, 5, 6, 7, -1]]
    assert T.as_elements(u32(0x40003C00), "f16", 2).tolist() == [[1.0, 2.0]]
    xf = T.as_elements(u32(0x3F801FFF), "xf32", 1)  # bits unchanged, not re-rounded
    assert xf.dtype == np.float32 and xf.view(np.uint32).tolist() == [[0x3F801FFF]]
    nib = np.array([[1, -1]], ml_dtypes.int4)
    assert T.as_elements(nib, "u8", 1).tolist() == [[0xF1]]


def test_as_elements_no_copy():
    a = np.ones((4, 2), np.float16)
    assert T.as_elements(a, "f16", 2) is a


@pytest.mark.parametrize(
    "values, name, count",
    [
        (np.zeros((4, 1), np.int32), "i8", 8),
        (np.zeros((4, 2), np.int8), "f16", 2),
        (np.zeros(4, np.int64), "f32", 1),
        (np.zeros((4, 1), np.int32), "i4", 4),
    ],
)
def test_as_elements_wrong_bytes(values, name, count):
    with pytest.raises(ValueError, match="bytes per lane"):
        T.as_elements(values, name, count)


def test_as_elements_bad_rank():
    with pytest.raises(ValueError, match="lanes"):
        T.as_elements(np.zeros((2, 2, 2), np.int8), "i8", 2)


def test_from_elements():
    e = np.array([[1, 2, 3, 4, 5, 6, 7, -1]], np.int8)
    words = T.from_elements(e, np.int32, 2)
    assert words.dtype == np.int32 and words.view(np.uint32).tolist() == [[0x04030201, 0xFF070605]]
    assert T.from_elements(e, np.int64, 1).view(np.uint64).tolist() == [[0xFF07060504030201]]
    h = np.array([[1.0, 2.0]], np.float16)
    assert T.from_elements(h, np.uint32, 1).tolist() == [[0x40003C00]]
    assert T.from_elements(h, "u32", 1).dtype == np.uint32
    nib = np.array([[1, 2, 3, 4, 5, 6, 7, -1]], ml_dtypes.int4)
    assert T.from_elements(nib, np.uint32, 1).tolist() == [[0xF7654321]]
    back = T.from_elements(u32(0xF7654321), "i4", 8)
    assert back.dtype == np.dtype(ml_dtypes.int4) and back.astype(int).tolist()[0][-1] == -1
    with pytest.raises(ValueError, match="bytes per lane"):
        T.from_elements(e, np.int32, 1)
