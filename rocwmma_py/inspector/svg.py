"""The colour grids of AMD's matrix-core blog posts as dependency-free SVG (PNG optional).

Left: the matrix, each cell coloured by the lane holding it and labelled lane / register
(a replicated element shows its first copy; its tooltip lists all). Right: the register
file, lanes across and registers down, each cell labelled with the element it holds.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from ..errors import MissingDependencyError
from .tables import Layout, location_text

CELL_W, CELL_H, GAP, TOP = 46, 26, 40, 34


def _colour(lane: int, lanes: int) -> str:
    return f"hsl({round(360 * lane / lanes)},65%,80%)"


def _cell(x, y, kind, fill, lines, tip) -> str:
    text = "".join(f'<tspan x="{x + CELL_W / 2}" dy="{0 if i == 0 else 9}">{escape(t)}</tspan>'
                   for i, t in enumerate(lines))
    ty = y + CELL_H / 2 - 4.5 * (len(lines) - 1) + 3
    return (f'<g class="{kind}"><title>{escape(tip)}</title>'
            f'<rect x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}" fill="{fill}" '
            f'stroke="#555" stroke-width="0.5"/>'
            f'<text class="{kind}-label" y="{ty}" text-anchor="middle">{text}</text></g>')


def _short_register(vgpr: int, lo: int, hi: int) -> str:
    return location_text(0, vgpr, lo, hi).replace("{0}", "")


def svg(layout: Layout) -> str:
    """Both views of `layout` as one SVG document."""
    blocks, rows, cols = layout.shape
    view = layout.element_view()
    parts = []
    rn, cn = layout.index_names
    for b in range(blocks):
        x0 = b * (cols * CELL_W + GAP)
        parts.append(f'<text x="{x0}" y="{TOP - 8}">{escape(layout.matrix)} block {b} '
                     f'(rows {rn}, columns {cn})</text>' if blocks > 1 else
                     f'<text x="{x0}" y="{TOP - 8}">{escape(layout.matrix)} (rows {rn}, '
                     f'columns {cn})</text>')
        for r in range(rows):
            for c in range(cols):
                locs = view.get((b, r, c), [])
                if not locs:
                    continue
                lane, vgpr, lo, hi = locs[0]
                extra = f" +{len(locs) - 1}" if len(locs) > 1 else ""
                tip = f"{layout.matrix}[{r}][{c}]: " + " ".join(location_text(*x) for x in locs)
                parts.append(_cell(x0 + c * CELL_W, TOP + r * CELL_H, "element",
                                   _colour(lane, layout.lanes),
                                   [f"L{lane}{extra}", _short_register(vgpr, lo, hi)], tip))
    regs = layout.register_view()
    slots = sorted({k[:3] for k in regs})
    rx = blocks * (cols * CELL_W + GAP) + GAP
    parts.append(f'<text x="{rx}" y="{TOP - 8}">register file (lanes across)</text>')
    for s_i, slot in enumerate(slots):
        parts.append(f'<text x="{rx - 4}" y="{TOP + s_i * CELL_H + CELL_H / 2 + 3}" '
                     f'text-anchor="end">{escape(_short_register(*slot))}</text>')
        for lane in range(layout.lanes):
            if (*slot, lane) not in regs:
                continue
            b, r, c = regs[(*slot, lane)]
            label = f"{b}:{r},{c}" if blocks > 1 else f"{r},{c}"
            tip = f"{location_text(lane, *slot)}: {layout.matrix}[{r}][{c}]"
            parts.append(_cell(rx + lane * CELL_W, TOP + s_i * CELL_H, "register",
                               _colour(lane, layout.lanes), [label], tip))
    width = rx + layout.lanes * CELL_W + 10
    height = TOP + max(rows, len(slots)) * CELL_H + 10
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="monospace" font-size="8">'
            f'<title>{escape(layout.title)}</title>' + "".join(parts) + "</svg>\n")


def png(layout: Layout, path: str) -> None:
    """The same grids as a PNG through matplotlib (`pip install rocwmma-py[plot]`)."""
    try:
        import matplotlib
    except ImportError:
        raise MissingDependencyError("--png needs matplotlib: pip install 'rocwmma-py[plot]' "
                                     "(or use --svg, which needs nothing)") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    blocks, rows, cols = layout.shape
    regs = layout.register_view()
    slots = sorted({k[:3] for k in regs})
    fig, (left, right) = plt.subplots(1, 2, figsize=(0.5 * (blocks * cols + layout.lanes) + 2,
                                                     0.3 * max(rows, len(slots)) + 1.5))
    for b, r, c, lane, *_ in layout.entries.tolist():
        left.add_patch(plt.Rectangle((b * (cols + 1) + c, r), 1, 1,
                                     color=plt.cm.hsv(lane / layout.lanes), alpha=0.4))
    for (vgpr, lo, hi, lane), (_, r, c) in regs.items():
        s = slots.index((vgpr, lo, hi))
        right.add_patch(plt.Rectangle((lane, s), 1, 1, color=plt.cm.hsv(lane / layout.lanes),
                                      alpha=0.4))
        right.text(lane + 0.5, s + 0.5, f"{r},{c}", ha="center", va="center", fontsize=4)
    for ax, w, h, name in ((left, blocks * (cols + 1), rows, layout.matrix),
                           (right, layout.lanes, len(slots), "registers x lanes")):
        ax.set_xlim(0, w)
        ax.set_ylim(h, 0)
        ax.set_title(name)
        ax.set_aspect("equal")
    fig.suptitle(layout.title)
    fig.savefig(path, dpi=150)
    plt.close(fig)
