"""Shared test set-up: tests choose their target and numerics explicitly, never from the
environment.

`@pytest.mark.numerics("exact")` runs a test under `use_numerics("exact")`: the tests whose
reference is the exact model (one exact sum rounded once per instruction, IEEE isolation of
non-finite inputs) on targets whose default silicon model rounds differently. Unmarked tests
run under the default ("silicon")."""

import pytest

from rocwmma_py import use_numerics


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
