"""`Layout`: the placements of one operand, and the calculator's two point queries on it.

A `Layout` is the AMD Matrix Instruction Calculator's entry list: one row per placement,
`(block, row, col, lane, vgpr, bit_lo, bit_hi)` (a replicated element has several rows;
(row, col) is (i, k) for A and K, (k, j) for B, (i, j) for C/D). Locations are written in the
calculator's syntax `v3{17}.[31:16]` (bare `v3{17}` for a whole VGPR, `v[1:0]{5}` for a pair).
Several elements may share one location: the four dense k of a 4:2 sparse group share the
slot of its two stored values (A) and the nibble of their two indices (K, the index register).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import LayoutQueryError

COLUMNS = ("block", "row", "col", "lane", "vgpr", "bit_lo", "bit_hi")
INDEX_NAMES = {"A": ("i", "k"), "B": ("k", "j"), "C": ("i", "j"), "D": ("i", "j"),
               "K": ("i", "k"), "SA": ("i", "k"), "SB": ("k", "j")}

Location = tuple[int, int, int, int]  # (lane, vgpr, bit_lo, bit_hi)
Element = tuple[int, int, int]  # (block, row, col)


@dataclass(frozen=True, eq=False)
class Layout:
    """Placements of one operand: `entries` (n, 7) int64 in COLUMNS order."""

    title: str
    matrix: str  # "A", "B", "C", "D" or "K" (a sparse instruction's index register)
    shape: tuple[int, int, int]  # (blocks, rows, cols)
    lanes: int
    entries: np.ndarray
    names: tuple[str, str] | None = None  # row/col index names (default: INDEX_NAMES)
    note: str = ""  # one line the legends add (what a sparse view shows)

    @property
    def index_names(self) -> tuple[str, str]:
        return self.names or INDEX_NAMES[self.matrix]

    @property
    def bits(self) -> int:
        """Width of one element in the registers."""
        return int(self.entries[0, 6] - self.entries[0, 5] + 1)

    @property
    def vgprs(self) -> int:
        """32-bit registers per lane the operand spans (the calculator's "GPRs required")."""
        return int(self.entries[:, 4].max()) + (2 if self.bits == 64 else 1)

    def locations(self) -> set[tuple[int, ...]]:
        """The entries as a set of tuples (comparable with the calculator's dumps)."""
        return set(map(tuple, self.entries.tolist()))

    def element_view(self) -> dict[Element, list[Location]]:
        """(block, row, col) -> [(lane, vgpr, bit_lo, bit_hi), ...] in lane order."""
        out: dict = {}
        for b, r, c, *loc in self.entries[np.lexsort(self.entries.T[::-1])].tolist():
            out.setdefault((b, r, c), []).append(tuple(loc))
        return out

    def register_view(self) -> dict[tuple[int, int, int, int], tuple[Element, ...]]:
        """(vgpr, bit_lo, bit_hi, lane) -> the (block, row, col) it holds, in order: one, or
        the four dense k of a sparse group (A by dense k, K)."""
        out: dict = {}
        for b, r, c, lane, v, lo, hi in self.entries[np.lexsort(self.entries.T[::-1])].tolist():
            out.setdefault((v, lo, hi, lane), []).append((b, r, c))
        return {k: tuple(v) for k, v in out.items()}

    def where(self, row: int, col: int, block: int = 0) -> list[Location]:
        """Every (lane, vgpr, bit_lo, bit_hi) holding element (row, col) of `block` (the
        calculator's --get-register); out-of-range coordinates raise naming the range."""
        blocks, rows, cols = self.shape
        rn, cn = self.index_names
        for name, value, size, what in (("row", row, rows, f"{rn} (rows)"),
                                        ("col", col, cols, f"{cn} (columns)"),
                                        ("block", block, blocks, "blocks")):
            _check_index(name, value, size, f"{self.matrix} has {size} {what}")
        e = self.entries
        hit = e[(e[:, 0] == block) & (e[:, 1] == row) & (e[:, 2] == col)]
        return [tuple(x) for x in hit[np.argsort(hit[:, 3], kind="stable"), 3:].tolist()]

    def at(self, vgpr: int, lane: int) -> list[tuple[Location, Element]]:
        """What VGPR `vgpr` of `lane` holds (the calculator's --matrix-entry): one
        (location, element) per element in it, low bits first; a 64-bit value answers for
        both of its VGPRs. [] if the register is unused there."""
        _check_index("lane", lane, self.lanes, f"the wave has {self.lanes} lanes")
        _check_index("register", vgpr, self.vgprs,
                     f"{self.matrix} spans {self.vgprs} VGPRs per lane")
        e = self.entries
        span = 2 if self.bits == 64 else 1
        hit = e[(e[:, 3] == lane) & (e[:, 4] <= vgpr) & (vgpr < e[:, 4] + span)]
        hit = hit[np.lexsort(hit.T[::-1])]
        hit = hit[np.argsort(hit[:, 5], kind="stable")]
        return [(tuple(x[3:]), tuple(x[:3])) for x in hit.tolist()]


def _check_index(name: str, value: int, size: int, why: str) -> None:
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
        raise LayoutQueryError(f"{name} must be an integer; got {value!r}")
    if not 0 <= value < size:
        raise LayoutQueryError(f"{name} {value} is out of range: {why} (0..{size - 1})")


def location_text(lane: int, vgpr: int, lo: int, hi: int) -> str:
    """The calculator's syntax: v3{17}.[31:16], v3{17} (whole VGPR), v[1:0]{5} (pair)."""
    if hi - lo == 63:
        return f"v[{vgpr + 1}:{vgpr}]{{{lane}}}"
    if hi - lo == 31:
        return f"v{vgpr}{{{lane}}}"
    return f"v{vgpr}{{{lane}}}.[{hi}:{lo}]"


def register_text(vgpr: int, lo: int, hi: int) -> str:
    """A location without its lane: v3.[31:16], v3, v[1:0]."""
    return location_text(0, vgpr, lo, hi).replace("{0}", "")


def element_text(layout: Layout, b: int, r: int, c: int) -> str:
    """A[1][5], or b2:A[1][5] in a multi-block operand."""
    prefix = f"b{b}:" if layout.shape[0] > 1 else ""
    return f"{prefix}{layout.matrix}[{r}][{c}]"


def _run(elements: tuple[Element, ...]) -> tuple[int, int, int, int] | None:
    """(block, row, first col, last col) if `elements` are consecutive columns of one row."""
    (b, r, c), *_ = elements
    if elements == tuple((b, r, c + n) for n in range(len(elements))):
        return b, r, c, c + len(elements) - 1
    return None


def elements_text(layout: Layout, elements: tuple[Element, ...]) -> str:
    """What one location holds: A[1][5]; a sparse group of four dense k: A[1][4..7]."""
    run = _run(elements) if len(elements) > 1 else None
    if run is None:
        return " ".join(element_text(layout, *e) for e in elements)
    b, r, first, last = run
    return element_text(layout, b, r, first).removesuffix("]") + f"..{last}]"


def cell_text(layout: Layout, elements: tuple[Element, ...]) -> str:
    """The compact form of `elements_text` for grid cells: 1,5 (b2:1,5 with blocks); a
    sparse group 1,4..7."""
    multi = layout.shape[0] > 1
    run = _run(elements) if len(elements) > 1 else None
    if run is None:
        return " ".join(f"{b}:{r},{c}" if multi else f"{r},{c}" for b, r, c in elements)
    b, r, first, last = run
    return f"{b}:{r},{first}..{last}" if multi else f"{r},{first}..{last}"
