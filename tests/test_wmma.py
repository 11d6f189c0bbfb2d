"""rocwmma_py.wmma, CUDA's nvcuda::wmma: every shape and type on exact integer data, every layout
combination, ldm larger than the tile, non-zero pointer offsets; D bit-exact against numpy
integer arithmetic and nothing written outside the tile. tf32 conversion and satf against
bit-level and integer references."""

from __future__ import annotations

import numpy as np
import pytest

from rocwmma_py import FragmentError, get_arch
from rocwmma_py import types as T
from rocwmma_py.cuda import __global__, __shared__, __syncthreads, threadIdx, warpSize, wmma

pytestmark = pytest.mark.regression

ARCHES = ["gfx942", "gfx1100", "gfx1200"]
SKINNY = [(16, 16, 16), (32, 8, 16), (8, 32, 16)]
# (input type, accumulator type, shapes, value range of the inputs)
CASES = [
    (wmma.half, float, SKINNY, (-4, 4)),
    (wmma.half, wmma.half, SKINNY, (-4, 4)),
    (wmma.__nv_bfloat16, float, SKINNY, (-4, 4)),
    (wmma.signed_char, int, SKINNY, (-128, 127)),
    (wmma.unsigned_char, int, SKINNY, (0, 255)),
    (wmma.precision.tf32, float, [(16, 16, 8)], (-4, 4)),
    (wmma.double, wmma.double, [(8, 8, 4)], (-4, 4)),
]
LD_PAD, OFFSET = 5, 7  # ldm = tile extent + LD_PAD; every pointer starts OFFSET elements in
SENTINEL = 77


def _storage(t) -> np.dtype:
    return T.storage_dtype(wmma._resolve(t))


def _place(tile: np.ndarray, layout, dtype) -> tuple[np.ndarray, int]:
    """A buffer holding `tile` at OFFSET with a leading dimension larger than the tile."""
    rows, cols = tile.shape if layout is wmma.row_major else tile.T.shape
    ld = cols + LD_PAD
    buf = np.full(OFFSET + rows * ld + 3, SENTINEL, dtype)
    view = buf[OFFSET:OFFSET + rows * ld].reshape(rows, ld)[:, :cols]
    view[...] = tile if layout is wmma.row_major else tile.T
    return buf, ld


def _run(arch, shape, tin, tacc, a_layout, b_layout, c_layout, d_layout, a, b, c, satf=False):
    m, n, k = shape
    fa = wmma.fragment[wmma.matrix_a, m, n, k, tin, a_layout]
    fb = wmma.fragment[wmma.matrix_b, m, n, k, tin, b_layout]
    fc = wmma.fragment[wmma.accumulator, m, n, k, tacc]
    mem = {wmma.row_major: wmma.mem_row_major, wmma.col_major: wmma.mem_col_major}
    a_buf, lda = _place(a, a_layout, _storage(tin))
    b_buf, ldb = _place(b, b_layout, _storage(tin))
    c_buf, ldc = _place(c, c_layout, _storage(tacc))
    d_buf, ldd = _place(np.full((m, n), SENTINEL), d_layout, _storage(tacc))

    @__global__
    def kernel(pa, pb, pc, pd):
        a_frag, b_frag, acc = fa(), fb(), fc()
        wmma.load_matrix_sync(a_frag, pa + OFFSET, lda)
        wmma.load_matrix_sync(b_frag, pb + OFFSET, ldb)
        wmma.load_matrix_sync(acc, pc + OFFSET, ldc, mem[c_layout])
        wmma.mma_sync(acc, a_frag, b_frag, acc, satf)
        wmma.store_matrix_sync(pd + OFFSET, acc, ldd, mem[d_layout])

    kernel[1, get_arch(arch).wave_size, 0, arch](a_buf, b_buf, c_buf, d_buf)
    rows = d_buf[OFFSET:OFFSET + (m if d_layout is wmma.row_major else n) * ldd]
    return d_buf, rows.reshape(-1, ldd)


def _reference(a, b, c, tacc, satf=False) -> np.ndarray:
    exact = a.astype(np.int64) @ b.astype(np.int64) + c.astype(np.int64)
    if wmma._resolve(tacc) is not T.int32:
        return exact
    if satf:
        return np.clip(exact, -2**31, 2**31 - 1)
    return (exact + 2**31) % 2**32 - 2**31  # two's-complement wrap


def _check(arch, shape, tin, tacc, layouts, lo, hi, seed=0, c_range=(-8, 8), satf=False):
    m, n, k = shape
    rng = np.random.default_rng(seed)
    a = rng.integers(lo, hi, (m, k), endpoint=True)
    b = rng.integers(lo, hi, (k, n), endpoint=True)
    c = rng.integers(*c_range, (m, n), endpoint=True)
    d_buf, rows = _run(arch, shape, tin, tacc, *layouts, a, b, c, satf)
    row_major = layouts[3] is wmma.row_major
    tile = rows[:, :n] if row_major else rows[:, :m].T
    np.testing.assert_array_equal(tile.astype(np.int64), _reference(a, b, c, tacc, satf))
    in_tile = np.zeros(d_buf.shape, bool)
    in_tile[OFFSET:OFFSET + rows.size].reshape(rows.shape)[:, :n if row_major else m] = True
    assert (d_buf[~in_tile] == SENTINEL).all(), "wrote outside the tile"


def _runnable(arch, tin) -> bool:
    return arch in wmma.targets_for(wmma._resolve(tin))


LAYOUT_COMBOS = [(a, b, c, d) for a in (wmma.row_major, wmma.col_major)
                 for b in (wmma.row_major, wmma.col_major)
                 for c, d in ((wmma.row_major, wmma.row_major), (wmma.col_major, wmma.row_major),
                              (wmma.row_major, wmma.col_major))]


def _ids(case):
    tin, tacc, shape = case
    return f"{wmma.type_name(wmma._resolve(tin))}-{wmma.type_name(wmma._resolve(tacc))}-" \
           f"m{shape[0]}n{shape[1]}k{shape[2]}"


ALL = [(tin, tacc, shape, rng) for tin, tacc, shapes, rng in CASES for shape in shapes]


@pytest.mark.parametrize("arch", ["gfx942", "gfx90a", "gfx950", "gfx1100", "gfx1200"])
@pytest.mark.parametrize("tin,tacc,shape,value_range", ALL,
                         ids=[_ids(c[:3]) for c in ALL])
def test_every_shape_and_type_is_exact(arch, tin, tacc, shape, value_range):
    if not _runnable(arch, tin):
        pytest.skip(f"{arch} has no matrix instruction for this type (tested below)")
    for seed, layouts in enumerate(LAYOUT_COMBOS):
        _check(arch, shape, tin, tacc, layouts, *value_range, seed=seed)


@pytest.mark.parametrize("tin,arch,targets", [
    (wmma.unsigned_char, "gfx942", "gfx1100, gfx1101, gfx1102, gfx1103, gfx1150, gfx1151, "
     "gfx1152, gfx1153, gfx1200, gfx1201, gfx1170, gfx1250, gfx1251"),
    (wmma.precision.tf32, "gfx1100", "gfx942"),
    (wmma.precision.tf32, "gfx950", "gfx942"),
    (wmma.double, "gfx1200", "gfx90a, gfx942, gfx950"),
    (wmma.double, "gfx908", "gfx90a, gfx942, gfx950"),
])
def test_missing_type_names_the_targets_that_have_it(tin, arch, targets):
    shape = {wmma.precision.tf32: (16, 16, 8), wmma.double: (8, 8, 4)}.get(tin, (16, 16, 16))
    frag = wmma.fragment[(wmma.matrix_a, *shape, tin, wmma.row_major)]

    @__global__
    def kernel():
        frag()

    with pytest.raises(FragmentError, match=f"{arch} has no matrix instruction.*: {targets}\n"):
        kernel[1, get_arch(arch).wave_size, 0, arch]()


@pytest.mark.parametrize("params,match", [
    ((wmma.matrix_a, 16, 16, 8, wmma.half, wmma.row_major), "m16n16k8 does not exist.*m32n8k16"),
    ((wmma.matrix_a, 16, 16, 16, float, wmma.row_major), "matrix_a of f32 does not exist"),
    ((wmma.accumulator, 8, 8, 4, float), "m8n8k4 does not exist for f32 accumulator"),
    ((wmma.accumulator, 16, 16, 16, "long"), "unknown wmma element type 'long'"),
    ((wmma.matrix_b, 16, 16, 16, wmma.half), "needs Layout row_major or col_major"),
    ((wmma.accumulator, 16, 16, 16, float, wmma.row_major), "accumulator has no layout"),
    ((wmma.matrix_a, 16, 16, 16), "takes \\[Use, m, n, k, T\\]"),
])
def test_bad_fragment_parameters(params, match):
    with pytest.raises(FragmentError, match=match):
        wmma.fragment[params]


# --- satf: int32 wraps without it and saturates with it, at both ends -----------------------

@pytest.mark.parametrize("arch", ARCHES)
@pytest.mark.parametrize("end", [2**31 - 1, -2**31])
@pytest.mark.parametrize("satf", [False, True])
def test_satf_at_both_ends_of_int32(arch, end, satf):
    layouts = (wmma.row_major, wmma.col_major, wmma.row_major, wmma.row_major)
    sign = 1 if end > 0 else -1
    # C sits at the end of int32 and A*B pushes every element past it (and some back inside)
    _check(arch, (16, 16, 16), wmma.signed_char, int, layouts, -128, 127, seed=3,
           c_range=tuple(sorted((end - sign * 1000, end))), satf=satf)
    m = 16
    a = np.full((m, m), 127 * sign)
    b = np.full((m, m), 127)
    c = np.full((m, m), end)
    _, rows = _run(arch, (16, 16, 16), wmma.signed_char, int, *layouts, a, b, c, satf)
    got = rows[:, :m].astype(np.int64)
    want = end if satf else end + sign * 16 * 127 * 127 - sign * 2**32
    assert (got == want).all()


@pytest.mark.parametrize("arch", ["gfx942", "gfx1100"])
@pytest.mark.parametrize("tacc", [float, wmma.half])
def test_float_satf_maps_inf_and_nan_to_finite(arch, tacc):
    acc_dtype = _storage(tacc)
    big = np.finfo(acc_dtype).max
    a = np.zeros((16, 16))
    b = np.zeros((16, 16))
    c = np.zeros((16, 16))
    c[0, :4] = [np.inf, -np.inf, np.nan, 1.5]
    c[1, 0] = big
    a[1, 0], b[0, 0] = 8, 8  # big + 64 stays big (rounding), 1.5 stays
    layouts = (wmma.row_major,) * 4
    for satf, row0 in ((False, [np.inf, -np.inf, np.nan, 1.5]), (True, [big, -big, 0.0, 1.5])):
        _, rows = _run(arch, (16, 16, 16), wmma.half, tacc, *layouts, a, b, c, satf)
        got = rows[:, :16].astype(np.float64)
        np.testing.assert_array_equal(got[0, :4], np.asarray(row0))
        if satf:
            assert not np.signbit(got[0, 2])  # NaN -> +0


# --- tf32: CUDA's conversion and the MMA reading 10 mantissa bits ---------------------------

def _tf32_reference(x: float) -> float:
    """Round to nearest with ties away from zero at 10 mantissa bits, via exact integers."""
    u = int(np.float32(x).view(np.uint32))
    sign, mag = u & 0x80000000, u & 0x7FFFFFFF
    if mag >= 0x7F800000:  # inf / NaN
        return x
    low = mag & 0x1FFF
    mag -= low
    if low >= 0x1000:
        mag += 0x2000
    return float(np.uint32(sign | mag).view(np.float32))


@pytest.mark.parametrize("bits", [
    0x3F800000, 0x3F801000, 0x3F800FFF, 0x3F803000, 0xBF801000, 0xBF800FFF,  # ties, near-ties
    0x00001000, 0x00000FFF, 0x80001000, 0x007FF000, 0x00000001,  # subnormals (and to normal)
    0x7F7FF000, 0x7F7FEFFF, 0xFF7FF000,  # the largest values: round to +-inf or stay finite
    0x7F800000, 0xFF800000,  # inf
])
def test_float_to_tf32_rounding(bits):
    x = np.uint32(bits).view(np.float32)
    got = wmma.__float_to_tf32(x)
    want = _tf32_reference(float(x))
    assert got.view(np.uint32) == np.float32(want).view(np.uint32)
    assert got.view(np.uint32) & 0x1FFF == 0


@pytest.mark.parametrize("bits, want", [
    (0x7FC00000, 0x7FC00000), (0x7FC01234, 0x7FC00000), (0x7FFFFFFF, 0x7FFFE000),
    (0x7F800001, 0x7F800000), (0xFF800FFF, 0xFF800000),  # payload only in the low bits: inf
])
def test_float_to_tf32_truncates_nan_like_h100(bits, want):
    """H100 (measured, silicon-numerics.md): a NaN's low 13 bits are dropped, not rounded, so
    a NaN whose payload sits only there becomes an infinity."""
    got = wmma.__float_to_tf32(np.uint32(bits).view(np.float32))
    assert int(got.view(np.uint32)) == want


def test_float_to_tf32_is_elementwise():
    x = np.array([[1.0, 1 + 2**-11], [-(1 + 3 * 2**-11), 3.0]], np.float32)
    np.testing.assert_array_equal(wmma.__float_to_tf32(x),
                                  np.vectorize(_tf32_reference)(x).astype(np.float32))


def test_tf32_mma_reads_ten_mantissa_bits():
    """Inputs with low bits set: the MMA sees them truncated (hardware), which is not CUDA's
    rounding; converting first with __float_to_tf32 gives the rounded product."""
    rng = np.random.default_rng(5)
    base = rng.integers(-8, 8, (2, 16, 16)).astype(np.float32) * 2**-4
    noise = rng.integers(1, 0x2000, (2, 16, 16)).astype(np.uint32)
    raw = (base.view(np.uint32) | noise).view(np.float32)  # low 13 bits set
    a, b = raw[0], raw[1][:8]
    a = a[:, :8]
    layouts = (wmma.row_major,) * 4
    _, rows = _run("gfx942", (16, 16, 8), wmma.precision.tf32, float, *layouts, a, b,
                    np.zeros((16, 16)))
    trunc = (raw.view(np.uint32) & 0xFFFFE000).view(np.float32)
    want = trunc[0][:, :8].astype(np.float64) @ trunc[1][:8].astype(np.float64)
    np.testing.assert_array_equal(rows[:, :16], want.astype(np.float32))  # exact: few bits


# --- the CUDA kernel context ------------------------------------------------------------------

@pytest.mark.parametrize("arch", ARCHES)
def test_warp_size_shared_and_syncthreads(arch):
    wave = get_arch(arch).wave_size
    out = np.zeros(4 * wave, np.int32)

    @__global__
    def kernel(o):
        tile = __shared__(np.int32, 2, 2 * wave)
        warp = threadIdx.x // warpSize
        tile[threadIdx.x // (2 * wave)][threadIdx.x % (2 * wave)] = (
            warp * 1000 + threadIdx.x % warpSize)
        __syncthreads()
        src = (threadIdx.x + warpSize) % (4 * wave)
        o[threadIdx.x] = tile[src // (2 * wave), src % (2 * wave)] + warpSize * 0

    kernel[1, 4 * wave, 0, arch](out)
    t = np.arange(4 * wave)
    src = (t + wave) % (4 * wave)
    np.testing.assert_array_equal(out, src // wave * 1000 + src % wave)


def test_warp_size_outside_a_kernel_raises():
    from rocwmma_py.runtime import NotInKernelError

    with pytest.raises(NotInKernelError):
        int(warpSize)


def test_hard_coded_32_on_wave64_splits_the_wave():
    """`/ 32` where CUDA means warpSize: on wave64 the two half-waves address different tiles;
    hardware would silently mix them, the emulator names the lanes whose addresses differ."""
    m = n = k = 32
    rng = np.random.default_rng(7)
    a = rng.integers(-3, 3, (m, k)).astype(np.float16)
    b = rng.integers(-3, 3, (k, n)).astype(np.float16)
    fa = wmma.fragment[wmma.matrix_a, 16, 16, 16, wmma.half, wmma.row_major]
    fb = wmma.fragment[wmma.matrix_b, 16, 16, 16, wmma.half, wmma.row_major]
    fc = wmma.fragment[wmma.accumulator, 16, 16, 16, float]

    def make(warp):
        @__global__
        def kernel(pa, pb, pd):
            row = (threadIdx.x // warp) * 16  # per lane: the warp index
            af, bf, acc = fa(), fb(), fc()
            wmma.fill_fragment(acc, 0.0)
            for i in range(0, k, 16):
                wmma.load_matrix_sync(af, pa + row * k + i, k)
                wmma.load_matrix_sync(bf, pb + i * n, n)
                wmma.mma_sync(acc, af, bf, acc)
            wmma.store_matrix_sync(pd + row * n, acc, n, wmma.mem_row_major)
        return kernel

    ref = a.astype(np.float64) @ b.astype(np.float64)
    d = np.zeros((m, n), np.float32)
    make(warpSize)[1, 64, 0, "gfx942"](a, b, d)  # one wave64: one 16x16 tile
    assert np.array_equal(d[:16, :16], ref[:16, :16])
    with pytest.raises(ValueError, match=r"lanes 0-31 = 0, lanes 32-63 = 512.*one address per"):
        make(32)[1, 64, 0, "gfx942"](a, b, np.zeros((m, n), np.float32))
