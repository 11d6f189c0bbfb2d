# mypy: check-untyped-defs
"""A user's script written like the README examples, for mypy (tests/test_typing.py).

Not collected by pytest (no `test_` prefix); it also runs as a plain script, so every line
type-checks *and* works. Covers fragments, load/store/mma_sync, kernels and launches with
their parameters kept (`Kernel[P]`), the amdgcn builtins (from the generated stub), the
cross-lane builtins, use_arch / use_engine, the HIP warp functions and atomics.
"""

from __future__ import annotations

import numpy as np

from rocwmma_py import (
    __ballot,
    __shfl_xor,
    accumulator,
    amdgcn,
    atomicAdd,
    atomicMax,
    blockDim,
    blockIdx,
    col_major,
    fill_fragment,
    float16,
    float32,
    float32_t,
    fragment,
    kernel,
    load_matrix_sync,
    matrix_a,
    matrix_b,
    mem_row_major,
    mma_sync,
    row_major,
    select,
    shared_array,
    store_matrix_sync,
    synchronize_workgroup,
    threadIdx,
    use_arch,
    use_engine,
    vector_type,
    wave_size,
    where,
)

FragA = fragment[matrix_a, 16, 16, 16, float16, row_major]
FragB = fragment[matrix_b, 16, 16, 16, float16, col_major]
FragC = fragment[accumulator, 16, 16, 16, float16]
FragAcc = fragment[accumulator, 16, 16, 16, float32]


@kernel
def gemm_16(a, b, c, d, alpha: float32_t, beta: float32_t):
    """One wave computes D = alpha * A @ B + beta * C for one 16x16x16 tile."""
    frag_a, frag_b, frag_c, frag_acc = FragA(), FragB(), FragC(), FragAcc()
    fill_fragment(frag_acc, 0.0)
    load_matrix_sync(frag_a, a, 16)
    load_matrix_sync(frag_b, b, 16)
    mma_sync(frag_acc, frag_a, frag_b, frag_acc)
    load_matrix_sync(frag_c, c, 16, mem_row_major)
    frag_c.x[:] = alpha * frag_acc.x + beta * frag_c.x
    store_matrix_sync(d, frag_c, 16, mem_row_major)


@kernel
def lower_triangle(src, dst, n: int):
    row, col = threadIdx.y, threadIdx.x
    with where(row > col):
        dst[row * n + col] = src[row * n + col]


@kernel
def sums_and_atomics(src, dst, bins, peak):
    i = blockIdx.x * blockDim.x + threadIdx.x
    v = src[i]
    offset = wave_size() // 2
    while offset > 0:
        v = v + __shfl_xor(v, offset)
        offset //= 2
    dst[i] = v
    atomicAdd(bins + src[i] % 8, 1)
    atomicMax(peak + 0, src[i])
    odd = __ballot(threadIdx.x % 2 == 1)
    dst[i] = select(odd != 0, dst[i], 0)


@kernel
def builtins(a_in, d_out):
    lane = threadIdx.x
    a = a_in[lane]
    d = amdgcn.mfma_f32_16x16x4f32(a, a, np.zeros((64, 4), np.float32), 0, 0, 0)
    first = amdgcn.readfirstlane(a)
    moved = amdgcn.mov_dpp(a, 0x111, 0xF, 0xF, True)      # row_shr:1
    tile = shared_array(np.float32, 64)
    tile[lane] = moved + first
    synchronize_workgroup()
    half4 = vector_type(np.float16, 4)
    regs = half4()
    regs[0] = tile[63 - lane]
    d_out[lane] = d[:, 0] + regs[0]


def main() -> None:
    rng = np.random.default_rng(0)
    a = rng.integers(-3, 4, (16, 16)).astype(np.float16)
    b = np.asfortranarray(rng.integers(-3, 4, (16, 16)).astype(np.float16))
    c = rng.integers(-3, 4, (16, 16)).astype(np.float16)
    d = np.zeros_like(c)
    for arch in ("gfx942", "gfx1100"):
        gemm_16[1, wave_size_of(arch), 0, arch](a, np.ascontiguousarray(b.T), c, d,
                                                np.float32(2.0), np.float32(1.0))
        assert (d == 2 * (a.astype(np.float32) @ b.astype(np.float32)) + c).all()

    src, dst = np.arange(64.0), np.zeros(64)
    with use_engine("wave"):
        lower_triangle[1, (8, 8), 0, "gfx1100"](src, dst, 8)
    assert (dst.reshape(8, 8) == np.tril(src.reshape(8, 8), -1)).all()

    data, sums = np.arange(128, dtype=np.int32), np.zeros(128, np.int32)
    bins, peak = np.zeros(8, np.int32), np.zeros(1, np.int32)
    sums_and_atomics[2, 64].checked(racecheck=False)(data, sums, bins, peak)
    assert (bins == np.bincount(data % 8, minlength=8)).all() and peak[0] == 127

    with use_arch("gfx942"):
        instr = amdgcn.instruction("mfma_f32_16x16x4f32")
        assert (instr.m, instr.n, instr.k) == (16, 16, 4)
        out = np.zeros(64, np.float32)
        builtins[1, 64](np.arange(64, dtype=np.float32), out)
    lane = np.arange(32) % 16
    a_regs, b_regs = a[lane, :], np.eye(16, dtype=np.float16)[:, lane].T
    with use_arch("gfx1100"):
        c_regs = amdgcn.wmma_f16_16x16x16_f16_w32(a_regs, b_regs,
                                                  np.zeros((32, 16), np.float16), False)
    rows = 2 * np.arange(8)[None, :] + np.arange(32)[:, None] // 16
    assert (c_regs[:, ::2] == a[rows, lane[:, None]]).all()


def wave_size_of(arch: str) -> int:
    return 64 if arch.startswith("gfx9") else 32


if __name__ == "__main__":
    main()
