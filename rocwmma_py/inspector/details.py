"""The calculator's --detail-instruction and --list-instructions, from the instruction tables
(`arch/instructions.py`): shape, blocks, cycles, FLOPs, element types and the VGPRs each
operand takes per lane."""

from __future__ import annotations

from .. import types as T
from ..arch import get_arch
from ..arch.instructions import Instruction
from . import names

# Operand -> the builtin's argument / the calculator's encoding field.
_FIELDS = {"A": "src0", "B": "src1", "C": "src2", "D": "vdst"}


def _vgprs(instr: Instruction) -> dict[str, int]:
    """VGPRs per lane of each operand: the per-lane vector's size in 32-bit registers."""
    def span(lay) -> int:
        return -(-lay.slots * lay.bits // 32)
    c = span(instr.c_layout(0))
    return {"A": span(instr.a_layout), "B": span(instr.b_layout), "C": c, "D": c}


def _modifiers(instr: Instruction) -> list[str]:
    mods = []
    if instr.cbsz_abid:
        mods.append("CBSZ/ABID (broadcast an A block)")
    if instr.blgp == "lanes":
        mods.append("BLGP (B lane groups)")
    elif instr.blgp == "neg":
        mods.append("BLGP as NEG (negate A, B, C)")
    if "opsel" in instr.args:
        mods.append("OPSEL (16-bit C/D in the low or high half of each VGPR)")
    if "sgn_a" in instr.args:
        mods.append("signedness of A and B (sgn_a, sgn_b), clamp")
    return mods


def instruction_details(name: str, arch: str, wave: int | None = None) -> dict:
    """One instruction's details as a dict (keys as the calculator's --detail-instruction:
    isa, builtin, arch, wave, m, n, k, blocks, cycles, flops, flops_per_cu_cycle (per WGP on
    gfx11/gfx12), types {A, B, C, D}, vgprs {A, B, C, D} per lane, modifiers, args)."""
    target = names.arch(arch)
    instr = names.instruction(name, target, wave)
    types = {"A": instr.a_type, "B": instr.b_type, "C": instr.c_type, "D": instr.c_type}
    return {
        "isa": instr.isa, "builtin": instr.builtin, "arch": target.name,
        "family": instr.family, "wave": instr.wave, "m": instr.m, "n": instr.n, "k": instr.k,
        "blocks": instr.blocks, "cycles": instr.cycles, "flops": instr.flops,
        "integer": instr.integer, "flops_per_cu_cycle": 4 * instr.flops // instr.cycles,
        "types": {k: T.short_name(t) for k, t in types.items()}, "vgprs": _vgprs(instr),
        "modifiers": _modifiers(instr), "args": instr.args,
    }


def details_text(d: dict) -> str:
    """`instruction_details` as an indented block like the calculator's."""
    ops = "Ops" if d["integer"] else "FLOPs"
    unit = get_arch(d["arch"]).compute_unit
    lines = [
        f"{d['isa']} on {d['arch']} (wave{d['wave']})",
        f"    builtin: __builtin_amdgcn_{d['builtin']}({', '.join(d['args'])})",
        f"    M x N x K: {d['m']} x {d['n']} x {d['k']}, blocks: {d['blocks']}",
        f"    {ops}: {d['flops']}    cycles: {d['cycles']}    {ops}/{unit}/cycle: "
        f"{d['flops_per_cu_cycle']}",
        "    operand   type   VGPRs per lane   builtin argument / field",
    ]
    for key in "ABCD":
        arg = key.lower() if key != "D" else "result"
        lines.append(f"    {key:<9} {d['types'][key]:<6} {d['vgprs'][key]:<16} "
                     f"{arg} / {_FIELDS[key]}")
    lines.append("    modifiers: " + ("; ".join(d["modifiers"]) or "none"))
    return "\n".join(lines) + "\n"


def list_instructions(arch: str) -> list[dict]:
    """Every instruction of an AMD target: isa, builtin, wave, m, n, k, blocks, a/b/c types,
    cycles (sorted by ISA name, then wave)."""
    target = names.arch(arch)
    rows = [{"isa": i.isa, "builtin": i.builtin, "wave": i.wave, "m": i.m, "n": i.n, "k": i.k,
             "blocks": i.blocks, "a": T.short_name(i.a_type), "b": T.short_name(i.b_type),
             "c": T.short_name(i.c_type), "cycles": i.cycles}
            for i in target.instructions.values()]
    return sorted(rows, key=lambda r: (r["isa"], r["wave"]))

