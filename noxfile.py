"""The dependency matrix: `nox -s tests` (newest releases, the README's test command) and
`nox -s tests-lowest` (pyproject's floors installed exactly, the smoke suite). .ci/run runs
both; add a version to PYTHONS where more than one CPython is installed."""

import re
import tomllib
from pathlib import Path

import nox

ROOT = Path(__file__).resolve().parent
PYTHONS = ["3.11"]  # requires-python's floor; the only CPython these machines have

nox.options.default_venv_backend = "venv"
nox.options.reuse_existing_virtualenvs = False


def lowest_pins() -> list[str]:
    """`name==X` for each of pyproject's dependencies with a `>=X` floor (all of them)."""
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    pins = []
    for dep in deps:
        found = re.fullmatch(r"([A-Za-z0-9_.-]+)\s*(?:\[[^]]*\])?\s*(.*)", dep)
        floor = re.search(r">=\s*([^,;\s]+)", found.group(2)) if found else None
        if floor is None:
            raise ValueError(f"dependency {dep!r} declares no >= floor to test")
        pins.append(f"{found.group(1)}=={floor.group(1)}")
    return pins


@nox.session(python=PYTHONS)
def tests(session: nox.Session) -> None:
    """The README's test command on the newest releases pip resolves."""
    session.install("--upgrade", "pip")
    session.install("-e", ".[test]")
    session.run("python", "-m", "pytest", "-q", *session.posargs)


@nox.session(name="tests-lowest", python=PYTHONS)
def tests_lowest(session: nox.Session) -> None:
    """The smoke suite on the lowest declared versions of numpy, ml_dtypes and tqdm."""
    pins = lowest_pins()
    session.install("--upgrade", "pip")
    session.install("-e", ".[test]", *pins)
    session.run("python", "-c", "import importlib.metadata as m; print('lowest:', ', '.join("
                f"f'{{n}} {{m.version(n)}}' for n in {[p.split('==')[0] for p in pins]!r}))")
    session.run("python", "-m", "pytest", "-q", "-m", "smoke", "-p", "no:cacheprovider",
                "-n", "2", *session.posargs)
