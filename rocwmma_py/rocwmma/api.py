"""rocWMMA's synchronous API and transforms (rocwmma-notes §1.3, §1.6, §6).

Loads are gathers through the fragment's register map, stores are scatters, both bounds-
checked by the device pointer and clipped to the unpadded fragment for partial fragments;
where each wave's part is a dense block in memory they are block copies instead
(`Pointer.read_blocks` / `write_blocks`: whole fragments as their per-wave values,
cooperative shares through their registers). Cooperative fragments load/store only the
calling wave's share; waves outside the scheduler's count do nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from .. import types as T
from ..arch.numerics import Shared, decode
from ..errors import FragmentValueError
from ..runtime import Lanes, Pointer, current_arch
from ..runtime.lane_grid import wave_values
from ..runtime.lanes import batch_data, describe_lanes
from ..runtime.progress import note_step
from ..runtime.state import current_context, current_context_or_none
from .accessors import apply_transpose_t
from .errors import FragmentError
from .fragment import check_arch, check_filled, check_whole_waves, fragment
from .mma import mma
from .tags import accumulator, layout_of, matrix_a, matrix_b, row_major
from .wave_batch import register_rows


def fill_fragment(frag: fragment, value) -> None:
    """Broadcast `value` (converted like a C++ cast) to every element, padding included.

    Args:
        frag: the fragment to fill (any matrix context).
        value: a scalar, converted to the fragment's element type as C++ would.

    Raises:
        TypeError: `value` is not a number (a string, None).

    Example (one wave, one 16x16x16 tile, D = A·B):
        >>> import numpy as np
        >>> from rocwmma_py import *
        >>> FA = fragment[matrix_a, 16, 16, 16, float16, row_major]
        >>> FB = fragment[matrix_b, 16, 16, 16, float16, col_major]
        >>> FC = fragment[accumulator, 16, 16, 16, float32]
        >>> @kernel
        ... def tile(a, b, d):
        ...     fa, fb, fc = FA(), FB(), FC()
        ...     fill_fragment(fc, 0.0)
        ...     load_matrix_sync(fa, a, 16)
        ...     load_matrix_sync(fb, b, 16)
        ...     mma_sync(fc, fa, fb, fc)
        ...     store_matrix_sync(d, fc, 16, mem_row_major)
        >>> a = np.arange(256).reshape(16, 16).astype(np.float16) % 5
        >>> b = np.eye(16, dtype=np.float16)      # column-major B = I
        >>> d = np.zeros((16, 16), np.float32)
        >>> tile[1, 64, 0, "gfx942"](a, b, d)
        >>> bool((d == a).all())
        True
    """
    batch_data(frag)[...] = T.convert(batch_data(value), frag.data_type)


def _wave_shares(frag: fragment, ctx) -> np.ndarray | None:
    """Each running wave's share of a cooperative fragment (>= wave count: it sits out), or
    None for a non-cooperative one."""
    sched = frag.scheduler
    if sched.kind == "default":
        return None
    width = ctx.wave_size
    sched.check_block(width, ctx.block_dim)
    first_lanes = slice(None, None, width)
    x0 = batch_data(ctx.thread_idx[0])[first_lanes] // width
    y0 = batch_data(ctx.thread_idx[1])[first_lanes]
    return np.asarray(sched.wave_index(width, x0, y0))  # x0, y0 are arrays: so is this


@dataclass(frozen=True, eq=False)
class IoPlan:
    """Where a load/store of one fragment class goes, for every lane of a batch."""

    offsets: np.ndarray  # (E, n*W) element offsets from the pointer
    mask: np.ndarray | None  # (E, n*W) elements inside the footprint, None: all
    span: tuple[int, int]  # (min, max) offset over the mask, for the O(1) bounds check
    lanes: np.ndarray | None  # lanes whose registers change (cooperative), None: all
    share_of: np.ndarray  # (n,) each wave's share (>= the wave count: it sits out)


@lru_cache(maxsize=1024)
def _io_plan(cls: type[fragment], arch, ldm: int, layout, n: int, shares: bytes | None) -> IoPlan:
    tr = cls.traits(arch)
    height, width = _unpadded(cls)
    count, wave = tr.wave_count, tr.wave_size
    share_of = np.zeros(n, np.int64) if shares is None else np.frombuffer(shares, np.int64)
    maps = [cls.map(arch, s) for s in range(count)]
    per_share = np.stack([m.offsets(ldm, layout) for m in maps])  # (count, E, W)
    inside = np.stack([(m.row < height) & (m.col < width) for m in maps])
    active = share_of < count
    pick = np.where(active, share_of, 0)
    offsets = per_share[pick].transpose(1, 0, 2).reshape(per_share.shape[1], n * wave)
    mask = (inside[pick] & active[:, None, None]).transpose(1, 0, 2).reshape(offsets.shape)
    lanes = None if active.all() else np.flatnonzero(np.repeat(active, wave))
    if mask.all():
        mask = None  # type: ignore[assignment, unused-ignore] # numpy typing: no optional arrays
    chosen = offsets if mask is None else offsets[mask]
    span = (int(chosen.min()), int(chosen.max())) if chosen.size else (0, 0)
    for a in (offsets, mask, lanes):
        if a is not None:
            a.flags.writeable = False
    share_of.flags.writeable = False
    return IoPlan(offsets, mask, span, lanes, share_of)


def _io(frag: fragment, ptr: Pointer, ldm: int, layout, what: str) -> IoPlan:
    """Check a load/store's arguments and plan it for the running wave(s)."""
    data_layout, ldm = _checked_io(frag, ptr, ldm, layout, what)
    ctx = current_context_or_none()
    if ctx is None:  # outside a kernel: one wave (cooperative fragments need a kernel)
        if frag.scheduler.kind != "default":
            current_context(what)  # raises NotInKernelError
        return _io_plan(type(frag), frag.arch, ldm, data_layout, 1, None)
    _check_one_address_per_wave(ptr, ctx, what)
    shares = _wave_shares(frag, ctx)
    key = None if shares is None else np.ascontiguousarray(shares, np.int64).tobytes()
    return _io_plan(type(frag), frag.arch, ldm, data_layout, ctx.n_waves, key)


def _checked_io(frag: fragment, ptr: Pointer, ldm: int, layout, what: str) -> tuple[type, int]:
    """The data layout and ldm of a load/store, after checking the pointer, its element type,
    the target and ldm."""
    if not isinstance(ptr, Pointer):
        raise FragmentError(f"{what}: data must be a device pointer; got {type(ptr).__name__}")
    if layout is None:
        if frag.layout is None:
            raise FragmentError(f"{what}: {type(frag).__name__} has no data layout; pass a "
                                "layout_t (mem_row_major / mem_col_major) as the 4th argument")
        data_layout = frag.layout
    else:
        data_layout = layout_of(layout)
    if np.dtype(ptr.dtype) != T.storage_dtype(frag.data_type):
        raise FragmentError(f"{what}: pointer element type {np.dtype(ptr.dtype)} does not match "
                            f"the fragment's {T.short_name(frag.data_type)}")
    check_arch(frag, current_arch(), what)
    check_whole_waves(what)
    return data_layout, _checked_ldm(frag, ldm, data_layout, what)


LDM_MAX = 2**32 - 1  # rocWMMA takes ldm as uint32_t


def _checked_ldm(frag: fragment, ldm, layout, what: str) -> int:
    """ldm as an int, at least the fragment's leading dimension in memory."""
    if isinstance(ldm, (bool, np.bool_)) or not isinstance(ldm, (int, np.integer, Lanes)):
        raise FragmentError(f"{what}: ldm must be an int, got {type(ldm).__name__} {ldm!r}")
    ldm = int(ldm)
    if ldm > LDM_MAX:
        raise FragmentValueError(f"{what}: ldm={ldm} does not fit rocWMMA's uint32_t ldm "
                                 f"(at most {LDM_MAX})")
    height, width = _unpadded(type(frag))
    least = width if layout is row_major else height
    if ldm < least:
        order = "row_major: at least the width" if layout is row_major else \
            "col_major: at least the height"
        raise FragmentValueError(f"{what}: ldm={ldm} is too small for {type(frag).__name__} in "
                                 f"{layout.__name__} memory; ldm must be >= {least} ({order})")
    return ldm


def _check_one_address_per_wave(ptr: Pointer, ctx, what: str) -> None:
    """rocWMMA takes one address per wave: a per-lane pointer must be uniform in each wave."""
    if not isinstance(ptr.offset, Lanes) or wave_values(ptr.offset) is not None:
        return
    per_wave = batch_data(ptr.offset).reshape(-1, ctx.wave_size)
    if (per_wave == per_wave[:, :1]).all():  # (one whole-array reduction on the usual path)
        return
    wave = int(np.argmax((per_wave != per_wave[:, :1]).any(axis=1)))
    raise FragmentValueError(f"{what}: the pointer differs between lanes of a wave "
                             f"({describe_lanes(per_wave[wave])}); rocWMMA takes one "
                             "address per wave — pass the wave's base pointer")


def _unpadded(frag: type[fragment] | fragment) -> tuple[int, int]:
    if frag.matrix is matrix_a:
        return frag.frag_m, frag.frag_k
    if frag.matrix is matrix_b:
        return frag.frag_k, frag.frag_n
    return frag.frag_m, frag.frag_n


def load_matrix_sync(frag: fragment, data: Pointer, ldm: int, layout=None) -> None:
    """Load the fragment from `data` (leading dimension `ldm`); elements outside a partial
    fragment read as 0 and are not touched in memory.

    Args:
        frag: the destination fragment; its data layout (row_major/col_major) says how
            memory is read. An accumulator without one needs `layout`.
        data: a device pointer (a kernel argument, `p + offset`, LDS) of the fragment's
            element type, the same address in every lane of a wave.
        ldm: leading dimension in elements, at least the fragment's width (row_major) or
            height (col_major).
        layout: `mem_row_major` / `mem_col_major` for a layout-less accumulator.

    Raises:
        TypeError: `data` is not a pointer or has another element type; `ldm` not an int.
        ValueError: `ldm` too small; the pointer differs between lanes of a wave.
        FragmentError: an accumulator without a data layout and no `layout`.
        OutOfBoundsError: the footprint leaves the buffer (nothing is read).
        NotInKernelError: called outside a kernel.

    See `fill_fragment` for a complete example.
    """
    plan = _io(frag, data, ldm, layout, "load_matrix_sync")
    if _load_dense(frag, data, plan) or _load_shares(frag, data, plan):
        return
    values = data.gather(plan.offsets, plan.mask, plan.span)
    if plan.lanes is None:
        batch_data(frag)[...] = values
    else:
        batch_data(frag)[:, plan.lanes] = values[:, plan.lanes]


@lru_cache(maxsize=1024)
def _dense_strides(cls: type[fragment], arch, plan: IoPlan) -> tuple[int, int] | None:
    """(row stride, column stride) of the fragment's dense block in memory when every
    element (r, c) sits at r * row stride + c * column stride from the pointer (a whole,
    non-cooperative fragment: the same for every wave), else None."""
    inverse = cls.map(arch).inverse
    rel = plan.offsets[:, : cls.traits(arch).wave_size].reshape(-1)[inverse]
    height, width = rel.shape
    s_r = int(rel[1, 0] - rel[0, 0]) if height > 1 else 0
    s_c = int(rel[0, 1] - rel[0, 0]) if width > 1 else 0
    grid = s_r * np.arange(height)[:, None] + s_c * np.arange(width)[None, :]
    if rel[0, 0] != 0 or s_r < 0 or s_c < 0 or not np.array_equal(rel, grid):
        return None
    return s_r, s_c


def _load_dense(frag: fragment, ptr: Pointer, plan: IoPlan) -> bool:
    """Load an A/B fragment (not xf32) straight into its dense per-wave block (the form
    mma_sync reads), as one strided copy per wave (`Pointer.read_blocks`); registers follow
    lazily when kernel code looks at them (`fragment.set_values`). Only where nothing but
    the values can differ from the register path: a whole, non-cooperative fragment on a
    strided grid, memory able to copy every wave's block (no observer watching the load
    that needs each element's lane — racecheck, initcheck, the per-wave engine's LDS race
    check; a batch's LDS race log takes whole blocks —, no `where` mask, inside the
    buffer; else the register path's gather runs, which every observer sees and which
    reports the error) and no NaN (whose payload only the raw registers keep). True when
    it loaded."""
    if frag.matrix is accumulator or frag.data_type is T.xfloat32:
        return False  # (xf32 values decode truncated: registers must keep the raw bits)
    if plan.mask is not None or plan.lanes is not None:
        return False
    strides = _dense_strides(type(frag), frag.arch, plan)
    if strides is None:
        return False
    blocks = ptr.read_blocks(type(frag).map(frag.arch).inverse.shape, strides,
                             lanes_agree=current_context_or_none() is not None)  # (`_io`)
    if blocks is None:
        return False
    with np.errstate(invalid="ignore", over="ignore"):  # NaNs go the register path
        distinct = decode(blocks.distinct, frag.data_type)
        if T.is_float(frag.data_type) and math.isnan(float(distinct.max())):  # (NaN propagates)
            return False  # NaN payloads need the raw registers
    if blocks.at is None:
        frag.set_values(distinct)
    else:  # waves that read one block share its decoded values (and its certificate lines)
        values = np.take(distinct, blocks.at, axis=0)
        frag.set_values(values, shared=Shared(values, distinct, blocks.at))
    return True


class ShareGrid(NamedTuple):
    """Where a cooperative fragment's waves keep their shares in memory: each a dense block
    of `shape` elements on a strided grid (`strides`, the smaller one last: blocks are
    copied in memory order), wave w's starting `origins[w]` elements past the pointer.
    `to_registers` (E, n*W) indexes the flat blocks (n * block size) for every register;
    `to_blocks` (n, block size) indexes the flat registers for every block element;
    `order`, where not None, is the axis order of the registers (E, n, W) in which the flat
    blocks hold them (`_register_order`): loads and stores are then transposing copies."""

    shape: tuple[int, int]
    strides: tuple[int, int]
    origins: np.ndarray
    to_registers: np.ndarray
    to_blocks: np.ndarray
    order: tuple[int, ...] | None


@lru_cache(maxsize=1024)
def _share_grid(cls: type[fragment], arch, plan: IoPlan) -> ShareGrid | None:
    """The `ShareGrid` of a cooperative load/store where every wave takes part with a whole
    share, every share is a rectangle of the matrix, and memory holds every wave's as a
    translate of one strided block (distinct offsets, none negative); else None."""
    if plan.mask is not None or plan.lanes is not None:
        return None
    wave = cls.traits(arch).wave_size
    n = plan.share_of.size
    per_wave = plan.offsets.reshape(-1, n, wave).transpose(1, 0, 2)  # (n, E, W)
    origins = per_wave.reshape(n, -1).min(axis=1)
    rel = per_wave[0] - origins[0]
    if not (per_wave - origins[:, None, None] == rel).all():
        return None
    share = cls.map(arch, int(plan.share_of[0]))
    rows, cols = share.row - share.row.min(), share.col - share.col.min()
    height, width = int(rows.max()) + 1, int(cols.max()) + 1
    if height * width != rows.size:
        return None  # (not one whole rectangle)
    grid = np.full((height, width), -1, np.int64)
    grid[rows, cols] = rel
    s_r = int(grid[1, 0] - grid[0, 0]) if height > 1 else 0
    s_c = int(grid[0, 1] - grid[0, 0]) if width > 1 else 0
    dense = s_r * np.arange(height)[:, None] + s_c * np.arange(width)
    if min(s_r, s_c) < 0 or not np.array_equal(grid, dense) or np.unique(grid).size != grid.size:
        return None
    if s_r < s_c:  # memory order: the smaller stride last
        rows, cols, height, width, s_r, s_c = cols, rows, width, height, s_c, s_r
    size = height * width
    in_block = rows * width + cols  # (E, W): each register's element of its wave's block
    to_registers = (np.arange(n)[None, :, None] * size + in_block[:, None, :]).reshape(
        in_block.shape[0], n * wave)
    to_blocks = np.empty(n * size, np.int64)
    to_blocks[to_registers.reshape(-1)] = np.arange(to_registers.size)
    for a in (origins, to_registers, to_blocks):
        a.flags.writeable = False
    return ShareGrid((height, width), (s_r, s_c), origins, to_registers,
                     to_blocks.reshape(n, size), _register_order(to_registers.reshape(-1, n, wave)))


def _register_order(index: np.ndarray) -> tuple[int, ...] | None:
    """The order of the axes of `index` (E, n, W: register, wave, lane) in which it counts
    0, 1, 2, ... (C order), where it does, else None. Lanes that load whole vectors (each
    lane's registers a run of its block, the lanes one after another) are such: the
    registers are then the blocks transposed, copied without a per-element index (2-3x
    faster than `take` on 16-bit elements)."""
    steps = [int(np.diff(index, axis=ax).flat[0]) if index.shape[ax] > 1 else 0
             for ax in range(index.ndim)]
    order = tuple(sorted(range(index.ndim), key=lambda ax: -steps[ax]))
    counting = np.arange(index.size).reshape([index.shape[ax] for ax in order])
    return order if np.array_equal(index, counting.transpose(np.argsort(order))) else None


def _load_shares(frag: fragment, ptr: Pointer, plan: IoPlan) -> bool:
    """Load a cooperative fragment whose waves' shares are dense blocks in memory
    (`_share_grid`) by one strided copy of every wave's block (`Pointer.read_blocks`),
    then one index into the registers, instead of each element's address and a gather.
    Observers and failures as for `_load_dense` (the gather then runs). True when it
    loaded."""
    if frag.scheduler.kind == "default":
        return False
    grid = _share_grid(type(frag), frag.arch, plan)
    if grid is None:
        return False
    blocks = ptr.read_blocks(grid.shape, grid.strides, current_context_or_none() is not None,
                             grid.origins)
    if blocks is None:
        return False
    registers, flat = batch_data(frag), blocks.per_wave().reshape(-1)
    if grid.order is not None and registers.flags.c_contiguous:
        by_wave = _by_wave(registers, frag)
        np.copyto(by_wave, flat.reshape([by_wave.shape[ax] for ax in grid.order])
                  .transpose(np.argsort(grid.order)))
    else:
        np.take(flat, grid.to_registers, out=registers, mode="clip")
    return True


def _by_wave(registers: np.ndarray, frag: fragment) -> np.ndarray:
    """A batch's registers (E, n * W) as (E, n, W): register, wave, lane."""
    wave = frag.traits(frag.arch).wave_size
    return registers.reshape(registers.shape[0], -1, wave)


def _store_shares(frag: fragment, ptr: Pointer, plan: IoPlan) -> bool:
    """Store a cooperative fragment as `_load_shares` loads it: its registers placed into
    every wave's dense block by one index, written by one strided assignment
    (`Pointer.write_blocks`). True when it stored."""
    if frag.scheduler.kind == "default":
        return False
    grid = _share_grid(type(frag), frag.arch, plan)
    if grid is None:
        return False
    registers = batch_data(frag)
    if grid.order is not None:  # (a C-order copy of the transposed registers)
        blocks = np.ascontiguousarray(_by_wave(registers, frag).transpose(grid.order))
    else:
        blocks = np.take(registers.reshape(-1), grid.to_blocks)
    return ptr.write_blocks(blocks.reshape(-1, *grid.shape), grid.strides,
                            current_context_or_none() is not None, grid.origins)


def store_matrix_sync(data: Pointer, frag: fragment, ldm: int, layout=None) -> None:
    """Store the fragment to `data`; nothing outside the (unpadded) footprint is written.

    Args and raises as `load_matrix_sync`; additionally, under initcheck a fragment never
    filled, loaded or computed raises `InitCheckError`. See `fill_fragment` for an example.
    """
    check_filled(frag, "the fragment", "store_matrix_sync")
    plan = _io(frag, data, ldm, layout, "store_matrix_sync")
    if not (_store_dense(frag, data, plan) or _store_shares(frag, data, plan)):
        data.scatter(plan.offsets, batch_data(frag), plan.mask, plan.span, distinct=True)


def _store_dense(frag: fragment, ptr: Pointer, plan: IoPlan) -> bool:
    """Store a fragment whose values are known (mma_sync's D, a dense load's block) from
    that dense per-wave block, one strided assignment (`Pointer.write_blocks`), leaving its
    registers lazy: where, as for `_load_dense`, the whole non-cooperative fragment sits on
    a strided grid and memory can take the blocks (else the scatter runs, which every
    observer sees and which reports the error). The values are exact in the data type, so
    converting them gives the registers' bits. True when it stored."""
    values = frag.known_values()
    if values is None or frag.data_type is T.xfloat32 or plan.mask is not None \
            or plan.lanes is not None:
        return False
    strides = _dense_strides(type(frag), frag.arch, plan)
    if strides is None:
        return False
    storage = T.storage_dtype(frag.data_type)
    with np.errstate(invalid="ignore", over="ignore"):  # (NaN, Inf stay NaN, Inf)
        blocks = values.astype(storage, copy=False)
    return ptr.write_blocks(blocks, strides, lanes_agree=current_context_or_none() is not None)


def mma_sync(d: fragment, a: fragment, b: fragment, c: fragment) -> None:
    """D = A * B + C on the target's matrix cores (c may be d).

    The instruction is rocWMMA's choice for the fragments' types on the running target;
    FragK is covered by chained instructions, rounding after each one.

    Args:
        d: accumulator receiving the result (may be `c`).
        a: matrix_a fragment (M x K), b: matrix_b fragment (K x N), c: accumulator (M x N).

    Raises:
        FragmentError: wrong matrix contexts, different FragM/N/K, cooperative fragments,
            C and D of different types, or a type combination the target lacks (the
            message names the targets that have it).

    See `fill_fragment` for a complete example.
    """
    mma(d, a, b, c)
    note_step()  # a long batch's progress bar moves per K step


# --- transforms ---------------------------------------------------------------------------


def _new(cls: type[fragment], x: np.ndarray) -> fragment:
    out = cls()
    batch_data(out)[...] = x
    return out


def _remap(src: fragment, dst_cls: type[fragment]) -> fragment:
    """Move every element to where `dst_cls` keeps it (same lanes' share of the matrix)."""
    check_filled(src, "the source fragment", f"a transform to {dst_cls.__name__}")
    cls = type(src)
    values = src.known_values()
    if values is not None and src.scheduler.kind == dst_cls.scheduler.kind == "default":
        out = dst_cls()  # each wave holds the whole block in either layout: the same values
        out.set_values(values, shared=src.shared())
        return out
    if src.scheduler.kind == "default":
        share_of: np.ndarray = np.zeros(_waves(src), np.int64)
    else:
        shares = _wave_shares(src, current_context("a cooperative fragment transform"))
        assert shares is not None  # a cooperative scheduler has shares
        share_of = np.where(shares < cls.traits(src.arch).wave_count, shares, 0)
    out = dst_cls()
    # straight into the new registers (same dtype); every index is valid, so "clip" (which
    # `take` does not buffer, unlike the default "raise") changes nothing. Where every share
    # moves the same whole rows of registers (layout changes between equal register
    # layouts), those rows are copied as they are, without a per-register index.
    wave = cls.traits(src.arch).wave_size
    rows = [register_rows(_remap_positions(cls, dst_cls, src.arch, int(s)), wave)
            for s in np.unique(share_of)]
    if rows[0] is not None and all(r is not None and np.array_equal(r, rows[0])
                                   for r in rows[1:]):
        np.take(batch_data(src), rows[0], axis=0, out=batch_data(out), mode="clip")
        return out
    index = _remap_index(cls, dst_cls, src.arch, share_of.astype(np.int64).tobytes())
    np.take(batch_data(src).reshape(-1), index, out=batch_data(out), mode="clip")
    return out


@lru_cache(maxsize=256)
def _remap_index(src_cls: type[fragment], dst_cls: type[fragment], arch, shares: bytes):
    """Flat index into src.x of every register of dst.x, for waves holding these shares."""
    share_of = np.frombuffer(shares, np.int64)
    n, wave = share_of.size, src_cls.traits(arch).wave_size
    used = np.unique(share_of)
    positions = np.stack([_remap_positions(src_cls, dst_cls, arch, int(s)) for s in used])
    per_wave = positions[np.searchsorted(used, share_of)]  # (n, E', W)
    e, lane = np.divmod(per_wave, wave)
    index = e * (n * wave) + (np.arange(n) * wave)[:, None, None] + lane
    return index.transpose(1, 0, 2).reshape(per_wave.shape[1], n * wave)


@lru_cache(maxsize=1024)
def _remap_positions(src_cls: type[fragment], dst_cls: type[fragment], arch, share: int):
    """Per-wave register positions (e * W + lane) of src that feed each register of dst."""
    src_map, dst_map = src_cls.map(arch, share), dst_cls.map(arch, share)
    where = src_map.inverse[dst_map.row, dst_map.col]
    if np.any(where < 0):
        raise FragmentError(f"cannot transform {src_cls.__name__} into {dst_cls.__name__}: "
                            "the wave shares hold different elements")
    return where


def _waves(frag: fragment) -> int:
    """How many waves' registers a fragment instance holds."""
    return batch_data(frag).shape[1] // frag.traits(frag.arch).wave_size


def _check_same_shape(src: fragment, dst_cls: type[fragment], what: str) -> None:
    same = (dst_cls.matrix, dst_cls.frag_m, dst_cls.frag_n, dst_cls.frag_k, dst_cls.data_type)
    if same != (src.matrix, src.frag_m, src.frag_n, src.frag_k, src.data_type):
        raise FragmentError(f"{what}: {dst_cls.__name__} differs from {type(src).__name__} in "
                            "matrix, size or data type")
    if dst_cls.traits(src.arch).wave_count != type(src).traits(src.arch).wave_count:
        raise FragmentError(f"{what}: schedulers must have the same wave count")


def apply_transpose(frag: fragment) -> fragment:
    """matrix_a<M,N,K,T,L> <-> matrix_b<N,M,K,T,orthogonal L>: the same registers."""
    cls = apply_transpose_t[type(frag)]
    mine, theirs = type(frag).map(frag.arch), cls.map(frag.arch)
    if not (np.array_equal(mine.row, theirs.col) and np.array_equal(mine.col, theirs.row)):
        raise FragmentError(f"apply_transpose: {cls.__name__} has a different register layout")
    values = frag.known_values()
    if values is None:
        return _new(cls, batch_data(frag))
    out = cls()  # element (r, c) of frag is element (c, r) of its transpose
    swapped, shared = np.swapaxes(values, -1, -2), frag.shared()
    out.set_values(swapped, shared=None if shared is None else Shared(
        swapped, np.swapaxes(shared.distinct, -1, -2), shared.at))
    return out


class _LayoutTransform:
    """`apply_data_layout[L](frag)` and `apply_data_layout(frag, L)`."""

    def __getitem__(self, layout):
        return lambda frag: self(frag, layout)

    def __call__(self, frag: fragment, layout) -> fragment:
        layout = layout_of(layout)
        cls: type[fragment] = fragment[frag.matrix, frag.frag_m, frag.frag_n, frag.frag_k,
                                       frag.data_type, layout, frag.scheduler]
        return _remap(frag, cls)


apply_data_layout = _LayoutTransform()


class _FragmentTransform:
    """`apply_fragment[DstFrag](frag)`: identity, reinterpretation or register permutation."""

    def __getitem__(self, dst_cls: type[fragment]):
        def apply(frag: fragment) -> fragment:
            _check_same_shape(frag, dst_cls, "apply_fragment")
            return _remap(frag, dst_cls)

        return apply


apply_fragment = _FragmentTransform()


def _register_file_class(frag_cls: type[fragment], arch) -> type[fragment]:
    tr = frag_cls.traits(arch)
    wave = tr.wave_size
    return fragment[matrix_b, wave, wave, tr.num_elements * tr.wave_count, frag_cls.data_type,
                    frag_cls.layout or row_major, frag_cls.scheduler]


def to_register_file(frag: fragment) -> fragment:
    """Reinterpret as rocWMMA's [RegCount x WaveSize] register-file fragment (no data moves;
    unsafe for cooperative fragments, as in rocWMMA)."""
    cls = _register_file_class(type(frag), frag.arch)
    out = object.__new__(cls)
    out.arch, out.x = frag.arch, batch_data(frag).copy()
    return out


class _FromRegisterFile:
    """`from_register_file[DstFrag](register_file_fragment)`."""

    def __getitem__(self, dst_cls: type[fragment]):
        def apply(rf: fragment) -> fragment:
            out = dst_cls()
            if batch_data(out).shape != batch_data(rf).shape:
                raise FragmentError(f"from_register_file: {dst_cls.__name__} holds "
                                    f"{batch_data(out).shape[0]} elements per lane, the "
                                    f"register file {batch_data(rf).shape[0]}")
            batch_data(out)[...] = batch_data(rf)
            return out

        return apply


from_register_file = _FromRegisterFile()
