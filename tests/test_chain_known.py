"""A collapsed K-chain hands its proof's facts to the next step (`models.Collapsed`: every
|D| <= bound, every D a multiple of 2**q), which then takes them for C instead of reading it.

Checked against what is independent of that shortcut: each step's D bit for bit against
the same step proved from C itself (`known=None`), the facts against D with exact rational
arithmetic, facts too weak to prove a step (C is then read), facts of another array
(ignored), and kernels whose mma_sync chains pass the facts along against the per-wave
engine and against launches that touch the accumulator's registers between steps.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from rocwmma_py import (
    accumulator,
    blockIdx,
    fill_fragment,
    float16,
    float32,
    fragment,
    kernel,
    load_matrix_sync,
    matrix_a,
    matrix_b,
    mem_row_major,
    mma_sync,
    row_major,
    store_matrix_sync,
    use_engine,
    use_numerics,
)
from rocwmma_py.arch import get_arch
from rocwmma_py.arch.models import Collapsed, arithmetic, collapsed_chain

pytestmark = pytest.mark.smoke

CHAINS = [("gfx942", "cdna3", "mfma_f32_16x16x16f16"), ("gfx942", "exact", "mfma_f32_16x16x16f16"),
          ("gfx90a", "cdna2", "mfma_f32_16x16x16f16"), ("gfx1100", "exact",
                                                      "wmma_f32_16x16x16_f16_w32")]


def facts_hold(whole: Collapsed) -> bool:
    """|D| <= bound and D a multiple of 2**q, in exact rationals."""
    values = [Fraction(float(v)) for v in whole.d.ravel()]
    quantum = Fraction(2) ** whole.q
    return all(abs(v) <= whole.bound and (v / quantum).denominator == 1 for v in values)


def step_operands(rng, steps: int, k: int, spread: int):
    """Integer-valued A and B steps (times a power of two), a C to start from."""
    scale = 2.0 ** rng.integers(-spread, spread + 1)
    a = [rng.integers(-6, 7, (3, 16, k)).astype(np.float64) * scale for _ in range(steps)]
    b = [rng.integers(-6, 7, (3, k, 16)).astype(np.float64) for _ in range(steps)]
    c = (rng.integers(-50, 51, (3, 16, 16)) * scale).astype(np.float32)
    return a, b, c


@pytest.mark.parametrize(("arch", "model", "name"), CHAINS)
@pytest.mark.parametrize("seed", range(6))
def test_each_step_with_the_facts_is_the_step_proved_from_c(arch, model, name, seed):
    rng = np.random.default_rng(seed)
    instr = get_arch(arch).instructions[name]
    arith = arithmetic(model, instr)
    a, b, c = step_operands(rng, 8, instr.k, 3)
    known = None
    for a_k, b_k in zip(a, b, strict=True):
        whole = collapsed_chain(arith, instr, a_k, b_k, c, np.float32, known=known)
        alone = collapsed_chain(arith, instr, a_k, b_k, c, np.float32)
        assert whole is not None and alone is not None
        assert whole.d.tobytes() == alone.d.tobytes()
        assert facts_hold(whole)
        c, known = whole.d, whole


@pytest.mark.parametrize(("arch", "model", "name"), CHAINS[:2])
def test_weak_facts_read_c_and_foreign_facts_are_ignored(arch, model, name):
    rng = np.random.default_rng(11)
    instr = get_arch(arch).instructions[name]
    arith = arithmetic(model, instr)
    a, b, c = step_operands(rng, 1, instr.k, 0)
    first = collapsed_chain(arith, instr, a[0], b[0], c, np.float32)
    assert first is not None
    weak = first._replace(bound=Fraction(2) ** 127, q=-200)  # proves nothing: C is read
    again = collapsed_chain(arith, instr, a[0], b[0], first.d, np.float32, known=weak)
    plain = collapsed_chain(arith, instr, a[0], b[0], first.d, np.float32)
    assert again is not None and plain is not None
    assert again.d.tobytes() == plain.d.tobytes() and again.bound < weak.bound
    # facts of another array (a copy of D holding a value off their grid) are not used
    other = first.d.copy()
    other[0, 0, 0] = np.float32(0.5)
    lying = first._replace(q=10)
    with_lie = collapsed_chain(arith, instr, a[0], b[0], other, np.float32, known=lying)
    without = collapsed_chain(arith, instr, a[0], b[0], other, np.float32)
    assert with_lie is not None and without is not None
    assert with_lie.q == without.q < 0 and with_lie.d.tobytes() == without.d.tobytes()


FragA = fragment[matrix_a, 16, 16, 16, float16, row_major]
FragB = fragment[matrix_b, 16, 16, 16, float16, row_major]
FragAcc = fragment[accumulator, 16, 16, 16, float32]


@kernel
def chained(a, b, d, k, touch):
    """One 16 x 16 tile per block; `touch`: rewrite the accumulator's registers (the same
    values) between steps, which drops the facts."""
    acc, fa, fb = FragAcc(), FragA(), FragB()
    fill_fragment(acc, 0.0)
    row = blockIdx.x * 16
    for kk in range(0, k, 16):
        load_matrix_sync(fa, a + row * k + kk, k)
        load_matrix_sync(fb, b + kk * 16, 16)
        mma_sync(acc, fa, fb, acc)
        if touch:
            acc.x[...] = acc.x * 1.0
    store_matrix_sync(d + row * 16, acc, 16, mem_row_major)


@pytest.mark.parametrize("data", ["integers", "mixed"])
@pytest.mark.parametrize("numerics", ["silicon", "exact"])
def test_kernels_passing_the_facts_match_the_per_wave_engine(data, numerics):
    """Integer data collapses every step (the facts pass along); "mixed" turns random
    halfway, where the collapse stops and the certified path takes over."""
    rng = np.random.default_rng(5)
    blocks, k = 4, 256
    a = rng.integers(-4, 5, (blocks * 16, k)).astype(np.float16)
    b = rng.integers(-4, 5, (k, 16)).astype(np.float16)
    if data == "mixed":
        a[:, k // 2:] = rng.standard_normal((blocks * 16, k // 2)).astype(np.float16)
    results = {}
    for engine in ("batch", "wave"):
        for touch in (False, True):
            d = np.zeros((blocks * 16, 16), np.float32)
            with use_engine(engine), use_numerics(numerics):
                chained[blocks, 64, 0, "gfx942"](a, b, d, k, touch)
            results[engine, touch] = d
    want = results["wave", True]
    for got in results.values():
        assert got.view(np.int32).tobytes() == want.view(np.int32).tobytes()
    if data == "integers":  # every partial sum is exact: the float64 product itself
        exact = a.astype(np.float64) @ b.astype(np.float64)
        assert np.array_equal(want, exact)


@pytest.mark.parametrize(("arch", "model", "name"), CHAINS)
def test_facts_on_a_finer_grid_than_the_step_needs_read_c(arch, model, name):
    """D of eighths (q = -3 known) meets products large enough to need a coarser grid: the
    facts cannot prove C on it, C is read, and neither way collapses (D is not on it)."""
    instr = get_arch(arch).instructions[name]
    arith = arithmetic(model, instr)
    a = np.full((1, 16, instr.k), 0.125)
    b = np.ones((1, instr.k, 16))
    c = np.zeros((1, 16, 16), np.float32)
    first = collapsed_chain(arith, instr, a, b, c, np.float32)
    assert first is not None and facts_hold(first)
    big = np.full((1, 16, instr.k), 2.0**10)
    huge = np.full((1, instr.k, 16), 2.0**12)
    c = first.d.copy()
    c[0, 0, 0] += np.float32(0.125)  # an odd number of eighths somewhere
    known = first._replace(d=c, bound=first.bound + Fraction(1, 8), q=-3)
    assert facts_hold(known)
    with_facts = collapsed_chain(arith, instr, big, huge, c, np.float32, known=known)
    from_c = collapsed_chain(arith, instr, big, huge, c, np.float32)
    assert (with_facts is None) == (from_c is None)
    if from_c is not None:
        assert with_facts.d.tobytes() == from_c.d.tobytes()
