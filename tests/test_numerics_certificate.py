"""The line certificate that float64's A@B is exact (numerics._uncertified_pairs), the
boundary test of s = fl64(A@B + C) (numerics._on_midpoints) and the per-pair settling of the
rest (numerics._settle): the line quanta the certificate rests on, both sides of each of its
boundaries (cases it must accept and must refuse), and near-midpoint sums float64 cannot
hold, all checked against exact rational arithmetic."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from test_exact_rounding import reference, same_bits

from rocwmma_py import types as T
from rocwmma_py.arch import numerics
from rocwmma_py.arch.numerics import accumulate

pytestmark = pytest.mark.smoke

F16_11_BITS = 1 + 2.0**-10  # an f16 value that needs all 11 significant bits
F32_24_BITS = 1 + 2.0**-23  # an f32 value that needs all 24


def exponent(x: float) -> int:
    """E with 2**(E-1) <= |x| < 2**E."""
    return int(np.frexp(x)[1])


def test_line_quanta_against_the_values():
    """Every element of a valid line is a multiple of 2**q (an exact rational test) and the
    largest is in [2**(q+d-1), 2**(q+d)); all-zero lines (d = -_NO_BOUND: no products) and
    float64 subnormals (d = _NO_BOUND) are invalid; NaN or Inf anywhere clears `finite`."""
    rng = np.random.default_rng(0)
    x = T.convert(rng.standard_normal((3, 5, 16)) * 2.0 ** rng.integers(-20, 8, (3, 5, 16)),
                  T.float16).astype(np.float64)
    x[0, 1] = 0.0  # an all-zero line
    x[1, 2, :3] = 0.0  # zeros inside a line do not count
    x[2, 3, 4] = 2.0**-1060  # a float64 subnormal
    q, d, valid, finite = numerics._quanta(x, -1)
    assert finite
    for n, i in np.ndindex(3, 5):
        line = [Fraction(float(v)) for v in x[n, i]]
        if not any(line) or (n, i) == (2, 3):
            assert not valid[n, i]
            assert d[n, i] == (numerics._NO_BOUND if any(line) else -numerics._NO_BOUND)
            continue
        assert valid[n, i]
        quantum = Fraction(2) ** int(q[n, i])
        assert all((v / quantum).denominator == 1 for v in line)
        top = max(abs(v) for v in line)
        span = int(q[n, i] + d[n, i])
        assert Fraction(2) ** (span - 1) <= top < Fraction(2) ** span
    # lines along axis -2 (columns of B) give the same numbers as the transposed rows
    q_t, d_t, valid_t, _ = numerics._quanta(np.swapaxes(x, -1, -2), -2)
    assert (q_t == q).all() and (d_t == d).all() and (valid_t == valid).all()
    for bad in (np.nan, np.inf, -np.inf):
        x[1, 4, 7] = bad
        assert not numerics._quanta(x, -1).finite


def line(top_exponent: int, low_exponent: int, k: int = 16) -> np.ndarray:
    """K f16 values: one of 11 bits with E = top_exponent, one power of two with
    E = low_exponent, the rest 1.0 (E = 1): d = top_exponent - low_exponent + 11."""
    v = np.ones(k)
    v[0] = F16_11_BITS * 2.0 ** (top_exponent - 1)
    v[1] = 2.0 ** (low_exponent - 1)
    return v


def flagged_pairs(a, b, c) -> set[tuple[int, ...]]:
    """The outputs the line certificate leaves open."""
    lines = numerics._quanta(a, -1), numerics._quanta(b, -2)
    shape = np.broadcast_shapes(a.shape[:-1] + (1,), b.shape[:-2] + (1, b.shape[-1]), c.shape)
    flat = numerics._uncertified_pairs(*lines, shape, a.shape[-1])
    return {tuple(int(i) for i in idx) for idx in zip(*np.unravel_index(flat, shape), strict=True)}


@pytest.fixture
def opened(monkeypatch) -> list[int]:
    """Counts the outputs _settle leaves to the bound and exact paths (via _terms_at)."""
    seen: list[int] = []
    real = numerics._terms_at

    def spy(a, b, c, idx):
        seen.append(int(idx[0].size))
        return real(a, b, c, idx)

    monkeypatch.setattr(numerics, "_terms_at", spy)
    return seen


@pytest.mark.parametrize("acc", [T.float32, T.float16, T.bfloat16])
@pytest.mark.parametrize("c_value", [0.0, 1.5])
def test_product_room_boundary(acc, c_value, opened):
    """K = 16: the products of a pair may span 52 - 4 = 48 bits. Rows d = 24, 25; columns
    d = 24, 11: 25 + 24 = 49 is refused, 24 + 24 = 48 and 25 + 11 = 36 are accepted (the
    refused pair is settled from its terms). Every output matches the rational
    reference."""
    a = np.stack([line(1, -12), line(1, -13)])
    b = np.stack([line(1, -12), line(1, 1)]).T.copy()
    assert numerics._quanta(a, -1).d.tolist() == [24, 25]
    assert numerics._quanta(b, -2).d.tolist() == [24, 11]
    c = np.full((2, 2), c_value)
    if c_value:
        c[0, 0] = F32_24_BITS
    assert flagged_pairs(a, b, c) == {(1, 0)}
    got = accumulate(a, b, c, acc)
    assert same_bits(got, reference(a, b, c, acc))
    assert opened == [1]  # only (1, 0) needed its terms


def test_only_wide_lines_are_paired():
    """Wide rows and columns (over half the budget) are paired with every partner; a zero
    line certifies every pair it is in (its products are zero)."""
    a = np.stack([line(1, -30), line(1, -2), np.zeros(16)])  # d = 42, 14, zero
    b = np.stack([line(1, -30), line(1, 1), line(1, -8)]).T.copy()  # d = 42, 11, 20
    c = np.zeros((3, 3))
    assert flagged_pairs(a, b, c) == {(0, 0), (0, 1), (0, 2), (1, 0)}
    assert same_bits(accumulate(a, b, c, T.float32), reference(a, b, c, T.float32))


@pytest.mark.parametrize("acc", [T.float32, T.float16, T.bfloat16])
def test_c_of_any_size_needs_no_certificate(acc, opened):
    """C only enters through the one rounded float64 addition, which the boundary test
    covers: C from far below the products' quantum to far above their sum leaves every
    pair certified and every output exact, without gathering any terms."""
    a = np.ones((6, 16))
    a[:, 0] = F16_11_BITS  # q = 1 - 11 = -10, d = 11
    b = a.T.copy()
    c = np.array([F32_24_BITS * 2.0**e for e in (-120, -60, -21, 3, 31, 90)])[:, None]
    c = np.broadcast_to(c, (6, 6)) * np.array([1, -1, 1, -1, 1, -1])
    assert flagged_pairs(a, b, c) == set()
    want = reference(a, b, c, acc)
    assert same_bits(accumulate(a, b, c, acc), want)
    assert same_bits(accumulate(a, b, c.astype(np.float32), acc), want)
    assert opened == []


@pytest.mark.parametrize("sign", [1.0, -1.0, 0.0])
@pytest.mark.parametrize("acc", [T.float32, T.float16, T.bfloat16])
def test_c_dropped_onto_a_midpoint(acc, sign, opened):
    """A@B = 1 + 2**-p is exact (certified) and a midpoint of acc; a tiny C 2**-60 above,
    below or absent decides the rounding, but float64's sum drops it and lands exactly on
    the midpoint: the boundary test must find it and TwoSum's remainder round it, with no
    terms gathered."""
    p = {T.float32: 24, T.float16: 11, T.bfloat16: 8}[acc]
    half = 2.0 ** -(p // 2)
    a = np.array([[1.0, half]])
    b = np.array([[1.0], [2.0 ** -p / half]])
    c = np.array([[sign * 2.0**-60]])
    assert flagged_pairs(a, b, c) == set()
    want = reference(a, b, c, acc)
    up = float(T.convert(np.array(1.0 + 2.0 ** (1 - p)), acc))
    assert float(want[0, 0]) == (up if sign > 0 else 1.0)
    s = np.array([[1.0 + 2.0**-p + sign * 2.0**-60]])
    assert numerics._on_midpoints(s, acc).tolist() == [0]
    assert same_bits(accumulate(a, b, c, acc), want)
    assert opened == []


@pytest.mark.parametrize("sign", [1.0, -1.0, 0.0])
@pytest.mark.parametrize("acc", [T.float32, T.float16, T.bfloat16])
def test_near_midpoint_sums_are_refused_and_rounded_exactly(acc, sign, opened):
    """C + a product lands exactly on a midpoint of acc, and a tiny product 2**-48 below,
    above or absent decides the rounding: float64 holds the first two terms but not the
    tiny one, so a naive RNE of s would round the tie to even; the certificate must refuse
    (the line spans 26 bits, the pair 52 > 51) and the exact path must see the tiny term."""
    p = {T.float32: 24, T.float16: 11, T.bfloat16: 8}[acc]
    big = 2.0 ** (p + 2)  # ulp 8 at 2**(p+2) in acc; half an ulp is 4 = 2 * 2
    a = np.array([[2.0, 2.0**-24]])
    b = np.array([[2.0], [sign * 2.0**-24]])
    c = np.array([[big]])
    want = reference(a, b, c, acc)
    half_up = float(T.convert(np.array(big + 8.0), acc))
    assert float(want[0, 0]) == (half_up if sign > 0 else big)
    if sign:
        assert flagged_pairs(a, b, c) == {(0, 0)}
    got = accumulate(a, b, c, acc)
    assert same_bits(got, want)
    if sign:
        assert opened == [1]


def test_random_normal_outputs_mostly_certified(opened):
    """The point of the certificate: on random-normal f16 data with an f32 accumulator of
    realistic size, nearly every output is accepted (here > 99.9 %), so BLAS, one addition,
    one conversion and, on the midpoints (several per cent of such sums), one TwoSum give
    it; the terms of fewer than 0.1 % are gathered."""
    rng = np.random.default_rng(11)
    a = T.convert(rng.standard_normal((64, 64, 16)), T.float16).astype(np.float64)
    b = T.convert(rng.standard_normal((64, 16, 64)), T.float16).astype(np.float64)
    c = T.convert(rng.standard_normal((64, 64, 64)) * 4, T.float32)
    assert len(flagged_pairs(a, b, c)) < 0.001 * c.size
    got = accumulate(a, b, c, T.float32)
    assert sum(opened) < 0.001 * c.size
    for n in (0, 17, 63):
        assert same_bits(got[n], reference(a[n], b[n], c[n].astype(np.float64), T.float32))


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_tiny_products_below_the_smallest_normal(sign):
    """bf16-sized products 2**-150 and +-2**-195 (certified: their lines span 23 and 24
    bits) beside C = 2**-140, an f32 subnormal: float64's sum drops 2**-195 and lands on the
    subnormal midpoint 2**-140 + 2**-150, where the boundary test of the normal range does
    not look. The below-normal check must send it to be settled from its terms."""
    a = np.array([[2.0**-75, 2.0**-97]])
    b = np.array([[2.0**-75], [sign * 2.0**-98]])
    c = np.array([[2.0**-140]], np.float32)
    assert flagged_pairs(a, b, c) == set()
    want = reference(a, b, c.astype(np.float64), T.float32)
    assert float(want[0, 0]) == (2.0**-140 + 2.0**-149 if sign > 0 else 2.0**-140)
    assert same_bits(accumulate(a, b, c, T.float32), want)


def test_only_tiles_with_a_possibly_inexact_addition_are_looked_at(monkeypatch):
    """Tile 0 holds the dropped-onto-a-midpoint sum (C = 2**-60 beside A@B = 1 + 2**-24); in
    tiles 1-3 every P + C is provably exact (`_unproven_additions`). Only tile 0's outputs get
    the boundary test, and every output matches the rational reference."""
    looked: list[int] = []
    midpoints = numerics._on_midpoints

    def spy(s, acc_type):
        looked.append(s.size)
        return midpoints(s, acc_type)

    monkeypatch.setattr(numerics, "_on_midpoints", spy)
    a = np.tile(np.array([[1.0, 2.0**-12], [3.0, 1.0]]), (4, 1, 1))
    b = np.tile(np.array([[1.0, 2.0], [2.0**-12, 5.0]]), (4, 1, 1))
    c = np.full((4, 2, 2), 7.0, np.float32)
    c[0, 0, 0] = 2.0**-60
    got = accumulate(a, b, c, T.float32)
    for t in range(4):
        assert same_bits(got[t], reference(a[t], b[t], c[t].astype(np.float64), T.float32))
    assert float(got[0, 0, 0]) == float(np.float32(1 + 2.0**-23))  # the tie, decided up
    assert looked == [4]  # one tile of 2 x 2


@pytest.mark.parametrize("few", [0, 1 << 30], ids=["filters first", "bound at once"])
@pytest.mark.parametrize("acc", [T.float32, T.float16, T.bfloat16])
def test_settling_with_and_without_its_filters(acc, few, monkeypatch):
    """`_settle` filters many flagged outputs by the certificate with C's quantum and the
    summed magnitudes before the bound, and sends a few to the bound at once: both ways
    give the rational reference's bits, on lines wide enough that most pairs are flagged,
    C values that certify some of them, exact zeros and near-midpoint sums among them."""
    monkeypatch.setattr(numerics, "_FEW_TO_SETTLE", few)
    rng = np.random.default_rng(7)
    a = T.convert(rng.standard_normal((24, 16)) * 2.0 ** rng.integers(-14, 14, (24, 16)),
                  T.float16).astype(np.float64)
    b = T.convert(rng.standard_normal((16, 20)) * 2.0 ** rng.integers(-14, 14, (16, 20)),
                  T.float16).astype(np.float64)
    c = T.convert(rng.standard_normal((24, 20)) * 2.0 ** rng.integers(-30, 30, (24, 20)),
                  T.float32).astype(np.float64)
    c[0, :4] = 0.0
    c[1, 0] = -(a[1] @ b[:, 0])  # an exact zero sum
    assert len(flagged_pairs(a, b, c)) > 100
    assert same_bits(accumulate(a, b, c, acc), reference(a, b, c, acc))


@pytest.mark.parametrize("seed", range(12))
def test_uncertified_pairs_are_exactly_the_pairs_over_the_budget(seed):
    """`_uncertified_pairs` against every pair tested: d_i + d_j > 52 - ceil(log2 K), flat
    indices ascending, for tiles of short and long lines, outlier lines (one tiny value),
    lines without a certificate (+-_NO_BOUND) and A broadcast over the batch."""
    rng = np.random.default_rng(seed)
    tiles, m, n = int(rng.integers(1, 9)), int(rng.choice([4, 16, 40, 64])), int(
        rng.choice([4, 16, 64]))
    k = int(rng.choice([1, 16, 100, 2048]))
    budget = 52 - max(k - 1, 0).bit_length()

    def lines(shape) -> numerics.Lines:
        d = rng.integers(10, 24, shape)
        outliers = rng.random(shape) < 0.08
        d[outliers] = rng.integers(24, 45, int(outliers.sum()))
        special = rng.random(shape) < 0.03
        d[special] = rng.choice([numerics._NO_BOUND, -numerics._NO_BOUND], int(special.sum()))
        return numerics.Lines(np.zeros(shape, np.int64), d, d < numerics._NO_BOUND, True)

    lead_a = 1 if rng.random() < 0.3 else tiles  # A broadcast over the batch
    la, lb = lines((lead_a, m)), lines((tiles, n))
    got = numerics._uncertified_pairs(la, lb, (tiles, m, n), k)
    d_a = np.broadcast_to(la.d, (tiles, m))
    want = np.flatnonzero(d_a[:, :, None] + lb.d[:, None, :] > budget)
    assert got.tolist() == want.tolist()
