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
"""

from __future__ import annotations

import numpy as np

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
        self.root: Journal = self if parent is None else parent.root  # the top-level batch's
        if parent is not None:
            budget = None if parent.budget is None else parent.budget - parent.nbytes
            self._ordered = parent._ordered
            self._ranges = dict(parent._ranges)
        self.budget: int | None = budget

    def record(self, typed: np.ndarray, flat: np.ndarray, old: np.ndarray) -> None:
        """Values `old` of elements `flat` of the 1-d array `typed`, before a write to them."""
        unsigned = _UNSIGNED.get(typed.dtype.itemsize)
        view = typed.view(unsigned) if unsigned is not None else typed
        key = (typed.__array_interface__["data"][0], typed.dtype.itemsize)
        if key not in self._ranges:
            self._add_range(key, typed.nbytes)
        old = np.asarray(old).reshape(-1)
        self._append((key, view, np.asarray(flat, np.int64).reshape(-1),
                      old.view(view.dtype) if unsigned is not None else old.copy()))
        if self.budget is not None and self.nbytes > self.budget:
            self.compact()
            if self.nbytes > self.budget:
                raise JournalFull

    def absorb(self, child: Journal) -> None:
        """Keep a finished child's entries (newer than ours) so the batch can still be undone."""
        self._ranges.update(child._ranges)
        self._ordered = self._ordered or child._ordered
        for chunk in child._chunks:
            self._append(chunk)

    def undo(self) -> None:
        """Restore every recorded address to its oldest recorded value; the journal empties."""
        while self._chunks:
            _, view, flat, old = self._chunks.pop()
            view[flat] = old
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
        self._chunks, self.nbytes, self._entries = [], 0, 0
        for key, (view, flats, olds) in by_key.items():
            flat, old = flats[0], olds[0]
            if len(flats) > 1:
                flat, first = np.unique(np.concatenate(flats), return_index=True)
                old = np.concatenate(olds)[first]  # the first occurrence: the oldest
            self._chunks.append((key, view, flat, old))
            self.nbytes += flat.nbytes + old.nbytes
            self._entries += flat.size
        self._compacted = self._entries

    def _append(self, chunk) -> None:
        self._chunks.append(chunk)
        self.nbytes += chunk[2].nbytes + chunk[3].nbytes
        self._entries += chunk[2].size
        if self._entries > 2 * self._compacted + _COMPACT_MIN:
            self.compact()

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

    def _append(self, chunk) -> None:
        super()._append((*chunk[:3], _NO_VALUES))

    def compact(self) -> None:
        self._chunks = [(key, view, _distinct(view, flat), _NO_VALUES)
                        for key, (view, flat) in self._flats().items()]
        self._entries = sum(chunk[2].size for chunk in self._chunks)
        self.nbytes = sum(chunk[2].nbytes for chunk in self._chunks)
        self._compacted = self._entries


def _distinct(view: np.ndarray, flat: np.ndarray) -> np.ndarray:
    """The distinct indices of `flat` into `view`, ascending: a mask over the view when that
    is cheaper than sorting."""
    if view.size <= _MASK_PER_ENTRY * flat.size:
        mask = np.zeros(view.size, bool)
        mask[flat] = True
        return np.flatnonzero(mask)
    return np.unique(flat)
