"""The gfx9 MFMA register modifiers the AMD Matrix Instruction Calculator shows (its `--cbsz`,
`--abid`, `--blgp` views), applied to an operand's `Layout`:

* CBSZ/ABID (A of a multi-block MFMA): compute block b reads the A registers of block
  b' = (b >> CBSZ << CBSZ) + ABID (`arch.layouts.broadcast_blocks`), so each entry of block b'
  is listed again for every block that reads it; the lanes of the other blocks go unread.
  CBSZ is 1..log2(blocks), ABID 0..2**CBSZ - 1.
* BLGP (B): lane L reads the B registers of lane `blgp_source_lanes(BLGP)[L]`, so each entry
  moves to the lane it is read from (several lanes may read one). On CDNA3 f64 BLGP is NEG
  instead (bit 0 negates A, bit 1 B, bit 2 C): the places are unchanged and the title says
  whether this operand is negated.

(The sparse `v_smfmac_*` use CBSZ/ABID to pick K's index set instead: `sparse.py`.)
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..arch.instructions import Instruction
from ..arch.layouts import blgp_source_lanes, broadcast_blocks
from ..errors import LayoutQueryError
from .layout import Layout, _check_index

BLGP_VALUES = 8  # a 3-bit field
_NEG_BIT = {"A": 0, "B": 1, "C": 2}


def _broadcast(instr: Instruction, arch: str, key: str, cbsz: int, abid: int
               ) -> tuple[int, ...] | None:
    """The source block of every compute block, or None without CBSZ/ABID; misuse raises."""
    if not (cbsz or abid):
        return None
    if not instr.cbsz_abid:
        why = "f64 ops have none" if "f64" in instr.isa else "it has one block"
        raise LayoutQueryError(
            f"CBSZ/ABID broadcast an A block of a multi-block gfx9 MFMA (e.g. "
            f"v_mfma_f32_32x32x1_2b_f32); {instr.isa} on {arch} has none: {why}")
    if key != "A":
        raise LayoutQueryError(f"CBSZ/ABID change which A block each block reads: give "
                               f"--matrix a, not {key.lower()}")
    most = instr.blocks.bit_length() - 1
    _check_index("cbsz", cbsz, most + 1, f"{instr.isa} has {instr.blocks} blocks, so CBSZ "
                 f"(log2 of the blocks sharing one A block) is 1..{most}")
    if not cbsz:
        raise LayoutQueryError(f"ABID picks the A block among 2**CBSZ blocks: give --cbsz "
                               f"1..{most} with it (CBSZ 0 broadcasts nothing)")
    _check_index("abid", abid, 1 << cbsz, f"with CBSZ={cbsz} ABID picks one of {1 << cbsz} "
                 "blocks")
    return tuple(broadcast_blocks(instr.blocks, cbsz, abid).tolist())


def _check_blgp(instr: Instruction, arch: str, key: str, blgp: int) -> None:
    if not instr.blgp:
        raise LayoutQueryError(
            f"BLGP is a gfx9 MFMA modifier (CDNA1/2 except f64; on CDNA3 the multi-block, f32 "
            f"and f64 ops); {instr.isa} on {arch} has none")
    _check_index("blgp", blgp, BLGP_VALUES, "BLGP is a 3-bit field")
    if instr.blgp == "lanes" and key != "B":
        raise LayoutQueryError(f"BLGP changes which lane's B registers each lane reads: give "
                               f"--matrix b, not {key.lower()}")
    if instr.blgp == "neg" and key not in _NEG_BIT:
        raise LayoutQueryError(f"BLGP is NEG on {instr.isa} (negates A, B or C): give "
                               f"--matrix a, b or c, not {key.lower()}")


def apply(layout: Layout, instr: Instruction, arch: str, cbsz: int = 0, abid: int = 0,
          blgp: int | None = None) -> Layout:
    """`layout` (an operand of `instr`, no modifiers) as the calculator shows it with these
    modifiers; a modifier the instruction or operand lacks, or a value out of range, raises
    naming what is allowed. `blgp=None` (not given) and 0 leave B as it is."""
    key = layout.matrix
    source = _broadcast(instr, arch, key, cbsz, abid)
    if blgp is not None:
        _check_blgp(instr, arch, key, blgp)
    if source is not None:
        e = layout.entries
        parts = [np.column_stack([np.full(int(np.sum(e[:, 0] == src)), b), e[e[:, 0] == src, 1:]])
                 for b, src in enumerate(source)]
        readers = {src: [b for b, s in enumerate(source) if s == src] for src in set(source)}
        shared = "; ".join(f"blocks {', '.join(map(str, bs))} read block {src}"
                           for src, bs in sorted(readers.items()))
        return dataclasses.replace(
            layout, title=layout.title.removesuffix(")") + f", CBSZ={cbsz}, ABID={abid})",
            entries=np.concatenate(parts), note=f"CBSZ={cbsz}, ABID={abid}: {shared}")
    if not blgp:
        return layout
    if instr.blgp == "neg":
        return dataclasses.replace(
            layout, title=layout.title.removesuffix(")") + f", BLGP={blgp} as NEG)",
            note=f"BLGP={blgp} is NEG here (bit 0 A, 1 B, 2 C): {key} is "
                 f"{'negated' if negated(instr, key, blgp) else 'not negated'}; the places "
                 "do not change")
    lanes = blgp_source_lanes(blgp)[: layout.lanes]
    entries = layout.entries.copy()
    entries[:, 3] = lanes[entries[:, 3]]
    rule = {1: "lane % 32", 2: "32 + lane % 32", 3: "(lane + 16) % 64"}.get(
        blgp, f"{16 * (blgp - 4)} + lane % 16")
    return dataclasses.replace(
        layout, title=layout.title.removesuffix(")") + f", BLGP={blgp})", entries=entries,
        note=f"BLGP={blgp}: each lane reads the B registers of lane {rule}")


def negated(instr: Instruction, key: str, blgp: int) -> bool:
    """Whether BLGP (NEG on CDNA3 f64) negates operand `key`."""
    return instr.blgp == "neg" and key in _NEG_BIT and bool(blgp >> _NEG_BIT[key] & 1)
