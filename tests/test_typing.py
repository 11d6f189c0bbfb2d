"""Typing: the package is mypy-clean and pyright-clean (basic), a README-style user script
type-checks, the amdgcn stub matches the instruction tables, and mypy really reports a wrong
launch."""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tools import gen_amdgcn_stub

ROOT = Path(__file__).resolve().parents[1]
USER_SCRIPT = ROOT / "tests" / "typing_user_script.py"


def _mypy(tmp_path_factory, *targets: str) -> subprocess.CompletedProcess:
    pytest.importorskip("mypy", reason="mypy is not installed (pip install '.[test]')")
    cache = Path(tempfile.gettempdir()) / "rocwmma_py-mypy-cache"  # warm runs take seconds
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(cache), "--no-color-output",
         *targets], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_generated_stubs_are_current():
    outputs = gen_amdgcn_stub.outputs()
    assert len(outputs) == 4
    for path, text in outputs.items():
        assert path.read_text() == text, f"{path} is stale: run python tools/gen_amdgcn_stub.py"


def test_stub_declares_every_builtin_with_its_arguments():
    from rocwmma_py import amdgcn
    from rocwmma_py.arch import ARCH_NAMES, get_arch

    stub = (ROOT / "rocwmma_py" / "amdgcn.pyi").read_text()
    for arch in ARCH_NAMES:
        for name, instr in get_arch(arch).instructions.items():
            head = stub[stub.index(f"\ndef {name}(\n") + 1:]
            params = head[:head.index(") ->")].split("\n")[1:-1]
            assert [p.strip().split(":")[0] for p in params] == list(instr.args)
    for name in amdgcn.CROSS_LANE_BUILTINS:
        assert f"import {name} as {name}" in stub
    assert "a: (64, 4) float16" in stub    # mfma_f32_16x16x16f16: half4 per lane
    assert "c: (32, 8) float32" in stub    # gfx11 wmma f32 accumulator, wave32


def test_package_ships_py_typed():
    assert (ROOT / "rocwmma_py" / "py.typed").exists()
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"py.typed", "*.pyi", "runtime/*.pyi", "cuda/*.pyi"' in pyproject


# The one thing the docs' examples do that a type checker refuses, on purpose: a Python float
# passed for a parameter annotated `alpha: float32_t`, converted at launch like C does.
_FLOAT_FOR_ANNOTATED_SCALAR = 'incompatible type "float"; expected "floating[_32Bit]"'


def test_mypy_accepts_package_user_script_and_readme_examples(tmp_path_factory, tmp_path):
    import test_readme

    blocks = []
    for i, (_, _, block) in enumerate(test_readme.BLOCKS):  # the README's and the guide's
        blocks.append(tmp_path / f"readme_example_{i}.py")
        blocks[-1].write_text(block)
    result = _mypy(tmp_path_factory, "rocwmma_py", str(USER_SCRIPT), *map(str, blocks))
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    unexpected = [e for e in errors if _FLOAT_FOR_ANNOTATED_SCALAR not in e
                  or "readme_example_" not in e]
    assert not unexpected and result.returncode in (0, 1), result.stdout + result.stderr
    assert "Success" in result.stdout or errors, result.stdout + result.stderr


def test_mypy_rejects_wrong_kernel_arguments(tmp_path_factory, tmp_path):
    bad = tmp_path / "bad_launch.py"
    bad.write_text(
        "import numpy as np\n"
        "from rocwmma_py import amdgcn, kernel\n"
        "@kernel\n"
        "def axpy(x, y, a: float) -> None: ...\n"
        "axpy[1, 64](np.zeros(64), np.zeros(64))\n"           # missing `a`
        "amdgcn.mfma_f32_16x16x4f32(1, 2, 3)\n"                 # missing cbsz/abid/blgp
        "amdgcn.no_such_builtin()\n")
    result = _mypy(tmp_path_factory, str(bad))
    assert result.returncode == 1
    for line, word in ((5, "Missing positional argument"), (6, "Missing positional"),
                       (7, "Module has no attribute")):
        assert f"bad_launch.py:{line}: error: {word}" in result.stdout, result.stdout


def test_user_script_runs():
    subprocess.run([sys.executable, str(USER_SCRIPT)], cwd=ROOT, check=True, timeout=300)


def test_generator_check_mode(tmp_path, monkeypatch):
    for name in ("STUB", "HALF_MATH_STUB", "DEVICE_MATH_STUB", "VECTOR_STUB"):
        monkeypatch.setattr(gen_amdgcn_stub, name, tmp_path / f"{name}.pyi")
        (tmp_path / f"{name}.pyi").write_text("stale\n")
    assert gen_amdgcn_stub.main(["--check"]) == 1
    assert gen_amdgcn_stub.main([]) == 0
    assert gen_amdgcn_stub.main(["--check"]) == 0




def test_pyright_basic_is_clean_on_the_package():
    """pyright (pyproject's [tool.pyright]: basic, Python 3.11, rocwmma_py/) reports nothing.
    The `test` extra's pyright wheel bundles the checker and runs it on the machine's node."""
    pytest.importorskip("pyright", reason="pyright is not installed (pip install '.[test]')")
    if shutil.which("node") is None:  # the wheel would try to download Node.js
        pytest.skip("pyright needs Node.js (node) on PATH; none here")
    env = {**os.environ, "PYRIGHT_PYTHON_IGNORE_WARNINGS": "1"}  # no PyPI version check
    result = subprocess.run(
        [sys.executable, "-m", "pyright", "--pythonpath", sys.executable, "-p", str(ROOT)],
        cwd=ROOT, capture_output=True, text=True, timeout=600, env=env)
    out = result.stdout + result.stderr
    assert result.returncode == 0, out
    assert "0 errors, 0 warnings" in out, out
