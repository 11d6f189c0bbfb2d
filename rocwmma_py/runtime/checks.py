"""Opt-in sanitizers, like compute-sanitizer's initcheck and synccheck.

Hardware LDS and registers start undefined, and a barrier that only some waves reach is
undefined behaviour in HIP, while the emulator zero-fills LDS and fragments and (like the
AMD ISA, where ended waves leave the barrier) lets finished waves drop out. These checks make
such kernels fail here as they may on a GPU:
- initcheck: reading LDS bytes no wave wrote, or using a fragment never filled, loaded or
  computed (as an mma_sync input, a store source or a transform source) raises
  `InitCheckError` naming the buffer or fragment, the offset, block and wave;
- synccheck: a barrier released while some waves of the block have already finished raises
  `BarrierError` naming the waves and their barrier counts.
Both are off by default; turn them on per launch (`k[grid, block].checked(initcheck=True)`)
or for the process ($ROCWMMA_PY_INITCHECK=1, $ROCWMMA_PY_SYNCCHECK=1).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

INITCHECK_VAR = "ROCWMMA_PY_INITCHECK"
SYNCCHECK_VAR = "ROCWMMA_PY_SYNCCHECK"


def _env_flag(name: str) -> bool:
    value = os.environ.get(name, "").strip().lower()
    if value in ("", "0", "false", "no", "off"):
        return False
    if value in ("1", "true", "yes", "on"):
        return True
    raise ValueError(f"${name}={value!r}: use 1 (on) or 0 (off)")


@dataclass(frozen=True)
class Checks:
    """Which sanitizers a launch runs."""

    initcheck: bool = False
    synccheck: bool = False

    @classmethod
    def resolve(cls, initcheck: bool | None, synccheck: bool | None) -> Checks:
        """Launch options where given, else the environment variables."""
        return cls(_env_flag(INITCHECK_VAR) if initcheck is None else bool(initcheck),
                   _env_flag(SYNCCHECK_VAR) if synccheck is None else bool(synccheck))
