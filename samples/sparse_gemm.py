"""4:2 structured-sparse f16 GEMM: D = A x B + C with A pruned to 2 non-zeros in every group
of 4 along K, f16 inputs, f32 C and D, written with the sparse matrix builtins the way
Composable Kernel and MLIR use them (rocWMMA has no sparse API):
__builtin_amdgcn_smfmac_f32_16x16x32_f16 (gfx942, gfx950) and
__builtin_amdgcn_swmmac_f32_16x16x32_f16_w32 (gfx1200, gfx1201).

Host: A is pruned by magnitude (the 2 largest |a| of every 4 kept, a common pruning rule) and
compressed with rocwmma_py.sparse.compress_4to2 into values (M x K/2, f16) and 2-bit positions
(M x K/2, uint8), both in global memory. Kernel: one wave per 16x16 tile of D, looping over K
32 at a time (the instruction's dense K, 16 stored values); each lane loads its stored A
values, their positions (packed into the index word, 2 bits per value) and its B values at
addresses from closed-form lane formulas, then D is stored per the C/D layout. Validated
against float64 numpy on the decompressed (pruned) A, within the error bound of the
kernel's K/32 f32 roundings (one per 32-K step). Reports the effective (dense-equivalent)
2*M*N*K FLOPs and the peak model of the sparse instructions next to the dense 16x16x16 ones
the same K needs (twice as many).

    rocwmma-sample sparse_gemm [--arch gfx1201] [-m 128 -n 128 -k 256] [--seed 0]
    python -m rocwmma_py.samples.sparse_gemm --arch gfx942

Exit status: 0 PASSED, 1 FAILED, 2 refused (M, N not multiples of 16 or K of 32).
"""

from __future__ import annotations

if not __package__:  # run as a file, `python samples/X.py`: run as its module instead
    __import__("_script").run_as_module(__file__)

import contextlib
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from rocwmma_py import (
    amdgcn,
    blockIdx,
    current_arch,
    float16,
    float32,
    get_arch,
    kernel,
    lane_id,
    vector_type,
)
from rocwmma_py.runtime import float4, floatx8, half4, half8, half16
from rocwmma_py.sparse import Compressed, compress_4to2, decompress

from . import common

TILE = 16  # M = N of both instructions
K_STEP = 32  # dense K of one sparse instruction (16 stored A values per row)
uchar4, uchar8 = vector_type(np.uint8, 4), vector_type(np.uint8, 8)


# -- lane -> element formulas, as a HIP kernel hard-codes them ---------------------------------
# (lane, e) -> (row, col) of element e of the lane's register vector (lane: per-lane ids), the
# layouts AMD's Matrix Instruction Calculator prints; tests/test_samples.py checks them against
# amdgcn.instruction(builtin, arch).a_layout / b_layout / c_layout(). A's col is the compressed
# column: the stored value number, 0..15 per 32 dense K (A is laid out as the dense A of the
# half-K instruction).

def cdna_a(lane, e):
    """smfmac 16x16x32 A (half4): lane i + 16q holds stored values 4q..4q+3 of row i."""
    return lane % 16, 4 * (lane // 16) + e


def cdna_b(lane, e):
    """B (half8): lane j + 16q holds k = 8q..8q+7 of column j."""
    return 8 * (lane // 16) + e, lane % 16


def cdna_c(lane, e):
    """C/D (float4): lane j + 16q holds rows 4q..4q+3 of column j."""
    return 4 * (lane // 16) + e, lane % 16


def rdna4_a(lane, e):
    """swmmac 16x16x32 A (half8): lane i + 16h holds stored values 4h..4h+3 and 8+4h..8+4h+3
    of row i (the dense 16x16x16 A layout with compressed columns in place of K)."""
    return lane % 16, 4 * (lane // 16) + 8 * (e // 4) + e % 4


def rdna4_b(lane, e):
    """B (half16): lane j + 16h holds k = 8h..8h+7 and 16+8h..16+8h+7 of column j."""
    return 8 * (lane // 16) + 16 * (e // 8) + e % 8, lane % 16


def rdna4_c(lane, e):
    """C/D (float8): lane j + 16h holds rows 8h..8h+7 of column j."""
    return 8 * (lane // 16) + e, lane % 16


@dataclass(frozen=True)
class Target:
    """What the kernel hard-codes per target family (#if defined(__gfx12__) in HIP): the
    builtin, its register vector types and lane formulas, and the dense builtin it halves."""

    sparse: str
    dense: str
    a_t: type
    idx_t: type
    b_t: type
    c_t: type
    a_map: Callable
    b_map: Callable
    c_map: Callable


TARGETS = {
    "gfx9": Target("smfmac_f32_16x16x32_f16", "mfma_f32_16x16x16f16",
                   half4, uchar4, half8, float4, cdna_a, cdna_b, cdna_c),
    "gfx12": Target("swmmac_f32_16x16x32_f16_w32", "wmma_f32_16x16x16_f16_w32_gfx12",
                    half8, uchar8, half16, floatx8, rdna4_a, rdna4_b, rdna4_c),
}


def pack_index(positions):
    """The index word of each lane (index set 0): the 2-bit position of the lane's stored
    value e at bits 2e+1:2e. `positions`: a uchar vector (element e = value e's position)."""
    shift = 2 * np.arange(positions.n, dtype=np.int32)
    return (positions.regs.astype(np.int32) << shift).sum(axis=-1, dtype=np.int32)


@kernel
def sparse_gemm(a_values, a_index, b, c, d, n, k):
    """Block (x, y), one wave, computes the 16x16 tile (y, x) of D = A x B + C: A's values
    and positions row-major M x K/2, B row-major K x N, C and D row-major M x N."""
    family = current_arch().family
    t = TARGETS[family]
    lane = lane_id()
    row0, col0 = blockIdx.y * TILE, blockIdx.x * TILE

    acc = t.c_t()
    for e in range(t.c_t.n):  # the f32 accumulator starts as C
        i, j = t.c_map(lane, e)
        acc[e] = c[(row0 + i) * n + col0 + j]

    a_frag, positions, b_frag = t.a_t(), t.idx_t(), t.b_t()
    for k0 in range(0, k, K_STEP):
        for e in range(t.a_t.n):  # this lane's stored A values and where each sat
            i, kk = t.a_map(lane, e)
            a_frag[e] = a_values[(row0 + i) * (k // 2) + k0 // 2 + kk]
            positions[e] = a_index[(row0 + i) * (k // 2) + k0 // 2 + kk]
        index = pack_index(positions)
        for e in range(t.b_t.n):
            kb, j = t.b_map(lane, e)
            b_frag[e] = b[(k0 + kb) * n + col0 + j]
        if family == "gfx9":
            acc = amdgcn.smfmac_f32_16x16x32_f16(a_frag, b_frag, acc, index, 0, 0)
        else:
            acc = amdgcn.swmmac_f32_16x16x32_f16_w32(a_frag, b_frag, acc, index)

    for e in range(t.c_t.n):
        i, j = t.c_map(lane, e)
        d[(row0 + i) * n + col0 + j] = acc[e]


# -- host ------------------------------------------------------------------------------------

def prune_4to2(a: np.ndarray) -> np.ndarray:
    """Magnitude pruning: keep the 2 largest |a| of every 4 consecutive K values, zero the rest."""
    groups = a.reshape(a.shape[0], -1, 4)
    drop = np.argsort(np.abs(groups), axis=-1, kind="stable")[..., :2]
    pruned = groups.copy()
    np.put_along_axis(pruned, drop, 0, axis=-1)
    return pruned.reshape(a.shape)


def launch(arch: str, packed: Compressed, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> None:
    """One wave per 16x16 tile of D on `arch`: grid (N/16, M/16), block one wave."""
    (m, n), k = c.shape, b.shape[0]
    sparse_gemm[(n // TILE, m // TILE), get_arch(arch).wave_size, 0, arch](
        packed.values, packed.indices, b, c, d, n, k)


def run(arch: str, packed: Compressed, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """D = decompress(packed) x B + C computed by the kernel (M x N, f32)."""
    d = np.full(c.shape, np.nan, float32)
    launch(arch, packed, b, c, d)
    return d


def error_bound(a: np.ndarray, b: np.ndarray, c: np.ndarray, steps: int) -> np.ndarray:
    """The kernel rounds to f32 once per 32-K step (exact sum of C and the step's products),
    each rounding off by at most u = 2**-24 of a partial sum bounded by |C| + |A|.|B|:
    gamma(steps) * (|C| + |A|.|B|), plus (K + 1) * 2**-52 of it for the float64 reference
    (its f16 products are exact, its K + 1 additions round)."""
    u, k = 2.0**-24, a.shape[1]
    magnitude = np.abs(c.astype(np.float64)) + np.abs(a.astype(np.float64)) @ np.abs(
        b.astype(np.float64))
    return (steps * u / (1 - steps * u) + (k + 1) * 2.0**-52) * magnitude


def model_line(arch: str, instruction, count: int, m: int, n: int, k: int) -> str:
    """print_perf_model's peak-model line alone, for instructions not run here."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        common.print_perf_model(arch, instruction, count, m, n, k, 1.0, 1)
    return out.getvalue().splitlines()[-1]


def main(argv: Sequence[str] | None = None) -> int:
    archs = [a for t in TARGETS.values() for a in common.arches_with(t.sparse)]
    parser = common.sample_parser(__doc__, {"m": 128, "n": 128, "k": 256}, archs=archs)
    args = parser.parse_args(argv)
    m, n, k, arch = args.m, args.n, args.k, args.arch
    target = TARGETS[get_arch(arch).family]
    print(f"4:2 sparse GEMM {m}x{n}x{k} on {arch}: __builtin_amdgcn_{target.sparse}, "
          f"one wave per {TILE}x{TILE} tile of D = A x B + C (f16 in, f32 C and D)")
    if m % TILE or n % TILE or k % K_STEP:
        print(f"Unsupported size! M and N must be multiples of {TILE}, K of {K_STEP}")
        return common.REFUSED
    rng = np.random.default_rng(args.seed)
    a = prune_4to2(rng.standard_normal((m, k)).astype(float16))
    b = rng.standard_normal((k, n)).astype(float16)
    c = rng.standard_normal((m, n)).astype(float32)
    packed = compress_4to2(a)  # values (m, k/2) f16, indices (m, k/2) uint8
    print(f"A pruned by magnitude to 4:2 (2 largest |a| of every 4 kept) and compressed: "
          f"{m}x{k // 2} f16 values + {m}x{k // 2} positions 0..3 (uint8)")

    d = np.full((m, n), np.nan, float32)
    elapsed_ms = common.timed_ms(lambda: launch(arch, packed, b, c, d))
    a_pruned = decompress(packed)
    ref = a_pruned.astype(np.float64) @ b.astype(np.float64) + c
    error = np.abs(d - ref)
    ok = bool((error <= error_bound(a_pruned, b, c, k // K_STEP)).all())
    print(f"{'PASSED' if ok else 'FAILED'}! (max abs error {float(error.max()):g} vs float64 "
          f"numpy on the pruned A, within the bound of {k // K_STEP} f32 roundings: {ok})")

    sparse, dense = amdgcn.instruction(target.sparse, arch), amdgcn.instruction(target.dense, arch)
    tiles = (m // TILE) * (n // TILE)
    sparse_count, dense_count = tiles * (k // sparse.k), tiles * (k // dense.k)
    print(f"Effective (dense-equivalent) work: 2*M*N*K = {2 * m * n * k} FLOP; "
          f"{sparse_count} sparse instructions (K {sparse.k} each), {dense_count} dense ones "
          f"(K {dense.k}) for the same K")
    common.print_perf_model(arch, sparse, sparse_count, m, n, k, elapsed_ms, 1)
    print("Dense equivalent (not run): " + model_line(arch, dense, dense_count, m, n, k))
    return common.PASSED if ok else common.FAILED


if __name__ == "__main__":
    raise SystemExit(main())
