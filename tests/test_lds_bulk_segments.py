"""Bulk LDS accesses of a batch of blocks: the segment starts are added to the per-lane
addresses before the pass over the fragment's offsets, so the bounds check must still see
each block's own offsets. An access past a block's segment is refused even where its
physical address lands inside the next block's segment; the per-wave engine (one segment,
no placement) is the reference."""

from __future__ import annotations

import numpy as np
import pytest

from rocwmma_py import (
    OutOfBoundsError,
    blockIdx,
    dynamic_shared,
    fill_fragment,
    float16,
    fragment,
    kernel,
    last_launch_stats,
    load_matrix_sync,
    matrix_a,
    row_major,
    store_matrix_sync,
    synchronize_workgroup,
    threadIdx,
    use_engine,
)

Tile = fragment[matrix_a, 16, 16, 16, float16, row_major]
TILE = 16 * 16


@kernel
def swap_tiles(dst, late_block, shift):
    """Each of a block's two waves stores its tile (block number + 1) to its half of LDS
    (block `late_block` `shift` elements later), then loads and stores the other half."""
    lds = dynamic_shared(float16)
    frag = Tile()
    wave = threadIdx.x // 64
    fill_fragment(frag, 1.0)
    frag.x[...] = frag.x * (blockIdx.x + 1)
    late = (blockIdx.x == late_block) * shift
    store_matrix_sync(lds + wave * TILE + late, frag, 16)
    synchronize_workgroup()
    load_matrix_sync(frag, lds + (1 - wave) * TILE, 16)
    store_matrix_sync(dst + (blockIdx.x * 2 + wave) * TILE, frag, 16)


def launch(engine: str, late_block: int, shift: int) -> np.ndarray:
    dst = np.zeros(3 * 2 * TILE, np.float16)
    with use_engine(engine):
        swap_tiles[3, 128, 2 * TILE * 2, "gfx942"](dst, late_block, shift)
    return dst


def test_in_bounds_tiles_land_in_their_own_blocks():
    want = np.repeat(np.arange(1, 4, dtype=np.float16), 2 * TILE)
    for engine in ("batch", "wave"):
        np.testing.assert_array_equal(launch(engine, 0, 0), want)
        if engine == "batch":
            assert last_launch_stats().per_wave_blocks == 0  # one batch of three blocks


@pytest.mark.parametrize("shift", [8, 2 * TILE])  # 2 * TILE: the same waves of the next
@pytest.mark.parametrize("late_block", [0, 2])  # block, so no race hides it; 2: the last
def test_a_store_past_the_segment_is_refused_as_per_wave(late_block, shift):
    messages = []
    for engine in ("batch", "wave"):
        with pytest.raises(OutOfBoundsError) as err:
            launch(engine, late_block, shift)
        messages.append(str(err.value))
    assert messages[0] == messages[1]
    assert "buffer 'lds.dynamic' (512 x float16) at element offsets 512 by lane" in messages[0]
    assert f"block ({late_block},0,0), wave {0 if shift > TILE else 1}" in messages[0]
