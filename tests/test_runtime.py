"""Kernel runtime: launch, HIP built-ins, lane vectors, pointers, vectors, LDS, scheduling."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from rocwmma_py.arch import ARCH_NAMES, get_arch
from rocwmma_py.runtime import (
    DivergenceError,
    Lanes,
    LdsLimitError,
    LdsRaceError,
    NotInKernelError,
    OutOfBoundsError,
    Pointer,
    blockDim,
    blockIdx,
    current_arch,
    current_wave,
    default_arch,
    dim3,
    dynamic_shared,
    float4,
    gridDim,
    half8,
    half16,
    int32x4,
    kernel,
    lane_id,
    select,
    shared_array,
    synchronize_workgroup,
    syncthreads,
    threadIdx,
    use_arch,
    use_engine,
    vector_type,
    wave_size,
    where,
)

pytestmark = pytest.mark.smoke


def record_waves(grid, block, arch):
    """Launch a kernel that records what every wave sees; returns {(block, wave): info}."""
    seen = {}

    @kernel
    def probe():
        ctx = current_wave()
        seen[(tuple(ctx.block_index), ctx.wave_index)] = {
            "x": np.asarray(threadIdx.x),
            "y": np.asarray(threadIdx.y),
            "z": np.asarray(threadIdx.z),
            "lane": np.asarray(lane_id()),
            "lanes": isinstance(threadIdx.x, Lanes),  # (a Lanes subclass: lane_grid.GridLanes)
            "types": (type(blockIdx.x), type(blockDim.y), type(gridDim.z)),
            "dims": (tuple(ctx.block_dim), tuple(ctx.grid_dim), blockDim.x, gridDim.x),
            "wave_size": wave_size(),
            "waves": ctx.waves_per_block,
        }

    probe[grid, block, 0, arch]()
    return seen


# -- thread numbering ---------------------------------------------------------------------


@pytest.mark.parametrize("arch", ["gfx942", "gfx1100"])
@pytest.mark.parametrize("block", [(16, 4), (64, 1), (32, 2)])
def test_thread_numbering_follows_hip(arch, block):
    seen = record_waves(1, block, arch)
    width = 64 if arch == "gfx942" else 32
    assert sorted(seen) == [((0, 0, 0), w) for w in range(64 // width)]
    for (_, w), info in seen.items():
        tid = np.arange(w * width, (w + 1) * width)
        np.testing.assert_array_equal(info["x"], tid % block[0])
        np.testing.assert_array_equal(info["y"], tid // block[0])
        np.testing.assert_array_equal(info["z"], np.zeros(width))
        np.testing.assert_array_equal(info["lane"], np.arange(width))
        assert info["lanes"] and info["types"] == (int, int, int)
        assert info["wave_size"] == width
        assert info["waves"] == 64 // width


def test_thread_numbering_concrete_second_wave_of_16x4_on_gfx1100():
    info = record_waves(1, (16, 4), "gfx1100")[((0, 0, 0), 1)]
    assert info["x"].tolist() == list(range(16)) * 2
    assert info["y"].tolist() == [2] * 16 + [3] * 16


def test_three_dimensional_block_numbering():
    info = record_waves(1, (8, 2, 4), "gfx942")[((0, 0, 0), 0)]
    assert info["x"][:10].tolist() == [0, 1, 2, 3, 4, 5, 6, 7, 0, 1]
    assert info["y"][:18].tolist() == [0] * 8 + [1] * 8 + [0, 0]
    assert info["z"][::16].tolist() == [0, 1, 2, 3]


def test_blocks_run_in_order_x_fastest_and_dims_are_ints():
    seen = record_waves((2, 3), 64, "gfx942")
    assert list(seen) == [((x, y, 0), 0) for y in range(3) for x in range(2)]
    assert seen[((1, 2, 0), 0)]["dims"] == ((64, 1, 1), (2, 3, 1), 64, 2)


def test_dim3_helper_and_grid_validation():
    assert dim3(4) == (4, 1, 1) and dim3(2, 3).y == 3
    with pytest.raises(ValueError, match="grid dimensions must be positive"):
        kernel(lambda: None)[(0, 1), 64]
    with pytest.raises(TypeError, match="block must be an int or a tuple"):
        kernel(lambda: None)[1, 2.5]
    with pytest.raises(ValueError, match="1 to 3 ints"):
        kernel(lambda: None)[(1, 1, 1, 1), 64]


# -- lane values and divergence -----------------------------------------------------------


def test_uniform_values_drive_python_control_flow():
    out = np.zeros(64, np.int32)

    @kernel
    def uniform(out, m):
        row = threadIdx.y + 3  # uniform Lanes
        if row < m and blockIdx.x == 0:
            for k in range(0, row * 4, row):  # uniform Lanes as range() bounds: 0, 3, 6, 9
                out[k] = k + int(row)
        if threadIdx.x >= 0:
            out[lane_id() + 32] = -lane_id()

    uniform[1, 64, 0, "gfx1100"](out, 5)
    assert out[:12].tolist() == [3, 0, 0, 6, 0, 0, 9, 0, 0, 12, 0, 0]
    np.testing.assert_array_equal(out[32:], -np.arange(32))


def test_divergent_branch_raises_with_lane_values():
    @kernel
    def diverge(out):
        if threadIdx.x < 16:
            out[0] = 1.0

    out = np.zeros(1)
    with pytest.raises(DivergenceError) as info:
        diverge[1, 32, 0, "gfx1100"](out)
    msg = str(info.value)
    assert "kernel 'diverge' (block (0,0,0), wave 0)" in msg
    assert "lanes 0-15 = True, lanes 16-31 = False" in msg
    assert "select(cond, a, b)" in msg
    assert out[0] == 0.0


def test_divergent_int_and_index_raise():
    @kernel
    def to_int():
        int(lane_id())

    @kernel
    def to_range():
        range(lane_id() * current_wave().wave_index)  # uniform (all 0) in wave 0 only

    with pytest.raises(DivergenceError, match=r"lane 0 = 0, lane 1 = 1, .*64 runs"):
        to_int[1, 64]()
    with pytest.raises(DivergenceError, match=r"index .*'to_range' \(block \(0,0,0\), wave 1\)"):
        to_range[1, 64, 0, "gfx1100"]()
    with pytest.raises(TypeError, match="float32 cannot be used as an index"):
        range(Lanes(np.zeros(4, np.float32)))


def test_lanes_reductions_are_scalars_and_arithmetic_stays_lanes():
    x = Lanes(np.arange(8))
    assert type(np.all(x >= 0)) is np.bool_
    assert type(x.sum()) is np.int64 and x.sum() == 28
    assert np.array_equal(x, np.arange(8))
    assert type(x * 2 + 1) is Lanes and (x * 2 + 1)[3] == 7
    assert type(np.outer(x, x)) is np.ndarray
    assert type(x[:, None] * x) is np.ndarray
    np.testing.assert_array_equal(select(x < 4, x, -x), [0, 1, 2, 3, -4, -5, -6, -7])
    assert type(select(x < 4, x, -x)) is Lanes
    assert bool(Lanes(np.full(8, 3)) == 3) is True
    assert float(Lanes(np.full(4, 2.5))) == 2.5


# -- pointers -----------------------------------------------------------------------------


def test_pointer_arithmetic_reads_and_writes_land_in_caller_arrays():
    a = np.arange(256, dtype=np.float32)
    b = np.zeros(128, np.float32)
    diffs = {}

    @kernel
    def copy_shifted(a, b):
        src = 2 + a  # n + p
        src = src + 10 - 4  # p + n, p - n
        src += lane_id()  # per-lane address
        diffs["uniform"] = (a + 7) - a
        diffs["lanes"] = np.asarray(src - a)
        dst = b + 64
        dst[lane_id() - 64] = src[0]  # scatter of a gather
        b[64 + lane_id()] = a[3]  # uniform read broadcast to every lane
        diffs["names"] = (a.buffer.name, b.buffer.name, a.dtype)

    copy_shifted[1, 64](a, b)
    np.testing.assert_array_equal(b[:64], np.arange(8, 72))
    np.testing.assert_array_equal(b[64:], np.full(64, 3.0))
    assert diffs["uniform"] == 7
    np.testing.assert_array_equal(diffs["lanes"], np.arange(8, 72))
    assert diffs["names"] == ("a", "b", np.dtype(np.float32))


def test_highest_lane_wins_on_clashing_writes():
    out = np.zeros(4, np.int32)

    @kernel
    def clash(out):
        out[lane_id() % 4] = lane_id()  # lanes 60..63 write last
        out[0] = lane_id() + 100  # uniform address, per-lane value

    clash[1, 64](out)
    np.testing.assert_array_equal(out, [163, 61, 62, 63])


def test_highest_lane_wins_over_later_leading_index_in_scatter():
    out = np.zeros(64, np.int32)

    @kernel
    def overlap(out):
        offs = np.stack([lane_id(), lane_id()])
        offs[1, 3] = 5  # row 1 lane 3 hits the address row 0 lane 5 writes
        offs[1, 5] = 40  # lane 5 writes address 5 only from row 0
        vals = np.stack([lane_id(), lane_id() + 100])
        out.scatter(offs, vals)

    overlap[1, 64](out)
    assert out[5] == 5 and out[3] == 3 and out[4] == 104 and out[40] == 140


def test_per_lane_vector_load_and_store():
    a = np.arange(64 * 4, dtype=np.float32)
    b = np.zeros(64 * 4, np.float32)
    seen = {}

    @kernel
    def rows(a, b):
        regs = (a + lane_id() * 4).load(4)
        seen["regs"] = regs
        (b + (63 - lane_id()) * 4).store(regs * 2)

    rows[1, 64](a, b)
    np.testing.assert_array_equal(seen["regs"], a.reshape(64, 4))
    np.testing.assert_array_equal(b.reshape(64, 4), a.reshape(64, 4)[::-1] * 2)


def test_pointer_misuse_errors():
    a = np.zeros(16, np.float16)
    p = Pointer.from_array(a, "a")
    with pytest.raises(TypeError, match="integer offsets"):
        p + np.zeros(4, np.float32)
    with pytest.raises(TypeError, match="int or integer Lanes, got float"):
        p + 1.5
    with pytest.raises(TypeError, match="same buffer"):
        p - Pointer.from_array(np.zeros(4, np.float16), "b")
    with pytest.raises(ValueError, match="byte offset 2 to float32"):
        (p + 1).cast(np.float32)
    q = (p + 2).cast(np.float32)
    assert q.offset == 1 and q.size == 8
    with pytest.raises(TypeError, match="C-contiguous"):
        Pointer.from_array(np.zeros((4, 4))[:, ::2], "strided")


def test_non_contiguous_kernel_argument_is_refused():
    @kernel
    def noop(a):
        pass

    with pytest.raises(TypeError, match="kernel argument 'a' must be a C-contiguous array"):
        noop[1, 64](np.zeros((8, 8))[:, ::2])
    with pytest.raises(TypeError, match=r"cannot be called directly; launch it with noop\[grid"):
        noop(np.zeros(4))
    with pytest.raises(TypeError, match="kernel 'noop"):
        noop[1, 64](1, 2)


# -- bounds checks ------------------------------------------------------------------------


def launch_raising(fn, *args, arch="gfx942", block=64):
    with pytest.raises(OutOfBoundsError) as info:
        kernel(fn)[1, block, 0, arch](*args)
    return str(info.value)


def test_out_of_bounds_read_names_buffer_offset_and_lane():
    def bad_read(a):
        a[select(lane_id() == 5, 300, lane_id())]

    msg = launch_raising(bad_read, np.zeros(256, np.float16))
    assert msg == (
        "read of buffer 'a' (256 x float16) at element offset 300 by lane 5 in kernel "
        "'bad_read' (block (0,0,0), wave 0) is out of bounds [0, 256)"
    )


def test_out_of_bounds_write_writes_nothing():
    a = np.zeros(32, np.int32)

    def bad_write(a):
        a[lane_id() - 2] = 7

    msg = launch_raising(bad_write, a, arch="gfx1100", block=32)
    assert "write of buffer 'a' (32 x int32) at element offsets -2 by lane 0, -1 by lane 1" in msg
    assert "wave 0" in msg
    assert not a.any()


@pytest.mark.parametrize("engine", ["batch", "wave"])
@pytest.mark.parametrize("blocks", [1, 4])
def test_ascending_store_one_past_the_end_writes_nothing(blocks, engine):
    """A thread-linear store is bounded by its ends: the last lane's address is the one out,
    and its wave writes nothing (the blocks before it run as on hardware)."""
    a = np.zeros(32 * blocks, np.int32)

    def bad_write(a):
        a[blockIdx.x * blockDim.x + lane_id() + 1] = 7

    with pytest.raises(OutOfBoundsError) as info, use_engine(engine):
        kernel(bad_write)[blocks, 32, 0, "gfx1100"](a)
    assert f"at element offset {32 * blocks} by lane 31" in str(info.value)
    want = np.zeros_like(a)
    want[1:32 * (blocks - 1) + 1] = 7
    np.testing.assert_array_equal(a, want)


@pytest.mark.parametrize("engine", ["batch", "wave"])
@pytest.mark.parametrize("blocks", [1, 3])
def test_store_whose_lanes_pair_up_keeps_the_highest_lane(blocks, engine):
    """Addresses that never descend but repeat (lanes 2k and 2k+1 on one element) are no
    thread-linear store: the higher lane's value is the one kept."""
    a = np.zeros(16 * blocks, np.int32)

    def pairs(a):
        a[blockIdx.x * 16 + lane_id() // 2] = blockIdx.x * 100 + lane_id()

    with use_engine(engine):
        kernel(pairs)[blocks, 32, 0, "gfx1100"](a)
    want = np.arange(16 * blocks) // 16 * 100 + np.arange(16 * blocks) % 16 * 2 + 1
    np.testing.assert_array_equal(a, want)


def test_out_of_bounds_uniform_address_says_every_lane():
    msg = launch_raising(lambda a: a[-1], np.zeros(8, np.float32))
    assert "at element offset -1 by every lane" in msg


def test_out_of_bounds_gather_and_scatter_name_lane_from_last_axis():
    a = np.arange(128, dtype=np.float32)
    offsets = np.tile(np.arange(64), (2, 1))
    offsets[1, 7] = 500
    offsets[1, 9] = 501

    def bad_gather(a):
        a.gather(offsets)

    def bad_scatter(a):
        a.scatter(offsets, -1.0)

    msg = launch_raising(bad_gather, a)
    assert "gather of buffer 'a' (128 x float32) at element offsets 500 by lane 7, 501 by" in msg
    msg = launch_raising(bad_scatter, a)
    assert "scatter of buffer 'a' (128 x float32) at element offsets 500 by lane 7" in msg
    np.testing.assert_array_equal(a, np.arange(128))  # nothing written


def test_masked_gather_and_scatter_skip_masked_off_elements():
    a = np.arange(64, dtype=np.float32)
    b = np.zeros(64, np.float32)
    got = {}

    @kernel
    def masked(a, b):
        offs = np.stack([lane_id(), lane_id() + 1000])  # second row is out of bounds
        mask = np.stack([lane_id() % 2 == 0, np.zeros(64, bool)])
        got["g"] = a.gather(offs, mask)
        b.scatter(offs, a.gather(offs[:1])[0][None, :] * 10, mask)
        got["lanes_base"] = (a + lane_id()).gather(np.zeros((1, 64), np.int64))

    masked[1, 64](a, b)
    np.testing.assert_array_equal(got["g"][0], np.where(np.arange(64) % 2 == 0, np.arange(64), 0))
    np.testing.assert_array_equal(got["g"][1], np.zeros(64))
    np.testing.assert_array_equal(b, np.where(np.arange(64) % 2 == 0, np.arange(64) * 10, 0))
    np.testing.assert_array_equal(got["lanes_base"][0], np.arange(64))


def test_gather_offsets_must_have_lane_axis_last():
    @kernel
    def wrong_shape(a):
        a.gather(np.zeros((64, 2), np.int64))

    with pytest.raises(ValueError, match=r"lane axis last with length 64.*\(64, 2\)"):
        wrong_shape[1, 64](np.zeros(8))


# -- register vectors ---------------------------------------------------------------------


def test_vector_load_store_reinterprets_bytes():
    raw = np.arange(64 * 16, dtype=np.int64).astype(np.int8)
    out = np.zeros(64 * 4, np.int32)
    seen = {}

    @kernel
    def vec(raw, out):
        v = int32x4.load(raw + lane_id() * 16)  # int8 pointer read as 4 x int32
        v.store(out + lane_id() * 4)
        seen["shape"] = np.asarray(v).shape
        seen["elem1"] = v[1]

    vec[1, 64](raw, out)
    assert seen["shape"] == (64, 4)
    np.testing.assert_array_equal(out.view(np.int8), raw)  # same bytes
    assert seen["elem1"][0] == int(np.frombuffer(raw[4:8].tobytes(), np.int32)[0])
    assert type(seen["elem1"]) is Lanes


def test_vector_constructors_indexing_and_cache():
    seen = {}

    @kernel
    def build(h):
        z = half16()
        z[3] = lane_id()
        f = float4(2.5)
        per_lane = float4(lane_id())
        hv = vector_type(np.int16, 8).load(h + lane_id() * 8)  # float16 bits as int16
        seen.update(z=np.asarray(z), f=np.asarray(f), per_lane=np.asarray(per_lane))
        seen["bits"] = np.asarray(hv)

    h = np.linspace(-1, 1, 32 * 8).astype(np.float16)
    build[1, 32, 0, "gfx1100"](h)
    assert seen["z"].shape == (32, 16) and seen["z"].dtype == np.float16
    np.testing.assert_array_equal(seen["z"][:, 3], np.arange(32))
    assert seen["z"].sum() == np.arange(32).sum()
    assert (seen["f"] == 2.5).all() and seen["f"].shape == (32, 4)
    np.testing.assert_array_equal(seen["per_lane"][:, 2], np.arange(32))
    np.testing.assert_array_equal(seen["bits"].reshape(-1), h.view(np.int16))
    assert vector_type(np.float16, 8) is half8 and half8.n == 8 and half8.dtype == np.float16


# -- LDS ----------------------------------------------------------------------------------


def test_lds_is_shared_between_waves_across_a_barrier():
    out = np.zeros(64, np.float32)

    @kernel
    def exchange(out):
        tile = shared_array(np.float32, 64)
        wave = current_wave().wave_index
        if wave == 1:
            tile[lane_id()] = lane_id() * 2.0
        synchronize_workgroup()
        if wave == 0:
            out[lane_id()] = tile[lane_id()]

    exchange[1, 128](out)
    np.testing.assert_array_equal(out, np.arange(64) * 2.0)


def test_lds_read_after_write_race_without_barrier():
    @kernel
    def racy(out):
        tile = shared_array(np.float32, 64)
        if current_wave().wave_index == 0:
            tile[lane_id()] = 1.0
        else:
            out[lane_id()] = tile[lane_id()]

    with pytest.raises(LdsRaceError) as info:
        racy[1, 128](np.zeros(64, np.float32))
    msg = str(info.value)
    assert "wave 1 (lane 0) reads buffer 'lds[0]' at element offset 0 (float32)" in msg
    assert "wave 0 wrote" in msg and "missing synchronize_workgroup()?" in msg


def test_lds_write_after_read_race_and_own_writes_are_fine():
    @kernel
    def overwrite_too_early():
        tile = shared_array(np.int32, 32)
        if current_wave().wave_index == 0:
            tile[lane_id()] = lane_id()  # own write then read: no race
            tile[lane_id()]
        syncthreads()
        if current_wave().wave_index == 0:
            tile[lane_id()]
        else:
            tile[lane_id()] = 0  # wave 0 read it since the last barrier

    with pytest.raises(LdsRaceError, match=r"write-after-read.*wave 1 \(lane 0\) writes"):
        overwrite_too_early[1, 64, 0, "gfx1100"]()


def test_dynamic_lds_and_static_lds_are_separate_and_fresh_per_block():
    out = np.zeros((2, 64), np.float32)

    @kernel
    def per_block(out):
        dyn = dynamic_shared(np.float32)
        static = shared_array(np.float32, 64)
        row = out + blockIdx.x * 64
        row[lane_id()] = dyn[lane_id()] + static[lane_id()]  # zero in every fresh block
        dyn[lane_id()] = 5.0
        static[lane_id()] = 7.0
        synchronize_workgroup()
        assert dyn.buffer.name == "lds.dynamic" and static.buffer.name == "lds[0]"
        assert dyn.size == 64

    per_block[2, 64, 256](out)
    assert not out.any()


def test_lds_limit_counts_static_plus_dynamic():
    @kernel
    def greedy():
        shared_array(np.float16, 16384)  # 32 KiB

    greedy[1, 64, 32768]()  # exactly 64 KiB is fine
    with pytest.raises(LdsLimitError) as info:
        greedy[1, 64, 32769]()
    msg = str(info.value)
    assert "65537 bytes" in msg and "static 32768 + dynamic 32769" in msg
    assert "65536-byte limit of gfx942" in msg
    with pytest.raises(LdsLimitError, match="dynamic 70000"):
        kernel(lambda: None)[1, 64, 70000]()


def test_waves_disagreeing_on_shared_array_calls():
    @kernel
    def mismatched():
        shared_array(np.float32, 64 + current_wave().wave_index)

    with pytest.raises(ValueError, match="asks for 65 x float32, but an earlier wave allocated 64"):
        mismatched[1, 128]()


# -- block shape, scheduling and failures -------------------------------------------------


def test_more_than_1024_threads_per_block_is_refused():
    with pytest.raises(ValueError, match=r"1088 threads \(17 waves of 64 lanes\); HIP allows"):
        kernel(lambda: None)[1, 1088]()
    with pytest.raises(ValueError, match="33 waves of 32 lanes"):
        kernel(lambda: None)[1, (32, 33), 0, "gfx1100"]()


def test_any_block_size_up_to_1024_threads_launches():
    """HIP runs blocks that are not whole waves (issue 22): the last wave is partial."""
    kernel(lambda: None)[1, 48]()  # one wave of 64 with 16 lanes off
    kernel(lambda: None)[1, (7, 3, 1), 0, "gfx1100"]()  # 21 threads
    kernel(lambda: None)[1, 96, 0, "gfx1100"]()  # 3 waves of 32
    with pytest.raises(ValueError, match=r"1025 threads.*at most 1024"):
        kernel(lambda: None)[1, 1025]()


def test_waves_take_turns_between_barriers():
    order = []

    @kernel
    def phases():
        wave = current_wave().wave_index
        for phase in range(2):
            order.append((wave, phase))
            synchronize_workgroup()
        if wave == 3:
            return  # finished waves do not hold up the barrier
        order.append((wave, 2))
        synchronize_workgroup()
        order.append((wave, 3))

    phases[1, 256]()
    expected = [(w, p) for p in range(2) for w in range(4)]
    expected += [(w, 2) for w in range(3)] + [(w, 3) for w in range(3)]
    assert order == expected


def test_exception_in_one_wave_propagates_and_leaves_no_threads():
    def running(name):  # wave threads are pooled: an ended job leaves an idle, renamed thread
        return [t for t in threading.enumerate() if t.name.startswith(name)]

    @kernel
    def fails():
        synchronize_workgroup()
        if current_wave().wave_index == 1:
            raise ZeroDivisionError("wave one broke")
        synchronize_workgroup()

    with pytest.raises(ZeroDivisionError) as info:
        fails[2, (64, 4)]()
    assert str(info.value) == "wave one broke"
    assert info.value.__notes__ == ["raised in kernel 'fails' (block (0,0,0), wave 1)"]
    assert not running("fails block")
    fails_again = kernel(lambda: [][current_wave().wave_index - 3])
    with pytest.raises(IndexError):
        fails_again[1, 256]()
    assert not running("<lambda> block")


def test_builtins_outside_a_kernel_raise():
    with pytest.raises(NotInKernelError, match=r"threadIdx.x works only inside a kernel launched"):
        _ = threadIdx.x
    with pytest.raises(RuntimeError, match=r"kernel\[grid, block\]"):
        synchronize_workgroup()
    with pytest.raises(RuntimeError, match="shared_array"):
        shared_array(np.float32, 4)


def test_threadidx_copies_cannot_corrupt_the_wave():
    seen = []

    @kernel
    def mutate():
        tx = threadIdx.x
        tx += 100
        seen.append(int(threadIdx.x[5]))

    mutate[1, 64]()
    assert seen == [5]


# -- architecture selection ---------------------------------------------------------------


def arch_seen(launch_arch=None):
    seen = []

    @kernel
    def which():
        seen.append((current_arch().name, wave_size()))

    which[1, 64, 0, launch_arch]()
    return seen[0]


def test_arch_precedence(monkeypatch):
    assert default_arch() == "gfx942" and current_arch().name == "gfx942"
    assert arch_seen() == ("gfx942", 64)
    monkeypatch.setenv("ROCWMMA_PY_ARCH", "gfx1100")
    assert default_arch() == "gfx1100" and arch_seen() == ("gfx1100", 32)
    with use_arch("gfx90a") as arch:
        assert arch.name == "gfx90a" and arch_seen() == ("gfx90a", 64)
        with use_arch("gfx1201"):
            assert current_arch().name == "gfx1201" and arch_seen() == ("gfx1201", 32)
        assert arch_seen("gfx950") == ("gfx950", 64)
    assert default_arch() == "gfx1100"


def test_invalid_arch_names(monkeypatch):
    with pytest.raises(ValueError, match="unknown architecture 'gfx000'; valid names"):
        use_arch("gfx000").__enter__()
    with pytest.raises(ValueError, match="unknown architecture"):
        arch_seen("sm_90")
    monkeypatch.setenv("ROCWMMA_PY_ARCH", "bogus")
    with pytest.raises(ValueError, match="ROCWMMA_PY_ARCH='bogus'.*valid names"):
        default_arch()


# -- determinism --------------------------------------------------------------------------


def test_same_results_twice():
    @kernel
    def reduce_tiles(x, out):
        tile = shared_array(np.float32, 128)
        wave = current_wave().wave_index
        base = blockIdx.x * 128 + wave * 64
        tile[wave * 64 + lane_id()] = x[base + lane_id()]
        synchronize_workgroup()
        if wave == 0:
            acc = np.float32(0)
            for i in range(128):
                acc = acc + tile[i] * np.float32(1.0001)
            out[blockIdx.x] = acc

    x = np.random.default_rng(0).standard_normal(512).astype(np.float32)
    first, second = np.zeros(4, np.float32), np.zeros(4, np.float32)
    reduce_tiles[4, 128](x, first)
    reduce_tiles[4, 128](x, second)
    assert first.tobytes() == second.tobytes()
    np.testing.assert_allclose(first, x.reshape(4, 128).sum(axis=1) * 1.0001, rtol=1e-4)


def test_sixteen_wave_and_1024_thread_blocks_meet_at_barriers():
    seen = np.zeros((16, 64), np.int64)

    @kernel
    def stamp(out):
        lds = shared_array(np.int64, 1024)
        tid = threadIdx.x + blockDim.x * threadIdx.y
        lds[tid] = tid
        synchronize_workgroup()
        out[tid] = lds[1023 - tid]

    stamp[1, (256, 4)](seen)  # rocWMMA's (4W, 4) block: 16 waves of 64
    assert (seen.ravel() == np.arange(1023, -1, -1)).all()
    seen32 = np.zeros(1024, np.int64)
    stamp[1, (32, 32), 0, "gfx1100"](seen32)  # 32 waves of 32
    assert (seen32 == np.arange(1023, -1, -1)).all()


def test_gfx950_has_160_kib_of_lds():
    assert get_arch("gfx950").lds_bytes == 160 * 1024
    bigger = ("gfx950", "gfx1250", "gfx1251")  # 160 KiB; GFX12.5: 320 KiB
    others = {get_arch(a).lds_bytes for a in ARCH_NAMES if a not in bigger}
    assert others == {64 * 1024}
    kernel(lambda: None)[1, 64, 160 * 1024, "gfx950"]()
    with pytest.raises(LdsLimitError, match="163841 bytes.*163840-byte limit of gfx950"):
        kernel(lambda: None)[1, 64, 160 * 1024 + 1, "gfx950"]()


def test_where_masks_memory_access_per_lane():
    out = np.full(64, -1.0, np.float32)
    src = np.arange(32, dtype=np.float32)

    @kernel
    def masked(src, out):
        lane = threadIdx.x
        with where(lane < 32):  # lanes 32-63 would read past src: masked, so not checked
            v = src[lane]
            with where(lane % 2 == 0):  # nested: and-ed with the outer mask
                out[lane] = v
            with where(lane % 2 == 1):
                out[lane] = -v
        assert (np.asarray(v)[32:] == 0).all()  # masked-off lanes read 0

    masked[1, 64](src, out)
    expected = np.where(np.arange(32) % 2 == 0, np.arange(32), -np.arange(32))
    np.testing.assert_array_equal(out[:32], expected)
    np.testing.assert_array_equal(out[32:], -1.0)  # masked-off lanes wrote nothing


@pytest.mark.parametrize("engine", ["batch", "wave"])
@pytest.mark.parametrize("dtype", [np.float32, np.int16, "bfloat16"])
def test_masked_off_lanes_read_zero_where_every_address_is_inside(dtype, engine):
    """Every lane's address lies inside the buffer (the one-gather path), the memory is
    non-zero everywhere: the masked-off lanes still read 0."""
    import ml_dtypes

    dtype = np.dtype(ml_dtypes.bfloat16 if dtype == "bfloat16" else dtype)
    src = (np.arange(64) + 1).astype(dtype)
    seen = {}

    @kernel
    def masked(src):
        with where(threadIdx.x % 3 != 0):
            seen["v"] = np.asarray(src[threadIdx.x]).copy()

    with use_engine(engine):
        masked[1, 64](src)
    lanes = np.arange(64)
    want = np.where(lanes % 3 != 0, lanes + 1, 0).astype(dtype)
    assert seen["v"].dtype == dtype
    np.testing.assert_array_equal(seen["v"], want)


def test_where_needs_a_kernel():
    with pytest.raises(NotInKernelError, match="where"):
        with where(True):
            pass
