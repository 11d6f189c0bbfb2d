"""Opt-in sanitizers, like compute-sanitizer's initcheck and synccheck.

Hardware LDS and registers start undefined, and a barrier that only some waves reach is
undefined behaviour in HIP, while the emulator zero-fills LDS and fragments and (like the
AMD ISA, where ended waves leave the barrier) lets finished waves drop out. These checks make
such kernels fail here as they may on a GPU:
- initcheck: reading LDS bytes no wave wrote, or using a fragment never filled, loaded or
  computed (as an mma_sync input, a store source or a transform source) raises
  `InitCheckError` naming the buffer or fragment, the offset, block and wave;
- synccheck: a barrier released while some waves of the block have already finished raises
  `BarrierError` naming the waves and their barrier counts;
- racecheck: two accesses to one global-memory element, at least one a write, by different
  blocks (blocks never synchronise) or by different waves of a block between two barriers
  raise `GlobalRaceError` naming both blocks and waves, the buffer and the element offset
  (atomics are not races: they apply their writes on their own path). It runs the launch
  on the per-wave engine, which orders the accesses.
This module holds the flags. The checks of memory accesses (initcheck of LDS, racecheck,
and the LDS race tracking that is always on) are observers in `sanitizers.py`, which every
load and store in `memory.py` passes, the dense fragment loads included.
All are off by default; turn them on per launch (`k[grid, block].checked(initcheck=True)`),
for a with-block (`use_initcheck(True)`, ...) or for the process ($ROCWMMA_PY_INITCHECK=1,
$ROCWMMA_PY_SYNCCHECK=1, $ROCWMMA_PY_RACECHECK=1): the settings of `rocwmma_py.settings`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..settings import INITCHECK, RACECHECK, SYNCCHECK


@dataclass(frozen=True)
class Checks:
    """Which sanitizers a launch runs."""

    initcheck: bool = False
    synccheck: bool = False
    racecheck: bool = False

    @classmethod
    def resolve(cls, initcheck: bool | None, synccheck: bool | None,
                racecheck: bool | None = None) -> Checks:
        """Launch options where given, else the settings."""
        return cls(INITCHECK.get() if initcheck is None else bool(initcheck),
                   SYNCCHECK.get() if synccheck is None else bool(synccheck),
                   RACECHECK.get() if racecheck is None else bool(racecheck))
