"""No silent wrong results (issue 10): every misuse raises a specific exception whose message
names what was wrong and what is allowed.

One table: (probe, exception type, key words the message must contain, case-insensitive).
A probe is a small function doing one wrong thing.
"""

from __future__ import annotations

import ast
import builtins
import os
import pathlib
import sys
import traceback

import numpy as np
import pytest

import rocwmma_py
from rocwmma_py import (
    FragmentError,
    FragmentValueError,
    LaunchError,
    LaunchTypeError,
    LdsError,
    OperandShapeError,
    OperandTypeError,
    RocwmmaError,
    accumulator,
    amdgcn,
    errors,
    fill_fragment,
    float16,
    float32,
    float64,
    fragment,
    fragment_scheduler,
    get_arch,
    kernel,
    load_matrix_sync,
    matrix_a,
    matrix_b,
    mma_sync,
    row_major,
    use_arch,
    use_engine,
    wmma,
)
from rocwmma_py.arch.execute import ModifierError
from rocwmma_py.cuda import __shared__
from rocwmma_py.runtime import (
    DivergenceError,
    LdsLimitError,
    LdsRaceError,
    NotInKernelError,
    OutOfBoundsError,
    current_arch,
    shared_array,
    synchronize_workgroup,
    threadIdx,
)
from rocwmma_py.runtime.errors import BarrierError, InitCheckError

pytestmark = pytest.mark.smoke

def _launch(body, *args, block=64, shared=0, arch="gfx942"):
    """Run `body` (a plain function of the kernel arguments) as a one-block kernel."""
    kernel(body)[1, block, shared, arch](*args)


# --- memory ---------------------------------------------------------------------------------


def _load_past_end():
    def body(src):
        return src[threadIdx.x + 8]

    _launch(body, np.zeros(64, np.float32))


def _store_past_end():
    def body(dst):
        dst[threadIdx.x - 3] = 1.0

    _launch(body, np.zeros(64, np.float32))


FragA16 = fragment[matrix_a, 16, 16, 16, float16, row_major]


def _fragment_load_past_end():
    def body(tile):
        load_matrix_sync(FragA16(), tile + 8, 16)  # 16x16 from offset 8 of a 16x16 array

    _launch(body, np.zeros(256, np.float16))


def _list_argument():
    def body(values):
        values[threadIdx.x] = 1.0

    _launch(body, [0.0] * 64)


def _float_pointer_offset():
    def body(values):
        values[threadIdx.x + 64 / 2] = 1.0  # C's `/` on ints is Python's `//`

    _launch(body, np.zeros(128, np.float32))


def _non_contiguous_argument():
    _launch(lambda values: None, np.zeros((64, 2), np.float32)[:, 0])


def _pointer_type_mismatch():
    def body(tile):
        load_matrix_sync(FragA16(), tile, 16)

    _launch(body, np.zeros(256, np.float32))


# --- control flow, LDS ----------------------------------------------------------------------


def _divergent_branch():
    def body():
        if threadIdx.x < 5:
            pass

    _launch(body)


def _lds_race():
    def body():
        lds = shared_array(np.float32, 64)
        if threadIdx.y == 0:
            lds[threadIdx.x] = 1.0
        else:
            lds[threadIdx.x] += 1.0  # reads what wave 0 wrote: no barrier in between

    _launch(body, block=(64, 2))


def _lds_over_limit():
    def body():
        shared_array(np.float32, 16 * 1024 + 1)  # one float over 64 KiB

    _launch(body)


def _lds_write_after_write():
    def body():
        lds = shared_array(np.int32, 64)
        synchronize_workgroup()
        lds[threadIdx.x] = threadIdx.y  # both waves write the same words between barriers

    _launch(body, block=(64, 2))


def _builtin_outside_kernel():
    return threadIdx.x + 0


# --- launch configuration, targets ----------------------------------------------------------


def _fragment_in_partial_wave():
    def body():
        fill_fragment(fragment[accumulator, 16, 16, 16, float32](), 0.0)
        mma_sync(*(fragment[m, 16, 16, 16, float16, row_major]() for m in
                   (accumulator, matrix_a, matrix_b, accumulator)))
    _launch(body, block=48)


def _block_too_big():
    _launch(lambda: None, block=(64, 17))


def _bad_launch_tuple():
    kernel(lambda: None)[1]


def _kernel_called_directly():
    kernel(lambda: None)()


def _negative_shared_bytes():
    _launch(lambda: None, shared=-1)


def _unknown_arch():
    get_arch("gfx1234")


# --- fragments and mma_sync -----------------------------------------------------------------


def _unsupported_fragment_type():
    with use_arch("gfx1100"):
        fragment[matrix_a, 16, 16, 16, float64, row_major]()


def _cooperative_fragment_in_mma():
    coop = fragment[matrix_a, 32, 32, 16, float16, row_major,
                    fragment_scheduler.coop_row_major_2d[128, 1]]

    def body():
        acc = fragment[accumulator, 32, 32, 16, float32]()
        b = fragment[matrix_b, 32, 32, 16, float16, row_major]()
        mma_sync(acc, coop(), b, acc)

    _launch(body, block=128)


def _mma_combination_missing():
    """f32 inputs: valid fragments on gfx1100, but RDNA3 has no f32 WMMA (gfx9 has)."""
    with use_arch("gfx1100"):
        a = fragment[matrix_a, 16, 16, 16, float32, row_major]()
        b = fragment[matrix_b, 16, 16, 16, float32, row_major]()
        acc = fragment[accumulator, 16, 16, 16, float32]()
        fill_fragment(acc, 0)
        mma_sync(acc, a, b, acc)


def _mma_sizes_differ():
    with use_arch("gfx942"):
        a = fragment[matrix_a, 16, 16, 16, float16, row_major]()
        b = fragment[matrix_b, 16, 16, 32, float16, row_major]()
        acc = fragment[accumulator, 16, 16, 16, float32]()
        mma_sync(acc, a, b, acc)


# --- builtins: availability, immediates, signatures -----------------------------------------

_Z64 = np.zeros(64, np.float32)
_C64 = np.zeros((64, 4), np.float32)
_H16 = np.zeros((32, 16), np.float16)
_H8 = np.zeros((32, 8), np.float16)
_I8 = np.zeros((32, 2), np.int32)  # 8 int8 per lane as two words
_C32 = np.zeros((32, 8), np.int32)


def _on(arch, builtin, *args, **kwargs):
    with use_arch(arch):
        getattr(amdgcn, builtin)(*args, **kwargs)


def _builtin_on_wrong_arch():
    _on("gfx1100", "mfma_f32_16x16x4f32", _Z64, _Z64, _C64, 0, 0, 0)


def _opsel_passed_to_gfx12():
    _on("gfx1200", "wmma_f16_16x16x16_f16_w32_gfx12", _H8, _H8, _H8, True)


def _opsel_keyword_to_gfx12():
    _on("gfx1200", "wmma_bf16_16x16x16_bf16_w32_gfx12", _H8, _H8, _H8, opsel=False)


def _missing_builtin_argument():
    _on("gfx942", "mfma_f32_16x16x4f32", _Z64, _Z64, _C64)


def _operand_wrong_lanes():
    _on("gfx942", "mfma_f32_16x16x4f32", _Z64[:32], _Z64, _C64, 0, 0, 0)


def _opsel(value):
    return lambda: _on("gfx1100", "wmma_f16_16x16x16_f16_w32", _H16, _H16, _H16, value)


def _iu8(sgn_a=True, sgn_b=True, clamp=False):
    return lambda: _on("gfx1100", "wmma_i32_16x16x16_iu8_w32", sgn_a, _I8[:, :2], sgn_b,
                       _I8[:, :2], _C32, clamp)


def _mfma4x4(cbsz=0, abid=0, blgp=0):
    return lambda: _on("gfx942", "mfma_f32_4x4x1f32", _Z64, _Z64, _C64, cbsz, abid, blgp)


# --- fragment API misuse that used to run silently (issue 10 items 3-5, 7, 8; initcheck) ----

TILE = fragment[matrix_a, 16, 16, 16, float16, row_major]
ACC = fragment[accumulator, 16, 16, 16, float32]


def _fragment_from_another_arch():
    with use_arch("gfx90a"):
        stale = TILE()

    def body(src):
        load_matrix_sync(stale, src, 16)

    _launch(body, np.zeros(256, np.float16), arch="gfx942")


def _per_lane_pointer():
    def body(src):
        load_matrix_sync(TILE(), src + threadIdx.x // 32 * 16, 16)

    _launch(body, np.zeros(512, np.float16))


def _ldm(ldm):
    def probe():
        def body(src):
            load_matrix_sync(TILE(), src, ldm)

        _launch(body, np.zeros(512, np.float16))

    return probe


def _partial_barrier():
    def body():
        if threadIdx.y == 0:
            return
        synchronize_workgroup()

    kernel(body)[1, (64, 2), 0, "gfx942"].checked(synccheck=True)()


def _nested_launch_follows_use_arch():
    seen = []

    def inner():
        seen.append(get_arch(current_arch()).name)

    def outer():
        if threadIdx.y == 1:  # the second wave launches a kernel of its own
            kernel(inner)[1, 32]()

    with use_arch("gfx1100"):
        kernel(outer)[1, (32, 2)]()
    if seen != ["gfx1100"]:
        raise RuntimeError(f"nested launch ran on {seen}, not the outer use_arch gfx1100")
    raise LookupError("nested launch followed use_arch")  # the row's expected outcome


def _unfilled_accumulator():
    def body(src):
        a, b, acc = TILE(), fragment[matrix_b, 16, 16, 16, float16, row_major](), ACC()
        load_matrix_sync(a, src, 16)
        load_matrix_sync(b, src, 16)
        mma_sync(acc, a, b, acc)

    kernel(body)[1, 64, 0, "gfx942"].checked(initcheck=True)(np.zeros(256, np.float16))


def _unwritten_lds():
    def body(out):
        tile = shared_array(np.float32, 64)
        out[threadIdx.x] = tile[threadIdx.x]

    kernel(body)[1, 64, 0, "gfx942"].checked(initcheck=True)(np.zeros(64, np.float32))


# --- issue 17: silently wrong or silent misuse, unclear or deep errors -----------------------


def _mfma_f32(a, b=_Z64, c=_C64):
    with use_arch("gfx942"):
        return amdgcn.mfma_f32_16x16x4f32(a, b, c, 0, 0, 0)


def _half2_as_f32_operand():
    _mfma_f32(np.ones((64, 2), np.float16))  # a half2 per lane where HIP takes one float


def _complex_operand():
    _mfma_f32(np.ones(64, np.complex64))


def _floats_as_i8_operand():
    _on("gfx942", "mfma_i32_16x16x32_i8", np.ones((64, 8), np.float32), np.ones((64, 2), np.int32),
        np.zeros((64, 4), np.int32), 0, 0, 0)


def _packed_words_wrong_size():
    _on("gfx942", "mfma_i32_16x16x32_i8", np.ones((64, 3), np.int32), np.ones((64, 2), np.int32),
        np.zeros((64, 4), np.int32), 0, 0, 0)


def _big_endian_argument():
    _launch(lambda values: None, np.zeros(64, ">f4"))


def _zero_d_argument():
    _launch(lambda alpha, out: None, np.array(2.0, np.float32), np.zeros(64, np.float32))


def _async_kernel():
    async def body():
        pass

    kernel(body)


def _generator_kernel():
    def body():
        yield

    kernel(body)


def _string_sanitizer_flag():
    kernel(lambda: None)[1, 64].checked(initcheck="no")


def _bool_shared_bytes():
    _launch(lambda: None, shared=True)


def _grid_too_big(grid):
    return lambda: kernel(lambda: None)[grid, 64]


def _fragment_template(*params):
    return lambda: fragment[params]


def _huge_fragment():
    with use_arch("gfx942"):
        fragment[accumulator, 2**30, 16, 16, float32]()


def _float_scheduler_sizes():
    fragment_scheduler.coop_row_major_2d[64.9, 1.2]


def _wave_idx_outside_block():
    single = fragment[matrix_a, 16, 16, 16, float16, row_major,
                      fragment_scheduler.single[64, 1, 5]]

    def body(src):
        load_matrix_sync(single(), src, 16)

    _launch(body, np.zeros(256, np.float16))


def _assign_registers_of_another_dtype():
    with use_arch("gfx942"):
        ACC().x = np.zeros((4, 64))  # float64: 16x16 f32 accumulator is (4, 64) float32


def _assign_registers_of_another_shape():
    with use_arch("gfx942"):
        ACC().x = np.zeros((8, 64), np.float32)


def _negative_shared_dims():
    def body():
        __shared__(float32, -4, -4)

    _launch(body)


def _wmma_layout_on_typed_fragment():
    def body(src):
        a = wmma.fragment[wmma.matrix_a, 16, 16, 16, wmma.half, wmma.row_major]()
        wmma.load_matrix_sync(a, src, 16, wmma.mem_row_major)

    _launch(body, np.zeros(256, np.float16))


def _huge_offset(offset):
    def probe():
        def body(src):
            load_matrix_sync(TILE(), src + offset, 16)

        _launch(body, np.zeros(512, np.float16))

    return probe


def _uint64_lane_offsets():
    def body(src):
        return src[np.full(64, 2**64 - 1, np.uint64)]  # -1 once wrapped to int64

    _launch(body, np.zeros(64, np.float32))


MISUSE = [
    # issue 17: amdgcn operands are HIP's typed values (conversions: see the tests below)
    pytest.param(_half2_as_f32_operand, OperandShapeError,
                 ["operand a", "2 x float16", "1 x f32 per lane", "(lanes,)"], id="half2-as-f32"),
    pytest.param(_complex_operand, OperandTypeError, ["operand a", "complex64", "f32"],
                 id="complex-operand"),
    pytest.param(_floats_as_i8_operand, OperandTypeError,
                 ["operand a", "float32", "8 x i8 per lane", "integer words"],
                 id="floats-as-i8"),
    pytest.param(_packed_words_wrong_size, OperandShapeError,
                 ["operand a", "12 bytes per lane", "8 x i8"], id="packed-words-size"),
    # issue 17: launches
    pytest.param(_big_endian_argument, LaunchTypeError,
                 ["'values'", "non-native byte order", ">f4", "newbyteorder"], id="big-endian"),
    pytest.param(_zero_d_argument, LaunchTypeError, ["'alpha'", "0-d array", "alpha[()]",
                                                     "reshape(1)"], id="zero-d-argument"),
    pytest.param(_async_kernel, LaunchTypeError, ["'body'", "async def", "plain def"],
                 id="async-kernel"),
    pytest.param(_generator_kernel, LaunchTypeError, ["'body'", "generator", "yield"],
                 id="generator-kernel"),
    pytest.param(_string_sanitizer_flag, LaunchTypeError,
                 ["initcheck='no'", "true (on), false (off) or none"], id="sanitizer-flag-str"),
    pytest.param(_bool_shared_bytes, LaunchTypeError, ["shared_bytes", "int", "bool"],
                 id="shared-bytes-bool"),
    pytest.param(_grid_too_big(2**40), LaunchError,
                 ["grid (1099511627776,1,1)", "x <= 2147483647", "y <= 65535", "z <= 65535"],
                 id="grid-x-limit"),
    pytest.param(_grid_too_big((1, 65536)), LaunchError, ["(1,65536,1)", "y <= 65535"],
                 id="grid-y-limit"),
    pytest.param(_grid_too_big((1, 1, 70000)), LaunchError, ["(1,1,70000)", "z <= 65535"],
                 id="grid-z-limit"),
    # issue 17: fragment templates and registers
    pytest.param(_fragment_template(accumulator, True, 16, 16, float32), FragmentError,
                 ["FragM", "positive integer", "True"], id="fragm-bool"),
    pytest.param(_fragment_template(matrix_a, 16, 16), FragmentError,
                 ["5 to 7 template parameters", "MatrixT, FragM, FragN, FragK, DataT", "got 3",
                  "[matrix_a, 16, 16]"], id="fragment-too-few-params"),
    pytest.param(_huge_fragment, FragmentError,
                 ["1073741824", "registers per lane", "512", "smaller fragments"],
                 id="fragment-register-budget"),
    pytest.param(_float_scheduler_sizes, FragmentError,
                 ["coop_row_major_2d[64.9, 1.2]", "non-negative integers", "TBlockX, TBlockY"],
                 id="scheduler-float-sizes"),
    pytest.param(_wave_idx_outside_block, FragmentError,
                 ["single[64, 1, 5]", "WaveIdx=5", "1x1-wave block", "< 1"],
                 id="single-wave-idx"),
    pytest.param(_assign_registers_of_another_dtype, FragmentError,
                 [".x takes a float32 array of shape (4, 64)", "float64 (4, 64)", "frag.x[...]"],
                 id="frag-x-dtype"),
    pytest.param(_assign_registers_of_another_shape, FragmentError,
                 [".x takes a float32 array of shape (4, 64)", "float32 (8, 64)"],
                 id="frag-x-shape"),
    pytest.param(_negative_shared_dims, LdsError, ["__shared__(T, -4, -4)", "positive"],
                 id="shared-negative-dims"),
    pytest.param(_wmma_layout_on_typed_fragment, FragmentError,
                 ["matrix_a", "no layout_t argument", "accumulators only"],
                 id="wmma-layout-on-matrix-a"),
    # issue 17: huge or unsigned ints as ldm and offsets
    pytest.param(_ldm(2**70), FragmentValueError, ["ldm=1180591620717411303424", "uint32_t",
                                                   "4294967295"], id="ldm-huge"),
    pytest.param(_ldm(np.uint64(2**64 - 1)), FragmentValueError,
                 ["ldm=18446744073709551615", "uint32_t"], id="ldm-uint64"),
    pytest.param(_huge_offset(2**70), OutOfBoundsError,
                 ["element offset 1180591620717411303424", "beyond any buffer", "2**48"],
                 id="offset-huge"),
    pytest.param(_huge_offset(np.uint64(2**63 + 5)), OutOfBoundsError,
                 ["element offset 9223372036854775813", "beyond any buffer"],
                 id="offset-uint64-wraps"),
    pytest.param(_uint64_lane_offsets, OutOfBoundsError,
                 ["pointer index", "element offset 18446744073709551615", "beyond any buffer"],
                 id="lane-offsets-uint64"),
    # memory: the message names the buffer, the offset and the lane
    pytest.param(_load_past_end, OutOfBoundsError,
                 ["buffer 'src'", "offsets 64 by lane 56", "[0, 64)"], id="load-oob"),
    pytest.param(_store_past_end, OutOfBoundsError,
                 ["buffer 'dst'", "offsets -3 by lane 0", "[0, 64)"], id="store-oob"),
    pytest.param(_fragment_load_past_end, OutOfBoundsError,
                 ["buffer 'tile'", "offset", "lane", "[0, 256)"], id="fragment-load-oob"),
    pytest.param(_list_argument, DivergenceError, ["differs across lanes", "python list",
                                                    "numpy array"], id="list-argument"),
    pytest.param(_float_pointer_offset, TypeError, ["float", "//"], id="float-offset"),
    pytest.param(_non_contiguous_argument, TypeError, ["'values'", "C-contiguous",
                                                       "ascontiguousarray"], id="strided-array"),
    pytest.param(_pointer_type_mismatch, TypeError, ["float32", "f16"], id="pointer-type"),
    # control flow and LDS
    pytest.param(_divergent_branch, DivergenceError,
                 ["branch", "lanes 0-4 = True", "lanes 5-63 = False", "select"], id="divergence"),
    pytest.param(_lds_race, LdsRaceError, ["read-after-write", "wave 1", "wave 0", "lds[0]",
                                           "synchronize_workgroup"], id="lds-race"),
    pytest.param(_lds_write_after_write, LdsRaceError,
                 ["write-after-write", "wave 1", "wave 0", "offset 0"], id="lds-race-waw"),
    pytest.param(_lds_over_limit, LdsLimitError, ["65540 bytes", "65536-byte", "gfx942"],
                 id="lds-limit"),
    pytest.param(_builtin_outside_kernel, NotInKernelError, ["only inside a kernel"],
                 id="not-in-kernel"),
    # launch configuration and targets
    pytest.param(_fragment_in_partial_wave, TypeError,
                 ["mma_sync", "48 threads", "whole waves", "64"], id="fragment-partial-wave"),
    pytest.param(_block_too_big, ValueError, ["1088 threads", "at most 1024"], id="block-size"),
    pytest.param(_bad_launch_tuple, TypeError, ["[grid, block]"], id="launch-syntax"),
    pytest.param(_kernel_called_directly, TypeError, ["cannot be called directly",
                                                      "[grid, block]"], id="direct-call"),
    pytest.param(_negative_shared_bytes, ValueError, ["shared_bytes", ">= 0", "-1"],
                 id="negative-lds"),
    pytest.param(_unknown_arch, ValueError, ["'gfx1234'", "gfx908", "gfx1201"],
                 id="unknown-arch"),
    # fragments and mma_sync
    pytest.param(_unsupported_fragment_type, FragmentError, ["f64", "gfx1100", "supported:",
                                                             "f16"], id="fragment-type"),
    pytest.param(_cooperative_fragment_in_mma, FragmentError, ["mma_sync", "cooperative"],
                 id="coop-mma"),
    pytest.param(_mma_combination_missing, FragmentError,
                 ["f32/f32/f32", "gfx1100", "gfx908", "gfx90a", "gfx942", "gfx950"],
                 id="mma-types-missing"),
    pytest.param(_mma_sizes_differ, FragmentError, ["FragM/N/K", "16, 16, 32"],
                 id="mma-sizes"),
    # builtins: availability and signatures
    pytest.param(_builtin_on_wrong_arch, amdgcn.UnsupportedInstructionError,
                 ["mfma_f32_16x16x4f32", "gfx1100", "gfx908", "gfx950"], id="builtin-arch"),
    pytest.param(_opsel_passed_to_gfx12, TypeError,
                 ["wmma_f16_16x16x16_f16_w32_gfx12(a, b, c)", "gfx12 has no OPSEL"],
                 id="gfx12-opsel"),
    pytest.param(_opsel_keyword_to_gfx12, TypeError,
                 ["wmma_bf16_16x16x16_bf16_w32_gfx12(a, b, c)", "gfx12 has no OPSEL"],
                 id="gfx12-opsel-keyword"),
    pytest.param(_missing_builtin_argument, TypeError,
                 ["mfma_f32_16x16x4f32(a, b, c, cbsz, abid, blgp)", "'cbsz'"],
                 id="builtin-missing-arg"),
    pytest.param(_operand_wrong_lanes, ValueError, ["operand a", "(64, ...)", "(32,)"],
                 id="operand-lanes"),
    # builtins: immediates outside their encodable range (not taken as truthy)
    pytest.param(_opsel(2), ModifierError, ["wmma_f16_16x16x16_f16_w32", "opsel=2", "0..1"],
                 id="opsel-2"),
    pytest.param(_opsel(1.0), ModifierError, ["opsel=1.0", "integer", "0..1"], id="opsel-float"),
    pytest.param(_opsel(-1), ModifierError, ["opsel=-1", "0..1"], id="opsel-negative"),
    pytest.param(_opsel(np.array([0, 1])), ModifierError, ["opsel=array", "0..1"],
                 id="opsel-array"),
    pytest.param(_iu8(sgn_a=2), ModifierError, ["wmma_i32_16x16x16_iu8_w32", "sgn_a=2", "0..1"],
                 id="sgn_a-2"),
    pytest.param(_iu8(sgn_b=0.5), ModifierError, ["sgn_b=0.5", "0..1"], id="sgn_b-float"),
    pytest.param(_iu8(clamp=-1), ModifierError, ["clamp=-1", "0..1"], id="clamp-negative"),
    pytest.param(_iu8(clamp="yes"), ModifierError, ["clamp='yes'", "0..1"], id="clamp-str"),
    pytest.param(_mfma4x4(cbsz=5), ModifierError, ["mfma_f32_4x4x1f32", "cbsz=5", "0..4"],
                 id="cbsz-range"),
    pytest.param(_mfma4x4(cbsz=1.0), ModifierError, ["cbsz=1.0", "0..4"], id="cbsz-float"),
    pytest.param(_mfma4x4(cbsz=2, abid=4), ModifierError, ["abid=4", "0..3"], id="abid-range"),
    pytest.param(_mfma4x4(blgp=8), ModifierError, ["blgp=8", "0..7"], id="blgp-range"),
    pytest.param(_mfma4x4(blgp=-1), ModifierError, ["blgp=-1", "0..7"], id="blgp-negative"),
    pytest.param(_fragment_from_another_arch, FragmentError,
                 ["load_matrix_sync", "made for gfx90a", "runs on gfx942"], id="fragment-arch"),
    pytest.param(_per_lane_pointer, ValueError,
                 ["load_matrix_sync", "lanes 0-31 = 0, lanes 32-63 = 16", "one address per wave"],
                 id="per-lane-pointer"),
    pytest.param(_ldm(0), ValueError, ["ldm=0", ">= 16"], id="ldm-zero"),
    pytest.param(_ldm(-16), ValueError, ["ldm=-16", ">= 16"], id="ldm-negative"),
    pytest.param(_ldm(8), ValueError, ["ldm=8", "row_major", ">= 16"], id="ldm-too-small"),
    pytest.param(_ldm(16.0), TypeError, ["ldm must be an int", "float"], id="ldm-float"),
    pytest.param(_partial_barrier, BarrierError,
                 ["synccheck", "barrier #1", "waves 1", "wave 0 (after 0 barriers)"],
                 id="partial-barrier"),
    pytest.param(_nested_launch_follows_use_arch, LookupError, ["followed use_arch"],
                 id="nested-launch-arch"),
    pytest.param(_unfilled_accumulator, InitCheckError,
                 ["initcheck", "mma_sync reads c", "never filled", "block (0,0,0), wave 0"],
                 id="initcheck-fragment"),
    pytest.param(_unwritten_lds, InitCheckError,
                 ["initcheck", "lds[0]", "element offset 0", "block (0,0,0), wave 0"],
                 id="initcheck-lds"),
]


@pytest.mark.parametrize("probe,error,words", MISUSE)
def test_misuse_raises_a_specific_error(probe, error, words):
    with pytest.raises(error) as err:
        probe()
    message = str(err.value).lower()
    missing = [w for w in words if w.lower() not in message]
    assert not missing, f"message lacks {missing}: {err.value}"


@pytest.mark.parametrize("value", [False, True, 0, 1, np.bool_(True), np.int32(1)])
def test_opsel_accepts_bools_and_integers(value):
    """The valid spellings of a flag immediate select the same half as the Python bool."""
    ones, c = np.ones((32, 16), np.float16), np.full((32, 16), 7.0, np.float16)
    with use_arch("gfx1100"):
        d = amdgcn.wmma_f16_16x16x16_f16_w32(ones, ones, c, value)
    half = int(bool(value))  # the result (16 * 1 * 1 + 7) lands in that half of each VGPR
    assert (d[:, half::2] == 23).all() and (d[:, 1 - half::2] == 7).all()


_VALID_IMMEDIATES = {"cbsz": 0, "abid": 0, "blgp": 0, "opsel": 0, "sgn_a": 1, "sgn_b": 1,
                     "clamp": 0, "a_sign": 1, "b_sign": 1, "a_neg": 0, "b_neg": 0, "c_mod": 0,
                     "matrix_a_reuse": 0, "matrix_b_reuse": 0, "opsel_a": 0, "opsel_b": 0,
                     "matrix_a_fmt": 0, "matrix_b_fmt": 0, "matrix_a_scale": 0,
                     "matrix_b_scale": 0, "matrix_a_scale_fmt": 0, "matrix_b_scale_fmt": 0}


def _immediate_cases():
    """(arch, builtin, immediate) for every builtin taking immediates, on one arch having it."""
    for builtin in amdgcn.BUILTINS:
        arch = next(a for a in ("gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1200", "gfx1251")
                    if builtin in get_arch(a).instructions)
        args = amdgcn.instruction(builtin, arch).args
        yield from ((arch, builtin, a) for a in args if a in _VALID_IMMEDIATES)


@pytest.mark.parametrize("arch,builtin,immediate", list(_immediate_cases()))
def test_every_immediate_of_every_builtin_refuses_a_fraction(arch, builtin, immediate):
    """Immediates are checked before the operands, so scalar stand-ins reach the check."""
    args = amdgcn.instruction(builtin, arch).args
    operands = ("a", "b", "c", "index", "scale_a", "scale_b", "matrix_a_scale_exp",
                "matrix_b_scale_exp")
    call = {a: 0 for a in operands if a in args} | {a: _VALID_IMMEDIATES[a] for a in args
                                                     if a not in operands}
    call[immediate] = 0.5
    with pytest.raises(ModifierError, match=rf"{builtin}: {immediate}=0\.5 is not allowed"):
        _on(arch, builtin, **call)


# --- issue 17: what the amdgcn builtins convert, as C++ would -------------------------------


@pytest.mark.parametrize("a,b,c", [
    (np.full(64, 2, np.int32), np.full(64, 3, np.int32), np.full((64, 4), 1.5, np.float32)),
    (np.full(64, 2.0, ">f4"), np.full(64, 3.0, np.float32), np.full((64, 4), 1.5, ">f4")),
    (np.full(64, 2.0), np.full(64, 3, np.int8), np.full((64, 4), 1.5)),  # doubles, int8
])
def test_builtin_operands_convert_by_value(a, b, c):
    """int and double operands of mfma_f32_16x16x4f32 (float A/B, float4 C) convert by value
    and big-endian ones are read as numbers: every D element is K * 2 * 3 + 1.5 (K = 4)."""
    d = _mfma_f32(a, b, c)
    assert d.dtype == np.float32 and d.shape == (64, 4)  # the builtin's float4
    assert (d == 4 * 2 * 3 + 1.5).all()


def test_python_float_and_int_in_fragment_templates_are_cxx_32_bit():
    """C++ `float` and `int` are 32-bit: the same class as float32/int32 (behaviour change:
    Python's `float` used to mean f64)."""
    assert fragment[accumulator, 16, 16, 16, float] is fragment[accumulator, 16, 16, 16, float32]
    assert fragment[accumulator, 16, 16, 16, int].data_type is np.int32


def test_scheduler_templates_read_as_their_names():
    for name in ("coop_row_major_2d", "coop_col_major_2d", "coop_row_slice_2d",
                 "coop_col_slice_2d", "single"):
        template = getattr(fragment_scheduler, name)
        assert repr(template) == f"fragment_scheduler.{name}"
    assert str(fragment_scheduler.single[64, 1, 0]) == "single[64, 1, 0]"


# --- issue 17: one traceback ending at the kernel line ----------------------------------------


def _kernel_with_bug(values):
    values[threadIdx.x + 100] = 1.0  # the kernel line the traceback must end at


@pytest.mark.parametrize("engine", ["batch", "wave"])
@pytest.mark.parametrize("block", [64, (64, 2)])
def test_kernel_error_shows_one_traceback_ending_at_the_kernel_line(engine, block):
    """No chained second traceback (the batched engine reruns per wave after an error), no
    engine frames, and the last frame is the kernel's own line; the note names the wave."""
    with use_engine(engine), pytest.raises(OutOfBoundsError) as err:
        kernel(_kernel_with_bug)[2, block](np.zeros(64, np.float32))
    text = "".join(traceback.format_exception(err.type, err.value, err.tb))
    assert "During handling of the above exception" not in text
    assert err.value.__context__ is None and err.value.__cause__ is None
    frames = traceback.extract_tb(err.tb)
    assert frames[-1].name == "_kernel_with_bug" and "threadIdx.x + 100" in frames[-1].line
    package = os.path.dirname(rocwmma_py.__file__)
    launch_line = [] if sys.version_info >= (3, 11) else ["__call__"]  # 3.10 re-raises there
    assert [f.name for f in frames if f.filename.startswith(package)] == launch_line
    assert err.value.__notes__ == ["raised in kernel '_kernel_with_bug' (block (0,0,0), wave 0)"]


def test_errors_outside_the_package_keep_their_frames():
    """A non-package error inside a helper the kernel calls: traceback ends in the helper."""
    def helper():
        return {}["missing"]

    def body():
        helper()

    with pytest.raises(KeyError) as err:
        _launch(body)
    assert [f.name for f in traceback.extract_tb(err.tb)][-2:] == ["body", "helper"]


# --- issue 17: one base class, no bare built-in raised --------------------------------------

_BUILTIN_EXCEPTIONS = {name for name in dir(builtins)
                       if isinstance(getattr(builtins, name), type)
                       and issubclass(getattr(builtins, name), BaseException)}


def test_every_error_class_derives_from_rocwmma_error_and_is_exported():
    classes = [c for c in vars(errors).values()
               if isinstance(c, type) and issubclass(c, BaseException)]
    assert len(classes) > 30
    for cls in classes:
        assert issubclass(cls, RocwmmaError), cls
        assert getattr(rocwmma_py, cls.__name__) is cls and cls.__name__ in rocwmma_py.__all__
        if cls is not RocwmmaError:  # and from the built-in that fits
            assert set(cls.__mro__) & {getattr(builtins, n) for n in _BUILTIN_EXCEPTIONS} - {
                Exception, BaseException}, cls


def test_the_package_raises_no_bare_builtin_exception():
    """An AST scan of rocwmma_py/ for `raise ValueError(...)`, `raise TypeError`, ...; only
    `raise SystemExit(main())` of the command line, and runtime/weak_ops.py — which raises in
    a batch exactly what Python raises for a per-wave `blockIdx` int (`100 // 0`), so the
    batch reruns per wave and Python itself raises it there — are built-ins on purpose."""
    root = pathlib.Path(rocwmma_py.__file__).parent
    bare = []
    for path in sorted(root.rglob("*.py")):
        if path.relative_to(root).as_posix() == "runtime/weak_ops.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Raise) and node.exc is not None:
                exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
                if isinstance(exc, ast.Name) and exc.id in _BUILTIN_EXCEPTIONS - {"SystemExit"}:
                    bare.append(f"{path.relative_to(root)}:{node.lineno} raise {exc.id}")
    assert not bare, "\n".join(bare)
