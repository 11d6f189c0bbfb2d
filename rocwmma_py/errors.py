"""Every exception the package raises, at the bottom of the layers so every layer can raise.

Each derives from `RocwmmaError` (catch everything the emulator reports with one clause) and
from the built-in exception that fits (`ValueError`, `TypeError`, `IndexError`,
`RuntimeError`), so code written against the built-in keeps working.
"""

from __future__ import annotations


class RocwmmaError(Exception):
    """Base of every error rocwmma_py raises; the message names what was wrong and what is
    allowed."""


# --- the kernel runtime: one class per kind of kernel bug ------------------------------------

class DivergenceError(RocwmmaError, RuntimeError):
    """Python control flow (if/while/int()/range()) met a value that differs across lanes."""


class OutOfBoundsError(RocwmmaError, IndexError):
    """A lane read or wrote outside its buffer; nothing was written."""


class LdsLimitError(RocwmmaError, ValueError):
    """A block asked for more LDS (static + dynamic) than the target has."""


class LdsRaceError(RocwmmaError, RuntimeError):
    """Two waves touched the same LDS bytes between barriers (missing synchronize_workgroup())."""


class GlobalRaceError(RocwmmaError, RuntimeError):
    """racecheck: two blocks, or two waves of a block between barriers, touched one global
    memory element and at least one wrote it."""
class HalfTypeError(RocwmmaError, TypeError):
    """A half-precision intrinsic got values of a type it does not take (e.g. __hadd on
    float32, or a __half mixed with a __hip_bfloat16), or a pair without its 2-element axis."""


class NotInKernelError(RocwmmaError, RuntimeError):
    """A kernel-only built-in (threadIdx, lane_id(), shared_array, ...) ran outside a kernel."""


class InitCheckError(RocwmmaError, RuntimeError):
    """initcheck: a kernel read LDS bytes nobody wrote, or a fragment nobody filled."""


class BarrierError(RocwmmaError, RuntimeError):
    """synccheck: a barrier was reached by only some waves of a block."""


class AtomicTypeError(RocwmmaError, TypeError):
    """An atomic function called on an element type (or with values) HIP has no overload for."""


class AtomicError(RocwmmaError, ValueError):
    """An atomic function given values of the wrong shape, a misaligned packed address or a
    read-only buffer."""


class WorkerCountError(RocwmmaError, ValueError):
    """$ROCWMMA_PY_WORKERS or use_workers(n) given something other than a positive integer."""


# --- the matrix cores and the fragment API ----------------------------------------------------

class UnsupportedInstructionError(RocwmmaError, RuntimeError):
    """The builtin does not exist on the target architecture."""


class CrossLaneError(RocwmmaError, ValueError):
    """A cross-lane operation got a control value, width, lane or mask it does not accept."""


class ModifierError(RocwmmaError, ValueError):
    """A CBSZ/ABID/BLGP/OPSEL/sign/clamp value the instruction does not accept."""


class FragmentError(RocwmmaError, TypeError):
    """A fragment type or use rocWMMA does not allow (message names what and why)."""


class LayoutError(RocwmmaError, ValueError):
    """A fragment shape this layout family cannot hold (message says why)."""


class LayoutQueryError(RocwmmaError, ValueError):
    """An instruction, fragment or option the inspector cannot show (message lists choices)."""
