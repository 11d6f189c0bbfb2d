"""The per-wave engine's small-call fast paths against independent references: the collapse
test's integer bound (Fractions), max_abs and multiples_of (numpy and Fractions),
flatten_tiles without broadcasting (np.broadcast_to), fused_dot's one-chunk path (the same
tiles in a batch of several chunks), and the silicon models' collapsed chains (the model's
own instruction computation, wherever the collapse claims equality; None on data that must
not collapse)."""

from __future__ import annotations

import math
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

from rocwmma_py import types as T
from rocwmma_py.arch import get_arch
from rocwmma_py.arch import silicon_common as SC
from rocwmma_py.arch.models import _product_exponent, arithmetic, collapsed_chain
from rocwmma_py.arch.numerics import decode

RNG = np.random.default_rng(7)
TINY, HUGE = 5e-324, float(np.finfo(np.float64).max)
ADVERSARIAL = [TINY, 2 * TINY, 2.0**-1022, 1.0, 1.5, 2.0, 3.0, 2.0**53 - 1, 2.0**127,
               float(np.nextafter(2.0, 0.0)), float(np.nextafter(1.0, 2.0)), 65504.0, HUGE]


def least_exponent_above(v: Fraction) -> int:
    """The least e with v < 2**e (v > 0), by search."""
    e = v.numerator.bit_length() - v.denominator.bit_length() - 2
    while not v < Fraction(2) ** e:
        e += 1
    return e


@pytest.mark.parametrize("k", [1, 3, 16, 64, 1000])
def test_product_exponent_matches_fractions(k):
    values = ADVERSARIAL + [float(x) for x in np.exp2(RNG.uniform(-1070, 1020, 40))]
    for x in values:
        for y in values:
            assert _product_exponent(k, x, y) == least_exponent_above(
                k * Fraction(x) * Fraction(y)), (k, x, y)


@pytest.mark.parametrize("size", [0, 1, 256, 4096, 4097, 10000])
def test_max_abs_both_paths(size):
    x = RNG.normal(size=size) * 1e3
    want = float(np.max(np.abs(x))) if size else 0.0
    assert SC.max_abs(x) == want
    if size:
        x[size // 2] = -np.inf
        assert SC.max_abs(x) == math.inf
        x[size // 3] = np.nan
        assert math.isnan(SC.max_abs(x))


@pytest.mark.parametrize("size", [0, 1, 256, 4096, 4097])
def test_magnitude_range_both_paths(size):
    base = RNG.normal(size=size) * 2.0 ** RNG.integers(-1074, 1000, size)
    variants = [base, np.zeros(size), -np.zeros(size)]
    if size:
        with_zeros = base.copy()
        with_zeros[::3] = 0.0
        with_zeros[1::5] = TINY
        variants.append(with_zeros)
    for x in variants:
        mags = np.abs(x)
        nonzero = mags[mags != 0]
        want = (float(nonzero.min()) if nonzero.size else math.inf,
                float(mags.max()) if size else 0.0)
        assert SC.magnitude_range(x) == want
    if size:
        for special, want_top in ((np.inf, math.inf), (np.nan, None)):
            x = base.copy()
            x[size // 2] = special
            smallest, largest = SC.magnitude_range(x)
            assert (math.isnan(largest) if want_top is None else largest == want_top)
            mags = np.abs(np.delete(x, size // 2))
            nonzero = mags[mags != 0]
            if nonzero.size:  # (a lone NaN is its own smallest, not compared here)
                assert smallest == float(nonzero.min())
            elif special == np.inf:
                assert smallest == math.inf


@pytest.mark.parametrize("size", [1, 256, 4096, 5000])
@pytest.mark.parametrize("q", [-30, -3, 0, 2])
def test_multiples_of_matches_fractions(size, q):
    ints = RNG.integers(-(2**20), 2**20, size).astype(np.float64)
    for x in (ints * 2.0**q, ints * 2.0**(q - 1), RNG.normal(size=size), ints * 2.0**q + 0.0):
        if size > 4096:  # a failure beyond the sample only
            x = np.concatenate([ints[:4096] * 2.0**q, x[4096:]])
        want = all((Fraction(v.item()) / Fraction(2) ** q).denominator == 1 for v in x)
        assert SC.multiples_of(x, q) is want


@pytest.mark.parametrize("lead", [((2, 3), (2, 3), (2, 3)), ((1,), (1,), (1,)), ((), (), ()),
                                  ((2, 1), (1, 3), (2, 3)), ((4,), (), (4,))])
def test_flatten_tiles_with_and_without_broadcasting(lead):
    la, lb, lc = lead
    a, b, c = RNG.normal(size=(*la, 4, 5)), RNG.normal(size=(*lb, 5, 3)), \
        RNG.normal(size=(*lc, 4, 3))
    full = np.broadcast_shapes(la, lb, lc)
    a3, b3, c3, shape = SC.flatten_tiles(a, b, c)
    assert shape == (*full, 4, 3)
    for got, x, tail in ((a3, a, (4, 5)), (b3, b, (5, 3)), (c3, c, (4, 3))):
        np.testing.assert_array_equal(got, np.broadcast_to(x, (*full, *tail)).reshape(-1, *tail))


def fmt_values(t, shape, kind: str) -> np.ndarray:
    """Decoded values of format t: random normal, small integers, or with specials."""
    store = T.storage_dtype(t)
    if kind == "ints":
        x = RNG.integers(-8, 9, shape).astype(np.float64)
    else:
        x = RNG.normal(size=shape) * (2.0 ** RNG.integers(-6, 6, shape))
        if kind == "specials":
            flat = x.reshape(-1)
            flat[RNG.integers(0, flat.size, 3)] = [np.inf, -np.inf, np.nan]
            flat[RNG.integers(0, flat.size, 4)] = 0.0
    return decode(np.asarray(T.convert(x, t)).view(store), t) if store != np.float32 else \
        x.astype(np.float32).astype(np.float64)


CDNA3 = ["mfma_f32_16x16x16f16", "mfma_f32_16x16x16bf16_1k", "mfma_f32_16x16x8_xf32",
         "mfma_f32_16x16x32_fp8_fp8", "mfma_f32_16x16x32_bf8_fp8"]


@pytest.mark.parametrize("name", CDNA3)
@pytest.mark.parametrize("kind", ["normal", "ints", "specials"])
def test_fused_dot_one_tile_equals_batch(name, kind):
    """The one-chunk path gives every tile what the chunked path of a batch gives it."""
    instr = get_arch("gfx942").instructions[name]
    arith = arithmetic("cdna3", instr)
    tiles = 2 ** 19 // (16 * 16 * 4) + 5  # more than one chunk for every group size
    a = fmt_values(instr.a_type, (tiles, 16, instr.k), kind)
    b = fmt_values(instr.b_type, (tiles, instr.k, 16), kind)
    c = RNG.normal(size=(tiles, 16, 16)).astype(np.float32)
    c[0, 0, :3] = [1e38, -0.0, np.inf]
    with np.errstate(all="ignore"):
        batch = arith.compute(a, b, c)
        for t in (0, 1, tiles // 2, tiles - 1):
            one = arith.compute(a[t:t + 1], b[t:t + 1], c[t:t + 1])
            np.testing.assert_array_equal(one.view(np.int32), batch[t:t + 1].view(np.int32))


MODELS = [("gfx942", "cdna3", n) for n in [*CDNA3, "mfma_f32_16x16x4f32"]] + \
    [(arch, model, n) for arch, model in (("gfx90a", "cdna2"), ("gfx908", "cdna1"))
     for n in ("mfma_f32_16x16x16f16", "mfma_f32_16x16x8bf16", "mfma_f32_16x16x4f32")]


@pytest.mark.parametrize(("arch", "model", "name"), MODELS)
def test_collapsed_chain_is_the_models_result(arch, model, name):
    """Where the collapse answers, it is the model's own one-instruction result, bit for bit;
    random-valued, non-finite and overflowing data do not collapse."""
    instr = get_arch(arch).instructions[name]
    arith = arithmetic(model, instr)
    shape_a, shape_b = (1, 16, instr.k), (1, instr.k, 16)
    for scale in (1.0, 2.0**-20, 2.0**100):
        a = fmt_values(instr.a_type, shape_a, "ints") * (scale if instr.a_type is T.float32
                                                           else 1.0)
        b = fmt_values(instr.b_type, shape_b, "ints")
        c = RNG.integers(-100, 100, (1, 16, 16)).astype(np.float32)
        whole = collapsed_chain(arith, instr, a, b, c, np.float32)
        if scale == 1.0:
            assert whole is not None
        if whole is not None:
            np.testing.assert_array_equal(whole.d.view(np.int32),
                                          arith.compute(a, b, c).view(np.int32))
    a = fmt_values(instr.a_type, shape_a, "normal")
    b = fmt_values(instr.b_type, shape_b, "normal")
    c = RNG.normal(size=(1, 16, 16)).astype(np.float32)
    assert collapsed_chain(arith, instr, a, b, c, np.float32) is None
    ints_a = fmt_values(instr.a_type, shape_a, "ints")
    ints_b = fmt_values(instr.b_type, shape_b, "ints")
    for bad in (np.inf, np.nan):
        spoiled = ints_a.copy()
        spoiled[0, 3, 2] = bad
        assert collapsed_chain(arith, instr, spoiled, ints_b, c, np.float32) is None
        spoiled_c = np.round(c).copy()
        spoiled_c[0, 1, 1] = bad
        assert collapsed_chain(arith, instr, ints_a, ints_b, spoiled_c, np.float32) is None
    big = np.full((1, 16, 16), np.float32(ml_dtypes.finfo(np.float32).max))
    assert collapsed_chain(arith, instr, ints_a, ints_b, big, np.float32) is None


def test_scratch_shapes_sizes_and_threads():
    """Every request gets its shape, C-contiguous, whatever came before; threads do not
    share buffers."""
    import threading

    from rocwmma_py.arch.scratch import scratch

    for shape in ((2, 3), (3, 2), (2, 3), (4, 5, 6), (1,), (0, 4), (2, 3)):
        x = scratch("test scratch", shape, np.float64)
        assert x.shape == shape and x.dtype == np.float64 and x.flags.c_contiguous
        x[...] = 1.0
    mine = scratch("test scratch", (8,), np.int32)
    theirs = []
    worker = threading.Thread(target=lambda: theirs.append(scratch("test scratch", (8,),
                                                                   np.int32)))
    worker.start()
    worker.join()
    assert not np.shares_memory(mine, theirs[0])
