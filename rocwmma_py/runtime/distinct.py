"""Distinct integer indices by sorting: numpy 2.3+ answers `np.unique` with a hash table
that is 10-40x slower than a sort on the index sets the runtime dedups (a sparse journal's
compaction, last-writer-wins scatters), and `return_index` falls back to a slower stable sort."""

from __future__ import annotations

import numpy as np


def _heads(ordered: np.ndarray) -> np.ndarray:
    """First element of each run of equal values in a sorted array."""
    head = np.empty(ordered.size, bool)
    head[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=head[1:])
    return head


def _increasing(values: np.ndarray) -> bool:
    """Strictly increasing (already distinct and sorted): a contiguous store's addresses,
    the common case, checked in one pass instead of sorted."""
    return bool(values.size < 2 or (values[1:] > values[:-1]).all())


def distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values, ascending (`np.unique(values)`)."""
    values = values.reshape(-1)
    if _increasing(values):
        return values.copy()
    ordered = np.sort(values)
    return ordered[_heads(ordered)]


def first_occurrences(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(distinct values ascending, index of each one's first occurrence), as
    `np.unique(values, return_index=True)`."""
    if _increasing(values):
        return values.copy(), np.arange(values.size)
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    head = _heads(ordered)
    return ordered[head], order[head]


def positions(values: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """(distinct values, each value's position among them): `values[i] == distinct[at[i]]`,
    as `np.unique(values, return_inverse=True)`; `(values, None)` where every value is
    distinct already (the positions are then the identity)."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    head = _heads(ordered)
    if head.all():
        return values, None
    where = np.empty(values.size, np.intp)
    where[order] = np.cumsum(head) - 1
    return ordered[head], where
