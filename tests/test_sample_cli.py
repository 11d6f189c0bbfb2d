"""The command line every sample shares (samples/common.py `sample_parser`): complete help,
sizes, seeds and run counts checked with a message saying what is allowed, $ROCWMMA_PY_ARCH."""

import importlib

import pytest

from samples import common
from samples.__main__ import sample_names

SAMPLES = sample_names()


def _main(name):
    return importlib.import_module(f"samples.{name}").main


@pytest.mark.parametrize("name", SAMPLES)
def test_help_is_the_whole_docstring(name, capsys):
    with pytest.raises(SystemExit) as info:
        _main(name)(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    doc = importlib.import_module(f"samples.{name}").__doc__.strip()
    assert doc.splitlines()[-1].strip() in out  # the last line too: nothing stops mid-sentence
    assert "--seed" in out and "--arch" in out


@pytest.mark.parametrize(("name", "argv", "words"), [
    ("simple_sgemv", ["-k", "0"], "argument -k: must be a positive integer, got '0'"),
    ("simple_sgemv", ["-m", "0"], "argument -m: must be a positive integer, got '0'"),
    ("simple_dlrm", ["-b", "0"], "argument -b: must be a positive integer, got '0'"),
    ("perf_hgemm", ["--runs", "-3"], "argument --runs: must be a positive integer, got '-3'"),
    ("perf_hgemm", ["--warmups", "-1"], "argument --warmups: must be a non-negative integer"),
    ("simple_hgemm", ["--seed", "-1"], "argument --seed: must be a non-negative integer"),
    ("rdna3_wmma_hello", ["--seed", "x"], "argument --seed: must be a non-negative integer"),
    ("simple_hgemm", ["-m", "1.5"], "argument -m: must be a positive integer, got '1.5'"),
])
def test_bad_numbers_are_refused_naming_what_is_allowed(name, argv, words, capsys):
    with pytest.raises(SystemExit) as info:
        _main(name)(argv)
    assert info.value.code == common.REFUSED
    assert words in capsys.readouterr().err


@pytest.mark.parametrize("size", ["17", "8"])
def test_cuda_sample_refuses_sizes_its_tiles_cannot_cover(size, capsys):
    assert _main("cuda.simple_wmma_gemm")(["-m", size]) == common.REFUSED
    out = capsys.readouterr().out
    assert out.startswith("Unsupported size! M, N and K must be multiples of 16, 16 and 16")


def test_arch_variable_is_the_default(monkeypatch, capsys):
    monkeypatch.setenv("ROCWMMA_PY_ARCH", "gfx1100")
    parser = common.sample_parser("doc", {"m": 16})
    assert parser.parse_args([]).arch == "gfx1100"
    assert parser.parse_args(["--arch", "gfx90a"]).arch == "gfx90a"
    assert _main("simple_sgemm")(["-m", "64", "-n", "64", "-k", "16"]) == common.REFUSED
    assert "not supported" in capsys.readouterr().out  # f32 GEMM refused on gfx1100


def test_arch_variable_outside_the_samples_targets_is_refused(monkeypatch, capsys):
    monkeypatch.setenv("ROCWMMA_PY_ARCH", "gfx1100")  # no f64 wmma on gfx1100
    with pytest.raises(SystemExit) as info:
        _main("cuda.double_gemm")([])
    assert info.value.code == common.REFUSED
    err = capsys.readouterr().err
    assert "$ROCWMMA_PY_ARCH='gfx1100' is not a target this sample runs on" in err
    assert "gfx942" in err
