"""Shared test set-up: tests choose their target and numerics explicitly, never from the
environment.

`@pytest.mark.numerics("exact")` runs a test under `use_numerics("exact")`: the tests whose
reference is the exact model (one exact sum rounded once per instruction, IEEE isolation of
non-finite inputs) on targets whose default silicon model rounds differently. Unmarked tests
run under the default ("silicon").

Hypothesis draws the same examples on every default run (profile "repeatable": CI stays
green or red for the code, not for the draw); `-m extended` runs, or HYPOTHESIS_PROFILE=
explore, draw new ones each time to look for counterexamples."""

import os

import pytest
from hypothesis import settings

from rocwmma_py import use_numerics

settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)


def pytest_configure(config):
    marks = (config.getoption("markexpr", "") or "").split()
    explore = "extended" in marks and "not" not in marks  # -m extended, not the default
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE",
                                         "explore" if explore else "repeatable"))


@pytest.fixture(autouse=True)
def _no_env_arch(monkeypatch):
    monkeypatch.delenv("ROCWMMA_PY_ARCH", raising=False)
    monkeypatch.delenv("ROCWMMA_PY_NUMERICS", raising=False)


@pytest.fixture(autouse=True)
def _numerics(request):
    marker = request.node.get_closest_marker("numerics")
    if marker is None:
        yield
        return
    with use_numerics(*marker.args):
        yield
