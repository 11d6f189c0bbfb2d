"""The kernel runtime's exceptions (defined with all others in `rocwmma_py.errors`)."""

from ..errors import (  # noqa: F401 - re-exported
    AtomicError,
    AtomicTypeError,
    BarrierError,
    DivergenceError,
    GlobalRaceError,
    InitCheckError,
    LdsLimitError,
    LdsRaceError,
    NotInKernelError,
    OutOfBoundsError,
    WorkerCountError,
)
