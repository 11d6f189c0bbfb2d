"""Pictures of a layout in the style of AMD's matrix-core blog figures: one SVG renderer (no
dependency); PNG is that SVG rasterised by cairosvg (`pip install 'rocwmma-py[plot]'`).

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
from .layout import Layout, cell_text, elements_text, location_text, register_text
from .palette import lane_colour

CELL_W, CELL_H = 44, 26  # matrix and register cells
AXIS = 30  # room for indices along the axes
GAP = 36  # between panels and blocks
MARGIN = 16
TITLE_H = 40
LINE_H = 15  # legend lines
FONT = "DejaVu Sans Mono, Menlo, Consolas, monospace"


def _part(vgpr: int, lo: int, hi: int, matrix: str = "") -> str:
    """Compact register label: v3 (whole VGPR), v3.1 (part 1 of sub-dword elements), v[1:0];
    the bits of a sparse index nibble (K): v0[11:8]."""
    bits = hi - lo + 1
    if matrix == "K":
        return f"v{vgpr}[{hi}:{lo}]"
    if bits == 64:
        return f"v[{vgpr + 1}:{vgpr}]"
    return f"v{vgpr}" if bits == 32 else f"v{vgpr}.{lo // bits}"


def _text(x: float, y: float, s: str, size: int = 9, anchor: str = "middle", cls: str = "",
          weight: str = "normal") -> str:
    c = f' class="{cls}"' if cls else ""
    w = ' font-weight="bold"' if weight == "bold" else ""
    return (f'<text{c} x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}"{w}>'
            f"{escape(s)}</text>")


def _cell(x: float, y: float, kind: str, fill: str, lines: list[str], tip: str) -> str:
    ty = y + CELL_H / 2 - 5 * (len(lines) - 1) + 3
    spans = "".join(f'<tspan x="{x + CELL_W / 2:g}" dy="{0 if i == 0 else 10}">{escape(t)}'
                    "</tspan>" for i, t in enumerate(lines))
    return (f'<g class="{kind}"><title>{escape(tip)}</title>'
            f'<rect x="{x:g}" y="{y:g}" width="{CELL_W}" height="{CELL_H}" fill="{fill}" '
            f'stroke="#ffffff" stroke-width="1"/>'
            f'<text class="{kind}-label" y="{ty:g}" font-size="8" text-anchor="middle">'
            f"{spans}</text></g>")


def _tiling(count: int, rows: int, cols: int) -> int:
    """How many items of rows x cols cells to put side by side (a divisor of `count`, so the
    grid is full) to make it squarest."""
    def skew(across: int) -> float:
        down = -(-count // across)
        return abs(math.log((across * (cols * CELL_W + GAP)) / (down * (rows * CELL_H + GAP))))
    return min((d for d in range(1, count + 1) if count % d == 0), key=skew)


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


def _copies(layout: Layout) -> str:
    view = layout.element_view().values()
    most = max(len(locs) for locs in view)
    if most == 1:
        return "Every element is held by exactly one lane."
    offsets = {tuple(loc[0] - locs[0][0] for loc in locs[1:]) for locs in view}
    if len(offsets) == 1:
        (off,) = offsets
        return (f"Replicated: every element is held {most} times, by the lane shown and lanes "
                f"{', '.join(f'+{d}' for d in off)}; those copies have the same colour family "
                "in the register file.")
    return "Replicated: some elements are held by several lanes (the lowest is shown)."


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
    if any(len(e) > 1 for e in layout.register_view().values()):
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
    key_w = min(CELL_W, (width - 40) / layout.lanes)
    for lane in range(layout.lanes):
        x = x0 + 40 + lane * key_w
        parts.append(f'<rect class="lane-key" x="{x:g}" y="{y:g}" width="{key_w:g}" '
                     f'height="14" fill="{lane_colour(lane)}"/>')
        if lane % 8 == 0:
            parts.append(_text(x + 1, y + 26, str(lane), 9, "start"))
    parts.append(_text(x0, y + 11, "lane", 10, "start"))
    parts.append("</g>")
    return parts, y + 30 - y0


def svg(layout: Layout) -> str:
    """Both views of `layout` and a legend as one SVG document (white background)."""
    top = MARGIN + TITLE_H
    matrix, mw, mh = _matrix_panel(layout, MARGIN, top)
    regs, rw, rh = _register_panel(layout, MARGIN + mw + 2 * GAP, top)
    width = MARGIN + mw + 2 * GAP + rw + MARGIN
    legend, lh = _legend(layout, MARGIN, top + max(mh, rh) + GAP, width - 2 * MARGIN)
    height = top + max(mh, rh) + GAP + lh + MARGIN
    head = [f'<rect class="background" x="0" y="0" width="{width:g}" height="{height:g}" '
            'fill="#ffffff"/>',
            _text(MARGIN, MARGIN + 14, layout.title, 15, "start", "title", "bold")]
    body = "".join(head + matrix + regs + legend)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
            f'viewBox="0 0 {width:g} {height:g}" font-family="{FONT}" fill="#111111">'
            f"<title>{escape(layout.title)}</title>{body}</svg>\n")


def png(layout: Layout, path: str, scale: float = 2.0) -> None:
    """The SVG picture rasterised to a PNG file (needs cairosvg: the `plot` extra)."""
    try:
        import cairosvg  # pyright: ignore[reportMissingImports] - the optional plot extra
    except ImportError:
        raise OptionalDependencyError(
            "PNG output needs cairosvg: pip install 'rocwmma-py[plot]' (or write --svg, "
            "which needs nothing)") from None
    cairosvg.svg2png(bytestring=svg(layout).encode(), write_to=str(path),
                     scale=scale)  # pyright: ignore[reportArgumentType] - inferred from `=1`
