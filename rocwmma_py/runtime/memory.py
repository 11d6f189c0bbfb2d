"""Device memory: named buffers and typed, bounds-checked pointers into them.

A `Pointer` is (buffer, element offset, dtype) with C pointer arithmetic. The offset is an
int (same address in every lane) or `Lanes` (one address per lane). Every access is
bounds-checked before anything is written; LDS buffers are also race-checked.

Several lanes writing one address: the highest lane wins (for `gather`/`scatter` with
extra leading axes, the highest lane wins and, within a lane, the last element in C order).
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

import numpy as np

from .context import current_wave, current_wave_or_none, where_text
from .errors import LdsRaceError, OutOfBoundsError
from .lanes import Lanes

if TYPE_CHECKING:
    from .races import RaceTracker

_MAX_LISTED = 3


class Buffer:
    """A named flat byte store, e.g. a kernel argument array ('a') or LDS ('lds[0]')."""

    def __init__(self, name: str, array: np.ndarray, tracker: RaceTracker | None = None) -> None:
        if not isinstance(array, np.ndarray):
            raise TypeError(f"buffer '{name}' must be a numpy array, got {type(array).__name__}")
        if not array.flags.c_contiguous:
            raise TypeError(
                f"array for buffer '{name}' must be C-contiguous (shape {array.shape}, strides "
                f"{array.strides}); pass np.ascontiguousarray(...) and copy the result back"
            )
        if array.dtype.hasobject:
            raise TypeError(f"array for buffer '{name}' has dtype object; numeric dtypes only")
        self.name = name
        self.array = array
        self.dtype = array.dtype
        self.tracker = tracker
        self._bytes = array.reshape(-1).view(np.uint8)
        self._views: dict[np.dtype, np.ndarray] = {}

    @property
    def nbytes(self) -> int:
        return self._bytes.size

    @property
    def writeable(self) -> bool:
        return bool(self.array.flags.writeable)

    def typed(self, dtype: np.dtype) -> np.ndarray:
        """Flat view of the buffer as whole elements of `dtype` (a trailing partial one is cut)."""
        view = self._views.get(dtype)
        if view is None:
            usable = self.nbytes - self.nbytes % dtype.itemsize
            view = self._views[dtype] = self._bytes[:usable].view(dtype)
        return view

    def __repr__(self) -> str:
        return f"Buffer({self.name!r}, {self.array.size} x {self.dtype})"


def _as_offset(value: object, what: str = "pointer arithmetic") -> int | Lanes:
    """An int, or an int64 Lanes for per-lane offsets; floats and other shapes are refused."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "iu":
            raise TypeError(f"{what} needs integer offsets, got an array of {value.dtype}")
        if value.ndim == 0:
            return int(value)
        if value.ndim != 1:
            raise TypeError(
                f"{what} needs an int or a per-lane offset of shape (W,), got shape {value.shape}"
            )
        return value.astype(np.int64).view(Lanes)
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{what} needs an int or integer Lanes, got bool")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(
            f"{what} needs an int or integer Lanes, got {type(value).__name__}"
        ) from None


class Pointer:
    """Typed device pointer (buffer, element offset, dtype) with C arithmetic and checks."""

    __slots__ = ("buffer", "offset", "dtype")

    def __init__(self, buffer: Buffer, offset: int | Lanes = 0, dtype: object = None) -> None:
        self.buffer = buffer
        self.offset = _as_offset(offset, "Pointer offset")
        self.dtype = np.dtype(buffer.dtype if dtype is None else dtype)

    @classmethod
    def from_array(cls, array: np.ndarray, name: str) -> Pointer:
        """Pointer to element 0 of a C-contiguous array; writes land in the array."""
        return cls(Buffer(name, array))

    @property
    def size(self) -> int:
        """Number of whole `dtype` elements in the buffer (valid offsets are [0, size))."""
        return self.buffer.typed(self.dtype).size

    # -- C pointer arithmetic -------------------------------------------------------------

    def __add__(self, n: int | Lanes) -> Pointer:
        return Pointer(self.buffer, self.offset + _as_offset(n), self.dtype)

    __radd__ = __add__

    def __sub__(self, other: int | Lanes | Pointer) -> Pointer | int | Lanes:
        if isinstance(other, Pointer):
            if other.buffer is not self.buffer or other.dtype != self.dtype:
                raise TypeError(
                    f"pointer difference needs two {self.dtype} pointers into the same buffer; "
                    f"got '{self.buffer.name}' ({self.dtype}) and "
                    f"'{other.buffer.name}' ({other.dtype})"
                )
            return self.offset - other.offset
        return Pointer(self.buffer, self.offset - _as_offset(other), self.dtype)

    def cast(self, dtype: object) -> Pointer:
        """Reinterpret the bytes at this address as `dtype` (like reinterpret_cast<T*>)."""
        new = np.dtype(dtype)
        byte = self.offset * self.dtype.itemsize
        if np.any(byte % new.itemsize):
            raise ValueError(
                f"cannot cast pointer into buffer '{self.buffer.name}' at byte offset "
                f"{_short(byte)} to {new}: the byte offset must be a multiple of "
                f"{new.itemsize} (the {new} element size)"
            )
        return Pointer(self.buffer, byte // new.itemsize, new)

    def __repr__(self) -> str:
        return f"Pointer({self.buffer.name!r} + {_short(self.offset)}, {self.dtype})"

    # -- element access (C syntax) --------------------------------------------------------

    def __getitem__(self, i: int | Lanes):
        """`p[i]`: a numpy scalar for a uniform address, a gather returning Lanes otherwise."""
        addr = self.offset + _as_offset(i, "pointer index")
        if isinstance(addr, Lanes):
            return self._read(self._lane_addresses(addr), None, "read").view(Lanes)
        return self._read(np.asarray(addr, np.int64), None, "read")

    def __setitem__(self, i: int | Lanes, value: object) -> None:
        """`p[i] = v`: scatter; v scalar or one value per lane; highest lane wins on clashes."""
        addr = self.offset + _as_offset(i, "pointer index")
        ctx = current_wave_or_none()
        if isinstance(addr, Lanes):
            addr = self._lane_addresses(addr)
        elif ctx is not None:
            addr = np.full(ctx.wave_size, addr, np.int64)
        else:
            addr = np.asarray(addr, np.int64)
        self._write(addr, value, None, "write")

    # -- bulk access for the fragment API -------------------------------------------------

    def gather(self, offsets: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
        """Read at pointer + offsets, offsets of shape (..., W) with lanes last; masked-off -> 0."""
        addr = self._bulk_addresses(offsets, "gather")
        return self._read(addr, self._bulk_mask(mask, addr, "gather"), "gather")

    def scatter(self, offsets: np.ndarray, values: object, mask: np.ndarray | None = None) -> None:
        """Write values at pointer + offsets (shape (..., W), lanes last); masked-off skipped."""
        addr = self._bulk_addresses(offsets, "scatter")
        self._write(addr, values, self._bulk_mask(mask, addr, "scatter"), "scatter")

    def load(self, n: int) -> np.ndarray:
        """Per-lane vector load: (W, n) array, lane l reading n elements from its own address."""
        offsets = self._vector_offsets(n, "load")
        return np.ascontiguousarray(self.gather(offsets).T)

    def store(self, regs: np.ndarray) -> None:
        """Per-lane vector store of regs (W, n): lane l writes its row at its own address."""
        regs = np.asarray(regs)
        if regs.ndim != 2:
            raise ValueError(f"store needs registers of shape (W, n), got shape {regs.shape}")
        offsets = self._vector_offsets(regs.shape[1], "store")
        if regs.shape[0] != offsets.shape[1]:
            raise ValueError(
                f"store needs registers of shape ({offsets.shape[1]}, n) (one row per lane), "
                f"got shape {regs.shape}"
            )
        self.scatter(offsets, regs.T)

    # -- internals ------------------------------------------------------------------------

    def _wave_width(self, what: str) -> int:
        ctx = current_wave_or_none()
        if ctx is not None:
            return ctx.wave_size
        if isinstance(self.offset, Lanes):
            return self.offset.size
        return current_wave(f"Pointer.{what}() with a uniform address").wave_size  # raises

    def _vector_offsets(self, n: int, what: str) -> np.ndarray:
        n = operator.index(n)
        if n < 1:
            raise ValueError(f"{what} needs a positive element count, got {n}")
        width = self._wave_width(what)
        return np.broadcast_to(np.arange(n, dtype=np.int64)[:, None], (n, width))

    def _lane_addresses(self, addr: Lanes) -> np.ndarray:
        ctx = current_wave_or_none()
        if ctx is not None and addr.shape != (ctx.wave_size,):
            raise ValueError(
                f"per-lane address must have shape ({ctx.wave_size},) (one per lane), "
                f"got shape {addr.shape}"
            )
        return np.asarray(addr)

    def _bulk_addresses(self, offsets: object, what: str) -> np.ndarray:
        off = np.asarray(offsets)
        if off.dtype.kind not in "iu":
            raise TypeError(f"{what} offsets must be integers, got {off.dtype}")
        if off.ndim == 0:
            raise ValueError(f"{what} offsets need shape (..., W) with lanes last, not a scalar")
        ctx = current_wave_or_none()
        if ctx is not None and off.shape[-1] != ctx.wave_size:
            raise ValueError(
                f"{what} offsets need the lane axis last with length {ctx.wave_size} "
                f"(the wave size); got shape {off.shape}"
            )
        if isinstance(self.offset, Lanes) and self.offset.size != off.shape[-1]:
            raise ValueError(
                f"{what} offsets of shape {off.shape} don't match the pointer's "
                f"{self.offset.size} per-lane addresses"
            )
        return np.asarray(self.offset + off.astype(np.int64, copy=False))

    @staticmethod
    def _bulk_mask(mask: object, addr: np.ndarray, what: str) -> np.ndarray | None:
        if mask is None:
            return None
        mask = np.asarray(mask)
        if mask.dtype != np.bool_:
            raise TypeError(f"{what} mask must be a bool array, got {mask.dtype}")
        try:
            return np.broadcast_to(mask, addr.shape)
        except ValueError:
            raise ValueError(
                f"{what} mask of shape {mask.shape} does not broadcast to offsets {addr.shape}"
            ) from None

    def _read(self, addr: np.ndarray, mask: np.ndarray | None, action: str):
        self._check_bounds(addr, mask, action)
        typed = self.buffer.typed(self.dtype)
        if mask is None:
            self._track(addr.reshape(-1), None, addr, write=False)
            return typed[addr]
        src = np.flatnonzero(mask)
        sel = addr.reshape(-1)[src]
        self._track(sel, src, addr, write=False)
        out = np.zeros(addr.shape, self.dtype)
        out.reshape(-1)[src] = typed[sel]
        return out

    def _write(self, addr: np.ndarray, values: object, mask: np.ndarray | None, action: str):
        values = np.asarray(values)
        try:
            values = np.broadcast_to(values, addr.shape)
        except ValueError:
            raise ValueError(
                f"{action} of values with shape {values.shape} to addresses of shape "
                f"{addr.shape}: give a scalar or one value per address"
            ) from None
        if not self.buffer.writeable:
            raise ValueError(f"{action} to buffer '{self.buffer.name}', whose array is read-only")
        self._check_bounds(addr, mask, action)
        # Lane-major order, then keep the last write per address: the highest lane wins.
        src = np.arange(addr.size).reshape(addr.shape)
        if addr.ndim:
            src = np.moveaxis(src, -1, 0)
        src = src.reshape(-1)
        if mask is not None:
            src = src[mask.reshape(-1)[src]]
        flat = addr.reshape(-1)[src]
        if flat.size > 1:
            _, first_from_end = np.unique(flat[::-1], return_index=True)
            keep = flat.size - 1 - first_from_end
            src, flat = src[keep], flat[keep]
        self._track(flat, src, addr, write=True)
        self.buffer.typed(self.dtype)[flat] = values.reshape(-1)[src]
        if self.buffer.tracker is not None:
            self.buffer.tracker.record_write(self._byte_indices(flat), current_wave().wave_index)

    def _byte_indices(self, flat: np.ndarray) -> np.ndarray:
        size = self.dtype.itemsize
        return (flat[:, None] * size + np.arange(size)).reshape(-1)

    def _check_bounds(self, addr: np.ndarray, mask: np.ndarray | None, action: str) -> None:
        size = self.size
        if addr.size == 0:
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
        if tracker is None or flat.size == 0:
            return
        wave = current_wave("LDS access").wave_index
        byte_idx = self._byte_indices(flat)
        conflict = (tracker.check_write if write else tracker.check_read)(byte_idx, wave)
        if conflict is None:
            return
        pos = conflict.position // self.dtype.itemsize
        if addr.ndim == 0:
            lane = "every lane"
        else:
            lane = f"lane {(pos if src is None else src[pos]) % addr.shape[-1]}"
        verb, other_verb = {
            "read-after-write": ("reads", "wrote"),
            "write-after-read": ("writes", "read"),
            "write-after-write": ("writes", "wrote"),
        }[conflict.kind]
        raise LdsRaceError(
            f"LDS race ({conflict.kind}){where_text()}: wave {wave} ({lane}) {verb} buffer "
            f"'{self.buffer.name}' at element offset {int(flat[pos])} ({self.dtype}), which "
            f"wave {conflict.other_wave} {other_verb} since the last barrier; "
            "missing synchronize_workgroup()?"
        )


def _short(offset: int | np.ndarray) -> str:
    """An offset for messages: the int, or a per-lane range summary."""
    if isinstance(offset, np.ndarray):
        return f"<per-lane {int(offset.min())}..{int(offset.max())}>"
    return str(offset)
