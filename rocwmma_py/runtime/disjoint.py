"""Whether a worker's piece of a launch ran its global atomics on memory that no earlier
piece wrote: then its results are exactly the serial engine's (workers.py).

A worker runs its pieces on memory forked after the probe (the launch's first blocks, run
in the launching process), so it sees the probe's writes but not those of earlier pieces
another worker ran. An atomic's results (the value it leaves, the old value it returns)
depend only on the earlier values of its address, so a piece whose atomic addresses no
earlier piece wrote computed what the serial engine computes; plain writes are applied in
block order, the last one staying, as serially. Only commutative integer atomics are
logged (`atomics._COMMUTATIVE`); the others make a launch order-sensitive outright.
"""

from __future__ import annotations

import numpy as np

from .state import AtomicHits

ViewHits = tuple[int, int, str, np.ndarray]  # (view address, element size, buffer, indices)


def _views(hits: list[AtomicHits]) -> dict[tuple[int, int], list[AtomicHits]]:
    views: dict[tuple[int, int], list[AtomicHits]] = {}
    for hit in hits:
        views.setdefault((hit.address, hit.itemsize), []).append(hit)
    return views


def by_view(hits: list[AtomicHits]) -> list[ViewHits]:
    """One entry per view the atomics used: its distinct element indices, ascending."""
    return [(address, itemsize, group[0].name,
             np.unique(np.concatenate([h.flat for h in group])))
            for (address, itemsize), group in _views(hits).items()]


def shared_address(hits: list[AtomicHits]) -> str:
    """Why the atomics in `hits` depend on the order of blocks: two blocks' atomics met on
    an address ("" if none did). Run on the probe, it forecasts that the pieces' atomics
    would meet, so the launch stays here instead of forking for pieces it would redo."""
    for group in _views(hits).values():
        flat = np.concatenate([h.flat for h in group])
        order = np.argsort(flat, kind="stable")
        flat = flat[order]
        first = np.concatenate([h.first for h in group])[order]
        last = np.concatenate([h.last for h in group])[order]
        starts = np.flatnonzero(np.r_[True, flat[1:] != flat[:-1]])
        low = np.minimum.reduceat(first, starts)
        high = np.maximum.reduceat(last, starts)
        met = np.flatnonzero(low != high)
        if met.size:
            i = met[0]
            return (f"global atomics of blocks {low[i]} and {high[i]} on one address of "
                    f"'{group[0].name}' (element {flat[starts[i]]}): their results depend on "
                    "the order of blocks")
    return ""


class WrittenMemory:
    """Global memory the pieces applied so far wrote. Exact (a mask per view) once a launch
    showed atomics; before that only each write's byte span is kept, which costs nothing
    per element and can only see a meeting that did not happen (the piece then reruns in
    the launching process, which is exact too)."""

    def __init__(self, exact: bool) -> None:
        self.masks: dict[tuple[int, int], np.ndarray] | None = {} if exact else None
        self.spans: list[tuple[int, int]] = []  # [first byte, end) of writes kept coarse

    def add(self, address: int, itemsize: int, flat: np.ndarray, size: int) -> None:
        """Elements `flat` (ascending) of the `size`-element view at `address` were written."""
        if self.masks is None:
            self.spans.append((address + int(flat[0]) * itemsize,
                               address + (int(flat[-1]) + 1) * itemsize))
            return
        mask = self.masks.get((address, itemsize))
        if mask is None:
            mask = self.masks[(address, itemsize)] = np.zeros(size, bool)
        mask[flat] = True

    def met(self, address: int, itemsize: int, flat: np.ndarray) -> bool:
        """Whether any byte of elements `flat` of the view at `address` was written; from
        now on writes are kept exactly."""
        starts = address + flat.astype(np.int64) * itemsize
        ends = starts + itemsize
        hit = any(bool(((starts < hi) & (ends > lo)).any()) for lo, hi in self.spans)
        for (base, size), mask in (self.masks or {}).items():
            first = (starts - base) // size  # the written elements each atomic element spans
            last = (ends - 1 - base) // size
            for step in range(itemsize // size + 2):
                index = first + step
                valid = (index <= last) & (index >= 0) & (index < mask.size)
                hit = hit or bool(mask[index[valid]].any())
        if self.masks is None:
            self.masks = {}
        return hit
