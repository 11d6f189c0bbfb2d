"""The exact model's fast paths against an independent exact reference written here (Python
integers and fractions): line quanta read from the float64 high words (inputs whose low words
are all zero) and from the full words, C's tile ranges from three passes (rows that mix zeros
with non-zeros read again), the -0 test of C only where C holds a zero, and `_settle` taking
C's precision from the flagged values. Random batches mix ties, sticky bits, subnormals,
overflow, Inf/NaN, -0 and long K; every output is compared bit for bit."""

from __future__ import annotations

import math
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

from rocwmma_py import types as T
from rocwmma_py.arch import magnitudes, numerics
from rocwmma_py.arch.numerics import accumulate

TARGETS = {T.float32: np.float32, T.float16: np.float16, T.bfloat16: ml_dtypes.bfloat16}


def round_to(v: Fraction, dtype) -> float:
    """v rounded to nearest even in `dtype` from its definition (precision, exponent range):
    integer division of the scaled magnitude, ties to the even quotient, inf past the
    largest finite value."""
    info = ml_dtypes.finfo(dtype)
    p, emin = int(info.nmant) + 1, int(info.minexp)
    if v == 0:
        return 0.0
    n, d = abs(v).numerator, abs(v).denominator
    e = n.bit_length() - d.bit_length()  # 2**(e-1) < |v| < 2**(e+1)
    if n < d << e if e >= 0 else n << -e < d:
        e -= 1  # now 2**e <= |v| < 2**(e+1)
    shift = max(e, emin) - p + 1  # the quantum is 2**shift
    num, den = (n, d << shift) if shift >= 0 else (n << -shift, d)
    q, r = divmod(num, den)
    if 2 * r > den or (2 * r == den and q % 2):
        q += 1
    mag = Fraction(q) * Fraction(2) ** shift
    out = math.inf if mag > Fraction(float(info.max)) else float(mag)
    return -out if v < 0 else out


def expected(a: np.ndarray, b: np.ndarray, c: np.ndarray, dtype) -> np.ndarray:
    """round(C + A@B) per output of 3-D float64 a, b and c (float32 or float64): exact sums
    of Fractions; an exact zero is -0 only when every term is -0; an output whose terms hold
    Inf or NaN is their IEEE sum (NaN for Inf*0 or Inf-Inf)."""
    out = np.empty(c.shape, dtype)
    for t, i, j in np.ndindex(*c.shape):
        terms = [float(c[t, i, j])] + [float(x) * float(y) for x, y in zip(a[t, i], b[t, :, j],
                                                                           strict=True)]
        reals = [float(c[t, i, j])] + [x for x in a[t, i]] + [y for y in b[t, :, j]]
        if not all(math.isfinite(x) for x in reals):
            with np.errstate(invalid="ignore", over="ignore"):
                products = a[t, i] * b[t, :, j]
                total = float(c[t, i, j]) + float(np.sum(products))
            has_nan = any(math.isnan(x) for x in (*products, c[t, i, j]))
            signs = {math.copysign(1, x) for x in (*products, c[t, i, j]) if math.isinf(x)}
            total = math.nan if has_nan or len(signs) > 1 else total
            out[t, i, j] = total
            continue
        exact = sum((Fraction(x) for x in terms), Fraction(0))
        value = round_to(exact, dtype)
        if value == 0:
            value = -0.0 if all(x == 0 and math.copysign(1, x) < 0 for x in terms) else 0.0
        out[t, i, j] = value
    return out


def same(got: np.ndarray, want: np.ndarray) -> bool:
    """Bit for bit, any NaN equal to any NaN."""
    size = got.dtype.itemsize
    g, w = got.view(f"u{size}"), want.view(f"u{size}")
    nan = np.isnan(got.astype(np.float64)) & np.isnan(want.astype(np.float64))
    return got.dtype == want.dtype and bool(np.all((g == w) | nan))


def f16_values(rng, shape, spread: int = 6) -> np.ndarray:
    """Random normal values of f16 precision over 2**±spread (low float64 words all zero)."""
    x = rng.standard_normal(shape) * 2.0 ** rng.integers(-spread, spread + 1, shape)
    return T.convert(x, T.float16).astype(np.float64)


def operands(rng, kind: str, tiles: int, m: int, n: int, k: int):
    """a (tiles, m, k), b (tiles, k, n), c (tiles, m, n) float32 of one data `kind`."""
    a, b = f16_values(rng, (tiles, m, k)), f16_values(rng, (tiles, k, n))
    c = (rng.standard_normal((tiles, m, n)) * 4).astype(np.float32)
    if kind == "full words":  # f32 values of 24 bits: the float64 low words are not zero
        a = (a * (1 + 2.0**-23)).astype(np.float32).astype(np.float64)
    elif kind == "ties":  # C = ±2**e (or its f32 neighbour) plus half its f32 ulp, some
        # with a sticky bit; bf16 values (8 bits), so that at e = 54 the pair is certified
        # and float64's P + C loses the sticky bit: only TwoSum finds it
        a, b = (T.convert(x, T.bfloat16).astype(np.float64) for x in (a, b))
        e = rng.choice([0, -6, 54], tiles)
        a[:, 0, :] = b[:, :, 0] = 0.0
        a[:, 0, 0] = b[:, 0, 0] = 2.0 ** ((e - 24) // 2)
        sticky = np.where(e == 54, 1.0, 2.0**-24)
        a[:, 0, 1] = rng.choice([0.0, 1.0, -1.0], tiles) * sticky
        b[:, 1, 0] = sticky
        c[:, 0, 0] = rng.choice([1.0, 1 + 2.0**-23, -1.0], tiles) * 2.0**e
    elif kind == "subnormal":  # f16 and f32 subnormals, float64 subnormal-free
        a[:, :, ::3] = T.convert(a[:, :, ::3] * 2.0**-20, T.float16).astype(np.float64)
        c[:, ::2] = (c[:, ::2] * 2.0**-140).astype(np.float32)
    elif kind == "overflow":  # sums past f32's largest value and back
        a[:, :, 0], b[:, 0, :] = 60000.0, rng.choice([60000.0, -60000.0], (tiles, n))
        c[:, 0, 0] = np.float32(3e38)
        c[:, 1, :] = -np.float32(3.4e38)
    elif kind == "nonfinite":
        a[0, 1, 2] = np.inf
        b[-1, 3, 0] = np.nan
        b[0, 0, 1] = -np.inf
        c[-1, -1, -1] = np.inf
        a[-1, 0, :] = 0.0  # Inf * 0
    elif kind == "zeros":  # -0 everywhere in some outputs, zeros mixed into C's tiles
        a[:, 0, :] = -0.0
        b[:, :, 0] = 0.0
        c[:, 0, :] = -0.0
        c[:, 1, 1] = 0.0
        c[0] = 0.0  # an all-zero tile
        a[-1, 1, :] *= -1
        b[-1, :, 1] = -0.0
    return a, b, c


KINDS = ["f16", "full words", "ties", "subnormal", "overflow", "nonfinite", "zeros"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("acc", list(TARGETS))
@pytest.mark.parametrize("seed", range(2))
def test_random_batches_match_the_exact_reference(kind, acc, seed):
    """Tiles of 4 x 16 @ 16 x 4 (K = 16: lines are transposed for their reductions) and one
    of 16 x 48 @ 48 x 16 (long lines reduced in place), every data kind and target."""
    rng = np.random.default_rng([seed, KINDS.index(kind)])
    for tiles, m, n, k in ((6, 4, 4, 16), (1, 16, 16, 48)):
        a, b, c = operands(rng, kind, tiles, m, n, k)
        if acc is not T.float32:
            c = T.convert(c, acc).astype(np.float32)
        got = accumulate(a, b, c, acc)
        assert same(got, expected(a, b, c, TARGETS[acc])), (kind, tiles, m, n, k)


@pytest.mark.parametrize("seed", range(3))
def test_huge_k_and_wide_lines(seed):
    """K = 2048 leaves 41 bits of room, so many pairs go to `_settle`; with C of many
    precisions (its quantum then comes from the flagged values alone) and f32 outputs
    next to their ties."""
    rng = np.random.default_rng(seed)
    a = f16_values(rng, (2, 2, 2048), spread=12)
    b = f16_values(rng, (2, 2048, 3), spread=12)
    c = (rng.standard_normal((2, 2, 3)) * 2.0 ** rng.integers(-30, 30, (2, 2, 3))
         ).astype(np.float32)
    c[0, 0, 0] = 0.0
    for acc in TARGETS:
        cc = T.convert(c, acc).astype(np.float32)
        assert same(accumulate(a, b, cc, acc), expected(a, b, cc, TARGETS[acc]))


@pytest.mark.parametrize("seed", range(3))
def test_chunked_batches(seed, monkeypatch):
    """Batches split into chunks (`_CHUNK` made small) give the same bits as the
    reference."""
    monkeypatch.setattr(numerics, "_CHUNK", 64)
    rng = np.random.default_rng(seed)
    a, b, c = operands(rng, "ties", 12, 4, 4, 16)
    c[3:5] = 0.0
    c[6, 0, 0] = -0.0
    assert same(accumulate(a, b, c, T.float32), expected(a, b, c, np.float32))


def line_reference(x: np.ndarray) -> tuple[list, list]:
    """(q, d) of each row of 2-D float64 x (normal or zero values) from
    its Fractions: q = the exponent of the row's smallest non-zero |x| minus the precision
    all values share, d = the exponent above the row's largest minus q; None for rows that
    are all zero, hold a float64 subnormal or have |q| > 500."""
    values = [Fraction(float(v)) for v in x.reshape(-1) if v != 0]
    p = 53 - min(_trailing_zeros_of_significand(v) for v in values)
    qs, ds = [], []
    for row in x:
        nonzero = [abs(Fraction(float(v))) for v in row if v != 0]
        q = _exponent_above(min(nonzero)) - p if nonzero else None
        if q is None or min(nonzero) < Fraction(2) ** -1022 or abs(q) > 500:
            qs.append(None)
            ds.append(None)
            continue
        qs.append(q)
        ds.append(_exponent_above(max(nonzero)) - q)
    return qs, ds


def _exponent_above(v: Fraction) -> int:
    """The E with 2**(E-1) <= v < 2**E."""
    e = 0
    while Fraction(2) ** e <= v:
        e += 1
    while Fraction(2) ** (e - 1) > v:
        e -= 1
    return e


def _trailing_zeros_of_significand(v: Fraction) -> int:
    """Trailing zeros of |v|'s 53-bit float64 significand (v a normal float64)."""
    e = _exponent_above(abs(v))
    significand = abs(v) * Fraction(2) ** (53 - e)  # an integer in [2**52, 2**53)
    n = int(significand)
    return (n & -n).bit_length() - 1


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("words", ["high", "full"])
def test_line_quanta_on_both_word_paths(seed, words):
    """`_quanta` of random lines with zeros, all-zero lines, f16 subnormals and wide ranges
    equals the Fraction reference, whether it reads the high words (f16 values) or the full
    words (one f32 value of 24 bits forces them)."""
    rng = np.random.default_rng(seed)
    x = f16_values(rng, (40, 16), spread=14)
    x[rng.random((40, 16)) < 0.2] = 0.0
    x[3] = 0.0
    x[5, :4] = 2.0**-24  # f16 subnormals: normal float64
    if words == "full":
        x[7, 0] = 1 + 2.0**-23
    assert (numerics._precision(x)[1] & 0xFFFF_FFFF == 0) == (words == "high")
    want_q, want_d = line_reference(x)
    for lines in (numerics._quanta(x, -1), numerics._quanta(np.swapaxes(x, 0, 1), -2)):
        assert lines.finite
        for i, (q, d) in enumerate(zip(want_q, want_d, strict=True)):
            if q is None:
                assert not lines.valid[i]
                assert lines.d[i] == (-numerics._NO_BOUND if not x[i].any()
                                      else numerics._NO_BOUND)
            else:
                assert lines.valid[i] and (lines.q[i], lines.d[i]) == (q, d), i
    for bad in (np.inf, -np.inf, np.nan):
        y = x.copy()
        y[9, 9] = bad
        assert not numerics._quanta(y, -1).finite


@pytest.mark.parametrize("seed", range(6))
def test_both_operands_lines_in_one_pass(seed):
    """`_both_quanta` (A's rows and B's columns reduced together where their K-first layouts
    agree) against the Fraction reference per operand: each keeps its own precision (small
    integers beside f16 values), zeros and all-zero lines; Inf or NaN in one operand only,
    and a tiny float64 subnormal in one only (its line invalid, the rest as one pass each
    gives them); shapes that differ take one pass each."""
    rng = np.random.default_rng(seed)
    waves, m, k = int(rng.integers(1, 5)), int(rng.choice([4, 16])), 16
    n = m if seed % 3 else m + 4  # every third: B's K-first layout differs from A's
    a = f16_values(rng, (waves, m, k), spread=12)
    b = f16_values(rng, (waves, k, n), spread=12)
    if seed % 2:
        b = rng.integers(-3, 4, b.shape).astype(np.float64)  # p of 2: not A's 11
    a[rng.random(a.shape) < 0.15] = 0.0
    a[0, 1] = 0.0
    b[0, :, 2] = 0.0
    lines_a, lines_b = numerics._both_quanta(a, b)
    for lines, rows in ((lines_a, a.reshape(-1, k)),
                        (lines_b, np.swapaxes(b, -1, -2).reshape(-1, k))):
        assert lines.finite
        for i, (q, d) in enumerate(zip(*line_reference(rows), strict=True)):
            if q is None:
                assert not lines.valid.reshape(-1)[i]
            else:
                assert lines.valid.reshape(-1)[i], i
                assert (lines.q.reshape(-1)[i], lines.d.reshape(-1)[i]) == (q, d), i
    for bad in (np.inf, np.nan):
        y = b.copy()
        y[0, 0, 0] = bad
        both = numerics._both_quanta(a, y)
        assert both[0].finite and not both[1].finite
    y = b.copy()
    y[-1, 3, -1] = 2.0**-1073  # no normal exponent: its column has no certificate
    both, alone = numerics._both_quanta(a, y), (numerics._quanta(a, -1), numerics._quanta(y, -2))
    assert not both[1].valid[-1, -1]
    for got, want in zip(both, alone, strict=True):
        assert all(np.array_equal(g, w) for g, w in zip(got, want, strict=True))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_row_magnitudes(dtype):
    """`row_magnitude_bits` against Python: the bits of the largest |x| and of the smallest
    non-zero |x| per row (0 for an all-zero row), and whether x holds a zero of either sign;
    rows mixing zeros and non-zeros, -0, subnormals, Inf and NaN."""
    rng = np.random.default_rng(1)
    x = (rng.standard_normal((9, 20)) * 2.0 ** rng.integers(-30, 30, (9, 20))).astype(dtype)
    x[1, 3] = 0.0
    x[2, :] = 0.0
    x[3, 5] = -0.0
    x[4, 6] = np.finfo(dtype).smallest_subnormal
    x[5, 7] = np.inf
    x[6, 8] = np.nan
    x[7, 2:] = -0.0
    uint = f"u{np.dtype(dtype).itemsize}"
    for rows in (x, x[[0, 4, 5, 6, 8]]):
        top, low, zero = magnitudes.row_magnitude_bits(rows, f"test {dtype.__name__}")
        mags = np.abs(rows).view(uint)
        assert zero == bool((rows == 0).any())
        for i, row in enumerate(mags):
            assert int(top[i]) == max(int(v) for v in row)
            nonzero = [int(v) for v in row if v]
            assert int(low[i]) == (min(nonzero) if nonzero else 0)
