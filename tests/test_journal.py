"""The undo journal on its own: undo restores memory as of the journal's start (a child's:
as of the child's start), whatever the mix of buffers, overlapping views, rewrites, children
absorbed or undone and interrupts; `written()` lists the addresses written; the journal's
memory follows the distinct addresses written (masks where they pay, sorting where not,
snapshots where entries would cost the buffer) and its budget. Every expectation comes from
copies of memory and sets of addresses kept here, never from the journal's own output."""

from __future__ import annotations

import sys
import tracemalloc

import numpy as np
import pytest

from rocwmma_py.runtime import journal as journal_module
from rocwmma_py.runtime.journal import Journal, JournalFull, WriteLog


def journaled_write(journal: Journal, typed: np.ndarray, flat, values) -> None:
    """What a global store does under the batched engine: record, then write."""
    flat = np.asarray(flat, np.int64)
    journal.record(typed, flat, typed[flat])
    typed[flat] = values


def key_of(typed: np.ndarray) -> tuple[int, int, int]:
    return typed.__array_interface__["data"][0], typed.dtype.itemsize, typed.size


def entries(journal: Journal) -> int:
    return sum(flat.size for _, _, flat, _ in journal._chunks)


def test_rewrites_keep_one_entry_per_address_and_undo_exactly():
    memory = np.arange(1000, dtype=np.float32)
    original = memory.copy()
    journal = Journal(snapshots=False)
    rng = np.random.default_rng(3)
    for step in range(300):  # 300 x 1000 writes to the same 1000 addresses
        journaled_write(journal, memory, rng.permutation(1000), step)
    as_ints = memory.view(np.int32)  # the same bytes through another dtype of one size
    journaled_write(journal, as_ints, np.arange(0, 1000, 7), -1)
    assert entries(journal) == 1000  # first writes only, no compaction
    assert journal.nbytes == 1000 * (8 + 4) + 1000 // 8  # entries and a bit per element
    journal.undo()
    assert memory.tobytes() == original.tobytes()
    assert journal.nbytes == 0 and not journal._masks


def test_a_single_write_keeps_its_entries_and_a_second_records_new_addresses_only():
    """One big store (a whole batch's tiles) is kept as it came (repeats in it hold one old
    value); a second write to the buffer records only the addresses the first did not."""
    memory = np.arange(300_000, dtype=np.float32)
    original = memory.copy()
    journal = Journal(snapshots=False)
    flat = np.random.default_rng(4).integers(0, memory.size, 200_000)  # with repeats
    journaled_write(journal, memory, flat, -1.0)
    (_, _, kept, _), = journal._chunks
    assert kept.size == flat.size and not journal._masks
    second = [5, 6, 7, 8, 9, 299_999]
    journaled_write(journal, memory, second, -2.0)
    fresh = sorted(set(second) - set(flat.tolist()))
    assert journal._chunks[1][2].tolist() == fresh
    [(view, written)] = journal.written()
    assert written.tolist() == sorted(set(flat.tolist()) | set(second))
    journal.undo()
    assert memory.tobytes() == original.tobytes()


def test_overlapping_views_of_other_sizes_undo_exactly():
    memory = np.arange(64, dtype=np.int32)
    original = memory.copy()
    journal = Journal(snapshots=False)
    halves = memory.view(np.int16)
    journaled_write(journal, memory, [1, 2, 3], 7)
    journaled_write(journal, halves, [2, 3, 4, 5], -3)  # overwrites elements 1 and 2 of memory
    journaled_write(journal, memory, [2, 40], 9)
    journaled_write(journal, halves, [4, 5, 6], 11)
    journal.compact()  # refused: a sort could reorder the views' entries
    journal.undo()
    assert memory.tobytes() == original.tobytes()


def test_a_child_undone_after_parent_writes_restores_the_memory_of_its_start():
    memory = np.zeros(64, np.float64)
    parent = Journal(snapshots=False)
    journaled_write(parent, memory, np.arange(10), 1.0)
    journaled_write(parent, memory, np.arange(5, 15), 2.0)  # the parent's mask
    child = Journal(parent=parent)
    started = memory.copy()
    journaled_write(child, memory, np.arange(8, 20), 3.0)  # overlaps the parent's writes
    journaled_write(child, memory, np.arange(0, 30), 4.0)
    child.undo()
    assert memory.tobytes() == started.tobytes()
    parent.undo()
    assert not memory.any()


def test_absorb_keeps_the_child_entries_of_addresses_new_to_the_parent():
    memory = np.zeros(64, np.float32)
    parent = Journal(snapshots=False)
    journaled_write(parent, memory, np.arange(10), 1.0)
    journaled_write(parent, memory, np.arange(5, 15), 2.0)
    child = Journal(parent=parent)
    journaled_write(child, memory, np.arange(8, 20), 3.0)
    journaled_write(child, memory, np.arange(0, 30), 4.0)
    assert entries(child) == 30  # the child records by its own mask
    parent.absorb(child)
    assert entries(parent) == 30  # 0..14 from the parent, 15..29 from the child
    assert [w.tolist() for _, w in parent.written()] == [list(range(30))]
    journaled_write(parent, memory, np.arange(25, 35), 5.0)
    assert entries(parent) == 35  # the absorbed addresses are marked
    parent.undo()
    assert not memory.any()


def test_absorb_into_a_parent_without_entries_takes_the_child_mask():
    memory = np.zeros(4096, np.float32)
    parent = Journal(snapshots=False)
    child = Journal(parent=parent)
    for _ in range(3):
        journaled_write(child, memory, np.arange(100, 2000), 1.0)
    mask = child._masks[key_of(memory.view(np.uint32))]
    parent.absorb(child)
    assert parent._masks[key_of(memory.view(np.uint32))] is mask
    assert parent.nbytes == child.nbytes == 1900 * 12 + 4096 // 8


def test_a_huge_buffer_written_sparsely_gets_no_mask_and_stays_small():
    """A 256 MB buffer (lazily zeroed pages) rewritten at 1000 addresses: a mask would cost
    8 MB, far more than the entries, so they are compacted by sorting instead."""
    memory = np.zeros(1 << 26, np.float32)
    journal = Journal(snapshots=False, budget=1 << 20)
    addresses = np.random.default_rng(5).choice(memory.size, 1000, replace=False)
    tracemalloc.start()
    try:
        for step in range(200):  # 200,000 writes: 2.4 MB of entries before compaction
            journaled_write(journal, memory, addresses, step + 1.0)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert not journal._masks
    assert journal.nbytes <= 2 * 1000 * 12 + journal_module._COMPACT_MIN * 12
    assert peak < 4 << 20
    journal.undo()
    assert not memory[addresses].any()


def test_masks_count_against_the_budget():
    memory = np.zeros(1 << 20, np.float32)
    flat = np.arange(100_000)
    mask_bytes = memory.size // 8
    roomy = Journal(snapshots=False, budget=flat.size * 12 + mask_bytes)
    for _ in range(3):
        journaled_write(roomy, memory, flat, 1.0)
    assert roomy.nbytes == flat.size * 12 + mask_bytes
    roomy.undo()
    tight = Journal(snapshots=False, budget=flat.size * 12 + mask_bytes - 1)
    journaled_write(tight, memory, flat, 1.0)
    with pytest.raises(JournalFull):
        journaled_write(tight, memory, flat, 2.0)  # records nothing, but makes the mask
    tight.undo()
    assert not memory.any()


def test_a_journal_over_its_budget_raises_journal_full():
    memory = np.zeros(4096, np.float32)
    journal = Journal(snapshots=False, budget=4096 * 12 - 1)
    journaled_write(journal, memory, np.arange(2048), 1.0)
    for _ in range(50):  # rewriting the same addresses stays within the budget
        journaled_write(journal, memory, np.arange(2048), 2.0)
    with pytest.raises(JournalFull):
        journaled_write(journal, memory, np.arange(4096), 3.0)


# --- random writes, children and views, against snapshots ----------------------------------------

def random_run(seed: int, overlapping: bool, trap=None, snapshots: bool = False) -> None:
    """Random writes (sizes from one element to a whole view, dense and sparse buffers,
    repeats within a write) by a parent and by children absorbed or undone; a child's undo
    must give back the memory of its start, the parent's the original, and `written()` (of
    the parent and of a write log absorbing it) the addresses written. Through views of
    one size (float32 and uint32 of a buffer) or, `overlapping`, also through views of
    other sizes and offsets. `trap` runs in the middle (an interrupt test: it may raise).
    `snapshots`: buffers may become snapshots (then `written()` is not asked)."""
    rng = np.random.default_rng(seed)
    small, big = rng.integers(0, 256, 4096, np.uint8), rng.integers(0, 256, 1 << 16, np.uint8)
    original = small.tobytes() + big.tobytes()
    views = [small.view(np.uint32), small.view(np.float32), big.view(np.float32)]
    if overlapping:
        views += [small.view(np.uint16), small[4:1028].view(np.int32), big, big[1:9]]
    expected: dict[tuple[int, int, int], set[int]] = {}

    def writes(journal: Journal, count: int, into: dict) -> None:
        for _ in range(count):
            typed = views[rng.integers(len(views))]
            n = int(np.exp(rng.uniform(0, np.log(typed.size))))
            flat = rng.integers(0, typed.size, n)
            values = rng.integers(0, 256, n * typed.itemsize, np.uint8).view(typed.dtype)
            journaled_write(journal, typed, flat, values)
            into.setdefault(key_of(typed), set()).update(flat.tolist())

    root = Journal(snapshots=snapshots)
    writes(root, 6, expected)
    for attempt in range(6):
        child = Journal(parent=root)
        started = small.tobytes() + big.tobytes()
        mine: dict = {}
        writes(child, 6, mine)
        if trap is not None and attempt == 3:
            trap()
        if rng.random() < 0.4:
            child.undo()
            assert small.tobytes() + big.tobytes() == started
            if rng.random() < 0.5:  # an undone journal records anew
                mine = {}
                writes(child, 3, mine)
                root.absorb(child)
                for key, flats in mine.items():
                    expected.setdefault(key, set()).update(flats)
        else:
            root.absorb(child)
            for key, flats in mine.items():
                expected.setdefault(key, set()).update(flats)
    if not snapshots:
        log = WriteLog()
        log.absorb(root)
        for source in (root, log):
            got = {key_of(view): flat.tolist() for view, flat in source.written()}
            assert got == {key: sorted(flats) for key, flats in expected.items()}
    root.undo()
    assert small.tobytes() + big.tobytes() == original


@pytest.mark.parametrize("snapshots", [False, True])
@pytest.mark.parametrize("overlapping", [False, True])
@pytest.mark.parametrize("seed", range(12))
def test_random_writes_undo_exactly(seed, overlapping, snapshots, monkeypatch):
    monkeypatch.setattr(journal_module, "_COMPACT_MIN", 64)  # sparse buffers compact too
    random_run(seed, overlapping, snapshots=snapshots)


class Interrupted(Exception):
    """A signal handler's exception that kernel code may catch and go on."""


class LineTrap:
    """A trace function raising `Interrupted` before the `at`-th line run in journal.py
    (Python then drops it: one interrupt); counts the lines when `at` is -1."""

    def __init__(self, at: int = -1) -> None:
        self.at, self.count = at, 0

    def __call__(self, frame, event, arg):
        return self.line if frame.f_code.co_filename == journal_module.__file__ else None

    def line(self, frame, event, arg):
        if event == "line":
            if self.count == self.at:
                raise Interrupted
            self.count += 1
        return self.line


def trapped_scenario(at: int, snapshots: bool = False) -> tuple[int, bool]:
    """A parent with a mask, a child writing over it and absorbed, another undone, a write
    log; interrupted before line `at` of journal.py. An interrupted store is skipped and the
    run goes on (kernel code caught it); an interrupted absorb or undo ends the run. Then
    the parent is undone (as the engine does): memory must be the original. (Lines counted,
    whether it was interrupted.) `snapshots`: the buffer may become a snapshot (no write
    log then)."""
    memory = np.arange(256, dtype=np.float32)
    original = memory.copy()
    caught = []
    journal_module._spares.clear()  # (its snapshots' buffers: the same lines every run)

    def write(journal: Journal, typed: np.ndarray, flat: np.ndarray, value: float) -> None:
        try:
            journaled_write(journal, typed, flat, value)
        except Interrupted:
            caught.append(True)

    root = Journal(snapshots=snapshots)
    trap = LineTrap(at)
    sys.settrace(trap)
    try:
        write(root, memory, np.arange(40), 1.0)
        write(root, memory, np.arange(20, 60), 2.0)
        child = Journal(parent=root)
        write(child, memory, np.arange(50, 90), 3.0)
        write(child, memory, np.arange(0, 100, 3), 4.0)
        write(child, memory, np.arange(0, 100, 3), 4.5)
        write(child, memory.view(np.int16), np.arange(150, 170), 5)
        root.absorb(child)
        other = Journal(parent=root)
        write(other, memory, np.arange(80, 120), 6.0)
        write(other, memory, np.arange(100, 130), 7.0)
        other.undo()
        write(root, memory, np.arange(0, 200, 2), 8.0)
        write(root, memory, np.arange(0, 200, 2), 9.0)
        if not snapshots:
            WriteLog().absorb(root)
    except Interrupted:
        caught.append(True)
    finally:
        sys.settrace(None)
    root.undo()
    assert memory.tobytes() == original.tobytes(), f"interrupted before line {at}"
    return trap.count, bool(caught)


@pytest.mark.parametrize(("snapshots", "page_bytes"), [(False, None), (True, None), (True, 128)])
def test_an_interrupt_before_any_line_of_the_journal_leaves_it_undoable(snapshots, page_bytes,
                                                                        monkeypatch):
    """(128-byte pages: the scenario's buffer spans 8, and its snapshots hold some.)"""
    if page_bytes is not None:
        monkeypatch.setattr(journal_module, "_PAGE_BYTES", page_bytes)
    lines, interrupted = trapped_scenario(-1, snapshots)
    assert not interrupted and lines > 100
    for at in range(lines):
        assert trapped_scenario(at, snapshots)[1]


# --- snapshots -----------------------------------------------------------------------------------


def test_a_buffer_written_as_much_as_its_size_becomes_a_snapshot_and_undoes_exactly():
    memory = np.arange(1000, dtype=np.float32)
    original = memory.copy()
    journal = Journal()
    journaled_write(journal, memory, np.arange(100), 1.0)  # entries: 1200 < 4000 bytes
    assert entries(journal) == 100 and not journal._snapshots
    start = memory.__array_interface__["data"][0]
    assert not journal.covers(start, memory.nbytes)
    journaled_write(journal, memory, np.arange(50, 300), 2.0)  # 1200 + 3000 >= 4000
    assert list(journal._snapshots) == [(key_of(memory), 0)] and entries(journal) == 0
    assert journal.nbytes == memory.nbytes and not journal._masks
    assert journal.covers(start, memory.nbytes) and not journal.covers(start, memory.nbytes + 1)
    journaled_write(journal, memory.view(np.int32), np.arange(1000), 7)  # costs nothing more
    assert entries(journal) == 0 and journal.nbytes == memory.nbytes
    journal.undo()
    assert memory.tobytes() == original.tobytes()
    assert not journal._snapshots and journal.nbytes == 0


def test_a_buffer_written_again_becomes_a_snapshot_at_a_32nd_of_it_in_entries():
    memory = np.arange(4096, dtype=np.float32)  # 16384 bytes; an entry costs 12 per element
    original = memory.copy()
    journal = Journal()
    journaled_write(journal, memory, np.arange(0, 4096, 103), 1.0)  # 40 x 12 < 16384 / 32
    assert entries(journal) == 40 and not journal._snapshots
    journaled_write(journal, memory, np.arange(1, 4096, 1500), 2.0)  # 516 >= 512: a snapshot
    assert journal._snapshots and entries(journal) == 0
    journal.undo()
    assert memory.tobytes() == original.tobytes()


def test_a_rewritten_buffer_stays_in_entries_below_a_32nd_or_past_the_budget():
    memory = np.arange(4096, dtype=np.float32)
    small = Journal()
    journaled_write(small, memory, np.arange(0, 4096, 200), 1.0)  # 21 x 12 bytes
    journaled_write(small, memory, np.arange(1, 4096, 200), 2.0)  # 504 < 16384 / 32
    assert entries(small) == 42 and not small._snapshots
    once = Journal()  # a first write, however large below the buffer, is a GEMM's output
    journaled_write(once, memory, np.arange(0, 4096, 4), 1.0)
    assert entries(once) == 1024 and not once._snapshots
    tight = Journal(budget=16384 - 1)  # the copy would not fit
    journaled_write(tight, memory, np.arange(0, 4096, 8), 3.0)
    journaled_write(tight, memory, np.arange(1, 4096, 8), 4.0)
    assert entries(tight) == 1024 and not tight._snapshots


def test_one_store_of_the_whole_buffer_is_a_snapshot_at_once():
    memory = np.arange(64, dtype=np.float64)
    original = memory.copy()
    journal = Journal()
    journaled_write(journal, memory, np.arange(64)[::-1], 0.0)
    assert journal._snapshots and entries(journal) == 0
    journal.undo()
    assert memory.tobytes() == original.tobytes()


# --- snapshots of pages ---------------------------------------------------------------------------


@pytest.fixture
def small_pages(monkeypatch):
    """Snapshot pages of 1 KiB (256 float32): the tests' buffers span many."""
    monkeypatch.setattr(journal_module, "_PAGE_BYTES", 1024)


def test_a_rewritten_slice_of_a_big_buffer_becomes_a_snapshot_of_its_pages(small_pages):
    memory = np.arange(16 * 256, dtype=np.float32)  # 16 pages
    original = memory.copy()
    start = memory.__array_interface__["data"][0]
    journal = Journal()
    rows = np.arange(700, 1300)  # in pages 2 to 5
    journaled_write(journal, memory, rows[::2], 1.0)  # 300 x 12 bytes < 4 pages: entries
    assert entries(journal) == 300 and not journal._snapshots
    journaled_write(journal, memory, rows[1::2], 2.0)  # 7200 bytes >= 4 pages: theirs
    assert list(journal._snapshots) == [(key_of(memory), 2)] and entries(journal) == 0
    assert journal.nbytes == 4 * 1024 and not journal._masks
    assert journal.holds(memory, 512, 1535) and not journal.holds(memory, 511, 600)
    assert not journal.holds(memory.view(np.int16), 1024, 1030)  # (another view's elements)
    assert not journal.covers(start, memory.nbytes)
    journaled_write(journal, memory, rows, 3.0)  # held: no entry
    journaled_write(journal, memory, [5, 4000], 4.0)  # outside: entries
    assert entries(journal) == 2 and journal.nbytes == 4 * 1024 + 24
    journal.undo()
    assert memory.tobytes() == original.tobytes()


def test_a_write_half_inside_the_held_pages_keeps_entries_for_the_rest(small_pages):
    memory = np.arange(4 * 256, dtype=np.float32)
    original = memory.copy()
    journal = Journal()
    journaled_write(journal, memory, np.arange(256, 512), 1.0)  # page 1 at once
    assert list(journal._snapshots) == [(key_of(memory), 1)] and entries(journal) == 0
    journaled_write(journal, memory, np.arange(500, 520), 2.0)  # 12 held, 8 new
    assert journal._chunks[0][2].tolist() == list(range(512, 520))
    journal.undo()
    assert memory.tobytes() == original.tobytes()


def test_the_pages_of_a_childs_snapshot_the_parent_holds_stay_the_parents(small_pages):
    memory = np.arange(8 * 256, dtype=np.float32)
    original = memory.copy()
    parent = Journal()
    journaled_write(parent, memory, np.arange(0, 512), -1.0)  # pages 0 and 1
    child = Journal(parent=parent)
    journaled_write(child, memory, np.arange(256, 1024), -2.0)  # pages 1 to 3, the child's
    journaled_write(child, memory, [1500], -3.0)  # an entry of the child's
    assert list(child._snapshots) == [(key_of(memory), 1)]
    parent.absorb(child)
    assert sorted(parent._snapshots) == [(key_of(memory), 0), (key_of(memory), 2)]
    (_, older), (_, taken) = (parent._snapshots[(key_of(memory), page)] for page in (0, 2))
    assert older.view(np.float32).tolist() == original[:512].tolist()
    assert taken.view(np.float32).tolist() == original[512:1024].tolist()
    assert not np.shares_memory(taken, child._snapshots[(key_of(memory), 1)][1])
    assert parent.holds(memory, 0, 1023) and entries(parent) == 1
    parent.undo()
    assert memory.tobytes() == original.tobytes()


@pytest.mark.parametrize("seed", range(12))
def test_random_writes_undo_exactly_with_small_pages(seed, monkeypatch):
    monkeypatch.setattr(journal_module, "_COMPACT_MIN", 64)
    monkeypatch.setattr(journal_module, "_PAGE_BYTES", 512)
    random_run(seed, overlapping=False, snapshots=True)


def test_overlapping_views_and_write_logs_keep_entries():
    memory = np.arange(256, dtype=np.int32)
    journal = Journal()
    journaled_write(journal, memory.view(np.int16), [0], 1)
    journaled_write(journal, memory, np.arange(256), 2)  # a copy would hold the int16 write
    assert not journal._snapshots and entries(journal) == 257
    log = WriteLog()
    log.record(memory, np.arange(256), memory.copy())
    assert not log._snapshots
    with pytest.raises(AssertionError, match="lists its writes"):
        snapshotted = Journal()
        journaled_write(snapshotted, np.zeros(8, np.float32), np.arange(8), 1.0)
        log.absorb(snapshotted)


def test_a_child_snapshot_absorbed_takes_the_parent_entries_into_its_copy():
    memory = np.arange(500, dtype=np.float32)
    original = memory.copy()
    parent = Journal()
    journaled_write(parent, memory, np.arange(0, 500, 5), -1.0)  # entries, no snapshot
    child = Journal(parent=parent)
    journaled_write(child, memory, np.arange(500), -2.0)  # the child's snapshot
    assert child._snapshots and not parent._snapshots
    at_child_start = np.where(np.arange(500) % 5 == 0, -1.0, original).astype(np.float32)
    assert child._snapshots[(key_of(memory), 0)][1].view(np.float32).tolist() == \
        at_child_start.tolist()
    parent.absorb(child)
    assert parent._snapshots and entries(parent) == 0
    journaled_write(parent, memory, [3], -3.0)
    parent.undo()
    assert memory.tobytes() == original.tobytes()


def test_a_parent_snapshot_drops_the_entries_of_absorbed_children():
    memory = np.arange(300, dtype=np.float32)
    other = np.zeros(10_000, np.float32)
    original, other_original = memory.copy(), other.copy()
    parent = Journal()
    journaled_write(parent, memory, np.arange(300), -1.0)
    child = Journal(parent=parent)
    journaled_write(child, memory, [1, 2, 3], -2.0)
    journaled_write(child, other, [9, 99], 5.0)
    assert child._chunks and not child._snapshots
    parent.absorb(child)
    assert [key for key, *_ in parent._chunks] == [key_of(other)]  # memory's are covered
    undone = Journal(parent=parent)
    journaled_write(undone, memory, np.arange(300), -4.0)  # the child's own snapshot
    assert undone._snapshots
    undone.undo()  # back to the child's start
    assert memory[1] == -2.0 and memory[0] == -1.0 and (memory[4:] == -1.0).all()
    parent.undo()
    assert memory.tobytes() == original.tobytes()
    assert other.tobytes() == other_original.tobytes()


def test_a_final_journals_snapshot_buffer_serves_the_next_snapshot(monkeypatch):
    monkeypatch.setattr(journal_module, "_spares", {})
    memory = np.arange(4096, dtype=np.float32)
    first = Journal()
    journaled_write(first, memory, np.arange(4096), 1.0)  # a snapshot at once
    (_, copy), = first._snapshots.values()
    first.release()
    assert not first._snapshots
    original = memory.copy()
    second = Journal()
    journaled_write(second, memory.view(np.int32), np.arange(4096)[::-1], 7)
    (_, again), = second._snapshots.values()
    assert np.shares_memory(again, copy)  # (the first batch's buffer, overwritten)
    second.undo()
    assert memory.tobytes() == original.tobytes()
    assert not journal_module._spares  # an undone journal keeps its buffers to itself


def test_spare_snapshot_buffers_are_bounded(monkeypatch):
    monkeypatch.setattr(journal_module, "_spares", {})
    monkeypatch.setattr(journal_module, "_SPARE_BYTES", 3 * 4096)
    journals = [Journal() for _ in range(3)]
    for journal in journals:  # three snapshots at once: three buffers
        journaled_write(journal, np.zeros(1024, np.float32), np.arange(1024), 1.0)
    for journal in journals:
        journal.release()
    assert sum(spare.nbytes for spare in journal_module._spares.values()) == 3 * 4096
    journal = Journal()
    journaled_write(journal, np.zeros(2048, np.float32), np.arange(2048), 1.0)
    journal.release()  # 8 KiB more than the bound: dropped
    assert sum(spare.nbytes for spare in journal_module._spares.values()) == 3 * 4096
