"""Run one matrix instruction on a wave's registers: gather -> multiply -> scatter.

Operands are per-lane vectors exactly as HIP passes them to the builtin, shaped
(lanes, elements) in any dtype with the right bytes per lane. The instruction's layouts
(index maps) gather the matrices out of the registers, `numerics.accumulate` computes, and the
D layout scatters the result back into a copy of C (so a gfx11 16-bit result leaves the other
OPSEL half of each register as C had it). `model` names the numerics model that computes
(`models.numerics_model`; the exact model unless told).
"""

from __future__ import annotations

import functools
import operator
from typing import NamedTuple

import numpy as np

from .. import types as T
from ..errors import BuiltinArgumentError, ModifierError, OperandShapeError, OperandTypeError
from . import layouts as L
from .instructions import MX_FORMATS, Instruction
from .models import EXACT, compute
from .numerics import decode


def _check(instr: Instruction, name: str, value, allowed: range) -> int:
    """An immediate operand as the encoding takes it: an int or bool within `allowed`.

    Floats, arrays and out-of-range values are refused rather than truncated or taken as
    truthy, because the hardware field would silently hold something else."""
    lo, hi = allowed.start, allowed.stop - 1
    legal = "0 only" if hi == lo else f"an integer immediate in {lo}..{hi}"
    try:
        number = operator.index(value.item() if isinstance(value, np.bool_) else value)
    except TypeError:
        number = None
    if number not in allowed:
        raise ModifierError(
            f"__builtin_amdgcn_{instr.builtin}: {name}={value!r} is not allowed "
            f"(allowed: {legal})"
        )
    return number  # type: ignore[return-value] # None is not in `allowed`: raised above


def _elements(instr: Instruction, regs, t, layout: L.OperandLayout, what: str,
              waves: int, hip_types: bool) -> np.ndarray:
    """Operand elements as (waves, lanes, slots); one wave's registers serve every wave."""
    regs = np.asarray(regs)
    lanes = layout.lanes
    if regs.ndim == 0 or regs.shape[0] not in (lanes, waves * lanes):
        batch = f" (or ({waves * lanes}, ...) for the batch's {waves} waves)" if waves > 1 else ""
        raise OperandShapeError(
            f"{instr.builtin}: operand {what} must hold one vector per lane of the wave, "
            f"shape ({lanes}, ...){batch}; got shape {regs.shape}"
        )
    if hip_types:
        regs = T.as_operand(regs, t, layout.slots, f"{instr.builtin}: operand {what}")
    elements = T.as_elements(regs, t, layout.slots).reshape(-1, lanes, layout.slots)
    return np.broadcast_to(elements, (waves, lanes, layout.slots))


def _gather(elements: np.ndarray, layout: L.OperandLayout) -> np.ndarray:
    return elements.reshape(elements.shape[0], -1)[:, layout.copies]


def _index_set(instr: Instruction, cbsz, abid, index_key) -> int:
    """The index set a sparse instruction reads (sparse.md §2.2): on gfx9 ABID picks it when
    CBSZ is 0 (CBSZ != 0: set 0, ABID ignored; both fields take 0..3 as the calculator and
    LLVM accept them); on gfx12 the ISA's OPSEL (`index_key`), which the builtins leave 0."""
    sets = instr.index_sets
    if "cbsz" not in instr.args:
        return _check(instr, "index_key", index_key, range(sets))
    _check(instr, "index_key", index_key, range(1))
    cbsz = _check(instr, "cbsz", cbsz, range(4))
    if cbsz:
        _check(instr, "abid", abid, range(4))
        return 0
    return _check(instr, "abid", abid, range(sets))


def _index_words(instr: Instruction, index, waves: int, what: str = "index",
                 bits: int = 32) -> np.ndarray:
    """The sparse index operand (or an MX scale operand, `what`) as (waves, lanes) uint64 bit
    fields: C's `int` per lane (or gfx1250's `v2i32` index, low word first), so any integer
    that fits 32 bits signed or unsigned (-1 is 0xffffffff); with `bits` 64 (gfx1250 scale16)
    C's `long` per lane, any 64-bit integer; a scalar goes to every lane."""
    regs = np.asarray(index)
    lanes = instr.a_layout.lanes
    words = instr.index_words if what == "index" else 1
    if regs.ndim == 0:
        regs = np.full(lanes, regs)  # a uniform value: every lane's
    if regs.ndim == 2 and regs.shape[-1] == 1 and words == 1:
        regs = regs[:, 0]
    tail = () if words == 1 else (words,)
    if regs.shape[1:] != tail or regs.shape[0] not in (lanes, waves * lanes):
        form = f"one {bits}-bit int per lane, shape" if words == 1 else \
            f"{words} 32-bit ints per lane (a v{words}i32), shape"
        shape = f"({lanes},)" if words == 1 else f"({lanes}, {words})"
        raise OperandShapeError(
            f"{instr.builtin}: operand {what} must hold {form} {shape}; got shape {regs.shape}"
        )
    if regs.dtype.kind not in "iu":
        raise OperandTypeError(f"{instr.builtin}: operand {what} must be {bits}-bit integer "
                               f"words (C's {'int' if bits == 32 else 'long'} per lane); got "
                               f"{regs.dtype} values")
    if bits == 64:  # int64 or uint64 per lane: its two's-complement bits
        return np.broadcast_to(regs.astype(np.uint64).reshape(-1, lanes), (waves, lanes))
    wide = regs.astype(np.int64)
    if regs.size and (wide.min() < -(2**31) or wide.max() >= 2**32):
        raise OperandTypeError(f"{instr.builtin}: operand {what} holds values outside 32 bits "
                               f"(allowed: -2**31 .. 2**32 - 1, one {what} word per lane)")
    fields = (wide & 0xFFFFFFFF).astype(np.uint64)
    if words > 1:  # word w holds bits 32w..32w+31 of the lane's index
        fields = np.bitwise_or.reduce(fields << (32 * np.arange(words, dtype=np.uint64)),
                                      axis=1)
    return np.broadcast_to(fields.reshape(-1, lanes), (waves, lanes))


def _sparse_b(instr: Instruction, b_mat: np.ndarray, words: np.ndarray,
              index_set: int) -> np.ndarray:
    """B as each row of the compressed A meets it: (waves, M, K/2, N), row kk of row i being
    dense B row 4*(kk//2) + idx[i][kk], the gather form of sparse.md §2.1. The 2-bit index of
    A element e of a lane sits at bit 2*e + 2*S*set of the lane's word (S = elements per lane)."""
    lay = instr.a_layout
    lane, slot = lay.written
    shift = (2 * slot + 2 * lay.slots * index_set).astype(np.uint64)
    fields = (words[:, lane] >> shift) & np.uint64(3)  # (waves, stored values)
    idx = np.empty((words.shape[0], instr.m, instr.a_k), np.int64)
    idx[:, lay.row[lane, slot], lay.col[lane, slot]] = fields
    rows = 4 * (np.arange(instr.a_k) // 2) + idx  # dense K row of B each stored value meets
    waves = np.arange(b_mat.shape[0])[:, None, None]
    return b_mat[:, 0, 0][waves, rows]


def _gfx1250_modifiers(instr: Instruction, a_neg, b_neg, c_mod, matrix_a_reuse,
                       matrix_b_reuse) -> tuple[int, int, int]:
    """GFX12.5's A/B negation and C modifier (clang BuiltinsAMDGPUDocs.td @ 08e0d9a8e86b:
    a_neg/b_neg negate the input matrix, c_mod 0 none, 1 neg, 2 abs, 3 neg(abs)); the reuse
    hints are checked and ignored (they only let the hardware keep A or B from the previous
    WMMA, which is the same data)."""
    mods = []
    for name, value, top in (("a_neg", a_neg, 1), ("b_neg", b_neg, 1), ("c_mod", c_mod, 3),
                             ("matrix_a_reuse", matrix_a_reuse, 1),
                             ("matrix_b_reuse", matrix_b_reuse, 1)):
        mods.append(_check(instr, name, value, range(top + 1 if name in instr.args else 1)))
    return mods[0], mods[1], mods[2]


# --- MX: gfx950 f8f6f4 MFMA, gfx1250 f8f6f4/f4 WMMA ------------------------------------------


def _scale_values(exp_bits: int, man_bits: int) -> np.ndarray:
    """The 256 values of an unsigned block-scale byte: bias 2**(E-1) - 1, subnormals at
    exponent field 0 when there are mantissa bits (E8M0 0 is 2**-127), NaN where the low E+M
    bits are all ones, higher bits ignored."""
    code = np.arange(256) & ((1 << (exp_bits + man_bits)) - 1)
    e, m = code >> man_bits, (code & ((1 << man_bits) - 1)) / (1 << man_bits)
    bias = (1 << (exp_bits - 1)) - 1
    value = np.where((e == 0) & (man_bits > 0), m * 2.0 ** (1 - bias),
                     (1 + m) * np.exp2(e - bias))
    return np.where(code == (1 << (exp_bits + man_bits)) - 1, np.nan, value)


# Scale formats by their gfx1250 code (LLVM WMMA::MatrixScaleFmt, printed by AMDGPUInstPrinter
# printMatrixScaleFmt: MATRIX_SCALE_FMT_E8 0, _E5M3 1, _E4M3 2); gfx950 reads E8M0 only.
# E8M0: 2**(s - 127), 0xFF NaN (OCP MX). E5M3/E4M3: CK's utils::ScaleFormat<E, M> decode
# (ROCm/rocm-libraries @ 1efb959618593604b405d00f786cbfa6e8a08bb0,
# projects/composablekernel/include/ck/utility/scale_utils.hpp: unsigned, bias 15 / 7,
# subnormals, all-ones NaN; E4M3 ignores bit 7) [CK's host model, not an ISA text]; E5M3 as
# in tensilelite's DataTypes_E5M3.hpp (ROCm/rocm-libraries @ a39bf8f233a8, projects/hipblaslt/
# tensilelite/include/Tensile/DataTypes_E5M3.hpp: unsigned "uf8", bias 15).
SCALE_FORMATS = ("e8m0", "e5m3", "e4m3")
_SCALE_VALUES = (_scale_values(8, 0), _scale_values(5, 3), _scale_values(4, 3))


class _MX(NamedTuple):
    """An MX call: A/B formats and, when scaled, each operand's scale selector and format."""

    a_fmt: type
    b_fmt: type
    scaled: bool
    sel: tuple[int, int] = (0, 0)  # gfx950: scale byte (OPSEL); gfx1250: lane half
    scale_fmt: tuple[int, int] = (0, 0)


def _mx_formats(instr: Instruction, cbsz, blgp, opsel_a, scale_a, opsel_b, scale_b) -> _MX:
    """gfx950: CBSZ and BLGP are format codes 0-4 (`MX_FORMATS`), OPSEL picks the byte (0-3)
    of each lane's 32-bit E8M0 scale word. Scales come both or neither (neither: the ISA's
    unscaled instruction)."""
    if (scale_a is None) != (scale_b is None):
        raise BuiltinArgumentError(f"{instr.builtin}: scale_a and scale_b come together "
                                   "(both None is the unscaled v_mfma_f32_*_f8f6f4)")
    a_fmt = MX_FORMATS[_check(instr, "cbsz", cbsz, range(len(MX_FORMATS)))]
    b_fmt = MX_FORMATS[_check(instr, "blgp", blgp, range(len(MX_FORMATS)))]
    return _MX(a_fmt, b_fmt, scale_a is not None, (_check(instr, "opsel_a", opsel_a, range(4)),
                                                   _check(instr, "opsel_b", opsel_b, range(4))))


def _wmma_mx(instr: Instruction, fmts, sels, scale_fmts, scales) -> _MX:
    """gfx1250: matrix_a_fmt/matrix_b_fmt are format codes 0-4 where the builtin has them
    (else A/B are the row's fp4); a scaled row takes each operand's selector (0/1, the lane
    half holding the scales), scale format (0-2, `SCALE_FORMATS`) and scale word."""
    fmt = []
    for name, code, fixed in zip(("matrix_a_fmt", "matrix_b_fmt"), fmts,
                                 (instr.a_type, instr.b_type), strict=True):
        picked = _check(instr, name, code, range(len(MX_FORMATS) if name in instr.args else 1))
        fmt.append(MX_FORMATS[picked] if name in instr.args else fixed)
    scaled = bool(instr.scale_bytes)
    for name, value in zip(("matrix_a_scale_exp", "matrix_b_scale_exp"), scales, strict=True):
        if (value is None) == scaled:
            raise BuiltinArgumentError(
                f"{instr.builtin}: {name} is " + ("missing (one scale word per lane)" if
                                                  scaled else "not an operand (unscaled)"))
    halves, codes = (range(2), range(len(SCALE_FORMATS))) if scaled else (range(1), range(1))
    return _MX(fmt[0], fmt[1], scaled,
               (_check(instr, "matrix_a_scale", sels[0], halves),
                _check(instr, "matrix_b_scale", sels[1], halves)),
               (_check(instr, "matrix_a_scale_fmt", scale_fmts[0], codes),
                _check(instr, "matrix_b_scale_fmt", scale_fmts[1], codes)))


def _mx_bytes(instr: Instruction, regs, layout: L.OperandLayout, full: int,
              what: str) -> np.ndarray:
    """An MX A/B operand as the bytes its format reads per lane: the builtin's vector holds
    `full` bytes (gfx950 v8i32: 32; gfx1250 v16i32: 64), of which fp6 reads the first 3/4
    and fp4 the first half; a vector of exactly those bytes (the IR intrinsic's shorter
    vectors) is accepted too, and so are the format's elements themselves."""
    regs = np.asarray(regs)
    need = layout.slots * layout.bits // 8
    if regs.ndim == 2 and regs.shape[1] == layout.slots and regs.dtype.itemsize == 1 and \
            regs.dtype.kind not in "iub":
        return regs  # the format's elements, one per slot
    vec = f"v{full // 4}i32"
    if regs.ndim not in (1, 2) or not (regs.dtype.kind in "iu" or regs.dtype.itemsize == 1):
        raise OperandTypeError(f"{instr.builtin}: operand {what} must be integer words (the "
                               f"builtin's {vec} per lane); got {regs.dtype} values of shape "
                               f"{regs.shape}")
    raw = np.ascontiguousarray(regs.reshape(regs.shape[0], -1)).view(np.uint8)
    if raw.shape[1] not in (need, full):
        raise OperandShapeError(f"{instr.builtin}: operand {what} holds {raw.shape[1]} bytes "
                                f"per lane; its format ({layout.bits}-bit) reads {need} "
                                f"(allowed: {full} bytes, the {vec} operand, or exactly {need})")
    return raw[:, :need]


@functools.lru_cache(maxsize=256)
def _scale_lanes(instr: Instruction, layout: L.OperandLayout, sel: int,
                 is_b: bool) -> tuple[np.ndarray, np.ndarray]:
    """(lane, byte) of the scale of each element of A (M, K) or B (N, K, transposed), built
    once per operand map (read only). gfx950: the lane holding the element's 32 K values,
    byte OPSEL (an inference, see docs/guide); gfx1250: `layouts.wmma1250_scale_lanes`."""
    if instr.mx_wmma:
        return L.wmma1250_scale_lanes(instr.n if is_b else instr.m, instr.k,
                                      instr.k // instr.scale_bytes, sel)
    lane, slot = layout.written
    holder = np.empty(layout.shape[1:], np.int64)
    holder[layout.row[lane, slot], layout.col[lane, slot]] = lane
    holder = holder.T if is_b else holder
    return holder, np.full_like(holder, sel)


def _block_scales(instr: Instruction, mx: _MX, layouts, scales, waves: int) -> list:
    """A's (waves, 1, 1, M, K) and B's (waves, 1, 1, K, N) scale factors: byte `byte` of the
    scale word of lane `lane` (`_scale_lanes`), decoded in the operand's scale format."""
    bits = 8 * instr.scale_bytes or 32
    out = []
    names = ("matrix_a_scale_exp", "matrix_b_scale_exp") if instr.mx_wmma else \
        ("scale_a", "scale_b")
    for is_b, (layout, scale, what) in enumerate(zip(layouts, scales, names, strict=True)):
        words = _index_words(instr, scale, waves, what, bits)  # (waves, lanes)
        lane, byte = _scale_lanes(instr, layout, mx.sel[is_b], bool(is_b))
        code = (words[:, lane] >> (8 * byte).astype(np.uint64)) & np.uint64(0xFF)
        factor = _SCALE_VALUES[mx.scale_fmt[is_b]][code.astype(np.intp)]  # (waves, x, K)
        out.append((factor.transpose(0, 2, 1) if is_b else factor)[:, None, None])
    return out


def execute(instr: Instruction, a, b, c, *, cbsz=0, abid=0, blgp=0, opsel=0,
            sgn_a=True, sgn_b=True, clamp=False, index=None, index_key=0, a_neg=0, b_neg=0,
            c_mod=0, matrix_a_reuse=0, matrix_b_reuse=0, opsel_a=0, scale_a=None, opsel_b=0,
            scale_b=None, matrix_a_fmt=0, matrix_b_fmt=0, matrix_a_scale=0, matrix_b_scale=0,
            matrix_a_scale_fmt=0, matrix_b_scale_fmt=0, waves: int = 1,
            hip_types: bool = False, model: str = EXACT) -> np.ndarray:
    """D = A*B + C for one instruction; returns D with C's dtype and shape. With `waves` > 1
    operands hold the registers of that many waves (waves * lanes rows, wave-major; one
    wave's registers serve all) and each wave computes its own D. Operands are raw register
    bytes in any dtype; with `hip_types` (the amdgcn builtins) they are HIP's typed values
    instead, converted or refused by `types.as_operand`.

    A sparse instruction takes its compressed A and the `index` words (one per lane) and
    computes the gather form with the exact model on every target: no public silicon model
    covers the sparse datapath (sparse.md §2.4).

    An MX instruction (gfx950 f8f6f4) reads CBSZ/BLGP as A's/B's format and, given
    `scale_a`/`scale_b` (one 32-bit word per lane, byte `opsel_a`/`opsel_b` the E8M0 scale),
    computes round_f32(C + sum a*2**(sa-127) * b*2**(sb-127)) exactly; without scales it is
    the ISA's unscaled v_mfma_f32_*_f8f6f4. A gfx1250 MX WMMA reads matrix_a_fmt/matrix_b_fmt
    as the formats and, when scaled, `scale_a`/`scale_b` (the builtin's matrix_*_scale_exp:
    a 32-bit or, scale16, 64-bit word per lane) as in `_block_scales`, the same exact sum."""
    mx = None
    if instr.mx:
        mx = _mx_formats(instr, cbsz, blgp, opsel_a, scale_a, opsel_b, scale_b)
        cbsz = blgp = 0
    elif instr.mx_wmma:
        for name, value in (("opsel_a", opsel_a), ("opsel_b", opsel_b)):
            _check(instr, name, value, range(1))
        mx = _wmma_mx(instr, (matrix_a_fmt, matrix_b_fmt), (matrix_a_scale, matrix_b_scale),
                      (matrix_a_scale_fmt, matrix_b_scale_fmt), (scale_a, scale_b))
    elif scale_a is not None or scale_b is not None or opsel_a or opsel_b:
        raise ModifierError(f"{instr.builtin} is not a scaled MX instruction: it takes no "
                            "scale_a/scale_b/opsel_a/opsel_b")
    elif any(type(v) is not int or v for v in (matrix_a_fmt, matrix_b_fmt, matrix_a_scale,
                                                matrix_b_scale, matrix_a_scale_fmt,
                                                matrix_b_scale_fmt)):
        _wmma_mx(instr, (matrix_a_fmt, matrix_b_fmt), (matrix_a_scale, matrix_b_scale),
                 (matrix_a_scale_fmt, matrix_b_scale_fmt), (None, None))  # raises: not 0
    if mx is not None:
        model = EXACT  # no public silicon model of the MX datapath
    if instr.sparse:
        if index is None:
            raise BuiltinArgumentError(f"{instr.builtin}: the sparse index operand is missing")
        index_set = _index_set(instr, cbsz, abid, index_key)
        cbsz = abid = 0
        model = EXACT
    elif index is not None or index_key:
        raise ModifierError(f"{instr.builtin} is dense: it takes no index operand")
    max_cbsz = instr.blocks.bit_length() - 1 if instr.cbsz_abid else 0
    cbsz = _check(instr, "cbsz", cbsz, range(max_cbsz + 1))
    abid = _check(instr, "abid", abid, range(1 << cbsz))
    blgp = _check(instr, "blgp", blgp, range(8 if instr.blgp else 1))
    opsel = _check(instr, "opsel", opsel, range(2 if "opsel" in instr.args else 1))
    a_type, b_type = instr.a_type, instr.b_type
    a_neg, b_neg, c_mod = _gfx1250_modifiers(instr, a_neg, b_neg, c_mod, matrix_a_reuse,
                                             matrix_b_reuse)
    if instr.sign_flags:
        gfx1250 = "a_sign" in instr.args  # errors name the builtin's own argument
        sgn_a, sgn_b, clamp = (_check(instr, name, value, range(2)) for name, value in
                               (("a_sign" if gfx1250 else "sgn_a", sgn_a),
                                ("b_sign" if gfx1250 else "sgn_b", sgn_b), ("clamp", clamp)))
        unsigned = {T.int8: T.uint8, T.int4: T.uint4}
        a_type = a_type if sgn_a else unsigned[a_type]
        b_type = b_type if sgn_b else unsigned[b_type]
    elif sgn_a is not True or sgn_b is not True or clamp:
        raise ModifierError(f"{instr.builtin} takes no sign or clamp flags")

    c_layout = instr.c_layout(opsel)
    c_regs = np.asarray(c)
    if hip_types:  # D comes back in the converted form
        c_regs = T.as_operand(c_regs, instr.c_type, c_layout.slots, f"{instr.builtin}: operand c")
    if c_regs.ndim and c_regs.shape[0] == c_layout.lanes and waves > 1:
        c_regs = np.tile(c_regs, (waves,) + (1,) * (c_regs.ndim - 1))
    c_el = _elements(instr, c_regs, instr.c_type, c_layout, "c", waves, False)
    a_layout, b_layout = instr.a_layout, instr.b_layout
    if mx is not None:
        full = (a_layout.slots * a_layout.bits // 8, b_layout.slots * b_layout.bits // 8)
        a_type, b_type = mx.a_fmt, mx.b_fmt
        a_layout, b_layout = instr.mx_layout(a_type, False), instr.mx_layout(b_type, True)
        a, b = (_mx_bytes(instr, x, lay, size, what) for x, lay, size, what in
                ((a, a_layout, full[0], "a"), (b, b_layout, full[1], "b")))
        hip_types = False  # bytes now
    a_el = _elements(instr, a, a_type, a_layout, "a", waves, hip_types)
    b_el = _elements(instr, b, b_type, b_layout, "b", waves, hip_types)
    if instr.blgp == "lanes":
        b_el = b_el[:, L.blgp_source_lanes(blgp)]

    a_mat = decode(_gather(a_el, a_layout), a_type)  # (waves, copies, blocks, M, K)
    b_mat = decode(_gather(b_el, b_layout), b_type)
    c_mat = decode(_gather(c_el, c_layout)[:, 0], instr.c_type)
    if mx is not None and mx.scaled:
        scale_a, scale_b = _block_scales(instr, mx, (a_layout, b_layout), (scale_a, scale_b),
                                         waves)
        a_mat, b_mat = a_mat * scale_a, b_mat * scale_b
    if cbsz:
        a_mat = a_mat[:, :, L.broadcast_blocks(instr.blocks, cbsz, abid)]
    if instr.blgp == "neg" and blgp:
        a_mat, b_mat, c_mat = (-x if blgp >> bit & 1 else x
                               for bit, x in enumerate((a_mat, b_mat, c_mat)))
    a_mat, b_mat = (-x if neg else x for neg, x in ((a_neg, a_mat), (b_neg, b_mat)))
    c_mat = np.abs(c_mat) if c_mod & 2 else c_mat
    c_mat = -c_mat if c_mod & 1 else c_mat
    if instr.sparse:
        b_rows = _sparse_b(instr, b_mat, _index_words(instr, index, waves), index_set)
        d_mat = compute(model, instr, a_mat[:, 0, 0, :, None], b_rows, c_mat[:, 0, :, None],
                        clamp=bool(clamp))[:, None, None, :, 0]
    else:
        d_mat = compute(model, instr, a_mat, b_mat, c_mat[:, None], clamp=bool(clamp))

    # Scatter: each D slot takes the result its lane group computed from its own A/B copy.
    lane, slot = c_layout.written
    group = lane // 16 if d_mat.shape[1] > 1 else np.zeros_like(lane)
    values = d_mat[:, group, c_layout.block[lane, slot], c_layout.row[lane, slot],
                   c_layout.col[lane, slot]]
    if instr.d_type is not None:
        # bf16f32: D is a packed bf16 vector in the slots C's f32 values had (same 8 rows per
        # lane), returned as its elements
        d_el = np.zeros(c_el.shape, T.storage_dtype(instr.d_type))
        d_el[:, lane, slot] = values
        return d_el.reshape(-1, c_layout.slots)
    d_el = c_el.copy()
    d_el[:, lane, slot] = values
    per_lane = c_regs.shape[1] if c_regs.ndim > 1 else 1
    d_regs = T.from_elements(d_el.reshape(-1, c_layout.slots), c_regs.dtype, per_lane)
    return d_regs.reshape(c_regs.shape)
