"""Generate `rocwmma_py/amdgcn.pyi`, the type stub of the matrix-core builtins, and the
stubs of the other names the package creates at import time.

`rocwmma_py.amdgcn` creates one function per instruction-table row at import time, so type
checkers cannot see them; this stub declares each with the builtin's arguments and, in its
docstring, the operand shapes and dtypes per lane on every target that has it (pdoc shows
these docstrings in the API reference). Likewise the half-precision intrinsics
(`runtime/_half_math_exports.pyi`, imported for type checkers by `rocwmma_py`,
`rocwmma_py.runtime` and `rocwmma_py.cuda`), CUDA's device math library
(`runtime/_device_math_exports.pyi`) and CUDA's vector structs and makers
(`cuda/_vector_exports.pyi`). `tests/test_typing.py` checks that regenerating them gives the
committed files.

    python tools/gen_amdgcn_stub.py            # rewrite the stubs
    python tools/gen_amdgcn_stub.py --check    # exit 1 if a committed stub is stale
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rocwmma_py import amdgcn  # noqa: E402 - after the path set-up above
from rocwmma_py import types as T  # noqa: E402
from rocwmma_py.arch import ARCH_NAMES, get_arch  # noqa: E402
from rocwmma_py.arch.instructions import Instruction  # noqa: E402

STUB = ROOT / "rocwmma_py" / "amdgcn.pyi"
HALF_MATH_STUB = ROOT / "rocwmma_py" / "runtime" / "_half_math_exports.pyi"
DEVICE_MATH_STUB = ROOT / "rocwmma_py" / "runtime" / "_device_math_exports.pyi"
VECTOR_STUB = ROOT / "rocwmma_py" / "cuda" / "_vector_exports.pyi"

HEADER = '''\
# Type stub of rocwmma_py.amdgcn, generated from the instruction tables by
# tools/gen_amdgcn_stub.py: do not edit, regenerate (tests/test_typing.py checks it).
from typing import Any

from numpy.typing import ArrayLike, NDArray

from .arch import Arch
from .arch.instructions import Instruction
from .errors import UnsupportedInstructionError as UnsupportedInstructionError
from .runtime import Pointer
from .runtime.lane_ops import CROSS_LANE_BUILTINS as CROSS_LANE_BUILTINS
{cross_lane}
from .runtime.mx_convert import MX_CONVERT_BUILTINS as MX_CONVERT_BUILTINS
{mx_convert}

BUILTINS: list[str]
"""Every matrix-core builtin name (without `__builtin_amdgcn_`), sorted."""

__all__ = [{all_names}]

def instruction(builtin: str, arch: str | Arch | None = None) -> Instruction:
    """The instruction-table row of `builtin` on `arch` (default: the current target).

    The row gives M, N, K, blocks, operand types, cycles, FLOPs and the operand layouts
    (`a_layout`, `b_layout`, `c_layout(opsel)`: which lane and slot holds which element).

    Raises:
        UnsupportedInstructionError: the target has no such builtin (the message names the
            targets that have it).
        ValueError: an unknown architecture name.

    Example:
        >>> from rocwmma_py import amdgcn
        >>> i = amdgcn.instruction("mfma_f32_16x16x16f16", "gfx942")
        >>> (i.m, i.n, i.k, i.blocks, i.cycles)
        (16, 16, 16, 1, 16)
    """

def global_load_tr_b128_v8i16(ptr: Pointer) -> NDArray[Any]:
    """__builtin_amdgcn_global_load_tr_b128_v8i16 (gfx1200, gfx1201): transposing load.

    Each lane loads 8 consecutive 16-bit values from its own address `ptr`, then every group
    of 8 lanes transposes its 8x8 block: out[8q+i][e] = in[8q+e][i]. Returns (lanes, 8)
    int16 (the bytes of `half8`/`bfloat8`/`short8`).

    Raises:
        UnsupportedInstructionError: not on a gfx12 target.
        OutOfBoundsError: an address outside the buffer.
    """
'''

_MODIFIERS = {
    "cbsz": "cbsz: int: CBSZ, broadcast one A block to 2**cbsz blocks (0..log2(blocks))",
    "abid": "abid: int: ABID, which A block of each broadcast group is read (< 2**cbsz)",
    "blgp": "blgp: int: BLGP, 0..7",
    "opsel": "opsel: bool: OPSEL, which 16-bit half of each C/D register holds the result",
    "sgn_a": "sgn_a: bool: A is signed (True) or unsigned",
    "sgn_b": "sgn_b: bool: B is signed (True) or unsigned",
    "clamp": "clamp: bool: saturate the int32 result instead of wrapping",
    "a_sign": "a_sign: bool: A is signed (True) or unsigned",
    "b_sign": "b_sign: bool: B is signed (True) or unsigned",
    "a_neg": "a_neg: bool: negate A",
    "b_neg": "b_neg: bool: negate B",
    "c_mod": "c_mod: int: C modifier, 0 none, 1 neg, 2 abs, 3 neg(abs)",
    "matrix_a_reuse": "matrix_a_reuse: bool: reuse hint for A (accepted, no effect)",
    "matrix_b_reuse": "matrix_b_reuse: bool: reuse hint for B (accepted, no effect)",
    "matrix_a_fmt": "matrix_a_fmt: int: A's format 0-4 (fp8 e4m3, bf8 e5m2, fp6 e2m3, bf6 "
                    "e3m2, fp4 e2m1)",
    "matrix_b_fmt": "matrix_b_fmt: int: B's format 0-4 (as matrix_a_fmt)",
    "matrix_a_scale": "matrix_a_scale: int: 0/1, lanes 0-15 or 16-31 hold A's scales "
                      "(unused by a 32-row A)",
    "matrix_b_scale": "matrix_b_scale: int: 0/1, lanes 0-15 or 16-31 hold B's scales",
    "matrix_a_scale_fmt": "matrix_a_scale_fmt: int: A's scale format, 0 E8M0, 1 E5M3, 2 E4M3",
    "matrix_b_scale_fmt": "matrix_b_scale_fmt: int: B's scale format (as matrix_a_scale_fmt)",
}
_ARRAYS = ("a", "b", "c", "index", "scale_a", "scale_b", "matrix_a_scale_exp",
           "matrix_b_scale_exp")
_INTS = ("cbsz", "abid", "blgp", "c_mod", "matrix_a_fmt", "matrix_b_fmt", "matrix_a_scale",
         "matrix_b_scale", "matrix_a_scale_fmt", "matrix_b_scale_fmt")
_SPARSE_MODIFIERS = {
    "cbsz": "cbsz: int: 0..3; 0 lets abid pick the index set, any other value reads set 0",
    "abid": "abid: int: the index set when cbsz is 0 (0..sets-1), else ignored (0..3)",
}
_BLGP = {
    "lanes": "blgp: int: BLGP, 0..7, the lane pattern B is read with (0: as is)",
    "neg": "blgp: int: NEG on CDNA3 f64, bit 0 negates A, bit 1 B, bit 2 C",
    "": "blgp: int: must be 0 (no BLGP on this instruction)",
}


def _rows(builtin: str) -> list[tuple[str, Instruction]]:
    return [(arch, get_arch(arch).instructions[builtin]) for arch in ARCH_NAMES
            if builtin in get_arch(arch).instructions]


def _dtype_name(t: type) -> str:
    name = str(np.dtype(T.storage_dtype(t)))
    return "xfloat32 (float32 storage, the low 13 mantissa bits ignored)" \
        if t is T.xfloat32 else name


def _operand(instr: Instruction, what: str) -> str:
    """`(lanes, elements) dtype per lane`, plus the packed-word form of sub-32-bit integers."""
    if instr.mx and what != "c":
        return ("(64, 8) int32 words (v8i32): 32 values per lane in the cbsz/blgp\n"
                "        format; fp6 reads the first 6 words, fp4 the first 4")
    if instr.mx_wmma and what != "c":
        lay = getattr(instr, f"{what}_layout")
        words = lay.slots * lay.bits // 32
        if "matrix_a_fmt" not in instr.args:
            return f"(32, {words}) int32 words (v{words}i32): {lay.slots} fp4 values per lane"
        return (f"(32, 16) int32 words (v16i32): 64 values per lane in the\n"
                f"        matrix_{what}_fmt format; fp6 reads the first 12 words, fp4 the first 8")
    layout = instr.c_layout(0) if what == "c" else getattr(instr, f"{what}_layout")
    t = {"a": instr.a_type, "b": instr.b_type, "c": instr.c_type}[what]
    text = f"({layout.lanes}, {layout.slots}) {_dtype_name(t)}"
    bits = T.bits(t)
    if not T.is_float(t) and bits < 32:
        words = layout.slots * bits // 32
        text += f" (the same bytes as ({layout.lanes}, {words}) int32 words)"
    return text


def _grouped(rows: list[tuple[str, Instruction]], describe) -> list[str]:
    """`value (arch, arch)` lines, one per distinct value, archs in table order."""
    groups: dict[str, list[str]] = {}
    for arch, instr in rows:
        groups.setdefault(describe(instr), []).append(arch)
    if len(groups) == 1:
        return [next(iter(groups))]
    return [f"{value} on {', '.join(archs)}" for value, archs in groups.items()]


_MX_MODIFIERS = {
    "cbsz": "cbsz: int: A's format 0-4 (fp8 e4m3, bf8 e5m2, fp6 e2m3, bf6 e3m2, fp4 e2m1)",
    "blgp": "blgp: int: B's format 0-4 (as cbsz)",
    "opsel_a": "opsel_a: int: 0-3, the byte of scale_a's word that holds the scale",
    "opsel_b": "opsel_b: int: 0-3, the byte of scale_b's word that holds the scale",
}


def _docstring(builtin: str) -> str:
    rows = _rows(builtin)
    first = rows[0][1]
    targets = ", ".join(arch for arch, _ in rows)
    shape = f"{first.m}x{first.n}x{first.k}"
    blocks = f" ({first.blocks} blocks)" if first.blocks > 1 else ""
    sparse = ([f"A is 4:2 sparse: {first.a_k} stored values of each row's {first.k}, "
               f"{first.index_sets} index set(s) per index word."] if first.sparse else [])
    lines = [
        *textwrap.wrap(f"__builtin_amdgcn_{builtin}({', '.join(first.args)}).", 92,
                       subsequent_indent="    ", break_on_hyphens=False),
        "",
        f"D = A·B + C, {shape}{blocks}, one wave of {first.wave} lanes.",
        *sparse,
        f"Targets: {targets}.",
        "",
        "Operands per wave (lanes, elements per lane):",
    ]
    for what in ("a", "b", "c"):
        for text in _grouped(rows, lambda i, w=what: _operand(i, w)):
            lines.append(f"    {what}: {text}")
    if first.sparse:
        form = f"({first.wave},)" if first.index_words == 1 else \
            f"({first.wave}, {first.index_words})"
        lines += [f"    index: {form} int32, the 2-bit positions of A's stored values:",
                  "        value e of a lane in bits 2e+1:2e of its index set"]
    lines.append("    returns D with c's dtype and shape" if first.d_type is None else
                 f"    returns D as ({first.wave}, 8) {_dtype_name(first.d_type)}")
    if first.mx:
        lines += ["    scale_a, scale_b: (64,) int32 E8M0 scale words, byte opsel_a/opsel_b",
                  "        of lane i + M*kb scaling row i (column i of B) in K block kb:",
                  "        2**(s - 127);",
                  "        both the constant 0: the unscaled v_mfma_f32_*_f8f6f4"]
    if first.scale_bytes:
        kind, block = (("int32", 32) if first.scale_bytes == 4 else ("int64", 16))
        lines += [f"    matrix_a_scale_exp, matrix_b_scale_exp: (32,) {kind} scale words, byte",
                  "        kb of lane x + 16*sel scaling row x of A (column x of B) in K block",
                  f"        kb of {block} values (a 32-row A: lane x)"]
    modifiers = [m for m in first.args if m not in _ARRAYS]
    if modifiers:
        lines += ["", "Immediates (compile-time ints or bools; out of range: ModifierError):"]
        for m in modifiers:
            if first.mx and m in _MX_MODIFIERS:
                lines.append(f"    {_MX_MODIFIERS[m]}")
            elif m == "blgp":
                for text in _grouped(rows, lambda i: _BLGP[i.blgp]):
                    lines.append(f"    {text}")
            elif first.sparse and m in _SPARSE_MODIFIERS:
                lines.append(f"    {_SPARSE_MODIFIERS[m]}")
            elif m in ("cbsz", "abid") and not first.cbsz_abid:
                lines.append(f"    {m}: int: must be 0 (single-block instruction)")
            else:
                lines.append(f"    {_MODIFIERS[m]}")
    lines += ["", "ISA and cycles:"]
    lines += [f"    {text}" for text in _grouped(rows, lambda i: f"{i.isa}, {i.cycles} cycles")]
    lines += ["", "Raises:",
              "    UnsupportedInstructionError: the running target has no such builtin.",
              "    ValueError: an operand not shaped (lanes, ...) for one wave (or the batch).",
              "    TypeError: wrong arguments (the message shows the builtin's argument list)."]
    return "\n".join(lines)


def _signature(builtin: str) -> str:
    instr = _rows(builtin)[0][1]
    args, required = instr.args, len(instr.args) - instr.optional
    params = [(f"{a}: ArrayLike" if a in _ARRAYS else
               f"{a}: {'int' if a in _INTS else 'bool | int'}")
              + ("" if n < required else " = False") for n, a in enumerate(args)]
    return f"def {builtin}(\n" + "".join(f"    {p},\n" for p in params) + ") -> NDArray[Any]:"


def _indent(text: str) -> str:
    return "\n".join(f"    {line}" if line else "" for line in text.splitlines())


def _natural(name: str) -> list:
    """Sort key with digit runs compared as numbers (bf6 before bf16), as ruff's isort does."""
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name)]


def render() -> str:
    """The stub's text."""
    cross = "\n".join(f"from .runtime.lane_ops import {n} as {n}"
                      for n in sorted(amdgcn.CROSS_LANE_BUILTINS))
    mx_convert = "\n".join(f"from .runtime.mx_convert import {n} as {n}"
                           for n in sorted(amdgcn.MX_CONVERT_BUILTINS, key=_natural))
    names = "".join(f'\n    "{n}",' for n in sorted(amdgcn.__all__)) + "\n"
    out = [HEADER.format(cross_lane=cross, mx_convert=mx_convert, all_names=names)]
    for builtin in amdgcn.BUILTINS:
        out.append(f'{_signature(builtin)}\n    """{_indent(_docstring(builtin))[4:]}\n    """\n')
    return "\n".join(out)

def _static_names(module: ModuleType) -> set[str]:
    """Names a module's source binds at top level (type checkers see these)."""
    tree = ast.parse(Path(module.__file__ or "").read_text())
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                elements = target.elts if isinstance(target, ast.Tuple) else [target]
                names.update(e.id for e in elements if isinstance(e, ast.Name))
    return names


def render_exports(module: ModuleType, names: list[str]) -> str:
    """A stub-only module re-exporting `names` of `module`: the statically bound ones by
    import, the ones created at run time as functions taking anything (with their docs)."""
    static = _static_names(module)
    lines = [
        f"# Names {module.__name__} creates at import, for type checkers; generated by",
        "# tools/gen_amdgcn_stub.py: do not edit, regenerate (tests/test_typing.py checks it).",
        "# ruff: noqa  (generated: sorted by name, not by isort's natural order)",
        "from typing import Any",
        "",
    ]
    lines += [f"from {module.__name__} import {n} as {n}" for n in sorted(names)
              if n in static]
    quotes = '"' * 3
    for n in names:
        if n not in static:
            doc = " ".join((getattr(module, n).__doc__ or n).split())
            body = textwrap.wrap(f"{quotes}{doc}", 92) + [quotes]
            lines += ["", "", f"def {n}(*args: Any) -> Any:", *(f"    {x}" for x in body)]
    lines += ["", "", "__all__ = ["] + [f'    "{n}",' for n in names] + ["]", ""]
    return "\n".join(lines)


def outputs() -> dict[Path, str]:
    """Every generated stub and its text."""
    from rocwmma_py.cuda import vectors
    from rocwmma_py.runtime import device_math, half_math

    return {
        STUB: render(),
        HALF_MATH_STUB: render_exports(half_math, list(half_math.HALF_MATH_NAMES)),
        DEVICE_MATH_STUB: render_exports(device_math, list(device_math.DEVICE_MATH_NAMES)),
        VECTOR_STUB: render_exports(vectors, [*vectors.VECTOR_TYPES, *vectors.MAKERS]),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if a committed stub differs from the generated text")
    args = parser.parse_args(argv)
    stale = 0
    for path, text in outputs().items():
        if not args.check:
            path.write_text(text)
        elif not path.exists() or path.read_text() != text:
            print(f"{path} is stale: run python tools/gen_amdgcn_stub.py", file=sys.stderr)
            stale = 1
    return stale


if __name__ == "__main__":
    sys.exit(main())
