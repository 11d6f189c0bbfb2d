"""Packaging: the version, the two console commands, samples installed as rocwmma_py.samples."""

import re
from pathlib import Path

import pytest

import rocwmma_py
from rocwmma_py.inspector.cli import layout_main
from rocwmma_py.samples.__main__ import main as sample_main
from rocwmma_py.samples.__main__ import sample_names

ROOT = Path(__file__).resolve().parents[1]


def test_version_is_pep440_and_in_the_changelog():
    assert re.fullmatch(r"\d+\.\d+\.\d+", rocwmma_py.__version__)
    assert f"## {rocwmma_py.__version__}" in (ROOT / "CHANGELOG.md").read_text()


def test_console_scripts_are_declared():
    text = (ROOT / "pyproject.toml").read_text()
    assert 'rocwmma-layout = "rocwmma_py.inspector.cli:layout_main"' in text
    assert 'rocwmma-sample = "rocwmma_py.samples.__main__:main"' in text


@pytest.mark.parametrize("command", [layout_main, sample_main])
def test_version_flag(command, capsys):
    assert command(["--version"]) == 0
    assert rocwmma_py.__version__ in capsys.readouterr().out


def test_sample_runner_lists_runs_and_refuses(capsys):
    names = sample_names()
    assert {"simple_hgemm", "perf_hgemm", "cuda.double_gemm"} <= set(names)
    assert not any(n.endswith("common") for n in names)
    assert sample_main(["--list"]) == 0 and capsys.readouterr().out.split() == names
    assert sample_main(["cuda.double_gemm"]) == 0 and "PASSED" in capsys.readouterr().out
    assert sample_main(["no_such_sample"]) == 2
    err = capsys.readouterr().err
    assert "unknown sample 'no_such_sample'" in err and "simple_hgemm" in err


def test_sdist_manifest_carries_the_tests_needs():
    manifest = (ROOT / "MANIFEST.in").read_text().split()
    assert {"tests", "samples"} <= {manifest[i + 1] for i, w in enumerate(manifest) if w == "graft"}
