"""HIP atomics (runtime/atomics.py) against an independent sequential reference.

The reference is plain Python over the lanes in the documented order (blocks in order, the
waves of a block in index order between barriers, lanes in lane order): Python integers
wrapped to the element width, floats added exactly (Fraction) and rounded once to the
element type (round half to even, subnormals, overflow to inf). Every kernel runs on both
engines; results and returned old values must match the reference bit for bit.
"""

from __future__ import annotations

import importlib
import struct
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

import rocwmma_py
from rocwmma_py import (
    AtomicError,
    AtomicTypeError,
    OutOfBoundsError,
    UnsupportedInstructionError,
    blockDim,
    blockIdx,
    kernel,
    lane_id,
    shared_array,
    synchronize_workgroup,
    threadIdx,
    wave_size,
    where,
)
from rocwmma_py import cuda as hip_cuda
from rocwmma_py.runtime import NotInKernelError, last_launch_stats, use_engine
from rocwmma_py.runtime import atomics as atomics_module

pytestmark = pytest.mark.smoke

BF16 = np.dtype(ml_dtypes.bfloat16)
I32, U32, I64, U64 = (np.dtype(t) for t in (np.int32, np.uint32, np.int64, np.uint64))
F16, F32, F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
ARCHS = {"gfx942": 64, "gfx1100": 32}  # wave64 and wave32
BLOCKS, WAVES = 3, 2  # every test grid: 3 blocks of 2 waves

# HIP's overloads (amd_hip_atomic.h / the HIP atomics table), stated independently
OVERLOADS = {
    "atomicAdd": (I32, U32, U64, F32, F64),
    "atomicSub": (I32, U32, U64, F32, F64),
    "atomicExch": (I32, U32, U64, F32, F64),
    "atomicMin": (I32, U32, I64, U64, F32, F64),
    "atomicMax": (I32, U32, I64, U64, F32, F64),
    "atomicCAS": (I32, U32, U64, F32, F64),
    "atomicAnd": (I32, U32, U64),
    "atomicOr": (I32, U32, U64),
    "atomicXor": (I32, U32, U64),
    "atomicInc": (U32,),
    "atomicDec": (U32,),
}
CASES = [(op, t) for op, ts in OVERLOADS.items() for t in ts]

# --- the reference ---------------------------------------------------------------------------

FORMATS = {F16: (11, -14, 15), BF16: (8, -126, 127), F32: (24, -126, 127), F64: (53, -1022, 1023)}


def round_exact(x: Fraction, dtype: np.dtype) -> float:
    """x rounded to nearest even in `dtype` (precision p, exponents emin..emax), as a float."""
    p, emin, emax = FORMATS[dtype]
    if x == 0:
        return 0.0
    sign, mag = (-1.0 if x < 0 else 1.0), abs(x)
    e = mag.numerator.bit_length() - mag.denominator.bit_length()
    if Fraction(2) ** e > mag:
        e -= 1
    e = max(e, emin)  # subnormals share the smallest exponent
    quantum = Fraction(2) ** (e - p + 1)
    n = round(mag / quantum)  # Fraction rounds half to even
    value = n * quantum
    if value >= Fraction(2) ** (emax + 1):
        return sign * float("inf")
    return sign * float(value)


def float_add(a: float, b: float, dtype: np.dtype) -> float:
    """IEEE a + b in `dtype` (finite operands): exact sum, one rounding; an exact zero is
    -0 only when both operands are -0."""
    exact = Fraction(a) + Fraction(b)
    if exact == 0:
        both_negative = np.signbit(a) and np.signbit(b)
        return -0.0 if both_negative else 0.0
    return round_exact(exact, dtype)


def wrap(x: int, dtype: np.dtype) -> int:
    bits = dtype.itemsize * 8
    if dtype.kind == "u":
        return x % 2**bits
    return (x + 2 ** (bits - 1)) % 2**bits - 2 ** (bits - 1)


def bits_of(x: float, dtype: np.dtype) -> int:
    code = {F16: "<e", F32: "<f", F64: "<d"}[dtype]
    return int.from_bytes(struct.pack(code, x), "little")


def step(op: str, dtype: np.dtype, old, val, cmp=None):
    """One atomic on the Python value `old`, per HIP's definition."""
    is_float = dtype.kind == "f" or dtype == BF16
    if op == "atomicAdd":
        return float_add(old, val, dtype) if is_float else wrap(old + val, dtype)
    if op == "atomicSub":
        return float_add(old, -val, dtype) if is_float else wrap(old - val, dtype)
    if op == "atomicExch":
        return val
    if op == "atomicMax":
        return (val if old < val else old) if is_float else max(old, val)
    if op == "atomicMin":
        return (val if old > val else old) if is_float else min(old, val)
    if op == "atomicCAS":
        same = bits_of(old, dtype) == bits_of(cmp, dtype) if is_float else old == cmp
        return val if same else old
    if op == "atomicAnd":
        return wrap(old & val, dtype)
    if op == "atomicOr":
        return wrap(old | val, dtype)
    if op == "atomicXor":
        return wrap(old ^ val, dtype)
    if op == "atomicInc":
        return 0 if old >= val else old + 1
    assert op == "atomicDec"
    return val if old == 0 or old > val else old - 1


def sequential(op, dtype, start, sequence):
    """(old values, final value) of applying (val, cmp) pairs one after another."""
    olds, value = [], start
    for val, cmp in sequence:
        olds.append(value)
        value = step(op, dtype, value, val, cmp)
    return olds, value


def py(values: np.ndarray) -> list:
    """numpy values as Python ints / floats (bfloat16 through float64, exactly)."""
    if values.dtype == BF16:
        values = values.astype(np.float64)
    return values.tolist()


def as_dtype(values: list, dtype: np.dtype) -> np.ndarray:
    if dtype == BF16:
        return np.array(values, np.float64).astype(BF16)  # exact: values are bf16 numbers
    return np.array(values, dtype)


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


# --- data ------------------------------------------------------------------------------------


def operands(op: str, dtype: np.dtype, n: int, seed: int = 0):
    """(initial value, values, compares) for n lanes: full-range integers where wrapping
    shows, small ranges where the op needs hits (CAS, Inc/Dec), floats of 17 binades
    (so the order changes the rounding), signed zeros and NaN for Max/Min/CAS."""
    rng = np.random.default_rng(seed)
    cmps = None
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        if op == "atomicCAS":
            vals = rng.integers(0, 4, n).astype(dtype)
            cmps = rng.integers(0, 4, n).astype(dtype)
            return dtype.type(0), vals, cmps
        if op in ("atomicInc", "atomicDec"):
            return dtype.type(3), rng.integers(0, 6, n).astype(dtype), None
        vals = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
        start = rng.integers(info.min, info.max, dtype=dtype, endpoint=True)
        return dtype.type(start), vals, None
    if op == "atomicCAS":
        pool = np.array([0.0, -0.0, 1.0, 2.0, np.nan], dtype)
        vals, cmps = pool[rng.integers(0, 5, n)], pool[rng.integers(0, 5, n)]
        return dtype.type(0), vals, cmps
    lo, hi = (-6, 4) if dtype in (F16, BF16) else (-8, 8)
    mant = rng.uniform(1, 2, n) * rng.choice([-1.0, 1.0], n)
    vals = as_dtype((mant * 2.0 ** rng.integers(lo, hi + 1, n)).tolist(), dtype)
    if op in ("atomicMax", "atomicMin"):
        vals[rng.choice(n, 6, replace=False)] = [0.0, -0.0, np.nan, 0.0, -0.0, np.nan]
    return dtype.type(0), vals, cmps


# --- kernels ---------------------------------------------------------------------------------


def global_kernel(op: str, naddr: int):
    """Every lane of every block calls `op` once; naddr = 1: all on element 0 (a uniform
    address), else on element gid % naddr (per-lane addresses)."""
    fn = getattr(rocwmma_py, op)

    @kernel
    def contend(target, vals, cmps, olds):
        gid = blockIdx.x * blockDim.x + threadIdx.x
        address = target + 0 if naddr == 1 else target + gid % naddr
        if op == "atomicCAS":
            olds[gid] = fn(address, cmps[gid], vals[gid])
        else:
            olds[gid] = fn(address, vals[gid])

    return contend


def lds_kernel(op: str, dtype: np.dtype):
    """Every lane of a block calls `op` on one LDS element, which starts at init[0]; the
    block's final value goes to final[blockIdx.x]."""
    fn = getattr(rocwmma_py, op)

    @kernel
    def contend_lds(init, vals, cmps, olds, final):
        s = shared_array(dtype, 2)
        tid = threadIdx.x
        with where(tid == 0):
            s[tid] = init[0]
        synchronize_workgroup()
        gid = blockIdx.x * blockDim.x + tid
        if op == "atomicCAS":
            olds[gid] = fn(s + 0, cmps[gid], vals[gid])
        else:
            olds[gid] = fn(s + 0, vals[gid])
        synchronize_workgroup()
        with where(tid == 0):
            final[blockIdx.x] = s[tid]

    return contend_lds


def on_both_engines(launch, buffers):
    """{engine: (output copies, launch stats)}."""
    out = {}
    for engine in ("wave", "batch"):
        copies = [b.copy() for b in buffers]
        with use_engine(engine):
            launch(*copies)
        out[engine] = (copies, last_launch_stats())
    return out


def errors_on_both_engines(launch, buffers):
    """{engine: (output copies, (exception type, message))}."""
    out = {}
    for engine in ("wave", "batch"):
        copies = [b.copy() for b in buffers]
        with use_engine(engine), pytest.raises(Exception) as info:
            launch(*copies)
        out[engine] = (copies, (info.type, str(info.value)))
    return out


# --- contended addresses: every op and type, both engines, wave32/64, global and LDS ---------


@pytest.mark.parametrize("arch", list(ARCHS))
@pytest.mark.parametrize(("op", "dtype"), CASES, ids=[f"{o}-{t}" for o, t in CASES])
def test_global_contended(op, dtype, arch):
    lanes = BLOCKS * WAVES * ARCHS[arch]
    start, vals, cmps = operands(op, dtype, lanes)
    sequence = list(zip(py(vals), py(cmps) if cmps is not None else [None] * lanes, strict=True))
    olds_ref, final_ref = sequential(op, dtype, py(np.array([start]))[0], sequence)
    target = np.array([start, 7, 7], dtype)  # elements 1 and 2 must stay untouched
    bufs = [target, vals, cmps if cmps is not None else vals, np.zeros(lanes, dtype)]
    launch = global_kernel(op, 1)[BLOCKS, WAVES * ARCHS[arch], 0, arch]
    for engine, (out, stats) in on_both_engines(launch, bufs).items():
        assert same_bits(out[0], as_dtype([final_ref, 7, 7], dtype)), engine
        assert same_bits(out[3], as_dtype(olds_ref, dtype)), engine
        if engine == "batch":  # one call per address: the whole grid stays one batch
            assert stats.per_wave_blocks == 0 and stats.batched_blocks == BLOCKS


@pytest.mark.parametrize("arch", list(ARCHS))
@pytest.mark.parametrize(("op", "dtype"), CASES, ids=[f"{o}-{t}" for o, t in CASES])
def test_lds_contended(op, dtype, arch):
    width = ARCHS[arch]
    per_block = WAVES * width
    start, vals, cmps = operands(op, dtype, BLOCKS * per_block, seed=1)
    finals, olds = [], []
    for b in range(BLOCKS):  # every block has its own LDS, starting from `start`
        part = slice(b * per_block, (b + 1) * per_block)
        pairs = zip(py(vals[part]), py(cmps[part]) if cmps is not None else [None] * per_block,
                    strict=True)
        o, f = sequential(op, dtype, py(np.array([start]))[0], list(pairs))
        olds += o
        finals.append(f)
    bufs = [np.array([start], dtype), vals, cmps if cmps is not None else vals,
            np.zeros(BLOCKS * per_block, dtype), np.zeros(BLOCKS, dtype)]
    launch = lds_kernel(op, dtype)[BLOCKS, per_block, 0, arch]
    for engine, (out, stats) in on_both_engines(launch, bufs).items():
        assert same_bits(out[4], as_dtype(finals, dtype)), engine
        assert same_bits(out[3], as_dtype(olds, dtype)), engine
        if engine == "batch":
            assert stats.per_wave_blocks == 0


@pytest.mark.parametrize("op", ["atomicAdd", "atomicMax", "atomicCAS", "atomicInc"])
def test_several_hot_addresses(op):
    """Per-lane addresses, three hot elements: each gets its lanes in order."""
    dtype = {"atomicAdd": F32, "atomicMax": F64, "atomicCAS": U64, "atomicInc": U32}[op]
    arch, naddr = "gfx1100", 3
    lanes = BLOCKS * WAVES * ARCHS[arch]
    start, vals, cmps = operands(op, dtype, lanes, seed=2)
    olds, finals = [None] * lanes, []
    for a in range(naddr):
        idx = list(range(a, lanes, naddr))
        pairs = [(py(vals[i:i + 1])[0], None if cmps is None else py(cmps[i:i + 1])[0])
                 for i in idx]
        o, f = sequential(op, dtype, py(np.array([start]))[0], pairs)
        for i, v in zip(idx, o, strict=True):
            olds[i] = v
        finals.append(f)
    bufs = [np.full(naddr, start, dtype), vals, cmps if cmps is not None else vals,
            np.zeros(lanes, dtype)]
    launch = global_kernel(op, naddr)[BLOCKS, WAVES * ARCHS[arch], 0, arch]
    for engine, (out, _) in on_both_engines(launch, bufs).items():
        assert same_bits(out[0], as_dtype(finals, dtype)), engine
        assert same_bits(out[3], as_dtype(olds, dtype)), engine


def test_nan_in_memory_stays_for_float_max_min():
    """HIP's float atomicMax/Min store val only if old < val / old > val: a NaN stays."""
    for op in ("atomicMax", "atomicMin"):
        vals = np.linspace(-3, 3, 2 * 64).astype(np.float32)
        target = np.array([np.nan], np.float32)
        launch = global_kernel(op, 1)[2, 64, 0, "gfx942"]
        for engine, (out, _) in on_both_engines(launch, [target, vals, vals,
                                                          np.zeros(128, np.float32)]).items():
            assert np.isnan(out[0][0]) and np.isnan(out[3]).all(), (op, engine)


@pytest.mark.parametrize("op", ["atomicMax", "atomicMin"])
@pytest.mark.parametrize("start", [0.0, -0.0])
def test_signed_zeros_keep_the_old_one(op, start):
    """Of -0 and +0 the value in memory stays (neither is < the other); NaN values never
    store. Long runs (a batch: 256 lanes on one address) and short ones (per wave)."""
    pool = np.array([0.0, -0.0, np.nan, -0.0, 0.0], np.float64)
    vals = pool[np.random.default_rng(12).integers(0, 5, 4 * 64)]
    vals[100] = -1.0 if op == "atomicMin" else 1.0  # one value that does win, later on
    olds_ref, final_ref = sequential(op, F64, start, [(v, None) for v in vals.tolist()])
    launch = global_kernel(op, 1)[4, 64, 0, "gfx942"]
    bufs = [np.array([start], np.float64), vals, vals, np.zeros(vals.size, np.float64)]
    for engine, (out, _) in on_both_engines(launch, bufs).items():
        assert same_bits(out[0], np.array([final_ref])), engine
        assert same_bits(out[3], np.array(olds_ref)), engine


# --- the order is observable: f32 addition is not associative --------------------------------


@pytest.mark.parametrize("arch", list(ARCHS))
def test_float_add_order_is_the_documented_one(arch):
    lanes = BLOCKS * WAVES * ARCHS[arch]
    vals = np.ones(lanes, np.float32)
    vals[0], vals[-1] = 2.0**24, -(2.0**24)  # 2**24 + 1 rounds back to 2**24 (ties to even)
    sequence = [(v, None) for v in vals.tolist()]
    olds_ref, final_ref = sequential("atomicAdd", F32, 0.0, sequence)
    _, reversed_final = sequential("atomicAdd", F32, 0.0, sequence[::-1])
    assert final_ref == 0.0 and reversed_final == lanes - 2  # the order matters
    launch = global_kernel("atomicAdd", 1)[BLOCKS, WAVES * ARCHS[arch], 0, arch]
    bufs = [np.zeros(3, np.float32), vals, vals, np.zeros(lanes, np.float32)]
    for engine, (out, _) in on_both_engines(launch, bufs).items():
        assert out[0][0] == 0.0, engine
        assert same_bits(out[3], np.array(olds_ref, np.float32)), engine


# --- where() masks and bounds ----------------------------------------------------------------


def test_masked_lanes_do_nothing_and_return_zero():
    @kernel
    def masked(target, olds):
        gid = blockIdx.x * blockDim.x + threadIdx.x
        with where(gid % 3 != 1):
            old = rocwmma_py.atomicAdd(target + 0, gid + 1)
        olds[gid] = old

    lanes = BLOCKS * WAVES * 64
    active = [g for g in range(lanes) if g % 3 != 1]
    olds_ref, final_ref = sequential("atomicAdd", I32, 0, [(g + 1, None) for g in active])
    expect = np.zeros(lanes, np.int32)
    expect[active] = olds_ref
    launch = masked[BLOCKS, WAVES * 64, 0, "gfx942"]
    for engine, (out, _) in on_both_engines(launch, [np.zeros(1, np.int32),
                                                     np.full(lanes, -5, np.int32)]).items():
        assert out[0][0] == final_ref, engine
        assert same_bits(out[1], expect), engine  # inactive lanes got 0


def test_out_of_bounds_writes_nothing():
    @kernel
    def past_end(target):
        rocwmma_py.atomicAdd(target + threadIdx.x, 1)

    results = errors_on_both_engines(past_end[1, 64, 0, "gfx942"], [np.zeros(60, np.int32)])
    (wave_out, wave_err), (batch_out, batch_err) = results["wave"], results["batch"]
    assert wave_err == batch_err and wave_err[0] is OutOfBoundsError
    assert "atomicAdd of buffer 'target'" in wave_err[1] and "60 by lane 60" in wave_err[1]
    assert not wave_out[0].any() and not batch_out[0].any()


@pytest.mark.parametrize("initialised", [True, False])
def test_initcheck_sees_atomics_on_unwritten_lds(initialised):
    """An atomic reads LDS: on never-written LDS initcheck reports it; it also counts as a
    write for later reads."""
    @kernel
    def count(out):
        s = shared_array(np.int32, 1)
        if initialised:
            with where(threadIdx.x == 0):
                s[0] = 5
            synchronize_workgroup()
        rocwmma_py.atomicAdd(s + 0, 1)
        synchronize_workgroup()
        out[blockIdx.x] = s[0]

    for engine in ("wave", "batch"):
        out = np.zeros(2, np.int32)
        launch = count[2, 128, 0, "gfx942"].checked(initcheck=True)
        with use_engine(engine):
            if initialised:
                launch(out)
                assert out.tolist() == [5 + 128, 5 + 128], engine
            else:
                with pytest.raises(rocwmma_py.InitCheckError, match="lds"):
                    launch(out)


# --- the batched engine's fallbacks and undo -------------------------------------------------


def test_error_after_atomics_leaves_the_per_wave_memory():
    """Blocks 2 and 3 fail after their atomic; the batch is undone and rerun wave by wave."""
    @kernel
    def fails_late(target, vals, olds):
        gid = blockIdx.x * blockDim.x + threadIdx.x
        old = rocwmma_py.atomicAdd(target + 0, vals[gid])
        olds[gid + (blockIdx.x // 2) * 100000] = old  # out of bounds from block 2 on

    lanes = 4 * 128
    _, vals, _ = operands("atomicAdd", F32, lanes, seed=3)
    results = errors_on_both_engines(fails_late[4, 128, 0, "gfx942"],
                                     [np.zeros(1, np.float32), vals, np.zeros(lanes, np.float32)])
    (wave_out, wave_err), (batch_out, batch_err) = results["wave"], results["batch"]
    assert wave_err == batch_err and wave_err[0] is OutOfBoundsError
    olds_ref, _ = sequential("atomicAdd", F32, 0.0, [(v, None) for v in vals.tolist()])
    # per-wave: blocks 0 and 1 done, block 2's first wave added before failing
    assert wave_out[0][0] == np.float32(olds_ref[2 * 128 + 64])
    for w, b in zip(wave_out, batch_out, strict=True):
        assert same_bits(w, b)


@pytest.mark.parametrize("branch", ["odd_first", "high_first"])
def test_split_groups_out_of_block_order_rerun(branch):
    """A branch on blockIdx splits the batch and its groups run one after another, in the
    order of their first block: {0, 2} before {1, 3} meets block 2 before block 1, so atomics
    on one address rerun the batch wave by wave; {0, 1} before {2, 3} is block order and
    stays batched."""
    @kernel
    def split(target, vals, olds):
        gid = blockIdx.x * blockDim.x + threadIdx.x
        # groups run in the order of the branch value: False first
        cond = blockIdx.x % 2 == 0 if branch == "odd_first" else blockIdx.x < 2
        if cond:
            olds[gid] = rocwmma_py.atomicAdd(target + 0, vals[gid])
        else:
            olds[gid] = rocwmma_py.atomicAdd(target + 0, vals[gid])

    lanes = 4 * 64
    _, vals, _ = operands("atomicAdd", F32, lanes, seed=4)
    olds_ref, final_ref = sequential("atomicAdd", F32, 0.0, [(v, None) for v in vals.tolist()])
    launch = split[4, 64, 0, "gfx942"]
    outs = on_both_engines(launch, [np.zeros(1, np.float32), vals, np.zeros(lanes, np.float32)])
    for engine, (out, _) in outs.items():
        assert out[0][0] == np.float32(final_ref), engine
        assert same_bits(out[2], np.array(olds_ref, np.float32)), engine
    stats = outs["batch"][1]
    assert stats.splits >= 1
    assert stats.per_wave_blocks == (4 if branch == "odd_first" else 0)


def test_split_groups_in_block_order_stay_batched():
    @kernel
    def split(target, vals, olds):
        gid = blockIdx.x * blockDim.x + threadIdx.x
        if blockIdx.x >= 2:  # False (blocks 0, 1) runs first: block order
            olds[gid] = rocwmma_py.atomicAdd(target + 0, vals[gid])
        else:
            olds[gid] = rocwmma_py.atomicAdd(target + 0, vals[gid])

    lanes = 4 * 64
    _, vals, _ = operands("atomicAdd", F32, lanes, seed=5)
    olds_ref, final_ref = sequential("atomicAdd", F32, 0.0, [(v, None) for v in vals.tolist()])
    outs = on_both_engines(split[4, 64, 0, "gfx942"],
                           [np.zeros(1, np.float32), vals, np.zeros(lanes, np.float32)])
    for engine, (out, _) in outs.items():
        assert out[0][0] == np.float32(final_ref), engine
        assert same_bits(out[2], np.array(olds_ref, np.float32)), engine
    stats = outs["batch"][1]
    assert stats.splits == 1 and stats.per_wave_blocks == 0


@pytest.mark.parametrize(("blocks", "waves"), [(BLOCKS, WAVES), (1, 4)])
def test_two_calls_on_one_address_run_wave_by_wave(blocks, waves):
    """Wave 0 adds twice, then wave 1 twice (per-wave order): a batch cannot interleave
    that, so it reruns wave by wave (one block: the waves of a block; several blocks: also
    a lower block after a higher one)."""
    @kernel
    def twice(target, vals, olds):
        gid = blockIdx.x * blockDim.x + threadIdx.x
        olds[2 * gid] = rocwmma_py.atomicAdd(target + 0, vals[2 * gid])
        olds[2 * gid + 1] = rocwmma_py.atomicAdd(target + 0, vals[2 * gid + 1])

    width = 32
    lanes = blocks * waves * width
    _, vals, _ = operands("atomicAdd", F32, 2 * lanes, seed=6)
    sequence = []
    for wave in range(blocks * waves):  # waves in order; in each, call 1 then call 2
        for call in range(2):
            sequence += [2 * (wave * width + lane) + call for lane in range(width)]
    pairs = [(float(vals[i]), None) for i in sequence]
    olds_ref, final_ref = sequential("atomicAdd", F32, 0.0, pairs)
    expect = np.zeros(2 * lanes, np.float32)
    expect[sequence] = olds_ref
    outs = on_both_engines(twice[blocks, waves * width, 0, "gfx1100"],
                           [np.zeros(1, np.float32), vals, np.zeros(2 * lanes, np.float32)])
    for engine, (out, _) in outs.items():
        assert out[0][0] == np.float32(final_ref) and same_bits(out[2], expect), engine
    assert outs["batch"][1].per_wave_blocks == blocks


@pytest.mark.parametrize("barrier", [True, False])
def test_lds_calls_between_barriers(barrier):
    """Two LDS atomics per wave on one element: with a barrier between them the batch keeps
    (call 1 of every wave, then call 2); without, the per-wave order is wave 0's two calls
    first, which the batch gets by rerunning as wave groups (one wave of every block each,
    in turns between barriers), its blocks still batched."""
    @kernel
    def rounds(vals, olds, final):
        s = shared_array(np.uint32, 1)
        tid = threadIdx.x
        gid = blockIdx.x * blockDim.x + tid
        olds[2 * gid] = rocwmma_py.atomicInc(s + 0, vals[2 * gid])
        if barrier:
            synchronize_workgroup()
        olds[2 * gid + 1] = rocwmma_py.atomicInc(s + 0, vals[2 * gid + 1])
        synchronize_workgroup()
        with where(tid == 0):
            final[blockIdx.x] = s[0]

    width = 64
    per_block = WAVES * width
    vals = np.random.default_rng(7).integers(0, 40, 2 * BLOCKS * per_block).astype(np.uint32)
    expect, finals = np.zeros(vals.size, np.uint32), []
    for b in range(BLOCKS):
        sequence = []
        if barrier:
            for call in range(2):
                sequence += [2 * (b * per_block + t) + call for t in range(per_block)]
        else:
            for w in range(WAVES):
                for call in range(2):
                    sequence += [2 * (b * per_block + w * width + lane) + call
                                 for lane in range(width)]
        o, f = sequential("atomicInc", U32, 0, [(int(vals[i]), None) for i in sequence])
        expect[sequence] = o
        finals.append(f)
    outs = on_both_engines(rounds[BLOCKS, per_block, 0, "gfx942"],
                           [vals, np.zeros(vals.size, np.uint32), np.zeros(BLOCKS, np.uint32)])
    for engine, (out, _) in outs.items():
        assert same_bits(out[1], expect) and out[2].tolist() == finals, engine
    stats = outs["batch"][1]
    assert stats.per_wave_blocks == 0
    assert stats.wave_groups == (1 if barrier else WAVES)
    assert [f.kind for f in stats.fallbacks] == ([] if barrier else ["wave groups"])


@pytest.mark.parametrize("reads", ["none", "olds", "same epoch"])
def test_lds_histogram_loops_run_batched_in_wave_order(reads):
    """A block histogram in LDS (NVIDIA histogram256's shape): every wave adds to shared bins
    in a loop with no barrier between its calls, so the per-wave order is each wave's whole
    loop in turn. The batch reruns as wave groups (blocks still batched) and matches the
    per-wave engine bit for bit, the old values the atomics return and a plain read of the
    bins in the same epoch included; the bins also match numpy's bincount."""
    bins, rounds, waves, blocks = 16, 5, 4, 6

    @kernel
    def histogram(data, out, olds, seen):
        s = shared_array(np.uint32, bins)
        t = threadIdx.x
        with where(t < bins):
            s[t] = 0
        synchronize_workgroup()
        base = blockIdx.x * rounds * blockDim.x
        for k in range(rounds):
            i = base + k * blockDim.x + t
            old = rocwmma_py.atomicAdd(s + data[i] % bins, 1)
            if reads == "olds":
                olds[i] = old
        if reads == "same epoch":  # each wave sees the bins as the waves before it left them
            seen[blockIdx.x * blockDim.x + t] = s[t % bins]
        synchronize_workgroup()
        with where(t < bins):
            out[blockIdx.x * bins + t] = s[t]

    threads = waves * 64
    data = np.random.default_rng(11).integers(0, 1 << 20, blocks * rounds * threads)
    data = data.astype(np.uint32)
    buffers = [data, np.zeros(blocks * bins, np.uint32), np.zeros(data.size, np.uint32),
               np.zeros(blocks * threads, np.uint32)]
    outs = on_both_engines(histogram[blocks, threads, 0, "gfx942"], buffers)
    (wave_out, _), (batch_out, stats) = outs["wave"], outs["batch"]
    for want, got in zip(wave_out[1:], batch_out[1:], strict=True):
        np.testing.assert_array_equal(got, want)
    counts = np.stack([np.bincount(d % bins, minlength=bins)
                       for d in data.reshape(blocks, -1)]).reshape(-1)
    np.testing.assert_array_equal(batch_out[1], counts)
    assert stats.per_wave_blocks == 0 and stats.wave_groups == waves, stats.fallbacks


# --- f16 / bf16 add and packed pairs ---------------------------------------------------------


@pytest.mark.parametrize("arch", ["gfx942", "gfx1200"])
@pytest.mark.parametrize("dtype", [F16, BF16], ids=["f16", "bf16"])
@pytest.mark.parametrize("space", ["global", "lds"])
def test_half_add(dtype, arch, space):
    width = 64 if arch == "gfx942" else 32
    per_block = WAVES * width
    _, vals, _ = operands("atomicAdd", dtype, BLOCKS * per_block, seed=8)
    if space == "global":
        _, final = sequential("atomicAdd", dtype, 0.0, [(v, None) for v in py(vals)])
        finals = [final]
    else:
        finals = [sequential("atomicAdd", dtype, 0.0,
                             [(v, None) for v in py(vals[b * per_block:(b + 1) * per_block])])[1]
                  for b in range(BLOCKS)]

    @kernel
    def half_add(vals, out):
        gid = blockIdx.x * blockDim.x + threadIdx.x
        if space == "global":
            rocwmma_py.atomicAdd(out + 0, vals[gid])
        else:
            s = shared_array(dtype, 2)
            rocwmma_py.atomicAdd(s + 0, vals[gid])
            synchronize_workgroup()
            with where(threadIdx.x == 0):
                out[blockIdx.x] = s[0]

    launch = half_add[BLOCKS, per_block, 0, arch]
    for engine, (out, _) in on_both_engines(launch, [vals, np.zeros(BLOCKS, dtype)]).items():
        assert same_bits(out[1][:len(finals)], as_dtype(finals, dtype)), engine


@pytest.mark.parametrize(("arch", "dtype"), [("gfx942", F16), ("gfx1200", BF16)])
def test_packed_pair_add(arch, dtype):
    """HIP's __half2 atomicAdd: each lane adds a pair at an even offset; both halves apply
    in lane order and the old pairs come back."""
    width = 64 if arch == "gfx942" else 32
    lanes = BLOCKS * WAVES * width
    _, flat, _ = operands("atomicAdd", dtype, 2 * lanes, seed=9)
    pairs = flat.reshape(lanes, 2)

    @kernel
    def pair_add(vals, target, olds):
        gid = blockIdx.x * blockDim.x + threadIdx.x
        value = np.stack([vals[2 * gid], vals[2 * gid + 1]], axis=1)
        old = rocwmma_py.atomicAdd(target + 2 * (gid % 2), value)
        olds[2 * gid] = old[0]
        olds[2 * gid + 1] = old[1]

    expect = np.zeros(2 * lanes, dtype)
    finals = []
    for slot in range(2):  # lanes with gid % 2 == slot share the pair at 2 * slot
        idx = list(range(slot, lanes, 2))
        for half in range(2):
            o, f = sequential("atomicAdd", dtype, 0.0,
                              [(v, None) for v in py(pairs[idx, half])])
            expect[[2 * i + half for i in idx]] = as_dtype(o, dtype)
            finals.append(f)
    launch = pair_add[BLOCKS, WAVES * width, 0, arch]
    for engine, (out, _) in on_both_engines(launch, [flat, np.zeros(4, dtype),
                                                     np.zeros(2 * lanes, dtype)]).items():
        assert same_bits(out[1], as_dtype(finals, dtype)), engine
        assert same_bits(out[2], expect), engine


# --- refusals --------------------------------------------------------------------------------


def _call(fn, array, *values, arch="gfx942", space="global"):
    @kernel
    def probe(buf):
        target = buf if space == "global" else shared_array(array.dtype, 4)
        fn(target + 0, *values)

    probe[1, 64 if arch.startswith("gfx9") else 32, 0, arch](array)


@pytest.mark.parametrize(("fn", "dtype", "allowed"), [
    ("atomicAdd", I64, "int32, uint32, uint64, float32, float64, float16, bfloat16"),
    ("atomicAnd", F32, "int32, uint32, uint64"),
    ("atomicInc", I32, "uint32"),
    ("atomicMax", np.dtype(np.int8), "int32, uint32, uint64, float32, float64, int64"),
    ("atomicCAS", F16, "int32, uint32, uint64, float32, float64"),
])
def test_wrong_type_names_the_allowed_ones(fn, dtype, allowed):
    args = (1, 1) if fn == "atomicCAS" else (1,)
    with pytest.raises(AtomicTypeError) as info:
        _call(getattr(rocwmma_py, fn), np.zeros(4, dtype), *args)
    assert f"{fn} has no overload for" in str(info.value) and allowed in str(info.value)


def test_signed_64_bit_add_suggests_the_unsigned_cast():
    with pytest.raises(AtomicTypeError, match=r"ptr.cast\(np.uint64\)"):
        _call(rocwmma_py.atomicAdd, np.zeros(4, np.int64), 1)


@pytest.mark.parametrize(("dtype", "arch", "space", "ok"), [
    (F16, "gfx90a", "global", True), (F16, "gfx90a", "lds", False),
    (F16, "gfx908", "global", False), (F16, "gfx1100", "global", False),
    (F16, "gfx1201", "lds", True), (F16, "gfx950", "lds", True),
    (BF16, "gfx90a", "global", False), (BF16, "gfx942", "lds", True),
    (BF16, "gfx1102", "lds", False), (BF16, "gfx1200", "global", True),
])
def test_half_atomics_exist_where_the_target_has_them(dtype, arch, space, ok):
    buf = np.zeros(4, dtype)
    if ok:
        _call(rocwmma_py.atomicAdd, buf, 1.5, arch=arch, space=space)
        lanes = 64 if arch.startswith("gfx9") else 32  # every lane of the wave added 1.5
        assert buf[0] == (1.5 * lanes if space == "global" else 0)
        return
    with pytest.raises(UnsupportedInstructionError) as info:
        _call(rocwmma_py.atomicAdd, buf, 1.5, arch=arch, space=space)
    message = str(info.value)
    expected = atomics_module.HALF_ADD_ARCHS[("float16" if dtype == F16 else "bfloat16",
                                             "global" if space == "global" else "LDS")]
    assert arch in message and ", ".join(expected) in message


@pytest.mark.parametrize(("probe", "error", "words"), [
    (lambda: _call(rocwmma_py.atomicAdd, np.zeros(4, np.int32), 1.5), AtomicTypeError,
     "needs integer values"),
    (lambda: _call(rocwmma_py.atomicAdd, np.zeros(4, np.float32), np.zeros((64, 3))),
     AtomicError, "one value per lane (64,)"),
    (lambda: _call(rocwmma_py.atomicAdd, np.zeros(4, np.float32), "x"), AtomicTypeError,
     "must be numbers"),
])
def test_bad_values(probe, error, words):
    with pytest.raises(error) as info:
        probe()
    assert words in str(info.value)


def test_misaligned_pair_and_read_only_and_non_pointer():
    @kernel
    def odd(buf):
        rocwmma_py.atomicAdd(buf + 1, np.ones((64, 2), np.float16))

    with pytest.raises(AtomicError, match="4-byte aligned"):
        odd[1, 64, 0, "gfx942"](np.zeros(8, np.float16))
    ro = np.zeros(4, np.int32)
    ro.flags.writeable = False
    with pytest.raises(AtomicError, match="read-only"):
        _call(rocwmma_py.atomicAdd, ro, 1)

    @kernel
    def not_pointer(buf):
        rocwmma_py.atomicAdd(3, 1)

    with pytest.raises(AtomicTypeError, match="needs a pointer"):
        not_pointer[1, 64, 0, "gfx942"](np.zeros(4, np.int32))
    with pytest.raises(NotInKernelError):
        rocwmma_py.atomicAdd(None, 1)


def test_refusals_match_between_engines():
    @kernel
    def bad(buf):
        rocwmma_py.atomicXor(buf + 0, 1)

    results = errors_on_both_engines(bad[2, 64, 0, "gfx942"], [np.zeros(4, np.float64)])
    assert results["wave"][1] == results["batch"][1]
    assert results["wave"][1][0] is AtomicTypeError


# --- the CUDA facade and the split-K sample --------------------------------------------------


def test_cuda_facade_exports_the_same_functions():
    for name in OVERLOADS:
        assert getattr(hip_cuda, name) is getattr(rocwmma_py, name)
        assert name in hip_cuda.__all__

    @hip_cuda.__global__
    def histogram(data, bins):
        i = hip_cuda.blockIdx.x * hip_cuda.blockDim.x + hip_cuda.threadIdx.x
        hip_cuda.atomicAdd(bins + data[i] % 8, 1)

    data = np.random.default_rng(10).integers(0, 1000, 4 * 64).astype(np.int32)
    for engine, (out, _) in on_both_engines(histogram[4, 64, 0, "gfx942"],
                                            [data, np.zeros(8, np.int32)]).items():
        assert out[1].tolist() == np.bincount(data % 8, minlength=8).tolist(), engine


splitk = importlib.import_module("samples.splitk_gemm")


@pytest.mark.parametrize("arch", ["gfx942", "gfx1100"])
def test_splitk_adds_slices_in_block_order(arch):
    """D = ((P0 + P1) + P2) + P3 in f32, the partial tiles in slice (= block) order, on both
    engines; adding them in another order gives different bits on this data."""
    rng = np.random.default_rng(11)
    m, n, k, splits = 64, 32, 256, 4
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    kslice = k // splits
    partials = [splitk.run(arch, a[:, s * kslice:(s + 1) * kslice],
                           b[s * kslice:(s + 1) * kslice], 1) for s in range(splits)]
    in_order, reverse = np.zeros((m, n), np.float32), np.zeros((m, n), np.float32)
    for p in partials:
        in_order = in_order + p
    for p in partials[::-1]:
        reverse = reverse + p
    assert not same_bits(in_order, reverse)
    for engine in ("wave", "batch"):
        with use_engine(engine):
            d = splitk.run(arch, a, b, splits)
        assert same_bits(d, in_order), engine
        if engine == "batch":
            assert last_launch_stats().per_wave_blocks == 0


def test_splitk_refuses_sizes_that_do_not_tile(capsys):
    assert splitk.main(["-k", "200"]) == 2
    assert "Unsupported size!" in capsys.readouterr().out


def test_lane_id_and_wave_size_in_kernels_with_atomics():
    """Atomics combine with the other built-ins: per-wave counters via lane 0 of each wave."""
    @kernel
    def count_waves(counter):
        with where(lane_id() == 0):
            rocwmma_py.atomicAdd(counter + 0, wave_size())

    for engine, (out, _) in on_both_engines(count_waves[5, 128, 0, "gfx1100"],
                                            [np.zeros(1, np.int32)]).items():
        assert out[0][0] == 5 * 128, engine
