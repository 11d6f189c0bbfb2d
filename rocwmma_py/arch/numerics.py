"""The arithmetic of one matrix instruction: exact products, exact sum, one rounding.

rocwmma-notes §3.10 / docs/architecture.md: per instruction D = round(C + sum_k A*B), batched
over leading axes. Integers are summed exactly and then wrap (MFMA) or saturate (WMMA clamp).
Float inputs narrower than float64 (f16, bf16, fp8, xf32, f32) have products exact in
float64; their sum is rounded once (RNE) to the accumulator type:

1. exact path: when every product and C are multiples of 2**q and the sum of all |terms| stays
   below 2**(52+q), float64 holds every partial sum exactly, so BLAS `matmul` gives the exact
   sum whatever order or blocking it uses (always so for small integer-valued data);
2. decided path: otherwise s = fl64(C + A@B) from BLAS with the a-priori bound
   |s - exact| <= err = (K+5) u (|C| + ||a_i|| ||b_j||) + tiny, u = 2**-53 (derivation at
   `_error`).
   RNE to the target is monotone, so where s - err and s + err round to the same value the
   exact sum does too: that element is decided (overflow to inf and subnormals included);
3. the few undecided elements (mostly exact sums on a target midpoint) are proved equal to s
   where all their terms are multiples of 2**q > err (per row of A and column of B when
   many are undecided, else per gathered term); the rest get an error-free TwoSum tree
   (hi + remainder), rounded "to odd" by the remainder's sign so the final RNE is exact;
   sums whose remainder sign is still unknown are summed exactly with `math.fsum`.

An output is non-finite exactly when its A row, B column or C element holds NaN or Inf; it
takes the IEEE float64 sum of the real terms (Inf*0 = NaN, Inf-Inf = NaN: order-independent).
Every finite output is the exact sum of its own terms. An exact sum of zero is +0 unless all
its terms are -0 (IEEE 754 §6.3), independent of the zero signs BLAS produces.
f64 inputs (f64 MFMA) have inexact float64 products; they are summed in float64 with numpy's
own einsum loops (deterministic).
"""

from __future__ import annotations

import math
from functools import partial

import ml_dtypes
import numpy as np

from .. import types as T

_U = 2.0**-53  # unit roundoff of float64
_TINY = 2.0**-1074  # float64's smallest subnormal: the error of one underflowing operation
_SAMPLE = 4096  # elements tested first when deciding whether float64 is exact
_CHUNK = 1 << 18  # outputs per chunk of a big batch: its float64 temporaries stay in cache


def decode(values: np.ndarray, t) -> np.ndarray:
    """Element values as float64 / int64, the exact compute representation."""
    if T.is_float(t):
        if T.resolve(t) is T.xfloat32:
            values = T.to_xfloat32(values)  # hardware reads only the 19 xf32 bits
        return np.asarray(values).astype(np.float64)
    return np.asarray(values).astype(np.int64)


def accumulate(a: np.ndarray, b: np.ndarray, c: np.ndarray, acc_type, *,
               clamp: bool = False) -> np.ndarray:
    """D = C + A @ B over the last two axes (batched), rounded once to `acc_type`.

    `a` (..., M, K), `b` (..., K, N) and `c` (..., M, N) are decoded values (see `decode`);
    leading axes broadcast. Returns `storage_dtype(acc_type)` values.
    """
    if T.is_float(acc_type) and T.bits(acc_type) == 64:
        with np.errstate(invalid="ignore", over="ignore"):  # IEEE Inf/NaN results intended
            return c + np.einsum("...mk,...kn->...mn", a, b)
    tier = (partial(_rounded_sum, acc_type=acc_type) if T.is_float(acc_type)
            else partial(_integer_sum, acc_type=acc_type, clamp=clamp))
    shape = np.broadcast_shapes(a.shape[:-1] + (1,), b.shape[:-2] + (1, b.shape[-1]), c.shape)
    tiles = math.prod(shape[:-2])
    step = max(1, _CHUNK // max(1, shape[-2] * shape[-1]))
    if tiles <= step:
        return tier(a, b, c)
    # big batches: one cache-sized chunk of tiles at a time (every pass is memory-bound)
    flat = [np.broadcast_to(x, (*shape[:-2], *x.shape[-2:])).reshape(tiles, *x.shape[-2:])
            for x in (a, b, c)]
    out = np.empty((tiles, *shape[-2:]), T.storage_dtype(acc_type))
    for t0 in range(0, tiles, step):
        out[t0:t0 + step] = tier(*(x[t0:t0 + step] for x in flat))
    return out.reshape(shape)


def _rounded_sum(a: np.ndarray, b: np.ndarray, c: np.ndarray, acc_type) -> np.ndarray:
    """`accumulate` for float accumulators narrower than float64: the three tiers."""
    maxima = [_max_abs(x) for x in (a, b, c)]
    if not all(map(math.isfinite, maxima)):
        return _with_nonfinite(a, b, c, acc_type)
    s = c + np.matmul(a, b)
    if _float64_is_exact(a, b, c, *maxima):
        return T.convert(_ieee_zero_signs(s, a, b, c), acc_type)
    err, norm_a, norm_b = _error(a, b, c)
    out = T.convert(s - err, acc_type)
    hi = T.convert(s + err, acc_type)
    uint = f"u{out.dtype.itemsize}"
    undecided = np.nonzero(out.view(uint) != hi.view(uint))
    if undecided[0].size * (a.shape[-1] + 1) > (a.size + b.size) // 2:
        # many undecided: scanning A and B once is cheaper than gathering their terms
        exact = _exact_by_row_and_column(a, b, c, s, err, norm_a, norm_b, undecided)
        done = tuple(i[exact] for i in undecided)
        out[done] = T.convert(s[done], acc_type)
        undecided = tuple(i[~exact] for i in undecided)
    if undecided[0].size:
        rows, cols, c_at = _terms_at(a, b, c, undecided)
        terms = np.concatenate([c_at[None, :], (rows * cols).T])
        out[undecided] = T.convert(_exact_values(terms, s[undecided], err[undecided]), acc_type)
    return out


def chain_is_exact(a: np.ndarray, b: np.ndarray, c: np.ndarray, acc_type) -> bool:
    """True when provably every partial sum of C + A@B, over the whole K and in any grouping,
    is exactly representable in `acc_type`.

    Then rounding after each chained instruction changes nothing, and one `accumulate` over
    the full K gives the same bits as the chain. The test is sufficient, not necessary: all
    terms are multiples of 2**q (q from the lowest set bits of A, B, C), q is at least the
    format's subnormal quantum, and the largest sum of |terms| is below 2**(p+q) (p: the
    format's precision) and not above its largest finite value. Integer accumulators need
    that sum within the type's range. NaN or Inf anywhere gives False.
    """
    t = T.resolve(acc_type)
    a, b, c = np.asarray(a), np.asarray(b), np.asarray(c)
    if not T.is_float(t):
        return _sum_bound(np.abs(a), np.abs(b), np.abs(c)) <= ml_dtypes.iinfo(t).max
    if not all(np.isfinite(x).all() for x in (a, b, c)):
        return False
    q = min(_lowest_bit(a) + _lowest_bit(b), _lowest_bit(c))
    if q == math.inf:
        return True  # every term is zero
    info = ml_dtypes.finfo(T.storage_dtype(t))
    q_sub = int(np.frexp(float(info.smallest_subnormal))[1]) - 1
    # Every step of the bound is a multiple of 2**q, exact below 2**(53+q); RNE is monotone,
    # so a rounded step is already >= 2**(53+q) >= 2**(p+q): the comparison is exact.
    bound = _sum_bound(np.abs(a), np.abs(b), np.abs(c))
    return q >= q_sub and bound < 2.0 ** (info.nmant + 1 + q) and bound <= float(info.max)


def _sum_bound(abs_a: np.ndarray, abs_b: np.ndarray, abs_c: np.ndarray) -> float | int:
    """An upper bound of sum(|terms|) over every output without a matmul: the smaller of
    max row sum(|A|) * max|B| and max|A| * max column sum(|B|), plus max|C|. Python numbers
    (ints stay exact; int64 row sums of decoded <= 32-bit integers cannot overflow)."""
    def peak(x: np.ndarray) -> float | int:
        return np.max(x, initial=0).item()

    products = min(peak(abs_a.sum(axis=-1)) * peak(abs_b), peak(abs_a) * peak(abs_b.sum(axis=-2)))
    return products + peak(abs_c)


def _max_abs(x: np.ndarray) -> float:
    """max |x| (0 when empty) without an |x| temporary; NaN when x holds a NaN."""
    return max(float(np.max(x, initial=0.0)), -float(np.min(x, initial=0.0)))


def _integer_sum(a, b, c, acc_type, clamp: bool) -> np.ndarray:
    """int64 sum; float64 BLAS when every partial sum is provably below 2**53 (then exact)."""
    info = np.iinfo(T.storage_dtype(acc_type))
    peak = [int(np.max(np.abs(x), initial=0)) for x in (a, b, c)]
    if a.shape[-1] * peak[0] * peak[1] + peak[2] < 2**53:
        total = (c + np.matmul(a.astype(np.float64), b.astype(np.float64))).astype(np.int64)
    else:  # int64 wraps like the 2**32 hardware adder, modulo a multiple of 2**32
        total = c + np.einsum("...mk,...kn->...mn", a, b)
    if clamp:
        return np.clip(total, info.min, info.max).astype(info.dtype)
    return total.astype(info.dtype)  # two's-complement wrap, like MFMA's i32 adder


def _float64_is_exact(a, b, c, max_a: float, max_b: float, max_c: float) -> bool:
    """True when float64 holds every partial sum of every output exactly, in any order.

    Products are multiples of 2**(qa+qb) and C of 2**q with q = qa + qb; every partial sum
    is bounded by bound = K max|a| max|b| + max|c|, so bound < 2**(52+q) proves it (one bit
    of margin absorbs the rounding of `bound` itself). The 52 - log2(bound/(max|a| max|b|))
    bits left are split evenly between A and B; random-valued data fails on a small sample.
    """
    k = a.shape[-1]
    bound = k * max_a * max_b + max_c
    if bound == 0:
        return True
    q = int(np.frexp(bound)[1]) - 52  # bound < 2**(52+q)
    if q < -1074:
        return False  # products might underflow (never for decoded <= 32-bit formats)
    if max_a == 0 or max_b == 0:
        return _multiples_of([(c, q)])
    ea, eb = int(np.frexp(max_a)[1]), int(np.frexp(max_b)[1])  # max|a| < 2**ea
    spare = ea + eb - q  # bits of significance A and B may use together
    qa = ea - spare // 2
    return _multiples_of([(a, qa), (b, q - qa), (c, q)])


def _multiples_of(checks: list[tuple[np.ndarray, int]]) -> bool:
    """Every element of each x is a multiple of 2**q, for all (x, q) in `checks`; samples
    of all are tested before any whole array, so random-valued data fails cheaply."""
    flats = [(x.reshape(-1) if x.flags.c_contiguous else np.ravel(x), q) for x, q in checks]
    for part in (slice(_SAMPLE), slice(16 * _SAMPLE), slice(None)):
        for flat, q in flats:
            if q <= -1074:
                continue  # every float64 is a multiple of 2**-1074
            x = flat[part]
            if q <= 0 and np.array_equal(x, np.rint(x)):
                continue  # integers are multiples of 2**q: no scaling pass
            scaled = np.ldexp(x, -q)  # exact: |scaled| < 2**53 by the choice of q
            if not np.array_equal(scaled, np.rint(scaled)):
                return False
    return True


def _error(a: np.ndarray, b: np.ndarray, c: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rigorous bound err on |s - exact| for s = fl(C + fl(A@B)) from any BLAS, in
    O(MK+KN+MN); also returns the row norms of A and column norms of B it is made of.

    With n = K + 1, gamma_n = n u / (1 - n u) and T = |C| + |A|@|B|: BLAS evaluates each entry
    of A@B as a sum of products with rounded (or fused) operations in some order and grouping
    (blocked, vector lanes, FMA: each product passes at most K roundings), so |fl(A@B) - A@B|
    <= gamma_K |A|@|B|; adding C is one more rounding: |s - exact| <= gamma_n T (Higham, ASNA
    3.1). Cauchy-Schwarz bounds T <= |C| + ||a_i|| ||b_j||; computing that from rounded sums
    of squares (non-negative), two square roots, a product and a sum gives T' with T <= T'
    (1 + (K+5) u)(1 + 2**-30) for K < 2**20. So |s - exact| <= (K + 1 + 2**-10) u T'. The
    caller forms s -+ err with one rounding each, at most u (|s| + err) <= 1.001 u T' more,
    and err = fl((K+5) u T') loses a factor (1 - u): (K+5) u covers (K + 2.002) u. Underflow
    (impossible for decoded <= 32-bit formats) would add at most 2**-1075 per operation: the
    absolute (2K + 6) 2**-1074 term. Non-finite inputs never reach here.
    """
    k = a.shape[-1]
    norm_a = np.sqrt(np.einsum("...mk,...mk->...m", a, a))
    norm_b = np.sqrt(np.einsum("...kn,...kn->...n", b, b))
    err = np.abs(c) + norm_a[..., :, None] * norm_b[..., None, :]
    err *= (k + 5) * _U
    err += (2 * k + 6) * _TINY
    return err, norm_a, norm_b


def _terms_at(a, b, c, idx: tuple[np.ndarray, ...]):
    """The A rows (n, K), B columns (n, K) and C values (n,) of the outputs at `idx`."""
    shape = np.broadcast_shapes(a.shape[:-1] + (1,), b.shape[:-2] + (1, b.shape[-1]), c.shape)
    lead = shape[:-2]
    a_full = np.broadcast_to(a, (*lead, *a.shape[-2:]))
    b_cols = np.swapaxes(np.broadcast_to(b, (*lead, *b.shape[-2:])), -1, -2)
    rows = a_full[(*idx[:-2], idx[-2])]
    cols = b_cols[(*idx[:-2], idx[-1])]
    return rows, cols, np.broadcast_to(c, shape)[idx]


def _exact_by_row_and_column(a, b, c, s, err, norm_a, norm_b,
                             idx: tuple[np.ndarray, ...]) -> np.ndarray:
    """Bool (n,): the outputs at idx where s is provably the exact (non-zero) sum.

    Row i of A is tested for multiples of 2**qa_i, qa_i h bits below its norm, column j of B
    likewise (h splits the ~50 bits err leaves); then the exact sum and s are multiples of
    2**q, q = qa_i + qb_j, and equal where C is one too and err < 2**q (see
    `_exact_values`). Zero sums are left to the caller's exact path for their sign.
    """
    h = (50 - (a.shape[-1] + 5).bit_length()) // 2
    q_a, q_b = np.frexp(norm_a)[1] - h, np.frexp(norm_b)[1] - h  # |x| <~ norm < 2**(q+h)
    # (scaled - rint(scaled))**2 summed by einsum: 0 exactly when every scaled value is an
    # integer (a non-zero fraction is >= 2**-(53-h-300) for decoded data: no underflow)
    frac_a = np.ldexp(a, -q_a[..., None])
    frac_a -= np.rint(frac_a)
    frac_b = np.ldexp(b, -q_b[..., None, :])
    frac_b -= np.rint(frac_b)
    ok_a = np.einsum("...mk,...mk->...m", frac_a, frac_a) == 0
    ok_b = np.einsum("...kn,...kn->...n", frac_b, frac_b) == 0
    shape = s.shape
    q_a, ok_a = (np.broadcast_to(x, shape[:-1])[idx[:-1]] for x in (q_a, ok_a))
    q_b, ok_b = (np.broadcast_to(x, (*shape[:-2], shape[-1]))[(*idx[:-2], idx[-1])]
                 for x in (q_b, ok_b))
    q = q_a + q_b
    c_scaled = np.ldexp(np.broadcast_to(c, shape)[idx], -q)
    s_at = s[idx]
    return (ok_a & ok_b & (c_scaled == np.rint(c_scaled)) & (err[idx] < np.ldexp(1.0, q))
            & (s_at != 0))


def _exact_values(terms: np.ndarray, s: np.ndarray, err: np.ndarray) -> np.ndarray:
    """float64 values v with RNE(v) == RNE(sum of terms) for every format of <= 51 bits, for
    the columns of terms (K+1, n), given s with |s - sum| <= err (n,).

    Most undecided sums are exactly s, sitting on a midpoint of the target: where every term
    is a multiple of 2**q > err, the exact sum and s (a float64 result of operations on those
    multiples) are both multiples of 2**q closer than 2**q, so they are equal. The rest go
    through `_exact_sum`. An exact zero is +0 unless every term is -0 (IEEE 754 §6.3).
    """
    q = np.frexp(err)[1]  # err < 2**q
    scaled = np.ldexp(terms, -q)  # exact: |term| <= T < err / u, and no underflow
    out = s.copy()
    rest = np.nonzero(~np.all(scaled == np.rint(scaled), axis=0))[0]
    if rest.size:
        out[rest] = _exact_sum(terms[:, rest])
    out[out == 0] = 0.0
    out[np.all((terms == 0) & np.signbit(terms), axis=0)] = -0.0
    return out


def _exact_sum(terms: np.ndarray) -> np.ndarray:
    """The sum of each column of terms (K+1, n) rounded to float64 "to odd", so that a later
    RNE to <= 51 bits is exact.

    A pairwise TwoSum tree is an error-free transformation: exact = hi + sum(errs). The
    float64 sum of the m errs is off by at most (m-1) u sum|errs|, so where the normalised
    tail is larger than 2 m u sum|errs| its sign is certain; elsewhere math.fsum finds the
    exact remainder. Every level works on contiguous rows.
    """
    level, errs = terms, []
    while len(level) > 1:  # pair the halves; an odd last term waits for the next level
        half = len(level) // 2
        total, err = _two_sum(level[:half], level[half:2 * half])
        errs.append(err)
        level = np.concatenate([total, level[2 * half:]]) if len(level) % 2 else total
    hi = level[0]
    lo = sum(e.sum(axis=0) for e in errs) + np.zeros_like(hi)
    err_abs = sum(np.abs(e).sum(axis=0) for e in errs) + np.zeros_like(hi)
    head, tail = _two_sum(hi, lo)
    m = len(terms) - 1
    unsure = np.nonzero((np.abs(tail) <= 2 * m * _U * err_abs) & (err_abs != 0))[0]
    for n in unsure:  # rare: the remainder is lost in the float64 sum of the errs
        exact_hi = math.fsum(terms[:, n])
        head[n], tail[n] = exact_hi, math.fsum([*terms[:, n], -exact_hi])
    return _round_to_odd(head, tail)


def _two_sum(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """s = fl(x + y) and the exact error e, s + e == x + y (Knuth's TwoSum, any order)."""
    s = x + y
    virt = s - x
    return s, (x - (s - virt)) + (y - virt)


def _round_to_odd(head: np.ndarray, tail: np.ndarray) -> np.ndarray:
    """head + tail rounded to float64 "to odd": of the two doubles around the exact value take
    the one with an odd significand. A later RNE to <= 51 bits is then correctly rounded."""
    even = (head.view(np.int64) & 1) == 0
    step = (tail != 0) & even
    toward = np.where(tail > 0, np.inf, -np.inf)
    return np.where(step, np.nextafter(head, toward), head)


def _ieee_zero_signs(s: np.ndarray, a, b, c) -> np.ndarray:
    """Exact float64 sums s with IEEE zero signs: -0 only where C and every product are -0."""
    s += 0.0  # -0 + +0 == +0: whatever sign BLAS gave a zero
    neg_c = (c == 0) & np.signbit(c)
    if neg_c.any():
        idx = np.nonzero((s == 0) & neg_c)
        rows, cols, _ = _terms_at(a, b, c, idx)
        products = rows * cols
        neg = np.all((products == 0) & np.signbit(products), axis=1)
        s[tuple(i[neg] for i in idx)] = -0.0
    return s


def _with_nonfinite(a, b, c, acc_type) -> np.ndarray:
    """Outputs whose A row, B column or C holds NaN/Inf take the IEEE float64 sum; every
    other output is the exact sum of its own (finite) terms."""
    fin_a, fin_b, fin_c = np.isfinite(a), np.isfinite(b), np.isfinite(c)
    out = accumulate(np.where(fin_a, a, 0.0), np.where(fin_b, b, 0.0), np.where(fin_c, c, 0.0),
                     acc_type)
    bad = ((~fin_a.all(axis=-1))[..., :, None] | (~fin_b.all(axis=-2))[..., None, :] | ~fin_c)
    bad = np.broadcast_to(bad, out.shape)
    with np.errstate(invalid="ignore", over="ignore"):  # Inf*0, Inf-Inf: NaN, as IEEE says
        total = c + np.einsum("...mk,...kn->...mn", a, b)
    out[bad] = T.convert(np.broadcast_to(total, out.shape)[bad], acc_type)
    return out


def _lowest_bit(x: np.ndarray) -> float:
    """An exponent q with every element a multiple of 2**q, the largest such (inf if all
    zero)."""
    x = x[x != 0]
    if not x.size:
        return math.inf
    mant, exp = np.frexp(np.abs(x))
    bits = (mant * 2.0**53).astype(np.int64)
    low = np.frexp((bits & -bits).astype(np.float64))[1] - 1
    return float(np.min(exp - 53 + low))
