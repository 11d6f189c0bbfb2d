"""rocWMMA 1.x's cooperative load/store (`rocwmma_coop.hpp`, ROCm 5.x-6.2), on the 2.x machinery.

1.x declared an ordinary fragment and passed the cooperation at the call:

    load_matrix_coop_sync(frag, data, ldm, waveIndex, waveCount)   // + deprecated splitCount
    store_matrix_coop_sync(data, frag, ldm, waveIndex, waveCount)
    load_matrix_coop_sync(frag, data, ldm)    // every wave of the block, row-major wave order

Wave `waveIndex` of `waveCount` loads (stores) only its portion of the block, packed at the
start of the fragment's registers; "the frag will only be partially filled with useful data.
Layout and thread locality is not guaranteed", so a coop load is meant to be paired with a
coop store of the same `waveIndex`/`waveCount` (global -> LDS staging). Waves beyond the
largest count that divides the work (1.x halves `waveCount` until it does) sit out.

2.x puts the cooperation in the fragment type (`fragment[..., coop_row_major_2d[TBX, TBY]]`)
and uses `load_matrix_sync`/`store_matrix_sync`. Here the 1.x calls move the share that 2.x
assigns: wave i's portion is share i of `fragment[..., coop_row_major_2d[waveCount * W, 1]]`
(the 2.x split: the K extent cut into `waveCount` slices), packed at the start of the full
fragment's registers as 1.x packs it; registers past the share keep their values. Which
elements make up a portion differs from 1.x's exact split (1.x cuts its IO stride space), which
1.x leaves unspecified; a paired load/store moves the same data either way.

1.x's `load_matrix_coop_sync<WaveCount>(frag, data, ldm, waveIndex)` (the count as a template
argument) has no Python spelling: a call with `waveIndex` and no `waveCount` raises, naming
the 5-argument form.
"""

from __future__ import annotations

import operator

import numpy as np

from ..runtime import Lanes, Pointer
from ..runtime.lanes import batch_data, describe_lanes
from ..runtime.state import current_context
from . import api
from .errors import FragmentError
from .fragment import _fragment_class, check_filled, fragment
from .schedulers import fragment_scheduler


def load_matrix_coop_sync(frag: fragment, data: Pointer, ldm: int, waveIndex=None,  # noqa: N803
                          waveCount=None, splitCount=None) -> None:  # noqa: N803
    """rocWMMA 1.x: this wave loads its portion (`waveIndex` of `waveCount`) of the block into
    the start of `frag`'s registers; without both, every wave of the block takes part.
    `splitCount` is accepted and ignored, as 1.x ignores it (deprecated there).

    Raises:
        FragmentError: `frag` has a 2.x scheduler (use `load_matrix_sync`), `waveIndex`
            without `waveCount`, counts that are not non-negative ints.
        and what `load_matrix_sync` raises for the pointer, ldm and bounds.
    """
    what = "load_matrix_coop_sync"
    plan, share_elements = _plan(frag, data, ldm, waveIndex, waveCount, what)
    values = data.gather(plan.offsets, plan.mask, plan.span)
    registers = batch_data(frag)
    lanes = slice(None) if plan.lanes is None else plan.lanes
    registers[:share_elements, lanes] = values[:, lanes]


def store_matrix_coop_sync(data: Pointer, frag: fragment, ldm: int, waveIndex=None,  # noqa: N803
                           waveCount=None, splitCount=None) -> None:  # noqa: N803
    """rocWMMA 1.x: this wave stores its portion (`waveIndex` of `waveCount`), read from the
    start of `frag`'s registers where `load_matrix_coop_sync` put it. Arguments and errors as
    `load_matrix_coop_sync`."""
    what = "store_matrix_coop_sync"
    check_filled(frag, "the fragment", what)
    plan, share_elements = _plan(frag, data, ldm, waveIndex, waveCount, what)
    data.scatter(plan.offsets, batch_data(frag)[:share_elements], plan.mask, plan.span,
                 distinct=True)


def _plan(frag: fragment, data: Pointer, ldm, wave_index, wave_count, what: str):
    """The 2.x plan of each running wave's share, and how many registers a share fills."""
    if not isinstance(frag, fragment):
        raise FragmentError(f"{what}: the fragment argument must be a rocwmma fragment; got "
                            f"{type(frag).__name__}")
    if frag.scheduler.kind != "default":
        raise FragmentError(f"{what}: {type(frag).__name__} already has the 2.x scheduler "
                            f"{frag.scheduler}; rocWMMA 2.x loads and stores a cooperative "
                            "fragment with load_matrix_sync / store_matrix_sync")
    if (wave_index is None) != (wave_count is None):
        raise FragmentError(f"{what}: pass both waveIndex and waveCount (1.x's 5-argument "
                            "form) or neither (every wave of the block); 1.x's "
                            f"{what}<WaveCount>(frag, data, ldm, waveIndex) is written "
                            f"{what}(frag, data, ldm, waveIndex, WaveCount)")
    data_layout, ldm = api._checked_io(frag, data, ldm, None, what)
    ctx = current_context(what)
    api._check_one_address_per_wave(data, ctx, what)
    wave = ctx.wave_size
    if wave_index is None:  # 1.x: waveCoord.x * wgDim.y + waveCoord.y over the whole block
        first = slice(None, None, wave)
        x0 = batch_data(ctx.thread_idx[0])[first] // wave
        y0 = batch_data(ctx.thread_idx[1])[first]
        dims = ctx.block_dim
        shares = np.asarray(x0 * dims.y + y0, np.int64) * np.ones(ctx.n_waves, np.int64)
        count = (dims.x // wave) * dims.y
    else:
        shares = _per_wave(wave_index, ctx, "waveIndex", what)
        count = _count(wave_count, what)
    coop, count = _coop_class(type(frag), frag.arch, count, wave, what)
    key = np.ascontiguousarray(np.where(shares < count, shares, count), np.int64).tobytes()
    plan = api._io_plan(coop, frag.arch, ldm, data_layout, ctx.n_waves, key)
    return plan, coop.traits(frag.arch).num_elements


def _count(value, what: str) -> int:
    if isinstance(value, (bool, np.bool_)):
        value = None
    try:
        count = operator.index(value)  # pyright: ignore[reportArgumentType] - the check
    except TypeError:
        count = 0
    if count < 1:
        raise FragmentError(f"{what}: waveCount must be a positive int (the waves sharing the "
                            f"block); got {value!r}")
    return count


def _per_wave(value, ctx, name: str, what: str) -> np.ndarray:
    """One non-negative int per running wave: a per-lane value must be uniform in each wave."""
    if isinstance(value, Lanes):
        per_wave = np.asarray(batch_data(value)).reshape(ctx.n_waves, ctx.wave_size)
        differs = (per_wave != per_wave[:, :1]).any(axis=1)
        if differs.any():
            bad = per_wave[int(np.argmax(differs))]
            raise FragmentError(f"{what}: {name} differs between lanes of a wave "
                                f"({describe_lanes(bad)}); pass one index per wave")
        if per_wave.dtype.kind not in "iu":
            raise FragmentError(f"{what}: {name} must be an int; got {per_wave.dtype} lanes")
        result = per_wave[:, 0].astype(np.int64)
    else:
        if isinstance(value, (bool, np.bool_)):
            raise FragmentError(f"{what}: {name} must be an int; got {value!r}")
        try:
            result = np.full(ctx.n_waves, operator.index(value), np.int64)
        except TypeError:
            raise FragmentError(f"{what}: {name} must be an int; got "
                                f"{type(value).__name__} {value!r}") from None
    if (result < 0).any():
        raise FragmentError(f"{what}: {name} must be >= 0 (uint32_t in rocWMMA); got "
                            f"{int(result.min())}")
    return result


def _coop_class(cls: type[fragment], arch, count: int, wave: int, what: str):
    """The 2.x cooperative class splitting `cls` over `count` waves, halving `count` until the
    block splits into whole registers (1.x's calcMaxWaves)."""
    tried = count
    while count >= 1:
        sched = fragment_scheduler.coop_row_major_2d[count * wave, 1]
        coop = _fragment_class(cls.matrix, cls.frag_m, cls.frag_n, cls.frag_k, cls.data_type,
                               cls.layout, sched)
        try:
            coop.map(arch, 0)
            return coop, count
        except FragmentError:
            count //= 2
    raise FragmentError(f"{what}: {cls.__name__} cannot be split over {tried} waves or any "
                        "fewer (halving) on this target")  # pragma: no cover - count 1 splits
