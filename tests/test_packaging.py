"""Packaging: the version, the two console commands, samples installed as rocwmma_py.samples,
the sdist carrying what its tests need."""

import importlib.util
import re
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

import rocwmma_py
from rocwmma_py.inspector.cli import layout_main

ROOT = Path(__file__).resolve().parents[1]


def _sample_runner(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """`python -m rocwmma_py.samples ARGS` outside the tree: the installed package's runner
    (in an unpacked sdist installed without -e, the tree's rocwmma_py/ has no samples/)."""
    return subprocess.run([sys.executable, "-m", "rocwmma_py.samples", *args], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)


def test_version_is_pep440_and_in_the_changelog():
    assert re.fullmatch(r"\d+\.\d+\.\d+", rocwmma_py.__version__)
    assert f"## {rocwmma_py.__version__}" in (ROOT / "CHANGELOG.md").read_text()


def test_console_scripts_are_declared():
    text = (ROOT / "pyproject.toml").read_text()
    assert 'rocwmma-layout = "rocwmma_py.inspector.cli:layout_main"' in text
    assert 'rocwmma-sample = "rocwmma_py.samples.__main__:main"' in text


def test_version_flag(capsys, tmp_path):
    assert layout_main(["--version"]) == 0
    assert rocwmma_py.__version__ in capsys.readouterr().out
    run = _sample_runner(tmp_path, "--version")
    assert run.returncode == 0 and rocwmma_py.__version__ in run.stdout, run.stderr


def test_sample_runner_lists_runs_and_refuses(tmp_path):
    listed = _sample_runner(tmp_path, "--list")
    names = listed.stdout.split()
    assert listed.returncode == 0 and names == sorted(names), listed.stderr
    assert {"simple_hgemm", "perf_hgemm", "cuda.double_gemm"} <= set(names)
    assert not any(n.endswith("common") for n in names)
    ran = _sample_runner(tmp_path, "cuda.double_gemm")
    assert ran.returncode == 0 and "PASSED" in ran.stdout, ran.stderr
    refused = _sample_runner(tmp_path, "no_such_sample")
    assert refused.returncode == 2
    assert "unknown sample 'no_such_sample'" in refused.stderr
    assert "simple_hgemm" in refused.stderr


def test_sdist_manifest_carries_the_tests_needs():
    manifest = (ROOT / "MANIFEST.in").read_text().split()
    assert {"tests", "samples"} <= {manifest[i + 1] for i, w in enumerate(manifest) if w == "graft"}


@pytest.mark.skipif(importlib.util.find_spec("build") is None,
                    reason="the sdist check needs `build` (pip install '.[test]')")
def test_sdist_carries_the_tests_and_collects(tmp_path):
    """`python -m build --sdist` (no isolation: setuptools from the test extra) holds the tests,
    their data, the samples, tools/ and noxfile.py, and pytest collects its tests unpacked."""
    out = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir",
                    str(out), str(ROOT)], check=True, capture_output=True, timeout=300)
    (sdist,) = out.glob("*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
        safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}  # 3.11.4+
        tar.extractall(tmp_path, **safe)
    shipped = {p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").rglob("*")
               if p.is_file() and "__pycache__" not in p.parts}
    assert shipped <= names, sorted(shipped - names)[:10]
    assert any(n.startswith("tests/data/") for n in names)
    for needed in ("tools/gen_amdgcn_stub.py", "samples/__main__.py", "noxfile.py",
                   "pyproject.toml", "CHANGELOG.md", "README.md", "rocwmma_py/py.typed"):
        assert needed in names, needed
    assert not any(n.startswith("docs/api/") for n in names)
    tree = tmp_path / sdist.name.removesuffix(".tar.gz")
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
        cwd=tree, capture_output=True, text=True, timeout=600)
    assert collected.returncode == 0, collected.stdout[-3000:] + collected.stderr[-3000:]
    summary = re.search(r"^\d+(/\d+)? tests? collected", collected.stdout, re.M)
    assert summary, collected.stdout[-2000:]
