"""The matrix-instruction tables: one row per LLVM builtin, per architecture generation.

Shapes, types and cycle counts come from the AMD Matrix Instruction Calculator dumps
(shared/reference/amic) and seed 004; the gfx950 additions, which the calculator does not
cover, take their shapes from LLVM's builtin signatures (`half8` A/B for 16x16x32 f16, so
the same layout formula) and the cycles of their CDNA3 half-K counterparts (same passes,
twice the K); gfx950 keeps CDNA3's cycles for the instructions it inherits.

The 4:2 sparse rows (SMFMAC on gfx942/gfx950, SWMMAC on gfx12) follow
shared/reference/sparse.md: names, operand lists and types from LLVM's builtin definitions,
cycles and the gfx942/gfx12 layouts from the calculator (checked against its dumps). gfx950's
sparse layouts are inferred: the calculator has no gfx950, so they are the same CDNA formula
applied to its builtin vector sizes (8 or 16 stored values per lane), whose index-set sizes
(2 x 16 bits, 1 x 32 bits) LLVM's verifier takes from the CDNA4 ISA tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .. import types as T
from . import layouts as L

# Builtin argument lists (names as in the LLVM builtin signatures).
MFMA_ARGS = ("a", "b", "c", "cbsz", "abid", "blgp")
WMMA_ARGS = ("a", "b", "c")
WMMA_OPSEL_ARGS = ("a", "b", "c", "opsel")
WMMA_IU_ARGS = ("sgn_a", "a", "sgn_b", "b", "c", "clamp")
SMFMAC_ARGS = ("a", "b", "c", "index", "cbsz", "abid")
SWMMAC_ARGS = ("a", "b", "c", "index")
SWMMAC_IU_ARGS = ("sgn_a", "a", "sgn_b", "b", "c", "index", "clamp")
# gfx1250 (LLVM BuiltinsAMDGPU.td ArgNames @ 008ba4314e76): A/B negation, C modifier and
# reuse hints; the iu8 forms name their sign flags a_sign/b_sign and take an optional clamp.
# The sparse rows have no ArgNames there: named here after the dense ones.
_REUSE = ("matrix_a_reuse", "matrix_b_reuse")
WMMA1250_NEG_ARGS = ("a_neg", "a", "b_neg", "b", "c_mod", "c", *_REUSE)
WMMA1250_ARGS = ("a", "b", "c_mod", "c", *_REUSE)
WMMA1250_IU_ARGS = ("a_sign", "a", "b_sign", "b", "c", *_REUSE, "clamp")
SWMMAC1250_NEG_ARGS = ("a_neg", "a", "b_neg", "b", "c", "index", *_REUSE)
SWMMAC1250_ARGS = ("a", "b", "c", "index", *_REUSE)
SWMMAC1250_IU_ARGS = ("a_sign", "a", "b_sign", "b", "c", "index", *_REUSE, "clamp")
# gfx1250 MX WMMA (ArgNames at the same .td commit): A/B format codes, and per operand the
# scale selector, scale format and the per-lane scale word ("matrix_a_scale_exp")
WMMA1250_F8F6F4_ARGS = ("matrix_a_fmt", "a", "matrix_b_fmt", "b", "c_mod", "c")
_MX_SCALES = ("matrix_a_scale", "matrix_a_scale_fmt", "matrix_a_scale_exp", "matrix_b_scale",
              "matrix_b_scale_fmt", "matrix_b_scale_exp")
WMMA1250_SCALE_ARGS = (*WMMA1250_F8F6F4_ARGS, *_MX_SCALES, *_REUSE)
WMMA1250_F4_ARGS = ("a", "b", "c_mod", "c")
WMMA1250_SCALE_F4_ARGS = (*WMMA1250_F4_ARGS, *_MX_SCALES, *_REUSE)
# builtin arguments `execute` takes under another name: the signedness flags under their two
# spellings (gfx11/gfx12: sgn_a; gfx1250: a_sign), and gfx1250's per-lane scale words, which
# are gfx950's scale_a/scale_b operands
SIGN_ARGS = {"sgn_a": "sgn_a", "sgn_b": "sgn_b", "a_sign": "sgn_a", "b_sign": "sgn_b",
             "matrix_a_scale_exp": "scale_a", "matrix_b_scale_exp": "scale_b"}
MFMA_SCALE_ARGS = ("a", "b", "c", "cbsz", "blgp", "opsel_a", "scale_a", "opsel_b", "scale_b")


@dataclass(frozen=True, eq=False)
class Instruction:
    """One matrix instruction as a builtin sees it on one architecture generation."""

    builtin: str  # LLVM builtin name without `__builtin_amdgcn_`
    isa: str  # ISA mnemonic on this generation
    family: str  # gfx9 / gfx11 / gfx12
    wave: int
    m: int
    n: int
    k: int
    blocks: int
    a_type: type
    b_type: type
    c_type: type
    cycles: int
    args: tuple[str, ...]
    cbsz_abid: bool = False  # CBSZ/ABID broadcast of A blocks supported
    blgp: str = ""  # "" (none), "lanes" (B lane pattern) or "neg" (CDNA3 f64: negate A/B/C)
    # 4:2 structured sparse A (smfmac/swmmac): A holds K/2 stored values per row, laid out as
    # the dense A of the half-K instruction, and `index` says where each sat (sparse.md)
    sparse: bool = False
    # trailing arguments that may be left out (gfx1250 iu8 clamp: the builtin is variadic)
    optional: int = 0
    # D's element type where it differs from C's (gfx1250 bf16f32: f32 C, bf16 D)
    d_type: type | None = None
    # gfx950 MX f8f6f4: CBSZ/BLGP pick A's/B's element format (`MX_FORMATS`), and E8M0
    # block scales (one per 32 K values) come in per lane; a_type/b_type are the fp8 default
    mx: bool = False
    # gfx1250 MX WMMA (f8f6f4, f4): A/B are raw bytes in the format matrix_a_fmt/matrix_b_fmt
    # pick (fp4 on the f4 rows; a_type/b_type: fp8 or fp4, the builtin's full vector), and
    # `scale_bytes` scale bytes per lane come in for each of A and B (4: a 32-bit word, one
    # per 32 K values; 8: scale16's 64-bit word, one per 16; 0: unscaled)
    mx_wmma: bool = False
    scale_bytes: int = 0

    @property
    def result_type(self) -> type:
        """D's element type: C's unless the instruction converts (bf16f32)."""
        return self.d_type or self.c_type

    @property
    def sign_flags(self) -> bool:
        """The integer instruction takes signedness flags for A and B."""
        return "sgn_a" in self.args or "a_sign" in self.args

    @property
    def flops(self) -> int:
        return 2 * self.m * self.n * self.k * self.blocks

    @property
    def integer(self) -> bool:
        return not T.is_float(self.c_type)

    @property
    def a_k(self) -> int:
        """Columns of A as the registers hold it: K, or the K/2 stored values when sparse."""
        return self.k // 2 if self.sparse else self.k

    @property
    def index_sets(self) -> int:
        """Index sets one 32-bit index register holds (2 bits per stored A value of a lane);
        0 for dense instructions."""
        return max(1, 32 // (2 * self.a_layout.slots)) if self.sparse else 0

    @property
    def index_words(self) -> int:
        """32-bit words of the sparse index operand per lane: 2 bits per stored A value of a
        lane, at least one word (gfx1250 8-bit SWMMAC: 64 values, a v2i32 index)."""
        return max(1, 2 * self.a_layout.slots // 32) if self.sparse else 0

    @cached_property
    def a_layout(self) -> L.OperandLayout:
        return self._input_layout(is_b=False)

    @cached_property
    def b_layout(self) -> L.OperandLayout:
        return self._input_layout(is_b=True)

    def c_layout(self, opsel: int = 0) -> L.OperandLayout:
        """C/D layout; on gfx11 a 16-bit result sits in the half of each VGPR OPSEL picks."""
        return self._c_layouts[int(bool(opsel))]

    @cached_property
    def _c_layouts(self) -> tuple[L.OperandLayout, L.OperandLayout]:
        """The C/D layout for OPSEL 0 and 1, built once."""
        return self._build_c_layout(0), self._build_c_layout(1)

    def _build_c_layout(self, opsel: int) -> L.OperandLayout:
        return OPERAND_LAYOUTS[self.family][1](self, T.bits(self.c_type), opsel)

    def mx_layout(self, fmt: type, is_b: bool) -> L.OperandLayout:
        """A or B layout of an MX instruction when its format is `fmt`: its family's input
        formula at the format's width (gfx950: 32 K values per lane, so fp6 fills 6 VGPRs
        and fp4 4; gfx1250: 64 per lane in 16, 12 or 8 VGPRs)."""
        return _mx_layout(self, fmt, is_b)

    def _input_layout(self, is_b: bool) -> L.OperandLayout:
        bits = T.bits(self.b_type if is_b else self.a_type)
        return OPERAND_LAYOUTS[self.family][0](self, self.k if is_b else self.a_k, bits, is_b)


# Operand layouts per instruction family: (A/B layout(instr, k, bits, is_b), C/D
# layout(instr, bits, opsel)), k being the operand's K as the registers hold it; a new family
# is one entry (and its layout functions).
OPERAND_LAYOUTS = {
    "gfx9": (lambda i, k, bits, is_b: L.mfma_input(i.n if is_b else i.m, k, i.blocks, bits, is_b),
             lambda i, bits, opsel: L.mfma_acc(i.m, i.n, i.blocks, bits)),
    "gfx11": (lambda i, k, bits, is_b: L.wmma11_input(i.wave, bits, is_b),
              lambda i, bits, opsel: L.wmma11_acc(i.wave, bits, opsel)),
    "gfx12": (lambda i, k, bits, is_b: L.wmma12_input(i.wave, k, bits, is_b),
              lambda i, bits, opsel: L.wmma12_acc(i.wave, bits)),
    "gfx1250": (lambda i, k, bits, is_b: L.wmma1250_input(k, bits, is_b, i.n if is_b else i.m),
                lambda i, bits, opsel: L.wmma12_acc(32, bits, i.m)),
}


F16, BF16, F32, F64 = T.float16, T.bfloat16, T.float32, T.float64
I8, I32, I4 = T.int8, T.int32, T.int4

# --- gfx9: (builtin, CDNA3 mnemonic suffix or "" if gone, M, N, K, blocks, A/B, C,
#            cycles CDNA1/2, cycles CDNA3, first generation) ---------------------------------
# Generations: 1 = gfx908, 2 = gfx90a, 3 = gfx942, 4 = gfx950. The CDNA1/2 mnemonic is
# "v_" + builtin; CDNA3 renamed them to v_mfma_<C type>_<suffix>.
_MFMA = [
    ("mfma_f32_32x32x1f32", "32x32x1_2b_f32", 32, 32, 1, 2, F32, F32, 64, 64, 1),
    ("mfma_f32_16x16x1f32", "16x16x1_4b_f32", 16, 16, 1, 4, F32, F32, 32, 32, 1),
    ("mfma_f32_4x4x1f32", "4x4x1_16b_f32", 4, 4, 1, 16, F32, F32, 8, 8, 1),
    ("mfma_f32_32x32x2f32", "32x32x2_f32", 32, 32, 2, 1, F32, F32, 64, 64, 1),
    ("mfma_f32_16x16x4f32", "16x16x4_f32", 16, 16, 4, 1, F32, F32, 32, 32, 1),
    ("mfma_f32_32x32x4f16", "32x32x4_2b_f16", 32, 32, 4, 2, F16, F32, 64, 64, 1),
    ("mfma_f32_16x16x4f16", "16x16x4_4b_f16", 16, 16, 4, 4, F16, F32, 32, 32, 1),
    ("mfma_f32_4x4x4f16", "4x4x4_16b_f16", 4, 4, 4, 16, F16, F32, 8, 8, 1),
    ("mfma_f32_32x32x8f16", "32x32x8_f16", 32, 32, 8, 1, F16, F32, 64, 32, 1),
    ("mfma_f32_16x16x16f16", "16x16x16_f16", 16, 16, 16, 1, F16, F32, 32, 16, 1),
    ("mfma_i32_32x32x4i8", "32x32x4_2b_i8", 32, 32, 4, 2, I8, I32, 64, 64, 1),
    ("mfma_i32_16x16x4i8", "16x16x4_4b_i8", 16, 16, 4, 4, I8, I32, 32, 32, 1),
    ("mfma_i32_4x4x4i8", "4x4x4_16b_i8", 4, 4, 4, 16, I8, I32, 8, 8, 1),
    ("mfma_i32_32x32x8i8", "", 32, 32, 8, 1, I8, I32, 64, 0, 1),
    ("mfma_i32_16x16x16i8", "", 16, 16, 16, 1, I8, I32, 32, 0, 1),
    ("mfma_f32_32x32x2bf16", "", 32, 32, 2, 2, BF16, F32, 64, 0, 1),
    ("mfma_f32_16x16x2bf16", "", 16, 16, 2, 4, BF16, F32, 32, 0, 1),
    ("mfma_f32_4x4x2bf16", "", 4, 4, 2, 16, BF16, F32, 8, 0, 1),
    ("mfma_f32_32x32x4bf16", "", 32, 32, 4, 1, BF16, F32, 64, 0, 1),
    ("mfma_f32_16x16x8bf16", "", 16, 16, 8, 1, BF16, F32, 32, 0, 1),
    ("mfma_f32_32x32x4bf16_1k", "32x32x4_2b_bf16", 32, 32, 4, 2, BF16, F32,
     64, 64, 2),
    ("mfma_f32_16x16x4bf16_1k", "16x16x4_4b_bf16", 16, 16, 4, 4, BF16, F32,
     32, 32, 2),
    ("mfma_f32_4x4x4bf16_1k", "4x4x4_16b_bf16", 4, 4, 4, 16, BF16, F32, 8, 8, 2),
    ("mfma_f32_32x32x8bf16_1k", "32x32x8_bf16", 32, 32, 8, 1, BF16, F32,
     64, 32, 2),
    ("mfma_f32_16x16x16bf16_1k", "16x16x16_bf16", 16, 16, 16, 1, BF16, F32,
     32, 16, 2),
    ("mfma_f64_16x16x4f64", "16x16x4_f64", 16, 16, 4, 1, F64, F64, 32, 32, 2),
    ("mfma_f64_4x4x4f64", "4x4x4_4b_f64", 4, 4, 4, 4, F64, F64, 16, 16, 2),
    ("mfma_i32_16x16x32_i8", "16x16x32_i8", 16, 16, 32, 1, I8, I32, 0, 16, 3),
    ("mfma_i32_32x32x16_i8", "32x32x16_i8", 32, 32, 16, 1, I8, I32, 0, 32, 3),
    ("mfma_f32_16x16x8_xf32", "16x16x8_xf32", 16, 16, 8, 1, T.xfloat32, F32, 0, 16, 3),
    ("mfma_f32_32x32x4_xf32", "32x32x4_xf32", 32, 32, 4, 1, T.xfloat32, F32, 0, 32, 3),
    ("mfma_f32_16x16x32_f16", "16x16x32_f16", 16, 16, 32, 1, F16, F32, 0, 16, 4),
    ("mfma_f32_32x32x16_f16", "32x32x16_f16", 32, 32, 16, 1, F16, F32, 0, 32, 4),
    ("mfma_f32_16x16x32_bf16", "16x16x32_bf16", 16, 16, 32, 1, BF16, F32, 0, 16, 4),
    ("mfma_f32_32x32x16_bf16", "32x32x16_bf16", 32, 32, 16, 1, BF16, F32, 0, 32, 4),
    ("mfma_i32_16x16x64_i8", "16x16x64_i8", 16, 16, 64, 1, I8, I32, 0, 16, 4),
    ("mfma_i32_32x32x32_i8", "32x32x32_i8", 32, 32, 32, 1, I8, I32, 0, 32, 4),
]
# fp8/bf8 (gfx942: NANOO/fnuz encodings; gfx950: OCP), four A x B combinations.
_FP8_NAMES = {"fp8": (T.float8_fnuz, T.float8), "bf8": (T.bfloat8_fnuz, T.bfloat8)}


def _mfma_table(arch) -> dict[str, Instruction]:
    gen = arch.mfma_generation
    table = {}
    for builtin, isa3, m, n, k, blocks, ab, c, cyc12, cyc3, first in _MFMA:
        if gen < first or (gen >= 3 and not isa3) or (ab is T.xfloat32 and gen != 3):
            continue
        isa = f"v_mfma_{T.short_name(c)}_{isa3}" if gen >= 3 else "v_" + builtin
        cycles = cyc12 if gen < 3 else cyc3
        table[builtin] = _mfma(builtin, isa, gen, m, n, k, blocks, ab, ab, c, cycles)
    if gen >= 3:
        for a_name, b_name, a, b in _fp8_pairs(gen):
            for m, k, cycles in ((16, 32, 16), (32, 16, 32)):
                name = f"mfma_f32_{m}x{m}x{k}_{a_name}_{b_name}"
                table[name] = _mfma(name, "v_" + name, gen, m, m, k, 1, a, b, F32, cycles)
        table.update(_smfmac_table(gen))
    if gen >= 4:
        table.update(_mx_table(gen))
    return table


def _fp8_pairs(gen: int):
    """(A name, B name, A type, B type) of the four fp8/bf8 combinations on generation gen."""
    for a_name, (a3, a4) in _FP8_NAMES.items():
        for b_name, (b3, b4) in _FP8_NAMES.items():
            yield (a_name, b_name, *((a3, b3) if gen == 3 else (a4, b4)))


# --- gfx9 4:2 sparse SMFMAC: (type stem, A/B, C, dense K of 16x16 on gfx942) ----------------
# The 32x32 form has half the K; gfx950 doubles both K. Cycles: the calculator's for gfx942
# (16 for 16x16, 32 for 32x32); gfx950 keeps them (as for its dense K-doubled MFMA: no source).
_SMFMAC = [("f16", F16, F32, 32), ("bf16", BF16, F32, 32), ("i8", I8, I32, 64)]


def _smfmac_table(gen: int) -> dict[str, Instruction]:
    """The 4:2 sparse rows of generation gen: gfx942's on both, gfx950's K-doubled ones on
    gfx950 (where the fp8 forms read OCP encodings, like its dense fp8 MFMA)."""
    rows = [(stem, ab, ab, c, k) for stem, ab, c, k in _SMFMAC]
    rows += [(f"{a_name}_{b_name}", a, b, F32, 64) for a_name, b_name, a, b in _fp8_pairs(gen)]
    table = {}
    for first in range(3, gen + 1):
        scale = 2 ** (first - 3)
        for stem, a, b, c, k in rows:
            for m, kk, cycles in ((16, k * scale, 16), (32, k * scale // 2, 32)):
                name = f"smfmac_{T.short_name(c)}_{m}x{m}x{kk}_{stem}"
                table[name] = Instruction(name, "v_" + name, "gfx9", 64, m, m, kk, 1, a, b, c,
                                          cycles, SMFMAC_ARGS, sparse=True)
    return table


# --- gfx950 MX f8f6f4 MFMA ------------------------------------------------------------------
# Format codes of CBSZ (A) and BLGP (B), LLVM's AMDGPU::MFMAScaleFormats
# (llvm/lib/Target/AMDGPU/SIDefines.h @ 002bce7): 0 FP8_E4M3, 1 FP8_E5M2, 2 FP6_E2M3,
# 3 FP6_E3M2, 4 FP4_E2M1; A/B take 8, 8, 6, 6, 4 VGPRs (llvm/test/MC/AMDGPU/mai-gfx950.s).
MX_FORMATS: tuple[type, ...] = (T.float8, T.bfloat8, T.float6_e2m3, T.float6_e3m2,
                                T.float4_e2m1)
# (M, K, cycles). Cycles: no public table; the 16/32 passes of gfx950's other 16x16/32x32
# rows (LLVM's SISchedule gives the fp8 forms a longer latency than fp6/fp4: not modelled).
_MX = [(16, 128, 16), (32, 64, 32)]


def _mx_table(gen: int) -> dict[str, Instruction]:
    """The scaled MX rows of gfx950 (`mfma_scale_f32_{16x16x128,32x32x64}_f8f6f4`). The ISA's
    unscaled `v_mfma_f32_*_f8f6f4` has no builtin of its own: LLVM represents it as the
    scaled builtin with both scale operands the constant 0 (`execute` with no scales)."""
    table = {}
    for m, k, cycles in _MX:
        name = f"mfma_scale_f32_{m}x{m}x{k}_f8f6f4"
        table[name] = Instruction(name, "v_" + name, "gfx9", 64, m, m, k, 1, T.float8, T.float8,
                                  F32, cycles, MFMA_SCALE_ARGS, mx=True)
    return table


_MX_LAYOUTS: dict[tuple[str, int, int, bool], L.OperandLayout] = {}


def _mx_layout(instr: Instruction, fmt: type, is_b: bool) -> L.OperandLayout:
    key = (instr.family, instr.m, T.bits(fmt), is_b)
    if key not in _MX_LAYOUTS:
        _MX_LAYOUTS[key] = OPERAND_LAYOUTS[instr.family][0](instr, instr.k, T.bits(fmt), is_b)
    return _MX_LAYOUTS[key]


def _mfma(builtin, isa, gen, m, n, k, blocks, a, b, c, cycles) -> Instruction:
    # Modifier support per the calculator: CBSZ/ABID on multi-block ops; BLGP everywhere on
    # CDNA1/2 except f64 (CDNA2 has none), on CDNA3 only the multi-block ops and the f32 ones
    # that existed before; CDNA3 reuses BLGP on f64 as NEG.
    is_f64 = a is F64
    if is_f64:
        blgp = "neg" if gen >= 3 else ""
    elif gen < 3 or blocks > 1 or (a is F32 and k in (2, 4)):
        blgp = "lanes"
    else:
        blgp = ""
    return Instruction(builtin, isa, "gfx9", 64, m, n, k, blocks, a, b, c, cycles, MFMA_ARGS,
                       cbsz_abid=blocks > 1 and not is_f64, blgp=blgp)


# --- gfx11 / gfx12 WMMA: (builtin stem, A/B, C, args, cycles gfx11, cycles gfx12) ----------
_WMMA = [
    ("wmma_f32_16x16x16_f16", F16, F32, WMMA_ARGS, 32, 16),
    ("wmma_f32_16x16x16_bf16", BF16, F32, WMMA_ARGS, 32, 16),
    ("wmma_f16_16x16x16_f16", F16, F16, WMMA_OPSEL_ARGS, 32, 16),
    ("wmma_bf16_16x16x16_bf16", BF16, BF16, WMMA_OPSEL_ARGS, 32, 16),
    ("wmma_i32_16x16x16_iu8", I8, I32, WMMA_IU_ARGS, 32, 8),
    ("wmma_i32_16x16x16_iu4", I4, I32, WMMA_IU_ARGS, 16, 8),
]
_WMMA12_ONLY = [
    ("wmma_i32_16x16x32_iu4", I4, I4, I32, 32, WMMA_IU_ARGS),
    ("wmma_f32_16x16x16_fp8_fp8", T.float8, T.float8, F32, 16, WMMA_ARGS),
    ("wmma_f32_16x16x16_fp8_bf8", T.float8, T.bfloat8, F32, 16, WMMA_ARGS),
    ("wmma_f32_16x16x16_bf8_fp8", T.bfloat8, T.float8, F32, 16, WMMA_ARGS),
    ("wmma_f32_16x16x16_bf8_bf8", T.bfloat8, T.bfloat8, F32, 16, WMMA_ARGS),
]

# gfx12 4:2 sparse SWMMAC: (builtin stem, A, B, C, dense K, args, cycles as the calculator
# gives them)
_SWMMAC = [
    ("swmmac_f32_16x16x32_f16", F16, F16, F32, 32, SWMMAC_ARGS, 16),
    ("swmmac_f32_16x16x32_bf16", BF16, BF16, F32, 32, SWMMAC_ARGS, 16),
    ("swmmac_f16_16x16x32_f16", F16, F16, F16, 32, SWMMAC_ARGS, 16),
    ("swmmac_bf16_16x16x32_bf16", BF16, BF16, BF16, 32, SWMMAC_ARGS, 16),
    ("swmmac_i32_16x16x32_iu8", I8, I8, I32, 32, SWMMAC_IU_ARGS, 8),
    ("swmmac_i32_16x16x32_iu4", I4, I4, I32, 32, SWMMAC_IU_ARGS, 8),
    ("swmmac_i32_16x16x64_iu4", I4, I4, I32, 64, SWMMAC_IU_ARGS, 8),
    *((f"swmmac_f32_16x16x32_{an}_{bn}", a, b, F32, 32, SWMMAC_ARGS, 8)
      for an, a in (("fp8", T.float8), ("bf8", T.bfloat8))
      for bn, b in (("fp8", T.float8), ("bf8", T.bfloat8))),
]


def _wmma_table(arch) -> dict[str, Instruction]:
    table = {}
    gfx12 = arch.family == "gfx12"
    rows = [(stem, ab, ab, c, 16, args, cyc12 if gfx12 else cyc11)
            for stem, ab, c, args, cyc11, cyc12 in _WMMA]
    if gfx12:
        rows += [(*row[:5], row[5], 8) for row in _WMMA12_ONLY]
    for stem, a, b, c, k, args, cycles in rows:
        if gfx12 and args == WMMA_OPSEL_ARGS:
            args = WMMA_ARGS  # gfx12 16-bit results are packed: no OPSEL
        for wave in (32, 64):
            name = f"{stem}_w{wave}" + ("_gfx12" if gfx12 else "")
            table[name] = Instruction(name, "v_" + stem, arch.family, wave, 16, 16, k, 1, a, b, c,
                                      cycles, args)
    if gfx12:
        for stem, a, b, c, k, args, cycles in _SWMMAC:
            for wave in (32, 64):  # the sparse builtins have no _gfx12 suffix
                name = f"{stem}_w{wave}"
                table[name] = Instruction(name, "v_" + stem, "gfx12", wave, 16, 16, k, 1, a, b,
                                          c, cycles, args, sparse=True)
    return table


# --- gfx1250 / gfx1251 (GFX12.5) WMMA and SWMMAC, wave32 only ------------------------------
# Names, operand vectors and argument lists: LLVM clang/include/clang/Basic/BuiltinsAMDGPU.td
# @ 008ba4314e761332c4eb0c8b817346a819d0654d ("GFX1250 WMMA builtins", all gated on
# gfx1250-insts,wavefrontsize32). No builtin carries a suffix. Cycles: unsourced (no
# calculator or ISA table covers GFX12.5): the RDNA4 figure of the same operand types scaled
# by K over RDNA4's K, i.e. the same datapath width assumed.
# (builtin, A, B, C, D or None, K, args, cycles)
_FP8_OCP = (("fp8", T.float8), ("bf8", T.bfloat8))
_WMMA1250 = [
    ("wmma_f32_16x16x4_f32", F32, F32, F32, None, 4, WMMA1250_NEG_ARGS, 8),
    ("wmma_f32_16x16x32_f16", F16, F16, F32, None, 32, WMMA1250_NEG_ARGS, 32),
    ("wmma_f32_16x16x32_bf16", BF16, BF16, F32, None, 32, WMMA1250_NEG_ARGS, 32),
    ("wmma_f16_16x16x32_f16", F16, F16, F16, None, 32, WMMA1250_NEG_ARGS, 32),
    ("wmma_bf16_16x16x32_bf16", BF16, BF16, BF16, None, 32, WMMA1250_NEG_ARGS, 32),
    ("wmma_bf16f32_16x16x32_bf16", BF16, BF16, F32, BF16, 32, WMMA1250_NEG_ARGS, 32),
    ("wmma_i32_16x16x64_iu8", I8, I8, I32, None, 64, WMMA1250_IU_ARGS, 32),
    *((f"wmma_{T.short_name(c)}_16x16x{k}_{an}_{bn}", a, b, c, None, k, WMMA1250_ARGS,
       k // 2) for c in (F32, F16) for k in (64, 128)
      for an, a in _FP8_OCP for bn, b in _FP8_OCP),
]
_SWMMAC1250 = [
    ("swmmac_f32_16x16x64_bf16", BF16, BF16, F32, None, 64, SWMMAC1250_NEG_ARGS, 32),
    ("swmmac_bf16_16x16x64_bf16", BF16, BF16, BF16, None, 64, SWMMAC1250_NEG_ARGS, 32),
    ("swmmac_bf16f32_16x16x64_bf16", BF16, BF16, F32, BF16, 64, SWMMAC1250_NEG_ARGS, 32),
    ("swmmac_f32_16x16x64_f16", F16, F16, F32, None, 64, SWMMAC1250_NEG_ARGS, 32),
    ("swmmac_f16_16x16x64_f16", F16, F16, F16, None, 64, SWMMAC1250_NEG_ARGS, 32),
    ("swmmac_i32_16x16x128_iu8", I8, I8, I32, None, 128, SWMMAC1250_IU_ARGS, 32),
    *((f"swmmac_{T.short_name(c)}_16x16x128_{an}_{bn}", a, b, c, None, 128, SWMMAC1250_ARGS,
       32) for c in (F32, F16) for an, a in _FP8_OCP for bn, b in _FP8_OCP),
]


# gfx1251 only (`Arch.wmma_f64`; LLVM gfx1251-gemm-insts): operands v2f64, v2f64, v8f64 (MC
# test gfx1251_asm_wmma_w32: A v[0:3], C v[8:23]); arguments as the other GFX12.5 float
# forms (clang BuiltinsAMDGPUDocs.td @ 08e0d9a8e86b, DocWMMA_f64_16x16x4_f64_GFX1251).
_WMMA1251_F64 = [("wmma_f64_16x16x4_f64", F64, F64, F64, None, 4, WMMA1250_NEG_ARGS, 16)]


# MX WMMA (same .td commit; the f4 rows need wmma-f4-insts, which both targets have): (builtin,
# M, A/B default type, args, scale bytes per lane, cycles). v16i32 A/B in the format codes'
# format (fp8 16 VGPRs, fp6 12, fp4 8), v8f32 C/D; the f4 rows: v16i32 A (32 rows of fp4),
# v8i32 B, v16f32 C/D. Cycles: unsourced, as above (the fp8 16x16x128 figure; M = 32 twice).
_FP4 = T.float4_e2m1
_MX1250 = [
    ("wmma_f32_16x16x128_f8f6f4", 16, T.float8, WMMA1250_F8F6F4_ARGS, 0, 64),
    ("wmma_scale_f32_16x16x128_f8f6f4", 16, T.float8, WMMA1250_SCALE_ARGS, 4, 64),
    ("wmma_scale16_f32_16x16x128_f8f6f4", 16, T.float8, WMMA1250_SCALE_ARGS, 8, 64),
    ("wmma_f32_32x16x128_f4", 32, _FP4, WMMA1250_F4_ARGS, 0, 128),
    ("wmma_scale_f32_32x16x128_f4", 32, _FP4, WMMA1250_SCALE_F4_ARGS, 4, 128),
    ("wmma_scale16_f32_32x16x128_f4", 32, _FP4, WMMA1250_SCALE_F4_ARGS, 8, 128),
]


def _wmma1250_table(arch) -> dict[str, Instruction]:
    """The GFX12.5 rows: dense WMMA, 4:2 sparse SWMMAC (`sparse.md` §7) and MX WMMA."""
    table = {}
    dense = _WMMA1250 + (_WMMA1251_F64 if arch.wmma_f64 else [])
    for rows, sparse in ((dense, False), (_SWMMAC1250, True)):
        for name, a, b, c, d, k, args, cycles in rows:
            table[name] = Instruction(name, "v_" + name, "gfx1250", 32, 16, 16, k, 1, a, b, c,
                                      cycles, args, sparse=sparse,
                                      optional=int(args[-1] == "clamp"), d_type=d)
    for name, m, ab, args, scale_bytes, cycles in _MX1250:
        table[name] = Instruction(name, "v_" + name, "gfx1250", 32, m, 16, 128, 1, ab, ab, F32,
                                  cycles, args, mx_wmma=True, scale_bytes=scale_bytes)
    return table


def instructions_for(arch) -> dict[str, Instruction]:
    """The instruction table of one `Arch`, keyed by builtin name."""
    if arch.family == "gfx1250":
        return _wmma1250_table(arch)
    return _mfma_table(arch) if arch.mfma_generation else _wmma_table(arch)
