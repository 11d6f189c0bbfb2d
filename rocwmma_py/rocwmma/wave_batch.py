"""Fragment registers of a batch of waves: index maps applied to every wave in one gather.

`frag.x` is (elements, n * W): element e of lane l of wave w sits at [e, w * W + l]. A
register map gives per-wave positions p = e * W + l (`FragmentMap.flat` / `.inverse`); the
functions here turn such a per-wave map into one flat index over all n waves, cached per
(map, batch size), so loads, stores, mma_sync and transforms stay one numpy call each
(`take`: faster than indexing with the same array).
"""

from __future__ import annotations

import numpy as np

from ..runtime.state import current_context_or_none

_MAX_CACHED = 512
_cache: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}


def lanes_now(wave_size: int) -> int:
    """Length of a per-lane value here: all lanes of the running batch (one wave outside)."""
    ctx = current_context_or_none()
    return ctx.lanes if ctx is not None else wave_size


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
    """out[w][...] = (wave w's registers).ravel()[positions[...]]; shape (n, *positions)."""
    n = x.shape[1] // wave

    def build() -> np.ndarray:
        e, lane = np.divmod(positions, wave)
        waves = np.arange(n).reshape((n,) + (1,) * positions.ndim)
        return e * (n * wave) + waves * wave + lane

    return x.reshape(-1).take(_cached("to", positions, n, build))


def from_waves(y: np.ndarray, positions: np.ndarray, wave: int) -> np.ndarray:
    """Registers x (E, n*W) with x[e, w*W + l] = y[w].ravel()[positions[e, l]]."""
    n = y.shape[0]
    block = y.size // n

    def build() -> np.ndarray:
        index = positions[:, None, :] + (np.arange(n) * block)[None, :, None]
        return index.reshape(positions.shape[0], n * wave)

    return y.reshape(-1).take(_cached(f"from{block}", positions, n, build))
