"""rocWMMA 2.x fragment register layouts as index maps (rocwmma-notes §2).

For one (arch, matrix, FragM/N/K, DataT, DataLayout, scheduler, wave share) a `FragmentMap`
gives `row[e, lane]` and `col[e, lane]`: the matrix element held in element `e` of `frag.x`
by each lane. Loads gather through it, stores scatter, mma gathers dense blocks.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np

from .. import types as T
from ..errors import LayoutError
from .tags import accumulator, col_major, matrix_a, matrix_b, row_major


def next_multiple(x: int, m: int) -> int:
    """The smallest multiple of m that is >= x: next_multiple(20, 16) == 32."""
    return -(-x // m) * m


def padded_dims(m: int, n: int, k: int, dtype, wave: int) -> tuple[int, int, int]:
    """Partial-fragment padding of FragM/N/K to BlockM/N/K (rocwmma-notes §6.1, IOTile)."""
    nbytes = T.bits(dtype) // 8
    mept = -(-4 // nbytes)  # min elements per thread: one 32-bit register
    mepf = wave * mept
    min_k = max(mept, mepf // next_multiple(m, 16), mepf // next_multiple(n, 16))
    if (m * k) % mepf or (n * k) % mepf or (m * n) % mepf:
        return next_multiple(m, 16), next_multiple(n, 16), next_multiple(k, min_k)
    return m, n, k


@dataclass(frozen=True)
class Geometry:
    """IOShape of a fragment: BlockDim x KDim per matrix context (§2.1), padded sizes."""

    matrix: type
    block_m: int
    block_n: int
    block_k: int

    @property
    def block_dim(self) -> int:
        return self.block_m if self.matrix is matrix_a else self.block_n

    @property
    def k_dim(self) -> int:
        return self.block_m if self.matrix is accumulator else self.block_k

    @property
    def height(self) -> int:
        return self.block_k if self.matrix is matrix_b else self.block_m

    @property
    def width(self) -> int:
        return self.block_k if self.matrix is matrix_a else self.block_n



@dataclass(frozen=True, eq=False)
class FragmentMap:
    """`row/col[e, lane]` of one wave's share of a fragment, in fragment-local coordinates."""

    row: np.ndarray
    col: np.ndarray
    height: int
    width: int

    @property
    def num_elements(self) -> int:
        return self.row.shape[0]

    def offsets(self, ldm: int, layout: type) -> np.ndarray:
        """Element offsets from the fragment origin in memory of the given data layout."""
        if layout is row_major:
            return self.row * ldm + self.col
        return self.col * ldm + self.row

    @cached_property
    def flat(self) -> np.ndarray:
        """row * width + col: position in the dense height x width block."""
        return self.row * self.width + self.col

    @cached_property
    def inverse(self) -> np.ndarray:
        """Flat index into x of every element of the dense block; -1 where this share of a
        cooperative fragment does not hold it."""
        inv = np.full(self.height * self.width, -1, dtype=np.int64)
        inv[self.flat.ravel()] = np.arange(self.flat.size)
        return inv.reshape(self.height, self.width)


def mma_dim(block_dim: int, nbytes: int, limit: int = 32) -> int:
    """rocWMMA 2.x `MmaDimSelector<BlockDim, DataT>`: 16 for BlockDim >= 16 (interleaved
    layouts cap it at 16); below 16 it halves from BlockDim while a lane's BlockDim share
    (BlockDim / MmaDim elements) is under half the block, which ends at 2 (1 for BlockDim 1)."""
    if limit == 0:
        return 1
    test = min(block_dim, limit)
    per_thread = block_dim // test * nbytes
    if test < 16:
        if per_thread < block_dim // 2 * nbytes:
            return mma_dim(block_dim, nbytes, test // 2)
        return test
    return 16


def input_map(geom: Geometry, layout: type, wave: int, wave_count: int, share: int,
              nbytes: int = 2):
    """A/B (and cooperative or narrow accumulators): §2.4 interleaved layouts, §2.9 SplitK.

    The block dimension is covered by MmaDim lanes (`mma_dim`: 16, or 2 for a block narrower
    than 16, reachable by load/store-only fragments). A lane owns BlockDim positions
    c*DPT + d and K positions h*KPT + k of its wave's share; the element order is AOS
    (e = k*DPT + d) along the memory-contiguous BlockDim direction, SOA (e = d*KPT + k) along K.
    """
    block_dim, k_dim = geom.block_dim, geom.k_dim
    mma = mma_dim(block_dim, nbytes)
    if block_dim % mma:
        raise LayoutError(f"{block_dim}x{k_dim} block: BlockDim={block_dim} is not a multiple "
                          f"of rocWMMA's MmaDim {mma}")
    dpt = block_dim // mma
    if (k_dim * mma) % (wave * wave_count):
        hint = " or a scheduler with fewer waves" if wave_count > 1 else ""
        raise LayoutError(
            f"{block_dim}x{k_dim} block: KDim={k_dim} does not spread over "
            f"{wave * wave_count // mma} groups of {mma} lanes; try a bigger block size"
            + hint
        )
    kpt = k_dim * mma // (wave * wave_count)
    lane = np.arange(wave)
    c, h = lane % mma, lane // mma
    d, k = np.meshgrid(np.arange(dpt), np.arange(kpt), indexing="ij")  # (dpt, kpt)
    x = c[None, None, :] * dpt + d[..., None]
    y = share * (k_dim // wave_count) + h[None, None, :] * kpt + k[..., None]
    # BlockDim runs along memory for A col_major, B row_major, Acc row_major: AOS order.
    aos = (geom.matrix is matrix_a) == (layout is col_major)
    order = (1, 0, 2) if aos else (0, 1, 2)  # e = k*DPT + d  or  e = d*KPT + k
    x = x.transpose(order).reshape(-1, wave)
    y = y.transpose(order).reshape(-1, wave)
    row, col = (x, y) if geom.matrix is matrix_a else (y, x)
    return FragmentMap(row, col, geom.height, geom.width)


# Native 16x16 accumulator position (i, j) of register r in lane (h, c), §2.6, per layout
# (an `Arch`'s `acc_layout` / `acc_layout_f64` column names one).
NATIVE_ACC = {
    "mfma": lambda h, c, r: (4 * h + r, c),
    "mfma-f64": lambda h, c, r: (h + 4 * r, c),
    "wmma11": lambda h, c, r: (2 * r + h, c),
    "wmma12": lambda h, c, r: (8 * h + r, c),
}


def accumulator_map(geom: Geometry, acc_layout: str, wave: int) -> FragmentMap:
    """ACC_INT_A_MAJOR (§2.6): e = (bm*BlocksN + bn)*R + r; row = i*BlocksM + bm."""
    m, n = geom.block_m, geom.block_n
    if m % 16 or n % 16:
        why = (" (rocWMMA 2.x's ACC_INT_A_MAJOR order needs whole 16-row MMA blocks: with "
               "fewer than 16 rows its transform has no block to interleave and does not "
               "compile)" if m < 16 else "")
        raise LayoutError(f"accumulator {m}x{n} is not a multiple of 16x16{why}")
    blocks_m, blocks_n, regs = m // 16, n // 16, 256 // wave
    lane = np.arange(wave)
    c, h = lane % 16, lane // 16
    bm, bn, r = np.meshgrid(np.arange(blocks_m), np.arange(blocks_n), np.arange(regs),
                            indexing="ij")
    i, j = NATIVE_ACC[acc_layout](h[None, :], c[None, :], r.reshape(-1, 1))
    row = i * blocks_m + bm.reshape(-1, 1)
    col = j * blocks_n + bn.reshape(-1, 1)
    return FragmentMap(row, col, m, n)


@cache
def fragment_map(matrix, m, n, k, dtype, layout, acc_layout, wave, wave_count=1, share=0):
    """The (cached) map of one wave's share of a fragment."""
    geom = Geometry(matrix, m, n, k)
    nbytes = max(1, T.bits(dtype) // 8)
    if matrix is accumulator and wave_count == 1:
        if n < 16:
            return narrow_accumulator_map(geom, layout, wave, nbytes)
        return accumulator_map(geom, acc_layout, wave)
    return input_map(geom, layout or row_major, wave, wave_count, share, nbytes)


def narrow_accumulator_map(geom: Geometry, layout, wave: int, nbytes: int) -> FragmentMap:
    """An accumulator narrower than 16 columns (32x8, 64x8, ... as rocWMMA's map_util_test
    builds them): its MmaDim is 2 (`mma_dim`), for which rocWMMA 2.x has no ACC_INT_A_MAJOR
    transform, so the registers keep the storage order of its RowInlineInt (row_major, AOS)
    or RowOrthoInt (col_major, SOA) load layout: row = h*KPT + k, col = c*DPT + d."""
    if layout is None:
        raise LayoutError(
            f"accumulator {geom.block_m}x{geom.block_n}: narrower than 16 columns, rocWMMA "
            "keeps its registers in the order of its load layout, so it needs DataLayoutT "
            "row_major or col_major (a void layout has no register order)")
    return input_map(geom, layout, wave, 1, 0, nbytes)
