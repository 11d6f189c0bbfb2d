"""gfx1250, gfx1251 and gfx1170 where users meet them: the samples' --arch, the layout
inspector, the CUDA wmma facade, device properties and names, and the gfx1250 cross-lane
builtins the emulator leaves out (no public statement of their semantics)."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from rocwmma_py import amdgcn
from rocwmma_py.arch import get_arch
from rocwmma_py.arch.aliases import ALIASES
from rocwmma_py.arch.devices import device_properties
from rocwmma_py.cuda import __global__, wmma
from rocwmma_py.inspector import cli

pytestmark = pytest.mark.smoke

NEW = ["gfx1250", "gfx1251", "gfx1170"]

# samples whose builtins exist there, and the checks they print when they pass
RUNS = [("simple_hgemm", ["-m", "64", "-n", "64", "-k", "64"], "Finished!"),
        ("runtime_gemm", ["-m", "64", "-n", "64", "-k", "64"], "Finished!"),
        ("simple_gemm_swiglu", ["-m", "64", "-n", "64", "-k", "64"], "completed successfully"),
        ("simple_dlrm", [], "Finished!"),
        ("splitk_gemm", [], "PASSED"),
        ("softmax_attention", [], "PASSED"),
        ("persistent_gemm", [], "PASSED")]


@pytest.mark.parametrize("arch", ["gfx1250", "gfx1170"])
@pytest.mark.parametrize("sample, argv, word", RUNS, ids=[r[0] for r in RUNS])
def test_sample_runs(sample, argv, word, arch, capsys):
    rc = importlib.import_module(f"samples.{sample}").main(argv + ["--arch", arch])
    out = capsys.readouterr().out
    assert rc in (0, None), out
    assert word in out and "FAILED" not in out


@pytest.mark.parametrize("sample", ["rdna4_wmma_hello", "rdna4_int8_fused_mma",
                                    "rdna4_transpose_load", "sparse_gemm"])
def test_gfx12_builtin_samples_run_on_gfx1170(sample, capsys):
    """gfx1170 has RDNA4's `_gfx12` WMMA and `_w32` SWMMAC builtins."""
    assert importlib.import_module(f"samples.{sample}").main(["--arch", "gfx1170"]) == 0
    assert "PASSED" in capsys.readouterr().out


@pytest.mark.parametrize("sample", ["rdna4_wmma_hello", "sparse_gemm", "mfma_examples"])
def test_samples_without_gfx1250_builtins_refuse_it(sample, capsys):
    """`_gfx12`, `_w32` and MFMA builtins do not exist on gfx1250: argparse names the
    targets that have them."""
    with pytest.raises(SystemExit):
        importlib.import_module(f"samples.{sample}").main(["--arch", "gfx1250"])
    assert "invalid choice: 'gfx1250'" in capsys.readouterr().err


def test_inspector_instruction(capsys):
    assert cli.layout_main(["--instr", "v_wmma_f32_16x16x32_f16", "--arch", "gfx1250"]) == 0
    out = capsys.readouterr().out
    assert "v_wmma_f32_16x16x32_f16 A on gfx1250 (wave32)" in out
    rows: dict[str, list[str]] = {}
    for line in out.splitlines():  # the first grid: the lane holding A[i][k]
        if line[:3].strip().isdigit():
            rows.setdefault(line.split()[0], line.split()[1:])
    # CK's gfx1250 A layout: row i in lanes i (k 0-7, 16-23) and i + 16 (k 8-15, 24-31)
    assert rows["3"] == ["3"] * 8 + ["19"] * 8 + ["3"] * 8 + ["19"] * 8


@pytest.mark.parametrize("arch", NEW)
def test_inspector_fragment(arch, capsys):
    assert cli.layout_main(["--fragment", "a", "--arch", arch]) == 0
    assert f"on {arch} (wave32)" in capsys.readouterr().out


def test_inspector_lists_the_instructions(capsys):
    assert cli.layout_main(["--list-instructions", "--arch", "gfx1250"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("43 instructions on gfx1250")  # 37 + 6 MX WMMA
    listed = {line.split()[1] for line in out.splitlines()[2:] if line.strip()}
    assert listed == set(get_arch("gfx1250").instructions)


FragA = wmma.fragment[wmma.matrix_a, 16, 16, 16, wmma.half, wmma.row_major]
FragB = wmma.fragment[wmma.matrix_b, 16, 16, 16, wmma.half, wmma.col_major]
Acc = wmma.fragment[wmma.accumulator, 16, 16, 16, float]


@__global__
def half_gemm(a, b, c, d):
    fa, fb, fc = FragA(), FragB(), Acc()
    wmma.load_matrix_sync(fa, a, 16)
    wmma.load_matrix_sync(fb, b, 16)
    wmma.load_matrix_sync(fc, c, 16, wmma.mem_row_major)
    wmma.mma_sync(fc, fa, fb, fc)
    wmma.store_matrix_sync(d, fc, 16, wmma.mem_row_major)


@pytest.mark.parametrize("arch", NEW)
def test_cuda_wmma_half_gemm(arch):
    """16x16x16 half GEMM through nvcuda::wmma: small integers, so D is exact."""
    rng = np.random.default_rng(7)
    a, b = (rng.integers(-3, 4, (16, 16)).astype(np.float16) for _ in range(2))
    c = rng.integers(-50, 50, (16, 16)).astype(np.float32)
    d = np.zeros((16, 16), np.float32)
    half_gemm[1, 32, 0, arch](a, b.T.copy(), c, d)
    np.testing.assert_array_equal(d, c + a.astype(np.float64) @ b.astype(np.float64))


@pytest.mark.parametrize("arch", NEW)
def test_device_properties(arch):
    props = device_properties(arch)
    assert props.gcnArchName.startswith(arch) and props.warpSize == 32
    assert "no public product" in props.name  # placeholder figures say so
    assert props.sharedMemPerBlock <= get_arch(arch).lds_bytes


def test_no_product_alias_without_a_source():
    """No product name maps to the new targets (none was found in AMDGPUUsage's table), only
    the generation names: RDNA 4m (llvm/llvm-project#180185) and CDNA5 (GFX12.5)."""
    assert {a: t for a, t in ALIASES.items() if t in NEW} == {"RDNA4m": "gfx1170",
                                                             "CDNA5": "gfx1250"}


def test_gfx1250_permlane_idx_gen_is_left_out():
    """Its sources contradict each other on what it computes; the emulator does not guess
    (permlane_bcast/up/down/xor are in: tests/test_permlane1250.py)."""
    assert not hasattr(amdgcn, "permlane_idx_gen")
    assert "permlane_idx_gen" not in amdgcn.CROSS_LANE_BUILTINS
    for name in ("permlane_bcast", "permlane_up", "permlane_down", "permlane_xor"):
        assert name in amdgcn.CROSS_LANE_BUILTINS
