"""CUDA's 1-D `__shared__ T x[n]` and scalar `__shared__ T x;` (`__shared__(T, n)`,
`__shared__(T, 1)` read and written as x[0])."""

import numpy as np
import pytest

from rocwmma_py.cuda import SharedArray, __global__, __shared__, __syncthreads, atomicAdd, threadIdx
from rocwmma_py.errors import ElementIndexError
from rocwmma_py.runtime import where


@__global__
def _reverse(src, dst):
    row = __shared__(np.float32, 64)  # __shared__ float row[64];
    row[threadIdx.x] = src[threadIdx.x]
    __syncthreads()
    dst[threadIdx.x] = row[63 - threadIdx.x]


@__global__
def _scalar(src, out):
    total = __shared__(int, 1)  # __shared__ int total;
    with where(threadIdx.x == 0):  # if (threadIdx.x == 0) total = 7;
        total[0] = 7
    __syncthreads()
    atomicAdd(total, src[threadIdx.x])
    __syncthreads()
    out[threadIdx.x] = total[0]


@pytest.mark.parametrize("arch, wave", [("gfx942", 64), ("gfx1100", 32)])
def test_one_dimensional_array(arch, wave):
    src, dst = np.arange(64, dtype=np.float32), np.zeros(64, np.float32)
    _reverse[1, 64, 0, arch](src, dst)
    assert (dst == src[::-1]).all()


def test_scalar_is_element_zero():
    src, out = np.ones(64, np.int32), np.zeros(64, np.int32)
    _scalar[1, 64, 0, "gfx942"](src, out)
    assert (out == 7 + 64).all()


@__global__
def _shape(out):
    x = __shared__(np.int32, 1)
    out[threadIdx.x] = isinstance(x, SharedArray) and x.shape == (1,)
    x[1] = 0  # past the single element


def test_scalar_has_one_element():
    out = np.zeros(64, np.int32)
    with pytest.raises((ElementIndexError, IndexError)):
        _shape[1, 64, 0, "gfx942"](out)
