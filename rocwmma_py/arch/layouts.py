"""Operand register layouts of the matrix instructions, as index maps.

A layout says, for every lane and every element slot of that lane's operand vector (the
per-lane vector HIP passes to the builtin: element e = bits [e*w, e*w+w) of the lane's
consecutive VGPRs), which matrix element (block, row, col) it holds. Rows/cols are (i, k) for
A, (k, j) for B and (i, j) for C/D. The closed forms are those of the AMD Matrix Instruction
Calculator (shared/reference/amic/README.md, "Closed-form layouts"); tests check every one
against the calculator's dumps.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..errors import InternalError


@dataclass(frozen=True, eq=False)
class OperandLayout:
    """`block/row/col[lane, slot]` of one operand; -1 marks a slot the instruction ignores."""

    block: np.ndarray
    row: np.ndarray
    col: np.ndarray
    bits: int
    shape: tuple[int, int, int]  # (blocks, rows, cols) of the operand matrix

    @property
    def lanes(self) -> int:
        return self.block.shape[0]

    @property
    def slots(self) -> int:
        return self.block.shape[1]

    @cached_property
    def written(self) -> tuple[np.ndarray, ...]:
        """(lane, slot) of every slot the instruction uses, lane-major."""
        return np.nonzero(self.block >= 0)

    @cached_property
    def copies(self) -> np.ndarray:
        """`copies[t, b, r, c]` = flat index lane*slots+slot of the t-th copy (by lane order).

        Only gfx11 A/B hold more than one copy (lane groups of 16 replicate the data).
        """
        used = np.flatnonzero(self.block.ravel() >= 0)
        b, r, c = (a.ravel()[used] for a in (self.block, self.row, self.col))
        key = np.ravel_multi_index((b, r, c), self.shape)
        order = np.lexsort((used, key))  # by element, then by lane
        key, used = key[order], used[order]
        n_elem = int(np.prod(self.shape))
        ncopy = len(key) // n_elem
        if ncopy * n_elem != len(key) or np.any(np.bincount(key, minlength=n_elem) != ncopy):
            raise InternalError("layout does not hold every element equally often")
        return used.reshape(n_elem, ncopy).T.reshape((ncopy, *self.shape))

    def locations(self) -> set[tuple[int, int, int, int, int, int, int]]:
        """Every (block, row, col, lane, vgpr, bit_lo, bit_hi), the calculator's format."""
        lane, slot = np.nonzero(self.block >= 0)
        start = slot * self.bits
        vgpr, lo = start // 32, start % 32
        hi = lo + self.bits - 1
        return set(
            zip(
                *(a.tolist() for a in (self.block[lane, slot], self.row[lane, slot],
                                       self.col[lane, slot], lane, vgpr, lo, hi)),
                strict=True,
            )
        )


def _build(lanes, slots, bits, shape, b, r, c, lane, slot) -> OperandLayout:
    """Scatter element coordinates (b, r, c) to their (lane, slot) positions."""
    maps = [np.full((lanes, slots), -1, dtype=np.int64) for _ in range(3)]
    for m, v in zip(maps, (b, r, c), strict=True):
        m[lane, slot] = v
    return OperandLayout(maps[0], maps[1], maps[2], bits=bits, shape=shape)


def _grid(*sizes):
    return [a.ravel() for a in np.meshgrid(*(np.arange(s) for s in sizes), indexing="ij")]


# --- gfx9 (CDNA) MFMA, wave64 -------------------------------------------------------------


def mfma_input(dim: int, k: int, blocks: int, bits: int, is_b: bool) -> OperandLayout:
    """A (dim = M) or B (dim = N): k-runs of E values per lane, blocks side by side."""
    per_lane = k * dim * blocks // 64
    b, x, kk = _grid(blocks, dim, k)
    lane = x + dim * b + dim * blocks * (kk // per_lane)
    rc = (kk, x) if is_b else (x, kk)
    shape = (blocks, k, dim) if is_b else (blocks, dim, k)
    return _build(64, per_lane, bits, shape, b, *rc, lane, kk % per_lane)


def mfma_acc(m: int, n: int, blocks: int, bits: int) -> OperandLayout:
    """C/D: groups of H rows per register (H = 1 for f64), rows spread over lane groups."""
    h = 1 if bits == 64 else 4
    rows_per_reg = 64 // n
    blocks_per_reg = -(-64 // (m * n // h))
    b, i, j = _grid(blocks, m, n)
    slot = (b // blocks_per_reg) * (m * n * blocks_per_reg // 64) + h * (i // (h * rows_per_reg))
    slot = slot + i % h
    lane = n * (b % blocks_per_reg) + n * blocks_per_reg * ((i // h) % rows_per_reg) + j
    return _build(64, m * n * blocks // 64, bits, (blocks, m, n), b, i, j, lane, slot)


# --- gfx11 (RDNA3) WMMA, 16x16x16 ---------------------------------------------------------


def wmma11_input(wave: int, bits: int, is_b: bool) -> OperandLayout:
    """A row i / B column j with all 16 k in lane i (j), replicated in every 16-lane group."""
    t, x, k = _grid(wave // 16, 16, 16)
    zero = np.zeros_like(k)
    rc = (k, x) if is_b else (x, k)
    return _build(wave, 16, bits, (1, 16, 16), zero, *rc, x + 16 * t, k)


def wmma11_acc(wave: int, bits: int, opsel: int = 0) -> OperandLayout:
    """C/D: row i in register i // G of lane group i % G; 16-bit values use the OPSEL half."""
    groups = wave // 16
    i, j = _grid(16, 16)
    vgpr = i // groups
    per_reg = 32 // bits
    slot = vgpr * per_reg + (1 if opsel and per_reg == 2 else 0)
    return _build(wave, 16 // groups * per_reg, bits, (1, 16, 16), np.zeros_like(i), i, j,
                  j + 16 * (i % groups), slot)


# --- gfx12 (RDNA4) WMMA -------------------------------------------------------------------


def _to_wave64(lay: OperandLayout) -> OperandLayout:
    """Wave64 = wave32 with the upper half of each lane's VGPRs moved to lanes 32-63.

    With a single VGPR per lane the instruction ignores lanes 32-63 instead.
    """
    words = lay.slots * lay.bits // 32
    maps = []
    for m in (lay.block, lay.row, lay.col):
        if words == 1:
            wide = np.concatenate([m, np.full_like(m, -1)])
        else:
            half = lay.slots // 2
            wide = np.concatenate([m[:, :half], m[:, half:]])
        maps.append(wide)
    return OperandLayout(maps[0], maps[1], maps[2], bits=lay.bits, shape=lay.shape)


def wmma12_input(wave: int, k: int, bits: int, is_b: bool) -> OperandLayout:
    """A/B: K split between the two lane halves; 16-bit types alternate chunks of K/4."""
    x, kk = _grid(16, k)
    if bits == 16:
        q = k // 4
        half, slot = (kk // q) % 2, q * (kk // (2 * q)) + kk % q
    else:
        half, slot = kk // (k // 2), kk % (k // 2)
    rc = (kk, x) if is_b else (x, kk)
    shape = (1, k, 16) if is_b else (1, 16, k)
    lay = _build(32, k // 2, bits, shape, np.zeros_like(kk), *rc, x + 16 * half, slot)
    return lay if wave == 32 else _to_wave64(lay)


def wmma12_acc(wave: int, bits: int, rows: int = 16) -> OperandLayout:
    """C/D: rows 0-7 in lanes 0-15, rows 8-15 in lanes 16-31, one row per slot (packed); a
    32-row D (gfx1250 32x16x128_f4) holds rows 16-31 the same way in slots 8-15 (the comgr note
    before `wmma1250_scale_lanes`)."""
    i, j = _grid(rows, 16)
    lay = _build(32, rows // 2, bits, (1, rows, 16), np.zeros_like(i), i, j,
                 j + 16 * (i // 8 % 2), i % 8 + 8 * (i // 16))
    return lay if wave == 32 else _to_wave64(lay)


# --- gfx1250 / gfx1251 (GFX12.5) WMMA, wave32 ---------------------------------------------


def wmma1250_input(k: int, bits: int, is_b: bool, rows: int = 16) -> OperandLayout:
    """A/B: row i (column j) in lanes i and i + 16; K in runs of 128 bits (8 x 16-bit,
    16 x 8-bit, 32 x 4-bit; 2 x 32/64-bit at K = 4) that alternate between the two lane
    halves, run c of a half in the slots after run c - 1; fp6 runs of 32 values (192 bits,
    as fp4's K order). A of 32 rows (32x16x128_f4) is two 16-row A's, rows 16-31 in the slots
    after.

    Source: ROCm/rocm-libraries @ 0149199e2afacfb649606a0a15ae418985d10732,
    projects/composablekernel/include/ck_tile/ops/gemm/warp/
    warp_gemm_attribute_wmma_impl_base_traits.hpp (`LayoutFromDataType`, used by the gfx1250
    `WmmaTraits<gfx125_t, ...>`): kKLane 2 lane halves; kK1PerLane 8 for 16-bit types, 16 for
    fp8/bf8 at K = 64 and in the f8f6f4 K = 128 layout, 2 for fp32/fp64 (K = 4); kK0PerLane
    runs = K / (2 kK1PerLane). Two CK defaults disagree with that 128-bit rule (i8 K = 64 and
    non-f8f6f4 fp8 K = 128 fall to kK1PerLane 8): the 128-bit run is followed for them (see
    docs/guide/matrix-cores.md). Operand sizes from LLVM BuiltinsAMDGPU.td @ 008ba4314e76.
    For 16-bit K = 32 this is also RDNA4's calculator formula (`wmma12_input`, runs of K/4).
    Sparse A (SWMMAC) is this map at the stored K/2 [inferred, as on gfx12].
    MX formats (f8f6f4): fp4 K = 128 runs of 32 (`LayoutFromNon8BitMixPrec` kK1PerLane 32,
    kK0PerLane 2, same file @ 56e5c784e0951bd326781c09ee1e0d2ab7a0a299). The register tables
    of CK's gfx1250 MX WMMA test (ROCm/composable_kernel @
    e02c566795e4e00d3ee03f2a75f44d72e6da5754, test/mx_wmma_op/mx_wmma_op.hpp,
    `load_A_row_major`): fp8 VGPRs 0-3 K 0-15 (lanes 0-15) / K 16-31 (lanes 16-31), ...;
    fp6 VGPRs 0-5 K 0-31 / 32-63, 6-11 K 64-95 / 96-127; fp4 VGPRs 0-3 K 0-31 / 32-63, 4-7
    K 64-95 / 96-127. A/B take 16, 12, 8 VGPRs for fp8, fp6, fp4 (LLVM's AMDGPU verifier for
    amdgcn_wmma_*_f8f6f4, `getFormatNumRegs`). The 32-row A: the comgr note before
    `wmma1250_scale_lanes`.
    """
    run = min(32 if bits == 6 else 128 // bits, k // 2)
    if k % (2 * run):
        raise InternalError(f"GFX12.5 WMMA operand K={k} is not a whole number of runs")
    x, kk = _grid(rows, k)
    half, slot = (kk // run) % 2, run * (kk // (2 * run)) + kk % run + k // 2 * (x // 16)
    rc = (kk, x) if is_b else (x, kk)
    shape = (1, k, rows) if is_b else (1, rows, k)
    return _build(32, k // 2 * (rows // 16), bits, shape, np.zeros_like(kk), *rc,
                  x % 16 + 16 * half, slot)


# gfx1250 32x16x128_f4: A v[a:a+7] holds rows 0-15 and v[a+8:a+15] rows 16-31, each as the
# 16x16x128 fp4 A; D v[d:d+7] rows 0-15, v[d+8:d+15] rows 16-31; B is the 16x16x128 fp4 B.
# Source: ROCm/llvm-project @ 1dce48db3438ee728995f213ea412613104b8e95,
# amd/comgr/src/comgr-hotswap-patch-wmma-scale16.cpp (`patchWmmaScale16_32x16`, which splits
# the instruction into two v_wmma_scale_f32_16x16x128_f8f6f4 along M on those registers).


def wmma1250_scale_lanes(rows: int, k: int, block: int,
                         sel: int) -> tuple[np.ndarray, np.ndarray]:
    """(lane, byte) of the scale of every element (x, k) of A (x = row) or B (x = column),
    each (rows, k): lane x + 16*sel (a 32-row A: lane x, both halves), byte k // block of
    the lane's 32-bit (block 32) or 64-bit (block 16) scale operand.

    Sources: CK's MX WMMA test (`wmma1250_input`; `load_mx_A_row_major`: row x's scales
    Scale[0-3] (block 32) or Scale[0-7] (block 16) in K order in lane x + 16 for A, x for B);
    ROCm/rocm-libraries @ 97b26eaeef57d5fe63b5cd18e2229f861d6c8453,
    projects/composablekernel/include/ck_tile/ops/gemm/warp/
    warp_gemm_attribute_wmma_impl_8bit_traits.hpp (32x32 scale16 traits: "lane L already
    holds row L's K-scales", SCALE_OPSEL 0 -> lanes 0..15, 1 -> lanes 16..31); LLVM PR
    llvm/llvm-project#169854 (mlir AMDGPU.td scaled WMMA: 16x16x128 scales in half a VGPR
    picked by the first-scale-lane index, a 32-row A's 128 scales in the full VGPR); byte
    order: the comgr file of the note above (`emitScaleReduction`: block-16 bytes 2j, 2j+1 of
    the 64-bit scale reduce to block-32 byte j, bytes 0-3 in the low VGPR).
    """
    x, kk = _grid(rows, k)
    lane = x if rows == 32 else x + 16 * sel
    return lane.reshape(rows, k), (kk // block).reshape(rows, k)


# --- gfx9 operand modifiers ---------------------------------------------------------------


def blgp_source_lanes(blgp: int) -> np.ndarray:
    """Lane whose B registers lane L reads under BLGP (seed 004; amic README)."""
    lane = np.arange(64)
    if blgp == 0:
        return lane
    if blgp == 1:
        return lane % 32
    if blgp == 2:
        return 32 + lane % 32
    if blgp == 3:
        return (lane + 16) % 64
    return 16 * (blgp - 4) + lane % 16


def broadcast_blocks(blocks: int, cbsz: int, abid: int) -> np.ndarray:
    """A block each compute block reads under CBSZ/ABID: b' = (b >> CBSZ << CBSZ) + ABID."""
    b = np.arange(blocks)
    return (b >> cbsz << cbsz) + abid
