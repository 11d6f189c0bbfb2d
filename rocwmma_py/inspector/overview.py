"""The overview picture of a large layout (a 64x64 fragment, a 32x32 MFMA accumulator): the
labelled picture of `svg.py` would be thousands of pixels wide, so this one draws the matrix
twice without text in the cells, small enough to take in at a glance (under 2000 px, a few
hundred kB):

* left, each element coloured by the lane holding it (the lane palette of the full picture);
* right, each element coloured by the register holding it (a rainbow ramp in register
  order, v0 red to the last violet);
* where the lane pattern repeats in tiles (rocWMMA fragments are tiled by one instruction's
  block; a 32x32 accumulator by 8-row groups), thin lines mark the tiles and each tile of the
  right grid is labelled with the VGPRs it uses, and the legend states the repeat rule.

Cells are drawn as one `<path>` per colour (runs of equal colour merged), so the file stays
small. `--full` draws the labelled picture anyway; the point queries (`--row/--col`,
`--register/--lane`) and the text tables give every detail.
"""

from __future__ import annotations

import colorsys
from collections import defaultdict

import numpy as np

from .drawing import GAP, LINE_H, MARGIN, TITLE_H, _copies, _text, _tiling, colour_key, document
from .layout import Layout, register_text
from .palette import lane_colour

MAX_PANEL = 880  # px: the longer side of one grid
MAX_CELL = 14
AXIS = 30


def register_colour(i: int, count: int) -> str:
    """Colour of register slot i of `count`: hue from red (first) to violet (last)."""
    r, g, b = colorsys.hls_to_rgb(0.8 * i / max(1, count - 1), 0.62, 0.85)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def grids(layout: Layout) -> tuple[np.ndarray, np.ndarray, list[tuple[int, int, int]]]:
    """(lane, slot) grids of shape (blocks, rows, cols), -1 where nothing is held (the lowest
    lane of a replicated element), and the register slots (vgpr, bit_lo, bit_hi) in order."""
    lane = np.full(layout.shape, -1, np.int64)
    slot = np.full(layout.shape, -1, np.int64)
    view = layout.element_view()
    slots = sorted({locs[0][1:] for locs in view.values()})
    index = {s: i for i, s in enumerate(slots)}
    for (b, r, c), locs in view.items():
        lane[b, r, c] = locs[0][0]
        slot[b, r, c] = index[locs[0][1:]]
    return lane, slot, slots


def repeat_tile(lane: np.ndarray, slot: np.ndarray) -> tuple[int, int, str] | None:
    """The smallest (rows, cols) tile every block is a grid of, with either the same lanes in
    every tile and its registers shifted by one constant ("lanes"), else the smallest with the
    same registers in every tile and its lanes shifted ("registers"), and which; None if
    there is neither."""
    _, rows, cols = lane.shape
    tiles = sorted(((h, w) for h in range(1, rows + 1) if rows % h == 0
                    for w in range(1, cols + 1) if cols % w == 0 and (h, w) != (rows, cols)),
                   key=lambda t: (t[0] * t[1], t))
    if np.any(lane < 0):
        return None
    for same, shifted, kind in ((lane, slot, "lanes"), (slot, lane, "registers")):
        for h, w in tiles:
            shape = (lane.shape[0], rows // h, h, cols // w, w)
            st, sh = same.reshape(shape), shifted.reshape(shape)
            shift = sh - sh[:, :1, :, :1, :]
            if np.all(st == st[:, :1, :, :1, :]) and np.all(shift == shift[:, :, :1, :, :1]):
                return h, w, kind
    return None


def _cells(grid: np.ndarray, colour, x0: int, y0: int, cell: int, cls: str) -> list[str]:
    """One block's cells as one path per colour, runs along a row merged."""
    paths: dict[str, list[str]] = defaultdict(list)
    rows, cols = grid.shape
    for r in range(rows):
        c = 0
        while c < cols:
            v = grid[r, c]
            end = c + 1
            while end < cols and grid[r, end] == v:
                end += 1
            if v >= 0:
                w = (end - c) * cell
                paths[colour(int(v))].append(f"M{x0 + c * cell} {y0 + r * cell}h{w}v{cell}"
                                             f"h-{w}z")
            c = end
    return [f'<path class="{cls}" fill="{fill}" d="{"".join(d)}"/>'
            for fill, d in paths.items()]


def _panel(layout: Layout, grid: np.ndarray, colour, x0: int, y0: int, cell: int,
           across: int, title: str, cls: str, tile: tuple[int, int, str] | None,
           tile_label) -> tuple[list[str], int]:
    blocks, rows, cols = layout.shape
    step = next(s for s in (1, 2, 4, 8, 16, 32, 64) if s * cell >= 22)
    bw, bh = AXIS + cols * cell, AXIS + rows * cell + (14 if blocks > 1 else 0)
    parts = [_text(x0, y0 + 10, title, 11, "start", "axis-title")]
    y0 += 18
    for b in range(blocks):
        bx, by = x0 + (b % across) * (bw + GAP), y0 + (b // across) * (bh + GAP)
        if blocks > 1:
            parts.append(_text(bx + AXIS, by + 10, f"block {b}", 10, "start", "block-title",
                               "bold"))
            by += 14
        gx, gy = bx + AXIS, by + AXIS
        parts += [_text(gx + c * cell + cell / 2, gy - 8, str(c), 9, cls="col-index")
                  for c in range(0, cols, step)]
        parts += [_text(gx - 6, gy + r * cell + cell / 2 + 3, str(r), 9, "end", "row-index")
                  for r in range(0, rows, step)]
        parts += _cells(grid[b], colour, gx, gy, cell, cls)
        parts.append(f'<rect x="{gx}" y="{gy}" width="{cols * cell}" height="{rows * cell}" '
                     'fill="none" stroke="#444444" stroke-width="1"/>')
        if tile:
            h, w, _ = tile
            lines = [f"M{gx + c * cell} {gy}v{rows * cell}" for c in range(w, cols, w)]
            lines += [f"M{gx} {gy + r * cell}h{cols * cell}" for r in range(h, rows, h)]
            parts.append(f'<path class="tile-lines" d="{"".join(lines)}" stroke="#222222" '
                         'stroke-width="1.5" fill="none"/>')
            if tile_label:
                size = max(7, min(12, w * cell // 6))
                parts += [_text(gx + (c + w / 2) * cell, gy + (r + h / 2) * cell + size / 3,
                                tile_label(b, r, c, h, w), size, cls="tile-label",
                                weight="bold")
                          for r in range(0, rows, h) for c in range(0, cols, w)]
    down = -(-blocks // across)
    return parts, down * (bh + GAP) - GAP + 18


def overview(layout: Layout) -> str:
    """The unlabelled two-grid picture of `layout` (see the module docstring)."""
    blocks, rows, cols = layout.shape
    lane, slot, slots = grids(layout)
    tile = repeat_tile(lane, slot)
    across = _tiling(blocks, rows, cols)
    down = -(-blocks // across)
    cell = max(2, min(MAX_CELL, (MAX_PANEL - across * (AXIS + GAP)) // (across * cols),
                      (MAX_PANEL - down * (AXIS + GAP + 14)) // (down * rows)))
    panel_w = across * (AXIS + cols * cell + GAP) - GAP
    rn, cn = layout.index_names
    top = MARGIN + TITLE_H

    def used(grid: np.ndarray, b: int, r: int, c: int, h: int, w: int) -> list[int]:
        return sorted(set(grid[b, r:r + h, c:c + w].ravel().tolist()))

    def vgprs(*where: int) -> str:
        regs = sorted({slots[s][0] for s in used(slot, *where)})
        return f"v{regs[0]}" if len(regs) == 1 else f"v{regs[0]}-v{regs[-1]}"

    def lanes(*where: int) -> str:
        held = used(lane, *where)
        return f"L{held[0]}" if len(held) == 1 else f"L{held[0]}-{held[-1]}"

    def reg_colour(i: int) -> str:
        return register_colour(i, len(slots))

    labels = tile and tile[2]
    left, lh = _panel(layout, lane, lane_colour, MARGIN, top, cell, across,
                      f"lane holding {layout.matrix}[{rn}][{cn}]", "lane-cells", tile,
                      lanes if labels == "registers" else None)
    right, _ = _panel(layout, slot, reg_colour, MARGIN + panel_w + 2 * GAP, top, cell, across,
                      f"register holding {layout.matrix}[{rn}][{cn}]", "register-cells", tile,
                      vgprs if labels == "lanes" else None)
    size = f"{rows} x {cols}" + (f" in {blocks} blocks" if blocks > 1 else "")
    lines = [*([layout.note[0].upper() + layout.note[1:] + "."] if layout.note else []),
             f"Overview: {size} elements are too many to label (--full draws every cell "
             "labelled; --row/--col, --register/--lane and the text tables give each one).",
             "Left: colour = the lane holding the element (key below). Right: colour = its "
             "register, in order (key below).",
             _copies(layout)]
    if tile and tile[2] == "lanes":
        lines.append(f"The lane pattern repeats in {tile[0]} x {tile[1]} tiles (lines): every "
                     "tile uses the same lanes as the top-left one, its registers shifted "
                     "(labelled on the right).")
    elif tile:
        lines.append(f"The register pattern repeats in {tile[0]} x {tile[1]} tiles (lines): "
                     "every tile has the same registers as the top-left one, in other lanes "
                     "(labelled on the left).")
    width = max(2 * MARGIN + 2 * panel_w + 2 * GAP,
                2 * MARGIN + round(6.1 * max(len(line) for line in lines)))
    y = top + lh + GAP
    legend = ['<g class="legend">', _text(MARGIN, y + 12, "Legend", 11, "start", weight="bold")]
    y += 12
    for line in lines:
        y += LINE_H
        legend.append(_text(MARGIN, y, line, 10, "start", "legend-text"))
    key_w = width - 2 * MARGIN
    legend += colour_key(MARGIN, y + 10, key_w, [lane_colour(n) for n in range(layout.lanes)],
                         {n: str(n) for n in range(0, layout.lanes, 8)}, "lane")
    every = max(1, len(slots) // 8)
    legend += colour_key(MARGIN, y + 50, key_w, [reg_colour(i) for i in range(len(slots))],
                         {i: register_text(*slots[i]) for i in range(0, len(slots), every)},
                         "reg")
    legend.append("</g>")
    height = y + 80 + MARGIN
    return document(layout.title + " (overview)", width, height, left + right + legend)
