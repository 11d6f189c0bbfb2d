"""Scalar reference of the MFMA arithmetic of CDNA1/2/3 silicon, one output element at a time.

Written from `shared/reference/silicon-numerics.md` alone (families 1-3), in plain Python
integers and `fractions.Fraction`, to check the vectorised silicon model of rocwmma_py
independently: nothing here imports rocwmma_py. Every element is an integer bit pattern;
decoding, products, alignment, truncation and rounding are exact rational arithmetic, so the
only choices are the spec's own.

    instr = instruction("mfma_f32_16x16x16f16", "gfx942")     # or the ISA mnemonic
    d_bits = reference_element(instr, a_row_bits, b_col_bits, c_bits)

`a_row_bits` is row i of one block of A (K bit patterns), `b_col_bits` column j of that
block of B, `c_bits` the C element (i, j); the result is D(i, j) as bits of the accumulator.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

TWO = Fraction(2)

# --- element formats ------------------------------------------------------------------------


@dataclass(frozen=True)
class Format:
    """A binary floating-point format. `fnuz` formats (gfx942 fp8/bf8) have bias 2^(w-1),
    no infinity, no -0, and one NaN: the pattern 0x80."""

    name: str
    exp_bits: int
    man_bits: int
    fnuz: bool = False

    @functools.cached_property
    def width(self) -> int:
        return 1 + self.exp_bits + self.man_bits

    @functools.cached_property
    def bias(self) -> int:
        return 2 ** (self.exp_bits - 1) - (0 if self.fnuz else 1)

    @functools.cached_property
    def min_exp(self) -> int:
        """Exponent of the smallest normal number."""
        return 1 - self.bias

    @functools.cached_property
    def sign_bit(self) -> int:
        return 1 << (self.width - 1)

    @functools.cached_property
    def inf_bits(self) -> int:
        return ((1 << self.exp_bits) - 1) << self.man_bits

    @functools.cached_property
    def nan_bits(self) -> int:
        return self.sign_bit if self.fnuz else self.inf_bits | 1 << (self.man_bits - 1)


F16 = Format("f16", 5, 10)
BF16 = Format("bf16", 8, 7)
F32 = Format("f32", 8, 23)
F64 = Format("f64", 11, 52)
FP8 = Format("fp8", 4, 3, fnuz=True)  # e4m3fnuz, bias 8
BF8 = Format("bf8", 5, 2, fnuz=True)  # e5m2fnuz, bias 16
XF32_DROPPED_BITS = 13  # xf32 operands: f32 patterns whose low 13 mantissa bits are ignored

ZERO_EXPONENT = -126  # the spec's e(0), whatever the format


@dataclass(frozen=True)
class Value:
    """One decoded element: NaN, +-inf, or finite (exact value; a zero keeps its sign).

    `exponent` is the spec's e(x): floor(log2|x|) for a normal number, the format's smallest
    normal exponent for a subnormal one, -126 for zero. Then x = s(x) * 2^e(x)."""

    kind: str  # "nan", "inf" or "finite"
    negative: bool
    exact: Fraction = Fraction(0)
    exponent: int = ZERO_EXPONENT

    @functools.cached_property
    def is_zero(self) -> bool:
        return self.kind == "finite" and self.exact == 0


POSITIVE_ZERO = Value("finite", False)
ONE = Value("finite", False, Fraction(1), 0)


@functools.lru_cache(maxsize=1 << 16)
def decode(bits: int, fmt: Format) -> Value:
    """The value of a bit pattern of `fmt` (cached: rows and columns are decoded repeatedly)."""
    negative = bool(bits & fmt.sign_bit)
    field = bits >> fmt.man_bits & ((1 << fmt.exp_bits) - 1)
    mantissa = bits & ((1 << fmt.man_bits) - 1)
    if fmt.fnuz and bits == fmt.sign_bit:
        return Value("nan", False)
    if not fmt.fnuz and field == (1 << fmt.exp_bits) - 1:
        return Value("inf", negative) if mantissa == 0 else Value("nan", negative)
    if field == 0 and mantissa == 0:
        return Value("finite", negative)
    if field == 0:  # subnormal: 0.mantissa * 2^min_exp
        exponent, integer = fmt.min_exp, mantissa
    else:  # normal: 1.mantissa * 2^(field - bias)
        exponent, integer = field - fmt.bias, mantissa | 1 << fmt.man_bits
    shift = exponent - fmt.man_bits
    magnitude = Fraction(integer << shift) if shift >= 0 else Fraction(integer, 1 << -shift)
    return Value("finite", negative, -magnitude if negative else magnitude, exponent)


# --- exact rounding -------------------------------------------------------------------------


def scaled(x: Fraction, q: int) -> tuple[int, int]:
    """x / 2^q as an integer fraction (numerator, denominator)."""
    if q >= 0:
        return x.numerator, x.denominator << q
    return x.numerator << -q, x.denominator


def floor_log2(x: Fraction) -> int:
    """e with 2^e <= x < 2^(e+1), for x > 0."""
    e = x.numerator.bit_length() - x.denominator.bit_length()
    num, den = scaled(x, e)
    return e - 1 if num < den else e


def round_half_even(num: int, den: int) -> int:
    """num / den (den > 0) rounded to the nearest integer, ties to even."""
    whole, rest = divmod(num, den)
    return whole + 1 if 2 * rest > den or (2 * rest == den and whole % 2) else whole


def round_to(x: Fraction, fmt: Format, negative_zero: bool = False) -> int:
    """x rounded to nearest even in an IEEE format: gradual underflow (a nonzero x that
    rounds to zero keeps its sign), overflow to +-inf. An exact zero is -0 only when asked."""
    sign = fmt.sign_bit if x < 0 or (x == 0 and negative_zero) else 0
    magnitude = abs(x)
    if magnitude == 0:
        return sign
    quantum = max(floor_log2(magnitude), fmt.min_exp) - fmt.man_bits
    n = round_half_even(*scaled(magnitude, quantum))
    if n == 1 << (fmt.man_bits + 1):  # rounded up into the next binade
        n, quantum = n >> 1, quantum + 1
    if n < 1 << fmt.man_bits:  # subnormal (or zero)
        return sign | n
    field = quantum + fmt.man_bits + fmt.bias
    if field >= (1 << fmt.exp_bits) - 1:
        return sign | fmt.inf_bits
    return sign | field << fmt.man_bits | (n - (1 << fmt.man_bits))


def trunc_to(x: Fraction, q: int) -> Fraction:
    """x truncated toward zero to a multiple of 2^q."""
    num, den = scaled(x, q)
    return Fraction(abs(num) // den * (1 if num >= 0 else -1)) * TWO**q


def floor_to(x: Fraction, q: int) -> Fraction:
    """x rounded down (toward -inf) to a multiple of 2^q."""
    num, den = scaled(x, q)
    return Fraction(num // den) * TWO**q


# --- IEEE operations (families 1 and 2) -----------------------------------------------------


def fused_multiply_add(a: Value, b: Value, c: Value, fmt: Format) -> int:
    """IEEE 754 fma(a, b, c) in `fmt`: a*b + c exact, rounded once (RNE)."""
    if "nan" in (a.kind, b.kind, c.kind):
        return fmt.nan_bits
    product_negative = a.negative != b.negative
    if "inf" in (a.kind, b.kind):
        if a.is_zero or b.is_zero:
            return fmt.nan_bits  # inf * 0
        if c.kind == "inf" and c.negative != product_negative:
            return fmt.nan_bits  # inf - inf
        return (fmt.sign_bit if product_negative else 0) | fmt.inf_bits
    if c.kind == "inf":
        return (fmt.sign_bit if c.negative else 0) | fmt.inf_bits
    total = a.exact * b.exact + c.exact
    # An exact zero is -0 only as (-0) + (-0); any other cancellation gives +0 under RNE.
    both_negative_zeros = (a.is_zero or b.is_zero) and product_negative and c.is_zero and c.negative
    return round_to(total, fmt, negative_zero=both_negative_zeros)


def multiply(a: Value, b: Value, fmt: Format) -> int:
    """a*b rounded once to `fmt`; an exactly zero product is +0 (a*b + (+0))."""
    return fused_multiply_add(a, b, POSITIVE_ZERO, fmt)


def add(x: Value, y: Value, fmt: Format) -> int:
    """x + y rounded once to `fmt` (x*1 + y)."""
    return fused_multiply_add(x, ONE, y, fmt)


# --- family 1: FMA chain (f32 on CDNA1/2/3, f64 on CDNA2/3) ---------------------------------


def family1_fma_chain(a: Sequence[int], b: Sequence[int], c: int, fmt: Format,
                      negate: int = 0) -> int:
    """d = C; d = fma(a_k, b_k, d) for k ascending, each rounded in `fmt` (RNE, subnormals
    kept). `negate` is gfx942's f64 NEG field: bit 0 flips A's signs, bit 1 B's, bit 2 C's.

    Worked example (f32, K = 2): a = (2^24, -2^24), b = (1, 1), c = 1. The exact sum is 1,
    but fma(2^24, 1, 1) = 2^24 + 1 is a tie and rounds to even 2^24; then
    fma(-2^24, 1, 2^24) = +0. The silicon answers +0, not 1."""
    flip = [fmt.sign_bit if negate >> bit & 1 else 0 for bit in range(3)]
    d = c ^ flip[2]
    for a_k, b_k in zip(a, b, strict=True):
        d = fused_multiply_add(decode(a_k ^ flip[0], fmt), decode(b_k ^ flip[1], fmt),
                               decode(d, fmt), fmt)
    return d


# --- family 2: f32 products, pairwise f32 trees (f16, bf16, bf16_1k on CDNA1/2) ------------


def flush_input(bits: int, fmt: Format) -> int:
    """CDNA2: an input below the smallest normal of its format (exponent field 0: a
    subnormal or a zero of either sign) becomes +0."""
    return 0 if bits & fmt.inf_bits == 0 else bits


def flush_f32(bits: int) -> int:
    """CDNA2: an f32 result below 2^-126 (a subnormal) becomes a zero of the same sign."""
    return bits & F32.sign_bit if bits & F32.inf_bits == 0 else bits


def family2_product_tree(a: Sequence[int], b: Sequence[int], c: int, a_fmt: Format,
                         b_fmt: Format, group: int, flush: bool) -> int:
    """Products rounded to f32; within each group of `group` (4 or 2) consecutive k a binary
    tree of f32 additions, (p0+p1)+(p2+p3); across groups d = RNE_f32(d + group sum) from
    d = C. With `flush` (CDNA2) inputs below their smallest normal become +0 first and every
    f32 result below 2^-126 becomes a signed zero.

    Worked example (CDNA2, f16): a = (2^-24, 0, 0, 0) (a subnormal), b = (inf, 0, 0, 0),
    c = 0. IEEE gives 2^-24 * inf = inf, but the flushed input makes it 0 * inf = NaN.
    CDNA1 answers +inf."""
    def keep(bits: int) -> int:
        return flush_f32(bits) if flush else bits

    def value(bits: int) -> Value:
        return decode(bits, F32)

    if flush:
        a = [flush_input(x, a_fmt) for x in a]
        b = [flush_input(x, b_fmt) for x in b]
        c = flush_input(c, F32)
    products = [keep(multiply(decode(x, a_fmt), decode(y, b_fmt), F32))
                for x, y in zip(a, b, strict=True)]
    d = c
    for start in range(0, len(products), group):
        p = [value(x) for x in products[start:start + group]]
        if group == 4:
            left, right = keep(add(p[0], p[1], F32)), keep(add(p[2], p[3], F32))
            group_sum = keep(add(value(left), value(right), F32))
        else:
            group_sum = keep(add(p[0], p[1], F32))
        d = keep(add(value(d), value(group_sum), F32))
    return d


# --- family 3: fused dot with truncated alignment and round-down (CDNA3) -------------------


def special_sum(a: Sequence[Value], b: Sequence[Value], d: Value) -> int:
    """Step 1: the IEEE value of d + sum(a_k*b_k) when some input is NaN or inf."""
    if any(v.kind == "nan" for v in (*a, *b, d)):
        return F32.nan_bits
    infinite_signs = {d.negative} if d.kind == "inf" else set()
    for x, y in zip(a, b, strict=True):
        if "inf" in (x.kind, y.kind):
            if x.is_zero or y.is_zero:
                return F32.nan_bits
            infinite_signs.add(x.negative != y.negative)
    if len(infinite_signs) == 2:
        return F32.nan_bits
    return (F32.sign_bit if infinite_signs.pop() else 0) | F32.inf_bits


def truncated_sum(a: Sequence[Value], b: Sequence[Value]) -> tuple[Fraction, int]:
    """Steps 3-4: (S, E). Each product is aligned at E = max(e(a_k) + e(b_k)), truncated
    toward zero to a multiple of 2^(E-24), and the truncated products are summed exactly."""
    alignment = max(x.exponent + y.exponent for x, y in zip(a, b, strict=True))
    total = sum((trunc_to(x.exact * y.exact, alignment - 24) for x, y in zip(a, b, strict=True)),
                Fraction(0))
    return total, alignment


def split_truncated_sum(a: Sequence[Value], b: Sequence[Value]) -> tuple[Fraction, int]:
    """fp8/bf8 step 4: even-k and odd-k halves summed separately at their own alignment,
    then both floored to 24 fraction bits below the larger alignment and added."""
    even_sum, even_exp = truncated_sum(a[0::2], b[0::2])
    odd_sum, odd_exp = truncated_sum(a[1::2], b[1::2])
    alignment = max(even_exp, odd_exp)
    return floor_to(even_sum, alignment - 24) + floor_to(odd_sum, alignment - 24), alignment


def fused_group(a: Sequence[Value], b: Sequence[Value], d_bits: int, halves: bool) -> int:
    """One group of family 3: d + sum(a_k*b_k) as CDNA3 computes it, steps 1-6."""
    d = decode(d_bits, F32)
    if any(v.kind != "finite" for v in (*a, *b, d)):
        return special_sum(a, b, d)
    huge_signs = {x.negative != y.negative for x, y in zip(a, b, strict=True)
                  if abs(x.exact * y.exact) >= TWO**128}
    if huge_signs:
        return F32.nan_bits if len(huge_signs) == 2 else (
            (F32.sign_bit if huge_signs.pop() else 0) | F32.inf_bits)
    s, alignment = split_truncated_sum(a, b) if halves else truncated_sum(a, b)
    top = max(alignment, d.exponent)
    addend = floor_to(d.exact, top - 24)
    if halves and d.exponent < top - 25:
        addend = Fraction(0)
    return round_to(floor_to(s, top - 31) + addend, F32)  # an exact zero is +0


def family3_fused_dot(a: Sequence[int], b: Sequence[int], c: int, a_fmt: Format,
                      b_fmt: Format, group: int, xf32: bool = False,
                      halves: bool = False) -> int:
    """Groups of `group` consecutive k in ascending order, each a fused dot added to the
    running f32 value d (d = C first) and rounded once (RNE) to f32.

    Worked example (f16, one group of 4, c = 0): a = (2^-24, 2^-2 + 2^-12, 0, 0),
    b = (2^15, 2^-2 + 2^-12, 0, 0). The subnormal 2^-24 has e = -14, so its product 2^-9
    is aligned at -14 + 15 = 1, and E = 1: every product is truncated to a multiple of
    2^(1-24) = 2^-23. The second product, 2^-4 + 2^-13 + 2^-24, loses its last bit, so
    D = 2^-4 + 2^-9 + 2^-13 where the exact sum (an f32 number) is 2^-4 + 2^-9 + 2^-13
    + 2^-24. Without the subnormal term E = -4 and nothing is lost.
    """
    def operand(bits: int, fmt: Format) -> Value:
        if xf32:
            bits &= ~((1 << XF32_DROPPED_BITS) - 1)
        return decode(bits, fmt)

    av = [operand(x, a_fmt) for x in a]
    bv = [operand(x, b_fmt) for x in b]
    d = c
    for start in range(0, len(av), group):
        d = fused_group(av[start:start + group], bv[start:start + group], d, halves)
    return d


# --- instructions -----------------------------------------------------------------------------

CDNA = {"gfx908": 1, "gfx90a": 2, "gfx942": 3}
# input type tag -> (A format, B format, elements per lane of the A operand)
INPUT_TYPES = {
    "f32": (F32, F32, 1), "f64": (F64, F64, 1), "f16": (F16, F16, 4),
    "bf16": (BF16, BF16, 2), "bf16_1k": (BF16, BF16, 4), "xf32": (F32, F32, 2),
    "fp8_fp8": (FP8, FP8, 8), "fp8_bf8": (FP8, BF8, 8),
    "bf8_fp8": (BF8, FP8, 8), "bf8_bf8": (BF8, BF8, 8),
}
NAME = re.compile(r"(?:v_)?mfma_(f32|f64)_(\d+)x(\d+)x(\d+)(?:_(\d+)b)?_?(\w+)")


@dataclass(frozen=True)
class Instruction:
    """What the reference needs of one MFMA on one target: shape, formats and family."""

    name: str
    arch: str
    m: int
    n: int
    k: int
    blocks: int
    type_tag: str
    a_format: Format
    b_format: Format
    c_format: Format
    family: int
    group: int  # families 2-3: products per group


def instruction(name: str, arch: str) -> Instruction:
    """Parse a builtin name (`mfma_f32_16x16x16f16`) or ISA mnemonic (`v_mfma_f32_16x16x16_f16`)
    on gfx908/gfx90a/gfx942 into its family and parameters, per silicon-numerics.md."""
    if arch not in CDNA:
        raise ValueError(f"no silicon model for {arch!r}; modelled: {', '.join(CDNA)}")
    match = NAME.fullmatch(name)
    if match is None or match[6] not in INPUT_TYPES:
        raise ValueError(f"{name!r} is not a floating-point MFMA the silicon model covers")
    acc, m, n, k, _, tag = match[1], int(match[2]), int(match[3]), int(match[4]), match[5], match[6]
    cdna = CDNA[arch]
    if tag == "bf16" and cdna == 3:
        tag = "bf16_1k"  # CDNA3 kept only the 4-elements-per-lane bf16 MFMAs
    a_fmt, b_fmt, per_lane = INPUT_TYPES[tag]
    blocks = 64 * per_lane // (m * k)  # A fills the wave's 64 lanes
    if tag in ("f32", "f64"):
        family, group = 1, 1
    elif cdna < 3:
        family, group = 2, 2 if tag == "bf16" else 4
    else:
        family = 3
        group = {"f16": min(8, k), "bf16_1k": min(8, k), "xf32": 4}.get(tag, 16)
    return Instruction(name, arch, m, n, k, blocks, tag, a_fmt, b_fmt, F64 if acc == "f64" else F32,
                       family, group)


def reference_element(instr: Instruction, a_row: Sequence[int], b_col: Sequence[int], c: int,
                      negate: int = 0) -> int:
    """D(i, j) bits of one block: a_row = A(i, 0..K-1), b_col = B(0..K-1, j), c = C(i, j),
    all as bit patterns. `negate` is gfx942's f64 NEG field (BLGP), zero elsewhere."""
    if len(a_row) != instr.k or len(b_col) != instr.k:
        raise ValueError(f"{instr.name} needs K = {instr.k} elements of A and B")
    if instr.family == 1:
        return family1_fma_chain(a_row, b_col, c, instr.c_format, negate)
    if instr.family == 2:
        return family2_product_tree(a_row, b_col, c, instr.a_format, instr.b_format,
                                    instr.group, flush=CDNA[instr.arch] == 2)
    return family3_fused_dot(a_row, b_col, c, instr.a_format, instr.b_format, instr.group,
                             xf32=instr.type_tag == "xf32", halves=instr.a_format.width == 8)
