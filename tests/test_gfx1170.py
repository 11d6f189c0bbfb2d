"""gfx1170 ("RDNA 4m"): a gfx11-numbered target with RDNA4's WMMA/SWMMAC set.

Oracle: LLVM TargetParser gives gfx1170 `wmma-128b-insts` and `swmmac-gfx1200-insts`, the
features BuiltinsAMDGPU.td gates the gfx12 WMMA (`_gfx12`) and SWMMAC (`_w32`/`_w64`)
builtins on (shared/reference/sparse.md §7, sources TP and TD there), so the builtin set,
wave sizes and layouts are gfx1201's; a GEMM on gfx1170 gives gfx1201's bits.
"""

from __future__ import annotations

import numpy as np
import pytest
from gemm_kernels import gemm_reference, make_problem, run_gemm, type_set

from rocwmma_py.arch import ARCH_NAMES, get_arch
from rocwmma_py.arch.devices import device_properties

pytestmark = pytest.mark.smoke


def test_row():
    a = get_arch("gfx1170")
    assert "gfx1170" in ARCH_NAMES and a.family == "gfx12" and a.arch_id == 0x1170
    assert a.wave_size == 32 and a.acc_layout == "wmma12"
    assert device_properties("gfx1170").major == 11 and device_properties("gfx1170").minor == 7


def test_same_builtins_and_layouts_as_gfx1201():
    mine, rdna4 = get_arch("gfx1170").instructions, get_arch("gfx1201").instructions
    assert sorted(mine) == sorted(rdna4)
    assert any(n.endswith("_w64_gfx12") for n in mine)  # wave64 forms too
    for name, instr in mine.items():
        other = rdna4[name]
        for lay, lay2 in ((instr.a_layout, other.a_layout), (instr.b_layout, other.b_layout),
                          (instr.c_layout(), other.c_layout())):
            assert np.array_equal(lay.row, lay2.row) and np.array_equal(lay.col, lay2.col)


@pytest.mark.parametrize("types", ["f16_f32_f32", "bf16_bf16_bf16", "i8_i32_i32",
                                   "f8_f32_f32", "u8_i32_i32"])
def test_rocwmma_gemm_grid(types):
    problem = make_problem(type_set(types, "gfx1170"), 64, 64, 64)
    got = run_gemm(problem, "gfx1170", (16, 16, 32))
    np.testing.assert_array_equal(np.asarray(got, np.float64),
                                  np.asarray(gemm_reference(problem), np.float64))
    want = run_gemm(problem, "gfx1200", (16, 16, 32))
    assert np.ascontiguousarray(got).tobytes() == np.ascontiguousarray(want).tobytes()
