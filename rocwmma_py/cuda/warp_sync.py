"""CUDA's `_sync` warp functions on AMD waves, with the participation mask checked.

CUDA (Programming Guide, "Warp Shuffle Functions" / "Warp Vote Functions"): `mask` names the
participating lanes; every calling lane must be in its own mask, every lane named in a mask
must call with the same mask, and reading a lane outside the mask is undefined. Undefined
behaviour is refused here with `CrossLaneError` naming the lanes. Calling lanes are the
lanes active under `where(...)`.

The mask is converted as C converts the argument: a negative int is its two's complement
(`int mask = -1` names every lane), and on wave32 a mask is the low 32 bits of a
sign-extended int (anything else above bit 31 is refused). A mask may name any subset of the
calling lanes (`__shfl_up_sync(0xf, ...)` called by lanes 0-3). On wave64 (gfx9) CUDA's usual
0xffffffff names lanes 0-31 only: called by lanes 32-63 too, it is refused with a hint to
pass a 64-bit mask (0xffffffffffffffff, or -1) or to target wave32.
"""

from __future__ import annotations

import numpy as np

from ..errors import CrossLaneError
from ..runtime.lane_ops import (
    active_lanes,
    lane_shape,
    per_wave_int,
    thread_lanes,
    view,
    wave_size,
)
from ..runtime.lanes import Lanes, batch_data
from ..runtime.state import NeedsFullWidth, current_context_or_none
from ..runtime.warp import __ballot, shfl_index, shuffle


def _c_mask(mask: object, what: str) -> np.ndarray:
    """The mask per lane, uint64 as C converts it to the mask parameter: (n, W), or (1, W)
    when it is the same in every wave (`per_wave_int`)."""
    w = wave_size()
    ctx = current_context_or_none()
    if ctx is not None and ctx.narrow and np.ndim(batch_data(mask)):
        raise NeedsFullWidth  # per-lane masks are checked against every lane of a wave
    raw = per_wave_int(np.asarray(batch_data(mask)).astype(np.uint64).astype(np.int64),
                       f"{what} mask")
    if w == 32:
        high = raw >> 32  # arithmetic: -1 for a sign-extended negative int
        if ((high != 0) & (high != -1)).any():
            bad = int(raw[(high != 0) & (high != -1)][0]) & (2**64 - 1)
            raise CrossLaneError(f"{what}: a wave32 mask has 32 bits, got {bad:#x}")
        raw = raw & 0xFFFFFFFF
    return raw.astype(np.uint64)


def _every_wave(m: np.ndarray) -> np.ndarray:
    """A (1, lanes per wave) array as the (n, lanes per wave) of every wave."""
    return np.broadcast_to(m, lane_shape())


def _masks(mask: object, what: str) -> np.ndarray:
    """The masks of the calling lanes (`_c_mask`), checked as CUDA requires against the
    lanes that call (active under `where` and in the block)."""
    m = _c_mask(mask, what)
    calling, threads = active_lanes(), thread_lanes()
    if not _plainly_valid(m, calling, threads):
        _check_named(_every_wave(m), calling, threads, what)
    return m


def _plainly_valid(m: np.ndarray, calling: np.ndarray, threads: np.ndarray) -> bool:
    """The common case, checked on (n, W) values (not `_check_named`'s (n, W, W)): each
    wave's lanes share one mask, naming every calling lane and no thread that does not
    call. Where this fails the full check decides, and names the first offence."""
    lanes = np.arange(m.shape[1], dtype=np.uint64)
    first = m[:, :1]
    if not (m == first).all():
        return False
    named = ((first >> lanes) & np.uint64(1)).astype(bool)  # (n, W): the lanes it names
    return not (calling & ~named).any() and not (
        named & calling.any(axis=1, keepdims=True) & ~calling & threads).any()


def _named(m: np.ndarray) -> np.ndarray:
    """named[wave, caller, lane]: whether the caller's mask names the lane."""
    lanes = np.arange(m.shape[1], dtype=np.uint64)
    return ((m[:, :, None] >> lanes) & np.uint64(1)).astype(bool)


def _check_named(m: np.ndarray, calling: np.ndarray, threads: np.ndarray, what: str) -> None:
    """CrossLaneError for the first lane (wave-major) whose mask breaks CUDA's rules."""
    w = m.shape[1]
    named = _named(m)
    own = named[:, np.arange(w), np.arange(w)]
    if (calling & ~own).any():
        wave, lane = np.argwhere(calling & ~own)[0]
        hint = ""
        if lane >= 32 and int(m[wave, lane]) >> 32 == 0:
            hint = (f"; this target has 64-lane waves, where {int(m[wave, lane]):#x} names "
                    "lanes 0-31 only: pass a 64-bit mask (0xffffffffffffffff or -1 for the "
                    "whole wave) or use a wave32 target (gfx11/gfx12)")
        raise CrossLaneError(
            f"{what}: lane {lane} calls with mask {int(m[wave, lane]):#x}, which does not "
            f"include itself (CUDA: undefined){hint}"
        )
    # lanes past the end of a partial wave are no threads: like exited ones, a mask may name
    # them (CUDA: "all non-exited threads named in mask")
    absent = named & (~calling & threads)[:, None, :] & calling[:, :, None]
    differs = named & (m[:, None, :] != m[:, :, None]) & calling[:, :, None]
    for problem, text in ((absent, "is inactive (outside where() or the block)"),
                          (differs, "calls with a different mask")):
        if problem.any():
            wave, lane, other = np.argwhere(problem)[0]
            raise CrossLaneError(
                f"{what}: lane {lane}'s mask {int(m[wave, lane]):#x} names lane {other}, which "
                f"{text} (CUDA: undefined)"
            )


def _shfl_sync(kind: str, mask: object, var: object, operand: object, width: object):
    what = f"__shfl{kind}_sync"
    m = _masks(mask, what)
    source = shfl_index(kind, operand, width) % wave_size()  # (1, W) where uniform
    bad = active_lanes() & (((m >> source.astype(np.uint64)) & np.uint64(1)) == 0)
    if bad.any():
        wave, lane = np.argwhere(bad)[0]
        source, m = _every_wave(source), _every_wave(m)
        raise CrossLaneError(
            f"{what}: lane {lane} reads lane {source[wave, lane]}, which is not in its mask "
            f"{int(m[wave, lane]):#x} (CUDA: undefined)"
        )
    return shuffle(var, source, what)


def _over_mask(named: np.ndarray, predicate: object, reduce) -> Lanes:
    """Per lane: `reduce` of the predicate over the threads its mask names (CUDA: "all
    non-exited threads named in mask"; lanes past a partial wave's threads are none)."""
    p = view(predicate, "predicate").data
    if p.ndim != 2:
        raise CrossLaneError(f"a vote takes one predicate per lane, got shape {p.shape[:-2]}")
    named = named & thread_lanes()[:, None, :]
    hold = (p != 0)[:, None, :]
    votes = reduce(hold | ~named, axis=-1) if reduce is np.all else reduce(hold & named, axis=-1)
    return Lanes(votes.astype(np.int32).reshape(-1))


def __shfl_sync(mask: object, var: object, srcLane: object, width: object = None):  # noqa: N803,N807
    """CUDA __shfl_sync: __shfl over the lanes of `mask`."""
    return _shfl_sync("", mask, var, srcLane, width)


def __shfl_up_sync(mask: object, var: object, delta: object, width: object = None):  # noqa: N807
    """CUDA __shfl_up_sync: __shfl_up over the lanes of `mask`."""
    return _shfl_sync("_up", mask, var, delta, width)


def __shfl_down_sync(mask: object, var: object, delta: object, width: object = None):  # noqa: N807
    """CUDA __shfl_down_sync: __shfl_down over the lanes of `mask`."""
    return _shfl_sync("_down", mask, var, delta, width)


def __shfl_xor_sync(mask: object, var: object, laneMask: object, width: object = None):  # noqa: N803,N807
    """CUDA __shfl_xor_sync: __shfl_xor over the lanes of `mask`."""
    return _shfl_sync("_xor", mask, var, laneMask, width)


def __ballot_sync(mask: object, predicate: object):  # noqa: N807
    """CUDA __ballot_sync: the ballot of the lanes in `mask` (other bits 0)."""
    m = _masks(mask, "__ballot_sync")
    return __ballot(predicate) & Lanes(_every_wave(m).reshape(-1))


def __any_sync(mask: object, predicate: object):  # noqa: N807
    """CUDA __any_sync: 1 if the predicate holds in some thread of `mask`."""
    return _over_mask(_named(_every_wave(_masks(mask, "__any_sync"))), predicate, np.any)


def __all_sync(mask: object, predicate: object):  # noqa: N807
    """CUDA __all_sync: 1 if the predicate holds in every thread of `mask`."""
    return _over_mask(_named(_every_wave(_masks(mask, "__all_sync"))), predicate, np.all)


SYNC_FUNCTIONS = ("__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync",
                  "__ballot_sync", "__any_sync", "__all_sync")
