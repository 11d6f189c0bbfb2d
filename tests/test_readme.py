"""The README's code examples run and their assertions hold; the commands its shell blocks and
sample table name exist."""

import importlib.util
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.smoke

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def _fenced(languages: tuple[str, ...]) -> list[str]:
    """The README's fenced blocks whose info string is one of `languages`."""
    blocks, current, lang = [], None, ""
    for line in README.splitlines():
        if line.startswith("```"):
            if current is None:
                current, lang = [], line[3:].strip()
            else:
                if lang in languages:
                    blocks.append("\n".join(current) + "\n")
                current = None
        elif current is not None:
            current.append(line)
    return blocks


BLOCKS = _fenced(("python",))
SHELL = _fenced(("bash", "sh", ""))


def test_readme_has_examples():
    assert len(BLOCKS) >= 3 and any("gemm_wmma_d[" in b for b in BLOCKS)


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(index):
    exec(compile(BLOCKS[index], f"README example {index}", "exec"), {})


def _module_exists(name: str) -> bool:
    if name.startswith("rocwmma_py.samples."):  # installed from the repository's samples/
        name = "samples." + name.removeprefix("rocwmma_py.samples.")
    return importlib.util.find_spec(name) is not None


def test_shell_blocks_name_existing_modules_and_scripts():
    pyproject = (ROOT / "pyproject.toml").read_text()
    scripts = pyproject[pyproject.index("[project.scripts]"):].split("\n\n")[0]
    commands = [line for block in SHELL for line in block.splitlines() if line.strip()]
    modules = [m for line in commands for m in re.findall(r"python3? -m ([\w.]+)", line)]
    assert "rocwmma_py.samples.simple_hgemm" in modules and "pytest" in modules
    missing = [m for m in modules if m not in ("venv", "pip") and not _module_exists(m)]
    assert not missing, f"README shell blocks run modules that do not exist: {missing}"
    for line in commands:
        for script in re.findall(r"\b(rocwmma-[\w-]+)", line):
            assert f"\n{script} = " in scripts, line


def test_named_samples_and_readme_command_lines_exist():
    section = README[README.index("## Samples"):]
    section = section[:section.index("\n## ")]
    samples = re.findall(r"^\| `([\w.]+)[ `]", section, re.M)
    assert len(samples) >= 20
    missing = [s for s in samples if not (ROOT / "samples" / (s.replace(".", "/") + ".py")).exists()
               and not any((ROOT / "samples" / f"{p}.py").exists() for p in s.split(" / "))]
    assert not missing, f"README sample table names missing samples: {missing}"
    for name in re.findall(r"`rocwmma-sample ([\w.]+)", README):
        if name.isupper():  # a placeholder such as NAME
            continue
        assert (ROOT / "samples" / (name.replace(".", "/") + ".py")).exists(), name
    api = re.search(r"python -m pdoc ([\w. ]+?) (?:--[\w-]+ )*-o", README)
    assert api, "README shows the API reference command"
    for module in api.group(1).split():
        assert importlib.util.find_spec(module) is not None, module
