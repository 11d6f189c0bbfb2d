"""Cross-lane lane patterns as data: for each control value, which lane each lane reads.

Every pattern is a pair of (W,) arrays built once per (control, wave size) and cached:
`src[l]` is the lane that lane l reads, `valid[l]` whether that read is in range (an
out-of-range read is an "invalid lane" for DPP's bound_ctrl). Which targets have which
control is a table too (`DPP_CONTROLS`), so an architecture stays a row of data.

Sources: DPP_CTRL encodings and meanings from the AMD CDNA3/CDNA4 ISA ("DPP_CTRL
enumeration") and LLVM's AMDGPUModifierSyntax (dpp_ctrl, dpp16_ctrl, dpp32_ctrl: row_share/
row_xmask on GFX10+, row_newbcast on GFX90A+); ds_swizzle_b32 offset modes from the
CDNA4 / RDNA3 ISA pseudocode (FFT, rotate, quad-perm, bit-mask); v_permlane16/x16 from the
RDNA3 ISA (VOP3 V_PERMLANE16_B32, V_PERMLANEX16_B32). Row 0 of row_bcast:15 (rows 0-1 of
row_bcast:31) reads its own lane, as rocWMMA's cross_lane_ops_test (dpp_wfall_bcast_*)
expects of the hardware. gfx1250's v_permlane_bcast/up/down/xor_b32: see
`permlane_group_pattern`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from ..errors import CrossLaneError, UnsupportedInstructionError
from . import ARCH_NAMES, targets_with

ROW = 16  # DPP row: 16 lanes; a bank is 4 lanes of a row


@dataclass(frozen=True)
class DppControl:
    """One family of dpp_ctrl values: its name, code range and the targets that have it."""

    name: str
    first: int
    last: int
    targets: tuple[str, ...]


# which targets have which control: the `Arch` DPP columns
_GFX9 = targets_with("dpp_wave_shifts")
_GFX90A_PLUS = targets_with("dpp_row_newbcast")
_GFX11_PLUS = targets_with("dpp_row_share")
_ALL = ARCH_NAMES

DPP_CONTROLS: tuple[DppControl, ...] = (
    DppControl("quad_perm", 0x000, 0x0FF, _ALL),
    DppControl("row_shl", 0x101, 0x10F, _ALL),
    DppControl("row_shr", 0x111, 0x11F, _ALL),
    DppControl("row_ror", 0x121, 0x12F, _ALL),
    DppControl("wave_shl:1", 0x130, 0x130, _GFX9),
    DppControl("wave_rol:1", 0x134, 0x134, _GFX9),
    DppControl("wave_shr:1", 0x138, 0x138, _GFX9),
    DppControl("wave_ror:1", 0x13C, 0x13C, _GFX9),
    DppControl("row_mirror", 0x140, 0x140, _ALL),
    DppControl("row_half_mirror", 0x141, 0x141, _ALL),
    DppControl("row_bcast:15", 0x142, 0x142, _GFX9),
    DppControl("row_bcast:31", 0x143, 0x143, _GFX9),
    DppControl("row_newbcast", 0x150, 0x15F, _GFX90A_PLUS),
    DppControl("row_share", 0x150, 0x15F, _GFX11_PLUS),
    DppControl("row_xmask", 0x160, 0x16F, _GFX11_PLUS),
)


def dpp_control(ctrl: int, arch_name: str) -> DppControl:
    """The control family of `ctrl` on `arch_name`; reserved codes raise CrossLaneError, codes
    the target lacks raise UnsupportedInstructionError naming the targets that have them."""
    families = [c for c in DPP_CONTROLS if c.first <= ctrl <= c.last]
    if not families:
        raise CrossLaneError(
            f"dpp_ctrl {ctrl:#x} is reserved; valid codes: quad_perm 0x00-0xff, row_shl "
            "0x101-0x10f, row_shr 0x111-0x11f, row_ror 0x121-0x12f, wave_shl/rol/shr/ror:1 "
            "0x130/0x134/0x138/0x13c, row_mirror 0x140, row_half_mirror 0x141, row_bcast "
            "0x142/0x143, row_share/row_newbcast 0x150-0x15f, row_xmask 0x160-0x16f"
        )
    for family in families:
        if arch_name in family.targets:
            return family
    have = ", ".join(dict.fromkeys(t for f in families for t in f.targets))
    names = " / ".join(f.name for f in families)
    raise UnsupportedInstructionError(
        f"dpp_ctrl {ctrl:#x} ({names}) is not available on {arch_name}; it exists on {have}"
    )


@functools.cache
def dpp_pattern(ctrl: int, wave: int) -> tuple[np.ndarray, np.ndarray]:
    """(src, valid) of DPP control `ctrl` on a wave of `wave` lanes (the code's support on the
    target is checked by `dpp_control`)."""
    lane: np.ndarray = np.arange(wave)
    row_base, in_row = lane & ~(ROW - 1), lane & (ROW - 1)
    valid: np.ndarray = np.ones(wave, bool)
    src: np.ndarray
    if ctrl <= 0xFF:
        src = (lane & ~3) | ((ctrl >> (2 * (lane & 3))) & 3)
    elif 0x101 <= ctrl <= 0x10F:  # row_shl: lane reads lane + n of its row
        src, valid = lane + (ctrl & 0xF), in_row + (ctrl & 0xF) < ROW
    elif 0x111 <= ctrl <= 0x11F:  # row_shr: lane - n
        src, valid = lane - (ctrl & 0xF), in_row >= (ctrl & 0xF)
    elif 0x121 <= ctrl <= 0x12F:  # row_ror: rotate right inside the row
        src = row_base + ((in_row - (ctrl & 0xF)) & (ROW - 1))
    elif ctrl == 0x130:
        src, valid = lane + 1, lane + 1 < wave
    elif ctrl == 0x134:
        src = (lane + 1) % wave
    elif ctrl == 0x138:
        src, valid = lane - 1, lane >= 1
    elif ctrl == 0x13C:
        src = (lane - 1) % wave
    elif ctrl == 0x140:
        src = row_base + (ROW - 1 - in_row)
    elif ctrl == 0x141:
        src = (lane & ~7) + (7 - (lane & 7))
    elif ctrl == 0x142:  # lane 15 of the previous row; row 0 keeps its own lane
        src = np.where(lane >= ROW, row_base - 1, lane)
    elif ctrl == 0x143:  # lane 31 to rows 2 and 3; rows 0-1 keep their own lane
        src = np.where(lane >= 32, 31, lane)
    elif 0x150 <= ctrl <= 0x15F:  # row_share / row_newbcast: lane n of the row
        src = row_base + (ctrl & 0xF)
    elif 0x160 <= ctrl <= 0x16F:  # row_xmask: lane ^ n inside the row
        src = row_base + (in_row ^ (ctrl & 0xF))
    else:
        raise CrossLaneError(f"dpp_ctrl {ctrl:#x} is reserved")
    src = np.where(valid, src, lane)
    return _frozen(src), _frozen(valid)


@functools.cache
def dpp_write_mask(row_mask: int, bank_mask: int, wave: int) -> np.ndarray:
    """Lanes a DPP instruction writes: row (lane // 16) bit of row_mask and bank
    ((lane >> 2) & 3) bit of bank_mask both set."""
    for name, value in (("row_mask", row_mask), ("bank_mask", bank_mask)):
        if not 0 <= value <= 0xF:
            raise CrossLaneError(f"{name} is a 4-bit mask (0x0-0xf), got {value!r}")
    lane = np.arange(wave)
    rows = (row_mask >> (lane >> 4)) & 1
    banks = (bank_mask >> ((lane >> 2) & 3)) & 1
    return _frozen((rows & banks).astype(bool))


@functools.cache
def swizzle_pattern(offset: int, wave: int) -> tuple[np.ndarray, str]:
    """(src, mode) of ds_swizzle_b32 `offset` (ISA pseudocode: FFT >= 0xe000, rotate >=
    0xc000, quad-perm when bit 15 is set, else and/or/xor bit-mask within 32 lanes)."""
    if not 0 <= offset <= 0xFFFF:
        raise CrossLaneError(f"ds_swizzle offset is 16 bits (0x0-0xffff), got {offset!r}")
    lane = np.arange(wave)
    group = lane & 0x20
    low = lane & 0x1F
    if offset >= 0xE000:
        mask = offset & 0x1F
        reversed5 = np.array([int(f"{i:05b}"[::-1], 2) for i in range(32)])[low]
        src = (reversed5 >> bin(mask).count("1")) | (low & mask) | group
        mode = "fft"
    elif offset >= 0xC000:
        rotate = (offset >> 5) & 0x1F
        mask = offset & 0x1F
        if offset & 0x400:
            rotate = -rotate
        src = ((low & mask) | ((low + rotate) & ~mask & 0x1F)) | group
        mode = "rotate"
    elif offset & 0x8000:
        src = (lane & ~3) | ((offset >> (2 * (lane & 3))) & 3)
        mode = "quad_perm"
    else:
        and_mask, or_mask, xor_mask = offset & 0x1F, (offset >> 5) & 0x1F, (offset >> 10) & 0x1F
        src = (((low & and_mask) | or_mask) ^ xor_mask) | group
        mode = "bitmask"
    return _frozen(src % wave), mode


@functools.cache
def permlane16_pattern(sel_lo: int, sel_hi: int, cross: bool, wave: int) -> np.ndarray:
    """src of v_permlane16_b32 (cross=False: inside the row) or v_permlanex16_b32 (cross:
    from the other row of each pair, 1<->0, 3<->2); lane i of a row reads nibble i of the
    64-bit select {sel_hi, sel_lo}."""
    select = ((sel_hi & 0xFFFFFFFF) << 32) | (sel_lo & 0xFFFFFFFF)
    lane = np.arange(wave)
    nibble = np.array([(select >> (4 * i)) & 0xF for i in range(ROW)])[lane & (ROW - 1)]
    row = lane >> 4
    src_row = row ^ 1 if cross else row
    return _frozen(src_row * ROW + nibble)


PERMLANE_GROUP_OPS = ("bcast", "up", "down", "xor")


def permlane_group_pattern(op: str, operand: int, width: int, wave: int) -> np.ndarray:
    """src of gfx1250's v_permlane_<op>_b32 with SGPR operands `operand` (sel, delta or mask)
    and `width`: lanes work in aligned groups of `width`, base = lane & ~(width - 1).

    bcast: lane reads base + (sel[5:0] & (width - 1)). up / down: d = min(delta, width)
    (unsigned 32-bit); a lane whose group position j has j < d (up) or j + d >= width (down)
    reads itself, else lane - d / lane + d. xor: mask >= wave size reads itself; else x =
    lane ^ mask[5:0], and x >= base + width reads itself (a target below the group is read:
    that is the select of HIP's fallback, which the header says the instruction matches).

    Source: AMD HIP runtime hip/amd_detail/amd_warp_functions.h (MIT; repository and commit
    not identified: public code index id 68984925445), the comments on __shfl, __shfl_up,
    __shfl_down and __shfl_xor stating the instructions' selects; a HIP test program against
    the CDNA5 ISA section 15.14 (index id 70464647987) expects the same tables. AMD's rocjitsu
    instruction-semantics generator (amdisa/codegen/execute, index id 56910944270) disagrees:
    it gives 0 where these read the lane itself; the HIP runtime is code that runs on the
    hardware, so it is followed. Widths other than powers of two up to the wave size raise:
    the sources disagree on them.
    """
    if not (1 <= width <= wave and width & (width - 1) == 0):
        allowed = ", ".join(str(1 << i) for i in range(wave.bit_length()))
        raise CrossLaneError(
            f"permlane_{op} width must be a power of two from 1 to the wave size ({allowed}), "
            f"got {width!r}"
        )
    # sel[5:0] and mask[5:0] need no mask of their own: width - 1 and a mask below the wave
    # size are already below 64
    if op == "bcast":
        key = operand & (width - 1)
    elif op in ("up", "down"):
        key = min(operand & 0xFFFFFFFF, width)
    elif op == "xor":
        key = min(operand & 0xFFFFFFFF, wave)  # wave: every lane reads itself
    else:
        raise CrossLaneError(f"permlane op must be one of {PERMLANE_GROUP_OPS}, got {op!r}")
    return _group_pattern(op, key, width, wave)


@functools.cache
def _group_pattern(op: str, key: int, width: int, wave: int) -> np.ndarray:
    """`permlane_group_pattern` of an operand already reduced to `key`."""
    lane = np.arange(wave)
    base = lane & ~(width - 1)
    j = lane - base
    if op == "bcast":
        src = base + key
    elif op == "up":
        src = np.where(j < key, lane, lane - key)
    elif op == "down":
        src = np.where(j + key >= width, lane, lane + key)
    elif key >= wave:  # xor with a mask past the wave
        src = lane
    else:
        src = lane ^ key
        src = np.where(src >= base + width, lane, src)
    return _frozen(src)


@functools.cache
def swap_partner(half: int, wave: int) -> np.ndarray:
    """Partner lane of v_permlane{16,32}_swap_b32: lane l swaps with l ^ half (half = 16:
    odd rows with even rows; 32: rows 2-3 with rows 0-1)."""
    return _frozen(np.arange(wave) ^ half)


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    a.flags.writeable = False
    return a
