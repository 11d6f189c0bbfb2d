"""No silent wrong results (issue 10): every misuse raises a specific exception whose message
names what was wrong and what is allowed.

One table: (probe, exception type, key words the message must contain, case-insensitive).
A probe is a small function doing one wrong thing.
"""

from __future__ import annotations

import numpy as np
import pytest

from rocwmma_py import (
    FragmentError,
    accumulator,
    amdgcn,
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
)
from rocwmma_py.arch.execute import ModifierError
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


def _block_not_whole_waves():
    _launch(lambda: None, block=48)


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


MISUSE = [
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
    pytest.param(_block_not_whole_waves, ValueError, ["48 threads", "multiple of", "64"],
                 id="block-partial-wave"),
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
                     "clamp": 0}


def _immediate_cases():
    """(arch, builtin, immediate) for every builtin taking immediates, on one arch having it."""
    for builtin in amdgcn.BUILTINS:
        arch = next(a for a in ("gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1200")
                    if builtin in get_arch(a).instructions)
        args = amdgcn.instruction(builtin, arch).args
        yield from ((arch, builtin, a) for a in args if a in _VALID_IMMEDIATES)


@pytest.mark.parametrize("arch,builtin,immediate", list(_immediate_cases()))
def test_every_immediate_of_every_builtin_refuses_a_fraction(arch, builtin, immediate):
    """Immediates are checked before the operands, so scalar stand-ins reach the check."""
    args = amdgcn.instruction(builtin, arch).args
    call = {a: 0 for a in "abc"} | {a: _VALID_IMMEDIATES[a] for a in args if a not in "abc"}
    call[immediate] = 0.5
    with pytest.raises(ModifierError, match=rf"{builtin}: {immediate}=0\.5 is not allowed"):
        _on(arch, builtin, **call)
