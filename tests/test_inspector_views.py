"""The inspector's pictures of large layouts (the overview form) and the calculator's remaining
views: CBSZ/ABID on A and BLGP on B of the gfx9 MFMA, checked against every modifier variant
of the AMD Matrix Instruction Calculator's dumps, and --list-instructions with its columns."""

from __future__ import annotations

import csv
import io
import re
import xml.etree.ElementTree as ET

import pytest
from amic import AMIC_DIR, TARGET, dense_files, entries, load

from rocwmma_py import layout_inspector as LI
from rocwmma_py.inspector import cli
from rocwmma_py.inspector.svg import svg

pytestmark = pytest.mark.regression

NS = {"s": "http://www.w3.org/2000/svg"}


def _modified():
    for path in dense_files():
        doc = load(path)
        for v, variant in enumerate(doc["variants"]):
            if variant["modifiers"] and set(variant["modifiers"]) <= {"cbsz", "abid", "blgp"}:
                for name, matrix in variant["matrices"].items():
                    yield pytest.param(doc, variant["wave"], variant["modifiers"], name, matrix,
                                       id=f"{path.stem}-{v}-{name}")


MODIFIED = list(_modified())


def test_every_modifier_variant_is_checked():
    seen = {(p.values[0]["instruction"], p.values[3], tuple(sorted(p.values[2])))
            for p in MODIFIED}
    assert len(MODIFIED) == 13 + 9 + 37 + 7
    assert {isa for isa, _, _ in seen} == {"v_mfma_f32_4x4x1_16b_f32", "v_mfma_f32_16x16x1_4b_f32",
                                          "v_mfma_f32_32x32x1_2b_f32", "v_mfma_f64_16x16x4_f64"}
    assert {(m, mods) for _, m, mods in seen} == {("A", ("abid", "cbsz")), ("B", ("blgp",))}


@pytest.mark.parametrize("doc,wave,mods,name,matrix", MODIFIED)
def test_modifier_views_match_the_calculator(doc, wave, mods, name, matrix):
    lay = LI.instruction_layout(doc["instruction"], TARGET[doc["arch"]], wave, name.lower(),
                                **mods)
    rows = entries(matrix)
    assert lay.locations() == {tuple(e[:7]) for e in rows.tolist()}
    assert lay.shape == tuple(matrix["shape"])
    assert len({(e[3]) for e in lay.entries.tolist()}) == matrix["lanes_used"]
    if "neg" in matrix["columns"]:  # CDNA3 f64: BLGP is NEG, the title and note say which
        negated = bool(rows[:, matrix["columns"].index("neg")].any())
        assert ("B is negated" in lay.note) == negated
        assert ("B is not negated" in lay.note) == (not negated)


def test_cbsz_abid_text_names_the_shared_blocks(capsys):
    argv = ["--instr", "v_mfma_f32_16x16x1_4b_f32", "--arch", "gfx942", "--matrix", "a",
            "--cbsz", "1", "--abid", "1", "--view", "register"]
    assert cli.layout_main(argv) == 0
    out = capsys.readouterr().out
    assert "CBSZ=1, ABID=1: blocks 0, 1 read block 1; blocks 2, 3 read block 3" in out
    # lane 16 holds A[0][0] of block 1, read by blocks 0 and 1; lanes of block 0 go unread
    body = [line.split() for line in out.splitlines() if line.lstrip().startswith("0 ")]
    assert set(body[0][1:] + body[1][1:]) == {"-"}  # lanes 0..15 (block 0's A): unread
    assert "0:0,0 1:0,0" in out and "A[row][col] of block b; - = unused" in out
    lay = LI.instruction_layout("v_mfma_f32_16x16x1_4b_f32", "gfx942", matrix="a", cbsz=1,
                                abid=1)
    assert lay.at(0, 16) == [((16, 0, 0, 31), (0, 0, 0)), ((16, 0, 0, 31), (1, 0, 0))]


def test_blgp_text_and_csv(capsys):
    argv = ["--instr", "v_mfma_f32_32x32x1_2b_f32", "--arch", "gfx942", "--matrix", "b",
            "--blgp", "3", "--format", "csv"]
    assert cli.layout_main(argv) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    # BLGP 3: lane L reads lane (L + 16) % 64; B[0][j] of block 0 sits in lane j unmodified
    where = {(int(r["block"]), int(r["col"])): int(r["lane"]) for r in rows}
    assert where[(0, 0)] == 16 and where[(1, 16)] == 0 and where[(1, 31)] == 15
    assert cli.layout_main(argv[:-2] + ["--view", "register"]) == 0
    assert "BLGP=3: each lane reads the B registers of lane (lane + 16) % 64" in \
        capsys.readouterr().out


@pytest.mark.parametrize("argv,words", [
    (["--instr", "v_mfma_f32_16x16x16_f16", "--blgp", "1", "--matrix", "b"],
     "v_mfma_f32_16x16x16_f16 on gfx942 has none"),
    (["--instr", "v_wmma_f32_16x16x16_f16", "--arch", "gfx1100", "--matrix", "b", "--blgp",
      "1"], "BLGP is a gfx9 MFMA modifier"),
    (["--instr", "v_mfma_f32_32x32x1_2b_f32", "--matrix", "a", "--blgp", "1"],
     "give --matrix b, not a"),
    (["--instr", "v_mfma_f32_32x32x1_2b_f32", "--matrix", "b", "--blgp", "8"],
     "blgp 8 is out of range: BLGP is a 3-bit field (0..7)"),
    (["--instr", "v_mfma_f32_32x32x1_2b_f32", "--matrix", "b", "--cbsz", "1"],
     "give --matrix a, not b"),
    (["--instr", "v_mfma_f32_32x32x1_2b_f32", "--matrix", "a", "--cbsz", "2"],
     "cbsz 2 is out of range: v_mfma_f32_32x32x1_2b_f32 has 2 blocks, so CBSZ"),
    (["--instr", "v_mfma_f32_16x16x1_4b_f32", "--matrix", "a", "--cbsz", "1", "--abid", "2"],
     "abid 2 is out of range: with CBSZ=1 ABID picks one of 2 blocks (0..1)"),
    (["--instr", "v_mfma_f32_16x16x1_4b_f32", "--matrix", "a", "--abid", "1"],
     "give --cbsz 1..2 with it"),
    (["--instr", "v_mfma_f64_16x16x4_f64", "--matrix", "a", "--cbsz", "1"],
     "has none: f64 ops have none"),
    (["--instr", "v_mfma_f64_16x16x4_f64", "--matrix", "d", "--blgp", "1"],
     "BLGP is NEG on v_mfma_f64_16x16x4_f64"),
    (["--instr", "v_smfmac_f32_16x16x32_f16", "--matrix", "b", "--blgp", "1"],
     "takes no BLGP"),
    (["--instr", "v_mfma_f32_32x32x1_2b_f32", "--full"], "--full is for pictures"),
])
def test_modifier_misuse_is_refused(argv, words, capsys):
    assert cli.layout_main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


# --- overview pictures ----------------------------------------------------------------------

def _size(text: str) -> tuple[float, float, int]:
    root = ET.fromstring(text)
    return float(root.get("width")), float(root.get("height")), len(text.encode())


@pytest.mark.parametrize("argv", [
    ["--fragment", "acc", "--shape", "64x64x16", "--arch", "gfx942"],
    ["--fragment", "acc", "--shape", "64x64x16", "--dtype", "f32", "--arch", "gfx942"],
    ["--instr", "v_mfma_f32_32x32x1_2b_f32", "--arch", "gfx942", "--matrix", "c"],
    ["--instr", "v_mfma_f32_32x32x8_f16", "--arch", "gfx942", "--matrix", "c"],
    ["--instr", "v_mfma_f32_16x16x1_4b_f32", "--arch", "gfx942", "--matrix", "c"],
    ["--instr", "v_mfma_f32_4x4x1_16b_f32", "--arch", "gfx942", "--matrix", "c"],
    ["--instr", "v_smfmac_i32_16x16x64_i8", "--arch", "gfx942", "--matrix", "a"],
])
def test_large_pictures_stay_small_and_full_still_draws_everything(argv, tmp_path, capsys):
    out, full = tmp_path / "o.svg", tmp_path / "f.svg"
    assert cli.layout_main([*argv, "--svg", str(out)]) == 0
    assert cli.layout_main([*argv, "--svg", str(full), "--full"]) == 0
    width, height, size = _size(out.read_text())
    assert max(width, height) <= 2400 and size <= 500_000
    root = ET.fromstring(full.read_text())
    layout = cli.build(cli.parser("x").parse_args(argv))
    assert len(root.findall(".//s:g[@class='element']", NS)) == len(layout.element_view())
    if "(overview)" in out.read_text():
        assert max(width, height) <= 2000
        assert max(_size(full.read_text())[:2]) > 2400 or _size(full.read_text())[2] > 500_000


def test_overview_of_the_64x64_accumulator():
    lay = LI.fragment_layout(LI.fragment_class("acc", (64, 64, 16), "f32", None), "gfx942")
    text = svg(lay)
    width, height, size = _size(text)
    assert "(overview)" in text and size < 200_000 and (width, height) < (2000, 2000)
    root = ET.fromstring(text)
    assert not root.findall(".//s:g[@class='element']", NS)  # no per-cell groups
    # every element is drawn once in each grid: the paths' cells add up to 64 x 64
    for cls in ("lane-cells", "register-cells"):
        paths = root.findall(f".//s:path[@class='{cls}']", NS)
        cell = 12
        area = sum(int(w) * cell for p in paths for w in re.findall(r"h(\d+)v", p.get("d")))
        assert area == 64 * 64 * cell * cell
    words = " ".join(t.text or "" for t in root.iter(f"{{{NS['s']}}}text"))
    assert "The register pattern repeats in 16 x 4 tiles" in words
    assert len(root.findall(".//s:rect[@class='lane-key']", NS)) == 64
    assert len(root.findall(".//s:rect[@class='reg-key']", NS)) == 64  # 64 VGPRs a lane
    labels = [t.text for t in root.iter(f"{{{NS['s']}}}text") if t.get("class") == "tile-label"]
    assert labels[:2] == ["L0", "L1"] and len(labels) == 64


def test_overview_of_a_multi_block_accumulator_labels_the_register_tiles():
    root = ET.fromstring(svg(LI.instruction_layout("v_mfma_f32_32x32x1_2b_f32", "gfx942",
                                                   matrix="c")))
    labels = [t.text for t in root.iter(f"{{{NS['s']}}}text") if t.get("class") == "tile-label"]
    # 32x32 C: 8-row groups of 4 VGPRs, block 1 from v16 (calculator: GPR 16*block + ...)
    assert labels == ["v0-v3", "v4-v7", "v8-v11", "v12-v15", "v16-v19", "v20-v23",
                      "v24-v27", "v28-v31"]


def test_small_pictures_are_unchanged_by_full():
    lay = LI.instruction_layout("v_mfma_f32_16x16x16_f16", "gfx942", matrix="a")
    assert svg(lay) == svg(lay, full=True)


def test_amic_dir_is_present():
    assert AMIC_DIR.is_dir()


# --- --list-instructions --------------------------------------------------------------------

def test_list_has_the_calculators_flops_and_vgprs():
    checked = 0
    for path in sorted(AMIC_DIR.glob("*__*.json")):
        doc = load(path)
        rows = {(r["isa"], r["wave"]): r for r in LI.list_instructions(TARGET[doc["arch"]])}
        for wave in doc["meta"]["wave_sizes"]:
            row = rows[(doc["instruction"], wave)]
            gprs = doc["meta"]["gprs"][str(wave)]
            assert row["flops"] == doc["meta"]["flops"], path.stem
            assert (row["vgprs_a"], row["vgprs_b"], row["vgprs_c"]) == (
                gprs["A"], gprs["B"], gprs["D"]), path.stem
            checked += 1
    assert checked > 100


def test_list_every_target(capsys):
    from rocwmma_py.arch import ARCH_NAMES

    assert cli.layout_main(["--list-instructions", "--arch", "all", "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert list(rows[0])[:2] == ["arch", "isa"] and {r["arch"] for r in rows} == set(ARCH_NAMES)
    assert len(rows) == sum(len(LI.list_instructions(a)) for a in ARCH_NAMES)
    assert cli.layout_main(["--list-instructions", "--arch", "all"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{len(rows)} instructions on {len(ARCH_NAMES)} targets")
    header = out.splitlines()[1].split()
    assert header == ["arch", "isa", "builtin", "wave", "m", "n", "k", "blocks", "a", "b", "c",
                      "cycles", "flops", "vgprs_a", "vgprs_b", "vgprs_c", "sparse"]
