"""HIP's warp functions (amd_warp_functions.h): shuffles, votes and bit counts.

The shuffles compute the source lane exactly as HIP's header does (int32 arithmetic on
`__lane_id()`, then `ds_bpermute` of `index << 2`), so their corner cases are HIP's:
`__shfl` wraps `src_lane` into the caller's `width` group, `__shfl_up`/`__shfl_down` return
the caller's own value when the source falls outside its group, and `__shfl_xor` returns the
caller's own value only when `self ^ lane_mask` lies at or beyond the end of the caller's
group (a mask with bits at or above `width` may read a lower group, as in HIP). `width` must
be a power of two no larger than warpSize (HIP does not check; here it is an error).

Lanes outside `where(...)` are inactive: a shuffle reading one gets 0 (ds_bpermute returns 0
for a disabled source lane, CDNA3/CDNA4 ISA DS_BPERMUTE_B32), an inactive lane's own result
is its own `var`, and the votes (`__ballot`, `__any`, `__all`, `__activemask`) count active
lanes only. Vote results are per-lane values equal in every lane of a wave (Python ints where
uniform); `__ballot` is a 64-bit mask whose upper 32 bits are 0 on wave32.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from ..errors import CrossLaneError
from .lane_ops import active_lanes, lane_shape, per_wave_int, read_lanes, view, wave_size
from .lanes import Lanes, batch_data

_WRAP = 1 << 32


def _i32(x: np.ndarray) -> np.ndarray:
    """Two's-complement int32 wrap of int64 values (C's int arithmetic)."""
    return ((x + (1 << 31)) % _WRAP) - (1 << 31)


def _width(width: Any) -> int:
    wave = wave_size()
    if width is None:
        return wave
    try:
        w = operator.index(width)
    except TypeError:
        raise CrossLaneError(f"width must be an integer, got {width!r}") from None
    if w < 1 or w > wave or w & (w - 1):
        raise CrossLaneError(
            f"width must be a power of two from 1 to warpSize ({wave}), got {w}"
        )
    return w


def _self() -> np.ndarray:
    """(1, lanes per wave) lane ids: index maps of uniform operands stay one wave long."""
    return np.arange(lane_shape()[1], dtype=np.int64)[None, :]


def shfl_index(kind: str, operand: object, width: object = None) -> np.ndarray:
    """Source lane of each lane, (n, W) or (1, W), for `__shfl{kind}` (kind "", "_up",
    "_down", "_xor"), computed as amd_warp_functions.h does (int32; `lane_delta` unsigned)."""
    w = _width(width)
    me = _self()
    if kind == "":
        src = _i32(per_wave_int(operand, "src_lane"))
        return (src & (w - 1)) + (me & ~(w - 1))
    if kind == "_up":
        index = _i32(me - per_wave_int(operand, "lane_delta") % _WRAP)
        return np.where(index < (me & ~(w - 1)), me, index)
    if kind == "_down":
        delta = per_wave_int(operand, "lane_delta") % _WRAP
        past_end = _i32((me & (w - 1)) + delta) >= w
        return np.where(past_end, me, _i32(me + delta))
    index = _i32(me ^ _i32(per_wave_int(operand, "lane_mask")))
    return np.where(index >= ((me + w) & ~(w - 1)), me, index)


def shuffle(var: object, index: np.ndarray, what: str) -> object:
    """`var` of lane `index` (ds_bpermute of index << 2, so the lane is index mod W), for
    the function `what`. Any element type moves whole: a __half2 pair, a double or a long
    long is what HIP's overloads move with one or two ds_bpermute per lane."""
    return read_lanes((_i32(index << 2) >> 2) % wave_size(), var, what)


def __shfl(var: object, src_lane: object, width: object = None) -> Any:  # noqa: N807
    """Lane l gets `var` of lane (src_lane mod width) of l's width-group.

    Args:
        var: a per-lane value (Lanes, scalar, register vector, `frag.x` row).
        src_lane: source lane within each group (mod width), per lane or uniform.
        width: group size, a power of two <= warpSize (default: warpSize).

    Raises:
        CrossLaneError: a width that is not a power of two up to the wave size.
        NotInKernelError: outside a kernel.

    See `__shfl_xor` for an example.
    """
    return shuffle(var, shfl_index("", src_lane, width), "__shfl")


def __shfl_up(var: object, lane_delta: object, width: object = None) -> Any:  # noqa: N807
    """Lane l gets `var` of lane l - lane_delta, or its own when that leaves its group.

    Args:
        var: a per-lane value (Lanes, scalar, register vector, `frag.x` row).
        lane_delta: how many lanes down to read from (l - lane_delta).
        width: group size, a power of two <= warpSize (default: warpSize).

    Raises:
        CrossLaneError: a width that is not a power of two up to the wave size.
        NotInKernelError: outside a kernel.

    See `__shfl_xor` for an example.
    """
    return shuffle(var, shfl_index("_up", lane_delta, width), "__shfl_up")


def __shfl_down(var: object, lane_delta: object, width: object = None) -> Any:  # noqa: N807
    """Lane l gets `var` of lane l + lane_delta, or its own when that leaves its group.

    Args:
        var: a per-lane value (Lanes, scalar, register vector, `frag.x` row).
        lane_delta: how many lanes up to read from (l + lane_delta).
        width: group size, a power of two <= warpSize (default: warpSize).

    Raises:
        CrossLaneError: a width that is not a power of two up to the wave size.
        NotInKernelError: outside a kernel.

    See `__shfl_xor` for an example.
    """
    return shuffle(var, shfl_index("_down", lane_delta, width), "__shfl_down")


def __shfl_xor(var: object, lane_mask: object, width: object = None) -> Any:  # noqa: N807
    """Lane l gets `var` of lane l ^ lane_mask, or its own when that lies past its group.

    Args:
        var: a per-lane value (Lanes, scalar, register vector, `frag.x` row).
        lane_mask: xor-ed with the lane number.
        width: group size, a power of two <= warpSize (default: warpSize).

    Raises:
        CrossLaneError: a width that is not a power of two up to the wave size.
        NotInKernelError: outside a kernel.

    Example (a butterfly sum: every lane ends with its wave's total):
        >>> import numpy as np
        >>> from rocwmma_py import __shfl_xor, kernel, threadIdx, wave_size
        >>> @kernel
        ... def wave_sum(x):
        ...     v, offset = x[threadIdx.x], wave_size() // 2
        ...     while offset > 0:
        ...         v = v + __shfl_xor(v, offset)
        ...         offset //= 2
        ...     x[threadIdx.x] = v
        >>> x = np.arange(32, dtype=np.int32)
        >>> wave_sum[1, 32, 0, "gfx1100"](x)
        >>> int(x[0]), int(x[31])
        (496, 496)
    """
    return shuffle(var, shfl_index("_xor", lane_mask, width), "__shfl_xor")


def _votes(predicate: object) -> np.ndarray:
    """(n, W) bool: active lanes whose predicate is non-zero."""
    p = view(predicate, "predicate").data
    if p.ndim != 2:
        raise CrossLaneError(f"a vote takes one predicate per lane, got shape {p.shape[:-2]}")
    return (p != 0) & active_lanes()


def _per_lane(per_wave: Any) -> Lanes:
    return Lanes(np.repeat(per_wave, lane_shape()[1]))


def __ballot(predicate: object) -> Lanes:  # noqa: N807
    """64-bit mask of the active lanes whose predicate is non-zero (bit l = lane l).

    Inactive lanes (outside `where(...)`) count as 0. Every lane gets the wave's mask.

    Raises:
        CrossLaneError: a predicate that is not one value per lane.
        NotInKernelError: outside a kernel.

    Example:
        >>> import numpy as np
        >>> from rocwmma_py import __ballot, kernel, threadIdx
        >>> @kernel
        ... def odd_lanes(out):
        ...     out[threadIdx.x] = __ballot(threadIdx.x % 2 == 1)
        >>> out = np.zeros(64, np.uint64)
        >>> odd_lanes[1, 64, 0, "gfx942"](out)
        >>> hex(int(out[0]))
        '0xaaaaaaaaaaaaaaaa'
    """
    bits = _votes(predicate).astype(np.uint64) << np.arange(lane_shape()[1], dtype=np.uint64)
    return _per_lane(np.bitwise_or.reduce(bits, axis=-1))


def __any(predicate: object) -> Lanes:  # noqa: N807
    """1 if any active lane's predicate is non-zero, else 0."""
    return _per_lane(_votes(predicate).any(axis=-1).astype(np.int32))


def __all(predicate: object) -> Lanes:  # noqa: N807
    """1 if every active lane's predicate is non-zero (also when no lane is active)."""
    p = view(predicate, "predicate").data
    return _per_lane(((p != 0) | ~active_lanes()).all(axis=-1).astype(np.int32))


def __activemask() -> Lanes:  # noqa: N807
    """64-bit mask of the active lanes (__ballot(true))."""
    return __ballot(True)


def _bits(x: object, dtype: type) -> np.ndarray:
    a = np.asarray(batch_data(x))
    if a.dtype.kind not in "iub":
        raise CrossLaneError(f"bit counts take integers, got dtype {a.dtype}")
    return a.astype(dtype)


def _like(result: np.ndarray):
    """A per-lane result as Lanes, a scalar one as a numpy scalar, anything else as it is."""
    return Lanes(result) if result.ndim == 1 else result[()] if result.ndim == 0 else result


def __popc(x: object):  # noqa: N807
    """Number of set bits of the 32-bit unsigned x."""
    return _like(np.bitwise_count(_bits(x, np.uint32)).astype(np.int32))


def __popcll(x: object):  # noqa: N807
    """Number of set bits of the 64-bit unsigned x."""
    return _like(np.bitwise_count(_bits(x, np.uint64)).astype(np.int32))


def _ffs(v: np.ndarray) -> np.ndarray:
    low = v & (~v + v.dtype.type(1))  # lowest set bit (0 when v == 0)
    below = np.bitwise_count(low - v.dtype.type(1))
    return np.where(v == 0, 0, below.astype(np.int32) + 1).astype(np.int32)


def __ffs(x: object):  # noqa: N807
    """1 + index of the least significant set bit of the 32-bit x, 0 when x == 0."""
    with np.errstate(over="ignore"):
        return _like(_ffs(_bits(x, np.uint32)))


def __ffsll(x: object):  # noqa: N807
    """1 + index of the least significant set bit of the 64-bit x, 0 when x == 0."""
    with np.errstate(over="ignore"):
        return _like(_ffs(_bits(x, np.uint64)))


WARP_FUNCTIONS = ("__shfl", "__shfl_up", "__shfl_down", "__shfl_xor", "__ballot", "__any",
                  "__all", "__activemask", "__popc", "__popcll", "__ffs", "__ffsll")
