"""rocWMMA's type accessors and transform result types (rocwmma-notes §1.6, §1.7):
`GetIOShape_t[F]`, `GetDataLayout_t[F]`, `apply_data_layout_t[F, L]`, `apply_transpose_t[F]`.

C++ spells these as types; here they are subscriptable objects returning a fragment class or
a small helper, so `using LWFragA = apply_data_layout_t<GRFragA, col_major>;` ports as
`LWFragA = apply_data_layout_t[GRFragA, col_major]`.
"""

from __future__ import annotations

from dataclasses import dataclass

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
        raise TypeError(f"{what} takes a fragment class; got {frag!r}")
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
                        orthogonal_layout(cls.layout), cls.scheduler]


class _ApplyDataLayout:
    """`apply_data_layout_t[F, L]`: the same fragment with data layout L."""

    def __getitem__(self, params) -> type[fragment]:
        if not isinstance(params, tuple) or len(params) != 2:
            raise TypeError("apply_data_layout_t takes [FragmentClass, row_major|col_major]")
        cls = _fragment_class(params[0], "apply_data_layout_t")
        return fragment[cls.matrix, cls.frag_m, cls.frag_n, cls.frag_k, cls.data_type,
                        layout_of(params[1]), cls.scheduler]


apply_transpose_t = _ApplyTranspose()
apply_data_layout_t = _ApplyDataLayout()


@dataclass(frozen=True)
class IOShape:
    """`GetIOShape_t<F>`: the padded block geometry on the current target."""

    frag: type[fragment]

    @property
    def BlockHeight(self) -> int:  # noqa: N802 - rocWMMA spelling
        return self.frag.traits().geometry.height

    @property
    def BlockWidth(self) -> int:  # noqa: N802
        return self.frag.traits().geometry.width

    @property
    def BlockDim(self) -> int:  # noqa: N802
        return self.frag.traits().geometry.block_dim

    @property
    def KDim(self) -> int:  # noqa: N802
        return self.frag.traits().geometry.k_dim


class _GetIOShape:
    def __getitem__(self, frag) -> IOShape:
        return IOShape(_fragment_class(frag, "GetIOShape_t"))


@dataclass(frozen=True)
class DataLayout:
    """`GetDataLayout_t<F>`: the 1-D offset of a matrix coordinate in F's memory layout."""

    layout: type

    def fromMatrixCoord(self, coord, ld):  # noqa: N802 - rocWMMA spelling
        """offset(row, col) = row*ld + col (row_major) or col*ld + row (col_major)."""
        row, col = coord
        return row * ld + col if self.layout is row_major else col * ld + row


class _GetDataLayout:
    def __getitem__(self, frag) -> DataLayout:
        cls = _fragment_class(frag, "GetDataLayout_t")
        if cls.layout not in (row_major, col_major):
            raise FragmentError(f"GetDataLayout_t: {cls.__name__} has no data layout (void); "
                                "give the fragment row_major or col_major")
        return DataLayout(cls.layout)


GetIOShape_t = _GetIOShape()
GetDataLayout_t = _GetDataLayout()
