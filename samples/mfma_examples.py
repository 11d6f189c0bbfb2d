"""AMD lab notes "AMD matrix cores", examples 1-3, on one wave64 of CDNA.

1. __builtin_amdgcn_mfma_f32_16x16x4f32: D (16x16) = A (16x4) * B (4x16), one block.
2. __builtin_amdgcn_mfma_f32_16x16x1f32: four independent 16x16x1 products (4 blocks).
3. __builtin_amdgcn_mfma_f64_4x4x4f64: four independent 4x4x4 f64 products (4 blocks);
   the blog gives only the register layout, so the kernel is written from it:
   A[b][i][k] in lane i + 4b + 16k, B[b][k][j] in lane j + 4b + 16k,
   C/D[b][i][j] in lane j + 4b + 16i, one f64 per lane.

Every kernel is launched like the blog's: grid (1, 1, 1), block (16, 4, 1).

    rocwmma-sample mfma_examples [--arch gfx942] [--print]
"""

from __future__ import annotations

if not __package__:  # run as a file, `python samples/X.py`: run as its module instead
    __import__("_script").run_as_module(__file__)

from collections.abc import Sequence

import numpy as np

from rocwmma_py import amdgcn, float32, float64, kernel, threadIdx, use_arch, wave_size
from rocwmma_py.runtime import float4, floatx16

from .common import parse_args, validate

BUILTINS = ("mfma_f32_16x16x4f32", "mfma_f32_16x16x1f32", "mfma_f64_4x4x4f64")


# -- Example 1: V_MFMA_F32_16x16x4F32 ---------------------------------------------------------

@kernel
def sgemm_16x16x4(A, B, D):
    N, K = 16, 4  # #define M 16, N 16, K 4 (the kernel never uses M)
    dmn = float4()  # float4 dmn = {0};

    mk = threadIdx.y + K * threadIdx.x
    kn = threadIdx.x + N * threadIdx.y

    amk = A[mk]
    bkn = B[kn]
    dmn = amdgcn.mfma_f32_16x16x4f32(amk, bkn, dmn, 0, 0, 0)

    for i in range(4):
        idx = threadIdx.x + i * N + threadIdx.y * 4 * N
        D[idx] = dmn[i]


# -- Example 2: V_MFMA_F32_16x16x1F32, 4 blocks -----------------------------------------------

@kernel
def sgemm_16x16x1(A, B, D):
    M, N, K = 16, 16, 1  # #define M 16, N 16, K 1
    dmnl = floatx16()  # float16 dmnl = {0}; (16 x float, not half)

    mkl = K * threadIdx.x + M * K * threadIdx.y
    knl = threadIdx.x + N * K * threadIdx.y

    amkl = A[mkl]
    bknl = B[knl]

    dmnl = amdgcn.mfma_f32_16x16x1f32(amkl, bknl, dmnl, 0, 0, 0)

    for l in range(4):  # noqa: E741 (the blog's name)
        for i in range(4):
            idx = threadIdx.x + i * N + threadIdx.y * 4 * N + l * M * N
            # The blog stores dmnl[i] here, which writes block 0 into all four outputs;
            # block l's four values are registers 4l..4l+3.
            D[idx] = dmnl[4 * l + i]


# -- Example 3: V_MFMA_F64_4x4x4F64, 4 blocks (written from the blog's register layout) --------

@kernel
def dgemm_4x4x4(A, B, D):
    M, N, K = 4, 4, 4  # each of the 4 blocks: A_b (MxK), B_b (KxN), D_b (MxN), row-major
    dmnb = np.zeros(wave_size(), float64)  # double dmnb = 0.0; (one f64 per lane)

    # lane = threadIdx.x + 16 * threadIdx.y = (x % 4) + 4 * (x / 4) + 16 * y
    blk = threadIdx.x // M  # block b = (lane / 4) % 4
    mkb = K * (threadIdx.x % M) + threadIdx.y + M * K * blk  # A[b][i = x % 4][k = y]
    knb = (threadIdx.x % N) + N * threadIdx.y + K * N * blk  # B[b][k = y][j = x % 4]

    amkb = A[mkb]
    bknb = B[knb]

    dmnb = amdgcn.mfma_f64_4x4x4f64(amkb, bknb, dmnb, 0, 0, 0)

    idx = (threadIdx.x % N) + N * threadIdx.y + M * N * blk  # D[b][i = y][j = x % 4]
    D[idx] = dmnb


# -- host ---------------------------------------------------------------------------------------

def run_example1(a: np.ndarray, b: np.ndarray, arch: str = "gfx942") -> np.ndarray:
    """a: 16x4, b: 4x16 (f32, row-major); returns D = a @ b (16x16)."""
    d_A = np.ascontiguousarray(a, dtype=float32).reshape(-1)
    d_B = np.ascontiguousarray(b, dtype=float32).reshape(-1)
    d_D = np.zeros(16 * 16, dtype=float32)
    with use_arch(arch):
        sgemm_16x16x4[(1, 1, 1), (16, 4, 1)](d_A, d_B, d_D)
    return d_D.reshape(16, 16)


def run_example2(a: np.ndarray, b: np.ndarray, arch: str = "gfx942") -> np.ndarray:
    """a: 4 blocks of 16x1, b: 4 blocks of 1x16 (f32); returns D: 4 blocks of 16x16."""
    d_A = np.ascontiguousarray(a, dtype=float32).reshape(-1)
    d_B = np.ascontiguousarray(b, dtype=float32).reshape(-1)
    d_D = np.zeros(4 * 16 * 16, dtype=float32)
    with use_arch(arch):
        sgemm_16x16x1[(1, 1, 1), (16, 4, 1)](d_A, d_B, d_D)
    return d_D.reshape(4, 16, 16)


def run_example3(a: np.ndarray, b: np.ndarray, arch: str = "gfx942") -> np.ndarray:
    """a, b: 4 blocks of 4x4 (f64); returns D: 4 blocks of 4x4."""
    d_A = np.ascontiguousarray(a, dtype=float64).reshape(-1)
    d_B = np.ascontiguousarray(b, dtype=float64).reshape(-1)
    d_D = np.zeros(4 * 4 * 4, dtype=float64)
    with use_arch(arch):
        dgemm_4x4x4[(1, 1, 1), (16, 4, 1)](d_A, d_B, d_D)
    return d_D.reshape(4, 4, 4)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv, __doc__, "gfx942", BUILTINS, seed=2022)
    print(f"AMD matrix cores lab notes, examples 1-3 on {args.arch} (one wave64, block 16x4)")
    rng = np.random.default_rng(args.seed)

    def ints(*shape):
        return rng.integers(-8, 9, size=shape)

    examples = [
        ("example 1: mfma_f32_16x16x4f32", run_example1, ints(16, 4), ints(4, 16)),
        ("example 2: mfma_f32_16x16x1f32 (4 blocks)", run_example2, ints(4, 16, 1),
         ints(4, 1, 16)),
        ("example 3: mfma_f64_4x4x4f64 (4 blocks)", run_example3, ints(4, 4, 4), ints(4, 4, 4)),
    ]
    ok = True
    for name, run, a, b in examples:
        d = run(a, b, args.arch)
        if args.show:
            print(d)
        # exact: small integers, so every f32/f64 product and sum is representable
        ok &= validate(name, d, np.matmul(a.astype(np.float64), b.astype(np.float64)))
    print("PASSED" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
