"""The example pictures of docs/layouts/, made from the command lines listed here:

    python -m rocwmma_py.inspector.gallery [FOLDER]     # default docs/layouts

writes every picture and the folder's README.md (a test regenerates them and compares, so
the committed pictures always match the renderer).
"""

from __future__ import annotations

import sys
from pathlib import Path

from .cli import build, parser
from .svg import svg

# (file, command-line options, what it shows)
PICTURES = [
    ("gfx942_mfma_f32_16x16x16_f16_A.svg",
     "--instr v_mfma_f32_16x16x16_f16 --arch gfx942 --matrix a",
     "MI300 A operand: 4 consecutive k per lane, 16 lanes per k group"),
    ("gfx942_mfma_f32_16x16x16_f16_C.svg",
     "--instr v_mfma_f32_16x16x16_f16 --arch gfx942 --matrix c",
     "MI300 accumulator: 4 rows per lane group, one VGPR per row"),
    ("gfx942_mfma_f32_4x4x1_16b_f32_C.svg",
     "--instr v_mfma_f32_4x4x1_16b_f32 --arch gfx942 --matrix c",
     "16 blocks of 4x4, tiled as a grid"),
    ("gfx942_mfma_f32_32x32x1_2b_f32_C_overview.svg",
     "--instr v_mfma_f32_32x32x1_2b_f32 --arch gfx942 --matrix c",
     "a large operand drawn as the overview: lane and register grids, 8 x 32 repeat tiles"),
    ("gfx942_smfmac_f32_16x16x32_f16_K_abid1.svg",
     "--instr v_smfmac_f32_16x16x32_f16 --arch gfx942 --matrix k --abid 1",
     "MI300 4:2 sparse index register, index set 1 (ABID=1): one nibble per group of 4 k"),
    ("gfx1100_wmma_f32_16x16x16_f16_A.svg",
     "--instr v_wmma_f32_16x16x16_f16 --arch gfx1100 --matrix a",
     "RDNA3 A operand, replicated in both half-waves"),
    ("gfx1100_wmma_f16_16x16x16_f16_C_opsel1.svg",
     "--instr v_wmma_f16_16x16x16_f16 --arch gfx1100 --matrix c --opsel 1",
     "RDNA3 16-bit result in the high halves (OPSEL=1)"),
    ("gfx1200_fragment_a_16x16x16_f16_row.svg",
     "--fragment a --shape 16x16x16 --dtype f16 --layout row --arch gfx1200",
     "a rocWMMA A fragment on RDNA4"),
    ("gfx942_wmma_acc_32x8x16_f32.svg",
     "--fragment acc --api wmma --shape 32x8x16 --dtype float --arch gfx942",
     "a CUDA wmma 32x8x16 accumulator on MI300 (padding left out)"),
    ("sm80_mma_m16n8k16_A.svg", "--arch sm_80 --matrix a",
     "NVIDIA's mma.m16n8k16 A fragment (PTX ISA), for comparison"),
]


def readme() -> str:
    """docs/layouts/README.md: each picture with the command that draws it."""
    rows = "\n".join(f"| [`{f}`]({f}) | `rocwmma-layout {argv} --svg {f}` | {what} |"
                     for f, argv, what in PICTURES)
    return ("# Example layout pictures\n\n"
            "Drawn by the layout inspector (docs/guide/layout-inspector.md); regenerate them all "
            "with\n`python -m rocwmma_py.inspector.gallery docs/layouts` (a test checks they "
            "are current).\n\n| file | command | shows |\n|---|---|---|\n" + rows + "\n")


def regenerate(folder: str | Path) -> list[Path]:
    """Write every picture and the README into `folder`; returns the files written."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, argv, _ in PICTURES:
        args = parser("rocwmma-layout").parse_args(argv.split())
        path = folder / name
        path.write_text(svg(build(args)))
        written.append(path)
    (folder / "README.md").write_text(readme())
    return [*written, folder / "README.md"]


if __name__ == "__main__":
    for p in regenerate(sys.argv[1] if len(sys.argv) > 1 else "docs/layouts"):
        print(p)
