"""The ports of rocWMMA's community samples (simple_gemm_act, simple_fusion_gemm,
simple_gemm_swiglu): every sample on every target it supports, at small sizes that still
take two K steps (and, for the fusion, two N tiles and two D column tiles), prints PASSED;
unsupported targets and sizes print the original's refusal and exit 2."""

from __future__ import annotations

import importlib
import importlib.util
import os
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

# sample -> (supported targets, small size flags, refusal on the other targets)
SAMPLES = {
    "simple_gemm_act": (GFX9, ["-m", "64", "-n", "128", "-k", "64"],
                        "This sample not tested on gfx11/gfx12 yet!"),
    "simple_fusion_gemm": (GFX9, ["-m", "64", "-n", "128", "-k", "128"],
                           "This sample Not test on gfx11/gfx12 yet!"),
    "simple_gemm_swiglu": (ARCH_NAMES, ["-m", "64", "-n", "64", "-k", "32"], None),
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
    assert "PASSED" in out and "FAILED" not in out and "Finished!" in out
    assert "Initializing host data" in out
    rel = float(out.split("Max relative error: ")[1].split()[0])
    assert rel == 0.0  # int8 / int32 results are exact; the f16 SwiGLU rounds like the reference


@pytest.mark.parametrize(("sample", "arch"), REFUSALS)
def test_unsupported_arch_refused(sample, arch, capsys):
    rc, out = run(sample, ["--arch", arch], capsys)
    assert rc == common.REFUSED
    assert out.strip() == SAMPLES[sample][2]


@pytest.mark.parametrize(("sample", "argv", "message"), [
    ("simple_gemm_act", ["-m", "48"], "Unsupported matrix size!"),         # < macro tile
    ("simple_gemm_act", ["-k", "48"], "Unsupported matrix size!"),         # k % ROCWMMA_K
    ("simple_gemm_act", ["-m", "112"], "Unsupported matrix size!"),        # partial macro tile
    ("simple_fusion_gemm", ["-k", "96"], "Unsupported matrix size!"),      # k % MACRO_TILE_Y
    ("simple_fusion_gemm", ["-k", "2112"], "Error: sv_iterations=33 exceeds supported max"),
    ("simple_gemm_swiglu", ["-n", "96"], "Unsupported matrix size! M must be a multiple of 64"),
    ("simple_gemm_swiglu", ["--arch", "gfx1100", "-k", "40"], "K must be a multiple of 16"),
])
def test_unsupported_size_refused(sample, argv, message, capsys):
    rc, out = run(sample, argv, capsys)
    assert rc == common.REFUSED
    assert message in out and "PASSED" not in out


def test_wrong_result_fails(monkeypatch, capsys):
    """A kernel that skips the activation is caught: FAILED and exit status 1."""
    act = importlib.import_module("samples.simple_gemm_act")
    real_do_silu = act.do_silu
    monkeypatch.setattr(act, "do_silu", lambda acc, out, _apply: real_do_silu(acc, out, False))
    rc, out = run("simple_gemm_act", ["-m", "64", "-n", "128", "-k", "32"], capsys)
    assert rc == common.FAILED and "FAILED" in out


def test_references():
    """The references against hand-computed values: SiLU's float chain, saturation,
    the fusion's int8 clip between the GEMMs, and SwiGLU's rounding."""
    act = importlib.import_module("samples.simple_gemm_act")
    silu = act.silu_f32(np.array([-3, 0, 1, 5, 20, 200]), act.expf_rounded)
    assert act.saturate_int8(silu).tolist() == [0, 0, 0, 4, 20, 127]  # 20 * sigmoid(20) -> 20.0f
    fusion = importlib.import_module("samples.simple_fusion_gemm")
    s = fusion.gemm_cpu_simple(np.full((1, 64), 4, np.int8), np.full((64, 1), 4, np.int8))
    assert s.tolist() == [[1024]]  # saturated to 127 before the second GEMM in the sample
    swiglu = importlib.import_module("samples.simple_gemm_swiglu")
    one = np.ones((1, 1), np.float16)
    d = swiglu.swiglu_cpu_ref(one, one, 2 * one)
    assert d.dtype == np.float16 and float(d[0, 0]) == float(np.float16(2 / (1 + np.exp(-1))))


@pytest.mark.parametrize("how", ["installed", "runner", "repository"])
def test_entry_points_from_elsewhere(how, tmp_path):
    """`python -m rocwmma_py.samples.NAME` and `python -m rocwmma_py.samples NAME` (what
    `rocwmma-sample NAME` runs) from an unrelated directory holding its own `samples`
    package, and `python -m samples.NAME` in the repository; an unknown --arch lists the
    targets without a traceback."""
    sample = "simple_gemm_act"
    (tmp_path / "samples").mkdir()
    (tmp_path / "samples" / "__init__.py").write_text("raise ImportError('shadowed')\n")
    cmd, cwd = {
        "installed": ([sys.executable, "-m", f"rocwmma_py.samples.{sample}"], tmp_path),
        "runner": ([sys.executable, "-m", "rocwmma_py.samples", sample], tmp_path),
        "repository": ([sys.executable, "-m", f"samples.{sample}"], ROOT),
    }[how]
    # this checkout's package, not whichever one the interpreter has installed; but in an
    # unpacked sdist installed without -e the tree's rocwmma_py has no samples: the installed
    tree_has_samples = importlib.util.find_spec("rocwmma_py.samples") is not None
    tree = str(ROOT) if tree_has_samples or how == "repository" else ""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (tree, os.environ.get("PYTHONPATH", "")) if p)}
    ok = subprocess.run([*cmd, "-m", "64", "-n", "128", "-k", "32"], cwd=cwd,
                        capture_output=True, text=True, timeout=120, env=env)
    assert ok.returncode == 0 and "PASSED" in ok.stdout, ok.stdout + ok.stderr
    bad = subprocess.run([*cmd, "--arch", "gfx000"], cwd=cwd, capture_output=True, text=True,
                         timeout=120, env=env)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert all(a in bad.stderr for a in ARCH_NAMES)
