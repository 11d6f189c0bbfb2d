"""`fragment[MatrixT, FragM, FragN, FragK, DataT, DataLayoutT=None, Scheduler=default]`.

The Python form of rocWMMA's class template: indexing `fragment` returns a cached class per
parameter set, defined once at module level. Its arch-dependent traits (padded sizes,
`num_elements`, register map) resolve for the arch of the kernel that uses it, as one C++
source compiles for many targets. An instance holds one wave's registers as `x`, shaped
(num_elements, lanes): `frag.x[i]` is element i in every lane. (Run by the batched engine,
the lanes axis spans every wave of the batch, wave-major; kernel code gets `x` as `Lanes`,
which answer for one wave.)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from .. import types as T
from ..arch import Arch
from ..arch.models import Collapsed
from ..arch.numerics import Shared
from ..runtime import current_arch
from ..runtime.errors import InitCheckError
from ..runtime.lanes import Lanes, as_lanes, batch_data
from ..runtime.state import current_context_or_none, where_text
from .errors import FragmentError
from .fragment_layout import FragmentMap, Geometry, LayoutError, fragment_map, padded_dims
from .schedulers import Scheduler, fragment_scheduler
from .tags import LAYOUTS, MATRICES, accumulator, col_major, matrix_a, matrix_b, row_major
from .wave_batch import from_waves, lanes_now, to_waves

# Fragment data types per architecture (rocWMMA's IO types, §3 / seed 002 §5.3).
_COMMON_TYPES = (T.float16, T.bfloat16, T.float32, T.int8, T.uint8, T.int32, T.uint32)


def supported_types(arch: Arch) -> tuple:
    """Data types a fragment may hold on `arch`."""
    return _COMMON_TYPES + arch.fragment_types


@dataclass(frozen=True)
class Traits:
    """Arch-resolved traits of a fragment class (rocWMMA IOShape/IOTraits, §2.1)."""

    geometry: Geometry
    wave_size: int
    wave_count: int
    num_elements: int
    acc_layout: str  # the arch's native accumulator layout for this data type (`NATIVE_ACC`)


def _check_params(matrix, m, n, k, dtype, layout, scheduler) -> None:
    if matrix not in MATRICES:
        raise FragmentError(f"MatrixT must be matrix_a, matrix_b or accumulator; got {matrix!r}")
    for name, v in (("FragM", m), ("FragN", n), ("FragK", k)):
        if not isinstance(v, (int, np.integer)) or isinstance(v, (bool, np.bool_)) or v < 1:
            raise FragmentError(f"{name} must be a positive integer; got {v!r}")
    if layout is None and matrix is not accumulator:
        raise FragmentError("matrix_a/matrix_b fragments need DataLayoutT row_major or col_major")
    if layout is not None and layout not in LAYOUTS:
        raise FragmentError(f"DataLayoutT must be row_major, col_major or None; got {layout!r}")
    if not isinstance(scheduler, Scheduler):
        raise FragmentError(f"Scheduler must come from fragment_scheduler; got {scheduler!r}")


if TYPE_CHECKING:
    class _FragmentMeta(type):
        """Type checkers' view of `fragment[...]` (at run time `__class_getitem__`)."""

        def __getitem__(cls, params: Any) -> type[fragment]: ...

    class FragmentTemplate(Protocol):
        """What type checkers see as `rocwmma_py.fragment`: a value whose subscript is a
        fragment class, so `FragA = fragment[matrix_a, 16, 16, 16, float16, row_major]` is
        a class-valued variable rather than an (invalid) type alias."""

        def __getitem__(self, params: Any) -> type[fragment]: ...

    template: FragmentTemplate
else:
    _FragmentMeta = type


class fragment(metaclass=_FragmentMeta):  # noqa: N801 - rocWMMA spelling
    """One wave's share of a matrix block in registers; see the module docstring.

    `fragment[MatrixT, FragM, FragN, FragK, DataT, DataLayoutT=None, Scheduler]` is the
    class for one parameter set (cached); instances hold `x`, shaped (num_elements, lanes).

    Raises:
        FragmentError: bad template arguments, a data type the target lacks, or a shape
            the layouts cannot hold (when an instance is created on the target).

    Example:
        >>> from rocwmma_py import fragment, matrix_a, row_major, float16, use_arch
        >>> FragA = fragment[matrix_a, 16, 16, 16, float16, row_major]
        >>> with use_arch("gfx942"):
        ...     FragA().x.shape, FragA.size()
        ((4, 64), 4)
    """

    matrix: type
    frag_m: int
    frag_n: int
    frag_k: int
    data_type: type
    layout: type | None
    scheduler: Scheduler

    def __class_getitem__(cls, params) -> type[fragment]:
        params = params if isinstance(params, tuple) else (params,)
        if not 5 <= len(params) <= 7:
            raise FragmentError(
                f"fragment[...] takes 5 to 7 template parameters: [MatrixT, FragM, FragN, "
                f"FragK, DataT(, DataLayoutT(, Scheduler))]; got {len(params)}: "
                f"[{', '.join(map(_type_name, params))}]"
            )
        return _fragment_class(*_normalized(*params))

    # --- arch-resolved traits -----------------------------------------------------------
    @classmethod
    def block_dims(cls, wave: int) -> tuple[int, int, int]:
        """BlockM/N/K: FragM/N/K padded as rocWMMA pads a partial fragment (IOTile)."""
        return padded_dims(cls.frag_m, cls.frag_n, cls.frag_k, cls.data_type, wave)

    @classmethod
    def traits(cls, arch: Arch | None = None) -> Traits:
        return _traits(cls, arch or current_arch())

    @classmethod
    def map(cls, arch: Arch | None = None, share: int = 0) -> FragmentMap:
        """Register map (row/col per element and lane) of wave share `share`."""
        arch = arch or current_arch()
        tr = cls.traits(arch)
        g = tr.geometry
        return fragment_map(cls.matrix, g.block_m, g.block_n, g.block_k, cls.data_type,
                            cls.layout, tr.acc_layout, tr.wave_size, tr.wave_count, share)

    @classmethod
    def height(cls) -> int:
        return cls.traits().geometry.height

    @classmethod
    def width(cls) -> int:
        return cls.traits().geometry.width

    @classmethod
    def blockDim(cls) -> int:  # noqa: N802 - rocWMMA spelling
        return cls.traits().geometry.block_dim

    @classmethod
    def kDim(cls) -> int:  # noqa: N802
        return cls.traits().geometry.k_dim

    @classmethod
    def size(cls) -> int:
        return cls.traits().num_elements

    # --- instances ----------------------------------------------------------------------
    def __init__(self, other: fragment | None = None) -> None:
        arch = current_arch()
        tr = self.traits(arch)
        try:  # build the map now so a shape the layouts cannot hold fails at creation
            self.map(arch)
        except LayoutError as e:
            raise FragmentError(f"{type(self).__name__} on {arch.name}: {e}") from None
        self.arch = arch
        dtype = T.storage_dtype(self.data_type)
        self._x = np.zeros((tr.num_elements, lanes_now(tr.wave_size)), dtype=dtype)
        self._values: np.ndarray | None = None  # mma_sync's cache, see `values`
        self._collapse: Collapsed | None = None  # the proof that gave _values, see `collapse`
        self._shared: Shared | None = None  # the distinct tiles of _values, see `shared`
        self._stale = False  # _x lags behind _values (set by mma_sync)
        self.filled = other is not None  # for initcheck: registers start undefined
        if other is not None:
            if batch_data(other).shape != self._x.shape:
                raise FragmentError(f"cannot copy a {type(other).__name__} into {self}")
            self._x[...] = batch_data(other)

    @property
    def x(self) -> Lanes:
        """The registers, (num_elements, lanes), as Lanes (lane axis last). Any access counts
        as filling them for initcheck and drops the mma_sync cache (kernel code may write
        through it). This package's code reads `batch_data(frag)`."""
        return as_lanes(self._registers())

    @x.setter
    def x(self, value: Any) -> None:
        value = batch_data(value)
        current = getattr(self, "_x", None)  # None: a fragment made without __init__
        if current is not None and (not isinstance(value, np.ndarray) or
                                    value.shape != current.shape or value.dtype != current.dtype):
            got = (f"{value.dtype} {value.shape}" if isinstance(value, np.ndarray)
                   else type(value).__name__)
            raise FragmentError(
                f"{type(self).__name__}.x takes a {current.dtype} array of shape "
                f"{current.shape} (elements, lanes); got {got}; write elements with "
                "frag.x[...] = values to convert"
            )
        self._x, self._values, self._stale, self.filled = value, None, False, True
        self._collapse = self._shared = None

    def __batch_data__(self) -> np.ndarray:
        """Every wave's registers (elements, lanes): `lanes.batch_data` of a fragment."""
        return self._registers()

    def _registers(self) -> np.ndarray:
        """The plain register array, brought up to date with mma_sync's cached values; the
        cache is dropped, since the caller may write the registers."""
        if self._stale:  # written by mma_sync: scatter its values into the registers
            wave = self.traits(self.arch).wave_size
            self._x[...] = from_waves(self._values,  # type: ignore[arg-type] # stale: values set
                                      type(self).map(self.arch).flat, wave)
            self._stale = False
        self._values = self._collapse = self._shared = None
        self.filled = True
        return self._x

    def values(self, decode) -> np.ndarray:
        """Each wave's matrix block as exact values, (waves, height, width): `decode` of the
        registers gathered through the map, cached until the registers change. mma_sync
        reads its operands here and leaves D here, so a chain of mma_sync calls on the same
        accumulator never moves it through the register layout."""
        values = self._values
        if values is None:
            wave = self.traits(self.arch).wave_size
            values = self._values = decode(
                to_waves(self._x, type(self).map(self.arch).inverse, wave))
        return values

    def known_values(self) -> np.ndarray | None:
        """The `values` cache, or None: a transform that keeps every element where the
        matrix has it passes these on instead of the registers, so a dense load's or
        mma_sync's values reach mma_sync without passing through the register layout."""
        return self._values

    def set_values(self, values: np.ndarray, collapse: Collapsed | None = None,
                   shared: Shared | None = None) -> None:
        """mma_sync's result or a dense load's blocks (exactly representable in the data
        type), with the chain collapse that proved it (`collapse`) or the distinct blocks
        the waves' values were gathered from (`shared`); registers follow lazily on the
        next `x` access."""
        self._values, self._stale, self.filled = values, True, True
        self._collapse, self._shared = collapse, shared

    def collapse(self) -> Collapsed | None:
        """The collapse (`models.collapsed_chain`) whose D these values are, if they are
        still that D: the next mma_sync's proof takes its bound and quantum for C."""
        proof = self._collapse
        return proof if proof is not None and proof.d is self._values else None

    def shared(self) -> Shared | None:
        """The distinct tiles these values were gathered from (a dense load where waves
        read the same block), if they are still these values: mma_sync's certificate reads
        each distinct tile once."""
        facts = self._shared
        return facts if facts is not None and facts.values is self._values else None

    @property
    def num_elements(self) -> int:
        return self._x.shape[0]

    @property
    def element_type(self) -> type:
        return self.data_type

    def __getitem__(self, i):
        return as_lanes(self._registers())[i]

    def __setitem__(self, i, value) -> None:
        as_lanes(self._registers())[i] = value

    @property
    def packed(self) -> Lanes:
        """The packed 32-bit register view (`*frag`): (lanes, registers) uint32 words."""
        return as_lanes(T.pack(np.ascontiguousarray(self._registers().T), self.data_type), -2)

    @packed.setter
    def packed(self, words) -> None:
        self._registers()[...] = T.unpack(np.asarray(batch_data(words)), self.data_type).T

    def __repr__(self) -> str:
        return f"<{type(self).__name__} on {self.arch.name}>"


def check_filled(frag: fragment, role: str, what: str) -> None:
    """initcheck: a fragment used as a source must have been filled, loaded or computed."""
    ctx = current_context_or_none()
    if ctx is not None and ctx.initcheck and not frag.filled:
        raise InitCheckError(
            f"initcheck: {what} reads {role} ({type(frag).__name__}), which was never filled, "
            f"loaded or computed{where_text()}; registers start undefined on hardware — "
            "call fill_fragment first"
        )


def check_arch(frag: fragment, arch: Arch, what: str) -> None:
    """A fragment made for one target cannot be used by a kernel running on another."""
    if frag.arch is not arch:
        raise FragmentError(f"{what}: {type(frag).__name__} was made for {frag.arch.name}, but "
                            f"the kernel runs on {arch.name}; make fragments inside the kernel")


def check_whole_waves(what: str) -> None:
    """rocWMMA's fragment operations use every lane of a wave: a partial wave (a block whose
    thread count is not a multiple of the wave size) cannot run them."""
    ctx = current_context_or_none()
    if ctx is None or ctx.live is None:
        return
    ctx.whole_waves()  # (a narrow batch holds the threads' lanes only)
    off = ~ctx.live.reshape(ctx.n_waves, ctx.wave_size)
    partial = off.any(axis=1)
    if not partial.any():
        return
    wave = int(np.argmax(partial))
    first = int(np.argmax(off[wave]))
    block = ctx.block_dim
    threads = block.x * block.y * block.z
    raise FragmentError(
        f"{what}: wave {int(ctx.wave_ids[wave])} of block {int(ctx.block_ids[wave])} has lanes "
        f"{first}-{ctx.wave_size - 1} inactive: the block {block} has {threads} threads, not a "
        f"multiple of the wave size {ctx.wave_size}; rocWMMA's fragments need whole waves "
        f"(launch blocks of a multiple of {ctx.wave_size} threads)"
    )


def _type_name(t) -> str:
    return getattr(t, "__name__", str(t))


def _normalized(matrix, m, n, k, dtype, layout=None,
                scheduler=fragment_scheduler.default_schedule) -> tuple:
    """One spelling per parameter set, so equal template arguments give the same class.
    Python's `float` and `int` mean C++'s 32-bit `float` and `int` (as in the wmma facade),
    not numpy's 64-bit defaults."""
    _check_params(matrix, m, n, k, dtype, layout, scheduler)
    return matrix, int(m), int(n), int(k), T.resolve(T.cxx_type(dtype)), layout, scheduler


@cache
def _fragment_class(matrix, m, n, k, dtype, layout, scheduler) -> type[fragment]:
    name = (f"fragment[{matrix.__name__}, {m}, {n}, {k}, {T.short_name(dtype)}, "
            f"{_type_name(layout) if layout else 'void'}, {scheduler}]")
    attrs = dict(matrix=matrix, frag_m=m, frag_n=n, frag_k=k, data_type=dtype,
                 layout=layout, scheduler=scheduler)
    return type(name, (fragment,), attrs)


@cache
def _traits(cls: type[fragment], arch: Arch) -> Traits:
    if cls.data_type not in supported_types(arch):
        names = ", ".join(T.short_name(t) for t in supported_types(arch))
        raise FragmentError(
            f"{cls.__name__}: data type {T.short_name(cls.data_type)} is not supported on "
            f"{arch.name} (supported: {names})"
        )
    wave = arch.wave_size
    m, n, k = cls.block_dims(wave)
    geom = Geometry(cls.matrix, m, n, k)
    count = cls.scheduler.wave_count(wave)
    elements = geom.block_dim * geom.k_dim
    registers = elements * T.bits(cls.data_type) / (32 * wave)  # PackedVRegCount (§2.1)
    if registers < 1 or registers % count:
        share = f" split over {count} waves" if count > 1 else ""
        raise FragmentError(
            f"{cls.__name__} on {arch.name}: {elements} elements fill {registers:g} packed "
            f"registers per lane, which cannot be{share} whole registers; "
            "try a bigger block size" + (" or a scheduler with fewer waves" if count > 1 else "")
        )
    per_wave = registers / count
    if per_wave > REGISTER_BUDGET:
        raise FragmentError(
            f"{cls.__name__} on {arch.name}: each wave's share needs {per_wave:g} 32-bit "
            f"registers per lane, more than the {REGISTER_BUDGET} a wave can hold (gfx9: 256 "
            "VGPRs + 256 AGPRs); split the tile into smaller fragments"
        )
    acc_layout = arch.acc_layout_f64 if T.bits(cls.data_type) == 64 else arch.acc_layout
    return Traits(geom, wave, count, elements // (wave * count), acc_layout)


REGISTER_BUDGET = 512  # 32-bit registers per lane: the largest register file of any AMD wave


@dataclass(frozen=True)
class fragment_traits:  # noqa: N801 - rocWMMA spelling
    """Compile-time properties of a fragment class (rocWMMA `fragment_traits<F>`)."""

    MatrixT: type
    FragM: int
    FragN: int
    FragK: int
    DataT: type
    DataLayoutT: type | None
    Scheduler: Scheduler

    def __init__(self, frag: type[fragment] | fragment) -> None:
        cls = frag if isinstance(frag, type) else type(frag)
        values = (cls.matrix, cls.frag_m, cls.frag_n, cls.frag_k, cls.data_type, cls.layout,
                  cls.scheduler)
        for field, value in zip(self.__dataclass_fields__, values, strict=True):
            object.__setattr__(self, field, value)

    @property
    def is_matrix_a(self) -> bool:
        return self.MatrixT is matrix_a

    @property
    def is_matrix_b(self) -> bool:
        return self.MatrixT is matrix_b

    @property
    def is_accumulator(self) -> bool:
        return self.MatrixT is accumulator

    @property
    def is_input(self) -> bool:
        return self.MatrixT is not accumulator

    @property
    def is_row_major(self) -> bool:
        return self.DataLayoutT is row_major

    @property
    def is_col_major(self) -> bool:
        return self.DataLayoutT is col_major
