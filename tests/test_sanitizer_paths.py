"""Every access path passes the sanitizers (runtime/sanitizers.py, the one loop in
runtime/memory.py): racecheck through load_matrix_sync / store_matrix_sync on every
fragment path — the dense fast path (row/col-major A and B, a padded ldm), the register
path (accumulators in row- and col-major memory, partial fragments, a `where` mask, a NaN
that sends a dense load back to the registers), cooperative loads and stores — in both
orders (the fragment's block or wave first, the other access first), in global memory
(racecheck: two blocks) and LDS (two waves of a block, no barrier); initcheck through the
LDS load; the undo journal through fragment stores; and an observer added to
`sanitizers.OBSERVERS` sees every kind of access, a fragment load it watches taking the
gather instead of the dense fast path."""

from __future__ import annotations

import numpy as np
import pytest

from rocwmma_py import (
    GlobalRaceError,
    accumulator,
    blockIdx,
    col_major,
    fill_fragment,
    float16,
    float32,
    fragment,
    fragment_scheduler,
    kernel,
    lane_id,
    load_matrix_sync,
    matrix_a,
    matrix_b,
    mem_col_major,
    mem_row_major,
    row_major,
    shared_array,
    store_matrix_sync,
    synchronize_workgroup,
    threadIdx,
    use_engine,
    where,
)
from rocwmma_py.arch import get_arch
from rocwmma_py.rocwmma import api
from rocwmma_py.runtime import last_launch_stats
from rocwmma_py.runtime.errors import InitCheckError, LdsRaceError, OutOfBoundsError

pytestmark = pytest.mark.smoke

ARCH = "gfx942"  # wave64
WAVE = 64
ELEM = 17  # the element the other access touches: (1, 1) of a 16 x 16 tile with ldm 16
ENGINES = ["batch", "wave"]

COOP = fragment_scheduler.coop_row_major_2d[2 * WAVE, 1]  # two waves share a fragment
FragA = fragment[matrix_a, 16, 16, 16, float16, row_major]
FragAcol = fragment[matrix_a, 16, 16, 16, float16, col_major]
FragBrow = fragment[matrix_b, 16, 16, 16, float16, row_major]
FragBcol = fragment[matrix_b, 16, 16, 16, float16, col_major]
FragAcc = fragment[accumulator, 16, 16, 16, float32]
FragPartial = fragment[matrix_a, 12, 16, 10, float32, row_major]  # padded to 16 x 16
FragAcoop = fragment[matrix_a, 16, 16, 16, float16, row_major, COOP]
FragAccCoop = fragment[accumulator, 16, 16, 16, float32, row_major, COOP]


# --- the fragment accesses, each a function of the pointer ----------------------------------

def load_a(p):
    load_matrix_sync(FragA(), p, 16)


def load_a_col(p):
    load_matrix_sync(FragAcol(), p, 16)


def load_b_row(p):
    load_matrix_sync(FragBrow(), p, 16)


def load_b_col(p):
    load_matrix_sync(FragBcol(), p, 16)


def load_a_ldm24(p):  # rows 24 elements apart: the gaps are not read
    load_matrix_sync(FragA(), p, 24)


def load_acc_row(p):
    load_matrix_sync(FragAcc(), p, 16, mem_row_major)


def load_acc_col(p):
    load_matrix_sync(FragAcc(), p, 16, mem_col_major)


def load_partial(p):
    load_matrix_sync(FragPartial(), p, 16)


def load_a_where(p):  # lanes 0..31 only (lane 1 reads element 17)
    with where(lane_id() < 32):
        load_matrix_sync(FragA(), p, 16)


def load_a_coop(p):
    load_matrix_sync(FragAcoop(), p, 16)


def _filled(cls, value=2.0):
    frag = cls()
    fill_fragment(frag, value)
    return frag


def store_acc_row(p):
    store_matrix_sync(p, _filled(FragAcc), 16, mem_row_major)


def store_acc_col(p):
    store_matrix_sync(p, _filled(FragAcc), 16, mem_col_major)


def store_a(p):
    store_matrix_sync(p, _filled(FragA), 16)


def store_partial(p):
    store_matrix_sync(p, _filled(FragPartial), 16)


def store_acc_where(p):  # lanes 0..31 only (lane 1 holds element 17)
    frag = _filled(FragAcc)
    with where(lane_id() < 32):
        store_matrix_sync(p, frag, 16, mem_row_major)


def store_acc_coop(p):
    store_matrix_sync(p, _filled(FragAccCoop), 16)


def write_element(p, elem):
    p[threadIdx.x * 0 + elem] = 1  # every lane writes it (per-lane scatter)


def read_element(p, elem):
    return p[elem]  # one address for every lane


# name -> (access, element type); loads meet a write of the other block or wave, stores a
# read (and a write)
LOADS = {
    "dense A row_major": (load_a, np.float16),
    "dense A col_major": (load_a_col, np.float16),
    "dense B row_major": (load_b_row, np.float16),
    "dense B col_major": (load_b_col, np.float16),
    "dense A ldm 24": (load_a_ldm24, np.float16),
    "accumulator mem_row_major": (load_acc_row, np.float32),
    "accumulator mem_col_major": (load_acc_col, np.float32),
    "partial fragment": (load_partial, np.float32),
    "where lanes < 32": (load_a_where, np.float16),
    "cooperative": (load_a_coop, np.float16),
}
STORES = {
    "accumulator mem_row_major": (store_acc_row, np.float32),
    "accumulator mem_col_major": (store_acc_col, np.float32),
    "matrix_a row_major": (store_a, np.float16),
    "partial fragment": (store_partial, np.float32),
    "where lanes < 32": (store_acc_where, np.float32),
    "cooperative": (store_acc_coop, np.float32),
}

def _elem(name):
    """The element the other access touches."""
    return 24 + 3 if name == "dense A ldm 24" else ELEM  # (1, 3) with ldm 24


def _block(name):
    """Threads per block: two waves for the cooperative fragments."""
    return 2 * WAVE if name == "cooperative" else WAVE


# --- global memory: racecheck between two blocks ---------------------------------------------

@kernel
def two_blocks(op, partner, mem, elem, fragment_block, sink):
    """Block `fragment_block` runs the fragment access, wave 0 of the other block
    `partner`."""
    if blockIdx.x == fragment_block:
        op(mem)
    elif threadIdx.x // WAVE == 0:
        value = partner(mem, elem)
        if value is not None:
            sink[threadIdx.x] = value


def _global_race(engine, op, partner, dtype, elem, fragment_first, block):
    mem = np.ones(24 * 16, dtype)
    sink = np.zeros(block, dtype)
    with use_engine(engine), pytest.raises(GlobalRaceError) as info:
        two_blocks[2, block, 0, ARCH].checked(racecheck=True)(
            op, partner, mem, elem, 0 if fragment_first else 1, sink)
    return str(info.value)


def _expect(msg, kind, elem, dtype):
    assert f"({kind})" in msg, msg
    assert "block (1,0,0) wave " in msg and "which block (0,0,0) wave " in msg, msg
    assert f"buffer 'mem' at element offset {elem} ({np.dtype(dtype)})" in msg, msg


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("fragment_first", [True, False], ids=["reader first", "writer first"])
@pytest.mark.parametrize("name", list(LOADS))
def test_racecheck_fragment_load_against_a_write_of_another_block(name, fragment_first,
                                                                   engine):
    op, dtype = LOADS[name]
    elem = _elem(name)
    msg = _global_race(engine, op, write_element, dtype, elem, fragment_first,
                       _block(name))
    _expect(msg, "write-after-read" if fragment_first else "read-after-write", elem, dtype)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("fragment_first", [True, False], ids=["writer first", "reader first"])
@pytest.mark.parametrize("name", list(STORES))
def test_racecheck_fragment_store_against_a_read_of_another_block(name, fragment_first,
                                                                  engine):
    op, dtype = STORES[name]
    msg = _global_race(engine, op, read_element, dtype, ELEM, fragment_first,
                       _block(name))
    _expect(msg, "read-after-write" if fragment_first else "write-after-read", ELEM, dtype)


@pytest.mark.parametrize("fragment_first", [True, False])
@pytest.mark.parametrize("name", list(STORES))
def test_racecheck_fragment_store_against_a_write_of_another_block(name, fragment_first):
    op, dtype = STORES[name]
    msg = _global_race("wave", op, write_element, dtype, ELEM, fragment_first,
                       _block(name))
    _expect(msg, "write-after-write", ELEM, dtype)


@pytest.mark.parametrize("fragment_first", [True, False])
def test_racecheck_dense_load_after_a_nan_sends_it_to_the_registers(fragment_first):
    """A NaN makes the dense load fall back to the register path: still seen."""
    mem = np.ones(256, np.float16)
    mem[3] = np.nan
    sink = np.zeros(WAVE, np.float16)
    with pytest.raises(GlobalRaceError) as info:
        two_blocks[2, WAVE, 0, ARCH].checked(racecheck=True)(
            load_a, write_element, mem, ELEM, 0 if fragment_first else 1, sink)
    _expect(str(info.value), "write-after-read" if fragment_first else "read-after-write",
            ELEM, np.float16)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("op,elem", [(load_a_ldm24, 24 + 20), (load_a_where, 15 * 16 + 12)],
                         ids=["dense: a gap of ldm 24", "where: an element of lane 63"])
def test_racecheck_no_race_outside_the_elements_read(op, elem, engine):
    """The dense path reports only the elements it reads (not the ldm gaps); a `where`
    load only its enabled lanes' elements (lane 63 reads (15, 12..15))."""
    mem, sink = np.ones(24 * 16, np.float16), np.zeros(WAVE, np.float16)
    with use_engine(engine):
        for first in (0, 1):
            two_blocks[2, WAVE, 0, ARCH].checked(racecheck=True)(
                op, write_element, mem, elem, first, sink)


def test_racecheck_dense_load_reports_the_lane_of_the_element():
    """The dense path's access is reported as the gather's: lane and element of the first
    conflicting register (gfx942 A row_major: lane 1 holds row 1, K 0..3)."""
    msg = _global_race("wave", load_a, write_element, np.float16, ELEM, False, WAVE)
    assert "block (1,0,0) wave 0 (lane 1) reads buffer 'mem' at element offset 17" in msg


# --- LDS: two waves of a block without a barrier ----------------------------------------------

@kernel
def two_waves(op, partner, dtype, elem, fragment_wave, sink):
    """Wave `fragment_wave` runs the fragment access on the block's LDS, the other wave
    `partner` (waves run in index order up to a barrier: wave 0 goes first)."""
    tile = shared_array(dtype, 24 * 16)
    if threadIdx.x // WAVE == fragment_wave:
        op(tile)
    else:
        value = partner(tile, elem)
        if value is not None:
            sink[threadIdx.x] = value


@kernel
def coop_waves(op, partner, dtype, elem, partner_first, sink):
    """Both waves run the cooperative access; wave 0 runs `partner` before it (on an
    element of wave 1's share) or wave 1 after it (on an element of wave 0's share)."""
    tile = shared_array(dtype, 256)
    wave = threadIdx.x // WAVE
    if partner_first and wave == 0:
        partner(tile, elem)
    op(tile)
    if not partner_first and wave == 1:
        value = partner(tile, elem)
        if value is not None:
            sink[threadIdx.x] = value


def _share_element(cls, share: int, layout) -> int:
    """An element of `share`'s part of a cooperative fragment, in memory with ldm 16."""
    return int(cls.map(get_arch(ARCH), share).offsets(16, layout)[0, 1])


def _lds_race(engine, kernel_, op, partner, dtype, elem, first):
    sink = np.zeros(2 * WAVE, dtype)
    with use_engine(engine), pytest.raises(LdsRaceError) as info:
        kernel_[1, 2 * WAVE, 0, ARCH](op, partner, dtype, elem, first, sink)
    return str(info.value)


def _expect_lds(msg, kind, elem, dtype):
    assert f"LDS race ({kind})" in msg and "wave 1 (" in msg, msg
    assert f"buffer 'lds[0]' at element offset {elem} ({np.dtype(dtype)}), which wave 0 " \
           in msg, msg


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("fragment_first", [True, False], ids=["reader first", "writer first"])
@pytest.mark.parametrize("name", [n for n in LOADS if n != "cooperative"])
def test_lds_race_fragment_load_against_a_write_of_another_wave(name, fragment_first, engine):
    op, dtype = LOADS[name]
    elem = _elem(name)
    msg = _lds_race(engine, two_waves, op, write_element, dtype, elem,
                    0 if fragment_first else 1)
    _expect_lds(msg, "write-after-read" if fragment_first else "read-after-write", elem, dtype)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("fragment_first", [True, False], ids=["writer first", "reader first"])
@pytest.mark.parametrize("name", [n for n in STORES if n != "cooperative"])
def test_lds_race_fragment_store_against_a_read_of_another_wave(name, fragment_first, engine):
    op, dtype = STORES[name]
    msg = _lds_race(engine, two_waves, op, read_element, dtype, ELEM,
                    0 if fragment_first else 1)
    _expect_lds(msg, "read-after-write" if fragment_first else "write-after-read", ELEM,
                dtype)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("partner_first", [False, True], ids=["fragment first",
                                                              "other access first"])
@pytest.mark.parametrize("store", [False, True], ids=["load", "store"])
def test_lds_race_cooperative_fragment(store, partner_first, engine):
    cls, op, partner = ((FragAccCoop, store_acc_coop, read_element) if store
                        else (FragAcoop, load_a_coop, write_element))
    dtype = np.float32 if store else np.float16
    elem = _share_element(cls, 1 if partner_first else 0, row_major)
    msg = _lds_race(engine, coop_waves, op, partner, dtype, elem, partner_first)
    if store:
        kind = "write-after-read" if partner_first else "read-after-write"
    else:
        kind = "read-after-write" if partner_first else "write-after-read"
    _expect_lds(msg, kind, elem, dtype)


# --- initcheck through an LDS fragment load --------------------------------------------------


@pytest.fixture
def dense_loads(results_of) -> list[bool]:
    """Whether each load_matrix_sync took the dense path."""
    return results_of(api, "_load_dense")


@kernel
def load_lds_tile(skip, out):
    """Write the LDS tile except element `skip` (all of it for skip < 0), load it as A."""
    tile = shared_array(np.float16, 256)
    for i in range(4):
        index = threadIdx.x + 64 * i
        with where(index != skip):
            tile[index] = 1
    frag = FragA()
    load_matrix_sync(frag, tile, 16)
    store_matrix_sync(out, frag, 16)


@pytest.mark.parametrize("engine", ENGINES)
def test_initcheck_through_an_lds_fragment_load(engine, dense_loads):
    """Unchecked, the load takes the dense path; under initcheck the observer watches LDS
    and the load takes the gather it sees."""
    out = np.zeros(256, np.float16)
    with use_engine(engine):
        load_lds_tile[2, WAVE, 0, ARCH](-1, out)
        assert (out == 1).all() and dense_loads and all(dense_loads)
        dense_loads.clear()
        load_lds_tile[2, WAVE, 0, ARCH].checked(initcheck=True)(-1, out)
        with pytest.raises(InitCheckError) as info:
            load_lds_tile[2, WAVE, 0, ARCH].checked(initcheck=True)(ELEM, out)
    assert dense_loads and not any(dense_loads)
    assert "initcheck: lane 1 reads LDS buffer 'lds[0]' at element offset 17 (float16)" \
        in str(info.value)


@kernel
def lds_round_trip(cls, src, out):
    """Each block copies its tile to LDS (one segment per block of a batch), loads the
    fragment from there and stores it."""
    tile = shared_array(np.float16, 256)
    for i in range(4):
        tile[threadIdx.x + 64 * i] = src[blockIdx.x * 256 + threadIdx.x + 64 * i]
    frag = cls()
    load_matrix_sync(frag, tile, 16)
    store_matrix_sync(out + blockIdx.x * 256, frag, 16)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("cls", [FragA, FragBcol], ids=["A row", "B col"])
def test_dense_lds_load_reads_each_blocks_segment(cls, engine, dense_loads):
    """Single-wave blocks: no observer watches their LDS, so the load is one copy."""
    src = np.random.default_rng(3).standard_normal(5 * 256).astype(np.float16)
    out = np.zeros_like(src)
    with use_engine(engine):
        lds_round_trip[5, WAVE, 0, ARCH](cls, src, out)
    assert np.array_equal(out.view(np.uint16), src.view(np.uint16))
    assert dense_loads and all(dense_loads)


# --- the undo journal through fragment stores ------------------------------------------------

@kernel
def store_then_fail(d, probe):
    """Every block stores its tile; blocks 2 and 3 then read out of bounds."""
    store_matrix_sync(d + blockIdx.x * 256, _filled(FragAcc, 1.0), 16, mem_row_major)
    probe[threadIdx.x + blockIdx.x * 100] = probe[threadIdx.x + blockIdx.x * 100]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_batch_undoes_its_fragment_stores(engine):
    d, probe = np.zeros(4 * 256, np.float32), np.zeros(200, np.float32)
    with use_engine(engine), pytest.raises(OutOfBoundsError):
        store_then_fail[4, WAVE, 0, ARCH](d, probe)
    # the per-wave engine's memory: blocks 0..2 stored, then block 2 failed
    assert (d[:3 * 256] == 1).all() and not d[3 * 256:].any()
    if engine == "batch":
        assert last_launch_stats().fallbacks  # the batch was undone and rerun


# --- an added observer sees every access -----------------------------------------------------

@pytest.fixture
def recorded(monkeypatch):
    """An observer appended to sanitizers.OBSERVERS, active everywhere: the accesses it saw,
    as (kind, buffer, flat indices in access order, lane of each)."""
    from rocwmma_py.runtime import sanitizers

    seen: list[tuple[str, str, list[int], list[int]]] = []

    class Recorder(sanitizers.Observer):
        def active(self, buffer, ctx):
            return True

        def _note(self, kind, access):
            addr = access.addr
            pos = np.arange(addr.size) if access.src is None else access.src
            lanes = (pos % addr.shape[-1]).tolist() if addr.ndim else [-1] * access.size
            seen.append((kind, access.buffer.name, access.flat.tolist(), lanes))

        def read(self, access):
            self._note("read", access)

        def write(self, access):
            self._note("write", access)

        def wrote(self, access):
            self._note("wrote", access)

    monkeypatch.setattr(sanitizers, "OBSERVERS", (*sanitizers.OBSERVERS, Recorder()))
    return seen


@kernel
def every_path(src, dst):
    t = threadIdx.x
    dst[t] = src[t]  # per-lane read and write
    dst[64 + t * 0] = src[5]  # one address for every lane
    v = (src + 2 * t).load(2)  # vector load and store
    (dst + 128 + 2 * t).store(v)
    tile = shared_array(np.float16, 256)
    tile[t] = src[t]  # LDS
    dst[t] = tile[63 - t]


def test_an_added_observer_sees_every_access_path(recorded):
    src, dst = np.arange(256, dtype=np.float16), np.zeros(256, np.float16)
    every_path[1, WAVE, 0, ARCH](src, dst)
    t = list(range(64))
    kinds = [(kind, name) for kind, name, _, _ in recorded]
    assert kinds == [
        ("read", "src"), ("write", "dst"), ("wrote", "dst"),
        ("read", "src"), ("write", "dst"), ("wrote", "dst"),
        ("read", "src"), ("write", "dst"), ("wrote", "dst"),
        ("read", "src"), ("write", "lds[0]"), ("wrote", "lds[0]"),
        ("read", "lds[0]"), ("write", "dst"), ("wrote", "dst"),
    ]
    assert recorded[0][2] == t and recorded[0][3] == t
    assert recorded[3][2] == [5]  # a uniform read: one address, every lane
    assert recorded[4][2] == [64]  # several lanes, one address: the highest lane's value
    assert recorded[4][3] == [63]
    assert sorted(recorded[6][2]) == list(range(128))
    assert recorded[12][2] == [63 - i for i in t]


@kernel
def fragment_paths(cls, src, ldm, dst):
    frag = cls()
    load_matrix_sync(frag, src + blockIdx.x * 16, ldm)
    store_matrix_sync(dst + blockIdx.x * 16, frag, ldm)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("cls", [FragA, FragAcol, FragBrow, FragBcol],
                         ids=["A row", "A col", "B row", "B col"])
def test_a_watched_fragment_load_takes_the_gather(cls, engine, dense_loads, recorded):
    """With an observer watching global loads the dense path steps aside: the observer
    sees every element the fragment reads, with the lane that reads it."""
    src = np.arange(16 * 40, dtype=np.float16)
    dst = np.zeros_like(src)
    with use_engine(engine):
        fragment_paths[2, WAVE, 0, ARCH](cls, src, 40, dst)
    assert dense_loads and not any(dense_loads)
    fmap = cls.map(get_arch(ARCH))
    offsets = fmap.offsets(40, cls.layout)  # (elements, lanes) from the fragment's pointer
    reads = [(flat, lanes) for kind, name, flat, lanes in recorded if kind == "read"]
    want = sorted(int(b * 16 + o) for b in (0, 1) for o in offsets.ravel())
    assert sorted(f for flat, _ in reads for f in flat) == want
    for i, (flat, lanes) in enumerate(reads):  # the batch's lanes, or one block's
        for f, lane in zip(flat, lanes, strict=True):
            block = lane // WAVE if engine == "batch" else i
            assert f - block * 16 in offsets[:, lane % WAVE]  # a register of that lane
    tile = np.zeros(src.size, bool)
    tile[want] = True
    assert np.array_equal(dst[tile], src[tile]) and not dst[~tile].any()


@kernel
def _read_then_reuse_the_index(out):
    """Each wave reads the other's LDS slots, reuses its index array in place, then
    overwrites its own slots before any barrier: the other wave read them, a race."""
    lds = shared_array(np.float32, 2 * WAVE)
    t = threadIdx.x
    lds[t] = t * 1.0
    synchronize_workgroup()
    index = (t + WAVE) % (2 * WAVE)
    value = lds[index]
    index[...] = t  # (the race log must keep the addresses the read had)
    lds[t] = value
    out[t] = value


@pytest.mark.parametrize("engine", ENGINES)
def test_a_race_is_found_when_the_kernel_reuses_its_index_array_after_the_read(engine):
    with use_engine(engine), pytest.raises(LdsRaceError, match="wave 1"):
        _read_then_reuse_the_index[1, 2 * WAVE, 0, ARCH](np.zeros(2 * WAVE, np.float32))
