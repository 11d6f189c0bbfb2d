"""The scalar silicon reference (tests/silicon_reference.py) against independent facts.

1. Its decoder and rounding against ml_dtypes/numpy casts and Python's correctly rounded
   Fraction -> float conversion.
2. Hand-worked examples of every rule of silicon-numerics.md (derivations in docstrings).
3. The silicon vectors (MMA-Sim outputs, validated on MI100/MI200/MI300): a sample of every
   (target, instruction, data set) by default, every element under `-m extended`.
"""

from __future__ import annotations

import json
import struct
import zlib
from fractions import Fraction
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
import silicon_reference as R

ROOT = Path(__file__).resolve().parents[1]
ARCHS = ("gfx908", "gfx90a", "gfx942")
BITS = {"f16": np.uint16, "bf16": np.uint16, "f32": np.uint32, "xf32": np.uint32,
        "f64": np.uint64, "fp8": np.uint8, "bf8": np.uint8}


def vector_dir() -> Path | None:
    """tests/data/silicon-vectors, else shared/reference/silicon-vectors beside the checkout
    (or beside one of its parents, for worktrees)."""
    candidates = [ROOT / "tests" / "data" / "silicon-vectors"]
    candidates += [p / "shared" / "reference" / "silicon-vectors" for p in ROOT.parents]
    return next((p for p in candidates if (p / "gfx942.npz").is_file()), None)


VECTORS = vector_dir()
needs_vectors = pytest.mark.skipif(
    VECTORS is None, reason="silicon vectors not found in tests/data/silicon-vectors/ or "
    "../shared/reference/silicon-vectors/")


def f32_bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f64_bits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def f16_bits(x: float) -> int:
    return int(np.float16(x).view(np.uint16))


def bf16_bits(x: float) -> int:
    return int(np.array(x, ml_dtypes.bfloat16).view(np.uint16))


def fp8_bits(x: float) -> int:
    return int(np.array(x, ml_dtypes.float8_e4m3fnuz).view(np.uint8))


def f32_value(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def is_nan(bits: int, fmt: R.Format) -> bool:
    return (bits & ~fmt.sign_bit) > fmt.inf_bits


def same(got: int, want: int, fmt: R.Format) -> bool:
    """Bit for bit, NaN as NaN (payloads are not meaningful)."""
    return got == want or (is_nan(got, fmt) and is_nan(want, fmt))


# --- 1. decoding and rounding against independent conversions ------------------------------

SMALL_FORMATS = [(R.F16, np.float16), (R.BF16, ml_dtypes.bfloat16),
                 (R.FP8, ml_dtypes.float8_e4m3fnuz), (R.BF8, ml_dtypes.float8_e5m2fnuz)]


@pytest.mark.parametrize("fmt, dtype", SMALL_FORMATS, ids=[f.name for f, _ in SMALL_FORMATS])
def test_decode_every_pattern_matches_ml_dtypes(fmt, dtype):
    patterns = np.arange(1 << fmt.width, dtype=np.uint16 if fmt.width == 16 else np.uint8)
    with np.errstate(invalid="ignore"):  # NaN patterns
        values = patterns.view(dtype).astype(np.float64)
    for bits, x in zip(patterns.tolist(), values.tolist(), strict=True):
        v = R.decode(bits, fmt)
        if np.isnan(x):
            assert v.kind == "nan", hex(bits)
        elif np.isinf(x):
            assert (v.kind, v.negative) == ("inf", x < 0), hex(bits)
        else:
            assert v.kind == "finite" and v.exact == Fraction(x), hex(bits)
            assert v.negative == bool(np.signbit(x)), hex(bits)


def test_decode_exponent_and_significand_follow_the_spec():
    """e(x) is floor(log2|x|) for normals, the smallest normal exponent for subnormals
    (f16 -14, bf16/f32 -126, e4m3fnuz -7, e5m2fnuz -15) and -126 for zero in any format."""
    assert [f.min_exp for f in (R.F16, R.BF16, R.F32, R.FP8, R.BF8)] == [-14, -126, -126, -7, -15]
    assert R.decode(f16_bits(2.0**-24), R.F16).exponent == -14
    assert R.decode(f16_bits(3.0), R.F16).exponent == 1
    assert R.decode(fp8_bits(2.0**-10), R.FP8).exponent == -7
    for fmt in (R.F16, R.BF16, R.F32, R.F64, R.FP8, R.BF8):
        assert R.decode(0, fmt).exponent == -126
    assert R.decode(0x80, R.FP8).kind == "nan"  # fnuz: the only NaN


@pytest.mark.parametrize("fmt, width", [(R.F32, 32), (R.F64, 64)], ids=["f32", "f64"])
def test_decode_random_patterns(fmt, width):
    rng = np.random.default_rng(5)
    dtype, view = (np.uint32, np.float32) if width == 32 else (np.uint64, np.float64)
    patterns = rng.integers(0, 1 << width, 3000, dtype=dtype)
    edges = np.array([0, 1, fmt.inf_bits - 1, fmt.inf_bits, fmt.inf_bits + 1, fmt.sign_bit,
                      (1 << fmt.man_bits) - 1, 1 << fmt.man_bits], dtype=dtype)
    for bits, x in zip(np.concatenate([patterns, edges]).tolist(),
                       np.concatenate([patterns, edges]).view(view).tolist(), strict=True):
        v = R.decode(bits, fmt)
        if np.isnan(x):
            assert v.kind == "nan"
        elif np.isinf(x):
            assert (v.kind, v.negative) == ("inf", x < 0)
        else:
            assert v.exact == Fraction(x) and v.negative == bool(np.signbit(x))


def test_round_to_f32_matches_numpy_cast():
    """numpy's float64 -> float32 cast is RNE with gradual underflow and overflow to inf."""
    rng = np.random.default_rng(6)
    x = rng.standard_normal(4000) * 2.0 ** rng.integers(-160, 130, 4000)
    ties = (np.float32(rng.standard_normal(500)).astype(np.float64)
            + np.float64(2.0**-24) * np.abs(rng.standard_normal(500)).astype(np.float32))
    edge = [2.0**-150, 2.0**-149 * 1.5, -(2.0**-150) * 1.0000001, 2.0**-126 * (1 - 2.0**-25),
            3.4028235677973366e38, 3.4028235677973366e38 * (1 + 2.0**-25), 2.0**128]
    for value in np.concatenate([x, ties, edge]).tolist():
        with np.errstate(over="ignore"):
            want = int(np.array(value, np.float32).view(np.uint32))
        assert R.round_to(Fraction(value), R.F32) == want, value


def test_round_to_f64_matches_fraction_float():
    """float(Fraction) is correctly rounded (CPython's int/int true division)."""
    rng = np.random.default_rng(7)
    for _ in range(2000):
        terms = [Fraction(float(v)) for v in rng.standard_normal(3) * 2.0 ** rng.integers(
            -600, 500, 3)]  # products from subnormal to large, never beyond f64
        exact = terms[0] * terms[1] + terms[2]
        assert R.round_to(exact, R.F64) == f64_bits(float(exact))


# --- 2. worked examples ----------------------------------------------------------------------


def run(name: str, arch: str, a, b, c, encode_in, encode_c=f32_bits, negate: int = 0) -> int:
    instr = R.instruction(name, arch)
    pad = instr.k - len(a)
    a_bits = [encode_in(x) for x in a] + [0] * pad
    b_bits = [encode_in(x) for x in b] + [0] * pad
    return R.reference_element(instr, a_bits, b_bits, encode_c(c), negate)


@pytest.mark.parametrize("arch", ARCHS)
def test_family1_rounds_after_every_fma(arch):
    """f32 K = 2: fma(2^24, 1, 1) = 2^24 + 1, a tie between 2^24 and 2^24 + 2, rounds to the
    even 2^24; fma(-2^24, 1, 2^24) = +0. The exact sum is 1."""
    assert run("mfma_f32_32x32x2f32", arch, [2.0**24, -(2.0**24)], [1.0, 1.0], 1.0,
               f32_bits) == 0


def test_family1_overflow_inside_the_chain_stays_inf():
    """f32 K = 2, C = 2^127: fma(2^127, 2, 2^127) = 3 * 2^127 overflows to +inf, and
    fma(-2^127, 2, inf) stays +inf although the exact sum 2^127 is finite."""
    got = run("mfma_f32_16x16x4f32", "gfx942", [2.0**127, -(2.0**127), 0, 0], [2.0, 2.0, 0, 0],
              2.0**127, f32_bits)
    assert got == 0x7F800000


def test_family1_f64_negate_flips_input_signs():
    """gfx942 f64 NEG: bit 0 negates A, bit 1 B, bit 2 C. 1*2 + 3*4 + 10 = 24; with A negated
    -14 + 10 = -4; with A and C negated -14 - 10 = -24."""
    a, b = [1.0, 3.0, 0.0, 0.0], [2.0, 4.0, 0.0, 0.0]
    res = [run("mfma_f64_16x16x4f64", "gfx942", a, b, 10.0, f64_bits, f64_bits, neg)
           for neg in (0, 1, 5, 3)]
    assert res == [f64_bits(24.0), f64_bits(-4.0), f64_bits(-24.0), f64_bits(24.0)]


def test_family2_pairwise_tree():
    """CDNA1 f16, products (2^24, 1, 1, 0): the tree adds (2^24 + 1) -> 2^24 (tie to even)
    and (1 + 0) = 1, then 2^24 + 1 -> 2^24 again. The exact sum 2^24 + 2 is an f32 number."""
    got = run("mfma_f32_16x16x16f16", "gfx908", [2.0**12, 1, 1, 0], [2.0**12, 1, 1, 0], 0.0,
              f16_bits)
    assert got == f32_bits(2.0**24)


def test_family2_bf16_groups_of_two_and_overflowing_products():
    """CDNA1 bf16 (G = 2), products +-2^130 round to +-inf in f32: the group sum
    inf + -inf is NaN though the exact sum is 0. Split across the two groups of a K = 4
    bf16 instruction, d = C + inf = inf, then inf + (-inf) = NaN as well."""
    nan = run("mfma_f32_4x4x2bf16", "gfx908", [2.0**100, -(2.0**100)], [2.0**30, 2.0**30], 1.0,
              bf16_bits)
    assert is_nan(nan, R.F32)
    one_sided = run("mfma_f32_4x4x2bf16", "gfx908", [2.0**100, 1.0], [2.0**30, 1.0], 1.0,
                    bf16_bits)
    assert one_sided == 0x7F800000


@pytest.mark.parametrize("arch, want", [("gfx908", 0x7F800000), ("gfx90a", None)])
def test_family2_cdna2_flushes_subnormal_inputs(arch, want):
    """f16 2^-24 (subnormal) times inf: inf on CDNA1, but CDNA2 flushes the input to +0 first
    and 0 * inf is NaN."""
    got = run("mfma_f32_4x4x4f16", arch, [2.0**-24], [np.inf], 0.0, f16_bits)
    assert got == want if want is not None else is_nan(got, R.F32)


def test_family2_cdna2_flushes_results_keeping_their_sign():
    """bf16, C = -(2^-126 + 2^-149) (a normal f32), one product 2^-63 * 2^-63 = 2^-126:
    d = -2^-149, a subnormal: CDNA1 keeps it, CDNA2 flushes it to -0 (sign kept)."""
    c = -(2.0**-126 + 2.0**-149)
    cdna2 = run("mfma_f32_4x4x4bf16_1k", "gfx90a", [2.0**-63], [2.0**-63], c, bf16_bits)
    assert cdna2 == 0x80000000
    assert run("mfma_f32_4x4x2bf16", "gfx908", [2.0**-63], [2.0**-63], c, bf16_bits) == 0x80000001


def test_family3_subnormal_operand_inflates_alignment():
    """The worked example of family3_fused_dot: D = 2^-4 + 2^-9 + 2^-13, the exact sum's last
    bit 2^-24 truncated because the subnormal's alignment exponent is -14 + 15 = 1."""
    a = [2.0**-24, 2.0**-2 + 2.0**-12]
    b = [2.0**15, 2.0**-2 + 2.0**-12]
    got = run("mfma_f32_4x4x4f16", "gfx942", a, b, 0.0, f16_bits)
    assert got == f32_bits(2.0**-4 + 2.0**-9 + 2.0**-13)
    without = run("mfma_f32_4x4x4f16", "gfx942", a[1:], b[1:], 0.0, f16_bits)
    assert without == f32_bits(2.0**-4 + 2.0**-13 + 2.0**-24)


def test_family3_rounds_the_group_sum_down():
    """bf16, C = 1, products 2^-24 and 2^-40: E = -24 keeps both (quantum 2^-48), S =
    2^-24 + 2^-40. M = max(E, e(C)) = 0, so S is floored to a multiple of 2^-31: 2^-24.
    1 + 2^-24 is a tie and rounds to even 1.0; the exact 1 + 2^-24 + 2^-40 rounds to
    1 + 2^-23."""
    got = run("mfma_f32_16x16x16bf16_1k", "gfx942", [2.0**-24, 2.0**-40], [1.0, 1.0], 1.0,
              bf16_bits)
    assert got == f32_bits(1.0)


def test_family3_huge_products_and_exact_zero():
    """|a*b| >= 2^128 decides the sign of the infinity before any sum (NaN when both signs
    occur, even though 2^130 - 2^130 = 0); an exactly zero result is +0, even from -0
    terms and C = -0."""
    name = "mfma_f32_4x4x4bf16_1k"
    both = run(name, "gfx942", [2.0**100, 2.0**100], [2.0**30, -(2.0**30)], 0.0, bf16_bits)
    assert is_nan(both, R.F32)
    assert run(name, "gfx942", [2.0**100, 1.0], [-(2.0**30), 1.0], 0.0, bf16_bits) == 0xFF800000
    assert run(name, "gfx942", [-0.0] * 4, [0.0] * 4, -0.0, bf16_bits) == 0


def test_family3_special_values_are_ieee():
    """An inf operand with a finite partner gives inf; inf * 0 or +inf + -inf gives NaN."""
    name = "mfma_f32_32x32x8f16"
    assert run(name, "gfx942", [np.inf, 1.0], [2.0, 3.0], -5.0, f16_bits) == 0x7F800000
    assert is_nan(run(name, "gfx942", [np.inf], [0.0], 1.0, f16_bits), R.F32)
    assert is_nan(run(name, "gfx942", [np.inf], [1.0], -np.inf, f16_bits), R.F32)


def test_family3_xf32_ignores_the_low_13_bits():
    """xf32 1 + 2^-11 reads as 1: the product with 1 is 1, D = C + 1 = 2 (C = 1)."""
    got = run("mfma_f32_32x32x4_xf32", "gfx942", [1 + 2.0**-11], [1.0], 1.0, f32_bits)
    assert got == f32_bits(2.0)
    assert run("mfma_f32_32x32x4_xf32", "gfx942", [1 + 2.0**-10], [1.0], 1.0,
               f32_bits) == f32_bits(2.0 + 2.0**-10)


def test_family3_fp8_two_stage_split():
    """fp8, products 8 * 8 = 64 (k = 0, even half, E0 = 6) and -2^-10 * 2^-9 = -2^-19 (k = 1,
    odd half, E1 = -7 - 7 = -14, kept exactly). Re-aligned to E = 6 the odd half is floored
    to a multiple of 2^-18: -2^-18, so D = 64 - 2^-18 (0x427FFFFF). One alignment for all
    16 would truncate -2^-19 toward zero (D = 64), and the exact sum 64 - 2^-19 is a tie
    that rounds to 64."""
    a, b = [8.0, -(2.0**-10)], [8.0, 2.0**-9]
    assert run("mfma_f32_32x32x16_fp8_fp8", "gfx942", a, b, 0.0, fp8_bits) == 0x427FFFFF


def test_family3_fp8_drops_a_small_c():
    """fp8, product 64 (E = 6 = M). C = -2^-20 has e(C) = -20 < M - 25: dropped, D = 64.
    C = -2^-19 (e = M - 25) is kept, floored to a multiple of 2^(M-24) = 2^-18: D = 64 - 2^-18.
    A non-split type floors both: f16 with C = -2^-20 gives 64 - 2^-18."""
    fp8 = "mfma_f32_16x16x32_fp8_fp8"
    assert run(fp8, "gfx942", [8.0], [8.0], -(2.0**-20), fp8_bits) == f32_bits(64.0)
    assert run(fp8, "gfx942", [8.0], [8.0], -(2.0**-19), fp8_bits) == 0x427FFFFF
    assert run("mfma_f32_4x4x4f16", "gfx942", [8.0], [8.0], -(2.0**-20), f16_bits) == 0x427FFFFF


def test_instruction_table_follows_the_spec():
    """Families and group sizes of silicon-numerics.md; blocks from A filling 64 lanes."""
    cases = {
        ("mfma_f32_32x32x1f32", "gfx908"): (1, 1, 2),
        ("mfma_f64_4x4x4f64", "gfx90a"): (1, 1, 4),
        ("mfma_f32_4x4x2bf16", "gfx908"): (2, 2, 16),
        ("mfma_f32_16x16x16bf16_1k", "gfx90a"): (2, 4, 1),
        ("v_mfma_f32_16x16x16_f16", "gfx942"): (3, 8, 1),
        ("v_mfma_f32_32x32x4_2b_bf16", "gfx942"): (3, 4, 2),
        ("mfma_f32_16x16x8_xf32", "gfx942"): (3, 4, 1),
        ("mfma_f32_16x16x32_bf8_fp8", "gfx942"): (3, 16, 1),
    }
    for (name, arch), want in cases.items():
        instr = R.instruction(name, arch)
        assert (instr.family, instr.group, instr.blocks) == want, name
    with pytest.raises(ValueError, match="no silicon model"):
        R.instruction("mfma_f32_16x16x16f16", "gfx1100")
    with pytest.raises(ValueError, match="not a floating-point MFMA"):
        R.instruction("mfma_i32_16x16x16i8", "gfx908")


# --- 3. the silicon vectors ------------------------------------------------------------------

DEFAULT_SAMPLE = 40  # elements per (target, instruction, data set) in the default run
STRIKING = 8  # of which up to this many non-finite, zero or subnormal results


def load(arch: str):
    data = np.load(VECTORS / f"{arch}.npz")
    return data, json.loads(str(data["index"]))


def vector_cases() -> list:
    if VECTORS is None:
        return [pytest.param(None, None, marks=needs_vectors)]
    cases = []
    for arch in ARCHS:
        _, meta = load(arch)
        cases += [pytest.param(arch, ins["isa"], id=f"{arch}-{ins['isa']}")
                  for ins in meta["instructions"]]
    return cases


def check_elements(arch: str, isa: str, dataset: str, data, meta, sample: int | None):
    """Compare the reference with the stored D on `sample` elements (None: all of them)."""
    ins = next(i for i in meta["instructions"] if i["isa"] == isa)
    instr = R.instruction(isa, arch)
    assert (instr.k, instr.blocks, instr.m, instr.n) == (ins["k"], ins["blocks"], ins["m"],
                                                         ins["n"])

    def get(x: str, t: str) -> np.ndarray:
        return data[f"{isa}__{dataset}__{x}"].view(BITS[ins[t]])

    a, b, c, d = get("A", "a_type"), get("B", "b_type"), get("C", "c_type"), get("D", "c_type")
    flat = np.arange(d.size)
    if sample is not None:
        rng = np.random.default_rng(zlib.crc32(f"{arch} {isa} {dataset}".encode()))
        fmt = instr.c_format
        field = d.ravel().astype(np.uint64) & fmt.inf_bits
        striking = flat[(field == fmt.inf_bits) | (field == 0)]
        chosen = rng.permutation(striking)[:STRIKING]
        rest = rng.choice(flat, sample - len(chosen), replace=False)
        flat = np.union1d(chosen, rest)
    failures = []
    for index in flat.tolist():
        call, block, i, j = np.unravel_index(index, d.shape)
        got = R.reference_element(instr, a[call, block, i].tolist(), b[call, block, :, j].tolist(),
                                  int(c[call, block, i, j]))
        want = int(d[call, block, i, j])
        if not same(got, want, instr.c_format):
            failures.append(f"{dataset} D[{call},{block},{i},{j}]: {got:#x} != {want:#x}")
    assert not failures, f"{arch} {isa}: {len(failures)} of {len(flat)} differ: {failures[:5]}"


@needs_vectors
@pytest.mark.parametrize("arch, isa", vector_cases())
def test_vectors_sample(arch, isa):
    data, meta = load(arch)
    for dataset in meta["datasets"]:
        check_elements(arch, isa, dataset, data, meta, DEFAULT_SAMPLE)


@pytest.mark.extended
@needs_vectors
@pytest.mark.parametrize("arch, isa", vector_cases())
def test_vectors_every_element(arch, isa):
    data, meta = load(arch)
    for dataset in meta["datasets"]:
        check_elements(arch, isa, dataset, data, meta, None)
