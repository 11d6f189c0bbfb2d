"""samples/cuda: each main() validates bit-exactly against numpy on every target that has its
types (gfx942, gfx1100, gfx1200 and the f64 targets), and a wrong result exits non-zero."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

pytestmark = pytest.mark.smoke

RUNS = [
    ("simple_wmma_gemm", "gfx942"), ("simple_wmma_gemm", "gfx1100"),
    ("simple_wmma_gemm", "gfx1200"), ("simple_wmma_gemm", "gfx90a"),
    ("shared_tiled_gemm", "gfx942"), ("shared_tiled_gemm", "gfx1100"),
    ("shared_tiled_gemm", "gfx1200"),
    ("tf32_gemm", "gfx942"),
    ("double_gemm", "gfx942"), ("double_gemm", "gfx90a"), ("double_gemm", "gfx950"),
]


def _sample(name):
    return importlib.import_module(f"samples.cuda.{name}")


@pytest.mark.parametrize("name,arch", RUNS)
def test_sample_passes(name, arch, capsys):
    assert _sample(name).main(["--arch", arch]) == 0
    out = capsys.readouterr().out
    assert f"{name} on {arch}: PASSED" in out and "FAILED" not in out


@pytest.mark.parametrize("name,arch", [("tf32_gemm", "gfx1100"), ("double_gemm", "gfx1200"),
                                       ("tf32_gemm", "gfx950")])
def test_sample_refuses_targets_without_the_type(name, arch):
    with pytest.raises(SystemExit):  # argparse: --arch lists only the targets that can
        _sample(name).main(["--arch", arch])


@pytest.mark.parametrize("name", ["simple_wmma_gemm", "shared_tiled_gemm", "tf32_gemm",
                                  "double_gemm"])
def test_wrong_result_fails(name, monkeypatch, capsys):
    sample = _sample(name)
    run = sample.run

    def corrupted(*args, **kwargs):
        got, ref = run(*args, **kwargs)
        got = np.array(got, copy=True)
        got[1, 2] += 1
        return got, ref

    monkeypatch.setattr(sample, "run", corrupted)
    assert sample.main([]) == 1
    assert "FAILED (1 of" in capsys.readouterr().out


def test_tiled_sizes_are_checked(capsys):
    assert _sample("shared_tiled_gemm").main(["-m", "48"]) == 1
    assert "multiples of 32x32x16" in capsys.readouterr().out
