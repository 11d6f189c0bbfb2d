"""The batched engine's undo journal: the old values of the global memory a batch wrote.

A batch may have to be undone (a split, an error, an interrupt), so every global write first
records the values it overwrites. Undoing newest first leaves each byte with the value of its
oldest entry, so only an element's first write needs one: from a buffer's second write on, a
journal keeps a bit per element of the buffer (its mask: the elements it has entries for) and
records only the others. It then costs about (8 + element size) bytes per distinct element
written plus the masks, without sorting. A buffer whose mask would cost more than its entries
(a huge buffer written sparsely) gets none: its entries are compacted by sorting when the
journal's entries have doubled. Where a buffer's entries come to cost as much as the pages
(`_PAGE_BYTES`) they span, or a 32nd of them once it is written again (within the budget),
those pages become a snapshot instead: a copy of their bytes as of the journal's start (the
current bytes with the entries undone into the copy), after which writes there cost the
journal nothing (one look at the pages a write spans; once every page of a buffer is held,
none: `covers`, and the engine's observer stops calling). A batch that writes its own slice
of a huge buffer copies that slice, not the buffer. A journal over its byte budget (masks
and snapshots included) raises `JournalFull`; the engine then reruns the batch's blocks in
smaller batches.

Entries are kept per (data address, element size, element count) of the buffer's view, in
unsigned views of the same bytes, so float32 and int32 writes to one buffer share entries and
a mask. Filtering keeps write order, so it stays exact when views of different element sizes
overlap; a sort would not, so a journal that saw such views does not compact, nor take a
snapshot (the copy would hold another view's newer bytes). Snapshots are undone last, after
every entry, so views overlapping them later are restored by them too.

A signal handler's exception (Ctrl-C, a timeout) can arrive between any two bytecodes, so the
entries that `undo` reads are always complete: each write's old values are recorded before
the write, the entry list changes only by one C-level list operation (append, extend, pop) or
by one assignment of a list built aside (compaction, a snapshot dropping the entries it
replaces, which it holds before they go), and a mask gains an element, or the pages held (the
writes they let pass), a page only after its entry or its snapshot is in place (an undo empties
both first). Undoing newest first restores the
oldest recorded values from any memory state, so an entry undone twice does no harm: a parent
undoes its open child too (`absorb` may be cut short), and an interrupted undo finishes before
the interrupt propagates. The byte and entry counts only steer the budget, masks and
compaction, so they may lag an interrupt.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .distinct import distinct, first_occurrences

_COMPACT_MIN = 1 << 16  # entries (elements) below which a journal is never compacted
_MASK_PER_ENTRY = 32  # written(): a mask over the buffer while it has <= 32 elements per entry
_SNAPSHOT_SHARE = 32  # a buffer written again becomes a snapshot at 1/32 of it in entries
_PAGE_BYTES = 1 << 20  # snapshots hold whole pages of this many bytes (a buffer's last: its rest)
_SPARE_BYTES = 64 << 20  # finished snapshots' buffers kept for the next snapshots
# id -> uint8 buffer (a fresh one costs a page fault per 4 KiB); no lock, which an interrupt
# could leave held: taking one is one dict.pop, which one thread wins
_spares: dict[int, np.ndarray] = {}
_NO_VALUES = np.empty(0, np.uint8)
_UNSIGNED = {size: np.dtype(f"u{size}") for size in (1, 2, 4, 8)}
_BIT = (1 << np.arange(8)).astype(np.uint8)  # element i is bit i % 8 of mask byte i // 8

Key = tuple[int, int, int]  # (data address, element size, element count) of a typed view
Run = tuple[Key, int]  # a snapshot's buffer and first page (it holds consecutive pages)
Chunk = tuple[Key, np.ndarray, np.ndarray, np.ndarray]  # (key, view, indices, old values)


class JournalFull(BaseException):  # noqa: N818 - a control-flow signal, not an error
    """The batch's journal passed its byte budget: rerun the batch's blocks in smaller batches.

    A BaseException, so kernel code's `except Exception:` cannot swallow it."""


class Journal:
    """Old values of global memory, the oldest per address; `undo` restores them.

    A child journal (one attempt at running a batch) records into itself, by its own masks,
    and is either undone (memory as of its start) or absorbed into its parent; its budget is
    what the parent has left."""

    def __init__(self, budget: int | None = None, parent: Journal | None = None,
                 snapshots: bool = True) -> None:
        """`snapshots`: whether buffers may be kept as snapshots (not where the written
        elements must be listed later: a journal a `WriteLog` absorbs); children inherit it."""
        self._chunks: list[Chunk] = []
        self._snapshots: dict[Run, tuple[np.ndarray, np.ndarray]] = {}  # -> (its view, copy)
        self._held: dict[Key, np.ndarray] = {}  # key -> its pages (bool) held by snapshots
        self._may_snapshot: bool = snapshots if parent is None else parent._may_snapshot
        self._masks: dict[Key, np.ndarray] = {}  # key -> bits of the elements with entries
        self._sizes: dict[Key, int] = {}  # key -> bytes of its entries (steers its mask)
        self._spans: dict[Key, tuple[int, int]] = {}  # key -> its entries' lowest, highest
        self._ranges: dict[Key, tuple[int, int]] = {}  # key -> byte range
        self._ordered = False  # overlapping keys: never compact by sorting
        self.nbytes = 0
        self._entries = 0
        self._compacted = 0
        self._child: Journal | None = None  # the attempt running on top of this journal
        self.root: Journal = self if parent is None else parent.root  # the top-level batch's
        if parent is not None:
            budget = None if parent.budget is None else parent.budget - parent.nbytes
            self._ordered = parent._ordered
            self._ranges = dict(parent._ranges)
            parent._child = self  # its writes are undone with the parent's until absorbed
        self.budget: int | None = budget

    def record(self, typed: np.ndarray, flat: np.ndarray, old: np.ndarray) -> None:
        """Values `old` of elements `flat` of the 1-d array `typed`, before a write to them."""
        view = typed.view(_unsigned(typed.dtype.itemsize))
        key = _key(typed)
        chunk = (key, view, np.asarray(flat, np.int64).reshape(-1),
                 np.asarray(old).reshape(-1).view(view.dtype))
        if key in self._held:
            chunk = self._outside_held(chunk)
            if not chunk[2].size:
                return
        if key not in self._ranges:
            self._add_range(key, typed.nbytes)
        self._take([chunk], may_snapshot=True)
        if self.budget is not None and self.nbytes > self.budget:
            self.compact()
            if self.nbytes > self.budget:
                raise JournalFull

    def holds(self, typed: np.ndarray, low: int, high: int) -> bool:
        """Whether our snapshots hold elements low..high of the 1-d array `typed` (writes
        there need no entries)."""
        held = self._held.get(_key(typed))
        per = _page_elements(typed.dtype.itemsize)
        return held is not None and bool(held[low // per:high // per + 1].all())

    def covers(self, start: int, nbytes: int) -> bool:
        """Whether snapshots hold every page of a buffer that holds every byte of [start,
        start + nbytes) (writes there need no entries: undoing the snapshots restores them)."""
        return any(key[0] <= start and start + nbytes <= key[0] + key[1] * key[2]
                   and held.all() for key, held in list(self._held.items()))

    def absorb(self, child: Journal) -> None:
        """Keep a finished child's entries (newer than ours) of the elements we have no entry
        for, and its snapshots of buffers we have none of (with our older entries undone
        into them), so the batch can still be undone. Until they are ours, `undo` reaches
        them through `_child`."""
        self._ranges.update(child._ranges)
        self._ordered = self._ordered or child._ordered  # before a compaction that needs it
        self._compacted += child._compacted  # as compacted as the child kept them
        assert self._may_snapshot or not child._snapshots, \
            "a journal that lists its writes absorbed a snapshot"
        for (key, first), (view, copy) in child._snapshots.items():
            self._adopt_child_run(key, first, view, copy)
        self._take([self._outside_held(chunk) if chunk[0] in self._held else chunk
                    for chunk in child._chunks],
                   {key: mask for key, mask in child._masks.items()
                    if key not in self._sizes and key not in self._held})
        self._child = None

    def undo(self) -> None:
        """Restore every recorded address to its oldest recorded value; the journal empties.
        An exception raised inside (a signal handler's) propagates once the undo is done, so
        an interrupt does not leave the batch half undone."""
        try:
            self._restore()
        except BaseException:
            self._restore()
            raise

    def _restore(self) -> None:
        """Undo newest first: the open child's entries, then ours. An entry is dropped after
        its write, so a restore cut short can be run again."""
        if self._child is not None:
            self._child._restore()
        self._masks, self._held = {}, {}
        while self._chunks:
            _, view, flat, old = self._chunks[-1]
            view[flat] = old
            self._chunks.pop()
        while self._snapshots:  # the oldest state of their buffers: after every entry
            key, (view, copy) = next(iter(self._snapshots.items()))
            view[...] = copy
            del self._snapshots[key]
        self._sizes, self._spans = {}, {}
        self.nbytes = self._entries = self._compacted = 0

    def release(self) -> None:
        """The batch is final (never undone): its snapshots' buffers serve the next ones.
        (Only here: an absorb cut short leaves a snapshot held by a child and its parent,
        whose undo must find it untouched.)"""
        snapshots, self._snapshots = self._snapshots, {}
        for _, copy in snapshots.values():
            _recycle(copy)

    def written(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """(unsigned view of a buffer, distinct indices of its elements written, ascending)
        per buffer and element size."""
        out = []
        for key, (view, flats, _) in self._by_key().items():
            mask = self._masks.get(key)
            out.append((view, _distinct(view, np.concatenate(flats)) if mask is None
                        else np.flatnonzero(np.unpackbits(mask, count=view.size,
                                                          bitorder="little"))))
        return out

    def compact(self) -> None:
        """One entry per address (its oldest value) for the buffers without a mask, unless a
        sort could reorder overlapping views' entries."""
        if not self._ordered:
            self._compact(_oldest)

    def _compact(self, merge: Callable[[np.ndarray, list[np.ndarray], list[np.ndarray]],
                                       tuple[np.ndarray, np.ndarray]]) -> None:
        """Merge the entries of each buffer without a mask by `merge(view, flats, olds)`;
        buffers with a mask, or with one write, keep theirs (repeats in one write hold one
        old value, so they undo alike: a store of a whole batch's tiles costs no sort)."""
        chunks = [chunk for chunk in self._chunks if chunk[0] in self._masks]
        for key, (view, flats, olds) in self._by_key().items():
            if key not in self._masks:
                flat, old = (flats[0], olds[0]) if len(flats) == 1 else merge(view, flats, olds)
                chunks.append((key, view, flat, old))
        self._swap(chunks)

    def _by_key(self) -> dict[Key, tuple[np.ndarray, list[np.ndarray], list[np.ndarray]]]:
        """key -> (view, indices of each entry, old values of each entry), in write order."""
        by_key: dict[Key, tuple[np.ndarray, list[np.ndarray], list[np.ndarray]]] = {}
        for key, view, flat, old in self._chunks:
            _, flats, olds = by_key.setdefault(key, (view, [], []))
            flats.append(flat)
            olds.append(old)
        return by_key

    def _take(self, chunks: list[Chunk], adopted: dict[Key, np.ndarray] | None = None,
              may_snapshot: bool = False) -> None:
        """Add the entries of `chunks` for the elements we have no entry for (all of them
        where a buffer has no mask), then mark them in the masks; take `adopted` masks of
        keys we had no entries for (our entries of them are then exactly the chunks').
        `may_snapshot`: the chunks are a write about to happen (`record`), so a copy of the
        buffer now holds their old values and may become its snapshot."""
        kept = []
        for key, view, flat, old in chunks:
            if may_snapshot and self._snapshot(key, view, flat, flat.nbytes + old.nbytes):
                continue
            mask = self._mask(key, view, flat.nbytes + old.nbytes)
            if mask is not None:
                new = _unmarked(mask, flat)
                if new.size < flat.size:
                    flat, old = flat[new], old[new]
            if flat.size:
                kept.append((key, view, flat, old))
        self._add(kept)
        for key, _, flat, _ in kept:
            mask = self._masks.get(key)
            if mask is not None:
                _mark(mask, flat)
        if adopted:
            self._masks.update(adopted)
            self.nbytes += sum(mask.nbytes for mask in adopted.values())
        if self._entries > 2 * self._compacted + _COMPACT_MIN:
            self.compact()

    def _mask(self, key: Key, view: np.ndarray, incoming: int) -> np.ndarray | None:
        """The mask of `key`; made (from our entries) when a second write to the buffer
        arrives and the mask costs no more than the buffer's entries would with it."""
        mask = self._masks.get(key)
        size = self._sizes.get(key)
        if mask is None and size is not None and (view.size + 7) // 8 <= size + incoming:
            mask = np.zeros((view.size + 7) // 8, np.uint8)
            for k, _, flat, _ in self._chunks:
                if k == key:
                    _mark(mask, flat)
            self._masks[key] = mask
            self.nbytes += mask.nbytes
        return mask

    def _snapshot(self, key: Key, view: np.ndarray, flat: np.ndarray, incoming: int) -> bool:
        """Keep the pages of `key`'s buffer that its entries and a write of `flat` span (the
        ones not held yet) as snapshots, when no other view overlaps any buffer we journal
        and the entries with `incoming` more bytes cost at least those pages, or, from the
        buffer's second write on, 1/`_SNAPSHOT_SHARE` of them within the budget (a buffer
        written again and again: an entry costs ~50x a copy per element, 20 ns against 0.4
        ns measured with the masks' bookkeeping, so a copy soon pays; a buffer written once
        is a GEMM's output, which a copy would not). True if the write's elements are held
        now."""
        if not self._may_snapshot or self._ordered or not flat.size:
            return False
        entries = self._sizes.get(key, 0)
        low, high = int(flat.min()), int(flat.max())
        span = self._spans.get(key)
        if span is not None:  # (a count that lags an interrupt only steers)
            low, high = min(low, span[0]), max(high, span[1])

        def too_dear(nbytes: int) -> bool:
            return nbytes > entries + incoming and (
                not entries or nbytes > _SNAPSHOT_SHARE * (entries + incoming)
                or (self.budget is not None and self.nbytes - entries + nbytes > self.budget))

        held = self._held.get(key)
        if held is None and too_dear((high - low + 1) * view.itemsize):  # (pages hold more)
            return False
        per = _page_elements(view.itemsize)
        pages = np.arange(low // per, high // per + 1)
        if held is not None:
            pages = pages[~held[pages]]
        runs = [(first, view[first * per:stop * per]) for first, stop in _runs(pages)]
        if too_dear(sum(part.nbytes for _, part in runs)):
            return False
        if runs:
            self._adopt_runs(key, [(first, part, _copy_of(part)) for first, part in runs])
        return True

    def _adopt_runs(self, key: Key, runs: list[tuple[int, np.ndarray, np.ndarray]]) -> None:
        """Each (first page, view, copy) of `runs` (consecutive pages of `key`'s buffer, the
        copy their bytes as of some write after our start) becomes a snapshot, our entries
        there undone into the copies newest first and then dropped."""
        per = _page_elements(key[1])
        held = self._held.get(key)
        adopted = np.zeros(-(-key[2] // per), np.bool_)  # the runs' pages
        for first, _, copy in runs:
            adopted[first:first + -(-copy.size // per)] = True
        for k, _, flat, old in reversed(self._chunks):
            if k == key:
                for first, _, copy in runs:
                    at = flat - first * per
                    inside = (at >= 0) & (at < copy.size)
                    copy[at[inside]] = old[inside]
        for first, view, copy in runs:  # (held before the entries go)
            self._snapshots[(key, first)] = (view, copy)
        if held is None:
            self._held[key] = adopted
        else:
            held |= adopted
        self._swap([_without(chunk, adopted, per) if chunk[0] == key else chunk
                    for chunk in self._chunks])
        if self._masks.pop(key, None) is not None:
            self._swap(self._chunks)  # recount without the mask

    def _adopt_child_run(self, key: Key, first: int, view: np.ndarray, copy: np.ndarray
                         ) -> None:
        """`absorb` a child's snapshot of consecutive pages from `first`: ours where we hold
        none of its pages; where we hold some (older), its other pages' bytes, copied."""
        per = _page_elements(key[1])
        pages = np.arange(first, first + -(-copy.size // per))
        held = self._held.get(key)
        if held is None or not held[pages].any():
            self._adopt_runs(key, [(first, view, copy)])
            return
        parts = [slice((start - first) * per, (stop - first) * per)
                 for start, stop in _runs(pages[~held[pages]])]
        if parts:
            self._adopt_runs(key, [(first + part.start // per, view[part], copy[part].copy())
                                   for part in parts])

    def _outside_held(self, chunk: Chunk) -> Chunk:
        """`chunk` without its elements in the pages our snapshots hold."""
        key, view, flat, old = chunk
        held = self._held.get(key)
        if held is None or not flat.size:
            return chunk
        per = _page_elements(view.itemsize)
        spanned = held[int(flat.min()) // per:int(flat.max()) // per + 1]
        if not spanned.any():
            return chunk
        if spanned.all():
            return key, view, flat[:0], old[:0]
        return _without(chunk, held, per)

    def _add(self, chunks: list[Chunk]) -> None:
        """Append entries (one list operation) and count them."""
        self._chunks.extend(chunks)
        for key, _, flat, old in chunks:
            _widen(self._spans, key, flat)
            self._sizes[key] = self._sizes.get(key, 0) + flat.nbytes + old.nbytes
            self.nbytes += flat.nbytes + old.nbytes
            self._entries += flat.size

    def _swap(self, chunks: list[Chunk]) -> None:
        """Replace the entries by compacted ones, built aside: one assignment."""
        self._chunks = chunks
        sizes: dict[Key, int] = {}
        spans: dict[Key, tuple[int, int]] = {}
        for key, _, flat, old in chunks:
            _widen(spans, key, flat)
            sizes[key] = sizes.get(key, 0) + flat.nbytes + old.nbytes
        self._sizes, self._spans = sizes, spans
        self.nbytes = (sum(sizes.values()) + sum(mask.nbytes for mask in self._masks.values())
                       + sum(copy.nbytes for _, copy in self._snapshots.values()))
        self._entries = self._compacted = sum(flat.size for _, _, flat, _ in chunks)

    def _add_range(self, key: Key, nbytes: int) -> None:
        start = key[0]
        for lo, hi in self._ranges.values():
            if start < hi and lo < start + nbytes:
                self._ordered = True
        self._ranges[key] = (start, start + nbytes)


class WriteLog(Journal):
    """Which global elements were written, without their old values: a worker process's
    record of its blocks (it reports them with the new values, read from memory). Never
    undone, so its compaction needs no write order; never a snapshot (it lists the
    elements)."""

    def __init__(self) -> None:
        super().__init__(snapshots=False)

    def _add(self, chunks: list[Chunk]) -> None:
        super()._add([(key, view, flat, _NO_VALUES) for key, view, flat, _ in chunks])

    def compact(self) -> None:
        self._compact(lambda view, flats, _: (_distinct(view, np.concatenate(flats)),
                                              _NO_VALUES))


def _unsigned(itemsize: int) -> np.dtype:
    """An unsigned integer (or raw bytes) dtype of `itemsize` bytes: views of one buffer in
    float and int types of one size share entries."""
    unsigned = _UNSIGNED.get(itemsize)
    return np.dtype(f"V{itemsize}") if unsigned is None else unsigned


def _key(typed: np.ndarray) -> Key:
    """The `Key` of a 1-d typed view."""
    return typed.__array_interface__["data"][0], typed.dtype.itemsize, typed.size


def _page_elements(itemsize: int) -> int:
    """Elements of `itemsize` bytes per snapshot page."""
    return max(1, _PAGE_BYTES // itemsize)


def _runs(pages: np.ndarray) -> list[tuple[int, int]]:
    """(first, stop) of each run of consecutive pages in ascending `pages`."""
    if not pages.size:
        return []
    breaks = np.flatnonzero(np.diff(pages) != 1) + 1
    starts, ends = pages[np.r_[0, breaks]], pages[np.r_[breaks - 1, pages.size - 1]]
    return [(int(first), int(last) + 1) for first, last in zip(starts, ends, strict=True)]


def _without(chunk: Chunk, pages: np.ndarray, per: int) -> Chunk:
    """`chunk` without its elements in the `pages` (bool per page of `per` elements)."""
    key, view, flat, old = chunk
    keep = ~pages[flat // per]
    return chunk if keep.all() else (key, view, flat[keep], old[keep])


def _widen(spans: dict[Key, tuple[int, int]], key: Key, flat: np.ndarray) -> None:
    """Widen `key`'s (lowest, highest) element in `spans` to take in `flat`."""
    if flat.size:
        low, high = int(flat.min()), int(flat.max())
        span = spans.get(key, (low, high))
        spans[key] = (min(low, span[0]), max(high, span[1]))


def _copy_of(view: np.ndarray) -> np.ndarray:
    """A copy of `view` (1-d), in the smallest spare buffer that holds it, else fresh."""
    fits = [(spare.size, key) for key, spare in list(_spares.items())
            if spare.size >= view.nbytes]
    buffer = _spares.pop(min(fits)[1], None) if fits else None
    if buffer is None:
        return view.copy()
    copy = buffer[:view.nbytes].view(view.dtype)
    copy[...] = view
    return copy


def _recycle(copy: np.ndarray) -> None:
    """Keep the buffer of a snapshot no journal holds any more, within `_SPARE_BYTES`."""
    owner = copy if copy.base is None else copy.base
    raw = owner.view(np.uint8).reshape(-1)
    if raw.nbytes + sum(spare.nbytes for spare in list(_spares.values())) <= _SPARE_BYTES:
        _spares[id(raw)] = raw


def _unmarked(mask: np.ndarray, flat: np.ndarray) -> np.ndarray:
    """Positions in `flat` of the elements whose bit in `mask` is clear."""
    return np.flatnonzero(((mask[flat >> 3] >> (flat & 7).astype(np.uint8)) & 1) == 0)


def _mark(mask: np.ndarray, flat: np.ndarray) -> None:
    """Set the bits of elements `flat` in `mask`: one OR per byte where `flat` is ascending
    (a contiguous store's order; 2x faster), else `np.bitwise_or.at`."""
    byte, bit = flat >> 3, _BIT[flat & 7]
    if byte.size > 1 and (byte[1:] >= byte[:-1]).all():
        starts = np.flatnonzero(np.concatenate(([True], byte[1:] != byte[:-1])))
        mask[byte[starts]] |= np.bitwise_or.reduceat(bit, starts)
    else:
        np.bitwise_or.at(mask, byte, bit)


def _oldest(view: np.ndarray, flats: list[np.ndarray],
            olds: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Each address of `flats` once, with its first (oldest) value."""
    flat, first = first_occurrences(np.concatenate(flats))
    return flat, np.concatenate(olds)[first]


def _distinct(view: np.ndarray, flat: np.ndarray) -> np.ndarray:
    """The distinct indices of `flat` into `view`, ascending: a mask over the view when that
    is cheaper than sorting."""
    if view.size <= _MASK_PER_ENTRY * flat.size:
        mask = np.zeros(view.size, bool)
        mask[flat] = True
        return np.flatnonzero(mask)
    return distinct(flat)
