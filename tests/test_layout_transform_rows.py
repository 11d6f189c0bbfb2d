"""Fragment layout transforms of a batch: where every wave share keeps each register in its
lane and moves whole register rows, `_remap` copies those rows instead of gathering through a
per-register index. Both paths must keep the matrix: load it, transform, store it back and
compare with the original (memory in, memory out: no register map involved in the check)."""

from __future__ import annotations

import numpy as np
import pytest

from rocwmma_py import (
    apply_data_layout,
    blockIdx,
    col_major,
    coop_row_major_2d,
    default_schedule,
    float16,
    fragment,
    kernel,
    last_launch_stats,
    load_matrix_sync,
    matrix_a,
    matrix_b,
    row_major,
    store_matrix_sync,
    use_engine,
)
from rocwmma_py.rocwmma.wave_batch import register_rows

BLOCKS = 3


def layout_round_trip(matrix, m, n, k, layout_in, layout_out, scheduler, threads):
    """Each block loads its copy of a tile with `layout_in`, stores it transformed to
    `layout_out` (both as the memory layout they describe); the tiles it wrote."""
    cls = fragment[matrix, m, n, k, float16, layout_in, scheduler]
    rows, cols = (m, k) if matrix is matrix_a else (k, n)
    ld_in = cols if layout_in is row_major else rows
    ld_out = cols if layout_out is row_major else rows

    @kernel
    def transform(src, dst):
        frag = cls()
        load_matrix_sync(frag, src + blockIdx.x * rows * cols, ld_in)
        store_matrix_sync(dst + blockIdx.x * rows * cols, apply_data_layout[layout_out](frag),
                          ld_out)

    tiles = np.random.default_rng(rows * cols).integers(-8, 8, (BLOCKS, rows, cols))
    tiles = tiles.astype(np.float16)
    src = np.stack([t if layout_in is row_major else t.T for t in tiles]).copy()
    dst = np.zeros_like(src)
    with use_engine("batch"):
        transform[BLOCKS, threads, 0, "gfx942"](src, dst)
    assert last_launch_stats().per_wave_blocks == 0
    got = dst.reshape(BLOCKS, rows, cols) if layout_out is row_major else \
        dst.reshape(BLOCKS, cols, rows).transpose(0, 2, 1)
    return tiles, got


@pytest.mark.parametrize("layout_out", [row_major, col_major])
@pytest.mark.parametrize("layout_in", [row_major, col_major])
@pytest.mark.parametrize("matrix", [matrix_a, matrix_b])
@pytest.mark.parametrize("coop", [False, True])
def test_transformed_fragments_keep_the_matrix(matrix, layout_in, layout_out, coop):
    scheduler = coop_row_major_2d[256, 1] if coop else default_schedule
    args = (128, 128, 16) if coop else (64, 64, 16)
    want, got = layout_round_trip(matrix, *args, layout_in, layout_out, scheduler,
                                  256 if coop else 64)
    np.testing.assert_array_equal(got, want)


def test_register_rows_only_for_maps_that_move_whole_rows():
    wave = 8
    rows = np.array([2, 0, 1, 2])
    positions = rows[:, None] * wave + np.arange(wave)
    np.testing.assert_array_equal(register_rows(positions, wave), rows)
    swapped = positions.copy()
    swapped[1, [3, 4]] = swapped[1, [4, 3]]  # two lanes of one row trade places
    assert register_rows(swapped, wave) is None
    assert register_rows(positions.reshape(8, 4), wave) is None  # not (E', W)
    assert register_rows(positions[:, :4], wave) is None
