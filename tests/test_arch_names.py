"""Product and generation names as aliases of the gfx targets (issue 25): every place a target
name is accepted takes them, unknown names get a "did you mean", and a bad target at launch
raises from the caller's line."""

from __future__ import annotations

import importlib
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import rocwmma_py
from rocwmma_py import (
    ARCH_NAMES,
    ArchError,
    GetIOShape_t,
    current_arch,
    default_arch,
    device_properties,
    float16,
    fragment,
    get_arch,
    kernel,
    matrix_a,
    row_major,
    threadIdx,
    use_arch,
)
from rocwmma_py.arch.aliases import ALIASES
from rocwmma_py.cuda import cudaGetDeviceProperties
from rocwmma_py.inspector import cli
from samples import common
from samples.__main__ import sample_names

ROOT = pathlib.Path(__file__).resolve().parents[1]
PAIRS = sorted(ALIASES.items())
SPELLINGS = [  # (how a user writes it, the target)
    ("mi300x", "gfx942"), ("MI300X", "gfx942"), ("AMD Instinct MI300X", "gfx942"),
    ("Instinct MI250X", "gfx90a"), ("rx7900xtx", "gfx1100"), ("RX 7900 XTX", "gfx1100"),
    ("AMD Radeon RX 7800 XT", "gfx1101"), ("rx-7600-xt", "gfx1102"), ("radeon 780m", "gfx1103"),
    ("AMD Radeon 8060S Graphics", "gfx1151"), ("strix halo", "gfx1151"), ("cdna3", "gfx942"),
    ("Aqua Vanjaram", "gfx942"), ("rdna4", "gfx1200"), ("RX 9070", "gfx1201"),
    ("GFX942", "gfx942"),
]


def test_the_aliases_cover_every_target_and_only_targets():
    """Every target but gfx1251, which has no public product or generation name."""
    assert set(ALIASES.values()) == set(ARCH_NAMES) - {"gfx1251"}


def test_the_die_mapping_of_rdna3():
    """Navi31 = gfx1100 (7900 series), Navi32 = gfx1101 (7800 XT, 7700 XT), Navi33 = gfx1102."""
    assert {a: t for a, t in ALIASES.items() if a.startswith("RX 7")} == {
        "RX 7900 XTX": "gfx1100", "RX 7900 XT": "gfx1100", "RX 7900 GRE": "gfx1100",
        "RX 7800 XT": "gfx1101", "RX 7700 XT": "gfx1101",
        "RX 7600": "gfx1102", "RX 7600 XT": "gfx1102"}


@pytest.mark.parametrize(("alias", "target"), PAIRS + SPELLINGS)
def test_get_arch_resolves_the_alias_to_its_target(alias, target):
    assert get_arch(alias) is get_arch(target) and get_arch(alias).name == target


@pytest.mark.parametrize(("alias", "target"), PAIRS)
def test_use_arch_and_the_environment_variable(alias, target, monkeypatch):
    with use_arch(alias) as arch:
        assert arch.name == target == current_arch().name == default_arch()
        assert cudaGetDeviceProperties(0).gcnArchName.startswith(target)
    monkeypatch.setenv("ROCWMMA_PY_ARCH", alias)
    assert default_arch() == target
    assert rocwmma_py.current_settings()["arch"].source == "env"


@pytest.mark.parametrize(("alias", "target"), PAIRS)
def test_device_properties_and_fragments(alias, target):
    assert device_properties(alias) == device_properties(target)
    frag = fragment[matrix_a, 16, 16, 16, float16, row_major]
    assert GetIOShape_t[frag, alias].arch is get_arch(target)


def _seen_target():
    seen: list[str] = []

    @kernel
    def record(x):
        seen.append(current_arch().name)
        x[threadIdx.x] = 1

    return record, seen


@pytest.mark.parametrize(("alias", "target"), PAIRS)
def test_a_launch_takes_the_alias(alias, target):
    record, seen = _seen_target()
    x = np.zeros(64, np.int32)
    record[1, 64, 0, alias](x)
    assert set(seen) == {target} and x.all()


@pytest.mark.parametrize(("alias", "target"), PAIRS)
def test_sample_arch_and_inspector_arch(alias, target, capsys):
    assert common.sample_parser("doc").parse_args(["--arch", alias]).arch == target
    assert cli.run(["--list-instructions", "--arch", alias]) == 0
    assert f"instructions on {target}" in capsys.readouterr().out


@pytest.mark.parametrize("name", sample_names())
def test_every_sample_takes_a_product_name(name, capsys):
    """MI300X is gfx942 in every sample: its help (target accepted) or a refusal of gfx942."""
    main = importlib.import_module(f"samples.{name}").main
    with pytest.raises(SystemExit) as info:
        main(["--arch", "MI300X", "--help"])
    err = capsys.readouterr().err
    assert info.value.code == 0 or "invalid choice: 'gfx942'" in err, err


@pytest.mark.parametrize(("module", "alias", "target"), [
    ("samples.rdna3_wmma_hello", "RX 7800 XT", "gfx1101"),
    ("samples.mfma_examples", "AMD Instinct MI250X", "gfx90a"),
])
def test_a_sample_runs_on_a_product_name(module, alias, target, capsys):
    assert importlib.import_module(module).main(["--arch", alias]) == 0
    out = capsys.readouterr().out
    assert "PASSED" in out and target in out


def test_a_product_name_in_the_variable_is_checked_against_the_sample(monkeypatch, capsys):
    monkeypatch.setenv("ROCWMMA_PY_ARCH", "RX 7900 XTX")  # no f64 wmma on gfx1100
    with pytest.raises(SystemExit):
        importlib.import_module("samples.cuda.double_gemm").main([])
    assert "$ROCWMMA_PY_ARCH='RX 7900 XTX' (gfx1100) is not a target" in capsys.readouterr().err


@pytest.mark.parametrize(("name", "suggested"), [
    ("mi300", "MI300X (gfx942), MI300A (gfx942)"),
    ("gfx94", "gfx942"),
    ("rx7900", "RX 7900 XT (gfx1100), RX 7900 XTX (gfx1100) or RX 7900 GRE (gfx1100)"),
    ("gfx1151x", "gfx1151"),
    ("AMD Instinct MI300", "MI300X (gfx942)"),
])
def test_a_near_miss_gets_did_you_mean(name, suggested):
    with pytest.raises(ArchError) as err:
        get_arch(name)
    message = str(err.value)
    assert message.startswith(f"unknown architecture {name!r}; did you mean {suggested}")
    assert "Valid names are: gfx908, gfx90a" in message and "RX 7900 XTX" in message


def test_a_far_miss_lists_the_valid_names_only():
    with pytest.raises(ArchError, match=r"^unknown architecture 'tpu'; valid names are: gfx908"):
        get_arch("tpu")


def test_the_inspector_suggests_aliases(capsys):
    assert cli.run(["--list-instructions", "--arch", "mi355"]) != 0
    assert "unknown architecture 'mi355' (did you mean MI355X (gfx950)" in capsys.readouterr().err


_SCRIPT = """\
import numpy as np
from rocwmma_py import kernel, threadIdx, use_arch

@kernel
def k(x):
    x[threadIdx.x] = 1

x = np.zeros(64, np.int32)
{statement}
"""


@pytest.mark.parametrize(("statement", "prefix"), [
    ('k[1, 64, 0, "mi300"](x)', ""),
    ('with use_arch("mi300"):\n    pass', "use_arch('mi300'): "),
])
def test_a_bad_target_raises_from_the_users_line(tmp_path, statement, prefix):
    """The traceback is the user's line (line 9) and the message: no rocwmma_py frame (3.10,
    which cannot re-raise a trimmed traceback bare, keeps the re-raising one)."""
    script = tmp_path / "user_script.py"
    script.write_text(_SCRIPT.format(statement=statement))
    env = {k: v for k, v in os.environ.items() if k != "ROCWMMA_PY_ARCH"}
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          env={**env, "PYTHONPATH": str(ROOT)}, cwd=tmp_path, timeout=120)
    err = proc.stderr.splitlines()
    assert proc.returncode == 1 and err[0] == "Traceback (most recent call last):", err
    files = [e for e in err if e.startswith("  File ")]
    assert files[0] == f'  File "{script}", line 9, in <module>', err
    assert len(files) == (1 if sys.version_info >= (3, 11) else 2), err
    assert err[2].strip() == statement.splitlines()[0], err
    assert err[-1].startswith(f"rocwmma_py.errors.ArchError: {prefix}unknown architecture "
                              "'mi300'; did you mean MI300X (gfx942)"), err


def test_the_guide_table_is_the_alias_table():
    """docs/guide/matrix-cores.md lists, per target, exactly its aliases in table order."""
    text = (ROOT / "docs" / "guide" / "matrix-cores.md").read_text()
    rows = [f"| {t} | {', '.join(a for a, g in ALIASES.items() if g == t)} |"
            for t in ARCH_NAMES if t in ALIASES.values()]
    assert "\n".join(rows) in text
