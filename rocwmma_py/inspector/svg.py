"""Pictures of a layout in the style of AMD's matrix-core blog figures: one SVG renderer (no
dependency); PNG is that SVG rasterised by cairosvg (the `plot` extra: `pip install '.[plot]'`).

Left: the matrix (blocks of a multi-block operand tiled as a grid), row and column indices
along the axes, each cell coloured by the lane holding it and labelled with that lane and
register. Right: the register file, lanes across and registers down, wrapped into bands of
lanes, each cell labelled with the element it holds. Below: a legend (what the labels mean,
replicated copies, the lane colours). Tooltips (<title>) list every copy.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from ..errors import OptionalDependencyError
from .drawing import (
    AXIS,
    CELL_H,
    CELL_W,
    GAP,
    LINE_H,
    MARGIN,
    TITLE_H,
    _copies,
    _text,
    _tiling,
    colour_key,
    document,
)
from .layout import Layout, _run, cell_text, elements_text, location_text, register_text
from .overview import overview
from .palette import lane_colour


def _part(vgpr: int, lo: int, hi: int, matrix: str = "") -> str:
    """Compact register label: v3 (whole VGPR), v3.1 (part 1 of sub-dword elements), v[1:0];
    the bits of a sparse index nibble (K): v0[11:8]."""
    bits = hi - lo + 1
    if matrix == "K":
        return f"v{vgpr}[{hi}:{lo}]"
    if bits == 64:
        return f"v[{vgpr + 1}:{vgpr}]"
    return f"v{vgpr}" if bits == 32 else f"v{vgpr}.{lo // bits}"


def _cell(x: float, y: float, kind: str, fill: str, lines: list[str], tip: str) -> str:
    ty = y + CELL_H / 2 - 5 * (len(lines) - 1) + 3
    spans = "".join(f'<tspan x="{x + CELL_W / 2:g}" dy="{0 if i == 0 else 10}">{escape(t)}'
                    "</tspan>" for i, t in enumerate(lines))
    return (f'<g class="{kind}"><title>{escape(tip)}</title>'
            f'<rect x="{x:g}" y="{y:g}" width="{CELL_W}" height="{CELL_H}" fill="{fill}" '
            f'stroke="#ffffff" stroke-width="1"/>'
            f'<text class="{kind}-label" y="{ty:g}" font-size="8" text-anchor="middle">'
            f"{spans}</text></g>")


def _matrix_panel(layout: Layout, x0: float, y0: float) -> tuple[list[str], float, float]:
    blocks, rows, cols = layout.shape
    rn, cn = layout.index_names
    view = layout.element_view()
    across = _tiling(blocks, rows, cols)
    bw, bh = AXIS + cols * CELL_W, AXIS + rows * CELL_H + (14 if blocks > 1 else 0)
    parts = [_text(x0, y0 + 10, f"{layout.matrix}[{rn}][{cn}]: rows {rn} down, columns "
                   f"{cn} across", 11, "start", "axis-title")]
    y0 += 18
    for b in range(blocks):
        bx = x0 + (b % across) * (bw + GAP)
        by = y0 + (b // across) * (bh + GAP)
        if blocks > 1:
            parts.append(_text(bx + AXIS, by + 10, f"block {b}", 10, "start", "block-title",
                               "bold"))
            by += 14
        parts += [_text(bx + AXIS + c * CELL_W + CELL_W / 2, by + AXIS - 8, str(c), 9,
                        cls="col-index") for c in range(cols)]
        parts += [_text(bx + AXIS - 6, by + AXIS + r * CELL_H + CELL_H / 2 + 3, str(r), 9,
                        "end", "row-index") for r in range(rows)]
        for r in range(rows):
            for c in range(cols):
                locs = view.get((b, r, c))
                if not locs:
                    continue
                lane, vgpr, lo, hi = locs[0]
                extra = f" +{len(locs) - 1}" if len(locs) > 1 else ""
                where = f"block {b} " if blocks > 1 else ""
                tip = (f"{where}{layout.matrix}[{r}][{c}]: "
                       + " ".join(location_text(*x) for x in locs))
                parts.append(_cell(bx + AXIS + c * CELL_W, by + AXIS + r * CELL_H, "element",
                                   lane_colour(lane),
                                   [f"L{lane}{extra}", _part(vgpr, lo, hi, layout.matrix)],
                                   tip))
    down = -(-blocks // across)
    return parts, across * (bw + GAP) - GAP, 18 + down * (bh + GAP) - GAP


def _register_panel(layout: Layout, x0: float, y0: float) -> tuple[list[str], float, float]:
    regs = layout.register_view()
    slots = sorted({k[:3] for k in regs})
    label_w = 8 + 6 * max(len(register_text(*s)) for s in slots)
    band = min((g for g in (8, 16, 32, 64) if g <= layout.lanes and layout.lanes % g == 0),
               key=lambda g: abs(math.log((g * CELL_W) /
                                          ((layout.lanes // g) * (len(slots) * CELL_H + AXIS)))))
    bands = layout.lanes // band
    parts = [_text(x0, y0 + 10, f"register file: registers down, lanes across ({band} lanes "
                   "a band)", 11, "start", "axis-title")]
    y0 += 18
    for k in range(bands):
        by = y0 + k * (len(slots) * CELL_H + AXIS)
        for i in range(band):
            lane = k * band + i
            parts.append(_text(x0 + label_w + i * CELL_W + CELL_W / 2, by + AXIS - 8,
                               str(lane), 9, cls="lane-index"))
        for s_i, slot in enumerate(slots):
            y = by + AXIS + s_i * CELL_H
            parts.append(_text(x0 + label_w - 6, y + CELL_H / 2 + 3, register_text(*slot), 9,
                               "end", "register-index"))
            for i in range(band):
                lane = k * band + i
                key = (*slot, lane)
                if key not in regs:
                    continue
                held = regs[key]
                if len(held) == 1:
                    b, r, c = held[0]
                    where = f"block {b} " if layout.shape[0] > 1 else ""
                    what = f"{where}{layout.matrix}[{r}][{c}]"
                else:
                    what = elements_text(layout, held)
                tip = f"{location_text(lane, *slot)}: {what}"
                parts.append(_cell(x0 + label_w + i * CELL_W, y, "register", lane_colour(lane),
                                   [cell_text(layout, held)], tip))
    return parts, label_w + band * CELL_W, 18 + bands * (len(slots) * CELL_H + AXIS)


def _legend(layout: Layout, x0: float, y0: float, width: float) -> tuple[list[str], float]:
    bits = layout.bits
    if layout.matrix == "K":
        reg = "v0[11:8] = bits 11:8 of the index VGPR"
    elif bits == 64:
        reg = "v[1:0] = the 64-bit register pair"
    elif bits == 32:
        reg = "v3 = the whole 32-bit VGPR 3"
    else:
        reg = f"v3.1 = VGPR 3, part 1 (bits [{2 * bits - 1}:{bits}]; {32 // bits} parts a VGPR)"
    blocks = " (b:row,col = block b)" if layout.shape[0] > 1 else ""
    if any(len(e) > 1 and _run(e) for e in layout.register_view().values()):
        blocks += "; 'row,c0..c3' = columns c0 to c3, which share it"
    lines = [*([layout.note[0].upper() + layout.note[1:] + "."] if layout.note else []),
        f"Matrix cell: 'L17' = lane 17 holds this element; '+1' = one more copy in another "
        f"lane (hover for every copy); second line = register: {reg}.",
        f"Register cell: 'row,col' of the element it holds{blocks}; blank = unused. "
        "Registers are numbered from the operand's first VGPR.",
        _copies(layout),
        "Colour = lane (key below): neighbouring lanes differ in hue, each group of 16 lanes "
        "has its own lightness.",
    ]
    parts = ['<g class="legend">', _text(x0, y0 + 12, "Legend", 11, "start", weight="bold")]
    y = y0 + 12
    for line in lines:
        y += LINE_H
        parts.append(_text(x0, y, line, 10, "start", "legend-text"))
    y += 10
    parts += colour_key(x0, y, width, [lane_colour(n) for n in range(layout.lanes)],
                        {n: str(n) for n in range(0, layout.lanes, 8)}, "lane")
    parts.append("</g>")
    return parts, y + 30 - y0


# Above these the labelled picture is unreadable as a whole: `svg` draws the overview.
MAX_SIDE, MAX_BYTES = 2400, 500_000


def svg(layout: Layout, full: bool = False) -> str:
    """Both views of `layout` and a legend as one SVG document (white background); when that
    is larger than MAX_SIDE px or MAX_BYTES, the unlabelled overview (`overview.py`) instead,
    unless `full`."""
    text, width, height = _labelled(layout)
    if full or (max(width, height) <= MAX_SIDE and len(text) <= MAX_BYTES):
        return text
    return overview(layout)


def _labelled(layout: Layout) -> tuple[str, float, float]:
    """The full picture, every cell labelled, and its size."""
    top = MARGIN + TITLE_H
    matrix, mw, mh = _matrix_panel(layout, MARGIN, top)
    regs, rw, rh = _register_panel(layout, MARGIN + mw + 2 * GAP, top)
    width = MARGIN + mw + 2 * GAP + rw + MARGIN
    legend, lh = _legend(layout, MARGIN, top + max(mh, rh) + GAP, width - 2 * MARGIN)
    height = top + max(mh, rh) + GAP + lh + MARGIN
    return document(layout.title, width, height, matrix + regs + legend), width, height


def png(layout: Layout, path: str, scale: float = 2.0, full: bool = False) -> None:
    """The SVG picture (`svg`) rasterised to a PNG file (needs cairosvg: the `plot` extra)."""
    try:
        import cairosvg  # pyright: ignore[reportMissingImports] - the optional plot extra
    except ImportError:
        raise OptionalDependencyError(
            "PNG output needs cairosvg: pip install cairosvg (or, in a checkout, "
            "pip install '.[plot]'); --svg needs nothing") from None
    cairosvg.svg2png(bytestring=svg(layout, full).encode(), write_to=str(path),
                     scale=scale)  # pyright: ignore[reportArgumentType] - inferred from `=1`
