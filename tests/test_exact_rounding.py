"""The per-instruction sum is exact and rounded once, for any inputs: checked against exact
rational arithmetic (fractions) and an integer-arithmetic RNE written here from the format
definitions, on random wide-range data and on adversarial sums that straddle rounding
boundaries and ties, cancel hugely, land in the subnormals or overflow to inf. Both halves of
accumulate's decided/undecided split are exercised (a spy counts the undecided elements)."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rocwmma_py import types as T
from rocwmma_py.arch import numerics
from rocwmma_py.arch.numerics import accumulate

pytestmark = pytest.mark.smoke

# precision p, smallest normal exponent, and every finite value is below 2**top
FORMATS = {T.float32: (24, -126, 128), T.float16: (11, -14, 16), T.bfloat16: (8, -126, 128)}
ULP1 = {t: 2.0 ** (1 - p) for t, (p, _, _) in FORMATS.items()}  # ulp of 1.0


def rne(v: Fraction, t) -> float:
    """v rounded to nearest even in format t, unbounded exponent then inf above the largest
    finite value (IEEE 754 overflow); subnormals have the fixed quantum 2**(emin-p+1)."""
    p, emin, top = FORMATS[t]
    if v == 0:
        return 0.0
    mag = abs(v)
    e = mag.numerator.bit_length() - mag.denominator.bit_length()
    if Fraction(2) ** e > mag:
        e -= 1  # now 2**e <= mag < 2**(e+1)
    quantum = Fraction(2) ** (max(e, emin) - p + 1)
    r = round(mag / quantum) * quantum  # Fraction.__round__: half to even
    out = math.inf if r > (2**p - 1) * Fraction(2) ** (top - p) else float(r)
    return math.copysign(out, v)


def exact_sums(a, b, c) -> np.ndarray:
    """Exact C + A@B (object array of Fractions) for 2-D float64 a, b, c."""
    fa, fb = [[Fraction(float(v)) for v in row] for row in a], [[Fraction(float(v)) for v in row]
                                                                for row in b.T]
    return np.array([[Fraction(float(c[i, j])) + sum(x * y for x, y in zip(fa[i], fb[j],
                                                                            strict=True))
                      for j in range(b.shape[1])] for i in range(a.shape[0])], dtype=object)


def reference(a, b, c, t) -> np.ndarray:
    exact = exact_sums(a, b, c)
    return np.array([[rne(v, t) for v in row] for row in exact]).astype(T.storage_dtype(t))


def same_bits(x: np.ndarray, y: np.ndarray) -> bool:
    return x.dtype == y.dtype and x.tobytes() == y.tobytes()


def negative(x: np.ndarray) -> bool:
    """The sign bit of a one-element float array of any width (bfloat16 included)."""
    size = x.dtype.itemsize
    return bool(np.asarray(x).reshape(-1).view(f"u{size}")[0] >> (8 * size - 1))


@pytest.fixture
def undecided(monkeypatch) -> list[int]:
    """Counts the elements accumulate sends to its TwoSum path (numerics._exact_sum)."""
    seen: list[int] = []
    real = numerics._exact_sum

    def spy(terms):
        seen.append(terms.shape[1])
        return real(terms)

    monkeypatch.setattr(numerics, "_exact_sum", spy)
    return seen


def test_rational_reference_itself():
    """The reference against values worked out by hand from the format definitions."""
    assert rne(Fraction(1) + Fraction(1, 2**24), T.float32) == 1.0  # tie -> even
    assert rne(Fraction(1) + Fraction(3, 2**24), T.float32) == 1 + 2.0**-22  # tie -> even up
    assert rne(Fraction(65520), T.float16) == math.inf  # 65504 + half ulp: tie -> inf
    assert rne(Fraction(65519), T.float16) == 65504.0
    assert rne(Fraction(1, 2**25), T.float16) == 0.0  # half the smallest subnormal: to even 0
    assert rne(Fraction(3, 2**26), T.float16) == 2.0**-24
    assert math.copysign(1, rne(Fraction(-1, 2**160), T.float32)) == -1  # -0
    assert rne(Fraction(3, 2**150), T.float32) == 2.0**-148  # 1.5 quanta: tie -> even 2 quanta


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([T.float32, T.float16, T.bfloat16]),
    st.sampled_from([T.float16, T.bfloat16, T.float32]),
    st.integers(0, 2**32 - 1),
    st.integers(2, 16),
)
def test_sum_is_rounded_once(acc, src, seed, k):
    rng = np.random.default_rng(seed)
    shape_a, shape_b = (4, k), (k, 4)
    # wide exponent range, random signs: products spanning far more than 53 bits
    span = 6 if T.float16 in (src, acc) else 40  # keep f16 results finite
    a = T.convert(rng.standard_normal(shape_a) * 2.0 ** rng.integers(-span, span, shape_a), src)
    b = T.convert(rng.standard_normal(shape_b) * 2.0 ** rng.integers(-span, span, shape_b), src)
    c = T.convert(rng.standard_normal((4, 4)), acc).astype(np.float64)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    b64[:, 0] = -b64[:, 1]  # column 0 cancels column 1's products exactly
    assert same_bits(accumulate(a64, b64, c, acc), reference(a64, b64, c, acc))


@pytest.mark.parametrize("acc", [T.float32, T.float16, T.bfloat16])
def test_exact_tie_and_sticky_bit(acc):
    one_ulp = ULP1[acc]
    a = np.array([[1.0, one_ulp / 2, 2.0**-100]])
    b = np.ones((3, 1))
    c = np.zeros((1, 1))
    # 1 + half an ulp + a speck above: rounds up although float64 alone would see a tie
    assert float(accumulate(a, b, c, acc)[0, 0]) == 1.0 + one_ulp
    a[0, 2] = -(2.0**-100)  # a speck below the tie: rounds down
    assert float(accumulate(a, b, c, acc)[0, 0]) == 1.0
    a[0, 2] = 0.0  # an exact tie: to even
    assert float(accumulate(a, b, c, acc)[0, 0]) == 1.0


def adversarial_rows(acc) -> list[list[float]]:
    """Term lists (C first) whose exact sum sits on or next to a rounding boundary of acc."""
    p, emin, top = FORMATS[acc]
    ulp, sub = ULP1[acc], 2.0 ** (emin - p + 1)
    big_max = (2 - 2 * ulp / 2) * 2.0 ** (top - 1)  # largest finite value
    half_top = 2.0 ** (top - p - 1)  # half an ulp at the top binade
    rows = []
    for speck in (0.0, 2.0**-70, -(2.0**-70)):
        rows += [
            [1.0, ulp / 2, speck],  # tie at 1 (+- far below float64's reach)
            [1.0, 1.5 * ulp, speck],  # tie between odd and even: up
            [-1.0, -ulp / 2, speck],  # negative tie
            [2.0**40, 1.0, -(2.0**40), ulp / 2 * 3, speck],  # huge cancellation then tie
            [sub / 2, speck * 2.0**-100],  # half the smallest subnormal
            [sub * 1.5, speck * 2.0**-100],  # between subnormals, a tie to even
            [-sub / 2, -abs(speck) * 2.0**-100],  # -0 or -sub
            [big_max, half_top, speck * 2.0 ** (top - 60)],  # the overflow threshold
            [-big_max, -half_top, speck * 2.0 ** (top - 60)],
            [2.0**60, 3.0, -(2.0**60), speck],  # cancellation: 3 + speck
        ]
    rows.append([1.0, ulp / 2 - 2.0**-60, 2.0**-61])  # 1 + ulp/2 - 2**-61: below the tie
    rows.append([0.0, 2.0**60, 1.0, -(2.0**60)])  # the issue-10 sum: exactly 1
    for scale in (1.0, 2.0**100):  # TwoSum's errors cancel in float64: needs math.fsum
        rows.append([x * scale for x in (2.0**-60, 2.0**-120, 1.0, -1.0, -(2.0**-60))])
    return rows


@pytest.mark.parametrize("acc", [T.float32, T.float16, T.bfloat16])
def test_adversarial_sums_in_a_batch_with_random_filler(acc, undecided):
    """Adversarial rows (as products term*1, C the first term) batched with random f16
    tiles, so decided and undecided elements share one call; every element is checked."""
    rows = adversarial_rows(acc)
    k = max(len(r) for r in rows) - 1
    a = np.zeros((len(rows), k))
    for i, r in enumerate(rows):
        a[i, : len(r) - 1] = r[1:]
    c = np.array([[r[0]] for r in rows])
    b = np.ones((k, 1))
    rng = np.random.default_rng(1)
    fill_a = T.convert(rng.standard_normal((len(rows), k)), T.float16).astype(np.float64)
    fill_b = T.convert(rng.standard_normal((k, 1)), T.float16).astype(np.float64)
    a_batch, b_batch = np.stack([a, fill_a]), np.stack([b, fill_b])
    c_batch = np.stack([c, T.convert(rng.standard_normal(c.shape), acc).astype(np.float64)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # overflow to inf is intended: no RuntimeWarning
        got = accumulate(a_batch, b_batch, c_batch, acc)
    for n in range(2):
        assert same_bits(got[n], reference(a_batch[n], b_batch[n], c_batch[n], acc))
    assert 0 < sum(undecided) < got.size  # both paths of the split were taken


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([T.float32, T.float16, T.bfloat16]), st.integers(0, 2**32 - 1),
       st.integers(1, 40))
def test_near_boundary_sums(acc, seed, k):
    """C is a rounding boundary of acc (a value or a midpoint) and the products are a few
    ulps-of-a-ulp on either side, from many K: sums straddle the boundary by tiny amounts."""
    rng = np.random.default_rng(seed)
    ulp = ULP1[acc]
    c = (1 + ulp * rng.integers(0, 4, (3, 3)) / 2) * rng.choice([-1.0, 1.0], (3, 3))
    a = (rng.integers(-4, 5, (3, k)) * 2.0 ** rng.integers(-70, -20, (3, k)))
    b = rng.choice([-1.0, 1.0, 0.5], (k, 3))
    assert same_bits(accumulate(a, b, c, acc), reference(a, b, c, acc))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 128))
def test_error_bound_holds(seed, k):
    """|fl(C + A@B) - exact| <= the a-priori bound, on cancellation-heavy data."""
    rng = np.random.default_rng(seed)
    a = T.convert(rng.standard_normal((4, k)) * 2.0 ** rng.integers(-20, 11, (4, k)),
                  T.float16).astype(np.float64)
    b = T.convert(rng.standard_normal((k, 4)), T.float32).astype(np.float64)
    b[:, 1] = -b[:, 0]
    c = T.convert(rng.standard_normal((4, 4)), T.float32).astype(np.float64)
    c[:, 1] = c[:, 0]
    s = c + np.matmul(a, b)
    err = numerics._error(a, b, c)[0]
    exact = exact_sums(a, b, c)
    for i, j in np.ndindex(4, 4):
        assert abs(Fraction(float(s[i, j])) - exact[i, j]) <= Fraction(float(err[i, j]))


def test_exact_zero_signs():
    """An exact zero sum is +0 unless every term is -0 (IEEE 754 §6.3), on every path."""
    neg = np.array([[-0.0, 0.0]])
    pos_col, neg_col = np.array([[1.0], [1.0]]), np.array([[-1.0], [1.0]])
    for acc in FORMATS:
        # -0*1 + 0*1 + (-0): not all -0 -> +0;  -0*1 + -0 (K=1) -> -0
        assert not negative(accumulate(neg, pos_col, np.array([[-0.0]]), acc))
        assert negative(accumulate(neg[:, :1], pos_col[:1], np.array([[-0.0]]), acc))
        # a cancelling sum through the undecided path (not float64-exact): +0
        cancel = accumulate(np.array([[1.0, 2.0**-70, -(2.0**-70)]]), np.ones((3, 1)),
                            np.array([[-1.0]]), acc)
        assert float(cancel[0, 0]) == 0 and not negative(cancel)
        plus = accumulate(np.array([[0.0, -0.0]]), neg_col, np.array([[0.0]]), acc)
        assert float(plus[0, 0]) == 0 and not negative(plus)


@pytest.mark.parametrize("chunk", [None, 16, 40])
def test_batched_and_broadcast_equal_per_tile(chunk, monkeypatch):
    """Leading axes broadcast as in execute.py: a (copies, blocks, M, K), c (blocks, M, N);
    big batches are cut into chunks of tiles (here forced: 1 or 2 tiles of 16 outputs)."""
    if chunk:
        monkeypatch.setattr(numerics, "_CHUNK", chunk)
    rng = np.random.default_rng(3)
    a = T.convert(rng.standard_normal((2, 3, 4, 5)), T.float16).astype(np.float64)
    b = T.convert(rng.standard_normal((2, 3, 5, 4)), T.float16).astype(np.float64)
    c = T.convert(rng.standard_normal((3, 4, 4)), T.float32).astype(np.float64)
    got = accumulate(a, b, c, T.float32)
    assert got.shape == (2, 3, 4, 4)
    for i, j in np.ndindex(2, 3):
        assert same_bits(got[i, j], reference(a[i, j], b[i, j], c[j], T.float32))


# --- non-finite inputs (issue 10, item 1) ---------------------------------------------------


def ieee_sum(terms: list[float]) -> float:
    """IEEE value of a sum with an Inf or NaN term: NaN if a NaN, or both infinities, else
    the infinity's sign (order does not matter)."""
    if any(math.isnan(x) for x in terms):
        return math.nan
    infs = {x for x in terms if math.isinf(x)}
    return math.nan if len(infs) > 1 else infs.pop()


special = st.sampled_from([math.nan, math.inf, -math.inf])


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([T.float32, T.float16, T.bfloat16]), st.integers(0, 2**32 - 1),
       st.integers(1, 8), st.lists(st.tuples(st.integers(0, 2), st.integers(0, 63), special),
                                   min_size=1, max_size=4))
def test_nonfinite_stay_in_their_rows_and_columns(acc, seed, k, sprinkles):
    rng = np.random.default_rng(seed)
    span = 4 if acc is T.float16 else 10  # f16 inputs, finite f16 results
    a = T.convert(rng.standard_normal((4, k)) * 2.0 ** rng.integers(-span, span, (4, k)),
                  T.float16).astype(np.float64)
    b = T.convert(rng.standard_normal((k, 4)), T.float16).astype(np.float64)
    b[rng.integers(0, k), 2] = 0.0  # an Inf in that row of A meets a zero: Inf*0 = NaN
    c = np.zeros((4, 4))
    clean_a, clean_b, clean_c = a.copy(), b.copy(), c.copy()
    for which, pos, value in sprinkles:
        x = (a, b, c)[which]
        x.flat[pos % x.size] = value
    got = accumulate(a, b, c, acc)
    finite = reference(clean_a, clean_b, clean_c, acc)
    assert same_bits(accumulate(clean_a, clean_b, clean_c, acc), finite)  # all-finite run
    for i, j in np.ndindex(4, 4):
        bad = not (np.isfinite(a[i]).all() and np.isfinite(b[:, j]).all() and np.isfinite(c[i, j]))
        if bad:  # Python floats: Inf*0 is NaN without a numpy warning
            want = ieee_sum([float(c[i, j]), *(float(x) * float(y) for x, y in zip(a[i], b[:, j],
                                                                                   strict=True))])
            assert (math.isnan(want) and np.isnan(got[i, j])) or float(got[i, j]) == want
        else:
            assert same_bits(got[i, j], finite[i, j])


def test_nonfinite_issue_10_repro_at_accumulate():
    """Inf in A row 0; row 1's terms 2**60, 1, -2**60: D row 1 is exactly 1."""
    a = np.array([[np.inf, 0.0, 0.0], [2.0**30, 1.0, -(2.0**30)]])
    b = np.array([[2.0**30], [1.0], [2.0**30]])
    got = accumulate(a, b, np.zeros((2, 1)), T.float32)
    assert got[0, 0] == np.inf and got[1, 0] == 1.0


@pytest.mark.parametrize("k", [4, 16])
def test_midpoint_heavy_batch(k, monkeypatch):
    """f16 x f16 + f32 C -> f32 at small K, the engine's common case: many sums sit on an
    f32 midpoint, where s needs a second look (`_on_midpoints`); TwoSum decides them
    without gathering their terms (only the few uncertified outputs are gathered)."""
    on_midpoint: list[int] = []
    gathered: list[int] = []
    midpoints, terms_at = numerics._on_midpoints, numerics._terms_at

    def spy_midpoints(s, acc_type):
        hit = midpoints(s, acc_type)
        on_midpoint.append(hit.size)
        return hit

    def spy_terms(a, b, c, idx):
        gathered.append(idx[0].size)
        return terms_at(a, b, c, idx)

    monkeypatch.setattr(numerics, "_on_midpoints", spy_midpoints)
    monkeypatch.setattr(numerics, "_terms_at", spy_terms)
    rng = np.random.default_rng(7)
    a = T.convert(rng.standard_normal((6, 16, k)), T.float16).astype(np.float64)
    b = T.convert(rng.standard_normal((6, k, 16)), T.float16).astype(np.float64)
    c = T.convert(rng.standard_normal((6, 16, 16)), T.float32).astype(np.float64)
    a[0, 0, 0], c[5, 0, 0] = 2.0**-24, 2.0**-60  # float64 no longer provably exact
    got = accumulate(a, b, c, T.float32)
    for n in range(len(a)):
        assert same_bits(got[n], reference(a[n], b[n], c[n], T.float32))
    assert on_midpoint and on_midpoint[0] > 0
    assert sum(gathered) < on_midpoint[0] / 2, (on_midpoint, gathered)


def test_nonfinite_tile_in_a_chunked_batch(monkeypatch):
    """Tiles processed one per chunk: the NaN tile's row is NaN, every other sum exact."""
    monkeypatch.setattr(numerics, "_CHUNK", 2)
    a = np.tile(np.array([[2.0**30, 1.0, -(2.0**30)], [1.0, 2.0**-30, 0.0]]), (3, 1, 1))
    b = np.tile(np.array([[2.0**30], [1.0], [2.0**30]]), (3, 1, 1))
    a[1, 1, 2] = np.nan
    got = accumulate(a, b, np.zeros((3, 2, 1)), T.float32)
    assert np.isnan(got[1, 1, 0]) and np.all(got[:, 0, 0] == 1.0)
    assert got[0, 1, 0] == got[2, 1, 0] == 2.0**30  # 2**30 + 2**-30 rounded to f32


@pytest.mark.parametrize("target", [T.float16, T.bfloat16, T.float8, T.bfloat8, T.float8_fnuz,
                                    T.bfloat8_fnuz, T.float6_e2m3, T.float6_e3m2,
                                    T.float4_e2m1, T.e8m0])
@pytest.mark.parametrize("source", [np.float32, np.float16])
def test_convert_from_float32_or_float16_rounds_once_as_from_their_float64_values(source,
                                                                                  target):
    """A float32 or float16 source converts to a narrower float in one rounding, with no
    float64 step: the same bits as converting its exact float64 value (rounded to odd on
    the way, so once), on random bit patterns, every special value and the halfway points
    between neighbours of the target."""
    rng = np.random.default_rng(5)
    info = np.iinfo(np.uint32 if source is np.float32 else np.uint16)
    bits = rng.integers(0, info.max, 20000, dtype=np.uint64, endpoint=True).astype(info.dtype)
    values = [bits.view(source)]
    grid = T.convert(np.linspace(-600.0, 600.0, 4001), target).astype(np.float64)
    values.append(((grid[1:] + grid[:-1]) / 2).astype(source))  # ties (where they fit)
    values.append(np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, 6e-8], source))
    x = np.concatenate(values)
    with np.errstate(invalid="ignore"):  # signaling NaNs among the random bits
        wide = x.astype(np.float64)
    got, want = T.convert(x, target), T.convert(wide, target)
    assert got.dtype == want.dtype
    same = (got.view(np.uint8).reshape(x.size, -1) == want.view(np.uint8).reshape(x.size, -1))
    assert same.all(), x[~same.all(axis=1)][:5]
