"""Per-thread work buffers of the numerics, reused from call to call.

A fresh temporary of a batch's size costs a page fault per 4 KiB on every call, which
dominates the memory-bound passes of an instruction step; a named buffer kept per thread
(threads of the per-wave engine compute at the same time) costs them once.
"""

from __future__ import annotations

import math
import threading

import numpy as np

_local = threading.local()


def scratch(name: str, shape: tuple[int, ...], dtype) -> np.ndarray:
    """A C-contiguous array of this shape and dtype, contents undefined, valid until the next
    request for the same name and dtype in this thread."""
    try:
        pool = _local.pool
    except AttributeError:
        pool = _local.pool = {}
    key = (name, dtype)  # (a type and its np.dtype are two keys: two buffers, both valid)
    entry = pool.get(key)
    if entry is not None and entry[1] == shape:
        return entry[2]  # the same view again (most requests: no new array object)
    size = math.prod(shape)
    buf = None if entry is None else entry[0]
    if buf is None or buf.size < size:
        buf = np.empty(max(size, 1), dtype)
    view = buf[:size].reshape(shape)
    pool[key] = (buf, shape, view)
    return view


def trim(limit: int) -> None:
    """Drop this thread's buffers if they hold more than `limit` bytes: a pooled wave thread
    going idle keeps a per-wave engine's small ones, not a batch's chunk-sized ones."""
    pool = getattr(_local, "pool", None)
    if pool is not None and sum(entry[0].nbytes for entry in pool.values()) > limit:
        del _local.pool
