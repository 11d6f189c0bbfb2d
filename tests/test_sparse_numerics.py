"""Every 4:2 sparse builtin (gfx942's 14 smfmac, gfx950's 28, gfx1201's 22 swmmac) on random
data against an independent reference, both engines in a kernel, and the index modifiers.

Oracles: integers, the exact int64 product `dense(A) @ B + C` (wrapped mod 2**32 on gfx9,
wrapped or saturated by `clamp` on gfx12); floats, the exact rational sum of C and the
products, rounded once to nearest-even in the output type by tests/sparse_helpers.py (which
compares neighbouring encodings and uses none of the package's numerics). Registers are
filled from the instructions' layout index maps; A goes through `compress_4to2` and
`Compressed.registers` (sparse.md §2, §5).
"""

from __future__ import annotations

import re
import zlib

import numpy as np
import pytest
from sparse_helpers import (
    exact_dot,
    from_regs,
    nonzero_values,
    random_42,
    round_nearest_even,
    same_floats,
    sparse_builtins,
    to_regs,
)

from rocwmma_py import amdgcn, kernel
from rocwmma_py import types as T
from rocwmma_py.errors import ModifierError, OperandShapeError, OperandTypeError
from rocwmma_py.runtime import (
    blockDim,
    blockIdx,
    last_launch_stats,
    threadIdx,
    use_arch,
    use_engine,
)
from rocwmma_py.sparse import Compressed, compress_4to2

pytestmark = pytest.mark.smoke

I32_MIN, I32_MAX = -(2**31), 2**31 - 1
CASES = sparse_builtins("gfx942", "gfx950", "gfx1201")
INT_CASES = [c for c in CASES if amdgcn.instruction(c[1], c[0]).integer]
FLOAT_CASES = [c for c in CASES if not amdgcn.instruction(c[1], c[0]).integer]
SAMPLES = 64  # output elements checked against the exact rational sum per float case


def test_every_sparse_builtin_is_covered():
    assert [sum(a == t for a, _ in CASES) for t in ("gfx942", "gfx950", "gfx1201")] == [14, 28, 22]


def call(arch: str, name: str, a, b, c, index, **mods):
    """The builtin with its arguments in HIP order (cbsz/abid 0, signs and clamp as given)."""
    instr = amdgcn.instruction(name, arch)
    with use_arch(arch):
        fn = getattr(amdgcn, name)
        if "cbsz" in instr.args:
            return fn(a, b, c, index, mods.get("cbsz", 0), mods.get("abid", 0))
        if "sgn_a" in instr.args:
            return fn(mods.get("sgn_a", True), a, mods.get("sgn_b", True), b, c, index,
                      mods.get("clamp", False))
        return fn(a, b, c, index)


def run(arch: str, name: str, packed: Compressed, b: np.ndarray, c: np.ndarray,
        index_set: int = 0, **mods) -> np.ndarray:
    """D (M x N) of the builtin with compressed A `packed`, dense B (K x N) and C (M x N)."""
    instr = amdgcn.instruction(name, arch)
    a_regs, index = packed.registers(name, arch, index_set)
    c_layout = instr.c_layout()
    d = call(arch, name, a_regs, to_regs(instr.b_layout, b), to_regs(c_layout, c), index,
             **mods)
    return from_regs(c_layout, np.asarray(d))


def float_operands(rng, instr, wide: bool):
    a_dt, b_dt, c_dt = (T.storage_dtype(t) for t in (instr.a_type, instr.b_type, instr.c_type))
    dense = random_42(rng, (instr.m, instr.k), a_dt, wide=wide)
    b = nonzero_values(rng, (instr.k, instr.n), b_dt, wide=wide)
    c = nonzero_values(rng, (instr.m, instr.n), c_dt, wide=wide)
    return dense, b, c


def dense_reference(dense, b, c, ij):
    """Exact C + A.B at the (i, j) in `ij`, over A's non-zeros, rounded once to C's dtype."""
    out = []
    for i, j in ij:
        k = np.flatnonzero(dense[i])
        out.append(round_nearest_even(exact_dot(dense[i, k], b[k, j], c[i, j]), c.dtype))
    return np.array(out, c.dtype)


def gather_reference(values, indices, b, c, ij):
    """The gather form C + sum_kk Ac[i,kk] * B[4*(kk//2) + idx[i,kk]][j], exact, rounded once."""
    rows = 4 * (np.arange(values.shape[1]) // 2) + indices.astype(np.int64)
    return np.array([round_nearest_even(exact_dot(values[i], b[rows[i], j], c[i, j]), c.dtype)
                     for i, j in ij], c.dtype)


def sample(rng, instr) -> list[tuple[int, int]]:
    flat = rng.choice(instr.m * instr.n, size=SAMPLES, replace=False)
    return [(int(f) // instr.n, int(f) % instr.n) for f in flat]


@pytest.mark.parametrize("wide", [False, True], ids=["normal", "wide-exponents"])
@pytest.mark.parametrize("arch, name", FLOAT_CASES, ids=[f"{a}-{n}" for a, n in FLOAT_CASES])
def test_float_builtin_vs_exact_rational_sum(arch, name, wide):
    """Float builtins (fp8/bf8 FNUZ on gfx942, OCP elsewhere): sampled D elements equal the
    exact rational C + A.B rounded once, nearest-even, to C's type (f32, f16 or bf16)."""
    rng = np.random.default_rng([zlib.crc32(name.encode()), len(arch), wide])
    instr = amdgcn.instruction(name, arch)
    dense, b, c = float_operands(rng, instr, wide)
    d = run(arch, name, compress_4to2(dense), b, c)
    ij = sample(rng, instr)
    got = np.array([d[i, j] for i, j in ij], d.dtype)
    want = dense_reference(dense, b, c, ij)
    bad = [(p, g, w) for p, g, w in zip(ij, got, want, strict=True) if not same_floats(g, w)]
    assert not bad, bad[:5]


@pytest.mark.extended
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("arch, name", FLOAT_CASES, ids=[f"{a}-{n}" for a, n in FLOAT_CASES])
def test_float_builtin_every_output_sweep(arch, name, seed):
    """Extended: every D element (not a sample) of 4 more seeds, wide exponent ranges, against
    the exact rational sum rounded once."""
    rng = np.random.default_rng([zlib.crc32(name.encode()), len(arch), seed, 99])
    instr = amdgcn.instruction(name, arch)
    dense, b, c = float_operands(rng, instr, wide=seed % 2 == 1)
    d = run(arch, name, compress_4to2(dense), b, c)
    ij = [(i, j) for i in range(instr.m) for j in range(instr.n)]
    assert same_floats(d.ravel(), dense_reference(dense, b, c, ij))


def _int_operands(rng, instr, sgn_a: bool, sgn_b: bool):
    """(dense A, B) as register patterns in the storage dtype and as the int64 values the
    sign flags give them; C in int32 with a quarter of it next to the int32 limits."""
    a_dt, b_dt = T.storage_dtype(instr.a_type), T.storage_dtype(instr.b_type)
    bits = T.bits(instr.a_type)
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    dense = random_42(rng, (instr.m, instr.k), a_dt, low=lo, high=hi)
    b = rng.integers(lo, hi, (instr.k, instr.n), endpoint=True).astype(b_dt)
    value = {True: lambda x: x.astype(np.int64),
             False: lambda x: x.astype(np.int64) % (1 << bits)}
    c = rng.integers(I32_MIN, I32_MAX, (instr.m, instr.n), endpoint=True)
    edge = rng.random(c.shape) < 0.25
    sign = rng.choice([-1, 1], c.shape)
    c = np.where(edge, np.where(sign > 0, I32_MAX - rng.integers(0, 40, c.shape),
                                I32_MIN + rng.integers(0, 40, c.shape)), c)
    return dense, b, c.astype(np.int32), value[sgn_a](dense), value[sgn_b](b)


def _wrap(x):
    return (x - I32_MIN) % (1 << 32) + I32_MIN


@pytest.mark.parametrize("arch, name", INT_CASES, ids=[f"{a}-{n}" for a, n in INT_CASES])
def test_integer_builtin_vs_exact_product(arch, name):
    """Integer builtins: D = dense(A) @ B + C in int64, wrapped mod 2**32 (gfx9 i8; gfx12
    without clamp) or saturated to int32 (gfx12 clamp), for every sign-flag combination."""
    instr = amdgcn.instruction(name, arch)
    rng = np.random.default_rng([zlib.crc32(name.encode()), len(arch)])
    flags = [(True, True, False)] if "sgn_a" not in instr.args else [
        (sa, sb, cl) for sa in (True, False) for sb in (True, False) for cl in (False, True)]
    for sgn_a, sgn_b, clamp in flags:
        dense, b, c, a_val, b_val = _int_operands(rng, instr, sgn_a, sgn_b)
        exact = a_val @ b_val + c.astype(np.int64)
        assert (exact > I32_MAX).any() or (exact < I32_MIN).any()  # the limits are reached
        want = np.clip(exact, I32_MIN, I32_MAX) if clamp else _wrap(exact)
        mods = dict(sgn_a=sgn_a, sgn_b=sgn_b, clamp=clamp) if "sgn_a" in instr.args else {}
        d = run(arch, name, compress_4to2(dense), b, c, **mods)
        np.testing.assert_array_equal(d.astype(np.int64), want,
                                      err_msg=f"sgn_a={sgn_a} sgn_b={sgn_b} clamp={clamp}")


# ---- gather form: distinct indices, unselected Inf/NaN, duplicates --------------------------


def test_dense_reconstruction_equals_gather_form():
    """With distinct indices (compress_4to2's form) the dense reference and the gather form
    agree element for element, and the builtin gives both (smfmac f16 on gfx942)."""
    arch, name = "gfx942", "smfmac_f32_32x32x16_f16"
    rng = np.random.default_rng(5)
    instr = amdgcn.instruction(name, arch)
    dense, b, c = float_operands(rng, instr, wide=False)
    packed = compress_4to2(dense)
    ij = [(i, j) for i in range(instr.m) for j in range(instr.n)]
    want = dense_reference(dense, b, c, ij)
    assert same_floats(gather_reference(packed.values, packed.indices, b, c, ij), want)
    assert same_floats(run(arch, name, packed, b, c).ravel(), want)


@pytest.mark.parametrize("arch, name", [("gfx942", "smfmac_f32_16x16x32_bf16"),
                                        ("gfx1201", "swmmac_f32_16x16x32_f16_w32"),
                                        ("gfx1201", "swmmac_f16_16x16x32_f16_w64")])
def test_unselected_b_rows_with_inf_and_nan_do_not_contribute(arch, name):
    """No index ever selects position 3 of a group, and those B rows hold Inf/NaN: D is the
    finite gather form (the dense reconstruction would give 0*Inf = NaN; sparse.md §2.5)."""
    rng = np.random.default_rng(6)
    instr = amdgcn.instruction(name, arch)
    dense, b, c = float_operands(rng, instr, wide=False)
    dense[:, 3::4] = 0
    dense[:, 2::4] = np.where(dense[:, 2::4] == 0, dense[:, 0::4], dense[:, 2::4])
    dense[:, 0::4] = np.where((dense[:, 1::4] != 0) & (dense[:, 2::4] != 0), 0, dense[:, 0::4])
    packed = compress_4to2(dense)
    assert packed.indices.max() <= 2
    b[3::4] = np.where(rng.random(b[3::4].shape) < 0.5, np.inf, np.nan).astype(b.dtype)
    d = run(arch, name, packed, b, c)
    ij = [(i, j) for i in range(instr.m) for j in range(instr.n)]
    assert np.isfinite(d.astype(np.float64)).all()
    assert same_floats(d.ravel(), gather_reference(packed.values, packed.indices, b, c, ij))


@pytest.mark.parametrize("arch, name", [("gfx950", "smfmac_f32_16x16x64_f16"),
                                        ("gfx1201", "swmmac_f32_16x16x32_bf16_w64")])
def test_duplicate_indices_use_the_same_b_row_twice(arch, name):
    """A group whose two indices are equal (p, p) multiplies both stored values by B row
    4g+p: D = C + (v0 + v1) * B[4g+p] exactly, rounded once (gather form)."""
    rng = np.random.default_rng(7)
    instr = amdgcn.instruction(name, arch)
    dense, b, c = float_operands(rng, instr, wide=False)
    packed = compress_4to2(np.where(dense == 0, dense.dtype.type(1.5), dense)
                           * (np.arange(instr.k) % 4 < 2))  # every group full: values (x, y)
    dup = rng.integers(0, 4, (instr.m, instr.a_k // 2)).repeat(2, axis=1).astype(np.uint8)
    rows = 4 * (np.arange(instr.a_k) // 2) + dup
    d = run(arch, name, Compressed(packed.values, dup), b, c)
    ij = [(i, j) for i in range(instr.m) for j in range(instr.n)]
    want = np.array([round_nearest_even(exact_dot(packed.values[i], b[rows[i], j], c[i, j]),
                                        c.dtype) for i, j in ij], c.dtype)
    assert same_floats(d.ravel(), want)
    assert same_floats(d.ravel(), gather_reference(packed.values, dup, b, c, ij))


# ---- both engines -----------------------------------------------------------------------


def sparse_kernel(name: str, arch: str):
    """A kernel: each lane loads its A, B, C registers and index word from global memory at
    (global thread id) * slots, calls `name`, and stores its D registers the same way."""
    instr = amdgcn.instruction(name, arch)
    sa, sb, sc = instr.a_layout.slots, instr.b_layout.slots, instr.c_layout().slots
    gfx9 = "cbsz" in instr.args

    @kernel
    def body(a, b, c, index, d):
        t = blockIdx.x * blockDim.x + threadIdx.x
        av = np.stack([a[t * sa + s] for s in range(sa)], axis=1)
        bv = np.stack([b[t * sb + s] for s in range(sb)], axis=1)
        cv = np.stack([c[t * sc + s] for s in range(sc)], axis=1)
        fn = getattr(amdgcn, name)
        out = fn(av, bv, cv, index[t], 0, 0) if gfx9 else fn(av, bv, cv, index[t])
        for s in range(sc):
            d[t * sc + s] = out[:, s]

    return body


@pytest.mark.parametrize("arch, name", [("gfx942", "smfmac_f32_16x16x32_f16"),
                                        ("gfx1201", "swmmac_f32_16x16x32_f16_w32")])
def test_kernel_on_both_engines(arch, name):
    """6 waves (3 blocks of 2) with different data each: the batched engine and the per-wave
    engine give the same bits, every wave's D equals the exact reference, and the batched
    launch ran no block per wave."""
    instr = amdgcn.instruction(name, arch)
    lanes, grid, per_block = instr.wave, 3, 2
    rng = np.random.default_rng(8)
    cases = [float_operands(rng, instr, wide=False) for _ in range(grid * per_block)]
    regs = [(*compress_4to2(a).registers(name, arch), to_regs(instr.b_layout, b),
             to_regs(instr.c_layout(), c)) for a, b, c in cases]
    a_mem, idx_mem, b_mem, c_mem = (np.concatenate([r[n].ravel() for r in regs])
                                    for n in range(4))
    out = {}
    for engine in ("wave", "batch"):
        d_mem = np.zeros_like(c_mem)
        with use_engine(engine):
            sparse_kernel(name, arch)[grid, lanes * per_block, 0, arch](
                a_mem, b_mem, c_mem, idx_mem, d_mem)
        out[engine] = d_mem
        if engine == "batch":
            assert last_launch_stats().per_wave_blocks == 0
    assert out["wave"].tobytes() == out["batch"].tobytes()
    d_regs = out["batch"].reshape(len(cases), lanes, -1)
    ij = [(i, j) for i in range(instr.m) for j in range(instr.n)]
    for w, (a, b, c) in enumerate(cases):
        d = from_regs(instr.c_layout(), d_regs[w])
        assert same_floats(d.ravel(), dense_reference(a, b, c, ij)), f"wave {w}"


def test_w64_form_in_a_wave32_kernel_fails_alike_on_both_engines():
    """gfx1201 launches are wave32, so a `_w64` sparse builtin fed per-lane operands inside a
    kernel gets 32 lanes; both engines refuse it with the same OperandShapeError (the w64
    forms are covered on the host above)."""
    name, arch = "swmmac_f32_16x16x32_f16_w64", "gfx1201"
    errors = set()
    for engine in ("wave", "batch"):
        mem = [np.zeros(n, dt) for n, dt in ((512, np.float16), (1024, np.float16),
                                             (512, np.float32), (128, np.int32),
                                             (512, np.float32))]
        with use_engine(engine), pytest.raises(OperandShapeError) as err:
            sparse_kernel(name, arch)[2, 64, 0, arch](*mem)
        errors.add(str(err.value))
    assert len(errors) == 1 and "shape (64, ...)" in errors.pop()


# ---- modifiers and the index operand -------------------------------------------------------


def _sets_case(arch, name, seed=9):
    """Compressed A with a different valid index pattern in every set; returns (a_regs, the
    whole index word, [Compressed of each set], B, C)."""
    rng = np.random.default_rng(seed)
    instr = amdgcn.instruction(name, arch)
    dense, b, c = float_operands(rng, instr, wide=False) if not instr.integer else (
        random_42(rng, (instr.m, instr.k), T.storage_dtype(instr.a_type), low=-7, high=7),
        rng.integers(-7, 7, (instr.k, instr.n)).astype(T.storage_dtype(instr.b_type)),
        rng.integers(-99, 99, (instr.m, instr.n)).astype(np.int32))
    values = compress_4to2(dense).values
    pairs = np.array([(p, q) for p in range(4) for q in range(p + 1, 4)], np.uint8)
    packs, word = [], np.zeros(instr.a_layout.lanes, np.uint32)
    for s in range(instr.index_sets):
        pick = pairs[rng.integers(0, 6, (instr.m, instr.a_k // 2))].reshape(instr.m, -1)
        packs.append(Compressed(values, pick))
        a_regs, w = packs[-1].registers(name, arch, s)
        word |= w.view(np.uint32)
    return a_regs, word.view(np.int32), packs, b, c


def _expected(packed, b, c):
    if c.dtype.kind == "i":
        return (packed.dense().astype(np.int64) @ b.astype(np.int64) + c).astype(np.int32)
    ij = [(i, j) for i in range(c.shape[0]) for j in range(c.shape[1])]
    return gather_reference(packed.values, packed.indices, b, c, ij).reshape(c.shape)


def _call_regs(arch, name, a_regs, index, b, c, **mods):
    instr = amdgcn.instruction(name, arch)
    d = call(arch, name, a_regs, to_regs(instr.b_layout, b), to_regs(instr.c_layout(), c),
             index, **mods)
    return from_regs(instr.c_layout(), np.asarray(d))


@pytest.mark.parametrize("arch, name", [("gfx942", "smfmac_f32_16x16x32_f16"),
                                        ("gfx942", "smfmac_i32_32x32x32_i8"),
                                        ("gfx950", "smfmac_f32_32x32x32_bf16")])
def test_cbsz_abid_pick_the_index_set(arch, name):
    """cbsz=0: abid picks the set; cbsz 1..3: set 0 whatever abid (0..3) says (sparse.md
    §2.2). Every set holds a different pattern, so the wrong set gives a different D."""
    instr = amdgcn.instruction(name, arch)
    a_regs, word, packs, b, c = _sets_case(arch, name)
    results = []
    for s in range(instr.index_sets):
        d = _call_regs(arch, name, a_regs, word, b, c, cbsz=0, abid=s)
        np.testing.assert_array_equal(d, _expected(packs[s], b, c), err_msg=f"abid={s}")
        results.append(d)
    assert not all(np.array_equal(results[0], r) for r in results[1:])
    for cbsz in (1, 2, 3):
        for abid in range(4):
            d = _call_regs(arch, name, a_regs, word, b, c, cbsz=cbsz, abid=abid)
            np.testing.assert_array_equal(d, results[0], err_msg=f"cbsz={cbsz} abid={abid}")


@pytest.mark.parametrize("arch, name", [("gfx942", "smfmac_f32_16x16x32_f16"),
                                        ("gfx942", "smfmac_f32_16x16x64_fp8_bf8"),
                                        ("gfx950", "smfmac_i32_16x16x128_i8")])
def test_out_of_range_cbsz_abid_are_refused(arch, name):
    """abid >= index_sets with cbsz=0, and cbsz=4, raise ModifierError naming the range."""
    instr = amdgcn.instruction(name, arch)
    a_regs, word, _, b, c = _sets_case(arch, name)
    sets = instr.index_sets
    with pytest.raises(ModifierError, match=re.escape(f"abid={sets} is not allowed")) as err:
        _call_regs(arch, name, a_regs, word, b, c, cbsz=0, abid=sets)
    assert (f"0..{sets - 1}" if sets > 1 else "0 only") in str(err.value)
    with pytest.raises(ModifierError, match=r"cbsz=4 is not allowed \(allowed: .*0\.\.3\)"):
        _call_regs(arch, name, a_regs, word, b, c, cbsz=4, abid=0)


BAD_INDEX = [
    (lambda lanes: np.zeros(lanes, np.float32), OperandTypeError, "float32"),
    (lambda lanes: np.zeros((lanes, 2), np.int32), OperandShapeError, "one 32-bit int per lane"),
    (lambda lanes: np.full(lanes, 2**32, np.int64), OperandTypeError, "outside 32 bits"),
    (lambda lanes: np.full(lanes, -(2**31) - 1, np.int64), OperandTypeError, "outside 32 bits"),
    (lambda lanes: np.zeros(lanes + 1, np.int32), OperandShapeError, "one 32-bit int per lane"),
]


@pytest.mark.parametrize("arch, name", [("gfx942", "smfmac_f32_16x16x32_bf16"),
                                        ("gfx1201", "swmmac_i32_16x16x32_iu4_w64")])
@pytest.mark.parametrize("make, error, words", BAD_INDEX,
                         ids=["floats", "two-per-lane", "2**32", "below-int32", "lanes+1"])
def test_bad_index_operand_is_refused_naming_it(arch, name, make, error, words):
    """A float, 2-per-lane, wrong-lane-count or over-32-bit index raises OperandTypeError or
    OperandShapeError whose message names the operand `index`."""
    instr = amdgcn.instruction(name, arch)
    a_regs, _, _, b, c = _sets_case(arch, name)
    with pytest.raises(error, match=r"operand index") as err:
        _call_regs(arch, name, a_regs, make(instr.a_layout.lanes), b, c)
    assert words in str(err.value)


@pytest.mark.parametrize("arch, name", [("gfx942", "smfmac_f32_16x16x32_f16"),
                                        ("gfx1201", "swmmac_i32_16x16x32_iu8_w32")])
def test_index_minus_one_and_uniform_ints(arch, name):
    """index=-1 (C's int) reads as 0xffffffff (every index 3, a duplicate pair); a uniform
    Python int goes to every lane, the same as a per-lane array of it."""
    instr = amdgcn.instruction(name, arch)
    lanes = instr.a_layout.lanes
    a_regs, _, packs, b, c = _sets_case(arch, name)
    per_lane = np.full(lanes, 0xFFFFFFFF, np.uint32)
    d = _call_regs(arch, name, a_regs, -1, b, c)
    np.testing.assert_array_equal(d, _call_regs(arch, name, a_regs, per_lane, b, c))
    np.testing.assert_array_equal(d, _call_regs(arch, name, a_regs, np.full(lanes, -1), b, c))
    threes = Compressed(packs[0].values, np.full_like(packs[0].indices, 3))
    ij = [(i, j) for i in range(instr.m) for j in range(instr.n)]
    if instr.integer:
        rows = 4 * (np.arange(instr.a_k) // 2) + 3
        want = np.einsum("ik,ikj->ij", threes.values.astype(np.int64),
                         b.astype(np.int64)[rows][None].repeat(instr.m, 0)) + c
        np.testing.assert_array_equal(d, want)
    else:
        assert same_floats(d.ravel(), gather_reference(threes.values, threes.indices, b, c, ij))
    pattern = 0x4E1B6C93  # any word below 2**31 (an int32 array holds it too)
    np.testing.assert_array_equal(
        _call_regs(arch, name, a_regs, pattern, b, c),
        _call_regs(arch, name, a_regs, np.full(lanes, pattern, np.int32), b, c))
