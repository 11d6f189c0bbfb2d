"""The largest and the smallest non-zero magnitude of float arrays, as bit patterns.

Non-negative floats order like their bits read as unsigned integers (NaN above inf), and
subtracting 1 from those bits wraps zeros to the top before a minimum: four passes over a
per-thread scratch buffer give both, per line, per tile or for a whole array. The exact
model's certificate and the silicon models' range tests rest on this.
"""

from __future__ import annotations

import numpy as np

from .scratch import scratch


def magnitude_bits(x: np.ndarray, axis: int | None, name: str
                   ) -> tuple[np.ndarray, np.ndarray]:
    """(top, low): the bits of the largest |x| and of the smallest non-zero |x| along `axis`
    (None: all of x; then 1-element arrays), unsigned integers of x's width; low is 0 where
    every element is zero. x may also be unsigned bit patterns with the sign in the top bit
    (e.g. the high words of float64s whose low words are zero: half the bytes to pass).
    `name` names the scratch buffer."""
    uint = np.dtype(f"u{x.dtype.itemsize}")
    bits = scratch(name, x.shape, uint)
    if x.dtype == uint:
        np.bitwise_and(x, uint.type(np.iinfo(uint).max >> 1), out=bits)
    else:
        np.abs(x, out=bits.view(x.dtype))
    keep = axis is None
    top = bits.max(axis=axis, initial=0, keepdims=keep)
    np.subtract(bits, uint.type(1), out=bits)
    low = bits.min(axis=axis, initial=np.iinfo(uint).max, keepdims=keep)
    np.add(low, uint.type(1), out=low)  # arrays wrap silently: 0 for all-zero lines
    return (top.reshape(1), low.reshape(1)) if keep else (top, low)


def row_magnitude_bits(x: np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray, bool]:
    """`magnitude_bits` along the rows of 2-D x, and whether x holds a zero (of either sign).

    Three passes where no row mixes zeros with non-zeros (the plain minimum is then the
    smallest non-zero magnitude, or 0 for an all-zero row); the rows that do are read again
    with the wrapped minimum."""
    uint = np.dtype(f"u{x.dtype.itemsize}")
    bits = scratch(name, x.shape, uint)
    np.abs(x, out=bits.view(x.dtype))
    top = bits.max(axis=1, initial=0)
    low = bits.min(axis=1, initial=np.iinfo(uint).max)
    if not low.size or low.min() != 0:
        return top, low, False
    mixed = np.flatnonzero((low == 0) & (top != 0))
    if mixed.size:
        rows = bits[mixed]
        np.subtract(rows, uint.type(1), out=rows)
        low[mixed] = rows.min(axis=1) + uint.type(1)
    return top, low, True
