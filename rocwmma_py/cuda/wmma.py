"""`nvcuda::wmma` (CUDA's mma.h) on AMD matrix cores: port CUDA wmma code by its namespace.

    from rocwmma_py.cuda import *          # wmma, threadIdx, __syncthreads, __shared__, ...
    a = wmma.fragment[wmma.matrix_a, 16, 16, 16, wmma.half, wmma.row_major]()

A wmma fragment is a rocWMMA fragment whose M/N are padded to whole 16x16 blocks: CUDA's
m32n8k16 / m8n32k16 run as rocWMMA runs a partial or multi-block fragment (zero-filled
padding, clipped stores, one 16x16 instruction per block), m8n8k4 double as a padded 16x16x4
f64 MFMA. CUDA leaves the register layout unspecified; here it is rocWMMA's on the target
(`python -m rocwmma_py layout --fragment ...` shows it). `num_elements` is the target's.

Differences from rocWMMA's own API that CUDA semantics demand: `mma_sync(..., satf)` wraps
int32 unless `satf` (rocWMMA always saturates int8 on gfx11/12), and uint8 inputs also run on
gfx11 (the iu8 WMMA's sign flags, as on gfx12).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from .. import types as T
from ..arch import ARCH_NAMES, get_arch
from ..lane_wise import lane_wise
from ..rocwmma import api
from ..rocwmma.errors import FragmentError
from ..rocwmma.fragment import fragment as _rocwmma_fragment
from ..rocwmma.fragment import supported_types
from ..rocwmma.fragment_layout import next_multiple, padded_dims
from ..rocwmma.mma import mma as _mma
from ..rocwmma.mma import select_instruction
from ..rocwmma.tags import accumulator, col_major, layout_t, matrix_a, matrix_b, row_major
from ..runtime import Pointer, current_arch
from ..runtime.lanes import batch_data

mem_row_major = layout_t.mem_row_major
mem_col_major = layout_t.mem_col_major

# --- element types (CUDA spellings) -----------------------------------------------------------
half = __half = T.float16
__nv_bfloat16 = bfloat16 = T.bfloat16
double = T.float64
signed_char = int8_t = T.int8
unsigned_char = uint8_t = T.uint8


class precision:  # noqa: N801 - CUDA spelling
    """`wmma::precision::tf32`: an f32 container whose low 13 mantissa bits the MMA ignores."""

    tf32 = T.xfloat32


_NAMED = {"half": T.float16, "__half": T.float16, "__nv_bfloat16": T.bfloat16,
          "bfloat16": T.bfloat16, "float": T.float32, "double": T.float64, "int": T.int32,
          "signed char": T.int8, "unsigned char": T.uint8, "tf32": T.xfloat32,
          "precision::tf32": T.xfloat32}

# CUDA's shapes (M, N, K) per input type, and the accumulator types each input allows.
_SQUARE_AND_SKINNY = ((16, 16, 16), (32, 8, 16), (8, 32, 16))
SHAPES = {T.float16: _SQUARE_AND_SKINNY, T.bfloat16: _SQUARE_AND_SKINNY,
          T.int8: _SQUARE_AND_SKINNY, T.uint8: _SQUARE_AND_SKINNY,
          T.xfloat32: ((16, 16, 8),), T.float64: ((8, 8, 4),)}
ACCUMULATORS = {T.float16: (T.float32, T.float16), T.bfloat16: (T.float32,),
                T.int8: (T.int32,), T.uint8: (T.int32,), T.xfloat32: (T.float32,),
                T.float64: (T.float64,)}
_UNSIGNED = "wmma_unsigned_i8"  # the Arch column: iu8 WMMA sign flags give unsigned int8


def type_name(t) -> str:
    """CUDA's name of an element type in messages (tf32, not rocWMMA's xf32)."""
    return "tf32" if t is T.xfloat32 else T.short_name(t)


def _resolve(dtype) -> type:
    """CUDA spellings ("unsigned char", float, precision.tf32) or rocWMMA's ("u8", np.uint8)."""
    if isinstance(dtype, str) and dtype in _NAMED:
        return _NAMED[dtype]
    try:
        return T.resolve(T.cxx_type(dtype))
    except TypeError:
        raise FragmentError(f"unknown wmma element type {dtype!r}; allowed: "
                            f"{', '.join(_NAMED)} or rocWMMA's names (f16, i8, ...)") from None


def _shapes_for(matrix, dtype) -> tuple[tuple[int, int, int], ...]:
    if matrix is not accumulator:
        return SHAPES.get(dtype, ())
    return tuple(dict.fromkeys(s for ab, accs in ACCUMULATORS.items() if dtype in accs
                               for s in SHAPES[ab]))


@cache
def targets_for(dtype, acc=None) -> tuple[str, ...]:
    """Emulated targets whose matrix cores run wmma inputs of `dtype` (into `acc`)."""
    acc = acc or ACCUMULATORS[dtype][0]
    found = []
    for name in ARCH_NAMES:
        arch = get_arch(name)
        if dtype not in supported_types(arch) or acc not in supported_types(arch):
            continue
        try:
            select_instruction(arch, dtype, dtype, acc, 16, _UNSIGNED)
        except FragmentError:
            continue
        found.append(name)
    return tuple(found)


class WmmaFragment(_rocwmma_fragment):
    """A rocWMMA fragment with M/N padded to whole 16x16 blocks (CUDA's skinny shapes)."""

    @classmethod
    def block_dims(cls, wave: int) -> tuple[int, int, int]:
        m, n = next_multiple(cls.frag_m, 16), next_multiple(cls.frag_n, 16)
        return padded_dims(m, n, cls.frag_k, cls.data_type, wave)

    def __init__(self) -> None:
        arch = current_arch()
        if self.data_type in ACCUMULATORS:  # an MMA input type: can this target multiply it?
            targets = targets_for(self.data_type)
            if arch.name not in targets:
                raise FragmentError(
                    f"{type(self).__name__}: {arch.name} has no matrix instruction for "
                    f"{type_name(self.data_type)} inputs; targets that have one: "
                    f"{', '.join(targets)}")
        super().__init__()


class _FragmentTemplate:
    """`wmma.fragment[Use, m, n, k, T, Layout=void]`: one cached class per parameter set."""

    def __getitem__(self, params) -> type[WmmaFragment]:
        if not isinstance(params, tuple) or len(params) not in (5, 6):
            raise FragmentError("wmma.fragment takes [Use, m, n, k, T] or [Use, m, n, k, T, "
                                f"Layout]; got {params!r}")
        use, m, n, k, dtype, *layout = params
        return _fragment_class(use, m, n, k, _resolve(dtype), layout[0] if layout else None)


@cache
def _fragment_class(use, m, n, k, dtype, layout) -> type[WmmaFragment]:
    if use not in (matrix_a, matrix_b, accumulator):
        raise FragmentError(f"Use must be wmma.matrix_a, matrix_b or accumulator; got {use!r}")
    shapes = _shapes_for(use, dtype)
    if not shapes:
        allowed = ", ".join(type_name(t) for t in (SHAPES if use is not accumulator else
                            dict.fromkeys(x for v in ACCUMULATORS.values() for x in v)))
        raise FragmentError(f"wmma {use.__name__} of {type_name(dtype)} does not exist; "
                            f"element types: {allowed}")
    if (m, n, k) not in shapes:
        names = ", ".join(f"m{a}n{b}k{c}" for a, b, c in shapes)
        raise FragmentError(f"wmma shape m{m}n{n}k{k} does not exist for "
                            f"{type_name(dtype)} {use.__name__}; allowed: {names}")
    if use is accumulator and layout is not None:
        raise FragmentError("a wmma accumulator has no layout; pass mem_row_major / "
                            "mem_col_major to load_matrix_sync / store_matrix_sync")
    if use is not accumulator and layout not in (row_major, col_major):
        raise FragmentError(f"wmma {use.__name__} needs Layout row_major or col_major; "
                            f"got {layout!r}")
    base: type[_rocwmma_fragment] = _rocwmma_fragment[use, m, n, k, dtype, layout]  # checks
    name = "wmma." + base.__name__.rsplit(",", 1)[0] + "]"
    attrs = {a: getattr(base, a) for a in ("matrix", "frag_m", "frag_n", "frag_k", "data_type",
                                            "layout", "scheduler")}
    return type(name, (WmmaFragment,), attrs)


fragment = _FragmentTemplate()


def _check_frag(frag, what: str) -> None:
    if not isinstance(frag, WmmaFragment):
        raise FragmentError(f"{what}: expected a wmma.fragment; got {type(frag).__name__}")


def fill_fragment(frag: WmmaFragment, value) -> None:
    """Set every element (C++ cast of `value` to the element type)."""
    _check_frag(frag, "fill_fragment")
    api.fill_fragment(frag, value)


def load_matrix_sync(frag: WmmaFragment, ptr: Pointer, ldm: int, layout=None) -> None:
    """Load A/B (layout from the type) or an accumulator (`mem_row_major`/`mem_col_major`)."""
    _check_frag(frag, "load_matrix_sync")
    if frag.matrix is accumulator and layout is None:
        raise FragmentError("load_matrix_sync of an accumulator needs a layout: "
                            "wmma.mem_row_major or wmma.mem_col_major")
    if frag.matrix is not accumulator and layout is not None:
        raise FragmentError(f"wmma.load_matrix_sync of a {frag.matrix.__name__} fragment takes "
                            "no layout_t argument (its layout is in its type; CUDA has the "
                            "4-argument form for accumulators only)")
    api.load_matrix_sync(frag, ptr, ldm, layout)


def store_matrix_sync(ptr: Pointer, frag: WmmaFragment, ldm: int, layout) -> None:
    """Store an accumulator; nothing outside its m x n tile is written."""
    _check_frag(frag, "store_matrix_sync")
    if frag.matrix is not accumulator:
        raise FragmentError("wmma.store_matrix_sync stores accumulator fragments only")
    api.store_matrix_sync(ptr, frag, ldm, layout)


def mma_sync(d: WmmaFragment, a: WmmaFragment, b: WmmaFragment, c: WmmaFragment,
             satf: bool = False) -> None:
    """D = A*B + C. int32 results wrap, or saturate with `satf`; float `satf` maps +-inf to
    +-the largest finite value and NaN to +0 (CUDA's saturate-to-finite)."""
    for frag, what in ((d, "d"), (a, "a"), (b, "b"), (c, "c")):
        _check_frag(frag, f"mma_sync {what}")
    allowed = ACCUMULATORS.get(a.data_type, ())
    for frag, what in ((c, "C"), (d, "D")):
        if frag.data_type not in allowed:
            raise FragmentError(f"mma_sync: {type_name(a.data_type)} inputs accumulate into "
                                + "/".join(type_name(t) for t in allowed)
                                + f", not {what} of {type_name(frag.data_type)}")
    if d.data_type is not c.data_type:  # half inputs: CUDA lets C and D be float or half
        _mixed_mma(d, a, b, c, satf)
        return
    integer = not T.is_float(c.data_type)
    _mma(d, a, b, c, clamp=bool(satf) and integer, unsigned=_UNSIGNED)
    if satf and not integer:
        _saturate_to_finite(d)


def _saturate_to_finite(d: WmmaFragment) -> None:
    """CUDA's float satf: +-inf -> +-the largest finite value of D's type, NaN -> +0."""
    top = T.max_finite(d.data_type)
    x = batch_data(d).astype(np.float64)
    batch_data(d)[...] = T.convert(np.where(np.isnan(x), 0.0, np.clip(x, -top, top)), d.data_type)


def _mixed_mma(d: WmmaFragment, a: WmmaFragment, b: WmmaFragment, c: WmmaFragment,
               satf: bool) -> None:
    """C and D of different float types (f16 inputs): C widened exactly to float, the MMA
    computed into float as for a float C, then rounded once to D's type (to nearest)."""
    wide = _fragment_class(accumulator, d.frag_m, d.frag_n, d.frag_k, T.float32, None)
    c32 = wide()
    c32.x[...] = c.x.astype(np.float32)  # f16 and f32 accumulators share one register map
    d32 = d if d.data_type is T.float32 else wide()
    mma_sync(d32, a, b, c32)
    if d32 is not d:
        batch_data(d)[...] = T.convert(batch_data(d32), d.data_type)
    if satf:
        _saturate_to_finite(d)


@lane_wise
def __float_to_tf32(x) -> np.ndarray:  # noqa: N807 - CUDA spelling
    """CUDA's float -> tf32 (cvt.rna.tf32.f32) as H100 computes it: round to nearest, ties
    away from zero, to 10 mantissa bits (the low 13 bits cleared), `((|u| + 0x1000) &
    ~0x1FFF) | sign` on the bit pattern u; overflow rounds to inf, subnormals follow the same
    integer rule. A NaN's low 13 bits are truncated instead, so 0x7F800001 becomes +inf and
    0x7FC01234 becomes 0x7FC00000."""
    u = np.asarray(x, dtype=np.float32).view(np.uint32)
    nan = (u & 0x7FFFFFFF) > 0x7F800000
    rounded = np.where(nan, u, u + np.uint32(0x1000))  # |u| + 0x1000 never reaches the sign
    return (rounded & np.uint32(0xFFFFE000)).astype(np.uint32).view(np.float32)


float_to_tf32 = __float_to_tf32

__all__ = [
    "WmmaFragment", "__float_to_tf32", "__half", "__nv_bfloat16", "accumulator", "bfloat16",
    "col_major", "double", "fill_fragment", "float_to_tf32", "fragment", "half", "int8_t",
    "layout_t", "load_matrix_sync", "matrix_a", "matrix_b", "mem_col_major", "mem_row_major",
    "mma_sync", "precision", "row_major", "signed_char", "store_matrix_sync", "targets_for",
    "uint8_t", "unsigned_char",
]
