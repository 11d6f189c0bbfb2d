"""Family 3 of the silicon numerics: CDNA3's fused dot with truncated alignment and round-down.

silicon-numerics.md, family 3 (gfx942 f16, bf16, xf32, fp8/bf8). Per group of G consecutive
K positions, with d the running f32 value:

1. NaN/inf among the group's a_k, b_k or d: the IEEE value of d + sum(a_k*b_k);
2. an exact product |a_k*b_k| >= 2**128: +-inf by its sign (NaN if both signs occur);
3. each product is aligned at E = max(e(a_k) + e(b_k)) (operand exponents, subnormals at the
   format's minimum normal exponent, zero at -126) and truncated toward zero to a multiple of
   2**(E-24); the truncated products are summed exactly (S, an integer count of 2**(E-24));
   fp8/bf8 sum the even and odd k separately and floor both half sums onto the larger E;
4. M = max(E, e(d)): S is floored to a multiple of 2**(M-31), d to one of 2**(M-24) (fp8/bf8
   drop d when e(d) < M - 25), the two are added exactly and rounded once to f32 (RNE);
   an exact zero is +0.

Vectorised over cache-sized chunks of tiles, d updated in place in the output: per chunk a
contiguous K-major copy of A and B (fp8/bf8: each group's even k first, so both halves are
contiguous slices; a take from the distinct tiles' K-major copy where the batch shares
them); per group the largest exponent sum from one small matmul of powers of
two (their weights by one table look-up per operand; float32 where the operands' exponents
allow, `_narrow`), the outer products by einsum, scaled, truncated by the float -> int32
cast inside the group sum, S floored to d's grid by an int32 mask (`_floor_sum`), and the
alignment of d in float64. Products and scales are float32 when every product and
2**(24-E) is exact there (always for f16 and fp8), else float64. Every temporary is a
per-thread scratch buffer: fresh ones cost a page fault per 4 KiB on every call (a quarter
of the time, measured).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import groupby
from typing import NamedTuple

import numpy as np

from . import silicon_common as SC
from .numerics import Shared, facts_of
from .scratch import scratch

_FRACTION_BITS = 24  # product alignment: 24 fraction bits below 2**E
_SUM_BITS = 31  # the group sum keeps 31 fraction bits below 2**M
_FP8_DROP = 25  # fp8/bf8: d is dropped when e(d) < M - 25
_F32_TINY = np.float32(2.0**-126)  # 2**e(d) of a subnormal or zero d
_BIG_PRODUCT = 2.0**128  # products at least this large make the group infinite
_CHUNK_TERMS = 1 << 19  # product terms per chunk step (measured best: products near 2 L2 sizes)
_SHORT_ROW = 32  # outer products with rows shorter than this are formed grid by grid (_Pairs)
# float32 is exact for the scaled products when every non-zero product lies in
# [2**-100, 2**126): then a non-zero product has alignment exponent >= -101, and with E
# clamped at -102 the scale 2**(24-E) <= 2**126 stays a normal float32.
_F32_MIN_PRODUCT, _F32_MAX_PRODUCT, _F32_MIN_E = 2.0**-100, 2.0**126, -102
_F64_MIN_E = -252  # the smallest alignment exponent there is (zero times zero)
# q = E + 165 (int32), see _truncated_sum: then q less d's exponent field (e(d) + 127) is
# 31 - log2 R, R the grid S is floored to (`_floor_sum`)
_Q_BIAS = 127 + (_SUM_BITS - _FRACTION_BITS) + 31
_INT32_MIN = np.int32(-2**31)
# 2**(24-E) has the exponent field (bias + 24 + _Q_BIAS) - q: per float type, that constant,
# the integer type of its bits and their mantissa width
_SCALE_BITS: dict[type, tuple[int, type, int]] = {
    np.float64: (1023 + _FRACTION_BITS + _Q_BIAS, np.int64, 52),
    np.float32: (127 + _FRACTION_BITS + _Q_BIAS, np.int32, 23)}
# narrow exponent weights (`_narrow`): float32 holds 2**(4 e + 1 to 4) for every alignment
# exponent e in this range, and its exponent field divided by 4 is 32 + e
_NARROW_E = (-31, 30)
_F64_TINY = 2.0**-1022  # the smallest normal float64
# every non-zero product at least this large has e(a) + e(b) >= -133, so a zero or subnormal
# d (exponent -126) is never more than 2**7 above a group holding one: S keeps its grid
_SHALLOW_PRODUCT = 2.0**-132


def fused_dot(a: np.ndarray, b: np.ndarray, c: np.ndarray, *, group: int, split: bool,
              a_min_exp: int, b_min_exp: int,
              formats: tuple[tuple[float, float], tuple[float, float]] | None = None,
              shared: tuple[Shared | None, Shared | None] = (None, None)) -> np.ndarray:
    """D = C + A @ B over the last two axes (batched) as CDNA3 computes it; float32 result.

    `a` (..., M, K), `b` (..., K, N) hold decoded input values (float64), `c` (..., M, N)
    float32 values; `group` is G, `split` the fp8/bf8 two-stage sum, `*_min_exp` the input
    formats' minimum normal exponents, `formats` their (smallest non-zero, largest finite)
    magnitudes where known (None: the values' ranges are scanned); `shared`: the distinct
    tiles a and b (waves, ...) were gathered from, where known: ranges, exponent weights and
    K-major copies are made from them once and taken per chunk (`_Tiles`), and where the
    waves pair them as grids (`_Pairs`) the products are formed grid by grid.
    """
    a3, b3, c3, shape = SC.flatten_tiles(a, b, c)
    tiles, m, k = a3.shape
    n = b3.shape[-1]
    distinct = [_distinct(f, x, x3) for f, x, x3 in zip(shared, (a, b), (a3, b3), strict=True)]
    if split:  # each group's even k, then its odd k: the halves are contiguous slices
        order = _halves_order(k, group)
        a3, b3 = a3[..., order], b3[:, order, :]
        distinct = [(x[..., order] if i == 0 else x[:, order, :], at)
                    for i, (x, at) in enumerate(distinct)]
    (ua, at_a), (ub, at_b) = distinct
    range_a, range_b, finite = _ranges(ua, ub, formats)
    if not finite:  # (the waves' own tiles, zeroed where not finite)
        (ua, at_a), (ub, at_b) = ((np.where(np.isfinite(x), x, 0.0), None) for x in (a3, b3))
        range_a, range_b, _ = _ranges(ua, ub, formats)
    lo, hi = range_a[0] * range_b[0], range_a[1] * range_b[1]
    # float32 is exact for every non-zero product and its scaled form (always for f16, fp8)
    work = np.float32 if _float32_exact(lo, hi) else np.float64
    big = hi >= _BIG_PRODUCT
    # only the special values read the waves' own tiles, in the waves' order
    pairs = _Pairs.of(at_a, at_b, (m, n, k), plain=big or not finite)
    # a zero operand makes an alignment exponent of -126 + e: E may then fall below the
    # float32 floor, and the scale must be clamped
    zeros = not (ua.all() and ub.all())  # (faster than count_nonzero or == 0)
    weight = (np.float32 if not (zeros or split) and _narrow(range_a, range_b, a_min_exp,
                                                             b_min_exp) else np.float64)
    operands = Operands(
        a=a3, b=b3, k=k, a_fin=_k_major_tiles(ua, pairs.a_at, _A_AXES, work, "fused a"),
        b_fin=_k_major_tiles(ub, pairs.b_at, _B_AXES, work, "fused b"), work=work,
        finite=finite, big=big, deep=lo < _SHALLOW_PRODUCT,
        floor_e=_F32_MIN_E if work is np.float32 and zeros else _F64_MIN_E,
        wa=_Tiles(_exponent_weights(ua, a_min_exp, range_a[0], 1, weight, "fused wa"),
                  pairs.a_at, 0),
        wb=_b_weights(_exponent_weights(ub, b_min_exp, range_b[0], 0, weight, "fused wb"),
                      pairs.b_at))
    c, out = pairs.to_grid(c3)
    step = max(1, _CHUNK_TERMS // (pairs.size * m * n * max(k, 1)))
    # non-finite d (its outputs are the special values' anyway) and overflow to +-inf (the
    # intended result) must not warn
    with np.errstate(over="ignore", invalid="ignore"):
        if step >= len(out):  # one chunk (the per-wave engine's one tile): no slicing
            _fused_chunk(operands, c, out, group, split)
        else:
            for c0 in range(0, len(out), step):
                part = slice(c0, c0 + step)
                _fused_chunk(operands.part(part), c[part], out[part], group, split)
    return pairs.from_grid(out).reshape(shape)


def _ranges(ua: np.ndarray, ub: np.ndarray,
            formats: tuple[tuple[float, float], tuple[float, float]] | None
            ) -> tuple[tuple[float, float], tuple[float, float], bool]:
    """(A's, B's (smallest non-zero, largest) magnitude, whether both are finite): the
    formats' own where they alone put every product where float32 is exact (f16, fp8/bf8:
    the values are only tested for NaN and inf, a pass instead of a range's four), else the
    values' (`SC.magnitude_range`)."""
    if formats is not None and _float32_exact(formats[0][0] * formats[1][0],
                                              formats[0][1] * formats[1][1]):
        return (*formats, bool(np.isfinite(ua).all()) and bool(np.isfinite(ub).all()))
    range_a, range_b = SC.magnitude_range(ua), SC.magnitude_range(ub)
    return range_a, range_b, math.isfinite(range_a[1]) and math.isfinite(range_b[1])


@lru_cache(maxsize=64)
def _narrow(range_a: tuple[float, float], range_b: tuple[float, float], a_min_exp: int,
            b_min_exp: int) -> bool:
    """Every alignment exponent e(a) + e(b) of non-zero operands with magnitudes in these
    ranges lies in `_NARROW_E`: then (with no zero operand, whose exponent -126 does not)
    float32 exponent weights find E, in half the bytes of float64 ones."""
    def exponent(x: float, min_exp: int) -> int:
        return max(math.frexp(x)[1] - 1, min_exp)
    low = exponent(range_a[0], a_min_exp) + exponent(range_b[0], b_min_exp)
    high = exponent(range_a[1], a_min_exp) + exponent(range_b[1], b_min_exp)
    return _NARROW_E[0] <= low and high <= _NARROW_E[1]


def _float32_exact(lo: float, hi: float) -> bool:
    """Every non-zero product with magnitudes in [lo, hi] and its scaled form are exact in
    float32 (see `_F32_MIN_PRODUCT`)."""
    return lo >= _F32_MIN_PRODUCT and hi < _F32_MAX_PRODUCT


def _distinct(facts: Shared | None, x: np.ndarray, x3: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray | None]:
    """(the distinct tiles of x's flattened tiles x3, each tile's position among them): from
    `facts` where they are facts of x with one leading axis, else (x3, None)."""
    own = facts_of(x, facts)
    if own is None or x.ndim != 3:
        return x3, None
    return own.distinct, own.at


@cache
def _halves_order(k: int, group: int) -> np.ndarray:
    """The K positions group by group, each group's even positions before its odd ones."""
    starts = range(0, k, group)
    return np.concatenate([np.r_[g0:min(g0 + group, k):2, g0 + 1:min(g0 + group, k):2]
                           for g0 in starts])


class _Pairs(NamedTuple):
    """How a batch's tiles pair A tiles with B tiles, as C grids of I x J tiles: grid c pairs
    A tiles `a_at[c]` (I of them) with B tiles `b_at[c]` (J), each pair one tile of the batch,
    `tile_of[c, i, j]`. Every per-output array of the fused dot is laid out (C, I, M, J, N),
    so a grid's outer products are one einsum whose inner loop runs over J x N elements
    instead of N, and its exponent weights one matmul (16 x 16 tiles that 32 waves share:
    2-3x faster). `a_at` / `b_at` index the operand's distinct tiles, or are None where each
    tile has its own (I or J is 1 then); `tile_of` None: grid c is tile c (I = J = 1)."""

    a_at: np.ndarray | None
    b_at: np.ndarray | None
    tile_of: np.ndarray | None

    @property
    def size(self) -> int:
        """Tiles a grid."""
        return 1 if self.tile_of is None else self.tile_of[0].size

    @staticmethod
    def of(at_a: np.ndarray | None, at_b: np.ndarray | None, shape: tuple[int, int, int],
           plain: bool) -> _Pairs:
        """The grids of the tiles that take A tile at_a[t] and B tile at_b[t] (None: tile t's
        own), tiles of `shape` (M, N, K): where the tiles that share an A tile share the same
        set of B tiles (a GEMM's waves, block row by block column) and rows are short (N <
        `_SHORT_ROW`), grids of those, cut to fit `_CHUNK_TERMS`; else (and where `plain`)
        one tile a grid."""
        m, n, k = shape
        if not (plain or at_a is None or at_b is None or n >= _SHORT_ROW):
            found = _grids(np.asarray(at_a, np.int64).tobytes(),
                           np.asarray(at_b, np.int64).tobytes(),
                           max(1, _CHUNK_TERMS // (m * n * max(k, 1))))
            if found is not None:
                return found
        return _Pairs(None if at_a is None else at_a[:, None],
                      None if at_b is None else at_b[:, None], None)

    def to_grid(self, c3: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(C, D): the accumulator tiles c3 (T, M, N) as float32 (C, I, M, J, N), and where
        the fused dot writes its result, in that layout: one tile a grid, c3's own values
        (a view) and a new array (the result itself); else one scratch copy, both, gathered
        row by row (`_rows`)."""
        if self.tile_of is None:
            c = np.asarray(c3, np.float32)[:, None, :, None, :]
            return c, np.empty(c.shape, np.float32)
        grids, i, j = self.tile_of.shape
        m, n = c3.shape[1:]
        grid = scratch("fused d grid", (grids, i, m, j, n), np.float32)
        np.take(_rows(np.ascontiguousarray(c3, np.float32)), self._row_maps(m)[0],
                out=_rows(grid), mode="wrap")
        return grid, grid

    def from_grid(self, d: np.ndarray) -> np.ndarray:
        """`to_grid`'s inverse: the tiles (T, M, N) of d (C, I, M, J, N), a new array."""
        if self.tile_of is None:
            return d.reshape(d.shape[0], d.shape[2], d.shape[4])
        m, n = d.shape[2], d.shape[4]
        out = np.empty((self.tile_of.size, m, n), np.float32)
        np.take(_rows(d), self._row_maps(m)[1], out=_rows(out), mode="wrap")
        return out

    def _row_maps(self, m: int) -> tuple[np.ndarray, np.ndarray]:
        """(the tiles' row of each grid row, the grids' row of each tile row): rows of N
        values, M a tile (`_row_maps`)."""
        assert self.tile_of is not None
        return _row_maps(np.asarray(self.tile_of, np.int64).tobytes(), self.tile_of.shape, m)


def _rows(x: np.ndarray) -> np.ndarray:
    """C-contiguous float32 x (..., N) as a vector of its rows, each N values one item: a
    take moves a row at once (twice as fast as numpy's loop over 16 values)."""
    return x.reshape(-1, x.shape[-1]).view(np.dtype((np.void, 4 * x.shape[-1])))[:, 0]


@lru_cache(maxsize=64)
def _row_maps(tile_bytes: bytes, shape: tuple[int, int, int], m: int
              ) -> tuple[np.ndarray, np.ndarray]:
    """`_Pairs._row_maps` from the int64 bytes of `tile_of` (C, I, J): grid row (c, i, r, j)
    is row r of tile tile_of[c, i, j]; read-only (a launch's steps repeat them)."""
    tile_of = np.frombuffer(tile_bytes, np.int64).reshape(shape)
    to_grid = (tile_of[:, :, None, :] * m + np.arange(m)[:, None]).reshape(-1)
    from_grid = np.empty_like(to_grid)
    from_grid[to_grid] = np.arange(to_grid.size)
    for x in (to_grid, from_grid):
        x.flags.writeable = False
    return to_grid, from_grid


@lru_cache(maxsize=64)
def _grids(a_bytes: bytes, b_bytes: bytes, budget: int) -> _Pairs | None:
    """`_Pairs.of`'s grids, from the int64 bytes of at_a and at_b (a launch's batches repeat
    them step after step: found once), cut to at most `budget` tiles a grid: the A tiles
    grouped by the set of B tiles they meet, where every A tile meets J > 1 distinct B tiles,
    one tile each, and every set is met by I A tiles; else None."""
    at_a, at_b = np.frombuffer(a_bytes, np.int64), np.frombuffer(b_bytes, np.int64)
    order = np.lexsort((at_b, at_a))  # the tiles by A tile, then B tile
    by_a, by_b = at_a[order], at_b[order]
    starts = np.flatnonzero(np.r_[True, by_a[1:] != by_a[:-1]])
    j = by_a.size // starts.size
    if j == 1 or not np.array_equal(starts, np.arange(0, by_a.size, j)):
        return None  # (the A tiles meet different numbers of B tiles)
    met = by_b.reshape(-1, j)  # each A tile's B tiles, ascending
    if not (met[:, 1:] > met[:, :-1]).all():
        return None  # (a pair of tiles taken twice)
    sets, which, count = np.unique(met, axis=0, return_inverse=True, return_counts=True)
    i = int(count[0])
    if (count != i).any():
        return None
    grouped = np.argsort(which.reshape(-1), kind="stable")
    return _cut(by_a[starts][grouped].reshape(-1, i), sets,
                order.reshape(-1, j)[grouped].reshape(-1, i, j), budget)


def _cut(a_at: np.ndarray, b_at: np.ndarray, tile_of: np.ndarray, budget: int) -> _Pairs:
    """The grids cut into equal grids of at most `budget` tiles where they hold more, B's
    extent kept whole as long as one row of it fits (the einsum's inner loop); read-only
    (`_grids` keeps them)."""
    grids, i, j = tile_of.shape
    cols = max(d for d in range(1, j + 1) if j % d == 0 and d <= budget)
    rows = max(d for d in range(1, i + 1) if i % d == 0 and d * cols <= max(cols, budget))
    a_cut = np.broadcast_to(a_at.reshape(grids, i // rows, 1, rows),
                            (grids, i // rows, j // cols, rows)).reshape(-1, rows)
    b_cut = np.broadcast_to(b_at.reshape(grids, 1, j // cols, cols),
                            (grids, i // rows, j // cols, cols)).reshape(-1, cols)
    tiles = tile_of.reshape(grids, i // rows, rows, j // cols, cols).transpose(0, 1, 3, 2, 4)
    cut = (a_cut, b_cut, tiles.reshape(-1, rows, cols))
    for x in cut:
        x.flags.writeable = False
    return _Pairs(*cut)


_A_AXES, _B_AXES = (2, 0, 1), (1, 0, 2)  # A (T, M, K), B (T, K, N) -> K first


class _Tiles(NamedTuple):
    """Operand data as a chunk reads it: `values` with one entry per tile along `axis` (`at`
    None: a grid's only tile), or the distinct tiles' `values` with the positions `at` (C, I)
    of each grid's among them, taken per chunk: where a batch's tiles are shared, per-tile
    copies of a whole batch (a transposing copy of every small tile, a batch of exponent
    weights) cost more than one take of a chunk's rows while they are in cache."""

    values: np.ndarray
    at: np.ndarray | None
    axis: int

    def part(self, grids: slice) -> _Tiles:
        """The same for a chunk of grids."""
        if self.at is None:
            return _Tiles(self.values[(slice(None),) * self.axis + (grids,)], None, self.axis)
        return _Tiles(self.values, self.at[grids], self.axis)

    def per_grid(self, name: str) -> np.ndarray:
        """`values` with `axis` made two, (C, I): each grid's entries (a scratch buffer `name`
        when taken)."""
        shape = self.values.shape
        if self.at is None:
            return self.values.reshape(*shape[:self.axis], shape[self.axis], 1,
                                       *shape[self.axis + 1:])
        out = scratch(name, (*shape[:self.axis], *self.at.shape, *shape[self.axis + 1:]),
                      self.values.dtype)
        return np.take(self.values, self.at, axis=self.axis, out=out, mode="wrap")


def _k_major(x: np.ndarray, axes: tuple[int, int, int], dtype, name: str) -> np.ndarray:
    """x (3-D) transposed by `axes` (its K axis first), a contiguous scratch copy in `dtype`
    (einsum is about twice as fast on contiguous operands as on strided views)."""
    view = x.transpose(axes)
    copy = scratch(name, view.shape, dtype)
    np.copyto(copy, view, casting="unsafe")
    return copy


def _k_major_tiles(x: np.ndarray, at: np.ndarray | None, axes: tuple[int, int, int], work,
                   name: str) -> _Tiles:
    """An operand's finite values x (tiles or distinct tiles, ...) for `_group_sums`: where
    each grid has its own tile (`at` None), the tiles, copied K-major per chunk; else the
    distinct tiles' K-major copy in `work` (made once; taken per chunk)."""
    if at is None:
        return _Tiles(x, None, 0)
    return _Tiles(_k_major(x, axes, work, name + " distinct"), at, 1)


def _b_weights(wb: np.ndarray, at: np.ndarray | None) -> _Tiles:
    """B's exponent weights (tiles or distinct tiles, K, N) K-major, as `_group_sums`
    multiplies them: a transposed view of the tiles' (each grid has its own), or a
    contiguous copy of the distinct tiles' (a take from a transposed view is ~15x slower)."""
    if at is None:
        return _Tiles(wb.transpose(1, 0, 2), None, 1)
    return _Tiles(_k_major(wb, _B_AXES, wb.dtype, "fused wb distinct"), at, 1)


@dataclass(frozen=True)
class Operands:
    """A and B of a batch of grids as `_fused_chunk` reads them: the original tiles (for
    special values, where grids are single tiles), the finite values (non-finite entries
    zeroed) and exponent weights."""

    a: np.ndarray  # (T, M, K)
    b: np.ndarray  # (T, K, N)
    k: int
    a_fin: _Tiles  # A's finite values (non-finite entries zeroed), `_k_major_tiles`
    b_fin: _Tiles
    work: type  # the products' dtype, np.float32 or np.float64
    finite: bool  # no NaN/inf in a or b
    big: bool  # some product may reach 2**128
    deep: bool  # some product may lie below 2**-132 (every output takes the general sum)
    floor_e: int  # the alignment exponent the product scale is clamped to (-252: none)
    wa: _Tiles  # (T, M, K) 2**(4 e(a) + 1), float64 or `_narrow` float32, `_exponent_weights`
    wb: _Tiles  # (K, T, N) 2**(4 e(b)), the same type

    def part(self, grids: slice) -> Operands:
        """The same for a chunk of grids (tiles: the special values read them only where
        every grid is one tile)."""
        return Operands(self.a[grids], self.b[grids], self.k, self.a_fin.part(grids),
                        self.b_fin.part(grids), self.work, self.finite, self.big, self.deep,
                        self.floor_e, self.wa.part(grids), self.wb.part(grids))


def _fused_chunk(ops: Operands, c: np.ndarray, d: np.ndarray, group: int, split: bool
                 ) -> None:
    """`fused_dot` for one chunk of grids: d (C, I, M, J, N) float32 is written from C (c,
    that layout; it may be d itself) group after group (the group sums, which do not depend
    on d, all at once). A float64 copy of d, kept equal to it, spares each group a float32 x
    float64 multiply (numpy casts mixed operands in buffered chunks, three times the cost of
    the pass)."""
    k, finite, big = ops.k, ops.finite, ops.big
    size = min(group, k)
    groups = [(g0, min(g0 + size, k)) for g0 in range(0, k, size)]
    sums = iter(_group_sums(ops, groups, split))
    d64 = scratch("fused d", d.shape, np.float64)
    np.copyto(d64, c)
    now = c  # d's value before the group: C, then d itself
    for g0, stop in groups:
        if split:  # the even half's sum and the odd half's, floored onto the larger E
            (s0, q0, _), (s1, q1, _) = next(sums), next(sums)
            q = np.maximum(q0, q1)
            s = (s0 >> np.minimum(q - q0, 31)) + (s1 >> np.minimum(q - q1, 31))
            scale = _scale(q, np.float64, "fused scale")
        else:
            s, q, scale = next(sums)
        # d in units of 2**(E-24), exact
        d_units = np.multiply(d64, scale, out=scratch("fused d units", d.shape, np.float64))
        general = split or ops.deep
        specials = None
        if not (finite and not big):  # (`_Pairs.of`: every grid is one tile, in tile order)
            tiles = now.reshape(d.shape[0], d.shape[2], d.shape[4])
            specials = _special_values(ops.a[..., g0:stop], ops.b[..., g0:stop, :], tiles, big)
        elif general:
            specials = _nonfinite_d(now)
        if general:
            d[...] = _general_sum(s, scale, now, d_units, drop=split)
        else:
            _add_accumulator(_floor_sum(s, q, now), scale, d, d_units)
        now = d
        if specials is not None:
            where, values = specials
            d.reshape(-1)[where] = values
        if stop < k:
            np.copyto(d64, d)


def _group_sums(ops: Operands, groups: list[tuple[int, int]], split: bool
                ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """`_truncated_sum`'s (S, q, scale) of every group (fp8/bf8: of each group's even half,
    then its odd half), in K order. Consecutive parts of one length are summed together
    (all of them, but for a shorter last group), so a chunk costs a few numpy calls per run
    of parts rather than per group: the per-wave engine's single tiles are call-bound."""
    parts = []
    for g0, stop in groups:
        middle = g0 + (stop - g0 + 1) // 2  # fp8/bf8: the even positions come first
        parts += [(g0, middle), (middle, stop)] if split else [(g0, stop)]
    # K-major: a run's (H, L, C, I, M) and (H, L, C, J, N) operands are contiguous slices
    a_k, b_k = (x.per_grid(name) if x.at is not None else
                _k_major(x.values, axes, ops.work, name).reshape(
                    ops.k, -1, 1, x.values.shape[axes[2]])
                for x, axes, name in ((ops.a_fin, _A_AXES, "fused a"),
                                      (ops.b_fin, _B_AXES, "fused b")))
    wa, wb = ops.wa.per_grid("fused wa tiles"), ops.wb.per_grid("fused wb tiles")
    grids, i, m = a_k.shape[1:]
    j, n = b_k.shape[2:]
    sums: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    start = 0
    for run, (length, same) in enumerate(groupby(parts, key=lambda part: part[1] - part[0])):
        count = len(list(same))
        stop = start + count * length
        sums_h = _truncated_sum(
            a_k[start:stop].reshape(count, length, grids, i, m),
            b_k[start:stop].reshape(count, length, grids, j, n),
            wa[..., start:stop].reshape(grids, i * m, count, length).transpose(2, 0, 1, 3),
            wb[start:stop].reshape(count, length, grids, j * n).transpose(0, 2, 1, 3),
            ops.floor_e, str(run))
        sums += zip(*sums_h, strict=True)
        start = stop
    return sums


@cache
def _weight_table(min_exp: int, extra: int, dtype: type) -> np.ndarray:
    """2**(4 e + extra) in `dtype`, indexed by the top 12 bits (sign, exponent field) of a
    finite float64 x: e(x) the field's exponent clamped below at `min_exp`, -126 for the zero
    field (zeros; float64 subnormals are not in the table's domain). float32 entries outside
    its range (of exponents `_narrow` rules out) are 0 or inf."""
    field = np.arange(4096) & 2047
    e = np.where(field == 0, SC.ZERO_EXPONENT, np.maximum(field - 1023, min_exp))
    with np.errstate(over="ignore", under="ignore"):
        return SC.pow2(4 * e + extra, np.float64).astype(dtype)


def _exponent_weights(x: np.ndarray, min_exp: int, smallest: float, extra: int, dtype: type,
                      name: str) -> np.ndarray:
    """2**(4 e(x) + extra) in `dtype` (float64: every e in [-126, 127] is normal, and so are
    products of two; float32 where `_narrow`), x finite float64 with `smallest` its smallest
    non-zero magnitude: one table look-up by x's top 12 bits where no x is a float64
    subnormal (always, for decoded formats)."""
    if smallest < _F64_TINY or x.dtype != np.float64:
        weights = SC.pow2(4 * SC.exponents(x, min_exp).astype(np.int32) + extra, np.float64)
        return weights.astype(dtype, copy=False)
    top = np.right_shift(x.view(np.uint64), np.uint64(52), out=scratch(name, x.shape, np.uint64))
    # (mode "raise" would buffer `out`: "wrap", a no-op on these indices, is 1.7x faster)
    return np.take(_weight_table(min_exp, extra, dtype), top.view(np.int64),
                   out=scratch(name, x.shape, dtype), mode="wrap")


def _scale(q: np.ndarray, dtype: type, name: str) -> np.ndarray:
    """2**(24 - E) in `dtype` (float64, or float32 for E in [-102, 126]) from q = E + 165,
    from the bits, in the scratch buffer `name`."""
    top, bits_type, mantissa = _SCALE_BITS[dtype]
    bits = np.subtract(top, q, out=scratch(name, q.shape, bits_type))
    bits <<= mantissa
    return bits.view(dtype)


def _truncated_sum(a_k, b_k, wa, wb, floor_e: int, tag: str
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(S, q, 2**(24-E)) of H groups (or fp8 halves) of L <= 8 K positions each, a_k
    (H, L, C, I, M) and b_k (H, L, C, J, N) with their weights wa (H, C, I*M, L), wb (H, C, L,
    J*N) (C grids of I x J tiles, `_Pairs`): E the largest alignment exponent e(a_k) + e(b_k)
    of a group, q = E + 165 (int32), S (int32) the exact sum of the products truncated to
    multiples of 2**(E-24), in units of 2**(E-24); the scale float64; each (H, C, I, M, J, N).

    E comes from one small matmul: sum_k 2**(4 e(a_k) + 1) 2**(4 e(b_k)) lies in
    [2**(4E+1), 2**(4E+4)] (powers of two, at most 8 of them; rounding keeps it there), so
    its exponent is 4E + (1 to 4), and its biased exponent field divided by 4, rounded down,
    is E plus a quarter of the bias: float64's bits shifted right by 54 give E + 256,
    float32's (`_narrow` weights) shifted by 25 give E + 32. Every result is a per-thread
    scratch buffer (`tag` tells those of one chunk's runs apart), reused chunk after chunk
    and call after call."""
    h, _, grids, i, m = a_k.shape
    j, n = b_k.shape[3:]
    shape = (h, grids, i, m, j, n)
    assert a_k.shape[1] <= 8, "G = 4, 8, or fp8's 16 in two halves of 8"
    weights = np.matmul(wa, wb, out=scratch("fused weights", (h, grids, i * m, j * n),
                                            wa.dtype)).reshape(shape)
    q = scratch("fused q" + tag, shape, np.int32)
    if weights.dtype == np.float32:  # (`_narrow`: no zero operand, products in float32)
        np.right_shift(weights.view(np.int32), 25, out=q)
        q += _Q_BIAS - 32
        scale = _scale(q, np.float32, "fused scale32")
        scale64 = scratch("fused scale" + tag, shape, np.float64)
        np.copyto(scale64, scale)
    else:
        np.right_shift(weights.view(np.int64), 54, out=q, casting="unsafe")
        q += _Q_BIAS - 256
        scale64 = scale = _scale(q, np.float64, "fused scale" + tag)
        if a_k.dtype != np.float64:
            if floor_e != _F64_MIN_E and int(q.min()) < _Q_BIAS + floor_e:
                # groups with zero products only: zero at any scale
                scale = _scale(np.maximum(q, _Q_BIAS + floor_e), np.float64,
                               "fused clamped scale")
            scale32 = scratch("fused scale32", shape, np.float32)
            np.copyto(scale32, scale, casting="same_kind")  # powers of two in float32's range
            scale = scale32
    # the outer products a_k b_k^T; einsum's loop beats broadcasting multiply here
    products = np.einsum("hlcim,hlcjn->hlcimjn", a_k, b_k,
                         out=scratch("fused products", (h, a_k.shape[1], *shape[1:]),
                                     a_k.dtype))
    products *= scale[:, None]
    # the sum's cast to int32 truncates each term toward zero; |scaled product| < 2**26, a
    # sum of <= 8 < 2**31
    total = np.add.reduce(products, axis=1, dtype=np.int32,
                          out=scratch("fused sum" + tag, shape, np.int32))
    return total, q, scale64


def _floor_sum(s: np.ndarray, q: np.ndarray, d: np.ndarray) -> np.ndarray:
    """S floored in place to a multiple of R = 2**max(0, e(d) - E - 7), the grid of the sum
    of S and d where d is wide of the group (e(d) > E + 7): in two's complement S & -R, and
    -R = -2**31 >> (31 - log2 R), the shift q less d's exponent field. numpy shifts a
    negative value by a count outside [0, 31] to -1: R = 1 for e(d) <= E + 7, and S is left
    alone where R > 2**31 (R > |S|: S floored is 0 or -R, and d, a multiple of 2**8 R in
    units, absorbs either). Five int32 passes over every output, cheaper than finding the
    few wide ones. A zero or subnormal d reads as e = -127, R = 1 where every non-zero
    product is at least 2**-132 (else the general sum runs); a NaN or infinite d keeps its
    value through `_add_accumulator`'s arithmetic."""
    shift = np.right_shift(d.view(np.int32), 23, out=scratch("fused d shift", d.shape, np.int32))
    shift &= 0xFF
    np.subtract(q, shift, out=shift)
    s &= np.right_shift(_INT32_MIN, shift, out=shift)
    return s


def _add_accumulator(s, scale, d, d_units) -> None:
    """Steps 5-6 where every output's S is floored to its grid (`_floor_sum`): d floored to
    2**(M-24), added, rounded to f32 (RNE), written to d (float32, contiguous).

    Everything in units u = 2**(E-24) (`scale` = 1/u, `d_units` = d/u). With R = 2**max(0,
    e(d) - E - 7) = max(1, 2**(M-31) / u) the result is (floor(S / R) + floor(d_units / R))
    * R * u: where e(d) <= E + 7 (R = 1) that is S plus d floored to u; where d is larger,
    d_units is a multiple of 2**8 R (d's own grid), so only S needs flooring. Both parts are
    multiples of R below 2**53 R, so every step is exact in float64 and the one rounding is
    the final float32 cast. An exact zero comes out +0 (S is never -0, and +0 + -0 is +0).
    Runs under `fused_dot`'s errstate: a non-finite d and overflow to +-inf (the intended
    result) do not warn."""
    total = np.floor(d_units, out=d_units)
    s64 = scratch("fused s64", s.shape, np.float64)
    np.copyto(s64, s)  # (then a float64 add: faster than adding the int32 S itself)
    total += s64
    total /= scale
    np.copyto(d, total, casting="same_kind")  # the one rounding


def _general_sum(s, scale, d, d_units, drop: bool) -> np.ndarray:
    """`_add_accumulator` for any R, with fp8/bf8's drop rule and where a zero or subnormal
    d's exponent -126 may lie more than 7 above E (d_units is changed); under `fused_dot`'s
    errstate."""
    ratio = _ratio(scale, d)
    r = _grid(ratio)
    d_units /= r
    np.floor(d_units, out=d_units)
    if drop:  # fp8/bf8: d is dropped when e(d) < M - 25 (M = E there)
        d_units[ratio < 2.0 ** (_FRACTION_BITS - _FP8_DROP)] = 0.0
    total = s / r
    np.floor(total, out=total)
    total += d_units
    total *= r
    total /= scale
    return total.astype(np.float32)


def _ratio(scale, d) -> np.ndarray:
    """2**(e(d) - E + 24) from 2**(24-E) and d (float32), e(d) >= -126: a subnormal or zero d
    has the smallest normal exponent."""
    return np.maximum((d.view(np.int32) & 0x7F800000).view(np.float32), _F32_TINY) * scale


def _grid(ratio) -> np.ndarray:
    """R = max(1, 2**(e(d) - E - 7)), the grid of S and d in units 2**(E-24), from `_ratio`."""
    return np.maximum(ratio * 2.0**-_SUM_BITS, 1.0)


def _nonfinite_d(d: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """`_special_values` for the general sum where every operand is finite and no product
    reaches 2**128: an output whose d is NaN or +-inf becomes d plus a finite sum, d itself
    (a NaN quieted)."""
    bad = np.flatnonzero(~np.isfinite(d))
    return (bad, d.reshape(-1)[bad] + np.float32(0.0)) if bad.size else None


def _special_values(a, b, d, big: bool):
    """Steps 1-2 for one group: (index, float32 values) of the outputs they decide, or None.

    a (T, M, G), b (T, G, N) are the group's original inputs, d (T, M, N) the running value."""
    bad = ((~np.isfinite(a)).any(axis=-1)[..., :, None]
           | (~np.isfinite(b)).any(axis=-2)[..., None, :] | ~np.isfinite(d))
    decided = bad.copy()
    values = np.zeros(d.shape, np.float64)
    if bad.any():
        idx = np.nonzero(bad)
        with np.errstate(invalid="ignore", over="ignore"):  # IEEE inf*0, inf-inf: NaN
            terms = a[idx[0], idx[1], :] * b[idx[0], :, idx[2]]
            values[idx] = terms.sum(axis=-1) + d[idx].astype(np.float64)
    if big:
        with np.errstate(invalid="ignore", over="ignore"):
            products = a[..., :, :, None] * b[..., None, :, :]  # (T, M, G, N), finite ones
        pos = (products >= _BIG_PRODUCT).any(axis=-2)
        neg = (products <= -_BIG_PRODUCT).any(axis=-2)
        huge = (pos | neg) & ~bad
        values[huge] = np.where(pos & neg, np.nan, np.where(pos, np.inf, -np.inf))[huge]
        decided |= huge
    if not decided.any():
        return None
    with np.errstate(over="ignore", invalid="ignore"):
        return np.flatnonzero(decided), values[decided].astype(np.float32)
