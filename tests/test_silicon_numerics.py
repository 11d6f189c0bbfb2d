"""Choosing the numerics model, and the silicon model reaching every path.

The selection API (use_numerics, $ROCWMMA_PY_NUMERICS, a launch's pin, numerics_model per
target), then hand-made inputs whose silicon result is known from silicon-numerics.md and
differs from the exact sum, pushed through each path: builtins, fragment mma_sync (including
chains the exact model would collapse into one sum), the wmma facade, both engines.
"""

from __future__ import annotations

import numpy as np
import pytest

from rocwmma_py import (
    NumericsError,
    RocwmmaError,
    accumulator,
    amdgcn,
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
    numerics_model,
    row_major,
    store_matrix_sync,
    use_arch,
    use_engine,
    use_numerics,
    wmma,
)
from rocwmma_py.runtime import blockIdx, threadIdx

SILICON = {"gfx908": "cdna1", "gfx90a": "cdna2", "gfx942": "cdna3", "gfx950": "exact",
           "gfx1100": "exact", "gfx1101": "exact", "gfx1102": "exact", "gfx1200": "exact",
           "gfx1201": "exact"}


# --- selection ----------------------------------------------------------------------------

@pytest.mark.parametrize("arch", SILICON)
def test_default_is_the_silicon_model_where_one_exists(arch):
    assert numerics_model(arch) == SILICON[arch]
    with use_numerics("exact"):
        assert numerics_model(arch) == "exact"
        with use_numerics("silicon"):  # innermost wins
            assert numerics_model(arch) == SILICON[arch]


def test_environment_variable(monkeypatch):
    monkeypatch.setenv("ROCWMMA_PY_NUMERICS", "exact")
    assert numerics_model("gfx942") == "exact"
    with use_numerics("silicon"):
        assert numerics_model("gfx942") == "cdna3"
    monkeypatch.setenv("ROCWMMA_PY_NUMERICS", "silicon")
    assert numerics_model("gfx90a") == "cdna2"
    monkeypatch.setenv("ROCWMMA_PY_NUMERICS", "Exact")  # strict: no case folding
    with pytest.raises(NumericsError, match=r"ROCWMMA_PY_NUMERICS.*'Exact'.*'silicon', 'exact'"):
        numerics_model("gfx942")


@pytest.mark.parametrize("bad", ["fast", "", None, "cdna3"])
def test_unknown_names_are_refused(bad):
    with pytest.raises(NumericsError, match="allowed: 'silicon', 'exact'"):
        with use_numerics(bad):
            pass
    assert issubclass(NumericsError, RocwmmaError) and issubclass(NumericsError, ValueError)


# --- hand-made inputs with a known silicon result -------------------------------------------

TINY16 = 2.0**-24  # the smallest f16 subnormal: its silicon exponent is -14, not -24


def truncation_case(k: int = 32):
    """gfx942: row 0 sums 2**-24 * 2**15 (alignment exponent -14 + 15 = 1) and
    2**-14 * 2**-14 = 2**-28 in one group of 8; truncation to 24 bits below 2**1 drops the
    second product. Exact sum 2**-9 + 2**-28 (representable), silicon 2**-9."""
    a = np.zeros((16, k), np.float16)
    b = np.zeros((k, 16), np.float16)
    a[0, 0], a[0, 1] = TINY16, 2.0**-14
    b[0, :], b[1, :] = 2.0**15, 2.0**-14
    return a, b


def flush_case():
    """gfx90a flushes f16 subnormal inputs: D[0, 0] is 2**-24 * 1 (exact 2**-24, silicon +0)
    and D[1, 1] is 2**-24 * inf (exact inf, silicon 0 * inf = NaN)."""
    a = np.zeros((16, 16), np.float16)
    b = np.ones((16, 16), np.float16)
    a[0, 0] = a[1, 1] = TINY16
    b[1, 1] = np.inf
    return a, b


def mfma_16x16x16(arch: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """One mfma_f32_16x16x16f16 through the public builtin (lane l holds A[l % 16][4(l // 16)
    + t], B[4(l // 16) + t][l % 16]; D lane l slot i is row 4(l // 16) + i, column l % 16)."""
    lane = np.arange(64)
    k = 4 * (lane // 16)[:, None] + np.arange(4)[None, :]
    with use_arch(arch):
        d = amdgcn.mfma_f32_16x16x16f16(a[lane[:, None] % 16, k], b[k, lane[:, None] % 16],
                                        np.zeros((64, 4), np.float32), 0, 0, 0)
    out = np.empty((16, 16), np.float32)
    out[4 * (lane // 16)[:, None] + np.arange(4)[None, :], (lane % 16)[:, None]] = d
    return out


def test_builtin_truncates_on_gfx942():
    a, b = truncation_case(16)
    with use_numerics("exact"):
        assert mfma_16x16x16("gfx942", a, b)[0, 0] == 2.0**-9 + 2.0**-28
    assert mfma_16x16x16("gfx942", a, b)[0, 0] == 2.0**-9


def test_builtin_flushes_subnormals_on_gfx90a():
    a, b = flush_case()
    with use_numerics("exact"):
        d = mfma_16x16x16("gfx90a", a, b)
        assert d[0, 0] == TINY16 and d[1, 1] == np.inf
    d = mfma_16x16x16("gfx90a", a, b)
    assert d[0, 0] == 0 and not np.signbit(d[0, 0]) and np.isnan(d[1, 1])
    d = mfma_16x16x16("gfx908", a, b)  # CDNA1 keeps subnormals
    assert d[0, 0] == TINY16 and d[1, 1] == np.inf


FragA = fragment[matrix_a, 16, 16, 32, float16, row_major]
FragB = fragment[matrix_b, 16, 16, 32, float16, row_major]
FragAcc = fragment[accumulator, 16, 16, 32, float32]


@kernel
def gemm_16x16(a, b, d, waves_k):
    """Each wave of the block computes the same 16x16 tile from its own copy of A and B
    (K = 32, two chained 16x16x16 instructions on gfx9)."""
    w = int(threadIdx.x // 64) + waves_k * blockIdx.x
    frag_a, frag_b, acc = FragA(), FragB(), FragAcc()
    fill_fragment(acc, 0.0)
    load_matrix_sync(frag_a, a + w * 16 * 32, 32)
    load_matrix_sync(frag_b, b + w * 32 * 16, 16)
    mma_sync(acc, frag_a, frag_b, acc)
    store_matrix_sync(d + w * 256, acc, 16, mem_row_major)


def run_gemm(arch, a, b, pin=None, waves=2, blocks=2):
    """D of every wave (blocks x waves of them), each computing a @ b."""
    n = waves * blocks
    d = np.zeros((n, 16, 16), np.float32)
    launch = gemm_16x16[blocks, 64 * waves, 0, arch]
    if pin is not None:
        launch = launch.numerics(pin)
    launch(np.tile(a, (n, 1)), np.tile(b, (n, 1)), d, waves)
    return d


@pytest.mark.parametrize("engine", ["batch", "wave"])
def test_mma_sync_chain_is_not_collapsed_where_silicon_truncates(engine):
    """Every term is a multiple of 2**-38 and the sum far below 2**(24-38): the exact
    model's chain collapses to one sum, the silicon's must not."""
    a, b = truncation_case()
    with use_engine(engine):
        silicon = run_gemm("gfx942", a, b)
        exact = run_gemm("gfx942", a, b, pin="exact")
    assert (silicon[:, 0] == np.float32(2.0**-9)).all()
    assert (exact[:, 0] == np.float32(2.0**-9 + 2.0**-28)).all()
    assert (silicon[:, 1:] == 0).all() and (exact[:, 1:] == 0).all()


@pytest.mark.parametrize("engine", ["batch", "wave"])
def test_launch_pin_beats_use_numerics_on_both_engines(engine):
    a, b = truncation_case()
    with use_engine(engine), use_numerics("exact"):
        assert (run_gemm("gfx942", a, b, pin="silicon")[:, 0] == np.float32(2.0**-9)).all()
        assert (run_gemm("gfx942", a, b)[:, 0] == np.float32(2.0**-9 + 2.0**-28)).all()
    with pytest.raises(NumericsError, match="gemm_16x16"):
        gemm_16x16[1, 64, 0, "gfx942"].numerics("bits")


def test_both_engines_agree_on_random_silicon_gemms():
    rng = np.random.default_rng(3)
    for arch in ("gfx908", "gfx90a", "gfx942"):
        a = (rng.standard_normal((16, 32)) * 2.0 ** rng.integers(-8, 8, (16, 32))).astype(
            np.float16)
        b = rng.standard_normal((32, 16)).astype(np.float16)
        with use_engine("batch"):
            batched = run_gemm(arch, a, b)
        with use_engine("wave"):
            waves = run_gemm(arch, a, b)
        assert batched.tobytes() == waves.tobytes()
        assert batched.tobytes() != run_gemm(arch, a, b, pin="exact").tobytes()


def test_wmma_facade_flushes_on_gfx90a():
    a, b = flush_case()
    b[1, 1] = 1.0  # finite here: D[1, :] is then 2**-24 too

    @kernel
    def tile(a, b, c):
        fa = wmma.fragment[wmma.matrix_a, 16, 16, 16, wmma.half, wmma.row_major]()
        fb = wmma.fragment[wmma.matrix_b, 16, 16, 16, wmma.half, wmma.row_major]()
        acc = wmma.fragment[wmma.accumulator, 16, 16, 16, float]()
        wmma.fill_fragment(acc, 0.0)
        wmma.load_matrix_sync(fa, a, 16)
        wmma.load_matrix_sync(fb, b, 16)
        wmma.mma_sync(acc, fa, fb, acc)
        wmma.store_matrix_sync(c, acc, 16, wmma.mem_row_major)

    for pin, want in (("silicon", 0.0), ("exact", TINY16)):
        c = np.full((16, 16), -1.0, np.float32)
        tile[1, 64, 0, "gfx90a"].numerics(pin)(a, b, c)
        assert (c[:2] == want).all() and (c[2:] == 0).all()
