"""The views of a 4:2 structured-sparse instruction (`v_smfmac_*`, `v_swmmac_*`) the AMD Matrix
Instruction Calculator gives, built from the instruction's compressed A layout.

Compressed A is M x K/2: row i, stored value kk; the two stored values of dense group g
(columns 4g..4g+3) are kk = 2g, 2g+1, adjacent elements e, e+1 (e even) of one lane. From it:

* A by dense k (the calculator's `-A`): each of the 4 dense k of group g at the 2w-bit slot
  holding the group's two stored values, bits [e*w, e*w + 2w) of the lane's registers;
* K, the index register (the calculator's `-k`): each dense k of group g at the 4-bit nibble
  of the group's two 2-bit indices, bits [2e + 2*S*set, +4) of the lane's one index VGPR
  (S = stored values per lane; the low 2 bits are the index of the first stored value).

The index set: gfx9 `v_smfmac` reads set ABID when CBSZ = 0 and set 0 otherwise (CBSZ and
ABID 0..3 then, as the calculator accepts them); gfx12 `v_swmmac` reads the set the ISA's
OPSEL (`index_key`) names.
"""

from __future__ import annotations

import numpy as np

from ..arch.instructions import Instruction
from ..errors import LayoutQueryError
from .layout import _check_index

ABID_VALUES = 4  # CBSZ and ABID are 2-bit fields


def selector(instr: Instruction) -> str:
    """How `instr` picks its index set, in words."""
    sets = instr.index_sets
    if "abid" in instr.args:  # CBSZ/ABID pick the set (SMFMAC), else the ISA's OPSEL
        return (f"ABID 0..{sets - 1} with CBSZ = 0 (--abid); CBSZ != 0 reads set 0 "
                "(--cbsz)")
    return f"OPSEL 0..{sets - 1} (the ISA's index_key; --opsel)"


def index_set(instr: Instruction, opsel: int = 0, abid: int = 0, cbsz: int = 0) -> int:
    """The index set a sparse instruction reads with these modifiers; a value out of range,
    or the other family's selector, raises naming what `instr` takes."""
    sets = instr.index_sets
    if "abid" in instr.args:
        if opsel:
            raise LayoutQueryError(f"{instr.isa} picks its index set with ABID, not OPSEL: "
                                   f"give {selector(instr)}")
        _check_index("cbsz", cbsz, ABID_VALUES, "CBSZ is a 2-bit field")
        if cbsz:
            _check_index("abid", abid, ABID_VALUES, "ABID is a 2-bit field")
            return 0
        _check_index("abid", abid, sets, f"{instr.isa} has {sets} index sets, picked by "
                     "ABID with CBSZ = 0")
        return abid
    if abid or cbsz:
        raise LayoutQueryError(f"{instr.isa} on {instr.family} picks its index set with OPSEL, "
                               f"not CBSZ/ABID: give {selector(instr)}")
    _check_index("opsel", opsel, sets, f"{instr.isa} (wave{instr.wave}) has {sets} index "
                 f"set{'s' if sets > 1 else ''}, picked by OPSEL")
    return opsel


def group_slots(instr: Instruction) -> tuple[np.ndarray, ...]:
    """(block, row, dense k, lane, pair) of every (stored group, dense k): the 4 dense k of
    each group, `pair` = the group's first stored element of the lane // 2. Arrays (n, 4)."""
    lay = instr.a_layout
    lane, slot = np.nonzero(lay.block >= 0)
    first = lay.col[lane, slot] % 2 == 0
    lane, slot = lane[first], slot[first]
    if np.any(slot % 2):  # the tables put stored kk 2g, 2g+1 in elements 2p, 2p+1
        raise LayoutQueryError(f"{instr.isa}: a group's stored values are not an aligned pair")
    k = 4 * (lay.col[lane, slot] // 2)[:, None] + np.arange(4)
    grid = np.broadcast_arrays(lay.block[lane, slot][:, None], lay.row[lane, slot][:, None], k,
                               lane[:, None], (slot // 2)[:, None])
    return tuple(np.asarray(a) for a in grid)


def index_pair_offset(instr: Instruction, chosen: int) -> int:
    """Nibbles (4-bit units) from bit 0 of the index VGPR to index set `chosen`."""
    return instr.a_layout.slots * chosen // 2
