"""The exact model's cheaper checks against exact rational arithmetic: line quanta read from
the top 16 bits of each float64 (tiny float64 subnormals whose top bits are all zero must
still make their line invalid), the per-tile pass of the line certificate, and the addition
test P + C refined per row and column in the tiles that fail it whole (every output it
skips must have an exact float64 P + C), with P summed again at the few boundary hits.
Random and adversarial batches (ties, cancellation, subnormals, huge/tiny mixes, Inf/NaN,
-0) are compared bit for bit."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_exact_speedpaths import (
    KINDS,
    TARGETS,
    expected,
    f16_values,
    operands,
    same,
)

from rocwmma_py import types as T
from rocwmma_py.arch import numerics
from rocwmma_py.arch.numerics import accumulate

# float64 subnormals: top 16 bits all zero (bits below 48 only), and one whose top bits show
HIDDEN = [2.0**-1060, -(2.0**-1040), 2.0**-1074]
SHOWN = 2.0**-1023


@pytest.mark.parametrize("tiny", [*HIDDEN, SHOWN])
def test_lines_with_float64_subnormals_are_invalid(tiny):
    """A float64 subnormal makes its line invalid (d = _NO_BOUND: never certified), alone
    among zeros too; every value of the other lines is a multiple of 2**q below 2**(q+d)
    with the largest at least 2**(q+d-1), along both axes."""
    rng = np.random.default_rng(3)
    x = f16_values(rng, (6, 16), spread=10)
    x[1, 5] = tiny  # beside normal values
    x[2] = 0.0
    x[2, 7] = tiny  # the only non-zero value of its line
    x[3] = 0.0  # an all-zero line
    x[4, ::2] = -0.0
    for lines in (numerics._quanta(x, -1), numerics._quanta(np.swapaxes(x, 0, 1), -2)):
        assert lines.finite
        assert lines.valid.tolist() == [True, False, False, False, True, True]
        assert lines.d[1] == lines.d[2] == numerics._NO_BOUND
        assert lines.d[3] == -numerics._NO_BOUND
        for i in (0, 4, 5):
            values = [abs(Fraction(float(v))) for v in x[i]]
            quantum, span = Fraction(2) ** int(lines.q[i]), int(lines.q[i] + lines.d[i])
            assert all((v / quantum).denominator == 1 for v in values)
            assert Fraction(2) ** (span - 1) <= max(values) < Fraction(2) ** span


def test_a_hidden_subnormal_is_summed_exactly():
    """A@B + C = 2**-100 + 2**-960 + 2**-124 with the 2**-960 the product of a float64
    subnormal whose top bits read as zero: float64 drops it and lands on an f32 tie, which
    only that product decides (up). Read as a zero, the subnormal would leave the pair
    certified (A's line spans 39 bits, B's 1) and the tie rounded to even."""
    a = np.array([[[2.0**-200, 2.0**-1060]]])
    b = np.array([[[2.0**100], [2.0**100]]])
    c = np.array([[[2.0**-124]]], np.float32)
    got = accumulate(a, b, c, T.float32)
    assert same(got, expected(a, b, c, np.float32))
    assert float(got[0, 0, 0]) == float(np.float32(2.0**-100 * (1 + 2.0**-23)))


def narrow_values(rng, shape) -> np.ndarray:
    """f16 values of 11 bits between 2**-2 and 2**3 in magnitude, either sign."""
    significand = rng.integers(1024, 2048, shape) / 1024 * rng.choice([-1.0, 1.0], shape)
    return significand * 2.0 ** rng.integers(-2, 3, shape)


def exact_additions_outside(a, b, c) -> bool:
    """Every certified output outside `_unproven_additions` has P + C (exact P) equal to a
    float64 number: the addition float64 makes there is exact."""
    shape = c.shape
    lines = numerics._quanta(a, -1), numerics._quanta(b, -2)
    spans = (numerics._tile_spans(lines[0], shape[:-2], shape[-2]),
             numerics._tile_spans(lines[1], shape[:-2], shape[-1]))
    ranges = numerics._tile_ranges(c, shape[0])
    looked = set(numerics._unproven_additions(lines, spans, ranges, shape, a.shape[-1]).tolist())
    open_ = set(numerics._uncertified_pairs(*lines, shape, a.shape[-1]).tolist())
    for flat, (t, i, j) in enumerate(np.ndindex(*shape)):
        if flat in looked or flat in open_:
            continue
        total = Fraction(float(c[t, i, j])) + sum(
            Fraction(float(x)) * Fraction(float(y)) for x, y in zip(a[t, i], b[t, :, j],
                                                                    strict=True))
        if Fraction(float(total)) != total:
            return False
    return True


@pytest.mark.parametrize("seed", range(6))
def test_skipped_additions_are_exact(seed):
    """Tiles where a tiny A value, a tiny B value or a tiny C value spoils the tile-wide
    test: the outputs left out of the boundary test all add exactly, and only the fine
    row or column is left in it (C's quantum is per tile: its whole tile)."""
    rng = np.random.default_rng(seed)
    a, b = narrow_values(rng, (4, 8, 16)), narrow_values(rng, (4, 16, 8))
    c = (narrow_values(rng, (4, 8, 8)) * 8).astype(np.float32)
    a[0, 2, 3] = 2.0**-24  # one fine row
    b[1, 5, 6] = -(2.0**-24)  # one fine column
    c[2, 4, 4] = np.float32(2.0**-60)  # one fine C
    a[3, 1, :] = 0.0  # a zero row beside a fine column
    b[3, 0, 2] = 2.0**-24
    assert exact_additions_outside(a, b, c)
    shape = c.shape
    lines = numerics._quanta(a, -1), numerics._quanta(b, -2)
    spans = (numerics._tile_spans(lines[0], shape[:-2], shape[-2]),
             numerics._tile_spans(lines[1], shape[:-2], shape[-1]))
    looked = numerics._unproven_additions(lines, spans, numerics._tile_ranges(c, 4), shape, 16)
    fine = {(0, 2, j) for j in range(8)} | {(1, i, 6) for i in range(8)}
    fine |= {(2, i, j) for i in range(8) for j in range(8)}  # C's quantum is per tile
    fine |= {(3, i, 2) for i in range(8) if i != 1}  # a zero row adds nothing
    assert {tuple(map(int, t)) for t in zip(*np.unravel_index(looked, shape),
                                                       strict=True)} == fine
    assert same(accumulate(a, b, c, T.float32), expected(a, b, c, np.float32))


def test_a_dropped_sticky_bit_in_a_fine_row_and_column():
    """In a tile of many outputs A@B = 1 + 2**-24 (an f32 midpoint) and C = 2**-60 at one
    output only: float64 drops C and lands on the tie; the addition test leaves that tile's
    rows and columns open, and TwoSum (with P summed again) turns the tie up. The other
    outputs have C = 0 (or 4 in the other tile) and stay ties to even."""
    a = np.zeros((2, 4, 16))
    b = np.zeros((2, 16, 4))
    a[:, :, 0], b[:, 0, :] = 1.0, 1.0
    a[:, :, 1], b[:, 1, :] = 2.0**-12, 2.0**-12
    c = np.zeros((2, 4, 4), np.float32)
    c[0, 2, 1] = np.float32(2.0**-60)
    c[1] = 4.0
    got = accumulate(a, b, c, T.float32)
    assert same(got, expected(a, b, c, np.float32))
    assert float(got[0, 2, 1]) == float(np.float32(1 + 2.0**-23))
    assert float(got[0, 0, 0]) == 1.0


@st.composite
def batches(draw):
    """A random batch of one data kind (`operands`), tile shape and accumulator."""
    kind = draw(st.sampled_from(KINDS))
    tiles, m, n = draw(st.integers(1, 4)), draw(st.integers(4, 8)), draw(st.integers(4, 8))
    k = draw(st.sampled_from([4, 5, 16, 40]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    a, b, c = operands(rng, kind, tiles, m, n, k)
    if draw(st.booleans()):  # fine values scattered through the lines and C
        a[rng.random(a.shape) < 0.1] = 2.0**-24
        b[rng.random(b.shape) < 0.1] = -(2.0**-20)
        c[rng.random(c.shape) < 0.1] = np.float32(2.0**-70)
    acc = draw(st.sampled_from(list(TARGETS)))
    if acc is not T.float32:
        c = T.convert(c, acc).astype(np.float32)
    return a, b, c, acc


@settings(max_examples=60, deadline=None)
@given(batches())
def test_random_batches(batch):
    a, b, c, acc = batch
    assert same(accumulate(a, b, c, acc), expected(a, b, c, TARGETS[acc]))
