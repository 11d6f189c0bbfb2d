"""Device memory: named buffers and typed, bounds-checked pointers into them.

A `Pointer` is (buffer, element offset, dtype) with C pointer arithmetic. The offset is an
int (same address in every lane) or `Lanes` (one address per lane). Every access is
bounds-checked before anything is written. An LDS buffer of a batch of blocks has one
segment per block: a lane's address is relative to its block's segment, so kernel code
sees its own block's LDS only. Inside `where(cond)` only the enabled lanes access memory.

This module is the one door to memory: every load and store — `p[i]`, `p[i] = v`, gathers
and scatters, vector loads and stores, the fragment loads and stores — is bounds-checked
and placed here and then passes the observers of `sanitizers.py` in one loop (the batched
engine's undo journal, LDS race tracking, global race tracking under racecheck, initcheck).
A fast path skips their work only when `sanitizers.watching` says nobody watches the
access: the dense block read of `load_matrix_sync` (`read_blocks`) runs only then.
Atomics apply their writes on their own path (`atomics.py`: not races) and use this
module's bounds check and placement.

Several lanes writing one address: the highest lane wins (for `gather`/`scatter` with
extra leading axes, the highest lane wins and, within a lane, the last element in C order);
in a batch, lanes are ordered wave-major, so the highest (wave, lane) wins.
"""

from __future__ import annotations

import operator
from functools import lru_cache
from typing import Any, Final, NamedTuple

import numpy as np
from numpy.typing import DTypeLike

from ..errors import AccessError, PointerTypeError
from ..types import cxx_type
from .distinct import first_occurrences, positions
from .errors import OutOfBoundsError
from .lane_grid import GridLanes, LaneGrid, wave_values
from .lanes import Lanes, as_lanes, batch_data, check_plain_data
from .races import EpochClock, EpochLog, RaceTracker
from .sanitizers import (
    INITCHECK,
    Access,
    BlockAccess,
    Observer,
    after_write,
    before_read,
    before_write,
    lds_state,
    store_watchers,
    watching,
)
from .state import (
    WaveContext,
    current_context,
    current_context_or_none,
    where_text,
)
from .uniform import Uniform, uniform

_MAX_LISTED = 3
_CHECKED: Final = "wrap"  # `take` of addresses `_check_bounds` passed: never wraps, and skips the
# per-element check and buffering of the default mode ("raise"), 1.5x faster
_FLOOR_HINT = " (C's integer division `a / b` is Python's `a // b`)"
_BYTE = np.dtype(np.uint8)
_SEGMENT_ALIGN = 16  # segment sizes rounded up so every dtype's elements tile them


class Blocks(NamedTuple):
    """Blocks of memory a batch's waves read (`Pointer.read_blocks`), each distinct one
    once: wave w's is `distinct[at[w]]` (`at` None: one per wave, in wave order)."""

    distinct: np.ndarray
    at: np.ndarray | None

    def per_wave(self) -> np.ndarray:
        """(waves, *shape): every wave's block."""
        return self.distinct if self.at is None else np.take(self.distinct, self.at, axis=0)


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
        self.lds = False  # LDS (Buffer.segmented): one segment per block of a batch
        self.tracker = tracker  # LDS race history (sanitizers.LdsRaceCheck)
        self.written: np.ndarray | None = None  # initcheck: LDS bytes written so far
        self.observers: tuple | None = None  # sanitizers.watching: the last context's
        self.segments = segments
        self._bytes = array.reshape(-1).view(np.uint8)
        self.nbytes = self._bytes.size // segments  # bytes the kernel sees (one block's)
        self._views: dict[np.dtype, np.ndarray] = {}

    @classmethod
    def segmented(cls, name: str, nbytes: int, segments: int, clock: EpochClock,
                  dtype: np.dtype = _BYTE, initcheck: bool = False,
                  deferred: bool = False) -> Buffer:
        """Zeroed LDS buffer: `segments` blocks of `nbytes` each, with the observers' state
        (`sanitizers.lds_state`: race history, checked per epoch when `deferred`; with
        `initcheck`, which bytes have been written)."""
        stride = -(-nbytes // _SEGMENT_ALIGN) * _SEGMENT_ALIGN
        storage = np.zeros(stride * segments, np.uint8)
        tracker, written = lds_state(storage.size, clock, initcheck, deferred)
        buffer = cls(name, storage, tracker, segments)
        buffer.nbytes, buffer.dtype, buffer.lds, buffer.written = nbytes, dtype, True, written
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


def _as_offset(value: Any, what: str = "pointer arithmetic", copy: bool = False) -> int | Lanes:
    """An int, or an int64 Lanes for per-lane offsets (`copy`: never `value`'s array, for
    an offset kept; arithmetic on it makes a new one anyway); floats and other shapes are
    refused, and so are ints and uint64 lanes past `OFFSET_LIMIT` (they would overflow or
    wrap in int64 arithmetic)."""
    check_plain_data(value)  # (a narrow batch reads a plain array with whole waves)
    if isinstance(value, Uniform):  # one offset per wave: each wave's lanes
        ints = value._int64()
        if ints is not None:  # (a grid: `p = x + row * ncols; p[tid]` is strided)
            width = current_context("a per-wave offset").width
            return GridLanes.of(LaneGrid(ints, np.zeros(width, np.int64), value.wave_step(), 0))
        value = value.__lane_values__(())
    if type(value) is GridLanes and (grid := value._grid) is not None:
        return GridLanes.of(grid)  # (its own object: the caller may change value in place)
    if isinstance(value, (np.ndarray, Lanes)):
        value = batch_data(value)
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
            _checked_offset(int(value.max()), what)
        return Lanes(value.astype(np.int64, copy=copy))
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
    `p - i` (i an int or one offset per lane), `p - q` (element difference), `p == q`,
    `p != q`, `p < q`, `<=`, `>`, `>=` (addresses within one buffer: a bool, or one per lane
    for per-lane pointers), `p[i]` (a read: a scalar when every lane reads one address, else
    a gather returning `Lanes`), `p[i] = v` (a scatter), `p.cast(dtype)` (reinterpret_cast),
    `p.load(n)` / `p.store(regs)` (per-lane vectors). Every access is bounds-checked before
    anything is written.

    Raises:
        OutOfBoundsError: an access outside the buffer (names buffer, offset, lane, block,
            wave).
        TypeError: a float or boolean offset; pointers into different buffers subtracted or
            ordered (`<`; `==` across buffers is allowed and False, as in C).
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

    def __init__(self, buffer: Buffer, offset: int | np.ndarray | Lanes = 0,
                 dtype: DTypeLike | None = None) -> None:
        setter = object.__setattr__  # the fields are set here only (see __setattr__)
        setter(self, "buffer", buffer)
        setter(self, "offset", _as_offset(offset, "Pointer offset", copy=True))
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
    def from_array(cls, array: np.ndarray, name: str, what: str = "array") -> Pointer:
        """Pointer named `name` to element 0 of a C-contiguous array in native byte order;
        writes land in the array. A kernel launch makes its array arguments' pointers here
        (`what="kernel argument"` for the messages), so both refuse the same arrays.

        Raises:
            PointerTypeError: not a numpy array; non-native byte order (GPU memory is
                little-endian, and a converted copy would not receive the writes); not
                C-contiguous; dtype object.
        """
        if isinstance(array, np.ndarray):
            if not array.dtype.isnative:
                raise PointerTypeError(
                    f"{what} '{name}' has non-native byte order (dtype {array.dtype.str}); "
                    f"GPU memory is little-endian and vector loads would read swapped bytes: "
                    f"pass {name}.astype({name}.dtype.newbyteorder('=')) and copy results back"
                )
            if not array.flags.c_contiguous:
                raise PointerTypeError(
                    f"{what} '{name}' must be a C-contiguous array (got shape {array.shape}, "
                    f"strides {array.strides}); pass np.ascontiguousarray({name}) and copy "
                    "results back"
                )
        return cls(Buffer(name, array))

    @property
    def size(self) -> int:
        """Number of whole `dtype` elements in the buffer (valid offsets are [0, size))."""
        return self.buffer.size(self.dtype)

    # -- C pointer arithmetic -------------------------------------------------------------

    def __add__(self, n: int | Lanes) -> Pointer:
        return self._moved(self.offset + _as_offset(n))

    __radd__ = __add__

    def __sub__(self, other: int | Lanes | Pointer) -> Pointer | int | np.ndarray:
        """`p - i`: a pointer; `p - q` (ptrdiff_t): the element distance, an int or one per
        lane, for two pointers of one dtype into one buffer (as in C, only within one
        array)."""
        if isinstance(other, Pointer):
            apart = self._bytes_apart(other)
            if apart is None or other.dtype != self.dtype:
                raise PointerTypeError(
                    f"pointer difference needs two {self.dtype} pointers into the same buffer "
                    f"(C defines p - q only within one array, for one element type); got "
                    f"'{self.buffer.name}' ({self.dtype}) and '{other.buffer.name}' "
                    f"({other.dtype})"
                )
            elements, rest = divmod(apart, self.dtype.itemsize)
            if rest:
                raise AccessError(
                    f"pointer difference of '{self.buffer.name}' and '{other.buffer.name}' "
                    f"(one array): their starts are {apart} bytes apart, not a whole number "
                    f"of {self.dtype} elements"
                )
            return self.offset - other.offset + elements
        return self._moved(self.offset - _as_offset(other))

    def _moved(self, offset: int | Lanes) -> Pointer:
        """A Pointer of this buffer and type at `offset`, the result of arithmetic on
        checked offsets: an int is checked against the limit again, int64 Lanes are the
        result's own new array (`__init__` would check and copy them once more)."""
        if not isinstance(offset, Lanes):
            return Pointer(self.buffer, offset, self.dtype)
        moved = object.__new__(Pointer)
        setter = object.__setattr__
        setter(moved, "buffer", self.buffer)
        setter(moved, "offset", offset)
        setter(moved, "dtype", self.dtype)
        return moved

    # -- C pointer comparison -------------------------------------------------------------
    #
    # Addresses compare as bytes: for one element type that is the element order, and
    # pointers of different types into one buffer compare as C's do after a cast to
    # `char*` (`(char*)p < (char*)q`). Per-lane offsets give one bool per lane (Lanes, so
    # `with where(p < end):` works); uniform ones a Python bool (so `while p != end:` works).
    # Across buffers, C defines equality (never equal) but not order: == and != answer
    # False and True, <, <=, >, >= raise PointerTypeError.

    def _bytes_apart(self, other: Pointer) -> int | None:
        """Bytes from the start of `other`'s buffer to the start of this one's when both
        point into one array: one buffer, or two over overlapping host memory (an array
        passed as two kernel arguments); None for two different arrays."""
        mine, theirs = self.buffer, other.buffer
        if mine is theirs:
            return 0
        if not np.may_share_memory(mine.array, theirs.array):
            return None
        return int(mine.array.__array_interface__["data"][0]
                   - theirs.array.__array_interface__["data"][0])

    def _compare(self, other: object, op: Any, symbol: str) -> Any:
        if not isinstance(other, Pointer):
            return NotImplemented
        apart = self._bytes_apart(other)
        if apart is None:
            if symbol in ("==", "!="):
                return symbol == "!="
            raise PointerTypeError(
                f"cannot order pointers into different buffers: p {symbol} q with p into "
                f"'{self.buffer.name}' ({self.dtype}) and q into '{other.buffer.name}' "
                f"({other.dtype}); C defines <, <=, >, >= only between pointers into the "
                "same array (== and != across buffers are allowed: never equal)"
            )
        return op(self.offset * self.dtype.itemsize + apart,
                  other.offset * other.dtype.itemsize)

    def __eq__(self, other: object) -> Any:
        return self._compare(other, operator.eq, "==")

    def __ne__(self, other: object) -> Any:
        return self._compare(other, operator.ne, "!=")

    def __lt__(self, other: Pointer) -> Any:
        return self._compare(other, operator.lt, "<")

    def __le__(self, other: Pointer) -> Any:
        return self._compare(other, operator.le, "<=")

    def __gt__(self, other: Pointer) -> Any:
        return self._compare(other, operator.gt, ">")

    def __ge__(self, other: Pointer) -> Any:
        return self._compare(other, operator.ge, ">=")

    def __hash__(self) -> int:
        """The absolute byte address, so equal pointers hash alike; a per-lane pointer
        hashes only when its lanes hold one address (like int() of its offset)."""
        start = self.buffer.array.__array_interface__["data"][0]
        return hash(start + int(self.offset) * self.dtype.itemsize)

    def cast(self, dtype: DTypeLike) -> Pointer:
        """Reinterpret the bytes at this address as `dtype` (like reinterpret_cast<T*>;
        Python's `float`/`int` are C++'s float32/int32)."""
        new = np.dtype(cxx_type(dtype))
        byte = self.offset * self.dtype.itemsize
        if np.any(batch_data(byte) % new.itemsize):
            raise AccessError(
                f"cannot cast pointer into buffer '{self.buffer.name}' at byte offset "
                f"{_short(byte)} to {new}: the byte offset must be a multiple of "
                f"{new.itemsize} (the {new} element size)"
            )
        return Pointer(self.buffer, byte // new.itemsize, new)

    def __repr__(self) -> str:
        return f"Pointer({self.buffer.name!r} + {_short(self.offset)}, {self.dtype})"

    # -- element access (C syntax) --------------------------------------------------------

    def __getitem__(self, i: int | Lanes | Uniform):
        """`p[i]`: a numpy scalar for one address in every lane of a wave (in a batch, each
        wave's scalar: `uniform`), a gather returning Lanes otherwise and inside `where`."""
        if (at := self._grid_address(i)) is not None:
            view = self._grid_view(*at, write=False)
            if view is not None:
                return Lanes(view.flatten())
        one_per_wave = not isinstance(i, Lanes) and not isinstance(self.offset, Lanes)
        addr, borrowed = self._indexed(i)
        ctx = current_context_or_none()
        if not isinstance(addr, Lanes):
            if ctx is None or (ctx.active_mask() is None and not self._per_lane(ctx)):
                return self._read(np.asarray(addr, np.int64), None, "read")
            addr, borrowed = np.full(ctx.lanes, addr, np.int64), False  # ctx is set here
        values = self._read(self._lane_addresses(addr, ctx), None, "read", borrowed=borrowed)
        if one_per_wave and ctx is not None and ctx.active_mask() is None:
            return uniform(list(values[::ctx.width]))
        return Lanes(values)

    def __setitem__(self, i: int | Lanes, value: object) -> None:
        """`p[i] = v`: scatter; v scalar or one value per lane; highest lane wins on clashes."""
        check_plain_data(value)
        if (at := self._grid_address(i)) is not None and self._grid_store(*at, value):
            return
        addr, borrowed = self._indexed(i)
        ctx = current_context_or_none()
        if isinstance(addr, Lanes):
            addr = self._lane_addresses(addr, ctx)
        elif ctx is not None:
            addr, borrowed = np.full(ctx.lanes, addr, np.int64), False
        else:
            addr, borrowed = np.asarray(addr, np.int64), False
        self._write(addr, value, None, "write", borrowed=borrowed)

    def _grid_address(self, i: object) -> tuple[LaneGrid, int] | None:
        """(grid, element offset) of pointer + i where one of the two is a grid still in its
        form (`GridLanes`) and the other an int or such a grid too; else None."""
        offset = self.offset
        own = offset._grid if type(offset) is GridLanes else None
        if type(i) is GridLanes and (grid := i._grid) is not None:
            if type(offset) is int:
                return grid, offset
            if own is not None and own.shifts.size == grid.shifts.size and (
                    own.pattern.size == grid.pattern.size):
                return own.plus(grid), 0
        elif own is not None and type(i) is int:
            return own, i
        return None

    def _grid_view(self, grid: LaneGrid, base: int, write: bool) -> np.ndarray | None:
        """The elements at `base` + `grid`'s lanes as a (waves, width) strided view of the
        buffer, where the access is a plain one: inside the buffer, every wave's lanes
        stepping evenly, every lane on (a `where` mask all true), no LDS segments, no
        observer that must see it
        (`write`: every address distinct, the buffer writeable). None where the general
        path must run; it also reports every error."""
        ctx = current_context_or_none()
        if ctx is None or self.buffer.segments > 1 or (
                grid.shifts.size != ctx.n_waves or grid.pattern.size != ctx.width):
            return None
        active = ctx.active_mask()  # (a narrow batch's EXEC is all threads)
        if active is not None and not (ctx.narrow and active is ctx.live) and not active.all():
            return None
        layout = grid.strided(base, self.size, distinct=write)
        if layout is None or (write and not self.buffer.writeable):
            return None
        first, last, wave_step, lane_step = layout
        observers = watching(self.buffer, ctx, write)
        if observers and write:
            observers = store_watchers(observers, self.buffer, self.dtype, ctx, first, last)
        if observers:
            return None
        typed = self.buffer.typed(self.dtype)
        size = typed.itemsize
        return np.ndarray((grid.shifts.size, grid.pattern.size), typed.dtype, buffer=typed,
                          offset=first * size, strides=(wave_step * size, lane_step * size))

    def _grid_store(self, grid: LaneGrid, base: int, value: object) -> bool:
        """`p[i] = value` at a grid's lanes by a strided view (`_grid_view`), value a scalar
        or one per lane; False where the general path must run."""
        if not isinstance(value, (Lanes, np.ndarray, np.generic, int, float, bool)):
            return False
        values = np.asarray(batch_data(value))
        if values.ndim and values.shape != (grid.shifts.size * grid.pattern.size,):
            return False
        view = self._grid_view(grid, base, write=True)
        if view is None:
            return False
        view[...] = values.reshape(view.shape) if values.ndim else values
        return True

    def _indexed(self, i: object) -> tuple[Any, bool]:
        """(pointer + i, borrowed): at offset 0 that is i's own array (`_read`)."""
        addr = _as_offset(i, "pointer index")
        if type(self.offset) is int and self.offset == 0:
            return addr, True
        return self.offset + addr, False

    # -- bulk access for the fragment API -------------------------------------------------

    def gather(self, offsets: np.ndarray, mask: np.ndarray | None = None,
               span: tuple[int, int] | None = None) -> np.ndarray:
        """Read at pointer + offsets, offsets of shape (..., lanes) with lanes last; masked-off
        -> 0. `span`, the (min, max) of the unmasked offsets, lets the bounds check skip the
        per-element pass when the whole access is provably inside the buffer."""
        addr, placed, borrowed = self._bulk_addresses(offsets, "gather")
        return self._read(addr, self._bulk_mask(mask, addr, "gather"), "gather", span, placed,
                          borrowed)

    def scatter(self, offsets: np.ndarray, values: object, mask: np.ndarray | None = None,
                span: tuple[int, int] | None = None, distinct: bool = False) -> None:
        """Write values at pointer + offsets (shape (..., lanes), lanes last); masked-off
        skipped. `span` as for `gather`; `distinct`: no wave's offsets repeat (a fragment
        map), so only writes of different waves can meet."""
        addr, placed, borrowed = self._bulk_addresses(offsets, "scatter")
        self._write(addr, values, self._bulk_mask(mask, addr, "scatter"), "scatter", span,
                    distinct, placed, borrowed)

    def load(self, n: int) -> Lanes:
        """Per-lane vector load: (lanes, n) array, each lane reading n elements from its own
        address."""
        offsets = self._vector_offsets(n, "load")
        return as_lanes(np.ascontiguousarray(self.gather(offsets).T), -2)  # rows are lanes

    def store(self, regs: np.ndarray) -> None:
        """Per-lane vector store of regs (lanes, n): each lane writes its row at its own
        address."""
        check_plain_data(regs)
        regs = np.asarray(batch_data(regs))
        if regs.ndim != 2:
            raise AccessError(f"store needs registers of shape (W, n), got shape {regs.shape}")
        offsets = self._vector_offsets(regs.shape[1], "store")
        if regs.shape[0] != offsets.shape[1]:
            raise AccessError(
                f"store needs registers of shape ({offsets.shape[1]}, n) (one row per lane), "
                f"got shape {regs.shape}"
            )
        self.scatter(offsets, regs.T)

    def read_blocks(self, shape: tuple[int, int], strides: tuple[int, int],
                    lanes_agree: bool = False, shifts: np.ndarray | None = None
                    ) -> Blocks | None:
        """Each running wave's block of `shape` elements at its own address, element
        (r, c) at r * strides[0] + c * strides[1] from it, as `Blocks`: one strided copy of
        each distinct block (the dense form of a fragment load: waves at one address read
        the same values; the caller's `gather` reads the same elements).

        Observers watching the load see every wave's block as a `BlockAccess` (a batch's
        LDS race log). None, with nothing read, where one copy cannot stand for the gather
        (`_block_starts`). `lanes_agree`: the caller has checked that each wave's lanes
        hold one address (`load_matrix_sync` does, in a kernel); `shifts`: each running
        wave's block starts that many elements past its address (a cooperative
        fragment's share)."""
        placed = self._block_starts(shape, strides, lanes_agree, write=False, shifts=shifts)
        if placed is None:
            return None
        starts, observers = placed
        if isinstance(starts, int):  # one wave, unwatched: one view (fewer calls)
            return Blocks(self._strided(starts, (1, *shape), (0, *strides)).copy(), None)
        if observers:
            before_read(observers, self._block_access(starts, shape, strides))
        base, rel = _relative(starts)
        distinct, at = _relative_positions(rel)
        return Blocks(self._blocks_view(shape, strides)[distinct + base], at)

    def write_blocks(self, values: np.ndarray, strides: tuple[int, int],
                     lanes_agree: bool = False, shifts: np.ndarray | None = None) -> bool:
        """Store each running wave's block `values[w]` ((waves, height, width), converted
        to the pointer's type as a scatter converts) as `read_blocks` places it: one strided
        assignment, the dense form of a fragment store. False, with nothing written, where
        it cannot stand for the scatter: as for `read_blocks`, a read-only buffer, or two
        waves' blocks that may overlap (the scatter orders such writes by lane). `shifts`
        as for `read_blocks`."""
        if not self.buffer.writeable:
            return False
        shape = values.shape[1:]
        placed = self._block_starts(shape, strides, lanes_agree, write=True, shifts=shifts)
        if placed is None:
            return False
        starts, observers = placed
        if isinstance(starts, int):
            self._strided(starts, shape, strides)[...] = values[0]
            return True
        if starts.size > 1 and not _blocks_apart(_relative(starts)[1], shape, strides):
            return False
        view = self._blocks_view(shape, strides)
        if not observers:
            view[starts] = values
            return True
        access = self._block_access(starts, shape, strides)
        before_write(observers, access)
        view[starts] = values
        after_write(observers, access)
        return True

    def _block_starts(self, shape: tuple[int, ...], strides: tuple[int, int],
                      lanes_agree: bool, write: bool, shifts: np.ndarray | None = None
                      ) -> tuple[int | np.ndarray, tuple[Observer, ...]] | None:
        """(each running wave's first element, as a buffer index, and the observers of the
        access) for `read_blocks` / `write_blocks`, or None where one strided access cannot
        stand for the per-lane one: an observer that needs each element's lane
        (`Observer.sees_blocks`), a `where` mask in force, a wave's address differing
        between its lanes, a negative stride, or a block leaving the buffer (the per-lane
        access then sees or reports it). One unwatched wave gets a Python int."""
        (height, width), (s_r, s_c) = shape, strides
        ctx = current_context_or_none()
        observers = watching(self.buffer, ctx, write=write)
        if any(not o.sees_blocks(self.buffer) for o in observers) or min(s_r, s_c) < 0 \
                or height < 1 or width < 1 or (ctx is not None and ctx.active_mask() is not None):
            return None
        waves = ctx.n_waves if ctx is not None else 1
        base: int | np.ndarray = self.offset  # type: ignore[assignment]
        uniform = wave_values(self.offset)
        if uniform is not None and uniform.size == waves:  # (a wave index's address)
            base = uniform
        elif isinstance(self.offset, Lanes):
            per_wave = batch_data(self.offset).reshape(waves, -1)
            base = per_wave[:, 0]
            if not lanes_agree and (per_wave != per_wave[:, :1]).any():
                return None
        if shifts is not None:
            base = base + shifts
        last = (height - 1) * s_r + (width - 1) * s_c  # the block's largest offset
        if waves == 1 and not observers:
            start = int(base if isinstance(base, int) else base[0])
            if start < 0 or start + last >= self.size:
                return None
            if self.buffer.segments > 1:  # the block's own LDS segment
                start += ctx.block_slots[0] * self._segment_elements()  # type: ignore[union-attr]
            return start, observers
        starts = base if isinstance(base, np.ndarray) else np.full(waves, base, np.int64)
        if starts.min() < 0 or starts.max() + last >= self.size:
            return None
        if self.buffer.segments > 1:  # each wave reaches its own block's LDS segment
            starts = starts + ctx.block_slots * self._segment_elements()  # type: ignore[union-attr]
        return starts, observers

    def _blocks_view(self, shape: tuple[int, ...], strides: tuple[int, int]) -> np.ndarray:
        """Every block of `shape` and `strides` the buffer holds, indexed by its first
        element (an overlapping strided view: one fancy index reads or writes them all)."""
        last = (shape[0] - 1) * strides[0] + (shape[1] - 1) * strides[1]
        return self._strided(0, (self.buffer.typed(self.dtype).size - last, *shape),
                             (1, *strides))

    def _block_access(self, starts: np.ndarray, shape: tuple[int, ...],
                      strides: tuple[int, int]) -> BlockAccess:
        return BlockAccess(self.buffer, self.dtype, current_context("a block access"), starts,
                           shape, strides)  # type: ignore[arg-type]

    def _segment_elements(self) -> int:
        return self.buffer.segment_bytes // self.dtype.itemsize

    def _strided(self, start: int, shape: tuple[int, ...], strides: tuple[int, ...]
                 ) -> np.ndarray:
        """A view of the buffer's elements from `start` on, strides in elements."""
        typed, item = self.buffer.typed(self.dtype), self.dtype.itemsize
        return np.ndarray(shape, self.dtype, buffer=typed, offset=start * item,
                          strides=tuple(s * item for s in strides))

    # -- internals ------------------------------------------------------------------------

    def _width(self, what: str) -> int:
        ctx = current_context_or_none()
        if ctx is not None:
            return ctx.lanes
        if isinstance(self.offset, Lanes):
            return batch_data(self.offset).size
        return current_context(f"Pointer.{what}() with a uniform address").lanes  # raises

    def _vector_offsets(self, n: int, what: str) -> np.ndarray:
        n = operator.index(n)
        if n < 1:
            raise AccessError(f"{what} needs a positive element count, got {n}")
        width = self._width(what)
        return np.broadcast_to(np.arange(n, dtype=np.int64)[:, None], (n, width))

    @staticmethod
    def _lane_addresses(addr: np.ndarray | Lanes, ctx: WaveContext | None) -> np.ndarray:
        addr = batch_data(addr)
        if ctx is not None and addr.shape != (ctx.lanes,):
            raise AccessError(
                f"per-lane address must have shape ({ctx.lanes},) (one per lane), "
                f"got shape {addr.shape}"
            )
        return np.asarray(addr)

    def _bulk_addresses(self, offsets: object, what: str) -> tuple[np.ndarray, bool, bool]:
        """(addresses, placed, borrowed) of pointer + offsets: `placed` when they already hold
        each lane's LDS segment (`_access`), added to the per-lane base before the one pass
        over all offsets; `borrowed` when they are the offsets' own array (`_read`)."""
        off = np.asarray(batch_data(offsets))
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
        base = batch_data(self.offset)
        if isinstance(base, np.ndarray) and base.size != off.shape[-1]:
            raise AccessError(
                f"{what} offsets of shape {off.shape} don't match the pointer's "
                f"{base.size} per-lane addresses"
            )
        if self.buffer.segments > 1 and ctx is not None:
            return ((base + self._segment_starts(ctx)) + off.astype(np.int64, copy=False),
                    True, False)
        if isinstance(base, np.ndarray) or base:
            return base + off.astype(np.int64, copy=False), False, False
        return off, False, True

    @staticmethod
    def _bulk_mask(mask: object, addr: np.ndarray, what: str) -> np.ndarray | None:
        if mask is None:
            return None
        mask = np.asarray(batch_data(mask))
        if mask.dtype != np.bool_:
            raise PointerTypeError(f"{what} mask must be a bool array, got {mask.dtype}")
        try:
            return np.broadcast_to(mask, addr.shape)
        except ValueError:
            raise AccessError(
                f"{what} mask of shape {mask.shape} does not broadcast to offsets {addr.shape}"
            ) from None

    def _access(self, addr: np.ndarray, mask: np.ndarray | None, action: str,
                span: tuple[int, int] | None, placed: bool = False, ascending: bool = False):
        """Bounds-check an access and place it: (physical addresses, the mask in force, with
        the enclosing `where` lanes folded in, whether every address is inside, the masked
        ones too, and `picked`: where the mask is the EXEC of waves whose first p lanes
        are live (`_live_prefix`) outside a batch's LDS, their addresses as a (waves, p)
        array, the only ones checked; else None). `placed`: `addr` already holds the
        segment starts (`_bulk_addresses`); the check then sees them taken off again,
        unless `span` proves the access inside. `ascending`: the addresses are known to
        ascend strictly in flat order, so their ends bound them."""
        ctx = current_context_or_none()
        active = ctx.active_mask() if ctx is not None else None
        if active is not None and ctx.narrow and active is ctx.live:  # type: ignore[union-attr]
            active = None  # a narrow batch's EXEC: all its lanes are threads
        if active is not None and addr.ndim:
            mask = active if mask is None else mask & active
            if mask.shape != addr.shape:  # (else kept: `_live_prefix` knows it by identity)
                mask = np.broadcast_to(mask, addr.shape)
        if placed:
            if addr.size and not (span is not None and self._spans_inside(span)):
                self._check_bounds(addr - self._segment_starts(ctx), mask, action, span)
            return addr, mask, mask is None, None
        if ctx is not None and self.buffer.segments == 1 and (prefix := _live_prefix(ctx, mask)):
            picked = np.ascontiguousarray(_lanes_of(addr, ctx.n_waves, prefix))
            self._check_bounds(picked, None, action, span, ascending)
            return addr, mask, False, picked
        inside = self._check_bounds(addr, mask, action, span, ascending)
        if self.buffer.segments > 1:  # each lane addresses its own block's LDS segment
            addr = addr + self._segment_starts(ctx)
        return addr, mask, inside, None

    def _segment_starts(self, ctx: WaveContext | None) -> np.ndarray:
        """Per lane, the first element of its block's LDS segment (segments > 1 only for
        the LDS of a running batch, so ctx is set)."""
        stride = self.buffer.segment_bytes // self.dtype.itemsize
        return np.repeat(ctx.block_slots * stride,  # type: ignore[union-attr]
                         ctx.width)  # type: ignore[union-attr]

    def _read(self, addr: np.ndarray, mask: np.ndarray | None, action: str,
              span: tuple[int, int] | None = None, placed: bool = False,
              borrowed: bool = False):
        """`borrowed`: `addr` is the kernel's own array (which it may change later), so
        observers, which may keep the addresses (`races.EpochLog`, the undo journal), see
        a copy."""
        addr, mask, inside, picked = self._access(addr, mask, action, span, placed)
        typed = self.buffer.typed(self.dtype)
        ctx = current_context_or_none()
        observers = watching(self.buffer, ctx, write=False)
        if observers and borrowed:
            addr = addr.copy()
        if mask is None:
            if observers:
                before_read(observers, Access(self.buffer, self.dtype, ctx, addr, None,
                                              addr.reshape(-1)))
            return typed.take(addr, mode=_CHECKED)  # (faster than typed[addr])
        out = np.zeros(addr.shape, self.dtype)
        if picked is not None and not observers:
            _lanes_of(out, *picked.shape)[...] = typed.take(picked, mode=_CHECKED)
            return out
        if inside and not observers:  # masked lanes may read (nobody sees it): 3 passes
            np.copyto(out, typed.take(addr, mode=_CHECKED), where=mask)
            return out
        src = np.flatnonzero(mask)
        sel = addr.reshape(-1)[src] if picked is None else picked.reshape(-1)
        if observers:
            before_read(observers, Access(self.buffer, self.dtype, ctx, addr, src, sel))
        out.reshape(-1)[src] = typed[sel]
        return out

    def _write(self, addr: np.ndarray, values: object, mask: np.ndarray | None, action: str,
               span: tuple[int, int] | None = None, distinct: bool = False,
               placed: bool = False, borrowed: bool = False):
        """`borrowed` as for `_read`."""
        values = np.asarray(batch_data(values))
        try:
            if values.shape != addr.shape:
                values = np.broadcast_to(values, addr.shape)
        except ValueError:
            raise AccessError(
                f"{action} of values with shape {values.shape} to addresses of shape "
                f"{addr.shape}: give a scalar or one value per address"
            ) from None
        if not self.buffer.writeable:
            raise AccessError(f"{action} to buffer '{self.buffer.name}', whose array is read-only")
        # a thread-linear store (the usual one) ascends: one test then proves it inside by its
        # ends and free of repeats
        tested = mask is None and not placed and addr.ndim == 1
        ascending = tested and _ascending(addr)
        addr, mask, _, picked = self._access(addr, mask, action, span, placed, ascending)
        ctx = current_context_or_none()
        flat: np.ndarray = addr.reshape(-1)
        src = vals = None
        if picked is not None:  # the live lanes by a strided view, no index
            flat = picked.reshape(-1)
            vals = _lanes_of(values, *picked.shape).reshape(-1)
        elif mask is not None:
            src = np.flatnonzero(mask)
            flat = flat[src]
        waves = 1 if ctx is None else ctx.n_waves
        by_wave = None  # a fragment store's waves: translates of one footprint
        if distinct and mask is None and addr.ndim == 2 and waves > 1:
            by_wave = addr.reshape(addr.shape[0], waves, -1).transpose(1, 0, 2)
        repeats = (not ascending and not self._waves_cannot_meet(distinct)
                   and _repeats(flat, waves, by_wave,
                                unordered=tested and mask is None and picked is None))
        last = None
        if repeats and addr.ndim == 1 and (mask is None or picked is not None) and waves > 1:
            last = _last_writes_by_wave(flat.reshape(waves, -1))
        if last is not None:  # (positions in the picked lanes, or in addr)
            width, live = addr.size // waves, flat.size // waves
            src, flat, vals = last // live * width + last % live, flat[last], None
        elif repeats:  # keep the last write per address in lane-major order
            order: np.ndarray = np.arange(addr.size).reshape(addr.shape)
            order = np.moveaxis(order, -1, 0).reshape(-1) if addr.ndim > 1 else order.reshape(-1)
            if mask is not None:
                order = order[mask.reshape(-1)[order]]
            flat = addr.reshape(-1)[order]
            _, first_from_end = first_occurrences(flat[::-1])
            keep = np.sort(flat.size - 1 - first_from_end)
            src, flat, vals = order[keep], flat[keep], None
        if vals is None:
            vals = values.reshape(-1) if src is None else values.reshape(-1)[src]
        typed = self.buffer.typed(self.dtype)
        observers = watching(self.buffer, ctx, write=True)
        if observers and ctx is not None and flat.size:  # (observers watch a kernel's)
            low, high = ((int(flat[0]), int(flat[-1])) if ascending and picked is None
                         else (int(flat.min()), int(flat.max())))
            observers = store_watchers(observers, self.buffer, self.dtype, ctx, low, high)
        if not observers:
            typed[flat] = vals
            return
        if src is None and mask is not None:  # (picked by `_lanes_of`)
            src = np.flatnonzero(mask)
        if borrowed and src is None:  # (flat is then a view of addr)
            flat, addr = flat.copy(), addr.copy()
        access = Access(self.buffer, self.dtype, ctx, addr, src, flat, repeats=repeats)
        before_write(observers, access)
        typed[flat] = vals
        after_write(observers, access)

    def _per_lane(self, ctx: WaveContext) -> bool:
        """Whether a batch's read of one address needs it per lane: each block reads its own
        LDS segment, or an observer tells the waves apart."""
        if ctx.n_waves == 1:
            return False
        return self.buffer.segments > 1 or bool(watching(self.buffer, ctx, write=False))

    def _check_written(self, flat: np.ndarray, src: np.ndarray | None, addr: np.ndarray) -> None:
        """initcheck of an atomic's reads of LDS (`atomics.py`; its writes are its own)."""
        ctx = current_context_or_none()
        if self.buffer.written is not None and flat.size:
            INITCHECK.read(Access(self.buffer, self.dtype, ctx, addr, src, flat))

    def _waves_cannot_meet(self, distinct: bool) -> bool:
        """Whether a write whose waves' offsets are `distinct` can skip the repeated-address
        check: one wave, or a batch's LDS, where waves of different blocks write different
        segments and waves of one block meeting is a race (`sanitizers.LdsRaceCheck`)."""
        if not distinct:
            return False
        ctx = current_context_or_none()
        return ctx is None or ctx.n_waves == 1 or self.buffer.lds

    def _spans_inside(self, span: tuple[int, int]) -> bool:
        """Whether offsets spanning `span` from this pointer stay inside the buffer."""
        base = self.offset
        lo, hi = (base, base) if not isinstance(base, Lanes) else _range(base)
        return lo + span[0] >= 0 and hi + span[1] < self.size

    def _check_bounds(self, addr: np.ndarray, mask: np.ndarray | None, action: str,
                      span: tuple[int, int] | None = None, ascending: bool = False) -> bool:
        """Raise where an address `mask` keeps leaves the buffer; True when every address
        is inside, the masked-off ones too (one reduction decides the usual case: int64
        addresses read as uint64 put the negative ones past every size; addresses known to
        ascend need only their ends)."""
        size = self.size
        if addr.size == 0:
            return True
        if span is not None and self._spans_inside(span):
            return mask is None
        if ascending and addr.flat[0] >= 0 and addr.flat[-1] < size:
            return True
        if (addr.view(np.uint64).max() < size if addr.dtype == np.int64
                else addr.min() >= 0 and addr.max() < size):
            return True
        if mask is None:
            bad = (addr < 0) | (addr >= size)
        else:
            bad = ((addr < 0) | (addr >= size)) & mask
            if not bad.any():
                return False
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


def _live_prefix(ctx: WaveContext, mask: np.ndarray | None) -> int:
    """p when `mask` is the batch's EXEC of partial waves whose live lanes are each wave's
    first p (`WaveContext.live_prefix`): `_lanes_of` then picks them; else 0."""
    return ctx.live_prefix() if mask is not None and mask is ctx.live else 0


def _lanes_of(per_lane: np.ndarray, waves: int, prefix: int) -> np.ndarray:
    """The first `prefix` lanes of each of the `waves` waves of a (lanes,) array, as a
    (waves, prefix) view (in the flat order of the mask's positions)."""
    return per_lane.reshape(waves, -1)[:, :prefix]


def _ascending(addr: np.ndarray) -> bool:
    """Whether the addresses ascend strictly (so none repeats)."""
    return addr.size < 2 or bool((addr[1:] > addr[:-1]).all())


def _repeats(flat: np.ndarray, waves: int, by_wave: np.ndarray | None = None,
             unordered: bool = False) -> bool:
    """Whether some address repeats. Rare (racy code), so the common case is proved cheaply:
    strictly ascending addresses (a thread-linear store), the waves' addresses as translates
    of one pattern (`by_wave`, (waves, ...) addresses when the caller knows each wave's: a
    fragment store's footprints), a bincount over the touched range when it is dense, else
    a sort. `unordered`: `flat` is known not to ascend."""
    if flat.size < 2:
        return False
    if by_wave is None and not unordered and _ascending(flat):
        return False
    for rows in (by_wave, flat.reshape(waves, -1) if flat.size % waves == 0 else None):
        if rows is not None and waves > 1:
            verdict = _translates_repeat(rows)
            if verdict is not None:
                return verdict
    lo, hi = int(flat.min()), int(flat.max())
    if hi - lo < 4 * flat.size + 4096:
        return bool(np.bincount(flat - lo, minlength=hi - lo + 1).max() > 1)
    ordered = np.sort(flat)
    return bool((ordered[1:] == ordered[:-1]).any())


def _translates_repeat(rows: np.ndarray) -> bool | None:
    """Repeats among `rows` (the first axis splits them) when every row is its first
    element plus one pattern (a batch's waves storing `base + lane`): the pattern's own
    repeats, or none when the rows' ranges are disjoint (`_apart`) or the pattern is a
    matrix tile the bases place on one grid of tiles (`_tiles_repeat`); None where neither
    is proved (any split into equal rows is sound: waves need not be rows)."""
    translates = _translates(rows)
    if translates is None:
        return None
    bases, pattern = translates
    ordered = np.sort(pattern, axis=None)
    if (ordered[1:] == ordered[:-1]).any():
        return True
    if _apart(bases, ordered[-1] - ordered[0]):
        return False
    return _tiles_repeat(bases + ordered[0], ordered - ordered[0])


def _translates(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """(bases, pattern) when every row of `rows` is its first element plus one pattern."""
    first = (slice(None),) + (0,) * (rows.ndim - 1)
    bases = rows[first]
    pattern = rows[0] - bases[0]
    if not ((rows - bases.reshape((-1,) + (1,) * (rows.ndim - 1))) == pattern).all():
        return None
    return bases, pattern


def _apart(bases: np.ndarray, span: int) -> bool:
    """Whether translates of a pattern spanning `span` at `bases` have disjoint ranges
    (bases usually ascend: the sort only where they do not)."""
    return bool((bases[1:] - bases[:-1] > span).all() or (np.diff(np.sort(bases)) > span).all())


def _last_writes_by_wave(rows: np.ndarray) -> np.ndarray | None:
    """Positions in `rows` (waves, W) flattened of the last write to each address, where
    the rows are translates of one pattern with disjoint ranges (all lanes of a wave on one
    element, a wave's lanes on a few): the pattern's last lanes, the same in every wave,
    with no sort of the batch; else None."""
    translates = _translates(rows)
    if translates is None:
        return None
    bases, pattern = translates
    if not _apart(bases, int(pattern.max() - pattern.min())):
        return None
    _, first_from_end = first_occurrences(pattern[::-1])
    last = np.sort(pattern.size - 1 - first_from_end)
    return (np.arange(rows.shape[0])[:, None] * pattern.size + last).reshape(-1)


def _tiles_repeat(origins: np.ndarray, box: np.ndarray) -> bool | None:
    """Repeats among translates of `box` (ascending, distinct, from 0) placed at `origins`
    when it is an h x w tile of a matrix with leading dimension ld >= w (the offsets
    r * ld + c) and the origins, relative to the lowest, lie on one grid of such tiles that
    never crosses a multiple of ld: then two tiles meet only where their origins coincide
    (their rows and columns would differ by less than h and w, multiples of h and w). None
    where the structure is not that."""
    w = int(np.argmax(box != np.arange(box.size))) or box.size  # the first row's length
    h = box.size // w
    ld = int(box[w]) if h > 1 else w
    if h * w != box.size or ld < w or not np.array_equal(
            box, (np.arange(h)[:, None] * ld + np.arange(w)).reshape(-1)):
        return None
    rows, cols = np.divmod(origins - origins.min(), ld)
    if (cols + w > ld).any() or (rows % h).any() or (cols % w).any():
        return None  # (tiles off one grid, or across a row end, may overlap in part)
    cells = rows // h * (ld // w + 1) + cols // w
    return bool(np.unique(cells).size < cells.size)


def _relative(starts: np.ndarray) -> tuple[int, bytes]:
    """(the lowest start, the int64 bytes of the starts less it): what blocks overlap and
    which coincide does not change when all move together (a kernel's K loop moves its
    loads; its LDS stores repeat), so the answers are cached on these bytes."""
    base = int(starts.min())
    return base, np.subtract(starts, base, dtype=np.int64).tobytes()


@lru_cache(maxsize=64)
def _relative_positions(rel: bytes) -> tuple[np.ndarray, np.ndarray | None]:
    """`positions` of the starts `_relative` gives as bytes (read-only arrays)."""
    found = positions(np.frombuffer(rel, np.int64))
    for x in found:
        if x is not None:
            x.flags.writeable = False
    return found


@lru_cache(maxsize=64)
def _blocks_apart(rel: bytes, shape: tuple[int, ...], strides: tuple[int, int]) -> bool:
    """Whether blocks of `shape` and `strides` (non-negative) at the starts `_relative`
    gives as bytes share no element: their ranges are disjoint, or they are tiles of one
    grid (`_tiles_repeat`)."""
    starts = np.frombuffer(rel, np.int64)
    box = np.sort((strides[0] * np.arange(shape[0])[:, None]
                   + strides[1] * np.arange(shape[1])).reshape(-1))
    if (box[1:] == box[:-1]).any():  # a zero stride: the block repeats an element
        return False
    return _apart(starts, int(box[-1])) or _tiles_repeat(starts + int(box[0]), box) is False


def _range(values: np.ndarray | Lanes) -> tuple[int, int]:
    """(min, max) of per-lane values over all lanes of a batch (a plain-array reduction)."""
    values = np.asarray(batch_data(values))
    return int(values.min()), int(values.max())


def _short(offset: int | np.ndarray | Lanes) -> str:
    """An offset for messages: the int, or a per-lane range summary."""
    if isinstance(offset, (np.ndarray, Lanes)):
        lo, hi = _range(offset)
        return f"<per-lane {lo}..{hi}>"
    return str(offset)
