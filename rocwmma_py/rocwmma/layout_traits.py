"""rocWMMA 2.x layout traits (`internal/layout/layout_traits.hpp`): `layout_traits[L]`,
`is_layout_same[L1, L2]`, `is_layout_orthogonal[L1, L2]`, `orthogonal_layout_t[L]`.

C++ applies them to three kinds of layout type; here they take
* a data layout (`row_major`, `col_major`, `layout_t`, `DataLayout.Array1d[L]`): is_row_major,
  is_col_major; same = equal, orthogonal = row vs col;
* a fragment class, standing for its matrix layout and register layout on the current target
  (the running kernel's inside one): the interleaved layout rocWMMA 2.x picks (ColInlineInt,
  ColOrthoInt, RowInlineInt, RowOrthoInt), its BlockDim, KDim, MmaDim, SplitK,
  DimPerThread, KPerThread, VectorWidth and register formats; two fragments are the same when
  their registers hold the same elements in the same order, orthogonal when they hold the
  same block in another order (AOS_INT vs SOA_INT, what apply_data_layout converts).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import types as T
from ..runtime import current_arch
from .accessors import Array1d
from .errors import FragmentError
from .fragment import fragment
from .fragment_layout import mma_dim
from .tags import LAYOUTS, accumulator, col_major, layout_of, layout_t, matrix_a, matrix_b
from .tags import orthogonal_layout as _orthogonal


@dataclass(frozen=True)
class DataLayoutTraits:
    """`layout_traits<row_major / col_major>`."""

    is_row_major: bool
    is_col_major: bool
    is_data_layout: bool = True


@dataclass(frozen=True)
class MatrixLayoutTraits:
    """`layout_traits<MatrixLayout>` of a fragment's interleaved IOLayout, with the formats
    of its storage and fragment register layouts."""

    name: str
    BlockDim: int
    KDim: int
    DataT: type
    MmaDim: int
    SplitK: int
    DimPerThread: int
    KPerThread: int
    VectorWidth: int
    MaxVectorWidth: int
    StorageFormat: str
    FragmentFormat: str
    is_interleaved: bool = True
    is_matrix_layout: bool = True

    @property
    def is_col_inline(self) -> bool:
        return self.name == "ColInlineInt"

    @property
    def is_col_ortho(self) -> bool:
        return self.name == "ColOrthoInt"

    @property
    def is_row_inline(self) -> bool:
        return self.name == "RowInlineInt"

    @property
    def is_row_ortho(self) -> bool:
        return self.name == "RowOrthoInt"


def _data_layout(x) -> type | None:
    if isinstance(x, Array1d):
        return x.layout
    if x in LAYOUTS or isinstance(x, layout_t):
        return layout_of(x)
    return None


def _fragment(x) -> type[fragment] | None:
    cls = x if isinstance(x, type) else type(x)
    return cls if issubclass(cls, fragment) else None


# (matrix, data layout) -> rocWMMA's IOLayoutInt matrix layout
_MATRIX_LAYOUT: dict[tuple[type, type | None], str] = {
    (matrix_a, col_major): "ColInlineInt", (matrix_a, None): "ColOrthoInt",
    (matrix_b, col_major): "RowOrthoInt", (matrix_b, None): "RowInlineInt",
    (accumulator, col_major): "RowOrthoInt", (accumulator, None): "RowInlineInt",
}


def fragment_layout_traits(cls: type[fragment]) -> MatrixLayoutTraits:
    """The interleaved matrix layout of `cls` on the current target."""
    if cls.layout is None:
        raise FragmentError(f"layout_traits: {cls.__name__} has a void data layout, so no "
                            "matrix layout; give it row_major or col_major")
    arch = current_arch()
    tr = cls.traits(arch)
    g = tr.geometry
    name = _MATRIX_LAYOUT[cls.matrix, cls.layout if cls.layout is col_major else None]
    mma = mma_dim(g.block_dim, max(1, T.bits(cls.data_type) // 8))
    dpt = g.block_dim // mma
    kpt = g.k_dim * mma // (tr.wave_size * tr.wave_count)
    storage = "AOS_INT" if "Inline" in name else "SOA_INT"
    acc_format = cls.matrix is accumulator and mma == 16
    return MatrixLayoutTraits(
        name=name, BlockDim=g.block_dim, KDim=g.k_dim, DataT=cls.data_type, MmaDim=mma,
        SplitK=tr.wave_count, DimPerThread=dpt, KPerThread=kpt,
        VectorWidth=dpt if storage == "AOS_INT" else kpt,
        MaxVectorWidth=dpt if storage == "AOS_INT" else kpt, StorageFormat=storage,
        FragmentFormat="ACC_INT_A_MAJOR" if acc_format else storage)


class _LayoutTraits:
    def __getitem__(self, layout) -> DataLayoutTraits | MatrixLayoutTraits:
        data = _data_layout(layout)
        if data is not None:
            return DataLayoutTraits(data is not col_major, data is col_major)
        cls = _fragment(layout)
        if cls is None:
            raise FragmentError(f"layout_traits takes row_major, col_major, a layout_t, "
                                f"DataLayout.Array1d[L] or a fragment class; got {layout!r}")
        return fragment_layout_traits(cls)


def _pair(params, what: str):
    if not isinstance(params, tuple) or len(params) != 2:
        raise FragmentError(f"{what} takes [Layout1, Layout2]")
    return params


def _compare(params, what: str) -> tuple[bool, bool]:
    """(same, orthogonal) of two data layouts or two fragments' register layouts."""
    lhs, rhs = _pair(params, what)
    dl, dr = _data_layout(lhs), _data_layout(rhs)
    if dl is not None and dr is not None:
        return dl is dr, dl is not dr
    fl, fr = _fragment(lhs), _fragment(rhs)
    if fl is None or fr is None:
        raise FragmentError(f"{what} compares two data layouts or two fragment classes; got "
                            f"{lhs!r} and {rhs!r}")
    arch = current_arch()
    ml, mr = fl.map(arch), fr.map(arch)
    block = (fl.matrix is fr.matrix and (ml.height, ml.width) == (mr.height, mr.width)
             and ml.row.shape == mr.row.shape and fl.traits(arch).wave_count
             == fr.traits(arch).wave_count)
    same = block and np.array_equal(ml.row, mr.row) and np.array_equal(ml.col, mr.col)
    return same, block and not same


class _IsLayoutSame:
    def __getitem__(self, params) -> bool:
        return _compare(params, "is_layout_same")[0]


class _IsLayoutOrthogonal:
    def __getitem__(self, params) -> bool:
        return _compare(params, "is_layout_orthogonal")[1]


class _OrthogonalLayout:
    def __getitem__(self, layout):
        if isinstance(layout, Array1d):
            return Array1d(_orthogonal(layout.layout))
        data = _data_layout(layout)
        if data is None:
            raise FragmentError(f"orthogonal_layout_t takes a data layout; got {layout!r}")
        return _orthogonal(data)


layout_traits = _LayoutTraits()
is_layout_same = _IsLayoutSame()
is_layout_orthogonal = _IsLayoutOrthogonal()
orthogonal_layout_t = _OrthogonalLayout()
