"""Opt-in sanitizers: initcheck (never-written LDS, never-filled fragments), synccheck
(barriers reached by only some waves) and racecheck (global memory touched by two blocks, or
by two waves between barriers). Off by default; on per launch or by environment."""

from __future__ import annotations

import numpy as np
import pytest

from rocwmma_py import (
    GlobalRaceError,
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
from rocwmma_py.runtime import (
    blockIdx,
    last_launch_stats,
    shared_array,
    threadIdx,
    use_engine,
    where,
)
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


@kernel
def reads_under_where(out, shift):
    tile = shared_array(np.float32, 128)
    tile[threadIdx.x] = threadIdx.x  # elements 0..63; 64.. never written
    synchronize_workgroup()
    with where(threadIdx.x < 63):  # lane 63 reads element 63 + shift: masked off
        out[blockIdx.x * 64 + threadIdx.x] = tile[threadIdx.x + shift] + 1.0


@pytest.mark.parametrize("engine", ["batch", "wave"])
def test_initcheck_does_not_see_reads_of_masked_off_lanes(engine, monkeypatch):
    """The read's masked-off lane has an address inside the buffer (a gather may read it
    unseen, then zero it), but no observer is told of it; an active lane's is."""
    monkeypatch.setenv("ROCWMMA_PY_INITCHECK", "1")
    out = np.full(128, -1.0, np.float32)
    with use_engine(engine):
        reads_under_where[2, 64](out, 1)
        want = np.where(np.arange(64) < 63, np.arange(64) + 2.0, -1.0)
        np.testing.assert_array_equal(out, np.tile(want, 2))
        with pytest.raises(InitCheckError, match="lane 62 reads LDS"):
            reads_under_where[2, 64](out, 2)  # lane 62 (active) reads element 64


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


# --- racecheck: global memory -------------------------------------------------------------------

@kernel
def every_block_writes_element_0(out):
    out[threadIdx.x * 0] = blockIdx.x * 1.0  # each block, one element: write-write


@kernel
def block_1_writes_what_block_0_reads(x, out):
    if blockIdx.x == 0:
        out[threadIdx.x] = x[threadIdx.x + 5]
    else:
        x[threadIdx.x + 64] = 1.0  # elements 64..127: 64..68 were read by block 0


@kernel
def block_1_reads_what_block_0_wrote(x, out):
    if blockIdx.x == 0:
        x[threadIdx.x] = 2.0
    else:
        out[threadIdx.x] = x[63 - threadIdx.x]


@kernel
def waves_share_without_barrier(out, barrier):
    mine = threadIdx.x + 64 * threadIdx.y
    out[mine] = 1.0
    if barrier:
        synchronize_workgroup()
    out[128 + mine] = out[127 - mine]  # wave 1 reads wave 0's elements and vice versa


@kernel
def race_free(a, out, res, n):
    """Disjoint tiles per block, read-modify-write by one wave, shared read-only input,
    wave exchange across a barrier."""
    mine = blockIdx.x * 128 + threadIdx.x + 64 * threadIdx.y
    out[mine] = a[threadIdx.x] + a[n - 1 - threadIdx.x]  # every block reads all of a
    out[mine] = out[mine] * 2  # same-wave read-modify-write
    synchronize_workgroup()
    res[mine] = out[mine] + out[blockIdx.x * 128 + 127 - (threadIdx.x + 64 * threadIdx.y)]


def racecheck_launch(k, grid, block, *args):
    return k[grid, block].checked(racecheck=True)(*args)


@pytest.mark.parametrize("engine", ["batch", "wave"])
def test_racecheck_write_write_between_blocks(engine):
    with use_engine(engine), pytest.raises(GlobalRaceError) as info:
        racecheck_launch(every_block_writes_element_0, 3, 64, np.zeros(4, np.float32))
    msg = str(info.value)
    assert "(write-after-write)" in msg and "'every_block_writes_element_0'" in msg
    assert "block (1,0,0) wave 0" in msg and "block (0,0,0) wave 0 wrote" in msg
    assert "buffer 'out' at element offset 0 (float32)" in msg
    assert last_launch_stats().per_wave_blocks == 1 + 1  # stopped in block 1


@pytest.mark.parametrize("engine", ["batch", "wave"])
def test_racecheck_write_after_read_between_blocks(engine):
    x, out = np.zeros(128, np.float32), np.zeros(64, np.float32)
    with use_engine(engine), pytest.raises(GlobalRaceError) as info:
        racecheck_launch(block_1_writes_what_block_0_reads, 2, 64, x, out)
    msg = str(info.value)
    # block 0 read x[5..68]; block 1's lane 0 writes x[64], the first element both touch
    assert "(write-after-read)" in msg
    assert "block (1,0,0) wave 0 (lane 0) writes buffer 'x' at element offset 64" in msg
    assert "which block (0,0,0) wave 0 read" in msg
    assert not x.any()  # raised before the write


@pytest.mark.parametrize("engine", ["batch", "wave"])
def test_racecheck_read_after_write_between_blocks(engine):
    x, out = np.zeros(64, np.float32), np.zeros(64, np.float32)
    with use_engine(engine), pytest.raises(GlobalRaceError) as info:
        racecheck_launch(block_1_reads_what_block_0_wrote, 2, 64, x, out)
    msg = str(info.value)
    assert "(read-after-write)" in msg
    assert "block (1,0,0) wave 0 (lane 0) reads buffer 'x' at element offset 63" in msg
    assert "which block (0,0,0) wave 0 wrote" in msg


@pytest.mark.parametrize("engine", ["batch", "wave"])
def test_racecheck_waves_of_a_block_between_barriers(engine):
    with use_engine(engine), pytest.raises(GlobalRaceError) as info:
        racecheck_launch(waves_share_without_barrier, 1, (64, 2), np.zeros(256, np.float32), 0)
    msg = str(info.value)
    # wave 0 runs first and reads element 127, which wave 1 has not written yet; wave 1
    # then writes element 64.. -> wave 1 writes what wave 0 read (write-after-read)
    assert "(write-after-read)" in msg and "block (0,0,0) wave 1" in msg
    assert "which block (0,0,0) wave 0 read since the last barrier" in msg
    out = np.zeros(256, np.float32)
    with use_engine(engine):
        racecheck_launch(waves_share_without_barrier, 1, (64, 2), out, 1)
    np.testing.assert_array_equal(out, np.ones(256, np.float32))


@pytest.mark.parametrize("engine", ["batch", "wave"])
def test_racecheck_has_no_false_positives(engine):
    a = np.arange(64, dtype=np.float32)
    out, res = np.zeros(4 * 128, np.float32), np.zeros(4 * 128, np.float32)
    with use_engine(engine):
        racecheck_launch(race_free, 4, (64, 2), a, out, res, 64)
    first = np.tile(2 * (a + a[::-1]), 2)  # 128 per block: lanes of wave 0 then wave 1
    np.testing.assert_array_equal(res.reshape(4, 128), np.tile(first + first[::-1], (4, 1)))


def test_racecheck_from_the_environment(monkeypatch):
    monkeypatch.setenv("ROCWMMA_PY_RACECHECK", "1")
    with pytest.raises(GlobalRaceError):
        every_block_writes_element_0[2, 64](np.zeros(4, np.float32))
    every_block_writes_element_0[2, 64].checked(racecheck=False)(np.zeros(4, np.float32))
    for value in ("0", "off", "false"):
        monkeypatch.setenv("ROCWMMA_PY_RACECHECK", value)
        every_block_writes_element_0[2, 64](np.zeros(4, np.float32))
    monkeypatch.setenv("ROCWMMA_PY_RACECHECK", "sometimes")
    with pytest.raises(ValueError, match=r"ROCWMMA_PY_RACECHECK='sometimes': use 1 \(on\)"):
        every_block_writes_element_0[2, 64](np.zeros(4, np.float32))


@kernel
def count_blocks(counter):
    counter[0] = counter[0] + 1  # a non-atomic read-modify-write by every block


@pytest.mark.parametrize("engine", ["batch", "wave"])
def test_racecheck_finds_a_counter_incremented_by_every_block(engine):
    with use_engine(engine), pytest.raises(GlobalRaceError) as info:
        count_blocks[8, 64].checked(racecheck=True)(np.zeros(1, np.int32))
    msg = str(info.value)
    assert "(read-after-write)" in msg and "block (1,0,0) wave 0 (every lane) reads" in msg
    assert "buffer 'counter' at element offset 0 (int32), which block (0,0,0) wave 0 wrote" in msg
