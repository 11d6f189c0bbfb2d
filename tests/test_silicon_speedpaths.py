"""The CDNA3 fused dot's fast paths (silicon_fused.py) against the scalar reference.

`fused_dot` picks its path from the data: float32 or float64 products and exponent
weights, the clamped scale of groups with zero operands, the exponent weights' table,
chunks of tiles, outputs whose d lies far above the group sum, special values. Random
batches that reach each of them (uniform bit patterns with NaN, inf, subnormals and
extremes; random normal values; zero- and subnormal-heavy operands; products below 2**-133
with a zero or subnormal C, whose exponent -126 then sets the sum's grid; C far above and
far below the products, and every f32 pattern of C onto normal operands; K not a multiple
of the group; small chunks so that tiles span several, the last one partial) must equal
tests/silicon_reference.py bit for bit on every output checked (NaN as NaN), with the input
formats' magnitude bounds given (as the models give them) and without.
"""

from __future__ import annotations

import zlib

import ml_dtypes
import numpy as np
import pytest
import silicon_reference as R

from rocwmma_py.arch import silicon_fused

# format name -> (reference format, numpy view, unsigned bits dtype, minimum normal exponent)
FORMATS = {
    "f16": (R.F16, np.float16, np.uint16, -14),
    "bf16": (R.BF16, ml_dtypes.bfloat16, np.uint16, -126),
    "xf32": (R.F32, np.float32, np.uint32, -126),
    "fp8": (R.FP8, ml_dtypes.float8_e4m3fnuz, np.uint8, -7),
    "bf8": (R.BF8, ml_dtypes.float8_e5m2fnuz, np.uint8, -15),
}
# (A format, B format, group, fp8/bf8 halves): every family-3 input type
KINDS = [("f16", "f16", 8, False), ("bf16", "bf16", 8, False), ("xf32", "xf32", 4, False),
         ("fp8", "bf8", 16, True), ("bf8", "fp8", 16, True)]
DATA = ["bits", "normal", "sparse", "tiny", "deep", "c bits"]
CHECKED = 400  # outputs compared with the (slow) reference per case


def operand(rng, fmt: str, shape, data: str) -> np.ndarray:
    """Bit patterns of `fmt` for one data kind (xf32: the low 13 bits clear)."""
    ref, view, uint, _ = FORMATS[fmt]
    if data == "bits":  # every pattern: NaN, inf, subnormals, the extremes
        bits = rng.integers(0, 1 << ref.width, shape, dtype=np.uint64).astype(uint)
    else:
        x = rng.standard_normal(shape) * (2.0 ** rng.integers(-3, 4, shape))
        if data == "sparse":  # zeros and subnormals among normal values
            x[rng.random(shape) < 0.3] = 0.0
            smallest = float(ml_dtypes.finfo(view).smallest_subnormal)
            few = rng.random(shape) < 0.2
            x[few] = smallest * rng.integers(-3, 4, few.sum())
        elif data == "tiny":
            x *= 2.0 ** rng.integers(-40, 1, shape)
        elif data == "deep":  # bf16 and xf32 products near 2**-140 (f16, fp8: zeros)
            x *= 2.0 ** rng.integers(-76, -62, shape)
        bits = x.astype(view).view(uint)
    if fmt == "xf32":
        bits &= np.uint32(~((1 << R.XF32_DROPPED_BITS) - 1) & 0xFFFFFFFF)
    return bits


def accumulator(rng, shape, data: str) -> np.ndarray:
    """f32 bit patterns of C: random patterns (also under normal operands: NaN, inf and C
    up to 2**128 onto finite sums), or values near, far above and far below the group sums
    (the general alignment path), with -0 and subnormals among them."""
    if data in ("bits", "c bits"):
        return rng.integers(0, 1 << 32, shape, dtype=np.uint64).astype(np.uint32)
    if data == "deep":  # zeros and subnormals (exponent -126 above the products) and a few
        c = rng.standard_normal(shape) * 2.0 ** rng.choice([-149, -140, -130, -120], shape)
        c[rng.random(shape) < 0.4] = 0.0
        return c.astype(np.float32).view(np.uint32)
    c = rng.standard_normal(shape) * 2.0 ** rng.choice([-140, -60, -20, 0, 0, 8, 40, 90], shape)
    c[rng.random(shape) < 0.1] = -0.0
    return c.astype(np.float32).view(np.uint32)


def magnitudes(fmt: str) -> tuple[float, float]:
    """The format's (smallest non-zero, largest finite) magnitude, as the models pass them."""
    info = ml_dtypes.finfo(FORMATS[fmt][1])
    return float(info.smallest_subnormal), float(info.max)


def decoded(bits: np.ndarray, fmt: str) -> np.ndarray:
    with np.errstate(invalid="ignore"):  # NaN patterns decode to NaN
        return bits.view(FORMATS[fmt][1]).astype(np.float64)


def assert_shared_samples(rng, got, bits, ats, c, a_fmt: str, b_fmt: str, group: int,
                          halves: bool, count: int) -> None:
    """`count` sampled outputs of a batch whose tiles were gathered from distinct tiles
    (`bits`: A's and B's, positions `ats`) equal the scalar reference (NaN as NaN)."""
    for w, i, j in zip(*np.unravel_index(rng.integers(0, got.size, count), got.shape),
                       strict=True):
        want = R.family3_fused_dot(
            bits[0][ats[0][w], i, :].tolist(), bits[1][ats[1][w], :, j].tolist(),
            int(c[w, i, j]), FORMATS[a_fmt][0], FORMATS[b_fmt][0], group,
            xf32=a_fmt == "xf32", halves=halves)
        nan = np.isnan(got[w, i, j]) and np.isnan(np.uint32(want).view(np.float32))
        assert int(got[w, i, j].view(np.uint32)) == want or nan


@pytest.mark.parametrize(("chunk", "formats"), [(None, True), (600, True), (None, False)])
@pytest.mark.parametrize("data", DATA)
@pytest.mark.parametrize(("a_fmt", "b_fmt", "group", "halves"), KINDS)
def test_fused_dot_matches_the_reference(a_fmt, b_fmt, group, halves, data, chunk, formats,
                                         monkeypatch):
    """Formats given (as the models give them: f16 and fp8/bf8 then skip the range scans)
    and not (every range scanned)."""
    rng = np.random.default_rng(zlib.crc32(f"{a_fmt} {b_fmt} {data} {chunk}".encode()))
    if chunk is not None:  # several chunks of tiles, the last one partial
        monkeypatch.setattr(silicon_fused, "_CHUNK_TERMS", chunk)
    for tiles, m, k, n in [(7, 4, group + group // 2 + 1, 4), (3, 16, 2 * group, 16),
                           (5, 2, max(1, group // 2), 8)]:
        a = operand(rng, a_fmt, (tiles, m, k), data)
        b = operand(rng, b_fmt, (tiles, k, n), data)
        c = accumulator(rng, (tiles, m, n), data)
        d = silicon_fused.fused_dot(
            decoded(a, a_fmt), decoded(b, b_fmt), c.view(np.float32), group=group,
            split=halves, a_min_exp=FORMATS[a_fmt][3], b_min_exp=FORMATS[b_fmt][3],
            formats=(magnitudes(a_fmt), magnitudes(b_fmt)) if formats else None)
        assert d.dtype == np.float32 and d.shape == (tiles, m, n)
        picks = rng.integers(0, tiles * m * n, min(CHECKED, tiles * m * n))
        for t, i, j in zip(*np.unravel_index(picks, (tiles, m, n)), strict=True):
            want = R.family3_fused_dot(
                a[t, i, :].tolist(), b[t, :, j].tolist(), int(c[t, i, j]),
                FORMATS[a_fmt][0], FORMATS[b_fmt][0], group, xf32=a_fmt == "xf32",
                halves=halves)
            got = int(d[t, i, j].view(np.uint32))
            both_nan = np.isnan(d[t, i, j]) and np.isnan(np.uint32(want).view(np.float32))
            assert got == want or both_nan, (
                f"{a_fmt}x{b_fmt} {data} tile {t} ({i}, {j}): {got:#010x} != {want:#010x}")


def test_zero_d_sets_the_grid_of_a_sum_far_below_it():
    """bf16 products 2**-140 + 2**-150 + 2**-160 (E = -140) onto d = 0: d's exponent -126
    makes M = -126, so S is floored to 2**-157 first, leaving 2**-140 + 2**-150, a tie
    between f32 neighbours that rounds to even (2**-140), where rounding the exact sum
    once would give the neighbour above."""
    a = np.array([[[2.0**-70, 2.0**-75, 2.0**-80, 0.0]]])
    d = silicon_fused.fused_dot(a, a.transpose(0, 2, 1).copy(), np.zeros((1, 1, 1), np.float32),
                                group=4, split=False, a_min_exp=-126, b_min_exp=-126)
    bits = a[0, 0].astype(ml_dtypes.bfloat16).view(np.uint16).tolist()
    want = R.family3_fused_dot(bits, bits, 0, R.BF16, R.BF16, 4)
    assert want == 512  # 2**-140 = 512 * 2**-149
    assert int(d[0, 0, 0].view(np.uint32)) == want


def test_floor_sum_floors_s_to_the_grid_of_d():
    """`_floor_sum` against floor(S / R) * R, R = 2**(e(d) - E - 7) (1 where that is below
    1), for every shift up to 31 (R = 2**31: S floored to 0 or -2**31), and S left alone
    where R is larger (the rounded sum is then the same, `_floor_sum`); q = E + 165."""
    rng = np.random.default_rng(7)
    n = 20_000
    s = rng.integers(-2**29, 2**29, n).astype(np.int32)
    e_d = rng.integers(-126, 128, n)
    d = (rng.choice([-1.0, 1.0], n) * rng.uniform(1, 2, n) * 2.0 ** e_d).astype(np.float32)
    log_r = rng.integers(-40, 45, n)  # e(d) - E - 7
    q = (e_d - log_r - 7 + silicon_fused._Q_BIAS).astype(np.int32)
    got = silicon_fused._floor_sum(s.copy(), q, d)
    grid = 2 ** np.clip(log_r, 0, 31).astype(np.int64)
    want = np.where(log_r > 31, s, s.astype(np.int64) // grid * grid)
    assert (log_r > 31).any() and (log_r == 31).any() and (log_r < 0).any()
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(("low", "high", "narrow"), [
    (-31, 30, True), (-32, 30, False), (-31, 31, False), (-34, 33, False), (-20, 10, True)])
def test_float32_exponent_weights_reach_their_range(low, high, narrow):
    """bf16 operands (ranges scanned) whose alignment exponents e(a) + e(b) span exactly
    [low, high], one group of eight at each end: float32 exponent weights (`_narrow`) hold
    [-31, 30] and no more (beyond [-32, 31] they would find a wrong E); either way every
    output equals the reference."""
    rng = np.random.default_rng(abs(low) * 100 + high)
    m, k, n = 6, 16, 6
    e_a = rng.integers(low // 2, high // 2 + 1, (1, m, k))
    e_b = rng.integers(low - low // 2, high - high // 2 + 1, (1, k, n))
    # output (0, 0)'s first group at the lowest sum throughout, (1, 1)'s at the highest
    e_a[0, 0, :8], e_b[0, :8, 0] = low // 2, low - low // 2
    e_a[0, 1, :8], e_b[0, :8, 1] = high // 2, high - high // 2
    a = (rng.uniform(1, 2, e_a.shape) * 2.0 ** e_a).astype(ml_dtypes.bfloat16)
    b = (rng.uniform(1, 2, e_b.shape) * 2.0 ** e_b).astype(ml_dtypes.bfloat16)
    ranges = [(float(np.abs(x).min()), float(np.abs(x).max())) for x in (a, b)]
    assert silicon_fused._narrow(*ranges, -126, -126) is narrow
    c = accumulator(rng, (1, m, n), "normal")
    d = silicon_fused.fused_dot(a.astype(np.float64), b.astype(np.float64), c.view(np.float32),
                                group=8, split=False, a_min_exp=-126, b_min_exp=-126)
    for i in range(m):
        for j in range(n):
            want = R.family3_fused_dot(a[0, i].view(np.uint16).tolist(),
                                       b[0, :, j].view(np.uint16).tolist(), int(c[0, i, j]),
                                       R.BF16, R.BF16, 8)
            assert int(d[0, i, j].view(np.uint32)) == want, (i, j)


@pytest.mark.parametrize("data", ["bits", "normal", "c bits"])
@pytest.mark.parametrize(("a_fmt", "b_fmt", "group", "halves"), [KINDS[0], KINDS[3]])
def test_c_is_read_in_place_and_left_alone(a_fmt, b_fmt, group, halves, data, monkeypatch):
    """C is read where it lies (a strided view, one tile broadcast over the batch) and never
    written: the result equals that from a contiguous copy, chunk after chunk, on the
    masked floor (f16) and the general sum (fp8 x bf8)."""
    monkeypatch.setattr(silicon_fused, "_CHUNK_TERMS", 600)
    rng = np.random.default_rng(zlib.crc32(f"{a_fmt} {data}".encode()))
    tiles, m, k, n = 9, 4, 2 * group, 4
    a = decoded(operand(rng, a_fmt, (tiles, m, k), data), a_fmt)
    b = decoded(operand(rng, b_fmt, (tiles, k, n), data), b_fmt)
    wide = accumulator(rng, (tiles, n, 2 * m), data).view(np.float32)
    kw = dict(group=group, split=halves, a_min_exp=FORMATS[a_fmt][3],
              b_min_exp=FORMATS[b_fmt][3], formats=(magnitudes(a_fmt), magnitudes(b_fmt)))
    for c in (wide[:, :, ::2].transpose(0, 2, 1), np.broadcast_to(wide[0, :m, :n], (tiles, m, n))):
        before = c.copy()
        got = silicon_fused.fused_dot(a, b, c, **kw)
        want = silicon_fused.fused_dot(a, b, np.ascontiguousarray(c), **kw)
        np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
        np.testing.assert_array_equal(c.view(np.uint32), before.view(np.uint32))
