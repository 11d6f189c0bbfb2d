"""rocWMMA's type accessors and transform result types (rocwmma-notes §1.6, §1.7):
`GetIOShape_t[F]`, `GetDataLayout_t[F]`, `GetDataType_t[F]`, `DataLayout.Array1d[L]`,
`apply_data_layout_t[F, L]`, `apply_transpose_t[F]` (`GetMappingUtil_t` is in utils).

C++ spells these as types; here they are subscriptable objects returning a fragment class or
a small helper, so `using LWFragA = apply_data_layout_t<GRFragA, col_major>;` ports as
`LWFragA = apply_data_layout_t[GRFragA, col_major]`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..arch import Arch, get_arch
from ..runtime import current_arch
from .errors import FragmentError
from .fragment import fragment
from .tags import (
    accumulator,
    col_major,
    layout_of,
    matrix_a,
    matrix_b,
    orthogonal_layout,
    row_major,
)


def _fragment_class(frag, what: str) -> type[fragment]:
    cls = frag if isinstance(frag, type) else type(frag)
    if not issubclass(cls, fragment):
        raise FragmentError(f"{what} takes a fragment class; got {frag!r}")
    return cls


class _ApplyTranspose:
    """`apply_transpose_t[F]`: matrix_a<M,N,K,T,L,S> <-> matrix_b<N,M,K,T,orthogonal L,S>."""

    def __getitem__(self, frag) -> type[fragment]:
        cls = _fragment_class(frag, "apply_transpose_t")
        if cls.matrix is accumulator:
            raise FragmentError(f"apply_transpose_t: {cls.__name__} is an accumulator; "
                                "only matrix_a and matrix_b fragments transpose")
        other = matrix_b if cls.matrix is matrix_a else matrix_a
        return fragment[other, cls.frag_n, cls.frag_m, cls.frag_k, cls.data_type,
                        orthogonal_layout(cls.layout),  # type: ignore[arg-type] # A/B: set
                        cls.scheduler]


class _ApplyDataLayout:
    """`apply_data_layout_t[F, L]`: the same fragment with data layout L."""

    def __getitem__(self, params) -> type[fragment]:
        if not isinstance(params, tuple) or len(params) != 2:
            raise FragmentError("apply_data_layout_t takes [FragmentClass, row_major|col_major]")
        cls = _fragment_class(params[0], "apply_data_layout_t")
        return fragment[cls.matrix, cls.frag_m, cls.frag_n, cls.frag_k, cls.data_type,
                        layout_of(params[1]), cls.scheduler]


apply_transpose_t = _ApplyTranspose()
apply_data_layout_t = _ApplyDataLayout()


@dataclass(frozen=True)
class IOShape:
    """`GetIOShape_t<F>`: the padded block geometry of F on `arch` (padding depends on the
    wave size). `GetIOShape_t[F]` takes the running kernel's target, or outside a kernel the
    current target (`use_arch`, $ROCWMMA_PY_ARCH, else the default), and names it in `arch`;
    `GetIOShape_t[F, "gfx1100"]` picks one."""

    frag: type[fragment]
    arch: Arch

    def _geometry(self):
        return self.frag.traits(self.arch).geometry

    @property
    def BlockHeight(self) -> int:  # noqa: N802 - rocWMMA spelling
        return self._geometry().height

    @property
    def BlockWidth(self) -> int:  # noqa: N802
        return self._geometry().width

    @property
    def BlockDim(self) -> int:  # noqa: N802
        return self._geometry().block_dim

    @property
    def KDim(self) -> int:  # noqa: N802
        return self._geometry().k_dim

    def __repr__(self) -> str:
        g = self._geometry()
        return (f"IOShape({self.frag.__name__} on {self.arch.name}: BlockHeight={g.height}, "
                f"BlockWidth={g.width}, BlockDim={g.block_dim}, KDim={g.k_dim})")


def _with_arch(params, what: str) -> tuple[type[fragment], Arch]:
    """`[F]` (the current target) or `[F, arch]` (an Arch or its name)."""
    frag, *rest = params if isinstance(params, tuple) else (params,)
    if len(rest) > 1:
        raise FragmentError(f"{what} takes [FragmentClass] or [FragmentClass, arch]")
    arch = rest[0] if rest else current_arch()
    return _fragment_class(frag, what), arch if isinstance(arch, Arch) else get_arch(arch)


class _GetIOShape:
    def __getitem__(self, params) -> IOShape:
        return IOShape(*_with_arch(params, "GetIOShape_t"))


@dataclass(frozen=True)
class Array1d:
    """rocWMMA's `DataLayout::Array1d<L>` (`detail::DataSpace<L>`): where a matrix
    coordinate sits in 1-D memory of data layout L, and the leading dimension of a matrix."""

    layout: type

    def leadingDim(self, matrix_size):  # noqa: N802 - rocWMMA spelling
        """The minor extent of (rows, cols): cols for row_major, rows for col_major."""
        rows, cols = matrix_size
        return cols if self.layout is row_major else rows

    def fromMatrixCoord(self, coord, ld):  # noqa: N802 - rocWMMA spelling
        """offset(row, col) = row*ld + col (row_major) or col*ld + row (col_major)."""
        row, col = coord
        return row * ld + col if self.layout is row_major else col * ld + row


class _Array1dTemplate:
    def __getitem__(self, layout) -> Array1d:
        return Array1d(layout_of(layout))


class DataLayout:  # noqa: N801 - rocWMMA's namespace
    """`rocwmma::DataLayout`: `Array1d[L]`, `RowMajor`, `ColMajor`."""

    Array1d = _Array1dTemplate()
    RowMajor = Array1d[row_major]
    ColMajor = Array1d[col_major]


class _GetDataLayout:
    def __getitem__(self, frag) -> Array1d:
        cls = _fragment_class(frag, "GetDataLayout_t")
        if cls.layout not in (row_major, col_major):
            raise FragmentError(f"GetDataLayout_t: {cls.__name__} has no data layout (void); "
                                "give the fragment row_major or col_major")
        return Array1d(cls.layout)


class _GetDataType:
    """`GetDataType_t[F]`: F's element type."""

    def __getitem__(self, frag) -> type:
        return _fragment_class(frag, "GetDataType_t").data_type


GetIOShape_t = _GetIOShape()
GetDataLayout_t = _GetDataLayout()
GetDataType_t = _GetDataType()
