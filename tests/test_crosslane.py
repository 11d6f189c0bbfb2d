"""Cross-lane operations against per-lane references written from their definitions.

References are plain Python loops over the lane index, transcribed from HIP's
amd_warp_functions.h (shuffles), the CDNA3/CDNA4 ISA (ds_bpermute, ds_permute, ds_swizzle,
DPP_CTRL, readlane/readfirstlane, permlane*_swap) and the RDNA3 ISA (permlane16/x16). Every
control value and width runs outside a kernel (one wave, wave32 and wave64); inside kernels
the same operations run on batches of many blocks on both engines, with data that differs
per wave so a read of another wave's lane shows.
"""

from __future__ import annotations

import numpy as np
import pytest

from rocwmma_py import (
    CrossLaneError,
    Swizzle,
    UnsupportedInstructionError,
    accumulator,
    amdgcn,
    fill_fragment,
    float32,
    fragment,
    kernel,
    use_arch,
)
from rocwmma_py.cuda import (
    __all_sync,
    __any_sync,
    __ballot_sync,
    __shfl_down_sync,
    __shfl_sync,
    __shfl_up_sync,
    __shfl_xor_sync,
)
from rocwmma_py.runtime import (
    Lanes,
    __activemask,
    __all,
    __any,
    __ballot,
    __ffs,
    __ffsll,
    __popc,
    __popcll,
    __shfl,
    __shfl_down,
    __shfl_up,
    __shfl_xor,
    blockDim,
    blockIdx,
    gridDim,
    int32x4,
    last_launch_stats,
    threadIdx,
    use_engine,
    wave_size,
    where,
)

WAVES = {"gfx942": 64, "gfx1100": 32}
ALL_ARCHES = ["gfx908", "gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1101", "gfx1102",
              "gfx1200", "gfx1201"]
RNG = np.random.default_rng(14)


# --- per-lane references ------------------------------------------------------------------------

def c_int(x: int) -> int:
    """C `int` (two's complement, 32 bits)."""
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x & 0x80000000 else x


def ref_bpermute(addr, vals, active, wave):
    out = []
    for lane in range(wave):
        if not active[lane]:
            out.append(vals[lane])
            continue
        src = ((addr[lane] & 0xFFFFFFFF) // 4) % wave
        out.append(vals[src] if active[src] else 0)
    return out


def ref_shfl(kind, vals, operand, width, wave, active=None):
    """amd_warp_functions.h: index per lane, then ds_bpermute(index << 2)."""
    active = [True] * wave if active is None else active
    addr = []
    for me in range(wave):
        if kind == "":
            index = (c_int(operand) & (width - 1)) + (me & ~(width - 1))
        elif kind == "_up":
            index = c_int(me - (operand & 0xFFFFFFFF))
            index = me if index < (me & ~(width - 1)) else index
        elif kind == "_down":
            index = c_int(me + (operand & 0xFFFFFFFF))
            index = me if c_int((me & (width - 1)) + (operand & 0xFFFFFFFF)) >= width else index
        else:
            index = c_int(me ^ operand)
            index = me if index >= ((me + width) & ~(width - 1)) else index
        addr.append(c_int(index << 2))
    return ref_bpermute(addr, vals, active, wave)


def ref_dpp_source(ctrl, lane, wave):
    """(source lane or None when out of range) of DPP_CTRL `ctrl` for `lane`."""
    row, pos = lane // 16, lane % 16
    if ctrl <= 0xFF:
        return (lane // 4) * 4 + ((ctrl >> (2 * (lane % 4))) & 3)
    n = ctrl & 0xF
    kind = ctrl & 0xFF0
    if kind == 0x100:
        return lane + n if pos + n <= 15 else None
    if kind == 0x110:
        return lane - n if pos - n >= 0 else None
    if kind == 0x120:
        return row * 16 + (pos - n) % 16
    if ctrl == 0x130:
        return lane + 1 if lane + 1 < wave else None
    if ctrl == 0x134:
        return (lane + 1) % wave
    if ctrl == 0x138:
        return lane - 1 if lane > 0 else None
    if ctrl == 0x13C:
        return (lane - 1) % wave
    if ctrl == 0x140:
        return row * 16 + 15 - pos
    if ctrl == 0x141:
        return (lane // 8) * 8 + 7 - lane % 8
    if ctrl == 0x142:
        return row * 16 - 1 if row > 0 else lane
    if ctrl == 0x143:
        return 31 if lane >= 32 else lane
    if kind == 0x150:
        return row * 16 + n
    if kind == 0x160:
        return row * 16 + (pos ^ n)
    raise AssertionError(hex(ctrl))


def ref_dpp(old, src, ctrl, row_mask, bank_mask, bound_ctrl, wave, active):
    out = []
    for lane in range(wave):
        enabled = (row_mask >> (lane // 16)) & 1 and (bank_mask >> ((lane % 16) // 4)) & 1
        if not (enabled and active[lane]):
            out.append(old[lane])
            continue
        s = ref_dpp_source(ctrl, lane, wave)
        if s is not None and active[s]:
            out.append(src[s])
        else:
            out.append(0 if bound_ctrl else old[lane])
    return out


def ref_swizzle(vals, offset, wave, active):
    """DS_SWIZZLE_B32 pseudocode (groups of 32 lanes)."""
    out = []
    for i in range(wave):
        lo = i & 0x1F
        if offset >= 0xE000:
            mask = offset & 0x1F
            j = int(f"{lo:05b}"[::-1], 2) >> bin(mask).count("1")
            j |= lo & mask
        elif offset >= 0xC000:
            rotate = (offset >> 5) & 0x1F
            rotate = -rotate if offset & 0x400 else rotate
            mask = offset & 0x1F
            j = (lo & mask) | ((lo + rotate) & ~mask & 0x1F)
        elif offset & 0x8000:
            j = (lo & ~3) | ((offset >> (2 * (i % 4))) & 3)
        else:
            j = (((lo & (offset & 0x1F)) | ((offset >> 5) & 0x1F)) ^ ((offset >> 10) & 0x1F))
        j |= i & 0x20
        if not active[i]:
            out.append(vals[i])
        else:
            out.append(vals[j] if active[j] else 0)
    return out


def ref_permlane16(old, src, sel_lo, sel_hi, cross, fi, bound_ctrl, wave, active):
    sel = (sel_hi << 32) | sel_lo
    out = []
    for row in range(wave // 16):
        other = row ^ 1 if cross else row
        for i in range(16):
            lane = row * 16 + i
            s = other * 16 + ((sel >> (4 * i)) & 0xF)
            if not active[lane]:
                out.append(old[lane])
            elif fi or active[s]:
                out.append(src[s])
            else:
                out.append(0 if bound_ctrl else old[lane])
    return out


def dpp_codes(arch):
    """Every DPP_CTRL code `arch` accepts."""
    gfx9 = arch.startswith("gfx9")
    codes = list(range(0x100)) + [b + n for b in (0x100, 0x110, 0x120) for n in range(1, 16)]
    codes += [0x140, 0x141]
    if gfx9:
        codes += [0x130, 0x134, 0x138, 0x13C, 0x142, 0x143]
        if arch != "gfx908":
            codes += list(range(0x150, 0x160))
    else:
        codes += list(range(0x150, 0x170))
    return codes


def random_active(wave, p=0.7):
    return list(RNG.random(wave) < p)


# --- outside kernels: every control value and width, wave32 and wave64 ---------------------------

@pytest.mark.parametrize("arch", list(WAVES))
@pytest.mark.parametrize("kind", ["", "_up", "_down", "_xor"])
def test_shfl_every_width_and_operand(arch, kind):
    wave = WAVES[arch]
    fn = {"": __shfl, "_up": __shfl_up, "_down": __shfl_down, "_xor": __shfl_xor}[kind]
    vals = RNG.integers(-(2**31), 2**31, wave).astype(np.int32)
    operands = list(range(-3, 2 * wave + 2)) + [2**31 - 1, -(2**31), 0xFFFFFFFF]
    with use_arch(arch):
        for width in (1, 2, 4, 8, 16, 32, 64)[: wave.bit_length()]:
            for op in operands:
                got = fn(vals, op, width)
                assert isinstance(got, Lanes)
                want = ref_shfl(kind, vals.tolist(), op, width, wave)
                assert got.tolist() == want, (kind, width, op)


@pytest.mark.parametrize("arch", list(WAVES))
def test_shfl_keeps_dtype_and_bits(arch):
    wave = WAVES[arch]
    for dtype in (np.float32, np.float64, np.int64, np.uint32, np.float16):
        vals = RNG.standard_normal(wave).astype(dtype)
        with use_arch(arch):
            got = __shfl_xor(vals, 5)
        assert got.dtype == dtype
        assert got.tobytes() == vals[np.arange(wave) ^ 5].tobytes()


def test_width_must_be_power_of_two_up_to_warp_size():
    with use_arch("gfx1100"):
        for bad in (0, 3, 64, -4, 24):
            with pytest.raises(CrossLaneError, match="power of two from 1 to warpSize"):
                __shfl(np.zeros(32), 0, bad)
    with use_arch("gfx942"), pytest.raises(CrossLaneError, match="warpSize \\(64\\)"):
        __shfl_down(np.zeros(64), 1, 128)


@pytest.mark.parametrize("arch", list(WAVES))
def test_votes_and_bit_counts(arch):
    wave = WAVES[arch]
    with use_arch(arch):
        for trial in range(20):
            pred = RNG.random(wave) < [0.0, 0.5, 1.0][trial % 3]
            ballot = sum(1 << lane for lane in range(wave) if pred[lane])
            assert __ballot(pred).tolist() == [ballot] * wave
            assert __any(pred).tolist() == [int(pred.any())] * wave
            assert __all(pred.astype(float)).tolist() == [int(pred.all())] * wave
        assert int(__activemask()) == (1 << wave) - 1
    values = [0, 1, 2, 3, 0x80000000, 0xFFFFFFFF, -1, -2, 12345678, 2**31 - 1]
    assert __popc(np.array(values, np.int64)).tolist() == [
        bin(v & 0xFFFFFFFF).count("1") for v in values]
    assert __ffs(np.array(values, np.int64)).tolist() == [
        (v & -v & 0xFFFFFFFF).bit_length() for v in values]
    big = [0, 1, 2**63, 2**40 + 2**50, (1 << 64) - 1, 6]
    assert __popcll(np.array(big, np.uint64)).tolist() == [bin(v).count("1") for v in big]
    assert __ffsll(np.array(big, np.uint64)).tolist() == [(v & -v).bit_length() for v in big]
    assert __popc(7) == 3 and __ffs(0) == 0 and __ffsll(2**62) == 63


@pytest.mark.parametrize("arch", ALL_ARCHES)
def test_dpp_every_control_masks_and_bound_ctrl(arch):
    with use_arch(arch):
        wave = 64 if arch.startswith("gfx9") else 32
    src = RNG.integers(1, 2**31, wave).astype(np.int32)
    old = RNG.integers(1, 2**31, wave).astype(np.int32)
    with use_arch(arch):
        for ctrl in dpp_codes(arch):
            for row_mask, bank_mask, bound in ((0xF, 0xF, False), (0xF, 0xF, True),
                                               (0x5, 0x6, False), (0xA, 0xB, True)):
                got = amdgcn.update_dpp(old, src, ctrl, row_mask, bank_mask, bound)
                want = ref_dpp(old.tolist(), src.tolist(), ctrl, row_mask, bank_mask, bound,
                               wave, [True] * wave)
                assert got.tolist() == want, (hex(ctrl), row_mask, bank_mask, bound)
            moved = amdgcn.mov_dpp(src, ctrl, 0xF, 0xF, False)
            assert moved.tolist() == ref_dpp(src.tolist(), src.tolist(), ctrl, 0xF, 0xF, False,
                                             wave, [True] * wave)


@pytest.mark.parametrize("arch", ALL_ARCHES)
def test_dpp_codes_the_target_lacks_are_refused_naming_targets(arch):
    accepted = set(dpp_codes(arch))
    with use_arch(arch):
        wave = 64 if arch.startswith("gfx9") else 32
        for ctrl in range(0x170):
            if ctrl in accepted:
                continue
            reserved = ctrl in (0x100, 0x110, 0x120) or 0x131 <= ctrl <= 0x13F and ctrl not in (
                0x134, 0x138, 0x13C) or 0x144 <= ctrl <= 0x14F
            error = CrossLaneError if reserved else UnsupportedInstructionError
            with pytest.raises(error) as info:
                amdgcn.mov_dpp(np.zeros(wave, np.int32), ctrl, 0xF, 0xF, False)
            if not reserved:
                assert f"not available on {arch}; it exists on" in str(info.value)
    with use_arch(arch), pytest.raises(CrossLaneError, match="4-bit mask"):
        amdgcn.update_dpp(0, 0, 0xE4, 0x1F, 0xF, False)


@pytest.mark.parametrize("arch", list(WAVES))
def test_ds_swizzle_every_mode(arch):
    wave = WAVES[arch]
    vals = RNG.integers(0, 2**31, wave).astype(np.int32)
    offsets = list(range(0, 0x8000, 0x7F)) + [0x041F, 0x081F, 0x101F, 0x201F, 0x401F, 0x7C1F]
    offsets += [0x8000 | q for q in range(256)]
    offsets += [0xC000 | (d << 10) | (r << 5) | m for d in (0, 1) for r in range(32)
                for m in (0x00, 0x10, 0x18, 0x1C, 0x1E, 0x1F, 0x05)]
    offsets += [0xE000 | m for m in range(32)]
    with use_arch(arch):
        for off in offsets:
            got = amdgcn.ds_swizzle(vals, off)
            assert got.tolist() == ref_swizzle(vals.tolist(), off, wave, [True] * wave), hex(off)
        with pytest.raises(CrossLaneError, match="16 bits"):
            amdgcn.ds_swizzle(vals, 0x10000)


@pytest.mark.parametrize("arch", list(WAVES))
def test_bpermute_permute_readlane(arch):
    wave = WAVES[arch]
    vals = RNG.integers(0, 2**31, wave).astype(np.int32)
    with use_arch(arch):
        for _ in range(20):
            addr = RNG.integers(-(2**31), 2**31, wave)
            assert amdgcn.ds_bpermute(addr, vals).tolist() == ref_bpermute(
                addr.tolist(), vals.tolist(), [True] * wave, wave)
            dest = RNG.integers(0, 4 * wave, wave)  # several lanes may target one lane
            want = [0] * wave
            for lane in range(wave):  # the highest-numbered sender wins
                want[(int(dest[lane]) // 4) % wave] = int(vals[lane])
            assert amdgcn.ds_permute(dest, vals).tolist() == want
        for lane in range(-2, wave + 3):
            assert amdgcn.readlane(vals, lane).tolist() == [vals[lane % wave]] * wave
        assert amdgcn.readfirstlane(vals).tolist() == [vals[0]] * wave


@pytest.mark.parametrize("arch", ["gfx1100", "gfx1201"])
def test_permlane16_and_x16(arch):
    vals = RNG.integers(0, 2**31, 32).astype(np.int32)
    old = RNG.integers(0, 2**31, 32).astype(np.int32)
    with use_arch(arch):
        for _ in range(30):
            lo, hi = (int(v) for v in RNG.integers(0, 2**32, 2))
            for cross, fn in ((False, amdgcn.permlane16), (True, amdgcn.permlanex16)):
                got = fn(old, vals, lo, hi, False, False)
                assert got.tolist() == ref_permlane16(old.tolist(), vals.tolist(), lo, hi, cross,
                                                      False, False, 32, [True] * 32)


def test_permlane_swaps_on_gfx950():
    a = np.arange(64, dtype=np.int32)
    b = 100 + np.arange(64, dtype=np.int32)
    with use_arch("gfx950"):
        vdst, src = amdgcn.permlane32_swap(a, b, False, False)
        assert vdst.tolist() == [a[i] if i < 32 else b[i - 32] for i in range(64)]
        assert src.tolist() == [a[i + 32] if i < 32 else b[i] for i in range(64)]
        vdst, src = amdgcn.permlane16_swap(a, b, False, False)
        assert vdst.tolist() == [b[i - 16] if i % 32 >= 16 else a[i] for i in range(64)]
        assert src.tolist() == [a[i + 16] if i % 32 < 16 else b[i] for i in range(64)]


_PERMLANE16 = ("gfx1100, gfx1101, gfx1102, gfx1103, gfx1150, gfx1151, gfx1152, gfx1153, "
               "gfx1200, gfx1201")


@pytest.mark.parametrize(("builtin", "args", "have"), [
    ("permlane16", (0, 0, 0, 0, False, False), _PERMLANE16),
    ("permlanex16", (0, 0, 0, 0, False, False), _PERMLANE16),
    ("permlane32_swap", (0, 0, False, False), "gfx950"),
    ("permlane16_swap", (0, 0, False, False), "gfx950"),
])
def test_builtins_refused_where_missing(builtin, args, have):
    for arch in ALL_ARCHES:
        with use_arch(arch):
            if arch in have:
                getattr(amdgcn, builtin)(*args)
                continue
            with pytest.raises(UnsupportedInstructionError,
                               match=f"{builtin} is not available on {arch}; it exists on {have}"):
                getattr(amdgcn, builtin)(*args)


def test_cuda_sync_masks():
    vals = np.arange(32, dtype=np.int32)
    with use_arch("gfx1100"):
        assert __shfl_xor_sync(0xFFFFFFFF, vals, 1).tolist() == (np.arange(32) ^ 1).tolist()
        assert __shfl_down_sync(0xFFFFFFFF, vals, 2, 8).tolist() == ref_shfl(
            "_down", vals.tolist(), 2, 8, 32)
        assert __shfl_up_sync(0xFFFFFFFF, vals, 3).tolist() == ref_shfl("_up", vals.tolist(),
                                                                          3, 32, 32)
        halves = np.where(np.arange(32) < 16, 0x0000FFFF, 0xFFFF0000)
        assert __shfl_sync(halves, vals, 3, 16).tolist() == [3] * 16 + [19] * 16
        assert __ballot_sync(halves, vals % 3 == 0).tolist() == [
            sum(1 << i for i in range(16) if i % 3 == 0)] * 16 + [
            sum(1 << i for i in range(16, 32) if i % 3 == 0)] * 16
        assert __any_sync(halves, vals == 20).tolist() == [0] * 16 + [1] * 16
        assert __all_sync(halves, vals < 16).tolist() == [1] * 16 + [0] * 16
        with pytest.raises(CrossLaneError, match="lane 0 reads lane 19, .* not in its mask 0xffff"):
            __shfl_sync(halves, vals, 19)
        with pytest.raises(CrossLaneError, match="does not include itself"):
            __shfl_xor_sync(0x0000FFFF, vals, 1)
        with pytest.raises(CrossLaneError, match="calls with a different mask"):
            __any_sync(np.where(np.arange(32) < 16, 0xFFFFFFFF, 0xFFFF0000), vals)
    with use_arch("gfx942"):
        full = (1 << 64) - 1
        assert __shfl_xor_sync(full, np.arange(64), 32).tolist() == (np.arange(64) ^ 32).tolist()
        with pytest.raises(CrossLaneError, match="64-lane waves.*0xffffffffffffffff"):
            __shfl_xor_sync(0xFFFFFFFF, np.arange(64), 1)


# --- inside kernels: both engines, batches of many blocks, where() -------------------------------

def run_both(k, grid, block, arch, *buffers):
    """Outputs of k on both engines (and the batched engine must really batch)."""
    results = []
    for engine in ("wave", "batch"):
        copies = [b.copy() if isinstance(b, np.ndarray) else b for b in buffers]
        with use_engine(engine):
            k[grid, block, 0, arch](*copies)
        if engine == "batch":
            assert last_launch_stats().per_wave_blocks == 0
        results.append(copies)
    for a, b in zip(*results, strict=True):
        assert np.asarray(a).tobytes() == np.asarray(b).tobytes()
    return results[1]


SHUFFLES = [__shfl, __shfl_up, __shfl_down, __shfl_xor]


@kernel
def shuffles_kernel(src, out, ops, n_ops):
    lanes = gridDim.x * blockDim.x
    gid = blockIdx.x * blockDim.x + threadIdx.x
    v = src[gid]
    cond = (gid % 3) != 1
    for i in range(n_ops):
        shuffle, operand, width = SHUFFLES[ops[3 * i]], ops[3 * i + 1], ops[3 * i + 2]
        slot = 6 * i * lanes + gid
        out[slot] = shuffle(v, operand, width)
        out[slot + lanes] = amdgcn.update_dpp(-1, v, operand % 256, 0xF, 0x7, True)
        out[slot + 2 * lanes] = amdgcn.ds_swizzle(v, 0x8000 | (operand % 256))
        with where(cond):
            out[slot + 3 * lanes] = shuffle(v, operand, width)
            out[slot + 4 * lanes] = (__ballot(v % 2 == 0) % 1000003).astype(np.int64)
        out[slot + 5 * lanes] = __any(v == 5)


@pytest.mark.parametrize("arch", list(WAVES))
def test_inside_kernels_batched_per_wave(arch):
    wave = WAVES[arch]
    block, blocks = 2 * wave, 16
    lanes = block * blocks
    src = RNG.integers(0, 1000, lanes).astype(np.int32)
    combos = [(kind, operand, width) for kind in range(4) for operand in (1, 3, wave - 1, 17)
              for width in (4, wave)]
    ops = np.array(combos, np.int32).reshape(-1)
    out = np.zeros(len(combos) * 6 * lanes, np.int64)
    res = run_both(shuffles_kernel, blocks, block, arch, src, out, ops, len(combos))[1]
    res = res.reshape(len(combos), 6, lanes)
    kinds = ["", "_up", "_down", "_xor"]
    for i, (kind, operand, width) in enumerate(combos):
        for w0 in range(0, lanes, wave):
            vals = src[w0:w0 + wave].tolist()
            active = [(g % 3) != 1 for g in range(w0, w0 + wave)]
            assert res[i, 0, w0:w0 + wave].tolist() == ref_shfl(kinds[kind], vals, operand,
                                                                 width, wave)
            assert res[i, 1, w0:w0 + wave].tolist() == ref_dpp(
                [-1] * wave, vals, operand % 256, 0xF, 0x7, True, wave, [True] * wave)
            assert res[i, 2, w0:w0 + wave].tolist() == ref_swizzle(
                vals, 0x8000 | (operand % 256), wave, [True] * wave)
            masked = ref_shfl(kinds[kind], vals, operand, width, wave, active)
            on = np.flatnonzero(active)
            assert res[i, 3, w0 + on].tolist() == [masked[j] for j in on]
            ballot = sum(1 << j for j in range(wave) if active[j] and vals[j] % 2 == 0)
            assert res[i, 4, w0 + on].tolist() == [ballot % 1000003] * on.size
            assert res[i, 5, w0:w0 + wave].tolist() == [int(5 in vals)] * wave


@kernel
def reduce_kernel(src, out):
    gid = blockIdx.x * blockDim.x + threadIdx.x
    v = src[gid]
    offset = 1
    while offset < blockDim.x and offset < 64:
        v = v + __shfl_xor(v, offset)
        offset *= 2
    out[gid] = v


@pytest.mark.parametrize("arch", list(WAVES))
def test_xor_reduction_in_kernel(arch):
    wave = WAVES[arch]
    src = RNG.integers(-1000, 1000, wave * 40).astype(np.int64)
    out = np.zeros_like(src)
    res = run_both(reduce_kernel, 40, wave, arch, src, out)[1]
    assert res.tolist() == np.repeat(src.reshape(-1, wave).sum(axis=1), wave).tolist()


@kernel
def kinds_kernel(src, out_vec, out_frag):
    gid = blockIdx.x * blockDim.x + threadIdx.x
    vec = int32x4(0)
    for e in range(4):
        vec[e] = src[gid] * 4 + e
    moved = __shfl_down(vec, 1)
    for e in range(4):
        out_vec[4 * gid + e] = moved[e]
    frag = fragment[accumulator, 16, 16, 16, float32]()
    fill_fragment(frag, 0.0)
    frag.x[:] = frag.x + src[gid]
    rows = amdgcn.update_dpp(frag.x, frag.x, 0x141, 0xF, 0xF, False)  # row_half_mirror
    for e in range(frag.num_elements):
        out_frag[gid * frag.num_elements + e] = rows[e]


@pytest.mark.parametrize("arch", list(WAVES))
def test_register_vectors_and_fragment_registers(arch):
    wave = WAVES[arch]
    src = RNG.integers(0, 1000, wave * 6).astype(np.int32)
    n_elem = 256 // wave
    out_vec = np.zeros(4 * src.size, np.int32)
    out_frag = np.zeros(n_elem * src.size, np.float32)
    vec, frag = run_both(kinds_kernel, 6, wave, arch, src, out_vec, out_frag)[1:]
    vec, frag = vec.reshape(-1, 4), frag.reshape(-1, n_elem)
    for w0 in range(0, src.size, wave):
        for e in range(4):
            want = ref_shfl("_down", (src[w0:w0 + wave] * 4 + e).tolist(), 1, wave, wave)
            assert vec[w0:w0 + wave, e].tolist() == want
        for e in range(n_elem):
            want = ref_dpp([0] * wave, src[w0:w0 + wave].tolist(), 0x141, 0xF, 0xF, False,
                           wave, [True] * wave)
            assert frag[w0:w0 + wave, e].tolist() == want


def test_lanes_outside_where_are_inactive_in_dpp_and_permlane():
    wave = 32
    src = RNG.integers(1, 1000, wave).astype(np.int32)
    old = RNG.integers(1, 1000, wave).astype(np.int32)
    active = random_active(wave)

    @kernel
    def k(s, o, d1, d2, d3, act):
        lane = threadIdx.x
        with where(act[lane] != 0):
            d1[lane] = amdgcn.update_dpp(o[lane], s[lane], 0x111, 0xF, 0xF, False)
            d2[lane] = amdgcn.permlanex16(o[lane], s[lane], 0x76543210, 0xFEDCBA98, False, True)
            d3[lane] = amdgcn.ds_swizzle(s[lane], 0x041F)

    outs = [np.zeros(wave, np.int32) for _ in range(3)]
    act = np.array(active, np.int32)
    d1, d2, d3 = run_both(k, 1, wave, "gfx1100", src, old, *outs, act)[2:5]
    pick = [i for i in range(wave) if active[i]]
    assert d1[pick].tolist() == [ref_dpp(old.tolist(), src.tolist(), 0x111, 0xF, 0xF, False,
                                         wave, active)[i] for i in pick]
    assert d2[pick].tolist() == [ref_permlane16(old.tolist(), src.tolist(), 0x76543210,
                                                0xFEDCBA98, True, False, True, wave,
                                                active)[i] for i in pick]
    assert d3[pick].tolist() == [ref_swizzle(src.tolist(), 0x041F, wave, active)[i]
                                 for i in pick]


def test_values_of_one_wave_shape_are_the_same_in_every_wave():
    @kernel
    def k(out):
        gid = blockIdx.x * blockDim.x + threadIdx.x
        out[gid] = __shfl(np.arange(32) * 10, 7)

    out = np.zeros(32 * 8, np.int64)
    (res,) = run_both(k, 8, 32, "gfx1100", out)
    assert res.tolist() == [70] * out.size


def test_bad_operands_are_refused():
    with use_arch("gfx1100"):
        with pytest.raises(CrossLaneError, match="one value per lane"):
            __shfl(np.zeros(48), 1)
        with pytest.raises(CrossLaneError, match="must be an integer"):
            __shfl(np.zeros(32), 1.5)
        with pytest.raises(CrossLaneError, match="wave-uniform integer"):
            amdgcn.readlane(np.zeros(32), 2.0)


@kernel
def fragment_kinds_kernel(src, out_row, out_frag, out_mask):
    gid = blockIdx.x * blockDim.x + threadIdx.x
    frag = fragment[accumulator, 16, 16, 16, float32]()
    fill_fragment(frag, 0.0)
    frag.x[:] = frag.x + src[gid] + np.arange(frag.num_elements)[:, None]
    row = __shfl_up(frag.x[1], 2)                       # one register of the fragment
    out_row[gid] = row
    moved = Swizzle.Reverse16.exec(frag)                # a whole fragment, via rocWMMA's layer
    for e in range(frag.num_elements):
        out_frag[gid * frag.num_elements + e] = moved.x[e]
    with where(threadIdx.x % 4 != 3):
        out_mask[gid] = __activemask()


@pytest.mark.parametrize("arch", list(WAVES))
def test_fragment_rows_fragments_and_activemask(arch):
    wave = WAVES[arch]
    n_elem = 256 // wave
    src = RNG.integers(0, 1000, wave * 4).astype(np.float32)
    out_row = np.zeros(src.size, np.float32)
    out_frag = np.zeros(src.size * n_elem, np.float32)
    out_mask = np.zeros(src.size, np.uint64)
    row, frag, mask = run_both(fragment_kinds_kernel, 2, 2 * wave, arch, src, out_row,
                               out_frag, out_mask)[1:]
    frag = frag.reshape(-1, n_elem)
    for w0 in range(0, src.size, wave):
        vals = src[w0:w0 + wave]
        assert row[w0:w0 + wave].tolist() == ref_shfl("_up", (vals + 1).tolist(), 2, wave, wave)
        for e in range(n_elem):
            want = ref_swizzle((vals + e).tolist(), (0x0F << 10) | 0x1F, wave, [True] * wave)
            assert frag[w0:w0 + wave, e].tolist() == want
        active = sum(1 << j for j in range(wave) if j % 4 != 3)
        assert [int(m) for m in mask[w0:w0 + wave] if m] == [active] * (3 * wave // 4)


@kernel
def every_control_kernel(src, old, out, codes, n_codes, offsets, n_offsets):
    lanes = gridDim.x * blockDim.x
    gid = blockIdx.x * blockDim.x + threadIdx.x
    v, o = src[gid], old[gid]
    cond = gid % 5 != 2
    for i in range(n_codes):
        ctrl = codes[i]  # read by every lane: under where() inactive lanes would read 0
        with where(cond):
            out[i * lanes + gid] = amdgcn.update_dpp(o, v, ctrl, 0xF, 0xD, i % 2 == 0)
    for i in range(n_offsets):
        offset = offsets[i]
        with where(cond):
            out[(n_codes + i) * lanes + gid] = amdgcn.ds_swizzle(v, offset)
    slot = (n_codes + n_offsets) * lanes
    for width in (1, 2, 4, 8, 16, 32, 64):
        if width <= wave_size():
            for kind in range(4):
                out[slot + gid] = SHUFFLES[kind](v, 2 * width - 3, width)
                slot += lanes


@pytest.mark.parametrize("arch", list(WAVES))
def test_every_control_and_width_inside_kernels(arch):
    """All DPP codes, swizzle modes and shuffle widths, in batches, on both engines."""
    wave = WAVES[arch]
    block, blocks = 2 * wave, 3
    lanes = block * blocks
    src = RNG.integers(1, 2**31, lanes).astype(np.int32)
    old = RNG.integers(1, 2**31, lanes).astype(np.int32)
    codes = np.array(dpp_codes(arch), np.int32)
    offsets = np.array([0x8000 | q for q in range(0, 256, 7)] + [0x041F, 0x7C00, 0x03E0]
                       + [0xC000 | (d << 10) | (r << 5) | m for d in (0, 1) for r in (1, 7, 30)
                          for m in (0x00, 0x10, 0x1C)] + [0xE000 | m for m in range(0, 32, 3)],
                       np.int32)
    widths = [w for w in (1, 2, 4, 8, 16, 32, 64) if w <= wave]
    out = np.zeros((codes.size + offsets.size + 4 * len(widths)) * lanes, np.int32)
    res = run_both(every_control_kernel, blocks, block, arch, src, old, out, codes, codes.size,
                   offsets, offsets.size)[2].reshape(-1, lanes)
    kinds = ["", "_up", "_down", "_xor"]
    for w0 in range(0, lanes, wave):
        s, o = src[w0:w0 + wave].tolist(), old[w0:w0 + wave].tolist()
        active = [(g % 5) != 2 for g in range(w0, w0 + wave)]
        on = np.flatnonzero(active)
        for i, ctrl in enumerate(codes.tolist()):
            want = ref_dpp(o, s, ctrl, 0xF, 0xD, i % 2 == 0, wave, active)
            assert res[i, w0 + on].tolist() == [want[j] for j in on], hex(ctrl)
        for i, off in enumerate(offsets.tolist()):
            want = ref_swizzle(s, off, wave, active)
            assert res[codes.size + i, w0 + on].tolist() == [want[j] for j in on], hex(off)
        row = codes.size + offsets.size
        for width in widths:
            for kind in kinds:
                want = ref_shfl(kind, s, 2 * width - 3, width, wave)
                assert res[row, w0:w0 + wave].tolist() == want, (kind, width)
                row += 1


def test_permute_and_swaps_under_where():
    """Inactive lanes neither send (ds_permute) nor are written; a swap reading an inactive
    partner follows bound_ctrl (0) or keeps the register (as DPP's invalid lanes)."""
    wave = 64
    active = random_active(wave)
    a = RNG.integers(1, 1000, wave).astype(np.int32)
    b = RNG.integers(1, 1000, wave).astype(np.int32)
    dest = RNG.integers(0, 4 * wave, wave).astype(np.int32)

    @kernel
    def k(x, y, d, o1, o2, o3, act):
        lane = threadIdx.x
        xv, yv, dv = x[lane], y[lane], d[lane]
        with where(act[lane] != 0):
            o1[lane] = amdgcn.ds_permute(dv, xv)
            vdst, src = amdgcn.permlane32_swap(xv, yv, False, True)
            o2[lane] = vdst
            o3[lane] = src

    outs = [np.zeros(wave, np.int32) for _ in range(3)]
    act = np.array(active, np.int32)
    o1, o2, o3 = run_both(k, 1, wave, "gfx950", a, b, dest, *outs, act)[3:6]
    sent = [0] * wave
    for lane in range(wave):
        if active[lane]:
            sent[(int(dest[lane]) // 4) % wave] = int(a[lane])
    for lane in (i for i in range(wave) if active[i]):
        partner = lane ^ 32
        assert o1[lane] == sent[lane]
        if lane >= 32:  # vdst's upper half takes src's lower half
            assert o2[lane] == (b[partner] if active[partner] else 0)
            assert o3[lane] == b[lane]
        else:  # src's lower half takes vdst's upper half
            assert o2[lane] == a[lane]
            assert o3[lane] == (a[partner] if active[partner] else 0)
