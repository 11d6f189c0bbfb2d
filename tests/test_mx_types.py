"""OCP MX element types (fp6 e2m3/e3m2, fp4 e2m1, E8M0) and gfx950's scaled / stochastic
conversion builtins, against independent oracles written here from the format definitions:

- values: sign / exponent / mantissa fields decoded with Python fractions (OCP MX v1.0:
  e2m3 bias 1, e3m2 bias 3, e2m1 bias 1, no Inf/NaN; E8M0 = 2**(e - 127), 0xFF NaN; fp8
  e4m3fn bias 7 with S.1111.111 NaN; e5m2 bias 15 with IEEE Inf/NaN);
- register packing: value e at bits w*e .. w*e + w - 1 of the lane's little-endian bit
  string (ROCm/clr amd_hip_ocp_host.hpp `fp6x32_packed`: 32 six-bit fields in order; the
  CDNA4 ISA packs fp4 8 and fp8 4 per dword the same way), built here with Python ints;
- conversions: RNE of the exact quotient x / 2**(s - 127) onto the format's value set, with
  saturation; stochastic rounding as HIP's host reference defines it (`from_float_sr`).
"""

from __future__ import annotations

import bisect
import functools
import math
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

from rocwmma_py import amdgcn
from rocwmma_py import types as T
from rocwmma_py.errors import ModifierError, UnsupportedInstructionError
from rocwmma_py.runtime import use_arch

pytestmark = pytest.mark.smoke

# name: (type, exponent bits, mantissa bits, bias, special) - special: None (all finite),
# "e4m3" (only S.1111.111 is NaN), "ieee" (max exponent = Inf/NaN)
FORMATS = {
    "fp6": (T.float6_e2m3, 2, 3, 1, None),
    "bf6": (T.float6_e3m2, 3, 2, 3, None),
    "fp4": (T.float4_e2m1, 2, 1, 1, None),
    "fp8": (T.float8, 4, 3, 7, "e4m3"),
    "bf8": (T.bfloat8, 5, 2, 15, "ieee"),
}


def decode(code: int, e_bits: int, m_bits: int, bias: int, special) -> Fraction | float:
    """The value of one code from its fields (math.nan / math.inf for the specials)."""
    sign = -1 if code >> (e_bits + m_bits) & 1 else 1
    e = code >> m_bits & ((1 << e_bits) - 1)
    m = code & ((1 << m_bits) - 1)
    if special == "e4m3" and e == (1 << e_bits) - 1 and m == (1 << m_bits) - 1:
        return math.nan
    if special == "ieee" and e == (1 << e_bits) - 1:
        return math.nan if m else sign * math.inf
    if e == 0:
        return sign * Fraction(m, 1 << m_bits) * Fraction(2) ** (1 - bias)
    return sign * (1 + Fraction(m, 1 << m_bits)) * Fraction(2) ** (e - bias)


@functools.cache
def finite_values(name: str) -> dict[Fraction, int]:
    """Every finite value of a format -> its code (positive zero for 0)."""
    t, e_bits, m_bits, bias, special = FORMATS[name]
    out: dict[Fraction, int] = {}
    for code in range(1 << (1 + e_bits + m_bits)):
        v = decode(code, e_bits, m_bits, bias, special)
        if isinstance(v, Fraction) and v not in out:
            out[v] = code
    return out


@functools.cache
def _grid(name: str) -> list[Fraction]:
    return sorted(finite_values(name))


def rne(x: Fraction, name: str, negative: bool = False) -> int:
    """x rounded to nearest (ties to the even code) in a format, saturating to +-max; a
    zero result keeps the sign of x (`negative` for x = -0.0 or tiny negatives)."""
    values, grid = finite_values(name), _grid(name)
    x = min(max(x, grid[0]), grid[-1])
    i = bisect.bisect_left(grid, x)
    near = grid[max(i - 1, 0):i + 1]
    best = min(near, key=lambda v: (abs(v - x), values[v] & 1))
    if best == 0 and (x < 0 or negative):
        _, e_bits, m_bits, _, _ = FORMATS[name]
        return 1 << (e_bits + m_bits)
    return values[best]


def pack_bits(codes: list[int], width: int) -> list[int]:
    """32-bit words of codes packed at bits width*e (little-endian bit string)."""
    big = sum(c << (width * e) for e, c in enumerate(codes))
    return [big >> (32 * w) & 0xFFFFFFFF for w in range(len(codes) * width // 32)]


# ---- types -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", FORMATS)
def test_every_code_decodes_as_its_fields_say(name):
    t, *fields = FORMATS[name]
    bits = T.bits(t)
    codes = np.arange(1 << bits, dtype=np.uint8)
    got = codes.view(T.storage_dtype(t)).astype(np.float64)
    for code, value in zip(codes.tolist(), got.tolist(), strict=True):
        want = decode(code, *fields)
        if isinstance(want, float) and math.isnan(want):
            assert math.isnan(value), (name, code)
        else:
            assert value == want, (name, code)


def test_e8m0_is_a_power_of_two_with_a_nan():
    codes = np.arange(256, dtype=np.uint8)
    got = codes.view(T.e8m0).astype(np.float64)
    for code, value in zip(codes.tolist(), got.tolist(), strict=True):
        if code == 0xFF:
            assert math.isnan(value)
        else:
            assert value == 2.0 ** (code - 127)


@pytest.mark.parametrize("name,count", [("fp6", 16), ("fp6", 32), ("bf6", 32), ("fp4", 8),
                                        ("fp4", 32), ("fp8", 4), ("bf8", 32)])
def test_pack_unpack_against_bit_level_packer(name, count):
    t = FORMATS[name][0]
    width = T.bits(t)
    rng = np.random.default_rng(count * width)
    codes = rng.integers(0, 1 << width, (5, count)).astype(np.uint8)
    words = T.pack(codes.view(T.storage_dtype(t)), t)
    want = np.array([pack_bits(row, width) for row in codes.tolist()], np.uint32)
    np.testing.assert_array_equal(words, want)
    np.testing.assert_array_equal(T.unpack(words, t).view(np.uint8), codes)
    # as_elements / from_elements: int32 registers per lane <-> elements, the same bytes
    elements = T.as_elements(words.view(np.int32), t, count)
    np.testing.assert_array_equal(elements.view(np.uint8), codes)
    back = T.from_elements(elements, np.int32, words.shape[1])
    np.testing.assert_array_equal(back.view(np.uint32), want)


def test_fp6_value_five_straddles_the_first_two_bytes_and_value_ten_two_words():
    """bits 30..35 hold value 5, bits 60..65 value 10: the packing crosses byte and dword
    boundaries rather than padding (3 dwords for 16 values)."""
    codes = np.zeros(16, np.uint8)
    codes[5], codes[10] = 0b111111, 0b101101
    words = T.pack(codes.view(T.float6_e2m3), "fp6")
    assert words.shape == (3,)
    assert int(words[0]) == 0b11 << 30 and int(words[1]) & 0xF == 0b1111
    assert (int(words[1]) >> 28) == 0b1101 and int(words[2]) & 0b11 == 0b10


def test_names_and_widths():
    for name, t in (("fp6", T.float6_e2m3), ("bf6", T.float6_e3m2), ("fp4", T.float4_e2m1),
                    ("e8m0", T.e8m0), ("float6_e2m3fn", T.float6_e2m3),
                    ("float4_e2m1", T.float4_e2m1)):
        assert T.resolve(name) is t
    assert [T.bits(x) for x in ("fp6", "bf6", "fp4", "e8m0")] == [6, 6, 4, 8]
    assert T.is_float("fp4") and T.max_finite("fp6") == 7.5 and T.max_finite("bf6") == 28


@pytest.mark.parametrize("name", ["fp6", "bf6", "fp4"])
def test_convert_rounds_to_nearest_even_and_saturates(name):
    t = FORMATS[name][0]
    rng = np.random.default_rng(len(name))
    xs = np.concatenate([rng.normal(0, 4, 300), [1e9, -1e9, np.inf, -np.inf]])
    xs = xs.astype(np.float32)
    got = T.convert(xs, t).view(np.uint8)
    for x, code in zip(xs.tolist(), got.tolist(), strict=True):
        top = max(finite_values(name))
        want = rne(Fraction(x) if math.isfinite(x) else Fraction(math.copysign(top, x)), name,
                   math.copysign(1, x) < 0)
        assert code == want, (name, x)
    nan = T.convert(np.array([np.nan, -np.nan]), t).astype(np.float64)
    assert abs(nan[0]) == T.max_finite(t)  # no NaN in the format: the largest magnitude


# ---- conversion builtins -----------------------------------------------------------------


def scale_float(s: int) -> np.float32:
    """The float32 whose exponent field is the E8M0 scale s (what HIP passes as `scale`)."""
    return np.array([s << 23], np.uint32).view(np.float32)[0]


def test_conversions_exist_on_gfx950_only():
    with use_arch("gfx942"), pytest.raises(UnsupportedInstructionError, match="gfx950"):
        amdgcn.cvt_scalef32_pk_fp8_f32(np.zeros(2, np.int16), 1.0, 2.0, np.float32(1), 0)
    with use_arch("gfx1201"), pytest.raises(UnsupportedInstructionError, match="gfx950"):
        amdgcn.cvt_sr_bf16_f32(np.zeros(2, ml_dtypes.bfloat16), 1.0, 0, 0)


@pytest.mark.parametrize("fmt,fn", [("fp8", "cvt_scalef32_pk_fp8_f32"),
                                    ("bf8", "cvt_scalef32_pk_bf8_f32")])
@pytest.mark.parametrize("s", [127, 120, 131])
def test_pk_fp8_f32_against_rne_of_the_exact_quotient(fmt, fn, s):
    rng = np.random.default_rng(s)
    x0 = (rng.normal(0, 30, 64) * 2.0 ** (s - 127)).astype(np.float32)
    x1 = (rng.normal(0, 3000, 64) * 2.0 ** (s - 127)).astype(np.float32)
    old = rng.integers(-2**15, 2**15, (64, 2)).astype(np.int16)
    with use_arch("gfx950"):
        out = getattr(amdgcn, fn)(old, x0, x1, scale_float(s), 1)
    got = np.asarray(out).view(np.uint8).reshape(64, 4)
    np.testing.assert_array_equal(np.asarray(out)[:, 0], old[:, 0])  # word 0 kept
    for lane in range(64):
        for slot, x in ((2, x0[lane]), (3, x1[lane])):
            assert got[lane, slot] == rne(Fraction(float(x)) / Fraction(2) ** (s - 127), fmt)


@pytest.mark.parametrize("fmt,fn", [("fp8", "cvt_scalef32_pk_f32_fp8"),
                                    ("bf8", "cvt_scalef32_pk_f32_bf8")])
def test_pk_f32_fp8_is_value_times_scale(fmt, fn):
    t, *fields = FORMATS[fmt]
    codes = np.arange(256, dtype=np.uint32)
    words = codes << 16 | ((255 - codes) << 24)  # word 1: codes, 255 - codes
    for s in (127, 100, 150):
        with use_arch("gfx950"):
            got = np.asarray(getattr(amdgcn, fn)(words, scale_float(s), 1))
        for code in range(256):
            for value, c in ((got[code, 0], code), (got[code, 1], 255 - code)):
                want = decode(c, *fields)
                if isinstance(want, float):
                    assert math.isnan(value) if math.isnan(want) else value == want
                else:
                    assert value == float(want * Fraction(2) ** (s - 127))


def test_nan_scale_gives_nan_or_the_largest_magnitude():
    with use_arch("gfx950"):
        f = np.asarray(amdgcn.cvt_scalef32_pk_f32_fp8(np.uint32(0x3838), scale_float(255), 0))
        assert np.isnan(f).all()
        w = np.asarray(amdgcn.cvt_scalef32_pk_fp4_f32(0, 1.0, -1.0, scale_float(255), 0))
    assert int(w) == 0b1111_0111  # fp4 has no NaN: +max (0111), -max (1111)


@pytest.mark.parametrize("sel", range(4))
def test_pk_fp4_f32_places_the_pair_in_byte_sel_and_reads_it_back(sel):
    rng = np.random.default_rng(sel)
    x0, x1 = (rng.normal(0, 3, 64).astype(np.float32) for _ in range(2))
    old = rng.integers(0, 2**32, 64).astype(np.uint32)
    with use_arch("gfx950"):
        w = np.asarray(amdgcn.cvt_scalef32_pk_fp4_f32(old, x0, x1, scale_float(127), sel))
        back = np.asarray(amdgcn.cvt_scalef32_pk_f32_fp4(w, scale_float(128), sel))
    for lane in range(64):
        lo, hi = rne(Fraction(float(x0[lane])), "fp4"), rne(Fraction(float(x1[lane])), "fp4")
        want = int(old[lane]) & ~(0xFF << 8 * sel) | (lo | hi << 4) << 8 * sel
        assert int(w[lane]) == want & 0xFFFFFFFF
        for v, code in ((back[lane, 0], lo), (back[lane, 1], hi)):
            assert v == float(decode(code, *FORMATS["fp4"][1:]) * 2)


@pytest.mark.parametrize("fmt,src,fn", [
    ("fp6", np.float16, "cvt_scalef32_pk32_fp6_f16"),
    ("bf6", np.float16, "cvt_scalef32_pk32_bf6_f16"),
    ("fp6", ml_dtypes.bfloat16, "cvt_scalef32_pk32_fp6_bf16"),
    ("bf6", ml_dtypes.bfloat16, "cvt_scalef32_pk32_bf6_bf16"),
])
def test_pk32_fp6_packs_32_rne_values_in_6_dwords(fmt, src, fn):
    rng = np.random.default_rng(7)
    x = rng.normal(0, 8, (4, 32)).astype(src)
    with use_arch("gfx950"):
        words = np.asarray(getattr(amdgcn, fn)(x, scale_float(126)))
        back = np.asarray(getattr(amdgcn, f"cvt_scalef32_pk32_f32_{fmt}")(words,
                                                                         scale_float(126)))
    assert words.shape == (4, 6)
    for lane in range(4):
        codes = [rne(Fraction(float(v)) * 2, fmt) for v in x[lane].tolist()]
        assert words[lane].tolist() == pack_bits(codes, 6)
        decoded = [float(decode(c, *FORMATS[fmt][1:]) / 2) for c in codes]
        assert back[lane].tolist() == decoded


# ---- stochastic rounding -----------------------------------------------------------------


def sr_reference(x: float, rng: int, name: str, src_mantissa: int, s: int = 127) -> Fraction:
    """HIP's from_float_sr rule on exact rationals: add the top r random bits one unit
    below the kept mantissa (r = source minus destination mantissa bits), truncate, then
    saturate."""
    _, e_bits, m_bits, bias, _ = FORMATS[name]
    t = Fraction(x) / Fraction(2) ** (s - 127)
    if t == 0:
        return t
    a = abs(t)
    exp = max(math.floor(math.log2(a)), 1 - bias)
    while Fraction(2) ** exp > a:  # log2 of a rational: fix float error
        exp -= 1
    while Fraction(2) ** (exp + 1) <= a and exp + 1 >= 1 - bias:
        exp += 1
    exp = max(exp, 1 - bias)
    r = src_mantissa - m_bits
    unit = Fraction(2) ** (exp - m_bits - r)
    n = math.floor(a / unit) + (rng >> (32 - r))
    v = Fraction(n >> r) * unit * 2**r
    top = Fraction(T.max_finite(FORMATS[name][0]))
    return math.copysign(1, x) * min(v, top)


@pytest.mark.parametrize("fmt,fn", [("fp6", "cvt_scalef32_sr_pk32_fp6_f32"),
                                    ("bf6", "cvt_scalef32_sr_pk32_bf6_f32")])
def test_sr_pk32_fp6_against_the_reference_rule(fmt, fn):
    rng = np.random.default_rng(3)
    x = rng.normal(0, 5, (8, 32)).astype(np.float32)
    seeds = rng.integers(0, 2**32, 8).astype(np.uint32)
    with use_arch("gfx950"):
        words = np.asarray(getattr(amdgcn, fn)(x, seeds, scale_float(127)))
    for lane in range(8):
        codes = T.unpack(words[lane], FORMATS[fmt][0]).view(np.uint8).tolist()
        for v, code in zip(x[lane].tolist(), codes, strict=True):
            assert decode(code, *FORMATS[fmt][1:]) == sr_reference(v, int(seeds[lane]), fmt, 23)


def test_sr_fp8_f32_zero_seed_truncates_and_all_ones_rounds_up():
    x = np.float32(1 + 2**-5)  # between fp8 1.0 and 1.125
    with use_arch("gfx950"):
        lo = int(np.asarray(amdgcn.cvt_scalef32_sr_fp8_f32(0, x, 0, scale_float(127), 2)))
        hi = int(np.asarray(amdgcn.cvt_scalef32_sr_fp8_f32(0, x, 0xFFFFFFFF,
                                                          scale_float(127), 2)))
    assert lo >> 16 == rne(Fraction(1), "fp8") and hi >> 16 == rne(Fraction(9, 8), "fp8")


@pytest.mark.parametrize("fn,t,keep", [("cvt_sr_bf16_f32", ml_dtypes.bfloat16, 16),
                                       ("cvt_sr_f16_f32", np.float16, None)])
def test_cvt_sr_half_matches_the_bit_level_rule(fn, t, keep):
    """bf16: the classic bit rule (f32 bits + (rng >> 16)) >> 16 for finite normal values;
    f16: the rational reference (13 dropped mantissa bits)."""
    rng = np.random.default_rng(11)
    x = rng.normal(0, 100, 256).astype(np.float32)
    seeds = rng.integers(0, 2**32, 256).astype(np.uint32)
    old = np.zeros((256, 2), t)
    with use_arch("gfx950"):
        out = np.asarray(getattr(amdgcn, fn)(old, x, seeds, 1))
    assert (out[:, 0].astype(np.float64) == 0).all()  # element 0 kept
    if keep:
        bits = (x.view(np.uint32).astype(np.uint64) + (seeds >> 16)) >> 16
        np.testing.assert_array_equal(out[:, 1].view(np.uint16), bits.astype(np.uint16))
    else:
        FORMATS["f16"] = (np.float16, 5, 10, 15, "ieee")
        try:
            for v, s, got in zip(x.tolist(), seeds.tolist(), out[:, 1].tolist(), strict=True):
                assert got == float(sr_reference(v, s, "f16", 23))
        finally:
            del FORMATS["f16"]


def test_sr_is_unbiased_on_average():
    x = np.full(4096, 1 + 2**-6, np.float32)  # a quarter of the way from 1 to 1.0625
    seeds = np.random.default_rng(0).integers(0, 2**32, 4096).astype(np.uint32)
    with use_arch("gfx950"):
        out = np.asarray(amdgcn.cvt_scalef32_sr_pk_fp4_f32(
            np.zeros(4096, np.uint32), np.stack([x * 4, x * 4], -1), seeds, scale_float(127), 0))
    lo = out & 0xF  # fp4's neighbours of 4.25: 4 and 6
    values = np.array([float(decode(int(c), *FORMATS["fp4"][1:])) for c in lo])
    assert set(values) == {4.0, 6.0}
    assert abs(values.mean() - float(x[0]) * 4) < 0.05


def test_bad_selectors_are_modifier_errors():
    with use_arch("gfx950"):
        with pytest.raises(ModifierError, match="word_sel"):
            amdgcn.cvt_scalef32_pk_fp8_f32(np.zeros(2, np.int16), 1.0, 1.0, np.float32(1), 2)
        with pytest.raises(ModifierError, match="dst_sel_index"):
            amdgcn.cvt_scalef32_pk_fp4_f32(0, 1.0, 1.0, np.float32(1), 4)
        with pytest.raises(ModifierError, match="byte_sel"):
            amdgcn.cvt_scalef32_sr_fp8_f32(0, 1.0, 0, np.float32(1), 1.5)


# ---- f16 / bf16 sources and destinations -------------------------------------------------

HALF = {"f16": np.float16, "bf16": ml_dtypes.bfloat16}
MANTISSA = {"f32": 23, "f16": 10, "bf16": 7}


@pytest.mark.parametrize("fmt", ["fp8", "bf8"])
@pytest.mark.parametrize("src", ["f16", "bf16"])
def test_pk_fp8_from_half_pairs(fmt, src):
    rng = np.random.default_rng(len(fmt + src))
    x = rng.normal(0, 20, (32, 2)).astype(HALF[src])
    with use_arch("gfx950"):
        out = getattr(amdgcn, f"cvt_scalef32_pk_{fmt}_{src}")(np.zeros((32, 2), np.int16), x,
                                                              scale_float(126), 0)
    got = np.asarray(out).view(np.uint8).reshape(32, 4)
    for lane in range(32):
        for e in range(2):
            assert got[lane, e] == rne(Fraction(float(x[lane, e])) * 2, fmt)
    assert (got[:, 2:] == 0).all()


@pytest.mark.parametrize("fmt", ["fp8", "bf8"])
@pytest.mark.parametrize("dst", ["f16", "bf16"])
def test_pk_half_from_fp8_pairs(fmt, dst):
    t, *fields = FORMATS[fmt]
    finite = [c for c in range(256) if isinstance(decode(c, *fields), Fraction)]
    codes = np.array(finite, np.uint32)
    with use_arch("gfx950"):
        got = np.asarray(getattr(amdgcn, f"cvt_scalef32_pk_{dst}_{fmt}")(codes | codes << 8,
                                                                       scale_float(125), 0))
    assert got.dtype == HALF[dst]
    want = np.array([float(decode(c, *fields) / 4) for c in finite]).astype(HALF[dst])
    np.testing.assert_array_equal(got[:, 0], want)
    np.testing.assert_array_equal(got[:, 1], want)


@pytest.mark.parametrize("fmt", ["fp8", "bf8"])
def test_single_fp8_to_f32_and_f16_pick_their_byte_and_word(fmt):
    t, *fields = FORMATS[fmt]
    src = np.uint32(0x38 << 16 | 0x40)  # byte 2: 0x38, byte 0: 0x40
    old = np.array([7.0, 9.0], np.float16)
    with use_arch("gfx950"):
        f = float(np.asarray(getattr(amdgcn, f"cvt_scalef32_f32_{fmt}")(src, scale_float(128),
                                                                        2)))
        h = np.asarray(getattr(amdgcn, f"cvt_scalef32_f16_{fmt}")(old, src, scale_float(127),
                                                                  0, 1))
    assert f == float(decode(0x38, *fields) * 2)
    assert h[0] == 7.0 and h[1] == float(decode(0x40, *fields))


@pytest.mark.parametrize("fmt", ["fp8", "bf8"])
@pytest.mark.parametrize("src", ["f16", "bf16"])
def test_sr_fp8_from_half_against_the_reference_rule(fmt, src):
    rng = np.random.default_rng(len(src) * 7 + len(fmt))
    x = rng.normal(0, 10, 64).astype(HALF[src])
    seeds = rng.integers(0, 2**32, 64).astype(np.uint32)
    with use_arch("gfx950"):
        out = np.asarray(getattr(amdgcn, f"cvt_scalef32_sr_{fmt}_{src}")(
            np.zeros(64, np.int32), x, seeds, scale_float(127), 3))
    codes = (out.view(np.uint32) >> 24).tolist()
    for v, s, code in zip(x.tolist(), seeds.tolist(), codes, strict=True):
        assert decode(code, *FORMATS[fmt][1:]) == sr_reference(float(v), s, fmt, MANTISSA[src])


@pytest.mark.parametrize("src", ["f16", "bf16"])
def test_fp4_pairs_from_half_rne_and_sr(src):
    rng = np.random.default_rng(len(src))
    x = rng.normal(0, 3, (64, 2)).astype(HALF[src])
    seeds = rng.integers(0, 2**32, 64).astype(np.uint32)
    with use_arch("gfx950"):
        w = np.asarray(getattr(amdgcn, f"cvt_scalef32_pk_fp4_{src}")(0, x, scale_float(127), 1))
        s = np.asarray(getattr(amdgcn, f"cvt_scalef32_sr_pk_fp4_{src}")(
            np.zeros(64, np.uint32), x, seeds, scale_float(127), 3))
        back = np.asarray(getattr(amdgcn, f"cvt_scalef32_pk_{src}_fp4")(w, scale_float(127), 1))
    for lane in range(64):
        lo, hi = (rne(Fraction(float(v)), "fp4", float(v) < 0) for v in x[lane])
        assert int(w[lane]) == (lo | hi << 4) << 8
        assert back[lane].tolist() == [float(decode(c, *FORMATS["fp4"][1:])) for c in (lo, hi)]
        for e, v in enumerate(x[lane].tolist()):
            code = int(s[lane]) >> (24 + 4 * e) & 0xF
            assert decode(code, *FORMATS["fp4"][1:]) == sr_reference(v, int(seeds[lane]), "fp4",
                                                                     MANTISSA[src])


@pytest.mark.parametrize("fmt", ["fp6", "bf6"])
@pytest.mark.parametrize("half", ["f16", "bf16"])
def test_pk32_fp6_half_both_ways_and_sr(fmt, half):
    rng = np.random.default_rng(len(fmt + half))
    x = rng.normal(0, 4, (3, 32)).astype(HALF[half])
    seeds = rng.integers(0, 2**32, 3).astype(np.uint32)
    with use_arch("gfx950"):
        words = np.asarray(getattr(amdgcn, f"cvt_scalef32_pk32_{fmt}_{half}")(x,
                                                                              scale_float(127)))
        back = np.asarray(getattr(amdgcn, f"cvt_scalef32_pk32_{half}_{fmt}")(words,
                                                                            scale_float(129)))
        sr = np.asarray(getattr(amdgcn, f"cvt_scalef32_sr_pk32_{fmt}_{half}")(
            x, seeds, scale_float(127)))
    assert back.dtype == HALF[half]
    t = FORMATS[fmt][0]
    for lane in range(3):
        codes = T.unpack(words[lane], t).view(np.uint8).tolist()
        want = [rne(Fraction(float(v)), fmt, float(v) < 0) for v in x[lane].tolist()]
        assert codes == want
        assert back[lane].astype(np.float64).tolist() == [
            float(decode(c, *FORMATS[fmt][1:]) * 4) for c in codes]
        sr_codes = T.unpack(sr[lane], t).view(np.uint8).tolist()
        for v, code in zip(x[lane].tolist(), sr_codes, strict=True):
            assert decode(code, *FORMATS[fmt][1:]) == sr_reference(
                float(v), int(seeds[lane]), fmt, MANTISSA[half])
