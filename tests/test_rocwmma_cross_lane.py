"""rocWMMA 2.x test/unit/cross_lane_ops_test, case for case.

Each rocWMMA test file becomes one parametrized test here with the same ops, types (uint32,
uint64), WriteRowMasks (0xF, 0x5, 0xA), WriteBankMasks (0xF, 0x7, 0x3) and BoundCtrls, run
as rocWMMA runs them: one block of warpSize threads, every thread computing its expected
value from threadIdx.x with the test's reference functions (device/*_ops.hpp, translated
per lane below), "prev" = 100. Targets rocWMMA's checkDevice() skips (gfx908: Dpp BCast16;
gfx11/gfx12: Dpp wave shifts/rotates and waterfall broadcasts) must refuse the op instead.
"""

from __future__ import annotations

import numpy as np
import pytest

from rocwmma_py import (
    Blend,
    BlendImpl,
    Dpp,
    DppImpl,
    Permute,
    PermuteImpl,
    Swizzle,
    SwizzleImpl,
    UnsupportedInstructionError,
    kernel,
    use_arch,
)
from rocwmma_py.rocwmma.cross_lane import (
    OP_DIR_L,
    OP_DIR_R,
    OP_ID_BCAST,
    OP_ID_BLOCK_BCAST,
    OP_ID_GATHER,
    OP_ID_REVERSE,
    OP_ID_ROTATE,
    OP_ID_SHIFT,
    OP_ID_SHUFFLE,
    OP_ID_SWAP,
    OP_ID_WFALL_BCAST,
)
from rocwmma_py.runtime import blockDim, threadIdx

ARCHES = {"gfx942": 64, "gfx1100": 32}
TYPES = (np.uint32, np.uint64)
ROW_MASKS, BANK_MASKS, BOUND_CTRLS = (0xF, 0x5, 0xA), (0xF, 0x7, 0x3), (False, True)
PREV = 100  # VALUE_OUT_OF_RANGE


def make_value(dtype, x: int) -> int:
    """makeValueFromU32: the u32 value, or (x << 32) | x for uint64."""
    x &= 0xFFFFFFFF
    return (x << 32) | x if dtype == np.uint64 else x


def run(arch, dtype, outputs, count):
    """Run `outputs(tid)` (an iterable of `count` per-lane results) in one block of warpSize
    threads; returns (count, W) results."""
    wave = ARCHES[arch]
    out = np.zeros(count * wave, dtype)

    @kernel
    def k(dst):
        tid = threadIdx.x
        for c, value in enumerate(outputs(tid)):
            dst[c * blockDim.x + tid] = value

    k[1, wave, 0, arch](out)
    return out.reshape(count, wave)


def lanes_value(dtype, tid):
    v = np.asarray(tid).astype(np.uint64) & np.uint64(0xFFFFFFFF)
    return (v << np.uint64(32) | v).astype(dtype) if dtype == np.uint64 else v.astype(dtype)


# --- device/dpp_ops.hpp references ----------------------------------------------------------

def is_dpp_masked(i, row_mask, bank_mask):
    return bool(row_mask & (1 << ((i >> 4) & 0x3))) and bool(bank_mask & (1 << ((i >> 2) & 0x3)))


def dpp_expect(op, i, bound_ctrl, wave):
    """getDpp*Expect for op's OP_ID (u32 arithmetic as in C++)."""
    g = op.groupSize()
    op_id = op.opId()
    if op_id == OP_ID_BCAST:
        return (i & ~(g - 1)) + op.elementIdx()
    if op_id == OP_ID_REVERSE:
        top = g - 1
        return (i & ~top) | (top - (i & top))
    if op_id == OP_ID_ROTATE:
        after = (i & (g - 1)) + (op.opDist() if op.opDir() == OP_DIR_L else -op.opDist())
        return (i & ~(g - 1)) | ((after + g) & (g - 1))
    if op_id == OP_ID_SHIFT:
        dist = op.opDist()
        moved = (i + (dist if op.opDir() == OP_DIR_L else -dist)) & 0xFFFFFFFF
        after = ((moved & (g - 1)) + (-dist if op.opDir() == OP_DIR_L else dist)) & 0xFFFFFFFF
        return (0 if bound_ctrl else PREV) if after >= g else moved
    if op_id == OP_ID_SHUFFLE:
        selects = [op.select0(), op.select1()] + ([op.select2(), op.select3()] if g == 4 else [])
        return i - (i & (g - 1)) + selects[i & (g - 1)]
    if op_id == OP_ID_SWAP:
        return i ^ g
    if op_id == OP_ID_WFALL_BCAST:
        first = i & (0b110000 if g == 16 else 0b100000)
        return first - 1 if first > 0 else i
    raise AssertionError(op_id)


DPP_TESTS = {
    "dpp_bcast_16": [DppImpl.Ops.BCast16[2], DppImpl.Ops.BCast16[11]],
    "dpp_bcast_2": [DppImpl.Ops.BCast2[0], DppImpl.Ops.BCast2[1]],
    "dpp_bcast_4": [DppImpl.Ops.BCast4[e] for e in range(4)],
    "dpp_reverse_16": [DppImpl.Ops.Reverse16],
    "dpp_reverse_2": [DppImpl.Ops.Reverse2],
    "dpp_reverse_4": [DppImpl.Ops.Reverse4],
    "dpp_reverse_8": [DppImpl.Ops.Reverse8],
    "dpp_rotate_l2": [DppImpl.Ops.RotateL2[0], DppImpl.Ops.RotateL2[1]],
    "dpp_rotate_l4": [DppImpl.Ops.RotateL4[2], DppImpl.Ops.RotateL4[1]],
    "dpp_rotate_r16": [DppImpl.Ops.RotateR16[2], DppImpl.Ops.RotateR16[11]],
    "dpp_rotate_r2": [DppImpl.Ops.RotateR2[0], DppImpl.Ops.RotateR2[1]],
    "dpp_rotate_r4": [DppImpl.Ops.RotateR4[1], DppImpl.Ops.RotateR4[3]],
    "dpp_rotate_wave_l1": [DppImpl.Ops.RotateWaveL1],
    "dpp_rotate_wave_r1": [DppImpl.Ops.RotateWaveR1],
    "dpp_shift_l16": [DppImpl.Ops.ShiftL16[1], DppImpl.Ops.ShiftL16[13]],
    "dpp_shift_r16": [DppImpl.Ops.ShiftR16[1], DppImpl.Ops.ShiftR16[13]],
    "dpp_shift_wave_l1": [DppImpl.Ops.ShiftWaveL1],
    "dpp_shift_wave_r1": [DppImpl.Ops.ShiftWaveR1],
    "dpp_shuffle_2": [DppImpl.Ops.Shuffle2[0, 1], DppImpl.Ops.Shuffle2[1, 0]],
    "dpp_shuffle_4": [DppImpl.Ops.Shuffle4[0, 2, 3, 1], DppImpl.Ops.Shuffle4[2, 1, 2, 3]],
    "dpp_swap_2": [DppImpl.Ops.Swap2],
    "dpp_wfall_bcast_16": [DppImpl.Ops.BCast16x15],
    "dpp_wfall_bcast_32": [DppImpl.Ops.BCast32x31],
}


def skipped_by_check_device(op, arch) -> bool:
    """rocWMMA CrossLaneOpsKernelBase::checkDevice()."""
    gfx11_12 = arch.startswith(("gfx11", "gfx12"))
    warp = op.GROUP_SIZE == "warp"
    return ((arch == "gfx908" and op.opId() == OP_ID_BCAST and op.groupSize() == 16)
            or (gfx11_12 and op.opId() in (OP_ID_SHIFT, OP_ID_ROTATE) and warp)
            or (gfx11_12 and op.opId() == OP_ID_WFALL_BCAST))


@pytest.mark.parametrize("dtype", TYPES, ids=["uint32", "uint64"])
@pytest.mark.parametrize("arch", list(ARCHES))
@pytest.mark.parametrize("test", list(DPP_TESTS))
def test_dpp_ops(test, arch, dtype):
    wave = ARCHES[arch]
    combos = [(r, b, c) for r in ROW_MASKS for b in BANK_MASKS for c in BOUND_CTRLS]
    for op in DPP_TESTS[test]:
        if skipped_by_check_device(op, arch):
            with pytest.raises(UnsupportedInstructionError, match="not available on"):
                run(arch, dtype, lambda tid, op=op: [Dpp.Driver[op].exec(tid)], 1)
            continue

        def outputs(tid, op=op):
            value = lanes_value(dtype, tid)
            prev = dtype(make_value(dtype, PREV))
            return [Dpp.Driver[op, r, b, c].exec(value, prev) for r, b, c in combos]

        got = run(arch, dtype, outputs, len(combos))
        for (r, b, c), row in zip(combos, got, strict=True):
            want = [make_value(dtype, dpp_expect(op, i, c, wave) if is_dpp_masked(i, r, b)
                               else PREV) for i in range(wave)]
            assert row.tolist() == want, (op.__name__, hex(r), hex(b), c)


def test_dpp_bcast16_refused_on_gfx908():
    with use_arch("gfx908"), pytest.raises(UnsupportedInstructionError,
                                           match="gfx90a, gfx942, gfx950"):
        Dpp.BCast16[2].exec(np.arange(64, dtype=np.uint32))


# --- device/swizzle_ops.hpp references --------------------------------------------------------

def swizzle_expect(op, i):
    g = op.groupSize()
    op_id = op.opId()
    if op_id == OP_ID_BCAST:
        return (i & ~(g - 1)) + op.elementIdx()
    if op_id == OP_ID_REVERSE:
        top = g - 1
        return (i & ~top) | (top - (i & top))
    if op_id == OP_ID_ROTATE:
        after = (i & (g - 1)) + (op.opDist() if op.opDir() == OP_DIR_L else -op.opDist())
        return (i & ~(g - 1)) | ((after + g) & (g - 1))
    if op_id == OP_ID_SHUFFLE:
        selects = [op.select0(), op.select1()] + ([op.select2(), op.select3()] if g == 4 else [])
        return i - (i & (g - 1)) + selects[i & (g - 1)]
    if op_id == OP_ID_SWAP:
        return i ^ g
    raise AssertionError(op_id)


_S = SwizzleImpl.Ops
_MIXED = (5, 15, 0, 3, 8, 10, 6, 13)
_MIXED32 = (5, 25, 0, 3, 19, 16, 6, 31)
SWIZZLE_TESTS = {
    "swizzle_bcast_16": [_S.BCast16[e] for e in _MIXED],
    "swizzle_bcast_2": [_S.BCast2[0], _S.BCast2[1]],
    "swizzle_bcast_32": [_S.BCast32[e] for e in _MIXED32],
    "swizzle_bcast_4": [_S.BCast4[e] for e in range(4)],
    "swizzle_bcast_8": [_S.BCast8[e] for e in range(8)],
    "swizzle_reverse_16": [_S.Reverse16],
    "swizzle_reverse_2": [_S.Reverse2],
    "swizzle_reverse_32": [_S.Reverse32],
    "swizzle_reverse_4": [_S.Reverse4],
    "swizzle_reverse_8": [_S.Reverse8],
    "swizzle_rotate_l16": [_S.RotateL16[d] for d in _MIXED],
    "swizzle_rotate_l2": [_S.RotateL2[0], _S.RotateL2[1]],
    "swizzle_rotate_l32": [_S.RotateL32[d] for d in _MIXED32],
    "swizzle_rotate_l4": [_S.RotateL4[d] for d in range(4)],
    "swizzle_rotate_l8": [_S.RotateL8[d] for d in range(8)],
    "swizzle_rotate_r16": [_S.RotateR16[d] for d in _MIXED],
    "swizzle_rotate_r2": [_S.RotateR2[0], _S.RotateR2[1]],
    "swizzle_rotate_r32": [_S.RotateR32[d] for d in _MIXED32],
    "swizzle_rotate_r4": [_S.RotateR4[d] for d in range(4)],
    "swizzle_rotate_r8": [_S.RotateR8[d] for d in range(8)],
    "swizzle_shuffle_2": [_S.Shuffle2[0, 1], _S.Shuffle2[1, 0]],
    "swizzle_shuffle_4": [_S.Shuffle4[0, 2, 3, 1], _S.Shuffle4[2, 1, 2, 3], _S.Shuffle4[3, 3, 3, 3],
                          _S.Shuffle4[3, 2, 1, 0], _S.Shuffle4[2, 2, 2, 1], _S.Shuffle4[2, 1, 2, 1],
                          _S.Shuffle4[3, 0, 0, 3]],
    "swizzle_swap_16": [_S.Swap16],
    "swizzle_swap_2": [_S.Swap2],
    "swizzle_swap_4": [_S.Swap4],
    "swizzle_swap_8": [_S.Swap8],
}


@pytest.mark.parametrize("dtype", TYPES, ids=["uint32", "uint64"])
@pytest.mark.parametrize("arch", list(ARCHES))
@pytest.mark.parametrize("test", list(SWIZZLE_TESTS))
def test_swizzle_ops(test, arch, dtype):
    wave = ARCHES[arch]
    ops = SWIZZLE_TESTS[test]
    got = run(arch, dtype, lambda tid: [Swizzle.Driver[op].exec(lanes_value(dtype, tid))
                                        for op in ops], len(ops))
    for op, row in zip(ops, got, strict=True):
        assert row.tolist() == [make_value(dtype, swizzle_expect(op, i)) for i in range(wave)], (
            op.__name__)


# --- device/permute_ops.hpp references ----------------------------------------------------------

def permute_expect(op, i, wave):
    g = op.groupSize()
    if op.opId() == OP_ID_BLOCK_BCAST:
        return op.elementIdx() * g + i % g
    if op.opId() == OP_ID_ROTATE:
        after = (i & (g - 1)) + (op.opDist() if op.opDir() == OP_DIR_L else -op.opDist())
        return (i & ~(g - 1)) | ((after + g) & (g - 1))
    src = [((t * g // op.vw() + op.shift()) % g + t // op.vw() % (g // op.vw()) + (t // g) * g)
           % wave for t in range(wave)]
    if op.opId() == OP_ID_GATHER:
        return src[i]
    values = [None] * wave  # Scatter: srcValues[srcIdx] = input, then read own slot
    for t in range(wave):
        values[src[t]] = t
    return values[i]


_P = PermuteImpl.Ops
PERMUTE_TESTS = {
    "permute_block_bcast_16": [_P.BlockBCast16[0], _P.BlockBCast16[1]],
    "permute_block_bcast_2": [_P.BlockBCast2[b] for b in (1, 5, 8, 15)],
    "permute_block_bcast_32": [_P.BlockBCast32[0]],
    "permute_block_bcast_4": [_P.BlockBCast4[b] for b in (0, 3, 6, 7)],
    "permute_block_bcast_8": [_P.BlockBCast8[b] for b in range(4)],
    "permute_gather_scatter": [_P.Gather32[4, 0], _P.Gather32[4, 16], _P.Scatter32[4, 0],
                               _P.Scatter32[4, 16]],
    "permute_rotate": "per wave size",
}


def permute_ops(test, wave):
    if test != "permute_rotate":
        return PERMUTE_TESTS[test]
    base = PermuteImpl.OpsBase
    return [base.RotateR[1, wave], base.RotateR[5, wave], base.RotateL[8, wave],
            base.RotateL[15, wave]]


@pytest.mark.parametrize("dtype", TYPES, ids=["uint32", "uint64"])
@pytest.mark.parametrize("arch", list(ARCHES))
@pytest.mark.parametrize("test", list(PERMUTE_TESTS))
def test_permute_ops(test, arch, dtype):
    wave = ARCHES[arch]
    ops = permute_ops(test, wave)
    got = run(arch, dtype, lambda tid: [Permute.Driver[op].exec(lanes_value(dtype, tid))
                                        for op in ops], len(ops))
    for op, row in zip(ops, got, strict=True):
        assert row.tolist() == [make_value(dtype, permute_expect(op, i, wave))
                                for i in range(wave)], op.__name__


# --- device/blend_ops.hpp references ------------------------------------------------------------

def blend_perm_byte(in0, in1, select):
    regs = (in1 << 32) | in0  # "src0 and src1 are flipped" in blend_impl.hpp
    return (regs >> (select * 8)) & 0xFF


def blend_expect(op, i):
    if op.opId() == 0x40:
        in0, in1 = 0x05060708, 0x01020304
        out = 0
        for sel in (op.select3(), op.select2(), op.select1(), op.select0()):
            out = (out << 8) | blend_perm_byte(in0, in1, sel)
        return out
    return 2 if (i // op.groupSize()) & 1 else 1


_B = BlendImpl.Ops
BLEND_TESTS = {
    "blend_extract_byte_even": [_B.ExtractByteEven, _B.ExtractByteOddEven],
    "blend_extract_byte_odd": [_B.ExtractByteOdd, _B.ExtractByteEvenOdd],
    "blend_extract_word_even": [_B.ExtractWordEven, _B.ExtractWordOddEven],
    "blend_extract_word_odd": [_B.ExtractWordOdd, _B.ExtractWordEvenOdd],
    "blend_unpack_byte_hi": [_B.UnpackByteHi],
    "blend_unpack_byte_hi_lo": [_B.UnpackByteLoHi],
    "blend_unpack_byte_lo": [_B.UnpackByteLo],
    "blend_unpack_word_hi": [_B.UnpackWordHi],
    "blend_unpack_word_lo": [_B.UnpackWordLo],
    "blend_zip": [_B.Zip2, _B.Zip4, _B.Zip8, _B.Zip16, _B.Zip32],
    "blend_zip_byte": [_B.ZipByte],
    "blend_zip_word": [_B.ZipWord],
}


@pytest.mark.parametrize("dtype", TYPES, ids=["uint32", "uint64"])
@pytest.mark.parametrize("arch", list(ARCHES))
@pytest.mark.parametrize("test", list(BLEND_TESTS))
def test_blend_ops(test, arch, dtype):
    wave = ARCHES[arch]
    ops = BLEND_TESTS[test]

    def outputs(tid):
        results = []
        for op in ops:
            perm = op.opId() == 0x40
            in0 = make_value(dtype, 0x05060708 if perm else 1)
            in1 = make_value(dtype, 0x01020304 if perm else 2)
            results.append(Blend.Driver[op].exec(dtype(in0) + 0 * lanes_value(dtype, tid),
                                                 dtype(in1) + 0 * lanes_value(dtype, tid)))
        return results

    got = run(arch, dtype, outputs, len(ops))
    for op, row in zip(ops, got, strict=True):
        assert row.tolist() == [make_value(dtype, blend_expect(op, i)) for i in range(wave)], (
            op.__name__)


def test_op_traits_are_rocwmmas():
    op = DppImpl.Ops.RotateR16[11]
    assert (op.opId(), op.opImpl(), op.groupSize(), op.opDir(), op.opDist(), op.opCtrl()) == (
        OP_ID_ROTATE, 0x30, 16, OP_DIR_R, 11, 0x12B)
    assert DppImpl.Ops.Shuffle4[0, 2, 3, 1].opCtrl() == 0b01111000
    assert SwizzleImpl.Ops.RotateR8[3].opCtrl() == 0xC000 | 1 << 10 | 3 << 5 | 0x18
    assert SwizzleImpl.Ops.BCast16[5].opCtrl() == (5 << 5) | 0x10
    assert BlendImpl.Ops.ZipByte.opCtrl() == 0x07020500
