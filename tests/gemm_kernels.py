"""rocWMMA's test GEMM kernels written with the rocwmma_py API, and an exact host reference.

Kernels (rocwmma-notes §5.3; rocWMMA `test/gemm/*/device/kernel_device_func.hpp`):

* `gemm_sb_nc(...)`  -> `gemm_PGR0_LB0_MP0_SB_NC`: one BlockM x BlockN output block per wave,
  K loop (synchronize_workgroup, load A, load B, mma_sync), then load C as an accumulator,
  `D = OutputT(alpha * ComputeT(acc.x[i]) + beta * ComputeT(c.x[i]))`, store D.
* `gemm_mb_nc(...)`  -> `gemm_PGR0_LB0_MP0_MB_NC`: BlocksX x BlocksY output blocks per wave,
  each with its own accumulator fragment (as rocWMMA: `FragAcc fragsAccum[BlocksX][BlocksY]`,
  B fragments cached per K step, one A fragment re-used across the row of blocks).
* `gemm_wave_tile(...)`: one (BlocksX*BlockM) x (BlocksY*BlockN) wave-tile fragment per wave
  (the style of rocWMMA's perf samples); the library computes it as interleaved 16x16 blocks.
* `mma_store(...)`: D = A*B + C through mma_sync only (C loaded as the accumulator, the
  accumulator stored as is) for numerics cases that must not go through an epilogue.

Kernel factories take the C++ template parameters and are cached (one "instantiation" per
parameter set); fragment classes come from the module-level cached `gemm_fragments`.

Reference (`gemm_reference`): exact A*B in float64 / int64 (inputs are small integers, so
every product and sum is exact), then the epilogue in ComputeT arithmetic and the cast to
OutputT, as C++ does it. `compare_equal` is rocWMMA's compareEqual rule. Nothing here uses
rocwmma_py to compute a reference value: element types come from numpy / ml_dtypes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import ml_dtypes
import numpy as np

from rocwmma_py import (
    MappingUtil,
    accumulator,
    bfloat8,
    bfloat8_fnuz,
    bfloat16,
    col_major,
    fill_fragment,
    float8,
    float8_fnuz,
    float16,
    float32,
    float64,
    fragment,
    int8,
    int32,
    kernel,
    load_matrix_sync,
    make_coord2d,
    matrix_a,
    matrix_b,
    mma_sync,
    row_major,
    store_matrix_sync,
    synchronize_workgroup,
    uint8,
    xfloat32,
)
from rocwmma_py import types as T

# ---------------------------------------------------------------------------------------------
# Element types, written out independently of rocwmma_py (storage dtype, significand bits p,
# numeric_limits<T>::epsilon(), signedness). Integers: p None, epsilon 0 as in C++.
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Elem:
    short: str
    api: object  # the rocwmma_py type object used in fragment[...]
    storage: np.dtype
    p: int | None  # significand bits (None: integer)
    eps: float  # std::numeric_limits<T>::epsilon()
    signed: bool
    size: int  # sizeof(T) in C++


ELEMS = {
    e.short: e
    for e in (
        Elem("f16", float16, np.dtype(np.float16), 11, 2.0**-10, True, 2),
        Elem("bf16", bfloat16, np.dtype(ml_dtypes.bfloat16), 8, 2.0**-7, True, 2),
        Elem("f32", float32, np.dtype(np.float32), 24, 2.0**-23, True, 4),
        Elem("f64", float64, np.dtype(np.float64), 53, 2.0**-52, True, 8),
        # rocwmma_xfloat32: 10 stored mantissa bits, f32 container, epsilon() = FLT_EPSILON
        Elem("xf32", xfloat32, np.dtype(np.float32), 11, 2.0**-23, True, 4),
        Elem("f8", float8, np.dtype(ml_dtypes.float8_e4m3fn), 4, 2.0**-3, True, 1),
        Elem("bf8", bfloat8, np.dtype(ml_dtypes.float8_e5m2), 3, 2.0**-2, True, 1),
        Elem("f8_fnuz", float8_fnuz, np.dtype(ml_dtypes.float8_e4m3fnuz), 4, 2.0**-3, True, 1),
        Elem("bf8_fnuz", bfloat8_fnuz, np.dtype(ml_dtypes.float8_e5m2fnuz), 3, 2.0**-2, True, 1),
        Elem("i8", int8, np.dtype(np.int8), None, 0.0, True, 1),
        Elem("u8", uint8, np.dtype(np.uint8), None, 0.0, False, 1),
        Elem("i32", int32, np.dtype(np.int32), None, 0.0, True, 4),
    )
}

# <InputT, OutputT, ComputeT> sets of the brief (rocWMMA's gemm test type lists).
TYPE_SETS = (
    "f16_f32_f32",
    "f16_f16_f16",
    "bf16_f32_f32",
    "bf16_bf16_bf16",
    "i8_i32_i32",
    "f32_f32_f32",
    "f64_f64_f64",
    "xf32_f32_f32",
    "f8_f32_f32",
    "bf8_f32_f32",
    "u8_i32_i32",
)

ARCHS = ("gfx908", "gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1200")
RDNA35 = ("gfx1103", "gfx1150", "gfx1151", "gfx1152", "gfx1153")  # gfx1100's matrix cores
NEW_WMMA = ("gfx1170", "gfx1250", "gfx1251")  # RDNA4's set; GFX12.5 (own K=32..128 set)
WAVE_SIZE = {"gfx908": 64, "gfx90a": 64, "gfx942": 64, "gfx950": 64, "gfx1100": 32,
             "gfx1200": 32, **dict.fromkeys(RDNA35, 32), **dict.fromkeys(NEW_WMMA, 32)}
FAMILY = {"gfx908": "gfx9", "gfx90a": "gfx9", "gfx942": "gfx9", "gfx950": "gfx9",
          "gfx1100": "gfx11", "gfx1200": "gfx12", **dict.fromkeys(RDNA35, "gfx11"),
          "gfx1170": "gfx12", "gfx1250": "gfx1250", "gfx1251": "gfx1250"}

_COMMON = ("f16_f32_f32", "f16_f16_f16", "bf16_f32_f32", "bf16_bf16_bf16", "i8_i32_i32")
# Which type sets each arch runs (rocwmma-notes §3.2/3.3 and the §5.3 predicates).
ARCH_TYPE_SETS = {
    "gfx908": _COMMON + ("f32_f32_f32",),
    "gfx90a": _COMMON + ("f32_f32_f32", "f64_f64_f64"),
    "gfx942": _COMMON + ("f32_f32_f32", "f64_f64_f64", "xf32_f32_f32", "f8_f32_f32",
                         "bf8_f32_f32"),
    "gfx950": _COMMON + ("f32_f32_f32", "f64_f64_f64", "f8_f32_f32", "bf8_f32_f32"),
    "gfx1100": _COMMON,
    "gfx1200": _COMMON + ("f8_f32_f32", "bf8_f32_f32", "u8_i32_i32"),
}


@dataclass(frozen=True)
class TypeSet:
    name: str
    input: Elem
    output: Elem
    compute: Elem

    @property
    def tolerance(self) -> float:
        """rocWMMA validateResults: 10, or 100 when sizeof(ComputeT) < 4."""
        return 100.0 if self.compute.size < 4 else 10.0


def type_set(name: str, arch: str) -> TypeSet:
    """The concrete types of `name` on `arch`: f8/bf8 are NANOO (fnuz) on gfx942, OCP elsewhere."""
    i, o, c = name.split("_")
    if i in ("f8", "bf8") and arch == "gfx942":
        i += "_fnuz"
    return TypeSet(name, ELEMS[i], ELEMS[o], ELEMS[c])


def block_sizes(arch: str, types: str) -> list[tuple[int, int, int]]:
    """(BlockM, BlockN, BlockK): 16x16 with K {16, 32, 64}; 32x32 with K {16, 32} on gfx9
    (not f64, which rocWMMA tests only at 16x16)."""
    sizes = [(16, 16, k) for k in (16, 32, 64)]
    if FAMILY[arch] == "gfx9" and types != "f64_f64_f64":
        sizes += [(32, 32, k) for k in (16, 32)]
    return sizes


LAYOUT_TAGS = {"N": col_major, "T": row_major}  # rocWMMA test naming: N = col_major
AB_LAYOUTS = ("NN", "NT", "TN", "TT")
THREAD_BLOCKS = ((1, 4), (2, 2), (4, 1))  # (TBX / W, TBY): (W,4), (2W,2), (4W,1)


# ---------------------------------------------------------------------------------------------
# Fragments (module-level, cached per parameter set) and kernels
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GemmFragments:
    FragA: type
    FragB: type
    FragC: type
    FragAcc: type


@cache
def gemm_fragments(block_m, block_n, block_k, input_t, output_t, compute_t, layout_a, layout_b,
                   layout_c, layout_d) -> GemmFragments:
    """rocWMMA's `using FragA = fragment<matrix_a, BlockM, BlockN, BlockK, InputT, LayoutA>` etc."""
    return GemmFragments(
        FragA=fragment[matrix_a, block_m, block_n, block_k, input_t, layout_a],
        FragB=fragment[matrix_b, block_m, block_n, block_k, input_t, layout_b],
        FragC=fragment[accumulator, block_m, block_n, block_k, output_t, layout_c],
        FragAcc=fragment[accumulator, block_m, block_n, block_k, compute_t, layout_d],
    )


def _epilogue(frag_c, frag_acc, alpha, beta, output_t, compute_t) -> None:
    """for i < num_elements: c.x[i] = OutputT(alpha * ComputeT(acc.x[i]) + beta * ComputeT(c.x[i]))

    One register (all lanes) per step, like the unrolled C++ loop; alpha and beta are numpy
    scalars of ComputeT, so numpy does the arithmetic in ComputeT (int32 wraps)."""
    for i in range(frag_c.num_elements):
        value = alpha * T.convert(frag_acc.x[i], compute_t) + beta * T.convert(frag_c.x[i],
                                                                               compute_t)
        frag_c.x[i] = T.convert(value, output_t)


@cache
def gemm_sb_nc(block_m, block_n, block_k, input_t, output_t, compute_t, layout_a, layout_b,
               layout_c, layout_d=None):
    """gemm_PGR0_LB0_MP0_SB_NC<BlockM, BlockN, BlockK, InputT, OutputT, ComputeT, LayoutA,
    LayoutB, LayoutC, LayoutD>: one output block per wave, no LDS."""
    layout_d = layout_d or layout_c
    f = gemm_fragments(block_m, block_n, block_k, input_t, output_t, compute_t, layout_a,
                       layout_b, layout_c, layout_d)
    mapping_a = MappingUtil[block_m, block_k, input_t, layout_a]
    mapping_b = MappingUtil[block_k, block_n, input_t, layout_b]
    mapping_c = MappingUtil[block_m, block_n, output_t, layout_c]
    mapping_d = MappingUtil[block_m, block_n, output_t, layout_d]

    @kernel
    def gemm_PGR0_LB0_MP0_SB_NC(m, n, k, a, b, c, d, lda, ldb, ldc, ldd, alpha, beta):  # noqa: N802
        # Target C / D block on 2D grid
        coord_c = mapping_c.matrixCoord()
        if coord_c[0] + block_m > m or coord_c[1] + block_n > n:
            return
        if block_k > k:
            return

        frag_acc = f.FragAcc()
        fill_fragment(frag_acc, 0)

        # Offset A to col 0, B to row 0
        addr_a = mapping_a.dataCoord(a, mapping_c.matrixCoordN(0), lda)
        addr_b = mapping_b.dataCoord(b, mapping_c.matrixCoordM(0), ldb)
        incr_a = mapping_a.dataOffset(make_coord2d(0, block_k), lda)
        incr_b = mapping_b.dataOffset(make_coord2d(block_k, 0), ldb)

        for _ in range(k // block_k):
            synchronize_workgroup()
            frag_a, frag_b = f.FragA(), f.FragB()
            load_matrix_sync(frag_a, addr_a, lda)
            load_matrix_sync(frag_b, addr_b, ldb)
            mma_sync(frag_acc, frag_a, frag_b, frag_acc)
            addr_a += incr_a
            addr_b += incr_b

        frag_c = f.FragC()
        load_matrix_sync(frag_c, mapping_c.dataCoord(c, coord_c, ldc), ldc)
        _epilogue(frag_c, frag_acc, alpha, beta, output_t, compute_t)
        store_matrix_sync(mapping_d.dataCoord(d, coord_c, ldd), frag_c, ldd)

    return gemm_PGR0_LB0_MP0_SB_NC


@cache
def gemm_mb_nc(block_m, block_n, block_k, input_t, output_t, compute_t, layout_a, layout_b,
               layout_c, layout_d=None, blocks_x=1, blocks_y=1):
    """gemm_PGR0_LB0_MP0_MB_NC<..., BlocksX, BlocksY>: BlocksX x BlocksY output blocks per
    wave, each its own accumulator fragment (rocWMMA's structure, not one wave tile)."""
    layout_d = layout_d or layout_c
    f = gemm_fragments(block_m, block_n, block_k, input_t, output_t, compute_t, layout_a,
                       layout_b, layout_c, layout_d)
    mapping_a = MappingUtil[block_m, block_k, input_t, layout_a]
    mapping_b = MappingUtil[block_k, block_n, input_t, layout_b]
    mapping_c = MappingUtil[block_m, block_n, output_t, layout_c]
    mapping_d = MappingUtil[block_m, block_n, output_t, layout_d]
    bx, by = blocks_x, blocks_y

    @kernel
    def gemm_PGR0_LB0_MP0_MB_NC(m, n, k, a, b, c, d, lda, ldb, ldc, ldd, alpha, beta):  # noqa: N802
        # Target starting C / D block on 2D grid, offset by blocks per wave
        row0, col0 = mapping_c.matrixCoord()
        row0, col0 = row0 * bx, col0 * by
        if row0 + bx * block_m > m or col0 + by * block_n > n:
            return
        if block_k > k:
            return

        sub_coords = [[make_coord2d(row0 + i * block_m, col0 + j * block_n) for j in range(by)]
                      for i in range(bx)]
        accums = [[f.FragAcc() for _ in range(by)] for _ in range(bx)]
        for row in accums:
            for acc in row:
                fill_fragment(acc, 0)

        # Blocks in the same row share A's start address, blocks in the same column B's
        addrs_a = [mapping_a.dataCoord(a, make_coord2d(sub_coords[i][0][0], 0), lda)
                   for i in range(bx)]
        addrs_b = [mapping_b.dataCoord(b, make_coord2d(0, sub_coords[0][j][1]), ldb)
                   for j in range(by)]
        incr_a = mapping_a.dataOffset(make_coord2d(0, block_k), lda)
        incr_b = mapping_b.dataOffset(make_coord2d(block_k, 0), ldb)

        for _ in range(k // block_k):
            cached_b = [f.FragB() for _ in range(by)]  # cache the B blocks for re-use
            frag_a = f.FragA()
            synchronize_workgroup()
            for j in range(by):
                load_matrix_sync(cached_b[j], addrs_b[j], ldb)
                addrs_b[j] += incr_b
            for i in range(bx):
                load_matrix_sync(frag_a, addrs_a[i], lda)  # A re-used for each B
                addrs_a[i] += incr_a
                for j in range(by):
                    mma_sync(accums[i][j], frag_a, cached_b[j], accums[i][j])

        frags_c = [[f.FragC() for _ in range(by)] for _ in range(bx)]
        for i in range(bx):
            for j in range(by):
                load_matrix_sync(frags_c[i][j], mapping_c.dataCoord(c, sub_coords[i][j], ldc),
                                 ldc)
        for i in range(bx):
            for j in range(by):
                _epilogue(frags_c[i][j], accums[i][j], alpha, beta, output_t, compute_t)
                store_matrix_sync(mapping_d.dataCoord(d, sub_coords[i][j], ldd),
                                  frags_c[i][j], ldd)

    return gemm_PGR0_LB0_MP0_MB_NC


@cache
def gemm_wave_tile(block_m, block_n, block_k, input_t, output_t, compute_t, layout_a, layout_b,
                   layout_c, layout_d=None, blocks_x=1, blocks_y=1):
    """Same problem as gemm_mb_nc but with ONE wave-tile fragment of
    (BlocksX*BlockM) x (BlocksY*BlockN) per wave (perf-sample style)."""
    tile_m, tile_n = block_m * blocks_x, block_n * blocks_y
    return gemm_sb_nc(tile_m, tile_n, block_k, input_t, output_t, compute_t, layout_a, layout_b,
                      layout_c, layout_d)


@cache
def mma_store(block_m, block_n, block_k, input_t, compute_t, layout_a, layout_b, layout_c):
    """One wave, one BlockM x BlockN block: acc = C; acc = A*B + acc over K; D = acc.
    No epilogue (rocWMMA's D = alpha*acc + beta*C would overflow / re-round)."""
    f = gemm_fragments(block_m, block_n, block_k, input_t, compute_t, compute_t, layout_a,
                       layout_b, layout_c, layout_c)
    mapping_a = MappingUtil[block_m, block_k, input_t, layout_a]
    mapping_b = MappingUtil[block_k, block_n, input_t, layout_b]

    @kernel
    def mma_then_store(k, a, b, c, d, lda, ldb, ldc, ldd):
        acc = f.FragAcc()
        load_matrix_sync(acc, c, ldc)
        frag_a, frag_b = f.FragA(), f.FragB()
        for step in range(k // block_k):
            load_matrix_sync(frag_a, a + mapping_a.dataOffset((0, step * block_k), lda), lda)
            load_matrix_sync(frag_b, b + mapping_b.dataOffset((step * block_k, 0), ldb), ldb)
            mma_sync(acc, frag_a, frag_b, acc)
        store_matrix_sync(d, acc, ldd)

    return mma_then_store


# ---------------------------------------------------------------------------------------------
# Host side: fill, memory layout, launch, reference, compareEqual
# ---------------------------------------------------------------------------------------------


def fill_values(rows: int, cols: int, signed: bool) -> np.ndarray:
    """rocWMMA test fillKernel: v = (row*cols + col) % 3, negated when non-zero and signed."""
    r, c = np.indices((rows, cols), dtype=np.int64)
    v = (r * cols + c) % 3
    return -v if signed else v


def to_storage(values: np.ndarray, elem: Elem) -> np.ndarray:
    """Exact conversion of small integers to the element's storage dtype (checked exact)."""
    src = values.astype(np.float64) if elem.p is not None else values.astype(np.int64)
    out = src.astype(elem.storage)
    if not np.array_equal(out.astype(src.dtype), src):
        raise ValueError(f"values are not exactly representable in {elem.short}")
    return out


def to_memory(logical: np.ndarray, layout) -> np.ndarray:
    """Flat C-contiguous buffer of a logical matrix in row_major / col_major memory order."""
    return np.ascontiguousarray(logical if layout is row_major else logical.T).ravel()


def from_memory(flat: np.ndarray, rows: int, cols: int, layout) -> np.ndarray:
    if layout is row_major:
        return flat.reshape(rows, cols)
    return flat.reshape(cols, rows).T


def leading_dim(rows: int, cols: int, layout) -> int:
    return cols if layout is row_major else rows


def _nan_fill(elem: Elem, size: int) -> np.ndarray:
    """D pre-fill: NaN for floats (as rocWMMA's harness), INT_MIN + 1 for integers."""
    if elem.p is not None:
        return np.full(size, np.nan, dtype=elem.storage)
    return np.full(size, np.iinfo(elem.storage).min + 1, dtype=elem.storage)


@dataclass
class GemmProblem:
    """One rocWMMA GEMM test case: logical inputs (exact values) and memory buffers."""

    types: TypeSet
    m: int
    n: int
    k: int
    layouts: str  # "NN", "NT", "TN", "TT" for A/B
    layout_c: type
    a: np.ndarray  # logical values, int64
    b: np.ndarray
    c: np.ndarray
    alpha: int = 2
    beta: int = 2

    @property
    def layout_a(self):
        return LAYOUT_TAGS[self.layouts[0]]

    @property
    def layout_b(self):
        return LAYOUT_TAGS[self.layouts[1]]


def make_problem(types: TypeSet, m: int, n: int, k: int, layouts: str = "NN",
                 layout_c=col_major) -> GemmProblem:
    signed = types.input.signed
    return GemmProblem(types, m, n, k, layouts, layout_c,
                       a=fill_values(m, k, signed), b=fill_values(k, n, signed),
                       c=fill_values(m, n, types.output.signed))


def run_gemm(problem: GemmProblem, arch: str, block: tuple[int, int, int],
             thread_block: tuple[int, int] = (1, 4), kind: str = "sb",
             blocks: tuple[int, int] = (1, 1)) -> np.ndarray:
    """Launch a GEMM kernel like rocWMMA's harness; returns D as a logical (m, n) array.

    thread_block = (TBX / W, TBY); kind "sb" (SB_NC), "mb" (MB_NC), "tile" (wave tile)."""
    t, p = problem.types, problem
    bm, bn, bk = block
    bx, by = blocks
    la, lb, lc = p.layout_a, p.layout_b, p.layout_c
    wave = WAVE_SIZE[arch]
    args = (bm, bn, bk, t.input.api, t.output.api, t.compute.api, la, lb, lc, lc)
    if kind == "sb":
        assert blocks == (1, 1)
        k_fn = gemm_sb_nc(*args)
    elif kind == "mb":
        k_fn = gemm_mb_nc(*args, blocks_x=bx, blocks_y=by)
    elif kind == "tile":
        k_fn = gemm_wave_tile(*args, blocks_x=bx, blocks_y=by)
    else:
        raise ValueError(kind)

    a = to_memory(to_storage(p.a, t.input), la)
    b = to_memory(to_storage(p.b, t.input), lb)
    c = to_memory(to_storage(p.c, t.output), lc)
    d = _nan_fill(t.output, p.m * p.n)
    lda, ldb = leading_dim(p.m, p.k, la), leading_dim(p.k, p.n, lb)
    ldc = ldd = leading_dim(p.m, p.n, lc)
    tbx, tby = thread_block[0] * wave, thread_block[1]
    grid = (-(-p.m // (bm * bx * thread_block[0])), -(-p.n // (bn * by * tby)))
    alpha = t.compute.storage.type(p.alpha)
    beta = t.compute.storage.type(p.beta)
    k_fn[grid, (tbx, tby), 0, arch](p.m, p.n, p.k, a, b, c, d, lda, ldb, ldc, ldd, alpha, beta)
    return from_memory(d, p.m, p.n, lc)


def exact_product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A @ B exactly, int64 (no BLAS, no rounding)."""
    return np.einsum("mk,kn->mn", a.astype(np.int64), b.astype(np.int64))


def _epilogue_reference(problem: GemmProblem, acc: np.ndarray) -> np.ndarray:
    """(OutputT)(alpha * acc + beta * (ComputeT)C) in ComputeT arithmetic; acc in ComputeT."""
    t, p = problem.types, problem
    if t.compute.p is None:  # int32 arithmetic wraps modulo 2**32
        total = p.alpha * acc.astype(np.int64) + p.beta * p.c
        wrapped = (total + 2**31) % 2**32 - 2**31
        return wrapped.astype(t.output.storage)
    cdt = t.compute.storage
    c_c = p.c.astype(np.float64).astype(t.output.storage).astype(cdt)
    total = cdt.type(p.alpha) * acc + cdt.type(p.beta) * c_c  # numpy: ComputeT arithmetic
    return total.astype(t.output.storage)


def _round_exact_integers(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """RNE of integer-valued float64 |v| < 2**24 to a float dtype: the float32 step is exact,
    so this is a single rounding even for ml_dtypes' float64 -> bfloat16 path."""
    assert np.all(values == np.round(values)) and np.abs(values).max(initial=0) < 2**24
    return values.astype(np.float32).astype(dtype)


def gemm_reference(problem: GemmProblem) -> np.ndarray:
    """D = (OutputT)(alpha * (ComputeT)acc + beta * (ComputeT)C), acc = exact A*B.

    Returns D in OutputT's storage dtype."""
    t, p = problem.types, problem
    acc = exact_product(p.a, p.b)
    if t.compute.p is None:
        return _epilogue_reference(problem, acc)
    return _epilogue_reference(problem, _round_exact_integers(acc.astype(np.float64),
                                                              t.compute.storage))


def instruction_k(arch: str, input_short: str, block_k: int) -> int:
    """K of the 16x16 instruction rocWMMA picks for 16-bit inputs (largest K <= BlockK;
    rocwmma-notes §3.1-3.3): gfx908 bf16 16x16x8; gfx950 16x16x32 f16/bf16; else 16."""
    if FAMILY[arch] != "gfx9":
        return 16
    if input_short == "bf16" and arch == "gfx908":
        return 8
    if arch == "gfx950" and block_k >= 32:
        return 32
    return 16


def k_subsets(block_k: int, instr_k: int, wave: int) -> list[np.ndarray]:
    """K indices (within one BlockK step) that instruction kb sums (rocwmma-notes §3.1): a
    lane in row group h holds K = h*KPT .. h*KPT+KPT-1; instruction kb takes the kb-th chunk
    of instr_k*16/W of them."""
    if block_k <= instr_k:  # one instruction; the missing K registers are zero-padded
        return [np.arange(block_k)]
    kpt, chunk = block_k * 16 // wave, instr_k * 16 // wave
    groups = wave // 16
    return [np.array([h * kpt + kb * chunk + t for h in range(groups) for t in range(chunk)])
            for kb in range(block_k // instr_k)]


def chained_reference_16bit(problem: GemmProblem, arch: str, block_k: int) -> np.ndarray:
    """The hardware model for 16-bit ComputeT, written out independently: per BlockK step and
    per instruction, acc = round(acc + exact partial sum), where round is f64 -> f32 -> 16-bit
    (gfx9: the f32 MFMA result converted after every instruction) or a single rounding to
    16 bits (gfx11/12 native WMMA accumulation); then the epilogue. D in OutputT storage."""
    t, p = problem.types, problem
    assert t.compute.size == 2
    cdt = t.compute.storage
    wave, gfx9 = WAVE_SIZE[arch], FAMILY[arch] == "gfx9"
    subsets = k_subsets(block_k, instruction_k(arch, t.input.short, block_k), wave)
    acc = np.zeros((p.m, p.n), dtype=cdt)
    for k0 in range(0, p.k, block_k):
        for ks in subsets:
            cols = k0 + ks
            total = acc.astype(np.float64) + exact_product(p.a[:, cols], p.b[cols, :])
            if gfx9:
                acc = total.astype(np.float32).astype(cdt)  # f32 MFMA, then convert_down
            else:
                acc = _round_exact_integers(total, cdt)
    return _epilogue_reference(problem, acc)


def exact_expected(problem: GemmProblem) -> bool:
    """True when no rounding can happen anywhere (any partial sum of any instruction, the
    epilogue and the output cast are integers within 2**p), so D must equal the reference."""
    t, p = problem.types, problem
    if t.compute.p is None:
        return True
    bound = exact_product(np.abs(p.a), np.abs(p.b)).max(initial=0)
    total = abs(p.alpha) * bound + abs(p.beta) * np.abs(p.c).max(initial=0)
    return total <= 2 ** min(t.compute.p, t.output.p)


def compare_equal(result: np.ndarray, reference: np.ndarray, elem: Elem,
                  tolerance: float = 10.0) -> tuple[bool, float]:
    """rocWMMA compareEqual: rel = |a-b| / (|a|+|b|+1) in double; any inf or NaN fails;
    pass iff max rel <= epsilon(DataT) * tolerance."""
    a = np.asarray(result).astype(np.float64)
    b = np.asarray(reference).astype(np.float64)
    if a.shape != b.shape:
        return False, float("inf")
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
        return False, float("inf")
    rel = np.abs(a - b) / (np.abs(a) + np.abs(b) + 1.0)
    max_rel = float(rel.max(initial=0.0))
    return max_rel <= elem.eps * tolerance, max_rel
