"""The chain collapse test (`models.collapsed_chain`) of the exact model against brute force:
every sum of a subset of an output's terms (C and the K products: the partial sums of any
grouping) checked for exact representability with Fractions and the format definitions; and
chained accumulates equal one accumulate whenever it collapses."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rocwmma_py import types as T
from rocwmma_py.arch import get_arch
from rocwmma_py.arch.models import EXACT, arithmetic, collapsed_chain
from rocwmma_py.arch.numerics import accumulate, decode

pytestmark = pytest.mark.smoke

# precision p, smallest normal exponent, every finite value below 2**top
FORMATS = {T.float32: (24, -126, 128), T.float16: (11, -14, 16), T.bfloat16: (8, -126, 128)}
I32 = (-(2**31), 2**31 - 1)
# an instruction accumulating in each type (the collapse sums in its C type)
INSTRUCTIONS = {T.float32: ("gfx942", "mfma_f32_16x16x16f16"),
                T.float16: ("gfx1100", "wmma_f16_16x16x16_f16_w32"),
                T.bfloat16: ("gfx1100", "wmma_bf16_16x16x16_bf16_w32"),
                T.int32: ("gfx942", "mfma_i32_16x16x32_i8")}


def chain_is_exact(a, b, c, t) -> bool:
    """Whether the exact model's chain over these terms collapses to one sum."""
    arch, name = INSTRUCTIONS[t]
    instr = get_arch(arch).instructions[name]
    return collapsed_chain(arithmetic(EXACT, instr), instr, a, b, c, t) is not None


def representable(v: Fraction, t) -> bool:
    if t is T.int32:
        return v.denominator == 1 and I32[0] <= v <= I32[1]
    p, emin, top = FORMATS[t]
    if v == 0:
        return True
    mag = abs(v)
    e = mag.numerator.bit_length() - mag.denominator.bit_length()
    if Fraction(2) ** e > mag:
        e -= 1
    quantum = Fraction(2) ** (max(e, emin) - p + 1)
    return (mag / quantum).denominator == 1 and mag <= (2**p - 1) * Fraction(2) ** (top - p)


def every_partial_sum_representable(a, b, c, t) -> bool:
    for i, j in np.ndindex(c.shape):
        terms = [Fraction(c[i, j].item())] + [Fraction(x.item()) * Fraction(y.item())
                                              for x, y in zip(a[i], b[:, j], strict=True)]
        for n in range(1, len(terms) + 1):
            for subset in itertools.combinations(terms, n):
                if not representable(sum(subset), t):
                    return False
    return True


@st.composite
def tiles(draw):
    """Small tiles of integers times powers of two, sized to land near each format's limits."""
    t = draw(st.sampled_from([T.float32, T.float16, T.bfloat16, T.int32]))
    k = draw(st.integers(1, 4))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    if t is T.int32:
        a = rng.integers(-128, 128, (2, k))
        b = rng.integers(-128, 128, (k, 2))
        c = rng.integers(-(2**31), 2**31, (2, 2)) >> int(rng.integers(0, 31))
        return a, b, c, t
    p = FORMATS[t][0]
    bits = draw(st.integers(1, p // 2 + 2))
    shift = draw(st.integers(-80, 20)) if t is not T.float16 else draw(st.integers(-14, 4))
    a = rng.integers(-(2**bits), 2**bits + 1, (2, k)) * 2.0 ** shift
    b = rng.integers(-(2**bits), 2**bits + 1, (k, 2)) * 2.0 ** int(rng.integers(-3, 3))
    c = rng.integers(-(2 ** (2 * bits)), 2 ** (2 * bits) + 1, (2, 2)) * 2.0 ** (shift - 1)
    return a, b, c, t


@settings(max_examples=150, deadline=None)
@given(tiles())
def test_true_only_when_every_partial_sum_is_representable(tile):
    a, b, c, t = tile
    if chain_is_exact(a, b, c, t):
        assert every_partial_sum_representable(a, b, c, t)


@settings(max_examples=60, deadline=None)
@given(tiles(), st.integers(1, 3))
def test_true_means_chaining_changes_nothing(tile, chunk):
    """One accumulate over K gives the bits of instruction-by-instruction chaining."""
    a, b, c, t = tile
    if not chain_is_exact(a, b, c, t):
        return
    chained = c
    for k0 in range(0, a.shape[1], chunk):
        chained = decode(accumulate(a[:, k0:k0 + chunk], b[k0:k0 + chunk], chained, t), t)
    assert np.array_equal(chained, decode(accumulate(a, b, c, t), t))


@pytest.mark.parametrize("t", [T.float32, T.float16, T.bfloat16])
@pytest.mark.parametrize("excess", [-1, 1])
def test_largest_sum_at_the_precision_limit(t, excess):
    """2**(p-1) + 2**(p-1) + excess: 2**p - 1 is exact, 2**p + 1 is not."""
    p = FORMATS[t][0]
    a, b = np.array([[2.0 ** (p - 1)]]), np.array([[1.0]])
    c = np.array([[2.0 ** (p - 1) + excess]])
    want = excess < 0
    assert every_partial_sum_representable(a, b, c, t) is want
    assert chain_is_exact(a, b, c, t) is want


@pytest.mark.parametrize("t,a_exp,b_exp,want", [
    (T.float16, -12, -12, True), (T.float16, -13, -12, False),  # 2**-24 is f16's quantum
    (T.bfloat16, -66, -67, True), (T.bfloat16, -67, -67, False),  # 2**-133
    (T.float32, -75, -74, True), (T.float32, -75, -75, False),  # 2**-149
])
def test_subnormal_quantum(t, a_exp, b_exp, want):
    a, b = np.array([[2.0**a_exp, 2.0**a_exp]]), np.array([[2.0**b_exp], [3 * 2.0**b_exp]])
    c = np.zeros((1, 1))
    assert every_partial_sum_representable(a, b, c, t) is want
    assert chain_is_exact(a, b, c, t) is want


@pytest.mark.parametrize("c_value,want", [(2.0**15 - 32, True), (2.0**15 - 16, False)])
def test_f16_overflow(c_value, want):
    """2**15 + 2**15 - 32 = 65504 is f16's largest value; 65520 rounds to inf."""
    a, b, c = np.array([[2.0**15]]), np.array([[1.0]]), np.array([[c_value]])
    assert every_partial_sum_representable(a, b, c, T.float16) is want
    assert chain_is_exact(a, b, c, T.float16) is want


@pytest.mark.parametrize("c_value,want", [(2**31 - 1 - 16, True), (2**31 - 16, False)])
def test_int32_range(c_value, want):
    a, b, c = np.array([[4, 4]]), np.array([[2], [2]]), np.array([[c_value]])
    assert every_partial_sum_representable(a, b, c, T.int32) is want
    assert chain_is_exact(a, b, c, T.int32) is want


def test_cancellation_is_not_exact_and_chaining_differs():
    """2**60 + 1 - 2**60: the whole sum is 1, but a partial sum is not an f32 value."""
    a, b = np.array([[2.0**30, 1.0, -(2.0**30)]]), np.array([[2.0**30], [1.0], [2.0**30]])
    c = np.zeros((1, 1))
    assert not chain_is_exact(a, b, c, T.float32)
    assert accumulate(a, b, c, T.float32)[0, 0] == 1.0
    step = decode(accumulate(a[:, :2], b[:2], c, T.float32), T.float32)
    assert accumulate(a[:, 2:], b[2:], step, T.float32)[0, 0] == 0.0


def test_nonfinite_and_zero():
    a, b, c = np.ones((2, 2)), np.ones((2, 2)), np.zeros((2, 2))
    assert chain_is_exact(a * 0, b, c, T.float16)
    for bad in (np.nan, np.inf):
        c[0, 0] = bad
        assert not chain_is_exact(a, b, c, T.float32)


@pytest.mark.parametrize("t", [T.float32, T.float16, T.bfloat16])
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_collapsed_sum_equals_the_certified_one(t, seed):
    """A collapsed chain (every partial sum exact) is summed in float64 without a certificate:
    bit for bit what the certified exact model gives, -0 of C and zero products included."""
    rng = np.random.default_rng(seed)
    a = rng.integers(-1, 2, (4, 16, 8)).astype(np.float64) * 2.0 ** rng.integers(-4, 4)
    b = rng.integers(-1, 2, (4, 8, 16)).astype(np.float64)  # sums fit bf16's 8 bits too
    a[rng.random(a.shape) < 0.3] = -0.0
    c = rng.integers(-2, 3, (4, 16, 16)).astype(np.float64)
    c[rng.random(c.shape) < 0.3] = -0.0
    arch, name = INSTRUCTIONS[t]
    instr = get_arch(arch).instructions[name]
    got = collapsed_chain(arithmetic(EXACT, instr), instr, a, b, c, t)
    assert got is not None
    want = accumulate(a, b, c, instr.result_type)
    assert got.d.dtype == want.dtype and got.d.tobytes() == want.tobytes()
