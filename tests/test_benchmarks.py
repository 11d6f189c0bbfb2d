"""The benchmarks' --quick modes: every row runs and validates (no timing asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.regression

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_targets.py"


def test_bench_targets_quick_validates_every_row():
    run = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--big"], capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("load average at the start") and "BLAS thread" in lines[0]
    assert lines[-1].startswith("load average at the end")
    rows = [line for line in lines if line.startswith("| ") and "quick:" in line]
    assert len(rows) == 12 and not any("FAILED" in row for row in rows)
    assert {row.split(" | ")[1] for row in rows} == {"silicon", "exact"}


WORKER_RULE = SCRIPT.parent / "bench_worker_rule.py"


def test_bench_worker_rule_quick_gives_identical_outputs():
    """Every row, 1 and 2 workers (spreading forced): outputs equal bit for bit (times are
    not asserted)."""
    run = subprocess.run([sys.executable, str(WORKER_RULE), "--quick", "--spread", "--workers",
                          "2"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    rows = lines[2:-1]
    assert [row[:17].strip() for row in rows] == ["softmax", "map_util", "write-heavy",
                                                  "histogram LDS", "histogram global",
                                                  "wave tile", "perf_hgemm"]
    for row in rows:  # size, 5 times, used, rule, output: both workers, no serial fallback
        used, rule, output = row[17:].split()[6:]
        assert used == "2" and rule in ("met", "missed") and output == "identical", row


PER_WAVE = SCRIPT.parent / "bench_per_wave.py"


def test_bench_per_wave_rows_run_and_check():
    """Every row on both wave sizes, on two blocks: each result checked exactly."""
    run = subprocess.run([sys.executable, str(PER_WAVE), "--n", "2048", "--repeats", "1"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    rows = run.stdout.splitlines()[2:]
    assert [(row[:14].strip(), *row[14:].split()[:2]) for row in rows] == [
        ("element-wise", "gfx942", "16"), ("block sum", "gfx942", "16"),
        ("element-wise", "gfx1100", "32"), ("block sum", "gfx1100", "32")]
    assert not any("WRONG" in row for row in rows)
