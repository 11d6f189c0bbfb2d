"""`python -m rocwmma_py layout ...`: show which lane and register holds which element.

    python -m rocwmma_py layout --instr v_wmma_f32_16x16x16_f16 --arch gfx1100 --wave 32 --matrix a
    python -m rocwmma_py layout --fragment a --shape 16x16x16 --dtype f16 --layout row --arch gfx942
    python -m rocwmma_py layout --fragment a --shape 16x16x16 --dtype f16 --layout row \\
        --compare gfx942 gfx1100
    python -m rocwmma_py layout --arch sm_80 --matrix a       # NVIDIA's mma.m16n8k16 fragment
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .._version import __version__
from ..rocwmma.errors import FragmentError
from ..rocwmma.fragment_layout import LayoutError
from . import tables as LI


def _parser(prog: str = "python -m rocwmma_py") -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    p.add_argument("--version", action="version", version=f"rocwmma_py {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    lay = sub.add_parser("layout", help="element <-> (lane, register) tables and pictures")
    what = lay.add_argument_group("what to show (an instruction, a fragment or sm_80)")
    what.add_argument("--instr", help="instruction: ISA mnemonic or builtin name")
    what.add_argument("--fragment", choices=["a", "b", "acc"], help="fragment matrix")
    what.add_argument("--arch", default="gfx942", help="target (gfx942, gfx1100, ..., sm_80)")
    what.add_argument("--wave", type=int, help="wave size of a gfx11/gfx12 instruction")
    what.add_argument("--matrix", default="a", choices=["a", "b", "c", "d"],
                      help="instruction operand (default a)")
    what.add_argument("--opsel", type=int, default=0, help="gfx11 16-bit C/D half (0 or 1)")
    what.add_argument("--shape", default="16x16x16", help="fragment MxNxK (default 16x16x16)")
    what.add_argument("--dtype", default="f16", help="fragment element type (f16, bf16, i8, ...)")
    what.add_argument("--layout", choices=["row", "col"], help="A/B data layout (default row)")
    what.add_argument("--api", default="rocwmma", choices=["rocwmma", "wmma"],
                      help="fragment template: rocWMMA's or CUDA's wmma")
    out = lay.add_argument_group("output")
    out.add_argument("--view", default="both", choices=["element", "register", "both"])
    out.add_argument("--format", default="text", choices=list(LI.FORMATS))
    out.add_argument("--compare", nargs=2, metavar=("ARCH1", "ARCH2"),
                     help="show the fragment's elements that sit elsewhere on ARCH2")
    out.add_argument("--svg", metavar="FILE", help="write the colour grid as SVG")
    out.add_argument("--png", metavar="FILE", help="write the colour grid as PNG (needs [plot])")
    return p


def build(args: argparse.Namespace, arch: str | None = None) -> LI.Layout:
    """The layout the options ask for, on `arch` (default --arch)."""
    arch = arch or args.arch
    if arch == "sm_80":
        matrix = {"acc": "c"}.get(args.fragment, args.fragment) or args.matrix
        return LI.sm80_layout(matrix)
    if args.instr:
        return LI.instruction_layout(args.instr, arch, args.wave, args.matrix, args.opsel)
    if not args.fragment:
        raise LI.LayoutQueryError("give --instr NAME, --fragment a|b|acc, or --arch sm_80")
    layout = None if args.fragment == "acc" else (args.layout or "row")
    dtype = {"tf32": "xf32"}.get(args.dtype, args.dtype)
    cls = LI.fragment_class(args.fragment, LI.parse_shape(args.shape), dtype, layout, args.api)
    return LI.fragment_layout(cls, arch)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    views = ["element", "register"] if args.view == "both" else [args.view]
    try:
        if args.compare:
            first, second = (build(args, a) for a in args.compare)
            print(LI.render_compare(first, second, args.format), end="")
            return 0
        layout = build(args)
        print("\n".join(LI.render(layout, v, args.format) for v in views), end="")
        if args.svg:
            from .svg import svg

            with open(args.svg, "w") as f:
                f.write(svg(layout))
        if args.png:
            from .svg import png

            png(layout, args.png)
    except (LI.LayoutQueryError, FragmentError, LayoutError, ValueError, TypeError,
            ImportError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


def layout_main(argv: Sequence[str] | None = None) -> int:
    """The `rocwmma-layout` command: `python -m rocwmma_py layout` without the subcommand."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args in (["--version"], ["-V"]):
        print(f"rocwmma-layout (rocwmma_py {__version__})")
        return 0
    return main(["layout", *args])
