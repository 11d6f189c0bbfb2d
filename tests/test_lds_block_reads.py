"""A batch's dense fragment loads from LDS (`Pointer.read_blocks` with a `BlockAccess`) and
the epoch log's hull tests (`races.EpochLog.close_epoch`).

Every wave of a two-wave block stores its own 16 x 16 tile into LDS at
`store_at + wave * store_step` and loads a fragment from `load_at + wave * load_step` in the
same barrier interval (before or after the store), in several blocks at once. Whether that
races is decided here from the element sets the two waves touch (an independent plain-Python
reference); the batched engine must raise LdsRaceError exactly where the per-wave engine
does, and where neither does, leave the same output and stay batched. A random family
does the same for 2-4 waves per block, A and B fragments in either layout, leading
dimensions that make rows interleave, and steps that make tiles meet, interleave or stay
apart.
"""

from __future__ import annotations

import numpy as np
import pytest

from rocwmma_py import (
    col_major,
    float16,
    fragment,
    kernel,
    load_matrix_sync,
    matrix_a,
    matrix_b,
    row_major,
    shared_array,
    store_matrix_sync,
    synchronize_workgroup,
    threadIdx,
    use_engine,
)
from rocwmma_py.runtime import last_launch_stats, memory
from rocwmma_py.runtime import races as races_module
from rocwmma_py.runtime.errors import LdsRaceError

ARCH = "gfx942"
WAVE = 64
BLOCKS = 3
LDS = 4096  # f16 elements of LDS per block
FRAGS = {"a row": fragment[matrix_a, 16, 16, 16, float16, row_major],
         "a col": fragment[matrix_a, 16, 16, 16, float16, col_major],
         "b col": fragment[matrix_b, 16, 16, 16, float16, col_major]}


@kernel
def store_then_load(src, out, frag_t, store_at, store_step, load_at, load_step, ldm,
                    load_first, barrier):
    """Each wave: its own tile from src into LDS, a fragment from LDS into out."""
    lds = shared_array(float16, LDS)
    wave = threadIdx.x // WAVE
    mine, got = frag_t(), frag_t()
    load_matrix_sync(mine, src + wave * 256, 16)
    if load_first:
        load_matrix_sync(got, lds + (load_at + wave * load_step), ldm)
    if barrier:
        synchronize_workgroup()
    store_matrix_sync(lds + (store_at + wave * store_step), mine, ldm)
    if barrier:
        synchronize_workgroup()
    if not load_first:
        load_matrix_sync(got, lds + (load_at + wave * load_step), ldm)
    store_matrix_sync(out + wave * 256, got, 16)


def footprint(at: int, ldm: int) -> set[int]:
    """LDS elements of a 16 x 16 tile at `at` with leading dimension `ldm` (either layout)."""
    return {at + r * ldm + c for r in range(16) for c in range(16)}


def races(waves: int, case: tuple, barrier: bool) -> bool:
    """Whether two waves of a block touch one element in one barrier interval, one writing
    (with barriers the loads and the stores sit in different intervals, the stores in one)."""
    store_at, store_step, load_at, load_step, ldm = case
    writes = [footprint(store_at + w * store_step, ldm) for w in range(waves)]
    reads = [footprint(load_at + w * load_step, ldm) for w in range(waves)]
    return any(writes[w] & writes[v] or (not barrier and writes[w] & reads[v])
               for w in range(waves) for v in range(waves) if w != v)


def launch(engine: str, waves: int, frag: str, case: tuple, load_first: bool, barrier: bool):
    """The output, or the LdsRaceError raised; a batch that raised none stayed batched."""
    src = np.random.default_rng(3).standard_normal(waves * 256).astype(np.float16)
    out = np.zeros(waves * 256, np.float16)
    with use_engine(engine):
        try:
            store_then_load[BLOCKS, waves * WAVE, 0, ARCH](src, out, FRAGS[frag], *case,
                                                          load_first, barrier)
        except LdsRaceError as err:
            return err
        stats = last_launch_stats()
        assert engine == "wave" or (stats.per_wave_blocks == 0
                                    and stats.batched_blocks == BLOCKS)
    return out


def check(waves: int, frag: str, case: tuple, load_first: bool, barrier: bool) -> None:
    """Both engines raise LdsRaceError exactly where the elements race, else agree."""
    racy = races(waves, case, barrier)
    batch = launch("batch", waves, frag, case, load_first, barrier)
    wave = launch("wave", waves, frag, case, load_first, barrier)
    where = f"{waves} waves, {frag}, case {case}, load first {load_first}, barrier {barrier}"
    assert isinstance(batch, LdsRaceError) == racy == isinstance(wave, LdsRaceError), where
    if not racy:
        assert np.array_equal(batch.view(np.uint16), wave.view(np.uint16)), where


CASES = {  # name -> (store_at, store_step, load_at, load_step, ldm)
    "each reads the other's tile": (0, 256, 256, -256, 16),
    "each reads its own tile": (0, 256, 0, 256, 16),
    "reads one half, writes the other": (0, 256, 1024, 256, 16),
    "both write one tile": (0, 0, 1024, 256, 16),
    "writes overlap by one column": (0, 1, 1024, 256, 16),
    "interleaved rows written, the other half read": (0, 16, 1024, 256, 32),
    "reads rows between the other's rows": (0, 1024, 1040, -1024, 32),
    "reads the other's rows shifted by one": (0, 1024, 1025, -1024, 32),
    "reads one element of the other's tile": (0, 1024, 1279, -1024, 16),
}


@pytest.mark.parametrize("barrier", [False, True], ids=["one interval", "barriers"])
@pytest.mark.parametrize("load_first", [False, True], ids=["store first", "load first"])
@pytest.mark.parametrize("name", list(CASES))
def test_batched_block_loads_find_exactly_the_races(name, load_first, barrier):
    check(2, "a row", CASES[name], load_first, barrier)


def test_the_batch_loads_lds_fragments_as_blocks(monkeypatch):
    """The LDS fragment loads of a batch take the dense path (the register path's gather is
    not called for them), and the race log gets them as block reads."""
    seen = []
    original = races_module.EpochLog.check_block_read

    def spy(self, access, itemsize):
        seen.append(access.size)
        original(self, access, itemsize)

    monkeypatch.setattr(races_module.EpochLog, "check_block_read", spy)
    gathers = []
    original_gather = memory.Pointer.gather
    monkeypatch.setattr(memory.Pointer, "gather",
                        lambda self, *a, **k: gathers.append(self.buffer.lds)
                        or original_gather(self, *a, **k))
    result = launch("batch", 2, "a row", CASES["reads one half, writes the other"], False,
                    False)
    assert not isinstance(result, LdsRaceError)
    assert seen == [BLOCKS * 2 * 256] and not any(gathers)


def random_case(seed: int):
    """Waves per block, fragment, offsets and steps drawn so that every tile fits in LDS;
    steps near a tile's size make neighbours touch, overlap or interleave."""
    rng = np.random.default_rng(seed)
    waves = int(rng.choice([2, 3, 4]))
    ldm = int(rng.choice([16, 17, 32, 48]))
    extent = 15 * ldm + 16
    near = [0, 1, 15, 16, ldm, 16 * ldm - ldm, -16, -ldm]  # tiles that meet or interleave
    apart = [16 * ldm, 16 * ldm + 3, -16 * ldm, 24 * ldm]  # tiles that never meet
    while True:
        store_step, load_step = (int(rng.choice(near if rng.random() < 0.4 else apart))
                                 for _ in range(2))
        room = LDS - extent
        spans = [(waves - 1) * min(step, 0) for step in (store_step, load_step)]
        reach = [(waves - 1) * max(step, 0) for step in (store_step, load_step)]
        if all(room - r + s >= 0 for r, s in zip(reach, spans, strict=True)):
            break
    store_at = int(rng.integers(-spans[0], room - reach[0] + 1))
    load_at = int(rng.integers(-spans[1], room - reach[1] + 1))
    if rng.random() < 0.3:  # near the stores, where races live
        load_at = int(np.clip(store_at + rng.integers(-40, 41), -spans[1], room - reach[1]))
    frag = str(rng.choice(list(FRAGS)))
    return waves, frag, (store_at, store_step, load_at, load_step, ldm)


@pytest.mark.parametrize("seed", range(48))
def test_random_stores_and_block_loads_race_exactly_as_their_elements_say(seed):
    waves, frag, case = random_case(seed)
    check(waves, frag, case, bool(seed % 2), seed % 5 == 0)
