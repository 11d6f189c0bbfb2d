"""The RDNA3 APU and RDNA 3.5 targets (gfx1103, gfx1150-gfx1153): gfx1100's matrix cores.

Each is one row of the architecture table; these tests check that a rocWMMA fragment GEMM
and every gfx11 WMMA builtin give gfx1100's bits on the same data, and that every place a
target name is taken (get_arch, use_arch, launches, the inspector, the CUDA facade, the
samples' --arch) accepts them.
"""

from __future__ import annotations

from dataclasses import replace

import ml_dtypes
import numpy as np
import pytest
from gemm_kernels import RDNA35, make_problem, run_gemm, type_set

from rocwmma_py import ARCH_NAMES, Constants, amdgcn, get_arch, kernel, use_arch
from rocwmma_py import types as T
from rocwmma_py.cuda import wmma
from rocwmma_py.inspector.cli import layout_main
from rocwmma_py.inspector.details import _vgprs

WMMA11 = sorted(get_arch("gfx1100").instructions)


@pytest.mark.parametrize("arch", RDNA35)
def test_row_is_gfx1100s(arch):
    a = get_arch(arch)
    assert arch in ARCH_NAMES and a.name == arch and a.family == "gfx11"
    assert a.wave_size == 32 and a.lds_bytes == 64 * 1024 and a.arch_id == int(arch[3:], 16)
    assert sorted(a.instructions) == WMMA11  # the six RDNA3 builtins, _w32 and _w64
    assert get_arch(arch.upper()) is a
    with use_arch(arch) as got:
        assert got is a


@pytest.mark.parametrize("types", ["f16_f32_f32", "bf16_bf16_bf16", "i8_i32_i32"])
@pytest.mark.parametrize("arch", RDNA35)
def test_fragment_gemm_is_gfx1100s(arch, types):
    problem = make_problem(type_set(types, arch), 64, 64, 64)
    if not types.startswith("i8"):  # values that round, so the bits say which order summed
        rng = np.random.default_rng(1151)
        t = problem.types
        problem = replace(problem, **{
            x: rng.uniform(-2, 2, getattr(problem, x).shape).astype(e.storage).astype(float)
            for x, e in (("a", t.input), ("b", t.input), ("c", t.output))})
    want = run_gemm(problem, "gfx1100", (16, 16, 16))
    got = run_gemm(problem, arch, (16, 16, 16))
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(np.ascontiguousarray(got).view(np.uint8),
                                  np.ascontiguousarray(want).view(np.uint8))


def _operand(rng, t, n: int, lanes: int) -> np.ndarray:
    """(lanes, n) random elements of type t, as HIP passes them (float vectors as elements,
    the rest as 32-bit words)."""
    if t is T.int4:
        raw = rng.integers(0, 256, (lanes, n // 2)).astype(np.uint8)
        return raw.view(np.uint32)
    if t is T.int8:
        return rng.integers(-128, 128, (lanes, n)).astype(np.int8).view(np.uint32)
    el = rng.uniform(-4, 4, (lanes, n)).astype(ml_dtypes.bfloat16 if t is T.bfloat16 else t)
    return el if el.dtype in (np.float16, np.float32) else el.view(np.uint32)


@pytest.mark.parametrize("builtin", WMMA11)
@pytest.mark.parametrize("arch", RDNA35)
def test_wmma_builtins_are_gfx1100s(arch, builtin):
    instr = get_arch("gfx1100").instructions[builtin]
    vgprs, lanes = _vgprs(instr), instr.wave
    rng = np.random.default_rng(abs(hash((arch, builtin))) % 2**32)
    a = _operand(rng, instr.a_type, vgprs["A"] * 32 // T.bits(instr.a_type), lanes)
    b = _operand(rng, instr.b_type, vgprs["B"] * 32 // T.bits(instr.b_type), lanes)
    n_c = vgprs["C"] * 32 // T.bits(instr.c_type)
    c_dtype = ml_dtypes.bfloat16 if instr.c_type is T.bfloat16 else instr.c_type
    if instr.integer:
        c = rng.integers(-1000, 1000, (lanes, n_c)).astype(c_dtype)
    else:
        c = rng.uniform(-4, 4, (lanes, n_c)).astype(c_dtype)
    extra = {"opsel": [False, True], "sgn_a": [True, False], "sgn_b": [True, False],
             "clamp": [False, True]}
    for pick in (0, 1):
        kwargs = dict(a=a, b=b, c=c, **{x: extra[x][pick] for x in instr.args if x in extra})
        with use_arch("gfx1100"):
            want = np.asarray(getattr(amdgcn, builtin)(**kwargs))
        with use_arch(arch):
            got = np.asarray(getattr(amdgcn, builtin)(**kwargs))
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))


@pytest.mark.parametrize("arch", RDNA35)
def test_launch_and_cuda_facade_accept_the_names(arch):
    @kernel
    def wave(out):
        from rocwmma_py import threadIdx
        out[threadIdx.x] = threadIdx.x

    out = np.zeros(32, np.int32)
    wave[1, 32, 0, arch](out)
    np.testing.assert_array_equal(out, np.arange(32))
    assert arch in wmma.targets_for(wmma.half) and arch in wmma.targets_for(wmma.unsigned_char)


@pytest.mark.parametrize("arch", RDNA35)
def test_inspector_accepts_the_names(arch, capsys):
    assert layout_main(["--instr", "v_wmma_f32_16x16x16_f16", "--arch", arch, "--detail"]) == 0
    assert f"on {arch} (wave32)" in capsys.readouterr().out
    assert layout_main(["--fragment", "a", "--shape", "16x16x16", "--dtype", "f16", "--compare",
                 "gfx1100", arch]) == 0
    assert arch in capsys.readouterr().out


@pytest.mark.parametrize("arch", RDNA35)
def test_samples_take_the_names(arch):
    from samples import common

    assert arch in common.sample_parser("doc").arch_choices
    args = common.parse_args(["--arch", arch], "doc", "gfx1100", ["wmma_f32_16x16x16_f16_w32"])
    assert args.arch == arch
    assert common.is_gfx11(arch) and arch in common.DEVICES


@pytest.mark.parametrize("name", ARCH_NAMES)
def test_rocwmma_constants_name_every_target(name):
    """rocWMMA's `Constants::AMDGCN_ARCH_ID_GFXnnnn` is 0xnnnn (internal/constants.hpp), for
    the new targets as for the old ones; AMDGCN_CURRENT_ARCH_ID follows the target."""
    want = int(name.removeprefix("gfx"), 16)
    assert getattr(Constants, f"AMDGCN_ARCH_ID_{name.upper()}") == want
    with use_arch(name):
        assert Constants.AMDGCN_CURRENT_ARCH_ID == want
