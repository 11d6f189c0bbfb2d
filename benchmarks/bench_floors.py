"""The numpy floor of each speed-target row: the same computation, in the same batches and
steps as the emulator runs it, with nothing but the numpy passes that its model cannot do
without. A ratio to numpy below the floor's is out of reach for any numpy emulation of that
model; the emulator's distance above it is what checks, certification and bookkeeping cost.

- GEMM, exact model: per K step of 16, gather the batch's distinct A and B tiles from
  memory and decode f16 to float64 once each (waves at one address share a load), take
  every wave's pair, one batched float64 matmul, add the
  accumulator and round it to f32 (each mma_sync rounds D) — the certification that the
  float64 sum rounds like the exact one is left out, so this floor is below any exact model.
- GEMM, silicon model (CDNA3 fused dot, groups of 8 K positions): every product term is
  truncated on its own, so no BLAS: per group three whole-array passes over the products
  (einsum on K-major operands taken from the distinct tiles' K-major copy, tiles narrower
  than 32 as grids of block rows by block columns, as the emulator forms them; scale and
  truncate to int32 in one ufunc; the group's integer sum) and the few
  every output needs (its alignment exponent from one small float32 matmul of exponent
  weights, the scale from its bits, d aligned, floored, added, scaled back and rounded), in the
  emulator's cache-sized chunks, after the same loads as above; special values, the rare
  wide-d and subnormal cases and all bookkeeping left out.
- softmax + rms_norm: the kernels transliterated to numpy with the batch's lanes as array
  elements, one numpy call per kernel operation (the thread-linear loads and stores as
  strided views of a column block, as the emulator makes them; the xor shuffles as lane
  permutations); no index arithmetic, bounds checks, journal or masks.
- the per-wave engine: the silicon floor of one wave's 16x16x16 step, called per wave and
  step as that engine calls it.

`python benchmarks/bench_targets.py` prints each row's floor next to its measured ratio.
Timings are reported, never asserted.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

K_STEP = 16  # rocWMMA's block K in every GEMM row
GROUP = 8  # CDNA3 f16 fused-dot group (arch/models.py)
WARP = 32
clock = time.perf_counter  # bench_targets.py --cpu: time.process_time


@dataclass(frozen=True)
class Gemm:
    """A GEMM row's batch structure: `tiles` output tiles of tile x tile, K deep."""

    size: int
    tile: int
    staged: bool = False  # perf_hgemm: A and B pass through LDS (one more copy each)
    depth: int = 0  # K, when not `size` (a slice of a GEMM too long to time whole)

    @property
    def k(self) -> int:
        return self.depth or self.size

    @property
    def tiles(self) -> int:
        return (self.size // self.tile) ** 2


class Tiles(NamedTuple):
    """Where a GEMM row's first K step reads: flat indices of the distinct A tiles
    (per side, tile, K_STEP) in row-major A and B tiles (per side, K_STEP, tile) in
    col-major B (step k adds k * K_STEP), and each output tile's A and B tile (output
    tiles row-major over the grid)."""

    a_idx: np.ndarray
    b_idx: np.ndarray
    of_a: np.ndarray
    of_b: np.ndarray

    def wave(self, w: int) -> Tiles:
        """Output tile w's tiles alone (the per-wave engine loads nothing else)."""
        return Tiles(self.a_idx[self.of_a[w:w + 1]], self.b_idx[self.of_b[w:w + 1]],
                     np.zeros(1, np.intp), np.zeros(1, np.intp))


def _tile_indices(g: Gemm) -> Tiles:
    per_side = g.size // g.tile
    lines = np.arange(per_side)[:, None] * g.tile + np.arange(g.tile)[None, :]
    kk = np.arange(K_STEP)
    a_idx = lines[:, :, None] * g.size + kk[None, None, :]
    b_idx = lines[:, None, :] * g.size + kk[None, :, None]  # B col-major: a column's K contiguous
    of_a, of_b = np.divmod(np.arange(g.tiles), per_side)
    return Tiles(a_idx, b_idx, of_a, of_b)


def _operands(g: Gemm):
    rng = np.random.default_rng(g.size)
    a = rng.standard_normal(g.size * g.size).astype(np.float16)
    bt = rng.standard_normal(g.size * g.size).astype(np.float16)
    return a, bt


def _distinct_loads(g: Gemm, a, bt, tiles: Tiles, k0: int) -> tuple[np.ndarray, np.ndarray]:
    """One K step's distinct A and B tiles, each gathered and decoded once (and copied
    through LDS when staged): waves at one address share a load."""
    at, bk = a[tiles.a_idx + k0], bt[tiles.b_idx + k0]
    if g.staged:
        at, bk = at.copy(), bk.copy()
    return at.astype(np.float64), bk.astype(np.float64)


def _per_wave(tiles: Tiles, da: np.ndarray, db: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every output tile's A and B tile (or their weights) from the distinct ones."""
    return np.take(da, tiles.of_a, axis=0), np.take(db, tiles.of_b, axis=0)


def exact_gemm_floor(g: Gemm) -> Callable[[], np.ndarray]:
    a, bt = _operands(g)
    tiles = _tile_indices(g)

    def run() -> np.ndarray:
        acc = np.zeros((g.tiles, g.tile, g.tile), np.float32)
        for k0 in range(0, g.k, K_STEP):
            at, bk = _per_wave(tiles, *_distinct_loads(g, a, bt, tiles, k0))
            acc = (np.matmul(at, bk) + acc).astype(np.float32)
        return acc

    return run


# A's 2**(4e + 1) and B's 2**(4e) by a float64's sign and exponent field, float32 as the
# emulator's where every e(a) + e(b) lies in [-31, 30] (f16 values without zeros: these rows)
_FIELD_E = (np.arange(4096) & 2047) - 1023
with np.errstate(over="ignore", under="ignore"):  # (entries f16 values never index)
    _WEIGHTS_A, _WEIGHTS_B = (np.exp2(4.0 * _FIELD_E + extra).astype(np.float32)
                              for extra in (1, 0))


def _weights(x: np.ndarray, table: np.ndarray) -> np.ndarray:
    """`table`'s weight of each float64 x, one look-up by the sign and exponent field."""
    return table[x.view(np.uint64) >> 52]


def _k_major(x: np.ndarray, axes: tuple[int, int, int]) -> np.ndarray:
    """x (3-D float64) with its K axis first (`axes`), a contiguous float32 copy."""
    return np.ascontiguousarray(x.transpose(axes), np.float32)


_A_K, _B_K = (2, 0, 1), (1, 0, 2)  # A (T, M, K), B (T, K, N) -> K first


def _silicon_step(a_k: np.ndarray, b_k: np.ndarray, wa: np.ndarray, wb: np.ndarray,
                  d: np.ndarray, scratch: dict) -> None:
    """One K step of the fused dot with nothing but the passes it cannot do without, per
    group of GROUP K positions: every product term's three (its product, its scaled
    truncation to an integer in one ufunc with an int32 output, the group's integer sum),
    and every output's few: its alignment exponent E (one small float32 matmul of exponent
    weights, whose bits give E, as the emulator finds it), the scale 2**(24-E) (three
    integer passes on the bits and its float64 copy; the weights are one table look-up per
    distinct tile's element, `_weights`), and d aligned, floored, added to the sum, scaled
    back and rounded to f32 in place (five passes). Left out: special values, the rare
    wide-d and subnormal cases, and the emulator's bookkeeping. Tiles come as C grids of
    I x J (single tiles: I = J = 1), as the emulator forms them: `a_k` (K, C, I, M) and `b_k`
    (K, C, J, N) float32, K first and contiguous (the products by einsum, the emulator's
    fastest way), `wa` (C, I*M, K), `wb` (C, K, J*N), d (C, I, M, J, N)."""
    grids, i, m, j, n = d.shape
    shape = (GROUP, *d.shape)
    if scratch.get("shape") != shape:
        scratch.update(shape=shape, products=np.empty(shape, np.float32),
                       units=np.empty(shape, np.int32), sums=np.empty(shape[1:], np.int32),
                       weights=np.empty(shape[1:], np.float32),
                       bits=np.empty(shape[1:], np.int32),
                       scale=np.empty(shape[1:], np.float64),
                       d_units=np.empty(shape[1:], np.float64))
    weights, bits, d_units = scratch["weights"], scratch["bits"], scratch["d_units"]
    scale = scratch["scale"]
    for g0 in range(0, a_k.shape[0], GROUP):
        np.matmul(wa[..., g0:g0 + GROUP], wb[:, g0:g0 + GROUP],
                  out=weights.reshape(grids, i * m, j * n))
        np.right_shift(weights.view(np.int32), 25, out=bits)  # 32 + E
        np.subtract(127 + 24 + 32, bits, out=bits)
        bits <<= 23
        scale32 = bits.view(np.float32)  # 2**(24 - E)
        np.copyto(scale, scale32)
        np.einsum("gcim,gcjn->gcimjn", a_k[g0:g0 + GROUP], b_k[g0:g0 + GROUP],
                  out=scratch["products"])
        np.multiply(scratch["products"], scale32, out=scratch["units"], casting="unsafe")
        np.add.reduce(scratch["units"], axis=0, out=scratch["sums"])
        np.multiply(d, scale, out=d_units)
        np.floor(d_units, out=d_units)
        d_units += scratch["sums"]
        d_units /= scale
        np.copyto(d, d_units, casting="same_kind")


SHORT_ROW = 32  # tiles narrower than this are multiplied grid by grid, as the emulator does


def silicon_gemm_floor(g: Gemm) -> Callable[[], np.ndarray]:
    """Per K step the batch's loads, then the fused dot's passes (`_silicon_step`) in
    chunks of at most 2**18 product terms a group (the emulator's own chunk, near L2 size):
    tiles one by one, or, where they are narrower than `SHORT_ROW`, as the emulator forms
    them: a grid of the whole block rows that fit in a chunk against every block column,
    with d laid out as the output matrix itself."""
    a, bt = _operands(g)
    tiles = _tile_indices(g)
    side = g.size // g.tile
    grid = g.tile < SHORT_ROW
    per_chunk = max(1, (1 << 18) // (g.tile * g.tile * GROUP))
    rows = max(1, per_chunk // side) if grid else 0
    scratch: dict = {}
    a_buf, b_buf = (np.empty((K_STEP, min(per_chunk, g.tiles), g.tile), np.float32)
                    for _ in range(2))

    def grid_step(d, ka, kb, da, db) -> None:
        wa = _weights(da, _WEIGHTS_A)
        wb = _weights(db, _WEIGHTS_B).transpose(1, 0, 2).reshape(1, K_STEP, -1)
        b_k = kb.reshape(K_STEP, 1, side, g.tile)
        for r0 in range(0, side, rows):
            part = slice(r0, r0 + rows)
            count = len(range(side)[part])
            _silicon_step(ka[:, part].reshape(K_STEP, 1, count, g.tile), b_k,
                          wa[part].reshape(1, count * g.tile, K_STEP), wb,
                          d[part].reshape(1, count, g.tile, side, g.tile), scratch)

    def run() -> np.ndarray:
        d = np.zeros((side, g.tile, side, g.tile) if grid else (g.tiles, g.tile, g.tile),
                     np.float32)
        for k0 in range(0, g.k, K_STEP):
            da, db = _distinct_loads(g, a, bt, tiles, k0)
            ka, kb = _k_major(da, _A_K), _k_major(db, _B_K)  # (K, distinct tiles, M / N)
            if grid:  # (d: the output matrix, block row by block row)
                grid_step(d, ka, kb, da, db)
                continue
            wa, wb = _per_wave(tiles, _weights(da, _WEIGHTS_A), _weights(db, _WEIGHTS_B))
            for t0 in range(0, g.tiles, per_chunk):
                part = slice(t0, t0 + per_chunk)  # each chunk's K-major tiles by one take
                of_a, of_b = tiles.of_a[part], tiles.of_b[part]
                _silicon_step(
                    np.take(ka, of_a, axis=1, out=a_buf[:, :of_a.size])[:, :, None],
                    np.take(kb, of_b, axis=1, out=b_buf[:, :of_b.size])[:, :, None],
                    wa[part], wb[part], d[part][:, None, :, None], scratch)
        return d

    return run


def per_wave_floor(g: Gemm) -> Callable[[], None]:
    """The per-wave engine's calls: one 16x16 tile per wave, its own 16x16x16 steps."""
    a, bt = _operands(g)
    tiles = _tile_indices(g)
    scratch: dict = {}

    def run() -> None:
        d = np.zeros((g.tiles, g.tile, g.tile), np.float32)
        for w in range(g.tiles):
            own = tiles.wave(w)
            for k0 in range(0, g.k, K_STEP):
                at, bk = _distinct_loads(g, a, bt, own, k0)
                _silicon_step(_k_major(at, _A_K)[:, :, None], _k_major(bk, _B_K)[:, :, None],
                              _weights(at, _WEIGHTS_A), _weights(bk, _WEIGHTS_B),
                              d[w:w + 1, None, :, None], scratch)

    return run


BIG_DEPTH = 256  # the 7168^3 floor is timed over K = 256 and scaled to the whole K


def big_gemm_floor(size: int) -> tuple[Callable[[], np.ndarray], float]:
    """perf_hgemm at size^3 on the samples' integer data, where the silicon model's chain is
    provably exact, so its floor is the exact one: (a K slice of it, the factor to the whole
    K — the time is linear in K)."""
    depth = min(size, BIG_DEPTH)
    return exact_gemm_floor(Gemm(size, 64, staged=True, depth=depth)), size / depth


def _xor_reduce(v: np.ndarray, op) -> np.ndarray:
    """The kernels' __shfl_xor_sync butterfly over the lanes (axis 1)."""
    lane = np.arange(WARP)
    mask = WARP // 2
    while mask:
        v = op(v, v[:, lane ^ mask])
        mask //= 2
    return v


def _columns(x: np.ndarray) -> Callable[[int], np.ndarray]:
    """The lanes' elements of thread-linear index `row * ncols + col + tid` in rows x ncols
    x: column block col of every row, a strided view (as the emulator reads and writes it)."""
    return lambda col: x[:, col:col + WARP]


def softmax_floor(x: np.ndarray) -> Callable[[], np.ndarray]:
    """samples/cuda/softmax.py's soft_max, one numpy call per kernel operation."""
    rows, ncols = x.shape
    dst = np.empty_like(x)
    src_at, dst_at = _columns(x), _columns(dst)
    scale = np.float32(1.0)

    def run() -> np.ndarray:
        max_val = np.full((rows, WARP), -np.inf, np.float32)
        for col in range(0, ncols, WARP):
            val = src_at(col) * scale
            dst_at(col)[...] = val
            max_val = np.fmax(max_val, val)
        max_val = _xor_reduce(max_val, np.fmax)
        tmp = np.zeros((rows, WARP), np.float32)
        for col in range(0, ncols, WARP):
            val = np.exp(dst_at(col) - max_val)
            tmp = tmp + val
            dst_at(col)[...] = val
        inv_sum = np.float32(1) / _xor_reduce(tmp, np.add)
        for col in range(0, ncols, WARP):
            dst_at(col)[...] = dst_at(col) * inv_sum
        return dst

    return run


def rms_norm_floor(x: np.ndarray) -> Callable[[], np.ndarray]:
    """samples/cuda/rms_norm.py's rms_norm, one numpy call per kernel operation."""
    rows, ncols = x.shape
    dst = np.empty_like(x)
    src_at, dst_at = _columns(x), _columns(dst)
    eps = np.float32(1e-6)

    def run() -> np.ndarray:
        tmp = np.zeros((rows, WARP), np.float32)
        for col in range(0, ncols, WARP):
            v = src_at(col)
            tmp = tmp + v * v
        tmp = _xor_reduce(tmp, np.add)
        scale = np.float32(1) / np.sqrt(tmp / np.float32(ncols) + eps)
        for col in range(0, ncols, WARP):
            dst_at(col)[...] = scale * src_at(col)
        return dst

    return run


def softmax_rms_norm_floor(rows: int, cols: int = 4096) -> Callable[[], None]:
    x = np.random.default_rng(rows).standard_normal((rows, cols)).astype(np.float32)
    soft, norm = softmax_floor(x), rms_norm_floor(x)
    return lambda: (soft(), norm())


# workload text of bench_targets.py's rows (matched by prefix) -> model -> floor builder
FLOORS: dict[str, dict[str, Callable[[int], Callable[[], object]]]] = {
    "wave tile 64x64": {"exact": lambda n: exact_gemm_floor(Gemm(n, 64)),
                        "silicon": lambda n: silicon_gemm_floor(Gemm(n, 64))},
    "simple_hgemm": {"exact": lambda n: exact_gemm_floor(Gemm(n, 16)),
                     "silicon": lambda n: silicon_gemm_floor(Gemm(n, 16))},
    "perf_hgemm, ": {"exact": lambda n: exact_gemm_floor(Gemm(n, 64, staged=True)),
                     "silicon": lambda n: silicon_gemm_floor(Gemm(n, 64, staged=True))},
    "gfx1100 wave tile": {"exact": lambda n: exact_gemm_floor(Gemm(n, 64))},
    "softmax + rms_norm": {"silicon": softmax_rms_norm_floor},
    "per-wave engine": {"silicon": lambda n: per_wave_floor(Gemm(n, 16))},
}


def floor_for(workload: str, model: str) -> Callable[[int], Callable[[], object]] | None:
    """The floor builder of a bench_targets row, or None."""
    for prefix, models in FLOORS.items():
        if workload.startswith(prefix):
            return models.get(model)
    return None


def median_time(fn: Callable[[], object], repeats: int) -> float:
    fn()  # warm: index arrays and allocations settle
    times = []
    for _ in range(repeats):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return statistics.median(times)
