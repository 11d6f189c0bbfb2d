"""The CUDA facade's memory and type features on both engines: 2-D `__shared__` arrays,
`extern __shared__`, int4/float4 vector copies and wmma.mma_sync with mixed C/D types."""

from __future__ import annotations

import numpy as np
import pytest

from rocwmma_py import FragmentError, OutOfBoundsError, get_arch, use_engine
from rocwmma_py.cuda import (
    SharedArray,
    __global__,
    __shared__,
    __syncthreads,
    blockDim,
    blockIdx,
    float4,
    int4,
    make_int4,
    threadIdx,
    wmma,
)

ENGINES = ["batch", "wave"]
ARCHES = ["gfx942", "gfx1100"]


def run_both(launch):
    """Run `launch()` on each engine and return the results (which must agree)."""
    results = []
    for engine in ENGINES:
        with use_engine(engine):
            results.append(launch())
    return results


# --- 2-D __shared__ ------------------------------------------------------------------------

@__global__
def transpose_through_shared(src, dst, n):
    tile = __shared__(np.float32, 8, 16)          # __shared__ float tile[8][16]
    t = threadIdx.x + blockDim.x * threadIdx.y    # 128 threads: tile position t
    r, c = t // 16, t % 16
    base = blockIdx.x * 128
    tile[r][c] = src[base + t]                    # C's tile[r][c]
    __syncthreads()
    flat = c * 8 + r                              # read the transposed position
    dst[base + t] = tile[flat // 16, flat % 16] + tile[0][0] * 0


@pytest.mark.parametrize("arch", ARCHES)
def test_two_dimensional_shared_indexing(arch):
    def launch():
        src = np.arange(512, dtype=np.float32)
        dst = np.zeros(512, np.float32)
        transpose_through_shared[4, (16, 8), 0, arch](src, dst, 512)
        return dst
    batch, wave = run_both(launch)
    t = np.arange(128)
    flat = (t % 16) * 8 + t // 16
    want = (np.arange(4)[:, None] * 128 + flat[None, :]).reshape(-1).astype(np.float32)
    np.testing.assert_array_equal(batch, want)
    np.testing.assert_array_equal(wave, want)


def test_shared_rows_are_pointers_and_whole_rows_cannot_be_assigned():
    seen = {}

    @__global__
    def probe(out):
        tile = __shared__(np.int32, 8, 8)
        seen["row"] = tile[2]
        seen["flat"] = tile + 3
        tile[threadIdx.x // 8][threadIdx.x % 8] = threadIdx.x
        out[threadIdx.x] = (tile[2] + 1)[threadIdx.x % 4]   # row 2 decays to a pointer
        with pytest.raises(TypeError, match="whole row"):
            tile[1] = 5
        with pytest.raises(IndexError, match="at most 2 indices"):
            tile[1, 2, 3]

    out = np.zeros(64, np.int32)
    probe[1, 64, 0, "gfx942"](out)
    assert isinstance(seen["row"], SharedArray) and seen["row"].shape == (8,)
    assert type(seen["flat"]).__name__ == "Pointer" and seen["flat"].offset == 3
    np.testing.assert_array_equal(out, 17 + np.arange(64) % 4)


# --- extern __shared__ ---------------------------------------------------------------------

@__global__
def reverse_in_dynamic_shared(src, dst):
    sh = __shared__.extern(np.int32)             # extern __shared__ int sh[];
    i = threadIdx.x
    n = blockDim.x
    sh[i] = src[blockIdx.x * n + i]
    __syncthreads()
    dst[blockIdx.x * n + i] = sh[n - 1 - i]


@pytest.mark.parametrize("arch", ARCHES)
def test_extern_shared_is_the_launch_sized_region(arch):
    wave = get_arch(arch).wave_size
    n = 2 * wave

    def launch():
        src = np.arange(3 * n, dtype=np.int32)
        dst = np.zeros(3 * n, np.int32)
        reverse_in_dynamic_shared[3, n, n * 4, arch](src, dst)
        return dst
    for got in run_both(launch):
        np.testing.assert_array_equal(got, np.arange(3 * n).reshape(3, n)[:, ::-1].reshape(-1))
    for engine in ENGINES:            # too few bytes: the read past the region is refused
        with use_engine(engine), pytest.raises(OutOfBoundsError, match="lds.dynamic"):
            reverse_in_dynamic_shared[1, n, n * 2, arch](np.arange(n, dtype=np.int32),
                                                        np.zeros(n, np.int32))


# --- int4 / float4 16-byte copies ----------------------------------------------------------

@__global__
def copy_int4(src, dst, order):
    i = blockIdx.x * blockDim.x + threadIdx.x
    v = (src + 4 * order[i]).cast(int4)[0]        # *reinterpret_cast<const int4*>(...)
    (dst + 4 * i).cast(int4)[0] = v
    dst[4 * 1024 + i] = v["z"]                    # a field of the per-lane struct


@pytest.mark.parametrize("arch", ARCHES)
def test_int4_copies_move_sixteen_bytes_per_lane(arch):
    order = np.random.default_rng(3).permutation(256).astype(np.int32)

    def launch():
        src = np.arange(1024, dtype=np.int32) * 7
        dst = np.zeros(4 * 1024 + 256, np.int32)
        copy_int4[4, 64, 0, arch](src, dst, order)
        return dst
    for got in run_both(launch):
        want = (np.arange(1024) * 7).reshape(256, 4)[order]
        np.testing.assert_array_equal(got[:1024].reshape(256, 4), want)
        np.testing.assert_array_equal(got[4096:], want[:, 2])


@__global__
def stage_float4_in_shared(src, dst):
    tile = __shared__(np.float32, 4, 64)          # 4 rows of 64 floats
    r, q = threadIdx.x // 16, threadIdx.x % 16    # 64 lanes: each moves one float4
    (tile[r] + 4 * q).cast(float4)[0] = (src + 4 * threadIdx.x).cast(float4)[0]
    __syncthreads()
    dst[threadIdx.x] = tile[3 - r][4 * q + 1]


def test_float4_into_shared_rows_and_alignment():
    def launch():
        src = np.arange(256, dtype=np.float32)
        dst = np.zeros(64, np.float32)
        stage_float4_in_shared[1, 64, 0, "gfx942"](src, dst)
        return dst
    for got in run_both(launch):
        t = np.arange(64)
        np.testing.assert_array_equal(got, (3 - t // 16) * 64 + 4 * (t % 16) + 1)

    @__global__
    def misaligned(src):
        (src + 2).cast(int4)[0]

    with pytest.raises(ValueError, match="multiple of 16"):
        misaligned[1, 64, 0, "gfx942"](np.zeros(64, np.int32))


def test_make_int4_fields():
    v = make_int4(1, 2, np.arange(3), 4)
    assert v.dtype == int4 and v.shape == (3,) and v["z"].tolist() == [0, 1, 2]
    assert int4.itemsize == 16 and float4.names == ("x", "y", "z", "w")
    with pytest.raises(TypeError, match="4 values"):
        make_int4(1, 2)


# --- wmma.mma_sync with mixed C/D float types ----------------------------------------------

FragA = wmma.fragment[wmma.matrix_a, 16, 16, 16, wmma.half, wmma.row_major]
FragB = wmma.fragment[wmma.matrix_b, 16, 16, 16, wmma.half, wmma.col_major]
AccF = wmma.fragment[wmma.accumulator, 16, 16, 16, float]
AccH = wmma.fragment[wmma.accumulator, 16, 16, 16, wmma.half]


@__global__
def mixed_mma(a, b, c, d, d_type_is_float, c_type_is_float):
    fa, fb = FragA(), FragB()
    fc = AccF() if c_type_is_float else AccH()
    fd = AccF() if d_type_is_float else AccH()
    wmma.load_matrix_sync(fa, a, 16)
    wmma.load_matrix_sync(fb, b, 16)
    wmma.load_matrix_sync(fc, c, 16, wmma.mem_row_major)
    wmma.mma_sync(fd, fa, fb, fc)
    wmma.store_matrix_sync(d, fd, 16, wmma.mem_row_major)


@pytest.mark.parametrize("arch", ARCHES)
def test_float_d_with_half_c_widens_c_exactly(arch):
    rng = np.random.default_rng(11)
    a = rng.standard_normal((16, 16)).astype(np.float16)
    b = rng.standard_normal((16, 16)).astype(np.float16)
    c16 = (rng.standard_normal((16, 16)) * 100).astype(np.float16)
    wave = get_arch(arch).wave_size

    def launch(c, d_float, c_float):
        d = np.zeros((16, 16), np.float32 if d_float else np.float16)
        mixed_mma[1, wave, 0, arch](a, b.T.copy(), c, d, d_float, c_float)
        return d
    for engine in ENGINES:
        with use_engine(engine):
            mixed = launch(c16, True, False)
            same_as_f32_c = launch(c16.astype(np.float32), True, True)
            half_d = launch(c16.astype(np.float32), False, True)
        np.testing.assert_array_equal(mixed.view(np.uint32), same_as_f32_c.view(np.uint32))
        np.testing.assert_array_equal(half_d, same_as_f32_c.astype(np.float16))
    # small integers: every sum exact, so D is C + A @ B exactly
    ai, bi = (rng.integers(-3, 4, (16, 16)).astype(np.float16) for _ in range(2))
    ci = rng.integers(-50, 50, (16, 16)).astype(np.float16)
    d = np.zeros((16, 16), np.float32)
    mixed_mma[1, wave, 0, arch](ai, bi.T.copy(), ci, d, True, False)
    np.testing.assert_array_equal(d, ci.astype(np.float64) + ai.astype(np.float64) @ bi)


def test_mma_sync_still_refuses_foreign_accumulators():
    int_acc = wmma.fragment[wmma.accumulator, 16, 16, 16, int]

    @__global__
    def bad():
        fa, fb, fc = FragA(), FragB(), AccF()
        wmma.mma_sync(int_acc(), fa, fb, fc)

    with pytest.raises(FragmentError, match="accumulate into f32/f16, not D of i32"):
        bad[1, 64, 0, "gfx942"]()
