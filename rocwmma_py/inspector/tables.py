"""Which lane and register holds which matrix element: the inspector's Python face.

Sources: `instruction_layout` (the instruction tables' operand maps), `fragment_layout` (a
rocWMMA or wmma fragment's register map: element e of `frag.x` is bits [e*w, e*w+w) of the
lane's packed registers) and `sm80_layout` (NVIDIA's documented mma.m16n8k16 fragments).
Queries (the AMD Matrix Instruction Calculator's): `element_location` (--get-register),
`register_contents` (--matrix-entry), `instruction_details` (--detail-instruction),
`list_instructions` (--list-instructions); `render` gives the whole "element" view
(--register-layout) or "register" view (--matrix-layout) as text, csv or markdown.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from .. import types as T
from ..arch import layouts as L
from ..arch.instructions import MX_FORMATS
from ..errors import LayoutQueryError
from ..rocwmma.fragment import fragment
from ..rocwmma.tags import accumulator, col_major, matrix_a, matrix_b, row_major
from . import modifiers as MOD
from . import names
from . import sparse as SP
from .details import details_text, instruction_details, list_instructions
from .formats import FORMATS, VIEWS, render, table
from .layout import COLUMNS, INDEX_NAMES, Layout, element_text, location_text, register_text

__all__ = [
    "COLUMNS", "FORMATS", "VIEWS", "Layout", "LayoutQueryError", "compare", "details_text",
    "element_location", "element_text", "fragment_class", "fragment_layout",
    "instruction_details", "instruction_layout", "list_instructions", "location_text",
    "parse_shape", "register_contents", "register_text", "render", "render_compare",
    "sm80_layout",
]


def element_location(layout: Layout, row: int, col: int, block: int = 0
                     ) -> list[tuple[int, int, int, int]]:
    """[(lane, vgpr, bit_lo, bit_hi), ...]: every copy of element (row, col) of `block`."""
    return layout.where(row, col, block)


def register_contents(layout: Layout, vgpr: int, lane: int
                      ) -> list[tuple[tuple[int, int, int, int], tuple[int, int, int]]]:
    """[((lane, vgpr, bit_lo, bit_hi), (block, row, col)), ...]: what VGPR `vgpr` of `lane`
    holds, low bits first ([] if unused)."""
    return layout.at(vgpr, lane)


def _entries(block, row, col, lane, slot, bits) -> np.ndarray:
    start = np.asarray(slot) * bits
    vgpr, lo = start // 32, start % 32
    cols = (block, row, col, lane, vgpr, lo, lo + bits - 1)
    return np.stack([np.broadcast_to(np.asarray(c, np.int64), vgpr.shape).ravel() for c in cols],
                    axis=1)


# --- sources --------------------------------------------------------------------------------

def instruction_layout(name: str, arch: str, wave: int | None = None, matrix: str = "a",
                       opsel: int = 0, *, abid: int = 0, cbsz: int = 0,
                       blgp: int | None = None, compressed: bool = False) -> Layout:
    """Operand `matrix` (a, b, c, d, or k: a sparse instruction's index register) of an
    instruction, by ISA mnemonic or builtin name. `opsel` (0 or 1) picks the VGPR half of a
    gfx11 16-bit C/D; elsewhere it must be 0, except for K of a gfx12 sparse instruction,
    where it is the index set (as `abid`, with `cbsz` 0, is on gfx9). On a dense multi-block
    gfx9 MFMA `cbsz`/`abid` broadcast an A block and `blgp` moves B's lanes (NEG on CDNA3
    f64), as the calculator shows them (`modifiers.py`).

    A of a sparse instruction is by dense (i, k), M x K, as the calculator shows it: the four
    k of a group at the slot of its two stored values; `compressed=True` gives the stored
    values instead (M x K/2, column kk, each at its own element). A/B of gfx950's MX
    instructions are shown in the format `cbsz` (A) / `blgp` (B) picks (0 fp8 ... 4 fp4)."""
    target = names.arch(arch)
    instr = names.instruction(name, target, wave)
    key = str(matrix).upper()
    if key not in INDEX_NAMES:
        raise LayoutQueryError(f"matrix must be a, b, c, d or k (or sa/sb, the scales of "
                               f"an MX instruction); got {matrix!r}")
    if key in ("SA", "SB") and not (instr.mx or instr.scale_bytes):
        raise LayoutQueryError(f"sa/sb are the block-scale operands of the MX instructions "
                               f"(gfx950 v_mfma_scale_*, gfx1250 v_wmma_scale*); {instr.isa} "
                               "has none")
    if compressed and not (instr.sparse and key == "A"):
        raise LayoutQueryError(f"the compressed view is A of a sparse instruction (v_smfmac_*, "
                               f"v_swmmac_*); {instr.isa} {key} has none")
    if instr.sparse:
        if blgp is not None:
            raise LayoutQueryError(f"{instr.isa} takes no BLGP (CBSZ/ABID pick its index set)")
        return _sparse_layout(instr, target.name, key, opsel, abid, cbsz, compressed)
    if instr.mx or instr.mx_wmma:
        return _mx_layout(instr, target.name, key, opsel, abid, cbsz, blgp or 0)
    if key == "K":
        raise LayoutQueryError(f"matrix k is the index register of a 4:2 sparse instruction "
                               f"(v_smfmac_*, v_swmmac_*); {instr.isa} is dense: give a, b, c "
                               "or d")
    if opsel not in (0, 1) or isinstance(opsel, bool):
        raise LayoutQueryError(f"opsel must be 0 or 1 (the calculator's OPSEL=4 is 1); "
                               f"got {opsel!r}")
    if opsel and ("opsel" not in instr.args or key in "AB"):
        raise LayoutQueryError(
            f"OPSEL applies only to C/D of gfx11 WMMA with 16-bit results "
            f"(v_wmma_f16_16x16x16_f16, v_wmma_bf16_16x16x16_bf16) and to K of gfx12 sparse "
            f"v_swmmac (the index set); {instr.isa} {key} on {target.name} has none")
    suffix = f", OPSEL={opsel}" if "opsel" in instr.args and key in "CD" else ""
    return MOD.apply(_operand_layout(instr, f"{instr.isa} {key} on {target.name} "
                                     f"(wave{instr.wave}{suffix})", key, opsel),
                     instr, target.name, cbsz, abid, blgp)


def _mx_layout(instr, arch: str, key: str, opsel: int, abid: int, cbsz: int,
               blgp: int) -> Layout:
    """A/B of an MX instruction in the formats CBSZ/BLGP pick (gfx1250: the matrix_a_fmt /
    matrix_b_fmt codes; fp4 on the f4 rows), C/D as usual, or SA/SB: the lane and byte of
    the scale of each A (B) element. gfx950: lane i + M*kb, K block kb = k // 32, byte OPSEL,
    as the CDNA formula places A's own 32 values (an inference); gfx1250: --opsel is the
    selector (lanes 0-15 or 16-31) and byte kb the K block (`wmma1250_scale_lanes`)."""
    fields = ("cbsz", "blgp") if instr.mx else ("matrix_a_fmt", "matrix_b_fmt")
    codes = range(len(MX_FORMATS) if instr.mx or fields[0] in instr.args else 1)
    for flag, value in (("cbsz", cbsz), ("blgp", blgp)):
        if value not in codes or isinstance(value, bool):
            raise LayoutQueryError(f"--{flag} is an MX format code 0..4 (fp8, bf8, fp6, bf6, "
                                   f"fp4) on {instr.isa}; got {value!r}" if len(codes) > 1 else
                                   f"{instr.isa} reads fp4 only: --{flag} must be 0")
    head = f"{instr.isa} {key} on {arch} (wave{instr.wave}"
    if key in ("SA", "SB") and instr.mx_wmma:
        if opsel not in range(2) or isinstance(opsel, bool):
            raise LayoutQueryError(f"--opsel is the scale selector of {instr.isa} (0: lanes "
                                   f"0-15, 1: lanes 16-31); got {opsel!r}")
        dim = instr.n if key == "SB" else instr.m
        block = instr.k // instr.scale_bytes
        lane, byte = L.wmma1250_scale_lanes(dim, instr.k, block, opsel)
        k = np.broadcast_to(np.arange(instr.k), lane.shape)
        x = np.broadcast_to(np.arange(dim)[:, None], lane.shape)
        rc = (k, x) if key == "SB" else (x, k)
        shape = (1, instr.k, dim) if key == "SB" else (1, dim, instr.k)
        return Layout(head + f", sel={opsel}: byte k//{block} of the "
                      f"{8 * instr.scale_bytes}-bit scale word)", key, shape, instr.wave,
                      _entries(0, *rc, lane, byte, 8), note=(
                          f"the {block} k of a K block share one scale byte"))
    if key in ("SA", "SB"):
        if opsel not in range(4) or isinstance(opsel, bool):
            raise LayoutQueryError(f"--opsel picks the scale byte (0..3) of {instr.isa}; "
                                   f"got {opsel!r}")
        dim = instr.n if key == "SB" else instr.m
        x, k = np.meshgrid(np.arange(dim), np.arange(instr.k), indexing="ij")
        lane = x + dim * (k // 32)
        rc = (k, x) if key == "SB" else (x, k)
        shape = (1, instr.k, dim) if key == "SB" else (1, dim, instr.k)
        entries = _entries(0, *rc, lane, np.full_like(lane, opsel), 8)
        return Layout(head + f", OPSEL={opsel}: E8M0 byte {opsel} of the scale word)", key,
                      shape, instr.wave, entries, note=(
                          "the 32 k of a K block share one scale byte: the lane holding "
                          "those values (inferred)"))
    if key == "K" or abid or opsel:
        raise LayoutQueryError(f"{instr.isa} has no index register or ABID, and its OPSEL "
                               "picks a scale byte: give a, b, c, d, or sa/sb (--opsel 0..3)")
    if key in "CD":
        return _operand_layout(instr, head + ")", key)
    code = cbsz if key == "A" else blgp
    fmt = MX_FORMATS[code] if len(codes) > 1 else instr.a_type
    field = fields[key == "B"].upper() if instr.mx else fields[key == "B"]
    return _operand_layout(instr, f"{head}, {field}={code}: {T.short_name(fmt)})", key,
                           lay=instr.mx_layout(fmt, key == "B"))


def _operand_layout(instr, title: str, key: str, opsel: int = 0, lay=None) -> Layout:
    """The operand map of the instruction table as it is (A compressed when sparse), or
    `lay` when given."""
    lay = lay or (instr.b_layout if key == "B" else instr.c_layout(opsel) if key in "CD" else
                  instr.a_layout)
    lane, slot = np.nonzero(lay.block >= 0)
    entries = _entries(lay.block[lane, slot], lay.row[lane, slot], lay.col[lane, slot], lane,
                       slot, lay.bits)
    return Layout(title, key, lay.shape, lay.lanes, entries)


def _sparse_layout(instr, arch: str, key: str, opsel: int, abid: int, cbsz: int,
                   compressed: bool) -> Layout:
    """A by dense k (or compressed), K for the chosen index set, or the dense B, C, D."""
    head = f"{instr.isa} {key} on {arch} (wave{instr.wave}"
    if key != "K" and (opsel or abid or cbsz):
        what = "OPSEL picks" if opsel else "ABID/CBSZ pick"
        raise LayoutQueryError(f"{what} the index set of {instr.isa}: it applies to --matrix k "
                               f"only (the index register), not {key}")
    if key in "BCD":
        return _operand_layout(instr, head + ")", key)
    if key == "A" and compressed:
        lay = _operand_layout(instr, head + f", compressed: {instr.m} x {instr.a_k} stored "
                              "values)", key)
        return dataclasses.replace(lay, names=("i", "kk"), note=(
            "kk 2g and 2g+1: the 2 values kept of dense k 4g..4g+3 (K says which)"))
    block, row, k, lane, pair = SP.group_slots(instr)
    shape = (instr.blocks, instr.m, instr.k)
    if key == "A":
        bits = 2 * T.bits(instr.a_type)
        return Layout(head + ", dense k)", key, shape, instr.a_layout.lanes,
                      _entries(block, row, k, lane, pair, bits), note=(
                          f"the 4 k of a group share the {bits}-bit slot of its 2 stored values "
                          "(low half: the first)"))
    chosen = SP.index_set(instr, opsel, abid, cbsz)
    if "abid" in instr.args:
        how = f"CBSZ={cbsz}, ABID={abid}: " if cbsz else f"ABID={abid}: "
    else:
        how = f"OPSEL={opsel}: "
    return Layout(head + f", {how}index set {chosen} of {instr.index_sets})", key, shape,
                  instr.a_layout.lanes,
                  _entries(block, row, k, lane, pair + SP.index_pair_offset(instr, chosen), 4),
                  note=("the 4 k of a group share a 4-bit nibble: its 2 indices (low 2 bits: "
                        "the first)"))


_MATRICES = {"a": matrix_a, "b": matrix_b, "c": accumulator, "acc": accumulator,
             "accumulator": accumulator}
_LAYOUTS = {"row": row_major, "col": col_major, None: None}


def parse_shape(text: str) -> tuple[int, int, int]:
    """"16x16x16" -> (16, 16, 16)."""
    try:
        m, n, k = (int(p) for p in text.lower().split("x"))
    except ValueError:
        raise LayoutQueryError(f"shape must look like MxNxK (e.g. 16x16x16); got {text!r}"
                               ) from None
    return m, n, k


def fragment_class(matrix: str, shape: tuple[int, int, int], dtype, layout: str | None,
                   api: str = "rocwmma") -> type:
    """The rocWMMA (`fragment[...]`) or wmma (`wmma.fragment[...]`) class of the parameters;
    a wmma accumulator takes no layout (refused rather than dropped)."""
    from ..cuda import wmma
    from ..rocwmma.fragment import fragment

    if matrix not in _MATRICES:
        raise LayoutQueryError(f"fragment must be one of {', '.join(_MATRICES)}; got {matrix!r}")
    if layout not in _LAYOUTS:
        raise LayoutQueryError(f"layout must be row or col; got {layout!r}")
    if api not in ("rocwmma", "wmma"):
        raise LayoutQueryError(f"api must be rocwmma or wmma; got {api!r}")
    use = _MATRICES[matrix]
    if use is accumulator and api == "wmma" and layout:
        raise LayoutQueryError("a wmma accumulator fragment has no layout type (the layout is "
                               "given to load/store_matrix_sync); drop the layout")
    elem = names.dtype(dtype) if isinstance(dtype, str) else dtype
    params = (use, *shape, elem) + ((_LAYOUTS[layout],) if layout else ())
    template: Any = wmma.fragment if api == "wmma" else fragment
    return template[params]


def fragment_layout(frag_cls: type[fragment], arch: str) -> Layout:
    """The register map of a fragment class on `arch` (padding elements left out)."""
    target = names.arch(arch)
    fmap = frag_cls.map(target)
    dims: dict[type, tuple[int, int]] = {matrix_a: (frag_cls.frag_m, frag_cls.frag_k),
                                         matrix_b: (frag_cls.frag_k, frag_cls.frag_n)}
    height, width = dims.get(frag_cls.matrix, (frag_cls.frag_m, frag_cls.frag_n))
    element, lane = np.nonzero((fmap.row < height) & (fmap.col < width))
    entries = _entries(0, fmap.row[element, lane], fmap.col[element, lane], lane, element,
                       T.bits(frag_cls.data_type))
    keys: dict[type, str] = {matrix_a: "A", matrix_b: "B"}
    key = keys.get(frag_cls.matrix, "C")
    return Layout(f"{frag_cls.__name__} on {target.name} (wave{target.wave_size})", key,
                  (1, height, width), target.wave_size, entries)


def sm80_layout(matrix: str) -> Layout:
    """NVIDIA's documented fragments of mma.m16n8k16 (f16 A/B, f32 C/D; PTX ISA "Matrix
    Fragments for mma.m16n8k16 with floating point type"): lane = 4*groupID + threadID_in_group;
    x[i] of A is row groupID (+8 for i in 2,3,6,7), col 2*threadID_in_group + (i&1) (+8 for
    i >= 4); B: row 2*threadID_in_group + (i&1) (+8 for i >= 2), col groupID; C/D: row
    groupID (+8 for i >= 2), col 2*threadID_in_group + (i&1)."""
    key = str(matrix).upper()
    lane = np.arange(32)[None, :]
    group, tig = lane // 4, lane % 4
    if key == "A":
        i = np.arange(8)[:, None]
        row = group + 8 * ((i // 2) % 2)
        col = 2 * tig + (i & 1) + 8 * (i // 4)
        shape, bits = (16, 16), 16
    elif key == "B":
        i = np.arange(4)[:, None]
        row, col = 2 * tig + (i & 1) + 8 * (i // 2), group + 0 * i
        shape, bits = (16, 8), 16
    elif key in ("C", "D"):
        i = np.arange(4)[:, None]
        row, col = group + 8 * (i // 2), 2 * tig + (i & 1)
        shape, bits = (16, 8), 32
    else:
        raise LayoutQueryError(f"matrix must be a, b, c or d; got {matrix!r}")
    lanes = np.broadcast_to(lane, row.shape)
    slots = np.broadcast_to(i, row.shape)
    return Layout(f"mma.m16n8k16 {key} on sm_80 (PTX ISA, warp32)", key, (1, *shape), 32,
                  _entries(0, row, col, lanes, slots, bits))


# --- comparison -----------------------------------------------------------------------------

def compare(first: Layout, second: Layout) -> list[tuple[tuple[int, int, int], list, list]]:
    """Elements whose (lane, register, bits) differ: [(element, locations 1, locations 2)]."""
    one, two = first.element_view(), second.element_view()
    return [(e, one.get(e, []), two.get(e, [])) for e in sorted(set(one) | set(two))
            if one.get(e) != two.get(e)]




def render_compare(first: Layout, second: Layout, fmt: str = "text") -> str:
    """The elements that moved between two layouts, with both locations ('-': absent)."""
    diff = compare(first, second)
    one, two = first.element_view(), second.element_view()
    total = len(set(one) | set(two))
    lines = [f"{len(diff)} of {total} elements sit in a different lane/register",
             f"  1: {first.title}", f"  2: {second.title}"]
    if first.shape != second.shape:
        lines.append(f"  the shapes differ ({'x'.join(map(str, first.shape[1:]))} and "
                     f"{'x'.join(map(str, second.shape[1:]))}): '-' marks an element only one "
                     "of them has")
    body = [[element_text(first, *e), " ".join(location_text(*x) for x in a) or "-",
             " ".join(location_text(*x) for x in b) or "-"] for e, a, b in diff]
    header = ["element", first.title, second.title] if fmt == "csv" else ["element", "1", "2"]
    return table("\n".join(lines), header, body, fmt)
