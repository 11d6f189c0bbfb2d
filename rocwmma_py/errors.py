"""Every exception the package raises, at the bottom of the layers so every layer can raise.

Each derives from `RocwmmaError` (catch everything the emulator reports with one clause) and
from the built-in exception that fits (`ValueError`, `TypeError`, `IndexError`,
`RuntimeError`), so code written against the built-in keeps working.
"""

from __future__ import annotations

from collections.abc import Callable

_created_hooks: list[Callable[[BaseException], None]] = []


def on_error_created(hook: Callable[[BaseException], None]) -> None:
    """Call `hook(err)` whenever a RocwmmaError is created (the kernel runtime marks a running
    batch with it: kernel code may catch the error, see runtime/state.py)."""
    _created_hooks.append(hook)


class RocwmmaError(Exception):
    """Base of every error rocwmma_py raises; the message names what was wrong and what is
    allowed."""

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        for hook in _created_hooks:
            hook(self)


class InternalError(RocwmmaError, AssertionError):
    """An invariant of the emulator's own tables failed: a bug in rocwmma_py, not in the
    caller's code."""


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


class LdsError(RocwmmaError, ValueError):
    """An LDS allocation the block cannot make: a non-positive or negative size, or waves
    asking for different arrays at the same shared_array/__shared__ call."""


class ElementIndexError(RocwmmaError, IndexError):
    """A __shared__ array indexed with more indices than it has dimensions, or a vector type
    with an element number it does not have."""


class SharedTypeError(RocwmmaError, TypeError):
    """A __shared__ array declared or assigned in a way C++ does not allow (no dimension,
    non-integer dimensions, assigning a whole row)."""


class LaunchError(RocwmmaError, ValueError):
    """A launch configuration HIP refuses: block or grid sizes beyond the limits, negative
    dynamic LDS, an unusable kernel argument value."""


class LaunchTypeError(RocwmmaError, TypeError):
    """A kernel defined or launched with the wrong kind of thing: not a plain function, wrong
    launch syntax, non-integer sizes, a non-bool sanitizer flag, an argument of a type the
    kernel cannot take."""


class ConfigError(RocwmmaError, ValueError):
    """A setting (`rocwmma_py.settings`) given a value it does not take, by its `use_*` call or
    its ROCWMMA_PY_* environment variable; the message names which and the values allowed.
    ArchError, WorkerCountError and NumericsError are the kinds of three settings."""


class ArchError(ConfigError):
    """An architecture name the emulator does not know (the message lists the known ones)."""


class PointerTypeError(RocwmmaError, TypeError):
    """A pointer or buffer used with the wrong kind of value: float or bool offsets, a
    non-array buffer (or one in non-native byte order, or not C-contiguous), pointers into
    different buffers subtracted or ordered (`p < q`: C orders only pointers into one
    array)."""


class AccessError(RocwmmaError, ValueError):
    """A memory access whose shapes do not fit (values, offsets, masks, per-lane addresses),
    a misaligned cast, or a store into a read-only array."""


class LaneValueError(RocwmmaError, ValueError):
    """A per-lane value (Lanes, a vector register) with a shape or content it cannot have."""


class LaneTypeError(RocwmmaError, TypeError):
    """A per-lane value used where its element type does not fit (float Lanes as an index)."""


class ElementTypeError(RocwmmaError, TypeError):
    """An element type the emulator has no such conversion or packing for."""


class PackingError(RocwmmaError, ValueError):
    """Register packing given values that do not fill whole registers or do not fit the type."""
class WorkerCountError(ConfigError):
    """$ROCWMMA_PY_WORKERS or use_workers(n) given something other than a positive integer."""


# --- the matrix cores and the fragment API ----------------------------------------------------

class UnsupportedInstructionError(RocwmmaError, RuntimeError):
    """The builtin does not exist on the target architecture."""


class BuiltinArgumentError(RocwmmaError, TypeError):
    """A builtin called with arguments that do not bind to its signature."""


class OperandTypeError(RocwmmaError, TypeError):
    """A matrix-core operand whose dtype the builtin's C++ type does not take (neither by value
    conversion nor as a packed integer vector); the message names the expected dtype and shape."""


class OperandShapeError(RocwmmaError, ValueError):
    """A matrix-core operand without one vector per lane of the wave, or with the wrong number
    of elements (bytes) per lane."""


class CrossLaneError(RocwmmaError, ValueError):
    """A cross-lane operation got a control value, width, lane or mask it does not accept."""


class ModifierError(RocwmmaError, ValueError):
    """A CBSZ/ABID/BLGP/OPSEL/sign/clamp value the instruction does not accept."""


class DeviceError(RocwmmaError, ValueError):
    """A device index other than 0 (HIP's hipErrorInvalidDevice): the emulator has one device,
    the current target."""


class SparsityError(RocwmmaError, ValueError):
    """A matrix that is not 4:2 sparse, or compressed values/indices/registers that do not fit
    the sparse instruction (message names the first offending row and group)."""


class FragmentError(RocwmmaError, TypeError):
    """A fragment type or use rocWMMA does not allow (message names what and why)."""


class FragmentValueError(RocwmmaError, ValueError):
    """A fragment call given a value it cannot use (ldm too small or too large, a per-lane
    pointer, a non-power-of-two Log2 argument)."""


class LayoutError(RocwmmaError, ValueError):
    """A fragment shape this layout family cannot hold (message says why)."""


class LayoutQueryError(RocwmmaError, ValueError):
    """An instruction, fragment or option the inspector cannot show (message lists choices)."""


class OptionalDependencyError(RocwmmaError, ImportError):
    """A feature needs an optional extra that is not installed (message names the extra)."""


class NumericsError(ConfigError):
    """An unknown numerics model name (use_numerics, $ROCWMMA_PY_NUMERICS, a launch's pin)."""
