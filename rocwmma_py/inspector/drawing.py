"""Drawing primitives the layout pictures share (`svg.py`, the labelled picture, and
`overview.py`): text, the document frame, colour keys, block tiling, the copies sentence."""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from .layout import Layout

CELL_W, CELL_H = 44, 26  # matrix and register cells
AXIS = 30  # room for indices along the axes
GAP = 36  # between panels and blocks
MARGIN = 16
TITLE_H = 40
LINE_H = 15  # legend lines
FONT = "DejaVu Sans Mono, Menlo, Consolas, monospace"


def _text(x: float, y: float, s: str, size: int = 9, anchor: str = "middle", cls: str = "",
          weight: str = "normal") -> str:
    c = f' class="{cls}"' if cls else ""
    w = ' font-weight="bold"' if weight == "bold" else ""
    return (f'<text{c} x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}"{w}>'
            f"{escape(s)}</text>")


def _tiling(count: int, rows: int, cols: int) -> int:
    """How many items of rows x cols cells to put side by side (a divisor of `count`, so the
    grid is full) to make it squarest."""
    def skew(across: int) -> float:
        down = -(-count // across)
        return abs(math.log((across * (cols * CELL_W + GAP)) / (down * (rows * CELL_H + GAP))))
    return min((d for d in range(1, count + 1) if count % d == 0), key=skew)


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


def colour_key(x0: float, y: float, width: float, colours: list[str], labels: dict[int, str],
               name: str) -> list[str]:
    """A key bar: one swatch per colour (at most CELL_W wide), `labels` under some of them,
    `name` on the left."""
    parts = []
    key_w = min(CELL_W, (width - 40) / len(colours))
    for i, colour in enumerate(colours):
        x = x0 + 40 + i * key_w
        parts.append(f'<rect class="{name}-key" x="{x:g}" y="{y:g}" width="{key_w:g}" '
                     f'height="14" fill="{colour}"/>')
        if i in labels:
            parts.append(_text(x + 1, y + 26, labels[i], 9, "start"))
    parts.append(_text(x0, y + 11, name, 10, "start"))
    return parts


def document(title: str, width: float, height: float, body: list[str]) -> str:
    """An SVG document: white background, `title` in bold at the top, then `body`."""
    head = [f'<rect class="background" x="0" y="0" width="{width:g}" height="{height:g}" '
            'fill="#ffffff"/>',
            _text(MARGIN, MARGIN + 14, title, 15, "start", "title", "bold")]
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
            f'viewBox="0 0 {width:g} {height:g}" font-family="{FONT}" fill="#111111">'
            f"<title>{escape(title)}</title>{''.join(head + body)}</svg>\n")
