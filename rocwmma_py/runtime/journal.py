"""The batched engine's undo journal: the old values of the global memory a batch wrote.

A batch may have to be undone (a split, an error, an interrupt), so every global write first
records the values it overwrites. Only the oldest value of each address matters for undoing,
so repeated writes to one address are compacted (amortised: when the entries have doubled
since the last compaction), and the journal costs about (8 + element size) bytes per
distinct address written, not per write. A journal over its byte budget raises
`JournalFull`; the engine then reruns the batch's blocks in smaller batches.

Entries are kept per (address of the buffer's data, element size) in unsigned views of the
same bytes, so float32 and int32 writes to one buffer compact together. A batch that writes
overlapping memory through views of different element sizes (or overlapping arguments) keeps
its entries in write order and uncompacted: undoing newest-first is then the only exact order.

A signal handler's exception (Ctrl-C, a timeout) can arrive between any two bytecodes, so the
entries that `undo` reads are always complete: each write's old values are recorded before
the write, and the entry list changes only by one C-level list operation (append, extend,
pop) or by one assignment of a list built aside (compaction). Undoing newest first restores
the oldest recorded values from any memory state, so an entry undone twice does no harm: a
parent undoes its open child too (`absorb` may be cut short), and an interrupted undo
finishes before the interrupt propagates. The byte and entry counts only steer the budget
and compaction, so they may lag an interrupt.
"""

from __future__ import annotations

import numpy as np

from .distinct import distinct, first_occurrences

_COMPACT_MIN = 1 << 16  # entries (elements) below which a journal is never compacted
_MASK_PER_ENTRY = 32  # written(): a mask over the buffer while it has <= 32 elements per entry
_NO_VALUES = np.empty(0, np.uint8)
_UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


class JournalFull(BaseException):  # noqa: N818 - a control-flow signal, not an error
    """The batch's journal passed its byte budget: rerun the batch's blocks in smaller batches.

    A BaseException, so kernel code's `except Exception:` cannot swallow it."""


class Journal:
    """Old values of global memory, oldest per address once compacted; `undo` restores them.

    A child journal (one attempt at running a batch) records into itself and is either undone
    or absorbed into its parent; its budget is what the parent has left."""

    def __init__(self, budget: int | None = None, parent: Journal | None = None) -> None:
        self._chunks: list[tuple[tuple[int, int], np.ndarray, np.ndarray, np.ndarray]] = []
        self._ranges: dict[tuple[int, int], tuple[int, int]] = {}  # key -> byte range
        self._ordered = False  # overlapping keys: keep write order, never compact
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
        unsigned = _UNSIGNED.get(typed.dtype.itemsize)
        view = typed.view(unsigned) if unsigned is not None else typed
        key = (typed.__array_interface__["data"][0], typed.dtype.itemsize)
        if key not in self._ranges:
            self._add_range(key, typed.nbytes)
        old = np.asarray(old).reshape(-1)
        self._add([(key, view, np.asarray(flat, np.int64).reshape(-1),
                    old.view(view.dtype) if unsigned is not None else old.copy())])
        if self.budget is not None and self.nbytes > self.budget:
            self.compact()
            if self.nbytes > self.budget:
                raise JournalFull

    def absorb(self, child: Journal) -> None:
        """Keep a finished child's entries (newer than ours) so the batch can still be undone.
        Until they are ours, `undo` reaches them through `_child`."""
        self._ranges.update(child._ranges)
        self._ordered = self._ordered or child._ordered  # before entries that need it
        self._compacted += child._compacted  # as compacted as the child kept them
        self._add(child._chunks)
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
        while self._chunks:
            _, view, flat, old = self._chunks[-1]
            view[flat] = old
            self._chunks.pop()
        self.nbytes = self._entries = self._compacted = 0

    def written(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """(unsigned view of a buffer, distinct indices of its elements written, ascending)
        per buffer and element size."""
        return [(view, _distinct(view, flat)) for view, flat in self._flats().values()]

    def _flats(self) -> dict[tuple[int, int], tuple[np.ndarray, np.ndarray]]:
        """key -> (view, every index recorded for it)."""
        by_key: dict[tuple[int, int], tuple[np.ndarray, list[np.ndarray]]] = {}
        for key, view, flat, _ in self._chunks:
            by_key.setdefault(key, (view, []))[1].append(flat)
        return {key: (view, np.concatenate(flats)) for key, (view, flats) in by_key.items()}

    def compact(self) -> None:
        """One entry per address (its oldest value), unless write order must be kept. A
        buffer written by one recorded write only is left as it is: its entries' old values
        are the values before that write, so repeats in it undo alike (a store of a whole
        batch's tiles costs no sort)."""
        if self._ordered:
            return
        by_key: dict[tuple[int, int], list] = {}
        for key, view, flat, old in self._chunks:
            by_key.setdefault(key, [view, [], []])
            by_key[key][1].append(flat)
            by_key[key][2].append(old)
        chunks = []
        for key, (view, flats, olds) in by_key.items():
            flat, old = flats[0], olds[0]
            if len(flats) > 1:
                flat, first = first_occurrences(np.concatenate(flats), view.size)
                old = np.concatenate(olds)[first]  # the first occurrence: the oldest
            chunks.append((key, view, flat, old))
        self._swap(chunks)

    def _add(self, chunks: list) -> None:
        """Append entries (one list operation), count them, compact when they have doubled."""
        self._chunks.extend(chunks)
        for _, _, flat, old in chunks:
            self.nbytes += flat.nbytes + old.nbytes
            self._entries += flat.size
        if self._entries > 2 * self._compacted + _COMPACT_MIN:
            self.compact()

    def _swap(self, chunks: list) -> None:
        """Replace the entries by compacted ones, built aside: one assignment."""
        self._chunks = chunks
        self.nbytes = sum(flat.nbytes + old.nbytes for _, _, flat, old in chunks)
        self._entries = self._compacted = sum(flat.size for _, _, flat, _ in chunks)

    def _add_range(self, key: tuple[int, int], nbytes: int) -> None:
        start = key[0]
        for lo, hi in self._ranges.values():
            if start < hi and lo < start + nbytes:
                self._ordered = True
        self._ranges[key] = (start, start + nbytes)


class WriteLog(Journal):
    """Which global elements were written, without their old values: a worker process's
    record of its blocks (it reports them with the new values, read from memory). Never
    undone, so it always compacts to one entry per element."""

    def _add(self, chunks: list) -> None:
        super()._add([(key, view, flat, _NO_VALUES) for key, view, flat, _ in chunks])

    def compact(self) -> None:
        self._swap([(key, view, _distinct(view, flat), _NO_VALUES)
                    for key, (view, flat) in self._flats().items()])


def _distinct(view: np.ndarray, flat: np.ndarray) -> np.ndarray:
    """The distinct indices of `flat` into `view`, ascending: a mask over the view when that
    is cheaper than sorting."""
    if view.size <= _MASK_PER_ENTRY * flat.size:
        mask = np.zeros(view.size, bool)
        mask[flat] = True
        return np.flatnonzero(mask)
    return distinct(flat)
