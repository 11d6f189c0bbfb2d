"""The README's code examples run and their assertions hold (the GEMM kernel example is the
simple_hgemm sample, run by test_samples)."""

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.smoke

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = [b for b in re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
          if "gemm_wmma_d[" not in b]


def test_readme_has_examples():
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(index):
    exec(compile(BLOCKS[index], f"README example {index}", "exec"), {})
