"""Every sample as a user runs it (issue 25): from the wheel installed in a fresh virtual
environment, from an empty directory, by its console command; from the checkout as a file
(`python samples/X.py`); and the texts that tell users how (no `python -m samples.X`, no
`pip install rocwmma-py`, which is not on the package index)."""

import ast
import os
import re
import shutil
import subprocess
import sys
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from samples.__main__ import sample_names

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = sample_names()
REPRESENTATIVE = ["simple_hgemm", "rdna4_transpose_load", "cuda.double_gemm"]
TIMEOUT = 600


def _file(name: str) -> Path:
    return ROOT / "samples" / (name.replace(".", "/") + ".py")


def _run(*argv, cwd: Path, **kw) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ROCWMMA_PY_ARCH")}
    return subprocess.run([str(a) for a in argv], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=TIMEOUT, **kw)


# --- without installing ------------------------------------------------------------------


@pytest.mark.parametrize("name", SAMPLES)
def test_docstring_names_the_installed_command(name):
    source = _file(name).read_text()
    doc = ast.get_docstring(ast.parse(source)) or ""
    assert "python -m samples." not in source
    assert re.search(rf"(rocwmma-sample |python -m rocwmma_py\.samples\.){re.escape(name)}\b", doc)


def test_samples_import_only_relatively_or_through_rocwmma_py():
    for path in sorted((ROOT / "samples").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level
                     else [])
            assert not [n for n in names if n.split(".")[0] == "samples"], path


def test_no_text_advises_a_package_index_install():
    texts = [ROOT / "README.md", *(ROOT / "docs").rglob("*.md"),
             *(ROOT / "rocwmma_py").rglob("*.py"), *(ROOT / "samples").rglob("*.py")]
    index_install = re.compile(r"pip install (-\S+ )*['\"]?rocwmma[-_]py\b")
    assert not [str(p) for p in texts if index_install.search(p.read_text())]
    assert "not on the package index" in (ROOT / "README.md").read_text()


def test_a_sample_runs_as_a_file_of_the_checkout(tmp_path):
    """`python samples/X.py` from anywhere runs the checkout's own code (not another
    installed or editable rocwmma_py)."""
    out = _run(sys.executable, "-v", _file("simple_hgemm"), "--help", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "rocwmma-sample simple_hgemm" in out.stdout
    assert f"{ROOT / 'samples' / 'simple_gemm_common.py'}" in out.stderr  # imported from here
    assert f"{ROOT / 'rocwmma_py' / '__init__.py'}" in out.stderr
    out = _run(sys.executable, _file("cuda.tf32_gemm"), cwd=tmp_path)
    assert out.returncode == 0 and "PASSED" in out.stdout, out.stdout + out.stderr


# --- the wheel, installed ---------------------------------------------------------------


def _index_reachable() -> bool:
    try:
        urllib.request.urlopen("https://pypi.org/simple/pip/", timeout=10).close()
    except OSError:
        return False
    return True


def _step(*argv, cwd: Path) -> None:
    out = _run(*argv, cwd=cwd)
    if out.returncode:
        if not _index_reachable():
            pytest.skip("offline: building and installing the wheel needs the package index "
                        "(setuptools>=77 to build; numpy, ml_dtypes, tqdm to install)")
        pytest.fail(f"{' '.join(map(str, argv))} failed:\n{out.stdout}\n{out.stderr}")


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The `bin` directory of a fresh virtual environment holding only the wheel built from
    a copy of the checkout's package sources, and its dependencies."""
    base = tmp_path_factory.mktemp("installed")
    src = base / "src"  # a copy, so the build writes nothing into the checkout
    for tree in ("rocwmma_py", "samples"):
        shutil.copytree(ROOT / tree, src / tree, ignore=shutil.ignore_patterns("__pycache__"))
    for item in ("pyproject.toml", "README.md", "LICENSE", "MANIFEST.in"):
        shutil.copy2(ROOT / item, src / item)
    _step(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", base / "dist", src,
          cwd=base)
    (wheel,) = (base / "dist").glob("rocwmma_py-*.whl")
    venv = base / "venv"
    _step(sys.executable, "-m", "venv", venv, cwd=base)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    _step(bin_dir / "python", "-m", "pip", "install", "-q", wheel, cwd=base)
    return bin_dir


def _sample(bin_dir: Path, *argv: str, cwd: Path) -> subprocess.CompletedProcess:
    return _run(bin_dir / "rocwmma-sample", *argv, cwd=cwd)


def test_installed_samples_list_help_and_run(installed, tmp_path):
    """From an empty directory: --list names every sample, every sample's --help works and
    names its command, three samples (top level, one importing another, CUDA) pass."""
    listed = _sample(installed, "--list", cwd=tmp_path)
    assert listed.returncode == 0 and listed.stdout.split() == SAMPLES, listed.stderr
    with ThreadPoolExecutor(4) as pool:
        runs = {n: pool.submit(_sample, installed, n, cwd=tmp_path) for n in REPRESENTATIVE}
        helps = {n: pool.submit(_sample, installed, n, "--help", cwd=tmp_path) for n in SAMPLES}
    for name, job in helps.items():
        out = job.result()
        assert out.returncode == 0 and f"rocwmma-sample {name}" in out.stdout, (name, out.stderr)
    for name, job in runs.items():
        out = job.result()
        assert out.returncode == 0 and "PASSED" in out.stdout, (name, out.stdout, out.stderr)
    out = _run(installed / "python", "-m", "rocwmma_py.samples.cuda.tf32_gemm", cwd=tmp_path)
    assert out.returncode == 0 and "PASSED" in out.stdout, out.stderr
    assert list(tmp_path.iterdir()) == []  # nothing written to the working directory


@pytest.mark.extended
@pytest.mark.parametrize("name", SAMPLES)
def test_every_installed_sample_passes(installed, tmp_path, name):
    out = _sample(installed, name, cwd=tmp_path)
    assert out.returncode == 0 and "PASSED" in out.stdout, out.stdout + out.stderr
