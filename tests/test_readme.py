"""The README's and the guide's (docs/guide/*.md) code examples run and their assertions hold;
the commands their shell blocks and the samples table name exist; every guide page is linked
from the README and every relative link resolves."""

import importlib.util
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.smoke

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
PAGES = {p.relative_to(ROOT).as_posix(): p.read_text()
         for p in [ROOT / "README.md", *sorted((ROOT / "docs" / "guide").glob("*.md"))]}


def _fenced(text: str, languages: tuple[str, ...]) -> list[str]:
    """The fenced blocks of `text` whose info string is one of `languages`."""
    blocks, current, lang = [], None, ""
    for line in text.splitlines():
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


BLOCKS = [(page, i, block) for page, text in PAGES.items()
          for i, block in enumerate(_fenced(text, ("python",)))]
SHELL = [block for text in PAGES.values() for block in _fenced(text, ("bash", "sh", ""))]


def test_readme_has_a_runnable_gemm_and_the_guide_examples():
    readme = [b for page, _, b in BLOCKS if page == "README.md"]
    assert any("gemm_wmma_d[" in b for b in readme)
    assert len(BLOCKS) >= 10


@pytest.mark.parametrize(("page", "index", "block"), BLOCKS,
                         ids=[f"{p}#{i}" for p, i, _ in BLOCKS])
def test_example_runs(page, index, block):
    exec(compile(block, f"{page} example {index}", "exec"), {})


def test_every_guide_page_is_linked_and_links_resolve():
    for name in PAGES:
        if name.startswith("docs/guide/"):
            assert f"({name})" in README, f"README does not link {name}"
    for name, text in PAGES.items():
        base = (ROOT / name).parent
        prose = re.sub(r"```.*?```|`[^`\n]*`", "", text, flags=re.S)  # links live in prose
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", prose):
            assert (base / target).exists(), f"{name} links to missing {target}"


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
    assert not missing, f"shell blocks run modules that do not exist: {missing}"
    for line in commands:
        for script in re.findall(r"\b(rocwmma-[\w-]+)", line):
            assert f"\n{script} = " in scripts, line


def test_named_samples_and_command_lines_exist():
    table = PAGES["docs/guide/samples.md"]
    samples = re.findall(r"^\| `([\w.]+)[ `]", table, re.M)
    assert len(samples) >= 20
    missing = [s for s in samples if not (ROOT / "samples" / (s.replace(".", "/") + ".py")).exists()
               and not any((ROOT / "samples" / f"{p}.py").exists() for p in s.split(" / "))]
    assert not missing, f"the samples table names missing samples: {missing}"
    for text in PAGES.values():
        for name in re.findall(r"`rocwmma-sample ([\w.]+)", text):
            if name.isupper():  # a placeholder such as NAME
                continue
            assert (ROOT / "samples" / (name.replace(".", "/") + ".py")).exists(), name
    api = re.search(r"python -m pdoc ([\w. ]+?) (?:--[\w-]+ )*-o", README)
    assert api, "README shows the API reference command"
    for module in api.group(1).split():
        assert importlib.util.find_spec(module) is not None, module
