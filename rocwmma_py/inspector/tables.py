"""Which lane and register holds which matrix element: instructions and fragments, as tables.

A `Layout` is the AMD Matrix Instruction Calculator's entry list: one row per placement,
`(block, row, col, lane, vgpr, bit_lo, bit_hi)` (a replicated element has several rows;
(row, col) is (i, k) for A, (k, j) for B, (i, j) for C/D). Two views render it:

* "element": element -> locations, the calculator's `--register-layout`, cells written in
  its syntax `v3{17}.[31:16]` (bare `v3{17}` for a whole VGPR, `v[1:0]{5}` for a pair);
* "register": (register, lane) -> element, the calculator's `--matrix-layout`.

Sources: `instruction_layout` (the instruction tables' operand maps), `fragment_layout` (a
rocWMMA or wmma fragment's register map: element e of `frag.x` is bits [e*w, e*w+w) of the
lane's packed registers) and `sm80_layout` (NVIDIA's documented mma.m16n8k16 fragments).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

import numpy as np

from .. import types as T
from ..arch import get_arch
from ..errors import LayoutQueryError
from ..rocwmma.fragment import fragment
from ..rocwmma.tags import accumulator, col_major, matrix_a, matrix_b, row_major

COLUMNS = ("block", "row", "col", "lane", "vgpr", "bit_lo", "bit_hi")
VIEWS = ("element", "register")
FORMATS = ("text", "csv", "markdown")

__all__ = [
    "COLUMNS", "FORMATS", "VIEWS", "Layout", "LayoutQueryError", "compare", "element_text",
    "fragment_class", "fragment_layout", "instruction_layout", "location_text", "parse_shape",
    "render", "render_compare", "sm80_layout",
]
_INDEX_NAMES = {"A": ("i", "k"), "B": ("k", "j"), "C": ("i", "j"), "D": ("i", "j")}



@dataclass(frozen=True, eq=False)
class Layout:
    """Placements of one operand: `entries` (n, 7) int64 in COLUMNS order."""

    title: str
    matrix: str  # "A", "B", "C" or "D"
    shape: tuple[int, int, int]  # (blocks, rows, cols)
    lanes: int
    entries: np.ndarray

    @property
    def index_names(self) -> tuple[str, str]:
        return _INDEX_NAMES[self.matrix]

    def locations(self) -> set[tuple[int, ...]]:
        """The entries as a set of tuples (comparable with the calculator's dumps)."""
        return set(map(tuple, self.entries.tolist()))

    def element_view(self) -> dict[tuple[int, int, int], list[tuple[int, int, int, int]]]:
        """(block, row, col) -> [(lane, vgpr, bit_lo, bit_hi), ...] in lane order."""
        out: dict = {}
        for b, r, c, *loc in self.entries[np.lexsort(self.entries.T[::-1])].tolist():
            out.setdefault((b, r, c), []).append(tuple(loc))
        return out

    def register_view(self) -> dict[tuple[int, int, int, int], tuple[int, int, int]]:
        """(vgpr, bit_lo, bit_hi, lane) -> (block, row, col)."""
        return {(v, lo, hi, lane): (b, r, c) for b, r, c, lane, v, lo, hi in self.entries.tolist()}


def _entries(block, row, col, lane, slot, bits) -> np.ndarray:
    start = np.asarray(slot) * bits
    vgpr, lo = start // 32, start % 32
    cols = (block, row, col, lane, vgpr, lo, lo + bits - 1)
    return np.stack([np.broadcast_to(np.asarray(c, np.int64), vgpr.shape).ravel() for c in cols],
                    axis=1)


# --- sources --------------------------------------------------------------------------------

def instruction_layout(name: str, arch: str, wave: int | None = None, matrix: str = "a",
                       opsel: int = 0) -> Layout:
    """Operand `matrix` (a, b, c or d) of an instruction, by ISA mnemonic or builtin name."""
    target = get_arch(arch)
    wave = wave or target.wave_size
    name = name.lower().removeprefix("__builtin_amdgcn_")
    found = [i for i in target.instructions.values()
             if (i.isa == name or i.builtin == name) and i.wave == wave]
    if not found:
        isas = sorted({i.isa for i in target.instructions.values() if i.wave == wave})
        raise LayoutQueryError(f"{target.name} (wave{wave}) has no instruction {name!r}; "
                               f"it has: {', '.join(isas)}")
    instr = found[0]
    key = matrix.upper()
    if key not in _INDEX_NAMES:
        raise LayoutQueryError(f"matrix must be a, b, c or d; got {matrix!r}")
    if key == "A":
        lay = instr.a_layout
    elif key == "B":
        lay = instr.b_layout
    else:
        lay = instr.c_layout(opsel)
    lane, slot = np.nonzero(lay.block >= 0)
    entries = _entries(lay.block[lane, slot], lay.row[lane, slot], lay.col[lane, slot], lane,
                       slot, lay.bits)
    suffix = f", OPSEL={opsel}" if opsel else ""
    return Layout(f"{instr.isa} {key} on {target.name} (wave{wave}{suffix})", key, lay.shape,
                  lay.lanes, entries)


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
    """The rocWMMA (`fragment[...]`) or wmma (`wmma.fragment[...]`) class of the parameters."""
    from ..cuda import wmma
    from ..rocwmma.fragment import fragment

    if matrix not in _MATRICES:
        raise LayoutQueryError(f"fragment must be one of {', '.join(_MATRICES)}; got {matrix!r}")
    if layout not in _LAYOUTS:
        raise LayoutQueryError(f"layout must be row or col; got {layout!r}")
    use = _MATRICES[matrix]
    params = (use, *shape, dtype) + ((_LAYOUTS[layout],) if layout else ())
    if use is accumulator and api == "wmma":
        params = params[:5]  # a wmma accumulator has no layout type
    if api == "wmma":
        return wmma.fragment[params]
    if api == "rocwmma":
        return fragment[params]
    raise LayoutQueryError(f"api must be rocwmma or wmma; got {api!r}")


def fragment_layout(frag_cls: type[fragment], arch: str) -> Layout:
    """The register map of a fragment class on `arch` (padding elements left out)."""
    target = get_arch(arch)
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
    key = matrix.upper()
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


# --- rendering ------------------------------------------------------------------------------

def location_text(lane: int, vgpr: int, lo: int, hi: int) -> str:
    """The calculator's syntax: v3{17}.[31:16], v3{17} (whole VGPR), v[1:0]{5} (pair)."""
    if hi - lo == 63:
        return f"v[{vgpr + 1}:{vgpr}]{{{lane}}}"
    if hi - lo == 31:
        return f"v{vgpr}{{{lane}}}"
    return f"v{vgpr}{{{lane}}}.[{hi}:{lo}]"


def element_text(layout: Layout, b: int, r: int, c: int) -> str:
    prefix = f"b{b}:" if layout.shape[0] > 1 else ""
    return f"{prefix}{layout.matrix}[{r}][{c}]"


def _register_text(vgpr: int, lo: int, hi: int) -> str:
    return location_text(0, vgpr, lo, hi).replace("{0}", "")


def _element_grids(layout: Layout):
    """Per block: header, rows of cells (matrix row label, then one cell per column)."""
    view = layout.element_view()
    blocks, rows, cols = layout.shape
    rn, cn = layout.index_names
    for b in range(blocks):
        header = [f"{rn}\\{cn}", *map(str, range(cols))]
        body = [[str(r)] + [" ".join(location_text(*loc) for loc in view.get((b, r, c), []))
                            for c in range(cols)] for r in range(rows)]
        title = f"{layout.title}, block {b}" if blocks > 1 else layout.title
        yield title, header, body


def _register_grid(layout: Layout):
    view = layout.register_view()
    slots = sorted({k[:3] for k in view})
    header = ["register", *(str(lane) for lane in range(layout.lanes))]
    body = [[_register_text(*s)] + [element_text(layout, *view[(*s, lane)])
                                    if (*s, lane) in view else "-"
                                    for lane in range(layout.lanes)] for s in slots]
    return f"{layout.title}: (register, lane) -> element", header, body


def _grids(layout: Layout, view: str):
    if view == "element":
        return list(_element_grids(layout))
    if view == "register":
        return [_register_grid(layout)]
    raise LayoutQueryError(f"view must be one of {', '.join(VIEWS)}; got {view!r}")


def _csv(layout: Layout, view: str) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    e = layout.entries
    if view == "element":
        w.writerow(COLUMNS)
        w.writerows(e[np.lexsort(e.T[::-1])].tolist())
    else:
        order = (4, 5, 6, 3, 0, 1, 2)  # vgpr, bits, lane, then the element
        w.writerow([COLUMNS[i] for i in order])
        w.writerows(e[:, order][np.lexsort(e[:, order].T[::-1])].tolist())
    return out.getvalue()


def _text_table(title, header, body) -> str:
    widths = [max(len(row[i]) for row in [header, *body]) for i in range(len(header))]
    lines = [title, "  ".join(h.rjust(w) for h, w in zip(header, widths, strict=True))]
    lines += ["  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)) for row in body]
    return "\n".join(lines) + "\n"


def _markdown_table(title, header, body) -> str:
    esc = [[c.replace("|", "\\|") for c in row] for row in [header, *body]]
    lines = [f"**{title}**", "", "| " + " | ".join(esc[0]) + " |",
             "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in esc[1:]]
    return "\n".join(lines) + "\n"


def render(layout: Layout, view: str = "element", fmt: str = "text") -> str:
    """One view of a layout as text, csv or markdown."""
    if fmt == "csv":
        _grids(layout, view)  # validates the view name
        return _csv(layout, view)
    table = {"text": _text_table, "markdown": _markdown_table}.get(fmt)
    if table is None:
        raise LayoutQueryError(f"format must be one of {', '.join(FORMATS)}; got {fmt!r}")
    return "\n".join(table(*g) for g in _grids(layout, view))


def render_compare(first: Layout, second: Layout, fmt: str = "text") -> str:
    """The elements that moved between two layouts, with both locations."""
    diff = compare(first, second)
    header = ["element", first.title, second.title]
    body = [[element_text(first, *e), " ".join(location_text(*x) for x in one) or "-",
             " ".join(location_text(*x) for x in two) or "-"] for e, one, two in diff]
    total = len(set(first.element_view()) | set(second.element_view()))
    title = f"{len(diff)} of {total} elements sit in a different lane/register"
    if fmt == "csv":
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerows([header, *body])
        return out.getvalue()
    table = {"text": _text_table, "markdown": _markdown_table}.get(fmt)
    if table is None:
        raise LayoutQueryError(f"format must be one of {', '.join(FORMATS)}; got {fmt!r}")
    return table(title, header, body)
