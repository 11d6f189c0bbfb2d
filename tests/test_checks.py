"""Opt-in sanitizers: initcheck (never-written LDS, never-filled fragments) and synccheck
(barriers reached by only some waves). Off by default; on per launch or by environment."""

from __future__ import annotations

import numpy as np
import pytest

from rocwmma_py import (
    accumulator,
    col_major,
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
    synchronize_workgroup,
)
from rocwmma_py.runtime import blockIdx, shared_array, threadIdx, use_engine
from rocwmma_py.runtime.errors import BarrierError, InitCheckError

pytestmark = pytest.mark.smoke

FragA = fragment[matrix_a, 16, 16, 16, float16, row_major]
FragB = fragment[matrix_b, 16, 16, 16, float16, col_major]
FragAcc = fragment[accumulator, 16, 16, 16, float32]


def make_gemm(fill: bool):
    @kernel
    def tile(a, b, d):
        acc, fa, fb = FragAcc(), FragA(), FragB()
        if fill:
            fill_fragment(acc, 0.0)
        load_matrix_sync(fa, a, 16)
        load_matrix_sync(fb, b, 16)
        mma_sync(acc, fa, fb, acc)
        store_matrix_sync(d, acc, 16, mem_row_major)

    return tile


def gemm_buffers():
    rng = np.random.default_rng(0)
    a = rng.integers(-3, 4, 256).astype(np.float16)
    b = rng.integers(-3, 4, 256).astype(np.float16)
    return a, b, np.zeros(256, np.float32)


@pytest.mark.parametrize("engine", ["batch", "wave"])
def test_initcheck_names_an_accumulator_that_was_never_filled(engine):
    with use_engine(engine):
        make_gemm(fill=False)[1, 64, 0, "gfx942"](*gemm_buffers())  # default: zero, runs
        with pytest.raises(InitCheckError, match=r"mma_sync reads c .*never filled.*block "
                                                 r"\(0,0,0\), wave 0.*fill_fragment"):
            make_gemm(fill=False)[1, 64, 0, "gfx942"].checked(initcheck=True)(*gemm_buffers())
        a, b, d = gemm_buffers()
        make_gemm(fill=True)[1, 64, 0, "gfx942"].checked(initcheck=True)(a, b, d)
        expected = a.reshape(16, 16).astype(np.float64) @ b.reshape(16, 16).T.astype(np.float64)
        np.testing.assert_array_equal(d.reshape(16, 16), expected)


@kernel
def reads_past_what_it_wrote(out):
    tile = shared_array(np.float32, 128)
    tile[threadIdx.x] = threadIdx.x  # 64 lanes write elements 0..63
    synchronize_workgroup()
    out[blockIdx.x * 64 + threadIdx.x] = tile[threadIdx.x + 1]  # lane 63 reads element 64


@pytest.mark.parametrize("engine", ["batch", "wave"])
def test_initcheck_names_never_written_lds(engine, monkeypatch):
    out = np.zeros(128, np.float32)
    with use_engine(engine):
        reads_past_what_it_wrote[2, 64](out)  # default: LDS reads as zero
        assert out[63] == 0.0 and out[62] == 63.0
        monkeypatch.setenv("ROCWMMA_PY_INITCHECK", "1")
        with pytest.raises(InitCheckError) as info:
            reads_past_what_it_wrote[2, 64](out)
    msg = str(info.value)
    assert "lane 63 reads LDS buffer 'lds[0]' at element offset 64 (float32)" in msg
    assert "block (0,0,0), wave 0" in msg


def test_initcheck_flag_must_be_0_or_1(monkeypatch):
    monkeypatch.setenv("ROCWMMA_PY_INITCHECK", "maybe")
    with pytest.raises(ValueError, match=r"ROCWMMA_PY_INITCHECK='maybe': use 1 \(on\) or 0"):
        reads_past_what_it_wrote[1, 64](np.zeros(64, np.float32))


@kernel
def early_exit(out):
    wave = threadIdx.y
    synchronize_workgroup()
    if wave == 3:
        return  # leaves before the second barrier
    out[threadIdx.x + 64 * wave] = 1.0
    synchronize_workgroup()


def test_synccheck_names_waves_that_skipped_a_barrier():
    out = np.zeros(256, np.float32)
    early_exit[1, (64, 4)](out)  # default: as the AMD ISA, ended waves leave the barrier
    assert out[:192].all() and not out[192:].any()
    with pytest.raises(BarrierError) as info:
        early_exit[1, (64, 4)].checked(synccheck=True)(np.zeros(256, np.float32))
    msg = str(info.value)
    assert "barrier #2 in kernel 'early_exit' (block (0,0,0)) was reached by waves 0, 1, 2" in msg
    assert "wave 3 (after 1 barriers) had already finished" in msg
