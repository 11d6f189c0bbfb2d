"""Cross-lane data movement on per-lane values: the amdgcn builtins behind HIP's warp functions.

Every operation works per wave: a per-lane value of a batch (lanes of n waves, wave-major,
lane axis last) is viewed as (..., n, W) and each wave reads only its own W lanes through an
index map (`arch.crosslane` holds the maps). Values may be `Lanes`, scalars (the same in every
lane), register vectors (`VectorRegs`, (lanes, k)) or lanes-last arrays such as `frag.x`
((k, lanes)); the result has the input's kind (`Lanes` for a per-lane scalar).

Exec mask: lanes outside the enclosing `where(...)` are inactive. As the ISA defines it, a
read from an inactive lane returns 0 (ds_bpermute, ds_swizzle) or counts as an invalid lane
(DPP, permlane: `bound_ctrl` then gives 0, else the lane keeps `old`; `fi=True` reads it
anyway), and inactive lanes are not written: they keep `old`, or for builtins without an
`old` operand the value of their own source operand (LLVM leaves those lanes undefined).
gfx1250's permlane_bcast/up/down/xor have neither `old` nor `bound_ctrl`: as for DPP and
permlane16 without bound_ctrl, an inactive source is an invalid lane and the reading lane
keeps its own `src` (no source states what the hardware reads there).
Sources: AMD CDNA3/CDNA4 ISA (DS_BPERMUTE_B32, DS_PERMUTE_B32, DS_SWIZZLE_B32, V_READLANE_B32,
V_READFIRSTLANE_B32, DPP), RDNA3 ISA (V_PERMLANE16_B32, V_PERMLANEX16_B32), CDNA4 ISA
(V_PERMLANE16_SWAP_B32, V_PERMLANE32_SWAP_B32), LLVM AMDGPUUsage / AMDGPUModifierSyntax.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..arch import crosslane as patterns
from ..arch import targets_with
from ..errors import CrossLaneError, UnsupportedInstructionError
from .lanes import Lanes, batch_data
from .state import NeedsFullWidth, current_context_or_none
from .target import current_arch
from .vectors import VectorRegs


@dataclass
class WaveView:
    """A per-lane value as (..., n, W) plus how to give a result back in the input's kind."""

    data: np.ndarray
    rebuild: Callable[[np.ndarray], object]


def wave_shape() -> tuple[int, int]:
    """(waves, W) of the running kernel, or (1, W of the current target), for operations
    that see every lane of a wave (a narrow batch reruns with whole waves)."""
    ctx = current_context_or_none()
    if ctx is None:
        return 1, current_arch().wave_size
    ctx.whole_waves()
    return ctx.n_waves, ctx.wave_size


def lane_shape() -> tuple[int, int]:
    """(waves, lanes per wave) of per-lane values: a narrow batch holds only its blocks'
    threads (`WaveContext.width`). Operations using it treat the lanes past them as the
    inactive lanes they are (`bpermute`) or never reach them."""
    ctx = current_context_or_none()
    if ctx is None:
        return 1, current_arch().wave_size
    return ctx.n_waves, ctx.width


def wave_size() -> int:
    """The running target's wave size (W: lane numbers wrap modulo it)."""
    return current_arch().wave_size


def exec_mask() -> np.ndarray | None:
    """(n, lanes per wave) exec mask of the enclosing `where(...)` blocks, or None when every
    lane is on."""
    ctx = current_context_or_none()
    if ctx is None:
        return None
    mask = ctx.active_mask()
    if mask is None or (ctx.narrow and mask is ctx.live):  # (a narrow batch's: all on)
        return None
    return np.asarray(mask, bool).reshape(lane_shape())


def active_lanes() -> np.ndarray:
    """(n, lanes per wave) exec mask, all True outside `where(...)`."""
    mask = exec_mask()
    return np.ones(lane_shape(), bool) if mask is None else mask


def thread_lanes() -> np.ndarray:
    """(n, lanes per wave): lanes that are threads of their block (all but a partial wave's
    last ones)."""
    ctx = current_context_or_none()
    if ctx is None or ctx.live is None:
        return np.ones(lane_shape(), bool)
    return ctx.live.reshape(lane_shape())


def _plain_lane_data(value: object) -> None:
    """A narrow batch meeting a plain array as lane data (not `Lanes`, not a scalar): its
    length may pass for the batch's lanes, so it reruns with whole waves, where it is read
    as per-wave code reads it."""
    ctx = current_context_or_none()
    if (ctx is not None and ctx.narrow and not isinstance(value, (Lanes, VectorRegs))
            and np.ndim(batch_data(value))):
        raise NeedsFullWidth


def view(value: object, what: str) -> WaveView:
    """`value` as (..., n, lanes per wave); see the module docstring for the kinds
    accepted."""
    _plain_lane_data(value)
    n, w = lane_shape()
    lanes = n * w
    if isinstance(value, VectorRegs):
        regs = batch_data(value)
        cls = type(value)
        return WaveView(regs.T.reshape(-1, n, w), lambda out: cls(out.reshape(-1, lanes).T))
    a = np.asarray(batch_data(value))
    # the lane axis: a Lanes value says which (a __half2 pair per lane is (lanes, 2), rows
    # are lanes); a plain array has lanes last, or as rows when only its first axis fits
    axis = value.lane_axis if isinstance(value, Lanes) else -1
    if (axis == -1 and a.ndim == 2 and a.shape[-1] not in (w, lanes)
            and a.shape[0] in (w, lanes)):
        axis = -2
    a = np.moveaxis(a, axis, -1) if a.ndim else a
    if a.ndim == 0:
        a = np.broadcast_to(a, (lanes,))
    elif a.shape[-1] == w and lanes != w:  # one wave's lanes: the same in every wave
        a = np.tile(a, (1,) * (a.ndim - 1) + (n,))
    if a.shape[-1] != lanes:
        raise CrossLaneError(
            f"{what} needs one value per lane ({lanes} lanes"
            f"{f' = {n} waves x {w}' if n > 1 else ''}); got shape {a.shape}"
        )
    shape = a.shape
    out_is_lanes = len(shape) == 1 or isinstance(value, Lanes)

    def rebuild(out: np.ndarray) -> object:
        out = np.moveaxis(out.reshape(shape), -1, axis)
        return Lanes(out, axis) if out_is_lanes else out

    return WaveView(a.reshape(shape[:-1] + (n, w)), rebuild)


def per_wave_int(value: object, what: str) -> np.ndarray:
    """A per-lane integer operand as int64 (n, W), or (1, W) when it is the same in every
    wave (a scalar or one wave's values), so index maps stay one wave long."""
    _plain_lane_data(value)
    n, w = lane_shape()
    a = np.asarray(batch_data(value))
    if a.dtype.kind not in "iub":
        raise CrossLaneError(f"{what} must be an integer, got dtype {a.dtype}")
    a = a.astype(np.int64)
    if a.ndim == 0 or a.shape == (w,):
        return np.broadcast_to(a, (1, w))
    if a.shape != (n * w,):
        raise CrossLaneError(f"{what} needs one integer per lane ({n * w}); got shape {a.shape}")
    return a.reshape(n, w)


def uniform_int(value: Any, what: str) -> int:
    """A scalar (SGPR) operand: a Python int, or a wave-uniform per-lane value."""
    try:
        return operator.index(value)
    except TypeError:
        raise CrossLaneError(f"{what} must be a wave-uniform integer, got {value!r}") from None


def gather(data: np.ndarray, src: np.ndarray) -> np.ndarray:
    """data[..., w, src[w, l]] for (n, W) maps; data[..., src[l]] for (W,) or (1, W) maps."""
    if src.ndim == 1 or src.shape[0] == 1:
        return data[..., src.reshape(-1)]
    return np.take_along_axis(data, np.broadcast_to(src, data.shape), axis=-1)


def readable(src: np.ndarray, active: np.ndarray) -> np.ndarray:
    """(n, W): whether the lane each lane reads is active."""
    if src.ndim == 1 or src.shape[0] == 1:
        return active[:, src.reshape(-1)]
    return np.take_along_axis(active, src, axis=-1)


def _exec(got: np.ndarray, src: np.ndarray, own: np.ndarray, mask: np.ndarray | None,
          invalid: Any = 0) -> np.ndarray:
    """Apply the exec mask to gathered values: a read from an inactive lane gives `invalid`,
    an inactive lane keeps `own`."""
    if mask is None:
        return got
    return np.where(mask, np.where(readable(src, mask), got, invalid), own)


def require(builtin: str, targets: tuple[str, ...]) -> None:
    """UnsupportedInstructionError unless the current target is one of `targets`."""
    arch = current_arch()
    if arch.name not in targets:
        raise UnsupportedInstructionError(
            f"__builtin_amdgcn_{builtin} is not available on {arch.name}; it exists on "
            f"{', '.join(targets)}"
        )


GFX11_PLUS = targets_with("permlane16")  # the Arch columns
GFX950 = targets_with("permlane_swap")
GFX1250 = targets_with("permlane_groups")


def _flag(value: object, what: str) -> bool:
    if isinstance(value, (bool, np.bool_)) or value in (0, 1):
        return bool(value)
    raise CrossLaneError(f"{what} is a compile-time bool, got {value!r}")


# --- the builtins ----------------------------------------------------------------------------

def readlane(var: object, lane: object) -> Any:
    """__builtin_amdgcn_readlane: every lane gets `var` of lane `lane` (mod W, an SGPR
    operand: wave-uniform), read even if that lane is inactive (V_READLANE_B32)."""
    v = view(var, "readlane var")
    _, w = wave_shape()
    src = np.full(w, uniform_int(lane, "readlane lane") % w)
    return v.rebuild(gather(v.data, src))


def readfirstlane(var: object) -> Any:
    """__builtin_amdgcn_readfirstlane: every lane gets `var` of the lowest active lane of its
    wave (lane 0 when none is active, as V_READFIRSTLANE_B32 defines)."""
    v = view(var, "readfirstlane var")
    active = active_lanes()
    first = np.argmax(active, axis=-1)  # 0 when no lane is active
    src = np.broadcast_to(first[:, None], active.shape)
    return v.rebuild(gather(v.data, src))


def ds_bpermute(index: object, src: object) -> Any:
    """__builtin_amdgcn_ds_bpermute(index, src): lane l reads `src` of lane
    (index[l] >> 2) mod W (a byte address; high bits ignored); an inactive source lane
    reads as 0 (DS_BPERMUTE_B32)."""
    return bpermute(index, src, "ds_bpermute")


def bpermute(index: object, src: object, what: str) -> Any:
    """`ds_bpermute` on behalf of `what` (the function the kernel called, for messages)."""
    return read_lanes((per_wave_int(index, f"{what} index") >> 2) % wave_size(), src, what)


def read_lanes(lane: np.ndarray, src: object, what: str) -> Any:
    """`src` of lane `lane` (n, W) or (1, W) (each 0..W-1) with ds_bpermute's exec rules."""
    v = view(src, f"{what} src")
    width = lane_shape()[1]
    past = lane >= width if width < wave_size() else None  # a narrow batch: no such lanes
    if past is not None and past.any():
        lane = np.where(past, 0, lane)
    else:
        past = None
    out = _exec(gather(v.data, lane), lane, v.data, exec_mask())
    if past is not None:  # lanes past a narrow block's threads are inactive: read as 0
        out = np.where(past & active_lanes(), 0, out)
    return v.rebuild(out.astype(v.data.dtype, copy=False))


def ds_permute(index: object, src: object) -> Any:
    """__builtin_amdgcn_ds_permute(index, src): active lane l sends `src` to lane
    (index[l] >> 2) mod W; a lane nobody sends to gets 0; when several send to one lane the
    highest-numbered sender wins (DS_PERMUTE_B32)."""
    v = view(src, "ds_permute src")
    n, w = wave_shape()
    dest = np.broadcast_to((per_wave_int(index, "ds_permute index") >> 2) % w, (n, w))
    active = active_lanes()
    winner = np.full((n, w), -1)
    waves, lanes = np.nonzero(active)
    np.maximum.at(winner, (waves, dest[waves, lanes]), lanes)
    got = gather(v.data, np.maximum(winner, 0))
    out = np.where(winner >= 0, got, 0)
    return v.rebuild(np.where(active, out, v.data).astype(v.data.dtype, copy=False))


def update_dpp(old: object, src: object, dpp_ctrl: int, row_mask: int, bank_mask: int,
               bound_ctrl: bool) -> Any:
    """__builtin_amdgcn_update_dpp: v_mov_b32 with DPP. Lane l reads `src` of the lane the
    control selects; an out-of-range or inactive source gives 0 when bound_ctrl, else lane l
    keeps `old`; rows/banks cleared in row_mask/bank_mask and inactive lanes keep `old`."""
    return _dpp(old, src, dpp_ctrl, row_mask, bank_mask, bound_ctrl, "update_dpp")


def mov_dpp(src: object, dpp_ctrl: int, row_mask: int, bank_mask: int,
            bound_ctrl: bool) -> Any:
    """__builtin_amdgcn_mov_dpp: update_dpp whose unwritten lanes keep their own `src` (LLVM
    leaves them undefined)."""
    return _dpp(src, src, dpp_ctrl, row_mask, bank_mask, bound_ctrl, "mov_dpp")


def _dpp(old, src, dpp_ctrl, row_mask, bank_mask, bound_ctrl, name):
    ctrl = uniform_int(dpp_ctrl, f"{name} dpp_ctrl")
    arch = current_arch()
    patterns.dpp_control(ctrl, arch.name)
    _, w = wave_shape()
    lane_src, valid = patterns.dpp_pattern(ctrl, w)
    write = patterns.dpp_write_mask(uniform_int(row_mask, f"{name} row_mask"),
                                    uniform_int(bank_mask, f"{name} bank_mask"), w)
    bound = _flag(bound_ctrl, f"{name} bound_ctrl")
    s = view(src, f"{name} src")
    o = view(old, f"{name} old").data
    o = np.broadcast_to(o, np.broadcast_shapes(o.shape, s.data.shape))
    mask = exec_mask()
    ok = valid if mask is None else valid & readable(lane_src, mask)
    value = np.where(ok, gather(s.data, lane_src), 0 if bound else o)
    out = np.where(write if mask is None else write & mask, value, o)
    return s.rebuild(out.astype(s.data.dtype, copy=False))


def ds_swizzle(src: object, offset: int) -> Any:
    """__builtin_amdgcn_ds_swizzle(src, offset): the lane pattern of the 16-bit offset (bit
    mask, quad-perm, rotate or FFT mode, `arch.crosslane.swizzle_pattern`); an inactive source
    lane reads as 0 (DS_SWIZZLE_B32)."""
    v = view(src, "ds_swizzle src")
    lane_src, _ = patterns.swizzle_pattern(uniform_int(offset, "ds_swizzle offset"),
                                           wave_shape()[1])
    out = _exec(gather(v.data, lane_src), lane_src, v.data, exec_mask())
    return v.rebuild(out.astype(v.data.dtype, copy=False))


def permlane16(old: object, src0: object, src1: object, src2: object, fi: bool,
               bound_ctrl: bool) -> Any:
    """__builtin_amdgcn_permlane16 (gfx10+): lane i of each 16-lane row reads lane
    nibble i of {src2, src1} of its row (V_PERMLANE16_B32); fi/bound_ctrl as for DPP."""
    require("permlane16", GFX11_PLUS)
    return _permlane(old, src0, src1, src2, fi, bound_ctrl, False, "permlane16")


def permlanex16(old: object, src0: object, src1: object, src2: object, fi: bool,
                bound_ctrl: bool) -> Any:
    """__builtin_amdgcn_permlanex16 (gfx10+): like permlane16, reading from the other row of
    each pair of rows (V_PERMLANEX16_B32)."""
    require("permlanex16", GFX11_PLUS)
    return _permlane(old, src0, src1, src2, fi, bound_ctrl, True, "permlanex16")


def _permlane(old, src0, src1, src2, fi, bound_ctrl, cross, name):
    lane_src = patterns.permlane16_pattern(uniform_int(src1, f"{name} src1"),
                                           uniform_int(src2, f"{name} src2"), cross,
                                           wave_shape()[1])
    return _exchange(old, src0, lane_src, fi, bound_ctrl, name)


def _exchange(old, src, lane_src, fi, bound_ctrl, name):
    s = view(src, f"{name} src")
    o = view(old, f"{name} old").data
    o = np.broadcast_to(o, np.broadcast_shapes(o.shape, s.data.shape))
    fetch_inactive, bound = _flag(fi, f"{name} fi"), _flag(bound_ctrl, f"{name} bound_ctrl")
    got, mask = gather(s.data, lane_src), exec_mask()
    if mask is not None:
        ok = True if fetch_inactive else readable(lane_src, mask)
        got = np.where(mask, np.where(ok, got, 0 if bound else o), o)
    return s.rebuild(got.astype(s.data.dtype, copy=False))


def permlane32_swap(old: object, src: object, fi: bool, bound_ctrl: bool) -> tuple[Any, Any]:
    """__builtin_amdgcn_permlane32_swap (gfx950): swaps rows 2-3 of `old` (vdst) with rows
    0-1 of `src` (V_PERMLANE32_SWAP_B32); returns (new vdst, new src) like the builtin's
    2-element result."""
    require("permlane32_swap", GFX950)
    return _swap(old, src, 32, fi, bound_ctrl, "permlane32_swap")


def permlane16_swap(old: object, src: object, fi: bool, bound_ctrl: bool) -> tuple[Any, Any]:
    """__builtin_amdgcn_permlane16_swap (gfx950): swaps the odd rows of `old` (vdst) with the
    even rows of `src` (V_PERMLANE16_SWAP_B32); returns (new vdst, new src)."""
    require("permlane16_swap", GFX950)
    return _swap(old, src, 16, fi, bound_ctrl, "permlane16_swap")


def _swap(old, src, half, fi, bound_ctrl, name):
    _, w = wave_shape()
    partner = patterns.swap_partner(half, w)
    upper = (np.arange(w) & half) != 0
    vdst_new = _exchange(old, src, partner, fi, bound_ctrl, name)
    src_new = _exchange(src, old, partner, fi, bound_ctrl, name)
    keep_old, keep_src = view(old, name), view(src, name)
    vdst = np.where(upper, view(vdst_new, name).data, keep_old.data)
    srcn = np.where(upper, keep_src.data, view(src_new, name).data)
    return keep_old.rebuild(vdst), keep_src.rebuild(srcn)


def permlane_bcast(src: object, sel: object, width: object) -> Any:
    """__builtin_amdgcn_permlane_bcast (gfx1250, gfx1251): lane l reads `src` of lane
    sel[5:0] & (width - 1) of its group of `width` lanes (V_PERMLANE_BCAST_B32)."""
    return _group("bcast", src, sel, "sel", width)


def permlane_up(src: object, delta: object, width: object) -> Any:
    """__builtin_amdgcn_permlane_up (gfx1250, gfx1251): lane l reads lane l - delta of its
    group of `width` lanes, or itself when that is below the group; delta (unsigned) is
    clamped to width (V_PERMLANE_UP_B32)."""
    return _group("up", src, delta, "delta", width)


def permlane_down(src: object, delta: object, width: object) -> Any:
    """__builtin_amdgcn_permlane_down (gfx1250, gfx1251): lane l reads lane l + delta of its
    group of `width` lanes, or itself when that is past the group (V_PERMLANE_DOWN_B32)."""
    return _group("down", src, delta, "delta", width)


def permlane_xor(src: object, mask: object, width: object) -> Any:
    """__builtin_amdgcn_permlane_xor (gfx1250, gfx1251): lane l reads lane l ^ mask, or
    itself when that is at or past the end of its group of `width` lanes or mask >= the wave
    size (V_PERMLANE_XOR_B32)."""
    return _group("xor", src, mask, "mask", width)


def _group(op, src, operand, operand_name, width):
    """The lane-group permlanes: SGPR operands are wave-uniform (a batch whose waves differ
    splits); see `arch.crosslane.permlane_group_pattern` for the patterns and sources."""
    name = f"permlane_{op}"
    require(name, GFX1250)
    lane_src = patterns.permlane_group_pattern(
        op, uniform_int(operand, f"{name} {operand_name}"), uniform_int(width, f"{name} width"),
        wave_shape()[1])
    v = view(src, f"{name} src")
    out = _exec(gather(v.data, lane_src), lane_src, v.data, exec_mask(), v.data)
    return v.rebuild(out.astype(v.data.dtype, copy=False))


CROSS_LANE_BUILTINS = ("readlane", "readfirstlane", "ds_bpermute", "ds_permute", "mov_dpp",
                       "update_dpp", "ds_swizzle", "permlane16", "permlanex16",
                       "permlane32_swap", "permlane16_swap", "permlane_bcast", "permlane_up",
                       "permlane_down", "permlane_xor")
