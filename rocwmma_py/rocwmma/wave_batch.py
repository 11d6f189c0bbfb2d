"""Fragment registers of a batch of waves: index maps applied to every wave in one gather.

`frag.x` is (elements, n * W): element e of lane l of wave w sits at [e, w * W + l]. A
register map gives per-wave positions p = e * W + l (`FragmentMap.flat` / `.inverse`); the
functions here apply such a per-wave map to all n waves at once, so loads, stores, mma_sync
and transforms stay a numpy call or two each (`take`: faster than indexing).
"""

from __future__ import annotations

import numpy as np

from ..runtime.state import current_context_or_none

_MAX_CACHED = 512
_cache: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}


def lanes_now(wave_size: int) -> int:
    """Length of a per-lane value here: all lanes of the running batch (one wave outside);
    fragments hold whole waves (a narrow batch reruns with them)."""
    ctx = current_context_or_none()
    if ctx is None:
        return wave_size
    ctx.whole_waves()
    return ctx.lanes


def _cached(kind: str, key_array: np.ndarray, n: int, build) -> np.ndarray:
    """Index arrays derived from a cached map array, keyed by its identity (kept alive)."""
    key = (kind, id(key_array), n)
    hit = _cache.get(key)
    if hit is not None and hit[0] is key_array:
        return hit[1]
    if len(_cache) >= _MAX_CACHED:
        _cache.clear()
    index = build()
    _cache[key] = (key_array, index)
    return index


def to_waves(x: np.ndarray, positions: np.ndarray, wave: int) -> np.ndarray:
    """out[w][...] = (wave w's registers).ravel()[positions[...]]; shape (n, *positions).
    Each wave's registers are made contiguous first (a copy of whole lane rows), so the
    gather then reads through the small per-wave map instead of a batch-sized index."""
    n = x.shape[1] // wave
    per_wave = np.ascontiguousarray(x.reshape(x.shape[0], n, wave).transpose(1, 0, 2))
    return per_wave.reshape(n, -1).take(positions, axis=1)


def from_waves(y: np.ndarray, positions: np.ndarray, wave: int) -> np.ndarray:
    """Registers x (E, n*W) with x[e, w*W + l] = y[w].ravel()[positions[e, l]]."""
    n = y.shape[0]
    block = y.size // n

    def build() -> np.ndarray:
        index = positions[:, None, :] + (np.arange(n) * block)[None, :, None]
        return index.reshape(positions.shape[0], n * wave)

    return y.reshape(-1).take(_cached(f"from{block}", positions, n, build))


def register_rows(positions: np.ndarray, wave: int) -> np.ndarray | None:
    """`rows` when a per-wave map (E', W) keeps every register in its lane and takes each of
    its rows from one source row (positions[e', l] = rows[e'] * W + l): applied to a batch,
    it then moves whole rows of registers. None for any other map. Cached per map array."""

    def build() -> np.ndarray | None:
        if positions.ndim != 2 or positions.shape[1] != wave:
            return None
        rows = positions[:, 0] // wave
        lanes = np.arange(wave)
        return rows if np.array_equal(positions, rows[:, None] * wave + lanes) else None

    return _cached("rows", positions, 0, build)
