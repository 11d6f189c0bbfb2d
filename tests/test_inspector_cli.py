"""The layout command line: every misuse is refused with exit status 2 and a message naming
what is allowed (no traceback); csv is one table; markdown one table; text fits the width."""

from __future__ import annotations

import csv
import io

import pytest

from rocwmma_py import layout_inspector as LI
from rocwmma_py.inspector import cli

pytestmark = pytest.mark.regression

MFMA = ["--instr", "v_mfma_f32_16x16x16_f16"]
WMMA16 = ["--instr", "v_wmma_f16_16x16x16_f16", "--arch", "gfx1100", "--matrix", "c"]
FRAG = ["--fragment", "a"]

MISUSE = [
    # --opsel: only 0/1, only gfx11 16-bit C/D, only instructions
    (WMMA16 + ["--opsel", "5"], ["opsel must be 0 or 1"]),
    (MFMA + ["--matrix", "c", "--opsel", "1"], ["OPSEL applies only to C/D of gfx11 WMMA"]),
    (WMMA16[:4] + ["--matrix", "a", "--opsel", "1"], ["OPSEL applies only to C/D"]),
    (FRAG + ["--opsel", "1"], ["--opsel cannot be used with a fragment layout", "--shape"]),
    # --wave: a real wave size of the target, only with --instr
    (MFMA + ["--wave", "0"], ["--wave must be 64 on gfx942; got 0"]),
    (MFMA + ["--wave", "32"], ["--wave must be 64 on gfx942; got 32"]),
    (WMMA16 + ["--wave", "48"], ["--wave must be 32 or 64 on gfx1100; got 48"]),
    (FRAG + ["--wave", "64"], ["--wave cannot be used with a fragment layout"]),
    # options the chosen output does not use
    (["--fragment", "acc", "--layout", "row", "--api", "wmma"],
     ["wmma accumulator fragment has no layout type"]),
    (["--arch", "sm_80", "--shape", "16x16x16"],
     ["--shape cannot be used with the sm_80 view", "it takes: --arch"]),
    (["--arch", "sm_80", "--dtype", "f32"], ["--dtype cannot be used with the sm_80 view"]),
    (["--arch", "sm_80", "--matrix", "a", "--fragment", "b"], ["not both"]),
    (MFMA + ["--fragment", "a"], ["give --instr NAME or --fragment a|b|acc, not both"]),
    (MFMA + ["--dtype", "f32"], ["--dtype cannot be used with an instruction layout",
                                 "--matrix"]),
    (MFMA + ["--shape", "16x16x16", "--layout", "col"],
     ["--layout, --shape cannot be used with an instruction layout"]),
    (FRAG + ["--matrix", "b"], ["--matrix cannot be used with a fragment layout"]),
    (FRAG + ["--compare", "gfx942", "gfx1100", "--svg", "x.svg"],
     ["--svg cannot be used with --compare"]),
    (FRAG + ["--compare", "gfx942", "gfx1100", "--png", "x.png"],
     ["--png cannot be used with --compare"]),
    (FRAG + ["--compare", "gfx942", "gfx1100", "--view", "register"],
     ["--view cannot be used with --compare"]),
    (FRAG + ["--compare", "gfx942", "gfx1100", "--arch", "gfx90a"],
     ["--arch cannot be used with --compare"]),
    (["--compare", "gfx942", "gfx1100"], ["--compare needs what to compare"]),
    (["--list-instructions", "--instr", "x"], ["--instr cannot be used with "
                                               "--list-instructions"]),
    (["--list-instructions", "--arch", "sm_80"], ["sm_80 has no AMD instruction table"]),
    (["--detail"], ["--detail needs --instr NAME"]),
    (MFMA + ["--detail", "--matrix", "a"], ["--matrix cannot be used with --detail"]),
    (["--arch", "gfx942"], ["give --instr NAME, --fragment a|b|acc, --arch sm_80"]),
    # one table per csv/markdown output
    (FRAG + ["--format", "csv", "--view", "both"],
     ["--format csv writes one table: give --view element or --view register"]),
    (FRAG + ["--format", "markdown", "--view", "both"], ["--format markdown writes one table"]),
    (FRAG + ["--format", "csv", "--width", "90"], ["--width applies to --format text"]),
    (FRAG + ["--width", "10"], ["at least 40"]),
    # queries
    (MFMA + ["--row", "1"], ["needs both --row and --col"]),
    (MFMA + ["--register", "1"], ["needs both --register and --lane"]),
    (MFMA + ["--row", "1", "--col", "1", "--lane", "3"], ["ask one query"]),
    (MFMA + ["--row", "1", "--col", "1", "--svg", "x.svg"], ["--svg cannot be used with it"]),
    (MFMA + ["--row", "16", "--col", "0"], ["row 16 is out of range", "(0..15)"]),
    (MFMA + ["--register", "0", "--lane", "64"], ["lane 64 is out of range", "(0..63)"]),
    (MFMA + ["--row", "0", "--col", "0", "--block", "1"], ["block 1 is out of range"]),
    # misspelt names: "did you mean"
    (["--instr", "v_mfma_f32_16x16x16f16"], ["did you mean v_mfma_f32_16x16x16_f16",
                                             "it exists on gfx908, gfx90a"]),
    (["--instr", "v_nope", "--arch", "gfx1100"], ["gfx1100 has no instruction 'v_nope'",
                                                  "--list-instructions --arch gfx1100"]),
    (FRAG + ["--dtype", "fp16"], ["unknown element type 'fp16' (did you mean f16"]),
    (FRAG + ["--arch", "gfx1110"], ["unknown architecture 'gfx1110' (did you mean gfx11"]),
    (FRAG + ["--shape", "16x16"], ["shape must look like MxNxK"]),
    (FRAG + ["--dtype", "f64", "--arch", "gfx1100", "--shape", "16x16x4"],
     ["data type f64 is not supported on gfx1100"]),
    # argparse's own checks keep its exit status 2
    (["--fragment", "c"], ["invalid choice: 'c'"]),
    (MFMA + ["--wave", "x"], ["invalid int value: 'x'"]),
]


@pytest.mark.parametrize("argv,words", MISUSE, ids=[" ".join(a) for a, _ in MISUSE])
def test_misuse_is_refused_with_a_message(argv, words, capsys):
    assert cli.layout_main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    for w in words:
        assert w in err


def test_png_without_cairosvg_names_the_extra(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(__import__("sys").modules, "cairosvg", None)  # import fails
    assert cli.layout_main(MFMA + ["--png", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert "pip install cairosvg" in err and "pip install '.[plot]'" in err


CSV_CASES = [MFMA, WMMA16, FRAG + ["--arch", "gfx1100"], ["--arch", "sm_80", "--matrix", "b"],
             ["--instr", "v_mfma_f64_4x4x4_4b_f64", "--matrix", "c"]]


@pytest.mark.parametrize("argv", CSV_CASES, ids=[" ".join(a) for a in CSV_CASES])
@pytest.mark.parametrize("view", [None, "element", "register"])
def test_csv_is_one_table(argv, view, capsys):
    extra = ["--view", view] if view else []
    assert cli.layout_main(argv + ["--format", "csv", *extra]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert all(len(r) == 7 for r in rows)
    header, body = rows[0], [tuple(map(int, r)) for r in rows[1:]]
    order = [header.index(c) for c in LI.COLUMNS]  # every column once, any order
    assert sorted(header) == sorted(LI.COLUMNS)
    lay = cli.build(cli.parser("x").parse_args(argv))
    assert {tuple(r[i] for i in order) for r in body} == lay.locations()
    assert len(body) == len(lay.entries)
    if view is None:  # the default for csv is the element view (element-sorted)
        assert header == list(LI.COLUMNS) and body == sorted(body)


def test_markdown_default_is_one_table(capsys):
    assert cli.layout_main(MFMA + ["--format", "markdown"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert sum(line.startswith("|---") for line in lines) == 1
    assert lines[2].startswith("| i\\k | 0 | 1 |")


WIDE = [["--instr", "mfma_i32_16x16x64_i8", "--arch", "gfx950", "--matrix", "a"],
        ["--instr", "v_mfma_f32_32x32x8_f16", "--matrix", "c"],
        ["--instr", "v_mfma_f32_4x4x1_16b_f32", "--matrix", "b"],
        ["--instr", "v_wmma_f32_16x16x16_f16", "--arch", "gfx1100", "--wave", "64"],
        ["--arch", "sm_80"]]


@pytest.mark.parametrize("argv", WIDE, ids=[" ".join(a) for a in WIDE])
@pytest.mark.parametrize("width", [80, 120])
def test_text_fits_the_terminal(argv, width, capsys):
    assert cli.layout_main(argv + ["--width", str(width)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(map(len, lines)) <= width
    assert len(lines) < 1200


def test_text_grid_is_the_lane_number_grid(capsys):
    # CDNA3 32x32x8 C[i][j]: lane j + 32*((i//4)%2), VGPR 4*(i//8) + i%4 (calculator formula)
    assert cli.layout_main(["--instr", "v_mfma_f32_32x32x8_f16", "--matrix", "c", "--view",
                            "element", "--width", "120"]) == 0
    lines = capsys.readouterr().out.splitlines()
    lanes = lines[lines.index("lane holding C[i][j]") + 2:][:32]
    regs = lines[lines.index("register holding C[i][j]") + 2:][:32]
    for i in range(32):
        assert lanes[i].split() == [str(i)] + [str(j + 32 * ((i // 4) % 2)) for j in range(32)]
        assert regs[i].split() == [str(i)] + [str(4 * (i // 8) + i % 4)] * 32


def test_version_and_module_entry(capsys):
    assert cli.layout_main(["--version"]) == 0
    assert cli.main(["--version"]) == 0
    assert cli.main(["nolayout"]) == 2
    assert "usage: python -m rocwmma_py layout" in capsys.readouterr().err


def test_accumulator_layout_is_honoured(capsys):
    """rocWMMA 2.x accumulators take a layout type; their register order is the same for
    every layout (ACC_INT_A_MAJOR): C[i][j] in lane j + 16*(i//4), VGPR i%4 on gfx942."""
    assert cli.layout_main(["--fragment", "acc", "--dtype", "f32", "--layout", "col",
                            "--format", "csv"]) == 0
    out = capsys.readouterr().out
    rows = {tuple(map(int, r)) for r in list(csv.reader(io.StringIO(out)))[1:]}
    assert rows == {(0, i, j, j + 16 * (i // 4), i % 4, 0, 31)
                    for i in range(16) for j in range(16)}
    assert cli.layout_main(["--fragment", "acc", "--dtype", "f32", "--layout", "col",
                            "--view", "register"]) == 0
    assert "col_major" in capsys.readouterr().out


def test_compare_csv_is_one_table(capsys):
    assert cli.layout_main(["--fragment", "b", "--layout", "col", "--compare", "gfx942",
                            "gfx1200", "--format", "csv"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert all(len(r) == 3 for r in rows) and rows[0][0] == "element"
    assert "on gfx942" in rows[0][1] and "on gfx1200" in rows[0][2] and len(rows) > 1
