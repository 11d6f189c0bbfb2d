"""The arithmetic of one matrix instruction: exact products, exact sum, one rounding.

rocwmma-notes §3.10 / docs/architecture.md: per instruction D = round(C + sum_k A*B), batched
over leading axes. Integers are summed exactly and then wrap (MFMA) or saturate (WMMA clamp).
Float inputs narrower than float64 (f16, bf16, fp8, xf32, f32) have products exact in
float64; their sum is rounded once (RNE) to the accumulator type:

1. certified path: from the quanta of its row of A and column of B, float64's A@B is proved
   exact per output (`_uncertified_pairs`, the proof is there); then s = fl64(P + C) is the
   correctly rounded float64 of the exact sum, and one conversion rounds it right unless s
   sits exactly on a rounding boundary of the target (RNE is monotone and the boundaries
   are float64 numbers). Those are found from s's bits and decided by TwoSum's remainder
   (`_off_midpoints`), except in tiles where every addition P + C is provably exact
   (`_unproven_additions`). Almost every output of random data is settled here;
2. decided path: the few left (`_settle`: uncertified pairs, and sums below the target's
   smallest normal where tiny products could make P + C inexact) are rechecked per pair
   with C's own quantum, else s comes with the a-priori bound
   |s - exact| <= err = (K+5) u (|C| + ||a_i|| ||b_j||) + tiny, u = 2**-53 (derivation at
   `_error`). RNE to the target is monotone, so where s - err and s + err round to the same
   value the exact sum does too (overflow to inf and subnormals included);
3. the few undecided elements (mostly exact sums on a target midpoint) are proved equal to s
   where all their terms are multiples of 2**q > err; the rest get an error-free TwoSum tree
   (hi + remainder), rounded "to odd" by the remainder's sign so the final RNE is exact;
   sums whose remainder sign is still unknown are summed exactly with `math.fsum`.
Outputs past the certificate are gathered by flat index; chunk-sized temporaries live in
per-thread scratch buffers (`scratch.scratch`).

An output is non-finite exactly when its A row, B column or C element holds NaN or Inf; it
takes the IEEE float64 sum of the real terms (Inf*0 = NaN, Inf-Inf = NaN: order-independent).
Every finite output is the exact sum of its own terms. An exact sum of zero is +0 unless all
its terms are -0 (IEEE 754 §6.3), independent of the zero signs BLAS produces.
f64 inputs (f64 MFMA) have inexact float64 products; they are summed in float64 with numpy's
own einsum loops (deterministic).
"""

from __future__ import annotations

import math
import sys
from functools import cache, partial
from typing import NamedTuple

import ml_dtypes
import numpy as np

from .. import types as T
from .magnitudes import row_magnitude_bits
from .scratch import scratch

_U = 2.0**-53  # unit roundoff of float64
_TINY = 2.0**-1074  # float64's smallest subnormal: the error of one underflowing operation
_CHUNK = 1 << 18  # outputs per chunk of a big batch: its float64 temporaries stay in cache
_INF_TOP = 0x7FF0  # float64 top 16 magnitude bits at or above this: Inf, NaN
_MAGNITUDE = np.uint16(0x7FFF)  # the top 16 bits without the sign
_NO_BOUND = 1 << 20  # d of a line without a certificate (all-zero lines: its negative)
_SHIFT = np.uint64(52)  # float64 exponent field position
_LONG_LINE = 32  # lines (K) at least this long are reduced in place
_Q_LIMIT = 500  # |q| of a certified line: keeps _settle's 2**(q + 52) a normal float64


def decode(values: np.ndarray, t) -> np.ndarray:
    """Element values as float64 / int64, the exact compute representation, C-contiguous
    (a B tile read column by column comes out row-major, the layout BLAS multiplies
    fastest: the cast reorders it for almost nothing, a copy later costs a pass)."""
    if T.is_float(t):
        if T.resolve(t) is T.xfloat32:
            values = T.to_xfloat32(values)  # hardware reads only the 19 xf32 bits
        with np.errstate(invalid="ignore"):  # a signaling NaN comes out quiet: still NaN
            return np.asarray(values).astype(np.float64, order="C")
    return np.asarray(values).astype(np.int64, order="C")


def accumulator_values(values: np.ndarray, t) -> np.ndarray:
    """Exact values of an accumulator of type t for `accumulate` and the silicon models:
    float32 ones as they are (no decode pass, half the bytes), others decoded to float64 /
    int64."""
    if values.dtype == np.float32 and T.resolve(t) is T.float32:
        return values
    return decode(values, t)


def accumulate(a: np.ndarray, b: np.ndarray, c: np.ndarray, acc_type, *,
               clamp: bool = False, proven_exact: bool = False,
               shared: tuple[Shared | None, Shared | None] = (None, None)) -> np.ndarray:
    """D = C + A @ B over the last two axes (batched), rounded once to `acc_type`.

    `a` (..., M, K), `b` (..., K, N) and `c` (..., M, N) are decoded values (see `decode`;
    float32 values may stay float32: they are exact either way); leading axes broadcast.
    Returns `storage_dtype(acc_type)` values. `proven_exact`: the caller proved every
    partial sum, in any grouping, exact in a float acc_type (`models.collapsed_chain`), so
    float64 computes it exactly too and no certificate is needed. `shared`: the distinct
    tiles a (waves, M, K) and b (waves, K, N) were gathered from, where known: the
    certificate reads each distinct tile once.
    """
    if T.is_float(acc_type) and T.bits(acc_type) == 64:
        with np.errstate(invalid="ignore", over="ignore"):  # IEEE Inf/NaN results intended
            return c + np.einsum("...mk,...kn->...mn", a, b)
    shape = np.broadcast_shapes(a.shape[:-1] + (1,), b.shape[:-2] + (1, b.shape[-1]), c.shape)
    if T.is_float(acc_type):
        a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
        c = np.asarray(c)
        if c.dtype != np.float32:  # float32 C is read as is: half the bytes of every pass
            c = np.asarray(c, np.float64)
        out = np.empty(shape, T.storage_dtype(acc_type))
        b, shared = _row_major_shared(b, shared)
        lines = None if proven_exact else _shared_quanta(a, b, shape, *shared)

        def float_tier(a, b, c, out=out):
            _rounded_sum(a, b, c, acc_type, out, proven_exact, lines)
            return out
        tier = float_tier
    else:
        out = None
        tier = partial(_integer_sum, acc_type=acc_type, clamp=clamp)
    tiles = math.prod(shape[:-2])
    step = max(1, _CHUNK // max(1, shape[-2] * shape[-1]))
    if tiles <= step:
        return tier(a, b, c)
    # big batches: one cache-sized chunk of tiles at a time (every pass is memory-bound)
    flat = [np.broadcast_to(x, (*shape[:-2], *x.shape[-2:])).reshape(tiles, *x.shape[-2:])
            for x in (a, b, c)]
    if out is None:
        out = np.empty((tiles, *shape[-2:]), T.storage_dtype(acc_type))
    whole = out.reshape(tiles, *shape[-2:])
    for t0 in range(0, tiles, step):
        part = whole[t0:t0 + step]
        pa, pb, pc = (x[t0:t0 + step] for x in flat)
        if T.is_float(acc_type):  # float_tier, in place
            _rounded_sum(pa, pb, pc, acc_type, part, proven_exact,
                         None if lines is None else _lines_part(lines, t0, t0 + step))
        else:
            part[...] = tier(pa, pb, pc)
    return out.reshape(shape)


class Lines(NamedTuple):
    """Per row of A or column of B (`_quanta`): every element of a valid line is a multiple of
    2**q and below 2**(q + d) in magnitude. All-zero lines have d = -_NO_BOUND (their
    products are zero with any partner), other invalid lines d = _NO_BOUND; q = 0 on both.
    `finite`: no NaN or Inf anywhere."""

    q: np.ndarray
    d: np.ndarray
    valid: np.ndarray
    finite: bool


class TileRanges(NamedTuple):
    """Per tile of C (`_tile_ranges`): every |c| < 2**top and every c a multiple of 2**low
    (-_NO_BOUND and _NO_BOUND where the tile is all zero); `finite`: no NaN or Inf; `zero`:
    some c is zero (so C may hold a -0)."""

    top: np.ndarray
    low: np.ndarray
    finite: bool
    zero: bool


class Shared(NamedTuple):
    """A batch's operand tiles `values` (waves, rows, cols) that are gathered from fewer
    distinct ones: values[w] == distinct[at[w]] (waves that loaded the same block)."""

    values: np.ndarray
    distinct: np.ndarray
    at: np.ndarray


def facts_of(x: np.ndarray, shared: Shared | None) -> Shared | None:
    """`shared` where it holds facts of x itself (not of a copy or a slice), else None."""
    return shared if shared is not None and shared.values is x else None


def distinct_of(x: np.ndarray, shared: Shared | None) -> np.ndarray:
    """The distinct tiles x was gathered from (`facts_of`), else x: the same set of values
    (every reduction over all of x gives the same there)."""
    facts = facts_of(x, shared)
    return x if facts is None else facts.distinct


def _shared_quanta(a: np.ndarray, b: np.ndarray, shape: tuple[int, ...],
                   shared_a: Shared | None, shared_b: Shared | None
                   ) -> tuple[Lines, Lines] | None:
    """`_both_quanta` of a and b (waves, ...) for the whole batch, read from their distinct
    tiles, or None where neither is `Shared` (facts of these very arrays) or the batch
    broadcasts."""
    facts = [facts_of(a, shared_a), facts_of(b, shared_b)]
    if facts == [None, None] or not a.shape[:-2] == b.shape[:-2] == shape[:-2]:
        return None
    tiles = [x if f is None else f.distinct for f, x in zip(facts, (a, b), strict=True)]
    lines = _both_quanta(tiles[0], _row_major(tiles[1]))
    return tuple(  # type: ignore[return-value]  # (a pair)
        found if f is None else Lines(found.q[f.at], found.d[f.at], found.valid[f.at],
                                      found.finite)
        for f, found in zip(facts, lines, strict=True))


def _lines_part(lines: tuple[Lines, Lines], start: int, stop: int) -> tuple[Lines, Lines]:
    """The `Lines` of tiles start..stop of a batch (lines (..., length), leading axes
    flattened)."""
    def part(x: np.ndarray) -> np.ndarray:
        return x.reshape(-1, x.shape[-1])[start:stop]

    return tuple(  # type: ignore[return-value]  # (a pair)
        Lines(part(found.q), part(found.d), part(found.valid), found.finite) for found in lines)


def _rounded_sum(a: np.ndarray, b: np.ndarray, c: np.ndarray, acc_type,
                 out: np.ndarray, proven_exact: bool = False,
                 lines: tuple[Lines, Lines] | None = None) -> None:
    """`accumulate` for float accumulators narrower than float64, into `out`.

    s = fl64(P + C), P = fl64(A@B), is rounded once to acc_type. Where the line certificate
    proves P exact (`_uncertified_pairs`), s is the correctly rounded float64 of the exact
    sum, and RNE to acc_type is monotone with every rounding boundary of acc_type (its
    midpoints, the overflow threshold) a float64 number: s lies on the same side of each
    boundary as the exact sum, so both round alike unless s is on a boundary itself. There
    (`_on_midpoints`: exact sums of random data often are) TwoSum gives the exact remainder
    of P + C, whose sign says which way the exact sum rounds (`_off_midpoints`); tiles
    where every addition P + C is provably exact (`_unproven_additions`) need no look. Outputs
    the certificate leaves open go to `_settle`. `proven_exact` (see `accumulate`): s is the
    exact sum, stored as it is. `lines`: the `_both_quanta` of a and b, where known.
    """
    given_b, b = b, _row_major(b)
    if proven_exact:
        _store(out, _float64_sum(a, b, c, out.shape, may_hold_zero=True), acc_type)
        return
    lines_a, lines_b = _both_quanta(a, b) if lines is None else lines
    tiles = math.prod(out.shape[:-2])
    c_ranges = _tile_ranges(c, tiles) if c.shape == out.shape else None
    finite_c = c_ranges.finite if c_ranges is not None else _all_finite(c)
    if not (lines_a.finite and lines_b.finite and finite_c):  # (b may be a scratch buffer
        out[...] = _with_nonfinite(a, given_b, c, acc_type)  # the recursion reuses)
        return
    s = _float64_sum(a, b, c, out.shape, c_ranges is None or c_ranges.zero)
    _store(out, s, acc_type)
    spans = (_tile_spans(lines_a, out.shape[:-2], out.shape[-2]),
             _tile_spans(lines_b, out.shape[:-2], out.shape[-1]))
    looked = None if c_ranges is None else _unproven_additions(
        (lines_a, lines_b), spans, c_ranges, out.shape, a.shape[-1])
    _off_midpoints(a, b, c, s, acc_type, out, looked)
    flagged = _uncertified_pairs(lines_a, lines_b, s.shape, a.shape[-1])
    if _below_normal_may_be_inexact(*spans, acc_type):
        flagged = np.union1d(flagged, _below_normal(s, acc_type))
    if flagged.size:
        _settle(a, b, c, s, flagged, (lines_a, lines_b), acc_type, out)


def _float64_sum(a: np.ndarray, b: np.ndarray, c: np.ndarray, shape: tuple,
                 may_hold_zero: bool) -> np.ndarray:
    """s = fl64(fl64(A@B) + C) in a scratch buffer of `shape` (the sum is added in place:
    one buffer less to pass through the cache), with IEEE zero signs where C holds a -0
    (`may_hold_zero`: C may hold a zero at all)."""
    s = scratch("sum", shape, np.float64)
    if s.shape[:-2] == a.shape[:-2] == b.shape[:-2] or s.shape[:-2] == np.broadcast_shapes(
            a.shape[:-2], b.shape[:-2]):
        np.matmul(a, b, out=s)
    else:  # C has more leading axes than A@B
        s[...] = np.matmul(a, b)
    np.add(s, c, out=s)
    if may_hold_zero and _has_negative_zero(c):
        _fix_zero_signs(s, a, b, c)
    return s


def _column_major(b: np.ndarray) -> bool:
    """b's K x N tiles are column-major (and b is not broadcast)."""
    return b.ndim >= 2 and b.strides[-2] == b.itemsize and b.strides[-1] != b.itemsize and (
        0 not in b.strides)


def _row_major(b: np.ndarray) -> np.ndarray:
    """b, or its copy with row-major K x N tiles where b's are column-major (not
    broadcast): BLAS multiplies these small column-major tiles 1.4-2x slower than the copy
    costs, and the K-first copy of B's columns (`_quanta`) reads a row-major B faster."""
    if not _column_major(b):
        return b
    rows = scratch("b rows", b.shape, b.dtype)
    np.copyto(rows, b)
    return rows


def _row_major_shared(b: np.ndarray, shared: tuple[Shared | None, Shared | None]
                      ) -> tuple[np.ndarray, tuple[Shared | None, Shared | None]]:
    """(b, shared) with b's column-major tiles made row-major from its distinct tiles where
    it was gathered from them (perf_hgemm's B, a transposed LDS fragment that two waves
    share): a take of contiguous tiles from the distinct tiles' row-major copy costs less
    than a transposing copy of every wave's tile."""
    facts = facts_of(b, shared[1])
    if facts is None or b.ndim != 3 or not _column_major(b):
        return b, shared
    rows = np.ascontiguousarray(facts.distinct)
    taken = np.take(rows, facts.at, axis=0, mode="wrap",
                    out=scratch("b rows taken", b.shape, b.dtype))
    return taken, (shared[0], Shared(taken, rows, facts.at))


def _store(out: np.ndarray, s: np.ndarray, acc_type) -> None:
    """out = s rounded once (RNE) to acc_type."""
    if T.resolve(acc_type) is T.float32:
        with np.errstate(over="ignore"):  # overflow to inf is the IEEE result
            np.copyto(out, s, casting="same_kind")
    else:
        out[...] = T.convert(s, acc_type)


def _precision(x: np.ndarray) -> tuple[int, int]:
    """(p, or): every nonzero normal float64 (or float32) in x is a multiple of 2**(E - p),
    E its exponent (2**(E-1) <= |x| < 2**E), p = 53 (24) minus the trailing zeros all
    significands share, from `or`, the OR of all their bits (0: x is +0 everywhere).
    x = (2**52 + m) 2**(E-53) with m a multiple of 2**t (float32: 2**23, 2**(E-24))."""
    field = 52 if x.dtype == np.float64 else 23
    every = int(np.bitwise_or.reduce(x.view(f"u{x.dtype.itemsize}"), axis=None))
    bits = every & ((1 << field) - 1)
    return field + 1 - ((bits & -bits).bit_length() - 1 if bits else field), every


def _quanta(x: np.ndarray, axis: int) -> Lines:
    """The `Lines` of the rows of A (axis=-1) or columns of B (axis=-2), float64 x.

    q = E_min - p, E_min the exponent of the line's smallest nonzero |x| and p the precision
    all of x shares (`_precision`), and d = E_max - q with the largest |x| < 2**E_max. Lines
    that hold a float64 subnormal (no normal exponent) or have |q| > _Q_LIMIT are not
    valid. Only exponents count, so the reductions read each value's top 16 bits (sign,
    exponent, 4 significand bits: `_top_words`), a quarter of its bytes, copied once into a
    scratch buffer with K first for short lines (the reductions then run over whole rows
    of lines): there magnitudes order as the values do, and the largest and the smallest
    per line come from a maximum and a minimum. Only lines whose minimum is 0 (a zero, or a
    subnormal below 2**-1070, whose top bits are 0 too) are read again (`_zero_lines`).
    """
    words, along = _top_words(x), axis
    if x.shape[axis] < _LONG_LINE:  # short lines: K first
        words, along = _to_front(words, axis), 0
    bits = scratch(f"top bits {axis}", words.shape, np.uint16)
    np.bitwise_and(words, _MAGNITUDE, out=bits)
    return _lines_of(bits, along, [(x, axis, bits)])[0]


def _both_quanta(a: np.ndarray, b: np.ndarray) -> tuple[Lines, Lines]:
    """`_quanta` of A's rows and B's columns, in one set of passes over both where their
    lines are short and lie alike with K first (A (..., M, K), B (..., K, N), M = N and
    the same leading axes: a wave's square tiles); else one call each."""
    words = [_to_front(_top_words(a), -1), _to_front(_top_words(b), -2)]
    if a.shape[-1] >= _LONG_LINE or words[0].shape != words[1].shape:
        return _quanta(a, -1), _quanta(b, -2)
    both = scratch("top bits", (words[0].shape[0], 2, *words[0].shape[1:]), np.uint16)
    for i, w in enumerate(words):
        np.bitwise_and(w, _MAGNITUDE, out=both[:, i])
    lines = _lines_of(both, 0, [(a, -1, both[:, 0]), (b, -2, both[:, 1])])
    return lines[0], lines[1]


def _lines_of(bits: np.ndarray, along: int, parts: list[tuple[np.ndarray, int, np.ndarray]]
              ) -> list[Lines]:
    """The `Lines` from the magnitude top bits `bits`, reduced `along` that axis: one part
    (x, axis, its bits) per operand stacked on the axis after `along` (one part: no such
    axis). Each part has its own precision p."""
    top = np.maximum.reduce(bits, along, initial=0)
    low = np.minimum.reduce(bits, along, initial=0xFFFF)
    if low.size and not low.all():
        for i, (x, axis, own) in enumerate(parts):
            at = i if len(parts) > 1 else ...
            if not low[at].all():
                _zero_lines(x, axis, own, along, top[at], low[at])
    ps = [_precision(x)[0] for x, _, _ in parts]
    p = ps[0] if len(parts) == 1 else np.array(ps, np.int32).reshape(-1, *(1,) * (low.ndim - 1))
    q = np.right_shift(low, 4, dtype=np.int32)  # (int32: half the bytes of every pass here
    d = np.right_shift(top, 4, dtype=np.int32)  # and in the tests that read the lines)
    d -= q
    d += p
    q -= 1022 + p
    if q.size and not -_Q_LIMIT <= int(q.min()) <= int(q.max()) <= _Q_LIMIT:
        valid = np.abs(q) <= _Q_LIMIT  # a zero line or a subnormal minimum: |q| > 1022
        d = np.where(valid, d, np.where(top == 0, -_NO_BOUND, _NO_BOUND))
        q = np.where(valid, q, 0)
    else:
        valid = np.ones(q.shape, np.bool_)
    if len(parts) == 1:
        return [Lines(q, d, valid, bool(top.size == 0 or int(top.max()) < _INF_TOP))]
    peaks = top.reshape(len(parts), -1).max(axis=1, initial=0)
    return [Lines(q[i], d[i], valid[i], bool(peaks[i] < _INF_TOP)) for i in range(len(parts))]


def _zero_lines(x: np.ndarray, axis: int, bits: np.ndarray, along: int, top: np.ndarray,
                low: np.ndarray) -> None:
    """`_quanta`'s lines whose minimum top bits are 0, in place: a line that mixes zeros with
    nonzero values gets the smallest nonzero top bits (a minimum with zeros wrapped to the
    top), and one holding a tiny subnormal (nonzero with top bits 0) gets top | 1 and low 1,
    exponent field 0: not valid."""
    at = np.nonzero(low == 0)
    lines = np.moveaxis(bits, along, -1)[at]  # (lines, K) copies
    np.subtract(lines, np.uint16(1), out=lines)
    low[at] = lines.min(axis=1) + np.uint16(1)  # arrays wrap: 0 where all are zero
    tiny = np.any((lines == np.uint16(0xFFFF)) & (np.moveaxis(x, axis, -1)[at] != 0), axis=1)
    if tiny.any():
        hidden = tuple(i[tiny] for i in at)
        top[hidden] |= 1
        low[hidden] = 1


def _to_front(x: np.ndarray, axis: int) -> np.ndarray:
    """x with `axis` moved to the front, a view (np.moveaxis without its checks)."""
    axes = list(range(x.ndim))
    return x.transpose((axes.pop(axis), *axes))


def _top_words(x: np.ndarray) -> np.ndarray:
    """The top 16 bits of float64 x (sign, exponent, 4 significand bits), a uint16 view of
    x's shape."""
    return x[..., None].view(np.uint16)[..., 3 if sys.byteorder == "little" else 0]


def _budget(k: int) -> int:
    """Bits the products of a certified output may span: 52 - ceil(log2 K)."""
    return 52 - max(k - 1, 0).bit_length()  # K <= 2**bit_length(K - 1)


def _uncertified_pairs(lines_a: Lines, lines_b: Lines, shape: tuple[int, ...],
                       k: int) -> np.ndarray:
    """Flat indices of the outputs whose float64 A@B the line certificate leaves unproved,
    ascending.

    Certificate: the products of output (i, j) are multiples of 2**Q, Q = q_i + q_j, and
    sum below K 2**(Q + d_i + d_j) <= 2**(52+Q) when d_i + d_j + ceil(log2 K) <= 52: then
    every partial sum (any subset, any grouping) is a multiple of 2**Q below 2**(53+Q), i.e.
    a float64 number, so every addition or FMA BLAS performs is exact. Tiles whose largest d_i
    and d_j fit are passed at once; in the others only rows that fail against the tile's
    largest d_j (and columns likewise: a line holding one tiny value) test their pairs.
    """
    budget = _budget(k)
    m, n = shape[-2], shape[-1]
    d_a = _full(lines_a.d, shape[:-1]).reshape(-1, m)
    d_b = _full(lines_b.d, (*shape[:-2], n)).reshape(-1, n)
    top_a = _per_tile(np.maximum, d_a, -_NO_BOUND)
    top_b = _per_tile(np.maximum, d_b, -_NO_BOUND)
    tiles = np.nonzero(top_a + top_b > budget)[0]
    if not tiles.size:  # every pair of every tile within the budget: the usual case
        return tiles
    rows_a, cols_b = d_a[tiles], d_b[tiles]
    tile, row = _nonzero_2d(rows_a + top_b[tiles, None] > budget)
    open_cols = (cols_b + top_a[tiles, None] > budget)[tile]  # (candidate rows, N)
    pair, col = _nonzero_2d(open_cols & (rows_a[tile, row][:, None] + cols_b[tile] > budget))
    return (tiles[tile[pair]] * m + row[pair]) * n + col


def _per_tile(ufunc: np.ufunc, x: np.ndarray, initial: int) -> np.ndarray:
    """`ufunc` reduced over each tile's lines, x (tiles, lines): short lines through a
    transposed copy (numpy runs a loop per row when it reduces along short rows)."""
    if x.shape[1] >= _LONG_LINE:
        return ufunc.reduce(x, 1, initial=initial)
    return ufunc.reduce(np.ascontiguousarray(x.T), 0, initial=initial)


def _nonzero_2d(flags: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """np.nonzero of 2-D `flags` from its flat indices (several times faster on small
    arrays)."""
    row, col = np.divmod(np.flatnonzero(flags), max(flags.shape[1], 1))
    return row, col


def _tile_ranges(c: np.ndarray, tiles: int) -> TileRanges:
    """The `TileRanges` of C (float32 or float64, the output's shape) cut into `tiles`
    tiles: three passes over its magnitude bits (`row_magnitude_bits`)."""
    info = np.finfo(c.dtype)
    uint = np.dtype(f"u{c.dtype.itemsize}")
    top, low, zero = row_magnitude_bits(np.ascontiguousarray(c).reshape(tiles, -1),
                                        "c magnitudes")
    finite = bool(top.size == 0 or int(top.max()) < ((1 << (info.nexp)) - 1) << info.nmant)
    bias = info.maxexp - 1
    f_top = (top >> uint.type(info.nmant)).astype(np.int64)
    f_low = (low >> uint.type(info.nmant)).astype(np.int64)
    return TileRanges(np.where(top == 0, -_NO_BOUND, f_top - bias + 1),
                      np.where(low == 0, _NO_BOUND, np.maximum(f_low, 1) - bias - info.nmant),
                      finite, zero)


def _tile_spans(lines: Lines, lead: tuple[int, ...], length: int
                ) -> tuple[np.ndarray, np.ndarray]:
    """Per tile (lines of `length` under the output's `lead` axes): the smallest q and the
    largest q + d of its valid lines (_NO_BOUND and -_NO_BOUND where it has none). Zero
    lines (no products) and uncertified lines (redone by `_settle`) do not count."""
    q, d = (_full(x, (*lead, length)).reshape(-1, length) for x in (lines.q, lines.d))
    if lines.valid.all():
        return _per_tile(np.minimum, q, _NO_BOUND), _per_tile(np.maximum, q + d, -_NO_BOUND)
    valid = _full(lines.valid, (*lead, length)).reshape(-1, length)
    return (np.where(valid, q, _NO_BOUND).min(axis=1, initial=_NO_BOUND),
            np.where(valid, q + d, -_NO_BOUND).max(axis=1, initial=-_NO_BOUND))


def _unproven_additions(lines: tuple[Lines, Lines], spans: tuple, c_ranges: TileRanges,
                        shape: tuple[int, ...], k: int) -> np.ndarray:
    """Flat indices of the outputs where the float64 addition P + C of a certified output is
    not proved exact (elsewhere s is the exact sum: no boundary test is needed there).

    In tile t every certified P is a multiple of 2**Qp (Qp the smallest q_i + q_j of its
    lines) below 2**Pt in magnitude (Pt = the largest q_i + d_i plus the largest q_j + d_j
    plus ceil(log2 K)), every C a multiple of 2**low below 2**top: with Q = min(Qp, low),
    |P| + |C| < 2**(max(Pt, top) + 1) <= 2**(Q + 53) makes P + C a float64 number. In the
    tiles where that fails the same test is made per row with row i's own q_i and q_i + d_i
    (B's parts from `_tile_spans`) and per column likewise: an output passing either is
    exact. Zero lines have P = 0 (exact whatever the test says); uncertified ones are
    redone by `_settle`."""
    (low_a, top_a), (low_b, top_b) = spans
    log_k = max(k - 1, 0).bit_length()
    top = np.maximum(top_a + top_b + log_k, c_ranges.top)
    tiles = np.nonzero(top + 1 > np.minimum(low_a + low_b, c_ranges.low) + 53)[0]
    if not tiles.size:
        return tiles
    m, n = shape[-2], shape[-1]
    c_top, c_low = c_ranges.top[tiles, None], c_ranges.low[tiles, None]

    def open_lines(lines: Lines, length: int, low: np.ndarray, top: np.ndarray) -> np.ndarray:
        q, d = (_full(x, (*shape[:-2], length)).reshape(-1, length)[tiles]
                for x in (lines.q, lines.d))
        line_top = np.maximum(q + d + (top[tiles] + log_k)[:, None], c_top)
        return line_top + 1 > np.minimum(q + low[tiles, None], c_low) + 53

    rows = open_lines(lines[0], m, low_b, top_b)
    cols = open_lines(lines[1], n, low_a, top_a)
    tile, row = _nonzero_2d(rows)
    pair, col = _nonzero_2d(cols[tile])
    return (tiles[tile[pair]] * m + row[pair]) * n + col


def _on_midpoints(s: np.ndarray, acc_type) -> np.ndarray:
    """Flat indices where s sits exactly on a rounding boundary of acc_type's normal range:
    the float64 bits below acc_type's last significand bit read 100...0 (the overflow
    threshold, half an ulp above the largest finite value, has the same pattern)."""
    below = 52 - _finfo(acc_type).nmant
    low = scratch("low bits", s.shape, np.uint64)
    np.bitwise_and(s.view(np.uint64), np.uint64((1 << below) - 1), out=low)
    hit = scratch("on midpoint", s.shape, np.bool_)
    np.equal(low, np.uint64(1 << (below - 1)), out=hit)
    return np.flatnonzero(hit) if hit.any() else np.empty(0, np.int64)


def _off_midpoints(a: np.ndarray, b: np.ndarray, c: np.ndarray, s: np.ndarray, acc_type,
                   out: np.ndarray, looked: np.ndarray | None) -> None:
    """Where s = fl64(p + c) is on a boundary of acc_type but p + c is not (TwoSum's
    remainder e != 0), round s moved one float64 step toward p + c: the exact sum and
    that neighbour lie strictly on the same side of the boundary, and no other boundary
    is that close. Only the flat indices `looked` are tested (None: all; see
    `_unproven_additions`). p = A@B is summed again at those few outputs: certified, it
    is exact in any order. (Outputs whose p is not exact are redone by `_settle`.)"""
    if looked is None:
        hit = _on_midpoints(s, acc_type)
    elif not looked.size:
        return
    else:
        hit = looked[_on_midpoints(s.reshape(-1)[looked], acc_type)]
    if not hit.size:
        return
    rows, cols = _lines_at(a, b, s.shape, np.unravel_index(hit, s.shape))
    p_at = (rows * cols).sum(axis=1)
    s_at = s.reshape(-1)[hit]
    flat_c = c.reshape(-1) if c.shape == s.shape else np.broadcast_to(c, s.shape).reshape(-1)
    c_at = flat_c[hit].astype(np.float64)
    virtual = s_at - p_at
    remainder = (p_at - (s_at - virtual)) + (c_at - virtual)
    moved = np.flatnonzero(remainder)
    if moved.size:
        toward = np.where(remainder[moved] > 0, np.inf, -np.inf)
        out.reshape(-1)[hit[moved]] = T.convert(np.nextafter(s_at[moved], toward), acc_type)


def _below_normal_may_be_inexact(spans_a: tuple, spans_b: tuple, acc_type) -> bool:
    """Whether s = fl64(P + C) can be inexact below acc_type's smallest normal 2**e, where
    `_on_midpoints` does not look. It is exact when P (certified) and C are multiples of
    2**Q, Q >= e - 53: C holds acc_type values (multiples of its subnormal quantum, at
    least 2**(e - 52)), P of 2**(q_i + q_j) - so only products of tiny lines can (bf16 or
    f32 inputs near their subnormal range). `spans_a`, `spans_b`: `_tile_spans` (no valid
    line: _NO_BOUND, never below)."""
    smallest = _finfo(acc_type).minexp
    return (int(spans_a[0].min(initial=_NO_BOUND)) + int(spans_b[0].min(initial=_NO_BOUND))
            < smallest - 53)


def _below_normal(s: np.ndarray, acc_type) -> np.ndarray:
    """Flat indices of the nonzero |s| below acc_type's smallest normal."""
    tiny = _finfo(acc_type).smallest_normal
    return np.flatnonzero((s != 0) & (np.abs(s) < tiny))


class _Finfo(NamedTuple):
    nmant: int
    minexp: int
    smallest_normal: float


@cache
def _finfo(acc_type) -> _Finfo:
    """The float format facts of acc_type the boundary tests use (ml_dtypes.finfo, kept)."""
    info = ml_dtypes.finfo(T.storage_dtype(acc_type))
    return _Finfo(int(info.nmant), int(info.minexp), float(info.smallest_normal))


def _all_finite(x: np.ndarray) -> bool:
    """No NaN or Inf in x, from two reductions (a NaN propagates through both)."""
    return math.isfinite(float(np.max(x, initial=0.0))) and math.isfinite(
        float(np.min(x, initial=0.0)))


def _has_negative_zero(x: np.ndarray) -> bool:
    """x (float) holds a -0: its bits, read as a signed integer, are the most negative one,
    which no other float has. One reduction."""
    signed = x.view(f"i{x.dtype.itemsize}")
    return x.size > 0 and int(signed.min()) == np.iinfo(signed.dtype).min


def _settle(a, b, c, s, flagged: np.ndarray, lines: tuple, acc_type, out: np.ndarray) -> None:
    """Round the outputs at the flat indices `flagged` exactly, into `out` (which holds s
    rounded).

    First the certificate per pair, with C's own quantum: Q' = min(q_i + q_j, E_c - p_c),
    p_c the precision the flagged C values share (`_precision`; C = 0: Q' = q_i + q_j),
    makes every term a multiple of 2**Q'; the products sum below
    2**(Q + d_i + d_j + ceil(log2 K)) <= 2**(Q' + 52) when d_i + d_j + ceil(log2 K) +
    (Q - Q') <= 52, and |c| < 2**E_c <= 2**(Q' + 52) needs E_c <= Q' + 52: where both hold,
    s is exact and out is right. For the rest the terms are gathered and the same test is
    made with the actual sum: a float64 sum of K non-negative terms is at most
    (K - 1) u (1 - (K - 1) u)**-1 < 2**-40 (K < 2**12) relatively below the exact one, and
    adding |c| rounds once more, so fl(fl(sum |products|) (1 + 2**-40) + |c|) < 2**(52+Q')
    bounds the magnitudes below 2**(53+Q'). Then the a-priori bound decides
    (`_settle_by_bound`). Those two filters only save work on many outputs: a few (fewer
    than `_FEW_TO_SETTLE`, a random-data step's usual handful) go to the bound at once.
    """
    if flagged.size < _FEW_TO_SETTLE:
        idx = np.unravel_index(flagged, s.shape)
        rows, cols, c_at = _terms_at(a, b, c, idx)
        _settle_by_bound(s, flagged, rows, cols, c_at.astype(np.float64), acc_type, out)
        return
    shape = s.shape
    (q_a, d_a, valid_a, _), (q_b, d_b, valid_b, _) = lines
    idx = np.unravel_index(flagged, shape)
    row, col = (*idx[:-1],), (*idx[:-2], idx[-1])
    row_shape, col_shape = shape[:-1], (*shape[:-2], shape[-1])
    q = _full(q_a, row_shape)[row] + _full(q_b, col_shape)[col]
    d = _full(d_a, row_shape)[row] + _full(d_b, col_shape)[col]
    c_at = _full(c, shape)[idx].astype(np.float64)
    p_c = _precision(c_at)[0]
    e_c = np.frexp(c_at)[1]  # |c| < 2**e_c; c_at is normal or 0
    q_all = np.where(c_at == 0, q, np.minimum(q, e_c - p_c))
    exact = (d + (q - q_all) <= _budget(a.shape[-1])) & ((c_at == 0) | (e_c <= q_all + 52))
    open_ = ~exact
    flagged, idx, c_at = flagged[open_], tuple(i[open_] for i in idx), c_at[open_]
    if not flagged.size:
        return
    valid = (_full(valid_a, row_shape)[tuple(i[open_] for i in row)]
             & _full(valid_b, col_shape)[tuple(i[open_] for i in col)])
    rows, cols, _ = _terms_at(a, b, c, idx)
    magnitude = np.abs(rows * cols).sum(axis=1) * (1 + 2.0**-40) + np.abs(c_at)
    with np.errstate(over="ignore"):
        summed = valid & (magnitude < np.ldexp(1.0, q_all[open_] + 52))
    still = ~summed
    if still.any():
        _settle_by_bound(s, flagged[still], rows[still], cols[still], c_at[still], acc_type,
                         out)


_FEW_TO_SETTLE = 64  # flagged outputs below which `_settle` goes straight to the bound


def _settle_by_bound(s, flagged: np.ndarray, rows: np.ndarray, cols: np.ndarray,
                     c_at: np.ndarray, acc_type, out: np.ndarray) -> None:
    """`_settle` for the outputs at `flagged`, their A rows, B columns (n, K) and float64
    C values given: the a-priori bound decides (`_error`: RNE is monotone, so where s - err
    and s + err round to the same value the exact sum rounds there too), and the rest go to
    `_exact_values`."""
    s_at = s.reshape(-1)[flagged]
    err = _error(rows[:, None, :], cols[:, :, None], c_at[:, None, None])[0].reshape(-1)
    flat_out = out.reshape(-1)
    lo = T.convert(s_at - err, acc_type)
    hi = T.convert(s_at + err, acc_type)
    uint = f"u{lo.dtype.itemsize}"
    undecided = lo.view(uint) != hi.view(uint)
    flat_out[flagged[~undecided]] = lo[~undecided]
    if undecided.any():
        terms = np.concatenate([c_at[None, undecided], (rows[undecided] * cols[undecided]).T])
        flat_out[flagged[undecided]] = T.convert(
            _exact_values(terms, s_at[undecided], err[undecided]), acc_type)


def _fix_zero_signs(s: np.ndarray, a, b, c) -> None:
    """IEEE zero signs for the exact zeros of s = (A@B) + C: -0 only where C and every
    product are -0. An addition gives -0 only from two -0 operands, so s can be -0, or
    should be, only where C is -0: nothing to do unless C holds a -0."""
    neg_c = scratch("negzero", s.shape, np.bool_)
    size = c.dtype.itemsize
    np.equal(np.broadcast_to(c, s.shape).view(f"u{size}"), 1 << (8 * size - 1), out=neg_c)
    if not neg_c.any():
        return
    idx = np.nonzero(neg_c & (s == 0))
    rows, cols, _ = _terms_at(a, b, c, idx)
    products = rows * cols
    neg = np.all((products == 0) & np.signbit(products), axis=1)
    s[idx] = np.where(neg, -0.0, 0.0)


def sum_bound(abs_a: np.ndarray, abs_b: np.ndarray, abs_c: np.ndarray) -> float | int:
    """An upper bound of sum(|terms|) over every output without a matmul: the smaller of
    max row sum(|A|) * max|B| and max|A| * max column sum(|B|), plus max|C|. Python numbers
    (ints stay exact; int64 row sums of decoded <= 32-bit integers cannot overflow)."""
    def peak(x: np.ndarray) -> float | int:
        return np.max(x, initial=0).item()

    products = min(peak(abs_a.sum(axis=-1)) * peak(abs_b), peak(abs_a) * peak(abs_b.sum(axis=-2)))
    return products + peak(abs_c)


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
    norm_a = np.sqrt(np.add.reduce(a * a, -1))
    norm_b = np.sqrt(np.add.reduce(b * b, -2))
    err = np.abs(c) + norm_a[..., :, None] * norm_b[..., None, :]
    err *= (k + 5) * _U
    err += (2 * k + 6) * _TINY
    return err, norm_a, norm_b


def _full(x: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """x broadcast to `shape`; x itself where it has that shape already (np.broadcast_to
    costs microseconds a call, and a step makes dozens)."""
    return x if x.shape == shape else np.broadcast_to(x, shape)


def _terms_at(a, b, c, idx: tuple[np.ndarray, ...]):
    """The A rows (n, K), B columns (n, K) and C values (n,) of the outputs at `idx`."""
    shape = np.broadcast_shapes(a.shape[:-1] + (1,), b.shape[:-2] + (1, b.shape[-1]), c.shape)
    return (*_lines_at(a, b, shape, idx), _full(c, shape)[idx])


def _lines_at(a, b, shape: tuple[int, ...], idx: tuple[np.ndarray, ...]):
    """The A rows (n, K) and B columns (n, K) of the outputs at `idx` of an output `shape`."""
    lead = shape[:-2]
    a_full = _full(a, (*lead, *a.shape[-2:]))
    b_cols = np.swapaxes(_full(b, (*lead, *b.shape[-2:])), -1, -2)
    return a_full[tuple(idx[:-2]) + (idx[-2],)], b_cols[tuple(idx[:-2]) + (idx[-1],)]


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
