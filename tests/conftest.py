"""Shared test set-up: tests choose their target explicitly, never from the environment."""

import pytest


@pytest.fixture(autouse=True)
def _no_env_arch(monkeypatch):
    monkeypatch.delenv("ROCWMMA_PY_ARCH", raising=False)
