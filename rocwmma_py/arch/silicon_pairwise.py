"""Family 2 of the silicon numerics: f32 products summed by a pairwise f32 tree (CDNA1/CDNA2
f16, bf16, bf16_1k).

silicon-numerics.md, family 2: each product a_k*b_k is rounded to f32 (an exactly zero product
is +0); a group of G consecutive products is added as a binary tree of f32 RNE additions
((p0+p1)+(p2+p3) for G = 4), and the groups are added to d = C in ascending k, one f32 RNE
addition each. CDNA2 first turns A, B and C elements below their format's smallest normal
into +0 and flushes every f32 intermediate and result below 2**-126 to a zero of its sign.

numpy's float32 arithmetic is IEEE RNE, so every step is one whole-array float32 operation
over a cache-sized chunk of tiles.
"""

from __future__ import annotations

import numpy as np

from . import silicon_common as SC

_F32_MIN_EXP = -126
_TINY = np.float32(2.0**_F32_MIN_EXP)
_UNDERFLOW = 2.0**-149  # products below this may round to a signed zero in float32
_CHUNK_TERMS = 1 << 17
_NO_FLUSH_QUANTUM = 2.0**-100


def pairwise_dot(a: np.ndarray, b: np.ndarray, c: np.ndarray, *, group: int,
                 flush: tuple[int, int] | None, quantum: float = 0.0) -> np.ndarray:
    """D = C + A @ B over the last two axes (batched) as CDNA1/CDNA2 compute it; float32.

    `a` (..., M, K), `b` (..., K, N) decoded f16/bf16 values, `c` (..., M, N) float32 values;
    `group` is G; `flush` the (A, B) formats' minimum normal exponents on CDNA2, else None;
    `quantum` the smallest non-zero |product| the formats allow (their smallest subnormals
    multiplied). Where it is at least 2**-100 (f16) no intermediate can be flushed: every
    product and tree node is a multiple of it, and d + s, with d normal or zero, is zero or a
    multiple of 2**-124 when |s| >= 2**-100; only the inputs are flushed then.
    """
    a3, b3, c3, shape = SC.flatten_tiles(a, b, c)
    if flush is not None:
        a3, b3 = SC.flush_subnormals(a3, flush[0]), SC.flush_subnormals(b3, flush[1])
        c3 = SC.flush_subnormals(np.asarray(c3, np.float32), _F32_MIN_EXP)
    tiles, m, k = a3.shape
    n = b3.shape[-1]
    out = np.empty((tiles, m, n), np.float32)
    step = max(1, _CHUNK_TERMS // (m * n * min(group, k)))
    for t0 in range(0, tiles, step):
        part = slice(t0, t0 + step)
        out[part] = _pairwise_chunk(a3[part], b3[part], c3[part], group,
                                    flush is not None and quantum < _NO_FLUSH_QUANTUM)
    return out.reshape(shape)


def _pairwise_chunk(a, b, c, group: int, flush: bool) -> np.ndarray:
    with np.errstate(invalid="ignore"):  # a signaling NaN comes out quiet: still NaN
        a_k = np.ascontiguousarray(np.moveaxis(a, -1, 0), dtype=np.float32)[..., None]
        b_k = np.ascontiguousarray(np.moveaxis(b, -2, 0), dtype=np.float32)[:, :, None, :]
    with np.errstate(over="ignore", under="ignore"):
        signed_zeros = SC.min_nonzero_abs(a) * SC.min_nonzero_abs(b) < _UNDERFLOW
    zeros = bool((a == 0).any() or (b == 0).any())  # only then can a product be exactly 0
    d = np.array(c, np.float32)
    k = a.shape[-1]
    with np.errstate(over="ignore", invalid="ignore"):  # IEEE inf and NaN are results here
        for g0 in range(0, k, group):
            products = [_product(a_k[i], b_k[i], zeros, signed_zeros, flush)
                        for i in range(g0, min(g0 + group, k))]
            d += _tree(products, flush)
            if flush:
                _flush_keeping_sign(d)
    return d


def _product(a, b, zeros: bool, signed_zeros: bool, flush: bool) -> np.ndarray:
    """RNE_f32(a*b), +0 when the exact product is zero (an underflow keeps its sign; 0 times
    inf stays NaN)."""
    p = a * b
    if zeros and signed_zeros:
        exact_zero = ((a == 0) & np.isfinite(b)) | ((b == 0) & np.isfinite(a))
        p[np.broadcast_to(exact_zero, p.shape)] = 0.0
    elif zeros:
        p += np.float32(0.0)  # only exact products can be zero here: -0 becomes +0
    if flush:
        _flush_keeping_sign(p)
    return p


def _tree(values: list[np.ndarray], flush: bool) -> np.ndarray:
    """Binary tree of f32 additions: the first half's sum plus the second half's."""
    if len(values) == 1:
        return values[0]
    half = len(values) // 2
    total = _tree(values[:half], flush) + _tree(values[half:], flush)
    if flush:
        _flush_keeping_sign(total)
    return total


def _flush_keeping_sign(x: np.ndarray) -> None:
    """In place: |x| < 2**-126 becomes a zero of x's sign (x * 0); NaN and inf stay."""
    np.multiply(x, np.abs(x) >= _TINY, out=x)
