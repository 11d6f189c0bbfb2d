"""Shared helpers of the 4:2 sparse tests (test_sparse_numerics.py, test_sparse_compress.py).

Written independently of rocwmma_py's numerics: random 4:2 matrices, registers filled and
read through an instruction's layout index maps, and an exact rational reference rounded
once to nearest-even by comparing neighbouring encodings (no call into the package's
rounding code).
"""

from __future__ import annotations

from fractions import Fraction

import ml_dtypes
import numpy as np

from rocwmma_py.arch import ARCH_NAMES, get_arch

# every (arch, builtin) pair of a sparse instruction, in table order
SPARSE = [(arch, name) for arch in ARCH_NAMES
          for name, instr in get_arch(arch).instructions.items() if instr.sparse]


def sparse_builtins(*archs: str) -> list[tuple[str, str]]:
    return [(a, n) for a, n in SPARSE if a in archs]


def random_42_mask(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """A boolean (..., K) mask with 0, 1 or 2 of every 4 consecutive columns set, at random
    positions; about 1 group in 6 is empty and 1 in 4 has a single non-zero."""
    *lead, k = shape
    groups = (*lead, k // 4)
    count = rng.choice([0, 1, 2], size=groups, p=[0.15, 0.25, 0.6])
    order = np.argsort(rng.random((*groups, 4)), axis=-1)  # a random permutation per group
    mask = np.zeros((*groups, 4), bool)
    np.put_along_axis(mask, order[..., :2], np.arange(2) < count[..., None], axis=-1)
    return mask.reshape(shape)


def nonzero_values(rng: np.random.Generator, shape, dtype, *, wide: bool = False,
                   low: int = -8, high: int = 8) -> np.ndarray:
    """Non-zero values of `dtype` (numpy or ml_dtypes): integers in low..high (0 excluded);
    floats normal (`wide`: times 2**e, e over most of the type's exponent range), finite."""
    dt = np.dtype(dtype)
    if dt.kind in "iu" or dt in (np.dtype(ml_dtypes.int4), np.dtype(ml_dtypes.uint4)):
        v = rng.integers(low, high, size=shape, endpoint=True)
        v[v == 0] = high
        return v.astype(dt)
    info = ml_dtypes.finfo(dt)
    x = rng.standard_normal(shape)
    if wide:
        lo = max(int(np.log2(float(info.tiny))), -60)
        hi = min(int(np.log2(float(info.max))) - 1, 40)
        x = x * np.exp2(rng.integers(lo, hi, size=shape, endpoint=True))
    x = np.clip(x, -float(info.max), float(info.max)).astype(dt)
    x[x == 0] = dt.type(1)  # rounded away to zero: any non-zero will do
    return x


def random_42(rng, shape, dtype, **kw) -> np.ndarray:
    """A random 4:2 sparse matrix of `dtype` (see random_42_mask and nonzero_values)."""
    values = nonzero_values(rng, shape, dtype, **kw)
    return np.where(random_42_mask(rng, shape), values, np.zeros_like(values))


def to_regs(layout, matrix: np.ndarray, dtype=None) -> np.ndarray:
    """(lanes, slots) registers holding `matrix` (rows x cols) where the layout places it:
    regs[lane, slot] = matrix[row[lane, slot], col[lane, slot]]; unused slots 0."""
    lane, slot = np.nonzero(layout.row >= 0)
    regs = np.zeros((layout.lanes, layout.slots), dtype or matrix.dtype)
    regs[lane, slot] = matrix[layout.row[lane, slot], layout.col[lane, slot]]
    return regs


def from_regs(layout, regs: np.ndarray) -> np.ndarray:
    """The matrix the layout reads out of (lanes, slots) registers."""
    regs = np.asarray(regs).reshape(layout.lanes, layout.slots)
    lane, slot = np.nonzero(layout.row >= 0)
    rows, cols = layout.shape[1:]
    out = np.zeros((rows, cols), regs.dtype)
    out[layout.row[lane, slot], layout.col[lane, slot]] = regs[lane, slot]
    return out


# ---- exact reference ----------------------------------------------------------------------

SCALE = 1 << 640  # inputs, C and every product are integers times 2**-640


def _scaled(x: float) -> int:
    n, d = float(x).as_integer_ratio()
    return n * (SCALE // d)


def exact_dot(a_terms, b_terms, c) -> Fraction:
    """C + sum(a*b) exactly, for finite values of any binary float or integer type."""
    total = _scaled(c) * SCALE
    for x, y in zip(a_terms, b_terms, strict=True):
        total += _scaled(x) * _scaled(y)
    return Fraction(total, SCALE * SCALE)


_UINT = {2: np.uint16, 4: np.uint32}


def round_nearest_even(q: Fraction, dtype) -> np.generic:
    """q rounded to the nearest value of float `dtype` (f32, f16, bf16), ties to the even
    encoding, overflow to +-inf (inf counts as the value max + ulp(max), even)."""
    dt = np.dtype(dtype)
    if q == 0:
        return dt.type(0)
    mag = abs(q)
    ut = _UINT[dt.itemsize]
    with np.errstate(over="ignore"):  # inf is a candidate like any other encoding
        guess = int(np.array(float(mag)).astype(dt).view(ut))  # within one encoding of q
    top = int(np.array(np.inf).astype(dt).view(ut))
    best = None
    for bits in (guess - 1, guess, guess + 1):
        if not 0 <= bits <= top:
            continue
        if bits == top:
            below = Fraction(float(np.array(top - 1, ut).view(dt)))
            value = 2 * below - Fraction(float(np.array(top - 2, ut).view(dt)))
        else:
            value = Fraction(float(np.array(bits, ut).view(dt)))
        key = (abs(value - mag), bits & 1)
        if best is None or key < best[0]:
            best = (key, bits)
    out = np.array(best[1], ut).view(dt)
    return dt.type(-out if q < 0 else out)


def same_floats(got: np.ndarray, want: np.ndarray) -> bool:
    """Bit-identical, except that zeros compare by value (an exact zero's sign is not checked)."""
    got, want = np.asarray(got), np.asarray(want)
    ut = _UINT[got.dtype.itemsize]
    zero = want.astype(np.float64) == 0
    same_bits = got.view(ut) == want.astype(got.dtype).view(ut)
    return bool(np.all(np.where(zero, got.astype(np.float64) == 0, same_bits)))
