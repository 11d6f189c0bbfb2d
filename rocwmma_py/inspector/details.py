"""The calculator's --detail-instruction and --list-instructions, from the instruction tables
(`arch/instructions.py`): shape, blocks, cycles, FLOPs, element types and the VGPRs each
operand takes per lane."""

from __future__ import annotations

from .. import types as T
from ..arch import ARCH_NAMES, get_arch
from ..arch.instructions import Instruction
from . import names
from .sparse import selector

# Operand -> the builtin's argument / the calculator's encoding field; a sparse instruction
# reads its index register K from src2 and accumulates into its destination (D += A*B).
_FIELDS = {"A": "src0", "B": "src1", "C": "src2", "D": "vdst"}
ALL = "all"  # --list-instructions --arch all: every target
_SPARSE_FIELDS = {**_FIELDS, "C": "vdst (D += A*B)", "K": "src2"}


def _vgprs(instr: Instruction) -> dict[str, int]:
    """VGPRs per lane of each operand: the per-lane vector's size in 32-bit registers."""
    def span(lay) -> int:
        return -(-lay.slots * lay.bits // 32)
    c = span(instr.c_layout(0))
    out = {"A": span(instr.a_layout), "B": span(instr.b_layout), "C": c, "D": c}
    return {**out, "K": 1} if instr.sparse else out


def _modifiers(instr: Instruction) -> list[str]:
    mods = []
    if instr.sparse:
        mods.append(f"index set: {selector(instr)}")
    if instr.cbsz_abid:
        mods.append("CBSZ/ABID (broadcast an A block)")
    if instr.blgp == "lanes":
        mods.append("BLGP (B lane groups)")
    elif instr.blgp == "neg":
        mods.append("BLGP as NEG (negate A, B, C)")
    if "opsel" in instr.args:
        mods.append("OPSEL (16-bit C/D in the low or high half of each VGPR)")
    if instr.sign_flags:
        mods.append("signedness of A and B (sgn_a, sgn_b), clamp")
    return mods


def instruction_details(name: str, arch: str, wave: int | None = None) -> dict:
    """One instruction's details as a dict (keys as the calculator's --detail-instruction:
    isa, builtin, arch, wave, m, n, k, blocks, cycles, flops, flops_per_cu_cycle (per WGP on
    gfx11/gfx12), types {A, B, C, D}, vgprs {A, B, C, D} per lane, modifiers, args, sparse;
    a 4:2 sparse instruction adds K (the index register) to types and vgprs and gives
    k_stored (the stored values per row of A, K/2) and index_sets; K stays the dense K)."""
    target = names.arch(arch)
    instr = names.instruction(name, target, wave)
    types = {"A": instr.a_type, "B": instr.b_type, "C": instr.c_type, "D": instr.c_type}
    short = {k: T.short_name(t) for k, t in types.items()}
    sparse = {"k_stored": instr.a_k, "index_sets": instr.index_sets} if instr.sparse else {}
    return {
        "isa": instr.isa, "builtin": instr.builtin, "arch": target.name,
        "family": instr.family, "wave": instr.wave, "m": instr.m, "n": instr.n, "k": instr.k,
        "blocks": instr.blocks, "cycles": instr.cycles, "flops": instr.flops,
        "integer": instr.integer, "flops_per_cu_cycle": 4 * instr.flops // instr.cycles,
        "types": {**short, "K": "idx"} if instr.sparse else short, "vgprs": _vgprs(instr),
        "modifiers": _modifiers(instr), "args": instr.args, "sparse": instr.sparse, **sparse,
    }


def details_text(d: dict) -> str:
    """`instruction_details` as an indented block like the calculator's."""
    ops = "Ops" if d["integer"] else "FLOPs"
    unit = get_arch(d["arch"]).compute_unit
    lines = [
        f"{d['isa']} on {d['arch']} (wave{d['wave']})",
        f"    builtin: __builtin_amdgcn_{d['builtin']}({', '.join(d['args'])})",
        f"    M x N x K: {d['m']} x {d['n']} x {d['k']}, blocks: {d['blocks']}",
        *([f"    4:2 sparse: A holds {d['k_stored']} of the {d['k']} k per row (2 of each 4); "
           f"the index register K holds {d['index_sets']} index "
           f"set{'s' if d['index_sets'] > 1 else ''}"] if d["sparse"] else []),
        f"    {ops}: {d['flops']}    cycles: {d['cycles']}    {ops}/{unit}/cycle: "
        f"{d['flops_per_cu_cycle']}",
        "    operand   type   VGPRs per lane   builtin argument / field",
    ]
    fields = _SPARSE_FIELDS if d["sparse"] else _FIELDS
    for key in fields:
        arg = {"D": "result", "K": "index"}.get(key, key.lower())
        lines.append(f"    {key:<9} {d['types'][key]:<6} {d['vgprs'][key]:<16} "
                     f"{arg} / {fields[key]}")
    lines.append("    modifiers: " + ("; ".join(d["modifiers"]) or "none"))
    return "\n".join(lines) + "\n"


def list_instructions(arch: str) -> list[dict]:
    """Every instruction of an AMD target (the calculator's list with its details): isa,
    builtin, wave, m, n, k (dense), blocks, a/b/c types, cycles, flops (ops for integer
    types), VGPRs per lane of A, B and C/D, sparse ("4:2" for the structured-sparse ones, else
    "-"), sorted by ISA name, then wave. `arch="all"`: every target's, an `arch` column
    first, in target order."""
    if str(arch).lower() == ALL:
        return [{"arch": a, **row} for a in ARCH_NAMES for row in list_instructions(a)]
    target = names.arch(arch)
    rows = []
    for i in target.instructions.values():
        vgprs = _vgprs(i)
        rows.append({"isa": i.isa, "builtin": i.builtin, "wave": i.wave, "m": i.m, "n": i.n,
                     "k": i.k, "blocks": i.blocks, "a": T.short_name(i.a_type),
                     "b": T.short_name(i.b_type), "c": T.short_name(i.c_type),
                     "cycles": i.cycles, "flops": i.flops, "vgprs_a": vgprs["A"],
                     "vgprs_b": vgprs["B"], "vgprs_c": vgprs["C"],
                     "sparse": "4:2" if i.sparse else "-"})
    return sorted(rows, key=lambda r: (r["isa"], r["wave"]))
