"""The layout inspector's tables: instruction layouts against every AMIC dump, fragment
tables against the dumps where rocWMMA feeds the instruction directly and against closed
forms, the sm_80 view against the PTX ISA formulas, compare. (Queries, command line and
pictures: tests/test_inspector_*.py.)"""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET

import pytest
from amic import TARGET, dense_files, entries, load

from rocwmma_py import layout_inspector as LI
from rocwmma_py.inspector import cli

pytestmark = pytest.mark.regression


def _placed(matrix: dict) -> set:
    return {tuple(e[:7]) for e in entries(matrix).tolist()}


def _variants():
    for path in dense_files():
        doc = load(path)
        for v, variant in enumerate(doc["variants"]):
            mods = variant["modifiers"]
            if set(mods) - {"opsel"}:
                continue  # CBSZ/ABID/BLGP change what is read, not the operand layout
            for name in variant["matrices"]:
                yield pytest.param(path, v, name, id=f"{path.stem}-w{variant['wave']}-{v}-{name}")


def _csv_rows(text: str) -> tuple[list[str], set]:
    rows = list(csv.reader(io.StringIO(text)))
    return rows[0], {tuple(int(x) for x in r) for r in rows[1:]}


@pytest.mark.parametrize("path,v,name", list(_variants()))
def test_instruction_views_match_the_calculator(path, v, name):
    doc = load(path)
    variant = doc["variants"][v]
    opsel = 1 if variant["modifiers"].get("opsel") else 0  # the calculator's OPSEL=4
    lay = LI.instruction_layout(doc["instruction"], TARGET[doc["arch"]], variant["wave"],
                                name.lower(), opsel)
    want = _placed(variant["matrices"][name])
    header, rows = _csv_rows(LI.render(lay, "element", "csv"))  # --register-layout
    assert tuple(header) == LI.COLUMNS and rows == want
    header, rows = _csv_rows(LI.render(lay, "register", "csv"))  # --matrix-layout
    order = [header.index(c) for c in LI.COLUMNS]
    assert {tuple(r[i] for i in order) for r in rows} == want


def test_location_syntax_is_the_calculators():
    assert LI.location_text(17, 3, 16, 31) == "v3{17}.[31:16]"
    assert LI.location_text(17, 3, 0, 31) == "v3{17}"
    assert LI.location_text(5, 0, 0, 63) == "v[1:0]{5}"


def test_text_grids_and_markdown_cells():
    lay = LI.instruction_layout("v_wmma_f32_16x16x16_f16", "gfx1100", 32, "a")
    text = LI.render(lay, "element", "text").splitlines()
    # RDNA3 A[i][k] (calculator formula): lane i and i + 16, VGPR k // 2, half k % 2
    assert "each element is in 2 lanes: the one shown, +16 (same register)" in text
    lanes = text[text.index("lane holding A[i][k]") + 2:][:16]
    assert [row.split() for row in lanes] == [[str(i)] + [str(i)] * 16 for i in range(16)]
    regs = text[text.index("register holding A[i][k]") + 2:][:16]
    assert regs[1].split()[1:] == [f"{k // 2}.{k % 2}" for k in range(16)]
    md = LI.render(lay, "register", "markdown").splitlines()
    assert md[2].startswith("| register | 0 | 1 |") and md[3] == "|" + "---|" * 33
    assert md[4].startswith("| v0.[15:0] | A[0][0] | A[1][0] |")
    md = LI.render(lay, "element", "markdown").splitlines()
    assert "| 1 | v0{1}.[15:0] v0{17}.[15:0] | v0{1}.[31:16] v0{17}.[31:16] |" in md[5]


# rocWMMA feeds these fragments to the instruction unchanged: the fragment's table is the
# instruction operand's (calculator dump, by instruction and matrix)
SAME_AS_INSTRUCTION = [
    ("gfx942", "a", "16x16x16", "f16", "row", "cdna3__v_mfma_f32_16x16x16_f16.json", "A"),
    ("gfx942", "b", "16x16x16", "f16", "col", "cdna3__v_mfma_f32_16x16x16_f16.json", "B"),
    ("gfx942", "acc", "16x16x16", "f32", None, "cdna3__v_mfma_f32_16x16x16_f16.json", "C"),
    ("gfx942", "a", "16x16x8", "xf32", "row", "cdna3__v_mfma_f32_16x16x8_xf32.json", "A"),
    ("gfx1100", "acc", "16x16x16", "f32", None, "rdna3__v_wmma_f32_16x16x16_f16.json", "C"),
    ("gfx1200", "acc", "16x16x16", "f32", None, "rdna4__v_wmma_f32_16x16x16_f16.json", "C"),
]


@pytest.mark.parametrize("arch,matrix,shape,dtype,layout,dump,name", SAME_AS_INSTRUCTION)
def test_fragment_equals_its_instruction_operand(arch, matrix, shape, dtype, layout, dump, name):
    cls = LI.fragment_class(matrix, LI.parse_shape(shape), dtype, layout)
    lay = LI.fragment_layout(cls, arch)
    doc = load(next(p for p in dense_files() if p.name == dump))
    variant = next(v for v in doc["variants"] if v["wave"] == (64 if arch == "gfx942" else 32))
    assert lay.locations() == _placed(variant["matrices"][name])


def test_gfx11_fragment_is_not_the_replicated_operand():
    """On gfx11 rocWMMA's A fragment holds K split over the half-waves (notes §2.4): lane
    i + 16*(k // 8) holds A[i][k] at element k % 8; the WMMA operand replicates instead."""
    cls = LI.fragment_class("a", (16, 16, 16), "f16", "row")
    lay = LI.fragment_layout(cls, "gfx1100")
    want = {(0, i, k, i + 16 * (k // 8), (k % 8) // 2, 16 * (k % 2), 16 * (k % 2) + 15)
            for i in range(16) for k in range(16)}
    assert lay.locations() == want


def test_wmma_skinny_fragment_leaves_padding_out():
    cls = LI.fragment_class("b", (32, 8, 16), "f16", "col", api="wmma")
    lay = LI.fragment_layout(cls, "gfx942")
    assert lay.shape == (1, 16, 8) and len(lay.entries) == 16 * 8
    assert {(r, c) for _, r, c, *_ in lay.entries.tolist()} == {
        (k, j) for k in range(16) for j in range(8)}


def test_sm80_fragments_follow_the_ptx_formulas():
    a, b, c = (LI.sm80_layout(m) for m in "abc")
    # lane 5: groupID 1, threadID_in_group 1 (hand-evaluated PTX ISA formulas)
    a5 = {(r, col) : (v, lo) for _, r, col, lane, v, lo, _ in a.entries.tolist() if lane == 5}
    assert a5 == {(1, 2): (0, 0), (1, 3): (0, 16), (9, 2): (1, 0), (9, 3): (1, 16),
                  (1, 10): (2, 0), (1, 11): (2, 16), (9, 10): (3, 0), (9, 11): (3, 16)}
    b5 = {(r, col) for _, r, col, lane, *_ in b.entries.tolist() if lane == 5}
    assert b5 == {(2, 1), (3, 1), (10, 1), (11, 1)}
    c5 = {(r, col): v for _, r, col, lane, v, *_ in c.entries.tolist() if lane == 5}
    assert c5 == {(1, 2): 0, (1, 3): 1, (9, 2): 2, (9, 3): 3}
    for lay, n in ((a, 256), (b, 128), (c, 128)):  # every element exactly once
        assert len(lay.locations()) == n == len({tuple(e[:3]) for e in lay.entries.tolist()})


def test_compare_counts_the_moved_elements():
    cls = LI.fragment_class("a", (16, 16, 16), "f16", "row")
    g942, g1100 = LI.fragment_layout(cls, "gfx942"), LI.fragment_layout(cls, "gfx1100")
    # gfx942: lane i + 16*(k//4), element k%4; gfx1100: lane i + 16*(k//8), element k%8:
    # the same place exactly for k < 4
    moved = LI.compare(g942, g1100)
    assert {e[2] for e, _, _ in moved} == set(range(4, 16)) and len(moved) == 16 * 12
    assert LI.compare(g1100, LI.fragment_layout(cls, "gfx1200")) == []
    text = LI.render_compare(g942, g1100).splitlines()
    assert text[0] == "192 of 256 elements sit in a different lane/register"


def test_cli_outputs(tmp_path, capsys):
    out_svg = tmp_path / "a.svg"
    assert cli.main(["layout", "--instr", "v_wmma_f32_16x16x16_f16", "--arch", "gfx1100",
                     "--wave", "32", "--matrix", "a", "--svg", str(out_svg)]) == 0
    text = capsys.readouterr().out
    assert "(register, lane) -> element" in text and "element -> lane, register" in text
    assert len(ET.parse(out_svg).getroot().findall(
        "{http://www.w3.org/2000/svg}g[@class='register']")) == 8 * 2 * 32
    assert cli.main(["layout", "--fragment", "a", "--shape", "16x16x16", "--dtype", "f16",
                     "--layout", "row", "--arch", "gfx942", "--format", "csv",
                     "--view", "element"]) == 0
    header, rows = _csv_rows(capsys.readouterr().out)
    assert tuple(header) == LI.COLUMNS and len(rows) == 256
    assert cli.main(["layout", "--fragment", "acc", "--shape", "32x8x16", "--dtype", "float",
                     "--api", "wmma", "--compare", "gfx942", "sm_80"]) == 0
    out = capsys.readouterr().out
    assert "elements sit in a different lane/register" in out
    assert "the shapes differ (32x8 and 16x8)" in out
