"""The calculator's queries from Python (and the command line), against the AMD Matrix
Instruction Calculator's own output: the dense dumps (element -> locations, register ->
elements, -d details) and the README appendix's instruction list."""

from __future__ import annotations

import random
import re

import pytest
from amic import AMIC_DIR, TARGET, dense_files, entries, load

from rocwmma_py import LayoutQueryError
from rocwmma_py import layout_inspector as LI
from rocwmma_py.inspector import cli

pytestmark = pytest.mark.regression

# the calculator's type names -> ours (xf32 instructions are "fp32" to the calculator)
AMIC_TYPES = {"fp16": {"f16"}, "bf16": {"bf16"}, "fp32": {"f32", "xf32"}, "fp64": {"f64"},
              "i8": {"i8"}, "iu8": {"i8"}, "iu4": {"i4"}, "fp8_amd": {"f8_fnuz"},
              "bf8_amd": {"bf8_fnuz"}, "fp8_ocp": {"f8"}, "bf8_ocp": {"bf8"}, "i32": {"i32"}}


def _plain_variants():
    """(dump, wave, matrix name, opsel, matrix dict) for every unmodified (or OPSEL) matrix."""
    for path in dense_files():
        doc = load(path)
        for variant in doc["variants"]:
            if set(variant["modifiers"]) - {"opsel"}:
                continue
            opsel = 1 if variant["modifiers"].get("opsel") else 0
            for name, matrix in variant["matrices"].items():
                yield pytest.param(doc, variant["wave"], name, opsel, matrix,
                                   id=f"{path.stem}-w{variant['wave']}-{name}-{opsel}")


@pytest.mark.parametrize("doc,wave,name,opsel,matrix", list(_plain_variants()))
def test_point_queries_match_the_calculator(doc, wave, name, opsel, matrix):
    lay = LI.instruction_layout(doc["instruction"], TARGET[doc["arch"]], wave, name.lower(),
                                opsel)
    rows = [tuple(e[:7]) for e in entries(matrix).tolist()]
    by_element: dict = {}
    for b, r, c, lane, v, lo, hi in rows:
        by_element.setdefault((b, r, c), []).append((lane, v, lo, hi))
    rng = random.Random(f"{doc['instruction']}{wave}{name}")
    for b, r, c in rng.sample(sorted(by_element), min(24, len(by_element))):  # --get-register
        assert LI.element_location(lay, r, c, b) == sorted(by_element[(b, r, c)])
    span = 2 if matrix["elem_bits"] == 64 else 1
    for lane, vgpr in {(e[3], e[4] + span - 1) for e in rng.sample(rows, min(24, len(rows)))}:
        want = sorted((lo, (ln, v, lo, hi), (b, r, c)) for b, r, c, ln, v, lo, hi in rows
                      if ln == lane and v <= vgpr < v + span)  # --matrix-entry
        assert LI.register_contents(lay, vgpr, lane) == [(loc, el) for _, loc, el in want]
    assert lay.vgprs == matrix["num_vgprs"]


def _detail_cases():
    for path in dense_files():
        doc = load(path)
        for wave in doc["meta"]["wave_sizes"]:
            yield pytest.param(doc, wave, id=f"{path.stem}-w{wave}")


@pytest.mark.parametrize("doc,wave", list(_detail_cases()))
def test_details_match_the_calculators_detail_output(doc, wave):
    meta = doc["meta"]
    d = LI.instruction_details(doc["instruction"], TARGET[doc["arch"]], wave)
    assert (d["isa"], d["m"], d["n"], d["k"], d["blocks"], d["cycles"], d["flops"]) == (
        doc["instruction"], meta["M"], meta["N"], meta["K"], meta["blocks"], meta["cycles"],
        meta["flops"])
    assert d["vgprs"] == {k: meta["gprs"][str(wave)][k] for k in "ABCD"}
    stats = meta["stats"]
    per_cycle = next(v for k, v in stats.items() if k.endswith("/cycle"))
    assert d["flops_per_cu_cycle"] == int(per_cycle)
    assert d["integer"] == ("Ops" in stats)
    for op, field in zip("ABCD", ("src0", "src1", "src2", "vdst"), strict=True):
        assert d["types"][op] in AMIC_TYPES[meta["types"][field]["short"]]


@pytest.mark.parametrize("path", [p for p in dense_files() if load(p)["arch"].startswith("CDNA")],
                         ids=lambda p: p.stem)
def test_detail_modifiers_match_the_calculator(path):
    doc = load(path)
    d = LI.instruction_details(doc["instruction"], TARGET[doc["arch"]])
    support = doc["meta"]["modifier_support"]
    assert ("CBSZ/ABID (broadcast an A block)" in d["modifiers"]) == (
        support["CBSZ and ABID bits supported"] == "True")
    assert any(m.startswith("BLGP") for m in d["modifiers"]) == (
        support["BLGP bits supported"] == "True")


def _appendix() -> dict[str, set]:
    """arch -> {(isa, m, n, k, blocks, cycles)} of every instruction the README lists."""
    rows: dict = {}
    text = (AMIC_DIR / "README.md").read_text().split("## Appendix", 1)[1]
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) < 5 or not re.fullmatch(r"(CDNA|RDNA)\d", cells[0]):
            continue
        m, n, k = map(int, cells[2].split("×"))
        rows.setdefault(cells[0], set()).add((cells[1], m, n, k, int(cells[3]), int(cells[4])))
    return rows


@pytest.mark.parametrize("generation", sorted(TARGET))
def test_instruction_list_is_the_calculators(generation, capsys):
    want = _appendix()[generation]
    got = {(r["isa"], r["m"], r["n"], r["k"], r["blocks"], r["cycles"])
           for r in LI.list_instructions(TARGET[generation])}
    assert got == want
    assert cli.layout_main(["--list-instructions", "--arch", TARGET[generation],
                            "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("isa,builtin,wave,") and len(lines) == 1 + len(
        LI.list_instructions(TARGET[generation]))


def test_cli_queries_print_the_calculators_syntax(capsys):
    # CDNA3 16x16x16 f16 A[i][k]: lane i + 16*(k//4), VGPR (k%4)//2, bits 16*(k%2) (formula)
    assert cli.layout_main(["--instr", "v_mfma_f32_16x16x16_f16", "--row", "1",
                            "--col", "5"]) == 0
    assert "A[1][5]  v0{17}.[31:16]  17    0     16      31" in capsys.readouterr().out
    # C[i][j]: VGPR i%4, lane j + 16*(i//4) -> VGPR 2 of lane 17 is C[6][1]
    assert cli.layout_main(["--instr", "v_mfma_f32_16x16x16_f16", "--matrix", "c",
                            "--register", "2", "--lane", "17", "--format", "csv"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "C[6][1],v2{17},17,2,0,31"
    # gfx11 OPSEL=0 16-bit C leaves the high halves unused
    assert cli.layout_main(["--instr", "v_wmma_f16_16x16x16_f16", "--arch", "gfx1100",
                            "--matrix", "c", "--opsel", "1", "--register", "0",
                            "--lane", "0"]) == 0
    assert "C[0][0]  v0{0}.[31:16]" in capsys.readouterr().out
    # multi-block: --block picks the block (4x4x1 16 blocks: lane j + 4*b, VGPR i)
    assert cli.layout_main(["--instr", "v_mfma_f32_4x4x1_16b_f32", "--matrix", "c",
                            "--row", "3", "--col", "2", "--block", "5"]) == 0
    assert "b5:C[3][2]  v3{22}" in capsys.readouterr().out
    assert cli.layout_main(["--instr", "v_mfma_f64_16x16x4_f64", "--matrix", "c",
                            "--register", "1", "--lane", "0"]) == 0
    assert "C[0][0]  v[1:0]{0}" in capsys.readouterr().out


def test_detail_text(capsys):
    assert cli.layout_main(["--instr", "wmma_i32_16x16x16_iu8_w64", "--arch", "gfx1100",
                            "--detail"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("v_wmma_i32_16x16x16_iu8 on gfx1100 (wave64)")
    assert "Ops: 8192    cycles: 32    Ops/WGP/cycle: 1024" in out
    assert "signedness of A and B (sgn_a, sgn_b), clamp" in out


@pytest.mark.parametrize("call,words", [
    (lambda lay: LI.element_location(lay, 16, 0), "row 16 is out of range: A has 16 i (rows)"),
    (lambda lay: LI.element_location(lay, 0, -1), "col -1 is out of range"),
    (lambda lay: LI.element_location(lay, 0, 0, 1), "block 1 is out of range: A has 1 blocks"),
    (lambda lay: LI.register_contents(lay, 0, 64), "lane 64 is out of range: the wave has 64"),
    (lambda lay: LI.register_contents(lay, 2, 0), "register 2 is out of range: A spans 2 VGPRs"),
    (lambda lay: LI.element_location(lay, 1.5, 0), "row must be an integer; got 1.5"),
])
def test_point_queries_refuse_out_of_range(call, words):
    lay = LI.instruction_layout("v_mfma_f32_16x16x16_f16", "gfx942", matrix="a")
    with pytest.raises(LayoutQueryError, match=re.escape(words)):
        call(lay)


@pytest.mark.parametrize("call,words", [
    (lambda: LI.instruction_layout("v_mfma_f32_16x16x16f16", "gfx942"),
     "(did you mean v_mfma_f32_16x16x16_f16"),
    (lambda: LI.instruction_layout("v_mfma_f32_16x16x16f16", "gfx942"),
     "it exists on gfx908, gfx90a"),
    (lambda: LI.instruction_layout("v_wmma_f32_16x16x16_f61", "gfx1100"),
     "(did you mean v_wmma_f32_16x16x16_f16"),
    (lambda: LI.instruction_details("v_mfma_f32_32x32x8_f16", "gfx9420"),
     "unknown architecture 'gfx9420' (did you mean gfx942"),
    (lambda: LI.fragment_class("a", (16, 16, 16), "bf61", "row"),
     "unknown element type 'bf61' (did you mean bf16"),
    (lambda: LI.instruction_layout("wmma_f32_16x16x16_f16_w64", "gfx1100", 32),
     "wmma_f32_16x16x16_f16_w64 is the wave64 builtin"),
    (lambda: LI.instruction_layout("v_mfma_f32_16x16x16_f16", "gfx942", 32),
     "wave must be 64 on gfx942; got 32"),
    (lambda: LI.instruction_layout("v_wmma_f16_16x16x16_f16", "gfx1100", matrix="c", opsel=4),
     "opsel must be 0 or 1"),
    (lambda: LI.instruction_layout("v_wmma_f16_16x16x16_f16", "gfx1200", matrix="c", opsel=1),
     "OPSEL applies only to C/D of gfx11 WMMA with 16-bit results"),
    (lambda: LI.instruction_layout("v_wmma_f16_16x16x16_f16", "gfx1100", matrix="a", opsel=1),
     "OPSEL applies only to C/D"),
    (lambda: LI.fragment_class("acc", (16, 16, 16), "f32", "row", api="wmma"),
     "a wmma accumulator fragment has no layout type"),
])
def test_python_misuse_names_the_choices(call, words):
    with pytest.raises(LayoutQueryError, match=re.escape(words)):
        call()


def test_builtin_names_fix_the_wave():
    lay = LI.instruction_layout("__builtin_amdgcn_wmma_f32_16x16x16_f16_w64", "gfx1100")
    assert lay.lanes == 64 and "(wave64)" in lay.title
    # RDNA3 wave64 A: 4 copies, lanes i + 16t (calculator formula)
    assert [loc[0] for loc in LI.element_location(lay, 3, 0)] == [3, 19, 35, 51]
