"""gfx1250's lane-group permutes (permlane_bcast / up / down / xor) against per-lane tables.

The reference is a plain loop over lanes transcribed from the selects that AMD's HIP runtime
header hip/amd_detail/amd_warp_functions.h states for v_permlane_{bcast,up,down,xor}_b32
(public code index id 68984925445) and from the expectations of a HIP test program whose
oracle is the CDNA5 ISA section 15.14 (index id 70464647987). Inactive lanes follow the
emulator's rule for VALU cross-lane reads without bound_ctrl: an inactive source is an invalid
lane and the reader keeps its own value; an inactive lane keeps its own value.
"""

from __future__ import annotations

import numpy as np
import pytest

from rocwmma_py import CrossLaneError, DivergenceError, UnsupportedInstructionError, amdgcn, kernel
from rocwmma_py.arch import ARCH_NAMES
from rocwmma_py.runtime import (
    blockDim,
    blockIdx,
    gridDim,
    last_launch_stats,
    threadIdx,
    use_arch,
    use_engine,
    where,
)

WAVE = 32
OPS = ("bcast", "up", "down", "xor")
FNS = [amdgcn.permlane_bcast, amdgcn.permlane_up, amdgcn.permlane_down, amdgcn.permlane_xor]
WIDTHS = (1, 2, 4, 8, 16, 32)
# past the group (delta > width, mask >= width), past the wave (>= 32), past 6 bits (> 63),
# and 32-bit wrap-arounds (-1 is 0xffffffff in the SGPR)
OPERANDS = (0, 1, 2, 3, 5, 7, 8, 15, 16, 17, 31, 32, 33, 40, 63, 64, 65, 100, -1, -32,
            2**32 - 1, 2**32 + 3)
HAVE = "gfx1250, gfx1251"
RNG = np.random.default_rng(1250)


def ref_source(op, lane, operand, width):
    """The lane `lane` reads, written out from the header's and the test program's selects."""
    base = lane // width * width
    j = lane - base
    if op == "bcast":
        return base + (operand & 63 & (width - 1))
    if op in ("up", "down"):
        delta = min(operand % 2**32, width)
        if op == "up":
            return lane if j < delta else lane - delta
        return lane + delta if j + delta < width else lane
    mask = operand % 2**32
    if mask >= WAVE:
        return lane
    x = lane ^ (mask & 63)
    return lane if x >= base + width else x


def ref(op, vals, operand, width, active=None):
    active = [True] * len(vals) if active is None else active
    out = []
    for w0 in range(0, len(vals), WAVE):
        for lane in range(WAVE):
            src = ref_source(op, lane, operand, width)
            ok = active[w0 + lane] and active[w0 + src]
            out.append(vals[w0 + src] if ok else vals[w0 + lane])
    return out


def test_the_test_programs_cases():
    """The five checks of the HIP test program (lane l holds 100 + l), tables spelled out."""
    vals = 100 + np.arange(WAVE, dtype=np.uint32)
    with use_arch("gfx1250"):
        assert amdgcn.permlane_bcast(vals, 5, 32).tolist() == [105] * 32
        assert amdgcn.permlane_up(vals, 3, 16).tolist() == (
            [100, 101, 102] + list(range(100, 113)) + [116, 117, 118] + list(range(116, 129)))
        assert amdgcn.permlane_down(vals, 2, 8).tolist() == [
            100 + (lane + 2 if lane % 8 < 6 else lane) for lane in range(32)]
        assert amdgcn.permlane_xor(vals, 1, 4).tolist() == [100 + (lane ^ 1) for lane in range(32)]
        # 40 is past the wave: xor reads itself; up/down clamp to the group and read themselves
        for fn in (amdgcn.permlane_up, amdgcn.permlane_down, amdgcn.permlane_xor):
            assert fn(vals, 40, 8).tolist() == vals.tolist()
        assert amdgcn.permlane_bcast(vals, 40, 8).tolist() == [
            100 + lane // 8 * 8 for lane in range(32)]


@pytest.mark.parametrize("arch", ["gfx1250", "gfx1251"])
@pytest.mark.parametrize("width", WIDTHS)
def test_every_width_and_operand(arch, width):
    vals = RNG.integers(-(2**31), 2**31, WAVE).astype(np.int32)
    with use_arch(arch):
        for op, fn in zip(OPS, FNS, strict=True):
            for operand in OPERANDS:
                got = fn(vals, operand, width)
                assert got.dtype == np.int32
                assert got.tolist() == ref(op, vals.tolist(), operand, width), (op, operand)


def test_xor_below_the_group_is_read():
    """The header's select replaces only targets at or past the group's end: lane 9 in groups
    of 8 with mask 8 reads lane 1, outside its group."""
    vals = np.arange(WAVE, dtype=np.int32)
    with use_arch("gfx1250"):
        got = amdgcn.permlane_xor(vals, 8, 8)
    assert got[9] == 1 and got[1] == 1  # lane 1 ^ 8 = 9 is past its group: reads itself


@pytest.mark.parametrize("dtype", [np.uint32, np.float32, np.int32])
def test_bits_move_unchanged(dtype):
    bits = RNG.integers(0, 2**32, WAVE, dtype=np.uint32)
    bits[:4] = [0x7FC00001, 0xFF800000, 0x80000000, 0x7F800001]  # NaN payloads, -inf, -0.0
    vals = bits.view(dtype)
    with use_arch("gfx1250"):
        for op, fn in zip(OPS, FNS, strict=True):
            got = fn(vals, 3, 16)
            assert got.dtype == dtype
            assert got.view(np.uint32).tolist() == ref(op, bits.tolist(), 3, 16)


@pytest.mark.parametrize("width", [0, 3, 6, 33, 64, -4, 2**32 + 4])
def test_bad_widths_raise(width):
    with use_arch("gfx1250"):
        for fn in FNS:
            with pytest.raises(CrossLaneError, match=rf"power of two from 1 to the wave size "
                               rf"\(1, 2, 4, 8, 16, 32\), got {width}"):
                fn(np.arange(WAVE), 1, width)


def test_operands_must_be_wave_uniform_integers():
    with use_arch("gfx1250"):
        with pytest.raises(CrossLaneError, match="permlane_up delta must be a wave-uniform"):
            amdgcn.permlane_up(np.arange(WAVE), 1.0, 4)
        with pytest.raises(CrossLaneError, match="permlane_xor width must be a wave-uniform"):
            amdgcn.permlane_xor(np.arange(WAVE), 1, np.arange(WAVE))


@pytest.mark.parametrize("arch", [a for a in ARCH_NAMES if a not in HAVE])
def test_other_targets_raise(arch):
    with use_arch(arch):
        for op, fn in zip(OPS, FNS, strict=True):
            with pytest.raises(UnsupportedInstructionError,
                               match=f"permlane_{op} is not available on {arch}; it exists on "
                                     f"{HAVE}$"):
                fn(0, 0, 1)


# --- inside kernels: both engines, batches of many waves ----------------------------------------

@kernel
def group_kernel(src, out, ops, n_ops, act):
    lanes = gridDim.x * blockDim.x
    gid = blockIdx.x * blockDim.x + threadIdx.x
    v = src[gid]
    for i in range(n_ops):
        fn, operand, width = FNS[ops[3 * i]], ops[3 * i + 1], ops[3 * i + 2]
        slot = 3 * i * lanes + gid
        out[slot] = fn(v, operand, width)
        out[slot + lanes] = fn(v, operand + blockIdx.x % 5, width)  # differs between waves
        with where(act[gid] != 0):
            r = fn(v, operand, width)
        out[slot + 2 * lanes] = r  # inactive lanes show what they kept


def run_both(k, grid, block, *buffers):
    """Outputs of k on both engines, which must agree (the batch engine must not fall back to
    running wave by wave)."""
    results = []
    for engine in ("wave", "batch"):
        copies = [b.copy() if isinstance(b, np.ndarray) else b for b in buffers]
        with use_engine(engine):
            k[grid, block, 0, "gfx1250"](*copies)
        if engine == "batch":
            assert last_launch_stats().per_wave_blocks == 0
        results.append(copies)
    for a, b in zip(*results, strict=True):
        assert np.asarray(a).tobytes() == np.asarray(b).tobytes()
    return results[1]


def test_inside_kernels_on_both_engines():
    block, blocks = 2 * WAVE, 12
    lanes = block * blocks
    src = RNG.integers(0, 10**6, lanes).astype(np.int32)  # differs per wave
    act = (RNG.random(lanes) < 0.7).astype(np.int32)
    combos = [(k, operand, width) for k in range(4) for operand in (1, 3, 9, 40)
              for width in (2, 8, 32)]
    ops = np.array(combos, np.int32).reshape(-1)
    out = np.zeros(3 * len(combos) * lanes, np.int32)
    res = run_both(group_kernel, blocks, block, src, out, ops, len(combos), act)[1]
    assert last_launch_stats().splits >= 1  # the per-wave operand split the batch
    res = res.reshape(len(combos), 3, lanes)
    vals, active = src.tolist(), act.astype(bool).tolist()
    per_wave_operand = [blk % 5 for blk in range(blocks) for _ in range(block)]
    for i, (k, operand, width) in enumerate(combos):
        assert res[i, 0].tolist() == ref(OPS[k], vals, operand, width)
        shifted = [ref(OPS[k], vals[w0:w0 + WAVE], operand + per_wave_operand[w0], width)
                   for w0 in range(0, lanes, WAVE)]
        assert res[i, 1].tolist() == [x for wave in shifted for x in wave]
        assert res[i, 2].tolist() == ref(OPS[k], vals, operand, width, active)


@kernel
def partial_kernel(src, out):
    gid = blockIdx.x * blockDim.x + threadIdx.x
    v = src[gid]
    for i in range(4):
        out[4 * gid + i] = FNS[i](v, 3, 32)


def test_partial_wave_reads_of_missing_lanes_keep_the_own_value():
    """Blocks of 20 threads: lanes 20-31 of each wave are off in EXEC from the start."""
    block, blocks = 20, 6
    src = RNG.integers(0, 10**6, block * blocks).astype(np.int32)
    out = np.zeros(4 * src.size, np.int32)
    res = run_both(partial_kernel, blocks, block, src, out)[1].reshape(-1, 4)
    active = [lane < block for lane in range(WAVE)]
    for b in range(blocks):
        vals = src[b * block:(b + 1) * block].tolist() + [0] * (WAVE - block)
        for i, op in enumerate(OPS):
            want = ref(op, vals, 3, 32, active)[:block]
            assert res[b * block:(b + 1) * block, i].tolist() == want, op


def test_operand_differing_inside_a_wave_raises():
    @kernel
    def k(out):
        out[threadIdx.x] = amdgcn.permlane_bcast(threadIdx.x, threadIdx.x % 2, 4)

    with pytest.raises(DivergenceError):
        k[1, WAVE, 0, "gfx1250"](np.zeros(WAVE, np.int32))
