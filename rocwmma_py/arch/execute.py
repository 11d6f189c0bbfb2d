"""Run one matrix instruction on a wave's registers: gather -> multiply -> scatter.

Operands are per-lane vectors exactly as HIP passes them to the builtin, shaped
(lanes, elements) in any dtype with the right bytes per lane. The instruction's layouts
(index maps) gather the matrices out of the registers, `numerics.accumulate` computes, and the
D layout scatters the result back into a copy of C (so a gfx11 16-bit result leaves the other
OPSEL half of each register as C had it). `model` names the numerics model that computes
(`models.numerics_model`; the exact model unless told).
"""

from __future__ import annotations

import operator

import numpy as np

from .. import types as T
from ..errors import ModifierError, OperandShapeError
from . import layouts as L
from .instructions import Instruction
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


def execute(instr: Instruction, a, b, c, *, cbsz=0, abid=0, blgp=0, opsel=0,
            sgn_a=True, sgn_b=True, clamp=False, waves: int = 1,
            hip_types: bool = False, model: str = EXACT) -> np.ndarray:
    """D = A*B + C for one instruction; returns D with C's dtype and shape. With `waves` > 1
    operands hold the registers of that many waves (waves * lanes rows, wave-major; one
    wave's registers serve all) and each wave computes its own D. Operands are raw register
    bytes in any dtype; with `hip_types` (the amdgcn builtins) they are HIP's typed values
    instead, converted or refused by `types.as_operand`."""
    max_cbsz = instr.blocks.bit_length() - 1 if instr.cbsz_abid else 0
    cbsz = _check(instr, "cbsz", cbsz, range(max_cbsz + 1))
    abid = _check(instr, "abid", abid, range(1 << cbsz))
    blgp = _check(instr, "blgp", blgp, range(8 if instr.blgp else 1))
    opsel = _check(instr, "opsel", opsel, range(2 if "opsel" in instr.args else 1))
    a_type, b_type = instr.a_type, instr.b_type
    if "sgn_a" in instr.args:
        sgn_a, sgn_b, clamp = (_check(instr, name, value, range(2)) for name, value in
                               (("sgn_a", sgn_a), ("sgn_b", sgn_b), ("clamp", clamp)))
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
    a_el = _elements(instr, a, a_type, instr.a_layout, "a", waves, hip_types)
    b_el = _elements(instr, b, b_type, instr.b_layout, "b", waves, hip_types)
    if instr.blgp == "lanes":
        b_el = b_el[:, L.blgp_source_lanes(blgp)]

    a_mat = decode(_gather(a_el, instr.a_layout), a_type)  # (waves, copies, blocks, M, K)
    b_mat = decode(_gather(b_el, instr.b_layout), b_type)
    c_mat = decode(_gather(c_el, c_layout)[:, 0], instr.c_type)
    if cbsz:
        a_mat = a_mat[:, :, L.broadcast_blocks(instr.blocks, cbsz, abid)]
    if instr.blgp == "neg" and blgp:
        a_mat, b_mat, c_mat = (-x if blgp >> bit & 1 else x
                               for bit, x in enumerate((a_mat, b_mat, c_mat)))
    d_mat = compute(model, instr, a_mat, b_mat, c_mat[:, None], clamp=bool(clamp))

    # Scatter: each D slot takes the result its lane group computed from its own A/B copy.
    lane, slot = c_layout.written
    group = lane // 16 if d_mat.shape[1] > 1 else np.zeros_like(lane)
    d_el = c_el.copy()
    d_el[:, lane, slot] = d_mat[:, group, c_layout.block[lane, slot], c_layout.row[lane, slot],
                                c_layout.col[lane, slot]]
    per_lane = c_regs.shape[1] if c_regs.ndim > 1 else 1
    d_regs = T.from_elements(d_el.reshape(-1, c_layout.slots), c_regs.dtype, per_lane)
    return d_regs.reshape(c_regs.shape)
