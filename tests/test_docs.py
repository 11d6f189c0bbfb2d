"""The API reference (pdoc, from the docstrings) builds without warnings and documents every
public name; user-facing text carries no internal references; docstring examples run."""

import doctest
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES = ["rocwmma_py", "rocwmma_py.amdgcn", "rocwmma_py.runtime", "rocwmma_py.cuda",
           "rocwmma_py.cuda.wmma"]
BUILD = ["rocwmma_py", "rocwmma_py.runtime", "rocwmma_py.cuda"]  # as in the README
# "seed 004", "seed 000", "rocwmma-notes §2.4", "issue 17": notes of the developers, not of users
# (IEEE 754 §6.3 is a public standard's section and stays)
INTERNAL = re.compile(r"\bseeds? \d{3}\b|rocwmma-notes|(?<!754 )§\s*\d|\bissue \d+\b", re.I)


@pytest.fixture(scope="module")
def api_html(tmp_path_factory):
    pytest.importorskip("pdoc", reason="pdoc is not installed (pip install '.[docs]')")
    out = tmp_path_factory.mktemp("api")
    result = subprocess.run(
        [sys.executable, "-W", "error::UserWarning", "-m", "pdoc", *BUILD, "--no-show-source",
         "-o", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert "Warn" not in result.stderr and "Error" not in result.stderr, result.stderr
    return out


@pytest.mark.parametrize("module", MODULES)
def test_api_reference_documents_every_public_name(api_html, module):
    html = (api_html / (module.replace(".", "/") + ".html")).read_text()
    names = importlib.import_module(module).__all__
    submodule = api_html / module.replace(".", "/")
    missing = [n for n in names if f'id="{n}"' not in html and
               not (submodule / f"{n}.html").exists()]
    assert not missing, f"{module}: not in the API reference: {missing}"


def _public_docstrings():
    for module in MODULES:
        mod = importlib.import_module(module)
        yield module, mod.__doc__ or ""
        for name in mod.__all__:
            obj = getattr(mod, name)
            doc = getattr(obj, "__doc__", None)
            if isinstance(doc, str) and not isinstance(obj, (int, float, str, tuple)):
                yield f"{module}.{name}", doc


def test_no_internal_references_in_user_facing_text():
    pages = [ROOT / "README.md", *sorted((ROOT / "docs" / "guide").glob("*.md"))]
    hits = [f"{page.name}:{i}: {line.strip()}" for page in pages
            for i, line in enumerate(page.read_text().splitlines(), 1) if INTERNAL.search(line)]
    hits += [f"{where}: {m.group(0)}" for where, doc in _public_docstrings()
             for m in INTERNAL.finditer(doc)]
    hits += [f"amdgcn.pyi: {m.group(0)}"
             for m in INTERNAL.finditer((ROOT / "rocwmma_py" / "amdgcn.pyi").read_text())]
    assert not hits, "internal references in user-facing text:\n" + "\n".join(hits)


def test_internal_reference_pattern_catches_them():
    for text in ("(seed 004)", "rocwmma-notes §1.4", "see issue 17", "§6.1"):
        assert INTERNAL.search(text), text
    for text in ("gfx942 16x16x4 (4 blocks), 2**cbsz", "IEEE 754 §6.3", "--seed 7"):
        assert not INTERNAL.search(text), text


def test_api_reference_has_no_internal_references(api_html):
    hits = [f"{page.relative_to(api_html)}: {m.group(0)}" for page in api_html.rglob("*.html")
            for m in INTERNAL.finditer(re.sub(r"<[^>]+>", "", page.read_text()))]
    assert not hits, "internal references in the API reference:\n" + "\n".join(hits)


def test_sample_help_has_no_internal_references():
    hits = [f"{path.relative_to(ROOT)}: {m.group(0)}" for path in (ROOT / "samples").rglob("*.py")
            for m in INTERNAL.finditer(path.read_text().split('"""')[1] if '"""' in
                                       path.read_text() else "")]
    assert not hits, "internal references in the samples' descriptions:\n" + "\n".join(hits)


def test_docstring_examples_run():
    finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    seen, ran = set(), 0
    for module in MODULES:
        mod = importlib.import_module(module)
        for name in mod.__all__:
            obj = getattr(mod, name)
            own = str(getattr(obj, "__module__", "")).startswith("rocwmma_py")
            if id(obj) in seen or not callable(obj) or not own:
                continue
            seen.add(id(obj))
            for test in finder.find(obj, name, globs={}):
                ran += len(test.examples)
                runner.run(test)
    assert runner.failures == 0
    assert ran > 0


def test_every_public_function_and_class_has_a_docstring():
    missing = []
    for module in MODULES:
        mod = importlib.import_module(module)
        for name in mod.__all__:
            obj = getattr(mod, name)
            own = str(getattr(obj, "__module__", "")).startswith("rocwmma_py")
            if own and callable(obj) and not (getattr(obj, "__doc__", None) or "").strip():
                missing.append(f"{module}.{name}")
    assert not missing, f"public names without a docstring: {missing}"
