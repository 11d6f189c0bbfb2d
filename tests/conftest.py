"""Shared test set-up: tests choose their target and numerics explicitly, never from the
environment.

`@pytest.mark.numerics("exact")` runs a test under `use_numerics("exact")`: the tests whose
reference is the exact model (one exact sum rounded once per instruction, IEEE isolation of
non-finite inputs) on targets whose default silicon model rounds differently. Unmarked tests
run under the default ("silicon").

The `spread` fixture lets launches of a few small blocks fork workers (the workers' size
thresholds are for real work), so tests can compare them with one process.

Hypothesis draws the same examples on every default run (profile "repeatable": CI stays
green or red for the code, not for the draw); `-m extended` runs, or HYPOTHESIS_PROFILE=
explore, draw new ones each time to look for counterexamples."""

import _thread
import os
import threading

import pytest
from hypothesis import settings

from rocwmma_py import use_numerics
from rocwmma_py.runtime import workers

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


@pytest.fixture
def interrupt_main():
    """`_thread.interrupt_main` for a test that stops a hung launch with it: the test runs
    in the main thread, outside pytest-xdist, whose workers were seen to lose the timer's
    interrupt (the hung kernel then never stops: see the tests-and-speed guide)."""
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("interrupt_main reaches the main thread only")
    if os.environ.get("PYTEST_XDIST_WORKER"):
        pytest.skip("an xdist worker can lose interrupt_main's KeyboardInterrupt; run without -n")
    return _thread.interrupt_main


@pytest.fixture
def spread(monkeypatch):
    """Spread every launch of two or more blocks over the workers."""
    monkeypatch.setattr(workers, "MIN_PARALLEL_S", 0.0)
    monkeypatch.setattr(workers, "MIN_BLOCKS", 2)
    monkeypatch.setattr(workers, "PAYOFF", float("inf"))
    monkeypatch.setattr(workers, "UNMEASURED_MIN_BATCHES", 1)
    monkeypatch.setattr(workers, "PROBE_SHARE_MAX", float("inf"))


@pytest.fixture
def results_of(monkeypatch):
    """`results_of(owner, name, keep=None, into=None)`: a list (`into`, or a new one) that
    receives what `owner.name` returns on each call (only calls whose arguments `keep`
    admits), e.g. whether a fast path took an access."""
    def install(owner, name: str, keep=None, into: list | None = None) -> list:
        seen: list = [] if into is None else into
        real = getattr(owner, name)

        def spy(*args, **kwargs):
            result = real(*args, **kwargs)
            if keep is None or keep(*args, **kwargs):
                seen.append(result)
            return result

        monkeypatch.setattr(owner, name, spy)
        return seen
    return install

