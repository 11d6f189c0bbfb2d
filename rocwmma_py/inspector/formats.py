"""A layout as text, CSV or Markdown.

* text is for a terminal: compact grids (a lane-number grid and a register grid for the
  element view; `row,col` cells for the register view), wrapped into column chunks that fit
  `width` columns (default 120; the command line uses the terminal's width, 80 to 120);
* csv is one table, one row per placement in `layout.COLUMNS` (element view: sorted by
  element; register view: columns reordered to vgpr, bits, lane, element);
* markdown is for documents: the calculator's full tables, unwrapped (element view: every
  location of each element; register view: registers down, lanes across).
"""

from __future__ import annotations

import csv
import io

import numpy as np

from ..errors import LayoutQueryError
from .layout import COLUMNS, Layout, _run, cell_text, elements_text, location_text, register_text

VIEWS = ("element", "register")
FORMATS = ("text", "csv", "markdown")
WIDTH = 120


def _check(view: str, fmt: str) -> None:
    if view not in VIEWS:
        raise LayoutQueryError(f"view must be one of {', '.join(VIEWS)}; got {view!r}")
    if fmt not in FORMATS:
        raise LayoutQueryError(f"format must be one of {', '.join(FORMATS)}; got {fmt!r}")


def render(layout: Layout, view: str = "element", fmt: str = "text", width: int = WIDTH) -> str:
    """One view of a layout as text (wrapped to `width`), csv or markdown."""
    _check(view, fmt)
    if fmt == "csv":
        return _csv(layout, view)
    if fmt == "markdown":
        grids = _full_element_grids(layout) if view == "element" else [_full_register(layout)]
        return "\n".join(_markdown(*g) for g in grids)
    if view == "element":
        return _text_element(layout, width)
    return _text_register(layout, width)


def _csv(layout: Layout, view: str) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    e = layout.entries
    order = (0, 1, 2, 3, 4, 5, 6) if view == "element" else (4, 5, 6, 3, 0, 1, 2)
    w.writerow([COLUMNS[i] for i in order])
    w.writerows(e[:, order][np.lexsort(e[:, order].T[::-1])].tolist())
    return out.getvalue()


# --- text: compact grids, wrapped -----------------------------------------------------------

def _part_text(vgpr: int, lo: int, hi: int) -> str:
    """Compact register cell: 3 (whole VGPR), 3.1 (VGPR 3, part 1 = bits [31:16] of a
    16-bit element), 1:0 (64-bit pair)."""
    bits = hi - lo + 1
    if bits == 64:
        return f"{vgpr + 1}:{vgpr}"
    return str(vgpr) if bits == 32 else f"{vgpr}.{lo // bits}"


def _copies_note(layout: Layout) -> str:
    """How replicated elements appear in the lane grid (the lowest lane is shown)."""
    view = layout.element_view().values()
    offsets = {tuple(loc[0] - locs[0][0] for loc in locs[1:]) for locs in view}
    if offsets == {()}:
        return "each element is in one lane"
    if len(offsets) == 1:
        (off,) = offsets
        same = all(len({loc[1:] for loc in locs}) == 1 for locs in view)
        return (f"each element is in {len(off) + 1} lanes: the one shown, "
                f"{', '.join(f'+{d}' for d in off)}{' (same register)' if same else ''}")
    return "some elements are in several lanes: the lowest is shown (csv lists all)"


def _legend(layout: Layout) -> str:
    bits = layout.bits
    if bits == 64:
        part = "register cell h:l = the 64-bit VGPR pair v[h:l]"
    elif bits == 32:
        part = "register cell v = the whole 32-bit VGPR v"
    else:
        part = (f"register cell v.p = VGPR v, bits [{bits}p+{bits - 1}:{bits}p] "
                f"(part p of {32 // bits})")
    note = f"\n{layout.note}" if layout.note else ""
    return f"{part}\n{_copies_note(layout)}{note}"


def _text_element(layout: Layout, width: int) -> str:
    view = layout.element_view()
    blocks, rows, cols = layout.shape
    rn, cn = layout.index_names
    out = [layout.title, "element -> lane, register", _legend(layout)]
    for b in range(blocks):
        where = f" block {b}" if blocks > 1 else ""
        for what, cell in (("lane", lambda loc: str(loc[0])),
                           ("register", lambda loc: _part_text(*loc[1:]))):
            body = [[str(r)] + [cell(view[(b, r, c)][0]) if (b, r, c) in view else "-"
                                for c in range(cols)] for r in range(rows)]
            out.append(_wrapped(f"{what} holding {layout.matrix}[{rn}][{cn}]{where}",
                                f"{rn}\\{cn}", [str(c) for c in range(cols)], body, width))
    return "\n".join(out)


def _text_register(layout: Layout, width: int) -> str:
    view = layout.register_view()
    slots = sorted({k[:3] for k in view})
    multi = layout.shape[0] > 1
    body = [[_part_text(*s)] + [cell_text(layout, view[(*s, lane)]) if (*s, lane) in view
                                else "-" for lane in range(layout.lanes)] for s in slots]
    cell = "b:row,col" if multi else "row,col"
    runs = any(len(e) > 1 and _run(e) for e in view.values())  # sparse groups of 4 k
    group = ", row,c0..c3 = columns c0 to c3" if runs else ""
    return "\n".join([
        layout.title, "(register, lane) -> element",
        _legend(layout).split("\n")[0], *([layout.note] if layout.note else []),
        f"cell {cell} = {layout.matrix}[row][col]{' of block b' if multi else ''}{group}; "
        "- = unused",
        _wrapped("registers down, lanes across", "reg\\lane",
                 [str(n) for n in range(layout.lanes)], body, width)])


def _wrapped(title: str, corner: str, header: list[str], body: list[list[str]],
             width: int) -> str:
    """A grid whose data columns are split into chunks of a power of two that fit `width`."""
    label_w = max(len(row[0]) for row in [[corner], *body])
    cell_w = max(len(x) for row in [header, *(r[1:] for r in body)] for x in row)
    fit = max(1, (width - label_w) // (cell_w + 1))
    chunk = len(header) if len(header) <= fit else 1 << (fit.bit_length() - 1)
    lines = [title]
    for start in range(0, len(header), chunk):
        cols = slice(start, start + chunk)
        lines.append(corner.rjust(label_w) + "".join(" " + h.rjust(cell_w)
                                                     for h in header[cols]))
        lines += [row[0].rjust(label_w) + "".join(" " + x.rjust(cell_w) for x in row[1:][cols])
                  for row in body]
    return "\n".join(lines) + "\n"


# --- markdown: the calculator's full tables -------------------------------------------------

def _full_element_grids(layout: Layout):
    view = layout.element_view()
    blocks, rows, cols = layout.shape
    rn, cn = layout.index_names
    for b in range(blocks):
        header = [f"{rn}\\{cn}", *map(str, range(cols))]
        body = [[str(r)] + [" ".join(location_text(*loc) for loc in view.get((b, r, c), []))
                            for c in range(cols)] for r in range(rows)]
        title = f"{layout.title}, block {b}" if blocks > 1 else layout.title
        yield _with_note(title, layout), header, body


def _full_register(layout: Layout):
    view = layout.register_view()
    slots = sorted({k[:3] for k in view})
    header = ["register", *(str(lane) for lane in range(layout.lanes))]
    body = [[register_text(*s)] + [elements_text(layout, view[s + (lane,)])
                                   if s + (lane,) in view else "-"
                                   for lane in range(layout.lanes)] for s in slots]
    return _with_note(f"{layout.title}: (register, lane) -> element", layout), header, body


def _with_note(title: str, layout: Layout) -> str:
    return f"{title}\n{layout.note}" if layout.note else title


def _markdown(title: str, header: list[str], body: list[list[str]]) -> str:
    esc = [[c.replace("|", "\\|") for c in row] for row in [header, *body]]
    first, *rest = title.split("\n")
    lines = [f"**{first}**", *rest, "", "| " + " | ".join(esc[0]) + " |",
             "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in esc[1:]]
    return "\n".join(lines) + "\n"


def _plain(title: str, header: list[str], body: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in [header, *body]) for i in range(len(header))]
    lines = [title, "  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip()]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
              for row in body]
    return "\n".join(lines) + "\n"


def table(title: str, header: list[str], body: list[list[str]], fmt: str) -> str:
    """A small list-like table (compare, queries, instruction lists) in any format."""
    _check("element", fmt)
    if fmt == "csv":
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerows([header, *body])
        return out.getvalue()
    return (_markdown if fmt == "markdown" else _plain)(title, header, body)
