"""gfx950's `cvt_scalef32_2xpk16_{fp6,bf6}_f32` against values computed here independently.

Oracle: each logical value x / 2**(s - 127) is cast to ml_dtypes' float6 (RNE, saturating),
and the 6-bit codes are packed by hand with Python ints in the instruction model's order:
field 2i holds src0[i], field 2i + 1 holds src1[i], field f at bits 6f..6f+5 of the lane's
little-endian 192-bit string (gem5/gem5 src/arch/amdgpu/vega/insts/vop3_cvt.hh @ 613f788,
Inst_VOP3__V_CVT_SCALEF32_2XPK16_F32; HIP's host fallback concatenates instead).
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from rocwmma_py import amdgcn
from rocwmma_py.errors import ModifierError, UnsupportedInstructionError
from rocwmma_py.runtime import use_arch

pytestmark = pytest.mark.smoke

FORMATS = {"fp6": ml_dtypes.float6_e2m3fn, "bf6": ml_dtypes.float6_e3m2fn}


def scale_float(s: int) -> np.float32:
    """A float32 whose exponent field is the E8M0 scale s (2**(s - 127))."""
    return np.uint32(s << 23).view(np.float32)


def expected_words(src0: np.ndarray, src1: np.ndarray, fmt: str, s: int) -> list[int]:
    """Six dwords of one lane, packed by hand in the interleaved order."""
    bits = 0
    for i in range(16):
        for half, src in enumerate((src0, src1)):
            value = np.float32(float(src[i]) / 2.0 ** (s - 127))
            code = int(np.array(value).astype(FORMATS[fmt]).view(np.uint8)) & 0x3F
            bits |= code << (6 * (2 * i + half))
    return [(bits >> (32 * w)) & 0xFFFFFFFF for w in range(6)]


@pytest.mark.parametrize("fmt", ["fp6", "bf6"])
@pytest.mark.parametrize("s", [127, 125, 130])
def test_2xpk16_interleaves_src0_and_src1(fmt, s):
    rng = np.random.default_rng(11)
    src0 = rng.normal(0, 6, (8, 16)).astype(np.float32)
    src1 = rng.normal(0, 6, (8, 16)).astype(np.float32)
    src0[0, :4] = [1e6, -1e6, 0.0, -0.0]    # saturation and signed zero
    with use_arch("gfx950"):
        words = np.asarray(getattr(amdgcn, f"cvt_scalef32_2xpk16_{fmt}_f32")(
            src0, src1, scale_float(s)))
    assert words.shape == (8, 6) and words.dtype == np.uint32
    for lane in range(8):
        assert words[lane].tolist() == expected_words(src0[lane], src1[lane], fmt, s)


def test_2xpk16_order_is_not_the_concatenation():
    """src0 all 1.0 and src1 all 2.0: the interleaved fields alternate (HIP's host fallback
    would give sixteen 1.0 codes, then sixteen 2.0 codes)."""
    one, two = 0b001000, 0b010000    # e2m3 codes of 1.0 and 2.0 (bias 1)
    with use_arch("gfx950"):
        words = np.asarray(amdgcn.cvt_scalef32_2xpk16_fp6_f32(
            np.ones(16, np.float32), np.full(16, 2.0, np.float32), scale_float(127)))
    bits = sum(int(w) << (32 * k) for k, w in enumerate(words.tolist()))
    fields = [(bits >> (6 * f)) & 0x3F for f in range(32)]
    assert fields == [one, two] * 16


def test_2xpk16_round_trips_through_pk32_f32_fp6():
    x = np.arange(-16, 16, dtype=np.float32) / 4    # exact in e2m3
    with use_arch("gfx950"):
        words = amdgcn.cvt_scalef32_2xpk16_fp6_f32(x[0::2], x[1::2], scale_float(127))
        back = np.asarray(amdgcn.cvt_scalef32_pk32_f32_fp6(words, scale_float(127)))
    assert back.tolist() == x.tolist()


def test_2xpk16_bad_operands_and_targets():
    x = np.zeros(16, np.float32)
    with use_arch("gfx950"):
        with pytest.raises(ModifierError, match="16 floats per lane"):
            amdgcn.cvt_scalef32_2xpk16_fp6_f32(np.zeros(32, np.float32), x, 1.0)
        with pytest.raises(ModifierError, match=r"same lanes; got shapes \(2, 16\)"):
            amdgcn.cvt_scalef32_2xpk16_bf6_f32(np.zeros((2, 16)), np.zeros((3, 16)), 1.0)
    with use_arch("gfx942"), pytest.raises(UnsupportedInstructionError, match="gfx950"):
        amdgcn.cvt_scalef32_2xpk16_bf6_f32(x, x, 1.0)


def test_2xpk16_is_listed_with_the_other_conversions():
    assert {"cvt_scalef32_2xpk16_fp6_f32", "cvt_scalef32_2xpk16_bf6_f32"} <= set(
        amdgcn.MX_CONVERT_BUILTINS)
    assert len(amdgcn.MX_CONVERT_BUILTINS) == 51
