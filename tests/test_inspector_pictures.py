"""The layout pictures: well-formed SVG with axes, legend and a white background, cells
labelled by the calculator's placements, a lane palette that separates neighbours, PNG made
from the same SVG, and docs/layouts/ regenerated from the gallery's command lines."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from rocwmma_py import layout_inspector as LI
from rocwmma_py.inspector import cli, gallery
from rocwmma_py.inspector.palette import lane_colour, lane_rgb
from rocwmma_py.inspector.svg import png, svg

pytestmark = pytest.mark.regression

NS = {"s": "http://www.w3.org/2000/svg"}
DOCS = Path(__file__).resolve().parents[1] / "docs" / "layouts"


def _texts(root, cls):
    return [t.text for t in root.iter(f"{{{NS['s']}}}text") if t.get("class") == cls]


def test_svg_axes_cells_legend_and_background():
    lay = LI.instruction_layout("v_mfma_f32_16x16x16_f16", "gfx942", 64, "a")
    root = ET.fromstring(svg(lay))
    background = root.find("s:rect[@class='background']", NS)
    assert background.get("fill") == "#ffffff" and background.get("width") == root.get("width")
    assert _texts(root, "col-index") == [str(k) for k in range(16)]
    assert _texts(root, "row-index") == [str(i) for i in range(16)]
    assert _texts(root, "lane-index") == [str(n) for n in range(64)]
    legend = root.find("s:g[@class='legend']", NS)
    words = " ".join(t.text for t in legend.iter(f"{{{NS['s']}}}text"))
    assert "'L17' = lane 17 holds this element" in words and "'+1' = one more copy" in words
    assert "v3.1 = VGPR 3, part 1 (bits [31:16]" in words
    assert len(legend.findall("s:rect[@class='lane-key']", NS)) == 64
    cells = root.findall("s:g[@class='element']", NS)
    regs = root.findall("s:g[@class='register']", NS)
    assert len(cells) == 16 * 16 and len(regs) == 4 * 64  # 2 VGPRs x 2 halves x 64 lanes
    labels = {c.find("s:title", NS).text: [t.text for t in c.iter(f"{{{NS['s']}}}tspan")]
              for c in cells}
    # A[1][5] (calculator CDNA3 16x16x16 f16: lane i + 16*(k//4), vgpr (k%4)//2, bits 16*(k%2))
    assert labels["A[1][5]: v0{17}.[31:16]"] == ["L17", "v0.1"]
    fills = {c.find("s:title", NS).text: c.find("s:rect", NS).get("fill") for c in cells}
    assert fills["A[1][5]: v0{17}.[31:16]"] == lane_colour(17)
    reg = {c.find("s:title", NS).text: c.find("s:text/s:tspan", NS).text for c in regs}
    assert reg["v0{17}.[31:16]: A[1][5]"] == "1,5"


def test_svg_replicas_and_blocks():
    lay = LI.instruction_layout("v_wmma_f32_16x16x16_f16", "gfx1100", 32, "a")
    root = ET.fromstring(svg(lay))
    cell = next(c for c in root.findall("s:g[@class='element']", NS)
                if c.find("s:title", NS).text.startswith("A[3][4]:"))
    # RDNA3 A: lanes i and i + 16, VGPR k // 2, half k % 2
    assert cell.find("s:title", NS).text == "A[3][4]: v2{3}.[15:0] v2{19}.[15:0]"
    assert [t.text for t in cell.iter(f"{{{NS['s']}}}tspan")] == ["L3 +1", "v2.0"]
    assert "held 2 times, by the lane shown and lanes +16" in ET.tostring(root, "unicode")
    lay = LI.instruction_layout("v_mfma_f32_4x4x1_16b_f32", "gfx942", 64, "c")
    root = ET.fromstring(svg(lay))
    assert _texts(root, "block-title") == [f"block {b}" for b in range(16)]
    # 16 blocks tiled as a grid, not a strip: 4 distinct x and 4 distinct y positions
    xs = {float(t.get("x")) for t in root.iter(f"{{{NS['s']}}}text")
          if t.get("class") == "block-title"}
    ys = {float(t.get("y")) for t in root.iter(f"{{{NS['s']}}}text")
          if t.get("class") == "block-title"}
    assert len(xs) == 4 and len(ys) == 4
    width, height = float(root.get("width")), float(root.get("height"))
    assert 0.5 < width / height < 3


def test_register_file_wraps_into_bands():
    lay = LI.instruction_layout("v_mfma_f32_16x16x16_f16", "gfx942", 64, "a")
    root = ET.fromstring(svg(lay))
    rows = {float(t.get("y")) for t in root.iter(f"{{{NS['s']}}}text")
            if t.get("class") == "lane-index"}
    assert len(rows) == 4  # 64 lanes in 4 bands of 16, each with its lane numbers


def test_palette_separates_neighbouring_lanes():
    rgb = [lane_rgb(n) for n in range(64)]
    assert min(math.dist(rgb[n], rgb[n + 1]) for n in range(63)) >= 100
    assert len(set(rgb)) == 64  # no two lanes of a wave share a colour
    assert min(math.dist(rgb[n], rgb[n + 16]) for n in range(48)) >= 30  # lightness groups
    assert all(sum(c) / 3 >= 110 for c in rgb)  # light enough for black text
    assert lane_colour(0) != lane_colour(63)


def test_png_is_the_svg_rasterised(tmp_path, capsys):
    pytest.importorskip("cairosvg")
    out = tmp_path / "x.png"
    assert cli.layout_main(["--arch", "sm_80", "--png", str(out)]) == 0
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    root = ET.fromstring(svg(LI.sm80_layout("a")))
    assert (width, height) == (round(2 * float(root.get("width"))),
                               round(2 * float(root.get("height"))))
    png(LI.sm80_layout("b"), str(tmp_path / "b.png"), scale=1)
    assert (tmp_path / "b.png").stat().st_size > 1000


def test_docs_pictures_are_current(tmp_path):
    written = gallery.regenerate(tmp_path)
    for path in written:
        assert (DOCS / path.name).read_text() == path.read_text(), (
            f"docs/layouts/{path.name} is stale: run python -m rocwmma_py.inspector.gallery "
            "docs/layouts")
    assert {p.name for p in DOCS.iterdir()} == {p.name for p in written}
    for path in written[:-1]:
        ET.parse(path)
