"""rocWMMA's tag types: matrix contexts, data layouts and the run-time `layout_t`."""

from __future__ import annotations

import enum

from ..errors import FragmentError


class matrix_a:  # noqa: N801 - rocWMMA spelling
    """Matrix context of the M x K input."""


class matrix_b:  # noqa: N801
    """Matrix context of the K x N input."""


class accumulator:  # noqa: N801
    """Matrix context of the M x N accumulator (C and D)."""


class row_major:  # noqa: N801
    """Rows contiguous in memory: offset(row, col) = row * ldm + col."""


class col_major:  # noqa: N801
    """Columns contiguous in memory: offset(row, col) = col * ldm + row."""


class layout_t(enum.IntEnum):  # noqa: N801
    """Run-time data layout for the 4-argument load/store."""

    mem_row_major = 0
    mem_col_major = 1


MATRICES = (matrix_a, matrix_b, accumulator)
LAYOUTS = (row_major, col_major)


def orthogonal_layout(layout: type) -> type:
    """row_major <-> col_major (rocWMMA's `orthogonal_layout_t`)."""
    return col_major if layout is row_major else row_major


def layout_of(layout: layout_t | type) -> type:
    """The tag type of a run-time `layout_t` (tags pass through)."""
    if layout in LAYOUTS:
        return layout
    if isinstance(layout, layout_t):
        return row_major if layout == layout_t.mem_row_major else col_major
    raise FragmentError(f"data layout must be row_major, col_major or a layout_t; got {layout!r}")
