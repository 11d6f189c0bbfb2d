"""HIP's atomic functions on global and LDS memory (atomicAdd, atomicCAS, ...).

`atomicAdd(address, val)`: `address` is a pointer expression (`p + i`, per-lane offsets
allowed), `val` a scalar or one value per lane; the old values come back per lane (0 in
lanes a `where()` mask disables, which do nothing). Element types are HIP's overloads
(`ATOMIC_TYPES`); f16/bf16 add, scalar or packed (a half2 per lane: `val` of shape (W, 2)),
exists only where the target has the instruction (`HALF_ADD_ARCHS`).

Order, the same on both engines (results and old values, bit for bit): the lanes of a wave
apply in lane order, waves and blocks in the per-wave engine's order (blocks one after
another, the waves of a block in index order between barriers). Floats round after every
operation in the element type.

Batched engine: a call applies the lanes of its context sorted by (address, wave, lane),
which is the per-wave order within the call. Across calls of a batch — later calls, and the
wave groups of a batch whose waves took different branches (all contexts share one record)
— each address keeps the per-wave rank of the last wave that applied an atomic to it: for
global memory (block, barrier epoch, wave), the per-wave engine's order; for LDS (one block's
segment) the wave, within the barrier epoch. A call whose first lane on an address ranks
below that record would apply out of the per-wave order: the batch reruns wave by wave
(`NeedsPerWave`, its cause saying so), so no rerun reorders atomics between waves or blocks.
After a batch split, groups of blocks run one after another; an address reached by a lower
block after a higher one undoes the top-level batch and reruns it in block order
(`NeedsBlockOrder`). Atomics are exempt from race checks; global results go through the
batch's journal, so a batch can be undone.

Worker processes (workers.py): LDS atomics are block-local and never keep a launch in block
order; global integer add, sub, and, or, xor, min, max, inc and dec log their addresses, and
a piece whose addresses no earlier piece wrote runs on a worker (disjoint.py); exchange,
CAS and float atomics send the launch back to block order (`note_order_sensitive`).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass

import ml_dtypes
import numpy as np

from .. import types
from ..arch import ARCH_NAMES, Arch, get_arch
from ..errors import UnsupportedInstructionError
from .errors import AtomicError, AtomicTypeError
from .lanes import Lanes, batch_data, per_lane
from .memory import Buffer, Pointer
from .races import split_units
from .state import (
    AtomicHits,
    BatchSplit,
    NeedsBlockOrder,
    NeedsPerWave,
    WaveContext,
    current_context,
    global_atomic_log,
    note_order_sensitive,
    where_text,
)
from .vectors import VectorRegs, vector_type

_I32, _U32, _I64, _U64 = (np.dtype(t) for t in (np.int32, np.uint32, np.int64, np.uint64))
_F16, _BF16 = np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)
_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)
_HALVES = (_F16, _BF16)
_INTEGER = (_I32, _U32, _U64)  # HIP's INTEGER: int, unsigned int, unsigned (long) long
_TYPE = (*_INTEGER, _F32, _F64)  # HIP's TYPE: INTEGER, float, double

ATOMIC_TYPES: dict[str, tuple[np.dtype, ...]] = {
    "atomicAdd": (*_TYPE, *_HALVES),
    "atomicSub": _TYPE,
    "atomicExch": _TYPE,
    "atomicMin": (*_TYPE, _I64),
    "atomicMax": (*_TYPE, _I64),
    "atomicCAS": _TYPE,
    "atomicAnd": _INTEGER,
    "atomicOr": _INTEGER,
    "atomicXor": _INTEGER,
    "atomicInc": (_U32,),
    "atomicDec": (_U32,),
}

# Targets whose f16/bf16 packed atomic add returns the old value (LLVM AMDGPU feature sets:
# atomic-buffer-global-pk-add-f16-insts, atomic-global-pk-add-bf16-inst,
# atomic-ds-pk-add-16-insts). gfx908 has only the non-returning global f16 form, gfx11 none.
# The `Arch.half_atomic_add` column, by (type, space).
HALF_ADD_ARCHS: dict[tuple[str, str], tuple[str, ...]] = {
    key: tuple(n for n in ARCH_NAMES if key in get_arch(n).half_atomic_add)
    for key in (("float16", "global"), ("float16", "LDS"), ("bfloat16", "global"),
                ("bfloat16", "LDS"))
}

# Global integer atomics whose results on addresses no other block touched do not depend on
# the order of blocks (workers.py spreads their launches); the others mark the launch
# order-sensitive. LDS atomics never do: each block has its own LDS.
_COMMUTATIVE = frozenset(("atomicAdd", "atomicSub", "atomicAnd", "atomicOr", "atomicXor",
                          "atomicMin", "atomicMax", "atomicInc", "atomicDec"))
_LONG_RUN = 64  # lanes on one address above which a scannable op runs as one accumulate
_UNTOUCHED = -1  # order records: no atomic on this element yet
_EPOCH_BITS, _WAVE_BITS = 26, 6  # a global rank: block << 32 | epoch << 6 | wave


@dataclass(frozen=True)
class _Op:
    """One atomic's update rule: step(old, val, compare) -> new, vectorised over addresses;
    `whole(start, vals)` -> (olds, final) applies a run on one address at once, if it can."""

    step: Callable[[np.ndarray, np.ndarray, np.ndarray | None], np.ndarray]
    whole: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]] | None


def _scan(ufunc: np.ufunc) -> Callable[[np.ndarray, np.ndarray], tuple]:
    """Sequential run through `ufunc.accumulate`, which folds left in the element type."""

    def whole(start: np.ndarray, vals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        acc = ufunc.accumulate(np.concatenate((start[None], vals)), dtype=vals.dtype)
        return acc[:-1], acc[-1]

    return whole


def _exchange_run(start: np.ndarray, vals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return np.concatenate((start[None], vals[:-1])), vals[-1]


def _float_record_run(larger: bool) -> Callable[[np.ndarray, np.ndarray], tuple]:
    """HIP's float max (larger) / min on one address at once: the value changes exactly at
    the lanes whose value strictly beats every value before it (a NaN value never does, a
    NaN in memory never changes), and then holds that lane's value, bits included."""

    def whole(start: np.ndarray, vals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if np.isnan(start):
            return np.full_like(vals, start), start
        never = vals.dtype.type(-np.inf if larger else np.inf)
        keys = np.where(np.isnan(vals), never, vals)
        best = (np.maximum if larger else np.minimum).accumulate(
            np.concatenate((start[None], keys)), dtype=vals.dtype)[:-1]
        record = keys > best if larger else keys < best
        last = np.maximum.accumulate(np.where(record, np.arange(vals.size), -1))
        after = np.where(last >= 0, vals[last], start)
        return np.concatenate((start[None], after[:-1])), after[-1]

    return whole


def _bits(x: np.ndarray) -> np.ndarray:
    return x.view(f"u{x.dtype.itemsize}") if x.dtype.kind == "f" else x


_UFUNCS: dict[str, np.ufunc] = {
    "atomicMax": np.maximum, "atomicMin": np.minimum, "atomicAnd": np.bitwise_and,
    "atomicOr": np.bitwise_or, "atomicXor": np.bitwise_xor,
}


def _op(name: str, dtype: np.dtype) -> _Op:
    """The update rule of atomic `name` on `dtype` (HIP's definitions)."""
    is_float = dtype.kind == "f" or dtype in _HALVES
    if name == "atomicAdd":
        return _Op(lambda o, v, c: o + v, _scan(np.add))
    if name == "atomicSub":
        return _Op(lambda o, v, c: o - v, _scan(np.subtract))
    if name == "atomicExch":
        return _Op(lambda o, v, c: v, _exchange_run)
    if name in ("atomicMax", "atomicMin"):
        if is_float:  # HIP's CAS loop: store val only if old < val (max) / old > val (min)
            if name == "atomicMax":
                return _Op(lambda o, v, c: np.where(o < v, v, o), _float_record_run(True))
            return _Op(lambda o, v, c: np.where(o > v, v, o), _float_record_run(False))
    if name == "atomicCAS":  # compares bit patterns, as the hardware does
        return _Op(lambda o, v, c: np.where(_bits(o) == _bits(np.asarray(c)), v, o), None)
    if name in _UFUNCS:
        ufunc = _UFUNCS[name]
        return _Op(lambda o, v, c: ufunc(o, v), _scan(ufunc))
    if name == "atomicInc":  # ((old >= val) ? 0 : old + 1)
        return _Op(lambda o, v, c: np.where(o >= v, o.dtype.type(0), o + o.dtype.type(1)), None)
    # atomicDec: ((old == 0) | (old > val)) ? val : old - 1
    return _Op(lambda o, v, c: np.where((o == 0) | (o > v), v, o - o.dtype.type(1)), None)


def _type_name(dtype: np.dtype) -> str:
    return "bfloat16" if dtype == _BF16 else dtype.name


def _is_lds(buffer: Buffer) -> bool:
    return buffer.tracker is not None


def _check_type(name: str, dtype: np.dtype, arch: Arch, lds: bool) -> None:
    allowed = ATOMIC_TYPES[name]
    if dtype not in allowed:
        names = ", ".join(_type_name(t) for t in allowed)
        hint = ""
        if dtype == _I64 and _U64 in allowed:
            hint = " (HIP has no signed 64-bit overload; ptr.cast(np.uint64) gives the same bits)"
        raise AtomicTypeError(
            f"{name} has no overload for {_type_name(dtype)} pointers{where_text()}; it takes "
            f"{names}{hint}"
        )
    if dtype in _HALVES:
        space = "LDS" if lds else "global"
        archs = HALF_ADD_ARCHS[(_type_name(dtype), space)]
        if arch.name not in archs:
            raise UnsupportedInstructionError(
                f"{name} on {_type_name(dtype)} in {space} memory needs a packed atomic add "
                f"that {arch.name} does not have{where_text()}; targets with it: "
                f"{', '.join(archs)}"
            )


def _operand(name: str, what: str, value: object, dtype: np.dtype, ctx: WaveContext,
             packed_ok: bool) -> np.ndarray:
    """`value` as a (k, lanes) array of `dtype`: k = 1, or 2 for a half2 per lane."""
    lanes = ctx.lanes
    raw = per_lane(value, ctx)
    if raw.dtype.kind not in "biuf" and raw.dtype not in _HALVES:
        raise AtomicTypeError(f"{name} {what} must be numbers, got {raw.dtype}")
    if (raw.dtype.kind == "f" or raw.dtype in _HALVES) and dtype.kind in "iu":
        raise AtomicTypeError(
            f"{name} on {dtype} needs integer {what}s, got {raw.dtype}{where_text()}; "
            "convert explicitly (C would truncate silently)"
        )
    if packed_ok and raw.ndim == 2 and raw.shape == (lanes, 2):
        raw = raw.T
    elif raw.ndim == 0 or raw.shape == (lanes,):
        raw = np.broadcast_to(raw, (1, lanes))
    else:
        pairs = f", or ({lanes}, 2) (a packed pair per lane)" if packed_ok else ""
        raise AtomicError(
            f"{name} {what} must be a scalar or one value per lane ({lanes},){pairs}; "
            f"got shape {raw.shape}"
        )
    if dtype.kind in "iu":
        return raw.astype(dtype)  # C conversion: integers wrap
    return types.convert(raw, dtype)  # one rounding to the element type


def _addresses(name: str, address: Pointer, ctx: WaveContext, k: int) -> np.ndarray:
    """Element offsets (k, lanes): each lane's address, and the next element for a pair."""
    offset = address.offset
    if isinstance(offset, Lanes):
        base = batch_data(offset)
        if base.shape != (ctx.lanes,):
            raise AtomicError(
                f"{name} needs one address per lane ({ctx.lanes},), got shape {base.shape}"
            )
    else:
        base = np.full(ctx.lanes, offset, np.int64)
    if k == 1:
        return base[None]
    active = ctx.active_mask()
    odd = (base % 2 != 0) if active is None else (base % 2 != 0) & active
    if odd.any():
        lane = int(np.argmax(odd))
        raise AtomicError(
            f"{name} of a packed pair needs a 4-byte aligned address (an even "
            f"{_type_name(address.dtype)} offset); lane {lane % ctx.width} has offset "
            f"{int(base[lane])} in buffer '{address.buffer.name}'{where_text()}"
        )
    return np.stack((base, base + 1))


def _atomic(name: str, address: object, value: object,
            compare: object = None) -> Lanes | VectorRegs:
    ctx = current_context(f"{name}()")
    if not isinstance(address, Pointer):
        raise AtomicTypeError(
            f"{name} needs a pointer as its address (p + i), got {type(address).__name__}"
        )
    dtype, buffer = address.dtype, address.buffer
    lds = _is_lds(buffer)
    _check_type(name, dtype, ctx.arch, lds)
    commutative = name in _COMMUTATIVE and dtype.kind in "iu"
    if not lds and not commutative:
        note_order_sensitive(f"{name} on {_type_name(dtype)} in '{buffer.name}' (only "
                             "commutative integer atomics can run on workers)")
    vals = _operand(name, "value", value, dtype, ctx, packed_ok=dtype in _HALVES)
    cmps = None if compare is None else _operand(name, "compare", compare, dtype, ctx, False)
    k, lanes = vals.shape
    addr = _addresses(name, address, ctx, k)
    if not buffer.writeable:
        raise AtomicError(f"{name} on buffer '{buffer.name}', whose array is read-only")
    phys, mask, _, _ = address._access(addr, None, name, None)  # bounds checked first
    src = np.arange(k * lanes) if mask is None else np.flatnonzero(mask)
    flat = phys.reshape(-1)[src]
    lane = src % lanes
    order = np.lexsort((lane * k + src // lanes, flat))  # by address, then lane, then half
    run = _Runs(flat[order])
    waves = lane[order] // ctx.width
    if ctx.batched:
        _check_batch_order(ctx, buffer, dtype.itemsize, run, waves, lds)
    if ctx.journal is not None and not lds:
        _check_block_order(ctx, buffer, dtype.itemsize, run, ctx.block_ids[waves])
    if buffer.written is not None:  # initcheck (LDS)
        address._check_written(flat, src, phys)
    typed = buffer.typed(dtype)
    initial = typed[run.addresses]
    with np.errstate(over="ignore", invalid="ignore"):  # IEEE inf/NaN results are intended
        olds, final = _apply_in_order(
            _op(name, dtype), initial, vals.reshape(-1)[src][order],
            None if cmps is None else cmps.reshape(-1)[src][order], run,
        )
    if ctx.journal is not None and not lds and run.size:
        ctx.journal.record(typed, run.addresses, initial)
    log = global_atomic_log() if commutative and not lds and run.size else None
    if log is not None:
        blocks = ctx.block_ids[waves]  # non-decreasing along each run (waves block-major)
        log.append(AtomicHits(typed.__array_interface__["data"][0], dtype.itemsize,
                              buffer.name, run.addresses, blocks[run.starts],
                              blocks[run.ends - 1]))
    typed[run.addresses] = final
    if buffer.written is not None:
        buffer.written[split_units(run.addresses, dtype.itemsize)] = True
    out = np.zeros(k * lanes, dtype)
    out[src[order]] = olds
    if k == 1:
        return Lanes(out)
    pair_type = vector_type(dtype, 2)
    pair = pair_type.__new__(pair_type)
    pair.regs = np.ascontiguousarray(out.reshape(2, lanes).T)
    return pair


class _Runs:
    """Sorted addresses cut into runs of equal address: run g is [starts[g], ends[g])."""

    def __init__(self, ordered: np.ndarray) -> None:
        n = ordered.size
        cut = np.empty(n, bool)
        cut[:1] = True
        np.not_equal(ordered[1:], ordered[:-1], out=cut[1:])
        self.starts = np.flatnonzero(cut)
        self.sizes = np.diff(np.append(self.starts, n))
        self.ends = self.starts + self.sizes
        self.addresses = ordered[self.starts]
        self.size = n


def _apply_in_order(op: _Op, initial: np.ndarray, vals: np.ndarray, cmps: np.ndarray | None,
                    run: _Runs) -> tuple[np.ndarray, np.ndarray]:
    """Apply each run's operations one after another; (old value of each, final values).

    The Python loop runs once per rank within a run (the contention), not per lane; runs
    longer than _LONG_RUN of an op with a closed form (`whole`) go through it instead."""
    state = initial.copy()
    olds = np.empty_like(vals)
    run_of = np.repeat(np.arange(run.starts.size), run.sizes)
    rank = np.arange(run.size) - np.repeat(run.starts, run.sizes)
    short = np.ones(run.size, bool)
    if op.whole is not None:
        for g in np.flatnonzero(run.sizes > _LONG_RUN):
            lo, hi = run.starts[g], run.ends[g]
            olds[lo:hi], state[g] = op.whole(state[g], vals[lo:hi])
            short[lo:hi] = False
    pos = np.flatnonzero(short)
    pos = pos[np.argsort(rank[pos], kind="stable")]
    bounds = np.concatenate(([0], np.cumsum(np.bincount(rank[pos]))))
    for start, stop in zip(bounds[:-1], bounds[1:], strict=True):
        p = pos[start:stop]
        runs = run_of[p]
        current = state[runs]
        olds[p] = current
        state[runs] = op.step(current, vals[p], None if cmps is None else cmps[p])
    return olds, state


# -- who touched what: the batched engine's order checks ------------------------------------

@dataclass
class _Record:
    """Per buffer: the element size atomics used, the barrier epoch (LDS) and, per element,
    a per-wave rank or block number (-1: not touched)."""

    itemsize: int
    epoch: int
    marks: np.ndarray


class OrderMarks(np.ndarray):
    """A view of an order record's marks, the type its journal entries keep: engine
    bookkeeping undone with the batch, but no memory of the kernel's (a worker process
    does not report it as a write)."""


_batch_order: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # batch LDS -> {..}
_block_order: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # root journal -> {..}


def _record(table: weakref.WeakKeyDictionary, key: object, buffer: Buffer, itemsize: int,
            epoch: int, dtype: type) -> _Record | None:
    """The record of `buffer` (fresh when its epoch passed); None if atomics of another
    element size touched it (their elements may overlap: the caller falls back)."""
    records = table.setdefault(key, {})
    rec = records.get(buffer)
    if rec is None or rec.epoch != epoch:
        size = buffer.typed(np.dtype(f"u{itemsize}")).size
        rec = records[buffer] = _Record(itemsize, epoch, np.full(size, _UNTOUCHED, dtype))
    return rec if rec.itemsize == itemsize else None


def _check_batch_order(ctx: WaveContext, buffer: Buffer, itemsize: int, run: _Runs,
                       waves: np.ndarray, lds: bool) -> None:
    """Keep a batch's atomics in the per-wave order: a call applies each address's lanes in
    (wave, lane) order, and the batch's earlier calls (of any of its wave groups: the record
    is shared through the batch's LDS) must have applied only lower-ranked waves there. A
    wave's rank is (block, barrier epoch, wave) for global memory, the wave within the epoch
    for LDS (one block per segment). Otherwise the batch reruns wave by wave."""
    rec = _record(_batch_order, ctx.lds, buffer, itemsize, ctx.lds.epoch if lds else 0,
                  np.int64)
    if rec is None:
        raise NeedsPerWave(f"atomics of different element sizes on buffer '{buffer.name}' "
                           "in one batch (their elements may overlap)")
    rank = ctx.wave_ids[waves].astype(np.int64)
    if not lds:
        epoch = ctx.lds.epoch
        if epoch >= 1 << _EPOCH_BITS:
            raise NeedsPerWave(f"atomics after {epoch} barriers (beyond the order record)")
        rank += (ctx.block_ids[waves].astype(np.int64) << 32) + (epoch << _WAVE_BITS)
    first, last = rank[run.starts], rank[run.ends - 1]
    before = rec.marks[run.addresses]
    late = np.flatnonzero(before > first)
    if late.size:
        cause = _order_cause(buffer, lds, int(before[late[0]]), int(first[late[0]]))
        if lds and ctx.n_waves > int(ctx.block_slots[-1]) + 1:
            # several waves of each block: rerun them as wave groups, one wave of every
            # block each, in turns between barriers (each block's waves then apply their
            # LDS atomics in the per-wave order, and blocks stay batched)
            raise BatchSplit(ctx.wave_ids.copy(), f"{cause}: LDS atomics in wave order")
        raise NeedsPerWave(cause)
    rec.marks[run.addresses] = last


def _order_cause(buffer: Buffer, lds: bool, earlier: int, later: int) -> str:
    """Why a batch's atomic could not keep the per-wave order, for the launch statistics."""

    def who(rank: int) -> str:
        if lds:
            return f"wave {rank}"
        epoch = (rank >> _WAVE_BITS) & ((1 << _EPOCH_BITS) - 1)
        return f"block {rank >> 32} wave {rank & ((1 << _WAVE_BITS) - 1)} (epoch {epoch})"

    return (f"atomics on one address of '{buffer.name}' out of the per-wave order (blocks in "
            f"order, then waves): {who(later)} would apply after {who(earlier)}")


def _check_block_order(ctx: WaveContext, buffer: Buffer, itemsize: int, run: _Runs,
                       blocks: np.ndarray) -> None:
    """Within one top-level batch (split groups, per-wave reruns), every address must see
    its blocks in increasing order; the highest block so far is kept per element, and its
    changes go through the journal so that undoing a batch undoes them too."""
    journal = ctx.journal
    rec = _record(_block_order, journal.root, buffer, itemsize, 0, np.int64)
    if rec is None:
        raise NeedsBlockOrder(f"atomics of different element sizes on buffer '{buffer.name}'")
    highest = rec.marks[run.addresses]
    if (highest > blocks[run.starts]).any():
        raise NeedsBlockOrder(f"an atomic on '{buffer.name}' reached an address from a lower "
                              "block after a higher one (blocks of a split batch out of order)")
    new = np.maximum(highest, blocks[run.ends - 1])
    changed = new != highest
    if changed.any():
        journal.record(rec.marks.view(OrderMarks), run.addresses[changed], highest[changed])
        rec.marks[run.addresses[changed]] = new[changed]


def _one_per_lane(name: str, address: object, value: object,
                  compare: object = None) -> Lanes:
    """`_atomic` for the functions without a half overload (only atomicAdd takes f16/bf16,
    the one type with packed pairs): the old values are always one per lane."""
    out = _atomic(name, address, value, compare)
    assert isinstance(out, Lanes)
    return out


# -- HIP's functions ------------------------------------------------------------------------

def atomicAdd(address: Pointer, val: object) -> Lanes | VectorRegs:  # noqa: N802 - HIP name
    """`*address += val` per lane, lanes in order; the old values. On f16/bf16 pointers
    `val` may be a packed pair per lane, shape (W, 2) (HIP's __half2 add).

    The other atomics (`atomicSub`, `atomicMax`, `atomicMin`, `atomicExch`, `atomicCAS`,
    `atomicAnd`, `atomicOr`, `atomicXor`, `atomicInc`, `atomicDec`) take the same
    arguments and raise the same errors. Lanes disabled by `where()` do nothing and get 0.

    Args:
        address: a global or LDS pointer expression (`p + i`, i an int or one offset per
            lane).
        val: a scalar or one value per lane, converted like a C argument.

    Raises:
        AtomicTypeError: an element type HIP has no overload for (names the allowed ones),
            or a float value for an integer pointer.
        AtomicError: a value of the wrong shape, a misaligned packed pair, a read-only array.
        UnsupportedInstructionError: f16/bf16 add on a target without it.
        OutOfBoundsError: an address outside the buffer (checked before any write).

    Example:
        >>> import numpy as np
        >>> from rocwmma_py import atomicAdd, kernel, threadIdx
        >>> @kernel
        ... def count(bins):
        ...     atomicAdd(bins + threadIdx.x % 4, 1)
        >>> bins = np.zeros(4, np.int32)
        >>> count[2, 64, 0, "gfx942"](bins)
        >>> bins.tolist()
        [32, 32, 32, 32]
    """
    return _atomic("atomicAdd", address, val)


def atomicSub(address: Pointer, val: object) -> Lanes:  # noqa: N802
    """`*address -= val` per lane (float: adds -val); the old values."""
    return _one_per_lane("atomicSub", address, val)


def atomicMax(address: Pointer, val: object) -> Lanes:  # noqa: N802
    """`*address = max(*address, val)` per lane (float: stores val only if old < val, as
    HIP's CAS loop does, so a NaN in memory stays); the old values."""
    return _one_per_lane("atomicMax", address, val)


def atomicMin(address: Pointer, val: object) -> Lanes:  # noqa: N802
    """`*address = min(*address, val)` per lane (float: stores val only if old > val);
    the old values."""
    return _one_per_lane("atomicMin", address, val)


def atomicExch(address: Pointer, val: object) -> Lanes:  # noqa: N802
    """`*address = val` per lane; the old values."""
    return _one_per_lane("atomicExch", address, val)


def atomicCAS(address: Pointer, compare: object, val: object) -> Lanes:  # noqa: N802
    """`*address = (old == compare) ? val : old` per lane, comparing bit patterns (floats
    too: -0 and +0 differ, a NaN matches itself); the old values."""
    return _one_per_lane("atomicCAS", address, val, compare)


def atomicAnd(address: Pointer, val: object) -> Lanes:  # noqa: N802
    """`*address &= val` per lane (integers); the old values."""
    return _one_per_lane("atomicAnd", address, val)


def atomicOr(address: Pointer, val: object) -> Lanes:  # noqa: N802
    """`*address |= val` per lane (integers); the old values."""
    return _one_per_lane("atomicOr", address, val)


def atomicXor(address: Pointer, val: object) -> Lanes:  # noqa: N802
    """`*address ^= val` per lane (integers); the old values."""
    return _one_per_lane("atomicXor", address, val)


def atomicInc(address: Pointer, val: object) -> Lanes:  # noqa: N802
    """`*address = (old >= val) ? 0 : old + 1` per lane (unsigned int); the old values."""
    return _one_per_lane("atomicInc", address, val)


def atomicDec(address: Pointer, val: object) -> Lanes:  # noqa: N802
    """`*address = (old == 0 || old > val) ? val : old - 1` per lane (unsigned int); the
    old values."""
    return _one_per_lane("atomicDec", address, val)
