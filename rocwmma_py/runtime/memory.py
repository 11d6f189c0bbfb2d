"""Device memory: named buffers and typed, bounds-checked pointers into them.

A `Pointer` is (buffer, element offset, dtype) with C pointer arithmetic. The offset is an
int (same address in every lane) or `Lanes` (one address per lane). Every access is
bounds-checked before anything is written; LDS buffers are also race-checked. An LDS buffer
of a batch of blocks has one segment per block: a lane's address is relative to its block's
segment, so kernel code sees its own block's LDS only. Inside `where(cond)` only the enabled
lanes access memory. While the batched engine may still undo a batch, global writes are
journaled first (`ctx.journal`), so a rerun never sees them twice. Under racecheck
(`ctx.global_races`) every global load and store here is race-tracked too; atomics write
through their own path and are not.

Several lanes writing one address: the highest lane wins (for `gather`/`scatter` with
extra leading axes, the highest lane wins and, within a lane, the last element in C order);
in a batch, lanes are ordered wave-major, so the highest (wave, lane) wins.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
from numpy.typing import DTypeLike

from ..errors import AccessError, PointerTypeError
from .errors import GlobalRaceError, InitCheckError, LdsRaceError, OutOfBoundsError
from .lanes import Lanes, as_lanes
from .races import EpochClock, EpochLog, RaceTracker, split_units
from .state import (
    NeedsPerWave,
    WaveContext,
    current_context,
    current_context_or_none,
    where_text,
)

_MAX_LISTED = 3
_FLOOR_HINT = " (C's integer division `a / b` is Python's `a // b`)"
_BYTE = np.dtype(np.uint8)
_SEGMENT_ALIGN = 16  # segment sizes rounded up so every dtype's elements tile them


class Buffer:
    """A named flat byte store, e.g. a kernel argument array ('a') or LDS ('lds[0]')."""

    def __init__(self, name: str, array: np.ndarray,
                 tracker: RaceTracker | EpochLog | None = None,
                 segments: int = 1) -> None:
        if not isinstance(array, np.ndarray):
            raise PointerTypeError(
                f"buffer '{name}' must be a numpy array, got {type(array).__name__}"
            )
        if not array.flags.c_contiguous:
            raise PointerTypeError(
                f"array for buffer '{name}' must be C-contiguous (shape {array.shape}, strides "
                f"{array.strides}); pass np.ascontiguousarray(...) and copy the result back"
            )
        if array.dtype.hasobject:
            raise PointerTypeError(
                f"array for buffer '{name}' has dtype object; numeric dtypes only"
            )
        self.name = name
        self.array = array
        self.dtype = array.dtype
        self.tracker = tracker
        self.written: np.ndarray | None = None  # initcheck: bytes written so far
        self.segments = segments
        self._bytes = array.reshape(-1).view(np.uint8)
        self.nbytes = self._bytes.size // segments  # bytes the kernel sees (one block's)
        self._views: dict[np.dtype, np.ndarray] = {}

    @classmethod
    def segmented(cls, name: str, nbytes: int, segments: int, clock: EpochClock,
                  dtype: np.dtype = _BYTE, initcheck: bool = False,
                  deferred: bool = False) -> Buffer:
        """Zeroed, race-checked LDS buffer: `segments` blocks of `nbytes` each; with
        `initcheck`, also which bytes have been written; `deferred`: checked per epoch."""
        stride = -(-nbytes // _SEGMENT_ALIGN) * _SEGMENT_ALIGN
        storage = np.zeros(stride * segments, np.uint8)
        tracker = EpochLog(storage.size) if deferred else RaceTracker(storage.size, clock)
        buffer = cls(name, storage, tracker, segments)
        buffer.nbytes, buffer.dtype = nbytes, dtype
        if initcheck:
            buffer.written = np.zeros(storage.size, bool)
        return buffer

    @property
    def segment_bytes(self) -> int:
        """Distance in bytes between two blocks' segments."""
        return self._bytes.size // self.segments

    @property
    def writeable(self) -> bool:
        return bool(self.array.flags.writeable)

    def typed(self, dtype: np.dtype) -> np.ndarray:
        """Flat view of all segments as whole elements of `dtype` (a trailing partial one is
        cut)."""
        view = self._views.get(dtype)
        if view is None:
            total = self._bytes.size
            view = self._views[dtype] = self._bytes[: total - total % dtype.itemsize].view(dtype)
        return view

    def size(self, dtype: np.dtype) -> int:
        """Whole `dtype` elements one block sees (valid offsets are [0, size))."""
        return self.nbytes // dtype.itemsize

    def __repr__(self) -> str:
        return f"Buffer({self.name!r}, {self.array.size} x {self.dtype})"


def _as_offset(value: Any, what: str = "pointer arithmetic") -> int | Lanes:
    """An int, or an int64 Lanes for per-lane offsets; floats and other shapes are refused,
    and so are ints and uint64 lanes past `OFFSET_LIMIT` (they would overflow or wrap in
    int64 arithmetic)."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "iu":
            raise PointerTypeError(f"{what} needs integer offsets, got an array of {value.dtype}"
                                   f"{_FLOOR_HINT if value.dtype.kind == 'f' else ''}")
        if value.ndim == 0:
            return _checked_offset(int(value), what)
        if value.ndim != 1:
            raise PointerTypeError(
                f"{what} needs an int or a per-lane offset of shape (W,), got shape {value.shape}"
            )
        if value.dtype == np.uint64 and value.size:  # would wrap to negative in int64
            _checked_offset(int(value.view(np.ndarray).max()), what)  # Lanes refuse reductions
        return value.astype(np.int64).view(Lanes)
    if isinstance(value, (bool, np.bool_)):
        raise PointerTypeError(f"{what} needs an int or integer Lanes, got bool")
    try:
        number = operator.index(value)
    except TypeError:
        hint = _FLOOR_HINT if isinstance(value, (float, np.floating)) else ""
        raise PointerTypeError(
            f"{what} needs an int or integer Lanes, got {type(value).__name__}{hint}"
        ) from None
    return _checked_offset(number, what)


OFFSET_LIMIT = 1 << 48  # elements; AMD GPUs have a 48-bit virtual address space


def _checked_offset(number: int, what: str) -> int:
    """An element offset no buffer can reach (|offset| >= 2**48) is out of bounds of every
    buffer; refusing it here keeps every later sum inside int64."""
    if -OFFSET_LIMIT < number < OFFSET_LIMIT:
        return number
    raise OutOfBoundsError(
        f"{what}: element offset {number} is beyond any buffer (offsets must stay within "
        f"+-2**48, the GPU's 48-bit virtual address space)"
    )


class Pointer:
    """Typed device pointer (buffer, element offset, dtype) with C arithmetic and checks.

    Kernels receive one per numpy-array argument (named after the parameter). `p + i`,
    `p - i` (i an int or one offset per lane), `p - q` (element difference), `p[i]` (a
    read: a scalar when every lane reads one address, else a gather returning `Lanes`),
    `p[i] = v` (a scatter), `p.cast(dtype)` (reinterpret_cast), `p.load(n)` / `p.store(regs)`
    (per-lane vectors). Every access is bounds-checked before anything is written.

    Raises:
        OutOfBoundsError: an access outside the buffer (names buffer, offset, lane, block,
            wave).
        TypeError: a float or boolean offset; pointers into different buffers subtracted.
        ValueError: `cast` to a type the byte offset is not aligned for; a write to a
            read-only array.

    Example:
        >>> import numpy as np
        >>> from rocwmma_py import kernel, threadIdx
        >>> @kernel
        ... def reverse(src, dst):
        ...     dst[63 - threadIdx.x] = (src + 1)[threadIdx.x - 1]
        >>> src, dst = np.arange(64.0), np.zeros(64)
        >>> reverse[1, 64, 0, "gfx942"](src, dst)
        >>> float(dst[0]), float(dst[63])
        (63.0, 0.0)
    """

    __slots__ = ("buffer", "offset", "dtype")
    buffer: Buffer
    offset: int | Lanes
    dtype: np.dtype

    def __init__(self, buffer: Buffer, offset: int | np.ndarray = 0,
                 dtype: DTypeLike | None = None) -> None:
        setter = object.__setattr__  # the fields are set here only (see __setattr__)
        setter(self, "buffer", buffer)
        setter(self, "offset", _as_offset(offset, "Pointer offset"))
        setter(self, "dtype", np.dtype(buffer.dtype if dtype is None else dtype))

    def __setattr__(self, name: str, value: object) -> None:
        """A pointer is a value, as in C: `p += n` and `p = p + n` make a new pointer and
        move the kernel's own name. Changing `p.offset` in place would move the pointer every
        wave shares (an argument is one object for the whole launch): once per wave on one
        engine, once per batch on the other. Fields of subclasses are set once."""
        if not hasattr(self, name):  # not set yet: a copy being made, a subclass's field
            object.__setattr__(self, name, value)
            return
        raise PointerTypeError(f"cannot assign {type(self).__name__}.{name}: pointers are "
                             f"immutable values; move one with p = p + n (or p += n)")

    def __delattr__(self, name: str) -> None:
        raise PointerTypeError(f"cannot delete {type(self).__name__}.{name}: pointers are "
                             "immutable values")

    @classmethod
    def from_array(cls, array: np.ndarray, name: str) -> Pointer:
        """Pointer to element 0 of a C-contiguous array; writes land in the array."""
        return cls(Buffer(name, array))

    @property
    def size(self) -> int:
        """Number of whole `dtype` elements in the buffer (valid offsets are [0, size))."""
        return self.buffer.size(self.dtype)

    # -- C pointer arithmetic -------------------------------------------------------------

    def __add__(self, n: int | Lanes) -> Pointer:
        return Pointer(self.buffer, self.offset + _as_offset(n), self.dtype)

    __radd__ = __add__

    def __sub__(self, other: int | Lanes | Pointer) -> Pointer | int | np.ndarray:
        if isinstance(other, Pointer):
            if other.buffer is not self.buffer or other.dtype != self.dtype:
                raise PointerTypeError(
                    f"pointer difference needs two {self.dtype} pointers into the same buffer; "
                    f"got '{self.buffer.name}' ({self.dtype}) and "
                    f"'{other.buffer.name}' ({other.dtype})"
                )
            return self.offset - other.offset
        return Pointer(self.buffer, self.offset - _as_offset(other), self.dtype)

    def cast(self, dtype: DTypeLike) -> Pointer:
        """Reinterpret the bytes at this address as `dtype` (like reinterpret_cast<T*>)."""
        new = np.dtype(dtype)
        byte = self.offset * self.dtype.itemsize
        if np.any(np.asarray(byte) % new.itemsize):
            raise AccessError(
                f"cannot cast pointer into buffer '{self.buffer.name}' at byte offset "
                f"{_short(byte)} to {new}: the byte offset must be a multiple of "
                f"{new.itemsize} (the {new} element size)"
            )
        return Pointer(self.buffer, byte // new.itemsize, new)

    def __repr__(self) -> str:
        return f"Pointer({self.buffer.name!r} + {_short(self.offset)}, {self.dtype})"

    # -- element access (C syntax) --------------------------------------------------------

    def __getitem__(self, i: int | Lanes):
        """`p[i]`: a numpy scalar for one address in every lane, a gather returning Lanes
        otherwise (also per block for LDS, and inside `where`)."""
        addr = self.offset + _as_offset(i, "pointer index")
        ctx = current_context_or_none()
        if not isinstance(addr, Lanes):
            shared = self.buffer.tracker is not None and ctx is not None and ctx.n_waves > 1
            if ctx is None or (not shared and ctx.active_mask() is None):
                return self._read(np.asarray(addr, np.int64), None, "read")
            addr = np.full(ctx.lanes, addr, np.int64)
        return self._read(self._lane_addresses(addr, ctx), None, "read").view(Lanes)

    def __setitem__(self, i: int | Lanes, value: object) -> None:
        """`p[i] = v`: scatter; v scalar or one value per lane; highest lane wins on clashes."""
        addr = self.offset + _as_offset(i, "pointer index")
        ctx = current_context_or_none()
        if isinstance(addr, Lanes):
            addr = self._lane_addresses(addr, ctx)
        elif ctx is not None:
            addr = np.full(ctx.lanes, addr, np.int64)
        else:
            addr = np.asarray(addr, np.int64)
        self._write(addr, value, None, "write")

    # -- bulk access for the fragment API -------------------------------------------------

    def gather(self, offsets: np.ndarray, mask: np.ndarray | None = None,
               span: tuple[int, int] | None = None) -> np.ndarray:
        """Read at pointer + offsets, offsets of shape (..., lanes) with lanes last; masked-off
        -> 0. `span`, the (min, max) of the unmasked offsets, lets the bounds check skip the
        per-element pass when the whole access is provably inside the buffer."""
        addr = self._bulk_addresses(offsets, "gather")
        return self._read(addr, self._bulk_mask(mask, addr, "gather"), "gather", span)

    def scatter(self, offsets: np.ndarray, values: object, mask: np.ndarray | None = None,
                span: tuple[int, int] | None = None, distinct: bool = False) -> None:
        """Write values at pointer + offsets (shape (..., lanes), lanes last); masked-off
        skipped. `span` as for `gather`; `distinct`: no wave's offsets repeat (a fragment
        map), so only writes of different waves can meet."""
        addr = self._bulk_addresses(offsets, "scatter")
        self._write(addr, values, self._bulk_mask(mask, addr, "scatter"), "scatter", span,
                    distinct)

    def load(self, n: int) -> np.ndarray:
        """Per-lane vector load: (lanes, n) array, each lane reading n elements from its own
        address."""
        offsets = self._vector_offsets(n, "load")
        return as_lanes(np.ascontiguousarray(self.gather(offsets).T), -2)  # rows are lanes

    def store(self, regs: np.ndarray) -> None:
        """Per-lane vector store of regs (lanes, n): each lane writes its row at its own
        address."""
        regs = np.asarray(regs)
        if regs.ndim != 2:
            raise AccessError(f"store needs registers of shape (W, n), got shape {regs.shape}")
        offsets = self._vector_offsets(regs.shape[1], "store")
        if regs.shape[0] != offsets.shape[1]:
            raise AccessError(
                f"store needs registers of shape ({offsets.shape[1]}, n) (one row per lane), "
                f"got shape {regs.shape}"
            )
        self.scatter(offsets, regs.T)

    # -- internals ------------------------------------------------------------------------

    def _width(self, what: str) -> int:
        ctx = current_context_or_none()
        if ctx is not None:
            return ctx.lanes
        if isinstance(self.offset, Lanes):
            return self.offset.size
        return current_context(f"Pointer.{what}() with a uniform address").lanes  # raises

    def _vector_offsets(self, n: int, what: str) -> np.ndarray:
        n = operator.index(n)
        if n < 1:
            raise AccessError(f"{what} needs a positive element count, got {n}")
        width = self._width(what)
        return np.broadcast_to(np.arange(n, dtype=np.int64)[:, None], (n, width))

    @staticmethod
    def _lane_addresses(addr: np.ndarray, ctx: WaveContext | None) -> np.ndarray:
        if ctx is not None and addr.shape != (ctx.lanes,):
            raise AccessError(
                f"per-lane address must have shape ({ctx.lanes},) (one per lane), "
                f"got shape {addr.shape}"
            )
        return np.asarray(addr)

    def _bulk_addresses(self, offsets: object, what: str) -> np.ndarray:
        off = np.asarray(offsets)
        if off.dtype.kind not in "iu":
            raise PointerTypeError(f"{what} offsets must be integers, got {off.dtype}")
        if off.ndim == 0:
            raise AccessError(f"{what} offsets need shape (..., W) with lanes last, not a scalar")
        ctx = current_context_or_none()
        if ctx is not None and off.shape[-1] != ctx.lanes:
            raise AccessError(
                f"{what} offsets need the lane axis last with length {ctx.lanes} "
                f"(the wave size); got shape {off.shape}"
            )
        if isinstance(self.offset, Lanes) and self.offset.size != off.shape[-1]:
            raise AccessError(
                f"{what} offsets of shape {off.shape} don't match the pointer's "
                f"{self.offset.size} per-lane addresses"
            )
        if isinstance(self.offset, Lanes) or self.offset:
            return np.asarray(self.offset + off.astype(np.int64, copy=False))
        return off

    @staticmethod
    def _bulk_mask(mask: object, addr: np.ndarray, what: str) -> np.ndarray | None:
        if mask is None:
            return None
        mask = np.asarray(mask)
        if mask.dtype != np.bool_:
            raise PointerTypeError(f"{what} mask must be a bool array, got {mask.dtype}")
        try:
            return np.broadcast_to(mask, addr.shape)
        except ValueError:
            raise AccessError(
                f"{what} mask of shape {mask.shape} does not broadcast to offsets {addr.shape}"
            ) from None

    def _access(self, addr: np.ndarray, mask: np.ndarray | None, action: str,
                span: tuple[int, int] | None):
        """Bounds-check an access and place it: (physical addresses, the mask in force, with
        the enclosing `where` lanes folded in)."""
        ctx = current_context_or_none()
        active = ctx.active_mask() if ctx is not None else None
        if active is not None and addr.ndim:
            mask = active if mask is None else mask & active
            mask = np.broadcast_to(mask, addr.shape)
        self._check_bounds(addr, mask, action, span)
        segments = self.buffer.segments
        if segments > 1:  # each lane addresses its own block's LDS segment
            stride = self.buffer.segment_bytes // self.dtype.itemsize
            # segments > 1 only for the LDS of a running batch, so ctx is set
            addr = addr + np.repeat(ctx.block_slots * stride,  # type: ignore[union-attr]
                                    ctx.wave_size)  # type: ignore[union-attr]
        return addr, mask

    def _read(self, addr: np.ndarray, mask: np.ndarray | None, action: str,
              span: tuple[int, int] | None = None):
        addr, mask = self._access(addr, mask, action, span)
        typed = self.buffer.typed(self.dtype)
        if mask is None:
            self._track(addr.reshape(-1), None, addr, write=False)
            self._track_global(addr.reshape(-1), None, addr, write=False)
            self._check_written(addr.reshape(-1), None, addr)
            return typed[addr]
        src = np.flatnonzero(mask)
        sel = addr.reshape(-1)[src]
        self._track(sel, src, addr, write=False)
        self._track_global(sel, src, addr, write=False)
        self._check_written(sel, src, addr)
        out = np.zeros(addr.shape, self.dtype)
        out.reshape(-1)[src] = typed[sel]
        return out

    def _write(self, addr: np.ndarray, values: object, mask: np.ndarray | None, action: str,
               span: tuple[int, int] | None = None, distinct: bool = False):
        values = np.asarray(values)
        try:
            values = np.broadcast_to(values, addr.shape)
        except ValueError:
            raise AccessError(
                f"{action} of values with shape {values.shape} to addresses of shape "
                f"{addr.shape}: give a scalar or one value per address"
            ) from None
        if not self.buffer.writeable:
            raise AccessError(f"{action} to buffer '{self.buffer.name}', whose array is read-only")
        addr, mask = self._access(addr, mask, action, span)
        flat: np.ndarray = addr.reshape(-1)
        src = None
        if mask is not None:
            src = np.flatnonzero(mask)
            flat = flat[src]
        if not self._waves_cannot_meet(distinct) and _repeats(flat):
            # keep the last write per address in lane-major order
            ctx = current_context_or_none()
            if self.buffer.tracker is not None and ctx is not None and ctx.n_waves > 1:
                raise NeedsPerWave  # maybe an LDS race between waves: check wave by wave
            order: np.ndarray = np.arange(addr.size).reshape(addr.shape)
            order = np.moveaxis(order, -1, 0).reshape(-1) if addr.ndim > 1 else order.reshape(-1)
            if mask is not None:
                order = order[mask.reshape(-1)[order]]
            flat = addr.reshape(-1)[order]
            _, first_from_end = np.unique(flat[::-1], return_index=True)
            keep = np.sort(flat.size - 1 - first_from_end)
            src, flat = order[keep], flat[keep]
        vals = values.reshape(-1) if src is None else values.reshape(-1)[src]
        self._track(flat, src, addr, write=True)
        self._track_global(flat, src, addr, write=True)
        typed = self.buffer.typed(self.dtype)
        ctx = current_context_or_none()
        if ctx is not None and ctx.journal is not None and self.buffer.tracker is None:
            ctx.journal.record(typed, flat, typed[flat])
        typed[flat] = vals
        if self._races_possible():
            self.buffer.tracker.record_write(  # type: ignore[union-attr] # set: _races_possible
                flat, self.dtype.itemsize, self._waves_of(src, addr))
        if self.buffer.written is not None:
            self.buffer.written[split_units(flat, self.dtype.itemsize)] = True

    def _where_in_block(self, pos: int, src: np.ndarray | None, flat: np.ndarray,
                        addr: np.ndarray, ctx: WaveContext) -> tuple[str, int]:
        """("lane l" or "every lane", element offset in the block's segment) of position
        `pos` of an LDS access, for messages."""
        if addr.ndim == 0:
            lane = "every lane"
        else:
            at = pos if src is None else int(src[pos])
            lane = f"lane {at % addr.shape[-1] % ctx.wave_size}"
        segment = self.buffer.segment_bytes // self.dtype.itemsize
        return lane, int(flat[pos]) % segment

    def _check_written(self, flat: np.ndarray, src: np.ndarray | None, addr: np.ndarray) -> None:
        """initcheck: every byte read must have been written by some wave of the block."""
        written = self.buffer.written
        if written is None or flat.size == 0:
            return
        size = self.dtype.itemsize
        unwritten = ~written[split_units(flat, size)].reshape(flat.size, size).all(axis=1)
        if not unwritten.any():
            return
        pos = int(np.argmax(unwritten))
        lane, offset = self._where_in_block(pos, src, flat, addr, current_context("LDS access"))
        raise InitCheckError(
            f"initcheck: {lane} reads LDS buffer '{self.buffer.name}' at element offset "
            f"{offset} ({self.dtype}), which no wave of the block has "
            f"written{where_text()}; LDS starts undefined on hardware"
        )

    def _waves_cannot_meet(self, distinct: bool) -> bool:
        """Whether a write whose waves' offsets are `distinct` can skip the repeated-address
        check: one wave, or a batch's LDS, where waves meeting is a race its epoch check
        reports."""
        if not distinct:
            return False
        ctx = current_context_or_none()
        return ctx is None or ctx.n_waves == 1 or isinstance(self.buffer.tracker, EpochLog)

    def _races_possible(self) -> bool:
        """LDS of a block with more than one wave (a lone wave cannot race with itself)."""
        if self.buffer.tracker is None:
            return False
        return current_context("LDS access").waves_per_block > 1

    def _waves_of(self, src: np.ndarray | None, addr: np.ndarray) -> np.ndarray | int:
        """Wave (within its block) of every element of an access, for race checks;
        `src` are the accessed positions in `addr` (lanes last), None for all of them."""
        ctx = current_context("LDS access")
        if ctx.n_waves == 1:
            return ctx.wave_index
        waves = ctx.position_waves(addr.shape)
        return waves if src is None else waves[src]

    def _check_bounds(self, addr: np.ndarray, mask: np.ndarray | None, action: str,
                      span: tuple[int, int] | None = None) -> None:
        size = self.size
        if addr.size == 0:
            return
        if span is not None:
            base = self.offset
            lo, hi = (base, base) if not isinstance(base, Lanes) else _range(base)
            if lo + span[0] >= 0 and hi + span[1] < size:
                return
        if mask is None:
            if addr.min() >= 0 and addr.max() < size:
                return
            bad = (addr < 0) | (addr >= size)
        else:
            bad = ((addr < 0) | (addr >= size)) & mask
            if not bad.any():
                return
        if addr.ndim == 0:
            at = f"at element offset {int(addr)} by every lane"
        else:
            offsets, lanes = addr[bad], np.nonzero(bad)[-1]
            shown = zip(offsets[:_MAX_LISTED], lanes[:_MAX_LISTED], strict=True)
            listed = [f"{o} by lane {lane}" for o, lane in shown]
            extra = offsets.size - _MAX_LISTED
            more = f" (and {extra} more)" if extra > 0 else ""
            plural = "s" if offsets.size > 1 else ""
            at = f"at element offset{plural} {', '.join(listed)}{more}"
        raise OutOfBoundsError(
            f"{action} of buffer '{self.buffer.name}' ({size} x {self.dtype}) {at}{where_text()} "
            f"is out of bounds [0, {size})"
        )

    def _track(
        self, flat: np.ndarray, src: np.ndarray | None, addr: np.ndarray, *, write: bool
    ) -> None:
        """Race-check an LDS access (no-op for global memory); reads are recorded here."""
        tracker = self.buffer.tracker
        if flat.size == 0 or not self._races_possible():
            return
        waves = self._waves_of(src, addr)
        # _races_possible() above: the tracker is set
        check = tracker.check_write if write else tracker.check_read  # type: ignore[union-attr]
        conflict = check(flat, self.dtype.itemsize, waves)
        if conflict is None:
            return
        lane, offset = self._where_in_block(conflict.position, src, flat, addr,
                                            current_context("LDS access"))
        verb, other_verb = {
            "read-after-write": ("reads", "wrote"),
            "write-after-read": ("writes", "read"),
            "write-after-write": ("writes", "wrote"),
        }[conflict.kind]
        raise LdsRaceError(
            f"LDS race ({conflict.kind}){where_text()}: wave {conflict.wave} ({lane}) {verb} "
            f"buffer '{self.buffer.name}' at element offset {offset} "
            f"({self.dtype}), which wave {conflict.other_wave} {other_verb} since the last "
            "barrier; missing synchronize_workgroup()?"
        )

    def _track_global(
        self, flat: np.ndarray, src: np.ndarray | None, addr: np.ndarray, *, write: bool
    ) -> None:
        """racecheck: a global access conflicting with one by another block, or by another
        wave of this block since the last barrier, raises GlobalRaceError (no-op otherwise)."""
        ctx = current_context_or_none()
        if ctx is None or ctx.global_races is None or self.buffer.tracker is not None or \
                flat.size == 0:
            return
        races = ctx.global_races
        tracker = races.tracker(self.buffer, self.buffer.nbytes)
        block, wave = int(ctx.block_ids[0]), ctx.wave_index
        check = tracker.check_write if write else tracker.check_read
        conflict = check(flat, self.dtype.itemsize, wave, block)
        if conflict is None:
            if write:
                tracker.record_write(flat, self.dtype.itemsize, wave, block)
            return
        lane, offset = self._where_in_block(conflict.position, src, flat, addr, ctx)
        verb, other_verb = {
            "read-after-write": ("reads", "wrote"),
            "write-after-read": ("writes", "read"),
            "write-after-write": ("writes", "wrote"),
        }[conflict.kind]
        other = f"block {_block_text(ctx, conflict.other_block)}"
        if conflict.other_wave >= 0:
            other += f" wave {conflict.other_wave}"
        if conflict.other_block == block:
            when = "since the last barrier of the block; missing synchronize_workgroup()?"
        else:
            when = ("(blocks never synchronise: give each block its own elements or use "
                    "atomics)")
        raise GlobalRaceError(
            f"global memory race ({conflict.kind}) in kernel '{ctx.kernel_name}': block "
            f"{_block_text(ctx, block)} wave {wave} ({lane}) {verb} buffer "
            f"'{self.buffer.name}' at element offset {offset} ({self.dtype}), which "
            f"{other} {other_verb} {when}"
        )


def _block_text(ctx: WaveContext, block: int) -> str:
    """"(x,y,z)" of a linear block index (x fastest)."""
    gx, gy = ctx.grid_dim.x, ctx.grid_dim.y
    return f"({block % gx},{block // gx % gy},{block // (gx * gy)})"


def _repeats(flat: np.ndarray) -> bool:
    """Whether some address repeats. Rare (racy code), so the common case is proved cheaply:
    a bincount over the touched range when it is dense, else a sort."""
    if flat.size < 2:
        return False
    lo, hi = int(flat.min()), int(flat.max())
    if hi - lo < 4 * flat.size + 4096:
        return bool(np.bincount(flat - lo, minlength=hi - lo + 1).max() > 1)
    ordered = np.sort(flat)
    return bool((ordered[1:] == ordered[:-1]).any())


def _range(values: np.ndarray) -> tuple[int, int]:
    """(min, max) of per-lane values over all lanes of a batch (a plain-array reduction)."""
    values = np.asarray(values)
    return int(values.min()), int(values.max())


def _short(offset: int | np.ndarray) -> str:
    """An offset for messages: the int, or a per-lane range summary."""
    if isinstance(offset, np.ndarray):
        lo, hi = _range(offset)
        return f"<per-lane {lo}..{hi}>"
    return str(offset)
