"""The layout inspector on the 4:2 sparse instructions (v_smfmac_*, v_swmmac_*) against the AMD
Matrix Instruction Calculator's dumps: K (the index register, every index set, both wave
sizes), A by dense k, B and D equal the calculator's entries; the compressed view of A, the
point queries, every output format, --detail, and the misuse messages."""

from __future__ import annotations

import csv
import io
import random
import re
import xml.etree.ElementTree as ET

import pytest
from amic import AMIC_DIR, TARGET, entries, load

from rocwmma_py import LayoutQueryError
from rocwmma_py import layout_inspector as LI
from rocwmma_py.arch import get_arch
from rocwmma_py.inspector import cli
from rocwmma_py.inspector.svg import svg

pytestmark = pytest.mark.regression

FILES = sorted(p for p in AMIC_DIR.glob("*__*.json") if load(p)["meta"]["sparse"])
SMFMAC = ["--instr", "v_smfmac_f32_16x16x32_f16"]
SWMMAC = ["--instr", "v_swmmac_f32_16x16x32_f16", "--arch", "gfx1201"]
NS = {"s": "http://www.w3.org/2000/svg"}


def _selector(mods: dict) -> dict:
    """The inspector's keywords for a variant's modifiers (RDNA4 OPSEL, CDNA3 CBSZ/ABID)."""
    if "opsel" in mods:
        return {"opsel": mods["opsel"]}
    return {"abid": mods.get("abid", 0), "cbsz": mods.get("cbsz", 0)}


def _matrices():
    for path in FILES:
        doc = load(path)
        for v, variant in enumerate(doc["variants"]):
            for name, matrix in variant["matrices"].items():
                kw = _selector(variant["modifiers"]) if name == "K" else {}
                yield pytest.param(doc, variant["wave"], name, kw, matrix,
                                   id=f"{path.stem}-w{variant['wave']}-{v}-{name}")


def _rows(matrix: dict) -> set[tuple[int, ...]]:
    return {tuple(e[:7]) for e in entries(matrix).tolist()}


def test_every_sparse_dump_and_index_set_is_checked():
    assert len(FILES) == 25
    sets = {}
    for path in FILES:
        doc = load(path)
        for variant in doc["variants"]:
            if "K" in variant["matrices"]:
                mods = variant["modifiers"]
                sets.setdefault((path.stem, variant["wave"]), set()).add(
                    mods.get("opsel", mods.get("abid", 0)))
    for (stem, wave), found in sets.items():
        doc = load(AMIC_DIR / f"{stem}.json")
        instr = next(i for i in get_arch(TARGET[doc["arch"]]).instructions.values()
                     if i.isa == doc["instruction"] and i.wave == wave)
        assert found == set(range(instr.index_sets)), (stem, wave)
    assert {w for _, w in sets} == {32, 64}


@pytest.mark.parametrize("doc,wave,name,kw,matrix", list(_matrices()))
def test_sparse_layouts_match_the_calculator(doc, wave, name, kw, matrix):
    lay = LI.instruction_layout(doc["instruction"], TARGET[doc["arch"]], wave, name.lower(),
                                **kw)
    assert lay.locations() == _rows(matrix)
    assert lay.vgprs == matrix["num_vgprs"]
    assert lay.shape == tuple(matrix["shape"])


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_point_queries_on_k_and_a_match_the_calculator(path):
    doc = load(path)
    variant = doc["variants"][-1]  # the last index set of the last wave size
    for name in ("A", "K"):
        base = next(v for v in doc["variants"] if v["wave"] == variant["wave"] and
                    name in v["matrices"] and (name == "A" or v is variant))
        kw = _selector(base["modifiers"]) if name == "K" else {}
        lay = LI.instruction_layout(doc["instruction"], TARGET[doc["arch"]], variant["wave"],
                                    name.lower(), **kw)
        rows = sorted(_rows(base["matrices"][name]))
        rng = random.Random(f"{path.stem}{name}")
        for b, r, c, lane, v, lo, hi in rng.sample(rows, 12):
            assert LI.element_location(lay, r, c, b) == [(lane, v, lo, hi)]
            held = LI.register_contents(lay, v, lane)
            want = sorted(((x[3:], x[:3]) for x in rows if x[3] == lane and x[4] == v),
                          key=lambda e: (e[0][2], e[1]))
            assert held == want


def test_cbsz_nonzero_reads_index_set_0():
    name, arch = "v_smfmac_f32_16x16x32_f16", "gfx942"
    set0 = LI.instruction_layout(name, arch, matrix="k").locations()
    for cbsz, abid in ((1, 3), (3, 0), (2, 1)):
        lay = LI.instruction_layout(name, arch, matrix="k", cbsz=cbsz, abid=abid)
        assert lay.locations() == set0
        assert f"CBSZ={cbsz}, ABID={abid}: index set 0 of 4" in lay.title


def test_compressed_a_is_the_instruction_table_and_pairs_sit_in_the_dense_slot():
    for name, arch, wave in (("v_smfmac_f32_16x16x32_f16", "gfx942", 64),
                             ("v_smfmac_i32_32x32x32_i8", "gfx942", 64),
                             ("v_swmmac_f32_16x16x32_f16", "gfx1201", 32),
                             ("v_swmmac_i32_16x16x64_iu4", "gfx1201", 64)):
        packed = LI.instruction_layout(name, arch, wave, compressed=True)
        dense = LI.instruction_layout(name, arch, wave)
        instr = next(i for i in get_arch(arch).instructions.values()
                     if i.isa == name and i.wave == wave)
        assert packed.locations() == instr.a_layout.locations()
        assert packed.index_names == ("i", "kk") and packed.shape == (1, instr.m, instr.k // 2)
        assert dense.shape == (1, instr.m, instr.k) and dense.bits == 2 * packed.bits
        w = packed.bits
        for (b, i, k), [(lane, v, lo, _hi)] in dense.element_view().items():
            first, second = (packed.where(i, 2 * (k // 4) + n, b)[0] for n in (0, 1))
            assert first == (lane, v, lo, lo + w - 1)  # low half: the first stored value
            assert second == (lane, v, lo + w, lo + 2 * w - 1)


def _run(argv, capsys) -> str:
    assert cli.layout_main(argv) == 0, capsys.readouterr().err
    return capsys.readouterr().out


def test_the_issues_command_line(capsys):
    # no --arch: the default target gfx942 (v_smfmac_f32_16x16x32_f16 is a gfx942 instruction)
    out = _run(SMFMAC + ["--matrix", "k", "--abid", "1"], capsys)
    assert out.startswith("v_smfmac_f32_16x16x32_f16 K on gfx942 (wave64, ABID=1: index set "
                          "1 of 4)\nelement -> lane, register\n")
    # calculator: K[i][k] at lane i + 16*(k//8), bits 4*((k%8)//4) + 8*abid
    assert "  0 0.2 0.2 0.2 0.2 0.3 0.3 0.3 0.3 0.2" in out  # nibbles 2, 3 = bits [11:8], [15:12]
    assert "     0.2    0,0..3    1,0..3    2,0..3" in out  # register view: groups of 4 k
    assert "(register, lane) -> element" in out


def test_k_csv_markdown_and_queries(capsys):
    doc = load(AMIC_DIR / "cdna3__v_smfmac_f32_16x16x32_f16.json")
    want = next(v for v in doc["variants"] if v["modifiers"].get("abid") == 1)["matrices"]["K"]
    out = _run(SMFMAC + ["--matrix", "k", "--abid", "1", "--format", "csv"], capsys)
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["block", "row", "col", "lane", "vgpr", "bit_lo", "bit_hi"]
    assert {tuple(map(int, r)) for r in rows[1:]} == _rows(want) and len(rows) == 1 + 16 * 32
    out = _run(SMFMAC + ["--matrix", "k", "--abid", "1", "--format", "csv", "--view",
                         "register"], capsys)
    assert out.splitlines()[1:3] == ["0,8,11,0,0,0,0", "0,8,11,0,0,0,1"]
    out = _run(SMFMAC + ["--matrix", "k", "--abid", "1", "--format", "markdown"], capsys)
    assert "| 0 | v0{0}.[11:8] | v0{0}.[11:8] | v0{0}.[11:8] | v0{0}.[11:8] | v0{0}.[15:12] |" \
        in out
    out = _run(SMFMAC + ["--matrix", "k", "--abid", "1", "--format", "markdown", "--view",
                         "register"], capsys)
    assert "| v0.[11:8] | K[0][0..3] | K[1][0..3] |" in out
    out = _run(SMFMAC + ["--matrix", "k", "--abid", "1", "--row", "3", "--col", "9"], capsys)
    assert "K[3][9]  v0{19}.[11:8]  19    0     8       11" in out
    out = _run(SMFMAC + ["--matrix", "k", "--abid", "1", "--register", "0", "--lane", "17",
                         "--format", "csv"], capsys)
    assert out.splitlines()[1:] == [f"K[1][{k}],v0{{17}}.[{hi}:{lo}],17,0,{lo},{hi}"
                                    for k, lo, hi in [(k, 8 + 4 * (k // 4 - 2),
                                                       11 + 4 * (k // 4 - 2))
                                                      for k in range(8, 16)]]


def test_k_svg_shows_the_nibble_bits(tmp_path, capsys):
    out = tmp_path / "k.svg"
    _run(SMFMAC + ["--matrix", "k", "--abid", "1", "--svg", str(out)], capsys)
    root = ET.parse(out).getroot()
    cells = {c.find("s:title", NS).text: [t.text for t in c.iter(f"{{{NS['s']}}}tspan")]
             for c in root.findall("s:g[@class='element']", NS)}
    assert len(cells) == 16 * 32
    assert cells["K[1][13]: v0{17}.[15:12]"] == ["L17", "v0[15:12]"]
    regs = {c.find("s:title", NS).text: c.find("s:text/s:tspan", NS).text
            for c in root.findall("s:g[@class='register']", NS)}
    assert len(regs) == 2 * 64 and regs["v0{17}.[15:12]: K[1][12..15]"] == "1,12..15"
    legend = " ".join(t.text for t in root.find("s:g[@class='legend']", NS).iter(
        f"{{{NS['s']}}}text"))
    assert "v0[11:8] = bits 11:8 of the index VGPR" in legend
    assert "The 4 k of a group share a 4-bit nibble: its 2 indices" in legend
    assert out.read_text() == svg(LI.instruction_layout("v_smfmac_f32_16x16x32_f16", "gfx942",
                                                        matrix="k", abid=1))


def test_gfx1201_wave64_opsel(capsys):
    doc = load(AMIC_DIR / "rdna4__v_swmmac_f32_16x16x32_f16.json")
    want = next(v for v in doc["variants"] if v["wave"] == 64 and
                v["modifiers"].get("opsel") == 1)["matrices"]["K"]
    out = _run(SWMMAC + ["--matrix", "k", "--opsel", "1", "--wave", "64", "--format", "csv"],
               capsys)
    assert {tuple(map(int, r)) for r in list(csv.reader(io.StringIO(out)))[1:]} == _rows(want)
    out = _run(SWMMAC + ["--matrix", "k", "--opsel", "1", "--wave", "64"], capsys)
    assert out.startswith("v_swmmac_f32_16x16x32_f16 K on gfx1201 (wave64, OPSEL=1: index "
                          "set 1 of 4)")


def test_sparse_a_views_b_and_d(capsys):
    out = _run(SMFMAC + ["--matrix", "a", "--row", "3", "--col", "9"], capsys)
    assert "A[3][9]  v0{19}    19    0     0       31" in out  # the 32-bit slot of the pair
    out = _run(SMFMAC + ["--matrix", "a", "--view", "register"], capsys)
    assert "the 4 k of a group share the 32-bit slot of its 2 stored values" in out
    assert "0,0..3" in out
    out = _run(SMFMAC + ["--matrix", "a", "--compressed", "--row", "3", "--col", "5"], capsys)
    assert "compressed: 16 x 16 stored values" in out
    assert "A[3][5]  v0{19}.[31:16]  19    0     16      31" in out
    out = _run(SMFMAC + ["--matrix", "a", "--compressed"], capsys)
    assert "lane holding A[i][kk]" in out
    doc = load(AMIC_DIR / "cdna3__v_smfmac_f32_16x16x32_f16.json")
    for name in "bd":
        out = _run(SMFMAC + ["--matrix", name, "--format", "csv"], capsys)
        got = {tuple(map(int, r)) for r in list(csv.reader(io.StringIO(out)))[1:]}
        assert got == _rows(doc["variants"][0]["matrices"][name.upper()])


def test_detail_and_list(capsys):
    out = _run(SMFMAC + ["--detail"], capsys)
    assert "4:2 sparse: A holds 16 of the 32 k per row (2 of each 4); the index register K " \
        "holds 4 index sets" in out
    assert "K         idx    1                index / src2" in out
    assert "C         f32    4                c / vdst (D += A*B)" in out
    assert "index set: ABID 0..3 with CBSZ = 0 (--abid); CBSZ != 0 reads set 0" in out
    for path in FILES:
        doc = load(path)
        meta = doc["meta"]
        for wave in meta["wave_sizes"]:
            d = LI.instruction_details(doc["instruction"], TARGET[doc["arch"]], wave)
            assert d["sparse"] and d["k_stored"] == meta["K"] // 2
            assert (d["k"], d["flops"], d["cycles"]) == (meta["K"], meta["flops"],
                                                         meta["cycles"])
            gprs = meta["gprs"][str(wave)]
            assert {k: d["vgprs"][k] for k in "ABD"} == {k: gprs[k] for k in "ABD"}
            assert d["vgprs"]["K"] == 1
    out = _run(SWMMAC + ["--detail", "--wave", "64"], capsys)
    assert "index set: OPSEL 0..3 (the ISA's index_key; --opsel)" in out
    rows = LI.list_instructions("gfx1201")
    assert {r["sparse"] for r in rows if r["isa"].startswith("v_swmmac")} == {"4:2"}
    assert {r["sparse"] for r in rows if r["isa"].startswith("v_wmma")} == {"-"}


@pytest.mark.parametrize("argv,words", [
    (["--instr", "v_mfma_f32_16x16x16_f16", "--matrix", "k"],
     "matrix k is the index register of a 4:2 sparse instruction (v_smfmac_*, v_swmmac_*); "
     "v_mfma_f32_16x16x16_f16 is dense"),
    (SMFMAC + ["--matrix", "k", "--abid", "4"],
     "abid 4 is out of range: v_smfmac_f32_16x16x32_f16 has 4 index sets, picked by ABID "
     "with CBSZ = 0 (0..3)"),
    (["--instr", "v_smfmac_i32_16x16x64_i8", "--matrix", "k", "--abid", "2"],
     "has 2 index sets, picked by ABID with CBSZ = 0 (0..1)"),
    (SMFMAC + ["--matrix", "k", "--cbsz", "4"], "cbsz 4 is out of range: CBSZ is a 2-bit field"),
    (SWMMAC + ["--matrix", "k", "--opsel", "2"],
     "opsel 2 is out of range: v_swmmac_f32_16x16x32_f16 (wave32) has 2 index sets, picked "
     "by OPSEL (0..1)"),
    (SWMMAC + ["--matrix", "k", "--abid", "1"], "picks its index set with OPSEL, not CBSZ/ABID"),
    (SMFMAC + ["--matrix", "k", "--opsel", "1"], "picks its index set with ABID, not OPSEL"),
    (SMFMAC + ["--matrix", "a", "--abid", "1"], "it applies to --matrix k only"),
    (SWMMAC + ["--matrix", "d", "--opsel", "1"], "it applies to --matrix k only"),
    (SMFMAC + ["--matrix", "b", "--compressed"],
     "the compressed view is A of a sparse instruction"),
    (["--instr", "v_mfma_f32_16x16x16_f16", "--compressed"],
     "the compressed view is A of a sparse instruction"),
    (["--instr", "v_mfma_f32_16x16x16_f16", "--abid", "1"],
     "v_mfma_f32_16x16x16_f16 on gfx942 has none: it has one block"),
    (["--fragment", "a", "--abid", "1"], "--abid cannot be used with a fragment layout"),
    (SMFMAC + ["--detail", "--abid", "1"], "--abid cannot be used with --detail"),
])
def test_sparse_misuse_is_refused(argv, words, capsys):
    assert cli.layout_main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_python_misuse_raises_layout_query_error():
    with pytest.raises(LayoutQueryError, match=re.escape("matrix must be a, b, c, d or k")):
        LI.instruction_layout("v_smfmac_f32_16x16x32_f16", "gfx942", matrix="x")
    with pytest.raises(LayoutQueryError, match="abid must be an integer"):
        LI.instruction_layout("v_smfmac_f32_16x16x32_f16", "gfx942", matrix="k", abid=1.5)


def test_the_guides_sparse_commands_run(tmp_path, monkeypatch, capsys):
    guide = (AMIC_DIR.parents[2] / "docs" / "guide" / "layout-inspector.md").read_text()
    section = guide.split("## Sparse instructions", 1)[1].split("\nEvery query", 1)[0]
    lines = [line.split("#")[0].split() for line in section.splitlines()
             if line.startswith(("rocwmma-layout ", "$ rocwmma-layout "))]
    assert len(lines) >= 9
    monkeypatch.chdir(tmp_path)  # --svg k.svg lands here
    for argv in lines:
        argv = argv[argv.index("rocwmma-layout") + 1:]
        assert cli.layout_main(argv) == 0, (argv, capsys.readouterr().err)
    out = capsys.readouterr().out
    assert "v0{19}" in out and (tmp_path / "k.svg").exists()
    excerpt = section.split("$ rocwmma-layout", 1)[1].split("```", 1)[0]
    shown = [line for line in excerpt.splitlines()[1:] if line and line != "..."
             and not line.startswith("$")]
    assert all(line in out for line in shown), [line for line in shown if line not in out]


def test_compare_takes_the_sparse_options(capsys):
    # gfx950 keeps gfx942's 16x16x32 f16 SMFMAC: the index register does not move
    out = _run(SMFMAC + ["--matrix", "k", "--abid", "3", "--compare", "gfx942", "gfx950"],
               capsys)
    assert out.startswith("0 of 512 elements sit in a different lane/register")
    assert "K on gfx950 (wave64, ABID=3: index set 3 of 4)" in out
