"""The ports of rocWMMA's samples (samples/simple_*, perf_*, runtime_gemm, simple_dlrm): every
sample on every target it supports, at the smallest sizes its tiling allows, must print
PASSED; unsupported targets and sizes print the original's refusal and exit 2."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from rocwmma_py import ARCH_NAMES
from samples import common

pytestmark = pytest.mark.smoke

ROOT = Path(__file__).resolve().parents[1]
GFX9 = ["gfx908", "gfx90a", "gfx942", "gfx950"]
F64 = ["gfx90a", "gfx942", "gfx950"]

# sample -> (supported targets, smallest size flags, refusal printed elsewhere)
SAMPLES = {
    "simple_sgemm": (GFX9, ["-m", "64", "-n", "64", "-k", "16"],
                     "f32 sgemm not supported on this device"),
    "simple_dgemm": (F64, ["-m", "64", "-n", "64", "-k", "16"],
                     "f64 dgemm not supported on this device"),
    "simple_hgemm": (ARCH_NAMES, ["-m", "64", "-n", "64", "-k", "32"], None),
    "runtime_gemm": (ARCH_NAMES, ["-m", "64", "-n", "64", "-k", "32"], None),
    "simple_sgemv": (GFX9, ["-m", "32", "-k", "32"], "f32 sgemv not supported on this device"),
    "simple_dgemv": (F64, ["-m", "32", "-k", "32"], "f64 dgemv not supported on this device"),
    "perf_hgemm": (ARCH_NAMES, ["-m", "128", "-n", "128", "-k", "32"], None),
    "perf_i8gemm": (ARCH_NAMES, ["-m", "128", "-n", "128", "-k", "32"], None),
    "perf_sgemm": (GFX9, ["-m", "128", "-n", "128", "-k", "32"],
                   "f32 sgemm not supported on this device"),
    "perf_dgemm": (F64, ["-m", "64", "-n", "64", "-k", "32"],
                   "f64 dgemm not supported on this device"),
}
RUNS = [(s, a) for s, (archs, _, _) in SAMPLES.items() for a in archs]
REFUSALS = [(s, a) for s, (archs, _, r) in SAMPLES.items() if r for a in ARCH_NAMES
            if a not in archs]


def run(sample: str, argv: list[str], capsys) -> tuple[int, str]:
    rc = importlib.import_module(f"samples.{sample}").main(argv)
    return rc, capsys.readouterr().out


@pytest.mark.parametrize(("sample", "arch"), RUNS)
def test_sample_passes(sample, arch, capsys):
    rc, out = run(sample, ["--arch", arch, *SAMPLES[sample][1]], capsys)
    assert rc == common.PASSED, out
    assert "PASSED" in out and "FAILED" not in out
    assert "Initializing device data..." in out and "Finished!" in out
    rel = float(out.split("Max relative error: ")[1].split()[0])
    assert rel <= 10 * 2.0**-23  # exact up to the f32 epilogue's rounding


@pytest.mark.parametrize(("sample", "arch"), REFUSALS)
def test_sample_refuses_target(sample, arch, capsys):
    rc, out = run(sample, ["--arch", arch], capsys)
    assert rc == common.REFUSED
    assert out.strip() == SAMPLES[sample][2]


@pytest.mark.parametrize(("sample", "sizes", "message"), [
    ("simple_hgemm", ["-m", "48"], "Unsupported size! M must be a multiple of 16 and at "
                                   "least 64"),  # m < 16 * T_BLOCK_X / W = 64
    ("simple_sgemm", ["-k", "40"], "Unsupported size! M must be"),
    ("simple_sgemv", ["-m", "40"], "Unsupported size! M must be a multiple of 16, K a "
                                   "multiple of 16"),
    ("perf_hgemm", ["-m", "64", "-n", "128"], "Unsupported matrix size! M must be a "
                                              "multiple of 32 and at least 128"),
    ("perf_dgemm", ["-k", "24"], "Unsupported matrix size!"),
    ("simple_dlrm", ["-m", "20"], "Unsupported size! M and K must be multiples of 16"),
])
def test_sample_refuses_size(sample, sizes, message, capsys):
    """The original's refusal words, then what is allowed."""
    rc, out = run(sample, ["--arch", "gfx942", *sizes], capsys)
    assert rc == common.REFUSED and out.strip().startswith(message), out


def test_perf_sample_prints_timing_and_model(capsys):
    rc, out = run("perf_hgemm", ["--arch", "gfx1100", "-m", "128", "-n", "64", "-k", "16"],
                  capsys)
    assert rc == common.PASSED, out
    assert "gridDim (1 1) blockdim (64 2)" in out  # gfx11 macro tile 128 x 64
    header, values = out.split("gridDim (1 1) blockdim (64 2)\n")[1].splitlines()[:2]
    assert header.split()[:7] == ["TBlockX", "TBlockY", "BlocksM", "BlocksN", "BlkM", "BlkN",
                                  "BlkK"]
    assert values.split()[:10] == ["64", "2", "4", "2", "16", "16", "16", "128", "64", "16"]
    assert "GFLOP/s (wall time of the emulator)" in out
    # 8 x 4 output blocks of 16x16, one K step, one wmma_f32_16x16x16_f16 each
    assert "32 x wmma_f32_16x16x16_f16_w32 (32 cycles)" in out and "Model (gfx1100" in out


def test_unknown_arch_lists_targets(capsys):
    with pytest.raises(SystemExit) as exc:
        importlib.import_module("samples.simple_hgemm").main(["--arch", "gfx1030"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "unknown architecture 'gfx1030'" in err and all(a in err for a in ARCH_NAMES)


def test_help_lists_every_flag(capsys):
    with pytest.raises(SystemExit):
        importlib.import_module("samples.perf_hgemm").main(["--help"])
    out = capsys.readouterr().out
    for flag in ("--arch", "-m N", "-n N", "-k N", "--seed", "--warmups", "--runs", "7168"):
        assert flag in out


def test_wrong_kernel_fails(capsys):
    """A runtime-compiled kernel that reads B with the wrong layout must FAIL (exit 1)."""
    runtime_gemm = importlib.import_module("samples.runtime_gemm")
    wrong = runtime_gemm.SOURCE.replace("InputT, col_major]", "InputT, row_major]")
    assert wrong != runtime_gemm.SOURCE
    rc = runtime_gemm.main(["-m", "64", "-n", "64", "-k", "32"], source=wrong)
    out = capsys.readouterr().out
    assert rc == common.FAILED and "FAILED!" in out and "PASSED" not in out


def test_source_that_does_not_compile_fails(capsys):
    rc = importlib.import_module("samples.runtime_gemm").main([], source="def broken(:\n")
    out = capsys.readouterr().out
    assert rc == common.FAILED and "Runtime compile failed." in out and "SyntaxError" in out


@pytest.mark.parametrize("how", ["installed", "module"])
def test_runs_from_any_directory(how, tmp_path):
    target = ["-m", "rocwmma_py.samples", "simple_dgemv"] if how == "installed" else [
        "-m", "samples.simple_dgemv"]
    env_path = {"PYTHONPATH": str(ROOT)} if how == "module" else {}
    proc = subprocess.run([sys.executable, *target, "-m", "32", "-k", "16"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120,
                          env={**_clean_env(), **env_path})
    assert proc.returncode == 0, proc.stderr
    assert "PASSED!" in proc.stdout


def _clean_env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ROCWMMA_PY_ARCH")}


# --- the host helpers the samples validate with ----------------------------------------------


def test_compare_equal_follows_rocwmma():
    ref = np.ones((4, 4), np.float16)
    bad = ref.copy()
    bad[1, 2] = 1.5  # rel 0.5 / 3.5 > 10 * eps(f16)
    assert common.compare_equal(ref, ref, np.float16) == (True, 0.0)
    ok, rel = common.compare_equal(bad, ref, np.float16)
    assert not ok and rel == pytest.approx(0.5 / 3.5)
    close = ref.astype(np.float32) + np.float32(1e-3)  # rel ~ 3.3e-4 <= 9.77e-3 for f16 ...
    assert common.compare_equal(close, ref, np.float16)[0]
    assert not common.compare_equal(close, ref, np.float32)[0]  # ... but not for f32
    assert common.compare_equal(np.full(2, np.nan, np.float16), ref[0, :2], np.float16)[0] is False
    assert common.compare_equal(np.array([np.inf]), np.array([1.0]), np.float32) == (
        False, float("inf"))
    assert not common.compare_equal(np.array([3], np.int32), np.array([2], np.int32),
                                    np.int32)[0]  # integers: epsilon 0


def test_fill_rand_values():
    rng = np.random.default_rng(0)
    signed = common.fill_rand(rng, 64, 7, np.float32)
    assert set(np.unique(signed)) <= {0, 1, 2, -3, 4}
    row = signed[5].astype(int)
    r = np.abs(row[0]) if row[0] != -3 else 3
    assert [abs(v) for v in row] == [(r + j) % 5 for j in range(7)]
    assert set(np.unique(common.fill_rand(rng, 8, 8, np.uint8))) <= {0, 1, 2, 3, 4}


def test_exact_matmul_is_exact_for_f16_fractions():
    rng = np.random.default_rng(1)
    a = common.fill_unit(rng, (4, 128), np.float16)
    b = common.fill_unit(rng, (128, 4), np.float16)
    from fractions import Fraction

    want = [[sum(Fraction(float(a[i, h])) * Fraction(float(b[h, j])) for h in range(128))
             for j in range(4)] for i in range(4)]
    got = common.exact_matmul(a, b)
    assert all(got[i, j] == float(want[i][j]) for i in range(4) for j in range(4))


# --- simple_dlrm: per-lane masked memory access with `where` (issue 7 item 2) ----------------


@pytest.mark.parametrize("arch", ARCH_NAMES)
@pytest.mark.parametrize("direction", ["forward", "backward"])
def test_simple_dlrm_passes(arch, direction, capsys):
    rc, out = run("simple_dlrm", ["--arch", arch, "-m", "32", "-k", "32", "-b", "2",
                                  "--direction", direction], capsys)
    assert rc == common.PASSED, out
    assert out.count("PASSED!") == (1 if direction == "forward" else 2)
    assert f"Launching {direction}s DLRM kernel..." in out
