"""`python -m rocwmma_py layout ...` (or `rocwmma-layout ...`): which lane and register holds
which element, with the AMD Matrix Instruction Calculator's queries.

    rocwmma-layout --instr v_wmma_f32_16x16x16_f16 --arch gfx1100 --matrix a
    rocwmma-layout --fragment a --shape 16x16x16 --dtype f16 --layout row --arch gfx942
    rocwmma-layout --instr v_mfma_f32_16x16x16_f16 --matrix a --row 1 --col 5
    rocwmma-layout --instr v_mfma_f32_16x16x16_f16 --matrix c --register 2 --lane 17
    rocwmma-layout --instr v_mfma_f32_32x32x8_f16 --detail
    rocwmma-layout --instr v_smfmac_f32_16x16x32_f16 --matrix k --abid 1   # sparse indices
    rocwmma-layout --instr v_swmmac_f32_16x16x32_f16 --arch gfx1201 --matrix k --opsel 1
    rocwmma-layout --list-instructions --arch gfx1200
    rocwmma-layout --fragment a --shape 16x16x16 --dtype f16 --compare gfx942 gfx1100
    rocwmma-layout --arch sm_80 --matrix a             # NVIDIA's mma.m16n8k16 fragment

An option that the chosen kind of output does not use is refused (exit status 2) with the
list of the options it takes, never silently ignored.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Sequence

from .._version import __version__
from ..errors import LayoutQueryError, RocwmmaError
from ..settings import default_arch
from . import names
from . import tables as LI
from .formats import WIDTH

# What each kind of output takes (argparse dests); anything else given is refused.
_LAYOUT_OUT = {"view", "format", "width", "svg", "png", "full", "row", "col", "block",
               "register", "lane"}
_TAKES = {
    "instruction": {"instr", "arch", "wave", "matrix", "opsel", "abid", "cbsz", "blgp",
                    "compressed"} | _LAYOUT_OUT,
    "fragment": {"fragment", "arch", "shape", "dtype", "layout", "api"} | _LAYOUT_OUT,
    "sm_80": {"arch", "matrix", "fragment"} | _LAYOUT_OUT,
    "detail": {"detail", "instr", "arch", "wave", "format"},
    "list": {"list_instructions", "arch", "format"},
    "compare": {"compare", "instr", "wave", "matrix", "opsel", "abid", "cbsz", "blgp",
                "compressed",
                "fragment", "shape", "dtype", "layout", "api", "format"},
}
_OPTION = {"list_instructions": "--list-instructions", "instr": "--instr"}
_MODE_NAME = {"instruction": "an instruction layout (--instr)",
              "fragment": "a fragment layout (--fragment)",
              "sm_80": "the sm_80 view (NVIDIA's mma.m16n8k16, fixed shape and types)",
              "detail": "--detail", "list": "--list-instructions", "compare": "--compare"}


def parser(prog: str) -> argparse.ArgumentParser:
    doc = __doc__ or ""  # None under python -OO
    p = argparse.ArgumentParser(prog=prog, description=doc.split("\n\n")[0],
                                epilog=doc.partition("\n\n")[2],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"{prog} (rocwmma_py {__version__})")
    what = p.add_argument_group("what to show (an instruction, a fragment or sm_80)")
    what.add_argument("--instr", help="instruction: ISA mnemonic or builtin name")
    what.add_argument("--fragment", choices=["a", "b", "acc"], help="fragment matrix")
    what.add_argument("--arch", help="target: " + ", ".join(names.TARGETS) +
                      ", or a product name of one (MI300X, RX 7900 XTX, ...; default: "
                      "$ROCWMMA_PY_ARCH, else gfx942)")
    what.add_argument("--wave", type=int, help="wave size of a gfx11/gfx12 instruction (32, 64)")
    what.add_argument("--matrix", choices=["a", "b", "c", "d", "k", "sa", "sb"],
                      help="instruction operand (default a); k = the index register of a "
                      "4:2 sparse instruction (v_smfmac_*, v_swmmac_*); sa/sb = the block "
                      "scales of A/B of an MX instruction (gfx950, gfx1250)")
    what.add_argument("--opsel", type=int,
                      help="gfx11 16-bit C/D: 0 = low halves (default), 1 = high halves; "
                      "gfx12 sparse K: the index set; gfx950 MX sa/sb: the scale byte (0..3); "
                      "gfx1250 MX sa/sb: the lane half (0, 1)")
    what.add_argument("--abid", type=int,
                      help="gfx9 multi-block A: the block broadcast (0..2**CBSZ-1); gfx9 "
                      "sparse K: the index set (with CBSZ 0; default 0)")
    what.add_argument("--cbsz", type=int,
                      help="gfx9 multi-block A: log2 of the blocks sharing one A block; gfx9 "
                      "sparse K: CBSZ (0..3; not 0 reads index set 0, as ABID 0); MX f8f6f4 "
                      "(gfx950, gfx1250): A's format (0 fp8, 1 bf8, 2 fp6, 3 bf6, 4 fp4)")
    what.add_argument("--blgp", type=int,
                      help="gfx9 B: the lane pattern (0..7: which lane's B registers each "
                      "lane reads); CDNA3 f64: NEG (bit 0 A, 1 B, 2 C); MX f8f6f4: B's "
                      "format (0 fp8, 1 bf8, 2 fp6, 3 bf6, 4 fp4)")
    what.add_argument("--compressed", action="store_true",
                      help="sparse A as stored (M x K/2 values) instead of by dense k")
    what.add_argument("--shape", help="fragment MxNxK (default 16x16x16)")
    what.add_argument("--dtype", help="fragment element type: f16 (default), bf16, f32, i8, ...")
    what.add_argument("--layout", choices=["row", "col"], help="data layout (a, b: default row)")
    what.add_argument("--api", choices=["rocwmma", "wmma"],
                      help="fragment template: rocWMMA's (default) or CUDA's wmma")
    query = p.add_argument_group("queries (the calculator's)")
    query.add_argument("--row", type=int, help="with --col [--block]: where is this element")
    query.add_argument("--col", type=int, help="column of the element (see --row)")
    query.add_argument("--block", type=int, help="block of the element (default 0)")
    query.add_argument("--register", type=int, help="with --lane: what this VGPR holds")
    query.add_argument("--lane", type=int, help="lane of the register (see --register)")
    query.add_argument("--detail", action="store_true",
                       help="instruction details: cycles, FLOPs, types, VGPRs per operand")
    query.add_argument("--list-instructions", action="store_true",
                       help="the instructions of --arch (--arch all: of every target) with "
                       "shape, blocks, types, cycles, FLOPs and VGPRs per lane")
    out = p.add_argument_group("output")
    out.add_argument("--view", choices=["element", "register", "both"],
                     help="element -> (lane, register), (register, lane) -> element, or both "
                     "(default: both for text; element for csv and markdown, one table each)")
    out.add_argument("--format", choices=list(LI.FORMATS),
                     help="text (default; compact grids that fit --width), csv, markdown")
    out.add_argument("--width", type=int,
                     help="text width in columns (default: the terminal's, 80 to 120)")
    out.add_argument("--compare", nargs=2, metavar=("ARCH1", "ARCH2"),
                     help="list the elements that sit elsewhere on ARCH2 than on ARCH1")
    out.add_argument("--svg", metavar="FILE", help="write the picture as SVG")
    out.add_argument("--png", metavar="FILE", help="write the picture as PNG (needs [plot])")
    out.add_argument("--full", action="store_true",
                     help="draw every cell labelled even when the picture is large (default: "
                     "an unlabelled overview above 2400 px or 500 kB)")
    return p


def _flag(dest: str) -> str:
    return _OPTION.get(dest, "--" + dest.replace("_", "-"))


def _mode(args: argparse.Namespace) -> str:
    if args.instr and args.fragment:
        raise LayoutQueryError("give --instr NAME or --fragment a|b|acc, not both")
    if args.list_instructions:
        return "list"
    if args.detail:
        return "detail"
    if args.compare:
        return "compare"
    if args.arch and args.arch.lower() == names.SM80:
        return "sm_80"
    if args.instr:
        return "instruction"
    if args.fragment:
        return "fragment"
    raise LayoutQueryError("give --instr NAME, --fragment a|b|acc, --arch sm_80, --detail, "
                     "--list-instructions or --compare ARCH1 ARCH2")


def _check(args: argparse.Namespace, mode: str) -> None:
    """Refuse options the mode does not use, and half-given or mixed queries."""
    given = {k for k, v in vars(args).items() if v is not None and v is not False}
    extra = sorted(given - _TAKES[mode])
    if extra:
        takes = ", ".join(_flag(d) for d in sorted(_TAKES[mode]))
        raise LayoutQueryError(f"{', '.join(map(_flag, extra))} cannot be used with "
                         f"{_MODE_NAME[mode]}; it takes: {takes}")
    if mode == "compare" and not (args.instr or args.fragment) and set(
            map(str.lower, args.compare)) != {names.SM80}:
        raise LayoutQueryError("--compare needs what to compare: --instr NAME or --fragment "
                               "a|b|acc")
    if mode == "detail" and not args.instr:
        raise LayoutQueryError("--detail needs --instr NAME")
    if mode == "sm_80" and args.matrix and args.fragment:
        raise LayoutQueryError("give --matrix or --fragment for sm_80, not both")
    element = {"row", "col", "block"} & given
    register = {"register", "lane"} & given
    if element and register:
        raise LayoutQueryError("ask one query: --row/--col[/--block] or --register/--lane")
    if element and not {"row", "col"} <= element:
        raise LayoutQueryError("an element query needs both --row and --col (and --block for "
                         "multi-block operands)")
    if register and register != {"register", "lane"}:
        raise LayoutQueryError("a register query needs both --register and --lane")
    if args.full and not (args.svg or args.png):
        raise LayoutQueryError("--full is for pictures: give --svg FILE or --png FILE with it")
    shown = {"view", "svg", "png", "width", "full"} & given
    if (element or register) and shown:
        raise LayoutQueryError(f"a query prints one answer; {', '.join(map(_flag, sorted(shown)))} "
                         "cannot be used with it")
    fmt = args.format or "text"
    if args.view == "both" and fmt != "text":
        raise LayoutQueryError(f"--format {fmt} writes one table: give --view element or --view "
                         "register (the default is element)")
    if args.width is not None and (fmt != "text" or args.width < 40):
        raise LayoutQueryError("--width applies to --format text and must be at least 40")


def build(args: argparse.Namespace, arch: str | None = None) -> LI.Layout:
    """The layout the options ask for, on `arch` (default --arch, else the default target)."""
    target = names.target_name(arch or args.arch or default_arch())
    if target == names.SM80:
        matrix = {"acc": "c"}.get(args.fragment, args.fragment) or args.matrix or "a"
        return LI.sm80_layout(matrix)
    if args.instr:
        return LI.instruction_layout(args.instr, target, args.wave, args.matrix or "a",
                                     args.opsel or 0, abid=args.abid or 0,
                                     cbsz=args.cbsz or 0, blgp=args.blgp,
                                     compressed=args.compressed)
    layout = args.layout or (None if args.fragment == "acc" else "row")
    cls = LI.fragment_class(args.fragment, LI.parse_shape(args.shape or "16x16x16"),
                            args.dtype or "f16", layout, args.api or "rocwmma")
    return LI.fragment_layout(cls, target)


def _width(args: argparse.Namespace) -> int:
    if args.width:
        return args.width
    if sys.stdout.isatty():
        return max(80, min(120, shutil.get_terminal_size().columns))
    return WIDTH


def _query(layout: LI.Layout, args: argparse.Namespace, fmt: str) -> str:
    if args.row is not None:
        places = LI.element_location(layout, args.row, args.col, args.block or 0)
        el = LI.element_text(layout, args.block or 0, args.row, args.col)
        body = [[el, LI.location_text(*loc), *map(str, loc)] for loc in places]
    else:
        held = LI.register_contents(layout, args.register, args.lane)
        body = [[LI.element_text(layout, *el), LI.location_text(*loc), *map(str, loc)]
                for loc, el in held]
        if not held:
            body = [["-", f"v{args.register}{{{args.lane}}}", str(args.lane),
                     str(args.register), "-", "-"]]
    header = ["element", "location", "lane", "vgpr", "bit_lo", "bit_hi"]
    return LI.table(layout.title, header, body, fmt)


def _details(args: argparse.Namespace, fmt: str) -> str:
    d = LI.instruction_details(args.instr, args.arch or default_arch(), args.wave)
    if fmt == "text":
        return LI.details_text(d)
    rows = [[k, str(v)] for k, v in d.items() if not isinstance(v, dict)]
    rows += [[f"{k}_{op}", str(x)] for k, v in d.items() if isinstance(v, dict)
             for op, x in v.items()]
    return LI.table(f"{d['isa']} on {d['arch']}", ["field", "value"], rows, fmt)


def _list(args: argparse.Namespace, fmt: str) -> str:
    arch = args.arch or default_arch()
    rows = LI.list_instructions(arch)
    header = list(rows[0])
    body = [[str(r[h]) for h in header] for r in rows]
    where = (f"{len({r['arch'] for r in rows})} targets" if "arch" in rows[0]
             else names.arch(arch).name)
    return LI.table(f"{len(rows)} instructions on {where} (flops: per instruction; vgprs: "
                    "per lane)", header, body, fmt)


def _run(args: argparse.Namespace) -> str:
    mode = _mode(args)
    _check(args, mode)
    fmt = args.format or "text"
    if mode == "list":
        return _list(args, fmt)
    if mode == "detail":
        return _details(args, fmt)
    if mode == "compare":
        first, second = (build(args, a) for a in args.compare)
        return LI.render_compare(first, second, fmt)
    layout = build(args)
    if args.row is not None or args.register is not None:
        return _query(layout, args, fmt)
    view = args.view or ("both" if fmt == "text" else "element")
    views = ["element", "register"] if view == "both" else [view]
    text = "\n".join(LI.render(layout, v, fmt, _width(args)) for v in views)
    if args.svg:
        from .svg import svg

        with open(args.svg, "w") as f:
            f.write(svg(layout, full=args.full))
    if args.png:
        from .svg import png

        png(layout, args.png, full=args.full)
    return text


def run(argv: Sequence[str], prog: str = "rocwmma-layout") -> int:
    """Parse `argv` (the options after `layout`), print the answer; 2 on a usage error."""
    try:
        args = parser(prog).parse_args(list(argv))
    except SystemExit as e:  # --help, --version, or argparse's own usage error (printed)
        return e.code if isinstance(e.code, int) else 2
    try:
        print(_run(args), end="")
    except (RocwmmaError, ValueError, TypeError, OSError) as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m rocwmma_py layout ...`."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args in (["--version"], ["-V"]):
        print(f"rocwmma_py {__version__}")
        return 0
    if not args or args[0] != "layout":
        print("usage: python -m rocwmma_py layout [options] (see `python -m rocwmma_py layout "
              "--help`)", file=sys.stderr)
        return 2
    return run(args[1:], "python -m rocwmma_py layout")


def layout_main(argv: Sequence[str] | None = None) -> int:
    """The `rocwmma-layout` command: `python -m rocwmma_py layout` without the subcommand."""
    return run(list(sys.argv[1:] if argv is None else argv))
